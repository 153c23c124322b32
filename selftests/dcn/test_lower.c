// SPDX-License-Identifier: GPL-2.0
/*
 * test_lower.c - what the controller's lowering (runtime/dcn/ctl_lower.c)
 * sends a worker for values that move between slices, on the host over
 * kernel UDP on loopback: a real controller and remote client, and in a
 * worker's place a bare node with a 64-device island that keeps every
 * PLAN command it gets (and answers DONE). A value moves shard by shard
 * to a slice of as many shards; to a slice of another size it is
 * resharded, each consumer shard gathering its byte range of the value
 * with one COPY_PEER (inputs, the bytes skipped, the bytes it makes), in
 * groups when more than 15 source shards hold it. A program's commands
 * are bounded over all its hosts, not only per host. A node on a group
 * of slices is lowered on every member with the same buffer ids. The testbed's
 * test_program checks the values such plans compute on the devices.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../runtime/dcn/rclient.h"

#include "kselftest_harness.h"
#include "fake_worker.h"
#include "../../runtime/dcn/roles.h"
#include "../../runtime/net/transport.h"
#include "../lib/test_key.h"

#define MS 1000000ull
#define MAX_CMDS 1024	/* PLAN commands a worker node keeps */

/* The worker node's PLAN commands, under @lock. */
struct plan_log {
	pthread_mutex_t lock;
	bool registered;
	struct pw_wire_plan_cmd cmds[MAX_CMDS];
	unsigned int ncmds;
	uint32_t freed[64];	/* BUFFER FREE handles */
	unsigned int nfreed;
	uint32_t met;		/* a worker it was introduced to (PEER) */
	unsigned int met_at;	/* PLAN commands it had by then */
	unsigned int runs_done;
};

static int worker_handler(struct pw_node *node, struct pw_node_peer *peer,
			  const struct pw_wire_msg *msg, uint64_t now)
{
	struct plan_log *pl = node->ctx;
	const struct pw_wire_plan *p = &msg->body.plan;
	struct fake_plan plan = fake_plan_of(p);
	unsigned int i;
	int ret;

	/* Before the common part, which takes PEER. */
	pthread_mutex_lock(&pl->lock);
	if (msg->hdr.type == PW_WIRE_PEER && !pl->met &&
	    msg->body.peer.host != PW_WIRE_ANY_HOST) {
		pl->met = msg->body.peer.node;
		pl->met_at = pl->ncmds;
	}
	pthread_mutex_unlock(&pl->lock);
	ret = fake_worker_common(node, msg);
	if (ret)
		return ret < 0 ? ret : 0;
	pthread_mutex_lock(&pl->lock);
	if (msg->hdr.type == PW_WIRE_REGISTER_ACK)
		pl->registered = msg->body.reg_ack.status == 0;
	for (i = 0; msg->hdr.type == PW_WIRE_PLAN && i < p->ncmds &&
	     pl->ncmds < MAX_CMDS; i++)
		pl->cmds[pl->ncmds++] = p->cmds[i];
	if (msg->hdr.type == PW_WIRE_BUFFER &&
	    msg->body.buffer.op == PW_WIRE_BUF_FREE && pl->nfreed < 64)
		pl->freed[pl->nfreed++] = msg->body.buffer.id;
	pthread_mutex_unlock(&pl->lock);
	if (msg->hdr.type != PW_WIRE_PLAN ||
	    p->first_cmd + p->ncmds != p->ncmds_total)
		return 0;
	return fake_worker_done(node, &plan, 0, p->ncmds_total,
				FAKE_TO_BOTH);
}

FIXTURE(lower) {
	struct pw_controller c;
	struct pw_node wk;
	struct plan_log pl;
	struct pw_node wk1;	/* host 1: a second island of 4 devices */
	struct plan_log pl1;
	struct sockaddr_in ctl_addr;
	pthread_t loop;
	atomic_bool stop;
	bool looping;
	struct pw_remote *r;
};

