// SPDX-License-Identifier: GPL-2.0
/*
 * test_hlo_lower.c - StableHLO modules lowered to compiled functions
 * (runtime/hlo/hlo_lower*.c, pw_fn_from_stablehlo()): each module here
 * is run by the firmware's interpreter on host memory and its results
 * compared with values worked out by hand; every refusal is checked for
 * its errno and for naming what it refuses, where. Every program of the
 * StableHLO test suite either lowers, verifies and runs, or is refused
 * as not supported: never as invalid.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../runtime/hlo/hlo_lower.h"
#include "../lib/fn_exec.h"

#define MAX_OUT	8

/* Lower @text's @main; the errno, with its message in @err. */
static int lower(const char *text, bool keep_checks,
		 struct pw_hlo_lowered *low, char *err, size_t errlen)
{
	struct pw_hlo_module *mod;
	int ret = pw_hlo_parse(text, strlen(text), &mod, err, errlen);

	if (ret)
		return ret;
	ret = pw_hlo_lower(mod, NULL, keep_checks, low, err, errlen);
	pw_hlo_free(mod);
	return ret;
}

/* Lower @text and run it with @in; results into @out[0..]. */
static int lower_run(const char *text, const void *const *in, void **out)
{
	struct pw_hlo_lowered low;
	char err[512];
	int ret = lower(text, false, &low, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "# lowering: %s\n", err);
		return ret;
	}
	ret = test_fn_exec(low.fn, in, out);
	pw_hlo_lowered_free(&low);
	return ret;
}

/* A refusal: @err and a message holding @what. */
#define EXPECT_REFUSED(text, errno_, what) do {				\
	struct pw_hlo_lowered _l;					\
	char _m[512];							\
									\
	ASSERT_EQ(errno_, lower(text, false, &_l, _m, sizeof(_m)));	\
	ASSERT_NE(NULL, strstr(_m, what)) TH_LOG("message: %s", _m);	\
	ASSERT_NULL(_l.fn);						\
} while (0)

TEST(add_params)
{
	const char *text =
		"func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
		"  %0 = stablehlo.add %a, %b : tensor<2x3xf32>\n"
		"  %1 = stablehlo.multiply %0, %a : tensor<2x3xf32>\n"
		"  return %1 : tensor<2x3xf32>\n"
		"}\n";
	const float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, 1, 1, 2, 2, 2 };
	const void *in[2] = { a, b };
	float y[6];
	void *out[1] = { y };
	int i;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 6; i++)
		ASSERT_EQ((a[i] + b[i]) * a[i], y[i]);
}

TEST(broadcast_in_dim)
{
	/* y[i,j,k] = x[k,i]: dims out of order, a new middle dimension. */
	const char *text =
		"func.func @main(%x: tensor<2x3xi32>) -> (tensor<3x4x2xi32>, tensor<2x3xi32>, tensor<4x3xi32>) {\n"
		"  %0 = stablehlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xi32>) -> tensor<3x4x2xi32>\n"
		"  %c = stablehlo.constant dense<7> : tensor<i32>\n"
		"  %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3xi32>\n"
		"  %r = stablehlo.slice %x [1:2, 0:3] : (tensor<2x3xi32>) -> tensor<1x3xi32>\n"
		"  %2 = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<1x3xi32>) -> tensor<4x3xi32>\n"
		"  return %0, %1, %2 : tensor<3x4x2xi32>, tensor<2x3xi32>, tensor<4x3xi32>\n"
		"}\n";
	const int32_t x[6] = { 1, 2, 3, 4, 5, 6 };
	int32_t y0[24], y1[6], y2[12];
	const void *in[1] = { x };
	void *out[3] = { y0, y1, y2 };
	int i, j, k;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			for (k = 0; k < 2; k++)
				ASSERT_EQ(x[k * 3 + i], y0[(i * 4 + j) * 2 + k]);
	for (i = 0; i < 6; i++)
		ASSERT_EQ(7, y1[i]);
	for (i = 0; i < 12; i++)
		ASSERT_EQ(x[3 + i % 3], y2[i]);
}

TEST(reduce_with_init)
{
	const char *text =
		"func.func @main(%x: tensor<2x3xi32>, %f: tensor<2x3xf32>) -> (tensor<2xi32>, tensor<3xf32>) {\n"
		"  %c = stablehlo.constant dense<10> : tensor<i32>\n"
		"  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>\n"
		"  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
		"  %1 = stablehlo.reduce(%f init: %m) applies stablehlo.maximum across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
		"  return %0, %1 : tensor<2xi32>, tensor<3xf32>\n"
		"}\n";
	const int32_t x[6] = { 1, 2, 3, 4, 5, 6 };
	const float f[6] = { -1, 5, NAN, -2, 7, 0 };
	const void *in[2] = { x, f };
	int32_t y0[2];
	float y1[3];
	void *out[2] = { y0, y1 };

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(16, y0[0]);
	ASSERT_EQ(25, y0[1]);
	ASSERT_EQ(-1, y1[0]);
	ASSERT_EQ(7, y1[1]);
	ASSERT_TRUE(isnan(y1[2]));	/* maximum propagates NaN */
}

