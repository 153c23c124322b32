// SPDX-License-Identifier: GPL-2.0
/*
 * test_exec.c - the interpreter itself: loops repeat their bodies the
 * right number of times (nested, ending together, followed by more
 * instructions), bounded loops end at a WHILE (at once, after the body,
 * nested, with counted ones) or fault when their trips run out, DELAY
 * runs, several bindings resolve, and a wrong binding count or a short
 * buffer is refused before anything runs.
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

/* Bounded loops (mode 1) and WHILE. */

static int bounded(struct counters *t, uint32_t trips, uint32_t body)
{
	uint32_t args[2] = { trips, body };

	return pwprog_insn(t->o.p, PWTPU_OP_LOOP, PWTPU_LOOP_BOUNDED,
			   PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
			   PWTPU_NO_TENSOR, args, 2);
}

/* Go on while tensor @x is non-zero. */
static int go_on(struct counters *t, int x)
{
	return pwprog_insn(t->o.p, PWTPU_OP_WHILE, 0, PWTPU_NO_TENSOR, x,
			   PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, NULL, 0);
}

static int decr(struct counters *t, int k)
{
	return pwprog_binary(t->o.p, PWTPU_OP_SUB, t->c[k], t->c[k], t->one);
}

static void set(struct counters *t, int k, int32_t v)
{
	*(int32_t *)ops_ptr(&t->o, t->c[k]) = v;
}

/* c[0] from @from down to 0, c[1] counting the trips; c[2] after. */
static int count_down(struct counters *t, int32_t from)
{
	if (counters_init(t))
		return -1;
	set(t, 0, from);
	if (bounded(t, 100, 3) < 0 || go_on(t, t->c[0]) < 0 ||
	    decr(t, 0) < 0 || incr(t, 1) < 0 || incr(t, 2) < 0)
		return -1;
	return 0;
}

TEST(while_leaves_a_bounded_loop)
{
	struct counters t;

	ASSERT_EQ(0, count_down(&t, 5));
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(0, counter(&t, 0));
	EXPECT_EQ(5, counter(&t, 1));
	EXPECT_EQ(1, counter(&t, 2));	/* after the loop */
	/* The bounds count the loop at all its trips. */
	EXPECT_EQ(1U, t.o.prog.nbounded);
	EXPECT_EQ(1ULL + 100 * 3 + 1, t.o.prog.dyn_insns);
	/* Again: the loop starts afresh, and leaves at once (c[0] is 0). */
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(5, counter(&t, 1));
	EXPECT_EQ(2, counter(&t, 2));
	ops_fini(&t.o);
}

/* A WHILE first: a predicate zero at once runs the rest zero times. */
TEST(while_zero_trips)
{
	struct counters t;

	ASSERT_EQ(0, count_down(&t, 0));
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(0, counter(&t, 0));
	EXPECT_EQ(0, counter(&t, 1));
	EXPECT_EQ(1, counter(&t, 2));
	ops_fini(&t.o);
}

/* A WHILE last: the body runs before the first test (do-while). */
TEST(while_at_the_end)
{
	struct counters t;

	ASSERT_EQ(0, counters_init(&t));
	set(&t, 0, 3);
	ASSERT_LE(0, bounded(&t, 10, 3));
	ASSERT_LE(0, incr(&t, 1));
	ASSERT_LE(0, decr(&t, 0));
	ASSERT_LE(0, go_on(&t, t.c[0]));
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(3, counter(&t, 1));
	EXPECT_EQ(0, counter(&t, 0));
	set(&t, 0, 1);
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(4, counter(&t, 1));
	ops_fini(&t.o);
}

/*
 * Nested bounded loops: the inner WHILE leaves the inner loop only. The
 * outer counts c[0] from 4 down; each trip the inner counts a copy (c[3])
 * down, adding 3 + 2 + 1 + 0 to c[1].
 */
