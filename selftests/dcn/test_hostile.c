// SPDX-License-Identifier: GPL-2.0
/*
 * test_hostile.c - the controller among peers that lie (issue "Checks we
 * can trust", hostile peers), on the host over kernel UDP on loopback: a
 * real controller, a bare node in host 0's worker's place that answers
 * every PLAN, an honest remote client running the add program on it, and
 * a liar. The liar holds the cluster key and speaks the wire format
 * correctly, but sends raw datagrams of its own making: it claims what
 * it likes and acknowledges nothing.
 *
 * Each lie is refused and counted by type (the node's refused_by, or
 * wrong_addr for a datagram under another live node's id); the honest
 * client's runs go on completing; a worker or client that stops
 * acknowledging is forgotten with what it held; and what the liar made
 * the controller hold is gone once it has gone (the sanitize section runs
 * this under LeakSanitizer too).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../runtime/dcn/fnpayload.h"
#include "../../runtime/dcn/rclient.h"
#include "../../runtime/fn/fn.h"

#include "kselftest_harness.h"
#include "fake_worker.h"
#include "../../runtime/dcn/roles.h"
#include "../../runtime/net/transport.h"
#include "../lib/test_key.h"

#define MS 1000000ull
/*
 * Silent, or deaf, this long, a client or worker has gone: long enough
 * for a test to look at what the liar (which never acknowledges) holds
 * on a loaded machine, short enough to wait for.
 */
#define CLIENT_TIMEOUT_MS 4000
#define LIAR_CLIENT (PW_NODE_CLIENT_BASE | 0x4242)
/* Any buffer id will do: only the (bare) worker would look it up. */
#define ARG_ID (77u << PW_WIRE_SHARD_BITS)

/**
 * struct liar - a raw sender of authentic datagrams that never acks
 * @t: its socket.
 * @key: the cluster key.
 * @id: the node id it claims.
 * @session: its session.
 * @dst: nodes it sent to, @seq the last seq of each.
 * @ndst: see @dst.
 */
struct liar {
	struct pw_transport *t;
	struct pw_auth_key key;
	uint32_t id;
	uint32_t session;
	uint32_t dst[4];
	uint32_t seq[4];
	unsigned int ndst;
};

static int liar_open(struct liar *l, uint32_t id)
{
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	memset(l, 0, sizeof(*l));
	l->id = id;
	l->session = (uint32_t)(pw_auth_now_ns() / MS) + 7;
	if (test_cluster_key(&l->key))
		return -EINVAL;
	return pw_udp_open(&l->t, &lo);
}

static void liar_close(struct liar *l)
{
	pw_transport_close(l->t);
}

/*
 * @m (type and body) to node @dst at @to, as the next message of our
 * stream to it, with no acknowledgement: every seq is its own base, so
 * the receiver takes each in order without ever hearing back.
 */
static int liar_send(struct liar *l, const struct sockaddr_in *to,
		     uint32_t dst, struct pw_wire_msg *m)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM + PW_WIRE_AUTH_BYTES];
	unsigned int i;
	int len;

	for (i = 0; i < l->ndst && l->dst[i] != dst; i++)
		;
	if (i == l->ndst) {
		if (i == 4)
			return -ENOSPC;
		l->dst[l->ndst++] = dst;
	}
	m->hdr.src_node = l->id;
	m->hdr.dst_node = dst;
	m->hdr.session = l->session;
	m->hdr.seq = ++l->seq[i];
	m->hdr.base = m->hdr.seq;
	m->hdr.flags = 0;
	m->hdr.ack_session = 0;
	m->hdr.ack = 0;
	m->hdr.sack = 0;
	len = pw_wire_encode(m, buf, PW_WIRE_MAX_DGRAM);
	if (len < 0)
		return len;
	len = (int)pw_auth_seal(&l->key, buf, (size_t)len, pw_auth_now_ns());
	return pw_transport_send(l->t, to, buf, (size_t)len);
}

static void msg_of(struct pw_wire_msg *m, unsigned int type)
{
	memset(m, 0, sizeof(*m));
	m->hdr.type = (uint8_t)type;
}

