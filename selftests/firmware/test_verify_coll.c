// SPDX-License-Identifier: GPL-2.0
/*
 * test_verify_coll.c - the verifier's rules for the collectives
 * (ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, COLLECTIVE_PERMUTE), rule by
 * rule: a minimal valid program passes, the same program with one change
 * fails with the rule's code at insn 1. Then what the verifier reports
 * about an accepted program with collectives.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "fw_testprog.h"

#define F32	PWTPU_DT_F32
#define BF16	PWTPU_DT_BF16
#define I8	PWTPU_DT_I8
#define I32	PWTPU_DT_I32
#define AR	PWTPU_OP_ALL_REDUCE
#define AG	PWTPU_OP_ALL_GATHER
#define RS	PWTPU_OP_REDUCE_SCATTER
#define CP	PWTPU_OP_COLLECTIVE_PERMUTE

/* A no-op first instruction, so that the broken one is insn 1. */
static void pad(struct tp *p)
{
	tp_delay(p, 0);
}

/* dst and a of @op over f32 [4,3] (ALL_GATHER: dst [8,3]; RS: a [8,3]). */
static struct pwtpu_insn *coll(struct tp *p, u32 op, u32 dt)
{
	u16 d = TP_T(p, dt, op == AG ? 8 : 4, 3);
	u16 a = TP_T(p, dt, op == RS ? 8 : 4, 3);

	pad(p);
	return tp_op(p, op, d, a, NO, NO);
}

/* @op is the dtype of a reduction: accepted, or i8 refused. */
static size_t b_reduce_dtype(struct tp *p, bool bad, u32 op)
{
	coll(p, op >> 8, bad ? I8 : op & 0xff);
	return tp_image(p);
}

/* OPDT(op, dt): @op over i32, or over dt, a dtype collectives refuse. */
static size_t b_new_dtype(struct tp *p, bool bad, u32 op)
{
	coll(p, op >> 8, bad ? op & 0xff : I32);
	return tp_image(p);
}

/* @op is the op; mode PROD is fine, PROD + 1 is not. */
static size_t b_reduce_mode(struct tp *p, bool bad, u32 op)
{
	coll(p, op, F32)->mode = PWTPU_REDUCE_PROD + bad;
	return tp_image(p);
}

/* @op: gather and permute have no mode. */
static size_t b_mode_unused(struct tp *p, bool bad, u32 op)
{
	coll(p, op, I8)->mode = bad;
	return tp_image(p);
}

/* REDUCE keeps SUM..MIN: PROD is for collectives only. */
static size_t b_reduce_prod(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 3), a = TP_T(p, F32, 4, 3);
	struct pwtpu_insn *in;

	(void)op;
	pad(p);
	in = tp_op(p, PWTPU_OP_REDUCE, d, a, NO, NO);
	in->arg[0] = 1;
	in->mode = bad ? PWTPU_REDUCE_PROD : PWTPU_REDUCE_MIN;
	return tp_image(p);
}

/* @op is the op; dst gets another dtype than a. */
static size_t b_dst_dtype(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, bad ? BF16 : I32, op == AG ? 8 : 4, 3);
	u16 a = TP_T(p, I32, op == RS ? 8 : 4, 3);

	pad(p);
	tp_op(p, op, d, a, NO, NO);
	return tp_image(p);
}

/* ALL_REDUCE, COLLECTIVE_PERMUTE: dst [4,3] vs [3,4], or a scalar. */
static size_t b_same_shape(struct tp *p, bool bad, u32 op)
{
	u16 d = bad ? TP_T(p, F32, 3, 4) : TP_T(p, F32, 4, 3);
	u16 a = TP_T(p, F32, 4, 3);
	u16 sd = TP_SCALAR(p, F32), sa = TP_SCALAR(p, F32);

	pad(p);
	tp_op(p, op, d, a, NO, NO);
	tp_op(p, op, sd, sa, NO, NO);
	return tp_image(p);
}

/*
 * The "big" side (ALL_GATHER's dst, REDUCE_SCATTER's a) [12,3,2] over
 * the small [4,3,2]; @op & 0xff picks the breakage: 0 big.shape[0] 10,
 * 1 big.shape[1] 4, 2 big.shape[2] 1, 3 big of rank 2, 4 small.shape[0]
 * 5, 5 small.shape[0] 24 (the small side bigger).
 */
