// SPDX-License-Identifier: GPL-2.0
/*
 * test_share.c - the island scheduler's policy at the controller
 * (runtime/dcn/ctl_share.c) on the host, over kernel UDP on loopback: a
 * real controller, real remote clients (include/pathways/remote.h), and
 * in place of a worker a bare DCN node that keeps every PLAN and answers
 * one with DONE only when the test lets it, so the order in which the
 * controller releases runs is exactly what the worker sees.
 *
 * Three controllers, each with a window of one run per island: two as
 * pathwaysd's operator configures them ("heavy" weighted 3 and "light"
 * 1, SHARE or FIFO, and no client may change that), one as a process
 * running its own controller (FIFO at first, clients administer it).
 * The same backlog is shared 3:1 under SHARE, set by the configuration
 * or by ADMIN, and goes in arrival order under FIFO, weights or not.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../runtime/dcn/rclient.h"

#include "kselftest_harness.h"
#include "fake_worker.h"
#include "../../runtime/dcn/roles.h"
#include "../../runtime/net/transport.h"
#include "../lib/test_key.h"

#define MS 1000000ull
#define RUNS 40		/* runs each client queues */
#define MAX_PLANS (4 * RUNS)

/**
 * struct held_worker - the worker node's PLANs, under @lock
 * @registered: REGISTER_ACK came, with status 0.
 * @run, @client: PLANs received, in order (@nplans).
 * @answered: PLANs answered with DONE so far, in order.
 * @budget: PLANs the serving loop may answer now.
 * @freed: buffers FREE named, in order (@nfreed), each with how many
 *	PLANs had come before it (@freed_after).
 */
struct held_worker {
	pthread_mutex_t lock;
	bool registered;
	struct fake_plan run[MAX_PLANS];
	uint32_t client[MAX_PLANS];
	unsigned int nplans;
	unsigned int answered;
	unsigned int budget;
	uint32_t freed[MAX_PLANS];
	unsigned int freed_after[MAX_PLANS];
	unsigned int nfreed;
};

static int worker_handler(struct pw_node *node, struct pw_node_peer *peer,
			  const struct pw_wire_msg *msg, uint64_t now)
{
	struct held_worker *hw = node->ctx;
	int ret = fake_worker_common(node, msg);

	if (ret)
		return ret < 0 ? ret : 0;
	pthread_mutex_lock(&hw->lock);
	if (msg->hdr.type == PW_WIRE_REGISTER_ACK)
		hw->registered = msg->body.reg_ack.status == 0;
	if (msg->hdr.type == PW_WIRE_PLAN && hw->nplans < MAX_PLANS) {
		hw->run[hw->nplans] = fake_plan_of(&msg->body.plan);
		hw->client[hw->nplans++] = msg->body.plan.client;
	}
	if (msg->hdr.type == PW_WIRE_BUFFER &&
	    msg->body.buffer.op == PW_WIRE_BUF_FREE && hw->nfreed < MAX_PLANS) {
		hw->freed_after[hw->nfreed] = hw->nplans;
		hw->freed[hw->nfreed++] = msg->body.buffer.id;
	}
	pthread_mutex_unlock(&hw->lock);
	return 0;
}

FIXTURE(share) {
	struct pw_controller c;
	struct pw_node wk;
	struct held_worker hw;
	pthread_t loop;
	atomic_bool stop;
	bool looping;
	char addr[32];
	struct pw_fn *fn;
};

FIXTURE_VARIANT(share) {
	bool administer;	/* clients may ADMIN (an embedded controller) */
	enum pw_wire_sched policy;
};

FIXTURE_VARIANT_ADD(share, pathwaysd) {
	.administer = false,
	.policy = PW_WIRE_SCHED_SHARE,
};

FIXTURE_VARIANT_ADD(share, pathwaysd_fifo) {
	.administer = false,
	.policy = PW_WIRE_SCHED_FIFO,
};

FIXTURE_VARIANT_ADD(share, embedded) {
	.administer = true,
	.policy = PW_WIRE_SCHED_FIFO,
};

