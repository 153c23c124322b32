// SPDX-License-Identifier: GPL-2.0
/*
 * test_node.c - a DCN node (runtime/dcn/node.c) over kernel UDP on
 * loopback and over the in-process transport (runtime/net/loop.c), each
 * test once per transport: a worker greets the controller and sends a burst far past the
 * channel's window without stepping; every send succeeds, the rest waits
 * in the peer's queue and the controller's handler gets every message
 * once, in order, and what is sent while messages wait goes behind them
 * even when acks opened the window. The queue's bound refuses with -ENOBUFS and recovers
 * once the queue drains; bad messages are refused whether they would go
 * to the channel or to the queue; dropping a peer or ending the node with
 * a full queue frees it (run under valgrind to see), and the node's totals
 * keep a dropped peer's counts; pw_node_step() wakes for its second
 * extra descriptor; and the index of peers by id finds exactly the live
 * ones through any churn of adds and drops, up to a full table.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../../runtime/dcn/node.h"
#include "../../runtime/dcn/roles.h"
#include "../lib/test_key.h"

#define MS (1000 * 1000ull)
/* Far more than PW_RCHAN_WINDOW: most of it has to wait in the queue. */
#define BURST 1000u
#define WINDOW ((unsigned int)PW_RCHAN_WINDOW)
#define ERR_CODE 5u

/**
 * struct rx_log - what a node's handler was given
 * @registers: REGISTER greetings.
 * @parts: HEARTBEAT and ERROR messages of the burst, in order.
 * @next: the sequence number the next part must carry.
 * @disorder: parts with another sequence number, or a corrupt body.
 * @others: messages of any other type.
 */
struct rx_log {
	unsigned int registers;
	unsigned int parts;
	uint32_t next;
	unsigned int disorder;
	unsigned int others;
};

static int log_handler(struct pw_node *node, struct pw_node_peer *peer,
		       const struct pw_wire_msg *msg, uint64_t now)
{
	struct rx_log *log = node->ctx;
	char want[PW_WIRE_ERRMSG_LEN];
	uint32_t seq;

	(void)peer;
	(void)now;
	switch (msg->hdr.type) {
	case PW_WIRE_REGISTER:
		log->registers++;
		return 0;
	case PW_WIRE_HEARTBEAT:
		seq = (uint32_t)msg->body.heartbeat.time_ns;
		if (msg->body.heartbeat.hbm_used != ~(uint64_t)seq)
			log->disorder++;
		break;
	case PW_WIRE_ERROR:
		seq = msg->body.error.ref_id;
		snprintf(want, sizeof(want), "part %u of a long series", seq);
		if (msg->body.error.err != ERR_CODE ||
		    strcmp(msg->body.error.msg, want))
			log->disorder++;
		break;
	default:
		log->others++;
		return 0;
	}
	if (seq != log->next)
		log->disorder++;
	log->next = seq + 1;
	log->parts++;
	return 0;
}

static void heartbeat_msg(struct pw_wire_msg *m, uint32_t seq)
{
	memset(m, 0, sizeof(*m));
	m->hdr.type = PW_WIRE_HEARTBEAT;
	m->body.heartbeat.time_ns = seq;
	m->body.heartbeat.hbm_used = ~(uint64_t)seq;
}

/* Part @seq of the burst: HEARTBEATs and (longer) ERRORs alternate. */
static void part_msg(struct pw_wire_msg *m, uint32_t seq)
{
	if (seq % 2 == 0) {
		heartbeat_msg(m, seq);
		return;
	}
	memset(m, 0, sizeof(*m));
	m->hdr.type = PW_WIRE_ERROR;
	m->body.error.err = ERR_CODE;
	m->body.error.ref_type = PW_WIRE_PLAN;
	m->body.error.ref_id = seq;
	snprintf(m->body.error.msg, sizeof(m->body.error.msg),
		 "part %u of a long series", seq);
}

static void register_msg(struct pw_wire_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->hdr.type = PW_WIRE_REGISTER;
	m->body.reg.ndevices = 1;
	m->body.reg.data_port = 4791;
	strcpy(m->body.reg.mesh, "1x1");
}

/* The wire size of a HEARTBEAT, the unit of the small queue bounds. */
static size_t heartbeat_size(void)
{
	struct pw_wire_msg m;

	heartbeat_msg(&m, 0);
	return (size_t)pw_wire_size(&m);
}

