// SPDX-License-Identifier: GPL-2.0
/*
 * test_remote.c - remote clients of a pathwaysd cluster of two or more
 * hosts (runtime/dcn/rclient.h), run on a testbed host by
 * selftests/dcn/remote-scenario.sh with $PW_CONTROLLER set.
 *
 * The pipeline test puts the four layers of a model on four devices of
 * two islands (host 0, host 1, host 1, host 0), so activations cross the
 * DCN twice and a host's mesh once per micro-batch, and checks the
 * result bit for bit against the four layers fused in one function on
 * one device. It appends a digest of the result to $PW_DIGEST so that
 * the scenario can compare the RDMA and TCP data planes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../runtime/dcn/rclient.h"
#include "../../runtime/dcn/roles.h"

#include "kselftest_harness.h"

#define STAGES	4
#define ROWS	8
#define WIDTH	16
#define MICRO	4

static float rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static float weights[STAGES][WIDTH * WIDTH];
static float biases[STAGES][ROWS * WIDTH];

static void make_weights(void)
{
	unsigned int seed = 7, s, i;

	for (s = 0; s < STAGES; s++) {
		for (i = 0; i < WIDTH * WIDTH; i++)
			weights[s][i] = rnd(&seed) / 4;
		for (i = 0; i < ROWS * WIDTH; i++)
			biases[s][i] = rnd(&seed) / 8;
	}
}

/* Layers @first..@first+@n-1: x -> tanh(x @ w + b), weights as constants. */
static struct pw_fn *layers_fn(unsigned int first, unsigned int n)
{
	const uint32_t sx[2] = { ROWS, WIDTH }, sw[2] = { WIDTH, WIDTH };
	struct pw_fn_builder *b = pw_fn_begin("layers");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 2, sx);
	struct pw_fn *fn = NULL;
	unsigned int l;

	for (l = first; l < first + n; l++) {
		pw_val w = pw_fn_const(b, PWTPU_DT_F32, 2, sw, weights[l]);
		pw_val bias = pw_fn_const(b, PWTPU_DT_F32, 2, sx, biases[l]);

		x = pw_fn_unary(b, PWTPU_OP_TANH,
				pw_fn_binary(b, PWTPU_OP_ADD,
					     pw_fn_matmul(b, x, w), bias));
	}
	pw_fn_result(b, x);
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "layers: %s\n", pw_last_error());
	return fn;
}

static struct pw_fn *add_fn(unsigned int n)
{
	const uint32_t shape[1] = { n };
	struct pw_fn_builder *b = pw_fn_begin("add");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	pw_val y = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_fn *fn = NULL;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x, y));
	pw_fn_build(b, &fn);
	return fn;
}

static uint64_t fnv(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

FIXTURE(remote) {
	struct pw_remote *r;
};

FIXTURE_SETUP(remote)
{
	const char *ctl = getenv("PW_CONTROLLER");

	ASSERT_NE(NULL, ctl) TH_LOG("set PW_CONTROLLER=ip:port");
	ASSERT_EQ(0, pw_remote_connect(ctl, "test_remote", &self->r))
		TH_LOG("%s", pw_last_error());
	ASSERT_GE(pw_remote_host_devices(self->r, 0), 2u);
	ASSERT_GE(pw_remote_host_devices(self->r, 1), 2u);
	make_weights();
}

FIXTURE_TEARDOWN(remote)
{
	pw_remote_close(self->r);
}

TEST_F_TIMEOUT(remote, buffer_round_trip, 300)
{
	/* 40000 bytes: 31 BUFFER parts each way. */
	static float in[10000], out[10000];
	const uint32_t shape[1] = { 10000 };
	uint32_t id;
	int i;

	for (i = 0; i < 10000; i++)
		in[i] = (float)i * 0.5f;
	ASSERT_EQ(0, pw_remote_buffer(self->r, 1, 1, PWTPU_DT_F32, 1, shape,
				      in, &id)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 1, id, out, sizeof(out)))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, memcmp(in, out, sizeof(in)));
	ASSERT_EQ(0, pw_remote_free(self->r, 1, id));
	/* Gone: reading it again is a clear error. */
	ASSERT_EQ(-ENOENT, pw_remote_read(self->r, 1, id, out, sizeof(out)));
}

