// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_explog.c - EXPM1, LOG1P, LOGISTIC and POW of floats, and f64
 * EXP, LOG and TANH. Runs only inside an FPU section.
 *
 * e^x = 2^k e^r with x = k ln 2 + r, |r| <= ln 2 / 2, and e^r - 1 from
 * its Taylor series (to r^15 in binary64, r^24 in double-double: the
 * terms left out are below 2^-60 and 2^-110 of the sum). ln u = k ln 2 +
 * ln m with u = 2^k m, m in [sqrt(1/2), sqrt(2)), and ln m = 2 atanh(s),
 * s = (m - 1) / (m + 1), |s| < 0.172, from atanh's series (to s^25 and
 * s^43). log1p forms 1 + x exactly (in double-double; in binary64 when x
 * is an f32 value away from 0, where the sum is exact) or, near 0, takes
 * s = x / (2 + x) directly. pow(x, y) = e^(y ln |x|) after C99's special
 * cases, the sign from y's parity. The f64 versions round a subnormal
 * result once, from the double-double (pwfw_ldexp_round()). f64 EXP is
 * e^x = m 2^k so rounded, LOG ln x from the same ln u, TANH t / (t + 2)
 * with t = e^2a - 1 (pwfw_fpu_math.c runs them over tensors).
 */
#include "pwfw_fpu_dd.h"
#include "pwfw_fpu_func.h"

#define PWFW_LOG2E_D	1.4426950408889634
#define PWFW_SQRT2_D	1.4142135623730951
/* ln 2 split so that n * PWFW_LN2_HI_D is exact for |n| < 2^20. */
#define PWFW_LN2_HI_D	0.693147180369123816490
#define PWFW_LN2_LO_D	0.000000000190821492927058770002

/* ln 2 to 107 bits. */
static const struct pwfw_dd_bits pwfw_ln2 = { 0x3fe62e42fefa39efULL,
					      0x3c7abc9e3b39803fULL };

/* 1 / (n + 1)!, n = 0..23: e^r - 1 = r (1 + r/2 + r^2/6 + ...). */
static const struct pwfw_dd_bits pwfw_em1_c[24] = {
	{ 0x3ff0000000000000ULL, 0x0000000000000000ULL },
	{ 0x3fe0000000000000ULL, 0x0000000000000000ULL },
	{ 0x3fc5555555555555ULL, 0x3c65555555555555ULL },
	{ 0x3fa5555555555555ULL, 0x3c45555555555555ULL },
	{ 0x3f81111111111111ULL, 0x3c01111111111111ULL },
	{ 0x3f56c16c16c16c17ULL, 0xbbef49f49f49f49fULL },
	{ 0x3f2a01a01a01a01aULL, 0x3b6a01a01a01a01aULL },
	{ 0x3efa01a01a01a01aULL, 0x3b3a01a01a01a01aULL },
	{ 0x3ec71de3a556c734ULL, 0xbb6c154f8ddc6c00ULL },
	{ 0x3e927e4fb7789f5cULL, 0x3b3cbbc05b4fa99aULL },
	{ 0x3e5ae64567f544e4ULL, 0xbafc062e06d1f209ULL },
	{ 0x3e21eed8eff8d898ULL, 0xbac2aec959e14c06ULL },
	{ 0x3de6124613a86d09ULL, 0x3a8f28e0cc748ebeULL },
	{ 0x3da93974a8c07c9dULL, 0x3a305d6f8a2efd1fULL },
	{ 0x3d6ae7f3e733b81fULL, 0x39e1d8656b0ee8cbULL },
	{ 0x3d2ae7f3e733b81fULL, 0x39a1d8656b0ee8cbULL },
	{ 0x3ce952c77030ad4aULL, 0x398ac981465ddc6cULL },
	{ 0x3ca6827863b97d97ULL, 0x394eec01221a8b0bULL },
	{ 0x3c62f49b46814157ULL, 0x38f2650f61dbdcb4ULL },
	{ 0x3c1e542ba4020225ULL, 0x387ea72b4afe3c2fULL },
	{ 0x3bd71b8ef6dcf572ULL, 0xb87d043ae40c4647ULL },
	{ 0x3b90ce396db7f853ULL, 0xb83aebcdbd20331cULL },
	{ 0x3b4761b41316381aULL, 0xb7d3423c7d91404fULL },
	{ 0x3aff2cf01972f578ULL, 0xb789ada5fcc1ab14ULL },
};

