// SPDX-License-Identifier: GPL-2.0
/*
 * test_rchan.c - the reliable channel (runtime/net/rchan.c) between two
 * endpoints over a simulated link in simulated time: loss, duplication and
 * reordering from a seeded generator, every message delivered exactly
 * once and in order, the same counters on every run; the send window's
 * limit; the retransmission timeout's backoff and cap; a peer that
 * restarts; datagrams from strangers and old incarnations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "net_common.h"
#include "../../runtime/net/rchan.h"

#define MS (1000 * 1000ull)
#define SIM_MAX_PKTS 16384

struct sim_pkt {
	uint64_t at;
	int to;
	uint16_t len;
	uint8_t data[PW_WIRE_MAX_DGRAM];
};

struct sim;

struct sim_port {
	struct sim *sim;
	int id;
};

/**
 * struct sim - two channels joined by a lossy link
 * @loss: permille of datagrams dropped.
 * @dup: permille delivered twice.
 * @reorder: permille delayed by up to @jitter_ns extra.
 * @delay_ns: one-way delay.
 * @next_id: next message id each endpoint sends.
 * @last_id: send up to (excluding) this id.
 * @expect: next id each endpoint should receive.
 */
struct sim {
	uint64_t rng;
	unsigned int loss, dup, reorder;
	uint64_t delay_ns, jitter_ns;
	uint64_t now;
	struct sim_pkt *pkts;
	unsigned int npkts;
	struct pw_rchan *ch[2];
	struct sim_port port[2];
	uint32_t session[2];
	unsigned int next_id[2], last_id[2], expect[2];
	unsigned long dropped, duplicated;
	char why[160];
};

static void sim_enqueue(struct sim *s, int to, const void *d, size_t len)
{
	struct sim_pkt *p;
	uint64_t at = s->now + s->delay_ns;

	if (s->npkts == SIM_MAX_PKTS)
		return;		/* a full link drops */
	if (net_chance(&s->rng, s->reorder))
		at += net_below(&s->rng, s->jitter_ns);
	p = &s->pkts[s->npkts++];
	p->at = at;
	p->to = to;
	p->len = len;
	memcpy(p->data, d, len);
}

static int sim_xmit(void *ctx, const void *d, size_t len)
{
	struct sim_port *port = ctx;
	struct sim *s = port->sim;

	if (net_chance(&s->rng, s->loss)) {
		s->dropped++;
		return 0;
	}
	sim_enqueue(s, 1 - port->id, d, len);
	if (net_chance(&s->rng, s->dup)) {
		s->duplicated++;
		sim_enqueue(s, 1 - port->id, d, len);
	}
	return 0;
}

static int sim_channel(struct sim *s, int e, uint32_t session)
{
	struct pw_rchan_cfg cfg = {
		.self_node = 1 + e,
		.peer_node = 2 - e,
		.session = session,
		.xmit = sim_xmit,
		.ctx = &s->port[e],
	};

	s->session[e] = session;
	return pw_rchan_create(&s->ch[e], &cfg);
}

static int sim_init(struct sim *s, uint64_t seed, unsigned int loss,
		    unsigned int dup, unsigned int reorder)
{
	int e;

	memset(s, 0, sizeof(*s));
	s->rng = seed;
	s->loss = loss;
	s->dup = dup;
	s->reorder = reorder;
	s->delay_ns = 50 * 1000;
	s->jitter_ns = 2 * MS;
	s->pkts = calloc(SIM_MAX_PKTS, sizeof(*s->pkts));
	if (!s->pkts)
		return -ENOMEM;
	for (e = 0; e < 2; e++) {
		s->port[e].sim = s;
		s->port[e].id = e;
		if (sim_channel(s, e, 100 * (e + 1)))
			return -ENOMEM;
	}
	return 0;
}

static void sim_fini(struct sim *s)
{
	pw_rchan_destroy(s->ch[0]);
	pw_rchan_destroy(s->ch[1]);
	free(s->pkts);
}