TEST(booleans)
{
	/* i1 is 0 or 1 on the device: add is or, multiply and, xor ne. */
	const char *text =
		"func.func @main(%f: tensor<4xf32>, %g: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<i1>, tensor<i1>) {\n"
		"  %p = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi1>\n"
		"  %q = stablehlo.compare LT, %f, %g, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
		"  %0 = stablehlo.add %p, %q : tensor<4xi1>\n"
		"  %1 = stablehlo.multiply %p, %q : tensor<4xi1>\n"
		"  %2 = stablehlo.xor %p, %q : tensor<4xi1>\n"
		"  %3 = stablehlo.not %p : tensor<4xi1>\n"
		"  %t = stablehlo.constant dense<true> : tensor<i1>\n"
		"  %4 = stablehlo.reduce(%q init: %t) applies stablehlo.and across dimensions = [0] : (tensor<4xi1>, tensor<i1>) -> tensor<i1>\n"
		"  %z = stablehlo.constant dense<false> : tensor<i1>\n"
		"  %5 = stablehlo.reduce(%p init: %z) applies stablehlo.or across dimensions = [0] : (tensor<4xi1>, tensor<i1>) -> tensor<i1>\n"
		"  return %p, %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<i1>, tensor<i1>\n"
		"}\n";
	/* NaN and -0 convert to true and false, as x != 0 says. */
	const float f[4] = { 0, -0.0f, NAN, 3 }, g[4] = { 1, -1, 0, 4 };
	const uint8_t p[4] = { 0, 0, 1, 1 }, q[4] = { 1, 0, 0, 1 };
	uint8_t y[5][4], r4, r5;
	const void *in[2] = { f, g };
	void *out[7] = { y[0], y[1], y[2], y[3], y[4], &r4, &r5 };
	int i;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(p[i], y[0][i]);
		ASSERT_EQ(p[i] | q[i], y[1][i]);
		ASSERT_EQ(p[i] & q[i], y[2][i]);
		ASSERT_EQ(p[i] ^ q[i], y[3][i]);
		ASSERT_EQ(!p[i], y[4][i]);
	}
	ASSERT_EQ(0, r4);
	ASSERT_EQ(1, r5);
}

TEST(select_scalar_predicate)
{
	const char *text =
		"func.func @main(%p: tensor<i1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {\n"
		"  %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n"
		"  return %0 : tensor<3xf32>\n"
		"}\n";
	const float a[3] = { 1, 2, 3 }, b[3] = { 4, 5, 6 };
	const uint8_t yes = 1, no = 0;
	const void *in[3] = { &no, a, b };
	float y[3];
	void *out[1] = { y };

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(0, memcmp(y, b, sizeof(y)));
	in[0] = &yes;
	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(0, memcmp(y, a, sizeof(y)));
}

TEST(dot_general)
{
	/*
	 * f32 on the array, lhs contracting on its dimension 0, a vector
	 * on the right, and integers: i8 into i32 on the array, i32 and
	 * i8 results exactly (wrapping).
	 */
	const char *text =
		"func.func @main(%a: tensor<3x2xf32>, %b: tensor<3x2xf32>, %v: tensor<3xf32>, %i: tensor<2x2xi32>, %c: tensor<2x2xi8>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi8>) {\n"
		"  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>\n"
		"  %1 = stablehlo.dot_general %v, %a, contracting_dims = [0] x [0] : (tensor<3xf32>, tensor<3x2xf32>) -> tensor<2xf32>\n"
		"  %2 = stablehlo.dot_general %i, %i, contracting_dims = [1] x [0] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>\n"
		"  %3 = stablehlo.dot_general %c, %c, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi32>\n"
		"  %4 = stablehlo.dot %c, %c : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi8>\n"
		"  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi8>\n"
		"}\n";
	const float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, 0, 0, 1, 1, 1 };
	const float v[3] = { 1, 10, 100 };
	const int32_t i32[4] = { 0x10000, 3, 0x10000, -1 };
	const int8_t c[4] = { 100, 2, 3, -4 };
	const void *in[5] = { a, b, v, i32, c };
	float y0[4], y1[2];
	int32_t y2[4], y3[4];
	int8_t y4[4];
	void *out[5] = { y0, y1, y2, y3, y4 };
	int m, n, k;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (m = 0; m < 2; m++)
		for (n = 0; n < 2; n++) {
			float s = 0;
			int32_t si = 0, sc = 0;

			for (k = 0; k < 3; k++)
				s += a[k * 2 + m] * b[k * 2 + n];
			ASSERT_EQ(s, y0[m * 2 + n]);
			for (k = 0; k < 2; k++) {
				si += (int32_t)((uint32_t)i32[m * 2 + k] *
						(uint32_t)i32[k * 2 + n]);
				sc += c[m * 2 + k] * c[k * 2 + n];
			}
			ASSERT_EQ(si, y2[m * 2 + n]);
			ASSERT_EQ(sc, y3[m * 2 + n]);
			ASSERT_EQ((int8_t)sc, y4[m * 2 + n]);
		}
	ASSERT_EQ(1 + 30 + 500, y1[0]);
	ASSERT_EQ(2 + 40 + 600, y1[1]);
}

