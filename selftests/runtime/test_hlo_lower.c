// SPDX-License-Identifier: GPL-2.0
/*
 * test_hlo_lower.c - StableHLO modules lowered to compiled functions
 * (runtime/hlo/hlo_lower*.c, pw_fn_from_stablehlo()): each module here
 * is run by the firmware's interpreter on host memory and its results
 * compared with values worked out by hand; every refusal is checked for
 * its errno and for naming what it refuses, where. Every program of the
 * StableHLO test suite either lowers, verifies and runs, or is refused
 * as not supported (or past the device's limits): never as invalid.
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

/*
 * dot_general with batch dimensions and several contracting ones, in any
 * order: f32 on the array one batch at a time, i32 by the element-wise
 * ops, batch dimensions that are not leading, a result of batch
 * dimensions only.
 */
TEST(dot_general_batch)
{
	const char *text =
		"func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x2xf32>, %p: tensor<2x3x4xi32>, %q: tensor<4x2x5xi32>, %u: tensor<3x2xi32>, %w: tensor<2x3xi32>, %c: tensor<2x2x3xi8>, %e: tensor<2x3x2xi8>) -> (tensor<2x3x2xf32>, tensor<3x5xi32>, tensor<2xi32>, tensor<2x3x5xi32>, tensor<2x2x2xi32>) {\n"
		"  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x2xf32>) -> tensor<2x3x2xf32>\n"
		"  %1 = stablehlo.dot_general %p, %q, contracting_dims = [0, 2] x [1, 0] : (tensor<2x3x4xi32>, tensor<4x2x5xi32>) -> tensor<3x5xi32>\n"
		"  %2 = stablehlo.dot_general %u, %w, batching_dims = [1] x [0], contracting_dims = [0] x [1] : (tensor<3x2xi32>, tensor<2x3xi32>) -> tensor<2xi32>\n"
		"  %3 = stablehlo.dot_general %p, %q, batching_dims = [0] x [1], contracting_dims = [2] x [0] : (tensor<2x3x4xi32>, tensor<4x2x5xi32>) -> tensor<2x3x5xi32>\n"
		"  %4 = stablehlo.dot_general %c, %e, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xi8>, tensor<2x3x2xi8>) -> tensor<2x2x2xi32>\n"
		"  return %0, %1, %2, %3, %4 : tensor<2x3x2xf32>, tensor<3x5xi32>, tensor<2xi32>, tensor<2x3x5xi32>, tensor<2x2x2xi32>\n"
		"}\n";
	float a[24], b[16], y0[12];
	int32_t p[24], q[40], u[6], w[6], y1[15], y2[2], y3[30], y4[8];
	int8_t c[12], e[12];
	const void *in[8] = { a, b, p, q, u, w, c, e };
	void *out[5] = { y0, y1, y2, y3, y4 };
	int i, j, k, l, n;

	for (i = 0; i < 12; i++) {
		c[i] = (int8_t)(i * 23 - 120);
		e[i] = (int8_t)(100 - i * 19);
	}

	for (i = 0; i < 24; i++) {
		a[i] = (float)(i % 7) - 3;
		p[i] = i * 3 - 20;
	}
	for (i = 0; i < 16; i++)
		b[i] = (float)(i % 5) * 0.5f;
	for (i = 0; i < 40; i++)
		q[i] = 17 - i;
	for (i = 0; i < 6; i++) {
		u[i] = i + 1;
		w[i] = 2 * i - 5;
	}
	ASSERT_EQ(0, lower_run(text, in, out));
	/* y0[n,i,j] = sum_k a[n,i,k] b[n,k,j] */
	for (n = 0; n < 2; n++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 2; j++) {
				float s = 0;

				for (k = 0; k < 4; k++)
					s += a[(n * 3 + i) * 4 + k] *
					     b[(n * 4 + k) * 2 + j];
				ASSERT_EQ(s, y0[(n * 3 + i) * 2 + j]);
			}
	/* y1[i,j] = sum_{k,l} p[k,i,l] q[l,k,j] */
	for (i = 0; i < 3; i++)
		for (j = 0; j < 5; j++) {
			int32_t s = 0;

			for (k = 0; k < 2; k++)
				for (l = 0; l < 4; l++)
					s += p[(k * 3 + i) * 4 + l] *
					     q[(l * 2 + k) * 5 + j];
			ASSERT_EQ(s, y1[i * 5 + j]);
		}
	/* y2[n] = sum_k u[k,n] w[n,k] */
	for (n = 0; n < 2; n++) {
		int32_t s = 0;

		for (k = 0; k < 3; k++)
			s += u[k * 2 + n] * w[n * 3 + k];
		ASSERT_EQ(s, y2[n]);
	}
	/* y3[n,i,j] = sum_k p[n,i,k] q[k,n,j] */
	for (n = 0; n < 2; n++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 5; j++) {
				int32_t s = 0;

				for (k = 0; k < 4; k++)
					s += p[(n * 3 + i) * 4 + k] *
					     q[(k * 2 + n) * 5 + j];
				ASSERT_EQ(s, y3[(n * 3 + i) * 5 + j]);
			}
	/* y4[n,i,j] = sum_k c[n,i,k] e[n,k,j], i8 into i32 on the array */
	for (n = 0; n < 2; n++)
		for (i = 0; i < 2; i++)
			for (j = 0; j < 2; j++) {
				int32_t s = 0;

				for (k = 0; k < 3; k++)
					s += c[(n * 2 + i) * 3 + k] *
					     e[(n * 3 + k) * 2 + j];
				ASSERT_EQ(s, y4[(n * 2 + i) * 2 + j]);
			}
}