FIXTURE(nodes) {
	struct pw_node wk;	/* worker 0 */
	struct pw_node ctl;	/* the controller */
	struct rx_log wk_log;
	struct rx_log ctl_log;
	struct pw_node_peer *to_ctl;	/* the worker's peer */
	bool wk_up;
	bool ctl_up;
};

/* Every test over kernel UDP and over the in-process transport. */
FIXTURE_VARIANT(nodes) {
	int (*open)(struct pw_transport **t, const struct sockaddr_in *bind);
};

FIXTURE_VARIANT_ADD(nodes, udp) {
	.open = pw_udp_open,
};

FIXTURE_VARIANT_ADD(nodes, loop) {
	.open = pw_loop_open,
};

FIXTURE_SETUP(nodes)
{
	struct pw_auth_key key;
	struct sockaddr_in any = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in ctl_addr;
	struct pw_transport *t;

	ASSERT_EQ(0, test_cluster_key(&key));
	memset(&self->wk_log, 0, sizeof(self->wk_log));
	memset(&self->ctl_log, 0, sizeof(self->ctl_log));
	ASSERT_EQ(0, variant->open(&t, &any));
	ASSERT_EQ(0, pw_node_init(&self->ctl, PW_NODE_CONTROLLER, t, &key,
				  log_handler, &self->ctl_log));
	self->ctl_up = true;
	ASSERT_EQ(0, pw_transport_local_addr(t, &ctl_addr));
	ASSERT_EQ(0, variant->open(&t, &any));
	ASSERT_EQ(0, pw_node_init(&self->wk, PW_NODE_WORKER_BASE, t, &key,
				  log_handler, &self->wk_log));
	self->wk_up = true;
	self->to_ctl = pw_node_peer(&self->wk, PW_NODE_CONTROLLER, &ctl_addr);
	ASSERT_NE(NULL, self->to_ctl);
	ASSERT_EQ(0u, pw_node_queued(self->to_ctl));
}

FIXTURE_TEARDOWN(nodes)
{
	if (self->wk_up)
		pw_node_fini(&self->wk);
	if (self->ctl_up)
		pw_node_fini(&self->ctl);
}

/*
 * Step both nodes until the controller has @parts parts and the worker's
 * queue and window are empty (or 10 s passed, to fail rather than hang).
 */
static void run_until(struct pw_node *wk, struct pw_node *ctl,
		      struct pw_node_peer *to_ctl, const struct rx_log *log,
		      unsigned int parts)
{
	uint64_t end = pw_now_ns() + 10000 * MS;

	while (pw_now_ns() < end &&
	       (log->parts < parts || pw_node_queued(to_ctl) ||
		pw_rchan_inflight(to_ctl->ch))) {
		pw_node_step(wk, 1 * MS);
		pw_node_step(ctl, 1 * MS);
	}
}

/* A while more, for duplicates that would still come. */
static void run_idle(struct pw_node *wk, struct pw_node *ctl)
{
	unsigned int i;

	for (i = 0; i < 50; i++) {
		pw_node_step(wk, 1 * MS);
		pw_node_step(ctl, 1 * MS);
	}
}

TEST_F(nodes, burst_past_the_window_arrives_once_in_order)
{
	struct pw_node_peer *from_wk;
	struct pw_wire_msg m;
	uint32_t i;

	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	/* No stepping: nothing is acknowledged while the burst goes in. */
	for (i = 0; i < BURST; i++) {
		part_msg(&m, i);
		ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m,
					  pw_now_ns()));
	}
	ASSERT_EQ(WINDOW, pw_rchan_inflight(self->to_ctl->ch));
	ASSERT_EQ(BURST + 1 - WINDOW, pw_node_queued(self->to_ctl));
	ASSERT_EQ(BURST + 1 - WINDOW, self->wk.stats.queued);

	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, BURST);
	run_idle(&self->wk, &self->ctl);
	ASSERT_EQ(1u, self->ctl_log.registers);
	ASSERT_EQ(BURST, self->ctl_log.parts);
	ASSERT_EQ(0u, self->ctl_log.disorder);
	ASSERT_EQ(0u, self->ctl_log.others);
	ASSERT_EQ(0u, pw_node_queued(self->to_ctl));
	ASSERT_EQ(0u, pw_rchan_inflight(self->to_ctl->ch));
	ASSERT_EQ(0u, self->wk.stats.queue_full);

	/* The greeting opened the worker as a peer of the controller. */
	from_wk = pw_node_find(&self->ctl, PW_NODE_WORKER_BASE);
	ASSERT_NE(NULL, from_wk);
	ASSERT_EQ(BURST + 1, pw_rchan_stats(from_wk->ch)->delivered);
	ASSERT_EQ(0u, self->ctl.stats.strangers);
	ASSERT_EQ(0u, self->ctl.stats.malformed);

	/* And the way back: a burst of the controller's, just as whole. */
	for (i = 0; i < BURST; i++) {
		part_msg(&m, i);
		ASSERT_EQ(0, pw_node_send(&self->ctl, from_wk, &m,
					  pw_now_ns()));
	}
	ASSERT_EQ(BURST - WINDOW, pw_node_queued(from_wk));
	run_until(&self->ctl, &self->wk, from_wk, &self->wk_log, BURST);
	run_idle(&self->wk, &self->ctl);
	ASSERT_EQ(BURST, self->wk_log.parts);
	ASSERT_EQ(0u, self->wk_log.disorder);
	ASSERT_EQ(0u, pw_node_queued(from_wk));
}

