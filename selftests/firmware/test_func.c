// SPDX-License-Identifier: GPL-2.0
/*
 * test_func.c - SQRT, CBRT, SIN, COS, TAN, LOG1P, EXPM1, LOGISTIC, ATAN2
 * and POW on f32, bf16, f16 and f64, and f64 EXP, LOG, TANH and RSQRT
 * (test_math.c has their other dtypes), through pwfw_verify + pwfw_exec,
 * against glibc's long double functions (64-bit significands) rounded to
 * the dtype. Bounds asserted: SQRT exact; the others within 1 ulp of the
 * rounded reference (the firmware aims at correct rounding: f32, bf16
 * and f16 from a binary64 result, f64 from double-double), with at most
 * a handful not correctly rounded. Inputs: a sweep of f32 bit patterns
 * over the whole range, every bf16 and f16, random f64 of every
 * exponent, subnormals, huge arguments of sin/cos/tan, and C99 Annex F's
 * special values exactly.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

#define SWEEP_STRIDE	4099U	/* f32 bit patterns: ~1M over all 2^32 */

static const enum pwtpu_op unary_ops[] = {
	PWTPU_OP_SQRT, PWTPU_OP_CBRT, PWTPU_OP_SIN, PWTPU_OP_COS, PWTPU_OP_TAN,
	PWTPU_OP_LOG1P, PWTPU_OP_EXPM1, PWTPU_OP_LOGISTIC,
};
static const char *const unary_names[] = {
	"sqrt", "cbrt", "sin", "cos", "tan", "log1p", "expm1", "logistic",
};
#define NUNARY (sizeof(unary_ops) / sizeof(unary_ops[0]))

static long double ref_func(enum pwtpu_op op, long double x, long double y)
{
	switch (op) {
	case PWTPU_OP_SQRT:
		return sqrtl(x);
	case PWTPU_OP_CBRT:
		return cbrtl(x);
	case PWTPU_OP_SIN:
		return sinl(x);
	case PWTPU_OP_COS:
		return cosl(x);
	case PWTPU_OP_TAN:
		return tanl(x);
	case PWTPU_OP_LOG1P:
		return log1pl(x);
	case PWTPU_OP_EXPM1:
		return expm1l(x);
	case PWTPU_OP_LOGISTIC:
		return 1.0L / (1.0L + expl(-x));
	case PWTPU_OP_ATAN2:
		return atan2l(x, y);
	default:
		return powl(x, y);
	}
}

/**
 * struct tally - how one op did
 * @bad: results off by more than the bound, or special values wrong.
 * @inexact: results not the rounded reference.
 * @worst: largest distance, in ulps of the dtype.
 */
struct tally {
	uint32_t bad;
	uint32_t inexact;
	double worst;
};

/*
 * Distance of @got from the reference @want (exact, long double) in ulps
 * of @want's binade in a format of @mbits fraction bits and least
 * exponent @emin; -1 when either is not finite and they differ, or a
 * zero's sign is wrong.
 */
static double ulps(long double got, long double want, int mbits, int emin)
{
	long double u;
	int e;

	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got) ? 0 : -1;
	if (isinf(want) || isinf(got))
		return got == want ? 0 : -1;
	if (want == 0 || got == 0)
		if (got == want && signbit(got) != signbit(want))
			return -1;
	e = want == 0 ? emin : ilogbl(want);
	if (e < emin)
		e = emin;
	u = ldexpl(1.0L, e - mbits);
	return (double)(fabsl(got - want) / u);
}

/*
 * Check one result against the reference: equal to @want_r (the
 * reference rounded to the dtype), or within @tol ulps of @want and
 * finite like it. Counted as inexact when it is not @want_r, unless the
 * long double reference lies too near a rounding boundary of the dtype
 * (within 2^-9 ulp of one) for @want_r to be sure.
 */
static bool judge(struct tally *t, long double got, long double want,
		  long double want_r, int mbits, int emin, double tol)
{
	double d, r;

	if ((got == want_r && signbit(got) == signbit(want_r)) ||
	    (isnan(got) && isnan(want_r)))
		return false;
	d = ulps(got, want, mbits, emin);
	if (d < 0 || d > tol || isinf(want_r) || isinf(got)) {
		t->bad++;
		return true;
	}
	if (d > t->worst)
		t->worst = d;
	r = ulps(want_r, want, mbits, emin);
	if (r >= 0 && r < 0.5 - 0x1p-9)
		t->inexact++;
	return false;
}

/* Bound: SQRT is exact (0.5 ulp of the exact value), the others 1 ulp. */
static double bound(enum pwtpu_op op)
{
	return op == PWTPU_OP_SQRT ? 0.5 + 0x1p-9 : 1.0;
}