static void *serve(void *arg)
{
	FIXTURE_DATA(lower) *self = arg;

	while (!atomic_load(&self->stop)) {
		pw_controller_step(&self->c, 1 * MS);
		pw_node_step(&self->wk, 0);
		pw_node_step(&self->wk1, 0);
	}
	return NULL;
}

FIXTURE_SETUP(lower)
{
	struct pw_auth_key key;
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in ctl_addr;
	struct pw_transport *t;
	struct pw_node_peer *to_ctl;
	char addr[32];
	int i;

	ASSERT_EQ(0, test_cluster_key(&key));
	memset(&self->pl, 0, sizeof(self->pl));
	pthread_mutex_init(&self->pl.lock, NULL);
	memset(&self->pl1, 0, sizeof(self->pl1));
	pthread_mutex_init(&self->pl1.lock, NULL);
	atomic_init(&self->stop, false);
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_controller_init(&self->c, t, &key, 0, 600000, 0));
	ASSERT_EQ(0, pw_transport_local_addr(t, &ctl_addr));
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&self->wk, PW_NODE_WORKER_BASE, t, &key,
				  worker_handler, &self->pl));
	to_ctl = pw_node_peer(&self->wk, PW_NODE_CONTROLLER, &ctl_addr);
	ASSERT_NE(NULL, to_ctl);
	ASSERT_EQ(0, fake_worker_register(&self->wk, to_ctl, 0, 64, "8x8"));
	/* Host 1's node, registered by the test that wants a second island. */
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&self->wk1, PW_NODE_WORKER_BASE + 1, t, &key,
				  worker_handler, &self->pl1));
	self->ctl_addr = ctl_addr;
	ASSERT_EQ(0, pthread_create(&self->loop, NULL, serve, self));
	self->looping = true;
	for (i = 0; i < 10000; i++) {
		pthread_mutex_lock(&self->pl.lock);
		if (self->pl.registered)
			i = 10000;
		pthread_mutex_unlock(&self->pl.lock);
		usleep(1000);
	}
	ASSERT_TRUE(self->pl.registered);
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", ntohs(ctl_addr.sin_port));
	ASSERT_EQ(0, pw_remote_connect(addr, "test_lower", &self->r))
		TH_LOG("%s", pw_last_error());
}

FIXTURE_TEARDOWN(lower)
{
	if (self->r)
		pw_remote_close(self->r);
	if (self->looping) {
		atomic_store(&self->stop, true);
		pthread_join(self->loop, NULL);
	}
	pw_node_fini(&self->wk);
	pw_node_fini(&self->wk1);
	pw_controller_fini(&self->c);
	pthread_mutex_destroy(&self->pl.lock);
	pthread_mutex_destroy(&self->pl1.lock);
}

/* y = x + 1 over f32[@n]. */
static struct pw_fn *plus_fn(unsigned int n)
{
	const uint32_t shape[1] = { n };
	struct pw_fn_builder *b = pw_fn_begin("plus");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_fn *fn = NULL;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1)));
	pw_fn_build(b, &fn);
	return fn;
}

/*
 * y = x + 1 over @elems f32: x an argument of @from shards on @sa, y of
 * @to shards on @sb (slices or groups), registered as *@prog.
 */
static int plus_program(FIXTURE_DATA(lower) *self, uint32_t sa,
			unsigned int from, uint32_t sb, unsigned int to,
			unsigned int elems, uint32_t *prog)
{
	const uint32_t shard = elems / from;
	struct pw_fn *fn = plus_fn(elems / to);
	struct pw_rprog *p;
	uint32_t fid;
	int x, y, ret;

	if (!fn)
		return -ENOMEM;
	ret = pw_remote_function(self->r, fn, &fid);
	p = pw_rprog_begin();
	x = pw_rprog_arg_sharded(p, sa, from, PWTPU_DT_F32, 1, &shard);
	if (!ret)
		ret = pw_rprog_call_sharded(p, fn, fid, sb, to, &x, 1, &y);
	if (!ret)
		ret = pw_rprog_results(p, &y, 1);
	if (!ret)
		ret = pw_remote_program(self->r, p, prog);
	pw_rprog_free(p);
	pw_fn_put(fn);
	return ret;
}