/* Message @id from endpoint @e: a RUN whose contents derive from both. */
static void sim_msg(struct pw_wire_msg *m, int e, unsigned int id)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->hdr.type = PW_WIRE_RUN;
	m->body.run.program_id = e;
	m->body.run.run_id = id;
	m->body.run.nargs = id % 9;
	for (i = 0; i < m->body.run.nargs; i++)
		m->body.run.ids[i] = id << 8 | i;
}

static bool sim_msg_ok(const struct pw_wire_msg *m, int from, unsigned int id)
{
	struct pw_wire_msg want;

	sim_msg(&want, from, id);
	return m->hdr.type == PW_WIRE_RUN &&
	       !memcmp(&m->body.run, &want.body.run, sizeof(want.body.run));
}

/*
 * Deliver every datagram due, earliest first and in sending order among
 * equals (the array is kept in sending order); 0 or -1 with @why.
 */
static int sim_deliver(struct sim *s)
{
	for (;;) {
		unsigned int i, first = s->npkts;
		struct sim_pkt *p;

		for (i = 0; i < s->npkts; i++)
			if (s->pkts[i].at <= s->now &&
			    (first == s->npkts ||
			     s->pkts[i].at < s->pkts[first].at))
				first = i;
		if (first == s->npkts)
			return 0;
		p = &s->pkts[first];
		if (pw_rchan_input(s->ch[p->to], p->data, p->len, s->now)) {
			snprintf(s->why, sizeof(s->why), "datagram rejected");
			return -1;
		}
		memmove(p, p + 1, (--s->npkts - first) * sizeof(*p));
	}
}

/* Each endpoint sends its ids, both check what arrives, until all acked. */
static int sim_run(struct sim *s, uint64_t limit_ns)
{
	struct pw_wire_msg m;
	int e;

	for (;;) {
		uint64_t next = UINT64_MAX;
		unsigned int i;

		for (e = 0; e < 2; e++) {
			while (s->next_id[e] < s->last_id[e]) {
				int ret;

				sim_msg(&m, e, s->next_id[e]);
				ret = pw_rchan_send(s->ch[e], &m, s->now);
				if (ret == -ENOBUFS)
					break;
				if (ret) {
					snprintf(s->why, sizeof(s->why),
						 "send: %d", ret);
					return -1;
				}
				s->next_id[e]++;
			}
		}
		if (sim_deliver(s))
			return -1;
		for (e = 0; e < 2; e++) {
			while (pw_rchan_recv(s->ch[e], &m) == 1) {
				if (!sim_msg_ok(&m, 1 - e, s->expect[e])) {
					snprintf(s->why, sizeof(s->why),
						 "endpoint %d: got %u, want %u",
						 e, m.body.run.run_id,
						 s->expect[e]);
					return -1;
				}
				s->expect[e]++;
			}
			pw_rchan_poll(s->ch[e], s->now);
		}
		if (s->expect[0] == s->last_id[1] &&
		    s->expect[1] == s->last_id[0] &&
		    !pw_rchan_inflight(s->ch[0]) &&
		    !pw_rchan_inflight(s->ch[1]))
			return 0;
		/* Acks just made room: send before time moves. */
		for (e = 0; e < 2; e++)
			if (s->next_id[e] < s->last_id[e] &&
			    pw_rchan_inflight(s->ch[e]) < PW_RCHAN_WINDOW)
				next = s->now;
		for (i = 0; i < s->npkts; i++)
			if (s->pkts[i].at < next)
				next = s->pkts[i].at;
		for (e = 0; e < 2; e++) {
			uint64_t d = pw_rchan_deadline(s->ch[e]);

			if (d < next)
				next = d;
		}
		if (next == UINT64_MAX) {
			snprintf(s->why, sizeof(s->why), "stuck at %u/%u",
				 s->expect[0], s->expect[1]);
			return -1;
		}
		if (next > s->now)
			s->now = next;
		if (s->now > limit_ns) {
			snprintf(s->why, sizeof(s->why),
				 "too slow: %u/%u by %llu ns", s->expect[0],
				 s->expect[1], (unsigned long long)s->now);
			return -1;
		}
	}
}

