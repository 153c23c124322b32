// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_trig.c - SIN, COS, TAN and ATAN2. Runs only inside an FPU
 * section.
 *
 * sin, cos, tan: x = q pi/2 + r, |r| <= pi/4 (pwfw_rem_pio2(), exact for
 * any finite x; none needed below pi/4), then the Taylor series of sin r
 * and cos r, whose terms past the last kept one are below 2^-64 (binary64
 * version) or 2^-110 (double-double) of the sum, chosen and signed by q.
 * tan is their quotient, cos r / sin r negated in odd quadrants.
 *
 * atan2(y, x): the angle of (|x|, |y|) is atan(t) with t = min / max of
 * the two, or pi/2 - atan(t); pi minus that for x < 0; y's sign. atan(t),
 * t <= 1, halves its argument by t <- t / (1 + sqrt(1 + t^2)) (two or
 * three times: t <= 0.2 or 0.099) before its Taylor series. C99's
 * special cases (signed zeros, infinities) come first.
 */
#include "pwfw_fpu_dd.h"
#include "pwfw_fpu_func.h"

/* pi/4 rounded down: below it, no reduction. */
#define PWFW_PIO4_DOWN	0x3fe921fb54442d18ULL

/* pi / 4, pi / 2, 3 pi / 4, pi to 107 bits: the double, then the rest. */
static const struct pwfw_dd_bits pwfw_pio4 = { 0x3fe921fb54442d18ULL,
					       0x3c81a62633145c07ULL };
static const struct pwfw_dd_bits pwfw_pio2 = { 0x3ff921fb54442d18ULL,
					       0x3c91a62633145c07ULL };
static const struct pwfw_dd_bits pwfw_3pio4 = { 0x4002d97c7f3321d2ULL,
						0x3c9a79394c9e8a0aULL };
static const struct pwfw_dd_bits pwfw_pi = { 0x400921fb54442d18ULL,
					     0x3ca1a62633145c07ULL };

/* (-1)^k / (2k + 1)!, k = 0..14, and (-1)^k / (2k)!: sin and cos of r. */
static const struct pwfw_dd_bits pwfw_sin_c[15] = {
	{ 0x3ff0000000000000ULL, 0x0000000000000000ULL },
	{ 0xbfc5555555555555ULL, 0xbc65555555555555ULL },
	{ 0x3f81111111111111ULL, 0x3c01111111111111ULL },
	{ 0xbf2a01a01a01a01aULL, 0xbb6a01a01a01a01aULL },
	{ 0x3ec71de3a556c734ULL, 0xbb6c154f8ddc6c00ULL },
	{ 0xbe5ae64567f544e4ULL, 0x3afc062e06d1f209ULL },
	{ 0x3de6124613a86d09ULL, 0x3a8f28e0cc748ebeULL },
	{ 0xbd6ae7f3e733b81fULL, 0xb9e1d8656b0ee8cbULL },
	{ 0x3ce952c77030ad4aULL, 0x398ac981465ddc6cULL },
	{ 0xbc62f49b46814157ULL, 0xb8f2650f61dbdcb4ULL },
	{ 0x3bd71b8ef6dcf572ULL, 0xb87d043ae40c4647ULL },
	{ 0xbb4761b41316381aULL, 0x37d3423c7d91404fULL },
	{ 0x3ab3f3ccdd165fa9ULL, 0xb7458ddadf344487ULL },
	{ 0xba1d1ab1c2dccea3ULL, 0xb6a054d0c78aea14ULL },
	{ 0x398259f98b4358adULL, 0x362eaf8c39dd9bc5ULL },
};

static const struct pwfw_dd_bits pwfw_cos_c[15] = {
	{ 0x3ff0000000000000ULL, 0x0000000000000000ULL },
	{ 0xbfe0000000000000ULL, 0x0000000000000000ULL },
	{ 0x3fa5555555555555ULL, 0x3c45555555555555ULL },
	{ 0xbf56c16c16c16c17ULL, 0x3bef49f49f49f49fULL },
	{ 0x3efa01a01a01a01aULL, 0x3b3a01a01a01a01aULL },
	{ 0xbe927e4fb7789f5cULL, 0xbb3cbbc05b4fa99aULL },
	{ 0x3e21eed8eff8d898ULL, 0xbac2aec959e14c06ULL },
	{ 0xbda93974a8c07c9dULL, 0xba305d6f8a2efd1fULL },
	{ 0x3d2ae7f3e733b81fULL, 0x39a1d8656b0ee8cbULL },
	{ 0xbca6827863b97d97ULL, 0xb94eec01221a8b0bULL },
	{ 0x3c1e542ba4020225ULL, 0x387ea72b4afe3c2fULL },
	{ 0xbb90ce396db7f853ULL, 0x383aebcdbd20331cULL },
	{ 0x3aff2cf01972f578ULL, 0xb789ada5fcc1ab14ULL },
	{ 0xba688e85fc6a4e5aULL, 0x37071c37ebd16540ULL },
	{ 0x39d0a18a2635085dULL, 0x366b9e2e28e1aa54ULL },
};

