// SPDX-License-Identifier: GPL-2.0
/*
 * test_dp_hosts.c - the DCN data plane (runtime/net/dp.h) between two
 * testbed guests, device buffer to device buffer. Both hosts run this
 * binary (selftests/net/dp_hosts.sh boots them with tools/testbed-multi
 * --rxe); PWTPU_HOST_INDEX gives the role: host 0 writes, host 1 is the
 * target. A small TCP side channel of the test's own carries the target's
 * region descriptor and the verdict.
 *
 *   rdma  AUTO must choose rdma on soft-RoCE. Host 0 uploads a pattern
 *         into a BO of /dev/pwtpu0 (pwtpu_copy_to_dev), registers the BO's
 *         mapping and RDMA-writes it in 1 MiB pieces into host 1's BO,
 *         whose mapping is registered too: no bounce buffer on either side.
 *         Host 1 sees every cookie land in order and reads the BO back
 *         through the device (pwtpu_copy_from_dev). Then a write with a
 *         forged rkey is refused by the target's device (-EACCES) and
 *         changes nothing.
 *   tcp   the same transfer with the data plane forced to tcp.
 *
 * With --bench (not a test), the hosts measure write latency and
 * bandwidth over rdma and tcp side by side and host 0 prints a table.
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

#include "kselftest_harness.h"
#include "pwtpu/pwtpu_dev.h"
#include "../../runtime/net/dp.h"

#define XFER_SIZE	(16u << 20)
#define CHUNK		(1u << 20)
#define SIDE_PORT	7480
#define DP_PORT		7470
#define WAIT_MS		60000	/* the other guest may boot late */

struct host {
	int index;
	struct sockaddr_in self;
	struct sockaddr_in peer;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* This host and its peer from testbed-multi's environment; -1 outside. */
static int host_from_env(struct host *h)
{
	const char *idx = getenv("PWTPU_HOST_INDEX");
	const char *ip = getenv("PWTPU_DCN_IP");
	const char *peers = getenv("PWTPU_DCN_PEERS");
	char list[256], *tok, *save;
	int i = 0;

	if (!idx || !ip || !peers || strlen(peers) >= sizeof(list))
		return -1;
	memset(h, 0, sizeof(*h));
	h->index = atoi(idx);
	if (h->index > 1)
		return -1;
	h->self.sin_family = AF_INET;
	if (inet_pton(AF_INET, ip, &h->self.sin_addr) != 1)
		return -1;
	strcpy(list, peers);
	for (tok = strtok_r(list, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		if (i != 1 - h->index)
			continue;
		h->peer.sin_family = AF_INET;
		if (inet_pton(AF_INET, tok, &h->peer.sin_addr) != 1)
			return -1;
		return 0;
	}
	return -1;
}

static struct sockaddr_in with_port(struct sockaddr_in a, uint16_t port)
{
	a.sin_port = htons(port);
	return a;
}

/* Host 1 listens, host 0 connects (retrying while host 1 boots). */
static int side_open(const struct host *h, uint16_t port)
{
	struct sockaddr_in a;
	uint64_t end = mono_ns() + WAIT_MS * 1000000ull;
	int one = 1, fd, lfd;

	if (h->index == 1) {
		struct pollfd pfd = { .events = POLLIN };

		a = with_port(h->self, port);
		lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (lfd < 0)
			return -errno;
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) ||
		    listen(lfd, 1)) {
			close(lfd);
			return -errno;
		}
		pfd.fd = lfd;
		fd = poll(&pfd, 1, WAIT_MS) == 1 ? accept(lfd, NULL, NULL) : -1;
		close(lfd);
		return fd < 0 ? -ETIMEDOUT : fd;
	}
	a = with_port(h->peer, port);
	while (mono_ns() < end) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		usleep(100 * 1000);
	}
	return -ETIMEDOUT;
}

static int side_send(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len ? 0 : -EIO;
}

static int side_recv(int fd, void *buf, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (poll(&pfd, 1, WAIT_MS) != 1)
			return -ETIMEDOUT;
		n = read(fd, (uint8_t *)buf + got, len - got);
		if (n <= 0)
			return -EIO;
		got += n;
	}
	return 0;
}

