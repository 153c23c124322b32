// SPDX-License-Identifier: GPL-2.0
/*
 * test_simcluster.c - a pathwaysd cluster of simulated hosts on this
 * machine, no kernel module: a controller and two workers on loopback,
 * each worker's island simulated in its own process (--devices sim:...,
 * runtime/dcn/wdev_sim.c), their data planes over TCP. The controller,
 * the wire and the clients are the real ones; the examples run on it as
 * on testbed hosts, moving values between hosts.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/test_daemon.h"
#include "../lib/test_key.h"
#include "../lib/test_run.h"
#include "kselftest_harness.h"

#define HOSTS		2
#define OUT_MAX		65536

FIXTURE(cluster) {
	pid_t pid[HOSTS + 1];
	char dir[32];
	char ctl[32];
};

FIXTURE_SETUP(cluster)
{
	char listen[HOSTS][32], host[HOSTS][8], log[HOSTS + 1][64];
	/*
	 * Each test is a child of its own: neighbouring pids must not share
	 * ports (a worker's TCP data port lingers in TIME_WAIT), and the
	 * kernel's ephemeral ports start at 32768.
	 */
	unsigned int port = 10000 + (unsigned int)getpid() % 500 * 40, h;
	struct pw_auth_key key;
	char want[32];
	int tries;

	ASSERT_EQ(0, test_cluster_key(&key));
	strcpy(self->dir, "/tmp/pwsimXXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->ctl, sizeof(self->ctl), "127.0.0.1:%u", port);
	snprintf(log[HOSTS], sizeof(log[HOSTS]), "%s/controller.log",
		 self->dir);
	self->pid[HOSTS] = test_daemon_start((const char *const[]){
		"--role", "controller", "--listen", self->ctl, NULL },
		log[HOSTS]);
	ASSERT_LT(0, self->pid[HOSTS]);
	for (h = 0; h < HOSTS; h++) {
		snprintf(listen[h], sizeof(listen[h]), "127.0.0.1:%u",
			 port + 10 * (h + 1));
		snprintf(host[h], sizeof(host[h]), "%u", h);
		snprintf(log[h], sizeof(log[h]), "%s/worker%u.log", self->dir,
			 h);
		self->pid[h] = test_daemon_start((const char *const[]){
			"--role", "worker", "--listen", listen[h],
			"--controller", self->ctl, "--host-id", host[h],
			"--data", "tcp",
			"--devices", "sim:2x2,hbm_mib=16,timing=native", NULL },
			log[h]);
		ASSERT_LT(0, self->pid[h]);
	}
	/*
	 * Every host registered with the controller, within 20 s, and said
	 * so itself (it prints once its REGISTER is sent, maybe later).
	 */
	for (tries = 0; tries < 200; tries++) {
		for (h = 0; h < HOSTS; h++) {
			snprintf(want, sizeof(want), "host %u registered", h);
			if (!test_log_has(log[HOSTS], want) ||
			    !test_log_has(log[h], "4 simulated devices (2x2)"))
				break;
		}
		if (h == HOSTS)
			break;
		usleep(100000);
	}
	ASSERT_EQ((unsigned int)HOSTS, h);
}

FIXTURE_TEARDOWN(cluster)
{
	char cmd[64], log[64];
	unsigned int h;

	for (h = 0; h <= HOSTS; h++) {
		if (h < HOSTS)
			snprintf(log, sizeof(log), "%s/worker%u.log", self->dir,
				 h);
		else
			snprintf(log, sizeof(log), "%s/controller.log",
				 self->dir);
		EXPECT_TRUE(test_daemon_stop(self->pid[h], log)) TH_LOG("%s", log);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* Example @name against the cluster: its exit status, its output. */
static int example(const char *ctl, const char *name, char *out, size_t max)
{
	char exe[PATH_MAX], rel[64], cmd[PATH_MAX + 128];

	snprintf(rel, sizeof(rel), "examples/%s", name);
	test_build_path(exe, sizeof(exe), rel);
	snprintf(cmd, sizeof(cmd), "%s --connect %s 2>&1", exe, ctl);
	return test_run(cmd, out, max);
}

TEST_F_TIMEOUT(cluster, fig2_runs_on_simulated_hosts, 120)
{
	static char out[OUT_MAX];

	EXPECT_EQ(0, example(self->ctl, "fig2", out, sizeof(out)));
	EXPECT_STREQ("(3 5) (2 4)\n", out);
}

/* Stages on different hosts: their activations cross the data plane. */
TEST_F_TIMEOUT(cluster, a_pipeline_across_hosts_equals_the_model, 300)
{
	static char out[OUT_MAX];

	EXPECT_EQ(0, example(self->ctl, "pipeline", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "host 1,"));
	EXPECT_NE(NULL,
		  strstr(out, "pipelined result equals the unpipelined model"))
		TH_LOG("%s", out);
}

TEST_F_TIMEOUT(cluster, the_mlp_trains_across_hosts, 300)
{
	static char out[OUT_MAX];

	EXPECT_EQ(0, example(self->ctl, "mlp", out, sizeof(out)))
		TH_LOG("%s", out);
	/* It checks itself against one slice alone, and says so. */
	EXPECT_NE(NULL, strstr(out, "one slice alone:"));
}

TEST_HARNESS_MAIN
