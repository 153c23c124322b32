// SPDX-License-Identifier: GPL-2.0
/*
 * test_sched.c - the island scheduler (the controller's, for every
 * client): concurrent clients whose collectives overlap on every device
 * never deadlock (the driver's test_gang shows that crossed gangs
 * would); proportional share by weight under SHARE, equal shares under
 * FIFO, and the policy switched while work is queued.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "pw_common.h"

/* One client's share of a concurrent collective workload. */
struct coll_worker {
	struct pw_client *client;
	pthread_barrier_t *start;
	unsigned int ncalls;
	float k;		/* this worker's addend */
	int err;		/* first setup or call failure */
	char msg[256];
	unsigned int timedout;	/* outputs that failed with -ETIMEDOUT */
	unsigned int other;	/* outputs that failed otherwise */
	int other_err;
	unsigned int wrong;	/* outputs with a wrong value */
};

#define MAX_CALLS	32

static void worker_fail(struct coll_worker *w, int err, const char *what)
{
	if (w->err)
		return;
	w->err = err;
	snprintf(w->msg, sizeof(w->msg), "%s: %s", what, pw_last_error());
}

/*
 * ncalls of y = all_reduce_sum(x) + k on a slice of every device, each
 * call after the others' threads are ready for it, all outputs waited
 * for only at the end.
 */
static void *coll_worker(void *arg)
{
	struct coll_worker *w = arg;
	struct pw_buffer *out[MAX_CALLS] = { NULL }, *x;
	unsigned int n = (unsigned int)pw_num_devices(w->client), i, v;
	float host[PWT_MAX_DEVICES], got[PWT_MAX_DEVICES], sum = 0;
	struct pw_slice *all;
	struct pw_fn *fn;
	int ret;

	all = pwt_slice(w->client, n, NULL);
	fn = pwt_allreduce_add_fn("allreduce_add", w->k, 1);
	for (v = 0; v < n; v++) {
		host[v] = (float)(v + 1);
		sum += host[v];
	}
	x = all ? pwt_upload(w->client, all, host, 1, false) : NULL;
	if (!all || !fn || !x)
		worker_fail(w, -EINVAL, "setup");
	pthread_barrier_wait(w->start);
	for (i = 0; !w->err && i < w->ncalls; i++) {
		ret = pw_call(w->client, fn, all, &x, 1, &out[i], 1);
		if (ret)
			worker_fail(w, ret, "pw_call");
	}
	for (i = 0; i < w->ncalls && out[i]; i++) {
		ret = pw_buffer_wait(out[i]);
		if (ret == -ETIMEDOUT) {
			w->timedout++;
		} else if (ret) {
			w->other++;
			w->other_err = ret;
		} else if (pwt_values_checked()) {
			if (pw_buffer_to_host(out[i], got, n * sizeof(float)))
				worker_fail(w, -EIO, "fetch");
			for (v = 0; v < n; v++)
				w->wrong += got[v] != sum + w->k;
		}
		pw_buffer_put(out[i]);
	}
	pw_buffer_put(x);
	pw_fn_put(fn);
	return NULL;
}

/* Run @nw workers at once, each on its own client, to the end. */
static void run_workers(struct coll_worker *w, unsigned int nw)
{
	pthread_barrier_t start;
	pthread_t th[8];
	unsigned int i;

	pthread_barrier_init(&start, NULL, nw);
	for (i = 0; i < nw; i++) {
		w[i].start = &start;
		pthread_create(&th[i], NULL, coll_worker, &w[i]);
	}
	for (i = 0; i < nw; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
}

/* A fresh client's all-reduce over every device gives the right sum. */
static void check_devices_work(struct __test_metadata *_metadata)
{
	struct coll_worker w = { .ncalls = 2, .k = 7 };

	w.client = pwt_connect("after", 0);
	ASSERT_NE(NULL, w.client);
	run_workers(&w, 1);
	EXPECT_EQ(0, w.err) {
		TH_LOG("%s", w.msg);
	}
	EXPECT_EQ(0u, w.timedout);
	EXPECT_EQ(0u, w.other);
	EXPECT_EQ(0u, w.wrong);
	pw_disconnect(w.client);
}

TEST(concurrent_collectives_do_not_deadlock)
{
	struct coll_worker w[3];
	unsigned int i;

	PWT_NEED_DEVICES(2);
	memset(w, 0, sizeof(w));
	for (i = 0; i < 3; i++) {
		char name[16];

		snprintf(name, sizeof(name), "coll%u", i);
		w[i].client = pwt_connect(name, 0);
		ASSERT_NE(NULL, w[i].client);
		w[i].ncalls = 30;
		w[i].k = 100.0f * (float)(i + 1);
	}
	run_workers(w, 3);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, w[i].err) {
			TH_LOG("client %u: %s", i, w[i].msg);
		}
		EXPECT_EQ(0u, w[i].timedout) {
			TH_LOG("client %u", i);
		}
		EXPECT_EQ(0u, w[i].other) {
			TH_LOG("client %u: %s", i, strerror(-w[i].other_err));
		}
		EXPECT_EQ(0u, w[i].wrong) {
			TH_LOG("client %u", i);
		}
		pw_disconnect(w[i].client);
	}
	/* Nothing of theirs is left behind on the devices. */
	check_devices_work(_metadata);
}