static void register_of(struct pw_wire_msg *m, unsigned int host,
			unsigned int ndev, const char *mesh)
{
	msg_of(m, PW_WIRE_REGISTER);
	m->body.reg.host_id = (uint16_t)host;
	m->body.reg.ndevices = (uint8_t)ndev;
	m->body.reg.hbm_bytes = 16ull << 20;
	snprintf(m->body.reg.mesh, sizeof(m->body.reg.mesh), "%s", mesh);
}

FIXTURE(hostile) {
	struct fake_cluster fc;
	bool up;
	struct pw_remote *r;
	struct pw_fn *fn;
	uint32_t prog;
	struct liar liar;
	bool liar_up;
};

FIXTURE_SETUP(hostile)
{
	ASSERT_EQ(0, fake_cluster_start(&self->fc, CLIENT_TIMEOUT_MS));
	self->up = true;
	ASSERT_EQ(0, fake_client_program(&self->fc.ctl_addr, "honest", &self->r,
					 &self->fn, &self->prog))
		TH_LOG("%s", pw_last_error());
}

FIXTURE_TEARDOWN(hostile)
{
	if (self->r)
		pw_remote_close(self->r);
	pw_fn_put(self->fn);
	if (self->up)
		fake_cluster_stop(&self->fc);
	if (self->liar_up)
		liar_close(&self->liar);
}

/* The honest client's program still runs, @n times. */
static int honest_runs(FIXTURE_DATA(hostile) *self, unsigned int n)
{
	uint32_t out;
	int ret = 0;

	while (n-- && !ret)
		ret = pw_remote_run(self->r, self->prog,
				    (uint32_t[]){ ARG_ID }, 1, &out, 1);
	return ret;
}

/* 0 when controller's peer @p is at transport @t's address, else -1. */
static int same_port(const struct pw_node_peer *p, struct pw_transport *t)
{
	struct sockaddr_in a;

	if (!p || pw_transport_local_addr(t, &a))
		return -1;
	return p->addr.sin_port == a.sin_port ? 0 : -1;
}

/* The liar, as a client: it connects (rightly) as @name. */
static int liar_connect(FIXTURE_DATA(hostile) *self, const char *name)
{
	struct pw_wire_msg m;
	int ret = liar_open(&self->liar, LIAR_CLIENT);

	if (ret)
		return ret;
	self->liar_up = true;
	msg_of(&m, PW_WIRE_CONNECT);
	snprintf(m.body.connect.name, sizeof(m.body.connect.name), "%s", name);
	return liar_send(&self->liar, &self->fc.ctl_addr, PW_NODE_CONTROLLER,
			 &m);
}

/* Step nothing ourselves for @ms: the serving thread and the client's do. */
static void settle(unsigned int ms)
{
	usleep(ms * 1000);
}

/* The liar says it is alive (and acknowledges nothing); 30 ms pass. */
static int liar_beat(FIXTURE_DATA(hostile) *self)
{
	struct pw_wire_msg m;
	int ret;

	msg_of(&m, PW_WIRE_HEARTBEAT);
	m.body.heartbeat.time_ns = pw_now_ns();
	ret = liar_send(&self->liar, &self->fc.ctl_addr, PW_NODE_CONTROLLER,
			&m);
	settle(30);
	return ret;
}

/* Programs, functions, slices and runs the controller holds for @client. */
static unsigned int held_for(const struct pw_controller *c, uint32_t client)
{
	unsigned int i, k = 0;

	for (i = 0; i < c->nprograms; i++)
		k += c->programs[i].used && c->programs[i].client == client;
	for (i = 0; i < c->nfns; i++)
		k += c->fns[i].used && c->fns[i].client == client;
	for (i = 0; i < c->nslices; i++)
		k += c->slices[i].used && c->slices[i].client == client;
	for (i = 0; i < c->nruns; i++)
		k += c->runs[i].used && c->runs[i].client == client;
	return k;
}

