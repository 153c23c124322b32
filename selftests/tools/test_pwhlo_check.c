// SPDX-License-Identifier: GPL-2.0
/*
 * test_pwhlo_check.c - the StableHLO test suite's assertions as pwhlo
 * evaluates them on the host (tools/pwhlo_check.c): exact integers and
 * i1, floats by value, ULP distances at the 3/4 edge in each float
 * format and across zero, the NaN and infinity rules of each check,
 * tolerances at their edges, complex numbers part by part, the messages
 * naming the first element that differs, and the checks refused.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"

#include "../../tools/pwhlo_check.h"

#define EQ	PW_HLO_CHECK_EXPECT_EQ
#define CLOSE	PW_HLO_CHECK_EXPECT_CLOSE
#define ALMOST	PW_HLO_CHECK_EXPECT_ALMOST_EQ
#define CHK_EQ	PW_HLO_CHECK_EQ

static char msg[512];

/* One check over @n elements: 1 pass, 0 fail, -errno; msg says why. */
static int run(enum pw_hlo_check_kind k, enum pw_hlo_dtype dt,
	       const void *a, const void *e, size_t n)
{
	return pwhlo_check_eval(k, dt, a, e, n, msg, sizeof(msg));
}

/* The same check on single f32 elements, by their bits. */
static int f32_bits(enum pw_hlo_check_kind k, uint32_t a, uint32_t e)
{
	return run(k, PW_HLO_DT_F32, &a, &e, 1);
}

static int f32(enum pw_hlo_check_kind k, float a, float e)
{
	return run(k, PW_HLO_DT_F32, &a, &e, 1);
}

static int f64(enum pw_hlo_check_kind k, double a, double e)
{
	return run(k, PW_HLO_DT_F64, &a, &e, 1);
}

static int half_bits(enum pw_hlo_check_kind k, enum pw_hlo_dtype dt,
		     uint16_t a, uint16_t e)
{
	return run(k, dt, &a, &e, 1);
}

static int f64_bits(enum pw_hlo_check_kind k, uint64_t a, uint64_t e)
{
	return run(k, PW_HLO_DT_F64, &a, &e, 1);
}

TEST(integers_are_exact)
{
	const int8_t i8a[3] = { -1, 127, -128 }, i8e[3] = { -1, 126, -128 };
	const int64_t i64a[2] = { INT64_MIN, 5 }, i64e[2] = { INT64_MIN, 5 };
	const uint64_t u64a = UINT64_MAX, u64e = UINT64_MAX - 1;
	const int32_t i32a = -7, i32e = -7;

	EXPECT_EQ(1, run(EQ, PW_HLO_DT_I8, i8a, i8a, 3));
	ASSERT_EQ(0, run(EQ, PW_HLO_DT_I8, i8a, i8e, 3));
	EXPECT_STREQ("check.expect_eq: element 1: 127 (actual) vs 126 "
		     "(expected)", msg);
	EXPECT_EQ(1, run(EQ, PW_HLO_DT_I64, i64a, i64e, 2));
	EXPECT_EQ(1, run(CHK_EQ, PW_HLO_DT_I64, i64a, i64e, 2));
	ASSERT_EQ(0, run(EQ, PW_HLO_DT_I64, i64a, i64e + 1, 1));
	EXPECT_STREQ("check.expect_eq: element 0: -9223372036854775808 "
		     "(actual) vs 5 (expected)", msg);
	EXPECT_EQ(1, run(EQ, PW_HLO_DT_UI64, &u64a, &u64a, 1));
	ASSERT_EQ(0, run(CHK_EQ, PW_HLO_DT_UI64, &u64a, &u64e, 1));
	EXPECT_STREQ("check.eq: element 0: 18446744073709551615 (actual) vs "
		     "18446744073709551614 (expected)", msg);
	EXPECT_EQ(1, run(CHK_EQ, PW_HLO_DT_I32, &i32a, &i32e, 1));
	/* Signed and unsigned readings of the same bits. */
	ASSERT_EQ(0, run(EQ, PW_HLO_DT_UI8, i8a, i8e, 3));
	EXPECT_STREQ("check.expect_eq: element 1: 127 (actual) vs 126 "
		     "(expected)", msg);
	ASSERT_EQ(0, run(EQ, PW_HLO_DT_UI8, i8e + 2, i8e, 1));
	EXPECT_STREQ("check.expect_eq: element 0: 128 (actual) vs 255 "
		     "(expected)", msg);
}