/*
 * Acks open the worker's window behind its node's back (no step, so no
 * flush): a message sent now still has to go behind the queue.
 */
TEST_F(nodes, new_messages_wait_behind_the_queue_despite_room)
{
	uint64_t end = pw_now_ns() + 5000 * MS;
	struct pw_wire_msg m;
	uint32_t i, n = WINDOW + 20;

	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	for (i = 0; i < n - 1; i++) {
		part_msg(&m, i);
		ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m,
					  pw_now_ns()));
	}
	ASSERT_EQ(20u, pw_node_queued(self->to_ctl));
	while (pw_rchan_inflight(self->to_ctl->ch) == WINDOW &&
	       pw_now_ns() < end) {
		struct pw_dgram dg[8];
		int k, got;

		pw_node_step(&self->ctl, 1 * MS);
		pw_transport_wait(self->wk.t, 1 * MS);
		got = pw_transport_recv_burst(self->wk.t, dg, 8);
		/* Past the node: what it would check and strip, done here. */
		for (k = 0; k < got; k++)
			if (pw_auth_open(&self->wk.key, dg[k].data, dg[k].len,
					 pw_auth_now_ns(), PW_AUTH_WINDOW_NS) ==
			    PW_AUTH_OK)
				pw_rchan_input(self->to_ctl->ch, dg[k].data,
					       dg[k].len - PW_WIRE_AUTH_BYTES,
					       pw_now_ns());
	}
	ASSERT_GT(WINDOW, pw_rchan_inflight(self->to_ctl->ch));
	ASSERT_EQ(20u, pw_node_queued(self->to_ctl));

	part_msg(&m, n - 1);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	ASSERT_EQ(21u, pw_node_queued(self->to_ctl));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, n);
	run_idle(&self->wk, &self->ctl);
	ASSERT_EQ(n, self->ctl_log.parts);
	ASSERT_EQ(0u, self->ctl_log.disorder);
}

TEST_F(nodes, queue_bound_refuses_then_recovers)
{
	struct pw_wire_msg m;
	uint32_t i, n = WINDOW + 10;

	self->wk.queue_limit = 10 * heartbeat_size();
	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	/* The window takes the greeting and 63 parts, the queue 10. */
	for (i = 0; i < n - 1; i++) {
		heartbeat_msg(&m, i);
		ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m,
					  pw_now_ns()));
	}
	ASSERT_EQ(10u, pw_node_queued(self->to_ctl));
	ASSERT_EQ(-ENOBUFS, pw_node_send(&self->wk, self->to_ctl, &m,
					 pw_now_ns()));
	ASSERT_EQ(10u, pw_node_queued(self->to_ctl));
	ASSERT_EQ(1u, self->wk.stats.queue_full);

	/* Once the controller acknowledges, the queue drains and takes more. */
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, n - 1);
	ASSERT_EQ(n - 1, self->ctl_log.parts);
	ASSERT_EQ(0u, pw_node_queued(self->to_ctl));
	heartbeat_msg(&m, n - 1);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, n);
	run_idle(&self->wk, &self->ctl);
	ASSERT_EQ(n, self->ctl_log.parts);
	ASSERT_EQ(0u, self->ctl_log.disorder);
}