/* The controller, and the worker node answering its budget in order. */
static void *serve(void *arg)
{
	FIXTURE_DATA(share) *self = arg;
	struct held_worker *hw = &self->hw;

	while (!atomic_load(&self->stop)) {
		pw_controller_step(&self->c, 1 * MS);
		pw_node_step(&self->wk, 0);
		pthread_mutex_lock(&hw->lock);
		while (hw->budget && hw->answered < hw->nplans) {
			fake_worker_done(&self->wk, &hw->run[hw->answered++],
					 0, 1, FAKE_TO_BOTH);
			hw->budget--;
		}
		pthread_mutex_unlock(&hw->lock);
	}
	return NULL;
}

static struct held_worker snapshot(struct held_worker *hw)
{
	struct held_worker now;

	pthread_mutex_lock(&hw->lock);
	now = *hw;
	pthread_mutex_unlock(&hw->lock);
	return now;
}

/* Wait up to 10 s for @n PLANs in all. */
static unsigned int wait_plans(struct held_worker *hw, unsigned int n)
{
	unsigned int i, have = 0;

	for (i = 0; i < 10000; i++) {
		have = snapshot(hw).nplans;
		if (have >= n)
			break;
		usleep(1000);
	}
	return have;
}

/* Wait up to 10 s for the controller to hold @n runs. */
static unsigned int wait_held(FIXTURE_DATA(share) *self, unsigned int n)
{
	unsigned int i, held = 0;

	for (i = 0; i < 10000; i++) {
		held = __atomic_load_n(&self->c.nheld, __ATOMIC_RELAXED);
		if (held == n)
			break;
		usleep(1000);
	}
	return held;
}

static void let_answer(struct held_worker *hw, unsigned int n)
{
	pthread_mutex_lock(&hw->lock);
	hw->budget += n;
	pthread_mutex_unlock(&hw->lock);
}

FIXTURE_SETUP(share)
{
	struct pw_auth_key key;
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct pw_ctl_share_cfg cfg = {
		.policy = variant->policy,
		.window = 1,
		.clients_administer = variant->administer,
	};
	const uint32_t shape[1] = { 4 };
	struct pw_fn_builder *b = pw_fn_begin("add");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct sockaddr_in ctl_addr;
	struct pw_transport *t;
	struct pw_node_peer *to_ctl;
	int i;

	ASSERT_EQ(0, test_cluster_key(&key));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x, x));
	ASSERT_EQ(0, pw_fn_build(b, &self->fn));
	if (!variant->administer) {
		/* The operator's weights, by the names clients connect with. */
		cfg.nweights = 2;
		strcpy(cfg.weights[0].name, "heavy");
		cfg.weights[0].weight = 3;
		strcpy(cfg.weights[1].name, "light");
		cfg.weights[1].weight = 1;
	}
	memset(&self->hw, 0, sizeof(self->hw));
	pthread_mutex_init(&self->hw.lock, NULL);
	atomic_init(&self->stop, false);
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_controller_init(&self->c, t, &key, 0, 600000, 0));
	ASSERT_EQ(0, pw_ctl_share_configure(&self->c, &cfg));
	ASSERT_EQ(0, pw_transport_local_addr(t, &ctl_addr));
	snprintf(self->addr, sizeof(self->addr), "127.0.0.1:%u",
		 ntohs(ctl_addr.sin_port));
	ASSERT_EQ(0, pw_udp_open(&t, &lo));
	ASSERT_EQ(0, pw_node_init(&self->wk, PW_NODE_WORKER_BASE, t, &key,
				  worker_handler, &self->hw));
	to_ctl = pw_node_peer(&self->wk, PW_NODE_CONTROLLER, &ctl_addr);
	ASSERT_NE(NULL, to_ctl);
	ASSERT_EQ(0, fake_worker_register(&self->wk, to_ctl, 0, 1, "1x1"));
	ASSERT_EQ(0, pthread_create(&self->loop, NULL, serve, self));
	self->looping = true;
	for (i = 0; i < 10000 && !snapshot(&self->hw).registered; i++)
		usleep(1000);
	ASSERT_TRUE(snapshot(&self->hw).registered);
}

FIXTURE_TEARDOWN(share)
{
	pw_fn_put(self->fn);
	if (self->looping) {
		atomic_store(&self->stop, true);
		pthread_join(self->loop, NULL);
	}
	pw_node_fini(&self->wk);
	pw_controller_fini(&self->c);
	pthread_mutex_destroy(&self->hw.lock);
}