/*
 * A client (a member of the cluster) that lies: a run of a program it
 * never registered, a DONE, a READY and a REGISTER (none a client's to
 * send), a slice on a device the island does not have, and programs
 * and functions begun and never ended past the bound on those. Each is
 * refused and counted, or (the partial ones past the bound) evicts the
 * liar's oldest; the honest client is served throughout; once the liar
 * says BYE, nothing it made is held.
 */
TEST_F_TIMEOUT(hostile, a_lying_client_is_refused_and_the_rest_are_served, 60)
{
	struct pw_node_stats st;
	struct pw_wire_msg m;
	unsigned int i;

	ASSERT_EQ(0, liar_connect(self, "liar"));

	msg_of(&m, PW_WIRE_RUN);
	m.body.run.program_id = 999;
	m.body.run.run_id = 1;
	m.body.run.nargs = 1;
	m.body.run.ids[0] = ARG_ID;
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	msg_of(&m, PW_WIRE_DONE);
	m.body.done.run_id = 1;
	m.body.done.nhosts = 1;
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	msg_of(&m, PW_WIRE_READY);
	m.body.ready.run_id = 1;
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	register_of(&m, 0, 1, "1x1");
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	msg_of(&m, PW_WIRE_SLICE);
	m.body.slice.op = PW_WIRE_SLICE_MAKE;
	m.body.slice.id = 5;
	m.body.slice.flags = PW_WIRE_SLICE_PINNED;
	m.body.slice.host = 0;
	m.body.slice.n = 1;
	m.body.slice.devices[0] = 5;	/* the island has one */
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	/* Programs of two nodes, each begun with its first part only. */
	for (i = 0; i < PW_CTL_CLIENT_PARTIAL + 2; i++) {
		msg_of(&m, PW_WIRE_PROGRAM);
		m.body.program.program_id = 100 + i;
		m.body.program.nnodes_total = 2;
		m.body.program.nnodes = 1;
		m.body.program.nargs = 1;
		m.body.program.nodes[0].kind = PW_WIRE_NODE_ARG;
		m.body.program.nodes[0].dtype = PWTPU_DT_F32;
		m.body.program.nodes[0].ndims = 1;
		m.body.program.nodes[0].nshards = 1;
		m.body.program.nodes[0].slice = 1;
		m.body.program.nodes[0].shape[0] = 4;
		ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
				       PW_NODE_CONTROLLER, &m));
	}
	/* Functions of 1 MiB, each begun with its first 16 bytes only. */
	for (i = 0; i < PW_CTL_CLIENT_PARTIAL + 2; i++) {
		msg_of(&m, PW_WIRE_FUNCTION);
		m.body.function.fn_id = 200 + i;
		m.body.function.total = 1u << 20;
		m.body.function.nbytes = 16;
		ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
				       PW_NODE_CONTROLLER, &m));
	}
	ASSERT_EQ(0, honest_runs(self, 10)) TH_LOG("%s", pw_last_error());
	settle(100);

	fake_cluster_hold(&self->fc);
	st = self->fc.c.node.stats;
	EXPECT_EQ(1u, self->fc.c.clients - 1);	/* the liar connected */
	EXPECT_LE(1u, st.refused_by[PW_WIRE_RUN]);
	EXPECT_LE(1u, st.refused_by[PW_WIRE_DONE]);
	EXPECT_LE(1u, st.refused_by[PW_WIRE_READY]);
	EXPECT_LE(1u, st.refused_by[PW_WIRE_REGISTER]);
	EXPECT_LE(1u, st.refused_by[PW_WIRE_SLICE]);
	/* The two oldest of each went; the newest are held. */
	EXPECT_EQ(0u, st.refused_by[PW_WIRE_PROGRAM]);
	EXPECT_EQ(0u, st.refused_by[PW_WIRE_FUNCTION]);
	EXPECT_EQ(4u, self->fc.c.evicted);
	EXPECT_EQ(2u * PW_CTL_CLIENT_PARTIAL, held_for(&self->fc.c, LIAR_CLIENT));
	EXPECT_EQ(NULL, pw_ctl_program_find(&self->fc.c, LIAR_CLIENT, 100));
	EXPECT_EQ(NULL, pw_ctl_program_find(&self->fc.c, LIAR_CLIENT, 101));
	EXPECT_NE(NULL, pw_ctl_program_find(&self->fc.c, LIAR_CLIENT, 102));
	EXPECT_EQ(NULL, pw_ctl_fn_find(&self->fc.c, LIAR_CLIENT, 200));
	EXPECT_EQ(NULL, pw_ctl_fn_find(&self->fc.c, LIAR_CLIENT, 201));
	EXPECT_NE(NULL, pw_ctl_fn_find(&self->fc.c, LIAR_CLIENT, 202));
	EXPECT_EQ((uint32_t)PW_NODE_WORKER_BASE, self->fc.c.isl[0].node);
	fake_cluster_resume(&self->fc);

	msg_of(&m, PW_WIRE_BYE);
	m.body.bye.client = LIAR_CLIENT;
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	ASSERT_EQ(0, honest_runs(self, 1)) TH_LOG("%s", pw_last_error());
	settle(100);
	fake_cluster_hold(&self->fc);
	EXPECT_EQ(0u, held_for(&self->fc.c, LIAR_CLIENT));
	EXPECT_EQ(1u, self->fc.c.gone);
	fake_cluster_resume(&self->fc);
}