/* (-1)^k / (2k + 1), k = 0..16: atan u = u (1 - u^2/3 + u^4/5 ...). */
static const struct pwfw_dd_bits pwfw_atan_c[17] = {
	{ 0x3ff0000000000000ULL, 0x0000000000000000ULL },
	{ 0xbfd5555555555555ULL, 0xbc75555555555555ULL },
	{ 0x3fc999999999999aULL, 0xbc6999999999999aULL },
	{ 0xbfc2492492492492ULL, 0xbc62492492492492ULL },
	{ 0x3fbc71c71c71c71cULL, 0x3c5c71c71c71c71cULL },
	{ 0xbfb745d1745d1746ULL, 0x3c4745d1745d1746ULL },
	{ 0x3fb3b13b13b13b14ULL, 0xbc53b13b13b13b14ULL },
	{ 0xbfb1111111111111ULL, 0xbc31111111111111ULL },
	{ 0x3fae1e1e1e1e1e1eULL, 0x3c2e1e1e1e1e1e1eULL },
	{ 0xbfaaf286bca1af28ULL, 0xbc4af286bca1af28ULL },
	{ 0x3fa8618618618618ULL, 0x3c48618618618618ULL },
	{ 0xbfa642c8590b2164ULL, 0xbc3642c8590b2164ULL },
	{ 0x3fa47ae147ae147bULL, 0xbc2eb851eb851eb8ULL },
	{ 0xbfa2f684bda12f68ULL, 0xbc42f684bda12f68ULL },
	{ 0x3fa1a7b9611a7b96ULL, 0x3c21a7b9611a7b96ULL },
	{ 0xbfa0842108421084ULL, 0xbc30842108421084ULL },
	{ 0x3f9f07c1f07c1f08ULL, 0xbc2f07c1f07c1f08ULL },
};

static bool pwfw_is_finite(double x)
{
	return (pwfw_f64_bits(x) & ~PWFW_F64_SIGN) < PWFW_F64_INF;
}

static double pwfw_abs_d(double x)
{
	return pwfw_f64_from_bits(pwfw_f64_bits(x) & ~PWFW_F64_SIGN);
}

/*
 * NaN: quieted; +-inf: the default NaN (x - x); +-0: sin and tan keep it
 * (the series would lose its sign), cos is 1. Else false.
 */
static bool pwfw_trig_special(u32 op, double x, double *res)
{
	if (x == 0) {
		*res = op == PWTPU_OP_COS ? 1.0 : x;
		return true;
	}
	if (pwfw_is_finite(x))
		return false;
	*res = pwfw_f64_isnan(x) ? x + x : x - x;
	return true;
}

/*
 * sin, cos or tan (@op) of q pi/2 + r from sin r and cos r: whether it
 * takes cos r where the function would take sin r, and its sign.
 */
static void pwfw_trig_pick(u32 op, u32 q, bool *neg, bool *use_cos)
{
	switch (op) {
	case PWTPU_OP_SIN:
		*use_cos = q & 1;
		*neg = q >= 2;
		break;
	case PWTPU_OP_COS:
		*use_cos = !(q & 1);
		*neg = q == 1 || q == 2;
		break;
	default:
		/* tan: sin / cos, or -cos / sin in odd quadrants. */
		*use_cos = q & 1;
		*neg = q & 1;
		break;
	}
}

double pwfw_trig_d(u32 op, double x)
{
	struct pwfw_dd rr;
	double r, z, s, c, res;
	bool neg, use_cos;
	u32 q = 0;

	if (pwfw_trig_special(op, x, &res))
		return res;
	r = x;
	if (pwfw_abs_d(x) > pwfw_d(PWFW_PIO4_DOWN)) {
		q = pwfw_rem_pio2(x, &rr);
		r = rr.hi;
	}
	z = r * r;
	s = r + r * (z * pwfw_poly_hi(z, pwfw_sin_c + 1, 9));
	c = 1.0 + z * pwfw_poly_hi(z, pwfw_cos_c + 1, 9);
	pwfw_trig_pick(op, q, &neg, &use_cos);
	if (op == PWTPU_OP_TAN)
		res = use_cos ? c / s : s / c;
	else
		res = use_cos ? c : s;
	return neg ? -res : res;
}

double pwfw_trig_f64(u32 op, double x)
{
	struct pwfw_dd r = { x, 0.0 }, z, s, c, res;
	bool neg, use_cos;
	u32 q = 0;
	double sp;

	if (pwfw_trig_special(op, x, &sp))
		return sp;
	if (pwfw_abs_d(x) > pwfw_d(PWFW_PIO4_DOWN))
		q = pwfw_rem_pio2(x, &r);
	z = pwfw_dd_mul(r, r);
	pwfw_trig_pick(op, q, &neg, &use_cos);
	if (op == PWTPU_OP_TAN) {
		s = pwfw_dd_mul(r, pwfw_dd_poly(z, pwfw_sin_c, 15));
		c = pwfw_dd_poly(z, pwfw_cos_c, 15);
		res = use_cos ? pwfw_dd_div(c, s) : pwfw_dd_div(s, c);
	} else if (use_cos) {
		res = pwfw_dd_poly(z, pwfw_cos_c, 15);
	} else {
		res = pwfw_dd_mul(r, pwfw_dd_poly(z, pwfw_sin_c, 15));
	}
	return neg ? -res.hi : res.hi;
}