/* A client called @name with the one-node program of the fixture's fn. */
static int client_open(FIXTURE_DATA(share) *self, const char *name,
		       struct pw_remote **r, uint32_t *prog)
{
	int ret = pw_remote_connect(self->addr, name, r);

	return ret ? ret : fake_program(*r, self->fn, prog);
}

/* Any buffer id will do: only the (fake) worker would look it up. */
#define ARG_ID (77u << PW_WIRE_SHARD_BITS)

static int queue_runs(struct pw_remote *r, uint32_t prog, unsigned int n,
		      uint32_t *tickets)
{
	uint32_t out;
	unsigned int k;
	int ret = 0;

	for (k = 0; k < n && !ret; k++)
		ret = pw_remote_run_async(r, prog, (uint32_t[]){ ARG_ID }, 1,
					  &out, 1, &tickets[k]);
	return ret;
}

/*
 * Two backlogged clients weighted 3:1 get the island's runs 3:1 under
 * SHARE: of the first 40 the worker sees after both queued theirs, 30
 * are the heavy client's (stride scheduling alternates exactly, up to
 * the first pick). Under FIFO the light client queued first: its 40 go
 * first, whatever the weights.
 */
TEST_F_TIMEOUT(share, backlogged_clients_share_the_island_by_weight, 120)
{
	uint32_t th[RUNS], tl[RUNS], ph, pl;
	struct pw_remote *heavy, *light;
	struct held_worker w;
	unsigned int k, nheavy = 0, first;

	ASSERT_EQ(0, client_open(self, "heavy", &heavy, &ph))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, client_open(self, "light", &light, &pl))
		TH_LOG("%s", pw_last_error());
	if (variant->administer) {
		/* A process running its own controller is its operator. */
		ASSERT_EQ(0, pw_remote_set_policy(heavy, PW_SCHED_SHARE, 1))
			TH_LOG("%s", pw_last_error());
		ASSERT_EQ(0, pw_remote_set_weight(light, "heavy", 3))
			TH_LOG("%s", pw_last_error());
	}
	/* The light client's all in before the heavy one's. */
	ASSERT_EQ(0, queue_runs(light, pl, RUNS, tl));
	ASSERT_EQ(RUNS - 1u, wait_held(self, RUNS - 1));
	ASSERT_EQ(0, queue_runs(heavy, ph, RUNS, th));
	/* One in flight (the window), the rest held at the controller. */
	ASSERT_EQ(1u, wait_plans(&self->hw, 1));
	ASSERT_EQ(2u * RUNS - 1, wait_held(self, 2 * RUNS - 1));
	first = snapshot(&self->hw).nplans;
	let_answer(&self->hw, 2 * RUNS);
	ASSERT_EQ(2u * RUNS, wait_plans(&self->hw, 2 * RUNS));
	w = snapshot(&self->hw);
	for (k = first; k < first + RUNS; k++)
		nheavy += w.client[k] == heavy->ack.client_id;
	if (variant->administer || variant->policy == PW_WIRE_SCHED_SHARE) {
		EXPECT_GE(nheavy, 28u);
		EXPECT_LE(nheavy, 32u);
	} else {
		/* The light client's 40, the one sent at once among them. */
		for (nheavy = 0, k = 0; k < RUNS; k++)
			nheavy += w.client[k] == heavy->ack.client_id;
		EXPECT_EQ(0u, nheavy);
	}
	for (k = 0; k < RUNS; k++) {
		ASSERT_EQ(0, pw_remote_wait(heavy, th[k]));
		ASSERT_EQ(0, pw_remote_wait(light, tl[k]));
	}
	pw_remote_close(heavy);
	pw_remote_close(light);
}

/* SHARE with a window of one run, as the operator or the process sets it. */
static int make_share(const FIXTURE_VARIANT(share) *variant,
		      struct pw_remote *r)
{
	return variant->administer ? pw_remote_set_policy(r, PW_SCHED_SHARE, 1) :
	       0;
}

/*
 * pathwaysd's weights and policy are its operator's: a client's ADMIN is
 * refused by the controller with a message saying whose they are; a
 * process running its own controller sets them.
 */