/* What the channel refuses is refused as well when it would be queued. */
static void expect_refused(struct __test_metadata *_metadata,
			   struct pw_node *node, struct pw_node_peer *peer)
{
	unsigned int queued = pw_node_queued(peer);
	struct pw_wire_msg m;

	part_msg(&m, 1);
	m.body.error.err = 0;		/* an ERROR must say which */
	ASSERT_EQ(-EINVAL, pw_node_send(node, peer, &m, pw_now_ns()));
	part_msg(&m, 1);
	m.body.error.reserved[1] = 1;
	ASSERT_EQ(-EINVAL, pw_node_send(node, peer, &m, pw_now_ns()));
	part_msg(&m, 1);
	memset(m.body.error.msg, 'x', sizeof(m.body.error.msg)); /* no NUL */
	ASSERT_EQ(-EINVAL, pw_node_send(node, peer, &m, pw_now_ns()));
	part_msg(&m, 0);
	m.hdr.type = PW_WIRE_ACK;	/* the channel's own */
	ASSERT_EQ(-EINVAL, pw_node_send(node, peer, &m, pw_now_ns()));
	m.hdr.type = 0;
	ASSERT_EQ(-EINVAL, pw_node_send(node, peer, &m, pw_now_ns()));
	m.hdr.type = PW_WIRE_NTYPES;
	ASSERT_EQ(-EINVAL, pw_node_send(node, peer, &m, pw_now_ns()));
	m.hdr.type = 0xff;
	ASSERT_EQ(-EINVAL, pw_node_send(node, peer, &m, pw_now_ns()));
	ASSERT_EQ(queued, pw_node_queued(peer));
}

TEST_F(nodes, bad_messages_refused_before_and_behind_the_queue)
{
	struct pw_wire_msg m;
	uint32_t i;

	/* Room in the window: the channel refuses them. */
	expect_refused(_metadata, &self->wk, self->to_ctl);
	ASSERT_EQ(0u, pw_rchan_inflight(self->to_ctl->ch));

	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	for (i = 0; i < WINDOW + 5; i++) {
		part_msg(&m, i);
		ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m,
					  pw_now_ns()));
	}
	ASSERT_EQ(6u, pw_node_queued(self->to_ctl));
	/* A full window and a queue: the node refuses them itself. */
	expect_refused(_metadata, &self->wk, self->to_ctl);

	/* Nothing refused reached the controller; everything else did. */
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log,
		  WINDOW + 5);
	run_idle(&self->wk, &self->ctl);
	ASSERT_EQ(WINDOW + 5, self->ctl_log.parts);
	ASSERT_EQ(0u, self->ctl_log.disorder);
	ASSERT_EQ(0u, self->ctl_log.others);
}

/* Fill the window and @n messages of queue, with no one acknowledging. */
static void fill(struct __test_metadata *_metadata, struct pw_node *node,
		 struct pw_node_peer *peer, unsigned int n)
{
	struct pw_wire_msg m;
	uint32_t i;

	for (i = 0; i < WINDOW + n; i++) {
		part_msg(&m, i);
		ASSERT_EQ(0, pw_node_send(node, peer, &m, pw_now_ns()));
	}
	ASSERT_EQ(n, pw_node_queued(peer));
}

TEST_F(nodes, dropping_a_peer_frees_its_queue)
{
	struct sockaddr_in nowhere = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
		.sin_port = htons(9),	/* discard: nobody acknowledges */
	};
	struct pw_node_peer *p;
	struct pw_wire_msg m;

	/* Exactly 100 parts: 50 HEARTBEATs and 50 ERRORs. */
	part_msg(&m, 1);
	self->wk.queue_limit = 50 * (heartbeat_size() +
				     (size_t)pw_wire_size(&m));
	fill(_metadata, &self->wk, self->to_ctl, 100);
	ASSERT_EQ(-ENOBUFS, pw_node_send(&self->wk, self->to_ctl, &m,
					 pw_now_ns()));
	pw_node_drop_peer(&self->wk, self->to_ctl);
	ASSERT_EQ(NULL, pw_node_find(&self->wk, PW_NODE_CONTROLLER));

	/* Its slot comes back empty for the next peer, queue and all. */
	p = pw_node_peer(&self->wk, PW_NODE_CONTROLLER, &nowhere);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0u, pw_node_queued(p));
	fill(_metadata, &self->wk, p, 100);

	/* Ending the node with a queue frees it too (valgrind says so). */
	pw_node_fini(&self->wk);
	self->wk_up = false;
}