static int send_desc(int fd, const struct pw_dp_desc *d)
{
	uint8_t buf[PW_DP_DESC_SIZE];

	pw_dp_desc_pack(d, buf);
	return side_send(fd, buf, sizeof(buf));
}

static int recv_desc(int fd, struct pw_dp_desc *d)
{
	uint8_t buf[PW_DP_DESC_SIZE];
	int ret = side_recv(fd, buf, sizeof(buf));

	return ret ? ret : pw_dp_desc_unpack(buf, d);
}

static uint8_t pattern(uint64_t i)
{
	return (uint8_t)(i * 2654435761u >> 13);
}

/* One event, waiting up to WAIT_MS: 1, or 0 on timeout, or -errno. */
static int next_event(struct pw_dp *dp, struct pw_dp_event *ev)
{
	uint64_t end = mono_ns() + WAIT_MS * 1000000ull;
	int n;

	for (;;) {
		n = pw_dp_poll(dp, ev, 1);
		if (n)
			return n;
		if (mono_ns() > end)
			return 0;
		pw_dp_wait(dp, 100);
	}
}

/* Connect to @peer and wait for it to come up: 0, or -1. */
static int connect_up(struct pw_dp *dp, const struct sockaddr_in *peer,
		      struct pw_dp_conn **c)
{
	struct pw_dp_event ev;

	if (pw_dp_connect(dp, peer, c))
		return -1;
	if (next_event(dp, &ev) == 1 && ev.type == PW_DP_EV_CONNECTED &&
	    ev.conn == *c)
		return 0;
	pw_dp_conn_close(*c);
	return -1;
}

static struct pw_dp *open_dp(const struct host *h, enum pw_dp_mode mode,
			     uint16_t port)
{
	struct pw_dp_opts o = {
		.mode = mode,
		.bind = with_port(h->self, port),
		.depth = 32,
	};
	struct pw_dp *dp;
	int ret = pw_dp_open(&o, &dp);

	if (ret) {
		fprintf(stderr, "pw_dp_open: %s\n", strerror(-ret));
		return NULL;
	}
	fprintf(stderr, "# host %d data plane: %s (%s)\n", h->index,
		pw_dp_kind(dp), pw_dp_note(dp));
	return dp;
}

/*
 * Host 0's part: upload the pattern, write the BO into the peer's, wait
 * for every write and for the peer's verdict.
 */
static void writer(struct __test_metadata *_metadata,
		   const struct sockaddr_in *peer, struct pw_dp *dp, int side,
		   int dev, int forge)
{
	struct pw_dp_event ev;
	struct pw_dp_region *reg;
	struct pw_dp_conn *conn;
	struct pw_dp_desc d;
	struct pwtpu_bo bo;
	uint8_t *buf = malloc(XFER_SIZE), verdict = 0;
	unsigned int i, posted = 0, done = 0;
	int ret;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < XFER_SIZE; i++)
		buf[i] = pattern(i);
	ASSERT_EQ(0, pwtpu_bo_alloc(dev, XFER_SIZE, &bo));
	ASSERT_EQ(0, pwtpu_copy_to_dev(dev, bo.handle, 0, buf, XFER_SIZE));
	ASSERT_EQ(0, pw_dp_reg(dp, bo.map, XFER_SIZE, &reg));
	ASSERT_EQ(0, recv_desc(side, &d));
	ASSERT_EQ(XFER_SIZE, d.len);
	/* It comes up in the background: writes wait for CONNECTED. */
	ASSERT_EQ(0, connect_up(dp, peer, &conn));
	while (done < XFER_SIZE / CHUNK) {
		while (posted < XFER_SIZE / CHUNK) {
			ret = pw_dp_write(conn, reg, posted * CHUNK, &d,
					  posted * CHUNK, CHUNK, posted);
			if (ret == -EAGAIN)
				break;
			ASSERT_EQ(0, ret);
			posted++;
		}
		ASSERT_EQ(1, next_event(dp, &ev));
		ASSERT_EQ(PW_DP_EV_WRITE_DONE, (int)ev.type);
		ASSERT_EQ(0, ev.status);
		ASSERT_EQ(done, ev.cookie);
		ASSERT_EQ(CHUNK, ev.len);
		done++;
	}
	ASSERT_EQ(0, side_recv(side, &verdict, 1));
	EXPECT_EQ('y', verdict);
	if (forge) {
		/* A key the peer never gave out: its device refuses. */
		d.key ^= 0x00ff0000;
		ASSERT_EQ(0, pw_dp_write(conn, reg, 0, &d, 0, 4096, 999));
		ASSERT_EQ(1, next_event(dp, &ev));
		EXPECT_EQ(PW_DP_EV_WRITE_DONE, (int)ev.type);
		EXPECT_EQ(999u, ev.cookie);
		EXPECT_NE(0, ev.status);
		TH_LOG("forged rkey: %s", strerror(-ev.status));
		ASSERT_EQ(0, side_send(side, "f", 1));
		ASSERT_EQ(0, side_recv(side, &verdict, 1));
		EXPECT_EQ('y', verdict);
	}
	pw_dp_conn_close(conn);
	pw_dp_dereg(reg);
	pwtpu_bo_free(dev, &bo);
	free(buf);
}