TEST_F_TIMEOUT(share, weights_are_the_operators, 60)
{
	struct pw_remote *r;
	uint32_t prog;
	int want = variant->administer ? 0 : -EPERM;

	ASSERT_EQ(0, client_open(self, "light", &r, &prog))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(want, pw_remote_set_weight(r, NULL, 8));
	if (want)
		EXPECT_NE(NULL, strstr(pw_last_error(), "operator"))
			TH_LOG("%s", pw_last_error());
	EXPECT_EQ(want, pw_remote_set_weight(r, "heavy", 1));
	EXPECT_EQ(want, pw_remote_set_policy(r, PW_SCHED_FIFO, 0));
	/* Bad values never reach the controller. */
	EXPECT_EQ(-EINVAL, pw_remote_set_weight(r, NULL, 0));
	EXPECT_EQ(-EINVAL, pw_remote_set_weight(r, NULL, 1001));
	EXPECT_EQ(-ENAMETOOLONG,
		  pw_remote_set_weight(r, "a-name-longer-than-thirty-one-bytes", 2));
	EXPECT_EQ(-EINVAL, pw_remote_set_policy(r, (enum pw_sched_policy)7, 0));
	/* The operator's configuration stands. */
	if (!variant->administer) {
		EXPECT_EQ((int)variant->policy, (int)self->c.share.policy);
		EXPECT_EQ(3u, self->c.share.weights[0].weight);
	}
	pw_remote_close(r);
}

/*
 * Either policy keeps the window's number of runs in flight on the
 * island and holds the rest at the controller; a wider window sends
 * them at once.
 */
TEST_F_TIMEOUT(share, the_window_bounds_runs_in_flight, 60)
{
	struct pw_client_stats st;
	struct pw_remote *r;
	uint32_t prog, t[10];
	unsigned int k;

	ASSERT_EQ(0, client_open(self, "light", &r, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, queue_runs(r, prog, 10, t));
	EXPECT_EQ(9u, wait_held(self, 9));
	EXPECT_EQ(1u, snapshot(&self->hw).nplans);
	if (variant->administer) {
		ASSERT_EQ(0, pw_remote_set_policy(r, PW_SCHED_FIFO, 16));
		EXPECT_EQ(10u, wait_plans(&self->hw, 10));
		EXPECT_EQ(0u, wait_held(self, 0));
	}
	let_answer(&self->hw, 10);
	/* Counted as their DONEs come, before anyone waits for them. */
	for (k = 0; k < 10000; k++) {
		pw_remote_stats(r, &st);
		if (st.completed == 10)
			break;
		usleep(1000);
	}
	EXPECT_EQ(10u, st.submitted);
	EXPECT_EQ(10u, st.completed);
	EXPECT_EQ(0u, st.failed + st.cancelled);
	for (k = 0; k < 10; k++)
		ASSERT_EQ(0, pw_remote_wait(r, t[k])) TH_LOG("%s", pw_last_error());
	EXPECT_EQ(10u, snapshot(&self->hw).nplans);
	pw_remote_close(r);
}

/*
 * A client that goes with runs held: they are dropped (never sent), the
 * others' go on, and no island's window stays taken.
 */
TEST_F_TIMEOUT(share, held_runs_of_a_client_that_goes_are_dropped, 60)
{
	struct pw_remote *stay, *go;
	uint32_t ps, pg, ts[10], tg[5];
	unsigned int k, from_go = 0;
	struct held_worker w;

	ASSERT_EQ(0, client_open(self, "light", &stay, &ps))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, client_open(self, "heavy", &go, &pg))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, make_share(variant, stay)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, queue_runs(stay, ps, 10, ts));
	ASSERT_EQ(0, queue_runs(go, pg, 5, tg));
	ASSERT_EQ(14u, wait_held(self, 14));
	pw_remote_close(go);
	ASSERT_EQ(9u, wait_held(self, 9));
	let_answer(&self->hw, 20);
	for (k = 0; k < 10; k++)
		ASSERT_EQ(0, pw_remote_wait(stay, ts[k]))
			TH_LOG("%s", pw_last_error());
	w = snapshot(&self->hw);
	for (k = 0; k < w.nplans; k++)
		from_go += w.client[k] != stay->ack.client_id;
	EXPECT_GE(1u, from_go);	/* at most the one in flight before */
	EXPECT_EQ(10u + from_go, w.nplans);
	/*
	 * A client hears DONE from the worker straight; the controller's copy
	 * may come a little later: wait for it (10 s at most) to free the
	 * window, rather than read the window at the client's DONE.
	 */
	for (k = 0; k < 10000 &&
	     __atomic_load_n(&self->c.inflight[0], __ATOMIC_RELAXED); k++)
		usleep(1000);
	EXPECT_EQ(0u, __atomic_load_n(&self->c.inflight[0], __ATOMIC_RELAXED));
	pw_remote_close(stay);
}

