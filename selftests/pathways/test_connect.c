// SPDX-License-Identifier: GPL-2.0
/*
 * test_connect.c - pathways.h against a pathwaysd controller: the same
 * calls as with the controller a process runs itself, with an address
 * (or PATHWAYS_CONTROLLER) instead of none. A controller and this host's worker run as daemons
 * on loopback; the client makes slices the controller places, sharded
 * buffers, SPMD calls (an all-reduce among them), and a traced program
 * over two slices with a captured buffer, run twice; the values are
 * checked. Weights, policies and devices out of service are the
 * operator's (-EPERM), and when the client
 * disconnects the workers hold nothing of it. Runs in the testbed with
 * pwtpu.ko loaded.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pw_common.h"
#include "kselftest_harness.h"

#define CTL_PORT	7750
#define CTL_ADDR	"127.0.0.1:7750"
#define N		4

FIXTURE(conn) {
	int ctl;
	int worker;
	uint64_t hbm_before;
	struct pw_client *c;
	unsigned int ndev;
};

FIXTURE_SETUP(conn)
{
	struct pw_connect_opts o = { .address = CTL_ADDR, .name = "conn" };
	unsigned int i;
	int ret = -1;

	self->ctl = self->worker = 0;
	self->c = NULL;
	PWT_NEED_DEVICES(4);
	self->hbm_before = pwt_hbm_settle();
	ASSERT_EQ(0, pwt_cluster_start(CTL_PORT, NULL, &self->ctl,
				       &self->worker));
	/* Until the worker has registered its island. */
	for (i = 0; i < 100; i++) {
		ret = pw_connect(&o, &self->c);
		if (!ret && pw_num_devices(self->c) > 0)
			break;
		if (!ret)
			pw_disconnect(self->c);
		self->c = NULL;
		pwt_sleep_ms(100);
	}
	ASSERT_NE(NULL, self->c) TH_LOG("%s", pw_last_error());
	self->ndev = (unsigned int)pw_num_devices(self->c);
}

FIXTURE_TEARDOWN(conn)
{
	uint64_t used;

	pw_disconnect(self->c);
	/* BYE: the worker freed everything the client had. */
	if (self->ctl > 0) {
		used = pwt_hbm_wait(self->hbm_before, 5000);
		EXPECT_EQ(self->hbm_before, used);
	}
	pwt_daemon_stop(self->worker);
	pwt_daemon_stop(self->ctl);
}

static struct pw_slice *slice_of(struct pw_client *c, unsigned int n,
				 const char *shape)
{
	struct pw_slice *s = NULL;
	struct pw_vset *vs;

	if (pw_make_virtual_device_set(c, &vs) || pw_add_slice(vs, n, shape, &s))
		fprintf(stderr, "# slice of %u: %s\n", n, pw_last_error());
	return s;
}

TEST_F(conn, the_cluster_has_this_hosts_devices)
{
	EXPECT_EQ(pwt_sysfs_devices(), self->ndev);
}