/* Host 1's part: offer the BO, see every piece land, read it back. */
static void target(struct __test_metadata *_metadata, struct pw_dp *dp,
		   int side, int dev, int forge)
{
	struct pw_dp_event ev;
	struct pw_dp_region *reg;
	struct pw_dp_stats st;
	struct pw_dp_desc d;
	struct pwtpu_bo bo;
	uint8_t *buf = malloc(XFER_SIZE), ok, note;
	unsigned int i, landed = 0;
	uint64_t bad = 0;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, pwtpu_bo_alloc(dev, XFER_SIZE, &bo));
	ASSERT_EQ(0, pw_dp_reg(dp, bo.map, XFER_SIZE, &reg));
	pw_dp_region_desc(reg, &d);
	ASSERT_EQ(0, send_desc(side, &d));
	ASSERT_EQ(1, next_event(dp, &ev));
	ASSERT_EQ(PW_DP_EV_ACCEPTED, (int)ev.type);
	while (landed < XFER_SIZE / CHUNK) {
		ASSERT_EQ(1, next_event(dp, &ev));
		ASSERT_EQ(PW_DP_EV_LANDED, (int)ev.type);
		ASSERT_EQ(landed, ev.cookie);
		ASSERT_EQ(CHUNK, ev.len);
		landed++;
	}
	/* What the device sees, not just the mapping. */
	ASSERT_EQ(0, pwtpu_copy_from_dev(dev, bo.handle, 0, buf, XFER_SIZE));
	for (i = 0; i < XFER_SIZE; i++)
		bad += buf[i] != pattern(i);
	EXPECT_EQ(0ull, bad);
	ok = bad ? 'n' : 'y';
	ASSERT_EQ(0, side_send(side, &ok, 1));
	if (forge) {
		ASSERT_EQ(0, side_recv(side, &note, 1));
		pw_dp_poll(dp, &ev, 1);
		pw_dp_stats(dp, &st);
		EXPECT_EQ(XFER_SIZE / CHUNK, st.landed);
		ASSERT_EQ(0, pwtpu_copy_from_dev(dev, bo.handle, 0, buf,
						 4096));
		for (i = 0; i < 4096; i++)
			bad += buf[i] != pattern(i);
		EXPECT_EQ(0ull, bad);
		ok = bad ? 'n' : 'y';
		ASSERT_EQ(0, side_send(side, &ok, 1));
	}
	pw_dp_dereg(reg);
	pwtpu_bo_free(dev, &bo);
	free(buf);
}

FIXTURE(hosts) {
	struct host h;
	int dev;
};

FIXTURE_SETUP(hosts)
{
	self->dev = -1;
	if (host_from_env(&self->h))
		SKIP(return, "not a tools/testbed-multi host");
	self->dev = pwtpu_open(0);
	ASSERT_LE(0, self->dev);
}

FIXTURE_TEARDOWN(hosts)
{
	if (self->dev >= 0)
		close(self->dev);
}

