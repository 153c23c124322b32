// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_convert.c - CONVERT between any two dtypes. Runs only inside
 * an FPU section.
 *
 * Every element goes through one of three pivots, by its source dtype,
 * each holding the source value exactly: an f32 (f32, bf16 and f16 widen
 * exactly), a double (f64), or a 64-bit integer (sign extended from a
 * signed dtype, zero extended from an unsigned one). From there:
 *  - to a float dtype, the exact value is rounded once to nearest even:
 *    f32 to bf16 and f16, and f64 to bf16 and f16, by the integer
 *    rounding of pwfw_fpu.h (never through an intermediate format); f64
 *    to f32 by the CPU's conversion (SSE2, correctly rounded); integers
 *    by pwfw_fp_round() from their sign and magnitude, exact for every
 *    i64 and u64; f32 to f64 exactly. A NaN stays a NaN, quiet, with its
 *    sign and top payload bits, except that bf16 and f16 widen to f32
 *    bit for bit (a signalling NaN stays one) and f32 and f64 copy to
 *    themselves.
 *  - to an integer dtype, a float truncates toward zero and saturates to
 *    the dtype's range, NaN gives 0 (in double, where every source value
 *    is exact); an integer keeps its low bits.
 */
#include "pwfw_fpu.h"

/* 2^@n as a double, 0 <= n <= 64. */
static inline double pwfw_pow2d(u32 n)
{
	return pwfw_f64_from_bits((u64)(1023 + n) << 52);
}

/*
 * Truncate toward zero and saturate to integer @dtype's range; NaN gives
 * 0. The result extended to 64 bits, whose low bits the caller stores.
 */
static u64 pwfw_f64_to_int(double d, u32 dtype)
{
	u32 bits = pwtpu_dtype_size(dtype) * 8;
	double lim;

	if (pwfw_f64_isnan(d))
		return 0;
	if (pwfw_int_signed(dtype)) {
		/* Every double in (-2^(bits-1), 2^(bits-1)) truncates in range. */
		lim = pwfw_pow2d(bits - 1);
		if (d >= lim)
			return ~0ULL >> (65 - bits);
		if (d <= -lim)
			return ~(~0ULL >> (65 - bits));
		return (u64)(s64)d;
	}
	if (d >= pwfw_pow2d(bits))
		return ~0ULL >> (64 - bits);
	/* Negative values saturate to 0; (-1, 1) truncates to it. */
	if (d < 1.0)
		return 0;
	/* [2^63, 2^64): d - 2^63 is exact. */
	lim = pwfw_pow2d(63);
	if (d >= lim)
		return (u64)(s64)(d - lim) + (1ULL << 63);
	return (u64)(s64)d;
}

/* From the f32 pivot. */
static void pwfw_store_from_f32(u32 dtype, void *dst, u32 i, float f)
{
	switch (dtype) {
	case PWTPU_DT_F32:
		((float *)dst)[i] = f;
		break;
	case PWTPU_DT_BF16:
		((u16 *)dst)[i] = pwfw_f32_to_bf16(f);
		break;
	case PWTPU_DT_F16:
		((u16 *)dst)[i] = pwfw_f32_to_f16(f);
		break;
	case PWTPU_DT_F64:
		((double *)dst)[i] = (double)f;
		break;
	default:
		pwfw_int_store(dtype, dst, i, pwfw_f64_to_int((double)f, dtype));
		break;
	}
}

/* From the double pivot. */
static void pwfw_store_from_f64(u32 dtype, void *dst, u32 i, double d)
{
	switch (dtype) {
	case PWTPU_DT_F64:
		((double *)dst)[i] = d;
		break;
	case PWTPU_DT_F32:
		((float *)dst)[i] = (float)d;
		break;
	case PWTPU_DT_BF16:
		((u16 *)dst)[i] = pwfw_f64_to_bf16(d);
		break;
	case PWTPU_DT_F16:
		((u16 *)dst)[i] = pwfw_f64_to_f16(d);
		break;
	default:
		pwfw_int_store(dtype, dst, i, pwfw_f64_to_int(d, dtype));
		break;
	}
}

/* From the integer pivot @v (@sgn: sign extended from a signed dtype). */
static void pwfw_store_from_int(u32 dtype, void *dst, u32 i, u64 v, bool sgn)
{
	u32 neg = sgn && (s64)v < 0;
	u64 mag = neg ? -v : v;

	switch (dtype) {
	case PWTPU_DT_F32:
		((u32 *)dst)[i] = (u32)pwfw_fp_round(neg, 0, mag, 8, 23);
		break;
	case PWTPU_DT_F64:
		((u64 *)dst)[i] = pwfw_fp_round(neg, 0, mag, 11, 52);
		break;
	case PWTPU_DT_BF16:
		((u16 *)dst)[i] = (u16)pwfw_fp_round(neg, 0, mag, 8, 7);
		break;
	case PWTPU_DT_F16:
		((u16 *)dst)[i] = (u16)pwfw_fp_round(neg, 0, mag, 5, 10);
		break;
	default:
		pwfw_int_store(dtype, dst, i, v);
		break;
	}
}

void pwfw_k_convert(u32 dst_dtype, void *dst, u32 src_dtype,
		    const void *src, u32 n)
{
	const float *sf = src;
	const double *sd = src;
	const u16 *sh = src;
	bool sgn = pwfw_int_signed(src_dtype);
	u32 i;

	switch (src_dtype) {
	case PWTPU_DT_F32:
		for (i = 0; i < n; i++)
			pwfw_store_from_f32(dst_dtype, dst, i, sf[i]);
		break;
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++)
			pwfw_store_from_f32(dst_dtype, dst, i,
					    pwfw_bf16_to_f32(sh[i]));
		break;
	case PWTPU_DT_F16:
		for (i = 0; i < n; i++)
			pwfw_store_from_f32(dst_dtype, dst, i,
					    pwfw_f16_to_f32(sh[i]));
		break;
	case PWTPU_DT_F64:
		for (i = 0; i < n; i++)
			pwfw_store_from_f64(dst_dtype, dst, i, sd[i]);
		break;
	default:
		for (i = 0; i < n; i++)
			pwfw_store_from_int(dst_dtype, dst, i,
					    pwfw_int_load(src_dtype, src, i),
					    sgn);
		break;
	}
}
