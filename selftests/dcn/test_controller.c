// SPDX-License-Identifier: GPL-2.0
/*
 * test_controller.c - the controller's run deadlines (RUN's timeout_ms,
 * runtime/dcn/ctl_run.c) on the host, over kernel UDP on loopback: a real
 * controller and a real remote client (runtime/dcn/rclient.h), and in
 * place of a worker a bare DCN node that registers a one-device island
 * and answers PLAN with DONE only when the test says so. A silent worker
 * makes a run with a deadline end with ETIMEDOUT from the controller and
 * the worker get CANCEL for it; a worker that answers in time gets none;
 * a run without a deadline waits for a late answer. The testbed's
 * test_remote checks the same with real workers. The controller's
 * tables grow past their old fixed sizes; a client's own bound on
 * programs is refused with a message naming it; a program on a worker
 * that registered again fails ESTALE until registered again. A slice
 * that fits nowhere leaves no device set behind. A wait
 * lasts as long as the run while the controller answers; buffer ids
 * that come round pass over live ones.
 *
 * Not under valgrind: it keeps its lock while a thread blocks in
 * io_uring_enter() (the UDP transport's wait), so the serving thread
 * starves; -fsanitize=address works.
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
/* The controller's clients; silent this long, a client has gone. */
#define CLIENT_TIMEOUT_MS 1500

/**
 * struct fake_worker - what the worker node saw, under @lock
 * @answer: answer each PLAN with DONE (status 0) at once.
 * @to: where DONEs go (FAKE_TO_*; 0 is FAKE_TO_BOTH).
 * @late: answer @late_plan now, from the serving loop, to @late_to
 *	(0: FAKE_TO_BOTH).
 * @registered: REGISTER_ACK came, with status 0.
 * @plans: PLAN messages; @plan_run the run id of the last, @last_plan
 *	what answers it.
 * @cancels: CANCEL messages; @cancel_run and @cancel_status the last's.
 */
struct fake_worker {
	pthread_mutex_t lock;
	bool answer;
	unsigned int to;
	bool late;
	struct fake_plan late_plan;
	unsigned int late_to;
	bool registered;
	unsigned int plans;
	uint32_t plan_run;
	struct fake_plan last_plan;
	unsigned int cancels;
	uint32_t cancel_run;
	uint32_t cancel_status;
};

static int worker_handler(struct pw_node *node, struct pw_node_peer *peer,
			  const struct pw_wire_msg *msg, uint64_t now)
{
	struct fake_worker *fw = node->ctx;
	struct fake_plan plan = fake_plan_of(&msg->body.plan);
	bool answer;
	int ret = fake_worker_common(node, msg);

	if (ret)
		return ret < 0 ? ret : 0;
	pthread_mutex_lock(&fw->lock);
	switch (msg->hdr.type) {
	case PW_WIRE_REGISTER_ACK:
		fw->registered = msg->body.reg_ack.status == 0;
		break;
	case PW_WIRE_PLAN:
		fw->plans++;
		fw->plan_run = msg->body.plan.run_id;
		fw->last_plan = plan;
		break;
	case PW_WIRE_CANCEL:
		fw->cancels++;
		fw->cancel_run = msg->body.cancel.run_id;
		fw->cancel_status = msg->body.cancel.status;
		break;
	}
	answer = fw->answer && msg->hdr.type == PW_WIRE_PLAN;
	pthread_mutex_unlock(&fw->lock);
	if (!answer)
		return 0;
	return fake_worker_done(node, &plan, 0, msg->body.plan.ncmds_total,
				fw->to ? fw->to : FAKE_TO_BOTH);
}

FIXTURE(ctl) {
	struct pw_controller c;
	struct pw_node wk;
	struct fake_worker fw;
	pthread_t loop;
	atomic_bool stop;
	atomic_bool pause;	/* the controller and worker fall silent */
	atomic_bool paused;	/* serve() is not stepping them */
	bool looping;
	struct pw_remote *r;
	uint32_t prog;
	struct pw_fn *fn;
};