static size_t b_blocks(struct tp *p, bool bad, u32 op)
{
	u32 big[3] = { 12, 3, 2 }, small[3] = { 4, 3, 2 };
	u32 brank = 3, what = op & 0xff;
	bool gather = (op >> 8) == AG;
	u16 tb, ts;

	if (bad) {
		if (what == 0)
			big[0] = 10;
		else if (what == 1)
			big[1] = 4;
		else if (what == 2)
			big[2] = 1;
		else if (what == 3)
			brank = 2;
		else if (what == 4)
			small[0] = 5;
		else
			small[0] = 24;
	}
	tb = tp_new(p, I32, brank, big);
	ts = tp_new(p, I32, 3, small);
	pad(p);
	tp_op(p, op >> 8, gather ? tb : ts, gather ? ts : tb, NO, NO);
	return tp_image(p);
}

/* dst and a equal in dimension 0 (a group of one) still verify. */
static size_t b_blocks_rank0(struct tp *p, bool bad, u32 op)
{
	u16 d, a;

	if (bad) {
		d = TP_SCALAR(p, F32);
		a = TP_SCALAR(p, F32);
	} else {
		d = TP_T(p, F32, 1);
		a = TP_T(p, F32, 1);
	}
	pad(p);
	tp_op(p, op, d, a, NO, NO);
	return tp_image(p);
}

/*
 * @op & 0xff: 0 dst is a exactly (peers read a while dst is written),
 * 1 dst overlaps a's last element; @op >> 8 is the op.
 */
static size_t b_overlap(struct tp *p, bool bad, u32 op)
{
	u32 o = op >> 8, dn = o == AG ? 8 : 4, an = o == RS ? 8 : 4;
	u16 a = TP_AT(p, F32, 0, 0, an);
	u16 d = TP_AT(p, F32, 0, 256, dn);

	if (bad && (op & 0xff) == 0 && dn == an)
		d = a;
	else if (bad)
		d = TP_AT(p, F32, 0, an * 4 - 4, dn);
	pad(p);
	tp_op(p, o, d, a, NO, NO);
	return tp_image(p);
}

/* @op & 0xff: 0 b set, 1 c set, 2 arg[0] set, 3 arg[4] set; missing a. */
static size_t b_fields(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in = coll(p, op >> 8, F32);
	u32 what = op & 0xff;

	if (!bad)
		return tp_image(p);
	if (what == 0)
		in->src[1] = 0;
	else if (what == 1)
		in->src[2] = 1;
	else if (what == 2)
		in->arg[0] = 1;
	else if (what == 3)
		in->arg[4] = 2;
	else if (what == 4)
		in->src[0] = NO;
	else
		in->dst = NO;
	return tp_image(p);
}

FIXTURE(rule) {
	struct tp *p;
};

FIXTURE_VARIANT(rule) {
	size_t (*build)(struct tp *p, bool bad, u32 op);
	u32 op;
	s32 code;
	const char *msg;
};

#define RULE(name, fn, param, verr, text) \
	FIXTURE_VARIANT_ADD(rule, name) { \
		.build = fn, .op = param, .code = PWTPU_VERR_##verr, \
		.msg = text, \
	}
#define OPDT(op, dt)	((op) << 8 | (dt))

