// SPDX-License-Identifier: GPL-2.0
/*
 * test_verify_prog.c - what the verifier reports about a program it
 * accepts (buffer sizes, dynamic instruction count, modelled time), its
 * exact messages, and its behaviour on truncated and corrupted images.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "fw_testprog.h"

#define F32	PWTPU_DT_F32
#define BF16	PWTPU_DT_BF16
#define I8	PWTPU_DT_I8
#define I32	PWTPU_DT_I32

static struct tp *tp_alloc(u32 nbufs)
{
	struct tp *p = calloc(1, sizeof(*p));

	if (p)
		tp_reset(p, nbufs);
	return p;
}

/*
 * Reference for dyn_insns and modeled_ns: run the loops of insns
 * [first, end) for real, adding up the model's time of each instruction.
 */
static void walk(const struct pwfw_spec *spec, const struct pwfw_prog *prog,
		 u32 first, u32 end, u64 *count, u64 *ns)
{
	u32 i, trip;

	for (i = first; i < end; i++) {
		const struct pwtpu_insn *in = &prog->insns[i];

		*count += 1;
		*ns += pwfw_model_insn_ns(spec, prog, in);
		if (in->op != PWTPU_OP_LOOP)
			continue;
		for (trip = 0; trip < in->arg[0]; trip++)
			walk(spec, prog, i + 1, i + 1 + in->arg[1], count, ns);
		i += in->arg[1];
	}
}

/* One instance of every op, some inside nested loops. */
static void rich_program(struct tp *p)
{
	u16 m = TP_T(p, F32, 4, 6), ma = TP_T(p, BF16, 4, 5);
	u16 mb = TP_T(p, BF16, 5, 6), x = TP_T(p, F32, 4, 6);
	u16 y = TP_T(p, F32, 4, 6), pr = TP_T(p, I8, 4, 6);
	u16 ci = TP_T(p, I32, 4, 6), row = TP_T(p, F32, 6);
	u16 tr = TP_T(p, F32, 6, 4), sl = TP_T(p, F32, 2, 3);
	u16 rs = TP_T(p, F32, 24), rd = TP_T(p, F32, 4);
	u16 k = TP_SCALAR(p, I32), one = TP_SCALAR(p, I32);
	u32 op;

	tp_op(p, PWTPU_OP_MATMUL, m, ma, mb, NO);
	tp_loop(p, 3, 17);
	for (op = PWTPU_OP_ADD; op <= PWTPU_OP_MIN; op++)
		tp_op(p, op, x, x, m, NO);
	tp_loop(p, 2, 6);
	for (op = PWTPU_OP_NEG; op <= PWTPU_OP_RSQRT; op++)
		tp_op(p, op, y, y, NO, NO);
	tp_op(p, PWTPU_OP_COMPARE, pr, x, y, NO)->mode = PWTPU_CMP_LT;
	tp_op(p, PWTPU_OP_SELECT, x, pr, x, y);
	tp_op(p, PWTPU_OP_CONVERT, ci, x, NO, NO);
	tp_op(p, PWTPU_OP_BROADCAST, y, row, NO, NO);
	tp_delay(p, 1000);
	tp_op(p, PWTPU_OP_RESHAPE, rs, x, NO, NO);
	tp_op(p, PWTPU_OP_TRANSPOSE, tr, x, NO, NO)->arg[0] = 1;
	tp_op(p, PWTPU_OP_SLICE, sl, x, NO, NO)->arg[1] = 3;
	tp_op(p, PWTPU_OP_REDUCE, rd, x, NO, NO)->arg[0] = 2;
	/* A bounded loop: while k, k = k - one. */
	tp_loop(p, 4, 2)->mode = PWTPU_LOOP_BOUNDED;
	tp_op(p, PWTPU_OP_WHILE, NO, k, NO, NO);
	tp_op(p, PWTPU_OP_SUB, k, k, one, NO);
}

