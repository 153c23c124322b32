// SPDX-License-Identifier: GPL-2.0
/*
 * test_program.c - traced programs and where they run: the paper's
 * Figure 2, a representation that does not grow with the shard count,
 * buffers resharded between slices of different sizes (the same under
 * sequential and parallel dispatch), results that repeat a value or give
 * back an argument, and shaped slices placed on linked blocks of the
 * live island.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "pw_common.h"

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * f(v) = (b(a(v)), a(c(a(v)))), a: x*2, b: x+1, c: x/2, each function on
 * its own 2-device slice: v = [1 2] gives (3 5) (2 4).
 */
TEST(figure2)
{
	static const enum pw_node_kind kinds[6] = {
		PW_NODE_ARG, PW_NODE_COMPUTE, PW_NODE_COMPUTE,
		PW_NODE_COMPUTE, PW_NODE_COMPUTE, PW_NODE_RESULT,
	};
	const uint32_t shard = 1;
	const float v[2] = { 1, 2 };
	struct pw_buffer *arg, *t1, *t2, *t3, *r0, *in, *out[2];
	struct pw_slice *sa, *sb, *sc;
	struct pw_fn *a, *b, *c;
	struct pw_program *prog;
	struct pw_client *cl;
	float o0[2], o1[2];
	char repr[1024];
	unsigned int i;

	PWT_NEED_DEVICES(2);
	cl = pwt_connect("fig2", 0);
	ASSERT_NE(NULL, cl);
	a = pwt_scalar_fn("a", PWTPU_OP_MUL, 2, 1);
	b = pwt_scalar_fn("b", PWTPU_OP_ADD, 1, 1);
	c = pwt_scalar_fn("c", PWTPU_OP_DIV, 2, 1);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, c);
	sa = pwt_slice(cl, 2, "2");
	sb = pwt_slice(cl, 2, "2");
	sc = pwt_slice(cl, 2, "2");
	ASSERT_NE(NULL, sa);
	ASSERT_NE(NULL, sb);
	ASSERT_NE(NULL, sc);

	ASSERT_EQ(0, pw_program_begin(cl));
	ASSERT_EQ(0, pw_program_arg(cl, sa, PWTPU_DT_F32, 1, &shard, &arg));
	ASSERT_EQ(0, pw_call(cl, a, sa, &arg, 1, &t1, 1));
	ASSERT_EQ(0, pw_call(cl, b, sb, &t1, 1, &r0, 1));
	ASSERT_EQ(0, pw_call(cl, c, sc, &t1, 1, &t2, 1));
	ASSERT_EQ(0, pw_call(cl, a, sa, &t2, 1, &t3, 1));
	ASSERT_EQ(0, pw_program_end(cl, (struct pw_buffer *[]){ r0, t3 }, 2,
				    &prog)) {
		TH_LOG("%s", pw_last_error());
	}
	pw_buffer_put(arg);
	pw_buffer_put(t1);
	pw_buffer_put(t2);
	pw_buffer_put(t3);
	pw_buffer_put(r0);

	ASSERT_EQ(6u, pw_program_num_nodes(prog));
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(kinds[i], pw_program_node_kind(prog, i)) {
			TH_LOG("node %u", i);
		}
	}
	ASSERT_LT(0, pw_program_format(prog, repr, sizeof(repr)));
	EXPECT_EQ(6u, count_lines(repr)) {
		TH_LOG("representation:\n%s", repr);
	}

	in = pwt_upload(cl, sa, v, 1, false);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_PARALLEL, &in, 1, out,
				    2)) {
		TH_LOG("%s", pw_last_error());
	}
	ASSERT_EQ(0, pwt_fetch(out[0], o0, 2));
	ASSERT_EQ(0, pwt_fetch(out[1], o1, 2));
	if (pwt_values_checked()) {
		EXPECT_EQ(3, o0[0]);
		EXPECT_EQ(5, o0[1]);
		EXPECT_EQ(2, o1[0]);
		EXPECT_EQ(4, o1[1]);
	}
	pw_fn_put(a);
	pw_fn_put(b);
	pw_fn_put(c);
	pw_disconnect(cl);
}

/*
 * A then B over N shards is one node per sharded computation whatever
 * N: Arg, A, B, Result; the shards appear only when the program runs.
 */