/* Functions of @client whose parts have not all come. */
static unsigned int partial_fns(const struct pw_controller *c, uint32_t client)
{
	unsigned int i, k = 0;

	for (i = 0; i < c->nfns; i++)
		k += c->fns[i].used && c->fns[i].client == client &&
		     c->fns[i].pl.bytes && !c->fns[i].pl.complete;
	return k;
}

/* The liar sends FUNCTION @id's first part: @nbytes of @total at @data. */
static int liar_function(FIXTURE_DATA(hostile) *self, uint32_t id,
			 uint32_t total, const void *data, uint16_t nbytes)
{
	struct pw_wire_msg m;

	msg_of(&m, PW_WIRE_FUNCTION);
	m.body.function.fn_id = id;
	m.body.function.total = total;
	m.body.function.nbytes = nbytes;
	if (data)
		memcpy(m.body.function.data, data, nbytes);
	return liar_send(&self->liar, &self->fc.ctl_addr, PW_NODE_CONTROLLER,
			 &m);
}

/*
 * Starting a registered function over is no way around the bound on
 * partial ones: the liar registers PW_CTL_CLIENT_PARTIAL + 2 whole
 * functions (the honest client's, packed as a client packs it, in one
 * part), then starts each id over as the first part of a 1 MiB payload
 * it never ends. At most PW_CTL_CLIENT_PARTIAL are held partial: each
 * one past that evicted the oldest.
 */
TEST_F_TIMEOUT(hostile, starting_functions_over_is_bounded_too, 60)
{
	const unsigned int n = PW_CTL_CLIENT_PARTIAL + 2;
	struct pw_wire_fn_desc d;
	uint8_t *payload;
	uint32_t total;
	unsigned int i;

	ASSERT_EQ(0, liar_connect(self, "liar"));
	pw_fn_payload_desc(self->fn, &d);
	payload = pw_fn_payload_pack(&d, self->fn->image,
				     self->fn->const_data, &total);
	ASSERT_NE(NULL, payload);
	ASSERT_GE((uint32_t)PW_WIRE_FN_CHUNK, total);	/* one part: whole at once */
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, liar_function(self, 300 + i, total, payload,
					   (uint16_t)total));
	free(payload);
	ASSERT_EQ(0, honest_runs(self, 2)) TH_LOG("%s", pw_last_error());
	settle(100);
	fake_cluster_hold(&self->fc);
	EXPECT_EQ(n, held_for(&self->fc.c, LIAR_CLIENT));
	EXPECT_EQ(0u, partial_fns(&self->fc.c, LIAR_CLIENT));
	fake_cluster_resume(&self->fc);

	for (i = 0; i < n; i++)
		ASSERT_EQ(0, liar_function(self, 300 + i, 1u << 20, NULL, 16));
	ASSERT_EQ(0, honest_runs(self, 2)) TH_LOG("%s", pw_last_error());
	settle(100);
	fake_cluster_hold(&self->fc);
	EXPECT_EQ((unsigned int)PW_CTL_CLIENT_PARTIAL,
		  partial_fns(&self->fc.c, LIAR_CLIENT));
	EXPECT_EQ(2u, self->fc.c.evicted);
	EXPECT_EQ(NULL, pw_ctl_fn_find(&self->fc.c, LIAR_CLIENT, 300));
	EXPECT_EQ(NULL, pw_ctl_fn_find(&self->fc.c, LIAR_CLIENT, 301));
	EXPECT_NE(NULL, pw_ctl_fn_find(&self->fc.c, LIAR_CLIENT, 302));
	fake_cluster_resume(&self->fc);
}

