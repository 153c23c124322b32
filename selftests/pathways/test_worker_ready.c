// SPDX-License-Identifier: GPL-2.0
/*
 * test_worker_ready.c - pathwaysd's worker (runtime/dcn/worker.c) over
 * the live devices, with bare DCN nodes in the controller's place and in
 * a peer worker's: a transfer target's READY that overtakes its PLAN is
 * kept and applied; one that cannot be kept (more than PW_WK_MAX_EARLY
 * wait) fails its run when the PLAN comes instead of leaving its DCN_SEND
 * waiting for ever; and a worker that registers again forgets the READYs
 * it kept, since the controller's run ids may start again. A data-plane
 * write lands only under its transfer's random cookie, whole; a FREE ends
 * an upload that never landed. Runs in the
 * testbed with pwtpu.ko loaded (it claims the island, as pathwaysd does).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../runtime/dcn/roles.h"
#include "../../runtime/net/transport.h"
#include "kselftest_harness.h"
#include "../lib/test_key.h"

#define MS 1000000ull
/* The worker's heartbeat and how soon it gives a silent controller up. */
#define HEARTBEAT_MS	50
#define DOWN_MS		400
/* The peer worker's host id: the target of every transfer. */
#define PEER_HOST	1
#define HANDLE		(5u << PW_WIRE_SHARD_BITS)
#define CLIENT		(PW_NODE_CLIENT_BASE | 7)

/*
 * What the bare controller saw: REGISTERs, and each run's DONE; and the
 * last READY the bare peer worker was sent.
 */
struct ctl_log {
	unsigned int registers;
	unsigned int dones;
	uint32_t done_run[64];
	int done_status[64];	/* -1: no DONE yet */
	struct sockaddr_in peer_addr;	/* where the peer worker listens */
	unsigned int readies;
	struct pw_wire_ready ready;
};

static void log_reset(struct ctl_log *log)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		log->done_status[i] = -1;
}

/* REGISTER: accept and introduce the peer worker; DONE: note it. */
static int ctl_handler(struct pw_node *node, struct pw_node_peer *p,
		       const struct pw_wire_msg *msg, uint64_t now)
{
	struct ctl_log *log = node->ctx;
	struct pw_wire_msg m;
	unsigned int i;

	if (msg->hdr.type == PW_WIRE_DONE) {
		i = msg->body.done.run_id % 64;
		log->done_run[i] = msg->body.done.run_id;
		log->done_status[i] = (int)msg->body.done.status;
		log->dones++;
		return 0;
	}
	if (msg->hdr.type != PW_WIRE_REGISTER)
		return 0;
	log->registers++;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_REGISTER_ACK;
	m.body.reg_ack.host_id = msg->body.reg.host_id;
	m.body.reg_ack.heartbeat_ms = HEARTBEAT_MS;
	m.body.reg_ack.down_ms = DOWN_MS;
	if (pw_node_send(node, p, &m, now))
		return -EIO;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_PEER;
	m.body.peer.node = PW_NODE_WORKER_BASE + PEER_HOST;
	m.body.peer.host = PEER_HOST;
	m.body.peer.port = ntohs(log->peer_addr.sin_port);
	memcpy(m.body.peer.ip, &log->peer_addr.sin_addr, 4);
	if (pw_node_send(node, p, &m, now))
		return -EIO;
	/* The runs' client: its DONEs go nowhere anyone reads. */
	m.body.peer.node = CLIENT;
	m.body.peer.host = PW_WIRE_ANY_HOST;
	return pw_node_send(node, p, &m, now);
}

/* The peer worker notes the READYs it is sent. */
static int peer_handler(struct pw_node *node, struct pw_node_peer *p,
			const struct pw_wire_msg *msg, uint64_t now)
{
	struct ctl_log *log = node->ctx;

	if (msg->hdr.type == PW_WIRE_READY) {
		log->ready = msg->body.ready;
		log->readies++;
	}
	return 0;
}

FIXTURE(ready) {
	struct pw_worker w;
	struct pw_node ctl;
	struct pw_node peer;
	struct ctl_log log;
	struct pw_node_peer *ctl_to_wk;
	struct pw_node_peer *peer_to_wk;
	struct sockaddr_in ctl_addr;
	bool w_up;
	bool ctl_up;
	bool peer_up;
};