/* 1 / (2k + 1), k = 0..21: atanh s = s (1 + s^2/3 + s^4/5 + ...). */
static const struct pwfw_dd_bits pwfw_atanh_c[22] = {
	{ 0x3ff0000000000000ULL, 0x0000000000000000ULL },
	{ 0x3fd5555555555555ULL, 0x3c75555555555555ULL },
	{ 0x3fc999999999999aULL, 0xbc6999999999999aULL },
	{ 0x3fc2492492492492ULL, 0x3c62492492492492ULL },
	{ 0x3fbc71c71c71c71cULL, 0x3c5c71c71c71c71cULL },
	{ 0x3fb745d1745d1746ULL, 0xbc4745d1745d1746ULL },
	{ 0x3fb3b13b13b13b14ULL, 0xbc53b13b13b13b14ULL },
	{ 0x3fb1111111111111ULL, 0x3c31111111111111ULL },
	{ 0x3fae1e1e1e1e1e1eULL, 0x3c2e1e1e1e1e1e1eULL },
	{ 0x3faaf286bca1af28ULL, 0x3c4af286bca1af28ULL },
	{ 0x3fa8618618618618ULL, 0x3c48618618618618ULL },
	{ 0x3fa642c8590b2164ULL, 0x3c3642c8590b2164ULL },
	{ 0x3fa47ae147ae147bULL, 0xbc2eb851eb851eb8ULL },
	{ 0x3fa2f684bda12f68ULL, 0x3c42f684bda12f68ULL },
	{ 0x3fa1a7b9611a7b96ULL, 0x3c21a7b9611a7b96ULL },
	{ 0x3fa0842108421084ULL, 0x3c30842108421084ULL },
	{ 0x3f9f07c1f07c1f08ULL, 0xbc2f07c1f07c1f08ULL },
	{ 0x3f9d41d41d41d41dULL, 0x3c30750750750750ULL },
	{ 0x3f9bacf914c1bad0ULL, 0xbc3bacf914c1bad0ULL },
	{ 0x3f9a41a41a41a41aULL, 0x3c30690690690690ULL },
	{ 0x3f98f9c18f9c18faULL, 0xbc2f3831f3831f38ULL },
	{ 0x3f97d05f417d05f4ULL, 0x3c17d05f417d05f4ULL },
};

static double pwfw_inf(bool neg)
{
	return pwfw_f64_from_bits((neg ? PWFW_F64_SIGN : 0) | PWFW_F64_INF);
}

static double pwfw_default_nan(void)
{
	return pwfw_f64_from_bits(PWFW_F64_DEFAULT_NAN);
}

/* ---- binary64 versions, for f32, bf16 and f16 ---- */

/* e^r - 1 for |r| <= 0.36: error a few units of 2^-53 relative. */
static double pwfw_em1_d(double r)
{
	return r + r * (r * pwfw_poly_hi(r, pwfw_em1_c + 1, 14));
}

/* e^x = (1 + m) 2^k for |x| < 2^20 ln 2: returns m = e^r - 1, and k. */
static double pwfw_exp_split_d(double x, s32 *k)
{
	double t = x * PWFW_LOG2E_D, r;
	s32 n = (s32)(t < 0 ? t - 0.5 : t + 0.5);

	r = (x - n * PWFW_LN2_HI_D) - n * PWFW_LN2_LO_D;
	*k = n;
	return pwfw_em1_d(r);
}

/* e^x for |x| <= 700 (2^k stays a normal double for |k| <= 1010). */
static double pwfw_exp_d2(double x)
{
	s32 k;
	double m = pwfw_exp_split_d(x, &k);

	return (1.0 + m) * pwfw_dd_pow2(k);
}

