// SPDX-License-Identifier: GPL-2.0
/*
 * test_verify.c - the program verifier, rule by rule.
 *
 * Each "rule" variant builds a minimal program twice: once valid (it must
 * pass) and once with a single change that breaks the rule (it must fail
 * with the rule's code, at the right instruction). Loose tests below check
 * the verdict's other outputs, exact messages, and random corruption.
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
#define F16	PWTPU_DT_F16
#define F64	PWTPU_DT_F64
#define I16	PWTPU_DT_I16
#define I64	PWTPU_DT_I64
#define U8	PWTPU_DT_U8
#define U16	PWTPU_DT_U16
#define U32	PWTPU_DT_U32
#define U64	PWTPU_DT_U64
#define NOI	PWTPU_VERR_NO_INSN

/* A no-op first instruction, so that the broken one is insn 1. */
static void pad(struct tp *p)
{
	tp_delay(p, 0);
}

static bool is_unary(u32 op)
{
	return op >= PWTPU_OP_NEG && op <= PWTPU_OP_RSQRT;
}

/* An elementwise op; unary ones ignore @b. */
static struct pwtpu_insn *ew(struct tp *p, u32 op, u16 d, u16 a, u16 b)
{
	return tp_op(p, op, d, a, is_unary(op) ? NO : b, NO);
}

/* @op with the operands it uses over three f32 [2,3] tensors 0..2. */
static struct pwtpu_insn *any_op(struct tp *p, u32 op)
{
	struct pwtpu_insn *in;

	if (op == PWTPU_OP_DELAY)
		return tp_delay(p, 1);
	if (op != PWTPU_OP_LOOP)
		return ew(p, op, 0, 1, 2);
	in = tp_loop(p, 1, 1);
	pad(p);
	return in;
}

/* ---- header ---- */

static size_t one_tensor(struct tp *p)
{
	TP_T(p, F32, 4);
	pad(p);
	return tp_image(p);
}

static size_t b_short_header(struct tp *p, bool bad, u32 op)
{
	size_t n = one_tensor(p);

	return bad ? sizeof(struct pwtpu_prog_header) - op : n;
}

static size_t b_size_short(struct tp *p, bool bad, u32 op)
{
	size_t n = one_tensor(p);

	return bad ? n - op : n;
}

static size_t b_size_long(struct tp *p, bool bad, u32 op)
{
	size_t n = one_tensor(p);

	return bad ? n + op : n;
}

static size_t b_magic(struct tp *p, bool bad, u32 op)
{
	size_t n = one_tensor(p);

	if (bad)
		tp_hdr(p)->magic = op;
	return n;
}

static size_t b_version(struct tp *p, bool bad, u32 op)
{
	size_t n = one_tensor(p);

	if (bad)
		tp_hdr(p)->version = (u16)op;
	return n;
}

static size_t b_hdr_flags(struct tp *p, bool bad, u32 op)
{
	size_t n = one_tensor(p);

	if (bad)
		tp_hdr(p)->flags = (u16)op;
	return n;
}

static size_t b_hdr_reserved(struct tp *p, bool bad, u32 op)
{
	size_t n = one_tensor(p);

	if (bad)
		tp_hdr(p)->reserved[op] = 1;
	return n;
}

static size_t b_no_tensors(struct tp *p, bool bad, u32 op)
{
	(void)op;
	if (!bad)
		TP_T(p, F32, 4);
	pad(p);
	return tp_image(p);
}

static size_t b_max_tensors(struct tp *p, bool bad, u32 op)
{
	u32 i;

	(void)op;
	for (i = 0; i < PWTPU_MAX_TENSORS + (u32)bad; i++)
		TP_AT(p, I8, 0, i, 1);
	return tp_image(p);
}

static size_t b_max_insns(struct tp *p, bool bad, u32 op)
{
	u32 i;

	(void)op;
	TP_T(p, F32, 4);
	for (i = 0; i < PWTPU_MAX_INSNS + (u32)bad; i++)
		pad(p);
	return tp_image(p);
}

static size_t b_max_bufs(struct tp *p, bool bad, u32 op)
{
	(void)op;
	p->nbufs = PWTPU_MAX_BUFS + bad;
	TP_AT(p, F32, PWTPU_MAX_BUFS - 1, 0, 4);
	return tp_image(p);
}

/* ---- tensors ---- */

static size_t b_tensor_flags(struct tp *p, bool bad, u32 op)
{
	u16 t = TP_T(p, F32, 4);

	if (bad)
		p->t[t].flags = (u16)op;
	return tp_image(p);
}

static size_t b_dtype(struct tp *p, bool bad, u32 op)
{
	u16 t = TP_T(p, F32, 4);

	if (bad)
		p->t[t].dtype = (u8)op;
	return tp_image(p);
}

static size_t b_rank(struct tp *p, bool bad, u32 op)
{
	u16 t = TP_T(p, F32, 1, 2, 3, 4);

	if (bad)
		p->t[t].rank = (u8)op;
	return tp_image(p);
}

static size_t b_extent_zero(struct tp *p, bool bad, u32 op)
{
	u16 t = TP_T(p, F32, 2, 3, 4);

	if (bad)
		p->t[t].shape[op] = 0;
	return tp_image(p);
}

static size_t b_extent_past_rank(struct tp *p, bool bad, u32 op)
{
	u16 t = TP_T(p, F32, 2);

	if (bad)
		p->t[t].shape[op] = 1;
	return tp_image(p);
}

static size_t b_elems(struct tp *p, bool bad, u32 op)
{
	(void)op;
	/* Exactly PWTPU_MAX_ELEMS, then one row more. */
	TP_AT(p, I8, 0, 0, 8192, 8192 + bad);
	return tp_image(p);
}

static size_t b_elems_wrap(struct tp *p, bool bad, u32 op)
{
	u32 e = bad ? op : 1;

	/* Products that wrap to 0 or 1 in 32 or 64 bits when unchecked. */
	TP_AT(p, I8, 0, 0, e, e, e, e);
	return tp_image(p);
}

static size_t b_buf(struct tp *p, bool bad, u32 op)
{
	p->nbufs = 2;
	TP_AT(p, F32, bad ? op : 1, 0, 4);
	return tp_image(p);
}

/* @op is the dtype; misaligned by half an element, or by one byte. */
static size_t b_misaligned(struct tp *p, bool bad, u32 op)
{
	u32 size = pwfw_dtype_size(op);

	tp_at(p, op, 0, bad ? size + size / 2 : size, 1, TP_SHAPE(4));
	return tp_image(p);
}

static size_t b_end(struct tp *p, bool bad, u32 op)
{
	(void)op;
	/* 16 bytes ending exactly at PWTPU_MAX_OFFSET, then 4 bytes later. */
	TP_AT(p, F32, 0, PWTPU_MAX_OFFSET - 16 + 4 * bad, 4);
	return tp_image(p);
}

static size_t b_offset_huge(struct tp *p, bool bad, u32 op)
{
	/* @op selects an offset that wraps offset + bytes, or just is big. */
	u64 off = op ? ~0ULL - 3 : 1ULL << 40;

	TP_AT(p, F32, 0, bad ? off : 0, 4);
	return tp_image(p);
}

/* ---- fields every instruction has ---- */

/* Three f32 [2,3] tensors: 0, 1, 2. */
static void three(struct tp *p)
{
	TP_T(p, F32, 2, 3);
	TP_T(p, F32, 2, 3);
	TP_T(p, F32, 2, 3);
	pad(p);
}

static size_t b_op(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in;

	three(p);
	in = tp_op(p, PWTPU_OP_ADD, 0, 1, 2, NO);
	if (bad)
		in->op = (u8)op;
	return tp_image(p);
}

static size_t b_insn_flags(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in;

	three(p);
	in = tp_op(p, PWTPU_OP_ADD, 0, 1, 2, NO);
	if (bad)
		in->flags = (u16)op;
	return tp_image(p);
}

/* @op is the op; mode 1 where modes mean nothing. */
static size_t b_mode_unused(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in;

	three(p);
	in = any_op(p, op);
	if (bad)
		in->mode = 1;
	return tp_image(p);
}

static size_t b_compare_mode(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, I8, 2, 3), a = TP_T(p, F32, 2, 3);
	u16 b = TP_T(p, F32, 2, 3);

	(void)op;
	pad(p);
	tp_op(p, PWTPU_OP_COMPARE, d, a, b, NO)->mode =
		PWTPU_CMP_GE + bad;
	return tp_image(p);
}

static size_t b_reduce_mode(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2), a = TP_T(p, F32, 2, 3);
	struct pwtpu_insn *in;

	(void)op;
	pad(p);
	in = tp_op(p, PWTPU_OP_REDUCE, d, a, NO, NO);
	in->mode = PWTPU_REDUCE_MIN + bad;
	in->arg[0] = 2;
	return tp_image(p);
}

/* @op is the slot: 0 dst, 1..3 src[0..2]; it is emptied. */
static size_t b_missing(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2, 3), a = TP_T(p, I8, 2, 3);
	u16 b = TP_T(p, F32, 2, 3), c = TP_T(p, F32, 2, 3);
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, PWTPU_OP_SELECT, d, a, b, c);
	if (bad && op == 0)
		in->dst = NO;
	else if (bad)
		in->src[op - 1] = NO;
	return tp_image(p);
}

/* @op is the slot as in b_missing; it names a tensor past the last. */
static size_t b_out_of_range(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2, 3), a = TP_T(p, I8, 2, 3);
	u16 b = TP_T(p, F32, 2, 3), c = TP_T(p, F32, 2, 3);
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, PWTPU_OP_SELECT, d, a, b, c);
	if (bad && op == 0)
		in->dst = (u16)p->nt;
	else if (bad)
		in->src[op - 1] = (u16)(PWTPU_MAX_TENSORS + op);
	return tp_image(p);
}