/* Ops made of others: clamp, sign, is_finite, integer remainder. */
TEST(composed_ops)
{
	const char *text =
		"func.func @main(%x: tensor<6xf32>, %i: tensor<6xi32>, %j: tensor<6xi32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xi1>, tensor<6xi32>, tensor<6xi32>) {\n"
		"  %lo = stablehlo.constant dense<-1.0> : tensor<f32>\n"
		"  %hi = stablehlo.constant dense<2.0> : tensor<f32>\n"
		"  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<6xf32>, tensor<f32>) -> tensor<6xf32>\n"
		"  %1 = stablehlo.sign %x : tensor<6xf32>\n"
		"  %2 = stablehlo.is_finite %x : (tensor<6xf32>) -> tensor<6xi1>\n"
		"  %3 = stablehlo.remainder %i, %j : tensor<6xi32>\n"
		"  %4 = stablehlo.sign %i : tensor<6xi32>\n"
		"  return %0, %1, %2, %3, %4 : tensor<6xf32>, tensor<6xf32>, tensor<6xi1>, tensor<6xi32>, tensor<6xi32>\n"
		"}\n";
	const float x[6] = { -3.5f, -0.0f, 0.25f, 7, INFINITY, NAN };
	const int32_t i[6] = { 7, -7, 7, INT32_MIN, 5, 0 };
	const int32_t j[6] = { 3, 3, -3, -1, 0, 4 };
	const int32_t rem[6] = { 1, -1, 1, 0, 5, 0 };
	const int32_t sgn[6] = { 1, -1, 1, -1, 1, 0 };
	const float clamp[5] = { -1, -0.0f, 0.25f, 2, 2 };
	const float sign[5] = { -1, -0.0f, 1, 1, 1 };
	const uint8_t fin[6] = { 1, 1, 1, 1, 0, 0 };
	const void *in[3] = { x, i, j };
	float y0[6], y1[6];
	uint8_t y2[6];
	int32_t y3[6], y4[6];
	void *out[5] = { y0, y1, y2, y3, y4 };
	int k;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (k = 0; k < 5; k++) {
		ASSERT_EQ(0, memcmp(&clamp[k], &y0[k], 4)) TH_LOG("clamp %d", k);
		ASSERT_EQ(0, memcmp(&sign[k], &y1[k], 4)) TH_LOG("sign %d", k);
	}
	ASSERT_TRUE(isnan(y0[5]));
	ASSERT_TRUE(isnan(y1[5]));
	for (k = 0; k < 6; k++) {
		ASSERT_EQ(fin[k], y2[k]);
		ASSERT_EQ(rem[k], y3[k]) TH_LOG("%d %% %d", i[k], j[k]);
		ASSERT_EQ(sgn[k], y4[k]);
	}
}

TEST(iota_convert_transpose)
{
	const char *text =
		"func.func @main() -> (tensor<2x3xbf16>, tensor<3x2xi32>, tensor<2x3xf32>) {\n"
		"  %0 = stablehlo.iota dim = 1 : tensor<2x3xbf16>\n"
		"  %1 = stablehlo.iota dim = 0 : tensor<2x3xi32>\n"
		"  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>\n"
		"  %3 = stablehlo.convert %0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>\n"
		"  return %0, %2, %3 : tensor<2x3xbf16>, tensor<3x2xi32>, tensor<2x3xf32>\n"
		"}\n";
	uint16_t y0[6];
	int32_t y1[6];
	float y2[6];
	void *out[3] = { y0, y1, y2 };
	int i;

	ASSERT_EQ(0, lower_run(text, NULL, out));
	for (i = 0; i < 6; i++) {
		ASSERT_EQ((float)(i % 3), y2[i]);
		ASSERT_EQ(i % 2, y1[i]);	/* [[0,1],[0,1],[0,1]] */
	}
	ASSERT_EQ(0x3f80, y0[1]);	/* 1.0 in bf16 */
	ASSERT_EQ(0x4000, y0[5]);	/* 2.0 */
}

TEST(calls_inline)
{
	const char *text =
		"module @m {\n"
		"  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
		"    %0 = call @twice(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
		"    %1 = func.call @twice(%0) : (tensor<2xf32>) -> tensor<2xf32>\n"
		"    %2:2 = call @pair() : () -> (tensor<2xf32>, tensor<2xf32>)\n"
		"    %3 = stablehlo.subtract %1, %2#1 : tensor<2xf32>\n"
		"    return %3 : tensor<2xf32>\n"
		"  }\n"
		"  func.func private @twice(%y: tensor<2xf32>) -> tensor<2xf32> {\n"
		"    %0 = stablehlo.add %y, %y : tensor<2xf32>\n"
		"    return %0 : tensor<2xf32>\n"
		"  }\n"
		"  func.func private @pair() -> (tensor<2xf32>, tensor<2xf32>) {\n"
		"    %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
		"    %1 = stablehlo.constant dense<[0.5, 0.25]> : tensor<2xf32>\n"
		"    return %0, %1 : tensor<2xf32>, tensor<2xf32>\n"
		"  }\n"
		"}\n";
	const float x[2] = { 1, 3 };
	const void *in[1] = { x };
	float y[2];
	void *out[1] = { y };

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(3.5f, y[0]);
	ASSERT_EQ(11.75f, y[1]);
}

/*
 * The test suite's checks: their operands become results after @main's,
 * check.eq's i1 outcome is no result, and only pwhlo's lowering takes
 * them.
 */