/* 2 atanh(s) for |s| < 0.172: the series to s^25. */
static double pwfw_atanh2_d(double s)
{
	double z = s * s;

	return 2.0 * s + 2.0 * s * (z * pwfw_poly_hi(z, pwfw_atanh_c + 1, 12));
}

/* ln x for a positive, finite double x. */
static double pwfw_log_d2(double x)
{
	u64 u = pwfw_f64_bits(x);
	double m, f;
	s32 e = 0;

	if (u < 1ULL << 52) {
		u = pwfw_f64_bits(x * 18446744073709551616.0);
		e = -64;
	}
	e += (s32)(u >> 52) - 1023;
	m = pwfw_f64_from_bits((u & ((1ULL << 52) - 1)) | 1023ULL << 52);
	if (m > PWFW_SQRT2_D) {
		m *= 0.5;
		e++;
	}
	f = m - 1.0;
	return e * PWFW_LN2_HI_D +
	       (e * PWFW_LN2_LO_D + pwfw_atanh2_d(f / (2.0 + f)));
}

double pwfw_expm1_d(double x)
{
	double m;
	s32 k;

	/* NaN quieted; +-0 kept (the series would lose -0's sign). */
	if (pwfw_f64_isnan(x) || x == 0)
		return x + x;
	/* Past e^100 every f32 is overflowed; below e^-40, -1 is exact. */
	if (x > 100)
		return pwfw_inf(false);
	if (x < -40)
		return -1.0;
	if (x >= -0.35 && x <= 0.35)
		return pwfw_em1_d(x);
	m = pwfw_exp_split_d(x, &k);
	return (1.0 + m) * pwfw_dd_pow2(k) - 1.0;
}

double pwfw_log1p_d(double x)
{
	if (pwfw_f64_isnan(x))
		return x + x;
	if (x <= -1.0)
		return x == -1.0 ? pwfw_inf(true) : pwfw_default_nan();
	if (x == 0 || x == pwfw_inf(false))
		return x;
	/* 1 + x is exact for an f32 x away from 0 (at most 53 bits). */
	if (x >= -0.29 && x <= 0.41)
		return pwfw_atanh2_d(x / (2.0 + x));
	return pwfw_log_d2(1.0 + x);
}

double pwfw_logistic_d(double x)
{
	double e;

	if (pwfw_f64_isnan(x))
		return x + x;
	/* 1 - e^-40 is 1 in binary64; e^-120 is far below any f32. */
	if (x > 40)
		return 1.0;
	if (x < -120)
		return 0.0;
	if (x >= 0)
		return 1.0 / (1.0 + pwfw_exp_d2(-x));
	e = pwfw_exp_d2(x);
	return e / (1.0 + e);
}

/* Whether finite @y is an integer, and an odd one (*@odd). */
static bool pwfw_is_int(double y, bool *odd)
{
	u64 u = pwfw_f64_bits(y) & ~PWFW_F64_SIGN;
	s32 e = (s32)(u >> 52) - 1023;
	u64 unit;

	*odd = false;
	if (e < 0)
		return !u;
	if (e > 52)
		return true;
	unit = 1ULL << (52 - e);
	if (u & (unit - 1))
		return false;
	/* The units bit (for e = 0 the exponent field's last, which is 1). */
	*odd = (u & unit) != 0;
	return true;
}

/*
 * C99's special cases of pow(x, y): true and *@res when they decide;
 * else false and *@neg, whether the result is -|x|^y (x < 0, y odd).
 */
static bool pwfw_pow_special(double x, double y, double *res, bool *neg)
{
	bool xneg = pwfw_f64_bits(x) >> 63, yint, yodd = false, big;
	double ax = xneg ? -x : x;

	*neg = false;
	if (y == 0 || x == 1.0) {
		*res = 1.0;
		return true;
	}
	if (pwfw_f64_isnan(x) || pwfw_f64_isnan(y)) {
		*res = pwfw_f64_isnan(x) ? x + x : y + y;
		return true;
	}
	if (y == pwfw_inf(false) || y == pwfw_inf(true)) {
		/* |x| < 1 to -inf, or |x| > 1 to +inf, is +inf. */
		if (ax == 1.0)
			*res = 1.0;
		else
			*res = (ax < 1.0) == (y < 0) ? pwfw_inf(false) : 0.0;
		return true;
	}
	yint = pwfw_is_int(y, &yodd);
	big = ax == pwfw_inf(false);
	if (big || x == 0) {
		/* inf^y and 0^y: +0 or +inf, signed when x < 0 and y is odd. */
		*res = (y < 0) != big ? pwfw_inf(false) : 0.0;
		if (xneg && yodd)
			*res = -*res;
		return true;
	}
	if (xneg && !yint) {
		*res = pwfw_default_nan();
		return true;
	}
	*neg = xneg && yodd;
	return false;
}