TEST(representation_independent_of_shards)
{
	static const enum pw_node_kind kinds[4] = {
		PW_NODE_ARG, PW_NODE_COMPUTE, PW_NODE_COMPUTE, PW_NODE_RESULT,
	};
	const uint32_t shard = 1;
	struct pw_fn *fa, *fb;
	struct pw_client *cl;
	unsigned int n, ndev, i, tried = 0;

	PWT_NEED_DEVICES(2);
	cl = pwt_connect("repr", 0);
	ASSERT_NE(NULL, cl);
	ndev = (unsigned int)pw_num_devices(cl);
	fa = pwt_scalar_fn("A", PWTPU_OP_MUL, 2, 1);
	fb = pwt_scalar_fn("B", PWTPU_OP_ADD, 1, 1);
	ASSERT_NE(NULL, fa);
	ASSERT_NE(NULL, fb);
	for (n = 2; n <= 8 && n <= ndev; n *= 2) {
		struct pw_buffer *arg, *t, *r, *in, *out;
		struct pw_program *prog;
		struct pw_slice *s;
		float v[8], o[8];
		char repr[1024];

		s = pwt_slice(cl, n, NULL);
		ASSERT_NE(NULL, s);
		ASSERT_EQ(0, pw_program_begin(cl));
		ASSERT_EQ(0, pw_program_arg(cl, s, PWTPU_DT_F32, 1, &shard,
					    &arg));
		ASSERT_EQ(0, pw_call(cl, fa, s, &arg, 1, &t, 1));
		ASSERT_EQ(0, pw_call(cl, fb, s, &t, 1, &r, 1));
		ASSERT_EQ(0, pw_program_end(cl, &r, 1, &prog));
		pw_buffer_put(arg);
		pw_buffer_put(t);
		pw_buffer_put(r);

		ASSERT_EQ(4u, pw_program_num_nodes(prog)) {
			TH_LOG("%u shards", n);
		}
		for (i = 0; i < 4; i++) {
			EXPECT_EQ(kinds[i], pw_program_node_kind(prog, i));
		}
		ASSERT_LT(0, pw_program_format(prog, repr, sizeof(repr)));
		EXPECT_EQ(4u, count_lines(repr)) {
			TH_LOG("%u shards:\n%s", n, repr);
		}

		for (i = 0; i < n; i++)
			v[i] = (float)i;
		in = pwt_upload(cl, s, v, 1, false);
		ASSERT_NE(NULL, in);
		ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_PARALLEL, &in, 1,
					    &out, 1));
		ASSERT_EQ(0, pwt_fetch(out, o, n));
		for (i = 0; pwt_values_checked() && i < n; i++) {
			EXPECT_EQ(2.0f * i + 1, o[i]) {
				TH_LOG("%u shards: shard %u", n, i);
			}
		}
		pw_buffer_put(in);
		pw_buffer_put(out);
		pw_program_free(prog);
		tried++;
	}
	EXPECT_LT(0u, tried);
	pw_fn_put(fa);
	pw_fn_put(fb);
	pw_disconnect(cl);
}

#define LOGICAL	8	/* elements of the resharded vector */

static float reshard_value(unsigned int i)
{
	return 3.0f * i + 1;
}

/*
 * A vector of LOGICAL elements on a slice of @from devices, consumed by
 * y = x + 100 (@fn, over shards of LOGICAL / @to) on a slice of @to
 * devices: the call moves it, each destination shard taking its range of
 * the logical value.
 */
static void check_reshard(struct __test_metadata *_metadata,
			  struct pw_client *cl, struct pw_fn *fn,
			  unsigned int from, unsigned int to)
{
	struct pw_slice *src, *dst;
	struct pw_buffer *in, *out;
	float v[LOGICAL], o[LOGICAL];
	unsigned int i;

	src = pwt_slice(cl, from, NULL);
	dst = pwt_slice(cl, to, NULL);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	for (i = 0; i < LOGICAL; i++)
		v[i] = reshard_value(i);
	in = pwt_upload(cl, src, v, LOGICAL / from, false);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(from, pw_buffer_num_shards(in));
	ASSERT_EQ(0, pw_call(cl, fn, dst, &in, 1, &out, 1)) {
		TH_LOG("%u -> %u: %s", from, to, pw_last_error());
	}
	ASSERT_EQ(to, pw_buffer_num_shards(out));
	ASSERT_EQ(LOGICAL / to * sizeof(float), pw_buffer_shard_bytes(out));
	ASSERT_EQ(0, pwt_fetch(out, o, LOGICAL));
	for (i = 0; pwt_values_checked() && i < LOGICAL; i++) {
		EXPECT_EQ(v[i] + 100, o[i]) {
			TH_LOG("%u -> %u shards: element %u", from, to, i);
		}
	}
	pw_buffer_put(in);
	pw_buffer_put(out);
}

