// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_elementwise.c - the vector unit: elementwise arithmetic,
 * negate/abs, comparisons and reductions for every dtype. Runs only
 * inside an FPU section (see pwfw_kernels.h).
 *
 * bf16 and f16 are computed in f32 (widening is exact) and rounded back
 * to nearest even; f64 is computed in binary64. Integer arithmetic wraps:
 * it is done on 64-bit values (sign extended for the signed dtypes, zero
 * extended for the unsigned ones) whose low bits are stored. Semantics,
 * NaN and edge cases: docs/firmware-ops.md.
 */
#include "pwfw_fpu.h"

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

/* The same rules in binary64. */
static inline double pwfw_quiet_d(double a)
{
	return pwfw_f64_from_bits(pwfw_f64_bits(a) | 0x0008000000000000ULL);
}

static inline double pwfw_maxd(double a, double b)
{
	if (pwfw_f64_isnan(a))
		return pwfw_quiet_d(a);
	if (pwfw_f64_isnan(b))
		return pwfw_quiet_d(b);
	if (a == b)
		return pwfw_f64_from_bits(pwfw_f64_bits(a) & pwfw_f64_bits(b));
	return a > b ? a : b;
}

static inline double pwfw_mind(double a, double b)
{
	if (pwfw_f64_isnan(a))
		return pwfw_quiet_d(a);
	if (pwfw_f64_isnan(b))
		return pwfw_quiet_d(b);
	if (a == b)
		return pwfw_f64_from_bits(pwfw_f64_bits(a) | pwfw_f64_bits(b));
	return a < b ? a : b;
}

static inline double pwfw_f64_op(u32 op, double a, double b)
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
		return pwfw_maxd(a, b);
	default:
		return pwfw_mind(a, b);
	}
}

/*
 * Wrapping integer arithmetic on extended values (@sgn: signed dtype);
 * the caller keeps the low bits. x / 0 is all ones, signed MIN / -1 is
 * MIN (-MIN wraps to MIN in the dtype's width).
 */
static __always_inline u64 pwfw_int_op(u32 op, bool sgn, u64 a, u64 b)
{
	switch (op) {
	case PWTPU_OP_ADD:
		return a + b;
	case PWTPU_OP_SUB:
		return a - b;
	case PWTPU_OP_MUL:
		return a * b;
	case PWTPU_OP_DIV:
		if (!b)
			return ~0ULL;
		if (!sgn)
			return a / b;
		if (b == ~0ULL)
			return -a;
		return (u64)((s64)a / (s64)b);
	case PWTPU_OP_MAX:
		return (sgn ? (s64)a > (s64)b : a > b) ? a : b;
	default:
		return (sgn ? (s64)a < (s64)b : a < b) ? a : b;
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

static void pwfw_binary_f64(u32 op, double *d, const double *a,
			    const double *b, u32 n)
{
	u32 i;

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
			d[i] = pwfw_f64_op(op, a[i], b[i]);
		break;
	}
}

/* One integer dtype, a constant once inlined: its own loop. */
static __always_inline void pwfw_binary_int(u32 op, u32 dtype, void *d,
					    const void *a, const void *b,
					    u32 n)
{
	bool sgn = pwfw_int_signed(dtype);
	u32 i;

	for (i = 0; i < n; i++)
		pwfw_int_store(dtype, d, i,
			       pwfw_int_op(op, sgn, pwfw_int_load(dtype, a, i),
					   pwfw_int_load(dtype, b, i)));
}

void pwfw_k_binary(u32 op, u32 dtype, void *dst, const void *a,
		   const void *b, u32 n)
{
	const u16 *ah = a, *bh = b;
	float f;
	u32 i;

	switch (dtype) {
	case PWTPU_DT_F32:
		pwfw_binary_f32(op, dst, a, b, n);
		break;
	case PWTPU_DT_F64:
		pwfw_binary_f64(op, dst, a, b, n);
		break;
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++) {
			f = pwfw_f32_op(op, pwfw_bf16_to_f32(ah[i]),
					pwfw_bf16_to_f32(bh[i]));
			((u16 *)dst)[i] = pwfw_f32_to_bf16(f);
		}
		break;
	case PWTPU_DT_F16:
		for (i = 0; i < n; i++) {
			f = pwfw_f32_op(op, pwfw_f16_to_f32(ah[i]),
					pwfw_f16_to_f32(bh[i]));
			((u16 *)dst)[i] = pwfw_f32_to_f16(f);
		}
		break;
	case PWTPU_DT_I8:
		pwfw_binary_int(op, PWTPU_DT_I8, dst, a, b, n);
		break;
	case PWTPU_DT_I16:
		pwfw_binary_int(op, PWTPU_DT_I16, dst, a, b, n);
		break;
	case PWTPU_DT_I32:
		pwfw_binary_int(op, PWTPU_DT_I32, dst, a, b, n);
		break;
	case PWTPU_DT_I64:
		pwfw_binary_int(op, PWTPU_DT_I64, dst, a, b, n);
		break;
	case PWTPU_DT_U8:
		pwfw_binary_int(op, PWTPU_DT_U8, dst, a, b, n);
		break;
	case PWTPU_DT_U16:
		pwfw_binary_int(op, PWTPU_DT_U16, dst, a, b, n);
		break;
	case PWTPU_DT_U32:
		pwfw_binary_int(op, PWTPU_DT_U32, dst, a, b, n);
		break;
	case PWTPU_DT_U64:
		pwfw_binary_int(op, PWTPU_DT_U64, dst, a, b, n);
		break;
	}
}