TEST(checks)
{
	const char *text =
		"func.func @main() -> (tensor<2xf32>, tensor<i1>) {\n"
		"  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
		"  %1 = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>\n"
		"  %2 = stablehlo.add %0, %0 : tensor<2xf32>\n"
		"  stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
		"  %3 = stablehlo.custom_call @check.eq(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>\n"
		"  return %2, %3 : tensor<2xf32>, tensor<i1>\n"
		"}\n";
	struct pw_hlo_lowered low;
	float r[5][2];
	void *out[5] = { r[0], r[1], r[2], r[3], r[4] };
	char err[512];

	ASSERT_EQ(0, lower(text, true, &low, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(1, low.nmain);
	ASSERT_EQ(5, pw_fn_num_results(low.fn));
	ASSERT_EQ(2, low.nchecks);
	ASSERT_EQ(PW_HLO_CHECK_EXPECT_CLOSE, low.checks[0].kind);
	ASSERT_EQ(1, low.checks[0].actual);
	ASSERT_EQ(2, low.checks[0].expected);
	ASSERT_EQ(5, low.checks[0].line);
	ASSERT_EQ(PW_HLO_CHECK_EQ, low.checks[1].kind);
	ASSERT_EQ(3, low.checks[1].actual);
	ASSERT_EQ(4, low.checks[1].expected);
	ASSERT_EQ(PW_HLO_DT_F32, low.dtypes[4]);
	ASSERT_EQ(0, test_fn_exec(low.fn, NULL, out));
	ASSERT_EQ(4, r[0][1]);
	ASSERT_EQ(4, r[1][1]);
	ASSERT_EQ(2.5f, r[2][1]);
	pw_hlo_lowered_free(&low);
	EXPECT_REFUSED(text, -EOPNOTSUPP, "pwhlo");
}

TEST(refusals)
{
	EXPECT_REFUSED("func.func @main() -> tensor<f32> {\n"
		       "  %0 = stablehlo.add %x, %x : tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EINVAL, "2:3: stablehlo.add: operand %x is not defined");
	EXPECT_REFUSED("func.func @main(%x: tensor<8xi1>) -> tensor<i8> {\n"
		       "  %0 = stablehlo.bitcast_convert %x : (tensor<8xi1>) -> tensor<i8>\n"
		       "  return %0 : tensor<i8>\n}\n",
		       -EOPNOTSUPP, "bitcast_convert between i1 and i8");
	EXPECT_REFUSED("func.func @main(%x: tensor<f32>) -> tensor<f32> {\n"
		       "  %0 = chlo.erf %x : tensor<f32> -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EOPNOTSUPP, "2:3: chlo.erf: not supported yet");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {\n"
		       "  return %x : tensor<2xcomplex<f32>>\n}\n",
		       -EOPNOTSUPP, "element type complex<f32>");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xf64>) -> tensor<2xf64> {\n"
		       "  %0 = stablehlo.exponential %x : tensor<2xf64>\n"
		       "  return %0 : tensor<2xf64>\n}\n",
		       -EOPNOTSUPP, "f64 is not supported by the device's math");
	EXPECT_REFUSED("func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {\n"
		       "  return %x : tensor<?xf32>\n}\n",
		       -EOPNOTSUPP, "dynamic dimensions");
	EXPECT_REFUSED("func.func @main(%x: tensor<2x2x2x2x2xf32>) -> tensor<2x2x2x2x2xf32> {\n"
		       "  return %x : tensor<2x2x2x2x2xf32>\n}\n",
		       -EOPNOTSUPP, "rank 5");
	EXPECT_REFUSED("func.func @main(%x: tensor<f32>) -> tensor<i32> {\n"
		       "  return %x : tensor<f32>\n}\n",
		       -EINVAL, "not of @main's result type");
	EXPECT_REFUSED("func.func @main(%x: tensor<f32>) -> tensor<f32> {\n"
		       "  %0 = call @main(%x) : (tensor<f32>) -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EOPNOTSUPP, "nest deeper than 32");
	EXPECT_REFUSED("func.func @main(%x: tensor<f32>) -> tensor<f32> {\n"
		       "  %0 = call @nowhere(%x) : (tensor<f32>) -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EINVAL, "@nowhere is not defined");
	EXPECT_REFUSED("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
		       "  %0 = stablehlo.and %x, %x : tensor<4xf32>\n"
		       "  return %0 : tensor<4xf32>\n}\n",
		       -EINVAL, "and is not defined on floats");
	EXPECT_REFUSED("func.func @main(%x: tensor<4xf32>) -> tensor<2xf32> {\n"
		       "  %0 = stablehlo.slice %x [0:4:2] : (tensor<4xf32>) -> tensor<2xf32>\n"
		       "  return %0 : tensor<2xf32>\n}\n",
		       -EOPNOTSUPP, "strides");
	EXPECT_REFUSED("func.func @main(%x: tensor<4xf32>) -> tensor<f32> {\n"
		       "  %c = stablehlo.constant dense<1.0> : tensor<f32>\n"
		       "  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.multiply across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EOPNOTSUPP, "a body other than");
	EXPECT_REFUSED("func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
		       "  %0 = stablehlo.transpose %x, dims = [0, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
		       "  return %0 : tensor<2x2xf32>\n}\n",
		       -EINVAL, "permutation");
	EXPECT_REFUSED("func.func @other() -> () {\n  return\n}\n",
		       -EINVAL, "no function @main");
}

/*
 * The shifts on integers: the count read as unsigned, past the width 0
 * (or the sign for shift_right_arithmetic, of ui8 too); and, or, xor,
 * not bitwise on i32 and ui8, and still booleans on i1.
 */
TEST(shifts_and_bitwise)
{
	const char *text =
		"func.func @main(%x: tensor<5xi32>, %n: tensor<5xi32>, %u: tensor<5xui8>, %p: tensor<2xi1>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xui8>, tensor<5xi32>, tensor<5xui8>, tensor<2xi1>, tensor<2xi1>) {\n"
		"  %0 = stablehlo.shift_left %x, %n : tensor<5xi32>\n"
		"  %1 = stablehlo.shift_right_logical %x, %n : tensor<5xi32>\n"
		"  %2 = stablehlo.shift_right_arithmetic %x, %n : tensor<5xi32>\n"
		"  %c = stablehlo.constant dense<[1, 7, 8, 9, 255]> : tensor<5xui8>\n"
		"  %3 = stablehlo.shift_right_arithmetic %u, %c : tensor<5xui8>\n"
		"  %a = stablehlo.and %x, %n : tensor<5xi32>\n"
		"  %o = stablehlo.or %a, %n : tensor<5xi32>\n"
		"  %4 = stablehlo.xor %o, %x : tensor<5xi32>\n"
		"  %5 = stablehlo.not %u : tensor<5xui8>\n"
		"  %6 = stablehlo.not %p : tensor<2xi1>\n"
		"  %7 = stablehlo.xor %p, %6 : tensor<2xi1>\n"
		"  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xui8>, tensor<5xi32>, tensor<5xui8>, tensor<2xi1>, tensor<2xi1>\n"
		"}\n";
	const int32_t x[5] = { -8, -8, 1, 12, -1 };
	const int32_t n[5] = { 1, 31, 32, -1, 0 };
	const uint8_t u[5] = { 0x80, 0x80, 0x80, 0x40, 3 };
	const uint8_t p[2] = { 0, 1 };
	const void *in[4] = { x, n, u, p };
	int32_t shl[5], shrl[5], shra[5], bits[5];
	uint8_t shra8[5], not8[5], np[2], xp[2];
	void *out[8] = { shl, shrl, shra, shra8, bits, not8, np, xp };
	int i;

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(-16, shl[0]);
	ASSERT_EQ(0, shl[1]);
	ASSERT_EQ(0, shl[2]);
	ASSERT_EQ(0, shl[3]);
	ASSERT_EQ(-1, shl[4]);
	ASSERT_EQ(0x7ffffffc, shrl[0]);
	ASSERT_EQ(1, shrl[1]);
	ASSERT_EQ(0, shrl[2]);
	ASSERT_EQ(0, shrl[3]);
	ASSERT_EQ(-4, shra[0]);
	ASSERT_EQ(-1, shra[1]);
	ASSERT_EQ(0, shra[2]);
	ASSERT_EQ(0, shra[3]);
	ASSERT_EQ(-1, shra[4]);
	ASSERT_EQ(0xc0, shra8[0]);
	ASSERT_EQ(0xff, shra8[1]);
	ASSERT_EQ(0xff, shra8[2]);
	ASSERT_EQ(0, shra8[3]);
	ASSERT_EQ(0, shra8[4]);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(((x[i] & n[i]) | n[i]) ^ x[i], bits[i]);
		ASSERT_EQ((uint8_t)~u[i], not8[i]);
	}
	ASSERT_EQ(1, np[0]);
	ASSERT_EQ(0, np[1]);
	ASSERT_EQ(1, xp[0]);
	ASSERT_EQ(1, xp[1]);
}

/* popcnt and count_leading_zeros in the operand's width. */
TEST(popcnt_clz)
{
	const char *text =
		"func.func @main() -> (tensor<4xi64>, tensor<4xi64>, tensor<3xui16>) {\n"
		"  %x = stablehlo.constant dense<[0, 1, 128, -1]> : tensor<4xi64>\n"
		"  %0 = stablehlo.popcnt %x : tensor<4xi64>\n"
		"  %1 = stablehlo.count_leading_zeros %x : tensor<4xi64>\n"
		"  %u = stablehlo.constant dense<[0, 1, 65535]> : tensor<3xui16>\n"
		"  %2 = stablehlo.count_leading_zeros %u : tensor<3xui16>\n"
		"  return %0, %1, %2 : tensor<4xi64>, tensor<4xi64>, tensor<3xui16>\n"
		"}\n";
	int64_t pop[4], clz[4];
	uint16_t clz16[3];
	void *out[3] = { pop, clz, clz16 };

	ASSERT_EQ(0, lower_run(text, NULL, out));
	ASSERT_EQ(0, pop[0]);
	ASSERT_EQ(1, pop[1]);
	ASSERT_EQ(1, pop[2]);
	ASSERT_EQ(64, pop[3]);
	ASSERT_EQ(64, clz[0]);
	ASSERT_EQ(63, clz[1]);
	ASSERT_EQ(56, clz[2]);
	ASSERT_EQ(0, clz[3]);
	ASSERT_EQ(16, clz16[0]);
	ASSERT_EQ(15, clz16[1]);
	ASSERT_EQ(0, clz16[2]);
}

/* floor, ceil and the two roundings on f32 and f64, ties included. */
TEST(rounding)
{
	const char *text =
		"func.func @main(%x: tensor<6xf32>, %d: tensor<2xf64>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2xf64>) {\n"
		"  %0 = stablehlo.floor %x : tensor<6xf32>\n"
		"  %1 = stablehlo.ceil %x : tensor<6xf32>\n"
		"  %2 = stablehlo.round_nearest_even %x : tensor<6xf32>\n"
		"  %3 = stablehlo.round_nearest_afz %x : tensor<6xf32>\n"
		"  %4 = stablehlo.round_nearest_afz %d : tensor<2xf64>\n"
		"  return %0, %1, %2, %3, %4 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2xf64>\n"
		"}\n";
	const float x[6] = { -0.5f, 0.5f, 2.5f, -2.5f, 1.75f, -0.0f };
	const double d[2] = { 4503599627370495.5, -0.5 };
	const void *in[2] = { x, d };
	float fl[6], ce[6], re[6], ra[6];
	double rd[2];
	void *out[5] = { fl, ce, re, ra, rd };
	int i;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(floorf(x[i]), fl[i]);
		ASSERT_EQ(ceilf(x[i]), ce[i]);
		ASSERT_EQ(rintf(x[i]), re[i]);
		ASSERT_EQ(roundf(x[i]), ra[i]);
		ASSERT_EQ(signbit(ceilf(x[i])), signbit(ce[i]));
		ASSERT_EQ(signbit(rintf(x[i])), signbit(re[i]));
	}
	ASSERT_EQ(4503599627370496.0, rd[0]);
	ASSERT_EQ(-1.0, rd[1]);
}

/*
 * The transcendental functions, f32 and f64, and power, atan2 and
 * remainder of floats (the dividend's sign, as C's fmod): within an ulp
 * of glibc's long double functions here.
 */
TEST(math_functions)
{
	const char *text =
		"func.func @main(%x: tensor<4xf32>, %d: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {\n"
		"  %0 = stablehlo.sine %x : tensor<4xf32>\n"
		"  %1 = stablehlo.tan %x : tensor<4xf32>\n"
		"  %2 = chlo.tan %x : tensor<4xf32> -> tensor<4xf32>\n"
		"  %3 = stablehlo.logistic %x : tensor<4xf32>\n"
		"  %c = stablehlo.constant dense<1.5> : tensor<4xf32>\n"
		"  %4 = stablehlo.remainder %x, %c : tensor<4xf32>\n"
		"  %5 = stablehlo.exponential_minus_one %d : tensor<4xf64>\n"
		"  %e = stablehlo.constant dense<2.5> : tensor<4xf64>\n"
		"  %6 = stablehlo.power %d, %e : tensor<4xf64>\n"
		"  %7 = stablehlo.atan2 %d, %e : tensor<4xf64>\n"
		"  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>\n"
		"}\n";
	const float x[4] = { -0.0f, 1.0f, -4.25f, 1e30f };
	const double d[4] = { 0.5, 1e-10, 3.0, 700.0 };
	const void *in[2] = { x, d };
	float sn[4], tn[4], ctn[4], lg[4], rm[4];
	double em[4], pw[4], at[4];
	void *out[8] = { sn, tn, ctn, lg, rm, em, pw, at };
	int i;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ((float)sinl(x[i]), sn[i]);
		ASSERT_EQ((float)tanl(x[i]), tn[i]);
		ASSERT_EQ(tn[i], ctn[i]);
		ASSERT_EQ((float)(1 / (1 + expl(-(long double)x[i]))), lg[i]);
		ASSERT_EQ(fmodf(x[i], 1.5f), rm[i]);
		ASSERT_EQ((double)expm1l(d[i]), em[i]);
		ASSERT_EQ((double)powl(d[i], 2.5L), pw[i]);
		ASSERT_EQ((double)atan2l(d[i], 2.5L), at[i]);
	}
	ASSERT_TRUE(signbit(sn[0]));
	ASSERT_TRUE(signbit(rm[2]));
}

/* Integer power (wrapping; negative exponents) and remainder (x % 0 = x). */
TEST(integer_power_remainder)
{
	const char *text =
		"func.func @main() -> (tensor<5xi32>, tensor<4xi8>) {\n"
		"  %b = stablehlo.constant dense<[2, -1, -1, 3, 2]> : tensor<5xi32>\n"
		"  %e = stablehlo.constant dense<[31, -3, -4, 4, -1]> : tensor<5xi32>\n"
		"  %0 = stablehlo.power %b, %e : tensor<5xi32>\n"
		"  %x = stablehlo.constant dense<[-17, 17, -128, 5]> : tensor<4xi8>\n"
		"  %y = stablehlo.constant dense<[3, -3, -1, 0]> : tensor<4xi8>\n"
		"  %1 = stablehlo.remainder %x, %y : tensor<4xi8>\n"
		"  return %0, %1 : tensor<5xi32>, tensor<4xi8>\n"
		"}\n";
	int32_t pw[5];
	int8_t rm[4];
	void *out[2] = { pw, rm };

	ASSERT_EQ(0, lower_run(text, NULL, out));
	ASSERT_EQ(INT32_MIN, pw[0]);
	ASSERT_EQ(-1, pw[1]);
	ASSERT_EQ(1, pw[2]);
	ASSERT_EQ(81, pw[3]);
	ASSERT_EQ(0, pw[4]);
	ASSERT_EQ(-2, rm[0]);
	ASSERT_EQ(2, rm[1]);
	ASSERT_EQ(0, rm[2]);
	ASSERT_EQ(5, rm[3]);
}

/*
 * bitcast_convert of one width and across widths (little endian along a
 * last dimension), and reduce_precision to e5m10.
 */
TEST(bitcast_reduce_precision)
{
	const char *text =
		"func.func @main(%x: tensor<2xf32>) -> (tensor<2xui32>, tensor<2x2xui16>, tensor<f64>, tensor<2xf32>) {\n"
		"  %0 = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xui32>\n"
		"  %1 = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2x2xui16>\n"
		"  %2 = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<f64>\n"
		"  %3 = stablehlo.reduce_precision %x, format = e5m10 : tensor<2xf32>\n"
		"  return %0, %1, %2, %3 : tensor<2xui32>, tensor<2x2xui16>, tensor<f64>, tensor<2xf32>\n"
		"}\n";
	const float x[2] = { 1.0f, 70000.0f };
	const void *in[1] = { x };
	uint32_t u[2];
	uint16_t h[4];
	double d;
	float rp[2];
	void *out[4] = { u, h, &d, rp };

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(0x3f800000U, u[0]);
	ASSERT_EQ(0x0000, h[0]);
	ASSERT_EQ(0x3f80, h[1]);
	ASSERT_EQ(0, memcmp(&d, x, 8));
	ASSERT_EQ(1.0f, rp[0]);
	ASSERT_EQ(INFINITY, rp[1]);
}

/* What the new ops are not defined on, and what stays refused. */
TEST(new_ops_refusals)
{
	EXPECT_REFUSED("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
		       "  %0 = stablehlo.shift_left %x, %x : tensor<2xf32>\n"
		       "  return %0 : tensor<2xf32>\n}\n",
		       -EINVAL, "2:3: stablehlo.shift_left: defined on integers only");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
		       "  %0 = stablehlo.floor %x : tensor<2xi32>\n"
		       "  return %0 : tensor<2xi32>\n}\n",
		       -EINVAL, "stablehlo.floor: defined on floats only");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xi1>) -> tensor<2xi1> {\n"
		       "  %0 = stablehlo.popcnt %x : tensor<2xi1>\n"
		       "  return %0 : tensor<2xi1>\n}\n",
		       -EINVAL, "stablehlo.popcnt: not defined on i1");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
		       "  %0 = stablehlo.not %x : tensor<2xf32>\n"
		       "  return %0 : tensor<2xf32>\n}\n",
		       -EINVAL, "not is not defined on floats");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
		       "  %0 = stablehlo.reduce_precision %x, format = e0m3 : tensor<2xf32>\n"
		       "  return %0 : tensor<2xf32>\n}\n",
		       -EINVAL, "exponent_bits 0 is not 1..");
	EXPECT_REFUSED("func.func @main(%x: tensor<3xf32>) -> tensor<f64> {\n"
		       "  %0 = stablehlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<f64>\n"
		       "  return %0 : tensor<f64>\n}\n",
		       -EINVAL, "needs a last dimension of 2");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
		       "  %0 = stablehlo.atan2 %x, %x : tensor<2xi32>\n"
		       "  return %0 : tensor<2xi32>\n}\n",
		       -EINVAL, "defined on floats only");
}

