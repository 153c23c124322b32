// SPDX-License-Identifier: GPL-2.0
/*
 * test_verify_gs.c - the verifier's rules for SCATTER and GATHER, rule by
 * rule: a minimal valid program passes, the same program with one change
 * fails with the rule's code and message at insn 1. Then what it accepts
 * (every dtype, every index dtype, every mode, a scatter in place) and
 * the modelled time and work of both.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "fw_testprog.h"

#define F32	PWTPU_DT_F32
#define I32	PWTPU_DT_I32
#define I64	PWTPU_DT_I64
#define SC	PWTPU_OP_SCATTER
#define GA	PWTPU_OP_GATHER
#define ARG0	PWTPU_GS_ARG0
#define PAIR	PWTPU_GS_PAIR
#define MAP	PWTPU_GS_MAP

static void pad(struct tp *p)
{
	tp_delay(p, 0);
}

/*
 * Base 1, the spec's example without its last dimension: a f32 [2,3,4],
 * b i64 [2,2,3,2] (V = 3, M = [2,1]), batching dim 0 of a paired with
 * dim 1 of b, dim 1 of a inserted, c (or dst) [2,2,3,2] with window
 * dim 3.
 */
static struct pwtpu_insn *base1(struct tp *p, u32 op)
{
	u16 a = TP_T(p, F32, 2, 3, 4), b = TP_T(p, I64, 2, 2, 3, 2);
	u16 w = TP_T(p, F32, 2, 2, 3, 2);
	u16 d = op == SC ? TP_T(p, F32, 2, 3, 4) : w;
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, op, d, a, b, op == SC ? w : NO);
	in->arg[0] = ARG0(8, 2, 1, 3);
	in->arg[1] = PAIR(0, 1) | MAP(0, 2) | MAP(1, 1);
	return in;
}

/*
 * Base 2, rows into a matrix: a f32 [5,6], b i32 [3,1] (V = 1, M = [0]),
 * dim 0 of a inserted, c f32 [3,6] with window dim 1.
 */
static struct pwtpu_insn *base2(struct tp *p, u32 op, const u32 *bs,
				const u32 *ws, u32 wrank)
{
	u16 a = TP_T(p, F32, 5, 6);
	u16 b = tp_new(p, I32, 2, bs ? bs : TP_SHAPE(3, 1));
	u16 w = tp_new(p, F32, ws ? wrank : 2, ws ? ws : TP_SHAPE(3, 6));
	u16 d = op == SC ? TP_T(p, F32, 5, 6) : w;
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, op, d, a, b, op == SC ? w : NO);
	in->arg[0] = ARG0(2, 1, 0, 1);
	in->arg[1] = MAP(0, 0);
	return in;
}

/*
 * Base 3, a gather with two batching pairs in crossed order: a f32
 * [2,3,5] batching dims 0 and 1, b i32 [3,2,1] (V = 2, M = [2]) whose
 * dim 1 pairs with a's 0 and dim 0 with a's 1, dst [3,2,4] window dim 2.
 */
static struct pwtpu_insn *base3(struct tp *p, const u32 *bs)
{
	u16 a = TP_T(p, F32, 2, 3, 5);
	u16 b = tp_new(p, I32, 3, bs ? bs : TP_SHAPE(3, 2, 1));
	u16 d = TP_T(p, F32, 3, 2, 4);
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, GA, d, a, b, NO);
	in->arg[0] = ARG0(4, 0, 3, 2);
	in->arg[1] = PAIR(0, 1) | PAIR(1, 0) | MAP(0, 2);
	return in;
}

enum breakage {
	B_MODE, B_GATHER_MODE, B_ARG2, B_ARG0_BITS, B_ARG1_BITS,
	B_INDEX_FLOAT, B_C_DTYPE, B_DST_DTYPE, B_DST_SHAPE, B_WINDOW_MASK,
	B_INSERTED_MASK, B_BOTH, B_COUNT, B_V_PAST, B_VECTOR_LONG,
	B_MAP_RANGE, B_MAP_BATCHING, B_MAP_REPEATS, B_MAP_PAST_N,
	B_PAIR_RANGE, B_PAIR_V, B_PAIR_REPEATS, B_PAIR_EXTENT,
	B_PAIR_PAST_NB, B_W_RANK, B_W_WINDOW, B_W_BATCH, B_GATHER_WINDOW,
	B_OVERLAP_C, B_OVERLAP_B, B_GATHER_ALIAS, B_C_MISSING, B_GATHER_C,
};