/* Step the worker and the bare nodes (the controller unless @ctl_silent). */
static void step(FIXTURE_DATA(ready) *self, unsigned int ms, bool ctl_silent)
{
	uint64_t end = pw_now_ns() + ms * MS;

	do {
		pw_worker_step(&self->w, 0);
		if (!ctl_silent)
			pw_node_step(&self->ctl, 0);
		pw_node_step(&self->peer, 0);
		usleep(200);
	} while (pw_now_ns() < end);
}

/* Step until the worker is registered and knows the peer (or 10 s). */
static bool wait_registered(FIXTURE_DATA(ready) *self, unsigned int registers)
{
	unsigned int i;

	for (i = 0; i < 2000; i++) {
		if (self->w.registered && self->log.registers >= registers &&
		    pw_node_find(&self->w.node, PW_NODE_WORKER_BASE + PEER_HOST))
			return true;
		step(self, 5, false);
	}
	return false;
}

FIXTURE_SETUP(ready)
{
	struct pw_auth_key key;
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct pw_transport *t;

	ASSERT_EQ(0, test_cluster_key(&key));
	log_reset(&self->log);
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&self->peer, PW_NODE_WORKER_BASE + PEER_HOST,
				  t, &key, peer_handler, &self->log));
	self->peer_up = true;
	ASSERT_EQ(0, pw_transport_local_addr(t, &self->log.peer_addr));
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&self->ctl, PW_NODE_CONTROLLER, t, &key,
				  ctl_handler, &self->log));
	self->ctl_up = true;
	ASSERT_EQ(0, pw_transport_local_addr(t, &self->ctl_addr));
}

/* Start the worker, with data plane @dp (NULL: none), and register it. */
static bool start_worker(FIXTURE_DATA(ready) *self,
			 const struct pw_dp_opts *dp)
{
	struct pw_auth_key key;
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in wk_addr;
	struct pw_wire_register reg;
	struct pw_transport *t;

	if (test_cluster_key(&key))
		return false;
	if (pw_worker_registration(&reg, &lo, NULL) || pw_udp_open(&t, &lo) ||
	    pw_worker_init(&self->w, t, &key, 0, &self->ctl_addr, &reg, dp,
			   NULL))
		return false;
	self->w_up = true;
	if (pw_transport_local_addr(t, &wk_addr))
		return false;
	self->peer_to_wk = pw_node_peer(&self->peer, PW_NODE_WORKER_BASE,
					&wk_addr);
	if (!self->peer_to_wk || !wait_registered(self, 1))
		return false;
	self->ctl_to_wk = pw_node_find(&self->ctl, PW_NODE_WORKER_BASE);
	return self->ctl_to_wk;
}

FIXTURE_TEARDOWN(ready)
{
	if (self->w_up)
		pw_worker_fini(&self->w);
	if (self->ctl_up)
		pw_node_fini(&self->ctl);
	if (self->peer_up)
		pw_node_fini(&self->peer);
}

/* The peer worker says where run @run's transfer to it is to go. */
static int send_ready(FIXTURE_DATA(ready) *self, uint32_t run)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_READY;
	m.body.ready.run_id = run;
	m.body.ready.src_host = 0;
	m.body.ready.dst_host = PEER_HOST;
	m.body.ready.handle = HANDLE;
	m.body.ready.cookie = run;
	m.body.ready.data_ip[0] = 127;
	m.body.ready.data_ip[3] = 1;
	m.body.ready.data_port = 9;
	return pw_node_send(&self->peer, self->peer_to_wk, &m, pw_now_ns());
}

/*
 * The controller's PLAN of run @run: one DCN_SEND (@op) of a client's
 * buffer to the peer worker, or one DCN_RECV of @bytes from it into a
 * temporary.
 */