/*
 * One run of: an argument of @elems f32 in @from shards on a slice of
 * @from devices, y = x + 1 on a slice of @to devices. The commands the
 * worker got are in self->pl.
 */
static int run_move(FIXTURE_DATA(lower) *self, unsigned int elems,
		    unsigned int from, unsigned int to)
{
	uint32_t a_slice, b_slice, prog, out;
	int ret;

	ret = pw_remote_slice(self->r, from, NULL, &a_slice);
	if (!ret)
		ret = pw_remote_slice(self->r, to, NULL, &b_slice);
	if (!ret)
		ret = plus_program(self, a_slice, from, b_slice, to, elems,
				   &prog);
	if (!ret)
		ret = pw_remote_run(self->r, prog,
				    (uint32_t[]){ 1u << PW_WIRE_SHARD_BITS }, 1,
				    &out, 1);
	return ret;
}

/* The worker's commands of @op, in order, into @out (at most @max). */
static unsigned int cmds_of(FIXTURE_DATA(lower) *self, uint8_t op,
			    struct pw_wire_plan_cmd *out, unsigned int max)
{
	unsigned int i, n = 0;

	pthread_mutex_lock(&self->pl.lock);
	for (i = 0; i < self->pl.ncmds; i++)
		if (self->pl.cmds[i].op == op && n < max)
			out[n++] = self->pl.cmds[i];
	pthread_mutex_unlock(&self->pl.lock);
	return n;
}

TEST_F(lower, as_many_shards_move_shard_by_shard)
{
	struct pw_wire_plan_cmd k[16];
	unsigned int i;

	ASSERT_EQ(0, run_move(self, 8, 2, 2)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(2u, cmds_of(self, PW_WIRE_CMD_COPY_PEER, k, 16));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(1, k[i].nin);
		EXPECT_EQ(0u, k[i].skip);
		EXPECT_EQ(16u, k[i].bytes);
	}
	EXPECT_EQ(2u, cmds_of(self, PW_WIRE_CMD_EXEC, k, 16));
}

/* 2 -> 4: each half of a source shard, skipping 0 or 8 bytes. */
TEST_F(lower, more_shards_take_a_range_of_one)
{
	struct pw_wire_plan_cmd k[16];
	unsigned int i;

	ASSERT_EQ(0, run_move(self, 8, 2, 4)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(4u, cmds_of(self, PW_WIRE_CMD_COPY_PEER, k, 16));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(1, k[i].nin);
		EXPECT_EQ(i % 2 * 8u, k[i].skip);
		EXPECT_EQ(8u, k[i].bytes);
	}
	/* Consumer shard i's copy and EXEC are on its device. */
	EXPECT_EQ(4u, cmds_of(self, PW_WIRE_CMD_EXEC, k + 4, 12));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(k[i].dev, k[4 + i].dev);
}