/* The controller and the worker node, stepped until the test ends. */
static void *serve(void *arg)
{
	FIXTURE_DATA(ctl) *self = arg;

	while (!atomic_load(&self->stop)) {
		if (atomic_load(&self->pause)) {
			atomic_store(&self->paused, true);
			usleep(1000);
			continue;
		}
		atomic_store(&self->paused, false);
		pw_controller_step(&self->c, 1 * MS);
		pw_node_step(&self->wk, 0);
		pthread_mutex_lock(&self->fw.lock);
		if (self->fw.late)
			fake_worker_done(&self->wk, &self->fw.late_plan, 0, 1,
					 self->fw.late_to ?: FAKE_TO_BOTH);
		self->fw.late = false;
		pthread_mutex_unlock(&self->fw.lock);
	}
	return NULL;
}

/* Stop serve() stepping the nodes, and wait until it has (or 10 s). */
static void hold_serving(FIXTURE_DATA(ctl) *self)
{
	int i;

	atomic_store(&self->pause, true);
	for (i = 0; i < 10000 && !atomic_load(&self->paused); i++)
		usleep(1000);
}

/* Whether the serving loop has yet to send the late answer. */
static bool late_pending(struct fake_worker *fw)
{
	bool yes;

	pthread_mutex_lock(&fw->lock);
	yes = fw->late;
	pthread_mutex_unlock(&fw->lock);
	return yes;
}

/* A test thread: the worker answers its last PLAN 6 s from now. */
static void *done_later(void *arg)
{
	FIXTURE_DATA(ctl) *self = arg;

	usleep(6000 * 1000);
	pthread_mutex_lock(&self->fw.lock);
	self->fw.late_plan = self->fw.last_plan;
	self->fw.late = true;
	pthread_mutex_unlock(&self->fw.lock);
	return NULL;
}

static bool registered(struct fake_worker *fw)
{
	bool yes;

	pthread_mutex_lock(&fw->lock);
	yes = fw->registered;
	pthread_mutex_unlock(&fw->lock);
	return yes;
}