TEST(while_nested)
{
	struct counters t;

	ASSERT_EQ(0, counters_init(&t));
	set(&t, 0, 4);
	ASSERT_LE(0, bounded(&t, 100, 7));
	ASSERT_LE(0, go_on(&t, t.c[0]));
	ASSERT_LE(0, decr(&t, 0));
	ASSERT_LE(0, pwprog_unary(t.o.p, PWTPU_OP_RESHAPE, t.c[3], t.c[0]));
	ASSERT_LE(0, bounded(&t, 100, 3));
	ASSERT_LE(0, go_on(&t, t.c[3]));
	ASSERT_LE(0, decr(&t, 3));
	ASSERT_LE(0, incr(&t, 1));
	ASSERT_LE(0, incr(&t, 2));		/* once, after both */
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(0, counter(&t, 0));
	EXPECT_EQ(6, counter(&t, 1));
	EXPECT_EQ(1, counter(&t, 2));
	EXPECT_EQ(2U, t.o.prog.nbounded);
	ops_fini(&t.o);
}

/*
 * A bounded loop inside a counted one and a counted one inside a bounded
 * one: counted(3: c[0] = 2, bounded(c[0] down: c[1]++)), then
 * bounded(c[3] from 2 down: counted(4: c[2]++)).
 */
TEST(while_with_counted_loops)
{
	struct counters t;
	int two;

	ASSERT_EQ(0, counters_init(&t));
	two = ops_tensor(&t.o, PWTPU_DT_I32, 0);
	ASSERT_LE(0, two);
	*(int32_t *)ops_ptr(&t.o, two) = 2;
	set(&t, 3, 2);
	ASSERT_LE(0, loop(&t, 3, 5));
	ASSERT_LE(0, pwprog_unary(t.o.p, PWTPU_OP_RESHAPE, t.c[0], two));
	ASSERT_LE(0, bounded(&t, 5, 3));
	ASSERT_LE(0, go_on(&t, t.c[0]));
	ASSERT_LE(0, decr(&t, 0));
	ASSERT_LE(0, incr(&t, 1));
	ASSERT_LE(0, bounded(&t, 5, 4));
	ASSERT_LE(0, go_on(&t, t.c[3]));
	ASSERT_LE(0, decr(&t, 3));
	ASSERT_LE(0, loop(&t, 4, 1));
	ASSERT_LE(0, incr(&t, 2));
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(6, counter(&t, 1));
	EXPECT_EQ(8, counter(&t, 2));
	ops_fini(&t.o);
}

/*
 * Running out of trips is a fault: -ELOOP, the loop named, nothing after
 * it run; what the trips wrote stays.
 */
TEST(while_out_of_trips)
{
	struct pwfw_exec_env env;
	struct counters t;

	ASSERT_EQ(0, counters_init(&t));
	set(&t, 0, 1);
	ASSERT_LE(0, incr(&t, 3));
	ASSERT_LE(0, bounded(&t, 3, 2));
	ASSERT_LE(0, go_on(&t, t.c[0]));
	ASSERT_LE(0, incr(&t, 1));
	ASSERT_LE(0, incr(&t, 2));
	memset(&env, 0, sizeof(env));
	env.compute = true;
	ASSERT_EQ(-PWFW_ELOOP, ops_run_env(&t.o, &env));
	EXPECT_EQ(1U, env.fault_insn);
	EXPECT_EQ(1, counter(&t, 3));
	EXPECT_EQ(3, counter(&t, 1));
	EXPECT_EQ(0, counter(&t, 2));
	/* Without an env the error is the same. */
	ASSERT_EQ(-PWFW_ELOOP, ops_run(&t.o));
	EXPECT_EQ(6, counter(&t, 1));
	/* Skip timing computes nothing: a WHILE never leaves, no fault. */
	env.compute = false;
	ASSERT_EQ(0, ops_run_env(&t.o, &env));
	EXPECT_EQ(PWTPU_VERR_NO_INSN, env.fault_insn);
	EXPECT_EQ(6, counter(&t, 1));
	EXPECT_EQ(t.o.prog.modeled_ns, env.model_ns);
	ops_fini(&t.o);
}

