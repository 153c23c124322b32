// SPDX-License-Identifier: GPL-2.0
/*
 * test_dp.c - the DCN data plane (runtime/net/dp.h) on the host: the tcp
 * implementation over loopback, two data planes in one process driven by
 * one thread (so nothing may block on a peer that is not polled).
 *
 * Thousands of writes of random regions, offsets and lengths land exactly
 * where a shadow copy says, in order, with their cookies on both sides;
 * big writes cross in both directions at once; forged keys and bounds are
 * refused, counted, leave the memory alone and the connection usable;
 * garbage on the stream ends only that connection, counted; a peer that
 * goes away fails the writes in flight and the connection with a clear
 * error. Connecting never blocks: writes wait (-EAGAIN) for CONNECTED, a
 * refused connection ends in CLOSED with -ECONNREFUSED, and one whose
 * SYNs are dropped ends in CLOSED with -ETIMEDOUT at its deadline while
 * the other connections go on. AUTO picks tcp when there is no RDMA
 * device and says so.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "kselftest_harness.h"
#include "net_common.h"
#include "../../runtime/net/dp.h"

#define MAX_EVENTS	8192
/* A guard against hangs, not a timing assertion. */
#define HANG_MS		20000

struct evlog {
	struct pw_dp_event ev[MAX_EVENTS];
	unsigned int n;
};