/* A peer's counters outlive it: a controller's totals cover clients gone. */
TEST_F(nodes, totals_keep_the_counts_of_dropped_peers)
{
	struct pw_node_peer *from_wk;
	struct pw_node_totals tot;
	struct sockaddr_in wk_addr;
	struct pw_wire_msg m;
	uint32_t i;

	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	for (i = 0; i < 10; i++) {
		part_msg(&m, i);
		ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m,
					  pw_now_ns()));
	}
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, 10);
	ASSERT_EQ(10u, self->ctl_log.parts);
	from_wk = pw_node_find(&self->ctl, PW_NODE_WORKER_BASE);
	ASSERT_NE(NULL, from_wk);
	wk_addr = from_wk->addr;

	pw_node_totals(&self->wk, &tot);
	ASSERT_EQ(11u, tot.sent);
	pw_node_totals(&self->ctl, &tot);
	ASSERT_EQ(11u, tot.delivered);
	ASSERT_EQ(0u, tot.sent);

	pw_node_drop_peer(&self->ctl, from_wk);
	pw_node_drop_peer(&self->wk, self->to_ctl);
	pw_node_totals(&self->ctl, &tot);
	ASSERT_EQ(11u, tot.delivered);
	pw_node_totals(&self->wk, &tot);
	ASSERT_EQ(11u, tot.sent);

	/* A new peer in the freed slot adds to them, from zero. */
	ASSERT_NE(NULL, pw_node_peer(&self->ctl, PW_NODE_WORKER_BASE + 1,
				     &wk_addr));
	pw_node_totals(&self->ctl, &tot);
	ASSERT_EQ(11u, tot.delivered);
}

TEST_F(nodes, step_wakes_for_the_second_extra_fd)
{
	uint64_t one = 1;
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	ASSERT_GE(efd, 0);
	ASSERT_EQ(-1, self->wk.extra_fd[0]);
	ASSERT_EQ(-1, self->wk.extra_fd[1]);
	self->wk.extra_fd[1] = efd;
	ASSERT_EQ(sizeof(one), (size_t)write(efd, &one, sizeof(one)));
	/* Returns at once; were the fd not polled, the harness times out. */
	ASSERT_EQ(0, pw_node_step(&self->wk, 3600ull * 1000 * MS));
	close(efd);
}

/*
 * Greetings make strangers peers at the controller only: a worker takes
 * no REGISTER or CONNECT of a node the controller did not introduce
 * (dropped and counted), so nobody becomes its peer by saying hello.
 */
TEST_F(nodes, only_the_controller_takes_a_strangers_greeting)
{
	struct pw_auth_key key;
	struct sockaddr_in any = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in wk_addr;
	struct pw_node_peer *to_wk;
	struct pw_transport *t;
	struct rx_log stranger_log = { 0 };
	struct pw_node stranger;
	struct pw_wire_msg m;
	unsigned int i;

	ASSERT_EQ(0, test_cluster_key(&key));
	ASSERT_EQ(0, pw_transport_local_addr(self->wk.t, &wk_addr));
	ASSERT_EQ(0, variant->open(&t, &any));
	ASSERT_EQ(0, pw_node_init(&stranger, PW_NODE_WORKER_BASE + 1, t, &key,
				  log_handler, &stranger_log));
	to_wk = pw_node_peer(&stranger, PW_NODE_WORKER_BASE, &wk_addr);
	ASSERT_NE(NULL, to_wk);
	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&stranger, to_wk, &m, pw_now_ns()));
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_CONNECT;
	ASSERT_EQ(0, pw_node_send(&stranger, to_wk, &m, pw_now_ns()));
	for (i = 0; i < 50; i++) {
		pw_node_step(&stranger, 1 * MS);
		pw_node_step(&self->wk, 1 * MS);
	}
	EXPECT_EQ(NULL, pw_node_find(&self->wk, PW_NODE_WORKER_BASE + 1));
	EXPECT_LE(2u, self->wk.stats.strangers);
	EXPECT_EQ(0u, self->wk_log.registers);
	pw_node_fini(&stranger);
}

