// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_math.c - exp, log, tanh and rsqrt for f32, and for bf16 and
 * f16 through f32 (rounded to nearest even from the f32 result). f64
 * (PWTPU_UAPI_VERSION 6) goes through the double-double exp, log and tanh
 * of pwfw_fpu_explog.c, rounded once, and rsqrt is 1 / sqrt(x) in
 * binary64, rounded twice. Runs only inside an FPU section.
 *
 * The kernel has no libm, so these are written here with + - * / and
 * sqrt only (no FMA, no library call): the kernel and the user-space
 * build give the same bits. Each f32 function works in double precision
 * (range reduction, then a short polynomial whose error is far below one
 * float ulp) and rounds once to f32, so results are the correctly rounded
 * value except when the exact value lies within about 1e-13 relative of a
 * rounding boundary: never more than 1 ulp off.
 */
#include "pwfw_fpu_func.h"

#define PWFW_LOG2E	1.4426950408889634
#define PWFW_LN2	0.6931471805599453
/* ln 2 split so that n * PWFW_LN2_HI is exact for |n| < 2^20. */
#define PWFW_LN2_HI	0.693147180369123816490
#define PWFW_LN2_LO	0.000000000190821492927058770002

static inline double pwfw_pow2(s32 n)
{
	u64 bits = (u64)(n + 1023) << 52;
	double d;

	__builtin_memcpy(&d, &bits, sizeof(d));
	return d;
}

/* e^r - 1 for |r| <= 0.35: Taylor series to r^12, error < 3e-16 rel. */
static double pwfw_expm1_small(double r)
{
	double p = 1.0 / 479001600.0;	/* 1/12! */

	p = p * r + 1.0 / 39916800.0;
	p = p * r + 1.0 / 3628800.0;
	p = p * r + 1.0 / 362880.0;
	p = p * r + 1.0 / 40320.0;
	p = p * r + 1.0 / 5040.0;
	p = p * r + 1.0 / 720.0;
	p = p * r + 1.0 / 120.0;
	p = p * r + 1.0 / 24.0;
	p = p * r + 1.0 / 6.0;
	p = p * r + 0.5;
	p = p * r + 1.0;
	return p * r;
}

/* e^x for |x| < 700: x = n ln 2 + r, |r| <= ln 2 / 2 (plus rounding). */
static double pwfw_exp_d(double x)
{
	double t = x * PWFW_LOG2E;
	s32 n = (s32)(t < 0 ? t - 0.5 : t + 0.5);
	double r = (x - n * PWFW_LN2_HI) - n * PWFW_LN2_LO;

	return (1.0 + pwfw_expm1_small(r)) * pwfw_pow2(n);
}

float pwfw_expf(float x)
{
	if (pwfw_f32_isnan(x))
		return x + x;
	/* e^89 overflows f32 and e^-104 is below half its least subnormal. */
	if (x > 89.0f)
		return pwfw_f32_from_bits(PWFW_F32_INF);
	if (x < -104.0f)
		return 0.0f;
	return (float)pwfw_exp_d(x);
}

float pwfw_logf(float x)
{
	u32 u = pwfw_f32_bits(x);
	double f, s, z, p, m;
	s32 e;

	if (pwfw_f32_isnan(x))
		return x + x;
	if (u & PWFW_F32_SIGN) {
		if (x == 0.0f)
			return pwfw_f32_from_bits(PWFW_F32_SIGN | PWFW_F32_INF);
		return pwfw_f32_from_bits(PWFW_F32_QNAN);
	}
	if (x == 0.0f)
		return pwfw_f32_from_bits(PWFW_F32_SIGN | PWFW_F32_INF);
	if (u == PWFW_F32_INF)
		return x;

	e = 0;
	if (u < 0x00800000U) {
		/* Subnormal: scale by 2^32 (exact) to normalise it. */
		u = pwfw_f32_bits(x * 4294967296.0f);
		e = -32;
	}
	/* x = 2^e * m, m in [sqrt(1/2), sqrt(2)). */
	e += (s32)(u >> 23) - 127;
	m = pwfw_f32_from_bits((u & 0x007fffffU) | 0x3f800000U);
	if (m > 1.4142135623730951) {
		m *= 0.5;
		e++;
	}
	/* ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172. */
	f = m - 1.0;
	s = f / (2.0 + f);
	z = s * s;
	p = 1.0 / 17;
	p = p * z + 1.0 / 15;
	p = p * z + 1.0 / 13;
	p = p * z + 1.0 / 11;
	p = p * z + 1.0 / 9;
	p = p * z + 1.0 / 7;
	p = p * z + 1.0 / 5;
	p = p * z + 1.0 / 3;
	return (float)(e * PWFW_LN2 + (2.0 * s + 2.0 * s * z * p));
}

float pwfw_tanhf(float x)
{
	u32 sign = pwfw_f32_bits(x) & PWFW_F32_SIGN;
	float ax = pwfw_f32_from_bits(pwfw_f32_bits(x) & ~PWFW_F32_SIGN);
	double y, t;

	if (pwfw_f32_isnan(x))
		return x + x;
	/* Past 9.01, tanh rounds to 1 in f32. */
	if (ax > 10.0f)
		return pwfw_f32_from_bits(sign | 0x3f800000U);
	/* tanh a = t / (t + 2), t = e^2a - 1: no cancellation near 0. */
	y = 2.0 * ax;
	t = y <= 0.35 ? pwfw_expm1_small(y) : pwfw_exp_d(y) - 1.0;
	return pwfw_f32_from_bits(sign | pwfw_f32_bits((float)(t / (t + 2.0))));
}

/* -0 gives -inf, negatives NaN, +inf +0: as 1 / sqrt in IEEE. */
float pwfw_rsqrtf(float x)
{
	return (float)(1.0 / __builtin_sqrt((double)x));
}

static inline float pwfw_math1(u32 op, float x)
{
	switch (op) {
	case PWTPU_OP_EXP:
		return pwfw_expf(x);
	case PWTPU_OP_LOG:
		return pwfw_logf(x);
	case PWTPU_OP_TANH:
		return pwfw_tanhf(x);
	default:
		return pwfw_rsqrtf(x);
	}
}

static double pwfw_math_f64(u32 op, double x)
{
	switch (op) {
	case PWTPU_OP_EXP:
		return pwfw_exp_f64(x);
	case PWTPU_OP_LOG:
		return pwfw_log_f64(x);
	case PWTPU_OP_TANH:
		return pwfw_tanh_f64(x);
	default:
		/* -0: -inf, x < 0: NaN, +inf: +0, as in IEEE. */
		return 1.0 / __builtin_sqrt(x);
	}
}

void pwfw_k_math(u32 op, u32 dtype, void *dst, const void *a, u32 n)
{
	const double *ad = a;
	const float *af = a;
	const u16 *ah = a;
	u32 i;

	switch (dtype) {
	case PWTPU_DT_F32:
		for (i = 0; i < n; i++)
			((float *)dst)[i] = pwfw_math1(op, af[i]);
		break;
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++)
			((u16 *)dst)[i] = pwfw_f32_to_bf16(pwfw_math1(op,
						pwfw_bf16_to_f32(ah[i])));
		break;
	case PWTPU_DT_F16:
		for (i = 0; i < n; i++)
			((u16 *)dst)[i] = pwfw_f32_to_f16(pwfw_math1(op,
						pwfw_f16_to_f32(ah[i])));
		break;
	case PWTPU_DT_F64:
		for (i = 0; i < n; i++)
			((double *)dst)[i] = pwfw_math_f64(op, ad[i]);
		break;
	}
}
