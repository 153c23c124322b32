/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_fpu_dd.h - double-double arithmetic for the f64 math functions
 * (pwfw_fpu_trig.c, pwfw_fpu_explog.c, pwfw_fpu_root.c): a value is the
 * unevaluated sum hi + lo of two doubles with |lo| <= ulp(hi) / 2, about
 * 106 bits. Built from error-free transformations (Knuth's two-sum,
 * Dekker's splitting and product) with + - * / and sqrt only: no FMA
 * (the build has -ffp-contract=off), so the kernel and user space get the
 * same bits. Include it only from FPU files.
 *
 * Each operation's error is a few units of 2^-104 relative. Products split
 * their operands, which overflows above about 2^996: callers keep their
 * values far below that.
 */
#ifndef PWFW_FPU_DD_H
#define PWFW_FPU_DD_H

#include "pwfw_fpu.h"

struct pwfw_dd {
	double hi;
	double lo;
};

static inline struct pwfw_dd pwfw_dd_make(double hi, double lo)
{
	struct pwfw_dd r = { hi, lo };

	return r;
}

/*
 * A constant, as the bits of its two doubles (the kernel's style checks
 * take hex float literals apart).
 */
struct pwfw_dd_bits {
	u64 hi;
	u64 lo;
};

static inline struct pwfw_dd pwfw_dd_c(const struct pwfw_dd_bits *c)
{
	return pwfw_dd_make(pwfw_f64_from_bits(c->hi),
			    pwfw_f64_from_bits(c->lo));
}

/* The double of @bits. */
static inline double pwfw_d(u64 bits)
{
	return pwfw_f64_from_bits(bits);
}

/* a + b exactly, as a rounded sum and its error. */
static inline struct pwfw_dd pwfw_dd_two_sum(double a, double b)
{
	double s = a + b, bb = s - a;

	return pwfw_dd_make(s, (a - (s - bb)) + (b - bb));
}

/* The same when |a| >= |b| (or a is 0). */
static inline struct pwfw_dd pwfw_dd_fast_sum(double a, double b)
{
	double s = a + b;

	return pwfw_dd_make(s, b - (s - a));
}

/* Dekker's split: a = hi + lo, each of at most 26 significant bits. */
static inline void pwfw_dd_split(double a, double *hi, double *lo)
{
	double c = 134217729.0 * a;	/* 2^27 + 1 */

	*hi = c - (c - a);
	*lo = a - *hi;
}

/* a * b exactly (barring underflow), as a rounded product and its error. */
static inline struct pwfw_dd pwfw_dd_two_prod(double a, double b)
{
	double p = a * b, ah, al, bh, bl;

	pwfw_dd_split(a, &ah, &al);
	pwfw_dd_split(b, &bh, &bl);
	return pwfw_dd_make(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}

static inline struct pwfw_dd pwfw_dd_add(struct pwfw_dd x, struct pwfw_dd y)
{
	struct pwfw_dd s = pwfw_dd_two_sum(x.hi, y.hi);
	struct pwfw_dd t = pwfw_dd_two_sum(x.lo, y.lo);

	s = pwfw_dd_fast_sum(s.hi, s.lo + t.hi);
	return pwfw_dd_fast_sum(s.hi, s.lo + t.lo);
}

static inline struct pwfw_dd pwfw_dd_add_d(struct pwfw_dd x, double b)
{
	struct pwfw_dd s = pwfw_dd_two_sum(x.hi, b);

	return pwfw_dd_fast_sum(s.hi, s.lo + x.lo);
}

static inline struct pwfw_dd pwfw_dd_neg(struct pwfw_dd x)
{
	return pwfw_dd_make(-x.hi, -x.lo);
}

static inline struct pwfw_dd pwfw_dd_sub(struct pwfw_dd x, struct pwfw_dd y)
{
	return pwfw_dd_add(x, pwfw_dd_neg(y));
}

static inline struct pwfw_dd pwfw_dd_mul(struct pwfw_dd x, struct pwfw_dd y)
{
	struct pwfw_dd p = pwfw_dd_two_prod(x.hi, y.hi);

	return pwfw_dd_fast_sum(p.hi, p.lo + (x.hi * y.lo + x.lo * y.hi));
}

static inline struct pwfw_dd pwfw_dd_mul_d(struct pwfw_dd x, double b)
{
	struct pwfw_dd p = pwfw_dd_two_prod(x.hi, b);

	return pwfw_dd_fast_sum(p.hi, p.lo + x.lo * b);
}

/* x / y: a quotient, corrected twice by the remainder. */
static inline struct pwfw_dd pwfw_dd_div(struct pwfw_dd x, struct pwfw_dd y)
{
	double q1 = x.hi / y.hi, q2, q3;
	struct pwfw_dd r = pwfw_dd_sub(x, pwfw_dd_mul_d(y, q1));

	q2 = r.hi / y.hi;
	r = pwfw_dd_sub(r, pwfw_dd_mul_d(y, q2));
	q3 = r.hi / y.hi;
	r = pwfw_dd_fast_sum(q1, q2);
	return pwfw_dd_add_d(r, q3);
}

/* sqrt(x) for x > 0: the double root, corrected once (Newton). */
static inline struct pwfw_dd pwfw_dd_sqrt(struct pwfw_dd x)
{
	double s = __builtin_sqrt(x.hi);
	struct pwfw_dd r = pwfw_dd_sub(x, pwfw_dd_two_prod(s, s));

	return pwfw_dd_fast_sum(s, r.hi / (2.0 * s));
}

/* 2^n as a double, -1022 <= n <= 1023. */
static inline double pwfw_dd_pow2(s32 n)
{
	return pwfw_f64_from_bits((u64)(n + 1023) << 52);
}

/* x * 2^n, exact while the result stays normal. */
static inline struct pwfw_dd pwfw_dd_scale(struct pwfw_dd x, s32 n)
{
	double p = pwfw_dd_pow2(n);

	return pwfw_dd_make(x.hi * p, x.lo * p);
}

/* Horner's rule over @n coefficients c[n-1] x^(n-1) + ... + c[0]. */
static inline struct pwfw_dd pwfw_dd_poly(struct pwfw_dd x,
					  const struct pwfw_dd_bits *c, u32 n)
{
	struct pwfw_dd p = pwfw_dd_c(&c[n - 1]);

	while (--n)
		p = pwfw_dd_add(pwfw_dd_mul(p, x), pwfw_dd_c(&c[n - 1]));
	return p;
}

/* The same in binary64, over the leading doubles of @c. */
static inline double pwfw_poly_hi(double x, const struct pwfw_dd_bits *c,
				  u32 n)
{
	double p = pwfw_d(c[n - 1].hi);

	while (--n)
		p = p * x + pwfw_d(c[n - 1].hi);
	return p;
}

/*
 * Argument reduction (pwfw_fpu_rpio2.c): for finite @x with |x| >= pi/4,
 * x = q pi/2 + *@r, |*@r| <= pi/4 (to within rounding); returns q mod 4.
 */
u32 pwfw_rem_pio2(double x, struct pwfw_dd *r);

#endif /* PWFW_FPU_DD_H */