static int send_plan(FIXTURE_DATA(ready) *self, uint32_t run,
		     enum pw_wire_cmd_op op, uint64_t bytes)
{
	struct pw_wire_plan_cmd *c;
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_PLAN;
	m.body.plan.run_id = run;
	m.body.plan.program_id = 1;
	m.body.plan.client = CLIENT;
	m.body.plan.client_run = run;
	m.body.plan.ncmds_total = 1;
	m.body.plan.ncmds = 1;
	m.body.plan.nhosts = 2;
	c = &m.body.plan.cmds[0];
	c->op = op;
	c->peer_host = PEER_HOST;
	c->bytes = bytes;
	if (op == PW_WIRE_CMD_DCN_SEND) {
		c->nin = 1;
		c->peer_buf = HANDLE;
		c->bufs[0] = 9u << PW_WIRE_SHARD_BITS;
	} else {
		c->nout = 1;
		c->bufs[0] = PW_WIRE_BUF_TEMP | 1u << PW_WIRE_SHARD_BITS;
	}
	return pw_node_send(&self->ctl, self->ctl_to_wk, &m, pw_now_ns());
}

/* Run @run's DONE status at the controller within @ms, or -1. */
static int done_status(FIXTURE_DATA(ready) *self, uint32_t run,
		       unsigned int ms)
{
	uint64_t end = pw_now_ns() + ms * MS;
	unsigned int i = run % 64;

	do {
		if (self->log.done_run[i] == run && self->log.done_status[i] >= 0)
			return self->log.done_status[i];
		step(self, 1, false);
	} while (pw_now_ns() < end);
	return -1;
}

/*
 * More early READYs than the worker keeps: the oldest is not kept, and
 * its run fails ENOBUFS at its PLAN, named in the log and counted. A kept
 * one is applied at its PLAN (without a data plane, its write fails
 * ENOTCONN at once); a run whose READY never came waits.
 */
TEST_F_TIMEOUT(ready, a_ready_not_kept_fails_its_run, 120)
{
	uint32_t run;
	unsigned int i;

	/* No data plane: a READY applied makes its DCN_SEND fail ENOTCONN. */
	ASSERT_TRUE(start_worker(self, NULL));

	for (run = 1; run <= PW_WK_MAX_EARLY + 1; run++) {
		ASSERT_EQ(0, send_ready(self, run));
		if (run % 64 == 0)
			step(self, 2, false);
	}
	for (i = 0; i < 5000 && self->w.early_kept < PW_WK_MAX_EARLY + 1u; i++)
		step(self, 2, false);
	ASSERT_EQ((uint64_t)PW_WK_MAX_EARLY + 1, self->w.early_kept);
	EXPECT_EQ((unsigned int)PW_WK_MAX_EARLY, self->w.nearly);
	EXPECT_EQ(1u, self->w.early_lost);

	/* Run 1's READY went: its PLAN fails the run at once. */
	ASSERT_EQ(0, send_plan(self, 1, PW_WIRE_CMD_DCN_SEND, 4096));
	EXPECT_EQ(ENOBUFS, done_status(self, 1, 5000));

	/* Run 1025's was kept: applied, its write is tried (and fails). */
	ASSERT_EQ(0, send_plan(self, PW_WK_MAX_EARLY + 1, PW_WIRE_CMD_DCN_SEND,
			       4096));
	EXPECT_EQ(ENOTCONN, done_status(self, PW_WK_MAX_EARLY + 1, 5000));
	EXPECT_EQ((unsigned int)PW_WK_MAX_EARLY - 1, self->w.nearly);

	/* No READY at all: the DCN_SEND waits for its target. */
	ASSERT_EQ(0, send_plan(self, 5000, PW_WIRE_CMD_DCN_SEND, 4096));
	EXPECT_EQ(-1, done_status(self, 5000, 500));
	EXPECT_EQ(0u, self->w.lost_forgotten);
}

/*
 * A worker that registers again (its controller fell silent) forgets
 * every READY it kept: the run ids they name may be a new controller's.
 * A PLAN of such an id then waits for its own READY.
 */
TEST_F_TIMEOUT(ready, registering_again_forgets_kept_readies, 60)
{
	unsigned int i;

	ASSERT_TRUE(start_worker(self, NULL));

	ASSERT_EQ(0, send_ready(self, 7));
	for (i = 0; i < 1000 && self->w.early_kept < 1; i++)
		step(self, 2, false);
	ASSERT_EQ(1u, self->w.nearly);

	/* The controller falls silent past the worker's down time. */
	step(self, 3 * DOWN_MS, true);
	ASSERT_TRUE(wait_registered(self, 2));
	EXPECT_EQ(0u, self->w.nearly);

	ASSERT_EQ(0, send_plan(self, 7, PW_WIRE_CMD_DCN_SEND, 4096));
	EXPECT_EQ(-1, done_status(self, 7, 500));
}

