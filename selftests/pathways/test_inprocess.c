// SPDX-License-Identifier: GPL-2.0
/*
 * test_inprocess.c - pw_remote_connect() with no address runs pathwaysd's
 * controller and worker inside the process (runtime/dcn/local.c), joined
 * by the in-process transport: the same code as a cluster, one island.
 * A program chained over the island's devices (copies over the mesh
 * links, which count the bytes) gives the right values, 64 runs in flight each their own; slices
 * placed by the controller's resource manager hold sharded buffers, SPMD
 * calls run one shard per device, all-reduces run as gangs over a slice,
 * and values move shard by shard between slices, or are resharded
 * between slices of other sizes; a slice no island can
 * hold is refused clearly; two clients' all-reduces on the same devices,
 * many in flight, all complete (the worker gang-schedules them in the
 * controller's order); clients of the process share the cluster but not
 * their buffers; the island is claimed while it runs and HBM returns to
 * where it was when the last client leaves; the process sets its own
 * controller's policy and weights. Runs in the testbed with
 * pwtpu.ko loaded.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../runtime/dcn/rclient.h"

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

/* The program y = @fn(x) over f32[1] on @slice, registered. */
static uint32_t one_node_program(struct __test_metadata *_metadata,
				 struct pw_remote *r, struct pw_fn *fn,
				 uint32_t fid, uint32_t slice)
{
	struct pw_rprog *p = pw_rprog_begin();
	const uint32_t one = 1;
	uint32_t prog = 0;
	int v;

	v = pw_rprog_arg_sharded(p, slice, 1, PWTPU_DT_F32, 1, &one);
	EXPECT_EQ(0, pw_rprog_call_sharded(p, fn, fid, slice, 1, &v, 1, &v));
	EXPECT_EQ(0, pw_rprog_results(p, &v, 1));
	EXPECT_EQ(0, pw_remote_program(r, p, &prog)) TH_LOG("%s", pw_last_error());
	pw_rprog_free(p);
	return prog;
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

/* One slice over every device, placed by the controller; x + 1 per shard. */
TEST_F(inproc, spmd_over_a_placed_slice)
{
	const uint32_t shape[1] = { N };
	float x[PWT_MAX_DEVICES * N], got[PWT_MAX_DEVICES * N];
	struct pw_fn *fn = plus_fn(1.0f);
	struct pw_rprog *p = pw_rprog_begin();
	uint32_t slice, fid, prog, in, out;
	unsigned int n = self->ndev, i;
	int v;

	ASSERT_EQ(0, pw_remote_slice(self->r, n, NULL, &slice))
		TH_LOG("%s", pw_last_error());
	/* The controller says where each virtual device went: all distinct. */
	for (i = 0; i < n; i++) {
		int d = pw_remote_slice_device(self->r, slice, i);
		unsigned int j;

		ASSERT_LE(0, d);
		ASSERT_GT((int)n, d);
		for (j = 0; j < i; j++)
			ASSERT_NE(d, pw_remote_slice_device(self->r, slice, j));
	}
	EXPECT_EQ(-EINVAL, pw_remote_slice_device(self->r, slice, n));
	for (i = 0; i < n * N; i++)
		x[i] = (float)i;
	ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, slice, PWTPU_DT_F32, 1,
					      shape, x, false, &in))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_function(self->r, fn, &fid));
	v = pw_rprog_arg_sharded(p, slice, n, PWTPU_DT_F32, 1, shape);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, fn, fid, slice, n, &v, 1, &v));
	ASSERT_EQ(0, pw_rprog_results(p, &v, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &in, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, out, got, n * N * sizeof(float)))
		TH_LOG("%s", pw_last_error());
	for (i = 0; pwt_values_checked() && i < n * N; i++)
		ASSERT_EQ(x[i] + 1, got[i]) TH_LOG("element %u", i);
	pw_rprog_free(p);
	pw_fn_put(fn);
}

#define LOGICAL	24	/* elements of a resharded vector */

/*
 * A vector of LOGICAL floats on a slice of @from devices, y = x + 100 on
 * a slice of @to: the controller reshards it (each destination shard
 * gathers its byte range from the source shards that hold it) and y is
 * x + 100 element for element.
 */