/* @op is an op; its first unused operand slot names tensor 0. */
static size_t b_unused_operand(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in;

	three(p);
	in = any_op(p, op);
	if (!bad)
		return tp_image(p);
	if (in->dst == NO)
		in->dst = 0;
	else if (in->src[1] == NO)
		in->src[1] = 0;
	else
		in->src[2] = 0;
	return tp_image(p);
}

/* @op is the arg index set on an add, which has none. */
static size_t b_unused_arg(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in;

	three(p);
	in = tp_op(p, PWTPU_OP_ADD, 0, 1, 2, NO);
	if (bad)
		in->arg[op] = 1;
	return tp_image(p);
}

/* @op is the op; its first unused arg is set. */
static size_t b_unused_arg_of(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, F32, 2, 3), t = TP_T(p, F32, 3, 2);
	u16 s = TP_T(p, F32, 1, 3), r = TP_T(p, F32, 3);
	struct pwtpu_insn *in;
	u32 k = 2;

	pad(p);
	switch (op) {
	case PWTPU_OP_TRANSPOSE:
		in = tp_op(p, op, t, a, NO, NO);
		in->arg[0] = 1;
		break;
	case PWTPU_OP_SLICE:
		in = tp_op(p, op, s, a, NO, NO);
		in->arg[0] = 1;
		break;
	case PWTPU_OP_REDUCE:
		in = tp_op(p, op, r, a, NO, NO);
		in->arg[0] = 1;
		k = 1;
		break;
	case PWTPU_OP_LOOP:
		in = tp_loop(p, 2, 1);
		pad(p);
		break;
	default:
		in = tp_delay(p, 1);
		break;
	}
	if (bad)
		in->arg[k] = 1;
	return tp_image(p);
}

/* ---- elementwise ---- */

/* @op over f32 [2,3]; one operand (b, or a if unary) gets a bf16 dtype. */
static size_t b_ew_dtype(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2, 3);
	u16 a = TP_T(p, is_unary(op) && bad ? BF16 : F32, 2, 3);
	u16 b = TP_T(p, !is_unary(op) && bad ? BF16 : F32, 2, 3);

	pad(p);
	ew(p, op, d, a, b);
	return tp_image(p);
}

/* @op; one operand (b, or a if unary) gets the transposed shape. */
static size_t b_ew_shape(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2, 3);
	u16 a = is_unary(op) && bad ? TP_T(p, F32, 3, 2) : TP_T(p, F32, 2, 3);
	u16 b = !is_unary(op) && bad ? TP_T(p, F32, 3, 2) : TP_T(p, F32, 2, 3);

	pad(p);
	ew(p, op, d, a, b);
	return tp_image(p);
}

/* Integer dtype (i32, or i8 when @op is odd) into a float-only op. */
static size_t b_ew_float_only(struct tp *p, bool bad, u32 op)
{
	u32 dt = bad ? ((op & 1) ? I8 : I32) : BF16;
	u16 d = TP_T(p, dt, 2, 3), a = TP_T(p, dt, 2, 3);

	pad(p);
	tp_op(p, op, d, a, NO, NO);
	return tp_image(p);
}

/*
 * EXP..RSQRT (@op) of f64, which they take since UAPI 6, or of i64, which
 * they refuse.
 */
static size_t b_math_f64(struct tp *p, bool bad, u32 op)
{
	u32 dt = bad ? I64 : F64;
	u16 d = TP_T(p, dt, 2, 3), a = TP_T(p, dt, 2, 3);

	pad(p);
	tp_op(p, op, d, a, NO, NO);
	return tp_image(p);
}

/* @op is an integer dtype: EXP over it (bad), or over f16 (valid). */
static size_t b_math_int(struct tp *p, bool bad, u32 op)
{
	u32 dt = bad ? op : F16;
	u16 d = TP_T(p, dt, 2, 3), a = TP_T(p, dt, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_EXP, d, a, NO, NO);
	return tp_image(p);
}

/* dst is a exactly, or a's bytes moved by one element. */
static size_t b_ew_alias_a(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_AT(p, F32, 0, 64, 2, 3);
	u16 b = TP_AT(p, F32, 0, 128, 2, 3);
	u16 d = bad ? TP_AT(p, F32, 0, 68, 2, 3) : a;

	pad(p);
	ew(p, op, d, a, b);
	return tp_image(p);
}

/* dst is b exactly, or overlaps b's last bytes. */
static size_t b_ew_alias_b(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_AT(p, F32, 0, 0, 2, 3);
	u16 b = TP_AT(p, F32, 0, 64, 2, 3);
	u16 d = bad ? TP_AT(p, F32, 0, 64 + 20, 2, 3) : b;

	pad(p);
	ew(p, op, d, a, b);
	return tp_image(p);
}

/* ---- compare and select ---- */

static size_t b_compare_dst_dtype(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, bad ? op : I8, 2, 3);
	u16 a = TP_T(p, F32, 2, 3), b = TP_T(p, F32, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_COMPARE, d, a, b, NO);
	return tp_image(p);
}

static size_t b_compare_ab_dtype(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, I8, 2, 3), a = TP_T(p, I32, 2, 3);
	u16 b = TP_T(p, bad ? op : I32, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_COMPARE, d, a, b, NO);
	return tp_image(p);
}

/* @op 0: b's shape differs, 1: dst's. */
static size_t b_compare_shape(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, I8, 2, bad && op == 1 ? 4 : 3);
	u16 a = TP_T(p, F32, 2, 3);
	u16 b = TP_T(p, F32, bad && op == 0 ? 1 : 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_COMPARE, d, a, b, NO);
	return tp_image(p);
}

/* i8 compare: dst separate, or written over a (allowed by no op). */
static size_t b_compare_alias(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, I8, 2, 3), b = TP_T(p, I8, 2, 3);
	u16 d = bad ? (op ? b : a) : TP_T(p, I8, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_COMPARE, d, a, b, NO);
	return tp_image(p);
}

static size_t b_select_pred(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2, 3), a = TP_T(p, bad ? op : I8, 2, 3);
	u16 b = TP_T(p, F32, 2, 3), c = TP_T(p, F32, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_SELECT, d, a, b, c);
	return tp_image(p);
}

/* @op 1: b's dtype differs from dst's, 2: c's. */
static size_t b_select_dtype(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, BF16, 2, 3), a = TP_T(p, I8, 2, 3);
	u16 b = TP_T(p, bad && op == 1 ? F32 : BF16, 2, 3);
	u16 c = TP_T(p, bad && op == 2 ? F32 : BF16, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_SELECT, d, a, b, c);
	return tp_image(p);
}

/* @op is the slot (0 dst, 1..3 a..c) whose shape differs. */
static size_t b_select_shape(struct tp *p, bool bad, u32 op)
{
	u16 t[4];
	u32 k;

	for (k = 0; k < 4; k++)
		t[k] = TP_T(p, k == 1 ? I8 : I32, 2, bad && k == op ? 2 : 3);
	pad(p);
	tp_op(p, PWTPU_OP_SELECT, t[0], t[1], t[2], t[3]);
	return tp_image(p);
}

/* i8 select: dst may be b or c exactly, never the predicate. */
static size_t b_select_alias(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, I8, 2, 3), b = TP_T(p, I8, 2, 3);
	u16 c = TP_T(p, I8, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_SELECT, bad ? a : (op ? c : b), a, b, c);
	return tp_image(p);
}

static size_t b_select_partial(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_AT(p, I8, 0, 0, 2, 3), b = TP_AT(p, F32, 0, 64, 2, 3);
	u16 c = TP_AT(p, F32, 0, 128, 2, 3);
	u16 d = TP_AT(p, F32, 0, bad ? 128 + 4 * op : 192, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_SELECT, d, a, b, c);
	return tp_image(p);
}

/* ---- convert ---- */

static size_t b_convert_shape(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, op, 2, bad ? 4 : 3), a = TP_T(p, F32, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_CONVERT, d, a, NO, NO);
	return tp_image(p);
}

/* Same dtype and shape, still no converting in place. */
static size_t b_convert_alias(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, op, 2, 3), d = bad ? a : TP_T(p, op, 2, 3);

	pad(p);
	tp_op(p, PWTPU_OP_CONVERT, d, a, NO, NO);
	return tp_image(p);
}

/* ---- matmul ---- */

/* [4,5] x [5,7] -> [4,7] of the given dtypes. */
static size_t matmul(struct tp *p, u32 da, u32 db, u32 dd)
{
	u16 d = TP_T(p, dd, 4, 7), a = TP_T(p, da, 4, 5);
	u16 b = TP_T(p, db, 5, 7);

	pad(p);
	tp_op(p, PWTPU_OP_MATMUL, d, a, b, NO);
	return tp_image(p);
}

/* @op is an input dtype matmul does not take. */
static size_t b_matmul_dtype(struct tp *p, bool bad, u32 op)
{
	return bad ? matmul(p, op, op, op == I32 ? I32 : F32) :
		     matmul(p, F32, F32, F32);
}

static size_t b_matmul_bf16_dst(struct tp *p, bool bad, u32 op)
{
	return matmul(p, BF16, BF16, bad ? op : F32);
}

static size_t b_matmul_i8_dst(struct tp *p, bool bad, u32 op)
{
	return matmul(p, I8, I8, bad ? op : I32);
}