RULE(ar_f32_not_i8, b_reduce_dtype, OPDT(AR, F32), DTYPE, "insn 1 (all_reduce): a is i8: reductions take f32, bf16 or i32");
RULE(ar_bf16_not_i8, b_reduce_dtype, OPDT(AR, BF16), DTYPE, NULL);
RULE(ar_i32_not_i8, b_reduce_dtype, OPDT(AR, I32), DTYPE, NULL);
RULE(rs_f32_not_i8, b_reduce_dtype, OPDT(RS, F32), DTYPE, "insn 1 (reduce_scatter): a is i8");
RULE(rs_bf16_not_i8, b_reduce_dtype, OPDT(RS, BF16), DTYPE, NULL);
RULE(rs_i32_not_i8, b_reduce_dtype, OPDT(RS, I32), DTYPE, NULL);
RULE(ar_f64, b_new_dtype, OPDT(AR, PWTPU_DT_F64), DTYPE, "insn 1 (all_reduce): a is f64: reductions take f32, bf16 or i32");
RULE(ar_i64, b_new_dtype, OPDT(AR, PWTPU_DT_I64), DTYPE, "a is i64: reductions take f32, bf16 or i32");
RULE(rs_u32, b_new_dtype, OPDT(RS, PWTPU_DT_U32), DTYPE, "insn 1 (reduce_scatter): a is u32: reductions take");
RULE(rs_f16, b_new_dtype, OPDT(RS, PWTPU_DT_F16), DTYPE, "a is f16");
RULE(ag_i64, b_new_dtype, OPDT(AG, PWTPU_DT_I64), DTYPE, "insn 1 (all_gather): a is i64: collectives take f32, bf16, i8 or i32");
RULE(ag_f16, b_new_dtype, OPDT(AG, PWTPU_DT_F16), DTYPE, "a is f16: collectives take");
RULE(ag_u16, b_new_dtype, OPDT(AG, PWTPU_DT_U16), DTYPE, "a is u16");
RULE(ag_u64, b_new_dtype, OPDT(AG, PWTPU_DT_U64), DTYPE, "a is u64");
RULE(cp_u8, b_new_dtype, OPDT(CP, PWTPU_DT_U8), DTYPE, "insn 1 (collective_permute): a is u8: collectives take f32, bf16, i8 or i32");
RULE(cp_f64, b_new_dtype, OPDT(CP, PWTPU_DT_F64), DTYPE, "a is f64");
RULE(cp_i16, b_new_dtype, OPDT(CP, PWTPU_DT_I16), DTYPE, "a is i16");
RULE(ar_mode, b_reduce_mode, AR, OPCODE, "unknown mode 4");
RULE(rs_mode, b_reduce_mode, RS, OPCODE, "unknown mode 4");
RULE(ag_mode, b_mode_unused, AG, RESERVED, "mode is unused");
RULE(cp_mode, b_mode_unused, CP, RESERVED, "mode is unused");
RULE(reduce_no_prod, b_reduce_prod, 0, OPCODE, "insn 1 (reduce): unknown mode 3");
RULE(ar_dst_dtype, b_dst_dtype, AR, MISMATCH, "dst is bf16 but a is i32: dtypes differ");
RULE(ag_dst_dtype, b_dst_dtype, AG, MISMATCH, "dtypes differ");
RULE(rs_dst_dtype, b_dst_dtype, RS, MISMATCH, "dtypes differ");
RULE(cp_dst_dtype, b_dst_dtype, CP, MISMATCH, "dtypes differ");
RULE(ar_shape, b_same_shape, AR, MISMATCH, "dst is [3,4] but a is [4,3]: shapes differ");
RULE(cp_shape, b_same_shape, CP, MISMATCH, "shapes differ");
RULE(ag_dim0, b_blocks, OPDT(AG, 0), MISMATCH, "dst.shape[0] 10 is not a multiple of a.shape[0] 4");
RULE(ag_dim1, b_blocks, OPDT(AG, 1), MISMATCH, "dimensions past the first differ");
RULE(ag_dim2, b_blocks, OPDT(AG, 2), MISMATCH, "dimensions past the first differ");
RULE(ag_rank, b_blocks, OPDT(AG, 3), MISMATCH, "ranks differ");
RULE(ag_small_dim0, b_blocks, OPDT(AG, 4), MISMATCH, "not a multiple");
RULE(ag_small_bigger, b_blocks, OPDT(AG, 5), MISMATCH, "dst.shape[0] 12 is not a multiple of a.shape[0] 24");
RULE(rs_dim0, b_blocks, OPDT(RS, 0), MISMATCH, "a.shape[0] 10 is not a multiple of dst.shape[0] 4");
RULE(rs_dim1, b_blocks, OPDT(RS, 1), MISMATCH, "dimensions past the first differ");
RULE(rs_dim2, b_blocks, OPDT(RS, 2), MISMATCH, NULL);
RULE(rs_rank, b_blocks, OPDT(RS, 3), MISMATCH, "ranks differ");
RULE(rs_small_dim0, b_blocks, OPDT(RS, 4), MISMATCH, NULL);
RULE(rs_small_bigger, b_blocks, OPDT(RS, 5), MISMATCH, "a.shape[0] 12 is not a multiple of dst.shape[0] 24");
RULE(ag_scalar, b_blocks_rank0, AG, SHAPE, "rank >= 1");
RULE(rs_scalar, b_blocks_rank0, RS, SHAPE, "rank >= 1");
RULE(ar_alias, b_overlap, OPDT(AR, 0), OVERLAP, "they overlap");
RULE(cp_alias, b_overlap, OPDT(CP, 0), OVERLAP, "they overlap");
RULE(ar_partial, b_overlap, OPDT(AR, 1), OVERLAP, NULL);
RULE(ag_partial, b_overlap, OPDT(AG, 1), OVERLAP, NULL);
RULE(rs_partial, b_overlap, OPDT(RS, 1), OVERLAP, NULL);
RULE(cp_partial, b_overlap, OPDT(CP, 1), OVERLAP, NULL);
RULE(ar_b_unused, b_fields, OPDT(AR, 0), RESERVED, "b is unused");
RULE(ag_c_unused, b_fields, OPDT(AG, 1), RESERVED, "c is unused");
RULE(rs_arg0_unused, b_fields, OPDT(RS, 2), RESERVED, "arg[0] is unused");
RULE(cp_arg4_unused, b_fields, OPDT(CP, 3), RESERVED, "arg[4] is unused");
RULE(ar_a_missing, b_fields, OPDT(AR, 4), OPERAND, "a is missing");
RULE(cp_dst_missing, b_fields, OPDT(CP, 5), OPERAND, "dst is missing");