/* Send DONEs of the honest client's run @ticket as host 1, to it. */
struct forger {
	FIXTURE_DATA(hostile) *self;
	uint32_t ticket;
	atomic_bool stop;
	unsigned int sent;
};

static void *forge_dones(void *arg)
{
	struct forger *f = arg;
	struct sockaddr_in client;
	struct pw_wire_msg m;

	if (pw_transport_local_addr(f->self->r->node.t, &client))
		return NULL;
	client.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	while (!atomic_load(&f->stop)) {
		msg_of(&m, PW_WIRE_DONE);
		m.body.done.run_id = f->ticket;
		m.body.done.host_id = 1;
		m.body.done.nhosts = 1;
		if (!liar_send(&f->self->liar, &client,
			       f->self->r->node.id, &m))
			f->sent++;
		usleep(20 * 1000);
	}
	return NULL;
}

/*
 * A worker (a member of the cluster) that lies: it registers its own
 * island, host 1, rightly, then registers as host 0 (not its id), sends
 * DONEs of runs that are not its own to the controller and, as DONEs
 * with status 0, to the honest client for a run on host 0 that host 0
 * never answers; and another member sends REGISTER under host 0's live
 * id from its own address. The controller and the client refuse and
 * count each: the client's run ends as the controller says (its
 * deadline passed), not as the liar said; host 0 stays registered.
 */
TEST_F_TIMEOUT(hostile, a_lying_worker_is_refused_and_the_rest_are_served, 60)
{
	struct pw_node_stats st;
	struct forger f = { .self = self };
	struct pw_wire_msg m;
	struct liar thief;
	pthread_t forger;
	uint32_t out;
	unsigned int i;
	int ret;

	ASSERT_EQ(0, liar_open(&self->liar, PW_NODE_WORKER_BASE + 1));
	self->liar_up = true;
	register_of(&m, 1, 1, "1x1");
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	register_of(&m, 0, 1, "1x1");
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	for (i = 1; i <= 20; i++) {
		msg_of(&m, PW_WIRE_DONE);
		m.body.done.run_id = i;
		m.body.done.host_id = 1;
		m.body.done.nhosts = 1;
		ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
				       PW_NODE_CONTROLLER, &m));
	}
	ASSERT_EQ(0, liar_open(&thief, PW_NODE_WORKER_BASE));
	register_of(&m, 0, 1, "1x1");
	ASSERT_EQ(0, liar_send(&thief, &self->fc.ctl_addr, PW_NODE_CONTROLLER,
			       &m));
	ASSERT_EQ(0, honest_runs(self, 5)) TH_LOG("%s", pw_last_error());

	/* Host 0 stays silent; the liar says the run is done. */
	atomic_store(&self->fc.answer, false);
	pw_remote_set_run_timeout(self->r, 800);
	ASSERT_EQ(0, pw_remote_run_async(self->r, self->prog,
					 (uint32_t[]){ ARG_ID }, 1, &out, 1,
					 &f.ticket));
	atomic_init(&f.stop, false);
	ASSERT_EQ(0, pthread_create(&forger, NULL, forge_dones, &f));
	ret = pw_remote_wait(self->r, f.ticket);
	atomic_store(&f.stop, true);
	pthread_join(forger, NULL);
	EXPECT_EQ(-ETIMEDOUT, ret);
	EXPECT_LE(10u, f.sent);
	EXPECT_LE(1u, self->r->node.stats.refused_by[PW_WIRE_DONE]);
	atomic_store(&self->fc.answer, true);
	pw_remote_set_run_timeout(self->r, 0);
	ASSERT_EQ(0, honest_runs(self, 5)) TH_LOG("%s", pw_last_error());

	fake_cluster_hold(&self->fc);
	st = self->fc.c.node.stats;
	EXPECT_TRUE(self->fc.c.isl[1].used);
	EXPECT_TRUE(self->fc.c.isl[0].up);
	/* Host 0's id still leads to host 0's worker, not to the thief. */
	EXPECT_EQ(0, same_port(pw_node_find(&self->fc.c.node,
					    PW_NODE_WORKER_BASE),
			       self->fc.wk.t));
	EXPECT_LE(1u, st.refused_by[PW_WIRE_REGISTER]);
	EXPECT_LE(20u, st.refused_by[PW_WIRE_DONE]);
	EXPECT_LE(1u, st.wrong_addr);
	fake_cluster_resume(&self->fc);
	liar_close(&thief);
}