static size_t b_matmul_ab_dtype(struct tp *p, bool bad, u32 op)
{
	return matmul(p, op, bad ? (op == F32 ? BF16 : F32) : op,
		      op == I8 ? I32 : F32);
}

/* @op: which operand gets rank 1 (0 dst, 1 a, 2 b) or rank 3 (+3). */
static size_t b_matmul_rank(struct tp *p, bool bad, u32 op)
{
	u32 shapes[3][4] = { { 4, 7 }, { 4, 5 }, { 5, 7 } };
	u32 rank[3] = { 2, 2, 2 };
	u16 t[3];
	u32 k;

	if (bad && op < 3) {
		rank[op] = 1;
		shapes[op][1] = 0;
	} else if (bad) {
		rank[op - 3] = 3;
		shapes[op - 3][2] = 1;
	}
	for (k = 0; k < 3; k++)
		t[k] = tp_new(p, F32, rank[k], shapes[k]);
	pad(p);
	tp_op(p, PWTPU_OP_MATMUL, t[0], t[1], t[2], NO);
	return tp_image(p);
}

static size_t b_matmul_inner(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 4, 7), a = TP_T(p, F32, 4, 5);
	u16 b = TP_T(p, F32, bad ? 6 : 5, 7);

	(void)op;
	pad(p);
	tp_op(p, PWTPU_OP_MATMUL, d, a, b, NO);
	return tp_image(p);
}

/* @op 0: dst has the wrong M, 1: the wrong N. */
static size_t b_matmul_dst(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, bad && !op ? 5 : 4, bad && op ? 5 : 7);
	u16 a = TP_T(p, F32, 4, 5), b = TP_T(p, F32, 5, 7);

	pad(p);
	tp_op(p, PWTPU_OP_MATMUL, d, a, b, NO);
	return tp_image(p);
}

/* Square f32 matmul whose dst is a (op 0) or b (1) or overlaps b (2). */
static size_t b_matmul_alias(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_AT(p, F32, 0, 0, 4, 4), b = TP_AT(p, F32, 0, 64, 4, 4);
	u16 d = TP_AT(p, F32, 0, 128, 4, 4);

	if (bad)
		d = op == 0 ? a : op == 1 ? b : TP_AT(p, F32, 0, 124, 4, 4);
	pad(p);
	tp_op(p, PWTPU_OP_MATMUL, d, a, b, NO);
	return tp_image(p);
}

/* ---- broadcast, reshape ---- */

/* @op 0: a [3] -> [2,3] vs a [2]; 1: a [2,1] vs [3,1]; 2: scalar vs [4]. */
static size_t b_broadcast_shape(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2, 3), a;

	if (op == 0)
		a = bad ? TP_T(p, F32, 2) : TP_T(p, F32, 3);
	else if (op == 1)
		a = bad ? TP_T(p, F32, 3, 1) : TP_T(p, F32, 2, 1);
	else
		a = bad ? TP_T(p, F32, 4) : TP_SCALAR(p, F32);
	pad(p);
	tp_op(p, PWTPU_OP_BROADCAST, d, a, NO, NO);
	return tp_image(p);
}

static size_t b_broadcast_rank(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 2, 3);
	u16 a = bad ? TP_T(p, F32, 1, 2, 3) : TP_T(p, F32, 2, 3);

	(void)op;
	pad(p);
	tp_op(p, PWTPU_OP_BROADCAST, d, a, NO, NO);
	return tp_image(p);
}

/* @op is the op; dst gets another dtype than a. */
static size_t b_layout_dtype(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, BF16, 2, 3, 4);
	u16 d = TP_T(p, bad ? I32 : BF16, 2, 3, 4);
	struct pwtpu_insn *in = tp_op(p, op, d, a, NO, NO);

	if (op == PWTPU_OP_TRANSPOSE) {
		in->arg[0] = 0;
		in->arg[1] = 1;
		in->arg[2] = 2;
	}
	return tp_image(p);
}

static size_t b_reshape_count(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, I32, 6, bad ? 2 : 1), a = TP_T(p, I32, 2, 3);

	(void)op;
	pad(p);
	tp_op(p, PWTPU_OP_RESHAPE, d, a, NO, NO);
	return tp_image(p);
}

/*
 * @op is a layout op; dst is moved onto a's bytes (where the op allows
 * a and dst of the same size).
 */
static size_t b_layout_alias(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_AT(p, F32, 0, 0, 4, 4);
	u16 d = TP_AT(p, F32, 0, bad ? 16 : 64, 4, 4);
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, op, d, a, NO, NO);
	if (op == PWTPU_OP_TRANSPOSE)
		in->arg[0] = 1;
	return tp_image(p);
}

/* Reduce of [4,4] over axis 0, into a [4] overlapping a. */
static size_t b_reduce_alias(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_AT(p, F32, 0, 0, 4, 4);
	u16 d = TP_AT(p, F32, 0, bad ? 60 : 64, 4);

	(void)op;
	pad(p);
	tp_op(p, PWTPU_OP_REDUCE, d, a, NO, NO)->arg[0] = 1;
	return tp_image(p);
}

/* ---- transpose, slice, reduce ---- */

/* a [2,3,4], arg (2,0,1) -> dst [4,2,3]; @op picks the breakage. */
static size_t b_transpose(struct tp *p, bool bad, u32 op)
{
	u32 perm[3] = { 2, 0, 1 };
	u16 a = TP_T(p, F32, 2, 3, 4);
	u16 d = bad && op == 2 ? TP_T(p, F32, 4, 3, 2) :
		bad && op == 3 ? TP_T(p, F32, 4, 6) : TP_T(p, F32, 4, 2, 3);
	struct pwtpu_insn *in;

	if (bad && op == 0)
		perm[2] = 0;	/* repeats an axis */
	if (bad && op == 1)
		perm[2] = 3;	/* no such axis */
	pad(p);
	in = tp_op(p, PWTPU_OP_TRANSPOSE, d, a, NO, NO);
	memcpy(in->arg, perm, sizeof(perm));
	return tp_image(p);
}

/*
 * a [4,6], start (1,2) -> dst [3,4]: the window ends exactly at a's end.
 * @op 0: start one further; 1: a start that wraps 32 bits; 2: dst of
 * another rank.
 */
static size_t b_slice(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, I32, 4, 6);
	u16 d = bad && op == 2 ? TP_T(p, I32, 3, 4, 1) : TP_T(p, I32, 3, 4);
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, PWTPU_OP_SLICE, d, a, NO, NO);
	in->arg[0] = 1;
	in->arg[1] = 2;
	if (bad && op == 0)
		in->arg[1] = 3;
	if (bad && op == 1)
		in->arg[0] = 0xffffffffU;
	return tp_image(p);
}

/* a [2,3,4] over mask 0b101 -> dst [3]; @op picks the breakage. */
static size_t b_reduce(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, I8, 2, 3, 4);
	u16 d = !bad || op < 2 ? TP_T(p, I8, 3) :
		op == 2 ? TP_T(p, I8, 4) :
		op == 3 ? TP_T(p, I8, 3, 1) : TP_SCALAR(p, I8);
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, PWTPU_OP_REDUCE, d, a, NO, NO);
	in->arg[0] = 5;
	if (bad && op == 0)
		in->arg[0] = 0;
	if (bad && op == 1)
		in->arg[0] = 8;	/* axis 3 of a rank-3 tensor */
	return tp_image(p);
}

/* All axes of [2,3] reduce to a scalar; a [1] dst is not one. */
static size_t b_reduce_all(struct tp *p, bool bad, u32 op)
{
	u16 a = TP_T(p, F32, 2, 3);
	u16 d = bad ? TP_T(p, F32, 1) : TP_SCALAR(p, F32);

	(void)op;
	pad(p);
	tp_op(p, PWTPU_OP_REDUCE, d, a, NO, NO)->arg[0] = 3;
	return tp_image(p);
}

/* ---- loop, delay, bounds ---- */

static size_t b_loop_trips(struct tp *p, bool bad, u32 op)
{
	TP_T(p, F32, 4);
	pad(p);
	tp_loop(p, bad ? op : PWTPU_MAX_TRIPS, 1);
	pad(p);
	return tp_image(p);
}

static size_t b_loop_empty(struct tp *p, bool bad, u32 op)
{
	(void)op;
	TP_T(p, F32, 4);
	pad(p);
	tp_loop(p, 2, bad ? 0 : 1);
	pad(p);
	return tp_image(p);
}

/* A loop at insn 1 over the last @op instructions, or one more. */
static size_t b_loop_past_end(struct tp *p, bool bad, u32 op)
{
	u32 i;

	TP_T(p, F32, 4);
	pad(p);
	tp_loop(p, 2, op + bad);
	for (i = 0; i < op; i++)
		pad(p);
	return tp_image(p);
}

/* loop(2 insns: loop(1 insn: delay)), delay: the inner grows by 1. */
static size_t b_loop_enclosing(struct tp *p, bool bad, u32 op)
{
	(void)op;
	TP_T(p, F32, 4);
	pad(p);
	tp_loop(p, 2, 2);
	tp_loop(p, 2, 1 + bad);
	pad(p);
	pad(p);
	pad(p);
	return tp_image(p);
}

/* Loops nested 4 (or 5) deep, the innermost body last. */
static size_t b_loop_depth(struct tp *p, bool bad, u32 op)
{
	u32 depth = PWTPU_MAX_LOOP_DEPTH + bad, k;

	(void)op;
	TP_T(p, F32, 4);
	pad(p);
	for (k = 0; k < depth; k++)
		tp_loop(p, 2, depth - k);
	pad(p);
	return tp_image(p);
}