/* plus100[n]: y = x + 100 over shards of LOGICAL / n, n = 1, 2, 4. */
static void make_plus100(struct __test_metadata *_metadata,
			 struct pw_fn **plus100)
{
	unsigned int n;

	for (n = 1; n <= 4; n *= 2) {
		plus100[n] = pwt_scalar_fn("plus100", PWTPU_OP_ADD, 100,
					   LOGICAL / n);
		ASSERT_NE(NULL, plus100[n]);
	}
}

TEST(reshard_between_slice_sizes)
{
	static const unsigned int pairs[][2] = {
		{ 2, 4 }, { 4, 2 }, { 1, 4 }, { 4, 1 },
	};
	struct pw_fn *plus100[5] = { NULL };
	struct pw_client *cl;
	unsigned int i;

	PWT_NEED_DEVICES(4);
	cl = pwt_connect("reshard", 0);
	ASSERT_NE(NULL, cl);
	make_plus100(_metadata, plus100);
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		check_reshard(_metadata, cl, plus100[pairs[i][1]],
			      pairs[i][0], pairs[i][1]);
	for (i = 0; i < 5; i++)
		pw_fn_put(plus100[i]);
	pw_disconnect(cl);
}

/*
 * One program moving its values through slices of 2, 4, 1 and 2 devices
 * (an argument, three computations, two results): run with parallel and
 * with sequential dispatch, the results agree bit for bit, and with the
 * expected values: ((v + 100) + 100) + 100 and (v + 100) + 100.
 */
/*
 * A program's results may name one value twice, or give an argument
 * back as it is: each result is a buffer of that value (the argument's
 * own buffer), under both dispatches.
 */
TEST(results_repeat_values_and_give_back_arguments)
{
	struct pw_buffer *arg, *y, *in, *out[3];
	const float v[2] = { 1, 2 };
	struct pw_program *prog;
	struct pw_client *cl;
	struct pw_slice *s;
	struct pw_fn *fn;
	float got[2];
	unsigned int i, d;

	cl = pwt_connect("results", 0);
	ASSERT_NE(NULL, cl);
	s = pwt_slice(cl, 1, NULL);
	ASSERT_NE(NULL, s);
	fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, 2);
	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_program_begin(cl));
	ASSERT_EQ(0, pw_program_arg(cl, s, PWTPU_DT_F32, 1,
				    (const uint32_t[]){ 2 }, &arg));
	ASSERT_EQ(0, pw_call(cl, fn, s, &arg, 1, &y, 1));
	ASSERT_EQ(0, pw_program_end(cl, (struct pw_buffer *[]){ y, arg, y },
				    3, &prog)) TH_LOG("%s", pw_last_error());
	pw_buffer_put(arg);
	pw_buffer_put(y);
	in = pwt_upload(cl, s, v, 2, false);
	ASSERT_NE(NULL, in);
	for (d = 0; d < 2; d++) {
		ASSERT_EQ(0, pw_program_run(prog, d ? PW_DISPATCH_SEQUENTIAL :
					    PW_DISPATCH_PARALLEL, &in, 1, out,
					    3)) TH_LOG("%s", pw_last_error());
		EXPECT_EQ(in, out[1]);
		for (i = 0; i < 3; i++) {
			ASSERT_EQ(0, pwt_fetch(out[i], got, 2));
			if (!pwt_values_checked())
				continue;
			EXPECT_EQ(i == 1 ? v[0] : v[0] + 1, got[0]);
			EXPECT_EQ(i == 1 ? v[1] : v[1] + 1, got[1]);
		}
		for (i = 0; i < 3; i++)
			pw_buffer_put(out[i]);
	}
	pw_buffer_put(in);
	pw_program_free(prog);
	pw_fn_put(fn);
	pw_disconnect(cl);
}