#define ON(op, what)	((op) << 8 | (what))

static size_t b_rule(struct tp *p, bool bad, u32 param)
{
	u32 op = param >> 8, what = bad ? param & 0xff : ~0U;
	struct pwtpu_insn *in;

	switch (what) {
	case B_W_RANK:
		in = base2(p, op, NULL, TP_SHAPE(3, 6, 1), 3);
		break;
	case B_W_WINDOW:
		in = base2(p, op, NULL, TP_SHAPE(3, 7), 2);
		break;
	case B_W_BATCH:
		in = base2(p, op, NULL, TP_SHAPE(4, 6), 2);
		break;
	case B_VECTOR_LONG:
		in = base2(p, op, TP_SHAPE(3, 3), NULL, 0);
		break;
	case B_PAIR_EXTENT:
		in = base3(p, TP_SHAPE(2, 2, 1));
		break;
	case B_GATHER_WINDOW:
		in = base2(p, GA, NULL, TP_SHAPE(3, 7), 2);
		break;
	case B_PAIR_RANGE:
	case B_PAIR_V:
	case B_PAIR_REPEATS:
		in = base3(p, NULL);
		break;
	case B_MAP_RANGE:
	case B_MAP_BATCHING:
	case B_MAP_REPEATS:
	case B_BOTH:
		in = base1(p, op);
		break;
	default:
		in = op == 0xff ? base3(p, NULL) : base2(p, op, NULL, NULL, 0);
		break;
	}
	switch (what) {
	case B_MODE:
		in->mode = PWTPU_SCATTER_MAX + 1;
		break;
	case B_GATHER_MODE:
		in->mode = 1;
		break;
	case B_ARG2:
		in->arg[2] = 1;
		break;
	case B_ARG0_BITS:
		in->arg[0] |= 1U << 4;
		break;
	case B_ARG1_BITS:
		in->arg[1] |= 1U << 9;
		break;
	case B_INDEX_FLOAT:
		p->t[in->src[1]].dtype = F32;
		break;
	case B_C_DTYPE:
		p->t[in->src[2]].dtype = I32;
		break;
	case B_DST_DTYPE:
		p->t[in->dst].dtype = I32;
		break;
	case B_DST_SHAPE:
		p->t[in->dst].shape[0] = 6;
		p->t[in->dst].shape[1] = 5;
		break;
	case B_WINDOW_MASK:
		in->arg[0] = ARG0(6, 1, 0, 1);
		break;
	case B_INSERTED_MASK:
		in->arg[0] = ARG0(2, 5, 0, 1);
		break;
	case B_BOTH:
		in->arg[0] = ARG0(8, 3, 1, 3);
		break;
	case B_COUNT:
		in->arg[0] = ARG0(2, 0, 0, 1);
		break;
	case B_V_PAST:
		in->arg[0] = ARG0(2, 1, 0, 3);
		break;
	case B_MAP_RANGE:
		in->arg[1] = PAIR(0, 1) | MAP(0, 3) | MAP(1, 1);
		break;
	case B_MAP_BATCHING:
		in->arg[1] = PAIR(0, 1) | MAP(0, 2) | MAP(1, 0);
		break;
	case B_MAP_REPEATS:
		in->arg[1] = PAIR(0, 1) | MAP(0, 2) | MAP(1, 2);
		break;
	case B_MAP_PAST_N:
		in->arg[1] |= MAP(1, 1);
		break;
	case B_PAIR_RANGE:
		in->arg[1] = PAIR(0, 3) | PAIR(1, 0) | MAP(0, 2);
		break;
	case B_PAIR_V:
		in->arg[1] = PAIR(0, 2) | PAIR(1, 0) | MAP(0, 2);
		break;
	case B_PAIR_REPEATS:
		in->arg[1] = PAIR(0, 1) | PAIR(1, 1) | MAP(0, 2);
		break;
	case B_PAIR_PAST_NB:
		in->arg[1] |= PAIR(0, 1);
		break;
	case B_OVERLAP_C:
		p->t[in->dst].offset = p->t[in->src[2]].offset + 8;
		break;
	case B_OVERLAP_B:
		p->t[in->dst].offset = p->t[in->src[1]].offset;
		break;
	case B_GATHER_ALIAS:
		p->t[in->dst].offset = p->t[in->src[0]].offset + 4;
		break;
	case B_C_MISSING:
		in->src[2] = NO;
		break;
	case B_GATHER_C:
		in->src[2] = 0;
		break;
	default:
		break;
	}
	return tp_image(p);
}