/*
 * A loop closed at insn 4 frees its depth for the next one: inside an
 * outer loop, 2 loops end, then 3 (or 4) nest from insn 5, reaching
 * depth 4 (or 5, at insn 8).
 */
static size_t b_loop_siblings(struct tp *p, bool bad, u32 op)
{
	u32 n = 3 + bad, k;

	(void)op;
	TP_T(p, F32, 4);
	pad(p);
	tp_loop(p, 2, 4 + n);	/* depth 1: insns 2..5+n */
	tp_loop(p, 2, 2);	/* depth 2: insns 3..4 */
	tp_loop(p, 2, 1);	/* depth 3: insn 4 */
	pad(p);
	for (k = 0; k < n; k++)
		tp_loop(p, 2, n - k);	/* depth 2 + k: to insn 5 + n */
	pad(p);
	return tp_image(p);
}

static size_t b_delay(struct tp *p, bool bad, u32 op)
{
	TP_T(p, F32, 4);
	pad(p);
	tp_delay(p, bad ? op ? 1ULL << 32 : PWTPU_MAX_DELAY_NS + 1 :
			  PWTPU_MAX_DELAY_NS);
	return tp_image(p);
}

/*
 * Exactly PWTPU_MAX_DYN_INSNS instructions run: loop(2^20: 3 delays)
 * is 1 + 3 * 2^20, loop(2^20 - 2: delay) is 2^20 - 1. One trip more is
 * one instruction too many, found at the second loop's delay (insn 6).
 */
static size_t b_dyn_exact(struct tp *p, bool bad, u32 op)
{
	(void)op;
	TP_T(p, F32, 4);
	tp_loop(p, PWTPU_MAX_TRIPS, 3);
	pad(p);
	pad(p);
	pad(p);
	tp_loop(p, PWTPU_MAX_TRIPS - 2 + bad, 1);
	pad(p);
	return tp_image(p);
}

/* A body that alone runs more than the limit: found at its loop. */
static size_t b_dyn_body(struct tp *p, bool bad, u32 op)
{
	(void)op;
	TP_T(p, F32, 4);
	pad(p);
	tp_loop(p, PWTPU_MAX_TRIPS, 2);
	tp_loop(p, bad ? 5 : 2, 1);
	pad(p);
	return tp_image(p);
}

/*
 * Exactly PWTPU_MAX_PROG_NS with the default 50 ns per insn:
 * loop(9: delay(10^9 - 50)), delay(10^9 - 100) takes
 * 50 + 9 * 10^9 + 10^9 - 50 ns. One more ns is over, at insn 2.
 */
static size_t b_time_exact(struct tp *p, bool bad, u32 op)
{
	(void)op;
	TP_T(p, F32, 4);
	tp_loop(p, 9, 1);
	tp_delay(p, 1000000000ULL - 50);
	tp_delay(p, 1000000000ULL - 100 + bad);
	return tp_image(p);
}

/*
 * Real work, whatever the model says: 16 trips of a 2^30 multiply-add
 * matmul are the per-exec limit exactly, 17 are past it.
 */
static size_t b_work_loop(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, F32, 1024, 1024), a = TP_T(p, F32, 1024, 1024);
	u16 b = TP_T(p, F32, 1024, 1024);

	(void)op;
	pad(p);
	tp_loop(p, 16 + bad, 1);
	tp_op(p, PWTPU_OP_MATMUL, d, a, b, NO);
	return tp_image(p);
}

/* One matmul of 2^32 multiply-adds is the per-instruction limit. */
static size_t b_work_insn(struct tp *p, bool bad, u32 op)
{
	u16 d = TP_T(p, I32, 1024 << bad, 1024);
	u16 a = TP_T(p, I8, 1024 << bad, 4096), b = TP_T(p, I8, 4096, 1024);

	(void)op;
	pad(p);
	pad(p);
	tp_op(p, PWTPU_OP_MATMUL, d, a, b, NO);
	return tp_image(p);
}

/* ---- the elementwise ops of UAPI 5: AND..REDUCE_PRECISION ---- */

static bool new_unary(u32 op)
{
	return op == PWTPU_OP_NOT || op == PWTPU_OP_POPCNT ||
	       op == PWTPU_OP_CLZ ||
	       (op >= PWTPU_OP_FLOOR && op <= PWTPU_OP_LOGISTIC) ||
	       op == PWTPU_OP_BITCAST || op == PWTPU_OP_REDUCE_PRECISION;
}

/* @op over [2,3] tensors of @dt: dst, a (and b); REDUCE_PRECISION e5m10. */
static struct pwtpu_insn *new_op(struct tp *p, u32 op, u32 dt)
{
	u16 d = TP_T(p, dt, 2, 3), a = TP_T(p, dt, 2, 3);
	u16 b = new_unary(op) ? NO : TP_T(p, dt, 2, 3);
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, op, d, a, b, NO);
	if (op == PWTPU_OP_REDUCE_PRECISION) {
		in->arg[0] = 5;
		in->arg[1] = 10;
	}
	return in;
}

/* An integer op (AND..CLZ) over i32 (valid) or f32 (@op even) or f64. */
static size_t b_int_only(struct tp *p, bool bad, u32 op)
{
	new_op(p, op, bad ? ((op & 1) ? F64 : F32) : I32);
	return tp_image(p);
}

/* A float op over f64 (valid: f64 has them all) or i32 / u8 (@op odd). */
static size_t b_float_only(struct tp *p, bool bad, u32 op)
{
	new_op(p, op, bad ? ((op & 1) ? U8 : I32) : F64);
	return tp_image(p);
}

/* POW and REM take every dtype: u16 is valid, and so is bf16. */
static size_t b_any_dtype(struct tp *p, bool bad, u32 op)
{
	size_t n;

	new_op(p, op, bad ? BF16 : U16);
	n = tp_image(p);
	if (bad)
		tp_hdr(p)->magic = 0;	/* the only fault: the image's */
	return n;
}

/* A binary op (@op) whose b is another dtype of the same width. */
static size_t b_new_ab_dtype(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in = new_op(p, op, op == PWTPU_OP_ATAN2 ? F32 : I32);

	if (bad)
		in->src[1] = TP_T(p, op == PWTPU_OP_ATAN2 ? I32 : U32, 2, 3);
	return tp_image(p);
}

/* dst is a exactly (allowed), or a's bytes moved by one element. */
static size_t b_new_alias(struct tp *p, bool bad, u32 op)
{
	u32 dt = op >= PWTPU_OP_AND && op <= PWTPU_OP_CLZ ? I32 : F32;
	u16 a = TP_AT(p, dt, 0, 64, 2, 3), b = TP_AT(p, dt, 0, 128, 2, 3);
	u16 d = bad ? TP_AT(p, dt, 0, 68, 2, 3) : a;
	struct pwtpu_insn *in;

	pad(p);
	in = tp_op(p, op, d, a, new_unary(op) ? NO : b, NO);
	if (op == PWTPU_OP_REDUCE_PRECISION)
		in->arg[0] = 8;
	return tp_image(p);
}

/*
 * BITCAST, @op: 0 f32 [2,3] to i32 of another shape; 1 f32 [2,2] to f64
 * [2] but a is [2,3]; 2 u32 [2] to u8 [2,4] but dst is [2,3]; 3 the
 * narrow side of the wrong rank; 4 dst overlapping a (same bytes, even:
 * BITCAST never aliases).
 */
static size_t b_bitcast(struct tp *p, bool bad, u32 op)
{
	u16 d, a;

	switch (op) {
	case 0:
		a = TP_T(p, F32, 2, 3);
		d = bad ? TP_T(p, I32, 3, 2) : TP_T(p, I32, 2, 3);
		break;
	case 1:
		a = bad ? TP_T(p, F32, 2, 3) : TP_T(p, F32, 2, 2);
		d = TP_T(p, F64, 2);
		break;
	case 2:
		a = TP_T(p, U32, 2);
		d = bad ? TP_T(p, U8, 2, 3) : TP_T(p, U8, 2, 4);
		break;
	case 3:
		a = TP_T(p, I64, 3);
		d = bad ? TP_T(p, I16, 3, 2, 2) : TP_T(p, I16, 3, 4);
		break;
	default:
		a = TP_AT(p, I32, 0, 0, 4);
		d = bad ? TP_AT(p, F32, 0, 0, 4) : TP_AT(p, F32, 0, 16, 4);
		break;
	}
	pad(p);
	tp_op(p, PWTPU_OP_BITCAST, d, a, NO, NO);
	return tp_image(p);
}

/* REDUCE_PRECISION: @op 0: no exponent bits; 1: an arg past the two. */
static size_t b_reduce_precision(struct tp *p, bool bad, u32 op)
{
	struct pwtpu_insn *in = new_op(p, PWTPU_OP_REDUCE_PRECISION, BF16);

	in->arg[1] = 0;		/* no fraction bits is a format */
	if (bad && op == 0)
		in->arg[0] = 0;
	if (bad && op == 1)
		in->arg[2] = 1;
	return tp_image(p);
}

/* ---- bounded loops and WHILE ---- */

static struct pwtpu_insn *tp_bounded(struct tp *p, u32 trips, u32 len)
{
	struct pwtpu_insn *in = tp_loop(p, trips, len);

	in->mode = PWTPU_LOOP_BOUNDED;
	return in;
}

static struct pwtpu_insn *tp_while(struct tp *p, u16 a)
{
	return tp_op(p, PWTPU_OP_WHILE, NO, a, NO, NO);
}

