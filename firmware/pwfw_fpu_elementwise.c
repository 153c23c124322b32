// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_elementwise.c - the vector unit: elementwise arithmetic,
 * negate/abs, comparisons and reductions for f32, bf16, i8 and i32.
 * Runs only inside an FPU section (see pwfw_kernels.h).
 *
 * bf16 is computed in f32 (widening is exact) and rounded back to bf16 to
 * nearest even. Integer arithmetic wraps: it is done in u32. Semantics,
 * NaN and edge cases: docs/firmware-ops.md.
 */
#include "pwfw_fpu.h"

#define PWFW_S32_MIN	(-0x7fffffff - 1)
#define PWFW_S32_MAX	0x7fffffff

/* A NaN result is the first NaN operand with its quiet bit set. */
static inline float pwfw_quiet(float a)
{
	return pwfw_f32_from_bits(pwfw_f32_bits(a) | 0x00400000U);
}

/* Max and min propagate NaN and order -0 below +0. */
static inline float pwfw_maxf(float a, float b)
{
	if (pwfw_f32_isnan(a))
		return pwfw_quiet(a);
	if (pwfw_f32_isnan(b))
		return pwfw_quiet(b);
	if (a == b)
		return pwfw_f32_from_bits(pwfw_f32_bits(a) & pwfw_f32_bits(b));
	return a > b ? a : b;
}

static inline float pwfw_minf(float a, float b)
{
	if (pwfw_f32_isnan(a))
		return pwfw_quiet(a);
	if (pwfw_f32_isnan(b))
		return pwfw_quiet(b);
	if (a == b)
		return pwfw_f32_from_bits(pwfw_f32_bits(a) | pwfw_f32_bits(b));
	return a < b ? a : b;
}

static inline float pwfw_f32_op(u32 op, float a, float b)
{
	switch (op) {
	case PWTPU_OP_ADD:
		return a + b;
	case PWTPU_OP_SUB:
		return a - b;
	case PWTPU_OP_MUL:
		return a * b;
	case PWTPU_OP_DIV:
		return a / b;
	case PWTPU_OP_MAX:
		return pwfw_maxf(a, b);
	default:
		return pwfw_minf(a, b);
	}
}

/* Wrapping two's complement; x / 0 = -1 and MIN / -1 = MIN. */
static inline u32 pwfw_int_op(u32 op, s32 a, s32 b)
{
	switch (op) {
	case PWTPU_OP_ADD:
		return (u32)a + (u32)b;
	case PWTPU_OP_SUB:
		return (u32)a - (u32)b;
	case PWTPU_OP_MUL:
		return (u32)a * (u32)b;
	case PWTPU_OP_DIV:
		if (b == 0)
			return (u32)-1;
		if (b == -1)
			return -(u32)a;
		return (u32)(a / b);
	case PWTPU_OP_MAX:
		return (u32)(a > b ? a : b);
	default:
		return (u32)(a < b ? a : b);
	}
}

static void pwfw_binary_f32(u32 op, float *d, const float *a,
			    const float *b, u32 n)
{
	u32 i;

	/* The common ops get their own loops, which the compiler vectorises. */
	switch (op) {
	case PWTPU_OP_ADD:
		for (i = 0; i < n; i++)
			d[i] = a[i] + b[i];
		break;
	case PWTPU_OP_SUB:
		for (i = 0; i < n; i++)
			d[i] = a[i] - b[i];
		break;
	case PWTPU_OP_MUL:
		for (i = 0; i < n; i++)
			d[i] = a[i] * b[i];
		break;
	default:
		for (i = 0; i < n; i++)
			d[i] = pwfw_f32_op(op, a[i], b[i]);
		break;
	}
}

void pwfw_k_binary(u32 op, u32 dtype, void *dst, const void *a,
		   const void *b, u32 n)
{
	const u16 *ah = a, *bh = b;
	const s8 *ab = a, *bb = b;
	const s32 *aw = a, *bw = b;
	float f;
	u32 i;

	switch (dtype) {
	case PWTPU_DT_F32:
		pwfw_binary_f32(op, dst, a, b, n);
		break;
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++) {
			f = pwfw_f32_op(op, pwfw_bf16_to_f32(ah[i]),
					pwfw_bf16_to_f32(bh[i]));
			((u16 *)dst)[i] = pwfw_f32_to_bf16(f);
		}
		break;
	case PWTPU_DT_I8:
		for (i = 0; i < n; i++)
			((u8 *)dst)[i] = (u8)pwfw_int_op(op, ab[i], bb[i]);
		break;
	case PWTPU_DT_I32:
		for (i = 0; i < n; i++)
			((u32 *)dst)[i] = pwfw_int_op(op, aw[i], bw[i]);
		break;
	}
}