FIXTURE(rule) {
	struct tp *p;
};

FIXTURE_VARIANT(rule) {
	u32 param;
	s32 code;
	const char *msg;
};

#define RULE(name, op, what, verr, text) \
	FIXTURE_VARIANT_ADD(rule, name) { \
		.param = ON(op, what), .code = PWTPU_VERR_##verr, \
		.msg = text, \
	}

RULE(sc_mode, SC, B_MODE, OPCODE, "insn 1 (scatter): unknown mode 5");
RULE(ga_mode, GA, B_GATHER_MODE, RESERVED, "insn 1 (gather): mode is unused and must be 0");
RULE(sc_arg2, SC, B_ARG2, RESERVED, "arg[2] is unused and must be 0");
RULE(ga_arg2, GA, B_ARG2, RESERVED, "arg[2] is unused and must be 0");
RULE(sc_arg0_bits, SC, B_ARG0_BITS, RESERVED, "arg[0] or arg[1] sets bits no dimension number uses");
RULE(ga_arg1_bits, GA, B_ARG1_BITS, RESERVED, "sets bits no dimension number uses");
RULE(sc_index_float, SC, B_INDEX_FLOAT, DTYPE, "insn 1 (scatter): b is f32: indices must be integers");
RULE(ga_index_float, GA, B_INDEX_FLOAT, DTYPE, "b is f32: indices must be integers");
RULE(sc_c_dtype, SC, B_C_DTYPE, MISMATCH, "a is f32 but c is i32: dtypes differ");
RULE(sc_dst_dtype, SC, B_DST_DTYPE, MISMATCH, "dst is i32 but a is f32: dtypes differ");
RULE(ga_dst_dtype, GA, B_DST_DTYPE, MISMATCH, "dst is i32 but a is f32: dtypes differ");
RULE(sc_dst_shape, SC, B_DST_SHAPE, MISMATCH, "dst is [6,5] but a is [5,6]: shapes differ");
RULE(sc_window_mask, SC, B_WINDOW_MASK, ARG, "window mask 6 names a dimension past the rank of the window tensor");
RULE(ga_window_mask, GA, B_WINDOW_MASK, ARG, "window mask 6");
RULE(sc_inserted_mask, SC, B_INSERTED_MASK, ARG, "inserted and batching masks together 5 name a dimension past a's rank");
RULE(sc_both, SC, B_BOTH, ARG, "dimension mask 1 is both inserted (collapsed) and batching");
RULE(ga_both, GA, B_BOTH, ARG, "is both inserted (collapsed) and batching");
RULE(sc_count, SC, B_COUNT, ARG, "a's rank 2 is not the count of window, inserted and batching dimensions");
RULE(ga_count, GA, B_COUNT, ARG, "a's rank 2 is not the count");
RULE(sc_v_past, SC, B_V_PAST, ARG, "index vector dimension V 3 is past b's rank");
RULE(sc_vector_long, SC, B_VECTOR_LONG, ARG, "the index vector has 3 entries, more than a has dimensions outside the batching ones");
RULE(ga_vector_long, GA, B_VECTOR_LONG, ARG, "the index vector has 3 entries");
RULE(sc_map_range, SC, B_MAP_RANGE, ARG, "index map M[0] = 3 is not a dimension of a");
RULE(sc_map_batching, SC, B_MAP_BATCHING, ARG, "index map M[1] = 0 is a batching dimension");
RULE(ga_map_repeats, GA, B_MAP_REPEATS, ARG, "index map M[1] = 2 repeats");
RULE(sc_map_past_n, SC, B_MAP_PAST_N, RESERVED, "arg[1] bits 16-23 hold entries past the index vector's 1 and those must be 0");
RULE(ga_pair_range, 0xff, B_PAIR_RANGE, ARG, "batching pair S[0] = 3 is not a dimension of b");
RULE(ga_pair_v, 0xff, B_PAIR_V, ARG, "batching pair S[0] = 2 is the index vector dimension");
RULE(ga_pair_repeats, 0xff, B_PAIR_REPEATS, ARG, "batching pair S[1] = 1 repeats");
RULE(ga_pair_extent, 0xff, B_PAIR_EXTENT, MISMATCH, "a is [2,3,5] but b is [2,2,1]: batching dimension 1 of a and its pair 0 of b differ in extent");
RULE(sc_pair_past_nb, SC, B_PAIR_PAST_NB, RESERVED, "arg[1] bits 0-7 hold pairs past the batching mask's 0 and those must be 0");
RULE(sc_w_rank, SC, B_W_RANK, MISMATCH, "c is [3,6,1] but b is [3,1]: want one dimension per window dimension and per dimension of b but V");
RULE(ga_w_rank, GA, B_W_RANK, MISMATCH, "dst is [3,6,1] but b is [3,1]: want one dimension");
RULE(sc_w_window, SC, B_W_WINDOW, MISMATCH, "c is [3,7] but a is [5,6]: a window extent is past a's");
RULE(sc_w_batch, SC, B_W_BATCH, MISMATCH, "c is [4,6] but b is [3,1]: batch dimensions must have b's extents, V left out");
RULE(ga_w_window, GA, B_GATHER_WINDOW, MISMATCH, "dst is [3,7] but a is [5,6]: a window extent is past a's");
RULE(sc_overlap_c, SC, B_OVERLAP_C, OVERLAP, "dst is [5,6] but c is [3,6]: they overlap");
RULE(sc_overlap_b, SC, B_OVERLAP_B, OVERLAP, "but b is [3,1]: they overlap");
RULE(ga_overlap_b, GA, B_OVERLAP_B, OVERLAP, "but b is [3,1]: they overlap");
RULE(ga_alias, GA, B_GATHER_ALIAS, OVERLAP, "dst is [3,6] but a is [5,6]: they overlap");
RULE(sc_c_missing, SC, B_C_MISSING, OPERAND, "c is missing");
RULE(ga_c_set, GA, B_GATHER_C, RESERVED, "c is unused and must be 0xffff");

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
	size = b_rule(self->p, false, variant->param);
	ret = pwfw_verify(self->p->img, size, &spec, &prog, &err);
	ASSERT_EQ(0, ret) TH_LOG("valid program rejected: %s", err.msg);

	tp_reset(self->p, 1);
	size = b_rule(self->p, true, variant->param);
	ret = pwfw_verify(self->p->img, size, &spec, &prog, &err);
	ASSERT_EQ(-PWFW_EINVAL, ret);
	EXPECT_EQ(variant->code, err.code) TH_LOG("message: %s", err.msg);
	EXPECT_EQ(1U, err.insn) TH_LOG("message: %s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, variant->msg))
		TH_LOG("'%s' not in '%s'", variant->msg, err.msg);
}