FIXTURE(lossy) {
	struct sim sim;
};

FIXTURE_VARIANT(lossy) {
	unsigned int loss, dup, reorder, n;
};

FIXTURE_VARIANT_ADD(lossy, clean) {
	.loss = 0, .dup = 0, .reorder = 0, .n = 2000,
};

FIXTURE_VARIANT_ADD(lossy, loss5) {
	.loss = 50, .dup = 20, .reorder = 100, .n = 3000,
};

FIXTURE_VARIANT_ADD(lossy, loss30) {
	.loss = 300, .dup = 50, .reorder = 200, .n = 1500,
};

FIXTURE_VARIANT_ADD(lossy, dup_reorder) {
	.loss = 10, .dup = 300, .reorder = 500, .n = 2000,
};

FIXTURE_SETUP(lossy)
{
	ASSERT_EQ(0, sim_init(&self->sim, 42, variant->loss, variant->dup,
			      variant->reorder));
}

FIXTURE_TEARDOWN(lossy)
{
	sim_fini(&self->sim);
}

/* Exactly once, in order, both ways at once. */
TEST_F(lossy, exactly_once_in_order)
{
	struct sim *s = &self->sim;
	const struct pw_rchan_stats *st[2];
	struct pw_wire_msg m;
	int e;

	s->last_id[0] = s->last_id[1] = variant->n;
	ASSERT_EQ(0, sim_run(s, 3600 * 1000 * MS)) TH_LOG("%s", s->why);
	for (e = 0; e < 2; e++) {
		st[e] = pw_rchan_stats(s->ch[e]);
		ASSERT_EQ(0, pw_rchan_recv(s->ch[e], &m));
		ASSERT_EQ(variant->n, st[e]->delivered);
		ASSERT_EQ(variant->n, st[e]->sent);
		ASSERT_EQ(0u, st[e]->malformed);
		ASSERT_EQ(0u, st[e]->misaddressed);
		ASSERT_EQ(0u, st[e]->stale);
		ASSERT_EQ(0u, st[e]->peer_resets);
		ASSERT_EQ(0u, st[e]->bad_acks);
		ASSERT_EQ(UINT64_MAX, pw_rchan_oldest_unacked(s->ch[e]));
		if (variant->loss)
			ASSERT_GT(st[e]->retransmitted, 0u);
		if (!variant->loss && !variant->dup && !variant->reorder) {
			ASSERT_EQ(0u, st[e]->retransmitted);
			ASSERT_EQ(0u, st[e]->duplicates);
			/* Measured on the link: the floor applies. */
			ASSERT_NE(0u, st[e]->srtt_ns);
			ASSERT_EQ(PW_RCHAN_RTO_MIN_NS, st[e]->rto_ns);
		}
		TH_LOG("endpoint %d: sent %llu retx %llu (fast %llu) acks %llu "
		       "dups %llu oow %llu", e,
		       (unsigned long long)st[e]->sent,
		       (unsigned long long)st[e]->retransmitted,
		       (unsigned long long)st[e]->fast_retransmits,
		       (unsigned long long)st[e]->acks_sent,
		       (unsigned long long)st[e]->duplicates,
		       (unsigned long long)st[e]->out_of_window);
	}
	if (variant->dup)
		ASSERT_GT(st[0]->duplicates + st[1]->duplicates, 0u);
	if (variant->loss >= 300)
		ASSERT_GT(st[0]->fast_retransmits + st[1]->fast_retransmits,
			  0u);
}