/* The next datagram to the controller, taken off its transport by hand. */
static size_t capture(struct pw_node *ctl, uint8_t *cap, size_t size)
{
	uint64_t end = pw_now_ns() + 5000 * MS;
	struct pw_dgram dg[4];
	int got;

	while (pw_now_ns() < end) {
		pw_transport_wait(ctl->t, 1 * MS);
		got = pw_transport_recv_burst(ctl->t, dg, 4);
		if (got > 0 && dg[0].len <= size) {
			memcpy(cap, dg[0].data, dg[0].len);
			return dg[0].len;
		}
	}
	return 0;
}

/*
 * The cluster key at work between two live nodes. A DONE the worker sent
 * is taken off the controller's transport before its node sees it, then
 * sent again: from another address it is dropped and counted (not the
 * worker's), from the worker's it is delivered once and then a
 * duplicate; altered, sealed with another key (a forged DONE, as a node
 * without the cluster's key would make it), cut short or resealed as sent
 * long ago, it is dropped and counted; the worker's next message still
 * arrives. The tag is checked before decoding: the same for every type.
 */
TEST_F(nodes, forged_replayed_and_foreign_datagrams_are_dropped)
{
	struct sockaddr_in any = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	uint8_t cap[PW_WIRE_MAX_DGRAM + PW_WIRE_AUTH_BYTES], bad[sizeof(cap)];
	struct pw_node_totals before, after;
	struct pw_transport *inj;
	struct sockaddr_in ctl_addr;
	struct pw_auth_key other;
	struct pw_wire_msg m;
	size_t len;
	int i;

	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, 0);
	ASSERT_EQ(1u, self->ctl_log.registers);
	ASSERT_EQ(0, pw_transport_local_addr(self->ctl.t, &ctl_addr));
	ASSERT_EQ(0, variant->open(&inj, &any));

	/* A DONE off the wire, by hand. */
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_DONE;
	m.body.done.run_id = 7;
	m.body.done.nhosts = 1;
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	len = capture(&self->ctl, cap, sizeof(cap));
	ASSERT_LT((size_t)PW_WIRE_AUTH_BYTES, len);
	pw_node_totals(&self->ctl, &before);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pw_transport_send(inj, &ctl_addr, cap, len));
	run_idle(&self->wk, &self->ctl);
	EXPECT_EQ(2u, self->ctl.stats.wrong_addr);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pw_transport_send(self->wk.t, &ctl_addr, cap, len));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, 0);
	run_idle(&self->wk, &self->ctl);
	pw_node_totals(&self->ctl, &after);
	EXPECT_EQ(1u, self->ctl_log.others);	/* the DONE, once */
	EXPECT_LE(before.duplicates + 3, after.duplicates);
	EXPECT_EQ(2u, self->ctl.stats.wrong_addr);
	EXPECT_EQ(0u, self->ctl.stats.forged);
	EXPECT_EQ(0u, self->ctl.stats.stale);

	/* A byte of the message altered: forged. */
	memcpy(bad, cap, len);
	bad[PW_WIRE_HDR_SIZE] ^= 1;
	ASSERT_EQ(0, pw_transport_send(inj, &ctl_addr, bad, len));
	/* The same message under another key: forged. */
	pw_auth_key_random(&other);
	memcpy(bad, cap, len);
	pw_auth_seal(&other, bad, len - PW_WIRE_AUTH_BYTES, pw_auth_now_ns());
	ASSERT_EQ(0, pw_transport_send(inj, &ctl_addr, bad, len));
	/* No room for a trailer: forged. */
	ASSERT_EQ(0, pw_transport_send(inj, &ctl_addr, cap, 20));
	/* Authentic, but sent a minute ago: stale. */
	memcpy(bad, cap, len);
	pw_auth_seal(&self->wk.key, bad, len - PW_WIRE_AUTH_BYTES,
		     pw_auth_now_ns() - 60 * 1000 * MS);
	ASSERT_EQ(0, pw_transport_send(inj, &ctl_addr, bad, len));
	run_idle(&self->wk, &self->ctl);
	EXPECT_EQ(3u, self->ctl.stats.forged);
	EXPECT_EQ(1u, self->ctl.stats.stale);
	EXPECT_EQ(0u, self->ctl.stats.malformed);
	EXPECT_EQ(1u, self->ctl_log.others);

	/* The worker goes on as if nothing happened. */
	part_msg(&m, 0);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, 1);
	EXPECT_EQ(1u, self->ctl_log.parts);
	EXPECT_EQ(0u, self->ctl_log.disorder);
	pw_transport_close(inj);
}