/* A dot_general's dimension numbers that do not fit its operands. */
TEST(dot_general_refused)
{
	EXPECT_REFUSED("func.func @main(%a: tensor<2x3xf32>) -> tensor<f32> {\n"
		       "  %0 = stablehlo.dot_general %a, %a, batching_dims = [0] x [], contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EINVAL, "differ in their number of batch or contracting dimensions");
	EXPECT_REFUSED("func.func @main(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {\n"
		       "  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1, 1] x [1, 0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>\n"
		       "  return %0 : tensor<2x2xf32>\n}\n",
		       -EINVAL, "lhs dimension 1 is out of range or named twice");
	EXPECT_REFUSED("func.func @main(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {\n"
		       "  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>\n"
		       "  return %0 : tensor<2x2xf32>\n}\n",
		       -EINVAL, "lhs dimension 1 and rhs dimension 0 differ in extent");
	EXPECT_REFUSED("func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
		       "  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x2xf32>\n"
		       "  return %0 : tensor<3x2xf32>\n}\n",
		       -EINVAL, "the result is not the batch, then lhs's free, then rhs's free dimensions");
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
		       "  %0 = chlo.broadcast_add %x, %x : tensor<f32>, tensor<f32> -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EOPNOTSUPP, "2:3: chlo.broadcast_add: not supported yet");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {\n"
		       "  return %x : tensor<2xcomplex<f32>>\n}\n",
		       -EOPNOTSUPP, "element type complex<f32>");
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
	EXPECT_REFUSED("func.func @main(%x: tensor<100xf32>) -> tensor<1xf32> {\n"
		       "  %c = stablehlo.constant dense<1.0> : tensor<f32>\n"
		       "  %0 = \"stablehlo.reduce_window\"(%x, %c, %x) <{window_dimensions = array<i64: 100>}> ({\n"
		       "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		       "    %s = stablehlo.multiply %a, %b : tensor<f32>\n"
		       "    stablehlo.return %s : tensor<f32>\n"
		       "  }) : (tensor<100xf32>, tensor<f32>, tensor<100xf32>) -> tensor<1xf32>\n"
		       "  return %0 : tensor<1xf32>\n}\n",
		       -EINVAL, "as many init values and as many results");
	EXPECT_REFUSED("func.func @main(%x: tensor<3xf32>) -> tensor<4xf32> {\n"
		       "  %c = stablehlo.constant dense<1.0> : tensor<f32>\n"
		       "  %0 = \"stablehlo.reduce_window\"(%x, %c) ({\n"
		       "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		       "    %s = stablehlo.add %a, %b : tensor<f32>\n"
		       "    stablehlo.return %s : tensor<f32>\n"
		       "  }) : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>\n"
		       "  return %0 : tensor<4xf32>\n}\n",
		       -EINVAL, "has no window_dimensions");
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

/*
 * f64 exponential, log and tanh on the device (UAPI 6), correctly
 * rounded here; rsqrt 1 / sqrt(x) rounded twice, as the reference
 * interpreter computes it.
 */
TEST(f64_math)
{
	const char *text =
		"func.func @main(%d: tensor<5xf64>) -> (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>) {\n"
		"  %0 = stablehlo.exponential %d : tensor<5xf64>\n"
		"  %1 = stablehlo.log %d : tensor<5xf64>\n"
		"  %2 = stablehlo.tanh %d : tensor<5xf64>\n"
		"  %3 = stablehlo.rsqrt %d : tensor<5xf64>\n"
		"  return %0, %1, %2, %3 : tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>\n"
		"}\n";
	const double d[5] = { 0.5, 1e-10, 3.0, 700.0, -0.0 };
	const void *in[1] = { d };
	double ex[5], lg[5], th[5], rs[5];
	void *out[4] = { ex, lg, th, rs };
	int i;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 5; i++) {
		volatile double r = sqrt(d[i]);

		ASSERT_EQ((double)expl(d[i]), ex[i]);
		ASSERT_EQ((double)logl(d[i]), lg[i]);
		ASSERT_EQ((double)tanhl(d[i]), th[i]);
		r = 1.0 / r;
		ASSERT_EQ(r, rs[i]);
	}
	ASSERT_TRUE(signbit(th[4]));
	ASSERT_TRUE(isinf(rs[4]) && rs[4] < 0);
	ASSERT_TRUE(isinf(lg[4]) && lg[4] < 0);
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

/*
 * scatter with every combiner: rows of f32[4,3] at i32 indices [1, 3,
 * 1] (repeated row 1 combines twice, in order; index_vector_dim 1 of
 * [3,1]), and on i1 add (or) and multiply (and).
 */
TEST(scatter_combiners)
{
	static const char *const bodies[] = {
		"    stablehlo.return %y : tensor<f32>\n",
		"    %s = stablehlo.add %x, %y : tensor<f32>\n"
		"    stablehlo.return %s : tensor<f32>\n",
		"    %s = stablehlo.multiply %y, %x : tensor<f32>\n"
		"    stablehlo.return %s : tensor<f32>\n",
		"    %s = stablehlo.minimum %x, %y : tensor<f32>\n"
		"    stablehlo.return %s : tensor<f32>\n",
		"    %s = stablehlo.maximum %x, %y : tensor<f32>\n"
		"    stablehlo.return %s : tensor<f32>\n",
	};
	const float a[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	const float u[9] = { 2, -1, 0, 3, 3, 3, 10, 1, -5 };
	const int32_t i[3] = { 1, 3, 1 };
	const float want[5][12] = {
		{ 1, 2, 3, 10, 1, -5, 7, 8, 9, 3, 3, 3 },
		{ 1, 2, 3, 16, 5, 1, 7, 8, 9, 13, 14, 15 },
		{ 1, 2, 3, 80, -5, -0.0f, 7, 8, 9, 30, 33, 36 },
		{ 1, 2, 3, 2, -1, -5, 7, 8, 9, 3, 3, 3 },
		{ 1, 2, 3, 10, 5, 6, 7, 8, 9, 10, 11, 12 },
	};
	const void *in[3] = { a, i, u };
	unsigned int m;
	char text[2048];
	float y[12];
	void *out[1] = { y };

	for (m = 0; m < 5; m++) {
		snprintf(text, sizeof(text),
			 "func.func @main(%%a: tensor<4x3xf32>, %%i: tensor<3x1xi32>, %%u: tensor<3x3xf32>) -> tensor<4x3xf32> {\n"
			 "  %%r = \"stablehlo.scatter\"(%%a, %%i, %%u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({\n"
			 "  ^bb0(%%x: tensor<f32>, %%y: tensor<f32>):\n%s"
			 "  }) : (tensor<4x3xf32>, tensor<3x1xi32>, tensor<3x3xf32>) -> tensor<4x3xf32>\n"
			 "  return %%r : tensor<4x3xf32>\n}\n", bodies[m]);
		ASSERT_EQ(0, lower_run(text, in, out)) TH_LOG("body %u", m);
		EXPECT_EQ(0, memcmp(want[m], y, sizeof(y))) TH_LOG("body %u", m);
	}
}

/*
 * On i1, add is or and multiply is and; the default index_vector_dim is
 * 0, and a u64 index past the end (or an i64 -1) drops its update.
 */
TEST(scatter_i1_and_defaults)
{
	const char *text =
		"func.func @main(%a: tensor<4xi1>, %u: tensor<i1>, %j: tensor<1xui64>, %k: tensor<1xi64>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {\n"
		"  %c = stablehlo.constant dense<[2]> : tensor<1xi32>\n"
		"  %0 = \"stablehlo.scatter\"(%a, %c, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({\n"
		"  ^bb0(%x: tensor<i1>, %y: tensor<i1>):\n"
		"    %s = stablehlo.add %x, %y : tensor<i1>\n"
		"    stablehlo.return %s : tensor<i1>\n"
		"  }) : (tensor<4xi1>, tensor<1xi32>, tensor<i1>) -> tensor<4xi1>\n"
		"  %1 = \"stablehlo.scatter\"(%0, %j, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({\n"
		"  ^bb0(%x: tensor<i1>, %y: tensor<i1>):\n"
		"    %s = stablehlo.multiply %y, %x : tensor<i1>\n"
		"    stablehlo.return %s : tensor<i1>\n"
		"  }) : (tensor<4xi1>, tensor<1xui64>, tensor<i1>) -> tensor<4xi1>\n"
		"  %2 = \"stablehlo.scatter\"(%0, %k, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({\n"
		"  ^bb0(%x: tensor<i1>, %y: tensor<i1>):\n"
		"    stablehlo.return %y : tensor<i1>\n"
		"  }) : (tensor<4xi1>, tensor<1xi64>, tensor<i1>) -> tensor<4xi1>\n"
		"  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>\n"
		"}\n";
	const uint8_t a[4] = { 1, 0, 1, 1 }, one = 1, zero = 0;
	const uint64_t j_in = 3, j_out = ~0ULL;
	const int64_t k_in = 0, k_out = -1;
	uint8_t y0[4], y1[4], y2[4];
	const void *in[4] = { a, &one, &j_in, &k_in };
	void *out[3] = { y0, y1, y2 };
	const uint8_t w0[4] = { 1, 0, 1, 1 }, w1[4] = { 1, 0, 1, 1 };
	const uint8_t w2[4] = { 1, 0, 1, 1 };

	/* or with 1 at 2, and with 1 at 3, set 1 at 0: all as they were. */
	ASSERT_EQ(0, lower_run(text, in, out));
	EXPECT_EQ(0, memcmp(w0, y0, 4));
	EXPECT_EQ(0, memcmp(w1, y1, 4));
	EXPECT_EQ(0, memcmp(w2, y2, 4));
	/* Now with 0: or keeps, and clears element 3, set clears 0. */
	in[1] = &zero;
	ASSERT_EQ(0, lower_run(text, in, out));
	EXPECT_EQ(0, memcmp(w0, y0, 4));
	EXPECT_EQ(0, y1[3]);
	EXPECT_EQ(0, y2[0]);
	EXPECT_EQ(1, y2[2]);
	/* Out of bounds: nothing changes. */
	in[2] = &j_out;
	in[3] = &k_out;
	ASSERT_EQ(0, lower_run(text, in, out));
	EXPECT_EQ(0, memcmp(w0, y1, 4));
	EXPECT_EQ(0, memcmp(w0, y2, 4));
}

/*
 * gather: rows at i64 indices (one clamped), and a batching gather
 * (take along axis 1: result[b] = x[b, idx[b]]) with the implicit
 * index vector dimension.
 */
TEST(gather)
{
	const char *text =
		"func.func @main(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %t: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xf32>) {\n"
		"  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>\n"
		"  %1 = \"stablehlo.gather\"(%x, %t) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<4xf32>\n"
		"  return %0, %1 : tensor<2x3xf32>, tensor<4xf32>\n"
		"}\n";
	const float x[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	const int64_t i[2] = { 2, 9 };
	const int32_t t[4] = { 2, -3, 1, 0 };
	const float w0[6] = { 7, 8, 9, 10, 11, 12 }, w1[4] = { 3, 4, 8, 10 };
	const void *in[3] = { x, i, t };
	float y0[6], y1[4];
	void *out[2] = { y0, y1 };

	ASSERT_EQ(0, lower_run(text, in, out));
	EXPECT_EQ(0, memcmp(w0, y0, sizeof(y0)));
	EXPECT_EQ(0, memcmp(w1, y1, sizeof(y1)));
}

#define SCATTER_BODY(body)						\
	"func.func @main(%a: tensor<4xi32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> tensor<4xi32> {\n" \
	"  %r = \"stablehlo.scatter\"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n" \
	"  ^bb0(%x: tensor<i32>, %y: tensor<i32>):\n"			\
	body								\
	"  }) : (tensor<4xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<4xi32>\n" \
	"  return %r : tensor<4xi32>\n}\n"

TEST(scatter_gather_refusals)
{
	EXPECT_REFUSED(SCATTER_BODY("    %s = stablehlo.subtract %x, %y : tensor<i32>\n"
				    "    stablehlo.return %s : tensor<i32>\n"),
		       -EOPNOTSUPP,
		       "2:3: stablehlo.scatter: an update computation of stablehlo.subtract is not supported yet");
	EXPECT_REFUSED(SCATTER_BODY("    stablehlo.return %x : tensor<i32>\n"),
		       -EOPNOTSUPP,
		       "an update computation that returns the input is not supported yet");
	EXPECT_REFUSED(SCATTER_BODY("    %s = stablehlo.or %x, %y : tensor<i32>\n"
				    "    stablehlo.return %s : tensor<i32>\n"),
		       -EOPNOTSUPP,
		       "an update computation of stablehlo.or on i32 is not supported yet");
	EXPECT_REFUSED(SCATTER_BODY("    %s = stablehlo.add %x, %x : tensor<i32>\n"
				    "    stablehlo.return %s : tensor<i32>\n"),
		       -EOPNOTSUPP,
		       "an update computation of stablehlo.add is not supported");
	/* Two inputs scattered together. */
	EXPECT_REFUSED("func.func @main(%a: tensor<4xi32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>) {\n"
		       "  %r:2 = \"stablehlo.scatter\"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
		       "  ^bb0(%x: tensor<i32>, %x2: tensor<i32>, %y: tensor<i32>, %y2: tensor<i32>):\n"
		       "    stablehlo.return %y, %y2 : tensor<i32>, tensor<i32>\n"
		       "  }) : (tensor<4xi32>, tensor<4xi32>, tensor<2x1xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>)\n"
		       "  return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>\n}\n",
		       -EOPNOTSUPP, "scatters 2 inputs together: only one is supported yet");
	/* A body of another (promoted) element type. */
	EXPECT_REFUSED("func.func @main(%a: tensor<4xi32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> tensor<4xi64> {\n"
		       "  %r = \"stablehlo.scatter\"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
		       "  ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
		       "    stablehlo.return %y : tensor<i64>\n"
		       "  }) : (tensor<4xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<4xi64>\n"
		       "  return %r : tensor<4xi64>\n}\n",
		       -EOPNOTSUPP, "another element type");
	/* Not valid StableHLO: unsorted update_window_dims, no numbers. */
	EXPECT_REFUSED("func.func @main(%a: tensor<2x3xi32>, %i: tensor<1xi32>, %u: tensor<2x3xi32>) -> tensor<2x3xi32> {\n"
		       "  %r = \"stablehlo.scatter\"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 0], scatter_dims_to_operand_dims = [0]>}> ({\n"
		       "  ^bb0(%x: tensor<i32>, %y: tensor<i32>):\n"
		       "    stablehlo.return %y : tensor<i32>\n"
		       "  }) : (tensor<2x3xi32>, tensor<1xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>\n"
		       "  return %r : tensor<2x3xi32>\n}\n",
		       -EINVAL, "pw_fn_scatter: update_window_dims [1, 0] is not sorted");
	EXPECT_REFUSED("func.func @main(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {\n"
		       "  %0 = \"stablehlo.gather\"(%x, %i) <{slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>\n"
		       "  return %0 : tensor<2x3xf32>\n}\n",
		       -EINVAL, "2:3: stablehlo.gather: no dimension_numbers");
	/* A result the operands do not give. */
	EXPECT_REFUSED("func.func @main(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>) -> tensor<3x3xf32> {\n"
		       "  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<3x3xf32>\n"
		       "  return %0 : tensor<3x3xf32>\n}\n",
		       -EINVAL, "its result type is not what its operands give");
	EXPECT_REFUSED("func.func @main(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {\n"
		       "  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3, 1>}> : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>\n"
		       "  return %0 : tensor<2x3xf32>\n}\n",
		       -EINVAL, "slice_sizes has 3 entries for an operand of rank 2");
	/* What the device cannot hold: a result of rank 5. */
	EXPECT_REFUSED("func.func @main(%x: tensor<4x3x2xf32>, %i: tensor<2x2x2x1xi64>) -> tensor<2x2x2x3x2xf32> {\n"
		       "  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 3, 2>}> : (tensor<4x3x2xf32>, tensor<2x2x2x1xi64>) -> tensor<2x2x2x3x2xf32>\n"
		       "  return %0 : tensor<2x2x2x3x2xf32>\n}\n",
		       -EOPNOTSUPP, "rank 5");
}

/*
 * concatenate, pad, reverse and strided slices: scatters and gathers of
 * places fixed by the attributes, checked against loops over the spec's
 * definitions.
 */
TEST(placed_elements)
{
	const char *text =
		"func.func @main(%x: tensor<2x3xi32>, %y: tensor<2x1xi32>, %f: tensor<3x4xf32>, %p: tensor<f32>) -> (tensor<2x7xi32>, tensor<6x5xf32>, tensor<2x3xi32>, tensor<2x2xf32>, tensor<3x4xf32>) {\n"
		"  %0 = stablehlo.concatenate %x, %y, %x, dim = 1 : (tensor<2x3xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<2x7xi32>\n"
		"  %1 = stablehlo.pad %f, %p, low = [-1, 1], high = [2, -3], interior = [1, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<6x5xf32>\n"
		"  %2 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xi32>\n"
		"  %3 = stablehlo.slice %f [0:3:2, 1:4:2] : (tensor<3x4xf32>) -> tensor<2x2xf32>\n"
		"  %4 = stablehlo.reverse %f, dims = [1] : tensor<3x4xf32>\n"
		"  return %0, %1, %2, %3, %4 : tensor<2x7xi32>, tensor<6x5xf32>, tensor<2x3xi32>, tensor<2x2xf32>, tensor<3x4xf32>\n"
		"}\n";
	const int32_t x[6] = { 1, 2, 3, 4, 5, 6 }, y[2] = { -7, -8 };
	const float pad = -0.5f;
	float f[12], r1[30], r3[4], r4[12];
	int32_t r0[14], r2[6];
	const void *in[4] = { x, y, f, &pad };
	void *out[5] = { r0, r1, r2, r3, r4 };
	int i, j;

	for (i = 0; i < 12; i++)
		f[i] = (float)i + 0.25f;
	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 7; j++)
			ASSERT_EQ(j < 3 ? x[i * 3 + j] : j == 3 ? y[i] :
				  x[i * 3 + j - 4], r0[i * 7 + j]);
	/* Result (i, j) holds f(a, b) where i = -1 + 2a and j = 1 + 2b. */
	for (i = 0; i < 6; i++)
		for (j = 0; j < 5; j++) {
			int a = (i + 1) / 2, b = (j - 1) / 2;
			bool hit = (i + 1) % 2 == 0 && a < 3 &&
				   j >= 1 && (j - 1) % 2 == 0 && b < 4;

			ASSERT_EQ(hit ? f[a * 4 + b] : pad, r1[i * 5 + j])
				TH_LOG("pad (%d, %d)", i, j);
		}
	for (i = 0; i < 6; i++)
		ASSERT_EQ(x[5 - i], r2[i]);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			ASSERT_EQ(f[i * 2 * 4 + 1 + j * 2], r3[i * 2 + j]);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			ASSERT_EQ(f[i * 4 + 3 - j], r4[i * 4 + j]);
}

/*
 * dynamic_slice and dynamic_update_slice clamp their start indices into
 * the operand, whatever their integer type and value.
 */
TEST(dynamic_slices)
{
	const char *text =
		"func.func @main(%x: tensor<4x5xf32>, %u: tensor<2x2xf32>, %i: tensor<i64>, %j: tensor<ui32>, %k: tensor<i8>) -> (tensor<2x3xf32>, tensor<4x5xf32>, tensor<1xf32>) {\n"
		"  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<4x5xf32>, tensor<i64>, tensor<ui32>) -> tensor<2x3xf32>\n"
		"  %1 = stablehlo.dynamic_update_slice %x, %u, %k, %i : (tensor<4x5xf32>, tensor<2x2xf32>, tensor<i8>, tensor<i64>) -> tensor<4x5xf32>\n"
		"  %r = stablehlo.reshape %x : (tensor<4x5xf32>) -> tensor<20xf32>\n"
		"  %2 = stablehlo.dynamic_slice %r, %k, sizes = [1] : (tensor<20xf32>, tensor<i8>) -> tensor<1xf32>\n"
		"  return %0, %1, %2 : tensor<2x3xf32>, tensor<4x5xf32>, tensor<1xf32>\n"
		"}\n";
	static const struct {
		int64_t i;
		uint32_t j;
		int8_t k;
	} cases[] = {
		{ 1, 1, 2 }, { -5, 0xffffffffu, -128 }, { INT64_MAX, 3, 127 },
		{ INT64_MIN, 2, 1 }, { 2, 0x80000000u, -1 },
	};
	const float u[4] = { -1, -2, -3, -4 };
	float x[20], r0[6], r1[20], r2;
	void *out[3] = { r0, r1, &r2 };
	unsigned int c;
	int a, b;

	for (a = 0; a < 20; a++)
		x[a] = (float)a;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const void *in[5] = { x, u, &cases[c].i, &cases[c].j,
				      &cases[c].k };
		int64_t i0 = cases[c].i < 0 ? 0 : cases[c].i > 2 ? 2 : cases[c].i;
		int64_t j0 = cases[c].j > 2 ? 2 : cases[c].j;
		int64_t k0 = cases[c].k < 0 ? 0 : cases[c].k > 2 ? 2 : cases[c].k;
		int64_t i1 = cases[c].i < 0 ? 0 : cases[c].i > 3 ? 3 : cases[c].i;
		int64_t k2 = cases[c].k < 0 ? 0 : cases[c].k > 19 ? 19 : cases[c].k;

		ASSERT_EQ(0, lower_run(text, in, out));
		for (a = 0; a < 2; a++)
			for (b = 0; b < 3; b++)
				ASSERT_EQ(x[(i0 + a) * 5 + j0 + b], r0[a * 3 + b])
					TH_LOG("case %u", c);
		for (a = 0; a < 4; a++)
			for (b = 0; b < 5; b++) {
				bool in_u = a >= k0 && a < k0 + 2 &&
					    b >= i1 && b < i1 + 2;

				ASSERT_EQ(in_u ? u[(a - k0) * 2 + b - i1] :
					  x[a * 5 + b], r1[a * 5 + b])
					TH_LOG("case %u", c);
			}
		ASSERT_EQ(x[k2], r2);
	}
}

/*
 * reduce_window: a running sum (the cumsum JAX emits: a window of 3
 * padded by 2 at the front), a strided max pool, and dilations of the
 * base and the window, against loops over the spec's definition.
 */
TEST(reduce_window)
{
	const char *text =
		"func.func @main(%x: tensor<5xi32>, %f: tensor<4x4xf32>) -> (tensor<5xi32>, tensor<2x2xf32>, tensor<9xi32>) {\n"
		"  %z = stablehlo.constant dense<0> : tensor<i32>\n"
		"  %0 = \"stablehlo.reduce_window\"(%x, %z) <{padding = dense<[[2, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>}> ({\n"
		"  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
		"    %s = stablehlo.add %a, %b : tensor<i32>\n"
		"    stablehlo.return %s : tensor<i32>\n"
		"  }) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>\n"
		"  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
		"  %1 = \"stablehlo.reduce_window\"(%f, %m) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({\n"
		"  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		"    %s = stablehlo.maximum %a, %b : tensor<f32>\n"
		"    stablehlo.return %s : tensor<f32>\n"
		"  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>\n"
		"  %2 = \"stablehlo.reduce_window\"(%x, %z) <{base_dilations = array<i64: 2>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>}> ({\n"
		"  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
		"    %s = stablehlo.add %a, %b : tensor<i32>\n"
		"    stablehlo.return %s : tensor<i32>\n"
		"  }) : (tensor<5xi32>, tensor<i32>) -> tensor<9xi32>\n"
		"  return %0, %1, %2 : tensor<5xi32>, tensor<2x2xf32>, tensor<9xi32>\n"
		"}\n";
	const int32_t x[5] = { 1, 20, 300, 4000, 50000 };
	float f[16], r1[4];
	int32_t r0[5], r2[9], d[11];
	const void *in[2] = { x, f };
	void *out[3] = { r0, r1, r2 };
	int i, j;

	for (i = 0; i < 16; i++)
		f[i] = (float)((i * 7) % 16);
	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 5; i++)
		ASSERT_EQ((i >= 2 ? x[i - 2] : 0) + (i >= 1 ? x[i - 1] : 0) +
			  x[i], r0[i]);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			float m = fmaxf(fmaxf(f[i * 8 + j * 2], f[i * 8 + j * 2 + 1]),
					fmaxf(f[i * 8 + 4 + j * 2],
					      f[i * 8 + 4 + j * 2 + 1]));

			ASSERT_EQ(m, r1[i * 2 + j]);
		}
	/* Padded base: 0 x0 0 x1 0 x2 0 x3 0 x4 0; windows {i, i + 2}. */
	memset(d, 0, sizeof(d));
	for (i = 0; i < 5; i++)
		d[1 + 2 * i] = x[i];
	for (i = 0; i < 9; i++)
		ASSERT_EQ(d[i] + d[i + 2], r2[i]) TH_LOG("window %d", i);
}