/* The same seed gives the same run, counter for counter. */
TEST_F(lossy, deterministic)
{
	struct pw_rchan_stats first[2];
	struct sim again;
	uint64_t end;
	int e;

	self->sim.last_id[0] = self->sim.last_id[1] = 500;
	ASSERT_EQ(0, sim_run(&self->sim, 3600 * 1000 * MS))
		TH_LOG("%s", self->sim.why);
	for (e = 0; e < 2; e++)
		first[e] = *pw_rchan_stats(self->sim.ch[e]);
	end = self->sim.now;
	ASSERT_EQ(0, sim_init(&again, 42, variant->loss, variant->dup,
			      variant->reorder));
	again.last_id[0] = again.last_id[1] = 500;
	ASSERT_EQ(0, sim_run(&again, 3600 * 1000 * MS)) TH_LOG("%s", again.why);
	for (e = 0; e < 2; e++)
		ASSERT_EQ(0, memcmp(&first[e], pw_rchan_stats(again.ch[e]),
				    sizeof(first[e])));
	ASSERT_EQ(end, again.now);
	sim_fini(&again);
}

/* Datagrams captured instead of sent, handed over by the test. */
struct capture {
	unsigned int n;
	uint64_t *now;
	uint64_t at[64];
	uint16_t len[64];
	uint8_t data[64][PW_WIRE_MAX_DGRAM];
};

static int capture_xmit(void *ctx, const void *d, size_t len)
{
	struct capture *c = ctx;

	if (c->n == 64)
		return -ENOBUFS;
	c->at[c->n] = *c->now;
	c->len[c->n] = len;
	memcpy(c->data[c->n++], d, len);
	return 0;
}

static struct pw_rchan *capture_channel(struct capture *c, uint32_t self,
					uint32_t peer, uint32_t session,
					uint64_t *now)
{
	struct pw_rchan_cfg cfg = {
		.self_node = self,
		.peer_node = peer,
		.session = session,
		.rto_init_ns = 10 * MS,
		.rto_max_ns = 200 * MS,
		.xmit = capture_xmit,
		.ctx = c,
	};
	struct pw_rchan *ch = NULL;

	memset(c, 0, sizeof(*c));
	c->now = now;
	if (pw_rchan_create(&ch, &cfg))
		return NULL;
	return ch;
}

static void hand_over(struct capture *c, struct pw_rchan *to, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		pw_rchan_input(to, c->data[i], c->len[i], now);
	c->n = 0;
}

TEST(window_full)
{
	struct capture *ca = calloc(2, sizeof(*ca)), *cb = ca + 1;
	struct pw_rchan *a, *b;
	struct pw_wire_msg m;
	uint64_t now = 0;
	unsigned int i;

	ASSERT_NE(NULL, ca);
	a = capture_channel(ca, 1, 2, 7, &now);
	b = capture_channel(cb, 2, 1, 8, &now);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < PW_RCHAN_WINDOW; i++) {
		sim_msg(&m, 0, i);
		ASSERT_EQ(0, pw_rchan_send(a, &m, now));
	}
	sim_msg(&m, 0, i);
	ASSERT_EQ(-ENOBUFS, pw_rchan_send(a, &m, now));
	ASSERT_EQ((unsigned int)PW_RCHAN_WINDOW, pw_rchan_inflight(a));
	ASSERT_EQ(0u, pw_rchan_oldest_unacked(a));
	/* Not a message for the wire: refused, nothing queued. */
	m.hdr.type = PW_WIRE_ACK;
	ASSERT_EQ(-EINVAL, pw_rchan_send(a, &m, now));
	m.hdr.type = PW_WIRE_NTYPES;
	ASSERT_EQ(-EINVAL, pw_rchan_send(a, &m, now));

	now += MS;
	hand_over(ca, b, now);
	for (i = 0; i < PW_RCHAN_WINDOW; i++) {
		ASSERT_EQ(1, pw_rchan_recv(b, &m));
		ASSERT_TRUE(sim_msg_ok(&m, 0, i));
	}
	ASSERT_EQ(0, pw_rchan_recv(b, &m));
	/* b acked every PW_RCHAN_ACK_EVERY messages without waiting. */
	ASSERT_EQ((unsigned int)(PW_RCHAN_WINDOW / PW_RCHAN_ACK_EVERY), cb->n);
	now += MS;
	hand_over(cb, a, now);
	ASSERT_EQ(0u, pw_rchan_inflight(a));
	ASSERT_EQ(UINT64_MAX, pw_rchan_oldest_unacked(a));
	ASSERT_EQ(UINT64_MAX, pw_rchan_deadline(a));
	sim_msg(&m, 0, PW_RCHAN_WINDOW);
	ASSERT_EQ(0, pw_rchan_send(a, &m, now));
	pw_rchan_destroy(a);
	pw_rchan_destroy(b);
	free(ca);
}