static void check_reshard(struct __test_metadata *_metadata,
			  struct pw_remote *r, unsigned int from,
			  unsigned int to)
{
	const uint32_t src_shape[1] = { LOGICAL / from };
	const uint32_t dst_shape[1] = { LOGICAL / to };
	struct pw_fn_builder *b = pw_fn_begin("plus100");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, dst_shape);
	float v[LOGICAL], got[LOGICAL];
	uint32_t a, d, fid, prog, in, out;
	struct pw_rprog *p;
	struct pw_fn *fn;
	unsigned int i;
	int val;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 100)));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_EQ(0, pw_remote_slice(r, from, NULL, &a))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_slice(r, to, NULL, &d))
		TH_LOG("%s", pw_last_error());
	for (i = 0; i < LOGICAL; i++)
		v[i] = 3.0f * i + 1;
	ASSERT_EQ(0, pw_remote_buffer_sharded(r, a, PWTPU_DT_F32, 1, src_shape,
					      v, false, &in));
	ASSERT_EQ(0, pw_remote_function(r, fn, &fid));
	p = pw_rprog_begin();
	val = pw_rprog_arg_sharded(p, a, from, PWTPU_DT_F32, 1, src_shape);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, fn, fid, d, to, &val, 1, &val))
		TH_LOG("%u -> %u: %s", from, to, pw_last_error());
	ASSERT_EQ(0, pw_rprog_results(p, &val, 1));
	ASSERT_EQ(0, pw_remote_program(r, p, &prog))
		TH_LOG("%u -> %u: %s", from, to, pw_last_error());
	ASSERT_EQ(0, pw_remote_run(r, prog, &in, 1, &out, 1))
		TH_LOG("%u -> %u: %s", from, to, pw_last_error());
	ASSERT_EQ(0, pw_remote_read(r, 0, out, got, sizeof(got)));
	for (i = 0; pwt_values_checked() && i < LOGICAL; i++)
		ASSERT_EQ(v[i] + 100, got[i])
			TH_LOG("%u -> %u shards: element %u", from, to, i);
	pw_rprog_free(p);
	pw_fn_put(fn);
	pw_remote_free(r, 0, in);
	pw_remote_free(r, 0, out);
}

/*
 * y[i+1] = y[i] + 1 for 40 steps of 8 MiB on one device of 64 MiB (five
 * times its HBM in all), each input freed right after the call reading
 * it: runs wait for HBM at the worker and go as memory frees, and a FREE
 * that reaches the worker before the output it names is made (its run
 * still waiting) frees it once it is.
 */
TEST_F_TIMEOUT(inproc, a_chain_five_times_hbm_waits_instead_of_failing, 300)
{
	const uint32_t elems = 2 << 20, steps = 40;
	struct pw_fn_builder *b = pw_fn_begin("plus1");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, &elems);
	uint32_t slice, fid, prog, y, next, ticket = 0;
	struct pw_rprog *p = pw_rprog_begin();
	float *host = malloc(elems * sizeof(float));
	float *got = malloc(elems * sizeof(float));
	struct pw_fn *fn;
	unsigned int i, bad = 0;
	int v;

	ASSERT_NE(NULL, host);
	ASSERT_NE(NULL, got);
	if (5 * pwt_hbm_total() < (uint64_t)steps * elems * sizeof(float))
		TH_LOG("HBM of %llu bytes: the chain fits, no run waits",
		       (unsigned long long)pwt_hbm_total());
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1)));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_EQ(0, pw_remote_slice(self->r, 1, NULL, &slice));
	ASSERT_EQ(0, pw_remote_function(self->r, fn, &fid));
	v = pw_rprog_arg_sharded(p, slice, 1, PWTPU_DT_F32, 1, &elems);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, fn, fid, slice, 1, &v, 1, &v));
	ASSERT_EQ(0, pw_rprog_results(p, &v, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog));
	for (i = 0; i < elems; i++)
		host[i] = (float)(i % 1000);
	ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, slice, PWTPU_DT_F32, 1,
					      &elems, host, false, &y));
	for (i = 0; i < steps; i++) {
		ASSERT_EQ(0, pw_remote_run_async(self->r, prog, &y, 1, &next, 1,
						 &ticket))
			TH_LOG("step %u: %s", i, pw_last_error());
		if (i + 1 < steps)
			pw_remote_forget(self->r, ticket);
		ASSERT_EQ(0, pw_remote_free(self->r, 0, y));
		y = next;
	}
	ASSERT_EQ(0, pw_remote_wait(self->r, ticket)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, y, got, elems * sizeof(float)))
		TH_LOG("%s", pw_last_error());
	for (i = 0; pwt_values_checked() && i < elems; i++)
		bad += got[i] != host[i] + steps;
	EXPECT_EQ(0u, bad);
	ASSERT_EQ(0, pw_remote_free(self->r, 0, y));
	pw_rprog_free(p);
	pw_fn_put(fn);
	free(host);
	free(got);
}