/* 3 -> 2 over 12 floats: shard 1 takes 8 bytes of one and 16 of the next. */
TEST_F(lower, fewer_shards_gather_ranges_of_several)
{
	struct pw_wire_plan_cmd k[16];

	ASSERT_EQ(0, run_move(self, 12, 3, 2)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(2u, cmds_of(self, PW_WIRE_CMD_COPY_PEER, k, 16));
	EXPECT_EQ(2, k[0].nin);
	EXPECT_EQ(0u, k[0].skip);
	EXPECT_EQ(24u, k[0].bytes);
	EXPECT_EQ(2, k[1].nin);
	EXPECT_EQ(8u, k[1].skip);
	EXPECT_EQ(24u, k[1].bytes);
	EXPECT_NE(k[0].bufs[2], k[1].bufs[2]);
}

/*
 * 32 -> 2: 16 source shards per consumer shard, more than one copy
 * takes: groups of 15 and 1 whole shards, then one gather of the two.
 */
TEST_F(lower, many_source_shards_are_gathered_in_groups)
{
	struct pw_wire_plan_cmd k[16];
	unsigned int d;

	ASSERT_EQ(0, run_move(self, 64, 32, 2)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(6u, cmds_of(self, PW_WIRE_CMD_COPY_PEER, k, 16));
	for (d = 0; d < 2; d++) {
		const struct pw_wire_plan_cmd *g = &k[3 * d];

		EXPECT_EQ(15, g[0].nin);
		EXPECT_EQ(15 * 8u, g[0].bytes);
		EXPECT_EQ(1, g[1].nin);
		EXPECT_EQ(8u, g[1].bytes);
		EXPECT_EQ(2, g[2].nin);
		EXPECT_EQ(0u, g[2].skip);
		EXPECT_EQ(128u, g[2].bytes);
		/* The final gather reads the two groups' outputs. */
		EXPECT_EQ(g[0].bufs[15], g[2].bufs[0]);
		EXPECT_EQ(g[1].bufs[1], g[2].bufs[1]);
	}
	EXPECT_EQ(2u, cmds_of(self, PW_WIRE_CMD_EXEC, k, 16));
}

/* The worker node of host @h's commands of @op, in order. */
static unsigned int host_cmds_of(FIXTURE_DATA(lower) *self, unsigned int h,
				 uint8_t op, struct pw_wire_plan_cmd *out,
				 unsigned int max)
{
	struct plan_log *pl = h ? &self->pl1 : &self->pl;
	unsigned int i, n = 0;

	pthread_mutex_lock(&pl->lock);
	for (i = 0; i < pl->ncmds; i++)
		if (pl->cmds[i].op == op && n < max)
			out[n++] = pl->cmds[i];
	pthread_mutex_unlock(&pl->lock);
	return n;
}

/* Host 1 registers a 2x2 island. */
static void second_island(struct __test_metadata *_metadata,
			  FIXTURE_DATA(lower) *self)
{
	unsigned int i;

	pthread_mutex_lock(&self->pl1.lock);
	ASSERT_EQ(0, fake_worker_register(&self->wk1,
					  pw_node_peer(&self->wk1,
						       PW_NODE_CONTROLLER,
						       &self->ctl_addr),
					  1, 4, "2x2"));
	pthread_mutex_unlock(&self->pl1.lock);
	for (i = 0; i < 10000; i++) {
		pthread_mutex_lock(&self->pl1.lock);
		if (self->pl1.registered)
			i = 10000;
		pthread_mutex_unlock(&self->pl1.lock);
		usleep(1000);
	}
	ASSERT_TRUE(self->pl1.registered);
}

/*
 * A slice of 64 devices goes to host 0 (only it has them), then one of
 * 4 to the idle host 1.
 */
static void two_islands(struct __test_metadata *_metadata,
			FIXTURE_DATA(lower) *self, uint32_t *sa, uint32_t *sb)
{
	second_island(_metadata, self);
	ASSERT_EQ(0, pw_remote_slice(self->r, 64, NULL, sa));
	ASSERT_EQ(0, pw_remote_slice(self->r, 4, NULL, sb));
	ASSERT_EQ(0, pw_remote_slice_host(self->r, *sa));
	ASSERT_EQ(1, pw_remote_slice_host(self->r, *sb));
}

/*
 * Across islands: a value of 64 shards on one island consumed in 4 on
 * the other. Each source shard crosses once, a DCN_RECV (one output of
 * its 4 bytes) on the consumer's host and a DCN_SEND writing it on the
 * producer's, whole commands however the lowering's table grew between
 * the two; then each consumer shard gathers its 16 there.
 */
TEST_F(lower, a_reshard_across_islands_moves_each_source_shard_once)
{
	static struct pw_wire_plan_cmd recv[80], send[80], copy[20];
	uint32_t sa, sb, prog, out;
	unsigned int i, j, matched = 0;

	two_islands(_metadata, self, &sa, &sb);
	ASSERT_EQ(0, plus_program(self, sa, 64, sb, 4, 64, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog,
				   (uint32_t[]){ 1u << PW_WIRE_SHARD_BITS }, 1,
				   &out, 1)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(64u, host_cmds_of(self, 1, PW_WIRE_CMD_DCN_RECV, recv, 80));
	ASSERT_EQ(64u, host_cmds_of(self, 0, PW_WIRE_CMD_DCN_SEND, send, 80));
	/* Per consumer shard: groups of 15 and 1 whole shards, then both. */
	EXPECT_EQ(12u, host_cmds_of(self, 1, PW_WIRE_CMD_COPY_PEER, copy, 20));
	for (i = 0; i < 64; i++) {
		EXPECT_EQ(1, recv[i].nout);
		EXPECT_EQ(4u, recv[i].bytes);
		EXPECT_EQ(0, recv[i].peer_host);
		EXPECT_EQ(1, send[i].peer_host);
		for (j = 0; j < 64; j++)
			matched += recv[i].bufs[0] &&
				   recv[i].bufs[0] == send[j].peer_buf;
	}
	EXPECT_EQ(64u, matched);
}

/*
 * Workers meet when a run needs them to: registering introduces no
 * worker to another; the first run that moves a value between two
 * hosts introduces them to each other, before either's plan.
 */
TEST_F(lower, workers_meet_before_the_first_run_that_moves_between_them)
{
	uint32_t sa, sb, prog, out;

	two_islands(_metadata, self, &sa, &sb);
	ASSERT_EQ(0, plus_program(self, sa, 64, sb, 4, 64, &prog))
		TH_LOG("%s", pw_last_error());
	pthread_mutex_lock(&self->pl.lock);
	EXPECT_EQ(0u, self->pl.met);
	pthread_mutex_unlock(&self->pl.lock);
	pthread_mutex_lock(&self->pl1.lock);
	EXPECT_EQ(0u, self->pl1.met);
	pthread_mutex_unlock(&self->pl1.lock);
	ASSERT_EQ(0, pw_remote_run(self->r, prog,
				   (uint32_t[]){ 1u << PW_WIRE_SHARD_BITS }, 1,
				   &out, 1)) TH_LOG("%s", pw_last_error());
	pthread_mutex_lock(&self->pl.lock);
	EXPECT_EQ(PW_NODE_WORKER_BASE + 1, self->pl.met);
	EXPECT_EQ(0u, self->pl.met_at);
	pthread_mutex_unlock(&self->pl.lock);
	pthread_mutex_lock(&self->pl1.lock);
	EXPECT_EQ(PW_NODE_WORKER_BASE, self->pl1.met);
	EXPECT_EQ(0u, self->pl1.met_at);
	pthread_mutex_unlock(&self->pl1.lock);
}

/*
 * The reshard above lowers to 144 commands: 64 DCN_SEND on host 0 and
 * 80 on host 1. A bound on a program's commands in all refuses it though
 * each host's part is under it, by name, and at 143; at 144 it is taken.
 */
TEST_F(lower, a_programs_commands_are_bounded_in_all)
{
	uint32_t sa, sb, prog;

	two_islands(_metadata, self, &sa, &sb);
	/*
	 * Set while the controller is idle: it reads the bound only when
	 * the program sent after the store arrives.
	 */
	self->c.program_cmds = 100;
	EXPECT_EQ(-E2BIG, plus_program(self, sa, 64, sb, 4, 64, &prog));
	EXPECT_NE(NULL, strstr(pw_last_error(), "too big to lower"))
		TH_LOG("%s", pw_last_error());
	self->c.program_cmds = 143;
	EXPECT_EQ(-E2BIG, plus_program(self, sa, 64, sb, 4, 64, &prog));
	self->c.program_cmds = 144;
	EXPECT_EQ(0, plus_program(self, sa, 64, sb, 4, 64, &prog))
		TH_LOG("%s", pw_last_error());
}

/* Slices of @client the controller holds, groups and members counted. */
static unsigned int ctl_slices(FIXTURE_DATA(lower) *self)
{
	unsigned int i, n = 0;

	for (i = 0; i < self->c.nslices; i++)
		n += self->c.slices[i].used;
	return n;
}

/*
 * A group of two slices of 2 devices, one on each island: one node on it
 * runs on both, and both hosts' commands carry the run's own buffer ids,
 * shard s on the member's virtual device s, nothing moved.
 */
TEST_F(lower, a_node_on_a_group_runs_on_every_member_with_the_runs_ids)
{
	static struct pw_wire_plan_cmd k[16];
	const uint32_t arg = 1u << PW_WIRE_SHARD_BITS;
	uint32_t g, prog, out;
	unsigned int h, s;

	second_island(_metadata, self);
	ASSERT_EQ(0, pw_remote_slice_group(self->r, 2, 2, NULL, &g))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(-EINVAL, pw_remote_slice_host(self->r, g));
	EXPECT_EQ(0u, pw_remote_group_member(self->r, g, 2));
	EXPECT_EQ(3u, ctl_slices(self));
	ASSERT_EQ(0, plus_program(self, g, 2, g, 2, 8, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &arg, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	for (h = 0; h < 2; h++) {
		uint32_t m = pw_remote_group_member(self->r, g, h);

		ASSERT_EQ(g + 1 + h, m);
		ASSERT_EQ((int)h, pw_remote_slice_host(self->r, m));
		ASSERT_EQ(2u, host_cmds_of(self, h, PW_WIRE_CMD_EXEC, k, 16));
		for (s = 0; s < 2; s++) {
			EXPECT_EQ(pw_remote_slice_device(self->r, m, s),
				  k[s].dev);
			EXPECT_EQ(arg | s, k[s].bufs[0]);
			EXPECT_EQ(out | s, k[s].bufs[1]);
		}
		EXPECT_EQ(0u, host_cmds_of(self, h, PW_WIRE_CMD_COPY_PEER, k,
					   16));
		EXPECT_EQ(0u, host_cmds_of(self, h, PW_WIRE_CMD_DCN_SEND, k,
					   16));
	}
}

/*
 * A value on one group read by a call on another of as many members:
 * member m's shard goes to member m's device, on m's own host (each
 * group has a member on each island), never to the other host.
 */
TEST_F(lower, a_groups_value_goes_member_to_member)
{
	static struct pw_wire_plan_cmd exec[4], copy[4];
	const uint32_t arg = 1u << PW_WIRE_SHARD_BITS;
	uint32_t ga, gb, prog, out, ma, mb;
	unsigned int h, nc;
	int from, to;

	second_island(_metadata, self);
	ASSERT_EQ(0, pw_remote_slice_group(self->r, 2, 1, NULL, &ga));
	ASSERT_EQ(0, pw_remote_slice_group(self->r, 2, 1, NULL, &gb));
	ASSERT_EQ(0, plus_program(self, ga, 1, gb, 1, 4, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &arg, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	for (h = 0; h < 2; h++) {
		ma = pw_remote_group_member(self->r, ga, h);
		mb = pw_remote_group_member(self->r, gb, h);
		ASSERT_EQ((int)h, pw_remote_slice_host(self->r, ma));
		ASSERT_EQ((int)h, pw_remote_slice_host(self->r, mb));
		from = pw_remote_slice_device(self->r, ma, 0);
		to = pw_remote_slice_device(self->r, mb, 0);
		ASSERT_EQ(1u, host_cmds_of(self, h, PW_WIRE_CMD_EXEC, exec, 4));
		EXPECT_EQ(to, exec[0].dev);
		EXPECT_EQ(out, exec[0].bufs[1]);
		nc = host_cmds_of(self, h, PW_WIRE_CMD_COPY_PEER, copy, 4);
		if (from == to) {
			EXPECT_EQ(0u, nc);
			EXPECT_EQ(arg, exec[0].bufs[0]);
			continue;
		}
		ASSERT_EQ(1u, nc);
		EXPECT_EQ(from, copy[0].peer_dev);
		EXPECT_EQ(to, copy[0].dev);
		EXPECT_EQ(arg, copy[0].bufs[0]);
		EXPECT_EQ(copy[0].bufs[1], exec[0].bufs[0]);
		EXPECT_EQ(0u, host_cmds_of(self, h, PW_WIRE_CMD_DCN_RECV, copy,
					   4));
	}
}

/*
 * Members of two groups on each other's hosts: member m's value crosses
 * the DCN to member m of the other, once each way (a DCN_RECV on the
 * consumer's host, a DCN_SEND on the producer's, the EXEC reading what
 * was received), and the two workers meet before the plans.
 */
TEST_F(lower, a_groups_value_crosses_to_a_member_on_another_host)
{
	static struct pw_wire_plan_cmd exec[4], recv[4], send[4];
	const uint32_t arg = 1u << PW_WIRE_SHARD_BITS;
	uint32_t ga, gb, busy, prog, out;
	unsigned int h;

	second_island(_metadata, self);
	ASSERT_EQ(0, pw_remote_slice_group(self->r, 2, 1, NULL, &ga));
	/* Host 0 the more loaded: gb's member 0 goes to host 1. */
	ASSERT_EQ(0, pw_remote_slice(self->r, 3, NULL, &busy));
	ASSERT_EQ(0, pw_remote_slice_host(self->r, busy));
	ASSERT_EQ(0, pw_remote_slice_group(self->r, 2, 1, NULL, &gb));
	for (h = 0; h < 2; h++) {
		ASSERT_EQ((int)h, pw_remote_slice_host(self->r,
				pw_remote_group_member(self->r, ga, h)));
		ASSERT_EQ((int)(1 - h), pw_remote_slice_host(self->r,
				pw_remote_group_member(self->r, gb, h)));
	}
	ASSERT_EQ(0, plus_program(self, ga, 1, gb, 1, 4, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &arg, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	for (h = 0; h < 2; h++) {
		ASSERT_EQ(1u, host_cmds_of(self, h, PW_WIRE_CMD_EXEC, exec, 4));
		ASSERT_EQ(1u, host_cmds_of(self, h, PW_WIRE_CMD_DCN_RECV, recv,
					   4));
		ASSERT_EQ(1u, host_cmds_of(self, h, PW_WIRE_CMD_DCN_SEND, send,
					   4));
		EXPECT_EQ(1 - h, recv[0].peer_host);
		EXPECT_EQ(1 - h, send[0].peer_host);
		EXPECT_EQ(arg, send[0].bufs[0]);
		EXPECT_EQ(recv[0].bufs[0], exec[0].bufs[0]);
		EXPECT_EQ(out, exec[0].bufs[1]);
	}
	pthread_mutex_lock(&self->pl.lock);
	EXPECT_EQ(PW_NODE_WORKER_BASE + 1, self->pl.met);
	pthread_mutex_unlock(&self->pl.lock);
}

/*
 * A slice asked near another goes to its island while that has the
 * devices free, even when another island is less loaded, and where any
 * slice would once it has not (slices may share devices: a full island
 * would otherwise take them all); near a slice the client does not
 * have, or a group, is refused by name.
 */
TEST_F(lower, a_slice_near_another_fills_its_island_first)
{
	uint32_t a, b, c, d, e, none;

	second_island(_metadata, self);
	/* Both idle: host 0 (lowest id); then host 1, the less loaded. */
	ASSERT_EQ(0, pw_remote_slice(self->r, 1, NULL, &a));
	ASSERT_EQ(0, pw_remote_slice_host(self->r, a));
	ASSERT_EQ(0, pw_remote_slice(self->r, 1, NULL, &c));
	ASSERT_EQ(1, pw_remote_slice_host(self->r, c));
	/* Equal loads would give host 0: near c, host 1's 2x2 fills. */
	ASSERT_EQ(0, pw_remote_slice_near(self->r, 1, NULL, c, &b))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(1, pw_remote_slice_host(self->r, b));
	ASSERT_EQ(0, pw_remote_slice_near(self->r, 2, NULL, c, &d));
	EXPECT_EQ(1, pw_remote_slice_host(self->r, d));
	/* Host 1 has none free: near c goes where any slice would. */
	ASSERT_EQ(0, pw_remote_slice_near(self->r, 1, NULL, c, &e));
	EXPECT_EQ(0, pw_remote_slice_host(self->r, e));
	EXPECT_EQ(-EINVAL, pw_remote_slice_near(self->r, 1, NULL, 999, &none));
	EXPECT_NE(NULL, strstr(pw_last_error(), "near slice 999: no such slice"))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(5u, ctl_slices(self));
}

/*
 * A group needs an island per member, all or none: three on two islands
 * are refused by name and leave no member behind. Values do not pass
 * between a group and a slice; freeing the group frees its members.
 */
TEST_F(lower, groups_are_whole_and_keep_to_groups)
{
	uint32_t g, one, prog;

	second_island(_metadata, self);
	EXPECT_EQ(-ENODEV, pw_remote_slice_group(self->r, 3, 1, NULL, &g));
	EXPECT_NE(NULL, strstr(pw_last_error(), "each on its own island"))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(0u, ctl_slices(self));
	EXPECT_EQ(-EINVAL, pw_remote_slice_group(self->r, 1, 1, NULL, &g));
	ASSERT_EQ(0, pw_remote_slice_group(self->r, 2, 1, NULL, &g));
	ASSERT_EQ(0, pw_remote_slice(self->r, 1, NULL, &one));
	/* Its members are each on their own island: nothing is near it. */
	EXPECT_EQ(-EINVAL, pw_remote_slice_near(self->r, 1, NULL, g, &prog));
	EXPECT_EQ(-EINVAL, plus_program(self, g, 1, one, 1, 4, &prog));
	EXPECT_NE(NULL, strstr(pw_last_error(), "values pass only between groups"))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(-EINVAL, plus_program(self, one, 1, g, 1, 4, &prog));
	EXPECT_EQ(4u, ctl_slices(self));
}

/* Host @h's worker node was asked to free shard handle @id. */
static bool host_freed(FIXTURE_DATA(lower) *self, unsigned int h, uint32_t id)
{
	struct plan_log *pl = h ? &self->pl1 : &self->pl;
	bool seen = false;
	unsigned int i;

	pthread_mutex_lock(&pl->lock);
	for (i = 0; i < pl->nfreed; i++)
		seen |= pl->freed[i] == id;
	pthread_mutex_unlock(&pl->lock);
	return seen;
}

/*
 * A buffer a run made on a group is one id on every member's host:
 * one free of it reaches each shard on both hosts, and reading names
 * the member by its host.
 */
TEST_F(lower, a_groups_buffer_is_freed_on_every_member)
{
	const uint32_t arg = 1u << PW_WIRE_SHARD_BITS;
	uint32_t g, prog, out;
	unsigned int h, s, tries;
	float x[2];

	second_island(_metadata, self);
	ASSERT_EQ(0, pw_remote_slice_group(self->r, 2, 2, NULL, &g));
	ASSERT_EQ(0, plus_program(self, g, 2, g, 2, 2, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &arg, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(-ENOENT, pw_remote_read(self->r, 2, out, x, sizeof(x)));
	EXPECT_NE(NULL, strstr(pw_last_error(), "no member on host 2"))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_free(self->r, 0, out));
	for (tries = 0; tries < 2000; tries++) {
		for (h = 0; h < 2; h++)
			for (s = 0; s < 2; s++)
				if (!host_freed(self, h, out | s))
					goto wait;
		break;
wait:
		usleep(1000);
	}
	for (h = 0; h < 2; h++)
		for (s = 0; s < 2; s++)
			EXPECT_TRUE(host_freed(self, h, out | s))
				TH_LOG("host %u shard %u", h, s);
}

/* Bytes that do not match are refused before anything is registered. */
TEST_F(lower, other_bytes_are_refused_by_name)
{
	EXPECT_EQ(-EINVAL, run_move(self, 8, 2, 3));
	EXPECT_NE(NULL, strstr(pw_last_error(), "as many bytes"))
		TH_LOG("%s", pw_last_error());
}

TEST_HARNESS_MAIN