/*
 * |x| = 2^k exactly and y an integer: 2^(ky), exact in binary64 (and
 * so rounded once to any dtype, an exact tie too), 0 below 2^-1074
 * (2^-1075 is a tie that goes to 0) and inf above 2^1023. True and *@res
 * when this applies.
 */
static bool pwfw_pow_two(double ax, double y, double *res)
{
	u64 u = pwfw_f64_bits(ax);
	double n;
	bool odd;
	s32 k;

	/* A subnormal power of two has one bit set, a normal one none. */
	if (u < 1ULL << 52 ? u & (u - 1) : u & ((1ULL << 52) - 1))
		return false;
	if (u < 1ULL << 52)
		k = -1074 + __builtin_ctzll(u);
	else
		k = (s32)(u >> 52) - 1023;
	if (!pwfw_is_int(y, &odd))
		return false;
	n = k * y;
	if (n > 1023)
		*res = pwfw_inf(false);
	else if (n < -1074)
		*res = 0.0;
	else if (n < -1022)
		*res = pwfw_f64_from_bits(1ULL << (s32)(n + 1074));
	else
		*res = pwfw_dd_pow2((s32)n);
	return true;
}

double pwfw_pow_d(double x, double y)
{
	double t, res;
	bool neg;

	if (pwfw_pow_special(x, y, &res, &neg))
		return res;
	if (pwfw_pow_two(x < 0 ? -x : x, y, &res))
		return neg ? -res : res;
	t = y * pwfw_log_d2(x < 0 ? -x : x);
	/* Far past the f32 range (e^104 and e^-104) both ways. */
	if (t > 200)
		res = pwfw_inf(false);
	else if (t < -200)
		res = 0.0;
	else
		res = pwfw_exp_d2(t);
	return neg ? -res : res;
}

/* ---- double-double versions, for f64 ---- */

/* e^r - 1 for |r| <= 0.36: the series to r^24. */
static struct pwfw_dd pwfw_em1_dd(struct pwfw_dd r)
{
	return pwfw_dd_mul(r, pwfw_dd_poly(r, pwfw_em1_c, 24));
}

/* x = k ln 2 + r, |r| <= ln 2 / 2 (and a little), for |x| < 2^20. */
static struct pwfw_dd pwfw_exp_reduce(struct pwfw_dd x, s32 *k)
{
	double t = x.hi * PWFW_LOG2E_D;
	s32 n = (s32)(t < 0 ? t - 0.5 : t + 0.5);

	*k = n;
	return pwfw_dd_sub(x, pwfw_dd_mul_d(pwfw_dd_c(&pwfw_ln2), n));
}

/* e^x = m 2^k, m = e^r in [0.7, 1.42]: returns m, and k. */
static struct pwfw_dd pwfw_exp_dd(struct pwfw_dd x, s32 *k)
{
	return pwfw_dd_add_d(pwfw_em1_dd(pwfw_exp_reduce(x, k)), 1.0);
}

/*
 * m 2^k rounded once to a double, for a positive m near 1 (0.5 < m < 2)
 * and any k from -1100 up: overflow gives inf. A subnormal result is
 * rounded from m itself: m.hi, m's value rounded to 53 bits, rounds to
 * the subnormal's coarser grid as m does unless it lies exactly halfway
 * between two grid points, where m.lo's sign decides.
 */