FIXTURE_SETUP(rule)
{
	self->p = calloc(1, sizeof(*self->p));
	ASSERT_NE(NULL, self->p);
}

FIXTURE_TEARDOWN(rule)
{
	free(self->p);
}

TEST_F(rule, valid_passes_broken_fails)
{
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	size_t size;
	int ret;

	pwfw_spec_default(&spec);
	tp_reset(self->p, 1);
	size = variant->build(self->p, false, variant->op);
	ret = pwfw_verify(self->p->img, size, &spec, &prog, &err);
	ASSERT_EQ(0, ret) TH_LOG("valid program rejected: %s", err.msg);

	tp_reset(self->p, 1);
	size = variant->build(self->p, true, variant->op);
	ret = pwfw_verify(self->p->img, size, &spec, &prog, &err);
	ASSERT_EQ(-PWFW_EINVAL, ret);
	EXPECT_EQ(variant->code, err.code) TH_LOG("message: %s", err.msg);
	EXPECT_EQ(1U, err.insn) TH_LOG("message: %s", err.msg);
	EXPECT_EQ(0, strncmp(err.msg, "insn 1 (", 8)) TH_LOG("%s", err.msg);
	if (variant->msg)
		EXPECT_NE(NULL, strstr(err.msg, variant->msg))
			TH_LOG("'%s' not in '%s'", variant->msg, err.msg);
	EXPECT_EQ(0U, prog.ncoll);
}

/* Gather and permute move any dtype, i8 included; reductions every mode. */
TEST(dtypes_and_modes_accepted)
{
	static const u32 dts[] = { F32, BF16, I8, I32 };
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u32 i, mode;

	ASSERT_NE(NULL, p);
	for (i = 0; i < 4; i++) {
		tp_reset(p, 1);
		coll(p, AG, dts[i]);
		coll(p, CP, dts[i]);
		EXPECT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	}
	for (mode = PWTPU_REDUCE_SUM; mode <= PWTPU_REDUCE_PROD; mode++) {
		tp_reset(p, 1);
		coll(p, AR, BF16)->mode = (u8)mode;
		coll(p, RS, I32)->mode = (u8)mode;
		EXPECT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	}
	free(p);
}

/*
 * ncoll counts collective instructions as written, not as run; a
 * collective's modelled time is its issue overhead only.
 */
TEST(ncoll_and_modelled_time)
{
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	u16 big, small, x;
	size_t size;

	ASSERT_NE(NULL, p);
	tp_reset(p, 1);
	big = TP_T(p, F32, 4096, 16);
	small = TP_T(p, F32, 1024, 16);
	x = TP_T(p, F32, 4096, 16);
	tp_loop(p, 5, 2);
	tp_op(p, AR, x, big, NO, NO);
	tp_op(p, RS, small, big, NO, NO);
	tp_op(p, AG, big, small, NO, NO);
	size = tp_image(p);
	pwfw_spec_default(&spec);
	spec.insn_overhead_ns = 30;
	ASSERT_EQ(0, pwfw_verify(p->img, size, &spec, &prog, &err))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(3U, prog.ncoll);
	EXPECT_EQ(12ULL, prog.dyn_insns);
	EXPECT_EQ(12ULL * 30, prog.modeled_ns);

	tp_reset(p, 1);
	TP_T(p, F32, 4);
	pad(p);
	ASSERT_EQ(0, tp_verify(p, &prog, &err));
	EXPECT_EQ(0U, prog.ncoll);
	free(p);
}

TEST_HARNESS_MAIN