/*
 * Proportional share, measured without timing: a gate computation holds
 * every device while one thread queues PER_CLIENT computations for each
 * of four clients of weights 1, 2, 4 and 8, round robin; the window is
 * full, so all of it waits in the scheduler, where the policy orders it.
 * When the weight-8 client's last computation is done, the completed
 * counts show the order the scheduler chose (give or take the window).
 */
#define PER_CLIENT	200
#define NCLIENTS	4
#define WINDOW		4
#define GATE_NS		500000000ULL	/* outlasts queueing everything */
#define WORK_NS		200000ULL

static const unsigned int weights[NCLIENTS] = { 1, 2, 4, 8 };

struct backlog {
	uint64_t completed[NCLIENTS];
	uint64_t queue_ns;	/* time taken to queue everything */
	bool gate_lost;		/* the gate ended before all was queued */
};

static void run_backlog(struct __test_metadata *_metadata,
			enum pw_sched_policy first, enum pw_sched_policy then,
			struct backlog *res)
{
	struct pw_buffer *x[NCLIENTS], *last[NCLIENTS], *gx, *gout, *out;
	struct pw_client *c[NCLIENTS], *gate;
	struct pw_slice *s[NCLIENTS], *gs;
	struct pw_fn *gate_fn, *work_fn;
	struct pw_client_stats st;
	float host[PWT_MAX_DEVICES] = { 0 }, got[PWT_MAX_DEVICES];
	uint64_t base[NCLIENTS];
	unsigned int n, i, k;
	uint64_t t0;

	gate = pwt_connect("gate", 0);
	ASSERT_NE(NULL, gate);
	n = (unsigned int)pw_num_devices(gate);
	for (k = 0; k < NCLIENTS; k++) {
		char name[16];

		snprintf(name, sizeof(name), "w%u", weights[k]);
		c[k] = pwt_connect(name, weights[k]);
		ASSERT_NE(NULL, c[k]);
		/* One device each: queueing is cheaper, the gate holds all. */
		s[k] = pwt_slice(c[k], 1, NULL);
		ASSERT_NE(NULL, s[k]);
		x[k] = pwt_upload(c[k], s[k], host, 1, true);
		ASSERT_NE(NULL, x[k]);
		ASSERT_EQ(0, pw_buffer_wait(x[k]));
	}
	gs = pwt_slice(gate, n, NULL);
	ASSERT_NE(NULL, gs);
	gx = pwt_upload(gate, gs, host, 1, true);
	ASSERT_NE(NULL, gx);
	ASSERT_EQ(0, pw_buffer_wait(gx));
	gate_fn = pwt_slow_add_fn("gate", 1, 1, GATE_NS);
	work_fn = pwt_slow_add_fn("work", 1, 1, WORK_NS);
	ASSERT_NE(NULL, gate_fn);
	ASSERT_NE(NULL, work_fn);
	/*
	 * Load the work on each device before the gate holds it, so that
	 * queueing behind the gate does no device work at all.
	 */
	for (k = 0; k < NCLIENTS; k++) {
		ASSERT_EQ(0, pw_call(c[k], work_fn, s[k], &x[k], 1, &out, 1));
		ASSERT_EQ(0, pw_buffer_wait(out));
		pw_buffer_put(out);
		/* Counted just after the output is final: wait for it. */
		t0 = pwt_now_ns();
		do {
			pw_client_stats(c[k], &st);
		} while (st.completed < st.submitted &&
			 pwt_now_ns() - t0 < 2000000000ull);
		base[k] = st.completed;
	}
	ASSERT_EQ(0, pw_set_sched_policy(gate, first, WINDOW));

	ASSERT_EQ(0, pw_call(gate, gate_fn, gs, &gx, 1, &gout, 1));
	t0 = pwt_now_ns();
	for (i = 0; i < PER_CLIENT; i++) {
		for (k = 0; k < NCLIENTS; k++) {
			ASSERT_EQ(0, pw_call(c[k], work_fn, s[k], &x[k], 1,
					     &out, 1)) {
				TH_LOG("client %u, call %u: %s", k, i,
				       pw_last_error());
			}
			if (i + 1 < PER_CLIENT)
				pw_buffer_put(out);
			else
				last[k] = out;
		}
	}
	res->queue_ns = pwt_now_ns() - t0;
	/*
	 * The premise: everything was queued before the devices went on.
	 * On a machine too slow for it the order proves nothing: the
	 * callers skip rather than judge (no timing is asserted).
	 */
	pw_client_stats(gate, &st);
	res->gate_lost = st.completed != 0;
	if (then != first) {
		ASSERT_EQ(0, pw_set_sched_policy(gate, then, 0));
	}