/* atan t for 0 <= t <= 1 in binary64: two halvings, 13 terms. */
static double pwfw_atan_d(double t)
{
	double z;
	u32 i;

	for (i = 0; i < 2; i++)
		t = t / (1.0 + __builtin_sqrt(1.0 + t * t));
	z = t * t;
	return 4.0 * (t + t * (z * pwfw_poly_hi(z, pwfw_atan_c + 1, 12)));
}

/* The same in double-double: three halvings, 17 terms. */
static struct pwfw_dd pwfw_atan_dd(struct pwfw_dd t)
{
	struct pwfw_dd z, one = { 1.0, 0.0 };
	u32 i;

	for (i = 0; i < 3; i++) {
		z = pwfw_dd_add_d(pwfw_dd_mul(t, t), 1.0);
		t = pwfw_dd_div(t, pwfw_dd_add(one, pwfw_dd_sqrt(z)));
	}
	z = pwfw_dd_mul(t, t);
	return pwfw_dd_scale(pwfw_dd_mul(t, pwfw_dd_poly(z, pwfw_atan_c, 17)),
			     3);
}

/*
 * C99's special cases of atan2(y, x): NaN (the first NaN operand,
 * quieted), infinities and zeros; true and *@res when one applies. The
 * angles are pi/4, pi/2, 3pi/4 and pi rounded to nearest.
 */
static bool pwfw_atan2_special(double y, double x, double *res)
{
	bool ysign = pwfw_f64_bits(y) >> 63, xsign = pwfw_f64_bits(x) >> 63;
	double a;

	if (pwfw_f64_isnan(y) || pwfw_f64_isnan(x)) {
		*res = pwfw_f64_isnan(y) ? y + y : x + x;
		return true;
	}
	if (!pwfw_is_finite(y))
		a = !pwfw_is_finite(x) ? (xsign ? pwfw_d(pwfw_3pio4.hi) :
					  pwfw_d(pwfw_pio4.hi)) : pwfw_d(pwfw_pio2.hi);
	else if (!pwfw_is_finite(x) || y == 0)
		a = xsign ? pwfw_d(pwfw_pi.hi) : 0.0;
	else if (x == 0)
		a = pwfw_d(pwfw_pio2.hi);
	else
		return false;
	*res = ysign ? -a : a;
	return true;
}

double pwfw_atan2_d(double y, double x)
{
	double a = pwfw_abs_d(y), b = pwfw_abs_d(x), th;

	if (pwfw_atan2_special(y, x, &th))
		return th;
	if (a <= b)
		th = pwfw_atan_d(a / b);
	else
		th = pwfw_d(pwfw_pio2.hi) - pwfw_atan_d(b / a);
	if (x < 0)
		th = pwfw_d(pwfw_pi.hi) - th;
	return y < 0 ? -th : th;
}

/* The unbiased exponent of finite, non-zero @x, subnormals normalised. */
static s32 pwfw_exponent(double x)
{
	u64 u = pwfw_f64_bits(x) & ~PWFW_F64_SIGN;

	if (u >= 1ULL << 52)
		return (s32)(u >> 52) - 1023;
	return -1011 - __builtin_clzll(u);
}

double pwfw_atan2_f64(double y, double x)
{
	double a = pwfw_abs_d(y), b = pwfw_abs_d(x), num, den, s1, s2;
	bool swap = a > b;
	struct pwfw_dd t, th;
	s32 en, ed;

	if (pwfw_atan2_special(y, x, &num))
		return num;
	num = swap ? b : a;
	den = swap ? a : b;
	en = pwfw_exponent(num);
	ed = pwfw_exponent(den);
	if (en - ed < -60) {
		/*
		 * t < 2^-59: atan t = t to 2^-118, and the quotient rounded
		 * once is atan t rounded once (it is never that close to a
		 * rounding boundary).
		 */
		if (!swap && x > 0)
			return y < 0 ? -(num / den) : num / den;
		t = pwfw_dd_make(num / den, 0.0);
		th = t;
	} else {
		/*
		 * Both scaled by 2^-ed in two exact steps (2^-ed alone may be
		 * out of range): den in [1, 2), num in [2^-61, 2).
		 */
		s1 = pwfw_dd_pow2(-ed / 2);
		s2 = pwfw_dd_pow2(-ed - -ed / 2);
		num = num * s1 * s2;
		den = den * s1 * s2;
		t = pwfw_dd_div(pwfw_dd_make(num, 0.0), pwfw_dd_make(den, 0.0));
		th = pwfw_atan_dd(t);
	}
	if (swap)
		th = pwfw_dd_sub(pwfw_dd_c(&pwfw_pio2), th);
	if (x < 0)
		th = pwfw_dd_sub(pwfw_dd_c(&pwfw_pi), th);
	return y < 0 ? -th.hi : th.hi;
}