/* A LOOP of mode @op (2: past BOUNDED), or of mode 0. */
static size_t b_loop_mode(struct tp *p, bool bad, u32 op)
{
	TP_SCALAR(p, I32);
	pad(p);
	tp_loop(p, 2, 2)->mode = bad ? (u8)op : 0;
	pad(p);
	pad(p);
	return tp_image(p);
}

/*
 * @op 0: a WHILE after its bounded loop's body (outside every loop);
 * 1: in a counted loop; 2: in a counted loop inside a bounded one (the
 * innermost loop is counted); else: in a bounded loop, the bounded loop
 * counted instead. Valid: the WHILE in the bounded loop's body.
 */
static size_t b_while_place(struct tp *p, bool bad, u32 op)
{
	u16 k = TP_SCALAR(p, I32);

	pad(p);
	switch (bad ? op : 99) {
	case 0:
		tp_bounded(p, 3, 2);
		tp_while(p, k);
		pad(p);
		tp_while(p, k);
		break;
	case 1:
		tp_bounded(p, 3, 1);
		tp_while(p, k);
		tp_loop(p, 3, 1);
		tp_while(p, k);
		break;
	case 2:
		tp_bounded(p, 3, 3);
		tp_while(p, k);
		tp_loop(p, 2, 1);
		tp_while(p, k);
		break;
	case 3:
		tp_loop(p, 3, 2);
		tp_while(p, k);
		pad(p);
		break;
	default:
		tp_bounded(p, 3, 2);
		tp_while(p, k);
		pad(p);
		break;
	}
	return tp_image(p);
}

/*
 * A bounded loop without a WHILE of its own: @op 0 its body a delay; 1 a
 * WHILE only in a bounded loop inside it; 2 the loop ends with the
 * program, found at the end. The LOOP is named.
 */
static size_t b_while_missing(struct tp *p, bool bad, u32 op)
{
	u16 k = TP_SCALAR(p, I32);

	pad(p);
	switch (op) {
	case 0:
		tp_bounded(p, 3, 1);
		if (bad)
			pad(p);
		else
			tp_while(p, k);
		pad(p);
		break;
	case 1:
		tp_bounded(p, 3, 3);
		if (bad)
			pad(p);
		else
			tp_while(p, k);
		tp_bounded(p, 2, 1);
		tp_while(p, k);
		pad(p);
		break;
	default:
		pad(p);
		tp_bounded(p, 3, 2);
		pad(p);
		if (bad)
			pad(p);
		else
			tp_while(p, k);
		break;
	}
	return tp_image(p);
}

/* WHILE's predicate: @op 0 of rank 1, 1 an f32, 2 a bf16, else an f64. */
static size_t b_while_pred(struct tp *p, bool bad, u32 op)
{
	static const u32 floats[] = { F32, F32, BF16, F64 };
	u16 good = TP_SCALAR(p, U16), a;

	if (!bad)
		a = good;
	else if (op == 0)
		a = TP_T(p, I8, 1);
	else
		a = TP_SCALAR(p, floats[op < 3 ? op : 3]);
	pad(p);
	tp_bounded(p, 3, 1);
	tp_while(p, a);
	return tp_image(p);
}

/* WHILE's unused fields: @op 0 dst, 1 b, 2 c, 3 mode, 4 arg[0], 5 arg[4]. */
static size_t b_while_fields(struct tp *p, bool bad, u32 op)
{
	u16 k = TP_SCALAR(p, I32);
	struct pwtpu_insn *in;

	pad(p);
	tp_bounded(p, 3, 1);
	in = tp_while(p, k);
	if (!bad)
		return tp_image(p);
	switch (op) {
	case 0:
		in->dst = k;
		break;
	case 1:
		in->src[1] = k;
		break;
	case 2:
		in->src[2] = k;
		break;
	case 3:
		in->mode = 1;
		break;
	case 4:
		in->arg[0] = 1;
		break;
	default:
		in->arg[4] = 1;
		break;
	}
	return tp_image(p);
}

/* A WHILE without its a: missing (0xffff) or past the tensors. */
static size_t b_while_operand(struct tp *p, bool bad, u32 op)
{
	u16 k = TP_SCALAR(p, I32);

	pad(p);
	tp_bounded(p, 3, 1);
	tp_while(p, bad ? (u16)op : k);
	return tp_image(p);
}

/*
 * A bounded loop counts at its trips: loop(2^20: while, 3 delays) is
 * 1 + 4 * 2^20 = 2^22 + 1 instructions, one too many, found at the last
 * delay (insn 4); with 2^20 - 1 trips it fits.
 */
static size_t b_while_bound(struct tp *p, bool bad, u32 op)
{
	u16 k = TP_SCALAR(p, I32);

	(void)op;
	tp_bounded(p, PWTPU_MAX_TRIPS - !bad, 4);
	tp_while(p, k);
	pad(p);
	pad(p);
	pad(p);
	return tp_image(p);
}

/* ---- the table ---- */

FIXTURE(rule) {
	struct tp *p;
};

FIXTURE_VARIANT(rule) {
	size_t (*build)(struct tp *p, bool bad, u32 op);
	u32 op;		/* builder parameter */
	s32 code;	/* expected verdict of the broken program */
	u32 insn;	/* and where */
	const char *msg;	/* part of its message, or NULL */
};

#define RULE(name, fn, param, verr, at, text) \
	FIXTURE_VARIANT_ADD(rule, name) { \
		.build = fn, .op = param, .code = PWTPU_VERR_##verr, \
		.insn = at, .msg = text, \
	}

RULE(hdr_short, b_short_header, 1, TRUNCATED, NOI, "header");
RULE(hdr_empty, b_short_header, 32, TRUNCATED, NOI, "0 bytes");
RULE(size_short, b_size_short, 1, TRUNCATED, NOI, "header makes it");
RULE(size_short_tensor, b_size_short, 64, TRUNCATED, NOI, NULL);
RULE(size_long, b_size_long, 1, TRUNCATED, NOI, NULL);
RULE(size_long_insn, b_size_long, 32, TRUNCATED, NOI, NULL);
RULE(magic, b_magic, 0x50574657, MAGIC, NOI, "magic");
RULE(magic_zero, b_magic, 0, MAGIC, NOI, NULL);
RULE(version_0, b_version, 0, VERSION, NOI, "version 0");
RULE(version_2, b_version, 2, VERSION, NOI, "version 2");
RULE(hdr_flags, b_hdr_flags, 1, RESERVED, NOI, "header");
RULE(hdr_flags_high, b_hdr_flags, 0x8000, RESERVED, NOI, NULL);
RULE(hdr_reserved0, b_hdr_reserved, 0, RESERVED, NOI, NULL);
RULE(hdr_reserved2, b_hdr_reserved, 2, RESERVED, NOI, NULL);
RULE(no_tensors, b_no_tensors, 0, LIMIT, NOI, "0 tensors");
RULE(max_tensors, b_max_tensors, 0, LIMIT, NOI, "1025 tensors");
RULE(max_insns, b_max_insns, 0, LIMIT, NOI, "4097 insns");
RULE(max_bufs, b_max_bufs, 0, LIMIT, NOI, "17 bufs");

RULE(tensor_flags, b_tensor_flags, 1, RESERVED, NOI, "tensor 0: flags");
RULE(tensor_flags_high, b_tensor_flags, 0x8000, RESERVED, NOI, NULL);
RULE(dtype_0, b_dtype, 0, DTYPE, NOI, "unknown dtype 0");
RULE(dtype_13, b_dtype, 13, DTYPE, NOI, "unknown dtype 13");
RULE(dtype_255, b_dtype, 255, DTYPE, NOI, NULL);
RULE(rank_5, b_rank, 5, SHAPE, NOI, "rank 5");
RULE(rank_255, b_rank, 255, SHAPE, NOI, NULL);
RULE(extent_zero_first, b_extent_zero, 0, SHAPE, NOI, "shape[0] is 0");
RULE(extent_zero_last, b_extent_zero, 2, SHAPE, NOI, "shape[2] is 0");
RULE(extent_past_rank, b_extent_past_rank, 1, SHAPE, NOI, "past the rank");
RULE(extent_past_rank3, b_extent_past_rank, 3, SHAPE, NOI, NULL);
RULE(elems, b_elems, 0, SHAPE, NOI, "elements");
RULE(elems_wrap64, b_elems_wrap, 65536, SHAPE, NOI, NULL);
RULE(elems_wrap_max, b_elems_wrap, 0xffffffffU, SHAPE, NOI, NULL);
RULE(buf_index, b_buf, 2, BUFFER, NOI, "buf 2");
RULE(buf_index_huge, b_buf, 0xffffffffU, BUFFER, NOI, NULL);
RULE(misaligned_f32, b_misaligned, F32, BUFFER, NOI, "multiple of 4");
RULE(misaligned_i32, b_misaligned, I32, BUFFER, NOI, NULL);
RULE(misaligned_bf16, b_misaligned, BF16, BUFFER, NOI, "multiple of 2");
RULE(misaligned_f16, b_misaligned, F16, BUFFER, NOI, "multiple of 2");
RULE(misaligned_i16, b_misaligned, I16, BUFFER, NOI, "multiple of 2");
RULE(misaligned_u32, b_misaligned, U32, BUFFER, NOI, "multiple of 4");
RULE(misaligned_f64, b_misaligned, F64, BUFFER, NOI, "multiple of 8");
RULE(misaligned_i64, b_misaligned, I64, BUFFER, NOI, "multiple of 8");
RULE(misaligned_u64, b_misaligned, U64, BUFFER, NOI, "multiple of 8");
RULE(end_past_max, b_end, 0, BUFFER, NOI, "2^32");
RULE(offset_big, b_offset_huge, 0, BUFFER, NOI, NULL);
RULE(offset_wraps, b_offset_huge, 1, BUFFER, NOI, NULL);