/* i4 is one byte an element, as dense constants store it: the low nibble. */
TEST(i4_reads_the_low_nibble)
{
	const uint8_t a[2] = { 0x0f, 0x07 }, e[2] = { 0xff, 0x08 };

	ASSERT_EQ(0, run(EQ, PW_HLO_DT_I4, a, e, 2));
	EXPECT_STREQ("check.expect_eq: element 1: 7 (actual) vs -8 (expected)",
		     msg);
	ASSERT_EQ(0, run(EQ, PW_HLO_DT_UI4, a, e, 2));
	EXPECT_STREQ("check.expect_eq: element 1: 7 (actual) vs 8 (expected)",
		     msg);
}

TEST(i1_is_one_byte_zero_or_one)
{
	const uint8_t a[3] = { 0, 1, 1 }, e[3] = { 0, 1, 0 }, two = 2;

	EXPECT_EQ(1, run(EQ, PW_HLO_DT_I1, a, a, 3));
	EXPECT_EQ(1, run(CHK_EQ, PW_HLO_DT_I1, a, a, 3));
	ASSERT_EQ(0, run(EQ, PW_HLO_DT_I1, a, e, 3));
	EXPECT_STREQ("check.expect_eq: element 2: true (actual) vs false "
		     "(expected)", msg);
	/* A byte that is no bool is not "true" either. */
	ASSERT_EQ(0, run(CHK_EQ, PW_HLO_DT_I1, &two, a + 1, 1));
	EXPECT_STREQ("check.eq: element 0: 2 (not 0 or 1) (actual) vs true "
		     "(expected)", msg);
}

TEST(negative_zero_equals_zero)
{
	EXPECT_EQ(1, f32(EQ, -0.0f, 0.0f));
	EXPECT_EQ(1, f32(CLOSE, -0.0f, 0.0f));
	EXPECT_EQ(1, f32(ALMOST, -0.0f, 0.0f));
	EXPECT_EQ(1, f32(CHK_EQ, 0.0f, -0.0f));
	EXPECT_EQ(1, f64(EQ, -0.0, 0.0));
	EXPECT_EQ(1, half_bits(EQ, PW_HLO_DT_BF16, 0x8000, 0x0000));
	EXPECT_EQ(1, half_bits(CLOSE, PW_HLO_DT_F16, 0x8000, 0x0000));
}

TEST(nan_rules_of_each_check)
{
	const uint32_t qnan = 0x7fc00000, other_nan = 0xffc00001;
	const uint32_t one = 0x3f800000;

	/* expect_eq compares values: a NaN equals nothing, itself neither. */
	ASSERT_EQ(0, f32_bits(EQ, qnan, qnan));
	EXPECT_STREQ("check.expect_eq: element 0: nan (actual) vs nan "
		     "(expected)", msg);
	/* Two NaNs are 0 ULP apart, whatever their payloads and signs. */
	EXPECT_EQ(1, f32_bits(CLOSE, qnan, other_nan));
	EXPECT_EQ(1, f32_bits(ALMOST, other_nan, qnan));
	EXPECT_EQ(1, f32_bits(CHK_EQ, qnan, qnan));
	EXPECT_EQ(0, f32_bits(EQ, qnan, one));
	ASSERT_EQ(0, f32_bits(CLOSE, qnan, one));
	EXPECT_STREQ("check.expect_close: element 0: nan (actual) vs 1 "
		     "(expected), not both finite", msg);
	ASSERT_EQ(0, f32_bits(ALMOST, one, other_nan));
	EXPECT_STREQ("check.expect_almost_eq: element 0: 1 (actual) vs -nan "
		     "(expected)", msg);
	EXPECT_EQ(0, f32_bits(CHK_EQ, qnan, one));
	EXPECT_EQ(1, half_bits(CLOSE, PW_HLO_DT_F16, 0x7e00, 0xfe01));
	EXPECT_EQ(0, half_bits(EQ, PW_HLO_DT_BF16, 0x7fc0, 0x7fc0));
	EXPECT_EQ(1, f64_bits(CLOSE, 0x7ff8000000000000ull,
			      0xfff8000000000001ull));
	EXPECT_EQ(0, f64_bits(EQ, 0x7ff8000000000000ull,
			      0x7ff8000000000000ull));
}