/* x + 1 on every shard of a 2x2 slice; the program is made once. */
TEST_F(conn, spmd_calls_on_a_placed_slice)
{
	struct pw_fn *fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, N);
	struct pw_slice *s = slice_of(self->c, 4, "2x2");
	float x[4 * N], got[4 * N];
	struct pw_buffer *in, *y, *z;
	unsigned int i;

	ASSERT_NE(NULL, fn);
	ASSERT_NE(NULL, s);
	EXPECT_EQ(4u, pw_slice_size(s));
	for (i = 0; i < 4 * N; i++)
		x[i] = (float)i;
	in = pwt_upload(self->c, s, x, N, false);
	ASSERT_NE(NULL, in);
	EXPECT_EQ(4u, pw_buffer_num_shards(in));
	ASSERT_EQ(0, pw_call(self->c, fn, s, &in, 1, &y, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_call(self->c, fn, s, &y, 1, &z, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pwt_fetch(z, got, 4 * N));
	for (i = 0; pwt_values_checked() && i < 4 * N; i++)
		ASSERT_EQ(x[i] + 2, got[i]) TH_LOG("element %u", i);
	pw_buffer_put(in);
	pw_buffer_put(y);
	pw_buffer_put(z);
	pw_fn_put(fn);
}

TEST_F(conn, an_all_reduce_over_the_slice)
{
	struct pw_fn *fn = pwt_allreduce_add_fn("ar", 0.5, N);
	struct pw_slice *s = slice_of(self->c, 4, NULL);
	float x[4 * N], got[4 * N], sum[N] = { 0 };
	struct pw_buffer *in, *y;
	unsigned int i;

	ASSERT_NE(NULL, fn);
	ASSERT_NE(NULL, s);
	for (i = 0; i < 4 * N; i++) {
		x[i] = (float)(i % 7);
		sum[i % N] += x[i];
	}
	in = pwt_upload(self->c, s, x, N, false);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, pw_call(self->c, fn, s, &in, 1, &y, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pwt_fetch(y, got, 4 * N));
	for (i = 0; pwt_values_checked() && i < 4 * N; i++)
		ASSERT_EQ(sum[i % N] + 0.5f, got[i]) TH_LOG("element %u", i);
	pw_buffer_put(in);
	pw_buffer_put(y);
	pw_fn_put(fn);
}

/*
 * A traced program over two slices: y = (arg + 1) on slice A, then
 * y * 2 + captured on slice B (moved shard by shard). Registered once at
 * pw_program_end(), run twice with different arguments.
 */
TEST_F(conn, a_traced_program_over_two_slices)
{
	struct pw_fn *inc = pwt_scalar_fn("inc", PWTPU_OP_ADD, 1, N);
	struct pw_fn *dbl = pwt_scalar_fn("dbl", PWTPU_OP_MUL, 2, N);
	const uint32_t shape[1] = { N };
	struct pw_fn_builder *b = pw_fn_begin("add");
	pw_val p0 = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	pw_val p1 = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_slice *sa = slice_of(self->c, 2, NULL);
	struct pw_slice *sb = slice_of(self->c, 2, NULL);
	struct pw_buffer *arg, *t1, *t2, *t3, *cap, *in, *out;
	float x[2 * N], c[2 * N], got[2 * N];
	struct pw_program *prog;
	struct pw_fn *add;
	unsigned int i, k;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, p0, p1));
	ASSERT_EQ(0, pw_fn_build(b, &add));
	ASSERT_NE(NULL, sa);
	ASSERT_NE(NULL, sb);
	for (i = 0; i < 2 * N; i++)
		c[i] = 100.0f * (float)i;
	cap = pwt_upload(self->c, sb, c, N, false);
	ASSERT_NE(NULL, cap);
	ASSERT_EQ(0, pw_program_begin(self->c));
	ASSERT_EQ(0, pw_program_arg(self->c, sa, PWTPU_DT_F32, 1, shape, &arg));
	ASSERT_EQ(0, pw_call(self->c, inc, sa, &arg, 1, &t1, 1));
	ASSERT_EQ(0, pw_call(self->c, dbl, sb, &t1, 1, &t2, 1));
	ASSERT_EQ(0, pw_call(self->c, add, sb, (struct pw_buffer *[]){ t2, cap },
			     2, &t3, 1));
	ASSERT_EQ(0, pw_program_end(self->c, &t3, 1, &prog))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(6u, pw_program_num_nodes(prog));	/* 2 args, 3 calls, results */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 2 * N; i++)
			x[i] = (float)(i + 10 * k);
		in = pwt_upload(self->c, sa, x, N, false);
		ASSERT_NE(NULL, in);
		ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_PARALLEL, &in, 1,
					    &out, 1))
			TH_LOG("%s", pw_last_error());
		ASSERT_EQ(0, pwt_fetch(out, got, 2 * N));
		for (i = 0; pwt_values_checked() && i < 2 * N; i++)
			ASSERT_EQ((x[i] + 1) * 2 + c[i], got[i])
				TH_LOG("run %u element %u", k, i);
		pw_buffer_put(in);
		pw_buffer_put(out);
	}
	pw_buffer_put(arg);
	pw_buffer_put(t1);
	pw_buffer_put(t2);
	pw_buffer_put(t3);
	pw_buffer_put(cap);
	pw_program_free(prog);
	pw_fn_put(inc);
	pw_fn_put(dbl);
	pw_fn_put(add);
}

/* Many calls whose results nobody waits for: none stays in flight. */
TEST_F(conn, results_put_unwaited_leave_nothing_in_flight)
{
	struct pw_fn *fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, N);
	struct pw_slice *s = slice_of(self->c, 1, NULL);
	float x[N] = { 1, 2, 3, 4 }, got[N];
	struct pw_buffer *in, *y;
	unsigned int k;

	ASSERT_NE(NULL, fn);
	in = pwt_upload(self->c, s, x, N, false);
	ASSERT_NE(NULL, in);
	/* More than the 1024 runs a client may have unwaited. */
	for (k = 0; k < 1500; k++) {
		ASSERT_EQ(0, pw_call(self->c, fn, s, &in, 1, &y, 1))
			TH_LOG("call %u: %s", k, pw_last_error());
		pw_buffer_put(y);
	}
	ASSERT_EQ(0, pw_call(self->c, fn, s, &in, 1, &y, 1));
	ASSERT_EQ(0, pwt_fetch(y, got, N));
	if (pwt_values_checked())
		EXPECT_EQ(2.0f, got[0]);
	pw_buffer_put(y);
	pw_buffer_put(in);
	pw_fn_put(fn);
}

