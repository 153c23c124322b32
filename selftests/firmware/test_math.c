// SPDX-License-Identifier: GPL-2.0
/*
 * test_math.c - EXP, LOG, TANH, RSQRT. The firmware writes its own (the
 * kernel has no libm); the reference here is glibc's long double libm,
 * rounded to f32. Tolerance: 1 ulp in f32 (the firmware aims at correct
 * rounding and is documented to be within 1 ulp), 1 ulp in bf16 (bf16 is
 * computed through f32 and rounded again). Infinities, NaN and signed
 * zeros must match exactly.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

#define SWEEP_STRIDE	4099U	/* f32 bit patterns: ~1M over all 2^32 */

static const enum pwtpu_op math_ops[] = {
	PWTPU_OP_EXP, PWTPU_OP_LOG, PWTPU_OP_TANH, PWTPU_OP_RSQRT,
};
static const char * const math_names[] = { "exp", "log", "tanh", "rsqrt" };

static float ref_math(enum pwtpu_op op, float x)
{
	long double v = x;

	switch (op) {
	case PWTPU_OP_EXP:
		return (float)expl(v);
	case PWTPU_OP_LOG:
		return (float)logl(v);
	case PWTPU_OP_TANH:
		return (float)tanhl(v);
	default:
		return (float)(1.0L / sqrtl(v));
	}
}

/*
 * Within @tol ulps, and infinities, NaN and zeros' signs exactly; counts
 * in *@inexact the results that are not the correctly rounded one.
 */
static int close_enough(float got, float want, uint32_t tol, uint32_t *worst,
			uint32_t *inexact)
{
	uint32_t d;

	if (isnan(want) || isinf(want) || want == 0.0f)
		if (f32_same(got, want))
			return 1;
	if (isnan(want) || isnan(got) || isinf(want) || isinf(got))
		return 0;
	/* A result flushed to zero or rounded up from it: must keep sign. */
	if (signbit(got) != signbit(want))
		return 0;
	d = ulp_diff(got, want);
	if (d > *worst)
		*worst = d;
	*inexact += d != 0;
	return d <= tol;
}

/* One program: all four functions of tensor a into four results. */
static int build(struct ops *o, enum pwtpu_dtype dt, uint32_t n, int *ta,
		 int *td)
{
	uint32_t k;

	*ta = ops_tensor(o, dt, 1, n);
	for (k = 0; k < 4; k++) {
		td[k] = ops_tensor(o, dt, 1, n);
		if (pwprog_unary(o->p, math_ops[k], td[k], *ta) < 0)
			return -1;
	}
	return 0;
}

TEST(f32_sweep)
{
	uint32_t n = (uint32_t)(0x100000000ULL / SWEEP_STRIDE), i, k;
	struct ops o;
	float *a;
	int ta, td[4];

	ASSERT_EQ(0, ops_init(&o, 5 * 4 * (size_t)n + 512));
	ASSERT_EQ(0, build(&o, PWTPU_DT_F32, n, &ta, td));
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++)
		a[i] = f32_from_bits(i * SWEEP_STRIDE);
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < 4; k++) {
		const float *d = ops_ptr(&o, td[k]);
		uint32_t worst = 0, inexact = 0, bad = 0;

		for (i = 0; i < n; i++) {
			float want = ref_math(math_ops[k], a[i]);

			if (!close_enough(d[i], want, 1, &worst, &inexact) &&
			    bad++ < 5)
				TH_LOG("%s(%a) = %a, want %a", math_names[k],
				       a[i], d[i], want);
		}
		EXPECT_EQ(0U, bad);
		/* Documented: correctly rounded but for rare near-ties. */
		EXPECT_GE(n / 100000, inexact);
		TH_LOG("%s f32: worst %u ulp, %u not correctly rounded, of %u",
		       math_names[k], worst, inexact, n);
	}
	ops_fini(&o);
}

/* Dense sweeps where the functions change character. */
TEST(f32_dense_ranges)
{
	static const float ranges[][2] = {
		{ -104.0f, -80.0f },	/* exp into subnormals and zero */
		{ 80.0f, 89.0f },	/* exp to overflow */
		{ -1.0f, 1.0f },	/* small arguments */
		{ 0.5f, 2.0f },		/* log around 1 */
		{ 8.0f, 11.0f },	/* tanh saturation */
	};
	uint32_t per = 20000, n = 5 * per, i, k;
	struct ops o;
	float *a;
	int ta, td[4];

	ASSERT_EQ(0, ops_init(&o, 5 * 4 * (size_t)n + 512));
	ASSERT_EQ(0, build(&o, PWTPU_DT_F32, n, &ta, td));
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++) {
		const float *r = ranges[i / per];

		a[i] = r[0] + (r[1] - r[0]) * (float)(i % per) / (float)per;
	}
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < 4; k++) {
		const float *d = ops_ptr(&o, td[k]);
		uint32_t worst = 0, inexact = 0, bad = 0;

		for (i = 0; i < n; i++) {
			float want = ref_math(math_ops[k], a[i]);

			if (!close_enough(d[i], want, 1, &worst, &inexact) &&
			    bad++ < 5)
				TH_LOG("%s(%a) = %a, want %a", math_names[k],
				       a[i], d[i], want);
		}
		EXPECT_EQ(0U, bad);
		EXPECT_GE(n / 100000, inexact);
	}
	ops_fini(&o);
}