/*
 * reduce_window over windows past 64 positions (reduced by doubling
 * spans), and of two operands (a value and its index: the first largest
 * wins, as select_and_gather's body picks), small and large, against
 * loops over the spec's definition.
 */
TEST(reduce_window_large)
{
	const char *text =
		"func.func @main(%x: tensor<130xi32>, %f: tensor<4x90xf32>, %v: tensor<80xf32>, %t: tensor<2x40xf32>, %ti: tensor<2x40xi32>) -> (tensor<3xi32>, tensor<2x6xf32>, tensor<11xf32>, tensor<11xi32>, tensor<78xi32>, tensor<1x1xi32>) {\n"
		"  %z = stablehlo.constant dense<0> : tensor<i32>\n"
		"  %0 = \"stablehlo.reduce_window\"(%x, %z) <{window_dimensions = array<i64: 100>, window_strides = array<i64: 15>}> ({\n"
		"  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
		"    %s = stablehlo.add %a, %b : tensor<i32>\n"
		"    stablehlo.return %s : tensor<i32>\n"
		"  }) : (tensor<130xi32>, tensor<i32>) -> tensor<3xi32>\n"
		"  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
		"  %1 = \"stablehlo.reduce_window\"(%f, %ninf) <{window_dimensions = array<i64: 2, 65>, window_strides = array<i64: 2, 5>}> ({\n"
		"  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		"    %s = stablehlo.maximum %a, %b : tensor<f32>\n"
		"    stablehlo.return %s : tensor<f32>\n"
		"  }) : (tensor<4x90xf32>, tensor<f32>) -> tensor<2x6xf32>\n"
		"  %i = stablehlo.iota dim = 0 : tensor<80xi32>\n"
		"  %2:2 = \"stablehlo.reduce_window\"(%v, %i, %ninf, %z) <{window_dimensions = array<i64: 70>}> ({\n"
		"  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):\n"
		"    %g = stablehlo.compare  GT, %b, %a,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    %m = stablehlo.select %g, %b, %a : tensor<i1>, tensor<f32>\n"
		"    %mi = stablehlo.select %g, %bi, %ai : tensor<i1>, tensor<i32>\n"
		"    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>\n"
		"  }) : (tensor<80xf32>, tensor<80xi32>, tensor<f32>, tensor<i32>) -> (tensor<11xf32>, tensor<11xi32>)\n"
		"  %3:2 = \"stablehlo.reduce_window\"(%v, %i, %ninf, %z) <{window_dimensions = array<i64: 3>}> ({\n"
		"  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):\n"
		"    %g = stablehlo.compare  GT, %b, %a,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    %m = stablehlo.select %g, %b, %a : tensor<i1>, tensor<f32>\n"
		"    %mi = stablehlo.select %g, %bi, %ai : tensor<i1>, tensor<i32>\n"
		"    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>\n"
		"  }) : (tensor<80xf32>, tensor<80xi32>, tensor<f32>, tensor<i32>) -> (tensor<78xf32>, tensor<78xi32>)\n"
		"  %4:2 = \"stablehlo.reduce_window\"(%t, %ti, %ninf, %z) <{window_dimensions = array<i64: 2, 40>}> ({\n"
		"  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):\n"
		"    %g = stablehlo.compare  GT, %b, %a,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    %m = stablehlo.select %g, %b, %a : tensor<i1>, tensor<f32>\n"
		"    %mi = stablehlo.select %g, %bi, %ai : tensor<i1>, tensor<i32>\n"
		"    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>\n"
		"  }) : (tensor<2x40xf32>, tensor<2x40xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x1xf32>, tensor<1x1xi32>)\n"
		"  return %0, %1, %2#0, %2#1, %3#1, %4#1 : tensor<3xi32>, tensor<2x6xf32>, tensor<11xf32>, tensor<11xi32>, tensor<78xi32>, tensor<1x1xi32>\n"
		"}\n";
	int32_t x[130], r0[3], r3[11], r4[78], ti[80], r5;
	float f[360], v[80], r1[12], r2[11], t[80] = { 0 };
	const void *in[5] = { x, f, v, t, ti };
	void *out[6] = { r0, r1, r2, r3, r4, &r5 };
	int i, j, k, best;

	/* Two equal largest, at (0, 5) and (1, 2): row-major takes (0, 5). */
	t[5] = 9;
	t[40 + 2] = 9;
	for (i = 0; i < 80; i++)
		ti[i] = i;

	for (i = 0; i < 130; i++)
		x[i] = i * i - 7 * i;
	for (i = 0; i < 360; i++)
		f[i] = (float)((i * 37) % 101) - 50;
	for (i = 0; i < 80; i++)
		v[i] = (float)((i * 13) % 17);	/* many ties */
	ASSERT_EQ(0, lower_run(text, in, out));
	for (j = 0; j < 3; j++) {
		int32_t s = 0;

		for (i = 0; i < 100; i++)
			s += x[15 * j + i];
		ASSERT_EQ(s, r0[j]);
	}
	for (i = 0; i < 2; i++)
		for (j = 0; j < 6; j++) {
			float m = -INFINITY;

			for (k = 0; k < 65; k++)
				m = fmaxf(m, fmaxf(f[(2 * i) * 90 + 5 * j + k],
						   f[(2 * i + 1) * 90 + 5 * j + k]));
			ASSERT_EQ(m, r1[i * 6 + j]);
		}
	for (j = 0; j < 11; j++) {
		for (best = j, k = j + 1; k < j + 70; k++)
			if (v[k] > v[best])
				best = k;
		ASSERT_EQ(v[best], r2[j]);
		ASSERT_EQ(best, r3[j]) TH_LOG("window %d", j);
	}
	for (j = 0; j < 78; j++) {
		for (best = j, k = j + 1; k < j + 3; k++)
			if (v[k] > v[best])
				best = k;
		ASSERT_EQ(best, r4[j]) TH_LOG("window %d", j);
	}
	ASSERT_EQ(5, r5);
}