/* Sequenced messages the client sent to and had from the controller. */
static uint64_t control_messages(struct pw_remote *r)
{
	const struct pw_rchan_stats *st;
	uint64_t n;

	pw_rc_lock(r);
	st = pw_rchan_stats(r->ctl->ch);
	n = st->sent + st->delivered;
	pw_rc_unlock(r);
	return n;
}

/*
 * Host data over the data plane (wire version 6): a 4 MiB shard goes
 * straight into its device buffer and back, over the data plane the
 * cluster's workers use (RDMA or TCP), in a handful of control messages
 * where BUFFER parts would take 3,237 each way; with PATHWAYS_DATA=off
 * the same bytes go in parts and come back the same.
 */
TEST_F_TIMEOUT(remote, host_data_over_the_data_plane, 300)
{
	const uint32_t shape[1] = { 1u << 20 };
	const size_t bytes = 4u << 20;
	const char *kind = getenv("PW_DATA_KIND");
	const char *netem = getenv("PWTPU_DCN_NETEM");
	float *in, *out;
	struct pw_remote *parts;
	uint64_t before, used;
	uint32_t id;
	size_t i;

	/*
	 * soft-RoCE recovers a lost packet of an RC write by go-back-N after
	 * its ACK timeout: with 5% loss a 4 MiB write takes minutes, past
	 * the client's 30 s (docs/dcn.md, "Not yet"). TCP is tested lossy.
	 */
	if (netem && *netem && kind && !strcmp(kind, "rdma"))
		SKIP(return, "RDMA host data under netem loss (\"%s\"): not recovered in time yet",
		     netem);
	in = malloc(bytes);
	out = malloc(bytes);
	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, out);
	for (i = 0; i < bytes / sizeof(float); i++)
		in[i] = (float)(i % 4099) * 0.25f;
	before = control_messages(self->r);
	ASSERT_EQ(0, pw_remote_buffer(self->r, 1, 1, PWTPU_DT_F32, 1, shape,
				      in, &id)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 1, id, out, bytes))
		TH_LOG("%s", pw_last_error());
	used = control_messages(self->r) - before;
	EXPECT_EQ(0, memcmp(in, out, bytes));
	EXPECT_LT(used, 40u) TH_LOG("%llu control messages",
				    (unsigned long long)used);
	if (kind)
		EXPECT_STREQ(kind, pw_remote_data_kind(self->r));
	ASSERT_EQ(0, pw_remote_free(self->r, 1, id));

	/* Without a data plane: parts, through the controller. */
	setenv("PATHWAYS_DATA", "off", 1);
	ASSERT_EQ(0, pw_remote_connect(getenv("PW_CONTROLLER"), "parts",
				       &parts)) TH_LOG("%s", pw_last_error());
	unsetenv("PATHWAYS_DATA");
	memset(out, 0, bytes);
	before = control_messages(parts);
	ASSERT_EQ(0, pw_remote_buffer(parts, 0, 1, PWTPU_DT_F32, 1, shape,
				      in, &id)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(parts, 0, id, out, bytes))
		TH_LOG("%s", pw_last_error());
	used = control_messages(parts) - before;
	EXPECT_EQ(0, memcmp(in, out, bytes));
	EXPECT_GT(used, 2u * (bytes / PW_WIRE_BUF_CHUNK));
	EXPECT_STREQ("none", pw_remote_data_kind(parts));
	pw_remote_close(parts);
	free(in);
	free(out);
}