TEST(bf16_all_inputs)
{
	uint32_t n = 65536, i, k;
	uint16_t *a;
	struct ops o;
	int ta, td[4];

	ASSERT_EQ(0, ops_init(&o, 5 * 2 * n + 512));
	ASSERT_EQ(0, build(&o, PWTPU_DT_BF16, n, &ta, td));
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++)
		a[i] = (uint16_t)i;
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < 4; k++) {
		const uint16_t *d = ops_ptr(&o, td[k]);
		uint32_t bad = 0;

		for (i = 0; i < n; i++) {
			uint16_t want = ref_bf16(ref_math(math_ops[k],
							  bf16_widen(a[i])));
			float g = bf16_widen(d[i]), w = bf16_widen(want);
			int ok;

			if (isnan(w) || isinf(w) || w == 0.0f)
				ok = bf16_same(d[i], want);
			else
				ok = !isnan(g) && !isinf(g) &&
				     signbit(g) == signbit(w) &&
				     ulp_diff_bf16(d[i], want) <= 1;
			if (!ok && bad++ < 5)
				TH_LOG("%s(%04x) = %04x, want %04x",
				       math_names[k], a[i], d[i], want);
		}
		EXPECT_EQ(0U, bad);
	}
	ops_fini(&o);
}

/* The special values, exact, as docs/firmware-ops.md lists them. */
TEST(specials)
{
	static const struct {
		enum pwtpu_op op;
		float x, want;
	} cases[] = {
		{ PWTPU_OP_EXP, 0.0f, 1.0f },
		{ PWTPU_OP_EXP, -0.0f, 1.0f },
		{ PWTPU_OP_EXP, INFINITY, INFINITY },
		{ PWTPU_OP_EXP, -INFINITY, 0.0f },
		{ PWTPU_OP_EXP, NAN, NAN },
		{ PWTPU_OP_EXP, 88.8f, INFINITY },
		{ PWTPU_OP_EXP, 1000.0f, INFINITY },
		{ PWTPU_OP_EXP, -104.0f, 0.0f },
		{ PWTPU_OP_EXP, -1000.0f, 0.0f },
		{ PWTPU_OP_LOG, 1.0f, 0.0f },
		{ PWTPU_OP_LOG, 0.0f, -INFINITY },
		{ PWTPU_OP_LOG, -0.0f, -INFINITY },
		{ PWTPU_OP_LOG, -1.0f, NAN },
		{ PWTPU_OP_LOG, -INFINITY, NAN },
		{ PWTPU_OP_LOG, -1e-45f, NAN },
		{ PWTPU_OP_LOG, INFINITY, INFINITY },
		{ PWTPU_OP_LOG, NAN, NAN },
		{ PWTPU_OP_TANH, 0.0f, 0.0f },
		{ PWTPU_OP_TANH, -0.0f, -0.0f },
		{ PWTPU_OP_TANH, INFINITY, 1.0f },
		{ PWTPU_OP_TANH, -INFINITY, -1.0f },
		{ PWTPU_OP_TANH, 20.0f, 1.0f },
		{ PWTPU_OP_TANH, -20.0f, -1.0f },
		{ PWTPU_OP_TANH, 1e-40f, 1e-40f },
		{ PWTPU_OP_TANH, NAN, NAN },
		{ PWTPU_OP_RSQRT, 4.0f, 0.5f },
		{ PWTPU_OP_RSQRT, 0.0f, INFINITY },
		{ PWTPU_OP_RSQRT, -0.0f, -INFINITY },
		{ PWTPU_OP_RSQRT, -1.0f, NAN },
		{ PWTPU_OP_RSQRT, INFINITY, 0.0f },
		{ PWTPU_OP_RSQRT, NAN, NAN },
	};
	uint32_t n = sizeof(cases) / sizeof(cases[0]), i;
	struct ops o;

	ASSERT_EQ(0, ops_init(&o, 64 * n * 2 + 256));
	for (i = 0; i < n; i++) {
		int ta = ops_tensor(&o, PWTPU_DT_F32, 0);
		int td = ops_tensor(&o, PWTPU_DT_F32, 0);

		ASSERT_LE(0, pwprog_unary(o.p, cases[i].op, td, ta));
		*(float *)ops_ptr(&o, ta) = cases[i].x;
	}
	ASSERT_EQ(0, ops_run(&o));
	for (i = 0; i < n; i++) {
		float got = *(float *)ops_ptr(&o, 2 * i + 1);

		EXPECT_TRUE(f32_same(got, cases[i].want))
			TH_LOG("op %d (%a) = %a, want %a", cases[i].op,
			       cases[i].x, got, cases[i].want);
	}
	ops_fini(&o);
}

TEST_HARNESS_MAIN