/*
 * A device taken out of service while runs wait for it: y = slow(x) on
 * one device, then z = y + 1 on the device taken out, three runs. What
 * has not reached that device fails -ENODEV; new runs on it fail at the
 * controller; runs elsewhere go on; back in service, runs on it go.
 */
TEST_F_TIMEOUT(inproc, a_device_out_of_service_fails_what_waits_for_it, 300)
{
	const uint32_t one = 1;
	struct pw_fn_builder *b = pw_fn_begin("slow_plus1");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, &one);
	uint32_t sa, sc, fslow, fplus, prog, pc, xc, z[3], t[3];
	struct pw_rprog *p = pw_rprog_begin();
	struct pw_fn *slow, *plus;
	unsigned int i;
	float v = 1, got;
	int dev, y;

	pw_fn_delay(b, 500000000);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1)));
	ASSERT_EQ(0, pw_fn_build(b, &slow));
	ASSERT_EQ(0, pw_remote_function(self->r, slow, &fslow));
	ASSERT_EQ(0, pw_remote_slice(self->r, 1, NULL, &sc));
	ASSERT_EQ(0, pw_remote_slice(self->r, 1, NULL, &sa));
	b = pw_fn_begin("plus1");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, &one);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1)));
	ASSERT_EQ(0, pw_fn_build(b, &plus));
	ASSERT_EQ(0, pw_remote_function(self->r, plus, &fplus));
	y = pw_rprog_arg_sharded(p, sc, 1, PWTPU_DT_F32, 1, &one);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, slow, fslow, sc, 1, &y, 1, &y));
	ASSERT_EQ(0, pw_rprog_call_sharded(p, plus, fplus, sa, 1, &y, 1, &y));
	ASSERT_EQ(0, pw_rprog_results(p, &y, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	pc = one_node_program(_metadata, self->r, slow, fslow, sc);
	ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, sc, PWTPU_DT_F32, 1,
					      &one, &v, false, &xc));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pw_remote_run_async(self->r, prog, &xc, 1, &z[i], 1,
						 &t[i]));
	dev = pw_remote_slice_device(self->r, sa, 0);
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, pw_remote_set_device(self->r, 0, (unsigned int)dev, false))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(-EALREADY,
		  pw_remote_set_device(self->r, 0, (unsigned int)dev, false));
	/* 1.5 s of slow work ahead of them: none reached the device. */
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-ENODEV, pw_remote_wait(self->r, t[i]))
			TH_LOG("run %u: %s", i, pw_last_error());
	/* New runs on it fail at the controller; elsewhere they go on. */
	EXPECT_EQ(-ENODEV, pw_remote_run(self->r, prog, &xc, 1, &z[0], 1));
	ASSERT_EQ(0, pw_remote_run(self->r, pc, &xc, 1, &z[1], 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, z[1], &got, sizeof(got)));
	if (pwt_values_checked())
		EXPECT_EQ(v + 1, got);
	EXPECT_EQ(-ENODEV, pw_remote_set_device(self->r, 0, 63, false));
	ASSERT_EQ(0, pw_remote_set_device(self->r, 0, (unsigned int)dev, true));
	EXPECT_EQ(-EALREADY,
		  pw_remote_set_device(self->r, 0, (unsigned int)dev, true));
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &xc, 1, &z[2], 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, z[2], &got, sizeof(got)));
	if (pwt_values_checked())
		EXPECT_EQ(v + 2, got);
	pw_rprog_free(p);
	pw_fn_put(slow);
	pw_fn_put(plus);
}