/* Lay the tensors out again after their dtypes changed. */
static void relayout(struct tp *p)
{
	u64 off = 0;
	u32 k;

	for (k = 0; k < p->nt; k++) {
		p->t[k].offset = off;
		off += (pwfw_tensor_elems(&p->t[k]) *
			pwfw_dtype_size(p->t[k].dtype) + 63) & ~63ULL;
	}
}

/* Every dtype, every index dtype, every mode; dst = a exactly. */
TEST(accepted)
{
	static const u32 idts[] = {
		PWTPU_DT_I8, PWTPU_DT_I16, PWTPU_DT_I32, PWTPU_DT_I64,
		PWTPU_DT_U8, PWTPU_DT_U16, PWTPU_DT_U32, PWTPU_DT_U64,
	};
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_prog prog;
	struct pwfw_verr err;
	struct pwtpu_insn *in;
	u32 dt, i, mode;

	ASSERT_NE(NULL, p);
	for (dt = PWTPU_DT_F32; dt <= PWTPU_DT_U64; dt++) {
		for (i = 0; i < 8; i++) {
			tp_reset(p, 1);
			in = base1(p, SC);
			p->t[in->src[0]].dtype = (u8)dt;
			p->t[in->src[2]].dtype = (u8)dt;
			p->t[in->dst].dtype = (u8)dt;
			p->t[in->src[1]].dtype = (u8)idts[i];
			in->mode = (u8)(i % 5);
			in = base1(p, GA);
			p->t[in->src[0]].dtype = (u8)dt;
			p->t[in->dst].dtype = (u8)dt;
			p->t[in->src[1]].dtype = (u8)idts[i];
			relayout(p);
			EXPECT_EQ(0, tp_verify(p, &prog, &err))
				TH_LOG("%s", err.msg);
		}
	}
	for (mode = 0; mode < 5; mode++) {
		tp_reset(p, 1);
		in = base2(p, SC, NULL, NULL, 0);
		in->mode = (u8)mode;
		in->dst = in->src[0];	/* in place */
		EXPECT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	}
	/* Scalar indices: V = rank(b) = 0, the implicit vector of one. */
	tp_reset(p, 1);
	{
		u16 a = TP_T(p, F32, 7), b = TP_SCALAR(p, I32);
		u16 c = TP_SCALAR(p, F32), d = TP_T(p, F32, 7);

		in = tp_op(p, SC, d, a, b, c);
		in->arg[0] = ARG0(0, 1, 0, 0);
		in->arg[1] = MAP(0, 0);
		in = tp_op(p, GA, TP_T(p, F32, 3), a, b, NO);
		in->arg[0] = ARG0(1, 0, 0, 0);
		in->arg[1] = MAP(0, 0);
	}
	EXPECT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	free(p);
}