static double pwfw_ldexp_round(struct pwfw_dd m, s32 k)
{
	double s, n;

	if (k > 1000)
		return m.hi * pwfw_dd_pow2(k - 1000) * pwfw_dd_pow2(1000);
	if (k >= -1000)
		return m.hi * pwfw_dd_pow2(k);
	/* s: the value in units of the least subnormal, 2^-1074 (exact). */
	s = m.hi * pwfw_dd_pow2(k + 1074 - 500) * pwfw_dd_pow2(500);
	if (s >= 4503599627370496.0)
		return m.hi * pwfw_dd_pow2(k + 500) * pwfw_dd_pow2(-500);
	/* To the nearest integer, ties to even, by way of 2^52 (s < 2^52). */
	n = (s + 4503599627370496.0) - 4503599627370496.0;
	if (n - s == 0.5 && m.lo < 0)
		n -= 1.0;
	else if (s - n == 0.5 && m.lo > 0)
		n += 1.0;
	return n * pwfw_f64_from_bits(1);
}

/* ln u for a positive, finite double-double u. */
static struct pwfw_dd pwfw_log_dd(struct pwfw_dd u)
{
	u64 b = pwfw_f64_bits(u.hi);
	struct pwfw_dd m, f, s, p;
	s32 e = 0, k;

	if (b < 1ULL << 52) {
		u = pwfw_dd_scale(u, 64);
		b = pwfw_f64_bits(u.hi);
		e = -64;
	}
	/* u (scaled) = 2^k m; the value's exponent is e + k. */
	k = (s32)(b >> 52) - 1023;
	e += k;
	/* m = u 2^-k in [1, 2), in two exact steps (2^-k may not exist). */
	m = pwfw_dd_scale(pwfw_dd_scale(u, -(k / 2)), -(k - k / 2));
	if (m.hi > PWFW_SQRT2_D) {
		m = pwfw_dd_scale(m, -1);
		e++;
	}
	f = pwfw_dd_add_d(m, -1.0);
	s = pwfw_dd_div(f, pwfw_dd_add_d(f, 2.0));
	p = pwfw_dd_poly(pwfw_dd_mul(s, s), pwfw_atanh_c, 22);
	return pwfw_dd_add(pwfw_dd_mul_d(pwfw_dd_c(&pwfw_ln2), e),
			   pwfw_dd_scale(pwfw_dd_mul(s, p), 1));
}

/* For |x| below 2^-60, expm1 and log1p round to x itself. */
static bool pwfw_tiny(double x)
{
	return (pwfw_f64_bits(x) & ~PWFW_F64_SIGN) < 0x3c30000000000000ULL;
}

double pwfw_expm1_f64(double x)
{
	struct pwfw_dd m;
	s32 k;

	if (pwfw_f64_isnan(x))
		return x + x;
	/* Past ln(DBL_MAX) + a little: inf; below -40, -1 + e^x rounds to -1. */
	if (x > 709.8)
		return pwfw_inf(false);
	if (x < -40)
		return -1.0;
	if (pwfw_tiny(x))
		return x;
	m = pwfw_em1_dd(pwfw_exp_reduce(pwfw_dd_make(x, 0.0), &k));
	if (!k)
		return m.hi;
	m = pwfw_dd_add_d(m, 1.0);
	/* Far up, the - 1 is below the last bit. */
	if (k > 1000)
		return pwfw_ldexp_round(m, k);
	return pwfw_dd_add_d(pwfw_dd_scale(m, k), -1.0).hi;
}

double pwfw_exp_f64(double x)
{
	struct pwfw_dd m;
	s32 k;

	if (pwfw_f64_isnan(x))
		return x + x;
	/*
	 * Past ln(DBL_MAX) + a little: inf (+inf too); below ln(2^-1075)
	 * (-745.13): +0 (-inf too). Between, m 2^k rounded once, overflow,
	 * subnormals and e^(tiny) = 1 included.
	 */
	if (x > 709.8)
		return pwfw_inf(false);
	if (x < -745.2)
		return 0.0;
	m = pwfw_exp_dd(pwfw_dd_make(x, 0.0), &k);
	return pwfw_ldexp_round(m, k);
}