/*
 * Bodies other than one op, and several operands reduced together: JAX's
 * argmax (ties to the lower index, NaN wins), a product over an odd
 * extent, a three-op body over two dimensions, and a reduce_window whose
 * body is a compare and select.
 */
TEST(reduce_bodies)
{
	const char *text =
		"func.func @main(%x: tensor<3x5xf32>, %n: tensor<7xi32>) -> (tensor<3xi32>, tensor<i32>, tensor<i32>, tensor<5xf32>) {\n"
		"  %i = stablehlo.iota dim = 1 : tensor<3x5xi32>\n"
		"  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
		"  %z = stablehlo.constant dense<0> : tensor<i32>\n"
		"  %0:2 = stablehlo.reduce(%x init: %ninf), (%i init: %z) across dimensions = [1] : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)\n"
		"   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {\n"
		"    %1 = stablehlo.compare  GT, %a, %c,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    %2 = stablehlo.compare  NE, %a, %a,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    %3 = stablehlo.or %1, %2 : tensor<i1>\n"
		"    %4 = stablehlo.compare  EQ, %a, %c,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    %5 = stablehlo.compare  LT, %b, %d,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"    %6 = stablehlo.and %4, %5 : tensor<i1>\n"
		"    %7 = stablehlo.or %3, %6 : tensor<i1>\n"
		"    %8 = stablehlo.select %3, %a, %c : tensor<i1>, tensor<f32>\n"
		"    %9 = stablehlo.select %7, %b, %d : tensor<i1>, tensor<i32>\n"
		"    stablehlo.return %8, %9 : tensor<f32>, tensor<i32>\n"
		"  }\n"
		"  %one = stablehlo.constant dense<1> : tensor<i32>\n"
		"  %10 = stablehlo.reduce(%n init: %one) applies stablehlo.multiply across dimensions = [0] : (tensor<7xi32>, tensor<i32>) -> tensor<i32>\n"
		"  %ni = stablehlo.negate %i : tensor<3x5xi32>\n"
		"  %11 = stablehlo.reduce(%ni init: %z) across dimensions = [0, 1] : (tensor<3x5xi32>, tensor<i32>) -> tensor<i32>\n"
		"   reducer(%p: tensor<i32>, %q: tensor<i32>)  {\n"
		"    %aq = stablehlo.abs %q : tensor<i32>\n"
		"    %ap = stablehlo.abs %p : tensor<i32>\n"
		"    %s = stablehlo.add %ap, %aq : tensor<i32>\n"
		"    stablehlo.return %s : tensor<i32>\n"
		"  }\n"
		"  %12 = \"stablehlo.reduce_window\"(%x, %ninf) <{window_dimensions = array<i64: 3, 1>}> ({\n"
		"  ^bb0(%u: tensor<f32>, %v: tensor<f32>):\n"
		"    %g = stablehlo.compare  GT, %u, %v,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    %m = stablehlo.select %g, %u, %v : tensor<i1>, tensor<f32>\n"
		"    stablehlo.return %m : tensor<f32>\n"
		"  }) : (tensor<3x5xf32>, tensor<f32>) -> tensor<1x5xf32>\n"
		"  %13 = stablehlo.reshape %12 : (tensor<1x5xf32>) -> tensor<5xf32>\n"
		"  return %0#1, %10, %11, %13 : tensor<3xi32>, tensor<i32>, tensor<i32>, tensor<5xf32>\n"
		"}\n";
	const float x[15] = { 1, 7, 3, 7, 2,	/* tie: index 1 */
			      -1, -2, NAN, 4, NAN,	/* NaN: index 2 */
			      0, 0, 0, 0, 5 };
	const int32_t n[7] = { 2, -3, 5, 7, 11, -1, 13 };
	int32_t arg[3], prod, abs_sum;
	float colmax[5];
	const void *in[2] = { x, n };
	void *out[4] = { arg, &prod, &abs_sum, colmax };

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(1, arg[0]);
	ASSERT_EQ(2, arg[1]);
	ASSERT_EQ(4, arg[2]);
	ASSERT_EQ(2 * -3 * 5 * 7 * 11 * -1 * 13, prod);
	ASSERT_EQ(3 * (0 + 1 + 2 + 3 + 4), abs_sum);
	ASSERT_EQ(1, colmax[0]);
	ASSERT_EQ(7, colmax[1]);
	ASSERT_EQ(0, colmax[2]);	/* 3 > NaN is false, so is NaN > 0 */
	ASSERT_EQ(7, colmax[3]);
	ASSERT_EQ(5, colmax[4]);	/* 2 > NaN is false, so is NaN > 5 */
}