TEST(accepted_program_reports)
{
	struct tp *p = tp_alloc(3);
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u64 want[PWTPU_MAX_BUFS] = { 0 }, count = 0, ns = 0;
	size_t size;
	u32 i;

	ASSERT_NE(NULL, p);
	rich_program(p);
	/* Unused tensors count too: binding 2 needs 4 KiB + 8 bytes. */
	TP_AT(p, I32, 2, 4096, 2);
	TP_AT(p, I8, 2, 100, 7);
	size = tp_image(p);
	pwfw_spec_default(&spec);
	ASSERT_EQ(0, pwfw_verify(p->img, size, &spec, &prog, &err))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(PWTPU_VERR_OK, err.code);
	EXPECT_EQ(PWTPU_VERR_NO_INSN, err.insn);
	EXPECT_STREQ("", err.msg);
	EXPECT_EQ(p->nt, prog.ntensors);
	EXPECT_EQ(p->ni, prog.ninsns);
	EXPECT_EQ(3U, prog.nbufs);
	EXPECT_EQ(128U, prog.array_dim);
	EXPECT_EQ((char *)p->img + 32, (const char *)prog.tensors);
	EXPECT_EQ((char *)p->img + 32 + 32 * p->nt, (const char *)prog.insns);

	for (i = 0; i < p->nt; i++) {
		const struct pwtpu_tensor *t = &p->t[i];
		u64 end = t->offset + pwfw_tensor_elems(t) *
			  pwfw_dtype_size(t->dtype);

		if (end > want[t->buf])
			want[t->buf] = end;
	}
	EXPECT_EQ(4104ULL, want[2]);
	for (i = 0; i < PWTPU_MAX_BUFS; i++)
		EXPECT_EQ(want[i], prog.buf_bytes[i]) TH_LOG("binding %u", i);

	walk(&spec, &prog, 0, prog.ninsns, &count, &ns);
	EXPECT_EQ(count, prog.dyn_insns);
	EXPECT_EQ(ns, prog.modeled_ns);
	/*
	 * matmul, loop, 3 * (6 binary, loop, 2 * 6 unary, 4 more), 5 more,
	 * a bounded loop of 4 trips of 2
	 */
	EXPECT_EQ(1ULL + 1 + 3 * (6 + 1 + 2 * 6 + 4) + 5 + 1 + 4 * 2,
		  prog.dyn_insns);
	EXPECT_EQ(1U, prog.nbounded);
	free(p);
}

/*
 * One instance of each op of UAPI 5, integer ones on i32, float ones in
 * place on f32, some in a loop: accepted, with the counts and time of the
 * reference walk.
 */
TEST(new_ops_program_reports)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u64 count = 0, ns = 0;
	u16 ci, x, y;
	u32 op;

	ASSERT_NE(NULL, p);
	ci = TP_T(p, I32, 4, 6);
	x = TP_T(p, F32, 4, 6);
	y = TP_T(p, F32, 4, 6);
	tp_loop(p, 2, PWTPU_OP_CLZ - PWTPU_OP_AND + 1);
	for (op = PWTPU_OP_AND; op <= PWTPU_OP_CLZ; op++)
		tp_op(p, op, ci, ci, op == PWTPU_OP_NOT ||
		      op == PWTPU_OP_POPCNT || op == PWTPU_OP_CLZ ? NO : ci, NO);
	for (op = PWTPU_OP_FLOOR; op <= PWTPU_OP_REM; op++)
		tp_op(p, op, y, y, op >= PWTPU_OP_ATAN2 ? x : NO, NO);
	tp_op(p, PWTPU_OP_BITCAST, ci, x, NO, NO);
	tp_op(p, PWTPU_OP_REDUCE_PRECISION, y, y, NO, NO)->arg[0] = 5;
	pwfw_spec_default(&spec);
	ASSERT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	walk(&spec, &prog, 0, prog.ninsns, &count, &ns);
	EXPECT_EQ(count, prog.dyn_insns);
	EXPECT_EQ(ns, prog.modeled_ns);
	/* loop, 2 * 9 integer ops, 15 float ops, bitcast, reduce_precision */
	EXPECT_EQ(1ULL + 2 * 9 + 15 + 2, prog.dyn_insns);
	EXPECT_EQ(PWTPU_VERR_OK, err.code);
	free(p);
}

