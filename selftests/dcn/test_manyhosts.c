// SPDX-License-Identifier: GPL-2.0
/*
 * test_manyhosts.c - a cluster larger than one 64-bit mask of hosts (wire
 * version 9): a controller and 72 simulated workers of pathwaysd on
 * loopback, hosts 0..70 and 511 (the last a cluster may have). One run
 * passes a value through every host in turn, each adding one: it ends
 * only when all 72 workers said DONE, and gives 72.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pathways/pathways.h>

#include "../../runtime/dcn/roles.h"
#include "../lib/test_daemon.h"
#include "../lib/test_fn.h"
#include "../lib/test_key.h"
#include "../lib/test_run.h"
#include "kselftest_harness.h"

#ifndef HOSTS
#define HOSTS		72
#endif
#define LAST_HOST	(PW_WIRE_MAX_HOSTS - 1)

/* The host id of worker @i. */
static unsigned int host_of(unsigned int i)
{
	return i == HOSTS - 1 ? LAST_HOST : i;
}

FIXTURE(many) {
	pid_t pid[HOSTS + 1];
	char log[HOSTS + 1][48];
	char dir[32];
	char ctl[32];
};

FIXTURE_SETUP(many)
{
	/*
	 * A worker takes two ports (control, and its TCP data plane at the
	 * next one); all below the kernel's ephemeral ports (32768) and
	 * above test_simcluster's, apart per process.
	 */
	unsigned int port = 30100 + (unsigned int)getpid() % 16 * 160, i;
	char listen[32], host[8], want[32];
	struct pw_auth_key key;
	int tries;

	ASSERT_EQ(0, test_cluster_key(&key));
	strcpy(self->dir, "/tmp/pwmanyXXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->ctl, sizeof(self->ctl), "127.0.0.1:%u", port);
	snprintf(self->log[HOSTS], sizeof(self->log[HOSTS]),
		 "%s/controller.log", self->dir);
	/*
	 * 72 daemons on two cores: heartbeats far apart, and a long silence
	 * before a host is taken down, or (a worker's --down-ms) before a
	 * worker not answered yet registers afresh, which would drop what
	 * its island held. With the defaults (100 ms, 1 s) a busy machine
	 * makes hosts flap, and each return introduces the host to every
	 * other (docs/dcn.md, "Simulated hosts").
	 */
	self->pid[HOSTS] = test_daemon_start((const char *const[]){
		"--role", "controller", "--listen", self->ctl,
		"--heartbeat-ms", "500", "--down-ms", "15000", NULL },
		self->log[HOSTS]);
	ASSERT_LT(0, self->pid[HOSTS]);
	for (i = 0; i < HOSTS; i++) {
		snprintf(listen, sizeof(listen), "127.0.0.1:%u",
			 port + 2 * (i + 1));
		snprintf(host, sizeof(host), "%u", host_of(i));
		snprintf(self->log[i], sizeof(self->log[i]), "%s/worker%u.log",
			 self->dir, host_of(i));
		self->pid[i] = test_daemon_start((const char *const[]){
			"--role", "worker", "--listen", listen,
			"--controller", self->ctl, "--host-id", host,
			"--data", "tcp",
			"--devices", "sim:1,hbm_mib=1,timing=native",
			"--down-ms", "15000", NULL },
			self->log[i]);
		ASSERT_LT(0, self->pid[i]);
	}
	/* Every worker has the controller's answer, in 120 s. */
	for (tries = 0; tries < 1200; tries++) {
		for (i = 0; i < HOSTS; i++) {
			snprintf(want, sizeof(want), "host %u registered",
				 host_of(i));
			if (!test_log_has(self->log[HOSTS], want) ||
			    !test_log_has(self->log[i],
					  "registered (heartbeat 500 ms"))
				break;
		}
		if (i == HOSTS)
			break;
		usleep(100000);
	}
	ASSERT_EQ((unsigned int)HOSTS, i) TH_LOG("host %u is missing",
						 host_of(i));
}

FIXTURE_TEARDOWN(many)
{
	char cmd[128];
	unsigned int i;

	/* All at once: each takes up to half a heartbeat to notice. */
	for (i = 0; i <= HOSTS; i++)
		if (self->pid[i] > 0)
			kill(self->pid[i], SIGTERM);
	for (i = 0; i <= HOSTS; i++)
		EXPECT_TRUE(test_daemon_stop(self->pid[i], self->log[i]))
			TH_LOG("%s", self->log[i]);
	/* What the controller saw, for a failure in CI. */
	if (!_metadata->passed) {
		snprintf(cmd, sizeof(cmd), "tail -n 40 %s >&2",
			 self->log[HOSTS]);
		if (system(cmd))
			TH_LOG("no log %s", self->log[HOSTS]);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F_TIMEOUT(many, a_run_through_72_hosts_waits_for_all_of_them, 600)
{
	const uint32_t shape[1] = { 1 };
	struct pw_remote *r = NULL;
	struct pw_rprog *p;
	uint32_t fn_id, prog, arg, res;
	struct pw_fn *fn;
	unsigned int i, run;
	int v, tries;
	float x;

	/*
	 * A host may still be taken down while 72 daemons start: connect
	 * until CONNECT_ACK shows every one up, within 60 s.
	 */
	for (tries = 0; tries < 60; tries++) {
		ASSERT_EQ(0, pw_remote_connect(self->ctl, "manyhosts", &r));
		for (i = 0; i < HOSTS; i++)
			if (pw_remote_host_devices(r, host_of(i)) != 1)
				break;
		if (i == HOSTS)
			break;
		pw_remote_close(r);
		r = NULL;
		sleep(1);
	}
	ASSERT_NE(NULL, r) TH_LOG("host %u stays down", host_of(i));
	/* CONNECT_ACK's table reaches the last host; absent ones are 0. */
	EXPECT_EQ(1u, pw_remote_host_devices(r, 0));
	EXPECT_EQ(1u, pw_remote_host_devices(r, HOSTS - 2));
	EXPECT_EQ(0u, pw_remote_host_devices(r, HOSTS - 1));
	EXPECT_EQ(1u, pw_remote_host_devices(r, LAST_HOST));

	fn = test_fn_add_one("inc", 1, 0);
	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_remote_function(r, fn, &fn_id));
	p = pw_rprog_begin();
	v = pw_rprog_arg(p, host_of(0), 0, PWTPU_DT_F32, 1, shape);
	for (i = 0; i < HOSTS; i++)
		ASSERT_EQ(0, pw_rprog_call(p, fn, fn_id, host_of(i), 0, &v, 1,
					   &v));
	ASSERT_EQ(0, pw_rprog_results(p, &v, 1));
	ASSERT_EQ(0, pw_remote_program(r, p, &prog));
	pw_rprog_free(p);
	pw_fn_put(fn);

	/* Each run starts from the last one's result, uploaded to host 0. */
	x = 0;
	for (run = 1; run <= 3; run++) {
		ASSERT_EQ(0, pw_remote_buffer(r, host_of(0), 0, PWTPU_DT_F32,
					      1, shape, &x, &arg));
		ASSERT_EQ(0, pw_remote_run(r, prog, &arg, 1, &res, 1));
		x = -1;
		ASSERT_EQ(0, pw_remote_read(r, LAST_HOST, res, &x, sizeof(x)));
		EXPECT_EQ((float)(HOSTS * run), x);
		pw_remote_free(r, host_of(0), arg);
		pw_remote_free(r, LAST_HOST, res);
	}
	/*
	 * The controller's DONE alone ends a run: every worker's DONE must
	 * have been taken too, none refused as from a host the run is not
	 * on (PROGRAM_ACK's set of hosts, past the first 64).
	 */
	EXPECT_EQ(0u, r->node.stats.refused_by[PW_WIRE_DONE]);
	EXPECT_EQ(0u, r->node.stats.refused);
	pw_remote_close(r);
}

/* The wire numbers hosts 0..PW_WIRE_MAX_HOSTS - 1; pathwaysd says so. */
TEST(a_host_past_the_largest_cluster_is_refused)
{
	char exe[4096], cmd[4200], out[512];

	test_build_path(exe, sizeof(exe), "tools/pathwaysd");
	snprintf(cmd, sizeof(cmd),
		 "%s --role worker --listen 127.0.0.1:0 --controller 127.0.0.1:9 --host-id %u --devices sim:1 2>&1",
		 exe, PW_WIRE_MAX_HOSTS);
	EXPECT_NE(0, test_run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, ": want 0..511")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