TEST_F(conn, the_operator_owns_weights_and_devices)
{
	struct pw_connect_opts o = { .address = CTL_ADDR, .weight = 4 };
	struct pw_slice *s = slice_of(self->c, 1, NULL);
	struct pw_client *other;

	EXPECT_EQ(-EPERM, pw_set_weight(self->c, 8));
	TH_LOG("%s", pw_last_error());
	EXPECT_EQ(-EPERM, pw_set_sched_policy(self->c, PW_SCHED_SHARE, 0));
	EXPECT_EQ(-EPERM, pw_connect(&o, &other));
	EXPECT_EQ(-EPERM, pw_remove_device(self->c, 0));
	EXPECT_EQ(-EPERM, pw_add_device(self->c, 0));
	EXPECT_EQ(-EINVAL, pw_remove_device(self->c, 1000));
	/* Where the controller placed it: a device of the island. */
	ASSERT_NE(NULL, s);
	EXPECT_LE(0, pw_slice_device(s, 0));
	EXPECT_GT((int)self->ndev, pw_slice_device(s, 0));
	EXPECT_EQ(-EINVAL, pw_slice_device(s, 1));
	/* One host's island: the worker the cluster started, host 0. */
	EXPECT_EQ(0, pw_slice_host(s));
	EXPECT_EQ(-EINVAL, pw_slice_host(NULL));
	/* A slice no island can hold. */
	EXPECT_EQ(NULL, slice_of(self->c, self->ndev + 1, NULL));
}

/* PATHWAYS_CONTROLLER when the options name no address. */
TEST_F(conn, the_environment_names_the_controller)
{
	struct pw_client *c2;

	ASSERT_EQ(0, setenv("PATHWAYS_CONTROLLER", CTL_ADDR, 1));
	ASSERT_EQ(0, pw_connect(NULL, &c2)) TH_LOG("%s", pw_last_error());
	unsetenv("PATHWAYS_CONTROLLER");
	/* A client of pathwaysd: it never claimed the island. */
	EXPECT_EQ(-EPERM, pw_set_weight(c2, 2));
	EXPECT_EQ((int)self->ndev, pw_num_devices(c2));
	pw_disconnect(c2);
}

/* The paper's Figure 2 example, run against the controller. */
TEST_F(conn, figure_2_runs_against_the_controller)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 64], line[256] = "";
	FILE *f;

	pwt_pathwaysd_path(exe, sizeof(exe));
	/* build/tools/pathwaysd: build/examples/fig2 is beside its dir */
	snprintf(cmd, sizeof(cmd), "%s/../examples/fig2 --connect %s 2>&1",
		 dirname(exe), CTL_ADDR);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f) && line[0] != '(')
		;
	EXPECT_EQ(0, pclose(f));
	if (pwt_values_checked())
		EXPECT_STREQ("(3 5) (2 4)\n", line);
}

/*
 * A buffer put while the call that reads it has not run yet: the worker
 * pinned it when the plan came, so the call still reads it.
 */
TEST_F(conn, a_buffer_put_early_is_still_read)
{
	struct pw_fn *slow = pwt_slow_add_fn("slow", 1, N, 20000000);
	struct pw_fn *fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, N);
	struct pw_slice *s = slice_of(self->c, 2, NULL);
	float x[2 * N] = { 1, 2, 3, 4, 5, 6, 7, 8 }, got[2 * N];
	struct pw_buffer *in, *y, *z;
	unsigned int i;

	ASSERT_NE(NULL, slow);
	ASSERT_NE(NULL, fn);
	in = pwt_upload(self->c, s, x, N, false);
	ASSERT_NE(NULL, in);
	/* y is made slowly; z reads it; y and in go before z has run. */
	ASSERT_EQ(0, pw_call(self->c, slow, s, &in, 1, &y, 1));
	ASSERT_EQ(0, pw_call(self->c, fn, s, &y, 1, &z, 1));
	pw_buffer_put(y);
	pw_buffer_put(in);
	ASSERT_EQ(0, pwt_fetch(z, got, 2 * N)) TH_LOG("%s", pw_last_error());
	for (i = 0; pwt_values_checked() && i < 2 * N; i++)
		ASSERT_EQ(x[i] + 2, got[i]) TH_LOG("element %u", i);
	pw_buffer_put(z);
	pw_fn_put(slow);
	pw_fn_put(fn);
}

TEST_HARNESS_MAIN