static struct sockaddr_in loopback(uint16_t port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	return a;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

static struct pw_dp *open_tcp_timeout(unsigned int depth,
				      unsigned int connect_timeout_ms)
{
	struct pw_dp_opts o = {
		.mode = PW_DP_TCP,
		.bind = loopback(0),
		.depth = depth,
		.connect_timeout_ms = connect_timeout_ms,
	};
	struct pw_dp *dp;

	return pw_dp_open(&o, &dp) ? NULL : dp;
}

static struct pw_dp *open_tcp(unsigned int depth)
{
	return open_tcp_timeout(depth, 0);
}

/* Poll both (either may be NULL) once, sleeping a little when idle. */
static int pump(struct pw_dp *a, struct evlog *la, struct pw_dp *b,
		struct evlog *lb)
{
	struct pollfd pfd[2];
	struct pw_dp *dp[2] = { a, b };
	struct evlog *log[2] = { la, lb };
	int i, n, got = 0, nfd = 0;

	for (i = 0; i < 2; i++) {
		if (!dp[i])
			continue;
		n = pw_dp_poll(dp[i], log[i]->ev + log[i]->n,
			       MAX_EVENTS - log[i]->n);
		if (n < 0)
			return n;
		log[i]->n += n;
		got += n;
		pfd[nfd].fd = pw_dp_fd(dp[i]);
		pfd[nfd++].events = POLLIN;
	}
	if (!got)
		poll(pfd, nfd, 5);
	return got;
}

/* Pump until @log holds @n events (or the hang guard): 0 or -ETIMEDOUT. */
static int pump_until(struct pw_dp *a, struct evlog *la, struct pw_dp *b,
		      struct evlog *lb, struct evlog *log, unsigned int n)
{
	uint64_t end = mono_ms() + HANG_MS;

	while (log->n < n) {
		if (mono_ms() > end)
			return -ETIMEDOUT;
		if (pump(a, la, b, lb) < 0)
			return -EIO;
	}
	return 0;
}

/* The first event of @type in @log from @from on (of @conn unless NULL). */
static int find_event(const struct evlog *log, unsigned int from, int type,
		      const struct pw_dp_conn *conn)
{
	unsigned int i;

	for (i = from; i < log->n; i++)
		if ((int)log->ev[i].type == type &&
		    (!conn || log->ev[i].conn == conn))
			return (int)i;
	return -1;
}

/*
 * Pump until @log has an event of @type (of @conn unless NULL) from
 * @from on: its index, or -ETIMEDOUT. Other events may come between.
 */
static int pump_for(struct pw_dp *a, struct evlog *la, struct pw_dp *b,
		    struct evlog *lb, struct evlog *log, unsigned int from,
		    int type, const struct pw_dp_conn *conn)
{
	uint64_t end = mono_ms() + HANG_MS;
	int i;

	while ((i = find_event(log, from, type, conn)) < 0) {
		if (mono_ms() > end)
			return -ETIMEDOUT;
		if (pump(a, la, b, lb) < 0)
			return -EIO;
	}
	return i;
}

/*
 * @a connects to @b: @a's CONNECTED says its side is up, @b's ACCEPTED
 * gives @b's side (whatever else either logs meanwhile).
 */
static int connect_pair(struct pw_dp *a, struct pw_dp *b,
			struct pw_dp_conn **ca, struct pw_dp_conn **cb,
			struct evlog *la, struct evlog *lb)
{
	unsigned int a0 = la->n, b0 = lb->n;
	struct sockaddr_in at;
	int ret, ib;

	ret = pw_dp_local(b, &at);
	if (ret)
		return ret;
	ret = pw_dp_connect(a, &at, ca);
	if (ret)
		return ret;
	ib = pump_for(a, la, b, lb, lb, b0, PW_DP_EV_ACCEPTED, NULL);
	if (ib < 0)
		return ib;
	ret = pump_for(a, la, b, lb, la, a0, PW_DP_EV_CONNECTED, *ca);
	if (ret < 0)
		return ret;
	*cb = lb->ev[ib].conn;
	return 0;
}

/*
 * How a connection of @a's to @to ends up: pw_dp_connect()'s own error,
 * or 0 (CONNECTED) or the status of CLOSED, its first event. Closes it.
 */
static int connect_outcome(struct pw_dp *a, const struct sockaddr_in *to,
			   struct evlog *la)
{
	struct pw_dp_conn *c;
	unsigned int a0 = la->n;
	int ret = pw_dp_connect(a, to, &c);

	if (ret)
		return ret;
	ret = pump_until(a, la, NULL, NULL, la, a0 + 1);
	if (!ret && la->ev[a0].conn != c)
		ret = -EPROTO;
	else if (!ret)
		ret = la->ev[a0].type == PW_DP_EV_CONNECTED ? 0 :
		      la->ev[a0].type == PW_DP_EV_CLOSED ? la->ev[a0].status :
		      -EPROTO;
	pw_dp_conn_close(c);
	return ret;
}

/* @src registered on @a, @dst on @b, and @dst's descriptor in @d. */
static int reg_both(struct pw_dp *a, void *src, uint64_t src_len,
		    struct pw_dp_region **rs, struct pw_dp *b, void *dst,
		    uint64_t dst_len, struct pw_dp_region **rd,
		    struct pw_dp_desc *d)
{
	int ret = pw_dp_reg(a, src, src_len, rs);

	if (!ret)
		ret = pw_dp_reg(b, dst, dst_len, rd);
	if (!ret)
		pw_dp_region_desc(*rd, d);
	return ret;
}

/* The harness compares like types only; enum constants are int. */
static int ev_type(const struct pw_dp_event *e)
{
	return e->type;
}

static void fill_random(uint8_t *p, size_t len, uint64_t *rng)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = net_rand(rng);
}

TEST(desc_pack_round_trip)
{
	struct pw_dp_desc d = {
		.addr = 0x0123456789abcdefull,
		.len = 0xfedcba9876543210ull,
		.key = 0xdeadbeef,
	}, e;
	uint8_t buf[PW_DP_DESC_SIZE];

	pw_dp_desc_pack(&d, buf);
	EXPECT_EQ(0xef, buf[0]);	/* little-endian */
	EXPECT_EQ(0xef, buf[16]);
	ASSERT_EQ(0, pw_dp_desc_unpack(buf, &e));
	EXPECT_EQ(d.addr, e.addr);
	EXPECT_EQ(d.len, e.len);
	EXPECT_EQ(d.key, e.key);
	buf[23] = 1;
	EXPECT_EQ(-EINVAL, pw_dp_desc_unpack(buf, &e));
}

