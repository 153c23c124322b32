// SPDX-License-Identifier: GPL-2.0
/*
 * test_exec.c - the interpreter itself: loops repeat their bodies the
 * right number of times (nested, ending together, followed by more
 * instructions), DELAY runs, several bindings resolve, and a wrong
 * binding count or a short buffer is refused before anything runs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

/* Counters (i32 scalars) and a constant one to add to them. */
struct counters {
	struct ops o;
	int one;
	int c[4];
};

static int counters_init(struct counters *t)
{
	int k;

	if (ops_init(&t->o, 4096))
		return -1;
	t->one = ops_tensor(&t->o, PWTPU_DT_I32, 0);
	*(int32_t *)ops_ptr(&t->o, t->one) = 1;
	for (k = 0; k < 4; k++) {
		t->c[k] = ops_tensor(&t->o, PWTPU_DT_I32, 0);
		*(int32_t *)ops_ptr(&t->o, t->c[k]) = 0;
	}
	return 0;
}

static int incr(struct counters *t, int k)
{
	return pwprog_binary(t->o.p, PWTPU_OP_ADD, t->c[k], t->c[k], t->one);
}

static int loop(struct counters *t, uint32_t trips, uint32_t body)
{
	uint32_t args[2] = { trips, body };

	return pwprog_insn(t->o.p, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR,
			   PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
			   args, 2);
}

static int32_t counter(struct counters *t, int k)
{
	return *(int32_t *)ops_ptr(&t->o, t->c[k]);
}

TEST(loop_repeats_body)
{
	struct counters t;

	ASSERT_EQ(0, counters_init(&t));
	ASSERT_LE(0, incr(&t, 0));		/* once */
	ASSERT_LE(0, loop(&t, 5, 2));
	ASSERT_LE(0, incr(&t, 1));		/* 5 times */
	ASSERT_LE(0, incr(&t, 2));		/* 5 times */
	ASSERT_LE(0, incr(&t, 3));		/* once, after the loop */
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(1, counter(&t, 0));
	EXPECT_EQ(5, counter(&t, 1));
	EXPECT_EQ(5, counter(&t, 2));
	EXPECT_EQ(1, counter(&t, 3));
	ops_fini(&t.o);
}

TEST(nested_loops)
{
	struct counters t;

	ASSERT_EQ(0, counters_init(&t));
	ASSERT_LE(0, loop(&t, 3, 4));
	ASSERT_LE(0, incr(&t, 0));		/* 3 */
	ASSERT_LE(0, loop(&t, 4, 1));
	ASSERT_LE(0, incr(&t, 1));		/* 12 */
	ASSERT_LE(0, incr(&t, 2));		/* 3, after the inner loop */
	ASSERT_LE(0, incr(&t, 3));		/* 1 */
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(3, counter(&t, 0));
	EXPECT_EQ(12, counter(&t, 1));
	EXPECT_EQ(3, counter(&t, 2));
	EXPECT_EQ(1, counter(&t, 3));
	ops_fini(&t.o);
}

/* Four loops deep, all bodies ending at the program's last insn. */
TEST(deepest_nest_ending_together)
{
	struct counters t;

	ASSERT_EQ(0, counters_init(&t));
	ASSERT_LE(0, loop(&t, 2, 5));
	ASSERT_LE(0, loop(&t, 3, 4));
	ASSERT_LE(0, incr(&t, 0));		/* 6 */
	ASSERT_LE(0, loop(&t, 5, 2));
	ASSERT_LE(0, loop(&t, 7, 1));
	ASSERT_LE(0, incr(&t, 1));		/* 2 * 3 * 5 * 7 = 210 */
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(6, counter(&t, 0));
	EXPECT_EQ(210, counter(&t, 1));
	/* Running again repeats everything: the loop state is per run. */
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(12, counter(&t, 0));
	EXPECT_EQ(420, counter(&t, 1));
	ops_fini(&t.o);
}

/* A loop around a real computation: x = x * 2, ten times. */
TEST(loop_around_float_op)
{
	struct ops o;
	uint32_t args[2] = { 10, 1 };
	float *x;
	int tx, tt, i;

	ASSERT_EQ(0, ops_init(&o, 1024));
	tx = ops_tensor(&o, PWTPU_DT_F32, 1, 3);
	tt = ops_tensor(&o, PWTPU_DT_F32, 1, 3);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, args, 2));
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_MUL, tx, tx, tt));
	x = ops_ptr(&o, tx);
	for (i = 0; i < 3; i++) {
		x[i] = (float)i + 0.5f;
		((float *)ops_ptr(&o, tt))[i] = 2.0f;
	}
	ASSERT_EQ(0, ops_run(&o));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(((float)i + 0.5f) * 1024.0f, x[i]);
	ops_fini(&o);
}

