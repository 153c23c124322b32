// SPDX-License-Identifier: GPL-2.0
/*
 * test_inprocess.c - pw_remote_connect() with no address runs pathwaysd's
 * controller and worker inside the process (runtime/dcn/local.c), joined
 * by the in-process transport: the same code as a cluster, one island.
 * A program chained over the island's devices (copies over the mesh)
 * gives the right values, 64 runs in flight each their own; clients of
 * the process share the cluster but not their buffers; the island is
 * claimed while it runs and HBM returns to where it was when the last
 * client leaves. Runs in the testbed with pwtpu.ko loaded.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pathways/remote.h>

#include "pw_common.h"
#include "kselftest_harness.h"

#define N	4

/* y = x + k over f32[N]. */
static struct pw_fn *plus_fn(float k)
{
	const uint32_t shape[1] = { N };
	struct pw_fn_builder *b = pw_fn_begin("plus");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_fn *fn = NULL;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, k)));
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "# plus: %s\n", pw_last_error());
	return fn;
}

FIXTURE(inproc) {
	struct pw_remote *r;
	uint64_t hbm_before;
	unsigned int ndev;
};

FIXTURE_SETUP(inproc)
{
	PWT_NEED_DEVICES(2);
	self->hbm_before = pwt_hbm_settle();
	ASSERT_EQ(0, pw_remote_connect(NULL, "inproc", &self->r))
		TH_LOG("%s", pw_last_error());
	self->ndev = pw_remote_host_devices(self->r, 0);
}

FIXTURE_TEARDOWN(inproc)
{
	uint64_t used;

	pw_remote_close(self->r);
	/* The last client gone: the worker's files closed, nothing held. */
	used = pwt_hbm_wait(self->hbm_before, 5000);
	EXPECT_EQ(self->hbm_before, used);
}

TEST_F(inproc, the_island_is_this_hosts)
{
	EXPECT_EQ(pwt_sysfs_devices(), self->ndev);
	EXPECT_EQ(0u, pw_remote_host_devices(self->r, 1));
}

/* x + 1 on device 0, + 1 on each next device: a chain over the mesh. */
TEST_F(inproc, chain_over_the_island_and_many_runs_in_flight)
{
	const uint32_t shape[1] = { N };
	struct pw_fn *fn = plus_fn(1.0f);
	struct pw_rprog *p = pw_rprog_begin();
	uint32_t fid, prog, in[64], out[64], ticket[64];
	unsigned int d;
	int v, k, i;

	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_remote_function(self->r, fn, &fid))
		TH_LOG("%s", pw_last_error());
	v = pw_rprog_arg(p, 0, 0, PWTPU_DT_F32, 1, shape);
	for (d = 0; d < self->ndev; d++)
		ASSERT_EQ(0, pw_rprog_call(p, fn, fid, 0, d, &v, 1, &v));
	ASSERT_EQ(0, pw_rprog_results(p, &v, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	for (k = 0; k < 64; k++) {
		float x[N] = { k, k + 1, k + 2, k + 3 };

		ASSERT_EQ(0, pw_remote_buffer(self->r, 0, 0, PWTPU_DT_F32, 1,
					      shape, x, &in[k]));
	}
	for (k = 0; k < 64; k++)
		ASSERT_EQ(0, pw_remote_run_async(self->r, prog, &in[k], 1,
						 &out[k], 1, &ticket[k]))
			TH_LOG("%s", pw_last_error());
	for (k = 63; k >= 0; k--) {
		float got[N];

		ASSERT_EQ(0, pw_remote_wait(self->r, ticket[k]))
			TH_LOG("%s", pw_last_error());
		ASSERT_EQ(0, pw_remote_read(self->r, 0, out[k], got,
					    sizeof(got)));
		for (i = 0; pwt_values_checked() && i < N; i++)
			ASSERT_EQ((float)(k + i + self->ndev), got[i]);
	}
	pw_rprog_free(p);
	pw_fn_put(fn);
}

TEST_F(inproc, clients_share_the_cluster_not_their_buffers)
{
	const uint32_t shape[1] = { N };
	float x[N] = { 1, 2, 3, 4 }, got[N];
	struct pw_remote *other;
	uint32_t id;

	ASSERT_EQ(0, pw_remote_connect(NULL, "other", &other))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_buffer(self->r, 0, 1, PWTPU_DT_F32, 1, shape,
				      x, &id));
	/* The same id names nothing of the other client's. */
	EXPECT_EQ(-ENOENT, pw_remote_read(other, 0, id, got, sizeof(got)));
	ASSERT_EQ(0, pw_remote_read(self->r, 0, id, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(x, got, sizeof(x)));
	pw_remote_close(other);
	/* Still up for the first client. */
	ASSERT_EQ(0, pw_remote_read(self->r, 0, id, got, sizeof(got)));
}

/* While it runs, another process cannot drive the island. */
TEST(another_process_is_refused_while_the_cluster_runs)
{
	struct pw_remote *r;
	int go[2], status;
	pid_t pid;
	char byte;

	PWT_NEED_DEVICES(1);
	ASSERT_EQ(0, pipe(go));
	/* Fork before the runtime's threads start. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct pw_remote *c;
		int ret;

		/* EOF, not a hang, when the parent fails before it says go. */
		close(go[1]);
		if (read(go[0], &byte, 1) != 1)
			_exit(3);
		ret = pw_remote_connect(NULL, "second", &c);
		fprintf(stderr, "# child: %d: %s\n", ret, pw_last_error());
		if (!ret)
			pw_remote_close(c);
		_exit(ret == -EBUSY && strstr(pw_last_error(), "in use") ?
		      0 : 1);
	}
	ASSERT_EQ(0, pw_remote_connect(NULL, "first", &r))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pw_remote_close(r);
	/* Closed: the island is free for an embedded client. */
	{
		struct pw_client *c = pwt_connect("after", 0);

		EXPECT_NE(NULL, c);
		pw_disconnect(c);
	}
	close(go[0]);
	close(go[1]);
}

TEST_HARNESS_MAIN