TEST(auto_reports_its_choice)
{
	struct pw_dp_opts o = { .mode = PW_DP_AUTO, .bind = loopback(0) };
	struct ibv_device **list;
	struct pw_dp *dp;
	int ndev = 0;

	list = ibv_get_device_list(&ndev);
	if (list)
		ibv_free_device_list(list);
	ASSERT_EQ(0, pw_dp_open(&o, &dp));
	TH_LOG("AUTO on 127.0.0.1: %s (%s)", pw_dp_kind(dp), pw_dp_note(dp));
	EXPECT_NE(NULL, strstr(pw_dp_note(dp), pw_dp_kind(dp)));
	if (!ndev) {
		EXPECT_STREQ("tcp", pw_dp_kind(dp));
		EXPECT_NE(NULL, strstr(pw_dp_note(dp), "no RDMA device"));
	}
	pw_dp_close(dp);

	o.mode = PW_DP_RDMA;
	if (!ndev) {
		EXPECT_EQ(-ENODEV, pw_dp_open(&o, &dp));
	}
	o.mode = 7;
	EXPECT_EQ(-EINVAL, pw_dp_open(&o, &dp));
	o.mode = PW_DP_TCP;
	o.bind.sin_family = AF_INET6;
	EXPECT_EQ(-EAFNOSUPPORT, pw_dp_open(&o, &dp));
}

#define NSRC	4
#define NDST	8
#define NWRITES	3000u

/*
 * Random writes from four source regions into eight target regions, at
 * most depth (16) in flight: both sides see every cookie once, in order,
 * and the targets end up byte for byte as the shadow copy.
 */
TEST(random_writes_land_in_order)
{
	static struct evlog la, lb;
	uint64_t rng = 42, src_len[NSRC], dst_len[NDST];
	uint8_t *src[NSRC], *dst[NDST], *shadow[NDST];
	struct pw_dp_region *rs[NSRC], *rd[NDST];
	struct pw_dp_desc desc[NDST];
	uint64_t want_len[NWRITES];
	struct pw_dp_conn *ca, *cb;
	unsigned int i, issued = 0, done_a = 0, done_b = 0;
	struct pw_dp *a = open_tcp(16), *b = open_tcp(16);
	struct pw_dp_stats st;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	la.n = lb.n = 0;
	for (i = 0; i < NSRC; i++) {
		src_len[i] = 1 + net_below(&rng, 512 * 1024);
		src[i] = malloc(src_len[i]);
		ASSERT_NE(NULL, src[i]);
		fill_random(src[i], src_len[i], &rng);
		ASSERT_EQ(0, pw_dp_reg(a, src[i], src_len[i], &rs[i]));
	}
	for (i = 0; i < NDST; i++) {
		dst_len[i] = 1 + net_below(&rng, 256 * 1024);
		dst[i] = calloc(1, dst_len[i]);
		shadow[i] = calloc(1, dst_len[i]);
		ASSERT_NE(NULL, dst[i]);
		ASSERT_NE(NULL, shadow[i]);
		ASSERT_EQ(0, pw_dp_reg(b, dst[i], dst_len[i], &rd[i]));
		pw_dp_region_desc(rd[i], &desc[i]);
	}
	ASSERT_EQ(0, connect_pair(a, b, &ca, &cb, &la, &lb));
	la.n = lb.n = 0;

	while (done_a < NWRITES || done_b < NWRITES) {
		while (issued < NWRITES) {
			unsigned int s = net_below(&rng, NSRC);
			unsigned int d = net_below(&rng, NDST);
			uint64_t max = src_len[s] < dst_len[d] ?
				       src_len[s] : dst_len[d];
			/* Mostly small, sometimes up to the whole region. */
			uint64_t small = max < 4096 ? max : 4096;
			uint64_t len = net_chance(&rng, 900) ?
				       net_below(&rng, small) :
				       net_below(&rng, max + 1);
			uint64_t so = net_below(&rng, src_len[s] - len + 1);
			uint64_t doff = net_below(&rng, dst_len[d] - len + 1);
			int ret = pw_dp_write(ca, rs[s], so, &desc[d], doff,
					      len, issued);

			if (ret == -EAGAIN)
				break;
			ASSERT_EQ(0, ret);
			memcpy(shadow[d] + doff, src[s] + so, len);
			want_len[issued++] = len;
		}
		ASSERT_LE(0, pump(a, &la, b, &lb));
		for (; done_a < la.n; done_a++) {
			ASSERT_EQ(PW_DP_EV_WRITE_DONE, ev_type(&la.ev[done_a]));
			ASSERT_EQ(0, la.ev[done_a].status);
			ASSERT_EQ(done_a, (unsigned int)la.ev[done_a].cookie);
			ASSERT_EQ(want_len[done_a], la.ev[done_a].len);
			ASSERT_EQ(ca, la.ev[done_a].conn);
		}
		for (; done_b < lb.n; done_b++) {
			ASSERT_EQ(PW_DP_EV_LANDED, ev_type(&lb.ev[done_b]));
			ASSERT_EQ(done_b, (unsigned int)lb.ev[done_b].cookie);
			ASSERT_EQ(want_len[done_b], lb.ev[done_b].len);
			ASSERT_EQ(cb, lb.ev[done_b].conn);
		}
	}
	for (i = 0; i < NDST; i++)
		EXPECT_EQ(0, memcmp(dst[i], shadow[i], dst_len[i]));
	pw_dp_stats(b, &st);
	EXPECT_EQ(NWRITES, st.landed);
	EXPECT_EQ(0ull, st.rx_bad_key + st.rx_bad_bounds + st.rx_bad_proto);
	pw_dp_stats(a, &st);
	EXPECT_EQ(NWRITES, st.writes);
	EXPECT_EQ(0ull, st.write_errors);
	pw_dp_close(a);
	pw_dp_close(b);
	for (i = 0; i < NSRC; i++)
		free(src[i]);
	for (i = 0; i < NDST; i++) {
		free(dst[i]);
		free(shadow[i]);
	}
}