RULE(op_zero, b_op, 0, OPCODE, 1, "insn 1 (op 0): unknown op");
RULE(op_count, b_op, PWTPU_OP_COUNT, OPCODE, 1, NULL);
RULE(op_255, b_op, 255, OPCODE, 1, NULL);
RULE(insn_flags, b_insn_flags, 1, RESERVED, 1, "insn 1 (add): flags");
RULE(insn_flags_high, b_insn_flags, 0x8000, RESERVED, 1, NULL);
RULE(mode_add, b_mode_unused, PWTPU_OP_ADD, RESERVED, 1, "mode");
RULE(mode_exp, b_mode_unused, PWTPU_OP_EXP, RESERVED, 1, NULL);
RULE(mode_loop, b_loop_mode, 2, OPCODE, 1, "insn 1 (loop): unknown mode 2");
RULE(mode_loop_255, b_loop_mode, 255, OPCODE, 1, "unknown mode 255");
RULE(mode_delay, b_mode_unused, PWTPU_OP_DELAY, RESERVED, 1, NULL);
RULE(mode_compare, b_compare_mode, 0, OPCODE, 1, "unknown mode 6");
RULE(mode_reduce, b_reduce_mode, 0, OPCODE, 1, "unknown mode 3");
RULE(missing_dst, b_missing, 0, OPERAND, 1, "dst is missing");
RULE(missing_a, b_missing, 1, OPERAND, 1, "a is missing");
RULE(missing_b, b_missing, 2, OPERAND, 1, "b is missing");
RULE(missing_c, b_missing, 3, OPERAND, 1, "c is missing");
RULE(range_dst, b_out_of_range, 0, OPERAND, 1, "dst is tensor 4");
RULE(range_a, b_out_of_range, 1, OPERAND, 1, "a is tensor 1025");
RULE(range_b, b_out_of_range, 2, OPERAND, 1, NULL);
RULE(range_c, b_out_of_range, 3, OPERAND, 1, NULL);
RULE(unused_b_neg, b_unused_operand, PWTPU_OP_NEG, RESERVED, 1, "b is unused");
RULE(unused_c_add, b_unused_operand, PWTPU_OP_ADD, RESERVED, 1, "c is unused");
RULE(unused_dst_loop, b_unused_operand, PWTPU_OP_LOOP, RESERVED, 1, "dst is unused");
RULE(unused_dst_delay, b_unused_operand, PWTPU_OP_DELAY, RESERVED, 1, NULL);
RULE(unused_arg0, b_unused_arg, 0, RESERVED, 1, "arg[0] is unused");
RULE(unused_arg4, b_unused_arg, 4, RESERVED, 1, "arg[4] is unused");
RULE(unused_arg_transpose, b_unused_arg_of, PWTPU_OP_TRANSPOSE, RESERVED, 1, "arg[2]");
RULE(unused_arg_slice, b_unused_arg_of, PWTPU_OP_SLICE, RESERVED, 1, "arg[2]");
RULE(unused_arg_reduce, b_unused_arg_of, PWTPU_OP_REDUCE, RESERVED, 1, "arg[1]");
RULE(unused_arg_loop, b_unused_arg_of, PWTPU_OP_LOOP, RESERVED, 1, "arg[2]");
RULE(unused_arg_delay, b_unused_arg_of, PWTPU_OP_DELAY, RESERVED, 1, "arg[2]");

RULE(dtype_add, b_ew_dtype, PWTPU_OP_ADD, MISMATCH, 1, "dst is f32 but b is bf16: dtypes differ");
RULE(dtype_div, b_ew_dtype, PWTPU_OP_DIV, MISMATCH, 1, NULL);
RULE(dtype_min, b_ew_dtype, PWTPU_OP_MIN, MISMATCH, 1, NULL);
RULE(dtype_abs, b_ew_dtype, PWTPU_OP_ABS, MISMATCH, 1, "a is bf16");
RULE(dtype_tanh, b_ew_dtype, PWTPU_OP_TANH, MISMATCH, 1, NULL);
RULE(shape_sub, b_ew_shape, PWTPU_OP_SUB, MISMATCH, 1, "dst is [2,3] but b is [3,2]: shapes differ");
RULE(shape_mul, b_ew_shape, PWTPU_OP_MUL, MISMATCH, 1, NULL);
RULE(shape_max, b_ew_shape, PWTPU_OP_MAX, MISMATCH, 1, NULL);
RULE(shape_neg, b_ew_shape, PWTPU_OP_NEG, MISMATCH, 1, "a is [3,2]");
RULE(shape_rsqrt, b_ew_shape, PWTPU_OP_RSQRT, MISMATCH, 1, NULL);
RULE(float_exp, b_ew_float_only, PWTPU_OP_EXP, DTYPE, 1, "a is i32");
RULE(float_log, b_ew_float_only, PWTPU_OP_LOG, DTYPE, 1, "a is i8");
RULE(float_tanh, b_ew_float_only, PWTPU_OP_TANH, DTYPE, 1, NULL);
RULE(float_rsqrt, b_ew_float_only, PWTPU_OP_RSQRT, DTYPE, 1, NULL);
RULE(f64_exp, b_math_f64, PWTPU_OP_EXP, DTYPE, 1, "insn 1 (exp): a is i64: this op takes floats only (f32, bf16, f16 or f64)");
RULE(f64_log, b_math_f64, PWTPU_OP_LOG, DTYPE, 1, "insn 1 (log): a is i64: this op takes floats only");
RULE(f64_tanh, b_math_f64, PWTPU_OP_TANH, DTYPE, 1, "insn 1 (tanh): a is i64");
RULE(f64_rsqrt, b_math_f64, PWTPU_OP_RSQRT, DTYPE, 1, "insn 1 (rsqrt): a is i64");
RULE(exp_i64, b_math_int, I64, DTYPE, 1, "insn 1 (exp): a is i64: this op takes floats only (f32, bf16, f16 or f64)");
RULE(exp_u8, b_math_int, U8, DTYPE, 1, "a is u8: this op takes floats only");
RULE(exp_i16, b_math_int, I16, DTYPE, 1, "a is i16");
RULE(exp_u16, b_math_int, U16, DTYPE, 1, "a is u16");
RULE(exp_u32, b_math_int, U32, DTYPE, 1, "a is u32");
RULE(exp_u64, b_math_int, U64, DTYPE, 1, "a is u64");
RULE(alias_add, b_ew_alias_a, PWTPU_OP_ADD, OVERLAP, 1, "without being the same");
RULE(alias_sub, b_ew_alias_a, PWTPU_OP_SUB, OVERLAP, 1, NULL);
RULE(alias_mul, b_ew_alias_a, PWTPU_OP_MUL, OVERLAP, 1, NULL);
RULE(alias_div, b_ew_alias_a, PWTPU_OP_DIV, OVERLAP, 1, NULL);
RULE(alias_max, b_ew_alias_a, PWTPU_OP_MAX, OVERLAP, 1, NULL);
RULE(alias_min, b_ew_alias_a, PWTPU_OP_MIN, OVERLAP, 1, NULL);
RULE(alias_neg, b_ew_alias_a, PWTPU_OP_NEG, OVERLAP, 1, NULL);
RULE(alias_abs, b_ew_alias_a, PWTPU_OP_ABS, OVERLAP, 1, NULL);
RULE(alias_exp, b_ew_alias_a, PWTPU_OP_EXP, OVERLAP, 1, NULL);
RULE(alias_log, b_ew_alias_a, PWTPU_OP_LOG, OVERLAP, 1, NULL);
RULE(alias_tanh, b_ew_alias_a, PWTPU_OP_TANH, OVERLAP, 1, NULL);
RULE(alias_rsqrt, b_ew_alias_a, PWTPU_OP_RSQRT, OVERLAP, 1, NULL);
RULE(alias_b_add, b_ew_alias_b, PWTPU_OP_ADD, OVERLAP, 1, "dst is [2,3] but b is [2,3]");
RULE(alias_b_div, b_ew_alias_b, PWTPU_OP_DIV, OVERLAP, 1, NULL);

RULE(compare_dst_f32, b_compare_dst_dtype, F32, DTYPE, 1, "dst is f32: compare writes i8");
RULE(compare_dst_i32, b_compare_dst_dtype, I32, DTYPE, 1, NULL);
RULE(compare_dst_u8, b_compare_dst_dtype, U8, DTYPE, 1, "dst is u8: compare writes i8");
RULE(compare_ab_dtype, b_compare_ab_dtype, F32, MISMATCH, 1, "a is i32 but b is f32");
RULE(compare_ab_i8, b_compare_ab_dtype, I8, MISMATCH, 1, NULL);
RULE(compare_shape_b, b_compare_shape, 0, MISMATCH, 1, "a is [2,3] but b is [1,3]");
RULE(compare_shape_dst, b_compare_shape, 1, MISMATCH, 1, "dst is [2,4]");
RULE(compare_alias_a, b_compare_alias, 0, OVERLAP, 1, "dst is [2,3] but a is");
RULE(compare_alias_b, b_compare_alias, 1, OVERLAP, 1, NULL);
RULE(select_pred_f32, b_select_pred, F32, DTYPE, 1, "predicate");
RULE(select_pred_i32, b_select_pred, I32, DTYPE, 1, NULL);
RULE(select_pred_u8, b_select_pred, U8, DTYPE, 1, "a is u8: the predicate must be i8");
RULE(select_dtype_b, b_select_dtype, 1, MISMATCH, 1, "dst is bf16 but b is f32");
RULE(select_dtype_c, b_select_dtype, 2, MISMATCH, 1, NULL);
RULE(select_shape_dst, b_select_shape, 0, MISMATCH, 1, NULL);
RULE(select_shape_a, b_select_shape, 1, MISMATCH, 1, NULL);
RULE(select_shape_b, b_select_shape, 2, MISMATCH, 1, NULL);
RULE(select_shape_c, b_select_shape, 3, MISMATCH, 1, "c is [2,2]");
RULE(select_alias_a_vs_b, b_select_alias, 0, OVERLAP, 1, "but a is");
RULE(select_alias_a_vs_c, b_select_alias, 1, OVERLAP, 1, NULL);
RULE(select_partial_c, b_select_partial, 1, OVERLAP, 1, "but c is");
RULE(select_partial_c_end, b_select_partial, 5, OVERLAP, 1, NULL);
RULE(convert_shape, b_convert_shape, BF16, MISMATCH, 1, "shapes differ");
RULE(convert_shape_i8, b_convert_shape, I8, MISMATCH, 1, NULL);
RULE(convert_alias, b_convert_alias, F32, OVERLAP, 1, "they overlap");
RULE(convert_alias_i8, b_convert_alias, I8, OVERLAP, 1, NULL);