/* One transfer with the data plane in @mode, which must be @kind. */
static void transfer(struct __test_metadata *_metadata,
		     FIXTURE_DATA(hosts) *self, enum pw_dp_mode mode,
		     const char *kind, uint16_t port, int forge)
{
	struct sockaddr_in peer = with_port(self->h.peer, DP_PORT + port);
	struct pw_dp *dp;
	int side;

	/* This harness runs the body after a SKIP in the setup. */
	if (self->dev < 0)
		return;
	dp = open_dp(&self->h, mode, DP_PORT + port);
	ASSERT_NE(NULL, dp);
	EXPECT_STREQ(kind, pw_dp_kind(dp));
	side = side_open(&self->h, SIDE_PORT + port);
	ASSERT_LE(0, side);
	if (self->h.index == 0)
		writer(_metadata, &peer, dp, side, self->dev, forge);
	else
		target(_metadata, dp, side, self->dev, forge);
	close(side);
	pw_dp_close(dp);
}

TEST_F_TIMEOUT(hosts, rdma_bo_to_bo, 150)
{
	transfer(_metadata, self, PW_DP_AUTO, "rdma", 0, 1);
}

TEST_F_TIMEOUT(hosts, tcp_bo_to_bo, 150)
{
	transfer(_metadata, self, PW_DP_TCP, "tcp", 1, 0);
}

/* --bench: host 0 measures, host 1 answers. Numbers, not assertions. */

#define BENCH_MAX	(64u << 20)
#define BENCH_ITERS	1000
#define BENCH_PING	0x80000000u
#define BENCH_BYE	0xffffffffu

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void print_lat(const char *kind, const char *what, uint64_t *ns,
		      unsigned int n)
{
	qsort(ns, n, sizeof(*ns), cmp_u64);
	printf("dp-bench %-4s %-22s p50 %8.1f us  p99 %8.1f us  min %8.1f us"
	       "  max %8.1f us\n", kind, what, ns[n / 2] / 1e3,
	       ns[n * 99 / 100] / 1e3, ns[0] / 1e3, ns[n - 1] / 1e3);
}

/* Wait for an event of @type with @cookie, dropping others: 0 or -1. */
static int wait_for(struct pw_dp *dp, int type, uint32_t cookie,
		    struct pw_dp_event *ev)
{
	while (next_event(dp, ev) == 1) {
		if ((int)ev->type == type && ev->cookie == cookie)
			return ev->status ? -1 : 0;
		if (ev->type == PW_DP_EV_CLOSED)
			return -1;
	}
	return -1;
}

static int bench_writer(struct pw_dp *dp, struct pw_dp_conn *c,
			struct pw_dp_region *reg, const struct pw_dp_desc *d)
{
	static const unsigned int mib[] = { 1, 4, 16, 64 };
	static uint64_t ns[BENCH_ITERS];
	const char *kind = pw_dp_kind(dp);
	struct pw_dp_event ev;
	unsigned int i, s, rep;

	for (i = 0; i < BENCH_ITERS; i++) {
		uint64_t t0 = mono_ns();

		if (pw_dp_write(c, reg, 0, d, 0, 8, i) ||
		    wait_for(dp, PW_DP_EV_WRITE_DONE, i, &ev))
			return -1;
		ns[i] = mono_ns() - t0;
	}
	print_lat(kind, "8 B write, to done", ns, BENCH_ITERS);
	for (i = 0; i < BENCH_ITERS; i++) {
		uint64_t t0 = mono_ns();

		if (pw_dp_write(c, reg, 0, d, 0, 8, BENCH_PING | i) ||
		    wait_for(dp, PW_DP_EV_LANDED, BENCH_PING | i, &ev))
			return -1;
		ns[i] = mono_ns() - t0;
	}
	print_lat(kind, "8 B ping-pong (rtt)", ns, BENCH_ITERS);
	for (s = 0; s < sizeof(mib) / sizeof(mib[0]); s++) {
		uint64_t size = (uint64_t)mib[s] << 20, best[3];

		for (rep = 0; rep < 3; rep++) {
			unsigned int n = size / CHUNK, posted = 0, done = 0;
			uint64_t t0 = mono_ns();

			while (done < n) {
				while (posted < n &&
				       !pw_dp_write(c, reg, posted * CHUNK, d,
						    posted * CHUNK, CHUNK,
						    posted))
					posted++;
				if (next_event(dp, &ev) != 1 || ev.status)
					return -1;
				done += ev.type == PW_DP_EV_WRITE_DONE;
			}
			best[rep] = mono_ns() - t0;
		}
		qsort(best, 3, sizeof(best[0]), cmp_u64);
		printf("dp-bench %-4s %3u MiB in 1 MiB writes  median of 3: "
		       "%8.1f ms  %8.1f MB/s\n", kind, mib[s], best[1] / 1e6,
		       size * 1e3 / best[1]);
	}
	fflush(stdout);
	return pw_dp_write(c, reg, 0, d, 0, 0, BENCH_BYE);
}