TEST_F_TIMEOUT(remote, pipeline_across_islands, 300)
{
	/* Stage s on (host, device): two DCN edges, one mesh copy. */
	static const unsigned int host[STAGES] = { 0, 1, 1, 0 };
	static const unsigned int dev[STAGES] = { 0, 0, 1, 1 };
	const uint32_t sx[2] = { ROWS, WIDTH };
	static float x[MICRO][ROWS * WIDTH], piped[MICRO][ROWS * WIDTH];
	static float whole[MICRO][ROWS * WIDTH];
	uint32_t fid[STAGES], whole_id, prog, whole_prog;
	uint32_t xin[MICRO], out[MICRO], ref[MICRO];
	struct pw_fn *fn[STAGES], *fused;
	struct pw_rprog *p, *q;
	int v[MICRO], res[MICRO], a, s, m;
	unsigned int seed = 99, i, rh, rd;
	const char *digest = getenv("PW_DIGEST");

	for (s = 0; s < STAGES; s++) {
		fn[s] = layers_fn(s, 1);
		ASSERT_NE(NULL, fn[s]);
		ASSERT_EQ(0, pw_remote_function(self->r, fn[s], &fid[s]))
			TH_LOG("%s", pw_last_error());
	}
	fused = layers_fn(0, STAGES);
	ASSERT_NE(NULL, fused);
	ASSERT_EQ(0, pw_remote_function(self->r, fused, &whole_id));

	/* Micro-batch m flows through the stages; all traced at once. */
	p = pw_rprog_begin();
	for (m = 0; m < MICRO; m++)
		v[m] = pw_rprog_arg(p, host[0], dev[0], PWTPU_DT_F32, 2, sx);
	for (s = 0; s < STAGES; s++)
		for (m = 0; m < MICRO; m++)
			ASSERT_EQ(0, pw_rprog_call(p, fn[s], fid[s], host[s],
						   dev[s], &v[m], 1, &v[m]))
				TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_rprog_results(p, v, MICRO));
	ASSERT_EQ(0, pw_rprog_place(p, v[0], &rh, &rd));
	ASSERT_EQ(0u, rh);
	ASSERT_EQ(1u, rd);
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());

	/* The reference: the whole model on one device of host 1. */
	q = pw_rprog_begin();
	a = pw_rprog_arg(q, 1, 0, PWTPU_DT_F32, 2, sx);
	ASSERT_EQ(0, pw_rprog_call(q, fused, whole_id, 1, 0, &a, 1, &res[0]));
	ASSERT_EQ(0, pw_rprog_results(q, res, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, q, &whole_prog));

	for (m = 0; m < MICRO; m++) {
		for (i = 0; i < ROWS * WIDTH; i++)
			x[m][i] = rnd(&seed);
		ASSERT_EQ(0, pw_remote_buffer(self->r, host[0], dev[0],
					      PWTPU_DT_F32, 2, sx, x[m],
					      &xin[m]));
	}
	ASSERT_EQ(0, pw_remote_run(self->r, prog, xin, MICRO, out, MICRO))
		TH_LOG("%s", pw_last_error());
	for (m = 0; m < MICRO; m++) {
		uint32_t one;

		ASSERT_EQ(0, pw_remote_read(self->r, 0, out[m], piped[m],
					    sizeof(piped[m])))
			TH_LOG("%s", pw_last_error());
		ASSERT_EQ(0, pw_remote_buffer(self->r, 1, 0, PWTPU_DT_F32, 2,
					      sx, x[m], &one));
		ASSERT_EQ(0, pw_remote_run(self->r, whole_prog, &one, 1,
					   &ref[m], 1));
		ASSERT_EQ(0, pw_remote_read(self->r, 1, ref[m], whole[m],
					    sizeof(whole[m])));
		EXPECT_EQ(0, memcmp(piped[m], whole[m], sizeof(whole[m])))
			TH_LOG("micro-batch %d differs from the fused model", m);
	}
	if (digest) {
		FILE *f = fopen(digest, "a");

		ASSERT_NE(NULL, f);
		fprintf(f, "%016llx\n",
			(unsigned long long)fnv(piped, sizeof(piped)));
		fclose(f);
	}
	for (s = 0; s < STAGES; s++)
		pw_fn_put(fn[s]);
	pw_fn_put(fused);
	pw_rprog_free(p);
	pw_rprog_free(q);
}

TEST_F_TIMEOUT(remote, many_runs_in_flight, 300)
{
	/* y = x + x, 64 runs at once, each on its own buffers. */
	const uint32_t shape[1] = { 4 };
	struct pw_fn *fn = add_fn(4);
	uint32_t fid, prog, in[64], out[64], ticket[64];
	struct pw_rprog *p = pw_rprog_begin();
	int a[2], y, k, i;

	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_remote_function(self->r, fn, &fid));
	a[0] = pw_rprog_arg(p, 1, 1, PWTPU_DT_F32, 1, shape);
	a[1] = a[0];
	ASSERT_EQ(0, pw_rprog_call(p, fn, fid, 1, 1, a, 2, &y));
	ASSERT_EQ(0, pw_rprog_results(p, &y, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog));
	for (k = 0; k < 64; k++) {
		float x[4] = { k, k + 1, k + 2, k + 3 };

		ASSERT_EQ(0, pw_remote_buffer(self->r, 1, 1, PWTPU_DT_F32, 1,
					      shape, x, &in[k]));
	}
	for (k = 0; k < 64; k++)
		ASSERT_EQ(0, pw_remote_run_async(self->r, prog, &in[k], 1,
						 &out[k], 1, &ticket[k]));
	for (k = 63; k >= 0; k--) {
		float got[4];

		ASSERT_EQ(0, pw_remote_wait(self->r, ticket[k]));
		ASSERT_EQ(0, pw_remote_read(self->r, 1, out[k], got,
					    sizeof(got)));
		for (i = 0; i < 4; i++)
			ASSERT_EQ(2.0f * (k + i), got[i]);
	}
	pw_rprog_free(p);
	pw_fn_put(fn);
}