#define BIG	(8ull << 20)

/*
 * 8 MiB writes cross in both directions at once on one connection: with
 * one thread polling both ends, nothing may wait for the other to read.
 */
TEST(big_writes_cross_both_ways)
{
	static struct evlog la, lb;
	uint64_t rng = 7;
	uint8_t *a_src = malloc(BIG), *a_dst = calloc(1, BIG);
	uint8_t *b_src = malloc(BIG), *b_dst = calloc(1, BIG);
	struct pw_dp_region *ras, *rad, *rbs, *rbd;
	struct pw_dp_desc da, db;
	struct pw_dp_conn *ca, *cb;
	struct pw_dp *a = open_tcp(4), *b = open_tcp(4);
	unsigned int i, wa = 0, la_done = 0, lb_done = 0;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, a_src);
	ASSERT_NE(NULL, b_src);
	ASSERT_NE(NULL, a_dst);
	ASSERT_NE(NULL, b_dst);
	la.n = lb.n = 0;
	fill_random(a_src, BIG, &rng);
	fill_random(b_src, BIG, &rng);
	ASSERT_EQ(0, pw_dp_reg(a, a_src, BIG, &ras));
	ASSERT_EQ(0, pw_dp_reg(a, a_dst, BIG, &rad));
	ASSERT_EQ(0, pw_dp_reg(b, b_src, BIG, &rbs));
	ASSERT_EQ(0, pw_dp_reg(b, b_dst, BIG, &rbd));
	pw_dp_region_desc(rad, &da);
	pw_dp_region_desc(rbd, &db);
	ASSERT_EQ(0, connect_pair(a, b, &ca, &cb, &la, &lb));
	la.n = lb.n = 0;
	/* Four quarters each way, all in flight before anyone polls. */
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, pw_dp_write(ca, ras, i * (BIG / 4), &db,
					 i * (BIG / 4), BIG / 4, 100 + i));
		ASSERT_EQ(0, pw_dp_write(cb, rbs, i * (BIG / 4), &da,
					 i * (BIG / 4), BIG / 4, 200 + i));
	}
	EXPECT_EQ(-EAGAIN, pw_dp_write(ca, ras, 0, &db, 0, 1, 0));
	/* Each side: 4 WRITE_DONE and 4 LANDED. */
	ASSERT_EQ(0, pump_until(a, &la, b, &lb, &la, 8));
	ASSERT_EQ(0, pump_until(a, &la, b, &lb, &lb, 8));
	for (i = 0; i < 8; i++) {
		const struct pw_dp_event *e = &la.ev[i];

		EXPECT_EQ(0, e->status);
		EXPECT_EQ(BIG / 4, e->len);
		if (e->type == PW_DP_EV_WRITE_DONE) {
			EXPECT_EQ(100 + wa++, e->cookie);
		} else {
			EXPECT_EQ(200 + la_done++, e->cookie);
		}
		e = &lb.ev[i];
		if (e->type == PW_DP_EV_LANDED) {
			EXPECT_EQ(100 + lb_done++, e->cookie);
		}
	}
	EXPECT_EQ(4u, wa);
	EXPECT_EQ(4u, la_done);
	EXPECT_EQ(4u, lb_done);
	EXPECT_EQ(0, memcmp(a_src, b_dst, BIG));
	EXPECT_EQ(0, memcmp(b_src, a_dst, BIG));
	pw_dp_close(a);
	pw_dp_close(b);
	free(a_src);
	free(a_dst);
	free(b_src);
	free(b_dst);
}