/* More shards, fewer, unaligned ranges, and every device to one. */
TEST_F(inproc, reshard_between_slice_sizes)
{
	static const unsigned int pairs[][2] = {
		{ 2, 4 }, { 4, 2 }, { 3, 2 }, { 2, 3 }, { 1, 8 }, { 8, 1 },
		{ 8, 3 },
	};
	uint64_t links = pwt_link_bytes();
	unsigned int i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (pairs[i][0] <= self->ndev && pairs[i][1] <= self->ndev)
			check_reshard(_metadata, self->r, pairs[i][0],
				      pairs[i][1]);
	/* The pieces between devices went over the mesh links. */
	if (self->ndev > 1) {
		EXPECT_LT(links, pwt_link_bytes());
	}
}

/*
 * y = all_reduce_sum(x) + 1 over a 2x2 slice, then moved shard by shard
 * to a second slice and added to there: every shard of the result is
 * the sum plus 2.
 */
TEST_F(inproc, all_reduce_as_a_gang_and_a_move_between_slices)
{
	const uint32_t shape[1] = { N };
	float x[4 * N], got[4 * N], sum[N] = { 0 };
	struct pw_fn *ar = pwt_allreduce_add_fn("ar", 1.0, N);
	struct pw_fn *inc = plus_fn(1.0f);
	struct pw_rprog *p = pw_rprog_begin();
	uint32_t a, b, far, finc, prog, in, out;
	unsigned int i;
	int v;

	PWT_NEED_DEVICES(4);
	ASSERT_NE(NULL, ar);
	ASSERT_EQ(0, pw_remote_slice(self->r, 4, "2x2", &a))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_slice(self->r, 4, NULL, &b))
		TH_LOG("%s", pw_last_error());
	for (i = 0; i < 4 * N; i++) {
		x[i] = (float)(i * 3 % 7);
		sum[i % N] += x[i];
	}
	ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, a, PWTPU_DT_F32, 1,
					      shape, x, false, &in));
	ASSERT_EQ(0, pw_remote_function(self->r, ar, &far))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_function(self->r, inc, &finc));
	v = pw_rprog_arg_sharded(p, a, 4, PWTPU_DT_F32, 1, shape);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, ar, far, a, 4, &v, 1, &v));
	ASSERT_EQ(0, pw_rprog_call_sharded(p, inc, finc, b, 4, &v, 1, &v));
	ASSERT_EQ(0, pw_rprog_results(p, &v, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pw_remote_run(self->r, prog, &in, 1, &out, 1))
			TH_LOG("run %u: %s", i, pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, out, got, sizeof(got)));
	for (i = 0; pwt_values_checked() && i < 4 * N; i++)
		ASSERT_EQ(sum[i % N] + 2, got[i]) TH_LOG("element %u", i);
	pw_rprog_free(p);
	pw_fn_put(ar);
	pw_fn_put(inc);
}

TEST_F(inproc, a_slice_no_island_can_hold_is_refused)
{
	uint32_t s;

	EXPECT_EQ(-E2BIG, pw_remote_slice(self->r, self->ndev + 1, NULL, &s));
	TH_LOG("%s", pw_last_error());
	EXPECT_NE(NULL, strstr(pw_last_error(), "no island"));
	EXPECT_EQ(-EINVAL, pw_remote_slice(self->r, 4, "3x3", &s));
	EXPECT_EQ(-EINVAL, pw_remote_slice(self->r, 0, NULL, &s));
}

#define GANG_RUNS	300
#define IN_FLIGHT	32

struct gang_client {
	unsigned int ndev;
	float base;
	int err;
	char why[200];
};

/* A client of its own: GANG_RUNS all-reduces over every device. */
static void *gang_client_main(void *arg)
{
	struct gang_client *gc = arg;

	gc->err = pwt_allreduce_runs(NULL, gc->ndev, gc->base, GANG_RUNS,
				     IN_FLIGHT, gc->why, sizeof(gc->why));
	return NULL;
}

/*
 * Two clients' all-reduces over the same devices, many in flight each:
 * the island's worker puts whole gangs on the devices in the order the
 * controller sent them, so none waits in the driver for a peer stuck
 * behind the other client's gang (no -ETIMEDOUT).
 */