static void report(struct __test_metadata *_metadata, const char *what,
		   const char *name, const struct tally *t, uint32_t n,
		   enum pwtpu_op op)
{
	TH_LOG("%s %s: worst %.3f ulp, %u not correctly rounded, of %u",
	       what, name, t->worst, t->inexact, n);
	EXPECT_EQ(0U, t->bad) TH_LOG("%s %s: %u out of bounds", what, name,
				     t->bad);
	if (op == PWTPU_OP_SQRT)
		EXPECT_EQ(0U, t->inexact);
	/* Documented: correctly rounded but for rare near-ties. */
	EXPECT_GE(n / 100000 + 2, t->inexact);
}

/* One program: every unary op of tensor a, into one result each. */
static void build_unary(struct ops *o, enum pwtpu_dtype dt, uint32_t n,
			int *ta, int *td)
{
	uint32_t k;

	*ta = ops_tensor(o, dt, 1, n);
	for (k = 0; k < NUNARY; k++) {
		td[k] = ops_tensor(o, dt, 1, n);
		if (pwprog_unary(o->p, unary_ops[k], td[k], *ta) < 0)
			td[k] = -1;
	}
}

TEST(f32_sweep)
{
	uint32_t n = (uint32_t)(0x100000000ULL / SWEEP_STRIDE), i, k;
	int ta, td[NUNARY];
	struct ops o;
	float *a;

	ASSERT_EQ(0, ops_init(&o, (NUNARY + 1) * 4 * (size_t)n + 1024));
	build_unary(&o, PWTPU_DT_F32, n, &ta, td);
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++)
		a[i] = f32_from_bits(i * SWEEP_STRIDE);
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < NUNARY; k++) {
		const float *d = ops_ptr(&o, td[k]);
		struct tally t = { 0 };

		for (i = 0; i < n; i++) {
			long double w = ref_func(unary_ops[k], a[i], 0);
			if (judge(&t, d[i], w, (float)w, 23, -126,
				  bound(unary_ops[k])) && t.bad <= 5)
				TH_LOG("%s(%a) = %a, want %La",
				       unary_names[k], a[i], d[i], w);
		}
		report(_metadata, "f32", unary_names[k], &t, n, unary_ops[k]);
	}
	ops_fini(&o);
}

/* Every bf16 or f16 input of every unary op, rounded once to the dtype. */
static void all_16(struct __test_metadata *_metadata, enum pwtpu_dtype dt,
		   int e, int m)
{
	int bias = (1 << (e - 1)) - 1, ta, td[NUNARY];
	uint32_t n = 65536, i, k;
	struct ops o;
	uint16_t *a;

	ASSERT_EQ(0, ops_init(&o, (NUNARY + 1) * 2 * (size_t)n + 1024));
	build_unary(&o, dt, n, &ta, td);
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++)
		a[i] = (uint16_t)i;
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < NUNARY; k++) {
		const uint16_t *d = ops_ptr(&o, td[k]);
		struct tally t = { 0 };

		for (i = 0; i < n; i++) {
			long double x = fmt_value(a[i], e, m);
			long double w = ref_func(unary_ops[k], x, 0);
			long double wr = fmt_value(fmt_round(w, e, m), e, m);

			if (judge(&t, fmt_value(d[i], e, m), w, wr, m,
				  1 - bias, bound(unary_ops[k])) && t.bad <= 5)
				TH_LOG("%s(%04x) = %04x, want %La",
				       unary_names[k], a[i], d[i], w);
		}
		report(_metadata, pwtpu_dtype_name(dt), unary_names[k], &t, n,
		       unary_ops[k]);
	}
	ops_fini(&o);
}

TEST(bf16_all_inputs)
{
	all_16(_metadata, PWTPU_DT_BF16, 8, 7);
}

TEST(f16_all_inputs)
{
	all_16(_metadata, PWTPU_DT_F16, 5, 10);
}

static uint64_t rand64(uint32_t *s)
{
	uint64_t hi = ops_rand(s);

	return hi << 32 | ops_rand(s);
}

/* A random double in [-1, 1) times 2^[lo, hi). */
static double rand_scaled(uint32_t *s, int lo, int hi)
{
	double f = (double)(int64_t)rand64(s) * 0x1p-63;

	return ldexp(f, lo + (int)(ops_rand(s) % (uint32_t)(hi - lo)));
}