/* A data plane of the test's own, writing as the peer worker would. */
struct writer {
	struct pw_dp *dp;
	struct pw_dp_conn *conn;
	struct pw_dp_region *src;
	void *bytes;
};

/* Step everyone until the writer's next event of @type (or 10 s). */
static int writer_wait(FIXTURE_DATA(ready) *self, struct writer *wr,
		       enum pw_dp_event_type type)
{
	struct pw_dp_event ev;
	unsigned int i;

	for (i = 0; i < 5000; i++) {
		while (pw_dp_poll(wr->dp, &ev, 1) == 1)
			if (ev.type == type)
				return ev.status;
		step(self, 2, false);
	}
	return -ETIMEDOUT;
}

/*
 * A write lands by its cookie alone, so the worker makes cookies no one
 * can guess and takes only a write of the whole transfer under the right
 * one: a write under another cookie, or of the wrong size, is counted as
 * a stray and ends nothing; the true write ends the DCN_RECV.
 */
TEST_F_TIMEOUT(ready, only_the_cookies_write_of_the_whole_transfer_lands, 60)
{
	struct pw_dp_opts o = {
		.mode = PW_DP_TCP,
		.bind = { .sin_family = AF_INET,
			  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) },
	};
	const uint64_t n = 64 * 1024;
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct writer wr = { 0 };
	struct pw_wire_ready rd;
	struct pw_dp_desc dst;
	uint32_t first;

	ASSERT_TRUE(start_worker(self, &o));
	ASSERT_EQ(0, pw_dp_open(&o, &wr.dp));
	wr.bytes = calloc(1, n);
	ASSERT_NE(NULL, wr.bytes);
	ASSERT_EQ(0, pw_dp_reg(wr.dp, wr.bytes, n, &wr.src));

	/* Two DCN_RECVs: their cookies are not a counter's. */
	ASSERT_EQ(0, send_plan(self, 40, PW_WIRE_CMD_DCN_RECV, n));
	while (self->log.readies < 1)
		step(self, 2, false);
	first = self->log.ready.cookie;
	ASSERT_EQ(0, send_plan(self, 41, PW_WIRE_CMD_DCN_RECV, n));
	while (self->log.readies < 2)
		step(self, 2, false);
	rd = self->log.ready;
	ASSERT_EQ(41u, rd.run_id);
	EXPECT_NE(0u, rd.cookie);
	/* A slot and a generation made them one apart. */
	EXPECT_NE(first, rd.cookie);
	EXPECT_NE(first + 1, rd.cookie);

	ASSERT_EQ(0, pw_dp_desc_unpack(rd.desc, &dst));
	memcpy(&to.sin_addr, rd.data_ip, 4);
	to.sin_port = htons(rd.data_port);
	ASSERT_EQ(0, pw_dp_connect(wr.dp, &to, &wr.conn));
	ASSERT_EQ(0, writer_wait(self, &wr, PW_DP_EV_CONNECTED));

	/* Another cookie: the bytes are in, the transfer is not over. */
	ASSERT_EQ(0, pw_dp_write(wr.conn, wr.src, 0, &dst, 0, n,
				 rd.cookie ^ 0x5a5a0000u));
	ASSERT_EQ(0, writer_wait(self, &wr, PW_DP_EV_WRITE_DONE));
	EXPECT_EQ(-1, done_status(self, 41, 300));
	EXPECT_EQ(1u, self->w.stray_landings);

	/* The cookie, but half the bytes: not the transfer either. */
	ASSERT_EQ(0, pw_dp_write(wr.conn, wr.src, 0, &dst, 0, n / 2,
				 rd.cookie));
	ASSERT_EQ(0, writer_wait(self, &wr, PW_DP_EV_WRITE_DONE));
	EXPECT_EQ(-1, done_status(self, 41, 300));
	EXPECT_EQ(2u, self->w.stray_landings);

	/* The true write: the run is done, and nothing went astray. */
	ASSERT_EQ(0, pw_dp_write(wr.conn, wr.src, 0, &dst, 0, n, rd.cookie));
	ASSERT_EQ(0, writer_wait(self, &wr, PW_DP_EV_WRITE_DONE));
	EXPECT_EQ(0, done_status(self, 41, 5000));
	EXPECT_EQ(2u, self->w.stray_landings);

	pw_dp_conn_close(wr.conn);
	pw_dp_dereg(wr.src);
	pw_dp_close(wr.dp);
	free(wr.bytes);
}