/*
 * Bounded loops count at all their trips, their WHILEs as instructions
 * of no work: bounded(4: while, add, bounded(3: while, delay 100)),
 * delay 7; the reference walk agrees.
 */
TEST(bounded_loops_report)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u64 count = 0, ns = 0;
	u16 k, x;

	ASSERT_NE(NULL, p);
	k = TP_SCALAR(p, I32);
	x = TP_T(p, F32, 4, 6);
	tp_loop(p, 4, 5)->mode = PWTPU_LOOP_BOUNDED;
	tp_op(p, PWTPU_OP_WHILE, NO, k, NO, NO);
	tp_op(p, PWTPU_OP_ADD, x, x, x, NO);
	tp_loop(p, 3, 2)->mode = PWTPU_LOOP_BOUNDED;
	tp_op(p, PWTPU_OP_WHILE, NO, k, NO, NO);
	tp_delay(p, 100);
	tp_delay(p, 7);
	pwfw_spec_default(&spec);
	ASSERT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	walk(&spec, &prog, 0, prog.ninsns, &count, &ns);
	EXPECT_EQ(count, prog.dyn_insns);
	EXPECT_EQ(ns, prog.modeled_ns);
	EXPECT_EQ(1ULL + 4 * (3 + 3 * 2) + 1, prog.dyn_insns);
	/* The adds' 24 elements each; nothing for LOOP, WHILE, DELAY. */
	EXPECT_EQ(4ULL * 24, prog.work);
	EXPECT_EQ(2U, prog.nbounded);
	free(p);
}

/* delay 7 after loop(3: delay 100), 50 ns per insn: hand numbers. */
TEST(loop_and_delay_by_hand)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_prog prog;
	struct pwfw_verr err;

	ASSERT_NE(NULL, p);
	TP_T(p, F32, 1);
	tp_loop(p, 3, 1);
	tp_delay(p, 100);
	tp_delay(p, 7);
	ASSERT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(5ULL, prog.dyn_insns);
	EXPECT_EQ(50ULL + 3 * 150 + 57, prog.modeled_ns);
	free(p);
}

/*
 * Real work is bounded whatever the model says: the review's i8
 * [1024,4096] x [4096,1024] matmul (operands overlapping in 8 MiB)
 * models at about 0.3 ms, is 2^32 multiply-adds (the per-instruction
 * limit, accepted alone) and in a 30,000-trip loop was accepted and ran
 * for about a day. Now the loop is refused, and so is one matmul of
 * twice the work.
 */
TEST(real_work_is_bounded)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u16 a, b, c;

	ASSERT_NE(NULL, p);
	a = TP_AT(p, I8, 0, 0, 1024, 4096);
	b = TP_AT(p, I8, 0, 0, 4096, 1024);
	c = TP_AT(p, I32, 0, 8 << 20, 1024, 1024);
	tp_op(p, PWTPU_OP_MATMUL, c, a, b, NO);
	ASSERT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1ULL << 32, prog.work);
	EXPECT_GT(1000000ULL, prog.modeled_ns);

	tp_reset(p, 1);
	a = TP_AT(p, I8, 0, 0, 1024, 4096);
	b = TP_AT(p, I8, 0, 0, 4096, 1024);
	c = TP_AT(p, I32, 0, 8 << 20, 1024, 1024);
	tp_loop(p, 30000, 1);
	tp_op(p, PWTPU_OP_MATMUL, c, a, b, NO);
	ASSERT_EQ(-PWFW_EINVAL, tp_verify(p, &prog, &err));
	EXPECT_EQ(PWTPU_VERR_BOUND, err.code);
	EXPECT_NE(NULL, strstr(err.msg, "work")) TH_LOG("%s", err.msg);

	tp_reset(p, 1);
	a = TP_AT(p, I8, 0, 0, 2048, 4096);
	b = TP_AT(p, I8, 0, 0, 4096, 1024);
	c = TP_AT(p, I32, 0, 8 << 20, 2048, 1024);
	tp_op(p, PWTPU_OP_MATMUL, c, a, b, NO);
	ASSERT_EQ(-PWFW_EINVAL, tp_verify(p, &prog, &err));
	EXPECT_EQ(PWTPU_VERR_BOUND, err.code);
	EXPECT_NE(NULL, strstr(err.msg, "units of work")) TH_LOG("%s", err.msg);
	free(p);
}