TEST(delay_runs)
{
	struct counters t;
	uint32_t args[2] = { 1000, 0 };

	ASSERT_EQ(0, counters_init(&t));
	ASSERT_LE(0, pwprog_insn(t.o.p, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, args, 2));
	ASSERT_LE(0, incr(&t, 0));
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(1, counter(&t, 0));
	ops_fini(&t.o);
}

TEST(empty_program)
{
	struct ops o;

	ASSERT_EQ(0, ops_init(&o, 64));
	ASSERT_LE(0, ops_tensor(&o, PWTPU_DT_I8, 0));
	ASSERT_EQ(0, ops_run(&o));
	ops_fini(&o);
}

/* Verify a program with three bindings: d (buf 2) = a (buf 0) + b (buf 1). */
static int three_bindings(struct pwfw_prog *prog, void **img)
{
	static const uint32_t shape[1] = { 8 };
	struct pwprog *p = pwprog_new(3);
	struct pwfw_spec spec;
	struct pwfw_verr err;
	size_t size;
	int a, b, d;

	a = pwprog_tensor(p, PWTPU_DT_I32, 1, shape, 0, 16);
	b = pwprog_tensor(p, PWTPU_DT_I32, 1, shape, 1, 0);
	d = pwprog_tensor(p, PWTPU_DT_I32, 1, shape, 2, 32);
	if (pwprog_binary(p, PWTPU_OP_ADD, d, a, b) < 0)
		return -1;
	*img = pwprog_image(p, &size);
	pwprog_free(p);
	pwfw_spec_default(&spec);
	return pwfw_verify(*img, size, &spec, prog, &err);
}

TEST(several_bindings)
{
	int32_t m0[12], m1[8], m2[16];
	struct pwfw_buf bufs[3] = {
		{ m0, sizeof(m0) }, { m1, sizeof(m1) }, { m2, sizeof(m2) },
	};
	struct pwfw_prog prog;
	void *img;
	int i;

	ASSERT_EQ(0, three_bindings(&prog, &img));
	EXPECT_EQ(48ULL, prog.buf_bytes[0]);
	EXPECT_EQ(64ULL, prog.buf_bytes[2]);
	for (i = 0; i < 8; i++) {
		m0[4 + i] = i;
		m1[i] = 100 * i;
	}
	memset(m2, 0, sizeof(m2));
	ASSERT_EQ(0, pwfw_exec(&prog, bufs, 3, NULL));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(101 * i, m2[8 + i]);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, m2[i]);
	free(img);
}

/* Refusals happen before anything runs: memory stays as it was. */
TEST(bad_bindings_touch_nothing)
{
	_Alignas(16) unsigned char m0[48], m1[32], m2[64];
	unsigned char before[64];
	struct pwfw_buf bufs[3] = {
		{ m0, sizeof(m0) }, { m1, sizeof(m1) }, { m2, sizeof(m2) },
	};
	struct pwfw_prog prog;
	void *img;

	ASSERT_EQ(0, three_bindings(&prog, &img));
	memset(m0, 1, sizeof(m0));
	memset(m1, 2, sizeof(m1));
	memset(m2, 0x5a, sizeof(m2));
	memcpy(before, m2, sizeof(m2));

	EXPECT_EQ(-EINVAL, pwfw_exec(&prog, bufs, 2, NULL));
	EXPECT_EQ(-EINVAL, pwfw_exec(&prog, bufs, 4, NULL));
	EXPECT_EQ(0, memcmp(before, m2, sizeof(m2)));

	bufs[2].size = 63;	/* one byte short of the result's end */
	EXPECT_EQ(-ERANGE, pwfw_exec(&prog, bufs, 3, NULL));
	EXPECT_EQ(0, memcmp(before, m2, sizeof(m2)));
	bufs[2].size = 64;
	bufs[0].size = 47;	/* a source short: still refused */
	EXPECT_EQ(-ERANGE, pwfw_exec(&prog, bufs, 3, NULL));
	EXPECT_EQ(0, memcmp(before, m2, sizeof(m2)));

	bufs[0].size = 48;	/* and exactly big enough runs */
	EXPECT_EQ(0, pwfw_exec(&prog, bufs, 3, NULL));
	EXPECT_NE(0, memcmp(before, m2, sizeof(m2)));
	free(img);
}

TEST_HARNESS_MAIN