/*
 * sort: along either dimension of a matrix, descending by a comparator of
 * two ops, and two operands by the first one's keys, stable (equal keys
 * keep their order) as is_stable asks.
 */
TEST(sort)
{
	const char *text =
		"func.func @main(%x: tensor<4x3xi32>, %k: tensor<6xui8>, %v: tensor<6xf32>) -> (tensor<4x3xi32>, tensor<4x3xi32>, tensor<6xui8>, tensor<6xf32>) {\n"
		"  %0 = \"stablehlo.sort\"(%x) <{dimension = 0 : i64}> ({\n"
		"  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
		"    %c = stablehlo.compare  LT, %a, %b,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  }) : (tensor<4x3xi32>) -> tensor<4x3xi32>\n"
		"  %1 = \"stablehlo.sort\"(%x) <{dimension = -1 : i64}> ({\n"
		"  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
		"    %na = stablehlo.negate %a : tensor<i32>\n"
		"    %nb = stablehlo.negate %b : tensor<i32>\n"
		"    %c = stablehlo.compare  LT, %na, %nb,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  }) : (tensor<4x3xi32>) -> tensor<4x3xi32>\n"
		"  %2:2 = \"stablehlo.sort\"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({\n"
		"  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>, %c: tensor<f32>, %d: tensor<f32>):\n"
		"    %l = stablehlo.compare  LT, %a, %b,  UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>\n"
		"    stablehlo.return %l : tensor<i1>\n"
		"  }) : (tensor<6xui8>, tensor<6xf32>) -> (tensor<6xui8>, tensor<6xf32>)\n"
		"  return %0, %1, %2#0, %2#1 : tensor<4x3xi32>, tensor<4x3xi32>, tensor<6xui8>, tensor<6xf32>\n"
		"}\n";
	const int32_t x[12] = { 5, -1, 7,	3, 3, 3,
				-8, 0, 9,	5, 2, -7 };
	const int32_t by_col[12] = { -8, -1, -7,	3, 0, 3,
				     5, 2, 7,		5, 3, 9 };
	const int32_t by_row_desc[12] = { 7, 5, -1,	3, 3, 3,
					  9, 0, -8,	5, 2, -7 };
	const uint8_t k[6] = { 200, 3, 200, 0, 3, 255 };
	const uint8_t k_sorted[6] = { 0, 3, 3, 200, 200, 255 };
	const float v[6] = { 0, 1, 2, 3, 4, 5 };
	const float v_sorted[6] = { 3, 1, 4, 0, 2, 5 };
	int32_t r0[12], r1[12];
	uint8_t r2[6];
	float r3[6];
	const void *in[3] = { x, k, v };
	void *out[4] = { r0, r1, r2, r3 };
	int i;

	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 12; i++) {
		ASSERT_EQ(by_col[i], r0[i]) TH_LOG("by column, %d", i);
		ASSERT_EQ(by_row_desc[i], r1[i]) TH_LOG("by row, %d", i);
	}
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(k_sorted[i], r2[i]);
		ASSERT_EQ(v_sorted[i], r3[i]);
	}
}

/*
 * convolution with every window attribute and two feature groups, in a
 * layout other than the one it is computed in, against the spec's sum;
 * small integers, so that every order of summation is exact.
 */
TEST(convolution)
{
	const char *text =
		"func.func @main(%x: tensor<1x4x5x4xf32>, %k: tensor<4x2x2x3xf32>) -> tensor<1x2x8x4xf32> {\n"
		"  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 0], [1, 2]], lhs_dilate = [1, 2], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x5x4xf32>, tensor<4x2x2x3xf32>) -> tensor<1x2x8x4xf32>\n"
		"  return %0 : tensor<1x2x8x4xf32>\n"
		"}\n";
	float x[4][5][4], k[4][2][2][3], y[2][8][4];
	const void *in[2] = { x, k };
	void *out[1] = { y };
	int c, h, w, o, i, kh, kw;

	for (c = 0; c < 4; c++)
		for (h = 0; h < 5; h++)
			for (w = 0; w < 4; w++)
				x[c][h][w] = (float)((c * 7 + h * 3 + w) % 5 - 2);
	for (o = 0; o < 4; o++)
		for (i = 0; i < 2; i++)
			for (kh = 0; kh < 2; kh++)
				for (kw = 0; kw < 3; kw++)
					k[o][i][kh][kw] = (float)((o + 2 * i + kh * 3 + kw) % 4 - 1);
	ASSERT_EQ(0, lower_run(text, in, out));
	for (h = 0; h < 2; h++)
		for (w = 0; w < 8; w++)
			for (o = 0; o < 4; o++) {
				float sum = 0;

				for (i = 0; i < 2; i++)
					for (kh = 0; kh < 2; kh++)
						for (kw = 0; kw < 3; kw++) {
							/* Padded, lhs-dilated position. */
							int ph = h * 2 + kh * 2 - 1;
							int pw = w + kw - 1;

							if (ph < 0 || ph >= 5 || pw < 0 ||
							    pw % 2 || pw / 2 >= 4)
								continue;
							sum += x[(o / 2) * 2 + i][ph][pw / 2] *
							       k[o][i][kh][kw];
						}
				ASSERT_EQ(sum, y[h][w][o])
					TH_LOG("(%d, %d, %d)", h, w, o);
			}
}

/*
 * select_and_scatter as a max pool's gradient: overlapping, padded,
 * strided windows, ties to the first, against the spec's loop.
 */
TEST(select_and_scatter)
{
	const char *text =
		"func.func @main(%x: tensor<4x5xf32>, %s: tensor<2x4xf32>) -> tensor<4x5xf32> {\n"
		"  %i = stablehlo.constant dense<10.0> : tensor<f32>\n"
		"  %0 = \"stablehlo.select_and_scatter\"(%x, %s, %i) <{padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>}> ({\n"
		"  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		"    %c = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  }, {\n"
		"  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		"    %c = stablehlo.add %a, %b : tensor<f32>\n"
		"    stablehlo.return %c : tensor<f32>\n"
		"  }) : (tensor<4x5xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x5xf32>\n"
		"  return %0 : tensor<4x5xf32>\n"
		"}\n";
	float x[4][5], src[2][4], y[4][5], want[4][5];
	const void *in[2] = { x, src };
	void *out[1] = { y };
	int a, b, s0, s1, w0, w1;

	for (a = 0; a < 4; a++)
		for (b = 0; b < 5; b++) {
			x[a][b] = (float)((a * 3 + b * 2) % 4);
			want[a][b] = 10;
		}
	for (s0 = 0; s0 < 2; s0++)
		for (s1 = 0; s1 < 4; s1++)
			src[s0][s1] = (float)(1 << (s0 * 4 + s1));
	for (s0 = 0; s0 < 2; s0++)
		for (s1 = 0; s1 < 4; s1++) {
			int pa = -1, pb = -1;

			for (w0 = 0; w0 < 2; w0++)
				for (w1 = 0; w1 < 3; w1++) {
					int p0 = s0 * 2 + w0 - 1, p1 = s1 + w1;

					if (p0 < 0 || p0 >= 4 || p1 >= 5)
						continue;
					if (pa < 0 || !(x[pa][pb] >= x[p0][p1])) {
						pa = p0;
						pb = p1;
					}
				}
			if (pa >= 0)
				want[pa][pb] += src[s0][s1];
		}
	ASSERT_EQ(0, lower_run(text, in, out));
	for (a = 0; a < 4; a++)
		for (b = 0; b < 5; b++)
			ASSERT_EQ(want[a][b], y[a][b]) TH_LOG("(%d, %d)", a, b);
}

/* select_and_scatter of i1: or and and are the scatter's MAX and MIN. */
TEST(select_and_scatter_i1)
{
	const char *text =
		"func.func @main(%x: tensor<4xi1>, %s: tensor<2xi1>) -> (tensor<4xi1>, tensor<4xi1>) {\n"
		"  %f = stablehlo.constant dense<false> : tensor<i1>\n"
		"  %t = stablehlo.constant dense<true> : tensor<i1>\n"
		"  %0 = \"stablehlo.select_and_scatter\"(%x, %s, %f) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({\n"
		"  ^bb0(%a: tensor<i1>, %b: tensor<i1>):\n"
		"    %c = stablehlo.compare  GE, %a, %b,  UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  }, {\n"
		"  ^bb0(%a: tensor<i1>, %b: tensor<i1>):\n"
		"    %c = stablehlo.or %a, %b : tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  }) : (tensor<4xi1>, tensor<2xi1>, tensor<i1>) -> tensor<4xi1>\n"
		"  %1 = \"stablehlo.select_and_scatter\"(%x, %s, %t) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({\n"
		"  ^bb0(%a: tensor<i1>, %b: tensor<i1>):\n"
		"    %c = stablehlo.compare  GE, %a, %b,  UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  }, {\n"
		"  ^bb0(%a: tensor<i1>, %b: tensor<i1>):\n"
		"    %c = stablehlo.and %a, %b : tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  }) : (tensor<4xi1>, tensor<2xi1>, tensor<i1>) -> tensor<4xi1>\n"
		"  return %0, %1 : tensor<4xi1>, tensor<4xi1>\n"
		"}\n";
	/* Windows {0, 1} and {2, 3} pick the first of the largest: 1, 2. */
	const uint8_t x[4] = { 0, 1, 1, 0 }, s[2] = { 0, 1 };
	const uint8_t want_or[4] = { 0, 0, 1, 0 }, want_and[4] = { 1, 0, 1, 1 };
	uint8_t y0[4], y1[4];
	const void *in[2] = { x, s };
	void *out[2] = { y0, y1 };

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(0, memcmp(want_or, y0, 4));
	ASSERT_EQ(0, memcmp(want_and, y1, 4));
}