TEST_F_TIMEOUT(inproc, two_clients_all_reduce_on_the_same_devices, 600)
{
	struct gang_client gc[2] = {
		{ .ndev = self->ndev, .base = 1.0f },
		{ .ndev = self->ndev, .base = 2.0f },
	};
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, gang_client_main,
					    &gc[i]));
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, gc[i].err) TH_LOG("client %d: %s", i, gc[i].why);
	}
}

/*
 * y = x + 1 on slice B, then an all-reduce of y on slice A: each member
 * of the gang waits for its own shard's move, and the gang goes only
 * whole, whichever move lands first. Five runs, each checked.
 */
TEST_F(inproc, a_gang_fed_by_moves_goes_whole)
{
	const uint32_t shape[1] = { N };
	float x[4 * N], got[4 * N], sum[N];
	struct pw_fn *ar = pwt_allreduce_add_fn("ar", 0.0, N);
	struct pw_fn *inc = plus_fn(1.0f);
	struct pw_rprog *p = pw_rprog_begin();
	uint32_t a, b, far, finc, prog, in, out;
	unsigned int i, k;
	int v;

	PWT_NEED_DEVICES(4);
	ASSERT_EQ(0, pw_remote_slice(self->r, 4, NULL, &a));
	ASSERT_EQ(0, pw_remote_slice(self->r, 4, NULL, &b));
	ASSERT_EQ(0, pw_remote_function(self->r, ar, &far));
	ASSERT_EQ(0, pw_remote_function(self->r, inc, &finc));
	v = pw_rprog_arg_sharded(p, b, 4, PWTPU_DT_F32, 1, shape);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, inc, finc, b, 4, &v, 1, &v));
	ASSERT_EQ(0, pw_rprog_call_sharded(p, ar, far, a, 4, &v, 1, &v));
	ASSERT_EQ(0, pw_rprog_results(p, &v, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	for (k = 0; k < 5; k++) {
		memset(sum, 0, sizeof(sum));
		for (i = 0; i < 4 * N; i++) {
			x[i] = (float)((i + k) % 9);
			sum[i % N] += x[i] + 1;
		}
		ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, b, PWTPU_DT_F32,
						      1, shape, x, false, &in));
		ASSERT_EQ(0, pw_remote_run(self->r, prog, &in, 1, &out, 1))
			TH_LOG("run %u: %s", k, pw_last_error());
		ASSERT_EQ(0, pw_remote_read(self->r, 0, out, got, sizeof(got)));
		for (i = 0; pwt_values_checked() && i < 4 * N; i++)
			ASSERT_EQ(sum[i % N], got[i]) TH_LOG("run %u element %u", k, i);
	}
	pw_rprog_free(p);
	pw_fn_put(ar);
	pw_fn_put(inc);
}

/*
 * The process runs its controller, so it is its operator: it sets the
 * island's policy and weights (pathwaysd refuses a client that), and
 * all-reduces held by proportional share with one run in flight on the
 * island all complete with the right values.
 */
TEST_F_TIMEOUT(inproc, the_process_administers_its_own_scheduler, 300)
{
	char why[256] = "";

	ASSERT_EQ(0, pw_remote_set_policy(self->r, PW_SCHED_SHARE, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_set_weight(self->r, "allreduce", 4))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pwt_allreduce_runs(NULL, self->ndev, 1.5f, 40, 16, why,
					sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, pw_remote_set_policy(self->r, PW_SCHED_FIFO, 0));
}

/*
 * One runtime in a process: pathways.h's client and a wire client both
 * reach the one controller the process runs, and it stays up for the
 * one still connected when the other leaves.
 */
TEST(one_process_one_runtime)
{
	struct pw_client *c = pwt_connect("embedded", 0);
	const uint32_t shape[1] = { N };
	float x[N] = { 1, 2, 3, 4 }, got[N];
	struct pw_remote *r;
	uint32_t id;

	PWT_NEED_DEVICES(1);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, pw_remote_connect(NULL, "second", &r))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ((unsigned int)pw_num_devices(c),
		  pw_remote_host_devices(r, 0));
	pw_disconnect(c);
	ASSERT_EQ(0, pw_remote_buffer(r, 0, 0, PWTPU_DT_F32, 1, shape, x, &id))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(r, 0, id, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(x, got, sizeof(x)));
	pw_remote_close(r);
}

TEST_HARNESS_MAIN