/*
 * A greeting replayed from elsewhere within the window is a duplicate:
 * it neither moves the peer to the replayer's address (which would take
 * the worker's traffic) nor counts as hearing from it.
 */
TEST_F(nodes, a_replayed_greeting_does_not_move_the_peer)
{
	struct sockaddr_in any = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	uint8_t cap[PW_WIRE_MAX_DGRAM + PW_WIRE_AUTH_BYTES];
	struct sockaddr_in ctl_addr, wk_addr;
	struct pw_node_peer *from_wk;
	struct pw_transport *inj;
	struct pw_wire_msg m;
	uint64_t heard;
	size_t len;

	ASSERT_EQ(0, pw_transport_local_addr(self->ctl.t, &ctl_addr));
	ASSERT_EQ(0, pw_transport_local_addr(self->wk.t, &wk_addr));
	/* The REGISTER off the wire, then on its way from the worker. */
	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	len = capture(&self->ctl, cap, sizeof(cap));
	ASSERT_LT((size_t)PW_WIRE_AUTH_BYTES, len);
	ASSERT_EQ(0, pw_transport_send(self->wk.t, &ctl_addr, cap, len));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, 0);
	ASSERT_EQ(1u, self->ctl_log.registers);
	from_wk = pw_node_find(&self->ctl, PW_NODE_WORKER_BASE);
	ASSERT_NE(NULL, from_wk);
	ASSERT_EQ(wk_addr.sin_port, from_wk->addr.sin_port);

	/* The same bytes from someone else. */
	ASSERT_EQ(0, variant->open(&inj, &any));
	heard = from_wk->last_heard_ns;
	ASSERT_EQ(0, pw_transport_send(inj, &ctl_addr, cap, len));
	run_idle(&self->wk, &self->ctl);
	EXPECT_EQ(wk_addr.sin_port, from_wk->addr.sin_port);
	EXPECT_EQ(heard, from_wk->last_heard_ns);
	EXPECT_EQ(1u, self->ctl_log.registers);
	pw_transport_close(inj);

	/* The worker's next message is still acknowledged to the worker. */
	part_msg(&m, 0);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, 1);
	EXPECT_EQ(1u, self->ctl_log.parts);
	EXPECT_EQ(0u, pw_rchan_inflight(self->to_ctl->ch));
}

/*
 * A member of the cluster (it has the key) claims the live worker's id
 * from its own address with a newer session: its REGISTER and anything
 * else it sends are dropped and counted, and the worker's channel goes
 * on. Once the worker has been silent for the takeover time, the same
 * greeting is a restart from elsewhere and takes the id over.
 */
TEST_F(nodes, a_live_peers_id_is_not_taken_from_elsewhere)
{
	struct sockaddr_in any = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in ctl_addr, imp_addr;
	struct pw_node_peer *from_wk, *imp_ctl;
	struct rx_log imp_log = { 0 };
	struct pw_transport *t;
	struct pw_node imp;
	struct pw_wire_msg m;
	uint64_t end;

	/* Far longer than the first phase, even on a loaded machine. */
	self->ctl.takeover_ns = 2000 * MS;
	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	run_until(&self->wk, &self->ctl, self->to_ctl, &self->ctl_log, 0);
	ASSERT_EQ(1u, self->ctl_log.registers);
	from_wk = pw_node_find(&self->ctl, PW_NODE_WORKER_BASE);
	ASSERT_NE(NULL, from_wk);

	ASSERT_EQ(0, pw_transport_local_addr(self->ctl.t, &ctl_addr));
	ASSERT_EQ(0, variant->open(&t, &any));
	ASSERT_EQ(0, pw_transport_local_addr(t, &imp_addr));
	ASSERT_EQ(0, pw_node_init(&imp, PW_NODE_WORKER_BASE, t,
				  &self->wk.key, log_handler, &imp_log));
	imp.session = self->wk.session + 1;	/* a "restart" */
	imp_ctl = pw_node_peer(&imp, PW_NODE_CONTROLLER, &ctl_addr);
	ASSERT_NE(NULL, imp_ctl);
	register_msg(&m);
	ASSERT_EQ(0, pw_node_send(&imp, imp_ctl, &m, pw_now_ns()));
	heartbeat_msg(&m, 0);
	ASSERT_EQ(0, pw_node_send(&imp, imp_ctl, &m, pw_now_ns()));
	/* The live worker keeps talking; the impostor retransmits. */
	part_msg(&m, 0);
	ASSERT_EQ(0, pw_node_send(&self->wk, self->to_ctl, &m, pw_now_ns()));
	end = pw_now_ns() + 150 * MS;
	while (pw_now_ns() < end) {
		pw_node_step(&imp, 1 * MS);
		pw_node_step(&self->wk, 1 * MS);
		pw_node_step(&self->ctl, 1 * MS);
	}
	EXPECT_EQ(1u, self->ctl_log.registers);
	EXPECT_EQ(1u, self->ctl_log.parts);
	EXPECT_LE(2u, self->ctl.stats.wrong_addr);
	EXPECT_NE(imp_addr.sin_port, from_wk->addr.sin_port);
	EXPECT_EQ(0u, pw_rchan_inflight(self->to_ctl->ch));

	/* The worker falls silent: the greeting is now a restart. */
	end = pw_now_ns() + 8000 * MS;
	while (pw_now_ns() < end && self->ctl_log.registers < 2) {
		pw_node_step(&imp, 1 * MS);
		pw_node_step(&self->ctl, 1 * MS);
	}
	EXPECT_EQ(2u, self->ctl_log.registers);
	EXPECT_EQ(imp_addr.sin_port, from_wk->addr.sin_port);
	pw_node_fini(&imp);
}