/* Negate and abs are sign operations, exact for every value and NaN. */
void pwfw_k_unary(u32 op, u32 dtype, void *dst, const void *a, u32 n)
{
	bool neg = op == PWTPU_OP_NEG;
	const u32 *af = a;
	const u16 *ah = a;
	const s8 *ab = a;
	const s32 *aw = a;
	u32 i;

	switch (dtype) {
	case PWTPU_DT_F32:
		for (i = 0; i < n; i++)
			((u32 *)dst)[i] = neg ? af[i] ^ PWFW_F32_SIGN :
						af[i] & ~PWFW_F32_SIGN;
		break;
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++)
			((u16 *)dst)[i] = neg ? ah[i] ^ 0x8000U :
						ah[i] & 0x7fffU;
		break;
	case PWTPU_DT_I8:
		for (i = 0; i < n; i++)
			((u8 *)dst)[i] = (u8)(neg || ab[i] < 0 ?
					      -(u32)ab[i] : (u32)ab[i]);
		break;
	case PWTPU_DT_I32:
		for (i = 0; i < n; i++)
			((u32 *)dst)[i] = neg || aw[i] < 0 ?
					  -(u32)aw[i] : (u32)aw[i];
		break;
	}
}

static inline bool pwfw_cmp_f32(u32 mode, float a, float b)
{
	switch (mode) {
	case PWTPU_CMP_EQ:
		return a == b;
	case PWTPU_CMP_NE:
		return a != b;
	case PWTPU_CMP_LT:
		return a < b;
	case PWTPU_CMP_LE:
		return a <= b;
	case PWTPU_CMP_GT:
		return a > b;
	default:
		return a >= b;
	}
}

static inline bool pwfw_cmp_int(u32 mode, s32 a, s32 b)
{
	switch (mode) {
	case PWTPU_CMP_EQ:
		return a == b;
	case PWTPU_CMP_NE:
		return a != b;
	case PWTPU_CMP_LT:
		return a < b;
	case PWTPU_CMP_LE:
		return a <= b;
	case PWTPU_CMP_GT:
		return a > b;
	default:
		return a >= b;
	}
}

void pwfw_k_compare(u32 mode, u32 dtype, s8 *dst, const void *a,
		    const void *b, u32 n)
{
	const float *af = a, *bf = b;
	const u16 *ah = a, *bh = b;
	const s8 *ab = a, *bb = b;
	const s32 *aw = a, *bw = b;
	u32 i;

	switch (dtype) {
	case PWTPU_DT_F32:
		for (i = 0; i < n; i++)
			dst[i] = pwfw_cmp_f32(mode, af[i], bf[i]);
		break;
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++)
			dst[i] = pwfw_cmp_f32(mode, pwfw_bf16_to_f32(ah[i]),
					      pwfw_bf16_to_f32(bh[i]));
		break;
	case PWTPU_DT_I8:
		for (i = 0; i < n; i++)
			dst[i] = pwfw_cmp_int(mode, ab[i], bb[i]);
		break;
	case PWTPU_DT_I32:
		for (i = 0; i < n; i++)
			dst[i] = pwfw_cmp_int(mode, aw[i], bw[i]);
		break;
	}
}

/*
 * Reductions fold from the mode's identity (-0.0 for a float sum, which
 * leaves the first element unchanged; -inf/+inf or INT_MIN/INT_MAX for
 * max/min) in ascending index order. The opaque accumulator is the f32
 * bits for f32 and bf16 (bf16 is summed in f32, rounded once at the end)
 * and a wrapping u32 for i8 and i32.
 */
static bool pwfw_is_float(u32 dtype)
{
	return dtype == PWTPU_DT_F32 || dtype == PWTPU_DT_BF16;
}

static u32 pwfw_reduce_identity(const struct pwfw_k_reduce *r)
{
	switch (r->mode) {
	case PWTPU_REDUCE_SUM:
		return pwfw_is_float(r->dtype) ? PWFW_F32_SIGN : 0;
	case PWTPU_REDUCE_MAX:
		return pwfw_is_float(r->dtype) ? PWFW_F32_SIGN | PWFW_F32_INF :
						 (u32)PWFW_S32_MIN;
	default:
		return pwfw_is_float(r->dtype) ? PWFW_F32_INF : PWFW_S32_MAX;
	}
}