/* One write and its two events; returns the writer's status. */
static int write_one(struct pw_dp *a, struct pw_dp *b, struct pw_dp_conn *ca,
		     const struct pw_dp_region *src, const struct pw_dp_desc *d,
		     uint64_t len, uint32_t cookie, struct evlog *la,
		     struct evlog *lb)
{
	int ret;

	la->n = lb->n = 0;
	ret = pw_dp_write(ca, src, 0, d, 0, len, cookie);
	if (ret)
		return 1000 + ret;
	if (pump_until(a, la, b, lb, la, 1))
		return 2000;
	if (la->ev[0].type != PW_DP_EV_WRITE_DONE ||
	    la->ev[0].cookie != cookie)
		return 3000;
	return la->ev[0].status;
}

/*
 * Forged descriptors: a key nobody registered, bounds that reach past the
 * region, a deregistered region. The target refuses each, counts it,
 * reports no LANDED and leaves its memory alone; the connection goes on.
 */
TEST(forged_writes_refused_and_counted)
{
	static struct evlog la, lb;
	uint8_t src[4096], *mem = calloc(1, 3 * 4096);
	struct pw_dp_region *rs, *rd, *rgone;
	struct pw_dp_desc d, forged;
	struct pw_dp_conn *ca, *cb;
	struct pw_dp *a = open_tcp(8), *b = open_tcp(8);
	struct pw_dp_stats st;
	unsigned int i;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, mem);
	memset(src, 0xab, sizeof(src));
	memset(mem, 0x11, 3 * 4096);
	ASSERT_EQ(0, pw_dp_reg(a, src, sizeof(src), &rs));
	/* The middle page only: its neighbours must stay 0x11. */
	ASSERT_EQ(0, pw_dp_reg(b, mem + 4096, 4096, &rd));
	pw_dp_region_desc(rd, &d);
	ASSERT_EQ(0, connect_pair(a, b, &ca, &cb, &la, &lb));

	/* The writer's own checks. */
	EXPECT_EQ(-ERANGE, pw_dp_write(ca, rs, 1, &d, 0, 4096, 1));
	EXPECT_EQ(-ERANGE, pw_dp_write(ca, rs, 0, &d, 1, 4096, 1));
	EXPECT_EQ(-ERANGE, pw_dp_write(ca, rs, UINT64_MAX, &d, 0, 2, 1));
	EXPECT_EQ(-EINVAL, pw_dp_write(ca, rs, 0, &d, 0,
				       PW_DP_MAX_WRITE + 1, 1));

	forged = d;
	forged.key ^= 0x5a5a5a5a;
	EXPECT_EQ(-EACCES, write_one(a, b, ca, rs, &forged, 100, 10, &la,
				     &lb));
	/* Claims more than was registered: runs past the end. */
	forged = d;
	forged.addr += 4000;
	EXPECT_EQ(-ERANGE, write_one(a, b, ca, rs, &forged, 200, 11, &la,
				     &lb));
	/* ... and before the start. */
	forged = d;
	forged.addr -= 8;
	EXPECT_EQ(-ERANGE, write_one(a, b, ca, rs, &forged, 16, 12, &la,
				     &lb));
	forged = d;
	forged.addr = UINT64_MAX - 8;
	EXPECT_EQ(-ERANGE, write_one(a, b, ca, rs, &forged, 16, 13, &la,
				     &lb));
	/* A region deregistered since its descriptor went out. */
	ASSERT_EQ(0, pw_dp_reg(b, mem, 4096, &rgone));
	pw_dp_region_desc(rgone, &forged);
	pw_dp_dereg(rgone);
	EXPECT_EQ(-EACCES, write_one(a, b, ca, rs, &forged, 64, 14, &la,
				     &lb));
	pump(a, &la, b, &lb);
	for (i = 0; i < lb.n; i++)
		EXPECT_NE(PW_DP_EV_LANDED, ev_type(&lb.ev[i]));
	for (i = 0; i < 3 * 4096; i++)
		if (mem[i] != 0x11)
			break;
	EXPECT_EQ(3 * 4096u, i);

	pw_dp_stats(b, &st);
	EXPECT_EQ(2ull, st.rx_bad_key);
	EXPECT_EQ(3ull, st.rx_bad_bounds);
	EXPECT_EQ(0ull, st.landed);
	pw_dp_stats(a, &st);
	EXPECT_EQ(5ull, st.write_errors);

	/* The same connection still carries good writes. */
	EXPECT_EQ(0, write_one(a, b, ca, rs, &d, 4096, 15, &la, &lb));
	ASSERT_EQ(0, pump_until(a, &la, b, &lb, &lb, 1));
	EXPECT_EQ(PW_DP_EV_LANDED, ev_type(&lb.ev[0]));
	EXPECT_EQ(15u, lb.ev[0].cookie);
	EXPECT_EQ(0, memcmp(mem + 4096, src, 4096));
	EXPECT_EQ(0x11, mem[4095]);
	EXPECT_EQ(0x11, mem[8192]);
	pw_dp_close(a);
	pw_dp_close(b);
	free(mem);
}