/*
 * A FREE of a buffer a held run reads waits at the controller until that
 * run's PLAN has gone: the worker must still find the buffer. A FREE of
 * a buffer no held run names goes at once (it may be what lets the runs
 * ahead finish).
 */
TEST_F_TIMEOUT(share, a_free_does_not_overtake_a_held_run, 60)
{
	struct pw_remote *r;
	uint32_t prog, y0, y1, y2, t0, t1, t2;
	struct held_worker w;
	unsigned int i;

	ASSERT_EQ(0, client_open(self, "light", &r, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, make_share(variant, r)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run_async(r, prog, (uint32_t[]){ ARG_ID }, 1,
					 &y0, 1, &t0));
	let_answer(&self->hw, 1);
	ASSERT_EQ(0, pw_remote_wait(r, t0));
	ASSERT_EQ(0, pw_remote_run_async(r, prog, (uint32_t[]){ ARG_ID }, 1,
					 &y1, 1, &t1));
	ASSERT_EQ(2u, wait_plans(&self->hw, 2));
	/* The window is full: the run reading y1 is held. */
	ASSERT_EQ(0, pw_remote_run_async(r, prog, &y1, 1, &y2, 1, &t2));
	ASSERT_EQ(1u, wait_held(self, 1));
	ASSERT_EQ(0, pw_remote_free(r, 0, y1));
	ASSERT_EQ(0, pw_remote_free(r, 0, y0));
	for (i = 0; i < 1000 && !snapshot(&self->hw).nfreed; i++)
		usleep(1000);
	usleep(100 * 1000);
	w = snapshot(&self->hw);
	ASSERT_EQ(1u, w.nfreed);
	EXPECT_EQ(y0, w.freed[0]);	/* named by no held run */
	let_answer(&self->hw, 2);
	ASSERT_EQ(0, pw_remote_wait(r, t1));
	ASSERT_EQ(0, pw_remote_wait(r, t2));
	for (i = 0; i < 1000 && snapshot(&self->hw).nfreed < 2; i++)
		usleep(1000);
	w = snapshot(&self->hw);
	ASSERT_EQ(2u, w.nfreed);
	EXPECT_EQ(y1, w.freed[1]);
	EXPECT_EQ(3u, w.freed_after[1]);	/* after the held run's PLAN */
	pw_remote_close(r);
}

/* A run held past its deadline ends with ETIMEDOUT and is never sent. */
TEST_F_TIMEOUT(share, a_held_run_past_its_deadline_times_out, 60)
{
	struct pw_client_stats st;
	struct pw_remote *r;
	uint32_t prog, first, late;

	ASSERT_EQ(0, client_open(self, "light", &r, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, make_share(variant, r)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, queue_runs(r, prog, 1, &first));
	ASSERT_EQ(1u, wait_plans(&self->hw, 1));
	pw_remote_set_run_timeout(r, 100);
	ASSERT_EQ(0, queue_runs(r, prog, 1, &late));
	EXPECT_EQ(-ETIMEDOUT, pw_remote_wait(r, late));
	EXPECT_EQ(0u, wait_held(self, 0));
	let_answer(&self->hw, 1);
	EXPECT_EQ(0, pw_remote_wait(r, first)) TH_LOG("%s", pw_last_error());
	EXPECT_EQ(1u, snapshot(&self->hw).nplans);
	/* Two computations: one done, one failed (its deadline). */
	pw_remote_stats(r, &st);
	EXPECT_EQ(2u, st.submitted);
	EXPECT_EQ(2u, st.completed);
	EXPECT_EQ(1u, st.failed);
	pw_remote_close(r);
}

/*
 * Run pathwaysd's controller for a moment with @config as its --config
 * file (and @extra as one more argument, or NULL): its exit status, and
 * what it printed in @out.
 */
static int pathwaysd_with(const char *config, const char *extra, char *out,
			  size_t size)
{
	char exe[PATH_MAX], self[PATH_MAX], file[] = "/tmp/pwshareXXXXXX";
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd = mkstemp(file), pipefd[2], status = -1;
	struct pw_auth_key key;
	size_t got = 0;
	pid_t pid;

	/* The daemon reads the key the environment names. */
	if (test_cluster_key(&key)) {
		if (fd >= 0) {
			close(fd);
			unlink(file);
		}
		return -1;
	}
	self[n > 0 ? n : 0] = '\0';
	snprintf(exe, sizeof(exe), "%s/../../tools/pathwaysd", dirname(self));
	if (fd < 0 || write(fd, config, strlen(config)) < 0 || pipe(pipefd))
		return -1;
	close(fd);
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		execl(exe, exe, "--role", "controller", "--listen",
		      "127.0.0.1:0", "--run-for", "0.2", "--config", file,
		      extra, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (got + 1 < size &&
	       (n = read(pipefd[0], out + got, size - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	unlink(file);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * pathwaysd's operator configures the island scheduler in a file (or
 * on the command line); what is wrong in it is named, with its line.
 */
TEST(pathwaysd_takes_the_operators_configuration)
{
	char out[4096];

	ASSERT_EQ(0, pathwaysd_with("# the islands' scheduler\n"
				    "sched share\n"
				    "window 2   # runs per island\n"
				    "\n"
				    "weight trainer=4\n", "--weight=eval=1",
				    out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "share window 2, 2 weights")) TH_LOG("%s", out);
	ASSERT_EQ(0, pathwaysd_with("", NULL, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "fifo)")) TH_LOG("%s", out);

	EXPECT_EQ(2, pathwaysd_with("sched share\nshare 3\n", NULL, out,
				    sizeof(out)));
	EXPECT_NE(NULL, strstr(out, ":2: want \"option value\"")) TH_LOG("%s", out);
	EXPECT_EQ(2, pathwaysd_with("sched lottery\n", NULL, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "want fifo or share")) TH_LOG("%s", out);
	EXPECT_EQ(2, pathwaysd_with("weight trainer\n", NULL, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "want NAME=W")) TH_LOG("%s", out);
	EXPECT_EQ(2, pathwaysd_with("weight trainer=0\n", NULL, out,
				    sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "must be 1..1000")) TH_LOG("%s", out);
	EXPECT_EQ(2, pathwaysd_with("window 0\n", NULL, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "want 1..4096")) TH_LOG("%s", out);
	EXPECT_EQ(2, pathwaysd_with("config /etc/passwd\n", NULL, out,
				    sizeof(out)));
	EXPECT_EQ(2, pathwaysd_with("weight a=1\nweight a=2\n", NULL, out,
				    sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "each --weight NAME once")) TH_LOG("%s", out);
}

/*
 * pathwaysd takes no key that others may read, nothing that is not a
 * key, and no missing one; each refusal names the file and what to do.
 */
TEST(pathwaysd_refuses_a_key_it_cannot_trust)
{
	char dir[] = "/tmp/pwkeyXXXXXX", path[64], arg[80], out[4096];
	struct pw_auth_key key;
	FILE *f;

	ASSERT_EQ(0, test_cluster_key(&key));
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cluster.key", dir);
	snprintf(arg, sizeof(arg), "--key=%s", path);

	EXPECT_EQ(1, pathwaysd_with("", arg, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "No such file")) TH_LOG("%s", out);

	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs("not a key\n", f);
	fclose(f);
	ASSERT_EQ(0, chmod(path, 0600));
	EXPECT_EQ(1, pathwaysd_with("", arg, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "not 64 hexadecimal digits")) TH_LOG("%s", out);

	unlink(path);
	ASSERT_EQ(0, pw_auth_key_create(path, out, sizeof(out)));
	ASSERT_EQ(0, chmod(path, 0644));
	EXPECT_EQ(1, pathwaysd_with("", arg, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "others may read it")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, path)) TH_LOG("%s", out);

	ASSERT_EQ(0, chmod(path, 0600));
	EXPECT_EQ(0, pathwaysd_with("", arg, out, sizeof(out))) TH_LOG("%s", out);
	unlink(path);
	rmdir(dir);
}

TEST_HARNESS_MAIN