RULE(matmul_i32, b_matmul_dtype, I32, DTYPE, 1, "a is i32: matmul takes");
RULE(matmul_f64, b_matmul_dtype, F64, DTYPE, 1, "insn 1 (matmul): a is f64: matmul takes f32, bf16 or i8");
RULE(matmul_f16, b_matmul_dtype, F16, DTYPE, 1, "a is f16: matmul takes f32, bf16 or i8");
RULE(matmul_i16, b_matmul_dtype, I16, DTYPE, 1, "a is i16: matmul takes");
RULE(matmul_i64, b_matmul_dtype, I64, DTYPE, 1, "a is i64: matmul takes");
RULE(matmul_u8, b_matmul_dtype, U8, DTYPE, 1, "a is u8: matmul takes");
RULE(matmul_u16, b_matmul_dtype, U16, DTYPE, 1, "a is u16: matmul takes");
RULE(matmul_u32, b_matmul_dtype, U32, DTYPE, 1, "a is u32: matmul takes");
RULE(matmul_u64, b_matmul_dtype, U64, DTYPE, 1, "a is u64: matmul takes");
RULE(matmul_dtype_bf16_dst, b_matmul_bf16_dst, BF16, MISMATCH, 1, "dst is bf16 but a matmul of bf16 gives f32");
RULE(matmul_dtype_bf16_i32, b_matmul_bf16_dst, I32, MISMATCH, 1, NULL);
RULE(matmul_dtype_i8_f32, b_matmul_i8_dst, F32, MISMATCH, 1, "dst is f32");
RULE(matmul_dtype_i8_i8, b_matmul_i8_dst, I8, MISMATCH, 1, NULL);
RULE(matmul_ab_f32, b_matmul_ab_dtype, F32, MISMATCH, 1, "a is f32 but b is bf16");
RULE(matmul_ab_bf16, b_matmul_ab_dtype, BF16, MISMATCH, 1, NULL);
RULE(matmul_ab_i8, b_matmul_ab_dtype, I8, MISMATCH, 1, NULL);
RULE(matmul_rank1_dst, b_matmul_rank, 0, SHAPE, 1, "rank 2");
RULE(matmul_rank1_a, b_matmul_rank, 1, SHAPE, 1, NULL);
RULE(matmul_rank1_b, b_matmul_rank, 2, SHAPE, 1, NULL);
RULE(matmul_rank3_dst, b_matmul_rank, 3, SHAPE, 1, NULL);
RULE(matmul_rank3_a, b_matmul_rank, 4, SHAPE, 1, NULL);
RULE(matmul_rank3_b, b_matmul_rank, 5, SHAPE, 1, NULL);
RULE(matmul_inner, b_matmul_inner, 0, MISMATCH, 1, "a is [4,5] but b is [6,7]: inner dimensions differ");
RULE(matmul_dst_m, b_matmul_dst, 0, MISMATCH, 1, "dst is [5,7] but a [4,5] x b [5,7] gives [4,7]");
RULE(matmul_dst_n, b_matmul_dst, 1, MISMATCH, 1, "dst is [4,5]");
RULE(matmul_alias_a, b_matmul_alias, 0, OVERLAP, 1, "they overlap");
RULE(matmul_alias_b, b_matmul_alias, 1, OVERLAP, 1, NULL);
RULE(matmul_partial_b, b_matmul_alias, 2, OVERLAP, 1, NULL);

RULE(broadcast_trailing, b_broadcast_shape, 0, MISMATCH, 1, "dst is [2,3] but a is [2]");
RULE(broadcast_ones, b_broadcast_shape, 1, MISMATCH, 1, NULL);
RULE(broadcast_scalar, b_broadcast_shape, 2, MISMATCH, 1, NULL);
RULE(broadcast_rank, b_broadcast_rank, 0, MISMATCH, 1, "higher rank");
RULE(broadcast_dtype, b_layout_dtype, PWTPU_OP_BROADCAST, MISMATCH, 0, "dst is i32 but a is bf16");
RULE(reshape_dtype, b_layout_dtype, PWTPU_OP_RESHAPE, MISMATCH, 0, NULL);
RULE(transpose_dtype, b_layout_dtype, PWTPU_OP_TRANSPOSE, MISMATCH, 0, NULL);
RULE(slice_dtype, b_layout_dtype, PWTPU_OP_SLICE, MISMATCH, 0, NULL);
RULE(reshape_count, b_reshape_count, 0, MISMATCH, 1, "element counts differ");
RULE(broadcast_alias, b_layout_alias, PWTPU_OP_BROADCAST, OVERLAP, 1, NULL);
RULE(reshape_alias, b_layout_alias, PWTPU_OP_RESHAPE, OVERLAP, 1, NULL);
RULE(transpose_alias, b_layout_alias, PWTPU_OP_TRANSPOSE, OVERLAP, 1, NULL);
RULE(slice_alias, b_layout_alias, PWTPU_OP_SLICE, OVERLAP, 1, NULL);
RULE(convert_partial, b_layout_alias, PWTPU_OP_CONVERT, OVERLAP, 1, NULL);
RULE(reduce_alias, b_reduce_alias, 0, OVERLAP, 1, NULL);

RULE(transpose_repeat, b_transpose, 0, ARG, 1, "not a permutation");
RULE(transpose_axis, b_transpose, 1, ARG, 1, "not a permutation");
RULE(transpose_dst, b_transpose, 2, MISMATCH, 1, "a.shape[arg[k]]");
RULE(transpose_rank, b_transpose, 3, MISMATCH, 1, "ranks differ");
RULE(slice_window, b_slice, 0, ARG, 1, "window 3+4 of dimension 1 is past a's extent 6");
RULE(slice_wrap, b_slice, 1, ARG, 1, NULL);
RULE(slice_rank, b_slice, 2, MISMATCH, 1, "ranks differ");
RULE(reduce_mask_zero, b_reduce, 0, ARG, 1, "axis mask");
RULE(reduce_mask_rank, b_reduce, 1, ARG, 1, "axis mask");
RULE(reduce_dst_axis, b_reduce, 2, MISMATCH, 1, "without the reduced axes");
RULE(reduce_dst_rank, b_reduce, 3, MISMATCH, 1, NULL);
RULE(reduce_dst_scalar, b_reduce, 4, MISMATCH, 1, NULL);
RULE(reduce_all, b_reduce_all, 0, MISMATCH, 1, NULL);

RULE(loop_trips_zero, b_loop_trips, 0, LOOP, 1, "trip count");
RULE(loop_trips_max, b_loop_trips, PWTPU_MAX_TRIPS + 1, LOOP, 1, NULL);
RULE(loop_empty, b_loop_empty, 0, LOOP, 1, "body length");
RULE(loop_past_end_last, b_loop_past_end, 1, LOOP, 1, "ends at insn 3, past the program's last insn 2");
RULE(loop_past_end, b_loop_past_end, 4, LOOP, 1, "body ends at insn 6");
RULE(loop_enclosing, b_loop_enclosing, 0, LOOP, 2, "enclosing body's end at insn 3");
RULE(loop_depth, b_loop_depth, 0, LOOP, 5, "deeper than 4");
RULE(loop_siblings, b_loop_siblings, 0, LOOP, 8, "deeper than 4");
RULE(while_outside, b_while_place, 0, LOOP, 4, "insn 4 (while): a while must be in the body of a bounded loop (mode 1): it is outside every loop");
RULE(while_counted, b_while_place, 1, LOOP, 4, "insn 4 (while): a while leaves the innermost loop, which must be bounded (mode 1): it is counted (mode 0)");
RULE(while_inner_counted, b_while_place, 2, LOOP, 4, "it is counted (mode 0)");
RULE(while_only_counted, b_while_place, 3, LOOP, 2, "it is counted");
RULE(bounded_no_while, b_while_missing, 0, LOOP, 1, "insn 1 (loop): a bounded loop (mode 1) needs a while in its own body to end: it has none");
RULE(bounded_inner_while, b_while_missing, 1, LOOP, 1, "needs a while in its own body");
RULE(bounded_no_while_at_end, b_while_missing, 2, LOOP, 2, "needs a while");
RULE(while_rank, b_while_pred, 0, SHAPE, 2, "insn 2 (while): a is [1]: the predicate must be a scalar (rank 0)");
RULE(while_f32, b_while_pred, 1, DTYPE, 2, "insn 2 (while): a is f32: the predicate must be an integer");
RULE(while_bf16, b_while_pred, 2, DTYPE, 2, "a is bf16");
RULE(while_f64, b_while_pred, 3, DTYPE, 2, "a is f64");
RULE(while_dst, b_while_fields, 0, RESERVED, 2, "insn 2 (while): dst is unused");
RULE(while_b, b_while_fields, 1, RESERVED, 2, "b is unused");
RULE(while_c, b_while_fields, 2, RESERVED, 2, "c is unused");
RULE(while_mode, b_while_fields, 3, RESERVED, 2, "mode is unused");
RULE(while_arg0, b_while_fields, 4, RESERVED, 2, "arg[0] is unused");
RULE(while_arg4, b_while_fields, 5, RESERVED, 2, "arg[4] is unused");
RULE(while_missing_a, b_while_operand, NO, OPERAND, 2, "a is missing");
RULE(while_a_range, b_while_operand, 1, OPERAND, 2, "a is tensor 1 but the program has 1");
RULE(while_bound, b_while_bound, 0, BOUND, 4, "4194304");
RULE(delay_max, b_delay, 0, LIMIT, 1, "1000000001 ns");
RULE(delay_high_word, b_delay, 1, LIMIT, 1, "4294967296 ns");
RULE(dyn_exact, b_dyn_exact, 0, BOUND, 5, "4194304");
RULE(dyn_body, b_dyn_body, 0, BOUND, 2, "5242880 times");
RULE(time_exact, b_time_exact, 0, BOUND, 2, "10 s");
RULE(work_loop, b_work_loop, 0, BOUND, 2, "17179869184 units");
RULE(work_insn, b_work_insn, 0, BOUND, 2, "units of work");