TEST_F_TIMEOUT(remote, bad_input_is_refused_clearly, 300)
{
	const uint32_t s4[1] = { 4 }, s8[1] = { 8 };
	struct pw_fn *fn = add_fn(4);
	float x[8] = { 0 };
	uint32_t fid, prog, id, out, ticket;
	struct pw_rprog *p;
	int a, b, y;

	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_remote_function(self->r, fn, &fid));
	/* Buffers on hosts or devices that do not exist. */
	EXPECT_EQ(-EHOSTDOWN, pw_remote_buffer(self->r, 40, 0, PWTPU_DT_F32,
					       1, s4, x, &id));
	EXPECT_EQ(-ENODEV, pw_remote_buffer(self->r, 1, 63, PWTPU_DT_F32, 1,
					    s4, x, &id));
	EXPECT_EQ(-EINVAL, pw_remote_buffer(self->r, 1, 0, 99, 1, s4, x, &id));
	/* Shapes that do not fit the function: named at the call. */
	p = pw_rprog_begin();
	a = pw_rprog_arg(p, 0, 0, PWTPU_DT_F32, 1, s8);
	EXPECT_EQ(-EINVAL, pw_rprog_call(p, fn, fid, 0, 0, (int[]){ a, a }, 2,
					 &y));
	EXPECT_NE(NULL, strstr(pw_last_error(), "needs 1 shards of f32[4]"))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(-EINVAL, pw_remote_program(self->r, p, &prog));
	pw_rprog_free(p);
	/* A function the controller never got. */
	p = pw_rprog_begin();
	a = pw_rprog_arg(p, 0, 0, PWTPU_DT_F32, 1, s4);
	ASSERT_EQ(0, pw_rprog_call(p, fn, 12345, 0, 0, (int[]){ a, a }, 2,
				   &y));
	ASSERT_EQ(0, pw_rprog_results(p, &y, 1));
	EXPECT_EQ(-ENOENT, pw_remote_program(self->r, p, &prog));
	pw_rprog_free(p);
	/* A good program run wrongly. */
	p = pw_rprog_begin();
	a = pw_rprog_arg(p, 0, 0, PWTPU_DT_F32, 1, s4);
	b = pw_rprog_arg(p, 1, 0, PWTPU_DT_F32, 1, s4);
	ASSERT_EQ(0, pw_rprog_call(p, fn, fid, 0, 0, (int[]){ a, b }, 2, &y));
	ASSERT_EQ(0, pw_rprog_results(p, &y, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog));
	ASSERT_EQ(0, pw_remote_buffer(self->r, 0, 0, PWTPU_DT_F32, 1, s4, x,
				      &id));
	/* One argument for two. */
	EXPECT_EQ(-EINVAL, pw_remote_run(self->r, prog, &id, 1, &out, 1));
	/* An argument buffer that is not where the program says (host 1). */
	ASSERT_EQ(0, pw_remote_run_async(self->r, prog, (uint32_t[]){ id, id },
					 2, &out, 1, &ticket));
	EXPECT_EQ(-ENOENT, pw_remote_wait(self->r, ticket));
	/* The failed run's result was never made. */
	EXPECT_NE(0, pw_remote_read(self->r, 0, out, x, 16));
	/* Waiting for a run that does not exist. */
	EXPECT_EQ(-ENOENT, pw_remote_wait(self->r, 777777));
	pw_rprog_free(p);
	pw_fn_put(fn);
}

/*
 * Data parallel over both islands: an all-reduce over a slice on each
 * (placed by the controller, the second on the island the first left
 * idle), then the first island's sums moved shard by shard over the DCN
 * and added to the second's, in one program: every shard ends as the
 * sum over all eight devices.
 */