/* A plain TCP socket connected to @dp, or -1. */
static int raw_connect(struct pw_dp *dp)
{
	struct sockaddr_in at;
	int fd;

	if (pw_dp_local(dp, &at))
		return -1;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&at, sizeof(at))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void put_le(uint8_t *p, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = v >> (8 * i);
}

/*
 * Streams no data plane would send: random bytes, a write longer than
 * PW_DP_MAX_WRITE, an ACK for a write never made, an unknown version.
 * Each ends its own connection with -EPROTO and is counted; a proper
 * connection to the same data plane keeps working.
 */
TEST(garbage_streams_dropped_and_counted)
{
	static struct evlog la, lb;
	uint8_t msg[40], src[64], dst[64];
	struct pw_dp_region *rs, *rd;
	struct pw_dp_conn *ca, *cb;
	struct pw_dp *a = open_tcp(8), *b = open_tcp(8);
	struct pw_dp_stats st;
	struct pw_dp_desc d;
	uint64_t rng = 99;
	int kind, fd;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	memset(src, 0x5c, sizeof(src));
	ASSERT_EQ(0, reg_both(a, src, sizeof(src), &rs, b, dst, sizeof(dst),
			      &rd, &d));
	ASSERT_EQ(0, connect_pair(a, b, &ca, &cb, &la, &lb));

	for (kind = 0; kind < 4; kind++) {
		memset(msg, 0, sizeof(msg));
		put_le(msg, 0x50445750u, 4);
		put_le(msg + 6, 1, 2);
		switch (kind) {
		case 0:
			fill_random(msg, sizeof(msg), &rng);
			break;
		case 1:		/* WRITE of 1 GiB + 1 */
			put_le(msg + 4, 1, 2);
			put_le(msg + 12, d.key, 4);
			put_le(msg + 16, d.addr, 8);
			put_le(msg + 24, PW_DP_MAX_WRITE + 1, 8);
			break;
		case 2:		/* ACK for nothing */
			put_le(msg + 4, 2, 2);
			break;
		case 3:		/* version 2 */
			put_le(msg + 4, 1, 2);
			put_le(msg + 6, 2, 2);
			break;
		}
		fd = raw_connect(b);
		ASSERT_LE(0, fd);
		ASSERT_EQ((ssize_t)sizeof(msg), write(fd, msg, sizeof(msg)));
		lb.n = 0;
		ASSERT_EQ(0, pump_until(a, &la, b, &lb, &lb, 2));
		EXPECT_EQ(PW_DP_EV_ACCEPTED, ev_type(&lb.ev[0]));
		EXPECT_EQ(PW_DP_EV_CLOSED, ev_type(&lb.ev[1]));
		EXPECT_EQ(-EPROTO, lb.ev[1].status);
		EXPECT_EQ(lb.ev[0].conn, lb.ev[1].conn);
		EXPECT_EQ(-ENOTCONN, pw_dp_write(lb.ev[1].conn, rd, 0, &d, 0,
						 1, 0));
		pw_dp_conn_close(lb.ev[1].conn);
		close(fd);
	}
	pw_dp_stats(b, &st);
	EXPECT_EQ(4ull, st.rx_bad_proto);
	EXPECT_EQ(0, write_one(a, b, ca, rs, &d, sizeof(src), 77, &la, &lb));
	ASSERT_EQ(0, pump_until(a, &la, b, &lb, &lb, 1));
	EXPECT_EQ(77u, lb.ev[0].cookie);
	EXPECT_EQ(0, memcmp(src, dst, sizeof(src)));
	pw_dp_close(a);
	pw_dp_close(b);
}