/* An f64 input where op @k is interesting. */
static double f64_input(enum pwtpu_op op, uint32_t *s, uint32_t i)
{
	double x;

	/* Some inputs of any bit pattern at all. */
	if (i % 8 == 0)
		return f64_from_bits(rand64(s));
	switch (op) {
	case PWTPU_OP_SIN:
	case PWTPU_OP_COS:
	case PWTPU_OP_TAN:
		return i % 2 ? rand_scaled(s, -30, 8) : rand_scaled(s, 0, 1024);
	case PWTPU_OP_LOG1P:
		x = rand_scaled(s, -60, 60);
		return x < -1 ? -x : x;
	case PWTPU_OP_EXPM1:
	case PWTPU_OP_LOGISTIC:
		return i % 2 ? rand_scaled(s, -60, 1) : rand_scaled(s, 0, 10);
	default:
		return rand_scaled(s, -1074, 1024);
	}
}

TEST(f64_random)
{
	uint32_t n = 100000, i, k, seed = 0x2f6b5a13u;
	struct ops o;

	for (k = 0; k < NUNARY; k++) {
		struct tally t = { 0 };
		double *a, *d;
		int ta, td;

		ASSERT_EQ(0, ops_init(&o, 2 * 8 * (size_t)n + 1024));
		ta = ops_tensor(&o, PWTPU_DT_F64, 1, n);
		td = ops_tensor(&o, PWTPU_DT_F64, 1, n);
		ASSERT_LE(0, pwprog_unary(o.p, unary_ops[k], td, ta));
		a = ops_ptr(&o, ta);
		for (i = 0; i < n; i++)
			a[i] = f64_input(unary_ops[k], &seed, i);
		ASSERT_EQ(0, ops_run(&o));
		d = ops_ptr(&o, td);
		for (i = 0; i < n; i++) {
			long double w = ref_func(unary_ops[k], a[i], 0);

			if (judge(&t, d[i], w, (double)w, 52, -1022,
				  bound(unary_ops[k])) && t.bad <= 5)
				TH_LOG("%s(%a) = %a, want %La",
				       unary_names[k], a[i], d[i], w);
		}
		report(_metadata, "f64", unary_names[k], &t, n, unary_ops[k]);
		ops_fini(&o);
	}
}

/*
 * f64 EXP, LOG and TANH (PWTPU_UAPI_VERSION 6), in double-double and
 * rounded once, against glibc's expl, logl and tanhl: within 1 ulp, and
 * correctly rounded but for rare near-ties, as the functions above. RSQRT
 * is 1 / sqrt(x) in binary64, bit for bit.
 */
static const enum pwtpu_op math64_ops[] = {
	PWTPU_OP_EXP, PWTPU_OP_LOG, PWTPU_OP_TANH,
};
static const char *const math64_names[] = { "exp", "log", "tanh" };

static long double ref_math64(enum pwtpu_op op, long double x)
{
	switch (op) {
	case PWTPU_OP_EXP:
		return expl(x);
	case PWTPU_OP_LOG:
		return logl(x);
	default:
		return tanhl(x);
	}
}

/* Edges: overflow, the subnormal range and its end, ties to 1. */
static const double math64_edges[] = {
	709.782712893384, 709.7827128933841, 709.78, 709.79, 710.0,
	-708.3964185322641, -708.4, -720.5, -744.44007192138122,
	-745.13321910194110, -745.1332191019412, -745.2, -740.0,
	0x1p-53, -0x1p-54, 0x1p-60, -0x1.8p-53, 0x1p-1074, 0x1p-1022,
	0x1.fffffffffffffp+1023, 1.0, 0x1.0000000000001p+0,
	0x1.fffffffffffffp-1, 0.5, 2.0, 19.0, 19.1, 21.9, 22.1,
	0x1p-27, 0x1.0000000000001p-27, 0x1.fffffffffffffp-28, 0.34, 0.35,
	0.3465735902799727, -0.3465735902799726, 1e-300, 1e300,
};
#define NMATH64_EDGES (sizeof(math64_edges) / sizeof(math64_edges[0]))

/* An f64 input where op @op is interesting. */
static double math64_input(enum pwtpu_op op, uint32_t *s, uint32_t i)
{
	double x;

	if (i < NMATH64_EDGES)
		return i % 2 && op != PWTPU_OP_LOG ? -math64_edges[i] :
		       math64_edges[i];
	if (i % 8 == 0)
		return f64_from_bits(rand64(s));
	switch (op) {
	case PWTPU_OP_EXP:
		if (i % 2)
			return rand_scaled(s, -60, 10);
		return (double)(rand64(s) >> 11) * 0x1p-53 * 1455.0 - 745.2;
	case PWTPU_OP_LOG:
		x = i % 2 ? 1.0 + rand_scaled(s, -60, 0) :
			    f64_from_bits(rand64(s) & ~(1ULL << 63));
		return x;
	default:
		return rand_scaled(s, -60, 5);
	}
}