/*
 * compare_type TOTALORDER orders -NaN < -inf < -1 < -0 < +0 < 1 < +inf <
 * NaN; chlo.top_k takes the k largest of the last dimension in that
 * order, equal ones by index, with their indices.
 */
TEST(total_order_and_top_k)
{
	const char *text =
		"func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>, %v: tensor<2x5xf32>, %w: tensor<6xui8>) -> (tensor<8xi1>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<6xui8>, tensor<6xi32>) {\n"
		"  %0 = stablehlo.compare  LT, %x, %y,  TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>\n"
		"  %1, %2 = chlo.top_k(%v, k = 3) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)\n"
		"  %3, %4 = chlo.top_k(%w, k = 6) : tensor<6xui8> -> (tensor<6xui8>, tensor<6xi32>)\n"
		"  return %0, %1, %2, %3, %4 : tensor<8xi1>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<6xui8>, tensor<6xi32>\n"
		"}\n";
	const float ninf = -INFINITY, pinf = INFINITY;
	float x[8], y[8], v[10], vals[6];
	const uint8_t w[6] = { 7, 200, 7, 0, 255, 200 };
	const uint8_t w_top[6] = { 255, 200, 200, 7, 7, 0 };
	const int32_t w_idx[6] = { 4, 1, 5, 0, 2, 3 };
	const int32_t v_idx[6] = { 2, 0, 4,	1, 3, 2 };
	uint8_t lt[8], top[6];
	int32_t idx[6], top_idx[6];
	const void *in[4] = { x, y, v, w };
	void *out[5] = { lt, vals, idx, top, top_idx };
	uint32_t nan_bits = 0x7fc00000, neg_nan_bits = 0xffc00000;
	float nan, neg_nan;
	int i;

	memcpy(&nan, &nan_bits, 4);
	memcpy(&neg_nan, &neg_nan_bits, 4);
	/* Each x[i] < y[i] in total order but for the last two. */
	x[0] = neg_nan;	y[0] = ninf;
	x[1] = ninf;	y[1] = -1;
	x[2] = -1;	y[2] = -0.0f;
	x[3] = -0.0f;	y[3] = 0.0f;
	x[4] = 0.0f;	y[4] = 1;
	x[5] = pinf;	y[5] = nan;
	x[6] = nan;	y[6] = pinf;
	x[7] = 0.0f;	y[7] = -0.0f;
	/* Row 0: 3 and 3 tie, NaN is largest; row 1: -0 above -inf. */
	v[0] = 3; v[1] = -2; v[2] = nan; v[3] = 1; v[4] = 3;
	v[5] = ninf; v[6] = 5; v[7] = -0.0f; v[8] = 5; v[9] = -7;
	ASSERT_EQ(0, lower_run(text, in, out));
	for (i = 0; i < 8; i++)
		ASSERT_EQ(i < 6, lt[i]) TH_LOG("pair %d", i);
	ASSERT_TRUE(isnan(vals[0]));
	ASSERT_EQ(3, vals[1]);
	ASSERT_EQ(3, vals[2]);
	ASSERT_EQ(5, vals[3]);
	ASSERT_EQ(5, vals[4]);
	ASSERT_TRUE(vals[5] == 0 && signbit(vals[5]));
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(v_idx[i], idx[i]) TH_LOG("index %d", i);
		ASSERT_EQ(w_top[i], top[i]);
		ASSERT_EQ(w_idx[i], top_idx[i]);
	}
}

/* Scalars: dynamic slices of rank 0 are the operand (or the update). */
TEST(scalar_places)
{
	const char *text =
		"func.func @main(%x: tensor<f32>, %u: tensor<f32>, %p: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {\n"
		"  %0 = stablehlo.dynamic_slice %x, sizes = [] : (tensor<f32>) -> tensor<f32>\n"
		"  %1 = stablehlo.dynamic_update_slice %x, %u : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
		"  %2 = stablehlo.pad %x, %p, low = [], high = [], interior = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
		"  return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>\n"
		"}\n";
	const float x = 1.5f, u = -2, p = 9;
	const void *in[3] = { &x, &u, &p };
	float r0, r1, r2;
	void *out[3] = { &r0, &r1, &r2 };

	ASSERT_EQ(0, lower_run(text, in, out));
	ASSERT_EQ(x, r0);
	ASSERT_EQ(u, r1);
	ASSERT_EQ(x, r2);
}

TEST(placed_refusals)
{
	EXPECT_REFUSED("func.func @main(%x: tensor<3xf32>, %p: tensor<f32>) -> tensor<1xf32> {\n"
		       "  %0 = stablehlo.pad %x, %p, low = [0], high = [0], interior = [9223372036854775807] : (tensor<3xf32>, tensor<f32>) -> tensor<1xf32>\n"
		       "  return %0 : tensor<1xf32>\n}\n",
		       -EINVAL, "past the device's");
	EXPECT_REFUSED("func.func @main(%x: tensor<8xf32>, %c: tensor<f32>) -> tensor<8xf32> {\n"
		       "  %0 = \"stablehlo.reduce_window\"(%x, %c) <{window_dimensions = array<i64: 4611686018427387905>, window_dilations = array<i64: 4>}> ({\n"
		       "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		       "    %s = stablehlo.add %a, %b : tensor<f32>\n"
		       "    stablehlo.return %s : tensor<f32>\n"
		       "  }) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>\n"
		       "  return %0 : tensor<8xf32>\n}\n",
		       -EINVAL, "window_dimensions[0] = 4611686018427387905 is not in 1..");
	EXPECT_REFUSED("func.func @main(%x: tensor<2x3x4xf32>, %c: tensor<f32>) -> tensor<4x2xf32> {\n"
		       "  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.multiply across dimensions = [1] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<4x2xf32>\n"
		       "  return %0 : tensor<4x2xf32>\n}\n",
		       -EINVAL, "shape is not the operand's less the dimensions");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xf32>) -> tensor<5xf32> {\n"
		       "  %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<5xf32>\n"
		       "  return %0 : tensor<5xf32>\n}\n",
		       -EINVAL, "shorter than the result");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xf32>, %p: tensor<f32>) -> tensor<5xf32> {\n"
		       "  %0 = stablehlo.pad %x, %p, low = [1], high = [1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<5xf32>\n"
		       "  return %0 : tensor<5xf32>\n}\n",
		       -EINVAL, "not low + high + size + interior");
	EXPECT_REFUSED("func.func @main(%x: tensor<2xf32>, %i: tensor<f32>) -> tensor<1xf32> {\n"
		       "  %0 = stablehlo.dynamic_slice %x, %i, sizes = [1] : (tensor<2xf32>, tensor<f32>) -> tensor<1xf32>\n"
		       "  return %0 : tensor<1xf32>\n}\n",
		       -EINVAL, "start index 0 is not an integer scalar");
	EXPECT_REFUSED("func.func @main(%x: tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32> {\n"
		       "  %0 = stablehlo.reverse %x, dims = [0, 1, 2, 3] : tensor<2x2x2x2xf32>\n"
		       "  return %0 : tensor<2x2x2x2xf32>\n}\n",
		       -EOPNOTSUPP, "all 4 dimensions");
}

/*
 * stablehlo.while: i counts to n (a parameter the cond reads from the
 * scope around it), acc adds x (read by the body the same way) each
 * trip: i = max(n, 0), acc = x * (max(n, 0) + 1).
 */
TEST(while_loop)
{
	const char *text =
		"func.func @main(%n: tensor<i64>, %x: tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>) {\n"
		"  %c0 = stablehlo.constant dense<0> : tensor<i64>\n"
		"  %0:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i64>, tensor<3xf32>\n"
		"   cond {\n"
		"    %lt = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
		"    stablehlo.return %lt : tensor<i1>\n"
		"  } do {\n"
		"    %one = stablehlo.constant dense<1> : tensor<i64>\n"
		"    %i1 = stablehlo.add %i, %one : tensor<i64>\n"
		"    %a1 = stablehlo.add %acc, %x : tensor<3xf32>\n"
		"    stablehlo.return %i1, %a1 : tensor<i64>, tensor<3xf32>\n"
		"  }\n"
		"  return %0#0, %0#1 : tensor<i64>, tensor<3xf32>\n"
		"}\n";
	static const int64_t ns[] = { 0, 1, 4, -2, 100 };
	const float x[3] = { 1.5f, -2, 0.25f };
	const void *in[2] = { NULL, x };
	int64_t n, i;
	float acc[3];
	void *out[2] = { &i, acc };
	unsigned int k, j;

	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		n = ns[k];
		in[0] = &n;
		ASSERT_EQ(0, lower_run(text, in, out)) TH_LOG("n = %lld",
							     (long long)n);
		EXPECT_EQ(n > 0 ? n : 0, i);
		for (j = 0; j < 3; j++) {
			float want = x[j];
			int64_t t;

			for (t = 0; t < n; t++)
				want += x[j];
			EXPECT_EQ(want, acc[j]) TH_LOG("n = %lld",
						       (long long)n);
		}
	}
}