/* A silent peer: the timeout doubles per retransmission up to its cap. */
TEST(rto_backoff)
{
	static const uint64_t gaps_ms[] = {
		10, 20, 40, 80, 160, 200, 200, 200,
	};
	struct capture *c = calloc(1, sizeof(*c));
	struct pw_wire_msg m, got;
	struct pw_rchan *a;
	uint64_t now = 0;
	unsigned int i;

	ASSERT_NE(NULL, c);
	a = capture_channel(c, 1, 2, 7, &now);
	ASSERT_NE(NULL, a);
	sim_msg(&m, 0, 0);
	ASSERT_EQ(0, pw_rchan_send(a, &m, now));
	ASSERT_EQ(10 * MS, pw_rchan_deadline(a));
	for (i = 0; i < sizeof(gaps_ms) / sizeof(gaps_ms[0]); i++) {
		now = pw_rchan_deadline(a);
		pw_rchan_poll(a, now - 1);	/* not yet */
		ASSERT_EQ(i + 1, c->n);
		pw_rchan_poll(a, now);
		ASSERT_EQ(i + 2, c->n);
		ASSERT_EQ(gaps_ms[i] * MS, c->at[i + 1] - c->at[i]);
		ASSERT_EQ(PW_WIRE_OK,
			  (int)pw_wire_decode(&got, c->data[i + 1],
					      c->len[i + 1]));
		ASSERT_TRUE(got.hdr.flags & PW_WIRE_F_RETRANS);
		ASSERT_EQ(1u, got.hdr.seq);
	}
	ASSERT_EQ(i, pw_rchan_stats(a)->retransmitted);
	ASSERT_EQ(0u, pw_rchan_oldest_unacked(a));
	pw_rchan_destroy(a);
	free(c);
}

/*
 * A peer slower than the timeout: after a timeout, messages sent next
 * start from the backed-off timeout (RFC 6298 5.5), once per poll
 * however many timed out together, up to the cap; otherwise every one
 * would be resent, and Karn's rule would leave no sample to learn from.
 */
TEST(rto_backoff_holds_for_new_messages)
{
	struct capture *c = calloc(1, sizeof(*c));
	struct pw_wire_msg m;
	struct pw_rchan *a;
	uint64_t now = 0;
	unsigned int i;

	ASSERT_NE(NULL, c);
	a = capture_channel(c, 1, 2, 7, &now);
	ASSERT_NE(NULL, a);
	sim_msg(&m, 0, 0);
	ASSERT_EQ(0, pw_rchan_send(a, &m, now));
	ASSERT_EQ(0, pw_rchan_send(a, &m, now));
	ASSERT_EQ(10 * MS, pw_rchan_stats(a)->rto_ns);
	now = 10 * MS;
	pw_rchan_poll(a, now);	/* both time out: one backoff */
	ASSERT_EQ(4u, c->n);
	ASSERT_EQ(20 * MS, pw_rchan_stats(a)->rto_ns);
	ASSERT_EQ(0, pw_rchan_send(a, &m, now));
	/* The new one is due with the old: 20 ms, not 10. */
	ASSERT_EQ(30 * MS, pw_rchan_deadline(a));
	pw_rchan_poll(a, 30 * MS - 1);
	ASSERT_EQ(5u, c->n);
	for (i = 0; i < 8; i++)
		pw_rchan_poll(a, pw_rchan_deadline(a));
	ASSERT_EQ(200 * MS, pw_rchan_stats(a)->rto_ns);	/* the cap */
	pw_rchan_destroy(a);
	free(c);
}