TEST(f64_exp_log_tanh_random)
{
	uint32_t n = 100000, i, k, seed = 0x5bd1e995u;
	struct ops o;

	for (k = 0; k < 3; k++) {
		struct tally t = { 0 };
		double *a, *d;
		int ta, td;

		ASSERT_EQ(0, ops_init(&o, 2 * 8 * (size_t)n + 1024));
		ta = ops_tensor(&o, PWTPU_DT_F64, 1, n);
		td = ops_tensor(&o, PWTPU_DT_F64, 1, n);
		ASSERT_LE(0, pwprog_unary(o.p, math64_ops[k], td, ta));
		a = ops_ptr(&o, ta);
		for (i = 0; i < n; i++)
			a[i] = math64_input(math64_ops[k], &seed, i);
		ASSERT_EQ(0, ops_run(&o));
		d = ops_ptr(&o, td);
		for (i = 0; i < n; i++) {
			long double w = ref_math64(math64_ops[k], a[i]);

			if (judge(&t, d[i], w, (double)w, 52, -1022, 1.0) &&
			    t.bad <= 5)
				TH_LOG("%s(%a) = %a, want %La",
				       math64_names[k], a[i], d[i], w);
		}
		report(_metadata, "f64", math64_names[k], &t, n,
		       math64_ops[k]);
		ops_fini(&o);
	}
}