/* The inner loop of two runs out: it is the one named. */
TEST(while_out_of_trips_inside)
{
	struct pwfw_exec_env env;
	struct counters t;

	ASSERT_EQ(0, counters_init(&t));
	set(&t, 0, 1);
	ASSERT_LE(0, bounded(&t, 5, 4));
	ASSERT_LE(0, go_on(&t, t.c[0]));
	ASSERT_LE(0, bounded(&t, 2, 2));
	ASSERT_LE(0, go_on(&t, t.one));
	ASSERT_LE(0, incr(&t, 1));
	memset(&env, 0, sizeof(env));
	env.compute = true;
	ASSERT_EQ(-PWFW_ELOOP, ops_run_env(&t.o, &env));
	EXPECT_EQ(2U, env.fault_insn);
	EXPECT_EQ(2, counter(&t, 1));
	ops_fini(&t.o);
}

/*
 * Any integer predicate: a u64 whose only set bit is its highest goes
 * on, an i8 from COMPARE leaves at 0.
 */
TEST(while_predicate_dtypes)
{
	struct counters t;
	int wide, zero, pred;

	ASSERT_EQ(0, counters_init(&t));
	wide = ops_tensor(&t.o, PWTPU_DT_U64, 0);
	zero = ops_tensor(&t.o, PWTPU_DT_I32, 0);
	pred = ops_tensor(&t.o, PWTPU_DT_I8, 0);
	ASSERT_LE(0, pred);
	*(uint64_t *)ops_ptr(&t.o, wide) = 1ULL << 63;
	*(int32_t *)ops_ptr(&t.o, zero) = 0;
	set(&t, 0, 4);
	ASSERT_LE(0, bounded(&t, 10, 5));
	ASSERT_LE(0, go_on(&t, wide));
	ASSERT_LE(0, pwprog_insn(t.o.p, PWTPU_OP_COMPARE, PWTPU_CMP_GT, pred,
				 t.c[0], zero, PWTPU_NO_TENSOR, NULL, 0));
	ASSERT_LE(0, go_on(&t, pred));
	ASSERT_LE(0, decr(&t, 0));
	ASSERT_LE(0, incr(&t, 1));
	ASSERT_EQ(0, ops_run(&t.o));
	EXPECT_EQ(4, counter(&t, 1));
	EXPECT_EQ(0, *(int8_t *)ops_ptr(&t.o, pred));
	ops_fini(&t.o);
}

/*
 * With a spec, an execution's modelled time is that of what it ran:
 * default spec, 50 ns per insn, an i32 scalar ADD or SUB 51 ns. Counting
 * 5 down: LOOP, 5 trips of WHILE, SUB, ADD, the last trip's WHILE, the
 * ADD after: 50 + 5 * 152 + 50 + 51. The program's bound counts 100
 * trips.
 */
TEST(while_modelled_time)
{
	struct pwfw_exec_env env;
	struct pwfw_spec spec;
	struct counters t;

	pwfw_spec_default(&spec);
	ASSERT_EQ(0, count_down(&t, 5));
	memset(&env, 0, sizeof(env));
	env.compute = true;
	env.spec = &spec;
	ASSERT_EQ(0, ops_run_env(&t.o, &env));
	EXPECT_EQ(50ULL + 5 * 152 + 50 + 51, env.model_ns);
	EXPECT_EQ(50ULL + 100 * 152 + 51, t.o.prog.modeled_ns);
	/* Without a spec, the bound. */
	set(&t, 0, 5);
	env.spec = NULL;
	ASSERT_EQ(0, ops_run_env(&t.o, &env));
	EXPECT_EQ(t.o.prog.modeled_ns, env.model_ns);
	ops_fini(&t.o);
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