FIXTURE_SETUP(ctl)
{
	struct pw_auth_key key;
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in ctl_addr;
	struct pw_transport *t;
	struct pw_node_peer *to_ctl;
	int i;

	ASSERT_EQ(0, test_cluster_key(&key));
	memset(&self->fw, 0, sizeof(self->fw));
	pthread_mutex_init(&self->fw.lock, NULL);
	atomic_init(&self->stop, false);
	atomic_init(&self->pause, false);
	atomic_init(&self->paused, false);
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	/*
	 * The node sends no heartbeats: it must not be marked down. Clients
	 * are given up on after 1.5 s of silence (the liveness tests).
	 */
	ASSERT_EQ(0, pw_controller_init(&self->c, t, &key, 0, 600000,
					CLIENT_TIMEOUT_MS));
	ASSERT_EQ(0, pw_transport_local_addr(t, &ctl_addr));
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&self->wk, PW_NODE_WORKER_BASE, t, &key,
				  worker_handler, &self->fw));
	to_ctl = pw_node_peer(&self->wk, PW_NODE_CONTROLLER, &ctl_addr);
	ASSERT_NE(NULL, to_ctl);
	ASSERT_EQ(0, fake_worker_register(&self->wk, to_ctl, 0, 1, "1x1"));
	ASSERT_EQ(0, pthread_create(&self->loop, NULL, serve, self));
	self->looping = true;
	for (i = 0; i < 10000 && !registered(&self->fw); i++)
		usleep(1000);
	ASSERT_TRUE(registered(&self->fw));

	ASSERT_EQ(0, fake_client_program(&ctl_addr, "test_controller", &self->r,
					 &self->fn, &self->prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(1u, pw_remote_host_devices(self->r, 0));
}

FIXTURE_TEARDOWN(ctl)
{
	if (self->r)
		pw_remote_close(self->r);
	pw_fn_put(self->fn);
	if (self->looping) {
		atomic_store(&self->stop, true);
		pthread_join(self->loop, NULL);
	}
	pw_node_fini(&self->wk);
	pw_controller_fini(&self->c);
	pthread_mutex_destroy(&self->fw.lock);
}

/* A snapshot of what the worker saw, once @cancels CANCELs came (or 10 s). */
static struct fake_worker seen(struct fake_worker *fw, unsigned int cancels)
{
	struct fake_worker now;
	int i;

	for (i = 0; i < 10000; i++) {
		pthread_mutex_lock(&fw->lock);
		now = *fw;
		pthread_mutex_unlock(&fw->lock);
		if (now.cancels >= cancels)
			break;
		usleep(1000);
	}
	return now;
}

static void set_answer(struct fake_worker *fw, bool answer)
{
	pthread_mutex_lock(&fw->lock);
	fw->answer = answer;
	pthread_mutex_unlock(&fw->lock);
}

/* Any buffer id will do: only the (fake) worker would look it up. */
#define ARG_ID (77u << PW_WIRE_SHARD_BITS)	/* ids leave the shard bits clear */

TEST_F_TIMEOUT(ctl, a_silent_worker_makes_the_run_time_out, 60)
{
	struct fake_worker w;
	uint32_t out;

	pw_remote_set_run_timeout(self->r, 100);
	ASSERT_EQ(-ETIMEDOUT, pw_remote_run(self->r, self->prog,
					    (uint32_t[]){ ARG_ID }, 1, &out, 1));
	/* The controller's answer, not the client giving up. */
	ASSERT_NE(NULL, strstr(pw_last_error(), "failed"))
		TH_LOG("%s", pw_last_error());
	w = seen(&self->fw, 1);
	ASSERT_EQ(1u, w.plans);
	ASSERT_EQ(1u, w.cancels);
	ASSERT_EQ(w.plan_run, w.cancel_run);
	ASSERT_EQ((uint32_t)ETIMEDOUT, w.cancel_status);

	/* The run's slot is free again: the next one gets its answer too. */
	set_answer(&self->fw, true);
	ASSERT_EQ(0, pw_remote_run(self->r, self->prog,
				   (uint32_t[]){ ARG_ID }, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	w = seen(&self->fw, 1);
	ASSERT_EQ(2u, w.plans);
	ASSERT_EQ(1u, w.cancels);
}

TEST_F_TIMEOUT(ctl, a_run_done_in_time_is_not_cancelled, 60)
{
	struct fake_worker w;
	uint32_t out;
	int k;

	set_answer(&self->fw, true);
	pw_remote_set_run_timeout(self->r, 60000);
	for (k = 0; k < 20; k++)
		ASSERT_EQ(0, pw_remote_run(self->r, self->prog,
					   (uint32_t[]){ ARG_ID }, 1, &out,
					   1)) TH_LOG("%s", pw_last_error());
	w = seen(&self->fw, 0);
	ASSERT_EQ(20u, w.plans);
	ASSERT_EQ(0u, w.cancels);
}

TEST_F_TIMEOUT(ctl, without_a_deadline_a_late_answer_still_counts, 60)
{
	struct fake_worker w;
	uint32_t out, ticket;
	int i;

	ASSERT_EQ(0, pw_remote_run_async(self->r, self->prog,
					 (uint32_t[]){ ARG_ID }, 1, &out, 1,
					 &ticket));
	/* Well past the deadlines above: nothing ends the run meanwhile. */
	for (i = 0; i < 10000 && !seen(&self->fw, 0).plans; i++)
		usleep(1000);
	usleep(300 * 1000);
	w = seen(&self->fw, 0);
	ASSERT_EQ(1u, w.plans);
	ASSERT_EQ(0u, w.cancels);

	/* Now the worker answers what it was sent: the run completes. */
	pthread_mutex_lock(&self->fw.lock);
	self->fw.late_plan = w.last_plan;
	self->fw.late = true;
	pthread_mutex_unlock(&self->fw.lock);
	ASSERT_EQ(0, pw_remote_wait(self->r, ticket))
		TH_LOG("%s", pw_last_error());
}

/*
 * A wait lasts as long as the run while the controller answers: a DONE
 * over twice the answer timeout late still counts (the wait's heartbeats are
 * acknowledged meanwhile). Once the controller falls silent, the wait
 * gives up after the answer timeout, naming it.
 */
TEST_F_TIMEOUT(ctl, a_wait_outlasts_its_timeout_while_the_controller_answers, 60)
{
	struct fake_worker w;
	uint32_t out, ticket;
	pthread_t late;
	int i;

	/* Well above the 1 s heartbeat the controller acknowledges. */
	pw_remote_set_answer_timeout(self->r, 2500);
	ASSERT_EQ(0, pw_remote_run_async(self->r, self->prog,
					 (uint32_t[]){ ARG_ID }, 1, &out, 1,
					 &ticket));
	for (i = 0; i < 10000 && !seen(&self->fw, 0).plans; i++)
		usleep(1000);
	w = seen(&self->fw, 0);
	ASSERT_EQ(1u, w.plans);
	/*
	 * From another thread of the test: the DONE 6 s from now, past
	 * twice the answer timeout; the wait ends with it, and well.
	 */
	ASSERT_EQ(0, pthread_create(&late, NULL, done_later, self));
	ASSERT_EQ(0, pw_remote_wait(self->r, ticket))
		TH_LOG("%s", pw_last_error());
	pthread_join(late, NULL);

	/* The controller falls silent: the next wait ends, naming it. */
	ASSERT_EQ(0, pw_remote_run_async(self->r, self->prog,
					 (uint32_t[]){ ARG_ID }, 1, &out, 1,
					 &ticket));
	for (i = 0; i < 10000 && seen(&self->fw, 0).plans < 2; i++)
		usleep(1000);
	atomic_store(&self->pause, true);
	EXPECT_EQ(-ETIMEDOUT, pw_remote_wait(self->r, ticket));
	EXPECT_NE(NULL, strstr(pw_last_error(), "has not answered for 2500 ms"))
		TH_LOG("%s", pw_last_error());
	atomic_store(&self->pause, false);
}

/*
 * Buffer ids come round after 2^25 of them: a new one passes over the
 * ids live buffers still have, and may be one whose buffer went.
 */
TEST_F(ctl, buffer_ids_that_wrap_pass_over_live_ones)
{
	const uint32_t step = 1u << PW_WIRE_SHARD_BITS;
	uint32_t first, second, last;

	first = pw_remote_next_id(self->r);
	second = pw_remote_next_id(self->r);
	ASSERT_EQ(0, pw_remote_track(self->r, first, 0));
	ASSERT_EQ(0, pw_remote_track(self->r, second, 0));
	EXPECT_EQ(step, first);
	/* The last id before the top bit, then they wrap. */
	self->r->next_id = PW_WIRE_BUF_TEMP - 2 * step;
	last = pw_remote_next_id(self->r);
	EXPECT_EQ(PW_WIRE_BUF_TEMP - step, last);
	EXPECT_EQ(second + step, pw_remote_next_id(self->r));
	/* The second buffer went: its id may be given again. */
	EXPECT_EQ(0, pw_remote_free(self->r, 0, second));
	self->r->next_id = PW_WIRE_BUF_TEMP - step;
	EXPECT_EQ(second, pw_remote_next_id(self->r));
}

static void set_to(struct fake_worker *fw, unsigned int to)
{
	pthread_mutex_lock(&fw->lock);
	fw->to = to;
	pthread_mutex_unlock(&fw->lock);
}

/* Whether run @ticket has ended at the client, read under its lock. */
static bool run_ended(struct pw_remote *r, uint32_t ticket)
{
	bool yes;

	pw_rc_lock(r);
	pw_rc_step(r, 0);	/* heartbeats too: the controller keeps us */
	yes = r->runs[ticket % PW_RC_MAX_RUNS].have_done;
	pw_rc_unlock(r);
	return yes;
}

/*
 * Completions are not relayed (wire v6): the worker's DONE to the client
 * ends a run the controller has heard nothing of; when that DONE is lost,
 * the controller's own DONE ends the run. A DONE from a node the
 * controller never introduced is dropped as a stranger's; a worker's
 * DONE counts once however often it comes.
 */
TEST_F_TIMEOUT(ctl, workers_answer_the_client_directly, 60)
{
	struct pw_auth_key key;
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in client_addr;
	struct pw_node_peer *to_client;
	struct pw_transport *t;
	struct pw_wire_msg m;
	struct pw_node forger;
	uint32_t out, ticket;
	uint64_t strangers;
	int i;

	ASSERT_EQ(0, test_cluster_key(&key));
	/* The worker tells the client alone: the run ends. */
	set_to(&self->fw, FAKE_TO_CLIENT);
	set_answer(&self->fw, true);
	ASSERT_EQ(0, pw_remote_run(self->r, self->prog,
				   (uint32_t[]){ ARG_ID }, 1, &out, 1))
		TH_LOG("%s", pw_last_error());

	/*
	 * The worker's DONE to the client is lost, the controller's comes:
	 * that one ends the run.
	 */
	set_to(&self->fw, FAKE_TO_CTL);
	ASSERT_EQ(0, pw_remote_run(self->r, self->prog,
				   (uint32_t[]){ ARG_ID }, 1, &out, 1))
		TH_LOG("%s", pw_last_error());

	/* No DONE at all: the run does not end. */
	set_to(&self->fw, FAKE_TO_CLIENT);
	set_answer(&self->fw, false);
	ASSERT_EQ(0, pw_remote_run_async(self->r, self->prog,
					 (uint32_t[]){ ARG_ID }, 1, &out, 1,
					 &ticket));
	for (i = 0; i < 500; i++) {
		ASSERT_FALSE(run_ended(self->r, ticket));
		usleep(1000);
	}
	EXPECT_EQ(3u, seen(&self->fw, 0).plans);

	/* A node nobody introduced claims it: dropped, counted. */
	ASSERT_EQ(0, pw_transport_local_addr(self->r->node.t, &client_addr));
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&forger, PW_NODE_WORKER_BASE + 9, t, &key,
				  NULL, NULL));
	to_client = pw_node_peer(&forger, self->r->ack.client_id,
				 &client_addr);
	ASSERT_NE(NULL, to_client);
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_DONE;
	m.body.done.run_id = ticket;
	m.body.done.host_id = 9;
	m.body.done.nhosts = 1;
	ASSERT_EQ(0, pw_node_send(&forger, to_client, &m, pw_now_ns()));
	pw_rc_lock(self->r);
	strangers = self->r->node.stats.strangers;
	pw_rc_unlock(self->r);
	for (i = 0; i < 200; i++) {
		pw_node_step(&forger, 1 * MS);
		ASSERT_FALSE(run_ended(self->r, ticket));
	}
	pw_rc_lock(self->r);
	EXPECT_LT(strangers, self->r->node.stats.strangers);
	pw_rc_unlock(self->r);
	pw_node_fini(&forger);

	/*
	 * One worker's DONE twice, saying the run has two: one worker has
	 * answered, not two. The run goes on.
	 */
	for (i = 0; i < 2; i++) {
		pthread_mutex_lock(&self->fw.lock);
		self->fw.late_plan = self->fw.last_plan;
		self->fw.late_plan.nhosts = 2;
		self->fw.late_to = FAKE_TO_CLIENT;
		self->fw.late = true;
		pthread_mutex_unlock(&self->fw.lock);
		while (late_pending(&self->fw))
			usleep(1000);
	}
	for (i = 0; i < 200; i++) {
		ASSERT_FALSE(run_ended(self->r, ticket));
		usleep(1000);
	}

	/* Its worker's DONE to the controller: the controller's ends it. */
	pthread_mutex_lock(&self->fw.lock);
	self->fw.late_plan = self->fw.last_plan;
	self->fw.late_to = FAKE_TO_CTL;
	self->fw.late = true;
	pthread_mutex_unlock(&self->fw.lock);
	ASSERT_EQ(0, pw_remote_wait(self->r, ticket))
		TH_LOG("%s", pw_last_error());
}

/*
 * No small table of the whole cluster limits a client: more programs
 * than the old 64 slots and more runs in flight than the old 256 are
 * served; a client's own bound on programs is refused by name.
 */
TEST_F_TIMEOUT(ctl, tables_grow_and_a_clients_bound_is_named, 120)
{
	const uint32_t shape[1] = { 4 };
	uint32_t ticket[300], out[300], id, fid;
	struct pw_rprog *p;
	unsigned int k;
	int a, y, ret = 0;

	set_answer(&self->fw, true);
	for (k = 0; k < 300; k++)
		ASSERT_EQ(0, pw_remote_run_async(self->r, self->prog,
						 (uint32_t[]){ ARG_ID }, 1,
						 &out[k], 1, &ticket[k]));
	for (k = 0; k < 300; k++)
		ASSERT_EQ(0, pw_remote_wait(self->r, ticket[k]))
			TH_LOG("run %u: %s", k, pw_last_error());
	/* Per run: one RUN in, one PLAN to the worker (docs/dcn.md). */
	EXPECT_EQ(300u, seen(&self->fw, 0).plans);
	ASSERT_EQ(0, pw_remote_function(self->r, self->fn, &fid));
	p = pw_rprog_begin();
	a = pw_rprog_arg(p, 0, 0, PWTPU_DT_F32, 1, shape);
	ASSERT_EQ(0, pw_rprog_call(p, self->fn, fid, 0, 0, &a, 1, &y));
	ASSERT_EQ(0, pw_rprog_results(p, &y, 1));
	/* The fixture's program is the first. */
	for (k = 1; k <= PW_CTL_CLIENT_PROGRAMS && !ret; k++)
		ret = pw_remote_program(self->r, p, &id);
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(PW_CTL_CLIENT_PROGRAMS + 1u, k);
	EXPECT_NE(NULL, strstr(pw_last_error(), "its limit"))
		TH_LOG("%s", pw_last_error());
	pw_rprog_free(p);
}

/* The controller's count of virtual device sets, read while it is held. */
static unsigned int held_nvsets(FIXTURE_DATA(ctl) *self)
{
	unsigned int n;

	hold_serving(self);
	n = self->c.nvsets;
	atomic_store(&self->pause, false);
	return n;
}

/*
 * A slice that fits on no island leaves no device set behind for the
 * client (at 512 hosts it would leave one per island tried); one that
 * fits makes the set it is in.
 */
TEST_F_TIMEOUT(ctl, a_slice_that_fits_nowhere_leaves_no_set, 60)
{
	struct sockaddr_in ctl_addr;
	struct pw_remote *r2;
	unsigned int before;
	char ctl_str[32];
	uint32_t slice;
	int ret;

	ASSERT_EQ(0, pw_transport_local_addr(self->c.node.t, &ctl_addr));
	snprintf(ctl_str, sizeof(ctl_str), "127.0.0.1:%u",
		 ntohs(ctl_addr.sin_port));
	ASSERT_EQ(0, pw_remote_connect(ctl_str, "second", &r2));
	before = held_nvsets(self);
	ret = pw_remote_slice(r2, 2, NULL, &slice);
	EXPECT_TRUE(ret == -ENOSPC || ret == -E2BIG)
		TH_LOG("a slice of 2 on one device: %d (%s)", ret,
		       pw_last_error());
	EXPECT_EQ(before, held_nvsets(self));
	ASSERT_EQ(0, pw_remote_slice(r2, 1, NULL, &slice));
	EXPECT_EQ(0, pw_remote_slice_host(r2, slice));
	EXPECT_EQ(before + 1, held_nvsets(self));
	pw_remote_close(r2);
}

/*
 * The worker registers again (it restarted): what the fixture's program
 * was lowered for is gone there, so its runs fail ESTALE, named; the
 * same program registered again runs.
 */
TEST_F_TIMEOUT(ctl, a_program_on_a_restarted_worker_is_stale, 60)
{
	struct pw_node_peer *to_ctl;
	const uint32_t shape[1] = { 4 };
	struct pw_rprog *p;
	uint32_t out, fid, prog;
	unsigned int before = __atomic_load_n(&self->c.isl[0].reg.ndevices,
					      __ATOMIC_RELAXED);
	int a, y, i;

	ASSERT_EQ(1u, before);
	set_answer(&self->fw, true);
	ASSERT_EQ(0, pw_remote_run(self->r, self->prog,
				   (uint32_t[]){ ARG_ID }, 1, &out, 1));
	pthread_mutex_lock(&self->fw.lock);
	self->fw.registered = false;
	pthread_mutex_unlock(&self->fw.lock);
	pthread_mutex_lock(&self->fw.lock);
	to_ctl = pw_node_find(&self->wk, PW_NODE_CONTROLLER);
	ASSERT_EQ(0, fake_worker_register(&self->wk, to_ctl, 0, 1, "1x1"));
	pthread_mutex_unlock(&self->fw.lock);
	for (i = 0; i < 10000 && !registered(&self->fw); i++)
		usleep(1000);
	ASSERT_TRUE(registered(&self->fw));
	EXPECT_EQ(-ESTALE, pw_remote_run(self->r, self->prog,
					 (uint32_t[]){ ARG_ID }, 1, &out, 1));
	EXPECT_NE(NULL, strstr(pw_last_error(), "registered again"))
		TH_LOG("%s", pw_last_error());
	/* Registered again, the program runs on the new worker. */
	ASSERT_EQ(0, pw_remote_function(self->r, self->fn, &fid));
	p = pw_rprog_begin();
	a = pw_rprog_arg(p, 0, 0, PWTPU_DT_F32, 1, shape);
	ASSERT_EQ(0, pw_rprog_call(p, self->fn, fid, 0, 0, &a, 1, &y));
	ASSERT_EQ(0, pw_rprog_results(p, &y, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	pw_rprog_free(p);
	EXPECT_EQ(0, pw_remote_run(self->r, prog, (uint32_t[]){ ARG_ID }, 1,
				   &out, 1)) TH_LOG("%s", pw_last_error());
}

/* Clients the controller gave up on so far (read from the test's thread). */
static unsigned int gone(FIXTURE_DATA(ctl) *self)
{
	return __atomic_load_n(&self->c.gone, __ATOMIC_RELAXED);
}

/*
 * A client that computes on its own for longer than the client timeout
 * (no call at all), with the controller's answer to its run unread, is
 * still a client afterwards: its heartbeat thread kept it alive.
 */
TEST_F_TIMEOUT(ctl, a_live_client_busy_between_calls_is_kept, 60)
{
	uint32_t out, ticket;
	unsigned int before = gone(self);

	set_answer(&self->fw, true);
	ASSERT_EQ(0, pw_remote_run_async(self->r, self->prog,
					 (uint32_t[]){ ARG_ID }, 1, &out, 1,
					 &ticket));
	usleep(3 * CLIENT_TIMEOUT_MS * 1000);	/* "computing" */
	EXPECT_EQ(before, gone(self));
	ASSERT_EQ(0, pw_remote_wait(self->r, ticket)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, self->prog,
				   (uint32_t[]){ ARG_ID }, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
}

/*
 * A client that dies idle (nothing of the controller's unacknowledged)
 * falls silent: the controller gives up on it within the client timeout
 * and frees what it had.
 */
TEST_F_TIMEOUT(ctl, a_client_that_dies_idle_is_collected, 60)
{
	unsigned int before = gone(self), i;
	char ctl_str[32];
	struct sockaddr_in a;
	int status;
	pid_t pid;

	ASSERT_EQ(0, pw_transport_local_addr(self->c.node.t, &a));
	snprintf(ctl_str, sizeof(ctl_str), "127.0.0.1:%u", ntohs(a.sin_port));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct pw_remote *r;

		if (pw_remote_connect(ctl_str, "doomed", &r))
			_exit(1);
		/* Idle, then gone without BYE. */
		usleep(200 * 1000);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (i = 0; i < 2 * CLIENT_TIMEOUT_MS / 10 && gone(self) == before; i++)
		usleep(10 * 1000);
	EXPECT_EQ(before + 1, gone(self));
}

/* What a forging node heard back: the status of its greeting's answer. */
struct connect_answer {
	bool answered;
	uint32_t status;
};

static int answer_handler(struct pw_node *node, struct pw_node_peer *peer,
			  const struct pw_wire_msg *msg, uint64_t now)
{
	struct connect_answer *a = node->ctx;

	if (msg->hdr.type == PW_WIRE_CONNECT_ACK) {
		a->answered = true;
		a->status = msg->body.connect_ack.status;
	} else if (msg->hdr.type == PW_WIRE_REGISTER_ACK) {
		a->answered = true;
		a->status = msg->body.reg_ack.status;
	}
	return 0;
}

/*
 * CONNECT from ids no client has (a worker's that never registered, one
 * below the workers', past the hosts): refused with EPERM and counted,
 * never introduced to anyone; the controller goes on serving. Such a
 * CONNECT once read the controller's island table out of bounds. A
 * REGISTER under another host's id is refused too. None of them keeps a
 * peer slot.
 */
TEST_F_TIMEOUT(ctl, a_connect_from_a_non_client_id_is_refused, 60)
{
	static const uint32_t ids[] = {
		PW_NODE_WORKER_BASE + 40, 5, PW_NODE_WORKER_BASE + 0x7000,
		PW_NODE_WORKER_BASE + 41,
	};
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct connect_answer answer;
	struct pw_node_peer *to_ctl;
	struct sockaddr_in ctl_addr;
	struct pw_auth_key key;
	struct pw_transport *t;
	struct pw_node forger;
	struct pw_wire_msg m;
	unsigned int k, i;
	uint32_t out;

	ASSERT_EQ(0, test_cluster_key(&key));
	ASSERT_EQ(0, pw_transport_local_addr(self->c.node.t, &ctl_addr));
	for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		memset(&answer, 0, sizeof(answer));
		ASSERT_EQ(0, pw_udp_open(&t, &lo));
		ASSERT_EQ(0, pw_node_init(&forger, ids[k], t, &key,
					  answer_handler, &answer));
		to_ctl = pw_node_peer(&forger, PW_NODE_CONTROLLER, &ctl_addr);
		ASSERT_NE(NULL, to_ctl);
		memset(&m, 0, sizeof(m));
		if (k < 3) {
			m.hdr.type = PW_WIRE_CONNECT;
			strcpy(m.body.connect.name, "forger");
		} else {
			/* Host 7's REGISTER from host 41's id. */
			m.hdr.type = PW_WIRE_REGISTER;
			m.body.reg.host_id = 7;
			m.body.reg.ndevices = 1;
			strcpy(m.body.reg.mesh, "1x1");
		}
		ASSERT_EQ(0, pw_node_send(&forger, to_ctl, &m, pw_now_ns()));
		for (i = 0; i < 5000 && !answer.answered; i++)
			pw_node_step(&forger, 1 * MS);
		EXPECT_TRUE(answer.answered) TH_LOG("node %u", ids[k]);
		EXPECT_EQ(k < 3 ? (uint32_t)EPERM : (uint32_t)EINVAL,
			  answer.status) TH_LOG("node %u", ids[k]);
		pw_node_fini(&forger);
	}
	/* Their peer slots go a second later: strangers cannot fill them. */
	usleep(1500 * 1000);
	hold_serving(self);
	for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
		EXPECT_EQ(NULL, pw_node_find(&self->c.node, ids[k]))
			TH_LOG("node %u", ids[k]);
	/* The node counted each refusal by type. */
	EXPECT_EQ(3u, self->c.node.stats.refused_by[PW_WIRE_CONNECT]);
	EXPECT_EQ(1u, self->c.node.stats.refused_by[PW_WIRE_REGISTER]);
	atomic_store(&self->pause, false);
	/* The real client is served as before. */
	set_answer(&self->fw, true);
	ASSERT_EQ(0, pw_remote_run(self->r, self->prog,
				   (uint32_t[]){ ARG_ID }, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
}

/*
 * The controller restarts under a connected client (a new incarnation on
 * the same address, which knows nothing of it): the client's next run
 * fails with ETIMEDOUT, the controller not having answered for the
 * client's answer timeout, saying so; it does not hang, and the new
 * controller counts the client's datagrams as a stranger's. (Clients do
 * not reconnect by themselves: docs/dcn.md, "The controller restarts".)
 */
TEST_F_TIMEOUT(ctl, a_restarted_controller_times_the_client_out_clearly, 60)
{
	struct pw_auth_key key;
	struct pw_transport *t;
	struct sockaddr_in a;
	uint32_t out;

	ASSERT_EQ(0, test_cluster_key(&key));
	ASSERT_EQ(0, pw_transport_local_addr(self->c.node.t, &a));
	hold_serving(self);
	pw_controller_fini(&self->c);
	ASSERT_EQ(0, pw_udp_open(&t, &a));
	ASSERT_EQ(0, pw_controller_init(&self->c, t, &key, 0, 600000,
					CLIENT_TIMEOUT_MS));
	atomic_store(&self->pause, false);

	/* A hang would meet the test's own timeout first. */
	pw_remote_set_answer_timeout(self->r, 1000);
	EXPECT_EQ(-ETIMEDOUT, pw_remote_run(self->r, self->prog,
					    (uint32_t[]){ ARG_ID }, 1, &out, 1));
	EXPECT_NE(NULL, strstr(pw_last_error(), "has not answered"))
		TH_LOG("%s", pw_last_error());
	hold_serving(self);
	EXPECT_LT(0u, self->c.node.stats.strangers);
	atomic_store(&self->pause, false);
}

TEST_HARNESS_MAIN