/* Host 1: answer pings with a pong of the same cookie until BYE. */
static int bench_target(struct pw_dp *dp, struct pw_dp_region *reg,
			const struct pw_dp_desc *d)
{
	struct pw_dp_conn *c = NULL;
	struct pw_dp_event ev;

	while (next_event(dp, &ev) == 1) {
		if (ev.type == PW_DP_EV_ACCEPTED)
			c = ev.conn;
		if (ev.type == PW_DP_EV_CLOSED)
			return -1;
		if (ev.type != PW_DP_EV_LANDED)
			continue;
		if (ev.cookie == BENCH_BYE)
			return 0;
		if (ev.cookie & BENCH_PING &&
		    pw_dp_write(c, reg, 0, d, 0, 8, ev.cookie))
			return -1;
	}
	return -1;
}

static int bench(const struct host *h, int dev, enum pw_dp_mode mode,
		 uint16_t port)
{
	struct sockaddr_in peer = with_port(h->peer, DP_PORT + port);
	struct pw_dp *dp = open_dp(h, mode, DP_PORT + port);
	struct pw_dp_region *reg = NULL;
	struct pw_dp_desc mine, theirs;
	struct pw_dp_conn *c;
	struct pwtpu_bo bo;
	int side = -1, ret = -1;

	if (!dp || pwtpu_bo_alloc(dev, BENCH_MAX, &bo))
		goto out_dp;
	if (pw_dp_reg(dp, bo.map, BENCH_MAX, &reg))
		goto out;
	pw_dp_region_desc(reg, &mine);
	side = side_open(h, SIDE_PORT + port);
	if (side < 0 || send_desc(side, &mine) || recv_desc(side, &theirs))
		goto out;
	if (h->index == 1) {
		ret = bench_target(dp, reg, &theirs);
	} else if (!connect_up(dp, &peer, &c)) {
		struct pw_dp_event ev;

		ret = bench_writer(dp, c, reg, &theirs);
		/* Let the BYE land before hanging up. */
		if (!ret)
			ret = wait_for(dp, PW_DP_EV_WRITE_DONE, BENCH_BYE, &ev);
	}
out:
	if (side >= 0)
		close(side);
	pw_dp_dereg(reg);
	pwtpu_bo_free(dev, &bo);
out_dp:
	pw_dp_close(dp);
	return ret;
}

/* TEST_HARNESS_MAIN's other half: tests run in the order of this file. */
static void __attribute__((constructor)) tests_in_file_order(void)
{
	if (!__constructor_order)
		__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD;
}

int main(int argc, char **argv)
{
	struct host h;
	int dev, ret;

	if (argc < 2 || strcmp(argv[1], "--bench"))
		return test_harness_run(argc, argv);
	if (host_from_env(&h)) {
		fprintf(stderr, "--bench runs in tools/testbed-multi\n");
		return 2;
	}
	dev = pwtpu_open(0);
	if (dev < 0) {
		fprintf(stderr, "/dev/pwtpu0: %s\n", strerror(-dev));
		return 1;
	}
	ret = bench(&h, dev, PW_DP_AUTO, 10);
	ret |= bench(&h, dev, PW_DP_TCP, 11);
	close(dev);
	return ret ? 1 : 0;
}