/*
 * Nested whiles and a swap: for i < m, fib(i) by (a, b) = (b, a + b) i
 * times, summed: fib(0) + ... + fib(m - 1).
 */
TEST(while_nested_swap)
{
	const char *text =
		"func.func @main(%m: tensor<i32>) -> tensor<i32> {\n"
		"  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
		"  %0:2 = stablehlo.while(%i = %c0, %s = %c0) : tensor<i32>, tensor<i32>\n"
		"   cond {\n"
		"    %lt = stablehlo.compare  LT, %i, %m,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"    stablehlo.return %lt : tensor<i1>\n"
		"  } do {\n"
		"    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
		"    %f:3 = stablehlo.while(%a = %c0, %b = %c1, %k = %i) : tensor<i32>, tensor<i32>, tensor<i32>\n"
		"     cond {\n"
		"      %gt = stablehlo.compare  GT, %k, %c0,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"      stablehlo.return %gt : tensor<i1>\n"
		"    } do {\n"
		"      %ab = stablehlo.add %a, %b : tensor<i32>\n"
		"      %k1 = stablehlo.subtract %k, %c1 : tensor<i32>\n"
		"      stablehlo.return %b, %ab, %k1 : tensor<i32>, tensor<i32>, tensor<i32>\n"
		"    }\n"
		"    %s1 = stablehlo.add %s, %f#0 : tensor<i32>\n"
		"    %i1 = stablehlo.add %i, %c1 : tensor<i32>\n"
		"    stablehlo.return %i1, %s1 : tensor<i32>, tensor<i32>\n"
		"  }\n"
		"  return %0#1 : tensor<i32>\n"
		"}\n";
	static const int32_t want[] = { 0, 0, 1, 2, 4, 7, 12, 20, 33 };
	const void *in[1];
	int32_t m, r;
	void *out[1] = { &r };

	in[0] = &m;
	for (m = 0; m < (int32_t)(sizeof(want) / sizeof(want[0])); m++) {
		ASSERT_EQ(0, lower_run(text, in, out));
		EXPECT_EQ(want[m], r) TH_LOG("m = %d", m);
	}
}

/*
 * case: index 0 negates, 1 doubles, anything else (out of [0, 3) too)
 * takes the last branch; each branch's constant says which ran. if: x*x
 * or x. Branches read the scope around them.
 */
TEST(case_and_if)
{
	const char *text =
		"func.func @main(%i: tensor<i32>, %p: tensor<i1>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>) {\n"
		"  %0:2 = \"stablehlo.case\"(%i) ({\n"
		"    %a = stablehlo.negate %x : tensor<2xf32>\n"
		"    %c = stablehlo.constant dense<10> : tensor<i32>\n"
		"    stablehlo.return %a, %c : tensor<2xf32>, tensor<i32>\n"
		"  }, {\n"
		"    %b = stablehlo.add %x, %x : tensor<2xf32>\n"
		"    %c = stablehlo.constant dense<11> : tensor<i32>\n"
		"    stablehlo.return %b, %c : tensor<2xf32>, tensor<i32>\n"
		"  }, {\n"
		"    %c = stablehlo.constant dense<12> : tensor<i32>\n"
		"    stablehlo.return %x, %c : tensor<2xf32>, tensor<i32>\n"
		"  }) : (tensor<i32>) -> (tensor<2xf32>, tensor<i32>)\n"
		"  %1 = \"stablehlo.if\"(%p) ({\n"
		"    %s = stablehlo.multiply %x, %x : tensor<2xf32>\n"
		"    stablehlo.return %s : tensor<2xf32>\n"
		"  }, {\n"
		"    stablehlo.return %x : tensor<2xf32>\n"
		"  }) : (tensor<i1>) -> tensor<2xf32>\n"
		"  return %0#0, %0#1, %1 : tensor<2xf32>, tensor<i32>, tensor<2xf32>\n"
		"}\n";
	static const int32_t idx[] = { 0, 1, 2, 3, -1, 100, INT32_MIN };
	const float x[2] = { 3, -0.5f };
	float y[2], z[2];
	int32_t i, which;
	uint8_t p;
	const void *in[3] = { &i, &p, x };
	void *out[3] = { y, &which, z };
	unsigned int k, j;

	for (k = 0; k < sizeof(idx) / sizeof(idx[0]); k++) {
		i = idx[k];
		p = k & 1;
		ASSERT_EQ(0, lower_run(text, in, out));
		EXPECT_EQ(i == 0 ? 10 : i == 1 ? 11 : 12, which)
			TH_LOG("index %d", i);
		for (j = 0; j < 2; j++) {
			EXPECT_EQ(i == 0 ? -x[j] : i == 1 ? x[j] + x[j] : x[j],
				  y[j]);
			EXPECT_EQ(p ? x[j] * x[j] : x[j], z[j]);
		}
	}
}

/*
 * An if in a while's body (the branches are pure, a while around them is
 * fine): k from n down, x doubled on odd k, incremented on even ones.
 */
TEST(if_inside_while)
{
	const char *text =
		"func.func @main(%n: tensor<i32>) -> tensor<f32> {\n"
		"  %x0 = stablehlo.constant dense<1.0> : tensor<f32>\n"
		"  %0:2 = stablehlo.while(%k = %n, %x = %x0) : tensor<i32>, tensor<f32>\n"
		"   cond {\n"
		"    %z = stablehlo.constant dense<0> : tensor<i32>\n"
		"    %gt = stablehlo.compare  GT, %k, %z,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"    stablehlo.return %gt : tensor<i1>\n"
		"  } do {\n"
		"    %one = stablehlo.constant dense<1> : tensor<i32>\n"
		"    %two = stablehlo.constant dense<2> : tensor<i32>\n"
		"    %r = stablehlo.remainder %k, %two : tensor<i32>\n"
		"    %odd = stablehlo.compare  EQ, %r, %one,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"    %x1 = \"stablehlo.if\"(%odd) ({\n"
		"      %d = stablehlo.add %x, %x : tensor<f32>\n"
		"      stablehlo.return %d : tensor<f32>\n"
		"    }, {\n"
		"      %f1 = stablehlo.constant dense<1.0> : tensor<f32>\n"
		"      %e = stablehlo.add %x, %f1 : tensor<f32>\n"
		"      stablehlo.return %e : tensor<f32>\n"
		"    }) : (tensor<i1>) -> tensor<f32>\n"
		"    %k1 = stablehlo.subtract %k, %one : tensor<i32>\n"
		"    stablehlo.return %k1, %x1 : tensor<i32>, tensor<f32>\n"
		"  }\n"
		"  return %0#1 : tensor<f32>\n"
		"}\n";
	const void *in[1];
	int32_t n, k;
	float r, want;
	void *out[1] = { &r };

	in[0] = &n;
	for (n = 0; n < 7; n++) {
		want = 1;
		for (k = n; k > 0; k--)
			want = k % 2 ? want + want : want + 1;
		ASSERT_EQ(0, lower_run(text, in, out));
		EXPECT_EQ(want, r) TH_LOG("n = %d", n);
	}
}

/* A while that never ends fails its run with ELOOP: no wrong result. */
TEST(while_without_end)
{
	const char *text =
		"func.func @main(%x: tensor<i32>) -> tensor<i32> {\n"
		"  %0 = stablehlo.while(%i = %x) : tensor<i32>\n"
		"   cond {\n"
		"    %t = stablehlo.constant dense<true> : tensor<i1>\n"
		"    stablehlo.return %t : tensor<i1>\n"
		"  } do {\n"
		"    %one = stablehlo.constant dense<1> : tensor<i32>\n"
		"    %i1 = stablehlo.add %i, %one : tensor<i32>\n"
		"    stablehlo.return %i1 : tensor<i32>\n"
		"  }\n"
		"  return %0 : tensor<i32>\n"
		"}\n";
	const int32_t x = 0;
	const void *in[1] = { &x };
	int32_t r = 0;
	void *out[1] = { &r };

	ASSERT_EQ(-ELOOP, lower_run(text, in, out));
}

/* A while of 2 operands over @cond and @body, for the refusals. */
#define WHILE2(types, cond, body)					\
	"func.func @main(%x: tensor<i32>, %y: tensor<f32>) -> (" types ") {\n" \
	"  %0:2 = \"stablehlo.while\"(%x, %y) ({\n"			\
	"  ^bb0(%a: tensor<i32>, %b: tensor<f32>):\n"			\
	cond								\
	"  }, {\n"							\
	"  ^bb0(%a: tensor<i32>, %b: tensor<f32>):\n"			\
	body								\
	"  }) : (tensor<i32>, tensor<f32>) -> (" types ")\n"		\
	"  return %0#0, %0#1 : " types "\n}\n"

#define COND_OK								\
	"    %t = stablehlo.constant dense<false> : tensor<i1>\n"	\
	"    stablehlo.return %t : tensor<i1>\n"
#define BODY_OK	"    stablehlo.return %a, %b : tensor<i32>, tensor<f32>\n"