TEST(three_ulp_pass_four_fail_in_each_format)
{
	EXPECT_EQ(1, f32_bits(CLOSE, 0x3f800003, 0x3f800000));
	ASSERT_EQ(0, f32_bits(CLOSE, 0x3f800004, 0x3f800000));
	EXPECT_STREQ("check.expect_close: element 0: 1.0000005 (actual) vs 1 "
		     "(expected), 4 ULP (at most 3)", msg);
	/* The distance is the same whichever is larger. */
	EXPECT_EQ(1, f32_bits(CLOSE, 0x3f800000, 0x3f800003));
	EXPECT_EQ(0, f32_bits(CLOSE, 0x3f800000, 0x3f800004));
	/* Across an exponent boundary: 0x3f7ffffe is 2 ULP below 1. */
	EXPECT_EQ(1, f32_bits(CLOSE, 0x3f7ffffe, 0x3f800001));
	EXPECT_EQ(0, f32_bits(CLOSE, 0x3f7ffffe, 0x3f800002));

	EXPECT_EQ(1, half_bits(CLOSE, PW_HLO_DT_BF16, 0x3f83, 0x3f80));
	ASSERT_EQ(0, half_bits(CLOSE, PW_HLO_DT_BF16, 0x3f84, 0x3f80));
	EXPECT_STREQ("check.expect_close: element 0: 1.03 (actual) vs 1 "
		     "(expected), 4 ULP (at most 3)", msg);

	EXPECT_EQ(1, half_bits(CLOSE, PW_HLO_DT_F16, 0xbc03, 0xbc00));
	ASSERT_EQ(0, half_bits(CLOSE, PW_HLO_DT_F16, 0xbc00, 0xbc04));
	EXPECT_STREQ("check.expect_close: element 0: -1 (actual) vs -1.004 "
		     "(expected), 4 ULP (at most 3)", msg);

	EXPECT_EQ(1, f64_bits(CLOSE, 0x3ff0000000000003ull,
			      0x3ff0000000000000ull));
	ASSERT_EQ(0, f64_bits(CLOSE, 0x3ff0000000000004ull,
			      0x3ff0000000000000ull));
	EXPECT_STREQ("check.expect_close: element 0: 1.0000000000000009 "
		     "(actual) vs 1 (expected), 4 ULP (at most 3)", msg);
}

/* Of opposite signs, the distance runs through zero: a + b. */
TEST(ulp_distance_straddles_zero)
{
	EXPECT_EQ(1, f32_bits(CLOSE, 0x00000001, 0x80000002));
	ASSERT_EQ(0, f32_bits(CLOSE, 0x00000002, 0x80000002));
	EXPECT_STREQ("check.expect_close: element 0: 3e-45 (actual) vs -3e-45 "
		     "(expected), 4 ULP (at most 3)", msg);
	EXPECT_EQ(1, f32_bits(CLOSE, 0x80000000, 0x00000003));
	EXPECT_EQ(0, f32_bits(CLOSE, 0x80000001, 0x00000003));
	EXPECT_EQ(1, half_bits(CLOSE, PW_HLO_DT_F16, 0x8001, 0x0002));
	EXPECT_EQ(0, half_bits(CLOSE, PW_HLO_DT_F16, 0x8002, 0x0002));
	EXPECT_EQ(1, half_bits(CLOSE, PW_HLO_DT_BF16, 0x0003, 0x8000));
	EXPECT_EQ(0, half_bits(CLOSE, PW_HLO_DT_BF16, 0x0003, 0x8001));
	EXPECT_EQ(1, f64_bits(CLOSE, 0x8000000000000002ull, 1));
	EXPECT_EQ(0, f64_bits(CLOSE, 0x8000000000000002ull, 2));
	/* By value, the same pair is far from equal. */
	EXPECT_EQ(0, f32_bits(EQ, 0x00000001, 0x80000002));
}