/* Uploads over the data plane the worker has under way. */
static unsigned int uploads(const struct pw_worker *w)
{
	unsigned int i, n = 0;

	for (i = 0; i < PW_WK_MAX_HXFER; i++)
		n += w->hx[i].used && w->hx[i].upload;
	return n;
}

/*
 * A FREE of a buffer whose upload never landed ends the upload at once:
 * its slot, its data-plane key and its HBM go, not only at the client's
 * BYE.
 */
TEST_F_TIMEOUT(ready, a_free_ends_an_upload_that_never_landed, 60)
{
	struct pw_dp_opts o = {
		.mode = PW_DP_TCP,
		.bind = { .sin_family = AF_INET,
			  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) },
	};
	struct pw_wire_buffer *b;
	struct pw_wire_msg m;
	unsigned int i;

	ASSERT_TRUE(start_worker(self, &o));
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BUFFER;
	b = &m.body.buffer;
	b->op = PW_WIRE_BUF_CREATE;
	b->flags = PW_WIRE_BUF_F_DP;
	b->dtype = PWTPU_DT_F32;
	b->rank = 1;
	b->shape[0] = 16384;
	b->total = 16384 * 4;
	b->client = CLIENT;
	b->id = 3u << PW_WIRE_SHARD_BITS;
	ASSERT_EQ(0, pw_node_send(&self->ctl, self->ctl_to_wk, &m,
				  pw_now_ns()));
	for (i = 0; i < 5000 && !uploads(&self->w); i++)
		step(self, 2, false);
	ASSERT_EQ(1u, uploads(&self->w));
	ASSERT_EQ(1u, self->w.store.nbufs);

	/* The client frees it without writing a byte. */
	b->op = PW_WIRE_BUF_FREE;
	b->flags = 0;
	b->dtype = 0;
	b->rank = 0;
	b->shape[0] = 0;
	b->total = 0;
	ASSERT_EQ(0, pw_node_send(&self->ctl, self->ctl_to_wk, &m,
				  pw_now_ns()));
	for (i = 0; i < 5000 && self->w.store.nbufs; i++)
		step(self, 2, false);
	EXPECT_EQ(0u, uploads(&self->w));
	EXPECT_EQ(0u, self->w.store.nbufs);
	EXPECT_EQ(0u, self->w.store.bytes);
}

/*
 * The controller falls silent and comes back: the worker registers again
 * and keeps its clients' buffers (a partition healed). The controller
 * restarts (a new session on the same address): the worker registers
 * with it and frees what the old one's clients had, since none of them
 * will ever send BYE.
 */
TEST_F_TIMEOUT(ready, a_restarted_controller_leaves_no_orphans, 60)
{
	struct sockaddr_in lo = self->ctl_addr;
	struct pw_wire_buffer *b;
	struct pw_auth_key key;
	struct pw_transport *t;
	unsigned int i, registers;
	struct pw_wire_msg m;

	ASSERT_TRUE(start_worker(self, NULL));
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BUFFER;
	b = &m.body.buffer;
	b->op = PW_WIRE_BUF_CREATE;
	b->dtype = PWTPU_DT_F32;
	b->rank = 1;
	b->shape[0] = 16;
	b->total = 16 * 4;
	b->nbytes = 16 * 4;	/* all of it, in the CREATE */
	b->client = CLIENT;
	b->id = 3u << PW_WIRE_SHARD_BITS;
	ASSERT_EQ(0, pw_node_send(&self->ctl, self->ctl_to_wk, &m,
				  pw_now_ns()));
	for (i = 0; i < 5000 && !self->w.store.nbufs; i++)
		step(self, 2, false);
	ASSERT_EQ(1u, self->w.store.nbufs);

	/* Silent past the down time, then back: the same controller. */
	step(self, 3 * DOWN_MS, true);
	ASSERT_TRUE(wait_registered(self, 2));
	EXPECT_EQ(0u, self->w.ctl_restarts);
	EXPECT_EQ(1u, self->w.store.nbufs);

	/* A new controller on the same address. */
	registers = self->log.registers;
	pw_node_fini(&self->ctl);
	self->ctl_up = false;
	usleep(5000);	/* sessions are milliseconds of the clock */
	ASSERT_EQ(0, test_cluster_key(&key));
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&self->ctl, PW_NODE_CONTROLLER, t, &key,
				  ctl_handler, &self->log));
	self->ctl_up = true;
	ASSERT_TRUE(wait_registered(self, registers + 1));
	EXPECT_EQ(1u, self->w.ctl_restarts);
	EXPECT_EQ(0u, self->w.store.nbufs);
	EXPECT_EQ(0u, self->w.store.bytes);
}