RULE(and_f32, b_int_only, PWTPU_OP_AND, DTYPE, 1, "insn 1 (and): a is f32: this op takes integers only");
RULE(or_f64, b_int_only, PWTPU_OP_OR, DTYPE, 1, "a is f64: this op takes integers only");
RULE(xor_f32, b_int_only, PWTPU_OP_XOR, DTYPE, 1, "(xor): a is f32");
RULE(not_f64, b_int_only, PWTPU_OP_NOT, DTYPE, 1, "(not): a is f64");
RULE(shl_f32, b_int_only, PWTPU_OP_SHL, DTYPE, 1, "(shl): a is f32");
RULE(shr_logical_f64, b_int_only, PWTPU_OP_SHR_LOGICAL, DTYPE, 1, "(shr_logical)");
RULE(shr_arith_f32, b_int_only, PWTPU_OP_SHR_ARITH, DTYPE, 1, "(shr_arith)");
RULE(popcnt_f64, b_int_only, PWTPU_OP_POPCNT, DTYPE, 1, "(popcnt)");
RULE(clz_f32, b_int_only, PWTPU_OP_CLZ, DTYPE, 1, "(clz)");
RULE(floor_u8, b_float_only, PWTPU_OP_FLOOR, DTYPE, 1, "insn 1 (floor): a is u8: this op takes floats only (f32, bf16, f16 or f64)");
RULE(ceil_i32, b_float_only, PWTPU_OP_CEIL, DTYPE, 1, "(ceil): a is i32");
RULE(round_even_u8, b_float_only, PWTPU_OP_ROUND_EVEN, DTYPE, 1, "(round_even)");
RULE(round_afz_i32, b_float_only, PWTPU_OP_ROUND_AFZ, DTYPE, 1, "(round_afz)");
RULE(sqrt_u8, b_float_only, PWTPU_OP_SQRT, DTYPE, 1, "(sqrt)");
RULE(cbrt_i32, b_float_only, PWTPU_OP_CBRT, DTYPE, 1, "(cbrt)");
RULE(sin_u8, b_float_only, PWTPU_OP_SIN, DTYPE, 1, "(sin)");
RULE(cos_i32, b_float_only, PWTPU_OP_COS, DTYPE, 1, "(cos)");
RULE(tan_u8, b_float_only, PWTPU_OP_TAN, DTYPE, 1, "(tan)");
RULE(log1p_i32, b_float_only, PWTPU_OP_LOG1P, DTYPE, 1, "(log1p)");
RULE(expm1_u8, b_float_only, PWTPU_OP_EXPM1, DTYPE, 1, "(expm1)");
RULE(logistic_i32, b_float_only, PWTPU_OP_LOGISTIC, DTYPE, 1, "(logistic)");
RULE(atan2_u8, b_float_only, PWTPU_OP_ATAN2, DTYPE, 1, "(atan2): a is u8");
RULE(reduce_precision_u8, b_float_only, PWTPU_OP_REDUCE_PRECISION, DTYPE, 1, "(reduce_precision): a is u8: this op takes floats only");
RULE(pow_any_dtype, b_any_dtype, PWTPU_OP_POW, MAGIC, NOI, NULL);
RULE(rem_any_dtype, b_any_dtype, PWTPU_OP_REM, MAGIC, NOI, NULL);
RULE(shl_b_dtype, b_new_ab_dtype, PWTPU_OP_SHL, MISMATCH, 1, "dst is i32 but b is u32: dtypes differ");
RULE(pow_b_dtype, b_new_ab_dtype, PWTPU_OP_POW, MISMATCH, 1, NULL);
RULE(rem_b_dtype, b_new_ab_dtype, PWTPU_OP_REM, MISMATCH, 1, NULL);
RULE(atan2_b_dtype, b_new_ab_dtype, PWTPU_OP_ATAN2, MISMATCH, 1, "dst is f32 but b is i32");
RULE(alias_and, b_new_alias, PWTPU_OP_AND, OVERLAP, 1, "without being the same");
RULE(alias_shr_arith, b_new_alias, PWTPU_OP_SHR_ARITH, OVERLAP, 1, NULL);
RULE(alias_clz, b_new_alias, PWTPU_OP_CLZ, OVERLAP, 1, NULL);
RULE(alias_round_afz, b_new_alias, PWTPU_OP_ROUND_AFZ, OVERLAP, 1, NULL);
RULE(alias_sqrt, b_new_alias, PWTPU_OP_SQRT, OVERLAP, 1, NULL);
RULE(alias_tan, b_new_alias, PWTPU_OP_TAN, OVERLAP, 1, NULL);
RULE(alias_atan2, b_new_alias, PWTPU_OP_ATAN2, OVERLAP, 1, NULL);
RULE(alias_pow, b_new_alias, PWTPU_OP_POW, OVERLAP, 1, NULL);
RULE(alias_rem, b_new_alias, PWTPU_OP_REM, OVERLAP, 1, NULL);
RULE(alias_reduce_precision, b_new_alias, PWTPU_OP_REDUCE_PRECISION, OVERLAP, 1, NULL);
RULE(bitcast_same_width, b_bitcast, 0, MISMATCH, 1, "dst is [3,2] but a is [2,3]: shapes differ");
RULE(bitcast_wider, b_bitcast, 1, MISMATCH, 1, "insn 1 (bitcast): dst is f64[2] but a is f32[2,3]: a's shape must be dst's and a last dimension of 2");
RULE(bitcast_narrower, b_bitcast, 2, MISMATCH, 1, "dst is u8[2,3] but a is u32[2]: dst's shape must be a's and a last dimension of 4");
RULE(bitcast_rank, b_bitcast, 3, MISMATCH, 1, "dst is i16[3,2,2] but a is i64[3]");
RULE(bitcast_overlap, b_bitcast, 4, OVERLAP, 1, "they overlap");
RULE(reduce_precision_ebits, b_reduce_precision, 0, ARG, 1, "insn 1 (reduce_precision): exponent bits arg[0] must be >= 1");
RULE(reduce_precision_arg2, b_reduce_precision, 1, RESERVED, 1, "arg[2] is unused");

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
	char prefix[32];
	size_t size;
	int ret;

	pwfw_spec_default(&spec);
	tp_reset(self->p, 1);
	size = variant->build(self->p, false, variant->op);
	ret = pwfw_verify(self->p->img, size, &spec, &prog, &err);
	ASSERT_EQ(0, ret) TH_LOG("valid program rejected: %s", err.msg);
	EXPECT_EQ(PWTPU_VERR_OK, err.code);
	EXPECT_EQ(NOI, err.insn);

	tp_reset(self->p, 1);
	size = variant->build(self->p, true, variant->op);
	ret = pwfw_verify(self->p->img, size, &spec, &prog, &err);
	ASSERT_EQ(-PWFW_EINVAL, ret);
	EXPECT_EQ(variant->code, err.code) TH_LOG("message: %s", err.msg);
	EXPECT_EQ(variant->insn, err.insn) TH_LOG("message: %s", err.msg);
	ASSERT_NE(0, err.msg[0]);
	ASSERT_GT(sizeof(err.msg), strlen(err.msg));
	if (variant->insn != NOI) {
		snprintf(prefix, sizeof(prefix), "insn %u (", variant->insn);
		EXPECT_EQ(0, strncmp(err.msg, prefix, strlen(prefix)))
			TH_LOG("message: %s", err.msg);
	}
	if (variant->msg)
		EXPECT_NE(NULL, strstr(err.msg, variant->msg))
			TH_LOG("'%s' not in '%s'", variant->msg, err.msg);
	/* A rejected program leaves nothing usable behind. */
	EXPECT_EQ(NULL, prog.tensors);
	EXPECT_EQ(0U, prog.ninsns);
	EXPECT_EQ(0ULL, prog.modeled_ns);
	EXPECT_EQ(0U, prog.array_dim);
}

TEST_HARNESS_MAIN