TEST(infinities)
{
	const float inf = INFINITY;

	EXPECT_EQ(1, f32(EQ, inf, inf));
	EXPECT_EQ(1, f32(CLOSE, -inf, -inf));
	EXPECT_EQ(1, f32(ALMOST, inf, inf));
	EXPECT_EQ(1, f32(CHK_EQ, -inf, -inf));
	EXPECT_EQ(0, f32(EQ, inf, -inf));
	EXPECT_EQ(0, f32(CLOSE, inf, -inf));
	EXPECT_EQ(0, f32(ALMOST, inf, -inf));
	EXPECT_EQ(0, f32(CHK_EQ, -inf, inf));
	/* The largest float is one ULP below infinity, and still not close. */
	ASSERT_EQ(0, f32(CLOSE, FLT_MAX, inf));
	EXPECT_STREQ("check.expect_close: element 0: 3.4028235e+38 (actual) "
		     "vs inf (expected), not both finite", msg);
	ASSERT_EQ(0, f32(ALMOST, -inf, -FLT_MAX));
	EXPECT_STREQ("check.expect_almost_eq: element 0: -inf (actual) vs "
		     "-3.4028235e+38 (expected)", msg);
	EXPECT_EQ(0, f32_bits(CLOSE, 0x7f800000, 0x7fc00000));
	EXPECT_EQ(0, half_bits(CLOSE, PW_HLO_DT_F16, 0x7c00, 0x7bff));
	EXPECT_EQ(1, half_bits(CLOSE, PW_HLO_DT_F16, 0x7bfc, 0x7bff));
	EXPECT_EQ(0, f64(CHK_EQ, INFINITY, DBL_MAX));
}

/*
 * Tolerances apply to the decoded values in double: 1.001f is
 * 1.00100004673, past 1e-3 from 1, while 2.001f is 2.00099992752.
 */
TEST(tolerance_edges)
{
	EXPECT_EQ(1, f32(ALMOST, 2.001f, 2.0f));
	ASSERT_EQ(0, f32(ALMOST, 1.001f, 1.0f));
	EXPECT_STREQ("check.expect_almost_eq: element 0: 1.001 (actual) vs 1 "
		     "(expected), 0.001 apart (tolerance 0.001)", msg);
	EXPECT_EQ(1, f64(ALMOST, 1.001, 1.0));
	EXPECT_EQ(0, f64(ALMOST, 1.0011, 1.0));
	EXPECT_EQ(1, f32(CHK_EQ, 1.00009f, 1.0f));
	ASSERT_EQ(0, f32(CHK_EQ, 1.0001f, 1.0f));
	EXPECT_STREQ("check.eq: element 0: 1.0001 (actual) vs 1 (expected), "
		     "0.0001 apart (tolerance 0.0001)", msg);
	EXPECT_EQ(1, f64(CHK_EQ, 0.5, 0.5 + 0x1p-14));	/* 6.1e-5 */
	EXPECT_EQ(0, f64(CHK_EQ, 0.5, 0.5 + 0x1p-13));	/* 1.2e-4 */
	/* Zero is near a small number of its sign, not of the other. */
	EXPECT_EQ(1, f32(ALMOST, 0.0f, 1e-4f));
	ASSERT_EQ(0, f32(ALMOST, 1e-5f, -1e-5f));
	EXPECT_STREQ("check.expect_almost_eq: element 0: 1e-05 (actual) vs "
		     "-1e-05 (expected), signs differ", msg);
	EXPECT_EQ(0, f32(ALMOST, -0.0f, 1e-5f));
	EXPECT_EQ(0, f64(CHK_EQ, -1e-9, 1e-9));
	/* In half precision, bf16 1 and 1.0078125 are 0.0078 apart. */
	EXPECT_EQ(0, half_bits(ALMOST, PW_HLO_DT_BF16, 0x3f80, 0x3f81));
	EXPECT_EQ(1, half_bits(ALMOST, PW_HLO_DT_F16, 0x3c00, 0x3c01));
	ASSERT_EQ(0, half_bits(CHK_EQ, PW_HLO_DT_F16, 0x3c00, 0x3c01));
	EXPECT_STREQ("check.eq: element 0: 1 (actual) vs 1.001 (expected), "
		     "0.000977 apart (tolerance 0.0001)", msg);
	/* expect_eq has no tolerance at all. */
	EXPECT_EQ(0, f64(EQ, 1.0, 1.0 + DBL_EPSILON));
}