/*
 * The target drops the connection with writes in flight: the writer sees
 * each of them fail with -ECONNRESET, then CLOSED, and no more writes go.
 * A data plane that is gone refuses connections.
 */
TEST(peer_disconnect_is_a_clear_error)
{
	static struct evlog la, lb;
	uint8_t src[4096] = { 0 }, dst[4096];
	struct pw_dp_region *rs, *rd;
	struct pw_dp_conn *ca, *cb;
	struct pw_dp *a = open_tcp(8), *b = open_tcp(8);
	struct sockaddr_in gone;
	struct pw_dp_desc d;
	unsigned int i;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, reg_both(a, src, sizeof(src), &rs, b, dst, sizeof(dst),
			      &rd, &d));
	ASSERT_EQ(0, connect_pair(a, b, &ca, &cb, &la, &lb));
	ASSERT_EQ(1u, pw_dp_open_conns(a));
	ASSERT_EQ(1u, pw_dp_open_conns(b));	/* the accepted one */
	la.n = 0;
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pw_dp_write(ca, rs, 0, &d, 0, sizeof(src), i));
	/* b never polls them: they are in flight when it hangs up. */
	pw_dp_conn_close(cb);
	ASSERT_EQ(0u, pw_dp_open_conns(b));
	ASSERT_EQ(0, pump_until(a, &la, NULL, NULL, &la, 4));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(PW_DP_EV_WRITE_DONE, ev_type(&la.ev[i]));
		EXPECT_EQ(-ECONNRESET, la.ev[i].status);
		EXPECT_EQ(i, la.ev[i].cookie);
	}
	EXPECT_EQ(PW_DP_EV_CLOSED, ev_type(&la.ev[3]));
	EXPECT_EQ(-ECONNRESET, la.ev[3].status);
	EXPECT_EQ(ca, la.ev[3].conn);
	EXPECT_EQ(-ENOTCONN, pw_dp_write(ca, rs, 0, &d, 0, 1, 9));
	/* Ended, but its slot is held until its owner closes it. */
	EXPECT_EQ(1u, pw_dp_open_conns(a));
	pw_dp_conn_close(ca);
	EXPECT_EQ(0u, pw_dp_open_conns(a));

	ASSERT_EQ(0, pw_dp_local(b, &gone));
	pw_dp_close(b);
	la.n = 0;
	EXPECT_EQ(-ECONNREFUSED, connect_outcome(a, &gone, &la));
	pw_dp_close(a);
}