TEST_F_TIMEOUT(remote, all_reduce_on_each_island_then_combined_over_the_dcn,
	       300)
{
	const uint32_t shape[1] = { 4 };
	unsigned int n = pw_remote_host_devices(self->r, 0), i;
	struct pw_fn_builder *b = pw_fn_begin("allreduce");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	float xa[64 * 4], xb[64 * 4], got[64 * 4], sum[4] = { 0 };
	uint32_t sa, sb, far, fadd, prog, in[2], out;
	struct pw_fn *ar, *add = add_fn(4);
	struct pw_rprog *p = pw_rprog_begin();
	int va, vb, v[2];

	ASSERT_LE(n, 64u);
	ASSERT_EQ(n, pw_remote_host_devices(self->r, 1));
	pw_fn_result(b, pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, x));
	ASSERT_EQ(0, pw_fn_build(b, &ar));
	ASSERT_EQ(0, pw_remote_function(self->r, ar, &far))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_function(self->r, add, &fadd));
	ASSERT_EQ(0, pw_remote_slice(self->r, n, NULL, &sa))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_slice(self->r, n, NULL, &sb))
		TH_LOG("%s", pw_last_error());
	ASSERT_NE(pw_remote_slice_host(self->r, sa),
		  pw_remote_slice_host(self->r, sb));
	for (i = 0; i < n * 4; i++) {
		xa[i] = (float)(i % 5);
		xb[i] = (float)(i % 3) + 0.5f;
		sum[i % 4] += xa[i] + xb[i];
	}
	ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, sa, PWTPU_DT_F32, 1,
					      shape, xa, false, &in[0]));
	ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, sb, PWTPU_DT_F32, 1,
					      shape, xb, false, &in[1]));
	va = pw_rprog_arg_sharded(p, sa, n, PWTPU_DT_F32, 1, shape);
	vb = pw_rprog_arg_sharded(p, sb, n, PWTPU_DT_F32, 1, shape);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, ar, far, sa, n, &va, 1, &v[0]));
	ASSERT_EQ(0, pw_rprog_call_sharded(p, ar, far, sb, n, &vb, 1, &v[1]));
	/* v[0] lives on the other island: it crosses the DCN. */
	ASSERT_EQ(0, pw_rprog_call_sharded(p, add, fadd, sb, n, v, 2, &va));
	ASSERT_EQ(0, pw_rprog_results(p, &va, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog, in, 2, &out, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, out, got, n * 4 * sizeof(float)))
		TH_LOG("%s", pw_last_error());
	for (i = 0; i < n * 4; i++)
		ASSERT_EQ(sum[i % 4], got[i]) TH_LOG("element %u", i);
	pw_rprog_free(p);
	pw_fn_put(ar);
	pw_fn_put(add);
}

/*
 * Resharding across islands: a value of n shards on one island, y = x +
 * 100 on a slice of n / 2 devices of the other. The source shards cross
 * the DCN whole, then each destination shard gathers its range there.
 */
TEST_F_TIMEOUT(remote, reshard_across_islands, 300)
{
	unsigned int n = pw_remote_host_devices(self->r, 0), i;
	const uint32_t src_shape[1] = { 2 }, dst_shape[1] = { 4 };
	struct pw_fn_builder *b = pw_fn_begin("plus100");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, dst_shape);
	float v[64 * 2], got[64 * 2];
	uint32_t sa, sb, fid, prog, in, out;
	struct pw_rprog *p = pw_rprog_begin();
	struct pw_fn *fn;
	int val;

	ASSERT_LE(2u, n);
	ASSERT_EQ(0u, n % 2);
	ASSERT_LE(n, 64u);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 100)));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_EQ(0, pw_remote_function(self->r, fn, &fid));
	/* The first takes a whole island: the second is on the other. */
	ASSERT_EQ(0, pw_remote_slice(self->r, n, NULL, &sa))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_slice(self->r, n / 2, NULL, &sb))
		TH_LOG("%s", pw_last_error());
	ASSERT_NE(pw_remote_slice_host(self->r, sa),
		  pw_remote_slice_host(self->r, sb));
	for (i = 0; i < 2 * n; i++)
		v[i] = 0.5f * i - 3;
	ASSERT_EQ(0, pw_remote_buffer_sharded(self->r, sa, PWTPU_DT_F32, 1,
					      src_shape, v, false, &in));
	val = pw_rprog_arg_sharded(p, sa, n, PWTPU_DT_F32, 1, src_shape);
	ASSERT_EQ(0, pw_rprog_call_sharded(p, fn, fid, sb, n / 2, &val, 1,
					   &val)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_rprog_results(p, &val, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &in, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, out, got,
				    n / 2 * 4 * sizeof(float)))
		TH_LOG("%s", pw_last_error());
	for (i = 0; i < n / 2 * 4; i++)
		ASSERT_EQ(v[i] + 100, got[i]) TH_LOG("element %u", i);
	pw_rprog_free(p);
	pw_fn_put(fn);
}