TEST(complex_part_by_part)
{
	const float c1[2] = { 1, 2 }, c1_im3[2] = { 1, 0 };
	const uint32_t close_im[2] = { 0x3f800000, 0x40000003 };
	const uint32_t far_re[2] = { 0x3f800004, 0x40000000 };
	const double z[4] = { 1, 2, 3, 4 }, z_far[4] = { 1, 2, 3, 4.01 };
	const double z_nan[2] = { NAN, 0 };

	EXPECT_EQ(1, run(EQ, PW_HLO_DT_C64, c1, c1, 1));
	ASSERT_EQ(0, run(EQ, PW_HLO_DT_C64, c1, c1_im3, 1));
	EXPECT_STREQ("check.expect_eq: element 0: (1, 2) (actual) vs (1, 0) "
		     "(expected)", msg);
	EXPECT_EQ(1, run(CLOSE, PW_HLO_DT_C64, close_im, c1, 1));
	ASSERT_EQ(0, run(CLOSE, PW_HLO_DT_C64, far_re, c1, 1));
	EXPECT_STREQ("check.expect_close: element 0: (1.0000005, 2) (actual) "
		     "vs (1, 2) (expected), 4 ULP (at most 3)", msg);
	EXPECT_EQ(1, run(ALMOST, PW_HLO_DT_C128, z, z, 2));
	ASSERT_EQ(0, run(ALMOST, PW_HLO_DT_C128, z, z_far, 2));
	EXPECT_STREQ("check.expect_almost_eq: element 1: (3, 4) (actual) vs "
		     "(3, 4.01) (expected), 0.01 apart (tolerance 0.001)", msg);
	EXPECT_EQ(0, run(CHK_EQ, PW_HLO_DT_C128, z, z_far, 2));
	EXPECT_EQ(0, run(EQ, PW_HLO_DT_C128, z_nan, z_nan, 1));
	EXPECT_EQ(1, run(CLOSE, PW_HLO_DT_C128, z_nan, z_nan, 1));
}

TEST(the_first_element_that_differs_is_named)
{
	uint32_t a[20], e[20];
	unsigned int i;

	for (i = 0; i < 20; i++)
		a[i] = e[i] = 0x3fa00000;	/* 1.25 */
	e[17] = 0x3fa00004;
	e[18] = 0x3fa00009;
	ASSERT_EQ(0, run(CLOSE, PW_HLO_DT_F32, a, e, 20));
	EXPECT_STREQ("check.expect_close: element 17: 1.25 (actual) vs "
		     "1.2500005 (expected), 4 ULP (at most 3)", msg);
	EXPECT_EQ(1, run(CLOSE, PW_HLO_DT_F32, a, e, 17));
	/* No elements: nothing to differ. */
	EXPECT_EQ(1, run(EQ, PW_HLO_DT_F32, NULL, NULL, 0));
	EXPECT_STREQ("", msg);
}

/*
 * Values print as the shortest text that reads back to the same bits:
 * bf16 1.0078125 is "1.01", its neighbours being 1 and 1.015625.
 */
TEST(values_print_shortest)
{
	const double tenth = 0.1, third = 1.0 / 3;

	ASSERT_EQ(0, f64(EQ, tenth, third));
	EXPECT_STREQ("check.expect_eq: element 0: 0.1 (actual) vs "
		     "0.3333333333333333 (expected)", msg);
	ASSERT_EQ(0, f32(EQ, 0.1f, 1e-40f));	/* a subnormal */
	EXPECT_STREQ("check.expect_eq: element 0: 0.1 (actual) vs 1e-40 "
		     "(expected)", msg);
	ASSERT_EQ(0, half_bits(EQ, PW_HLO_DT_F16, 0x0001, 0x7bff));
	EXPECT_STREQ("check.expect_eq: element 0: 6e-08 (actual) vs 6.55e+04 "
		     "(expected)", msg);
	ASSERT_EQ(0, half_bits(EQ, PW_HLO_DT_BF16, 0x3f81, 0x7f7f));
	EXPECT_STREQ("check.expect_eq: element 0: 1.01 (actual) vs 3.39e+38 "
		     "(expected)", msg);
}

TEST(checks_that_cannot_apply_are_refused)
{
	const int32_t i = 1;

	EXPECT_EQ(-EINVAL, run(CLOSE, PW_HLO_DT_I32, &i, &i, 1));
	EXPECT_STREQ("check.expect_close: i32 is not a floating-point type",
		     msg);
	EXPECT_EQ(-EINVAL, run(CLOSE, PW_HLO_DT_I1, &i, &i, 1));
	EXPECT_EQ(-EINVAL, run(ALMOST, PW_HLO_DT_UI8, &i, &i, 1));
	EXPECT_EQ(-EINVAL, run(CLOSE, PW_HLO_DT_I64, NULL, NULL, 0));
	EXPECT_EQ(-EOPNOTSUPP, run(EQ, PW_HLO_DT_OTHER, &i, &i, 1));
	EXPECT_STREQ("check.expect_eq: no element type it can read (18)", msg);
	EXPECT_EQ(-EOPNOTSUPP, run(EQ, PW_HLO_DT_NONE, &i, &i, 1));
}

TEST_HARNESS_MAIN