#define ALL_REDUCE(groups, type, body)					\
	"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"	\
	"  %0 = \"stablehlo.all_reduce\"(%x) <{replica_groups = dense<" \
	groups "> : " type "}> ({\n"					\
	"  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"			\
	"    %s = " body " %b, %a : tensor<f32>\n"			\
	"    stablehlo.return %s : tensor<f32>\n"			\
	"  }) : (tensor<4xf32>) -> tensor<4xf32>\n"			\
	"  return %0 : tensor<4xf32>\n}\n"

/*
 * all_reduce over one group of every device in order is the device's
 * ALL_REDUCE, and the function then needs slices of that many devices;
 * other groups are refused.
 */
TEST(all_reduce)
{
	const char *text = ALL_REDUCE("[[0, 1, 2]]", "tensor<1x3xi64>",
				      "stablehlo.maximum");
	struct pw_hlo_lowered low;
	char err[512];

	ASSERT_EQ(0, lower(text, false, &low, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_TRUE(low.fn->collectives);
	ASSERT_EQ(3, low.fn->group_size);
	pw_hlo_lowered_free(&low);
	EXPECT_REFUSED(ALL_REDUCE("[[0, 1], [2, 3]]", "tensor<2x2xi64>",
				  "stablehlo.add"),
		       -EOPNOTSUPP, "one group of every device");
	EXPECT_REFUSED(ALL_REDUCE("[[1, 0]]", "tensor<1x2xi64>",
				  "stablehlo.add"),
		       -EOPNOTSUPP, "must list 0..1 in order");
	EXPECT_REFUSED(ALL_REDUCE("[[0, 1]]", "tensor<1x2xi64>",
				  "stablehlo.subtract"),
		       -EOPNOTSUPP, "a body other than");
	EXPECT_REFUSED(ALL_REDUCE("[0, 1]", "tensor<2xi64>", "stablehlo.add"),
		       -EINVAL, "replica_groups is not a dense 2-D tensor");
}

/*
 * What a review found: an i1 add-reduce is or (128 trues once summed to
 * -128 in i8), dots sum in the result's type as StableHLO converts
 * operands to it first, hex i1 constants are 0 or 1 on the device, clamp
 * takes i1.
 */
TEST(review_cases)
{
	const char *text =
		"func.func @main(%p: tensor<128xi1>, %a: tensor<3xi16>, %u: tensor<1xui32>, %v: tensor<1xui32>, %f: tensor<1xf32>) -> (tensor<i1>, tensor<i64>, tensor<ui64>, tensor<i32>, tensor<i1>, tensor<2xi1>) {\n"
		"  %z = stablehlo.constant dense<false> : tensor<i1>\n"
		"  %0 = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<128xi1>, tensor<i1>) -> tensor<i1>\n"
		"  %1 = stablehlo.dot_general %a, %a, contracting_dims = [0] x [0] : (tensor<3xi16>, tensor<3xi16>) -> tensor<i64>\n"
		"  %2 = stablehlo.dot_general %u, %v, contracting_dims = [0] x [0] : (tensor<1xui32>, tensor<1xui32>) -> tensor<ui64>\n"
		"  %3 = stablehlo.dot_general %f, %f, contracting_dims = [0] x [0] : (tensor<1xf32>, tensor<1xf32>) -> tensor<i32>\n"
		"  %h = stablehlo.constant dense<\"0x02\"> : tensor<i1>\n"
		"  %t = stablehlo.constant dense<true> : tensor<i1>\n"
		"  %4 = stablehlo.xor %h, %t : tensor<i1>\n"
		"  %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>\n"
		"  %5 = stablehlo.clamp %z, %b, %t : (tensor<i1>, tensor<2xi1>, tensor<i1>) -> tensor<2xi1>\n"
		"  return %0, %1, %2, %3, %4, %5 : tensor<i1>, tensor<i64>, tensor<ui64>, tensor<i32>, tensor<i1>, tensor<2xi1>\n"
		"}\n";
	uint8_t p[128], r0, r4, r5[2];
	const int16_t a[3] = { 32767, 32767, 32767 };
	const uint32_t u = 1, v = 0x80000000u;
	const float f = 1.5f;
	const void *in[5] = { p, a, &u, &v, &f };
	int64_t r1;
	uint64_t r2;
	int32_t r3;
	void *out[6] = { &r0, &r1, &r2, &r3, &r4, r5 };

	memset(p, 1, sizeof(p));
	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(1, r0);
	ASSERT_EQ(3221028867LL, r1);
	ASSERT_EQ(0x80000000ULL, r2);
	ASSERT_EQ(1, r3);	/* 1 * 1: each operand converted first */
	ASSERT_EQ(0, r4);
	ASSERT_EQ(1, r5[0]);
	ASSERT_EQ(0, r5[1]);
}

/* Modules that are not valid StableHLO, or too large, found by review. */
TEST(review_refusals)
{
	EXPECT_REFUSED("func.func @main(%a: tensor<2xi8>) -> tensor<2xi64> {\n"
		       "  %0 = \"stablehlo.add\"(%a, %a) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi64>\n"
		       "  return %0 : tensor<2xi64>\n}\n",
		       -EINVAL, "its result type is not what its operands give");
	EXPECT_REFUSED("func.func @main() -> tensor<2147483648x2147483648xf32> {\n"
		       "  %0 = \"stablehlo.constant\"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2147483648x2147483648xf32>\n"
		       "  return %0 : tensor<2147483648x2147483648xf32>\n}\n",
		       -E2BIG, "more than 67108864 elements");
	EXPECT_REFUSED("func.func @main() -> tensor<3x2xf32> {\n"
		       "  %0 = \"stablehlo.constant\"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<3x2xf32>\n"
		       "  return %0 : tensor<3x2xf32>\n}\n",
		       -EINVAL, "the value's shape is not the result's");
	EXPECT_REFUSED("module {\n"
		       "  func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
		       "    %0 = call @f(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
		       "    return %0 : tensor<3x2xf32>\n  }\n"
		       "  func.func private @f(%y: tensor<3x2xf32>) -> tensor<3x2xf32> {\n"
		       "    return %y : tensor<3x2xf32>\n  }\n}\n",
		       -EINVAL, "argument 0 is not of @f's parameter type");
}

/* A check.eq outcome a callee returns stays the host's. */
TEST(verdict_through_a_call)
{
	const char *text =
		"module {\n"
		"  func.func @main() -> tensor<i1> {\n"
		"    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>\n"
		"    %0 = call @f(%c) : (tensor<2xi32>) -> tensor<i1>\n"
		"    return %0 : tensor<i1>\n  }\n"
		"  func.func private @f(%a: tensor<2xi32>) -> tensor<i1> {\n"
		"    %0 = stablehlo.custom_call @check.eq(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<i1>\n"
		"    return %0 : tensor<i1>\n  }\n}\n";
	struct pw_hlo_lowered low;
	char err[512];

	ASSERT_EQ(0, lower(text, true, &low, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(0, low.nmain);
	ASSERT_EQ(1, low.nchecks);
	ASSERT_EQ(2, pw_fn_num_results(low.fn));
	pw_hlo_lowered_free(&low);
}

/* The public call: a function, or the lowering's message in pw_last_error(). */
TEST(public_api)
{
	const char *good =
		"func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
		"  %0 = stablehlo.tanh %x : tensor<4xf32>\n"
		"  return %0 : tensor<4xf32>\n}\n";
	const char *named =
		"module @jit_f {\n"
		"  func.func public @main(%x: tensor<f32>) -> tensor<f32> {\n"
		"    return %x : tensor<f32>\n  }\n}\n";
	struct pw_fn *fn = NULL;

	ASSERT_EQ(0, pw_fn_from_stablehlo(good, strlen(good), NULL, &fn));
	ASSERT_EQ(1, pw_fn_num_params(fn));
	ASSERT_EQ(1, pw_fn_num_results(fn));
	ASSERT_STREQ("main", pw_fn_name(fn));	/* no module name */
	pw_fn_put(fn);
	fn = NULL;
	ASSERT_EQ(0, pw_fn_from_stablehlo(named, strlen(named), NULL, &fn));
	ASSERT_STREQ("jit_f", pw_fn_name(fn));
	pw_fn_put(fn);
	fn = NULL;
	ASSERT_EQ(-EINVAL, pw_fn_from_stablehlo(good, strlen(good), "f",
						&fn));
	ASSERT_NULL(fn);
	ASSERT_NE(NULL, strstr(pw_last_error(), "no function @f"));
	ASSERT_EQ(-EINVAL, pw_fn_from_stablehlo("func.func @main(", 16,
						NULL, &fn));
	ASSERT_NE(NULL, strstr(pw_last_error(), "1:"))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(-ENOENT, pw_fn_from_stablehlo_file("/nonexistent.mlir",
						     NULL, &fn));
	ASSERT_NE(NULL, strstr(pw_last_error(), "/nonexistent.mlir"));
}

/* The corpus beside the checkout, as test_hlo_parse finds it. */
#define CORPUS	"../shared/stablehlo/testdata"

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Each program lowers, verifies and runs on the firmware, or is refused
 * with -EOPNOTSUPP: the corpus is valid StableHLO, so -EINVAL would be
 * the lowering's mistake. Whether the results are right is pwhlo's
 * check (selftests/tools/test_pwhlo.sh).
 */
TEST(corpus)
{
	unsigned int n = 0, lowered = 0, i;
	char path[4096], err[512], **names = NULL;
	struct dirent *de;
	DIR *d;

	d = opendir(CORPUS);
	if (!d)
		SKIP(return, "no %s beside the checkout", CORPUS);
	while ((de = readdir(d))) {
		if (!strstr(de->d_name, ".mlir"))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		ASSERT_NE(NULL, names);
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		struct pw_hlo_module *mod;
		struct pw_hlo_lowered low;
		void *out[PWTPU_MAX_BUFS] = { 0 };
		unsigned int r;
		int ret;

		snprintf(path, sizeof(path), "%s/%s", CORPUS, names[i]);
		ASSERT_EQ(0, pw_hlo_parse_file(path, &mod, err, sizeof(err)))
			TH_LOG("%s", err);
		ret = pw_hlo_lower(mod, NULL, true, &low, err, sizeof(err));
		pw_hlo_free(mod);
		if (ret == -EOPNOTSUPP)
			continue;
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", names[i], err);
		ASSERT_EQ(0, pw_fn_num_params(low.fn));
		for (r = 0; r < pw_fn_num_results(low.fn); r++) {
			out[r] = malloc(pw_sig_bytes(&low.fn->results[r]));
			ASSERT_NE(NULL, out[r]);
		}
		ASSERT_EQ(0, test_fn_exec(low.fn, NULL, out))
			TH_LOG("%s", names[i]);
		for (r = 0; r < pw_fn_num_results(low.fn); r++)
			free(out[r]);
		pw_hlo_lowered_free(&low);
		lowered++;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	TH_LOG("%u of %u programs lower and run", lowered, n);
	ASSERT_LE(1000, n);
	ASSERT_LE(90, lowered);
}

TEST_HARNESS_MAIN