/*
 * A peer restarts with a greater session: the survivor joins its new
 * stream from the start, the newcomer joins the survivor's stream where
 * it stands, and datagrams of the old incarnation are dropped as stale.
 */
TEST(peer_restart)
{
	uint8_t old[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m;
	struct sim s;
	int len;

	ASSERT_EQ(0, sim_init(&s, 7, 0, 0, 0));
	s.last_id[0] = s.last_id[1] = 100;
	ASSERT_EQ(0, sim_run(&s, 1000 * MS)) TH_LOG("%s", s.why);
	/* Something the old endpoint 1 said, arriving late. */
	sim_msg(&m, 1, 5);
	m.hdr.src_node = 2;
	m.hdr.dst_node = 1;
	m.hdr.session = s.session[1];
	m.hdr.seq = m.hdr.base = 6;
	len = pw_wire_encode(&m, old, sizeof(old));
	ASSERT_GT(len, 0);

	pw_rchan_destroy(s.ch[1]);
	ASSERT_EQ(0, sim_channel(&s, 1, s.session[1] + 1));
	s.last_id[0] = 150;	/* endpoint 0 goes on: ids 100..149 */
	s.next_id[1] = 0;	/* the newcomer starts over */
	s.last_id[1] = 10;
	s.expect[0] = 0;
	s.expect[1] = 100;	/* joins at the survivor's base */
	ASSERT_EQ(0, sim_run(&s, 1000 * MS)) TH_LOG("%s", s.why);
	ASSERT_EQ(1u, pw_rchan_stats(s.ch[0])->peer_resets);
	ASSERT_EQ(0u, pw_rchan_stats(s.ch[0])->lost_on_reset);
	ASSERT_EQ(50u, pw_rchan_stats(s.ch[1])->delivered);
	ASSERT_EQ(1u, pw_rchan_stats(s.ch[1])->joined_late);
	ASSERT_EQ(0u, pw_rchan_stats(s.ch[0])->joined_late);

	ASSERT_EQ(0, pw_rchan_input(s.ch[0], old, len, s.now));
	ASSERT_EQ(1u, pw_rchan_stats(s.ch[0])->stale);
	ASSERT_EQ(0, pw_rchan_recv(s.ch[0], &m));
	sim_fini(&s);
}

/* Strangers and garbage are counted and change nothing. */
TEST(misaddressed_and_garbage)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	const struct pw_rchan_stats *st;
	struct pw_wire_msg m;
	struct sim s;
	int len;

	ASSERT_EQ(0, sim_init(&s, 9, 0, 0, 0));
	st = pw_rchan_stats(s.ch[1]);
	sim_msg(&m, 0, 0);
	m.hdr.src_node = 1;
	m.hdr.dst_node = 99;
	m.hdr.session = 5;
	m.hdr.seq = m.hdr.base = 1;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(0, pw_rchan_input(s.ch[1], buf, len, 0));
	m.hdr.src_node = 3;
	m.hdr.dst_node = 2;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(0, pw_rchan_input(s.ch[1], buf, len, 0));
	ASSERT_EQ(2u, st->misaddressed);
	buf[4] = PW_WIRE_VERSION + 1;
	ASSERT_EQ(-EBADMSG, pw_rchan_input(s.ch[1], buf, len, 0));
	ASSERT_EQ(-EBADMSG, pw_rchan_input(s.ch[1], buf, 7, 0));
	ASSERT_EQ(2u, st->malformed);
	ASSERT_EQ(1u, st->malformed_by[PW_WIRE_E_VERSION]);
	ASSERT_EQ(1u, st->malformed_by[PW_WIRE_E_SHORT]);
	/* The channel never heard of the stranger's session. */
	s.last_id[0] = s.last_id[1] = 50;
	ASSERT_EQ(0, sim_run(&s, 1000 * MS)) TH_LOG("%s", s.why);
	ASSERT_EQ(0u, st->peer_resets);
	sim_fini(&s);
}

TEST_HARNESS_MAIN