double pwfw_log_f64(double x)
{
	if (pwfw_f64_isnan(x))
		return x + x;
	if (x == 0)
		return pwfw_inf(true);
	if (x < 0)
		return pwfw_default_nan();
	if (x == pwfw_inf(false))
		return x;
	return pwfw_log_dd(pwfw_dd_make(x, 0.0)).hi;
}

/*
 * tanh a = t / (t + 2), t = e^2a - 1 (no cancellation near 0); past 22,
 * 1 - tanh a = 2 / (e^2a + 1) < 2^-63 and the result rounds to 1; below
 * 2^-27, tanh a = a (1 - a^2 / 3 + ...) rounds to a.
 */
double pwfw_tanh_f64(double x)
{
	u64 sign = pwfw_f64_bits(x) & PWFW_F64_SIGN;
	double a = pwfw_f64_from_bits(pwfw_f64_bits(x) & ~PWFW_F64_SIGN);
	struct pwfw_dd t;
	s32 k;

	if (pwfw_f64_isnan(x))
		return x + x;
	if (a > 22)
		return pwfw_f64_from_bits(sign | pwfw_f64_bits(1.0));
	if (a < pwfw_dd_pow2(-27))
		return x;
	t = pwfw_em1_dd(pwfw_exp_reduce(pwfw_dd_make(2.0 * a, 0.0), &k));
	if (k)
		t = pwfw_dd_add_d(pwfw_dd_scale(pwfw_dd_add_d(t, 1.0), k),
				  -1.0);
	t = pwfw_dd_div(t, pwfw_dd_add_d(t, 2.0));
	return pwfw_f64_from_bits(sign | pwfw_f64_bits(t.hi));
}

double pwfw_log1p_f64(double x)
{
	if (pwfw_f64_isnan(x))
		return x + x;
	if (x <= -1.0)
		return x == -1.0 ? pwfw_inf(true) : pwfw_default_nan();
	if (x == pwfw_inf(false) || pwfw_tiny(x))
		return x;
	return pwfw_log_dd(pwfw_dd_two_sum(1.0, x)).hi;
}

double pwfw_logistic_f64(double x)
{
	struct pwfw_dd m, e;
	s32 k;

	if (pwfw_f64_isnan(x))
		return x + x;
	/* 1 - e^-40 rounds to 1; e^-746 is below half the least subnormal. */
	if (x > 40)
		return 1.0;
	if (x < -746)
		return 0.0;
	if (x >= 0) {
		e = pwfw_exp_dd(pwfw_dd_make(-x, 0.0), &k);
		e = pwfw_dd_scale(e, k);
		return pwfw_dd_div(pwfw_dd_make(1.0, 0.0),
				   pwfw_dd_add_d(e, 1.0)).hi;
	}
	m = pwfw_exp_dd(pwfw_dd_make(x, 0.0), &k);
	if (k >= -60) {
		e = pwfw_dd_scale(m, k);
		return pwfw_dd_div(e, pwfw_dd_add_d(e, 1.0)).hi;
	}
	/* e / (1 + e) = e (1 - e) to 2^-120: m (1 - m 2^k), then 2^k. */
	if (k >= -1000)
		m = pwfw_dd_sub(m, pwfw_dd_scale(pwfw_dd_mul(m, m), k));
	return pwfw_ldexp_round(m, k);
}

double pwfw_pow_f64(double x, double y)
{
	struct pwfw_dd t, m;
	double res, est;
	bool neg;
	s32 k;

	if (pwfw_pow_special(x, y, &res, &neg))
		return res;
	if (pwfw_pow_two(x < 0 ? -x : x, y, &res))
		return neg ? -res : res;
	t = pwfw_log_dd(pwfw_dd_make(x < 0 ? -x : x, 0.0));
	/*
	 * Past e^710 or below e^-746, the result is inf or 0 whatever the
	 * rounding; this also keeps a huge y out of the exact product.
	 */
	est = y * t.hi;
	if (est > 710) {
		res = pwfw_inf(false);
	} else if (est < -746) {
		res = 0.0;
	} else {
		m = pwfw_exp_dd(pwfw_dd_mul_d(t, y), &k);
		res = pwfw_ldexp_round(m, k);
	}
	return neg ? -res : res;
}