	/*
	 * The statistics count a computation just after its outputs are
	 * final: poll them, not the buffer.
	 */
	ASSERT_EQ(0, pw_buffer_wait(last[NCLIENTS - 1]));
	t0 = pwt_now_ns();
	do {
		pw_client_stats(c[NCLIENTS - 1], &st);
	} while (st.completed < base[NCLIENTS - 1] + PER_CLIENT &&
		 pwt_now_ns() - t0 < 2000000000ull);
	for (k = 0; k < NCLIENTS; k++) {
		pw_client_stats(c[k], &st);
		res->completed[k] = st.completed - base[k];
	}
	ASSERT_EQ(0, pw_buffer_wait(gout));
	ASSERT_EQ(0, pw_buffer_to_host(last[NCLIENTS - 1], got,
				       sizeof(float)));
	if (pwt_values_checked()) {
		EXPECT_EQ(1.0f, got[0]);
	}
	pw_client_stats(c[0], &st);
	EXPECT_EQ((uint64_t)PER_CLIENT + 1, st.submitted);
	EXPECT_EQ(0u, st.failed);
	/* Disconnecting drops what is still queued. */
	pw_fn_put(gate_fn);
	pw_fn_put(work_fn);
	for (k = 0; k < NCLIENTS; k++)
		pw_disconnect(c[k]);
	pw_disconnect(gate);
	TH_LOG("%s%s: completed %llu %llu %llu %llu (queued in %llu ms)",
	       first == PW_SCHED_SHARE ? "share" : "fifo",
	       then == first ? "" : then == PW_SCHED_SHARE ? "->share" :
	       "->fifo",
	       (unsigned long long)res->completed[0],
	       (unsigned long long)res->completed[1],
	       (unsigned long long)res->completed[2],
	       (unsigned long long)res->completed[3],
	       (unsigned long long)(res->queue_ns / 1000000));
}

static void expect_weighted(struct __test_metadata *_metadata,
			    const struct backlog *r)
{
	unsigned int k;

	EXPECT_EQ((uint64_t)PER_CLIENT, r->completed[NCLIENTS - 1]);
	for (k = 1; k < NCLIENTS; k++) {
		EXPECT_LT(r->completed[k - 1], r->completed[k]) {
			TH_LOG("weight %u completed %llu, weight %u %llu",
			       weights[k - 1],
			       (unsigned long long)r->completed[k - 1],
			       weights[k],
			       (unsigned long long)r->completed[k]);
		}
	}
	/* Stride scheduling gives 8; allow a factor of 2 either way. */
	EXPECT_LE(4 * r->completed[0], r->completed[NCLIENTS - 1]);
	EXPECT_GE(16 * r->completed[0], r->completed[NCLIENTS - 1]);
}

static void expect_equal(struct __test_metadata *_metadata,
			 const struct backlog *r)
{
	uint64_t sum = 0;
	unsigned int k;

	for (k = 0; k < NCLIENTS; k++)
		sum += r->completed[k];
	for (k = 0; k < NCLIENTS; k++) {
		/* Within 25% of the mean: 4 * |c - mean| <= mean. */
		uint64_t c4 = NCLIENTS * r->completed[k];
		uint64_t diff = c4 > sum ? c4 - sum : sum - c4;

		EXPECT_LE(4 * diff, sum) {
			TH_LOG("weight %u: %llu of %llu", weights[k],
			       (unsigned long long)r->completed[k],
			       (unsigned long long)sum);
		}
	}
}

TEST(share_follows_weights)
{
	struct backlog r;

	PWT_NEED_DEVICES(1);
	run_backlog(_metadata, PW_SCHED_SHARE, PW_SCHED_SHARE, &r);
	if (r.gate_lost)
		SKIP(return, "the gate ended before the work was queued (%llu ms)",
		     (unsigned long long)(r.queue_ns / 1000000));
	expect_weighted(_metadata, &r);
}

TEST(fifo_ignores_weights)
{
	struct backlog r;

	PWT_NEED_DEVICES(1);
	run_backlog(_metadata, PW_SCHED_FIFO, PW_SCHED_FIFO, &r);
	if (r.gate_lost)
		SKIP(return, "the gate ended before the work was queued (%llu ms)",
		     (unsigned long long)(r.queue_ns / 1000000));
	expect_equal(_metadata, &r);
}

/* The policy applies to work already queued when it changes. */
TEST(policy_switch_while_queued)
{
	struct backlog r;

	PWT_NEED_DEVICES(1);
	run_backlog(_metadata, PW_SCHED_FIFO, PW_SCHED_SHARE, &r);
	if (r.gate_lost)
		SKIP(return, "the gate ended before the work was queued");
	expect_weighted(_metadata, &r);
	run_backlog(_metadata, PW_SCHED_SHARE, PW_SCHED_FIFO, &r);
	if (r.gate_lost)
		SKIP(return, "the gate ended before the work was queued");
	expect_equal(_metadata, &r);
}

TEST_HARNESS_MAIN