TEST(control_refusals)
{
	struct pw_hlo_lowered low;
	char err[512];

	/* The two macros make a valid while, whose body never runs. */
	ASSERT_EQ(0, lower(WHILE2("tensor<i32>, tensor<f32>", COND_OK,
				  BODY_OK), false, &low, err, sizeof(err)))
		TH_LOG("%s", err);
	pw_hlo_lowered_free(&low);
	EXPECT_REFUSED(WHILE2("tensor<i32>, tensor<f32>",
			      "    %t = stablehlo.constant dense<1> : tensor<i32>\n"
			      "    stablehlo.return %t : tensor<i32>\n",
			      BODY_OK),
		       -EINVAL, "2:3: stablehlo.while: its cond returns tensor<i32>, not tensor<i1>");
	EXPECT_REFUSED(WHILE2("tensor<i32>, tensor<f32>",
			      "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
			      "    stablehlo.return %t, %t : tensor<i1>, tensor<i1>\n",
			      BODY_OK),
		       -EINVAL, "stablehlo.while: region 0 returns 2 values, needs 1");
	EXPECT_REFUSED(WHILE2("tensor<i32>, tensor<f32>", COND_OK,
			      "    stablehlo.return %b, %a : tensor<f32>, tensor<i32>\n"),
		       -EINVAL, "stablehlo.while: its body returns tensor<f32> as value 0, which is tensor<i32>");
	EXPECT_REFUSED(WHILE2("tensor<i32>, tensor<f32>", COND_OK,
			      "    stablehlo.return %a : tensor<i32>\n"),
		       -EINVAL, "region 1 returns 1 values, needs 2");
	EXPECT_REFUSED(WHILE2("tensor<i32>, tensor<f64>", COND_OK, BODY_OK),
		       -EINVAL, "stablehlo.while: result 1 is tensor<f64> but operand 1 is tensor<f32>: a while's results are of its operands' types");
	EXPECT_REFUSED(WHILE2("tensor<i32>, tensor<f32>", COND_OK,
			      "    stablehlo.return %a, %nothing : tensor<i32>, tensor<f32>\n"),
		       -EINVAL, "region 1 returns %nothing, which is not defined");
	EXPECT_REFUSED("func.func @main(%x: tensor<i32>) -> tensor<i32> {\n"
		       "  %0 = \"stablehlo.while\"(%x) ({\n"
		       "  ^bb0(%a: tensor<i64>):\n"
		       "    %t = stablehlo.constant dense<false> : tensor<i1>\n"
		       "    stablehlo.return %t : tensor<i1>\n"
		       "  }, {\n"
		       "  ^bb0(%a: tensor<i32>):\n"
		       "    stablehlo.return %a : tensor<i32>\n"
		       "  }) : (tensor<i32>) -> tensor<i32>\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EINVAL, "argument 0 of region 0 is not of operand 0's type");
	EXPECT_REFUSED("func.func @main(%x: tensor<i32>) -> tensor<i32> {\n"
		       "  %0 = \"stablehlo.while\"(%x) ({\n"
		       "  ^bb0(%a: tensor<i32>):\n"
		       "    %t = stablehlo.constant dense<false> : tensor<i1>\n"
		       "    stablehlo.return %t : tensor<i1>\n"
		       "  }) : (tensor<i32>) -> tensor<i32>\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EINVAL, "has 1 regions, needs 2 (cond and body)");
	EXPECT_REFUSED("func.func @main(%x: tensor<i32>) -> tensor<i32> {\n"
		       "  %0 = \"stablehlo.while\"(%x) ({\n"
		       "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
		       "    %t = stablehlo.constant dense<false> : tensor<i1>\n"
		       "    stablehlo.return %t : tensor<i1>\n"
		       "  }, {\n"
		       "  ^bb0(%a: tensor<i32>):\n"
		       "    stablehlo.return %a : tensor<i32>\n"
		       "  }) : (tensor<i32>) -> tensor<i32>\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EINVAL, "region 0 takes 2 arguments, needs 1");
	EXPECT_REFUSED("func.func @main(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {\n"
		       "  %0:2 = \"stablehlo.while\"(%x) ({\n"
		       "  ^bb0(%a: tensor<i32>):\n"
		       "    %t = stablehlo.constant dense<false> : tensor<i1>\n"
		       "    stablehlo.return %t : tensor<i1>\n"
		       "  }, {\n"
		       "  ^bb0(%a: tensor<i32>):\n"
		       "    stablehlo.return %a : tensor<i32>\n"
		       "  }) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)\n"
		       "  return %0#0, %0#1 : tensor<i32>, tensor<i32>\n}\n",
		       -EINVAL, "has 1 operands and 2 results: a while gives one result per operand");

	/* case and if. */
	EXPECT_REFUSED("func.func @main(%i: tensor<i64>) -> tensor<i32> {\n"
		       "  %0 = \"stablehlo.case\"(%i) ({\n"
		       "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
		       "    stablehlo.return %c : tensor<i32>\n"
		       "  }) : (tensor<i64>) -> tensor<i32>\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EINVAL, "2:3: stablehlo.case: its index is tensor<i64>, not tensor<i32>");
	EXPECT_REFUSED("func.func @main(%p: tensor<2xi1>) -> tensor<i32> {\n"
		       "  %0 = \"stablehlo.if\"(%p) ({\n"
		       "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
		       "    stablehlo.return %c : tensor<i32>\n"
		       "  }, {\n"
		       "    %c = stablehlo.constant dense<2> : tensor<i32>\n"
		       "    stablehlo.return %c : tensor<i32>\n"
		       "  }) : (tensor<2xi1>) -> tensor<i32>\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EINVAL, "stablehlo.if: its predicate is tensor<2xi1>, not tensor<i1>");
	EXPECT_REFUSED("func.func @main(%p: tensor<i1>) -> tensor<i32> {\n"
		       "  %0 = \"stablehlo.if\"(%p) ({\n"
		       "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
		       "    stablehlo.return %c : tensor<i32>\n"
		       "  }) : (tensor<i1>) -> tensor<i32>\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EINVAL, "stablehlo.if: has 1 regions, needs 2 (true and false)");
	EXPECT_REFUSED("func.func @main(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {\n"
		       "  %0 = \"stablehlo.case\"(%i) ({\n"
		       "    stablehlo.return %x : tensor<f32>\n"
		       "  }, {\n"
		       "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
		       "    stablehlo.return %c : tensor<i32>\n"
		       "  }) : (tensor<i32>) -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EINVAL, "stablehlo.case: branch 1 returns tensor<i32> as result 0, which is tensor<f32>");
	EXPECT_REFUSED("func.func @main(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {\n"
		       "  %0 = \"stablehlo.case\"(%i) ({\n"
		       "    stablehlo.return %x : tensor<f32>\n"
		       "  }, {\n"
		       "    stablehlo.return %x, %x : tensor<f32>, tensor<f32>\n"
		       "  }) : (tensor<i32>) -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EINVAL, "region 1 returns 2 values, needs 1");
	EXPECT_REFUSED("func.func @main(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {\n"
		       "  %0 = \"stablehlo.case\"(%i) ({\n"
		       "  }) : (tensor<i32>) -> tensor<f32>\n"
		       "  return %0 : tensor<f32>\n}\n",
		       -EINVAL, "region 0 is not one block");
	/* Branches all run: nothing with an effect in one. */
	EXPECT_REFUSED("func.func @main(%p: tensor<i1>, %x: tensor<i32>) -> tensor<i32> {\n"
		       "  %0 = \"stablehlo.if\"(%p) ({\n"
		       "    %w = stablehlo.while(%a = %x) : tensor<i32>\n"
		       "     cond {\n"
		       "      %t = stablehlo.constant dense<false> : tensor<i1>\n"
		       "      stablehlo.return %t : tensor<i1>\n"
		       "    } do {\n"
		       "      stablehlo.return %a : tensor<i32>\n"
		       "    }\n"
		       "    stablehlo.return %w : tensor<i32>\n"
		       "  }, {\n"
		       "    stablehlo.return %x : tensor<i32>\n"
		       "  }) : (tensor<i1>) -> tensor<i32>\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EOPNOTSUPP, "3:5: stablehlo.while: a while inside a branch of stablehlo.case or stablehlo.if is not supported");
	EXPECT_REFUSED("func.func @main(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {\n"
		       "  %0 = \"stablehlo.case\"(%i) ({\n"
		       "    %r = \"stablehlo.all_reduce\"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({\n"
		       "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
		       "      %s = stablehlo.add %a, %b : tensor<f32>\n"
		       "      stablehlo.return %s : tensor<f32>\n"
		       "    }) : (tensor<4xf32>) -> tensor<4xf32>\n"
		       "    stablehlo.return %r : tensor<4xf32>\n"
		       "  }) : (tensor<i32>) -> tensor<4xf32>\n"
		       "  return %0 : tensor<4xf32>\n}\n",
		       -EOPNOTSUPP, "a collective inside a branch of stablehlo.case or stablehlo.if is not supported");
	/* A while in a body applied element-wise. */
	EXPECT_REFUSED("func.func @main(%x: tensor<4xi32>) -> tensor<i32> {\n"
		       "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
		       "  %0 = stablehlo.reduce(%x init: %c) across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>\n"
		       "   reducer(%a: tensor<i32>, %b: tensor<i32>) {\n"
		       "    %w = stablehlo.while(%v = %a) : tensor<i32>\n"
		       "     cond {\n"
		       "      %t = stablehlo.constant dense<false> : tensor<i1>\n"
		       "      stablehlo.return %t : tensor<i1>\n"
		       "    } do {\n"
		       "      stablehlo.return %v : tensor<i32>\n"
		       "    }\n"
		       "    %s = stablehlo.add %w, %b : tensor<i32>\n"
		       "    stablehlo.return %s : tensor<i32>\n"
		       "  }\n"
		       "  return %0 : tensor<i32>\n}\n",
		       -EOPNOTSUPP, "a while inside a body applied element-wise");
}

/* A check in a branch: refused even when checks are kept. */
TEST(check_inside_branch)
{
	const char *text =
		"func.func @main(%p: tensor<i1>, %x: tensor<i32>) -> tensor<i32> {\n"
		"  %0 = \"stablehlo.if\"(%p) ({\n"
		"    stablehlo.custom_call @check.expect_eq(%x, %x) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()\n"
		"    stablehlo.return %x : tensor<i32>\n"
		"  }, {\n"
		"    stablehlo.return %x : tensor<i32>\n"
		"  }) : (tensor<i1>) -> tensor<i32>\n"
		"  return %0 : tensor<i32>\n}\n";
	struct pw_hlo_lowered low;
	char err[512];

	ASSERT_EQ(-EOPNOTSUPP, lower(text, true, &low, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "@check.expect_eq inside a branch of stablehlo.case or stablehlo.if is not supported"))
		TH_LOG("%s", err);
}

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
		/* Not supported, or past the device's limits: as pwhlo says. */
		if (ret == -EOPNOTSUPP || ret == -E2BIG)
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