static inline float pwfw_fold_f32(u32 mode, float acc, float x)
{
	switch (mode) {
	case PWTPU_REDUCE_SUM:
		return acc + x;
	case PWTPU_REDUCE_MAX:
		return pwfw_maxf(acc, x);
	default:
		return pwfw_minf(acc, x);
	}
}

static inline u32 pwfw_fold_int(u32 mode, u32 acc, s32 x)
{
	switch (mode) {
	case PWTPU_REDUCE_SUM:
		return acc + (u32)x;
	case PWTPU_REDUCE_MAX:
		return (s32)acc < x ? (u32)x : acc;
	default:
		return (s32)acc > x ? (u32)x : acc;
	}
}

/* Fold @n source elements from element @off, @stride elements apart. */
static u32 pwfw_fold_run(const struct pwfw_k_reduce *r, u32 acc, u64 off,
			 u64 stride, u64 n)
{
	const float *sf = (const float *)r->src + off;
	const u16 *sh = (const u16 *)r->src + off;
	const s8 *sb = (const s8 *)r->src + off;
	const s32 *sw = (const s32 *)r->src + off;
	float f = pwfw_f32_from_bits(acc);
	u64 i;

	switch (r->dtype) {
	case PWTPU_DT_F32:
		for (i = 0; i < n; i++)
			f = pwfw_fold_f32(r->mode, f, sf[i * stride]);
		return pwfw_f32_bits(f);
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++)
			f = pwfw_fold_f32(r->mode, f,
					  pwfw_bf16_to_f32(sh[i * stride]));
		return pwfw_f32_bits(f);
	case PWTPU_DT_I8:
		for (i = 0; i < n; i++)
			acc = pwfw_fold_int(r->mode, acc, sb[i * stride]);
		return acc;
	default:
		for (i = 0; i < n; i++)
			acc = pwfw_fold_int(r->mode, acc, sw[i * stride]);
		return acc;
	}
}

/* Row-major index @lin over @naxes axes: its digits and source offset. */
static u64 pwfw_unravel(const u32 *shape, const u64 *stride, u32 naxes,
			u64 lin, u32 *idx)
{
	u64 off = 0;
	int k;

	for (k = (int)naxes - 1; k >= 0; k--) {
		idx[k] = lin % shape[k];
		lin /= shape[k];
		off += idx[k] * stride[k];
	}
	return off;
}

void pwfw_k_reduce_part(const struct pwfw_k_reduce *r, u64 out, u64 j0,
			u64 nj, u32 *acc)
{
	u32 kidx[PWTPU_MAX_RANK], idx[PWTPU_MAX_RANK] = { 0 };
	u32 last = r->nred ? r->nred - 1 : 0;
	u32 one = 1;
	const u32 *shape = r->nred ? r->red_shape : &one;
	u64 zero = 0;
	const u64 *stride = r->nred ? r->red_stride : &zero;
	u64 off, run;
	int k;

	if (!j0)
		*acc = pwfw_reduce_identity(r);
	off = pwfw_unravel(r->keep_shape, r->keep_stride, r->nkeep, out, kidx);
	off += pwfw_unravel(shape, stride, last + 1, j0, idx);
	while (nj) {
		run = shape[last] - idx[last];
		if (run > nj)
			run = nj;
		*acc = pwfw_fold_run(r, *acc, off, stride[last], run);
		nj -= run;
		off += run * stride[last];
		idx[last] += run;
		for (k = last; k > 0 && idx[k] == shape[k]; k--) {
			off -= (u64)shape[k] * stride[k];
			idx[k] = 0;
			idx[k - 1]++;
			off += stride[k - 1];
		}
	}
}

void pwfw_k_reduce_store(const struct pwfw_k_reduce *r, u64 out, u32 acc)
{
	switch (r->dtype) {
	case PWTPU_DT_F32:
	case PWTPU_DT_I32:
		((u32 *)r->dst)[out] = acc;
		break;
	case PWTPU_DT_BF16:
		((u16 *)r->dst)[out] =
			pwfw_f32_to_bf16(pwfw_f32_from_bits(acc));
		break;
	default:
		((u8 *)r->dst)[out] = (u8)acc;
		break;
	}
}

void pwfw_k_reduce(const struct pwfw_k_reduce *r, u64 out0, u64 nout)
{
	u64 o;
	u32 acc;

	for (o = out0; o < out0 + nout; o++) {
		pwfw_k_reduce_part(r, o, 0, r->red_count, &acc);
		pwfw_k_reduce_store(r, o, acc);
	}
}