TEST(spec_reaches_the_program)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	size_t size;

	ASSERT_NE(NULL, p);
	TP_T(p, F32, 1);
	tp_delay(p, 100);
	tp_delay(p, 100);
	size = tp_image(p);
	pwfw_spec_default(&spec);
	spec.insn_overhead_ns = 7;
	spec.array_dim = 512;
	ASSERT_EQ(0, pwfw_verify(p->img, size, &spec, &prog, &err));
	EXPECT_EQ(214ULL, prog.modeled_ns);
	EXPECT_EQ(512U, prog.array_dim);
	free(p);
}

TEST(empty_program)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_prog prog;
	struct pwfw_verr err;

	ASSERT_NE(NULL, p);
	TP_T(p, I8, 3);
	ASSERT_EQ(0, tp_verify(p, &prog, &err));
	EXPECT_EQ(0ULL, prog.dyn_insns);
	EXPECT_EQ(0ULL, prog.modeled_ns);
	EXPECT_EQ(3ULL, prog.buf_bytes[0]);
	free(p);
}

/* What each op accepts beyond the one dtype the rule tests use: all 12. */
TEST(dtypes_accepted)
{
	static const u32 dts[] = {
		PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32,
		PWTPU_DT_F16, PWTPU_DT_F64, PWTPU_DT_I16, PWTPU_DT_I64,
		PWTPU_DT_U8, PWTPU_DT_U16, PWTPU_DT_U32, PWTPU_DT_U64,
	};
	const u32 n = sizeof(dts) / sizeof(dts[0]);
	struct tp *p = tp_alloc(1);
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u16 d, a, b, pred, s, t;
	u32 i, j, op, mode;

	ASSERT_NE(NULL, p);
	for (i = 0; i < n; i++) {
		for (op = PWTPU_OP_ADD; op <= PWTPU_OP_ABS; op++) {
			tp_reset(p, 1);
			d = TP_T(p, dts[i], 3);
			a = TP_T(p, dts[i], 3);
			b = TP_T(p, dts[i], 3);
			tp_op(p, op, d, a, op >= PWTPU_OP_NEG ? NO : b, NO);
			EXPECT_EQ(0, tp_verify(p, &prog, &err))
				TH_LOG("op %u dtype %u: %s", op, dts[i], err.msg);
		}
		for (j = 0; j < n; j++) {
			tp_reset(p, 1);
			d = TP_T(p, dts[j], 2, 2);
			a = TP_T(p, dts[i], 2, 2);
			tp_op(p, PWTPU_OP_CONVERT, d, a, NO, NO);
			EXPECT_EQ(0, tp_verify(p, &prog, &err))
				TH_LOG("convert %u -> %u: %s", dts[i], dts[j],
				       err.msg);
		}
		for (mode = PWTPU_REDUCE_SUM; mode <= PWTPU_REDUCE_MIN; mode++) {
			tp_reset(p, 1);
			pred = TP_T(p, I8, 5);
			a = TP_T(p, dts[i], 5);
			b = TP_T(p, dts[i], 5);
			d = TP_T(p, dts[i], 5);
			s = TP_SCALAR(p, dts[i]);
			tp_op(p, PWTPU_OP_COMPARE, pred, a, b,
			      NO)->mode = (u8)(PWTPU_CMP_NE + mode);
			tp_op(p, PWTPU_OP_SELECT, d, pred, a, b);
			tp_op(p, PWTPU_OP_REDUCE, s, a, NO, NO)->arg[0] = 1;
			p->in[p->ni - 1].mode = (u8)mode;
			EXPECT_EQ(0, tp_verify(p, &prog, &err))
				TH_LOG("%s", err.msg);
		}
		tp_reset(p, 1);
		a = TP_T(p, dts[i], 2, 3);
		t = TP_T(p, dts[i], 3, 2);
		d = TP_T(p, dts[i], 4, 2, 3);
		s = TP_T(p, dts[i], 1, 2);
		b = TP_T(p, dts[i], 6);
		tp_op(p, PWTPU_OP_TRANSPOSE, t, a, NO, NO)->arg[0] = 1;
		tp_op(p, PWTPU_OP_BROADCAST, d, a, NO, NO);
		tp_op(p, PWTPU_OP_SLICE, s, a, NO, NO)->arg[1] = 1;
		tp_op(p, PWTPU_OP_RESHAPE, b, a, NO, NO);
		EXPECT_EQ(0, tp_verify(p, &prog, &err))
			TH_LOG("dtype %u: %s", dts[i], err.msg);
	}
	/* f16 has exp, log, tanh and rsqrt, like f32 and bf16. */
	for (op = PWTPU_OP_EXP; op <= PWTPU_OP_RSQRT; op++) {
		tp_reset(p, 1);
		a = TP_T(p, PWTPU_DT_F16, 3);
		tp_op(p, op, a, a, NO, NO);
		EXPECT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	}
	free(p);
}