/*
 * A run past its deadline ends with ETIMEDOUT from the controller, not
 * from the client giving up: the worker that runs it is stopped
 * (SIGSTOP; the scenario's controllers mark a host down only after 30 s),
 * so only the deadline can end it. Continued, the worker gets the PLAN
 * and the CANCEL (what it issued before the CANCEL still runs; the
 * result buffer is freed at close), and the next run meets its deadline.
 */
TEST_F_TIMEOUT(remote, a_run_past_its_deadline_times_out, 300)
{
	const char *pid_env = getenv("PW_WORKER0_PID");
	const uint32_t shape[1] = { 4 };
	const float x[4] = { 1, 2, 3, 4 };
	struct pw_fn *fn = add_fn(4);
	struct pw_rprog *p = pw_rprog_begin();
	uint32_t fid, prog, in, late, out;
	pid_t worker;
	float got[4];
	int a[2], y, ret, i;

	/* It stops worker 0 with a signal: only where worker 0 runs. */
	if (!pid_env)
		SKIP(return, "PW_WORKER0_PID unset: worker 0 is not on this host");
	worker = (pid_t)atoi(pid_env);
	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_remote_function(self->r, fn, &fid));
	a[0] = pw_rprog_arg(p, 0, 1, PWTPU_DT_F32, 1, shape);
	a[1] = a[0];
	ASSERT_EQ(0, pw_rprog_call(p, fn, fid, 0, 1, a, 2, &y));
	ASSERT_EQ(0, pw_rprog_results(p, &y, 1));
	ASSERT_EQ(0, pw_remote_program(self->r, p, &prog));
	ASSERT_EQ(0, pw_remote_buffer(self->r, 0, 1, PWTPU_DT_F32, 1, shape,
				      x, &in));

	ASSERT_EQ(0, kill(worker, SIGSTOP));
	pw_remote_set_run_timeout(self->r, 200);
	ret = pw_remote_run(self->r, prog, &in, 1, &late, 1);
	ASSERT_EQ(0, kill(worker, SIGCONT));
	ASSERT_EQ(-ETIMEDOUT, ret);
	/* The controller's answer ("failed"), not the client's "no answer". */
	ASSERT_NE(NULL, strstr(pw_last_error(), "failed"))
		TH_LOG("%s", pw_last_error());

	pw_remote_set_run_timeout(self->r, 120000);
	ASSERT_EQ(0, pw_remote_run(self->r, prog, &in, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_read(self->r, 0, out, got, sizeof(got)));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(2 * x[i], got[i]);
	pw_remote_set_run_timeout(self->r, 0);
	pw_rprog_free(p);
	pw_fn_put(fn);
}

/* 6 MiB of f32: two fit in a 16 MiB device, three do not. */
#define BIG (6u << 18)

/* f32[1] -> f32[@n], the value repeated, after @delay_ms of compute. */
static struct pw_fn *spread_fn(uint32_t n, unsigned int delay_ms)
{
	const uint32_t one[1] = { 1 }, shape[1] = { n };
	struct pw_fn_builder *b = pw_fn_begin("spread");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, one);
	struct pw_fn *fn = NULL;

	pw_fn_delay(b, delay_ms * 1000000ull);
	pw_fn_result(b, pw_fn_broadcast(b, x, 1, shape));
	pw_fn_build(b, &fn);
	return fn;
}

/* f32[@n] -> f32[1], its last element. */
static struct pw_fn *last_fn(uint32_t n)
{
	const uint32_t shape[1] = { n }, start[1] = { n - 1 }, one[1] = { 1 };
	struct pw_fn_builder *b = pw_fn_begin("last");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_fn *fn = NULL;

	pw_fn_result(b, pw_fn_slice(b, x, start, one));
	pw_fn_build(b, &fn);
	return fn;
}

/*
 * Register x -> last(spread(x)) on host 1, device 3: a run holds an
 * @n-float temporary while spread's @delay_ms go by.
 */