/* f64 RSQRT is binary64's 1 / sqrt(x), both rounded: bit for bit. */
TEST(f64_rsqrt_random)
{
	uint32_t n = 100000, i, seed = 0x85ebca6bu, bad = 0;
	struct ops o;
	double *a, *d;
	int ta, td;

	ASSERT_EQ(0, ops_init(&o, 2 * 8 * (size_t)n + 1024));
	ta = ops_tensor(&o, PWTPU_DT_F64, 1, n);
	td = ops_tensor(&o, PWTPU_DT_F64, 1, n);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_RSQRT, td, ta));
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++)
		a[i] = i < NMATH64_EDGES ? math64_edges[i] :
		       i % 4 ? fabs(rand_scaled(&seed, -1074, 1024)) :
			       f64_from_bits(rand64(&seed));
	ASSERT_EQ(0, ops_run(&o));
	d = ops_ptr(&o, td);
	for (i = 0; i < n; i++) {
		volatile double r = sqrt(a[i]);

		r = 1.0 / r;
		if (!f64_same(d[i], r) && bad++ < 5)
			TH_LOG("rsqrt(%a) = %a, want %a", a[i], d[i], r);
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

static const enum pwtpu_op binary_ops[] = { PWTPU_OP_ATAN2, PWTPU_OP_POW };
static const char *const binary_names[] = { "atan2", "pow" };

/* Pairs for ATAN2 (any) and POW (x > 0 mostly, x < 0 with integers). */
static void pair(enum pwtpu_op op, uint32_t *s, uint32_t i, int emax,
		 double *x, double *y)
{
	if (op == PWTPU_OP_ATAN2) {
		*x = rand_scaled(s, -emax, emax);
		*y = rand_scaled(s, -emax, emax);
		return;
	}
	*x = fabs(rand_scaled(s, -20, 20));
	*y = rand_scaled(s, -4, 8);
	if (i % 4 == 1) {
		*x = -*x;
		*y = rint(*y);
	} else if (i % 4 == 2) {
		*x = 1.0 + rand_scaled(s, -40, -10);
		*y = rand_scaled(s, 10, 40);
	}
}

/* ATAN2 and POW of @dt (f32 or f64) over random pairs. */
static void binary_random(struct __test_metadata *_metadata,
			  enum pwtpu_dtype dt)
{
	uint32_t n = 100000, i, k, seed = 0x6c8e9cf5u + dt;
	int f32 = dt == PWTPU_DT_F32, ta, tb, td;
	size_t esz = f32 ? 4 : 8;
	struct ops o;

	for (k = 0; k < 2; k++) {
		struct tally t = { 0 };
		void *a, *b, *d;

		ASSERT_EQ(0, ops_init(&o, 3 * esz * n + 1024));
		ta = ops_tensor(&o, dt, 1, n);
		tb = ops_tensor(&o, dt, 1, n);
		td = ops_tensor(&o, dt, 1, n);
		ASSERT_LE(0, pwprog_binary(o.p, binary_ops[k], td, ta, tb));
		a = ops_ptr(&o, ta);
		b = ops_ptr(&o, tb);
		for (i = 0; i < n; i++) {
			double x, y;

			pair(binary_ops[k], &seed, i, f32 ? 60 : 500, &x, &y);
			if (f32) {
				((float *)a)[i] = (float)x;
				((float *)b)[i] = (float)y;
			} else {
				((double *)a)[i] = x;
				((double *)b)[i] = y;
			}
		}
		ASSERT_EQ(0, ops_run(&o));
		d = ops_ptr(&o, td);
		for (i = 0; i < n; i++) {
			long double x, y, w, got;

			x = f32 ? ((float *)a)[i] : ((double *)a)[i];
			y = f32 ? ((float *)b)[i] : ((double *)b)[i];
			got = f32 ? ((float *)d)[i] : ((double *)d)[i];
			w = ref_func(binary_ops[k], x, y);
			if (judge(&t, got, w, f32 ? (float)w : (double)w,
				  f32 ? 23 : 52, f32 ? -126 : -1022, 1.0) &&
			    t.bad <= 5)
				TH_LOG("%s(%La, %La) = %La, want %La",
				       binary_names[k], x, y, got, w);
		}
		report(_metadata, pwtpu_dtype_name(dt), binary_names[k], &t, n,
		       binary_ops[k]);
		ops_fini(&o);
	}
}

TEST(f32_binary_random)
{
	binary_random(_metadata, PWTPU_DT_F32);
}

TEST(f64_binary_random)
{
	binary_random(_metadata, PWTPU_DT_F64);
}

/* bf16 and f16 ATAN2 and POW over random pairs of patterns. */
TEST(half_binary_random)
{
	static const struct { enum pwtpu_dtype dt; int e, m; } fmts[] = {
		{ PWTPU_DT_BF16, 8, 7 }, { PWTPU_DT_F16, 5, 10 },
	};
	uint32_t n = 50000, i, k, f, seed = 0x1b873593u;
	struct ops o;

	for (f = 0; f < 2; f++) {
		int e = fmts[f].e, m = fmts[f].m, bias = (1 << (e - 1)) - 1;

		for (k = 0; k < 2; k++) {
			struct tally t = { 0 };
			uint16_t *a, *b, *d;
			int ta, tb, td;

			ASSERT_EQ(0, ops_init(&o, 3 * 2 * (size_t)n + 1024));
			ta = ops_tensor(&o, fmts[f].dt, 1, n);
			tb = ops_tensor(&o, fmts[f].dt, 1, n);
			td = ops_tensor(&o, fmts[f].dt, 1, n);
			ASSERT_LE(0, pwprog_binary(o.p, binary_ops[k], td, ta,
						   tb));
			a = ops_ptr(&o, ta);
			b = ops_ptr(&o, tb);
			for (i = 0; i < n; i++) {
				a[i] = (uint16_t)ops_rand(&seed);
				b[i] = (uint16_t)ops_rand(&seed);
				/* POW: small exponents, where results live. */
				if (k && i % 2)
					b[i] = (uint16_t)fmt_round(
						(long double)((int)(ops_rand(&seed)
							% 17) - 8) / 2, e, m);
			}
			ASSERT_EQ(0, ops_run(&o));
			d = ops_ptr(&o, td);
			for (i = 0; i < n; i++) {
				long double w = ref_func(binary_ops[k],
							 fmt_value(a[i], e, m),
							 fmt_value(b[i], e, m));
				long double wr = fmt_value(fmt_round(w, e, m),
							   e, m);

				if (judge(&t, fmt_value(d[i], e, m), w, wr, m,
					  1 - bias, 1.0) && t.bad <= 5)
					TH_LOG("%s(%04x, %04x) = %04x, want %La",
					       binary_names[k], a[i], b[i],
					       d[i], w);
			}
			report(_metadata, pwtpu_dtype_name(fmts[f].dt),
			       binary_names[k], &t, n, binary_ops[k]);
			ops_fini(&o);
		}
	}
}

/*
 * Huge arguments of sin, cos and tan: reduced exactly whatever the
 * exponent, including the double closest to a multiple of pi/2
 * (6381956970095103 * 2^797, about 2^-61 away from one).
 */
TEST(trig_huge_arguments)
{
	static const double xs[] = {
		0x1.6ac5b262ca1ffp+849, 0x1.fffffffffffffp+1023,
		-0x1.fffffffffffffp+1023, 0x1p1023, 0x1.921fb54442d18p+0,
		0x1.921fb54442d18p+1, 1e22, 1e300, -1e200, 0x1p60,
		0x1.5dd7bbf0cb6e9p+53, 0x1.0000000000001p+0, 3.4028234663852886e38,
		1.0e10, -12345678.9,
	};
	uint32_t n = sizeof(xs) / sizeof(xs[0]), i, k;
	struct tally t = { 0 };
	struct ops o;

	for (k = PWTPU_OP_SIN; k <= PWTPU_OP_TAN; k++) {
		double *a, *d;
		int ta, td;

		ASSERT_EQ(0, ops_init(&o, 2 * 8 * n + 256));
		ta = ops_tensor(&o, PWTPU_DT_F64, 1, n);
		td = ops_tensor(&o, PWTPU_DT_F64, 1, n);
		ASSERT_LE(0, pwprog_unary(o.p, k, td, ta));
		a = ops_ptr(&o, ta);
		memcpy(a, xs, sizeof(xs));
		ASSERT_EQ(0, ops_run(&o));
		d = ops_ptr(&o, td);
		for (i = 0; i < n; i++) {
			long double w = ref_func(k, xs[i], 0);

			if (judge(&t, d[i], w, (double)w, 52, -1022, 1.0))
				TH_LOG("op %u (%a) = %a, want %La", k, xs[i],
				       d[i], w);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, t.bad);
	EXPECT_EQ(0U, t.inexact);
}

/* C99 Annex F's special values, exactly, in f32 and f64. */
struct special {
	enum pwtpu_op op;
	double x, y, want;
};

static const struct special specials[] = {
	{ PWTPU_OP_SQRT, -0.0, 0, -0.0 },
	{ PWTPU_OP_SQRT, -1.0, 0, NAN },
	{ PWTPU_OP_SQRT, -INFINITY, 0, NAN },
	{ PWTPU_OP_SQRT, INFINITY, 0, INFINITY },
	{ PWTPU_OP_SQRT, 4.0, 0, 2.0 },
	{ PWTPU_OP_CBRT, -0.0, 0, -0.0 },
	{ PWTPU_OP_CBRT, -INFINITY, 0, -INFINITY },
	{ PWTPU_OP_CBRT, -8.0, 0, -2.0 },
	{ PWTPU_OP_CBRT, 27.0, 0, 3.0 },
	{ PWTPU_OP_CBRT, NAN, 0, NAN },
	{ PWTPU_OP_SIN, -0.0, 0, -0.0 },
	{ PWTPU_OP_SIN, INFINITY, 0, NAN },
	{ PWTPU_OP_SIN, -INFINITY, 0, NAN },
	{ PWTPU_OP_COS, -0.0, 0, 1.0 },
	{ PWTPU_OP_COS, INFINITY, 0, NAN },
	{ PWTPU_OP_TAN, -0.0, 0, -0.0 },
	{ PWTPU_OP_TAN, 0.0, 0, 0.0 },
	{ PWTPU_OP_TAN, -INFINITY, 0, NAN },
	{ PWTPU_OP_LOG1P, -0.0, 0, -0.0 },
	{ PWTPU_OP_LOG1P, -1.0, 0, -INFINITY },
	{ PWTPU_OP_LOG1P, -2.0, 0, NAN },
	{ PWTPU_OP_LOG1P, -INFINITY, 0, NAN },
	{ PWTPU_OP_LOG1P, INFINITY, 0, INFINITY },
	{ PWTPU_OP_EXPM1, -0.0, 0, -0.0 },
	{ PWTPU_OP_EXPM1, -INFINITY, 0, -1.0 },
	{ PWTPU_OP_EXPM1, INFINITY, 0, INFINITY },
	{ PWTPU_OP_EXPM1, 1000.0, 0, INFINITY },
	{ PWTPU_OP_EXPM1, -1000.0, 0, -1.0 },
	{ PWTPU_OP_LOGISTIC, 0.0, 0, 0.5 },
	{ PWTPU_OP_LOGISTIC, -0.0, 0, 0.5 },
	{ PWTPU_OP_LOGISTIC, INFINITY, 0, 1.0 },
	{ PWTPU_OP_LOGISTIC, -INFINITY, 0, 0.0 },
	{ PWTPU_OP_LOGISTIC, -1000.0, 0, 0.0 },
	{ PWTPU_OP_LOGISTIC, NAN, 0, NAN },
	{ PWTPU_OP_ATAN2, 0.0, -0.0, M_PI },
	{ PWTPU_OP_ATAN2, -0.0, -0.0, -M_PI },
	{ PWTPU_OP_ATAN2, 0.0, 0.0, 0.0 },
	{ PWTPU_OP_ATAN2, -0.0, 0.0, -0.0 },
	{ PWTPU_OP_ATAN2, -0.0, -1.0, -M_PI },
	{ PWTPU_OP_ATAN2, 0.0, 1.0, 0.0 },
	{ PWTPU_OP_ATAN2, -1.0, 0.0, -M_PI_2 },
	{ PWTPU_OP_ATAN2, 1.0, -0.0, M_PI_2 },
	{ PWTPU_OP_ATAN2, 1.0, -INFINITY, M_PI },
	{ PWTPU_OP_ATAN2, -1.0, -INFINITY, -M_PI },
	{ PWTPU_OP_ATAN2, -1.0, INFINITY, -0.0 },
	{ PWTPU_OP_ATAN2, INFINITY, 1.0, M_PI_2 },
	{ PWTPU_OP_ATAN2, -INFINITY, -INFINITY, -3 * M_PI_4 },
	{ PWTPU_OP_ATAN2, INFINITY, INFINITY, M_PI_4 },
	{ PWTPU_OP_ATAN2, NAN, 1.0, NAN },
	{ PWTPU_OP_ATAN2, 1.0, NAN, NAN },
	{ PWTPU_OP_POW, NAN, 0.0, 1.0 },
	{ PWTPU_OP_POW, NAN, -0.0, 1.0 },
	{ PWTPU_OP_POW, 1.0, NAN, 1.0 },
	{ PWTPU_OP_POW, -1.0, INFINITY, 1.0 },
	{ PWTPU_OP_POW, -1.0, -INFINITY, 1.0 },
	{ PWTPU_OP_POW, 0.0, -3.0, INFINITY },
	{ PWTPU_OP_POW, -0.0, -3.0, -INFINITY },
	{ PWTPU_OP_POW, -0.0, -2.0, INFINITY },
	{ PWTPU_OP_POW, -0.0, -0.5, INFINITY },
	{ PWTPU_OP_POW, -0.0, 3.0, -0.0 },
	{ PWTPU_OP_POW, -0.0, 2.0, 0.0 },
	{ PWTPU_OP_POW, -INFINITY, -3.0, -0.0 },
	{ PWTPU_OP_POW, -INFINITY, -2.0, 0.0 },
	{ PWTPU_OP_POW, -INFINITY, 3.0, -INFINITY },
	{ PWTPU_OP_POW, -INFINITY, 2.5, INFINITY },
	{ PWTPU_OP_POW, INFINITY, -1.0, 0.0 },
	{ PWTPU_OP_POW, INFINITY, 0.5, INFINITY },
	{ PWTPU_OP_POW, 0.5, INFINITY, 0.0 },
	{ PWTPU_OP_POW, 0.5, -INFINITY, INFINITY },
	{ PWTPU_OP_POW, -2.0, INFINITY, INFINITY },
	{ PWTPU_OP_POW, 2.0, -INFINITY, 0.0 },
	{ PWTPU_OP_POW, -8.0, 1.0 / 3, NAN },
	{ PWTPU_OP_POW, -2.0, 3.0, -8.0 },
	{ PWTPU_OP_POW, -2.0, 4.0, 16.0 },
	{ PWTPU_OP_POW, 2.0, -1.0, 0.5 },
	{ PWTPU_OP_POW, 3.0, 7.0, 2187.0 },
	{ PWTPU_OP_POW, 10.0, 2.0, 100.0 },
	{ PWTPU_OP_POW, NAN, 1.0, NAN },
	{ PWTPU_OP_POW, 2.0, NAN, NAN },
	/* A subnormal base: ln of a subnormal (f32: 0^1 = 0). */
	{ PWTPU_OP_POW, 0x3p-1074, 1.0, 0x3p-1074 },
	{ PWTPU_OP_POW, 0x1.8p-1060, 0.5, 0x1.3988e1409212ep-530 },
	{ PWTPU_OP_EXP, 0.0, 0, 1.0 },
	{ PWTPU_OP_EXP, -0.0, 0, 1.0 },
	{ PWTPU_OP_EXP, INFINITY, 0, INFINITY },
	{ PWTPU_OP_EXP, -INFINITY, 0, 0.0 },
	{ PWTPU_OP_EXP, 1000.0, 0, INFINITY },
	{ PWTPU_OP_EXP, -1000.0, 0, 0.0 },
	{ PWTPU_OP_EXP, NAN, 0, NAN },
	{ PWTPU_OP_LOG, 0.0, 0, -INFINITY },
	{ PWTPU_OP_LOG, -0.0, 0, -INFINITY },
	{ PWTPU_OP_LOG, 1.0, 0, 0.0 },
	{ PWTPU_OP_LOG, -1.0, 0, NAN },
	{ PWTPU_OP_LOG, -INFINITY, 0, NAN },
	{ PWTPU_OP_LOG, INFINITY, 0, INFINITY },
	{ PWTPU_OP_LOG, NAN, 0, NAN },
	{ PWTPU_OP_TANH, 0.0, 0, 0.0 },
	{ PWTPU_OP_TANH, -0.0, 0, -0.0 },
	{ PWTPU_OP_TANH, INFINITY, 0, 1.0 },
	{ PWTPU_OP_TANH, -INFINITY, 0, -1.0 },
	{ PWTPU_OP_TANH, -30.0, 0, -1.0 },
	{ PWTPU_OP_TANH, NAN, 0, NAN },
	{ PWTPU_OP_RSQRT, 0.0, 0, INFINITY },
	{ PWTPU_OP_RSQRT, -0.0, 0, -INFINITY },
	{ PWTPU_OP_RSQRT, -1.0, 0, NAN },
	{ PWTPU_OP_RSQRT, INFINITY, 0, 0.0 },
	{ PWTPU_OP_RSQRT, 4.0, 0, 0.5 },
	{ PWTPU_OP_RSQRT, NAN, 0, NAN },
};
#define NSPECIALS (sizeof(specials) / sizeof(specials[0]))

static int is_binary(enum pwtpu_op op)
{
	return op == PWTPU_OP_ATAN2 || op == PWTPU_OP_POW;
}

static void run_specials(struct __test_metadata *_metadata,
			 enum pwtpu_dtype dt)
{
	int f32 = dt == PWTPU_DT_F32, t[3];
	struct ops o;
	uint32_t i;

	for (i = 0; i < NSPECIALS; i++) {
		const struct special *c = &specials[i];
		double got, want = f32 ? (float)c->want : c->want;

		ASSERT_EQ(0, ops_init(&o, 3 * 64));
		t[0] = ops_tensor(&o, dt, 0);
		t[1] = ops_tensor(&o, dt, 0);
		t[2] = ops_tensor(&o, dt, 0);
		ASSERT_LE(0, is_binary(c->op) ?
			  pwprog_binary(o.p, c->op, t[2], t[0], t[1]) :
			  pwprog_unary(o.p, c->op, t[2], t[0]));
		if (f32) {
			*(float *)ops_ptr(&o, t[0]) = (float)c->x;
			*(float *)ops_ptr(&o, t[1]) = (float)c->y;
		} else {
			*(double *)ops_ptr(&o, t[0]) = c->x;
			*(double *)ops_ptr(&o, t[1]) = c->y;
		}
		ASSERT_EQ(0, ops_run(&o));
		got = f32 ? *(float *)ops_ptr(&o, t[2]) :
			    *(double *)ops_ptr(&o, t[2]);
		EXPECT_TRUE(f64_same(got, want))
			TH_LOG("%s op %d (%a, %a) = %a, want %a",
			       pwtpu_dtype_name(dt), c->op, c->x, c->y, got,
			       want);
		ops_fini(&o);
	}
}

TEST(specials_f32)
{
	run_specials(_metadata, PWTPU_DT_F32);
}

TEST(specials_f64)
{
	run_specials(_metadata, PWTPU_DT_F64);
}

/*
 * Powers of two to integer powers are exact, ties too: 2^-150 is half
 * the least f32 subnormal and rounds to +0, 2^-1075 likewise in f64,
 * 2^-149 and 2^-1074 are those subnormals.
 */
TEST(pow_exact_powers_of_two)
{
	struct ops o;
	float *f;
	double *d;
	int tf[3], td[3];

	ASSERT_EQ(0, ops_init(&o, 1024));
	tf[0] = ops_tensor(&o, PWTPU_DT_F32, 1, 4);
	tf[1] = ops_tensor(&o, PWTPU_DT_F32, 1, 4);
	tf[2] = ops_tensor(&o, PWTPU_DT_F32, 1, 4);
	td[0] = ops_tensor(&o, PWTPU_DT_F64, 1, 4);
	td[1] = ops_tensor(&o, PWTPU_DT_F64, 1, 4);
	td[2] = ops_tensor(&o, PWTPU_DT_F64, 1, 4);
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_POW, tf[2], tf[0], tf[1]));
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_POW, td[2], td[0], td[1]));
	f = ops_ptr(&o, tf[0]);
	f[0] = 2;
	f[1] = 2;
	f[2] = 0.5f;
	f[3] = -4;
	f = ops_ptr(&o, tf[1]);
	f[0] = -150;
	f[1] = -149;
	f[2] = 127;
	f[3] = 3;
	d = ops_ptr(&o, td[0]);
	d[0] = 2;
	d[1] = 2;
	d[2] = 0x1p-1074;
	d[3] = 2;
	d = ops_ptr(&o, td[1]);
	d[0] = -1075;
	d[1] = -1074;
	d[2] = 1;
	d[3] = 1024;
	ASSERT_EQ(0, ops_run(&o));
	f = ops_ptr(&o, tf[2]);
	EXPECT_EQ(0U, f32_bits(f[0]));
	EXPECT_EQ(1U, f32_bits(f[1]));
	EXPECT_EQ(0x1p-127f, f[2]);
	EXPECT_EQ(-64.0f, f[3]);
	d = ops_ptr(&o, td[2]);
	EXPECT_EQ(0ULL, f64_bits(d[0]));
	EXPECT_EQ(1ULL, f64_bits(d[1]));
	EXPECT_EQ(1ULL, f64_bits(d[2]));
	EXPECT_EQ(INFINITY, d[3]);
	ops_fini(&o);
}

TEST_HARNESS_MAIN