/* A connection is usable from its CONNECTED on, not before. */
TEST(writes_wait_for_connected)
{
	static struct evlog la, lb;
	uint8_t src[64] = { 0 }, dst[64];
	struct pw_dp *a = open_tcp(8), *b = open_tcp(8);
	struct pw_dp_region *rs, *rd;
	struct pw_dp_stats st;
	struct pw_dp_conn *c;
	struct sockaddr_in at;
	struct pw_dp_desc d;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, reg_both(a, src, sizeof(src), &rs, b, dst, sizeof(dst),
			      &rd, &d));
	ASSERT_EQ(0, pw_dp_local(b, &at));
	la.n = 0;
	lb.n = 0;
	ASSERT_EQ(0, pw_dp_connect(a, &at, &c));
	/* Nothing polled yet: not up, whatever the handshake did. */
	EXPECT_EQ(-EAGAIN, pw_dp_write(c, rs, 0, &d, 0, 8, 1));
	ASSERT_EQ(0, pump_until(a, &la, b, &lb, &la, 1));
	ASSERT_EQ(PW_DP_EV_CONNECTED, ev_type(&la.ev[0]));
	EXPECT_EQ(c, la.ev[0].conn);
	EXPECT_EQ(0, la.ev[0].status);
	pw_dp_stats(a, &st);
	EXPECT_EQ(1u, st.connected);
	la.n = 0;
	ASSERT_EQ(0, pw_dp_write(c, rs, 0, &d, 0, 8, 2));
	ASSERT_EQ(0, pump_until(a, &la, b, &lb, &la, 1));
	EXPECT_EQ(PW_DP_EV_WRITE_DONE, ev_type(&la.ev[0]));
	EXPECT_EQ(0, la.ev[0].status);
	EXPECT_EQ(2u, la.ev[0].cookie);
	pw_dp_conn_close(c);
	pw_dp_close(b);
	pw_dp_close(a);
}

/*
 * A peer that never answers costs its connection, at the deadline, and
 * nothing else: pw_dp_connect() returns at once and other connections
 * come up and work meanwhile.
 */
TEST(connect_deadline_without_blocking)
{
	static struct evlog la, lb;
	uint8_t src[64] = { 0 };
	struct pw_dp *a = open_tcp_timeout(8, 300), *b = open_tcp(8);
	struct pw_dp_conn *stuck, *ok_a, *ok_b;
	struct pw_dp_region *rs, *rd;
	struct sockaddr_in full;
	struct pw_dp_desc d;
	uint8_t dst[64];
	socklen_t len = sizeof(full);
	int lfd, fill, i;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, reg_both(a, src, sizeof(src), &rs, b, dst, sizeof(dst),
			      &rd, &d));
	/*
	 * A listener whose accept queue is full drops SYNs: the handshake
	 * neither completes nor fails, only the deadline ends it.
	 */
	full = loopback(0);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&full, sizeof(full)));
	ASSERT_EQ(0, listen(lfd, 0));
	ASSERT_EQ(0, getsockname(lfd, (struct sockaddr *)&full, &len));
	/* Once this (blocking) connect returns, the queue is full. */
	fill = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(fill, 0);
	ASSERT_EQ(0, connect(fill, (struct sockaddr *)&full, sizeof(full)));
	la.n = 0;
	lb.n = 0;
	ASSERT_EQ(0, pw_dp_connect(a, &full, &stuck));
	/* Meanwhile another connection comes up and works. */
	ASSERT_EQ(0, connect_pair(a, b, &ok_a, &ok_b, &la, &lb));
	i = pump_for(a, &la, b, &lb, &la, 0, PW_DP_EV_CLOSED, stuck);
	ASSERT_GE(i, 0);
	EXPECT_EQ(-ETIMEDOUT, la.ev[i].status);
	/* It never came up, and nothing else of it was reported. */
	EXPECT_EQ(-1, find_event(&la, 0, PW_DP_EV_CONNECTED, stuck));
	EXPECT_EQ(-1, find_event(&la, (unsigned int)i + 1, PW_DP_EV_CLOSED,
				 stuck));
	EXPECT_EQ(-ENOTCONN, pw_dp_write(stuck, rs, 0, &d, 0, 1, 1));
	/* The other one works. */
	la.n = 0;
	ASSERT_EQ(0, pw_dp_write(ok_a, rs, 0, &d, 0, sizeof(src), 3));
	ASSERT_EQ(0, pump_until(a, &la, b, &lb, &la, 1));
	EXPECT_EQ(PW_DP_EV_WRITE_DONE, ev_type(&la.ev[0]));
	EXPECT_EQ(0, la.ev[0].status);
	pw_dp_conn_close(stuck);
	pw_dp_conn_close(ok_a);
	close(fill);
	close(lfd);
	pw_dp_close(b);
	pw_dp_close(a);
}

TEST_HARNESS_MAIN