/*
 * Operands may share bytes; a result may be a twin descriptor; the same
 * offset in another binding is other memory.
 */
TEST(operands_may_overlap)
{
	struct tp *p = tp_alloc(2);
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u16 a, twin, d, sq, w, other;

	ASSERT_NE(NULL, p);
	a = TP_AT(p, F32, 0, 0, 4, 4);
	twin = TP_AT(p, F32, 0, 0, 4, 4);
	d = TP_AT(p, F32, 0, 64, 4, 4);
	sq = TP_AT(p, F32, 0, 32, 4, 4);	/* overlaps a and d */
	w = TP_AT(p, F32, 0, 128, 4, 4);
	other = TP_AT(p, F32, 1, 0, 4, 4);
	tp_op(p, PWTPU_OP_ADD, twin, a, a, NO);
	tp_op(p, PWTPU_OP_MATMUL, w, a, sq, NO);
	tp_op(p, PWTPU_OP_TRANSPOSE, other, a, NO, NO)->arg[0] = 1;
	tp_op(p, PWTPU_OP_MUL, d, a, sq, NO);
	EXPECT_EQ(-PWFW_EINVAL, tp_verify(p, &prog, &err));
	EXPECT_EQ(PWTPU_VERR_OVERLAP, err.code) TH_LOG("%s", err.msg);
	EXPECT_EQ(3U, err.insn);
	p->ni--;
	EXPECT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	free(p);
}

TEST(exact_messages)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	size_t size;

	ASSERT_NE(NULL, p);
	pwfw_spec_default(&spec);
	TP_T(p, F32, 1);
	tp_delay(p, 0);
	tp_op(p, PWTPU_OP_MATMUL, TP_T(p, F32, 4, 7), TP_T(p, F32, 4, 5),
	      TP_T(p, F32, 6, 7), NO);
	ASSERT_EQ(-PWFW_EINVAL, tp_verify(p, &prog, &err));
	EXPECT_STREQ("insn 1 (matmul): a is [4,5] but b is [6,7]: inner dimensions differ",
		     err.msg);

	tp_reset(p, 1);
	TP_T(p, F32, 1);
	TP_T(p, F32, 1);
	TP_AT(p, F32, 0, 6, 2, 2);
	ASSERT_EQ(-PWFW_EINVAL, tp_verify(p, &prog, &err));
	EXPECT_STREQ("tensor 2: offset 6 is not a multiple of 4", err.msg);

	tp_reset(p, 1);
	TP_T(p, F32, 1);
	size = tp_image(p);
	ASSERT_EQ(-PWFW_EINVAL, pwfw_verify(p->img, size + 3, &spec, &prog,
					    &err));
	EXPECT_STREQ("image is 67 bytes but its header makes it 64", err.msg);
	free(p);
}