static int spread_program(struct pw_remote *r, uint32_t n,
			  unsigned int delay_ms, uint32_t *prog)
{
	const uint32_t one[1] = { 1 };
	struct pw_fn *spread = spread_fn(n, delay_ms), *last = last_fn(n);
	struct pw_rprog *p = pw_rprog_begin();
	uint32_t fs, fl;
	int a, t, y, ret;

	ret = spread && last ? 0 : -EINVAL;
	if (!ret)
		ret = pw_remote_function(r, spread, &fs);
	if (!ret)
		ret = pw_remote_function(r, last, &fl);
	a = pw_rprog_arg(p, 1, 3, PWTPU_DT_F32, 1, one);
	if (!ret)
		ret = pw_rprog_call(p, spread, fs, 1, 3, &a, 1, &t);
	if (!ret)
		ret = pw_rprog_call(p, last, fl, 1, 3, &t, 1, &y);
	if (!ret)
		ret = pw_rprog_results(p, &y, 1);
	if (!ret)
		ret = pw_remote_program(r, p, prog);
	pw_rprog_free(p);
	pw_fn_put(spread);
	pw_fn_put(last);
	return ret;
}

/*
 * Back-pressure: three runs each needing a 6 MiB temporary on a 16 MiB
 * device, all sent at once. The third does not fit while the first two
 * run (1 s each, one after the other on the device: a PLAN delayed that
 * long is the only way it could miss them); it waits for HBM instead of
 * failing, and all three
 * give the right value (the scenario checks host 1's worker counted a
 * run that waited). A temporary larger than the device fails clearly.
 */
TEST_F_TIMEOUT(remote, a_run_waits_for_hbm_instead_of_failing, 300)
{
	const uint32_t one[1] = { 1 };
	uint32_t prog, huge, in[3], out[3], ticket[3];
	float got;
	int k;

	ASSERT_EQ(0, spread_program(self->r, BIG, 1000, &prog))
		TH_LOG("%s", pw_last_error());
	for (k = 0; k < 3; k++) {
		float x = 1.5f + k;

		ASSERT_EQ(0, pw_remote_buffer(self->r, 1, 3, PWTPU_DT_F32, 1,
					      one, &x, &in[k]));
	}
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, pw_remote_run_async(self->r, prog, &in[k], 1,
						 &out[k], 1, &ticket[k]));
	for (k = 0; k < 3; k++) {
		ASSERT_EQ(0, pw_remote_wait(self->r, ticket[k]))
			TH_LOG("run %d: %s", k, pw_last_error());
		ASSERT_EQ(0, pw_remote_read(self->r, 1, out[k], &got,
					    sizeof(got)));
		ASSERT_EQ(1.5f + k, got);
	}

	/* 20 MiB on a 16 MiB device: nothing can make room for it. */
	ASSERT_EQ(0, spread_program(self->r, 5u << 20, 0, &huge));
	EXPECT_GT(0, pw_remote_run(self->r, huge, &in[0], 1, &out[0], 1));
	EXPECT_NE(NULL, strstr(pw_last_error(), "failed"))
		TH_LOG("%s", pw_last_error());
}

/*
 * A client that dies with a run in flight: its DONE is never
 * acknowledged, so the controller gives up on it after its client
 * timeout and every worker frees what it had. The scenario checks the
 * workers' logs: nothing of any client is left when they exit.
 */
TEST_F(remote, a_client_that_dies_is_collected)
{
	const uint32_t shape[1] = { 1024 };
	static float x[1024];
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct pw_fn *fn = add_fn(1024);
		struct pw_remote *r;
		uint32_t fid, prog, id, out, ticket;
		struct pw_rprog *p = pw_rprog_begin();
		int a[2], y;

		if (pw_remote_connect(getenv("PW_CONTROLLER"), "doomed", &r) ||
		    pw_remote_function(r, fn, &fid) ||
		    pw_remote_buffer(r, 1, 2, PWTPU_DT_F32, 1, shape, x, &id))
			_exit(1);
		a[0] = pw_rprog_arg(p, 1, 2, PWTPU_DT_F32, 1, shape);
		a[1] = a[0];
		if (pw_rprog_call(p, fn, fid, 1, 2, a, 2, &y) ||
		    pw_rprog_results(p, &y, 1) ||
		    pw_remote_program(r, p, &prog) ||
		    pw_remote_run_async(r, prog, &id, 1, &out, 1, &ticket))
			_exit(2);
		_exit(0);	/* no wait, no close: gone */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