static u64 ns_of(u64 x, u64 per_us)
{
	return (x * 1000 + per_us - 1) / per_us;
}

/*
 * Modelled time (docs/firmware.md): SCATTER f32 [5,6] from c [3,6] with
 * i32 [3,1]: the copy (2 x 120 bytes), b (12), c read and each target
 * read and written (3 x 72; SET: 2 x 72), and for a combiner one vector
 * pass of 18 elements. GATHER of c's shape: b, then 2 x 72. Work: the
 * copy plus the updates; the result.
 */
TEST(modelled_time_and_work)
{
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	struct pwtpu_insn *in;
	u64 want, bytes;
	size_t size;

	ASSERT_NE(NULL, p);
	pwfw_spec_default(&spec);
	spec.hbm_mbps = 1000;	/* a byte a ns: the sums show */
	spec.vector_lanes = 1;	/* a cycle an element */
	spec.clock_mhz = 1000;
	spec.insn_overhead_ns = 7;

	tp_reset(p, 1);
	in = base2(p, SC, NULL, NULL, 0);
	in->mode = PWTPU_SCATTER_ADD;
	size = tp_image(p);
	ASSERT_EQ(0, pwfw_verify(p->img, size, &spec, &prog, &err))
		TH_LOG("%s", err.msg);
	bytes = 2 * 120 + 12 + 3 * 72;
	want = 7 + (bytes > 18 ? ns_of(bytes, 1000) : 18) + 7;
	EXPECT_EQ(want, prog.modeled_ns);
	EXPECT_EQ(30ULL + 18, prog.work);

	/* With fast memory the vector pass (18 cycles) is the longer. */
	spec.hbm_mbps = 1000000;
	ASSERT_EQ(0, pwfw_verify(p->img, size, &spec, &prog, &err));
	EXPECT_EQ(7ULL + 18 + 7, prog.modeled_ns);

	spec.hbm_mbps = 1000;
	tp_reset(p, 1);
	in = base2(p, SC, NULL, NULL, 0);
	in->dst = in->src[0];	/* in place: no copy; SET: no reads */
	size = tp_image(p);
	ASSERT_EQ(0, pwfw_verify(p->img, size, &spec, &prog, &err));
	EXPECT_EQ(7ULL + 12 + 2 * 72 + 7, prog.modeled_ns);

	tp_reset(p, 1);
	base2(p, GA, NULL, NULL, 0);
	size = tp_image(p);
	ASSERT_EQ(0, pwfw_verify(p->img, size, &spec, &prog, &err))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(7ULL + 12 + 2 * 72 + 7, prog.modeled_ns);
	EXPECT_EQ(18ULL, prog.work);
	free(p);
}

TEST_HARNESS_MAIN