/*
 * A worker that registers and heartbeats but acknowledges nothing is
 * forgotten after the client timeout: its island is down, its peer slot
 * (and all we queued for it) gone; the honest client goes on.
 */
TEST_F_TIMEOUT(hostile, a_worker_that_stops_acknowledging_is_forgotten, 60)
{
	struct pw_wire_msg m;
	unsigned int deaf = 0;
	int i;

	ASSERT_EQ(0, liar_open(&self->liar, PW_NODE_WORKER_BASE + 1));
	self->liar_up = true;
	register_of(&m, 1, 1, "1x1");
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	for (i = 0; i < 500 && !deaf; i++) {
		ASSERT_EQ(0, liar_beat(self));
		fake_cluster_hold(&self->fc);
		deaf = self->fc.c.deaf;
		fake_cluster_resume(&self->fc);
	}
	ASSERT_EQ(1u, deaf);
	fake_cluster_hold(&self->fc);
	EXPECT_FALSE(self->fc.c.isl[1].up);
	EXPECT_EQ(NULL, pw_node_find(&self->fc.c.node, PW_NODE_WORKER_BASE + 1));
	EXPECT_TRUE(self->fc.c.isl[0].up);
	fake_cluster_resume(&self->fc);
	ASSERT_EQ(0, honest_runs(self, 5)) TH_LOG("%s", pw_last_error());
}

/*
 * A client that makes a slice and goes on talking but acknowledges
 * nothing has gone after the client timeout: its slice is freed.
 */
TEST_F_TIMEOUT(hostile, a_client_that_stops_acknowledging_is_dropped, 60)
{
	struct pw_wire_msg m;
	unsigned int gone = 0, held;
	int i;

	ASSERT_EQ(0, liar_connect(self, "deaf"));
	msg_of(&m, PW_WIRE_SLICE);
	m.body.slice.op = PW_WIRE_SLICE_MAKE;
	m.body.slice.id = 5;
	m.body.slice.flags = PW_WIRE_SLICE_PINNED;
	m.body.slice.host = 0;
	m.body.slice.n = 1;
	ASSERT_EQ(0, liar_send(&self->liar, &self->fc.ctl_addr,
			       PW_NODE_CONTROLLER, &m));
	settle(100);
	fake_cluster_hold(&self->fc);
	held = held_for(&self->fc.c, LIAR_CLIENT);
	fake_cluster_resume(&self->fc);
	ASSERT_EQ(1u, held);
	for (i = 0; i < 500 && !gone; i++) {
		ASSERT_EQ(0, liar_beat(self));
		fake_cluster_hold(&self->fc);
		gone = self->fc.c.gone;
		held = held_for(&self->fc.c, LIAR_CLIENT);
		fake_cluster_resume(&self->fc);
	}
	ASSERT_EQ(1u, gone);
	EXPECT_EQ(0u, held);
	ASSERT_EQ(0, honest_runs(self, 5)) TH_LOG("%s", pw_last_error());
}

TEST_HARNESS_MAIN
