// SPDX-License-Identifier: GPL-2.0
/*
 * test_shared_island.c - two processes share one island through
 * pathwaysd: a controller and the host's worker run as daemons on
 * loopback, and two client processes each run 1,000 all-reduces over
 * every device at once, many in flight. The worker puts each gang on
 * the devices whole, in the controller's order, so none ends in the
 * driver's gang timeout and every result is right, whether the operator
 * has the island schedule runs FIFO or by proportional share (a window
 * of two runs on the island, the clients weighted 3 by their name).
 * (Two processes each running their own get "island in use" instead:
 * test_claim.) Runs in the testbed with pwtpu.ko loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pw_common.h"
#include "kselftest_harness.h"

#define CTL_PORT	7740
#define CTL_ADDR	"127.0.0.1:7740"
#define RUNS		1000
#define IN_FLIGHT	32

FIXTURE(shared) {
	int ctl;
	int worker;
};

FIXTURE_VARIANT(shared) {
	const char *sched[8];	/* the controller's options */
	unsigned int runs;
};

FIXTURE_VARIANT_ADD(shared, fifo) {
	.sched = { NULL },
	.runs = RUNS,
};

/* Fewer runs: all but two wait at the controller, each released in turn. */
FIXTURE_VARIANT_ADD(shared, share) {
	.sched = { "--sched", "share", "--window", "2", "--weight",
		   "allreduce=3", NULL },
	.runs = RUNS / 4,
};

FIXTURE_SETUP(shared)
{
	char why[200];
	unsigned int i;
	int ret = -1;

	self->ctl = self->worker = 0;
	PWT_NEED_DEVICES(1);
	ASSERT_EQ(0, pwt_cluster_start(CTL_PORT, variant->sched, &self->ctl,
				       &self->worker));
	/* Until the worker has registered: one all-reduce goes through. */
	for (i = 0; i < 100 && ret; i++) {
		ret = pwt_allreduce_runs(CTL_ADDR, 1, 1.0f, 1, 1, why,
					 sizeof(why));
		if (ret)
			pwt_sleep_ms(100);
	}
	ASSERT_EQ(0, ret) TH_LOG("the cluster never served: %s", why);
}

FIXTURE_TEARDOWN(shared)
{
	pwt_daemon_stop(self->worker);
	pwt_daemon_stop(self->ctl);
}

TEST_F_TIMEOUT(shared, two_processes_all_reduce_on_one_island, 900)
{
	unsigned int ndev = pwt_sysfs_devices(), i;
	int status[2], pipes[2][2];
	char why[2][200];
	pid_t pid[2];

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pipe(pipes[i]));
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (pid[i] == 0) {
			char msg[200];
			int ret;

			close(pipes[i][0]);
			ret = pwt_allreduce_runs(CTL_ADDR, ndev, 1.0f + i,
						 variant->runs,
						 IN_FLIGHT, msg, sizeof(msg));
			if (write(pipes[i][1], msg, strlen(msg) + 1) < 0)
				_exit(2);
			_exit(ret ? 1 : 0);
		}
		close(pipes[i][1]);
	}
	for (i = 0; i < 2; i++) {
		ssize_t n = read(pipes[i][0], why[i], sizeof(why[i]) - 1);

		why[i][n > 0 ? n : 0] = '\0';
		ASSERT_EQ(pid[i], waitpid(pid[i], &status[i], 0));
		EXPECT_TRUE(WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0)
			TH_LOG("client %u: %s", i, why[i]);
		close(pipes[i][0]);
	}
}

TEST_HARNESS_MAIN