/*
 * Negate and abs: floats flip or clear the sign bit, exact for every
 * value and NaN; integers wrap (the most negative signed value is its own
 * negation and abs; unsigned abs is the identity, negation 2^n - a).
 */
void pwfw_k_unary(u32 op, u32 dtype, void *dst, const void *a, u32 n)
{
	bool neg = op == PWTPU_OP_NEG, sgn = pwfw_int_signed(dtype);
	const u32 *af = a;
	const u16 *ah = a;
	const u64 *ad = a;
	u64 v;
	u32 i;

	switch (dtype) {
	case PWTPU_DT_F32:
		for (i = 0; i < n; i++)
			((u32 *)dst)[i] = neg ? af[i] ^ PWFW_F32_SIGN :
						af[i] & ~PWFW_F32_SIGN;
		break;
	case PWTPU_DT_BF16:
	case PWTPU_DT_F16:
		for (i = 0; i < n; i++)
			((u16 *)dst)[i] = neg ? ah[i] ^ 0x8000U :
						ah[i] & 0x7fffU;
		break;
	case PWTPU_DT_F64:
		for (i = 0; i < n; i++)
			((u64 *)dst)[i] = neg ? ad[i] ^ PWFW_F64_SIGN :
						ad[i] & ~PWFW_F64_SIGN;
		break;
	default:
		for (i = 0; i < n; i++) {
			v = pwfw_int_load(dtype, a, i);
			if (neg || (sgn && (s64)v < 0))
				v = -v;
			pwfw_int_store(dtype, dst, i, v);
		}
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

static inline bool pwfw_cmp_f64(u32 mode, double a, double b)
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

/* Integers extended to 64 bits compare in their dtype's order. */
static __always_inline bool pwfw_cmp_int(u32 mode, bool sgn, u64 a, u64 b)
{
	bool lt = sgn ? (s64)a < (s64)b : a < b;
	bool gt = sgn ? (s64)a > (s64)b : a > b;

	switch (mode) {
	case PWTPU_CMP_EQ:
		return a == b;
	case PWTPU_CMP_NE:
		return a != b;
	case PWTPU_CMP_LT:
		return lt;
	case PWTPU_CMP_LE:
		return !gt;
	case PWTPU_CMP_GT:
		return gt;
	default:
		return !lt;
	}
}

static __always_inline void pwfw_compare_int(u32 mode, u32 dtype, s8 *dst,
					     const void *a, const void *b,
					     u32 n)
{
	bool sgn = pwfw_int_signed(dtype);
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = pwfw_cmp_int(mode, sgn, pwfw_int_load(dtype, a, i),
				      pwfw_int_load(dtype, b, i));
}

void pwfw_k_compare(u32 mode, u32 dtype, s8 *dst, const void *a,
		    const void *b, u32 n)
{
	const float *af = a, *bf = b;
	const double *ad = a, *bd = b;
	const u16 *ah = a, *bh = b;
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
	case PWTPU_DT_F16:
		for (i = 0; i < n; i++)
			dst[i] = pwfw_cmp_f32(mode, pwfw_f16_to_f32(ah[i]),
					      pwfw_f16_to_f32(bh[i]));
		break;
	case PWTPU_DT_F64:
		for (i = 0; i < n; i++)
			dst[i] = pwfw_cmp_f64(mode, ad[i], bd[i]);
		break;
	case PWTPU_DT_I8:
		pwfw_compare_int(mode, PWTPU_DT_I8, dst, a, b, n);
		break;
	case PWTPU_DT_I16:
		pwfw_compare_int(mode, PWTPU_DT_I16, dst, a, b, n);
		break;
	case PWTPU_DT_I32:
		pwfw_compare_int(mode, PWTPU_DT_I32, dst, a, b, n);
		break;
	case PWTPU_DT_I64:
		pwfw_compare_int(mode, PWTPU_DT_I64, dst, a, b, n);
		break;
	case PWTPU_DT_U8:
		pwfw_compare_int(mode, PWTPU_DT_U8, dst, a, b, n);
		break;
	case PWTPU_DT_U16:
		pwfw_compare_int(mode, PWTPU_DT_U16, dst, a, b, n);
		break;
	case PWTPU_DT_U32:
		pwfw_compare_int(mode, PWTPU_DT_U32, dst, a, b, n);
		break;
	case PWTPU_DT_U64:
		pwfw_compare_int(mode, PWTPU_DT_U64, dst, a, b, n);
		break;
	}
}

/*
 * Reductions fold from the mode's identity (-0.0 for a float sum, which
 * leaves the first element unchanged; -inf/+inf, or the dtype's least
 * and greatest value, for max/min) in ascending index order. The opaque
 * accumulator holds the f32 bits for f32, bf16 and f16 (bf16 and f16 are
 * summed in f32, rounded once at the end), the f64 bits for f64, and a
 * wrapping 64-bit value for the integers (extended as the dtype is).
 */
static bool pwfw_is_f32_acc(u32 dtype)
{
	return dtype == PWTPU_DT_F32 || dtype == PWTPU_DT_BF16 ||
	       dtype == PWTPU_DT_F16;
}

static u64 pwfw_reduce_identity(const struct pwfw_k_reduce *r)
{
	u32 bits = pwtpu_dtype_size(r->dtype) * 8;
	/* The dtype's greatest value, extended to 64 bits. */
	u64 top = ~0ULL >> (64 - bits);

	if (pwfw_is_f32_acc(r->dtype)) {
		switch (r->mode) {
		case PWTPU_REDUCE_SUM:
			return PWFW_F32_SIGN;
		case PWTPU_REDUCE_MAX:
			return PWFW_F32_SIGN | PWFW_F32_INF;
		default:
			return PWFW_F32_INF;
		}
	}
	if (r->dtype == PWTPU_DT_F64) {
		switch (r->mode) {
		case PWTPU_REDUCE_SUM:
			return PWFW_F64_SIGN;
		case PWTPU_REDUCE_MAX:
			return PWFW_F64_SIGN | PWFW_F64_INF;
		default:
			return PWFW_F64_INF;
		}
	}
	if (pwfw_int_signed(r->dtype))
		top >>= 1;
	switch (r->mode) {
	case PWTPU_REDUCE_SUM:
		return 0;
	case PWTPU_REDUCE_MAX:
		/* The least: 0, or -top - 1 for a signed dtype. */
		return pwfw_int_signed(r->dtype) ? ~top : 0;
	default:
		return top;
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

static inline double pwfw_fold_f64(u32 mode, double acc, double x)
{
	switch (mode) {
	case PWTPU_REDUCE_SUM:
		return acc + x;
	case PWTPU_REDUCE_MAX:
		return pwfw_maxd(acc, x);
	default:
		return pwfw_mind(acc, x);
	}
}

static __always_inline u64 pwfw_fold_int(u32 mode, bool sgn, u64 acc, u64 x)
{
	switch (mode) {
	case PWTPU_REDUCE_SUM:
		return acc + x;
	case PWTPU_REDUCE_MAX:
		return pwfw_int_op(PWTPU_OP_MAX, sgn, acc, x);
	default:
		return pwfw_int_op(PWTPU_OP_MIN, sgn, acc, x);
	}
}

/* @n integer elements from element @off, @stride elements apart. */
static __always_inline u64 pwfw_fold_run_int(const struct pwfw_k_reduce *r,
					     u32 dtype, u64 acc, u64 off,
					     u64 stride, u64 n)
{
	bool sgn = pwfw_int_signed(dtype);
	u64 i;

	for (i = 0; i < n; i++)
		acc = pwfw_fold_int(r->mode, sgn, acc,
				    pwfw_int_load(dtype, r->src,
						  off + i * stride));
	return acc;
}

/* Fold @n source elements from element @off, @stride elements apart. */
static u64 pwfw_fold_run(const struct pwfw_k_reduce *r, u64 acc, u64 off,
			 u64 stride, u64 n)
{
	const float *sf = (const float *)r->src + off;
	const double *sd = (const double *)r->src + off;
	const u16 *sh = (const u16 *)r->src + off;
	float f = pwfw_f32_from_bits((u32)acc);
	double d = pwfw_f64_from_bits(acc);
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
	case PWTPU_DT_F16:
		for (i = 0; i < n; i++)
			f = pwfw_fold_f32(r->mode, f,
					  pwfw_f16_to_f32(sh[i * stride]));
		return pwfw_f32_bits(f);
	case PWTPU_DT_F64:
		for (i = 0; i < n; i++)
			d = pwfw_fold_f64(r->mode, d, sd[i * stride]);
		return pwfw_f64_bits(d);
	case PWTPU_DT_I8:
		return pwfw_fold_run_int(r, PWTPU_DT_I8, acc, off, stride, n);
	case PWTPU_DT_I16:
		return pwfw_fold_run_int(r, PWTPU_DT_I16, acc, off, stride, n);
	case PWTPU_DT_I32:
		return pwfw_fold_run_int(r, PWTPU_DT_I32, acc, off, stride, n);
	case PWTPU_DT_I64:
		return pwfw_fold_run_int(r, PWTPU_DT_I64, acc, off, stride, n);
	case PWTPU_DT_U8:
		return pwfw_fold_run_int(r, PWTPU_DT_U8, acc, off, stride, n);
	case PWTPU_DT_U16:
		return pwfw_fold_run_int(r, PWTPU_DT_U16, acc, off, stride, n);
	case PWTPU_DT_U32:
		return pwfw_fold_run_int(r, PWTPU_DT_U32, acc, off, stride, n);
	default:
		return pwfw_fold_run_int(r, PWTPU_DT_U64, acc, off, stride, n);
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
			u64 nj, u64 *acc)
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

void pwfw_k_reduce_store(const struct pwfw_k_reduce *r, u64 out, u64 acc)
{
	switch (r->dtype) {
	case PWTPU_DT_F32:
		((u32 *)r->dst)[out] = (u32)acc;
		break;
	case PWTPU_DT_BF16:
		((u16 *)r->dst)[out] =
			pwfw_f32_to_bf16(pwfw_f32_from_bits((u32)acc));
		break;
	case PWTPU_DT_F16:
		((u16 *)r->dst)[out] =
			pwfw_f32_to_f16(pwfw_f32_from_bits((u32)acc));
		break;
	case PWTPU_DT_F64:
		((u64 *)r->dst)[out] = acc;
		break;
	default:
		pwfw_int_store(r->dtype, r->dst, out, acc);
		break;
	}
}

void pwfw_k_reduce(const struct pwfw_k_reduce *r, u64 out0, u64 nout)
{
	u64 o, acc;

	for (o = out0; o < out0 + nout; o++) {
		pwfw_k_reduce_part(r, o, 0, r->red_count, &acc);
		pwfw_k_reduce_store(r, o, acc);
	}
}