/* @type from the peer worker, which only READY may be. */
static int peer_sends(FIXTURE_DATA(ready) *self, unsigned int type)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = (uint8_t)type;
	switch (type) {
	case PW_WIRE_PLAN:
		m.body.plan.run_id = 90;
		m.body.plan.client = CLIENT;
		m.body.plan.ncmds_total = 1;
		m.body.plan.ncmds = 1;
		m.body.plan.nhosts = 1;
		m.body.plan.cmds[0].op = PW_WIRE_CMD_NOP;
		break;
	case PW_WIRE_CANCEL:
		m.body.cancel.run_id = 90;
		m.body.cancel.status = ECANCELED;
		break;
	case PW_WIRE_BYE:
		m.body.bye.client = CLIENT;
		break;
	}
	return pw_node_send(&self->peer, self->peer_to_wk, &m, pw_now_ns());
}

/*
 * Another worker may tell this one only where to write (READY): a PLAN,
 * CANCEL or BYE from it is refused and counted by type, and the worker
 * goes on serving its controller. A peer worker that stops acknowledging
 * (here it no longer runs) is forgotten once the deaf time passes, so
 * what the worker sends it does not pile up; the controller introduces
 * it again when it registers again. The controller, which acknowledges,
 * and a client, whose liveness is the controller's to judge, are kept.
 */
TEST_F_TIMEOUT(ready, a_peer_workers_lies_and_deafness_are_refused, 60)
{
	struct pw_dp_opts o = {
		.mode = PW_DP_TCP,
		.bind = { .sin_family = AF_INET,
			  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) },
	};
	const struct pw_node_stats *st = &self->w.node.stats;
	unsigned int i;

	ASSERT_TRUE(start_worker(self, &o));
	ASSERT_EQ(0, peer_sends(self, PW_WIRE_PLAN));
	ASSERT_EQ(0, peer_sends(self, PW_WIRE_CANCEL));
	ASSERT_EQ(0, peer_sends(self, PW_WIRE_BYE));
	for (i = 0; i < 2000 && st->refused < 3; i++)
		step(self, 1, false);
	EXPECT_EQ(1u, st->refused_by[PW_WIRE_PLAN]);
	EXPECT_EQ(1u, st->refused_by[PW_WIRE_CANCEL]);
	EXPECT_EQ(1u, st->refused_by[PW_WIRE_BYE]);

	/* The controller's own plans still run. */
	ASSERT_EQ(0, send_ready(self, 7));
	ASSERT_EQ(0, send_plan(self, 7, PW_WIRE_CMD_DCN_SEND, 4096));
	EXPECT_LE(0, done_status(self, 7, 5000));

	/* The peer falls deaf while a READY to it waits for its ack. */
	self->w.deaf_ms = 300;
	pw_node_fini(&self->peer);
	self->peer_up = false;
	ASSERT_EQ(0, send_plan(self, 8, PW_WIRE_CMD_DCN_RECV, 4096));
	for (i = 0; i < 3000 && pw_node_find(&self->w.node,
					     PW_NODE_WORKER_BASE + PEER_HOST);
	     i++) {
		pw_worker_step(&self->w, 0);
		pw_node_step(&self->ctl, 0);
		usleep(1000);
	}
	EXPECT_EQ(NULL, pw_node_find(&self->w.node,
				     PW_NODE_WORKER_BASE + PEER_HOST));
	/*
	 * Not the runs' client, which no one plays and whose DONEs wait
	 * too: the controller says when a client has gone.
	 */
	EXPECT_NE(NULL, pw_node_find(&self->w.node, CLIENT));
	EXPECT_EQ(1u, self->w.deaf);
	EXPECT_TRUE(self->w.registered);
}

TEST_HARNESS_MAIN