TEST(sequential_and_parallel_dispatch_agree)
{
	struct pw_buffer *arg, *t1, *t2, *t3, *in, *par[2], *seq[2];
	struct pw_slice *s2, *s4, *s1, *s2b;
	struct pw_fn *plus100[5] = { NULL };
	float v[LOGICAL], p[2][LOGICAL], q[2][LOGICAL];
	const uint32_t shard = LOGICAL / 2;
	struct pw_program *prog;
	struct pw_client *cl;
	unsigned int i;

	PWT_NEED_DEVICES(4);
	cl = pwt_connect("dispatch", 0);
	ASSERT_NE(NULL, cl);
	make_plus100(_metadata, plus100);
	s2 = pwt_slice(cl, 2, NULL);
	s4 = pwt_slice(cl, 4, NULL);
	s1 = pwt_slice(cl, 1, NULL);
	s2b = pwt_slice(cl, 2, NULL);
	ASSERT_NE(NULL, s2);
	ASSERT_NE(NULL, s4);
	ASSERT_NE(NULL, s1);
	ASSERT_NE(NULL, s2b);

	ASSERT_EQ(0, pw_program_begin(cl));
	ASSERT_EQ(0, pw_program_arg(cl, s2, PWTPU_DT_F32, 1, &shard, &arg));
	ASSERT_EQ(0, pw_call(cl, plus100[4], s4, &arg, 1, &t1, 1));
	ASSERT_EQ(0, pw_call(cl, plus100[1], s1, &t1, 1, &t2, 1));
	ASSERT_EQ(0, pw_call(cl, plus100[2], s2b, &t2, 1, &t3, 1));
	ASSERT_EQ(0, pw_program_end(cl, (struct pw_buffer *[]){ t3, t2 }, 2,
				    &prog)) {
		TH_LOG("%s", pw_last_error());
	}
	pw_buffer_put(arg);
	pw_buffer_put(t1);
	pw_buffer_put(t2);
	pw_buffer_put(t3);
	ASSERT_EQ(5u, pw_program_num_nodes(prog));

	for (i = 0; i < LOGICAL; i++)
		v[i] = reshard_value(i);
	in = pwt_upload(cl, s2, v, shard, false);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_PARALLEL, &in, 1, par,
				    2));
	ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_SEQUENTIAL, &in, 1, seq,
				    2));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pwt_fetch(par[i], p[i], LOGICAL));
		ASSERT_EQ(0, pwt_fetch(seq[i], q[i], LOGICAL));
	}
	ASSERT_EQ(2u, pw_buffer_num_shards(par[0]));
	ASSERT_EQ(1u, pw_buffer_num_shards(par[1]));
	if (pwt_values_checked()) {
		EXPECT_EQ(0, memcmp(p, q, sizeof(p)));
		for (i = 0; i < LOGICAL; i++) {
			EXPECT_EQ(v[i] + 300, p[0][i]) {
				TH_LOG("result 0, element %u", i);
			}
			EXPECT_EQ(v[i] + 200, p[1][i]) {
				TH_LOG("result 1, element %u", i);
			}
		}
	}
	for (i = 0; i < 2; i++) {
		pw_buffer_put(par[i]);
		pw_buffer_put(seq[i]);
	}
	pw_buffer_put(in);
	for (i = 0; i < 5; i++)
		pw_fn_put(plus100[i]);
	pw_disconnect(cl);
}

/*
 * A "2x2" slice on the live island: four distinct devices where virtual
 * neighbours (row major: 0-1, 2-3, 0-2, 1-3) are linked and the
 * diagonals (0-3, 1-2) are not, by the driver's own sysfs neighbors.
 * Twice, so that the second placement (avoiding the first's load) is
 * checked too.
 */
TEST(shaped_slice_is_a_linked_block)
{
	static const unsigned int edges[4][2] = {
		{ 0, 1 }, { 2, 3 }, { 0, 2 }, { 1, 3 },
	};
	struct pw_client *cl;
	unsigned int round, v, w, e;

	PWT_NEED_DEVICES(4);
	cl = pwt_connect("placement", 0);
	ASSERT_NE(NULL, cl);
	for (round = 0; round < 2; round++) {
		struct pw_slice *s = pwt_slice(cl, 4, "2x2");
		int dev[4];

		ASSERT_NE(NULL, s);
		ASSERT_EQ(4u, pw_slice_size(s));
		for (v = 0; v < 4; v++) {
			dev[v] = pw_slice_device(s, v);
			ASSERT_LE(0, dev[v]);
			ASSERT_GT(pw_num_devices(cl), dev[v]);
			for (w = 0; w < v; w++) {
				ASSERT_NE(dev[w], dev[v]);
			}
		}
		for (e = 0; e < 4; e++) {
			unsigned int a = (unsigned int)dev[edges[e][0]];
			unsigned int b = (unsigned int)dev[edges[e][1]];

			EXPECT_TRUE(pwt_linked(a, b)) {
				TH_LOG("virtual %u-%u: devices %u and %u not linked",
				       edges[e][0], edges[e][1], a, b);
			}
			EXPECT_TRUE(pwt_linked(b, a));
		}
		EXPECT_FALSE(pwt_linked((unsigned int)dev[0],
					(unsigned int)dev[3]));
		EXPECT_FALSE(pwt_linked((unsigned int)dev[1],
					(unsigned int)dev[2]));
	}
	pw_disconnect(cl);
}

TEST_HARNESS_MAIN