/* xorshift: the churn below is the same in every run. */
static uint32_t next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

#define CHURN_IDS	(3 * PW_NODE_MAX_PEERS)

/* Every candidate id is found iff it is live, and found as itself. */
static void expect_index(struct __test_metadata *_metadata,
			 struct pw_node *node, const uint32_t *ids,
			 const bool *live)
{
	struct pw_node_peer *p;
	unsigned int i;

	for (i = 0; i < CHURN_IDS; i++) {
		p = pw_node_find(node, ids[i]);
		if (!live[i]) {
			ASSERT_EQ(NULL, p);
			continue;
		}
		ASSERT_NE(NULL, p);
		ASSERT_EQ(ids[i], p->id);
		ASSERT_NE(NULL, p->ch);
	}
}

TEST(peer_index_finds_exactly_the_live_peers_through_churn)
{
	static uint32_t ids[CHURN_IDS];
	static bool live[CHURN_IDS];
	struct sockaddr_in any = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct pw_node *node = calloc(1, sizeof(*node));
	struct rx_log log = { 0 };
	unsigned int i, op, nlive = 0;
	struct pw_transport *t;
	struct pw_auth_key key;
	uint32_t seed = 12345;

	ASSERT_NE(NULL, node);
	ASSERT_EQ(0, test_cluster_key(&key));
	ASSERT_EQ(0, pw_loop_open(&t, &any));
	ASSERT_EQ(0, pw_node_init(node, PW_NODE_CONTROLLER, t, &key,
				  log_handler, &log));
	/* Consecutive worker ids and random client ids, as in a cluster. */
	for (i = 0; i < CHURN_IDS; i++)
		ids[i] = i % 2 ? PW_NODE_CLIENT_BASE | next_rand(&seed) :
				 PW_NODE_WORKER_BASE + i / 2;
	/* Fill the table, then one more is refused. */
	for (i = 0; i < PW_NODE_MAX_PEERS; i++) {
		ASSERT_NE(NULL, pw_node_peer(node, ids[i], &any));
		live[i] = true;
	}
	nlive = PW_NODE_MAX_PEERS;
	ASSERT_EQ(NULL, pw_node_peer(node, ids[PW_NODE_MAX_PEERS], &any));
	expect_index(_metadata, node, ids, live);
	/* Drops and adds at random, checked all along. */
	for (op = 0; op < 20000; op++) {
		i = next_rand(&seed) % CHURN_IDS;
		if (live[i]) {
			struct pw_node_peer *p = pw_node_find(node, ids[i]);

			ASSERT_NE(NULL, p);
			pw_node_drop_peer(node, p);
			live[i] = false;
			nlive--;
		} else if (nlive < PW_NODE_MAX_PEERS) {
			ASSERT_NE(NULL, pw_node_peer(node, ids[i], &any));
			live[i] = true;
			nlive++;
		}
		if (op % 500 == 0)
			expect_index(_metadata, node, ids, live);
	}
	expect_index(_metadata, node, ids, live);
	pw_node_fini(node);
	free(node);
}

TEST_HARNESS_MAIN
