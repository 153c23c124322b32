// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_root.c - CBRT. Runs only inside an FPU section. (SQRT is the
 * CPU's square root: pwfw_fpu_func.c.)
 *
 * |x| = m 2^(3k) with m in [1, 8) exactly, so cbrt |x| = cbrt(m) 2^k and
 * no step can overflow or underflow (a subnormal x is normalised first).
 * Newton's iteration y <- (2y + m / y^2) / 3 from a straight line through
 * (1, 1) and (8, 2) doubles the correct bits each time: six steps reach
 * binary64's precision. The f64 version then corrects y once by
 * (m - y^3) / (3 y^2) with m - y^3 computed in double-double, so that
 * the one rounding of y + correction is of a value good to about 2^-100.
 */
#include "pwfw_fpu_dd.h"
#include "pwfw_fpu_func.h"

/*
 * |x| (finite, not 0) as m 2^(3k) with m in [1, 8): returns m, *k. A
 * subnormal is scaled by 2^60 first (exactly).
 */
static double pwfw_cbrt_split(double x, s32 *k)
{
	u64 u = pwfw_f64_bits(x) & ~PWFW_F64_SIGN;
	s32 e, q, adj = 0;

	if (u < 1ULL << 52) {
		u = pwfw_f64_bits(pwfw_f64_from_bits(u) * 1152921504606846976.0);
		adj = 60;
	}
	e = (s32)(u >> 52) - 1023 - adj;
	/* q = floor(e / 3), for negative e too. */
	q = e >= 0 ? e / 3 : -((2 - e) / 3);
	*k = q;
	/* m = 2^(e - 3q) times the significand, in [1, 8). */
	return pwfw_f64_from_bits((u & ((1ULL << 52) - 1)) |
				  (u64)(1023 + e - 3 * q) << 52);
}

/* cbrt(m) for m in [1, 8), to within a unit or two of 2^-53. */
static double pwfw_cbrt_newton(double m)
{
	double y = 1.0 + (m - 1.0) * (1.0 / 7.0);
	u32 i;

	for (i = 0; i < 6; i++)
		y = (2.0 * y + m / (y * y)) * (1.0 / 3.0);
	return y;
}

/* +-0, +-inf and NaN are their own roots (NaN quieted). */
static bool pwfw_cbrt_special(double x)
{
	return x == 0 || (pwfw_f64_bits(x) & ~PWFW_F64_SIGN) >= PWFW_F64_INF;
}

double pwfw_cbrt_d(double x)
{
	double y;
	s32 k;

	if (pwfw_cbrt_special(x))
		return x + x;
	y = pwfw_cbrt_newton(pwfw_cbrt_split(x, &k)) * pwfw_dd_pow2(k);
	return x < 0 ? -y : y;
}

double pwfw_cbrt_f64(double x)
{
	struct pwfw_dd r;
	double m, y;
	s32 k;

	if (pwfw_cbrt_special(x))
		return x + x;
	m = pwfw_cbrt_split(x, &k);
	y = pwfw_cbrt_newton(m);
	/* r = m - y^3, exact to about 2^-106 of m. */
	r = pwfw_dd_mul_d(pwfw_dd_two_prod(y, y), y);
	r = pwfw_dd_add_d(pwfw_dd_neg(r), m);
	y = (y + r.hi / (3.0 * y * y)) * pwfw_dd_pow2(k);
	return x < 0 ? -y : y;
}