/* A message about the largest numbers still fits whole. */
TEST(longest_message_fits)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u32 i;

	ASSERT_NE(NULL, p);
	for (i = 0; i < PWTPU_MAX_INSNS - 1; i++)
		tp_delay(p, 0);
	tp_op(p, PWTPU_OP_BROADCAST,
	      TP_AT(p, I8, 0, 0, 1, 1, 1, 67108864),
	      TP_AT(p, I8, 0, 1ULL << 30, 1, 1, 1, 67108863), NO, NO);
	ASSERT_EQ(-PWFW_EINVAL, tp_verify(p, &prog, &err));
	EXPECT_EQ(PWTPU_VERR_MISMATCH, err.code);
	EXPECT_STREQ("insn 4095 (broadcast): dst is [1,1,1,67108864] but a is [1,1,1,67108863]: a's extents must be 1 or dst's",
		     err.msg);
	free(p);
}

TEST(every_truncation)
{
	struct tp *p = tp_alloc(1);
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	size_t size, n;

	ASSERT_NE(NULL, p);
	rich_program(p);
	size = tp_image(p);
	pwfw_spec_default(&spec);
	for (n = 0; n < size + 64; n++) {
		if (n == size)
			continue;
		ASSERT_EQ(-PWFW_EINVAL,
			  pwfw_verify(p->img, n, &spec, &prog, &err));
		ASSERT_EQ(PWTPU_VERR_TRUNCATED, err.code) TH_LOG("size %zu", n);
		ASSERT_EQ(PWTPU_VERR_NO_INSN, err.insn);
	}
	ASSERT_EQ(-PWFW_EINVAL, pwfw_verify(NULL, size, &spec, &prog, &err));
	EXPECT_EQ(PWTPU_VERR_TRUNCATED, err.code);
	free(p);
}

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rng(void)
{
	/* xorshift64: reproducible across runs and hosts */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A value likely to hit an edge of some field. */
static u64 edgy(void)
{
	static const u64 edges[] = {
		0, 1, 2, 3, 4, 5, 7, 8, 0xff, 0x100, 0xffff, 0x10000,
		1ULL << 26, (1ULL << 26) + 1, 0x7fffffff, 0x80000000,
		0xffffffff, 1ULL << 32, ~0ULL,
	};

	if (rng() % 2)
		return edges[rng() % (sizeof(edges) / sizeof(edges[0]))];
	return rng();
}

/*
 * Independent check of what an accepted program must satisfy for the
 * interpreter to stay inside its buffers.
 */
static bool accepted_is_safe(const struct pwfw_prog *prog)
{
	u64 ends[PWTPU_MAX_LOOP_DEPTH] = { 0 };
	bool bounded[PWTPU_MAX_LOOP_DEPTH] = { false };
	u32 i, k, open = 0;

	if (!prog->ntensors || prog->ntensors > PWTPU_MAX_TENSORS ||
	    prog->ninsns > PWTPU_MAX_INSNS || prog->nbufs > PWTPU_MAX_BUFS)
		return false;
	for (i = 0; i < prog->ntensors; i++) {
		const struct pwtpu_tensor *t = &prog->tensors[i];
		unsigned __int128 bytes = pwfw_dtype_size(t->dtype);

		if (!bytes || t->rank > 4 || t->buf >= prog->nbufs)
			return false;
		for (k = 0; k < t->rank; k++)
			bytes *= t->shape[k];
		if (t->offset + bytes > prog->buf_bytes[t->buf] ||
		    t->offset + bytes > PWTPU_MAX_OFFSET)
			return false;
	}
	for (i = 0; i < prog->ninsns; i++) {
		const struct pwtpu_insn *in = &prog->insns[i];

		while (open && ends[open - 1] < i)
			open--;
		if (!in->op || in->op >= PWTPU_OP_COUNT)
			return false;
		if (in->dst != NO && in->dst >= prog->ntensors)
			return false;
		for (k = 0; k < 3; k++)
			if (in->src[k] != NO && in->src[k] >= prog->ntensors)
				return false;
		/* A WHILE leaves the innermost loop: a bounded one. */
		if (in->op == PWTPU_OP_WHILE &&
		    (!open || !bounded[open - 1] || in->src[0] == NO ||
		     prog->tensors[in->src[0]].rank))
			return false;
		if (in->op == PWTPU_OP_LOOP) {
			if (!in->arg[0] || !in->arg[1] || in->mode > 1 ||
			    (u64)i + in->arg[1] >= prog->ninsns ||
			    (open && i + in->arg[1] > ends[open - 1]) ||
			    open == PWTPU_MAX_LOOP_DEPTH)
				return false;
			bounded[open] = in->mode == PWTPU_LOOP_BOUNDED;
			ends[open++] = (u64)i + in->arg[1];
		}
	}
	return prog->dyn_insns <= PWTPU_MAX_DYN_INSNS &&
	       prog->modeled_ns <= PWTPU_MAX_PROG_NS &&
	       prog->work <= PWTPU_MAX_WORK;
}

TEST(random_corruption)
{
	struct tp *p = tp_alloc(2);
	static u64 img[(32 + 64 * 64) / 8];
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u32 iter, accepted = 0, codes = 0;
	size_t size;

	ASSERT_NE(NULL, p);
	rich_program(p);
	TP_AT(p, F32, 1, 64, 3, 3);
	size = tp_image(p);
	ASSERT_GE(sizeof(img), size);
	pwfw_spec_default(&spec);
	for (iter = 0; iter < 200000; iter++) {
		u32 n = 1 + rng() % 3, k, ninsns;
		int ret;

		memcpy(img, p->img, size);
		/* Overwrite 1..3 random fields of 1, 2, 4 or 8 bytes. */
		for (k = 0; k < n; k++) {
			u32 width = 1U << (rng() % 4);
			size_t at = (rng() % (size / width)) * width;
			u64 v = edgy();

			memcpy((char *)img + at, &v, width);
		}
		ret = pwfw_verify(img, size, &spec, &prog, &err);
		ASSERT_LT(strnlen(err.msg, sizeof(err.msg)), sizeof(err.msg));
		if (!ret) {
			accepted++;
			ASSERT_EQ(PWTPU_VERR_OK, err.code);
			ASSERT_TRUE(accepted_is_safe(&prog))
				TH_LOG("iteration %u", iter);
			continue;
		}
		ASSERT_EQ(-PWFW_EINVAL, ret);
		ASSERT_GT(err.code, PWTPU_VERR_OK);
		ASSERT_LE(err.code, PWTPU_VERR_BOUND);
		codes |= 1U << err.code;
		ASSERT_NE(0, err.msg[0]);
		memcpy(&ninsns, (char *)img +
		       offsetof(struct pwtpu_prog_header, ninsns), 4);
		if (err.insn != PWTPU_VERR_NO_INSN)
			ASSERT_LT(err.insn, ninsns);
	}
	TH_LOG("%u of %u accepted, codes %#x", accepted, iter, codes);
	/* The corruption reached both verdicts and most rules. */
	EXPECT_LT(100U, accepted);
	EXPECT_LE(12, __builtin_popcount(codes)) TH_LOG("codes %#x", codes);
	free(p);
}

TEST_HARNESS_MAIN
