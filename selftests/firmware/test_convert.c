// SPDX-License-Identifier: GPL-2.0
/*
 * test_convert.c - CONVERT between all pairs of the four dtypes. The
 * reference: float to bf16 by an independent round-to-nearest-even; float
 * to integer by libm trunc() then clamping in double, NaN to 0; integer
 * to float by C conversion (to bf16 through f32); integer to integer by
 * keeping the low bits.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

static const enum pwtpu_dtype dtypes[] = {
	PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32,
};

/* Values with something to say about rounding, saturation and NaN. */
static const float f32_cases[] = {
	0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, 126.9f, 127.0f,
	127.5f, 128.0f, -128.0f, -128.9f, -129.0f, 255.0f, 1e10f, -1e10f,
	2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f,
	INFINITY, -INFINITY, NAN, -NAN, 1e-40f, 3.4028235e38f,
	/* bf16 ties: 1 + 2^-8 rounds down to even, 1 + 3 * 2^-8 up. */
	1.00390625f, 1.01171875f, -1.00390625f, 3.3961514e38f,
};
#define NCASES (sizeof(f32_cases) / sizeof(f32_cases[0]))
#define NRANDOM 4000
#define N (NCASES + NRANDOM)

static const int32_t i32_cases[] = {
	0, 1, -1, 127, 128, -128, -129, 255, 256, INT32_MAX, INT32_MIN,
	16777217, -16777217, 33554435, 0x7fffff80,
};
#define NICASES (sizeof(i32_cases) / sizeof(i32_cases[0]))

static int64_t ref_f2i(float f, int64_t lo, int64_t hi)
{
	double t;

	if (isnan(f))
		return 0;
	t = trunc((double)f);
	if (t < (double)lo)
		return lo;
	if (t > (double)hi)
		return hi;
	return (int64_t)t;
}

/* Fill @n elements of @dt: the cases first, then random values. */
static void fill(enum pwtpu_dtype dt, void *p, uint32_t n)
{
	uint32_t s = 4242, i;

	for (i = 0; i < n; i++) {
		float f = i < NCASES ? f32_cases[i] : f32_from_bits(ops_rand(&s));
		int32_t v = i < NICASES ? i32_cases[i] : (int32_t)ops_rand(&s);

		/* Half the random floats in integer range. */
		if (i >= NCASES && (i & 1))
			f = ops_rand_float(&s, -3e9f, 3e9f) /
			    (float)(1U << (ops_rand(&s) % 25));
		switch (dt) {
		case PWTPU_DT_F32:
			((float *)p)[i] = f;
			break;
		case PWTPU_DT_BF16:
			/* Truncation keeps every bf16 pattern reachable. */
			((uint16_t *)p)[i] = (uint16_t)(f32_bits(f) >> 16);
			break;
		case PWTPU_DT_I8:
			((int8_t *)p)[i] = (int8_t)v;
			break;
		default:
			((int32_t *)p)[i] = v;
			break;
		}
	}
}

/* Whether element @i converted from @sdt to @ddt is right. */
static int check_one(enum pwtpu_dtype sdt, const void *s,
		     enum pwtpu_dtype ddt, const void *d, uint32_t i)
{
	int src_float = sdt == PWTPU_DT_F32 || sdt == PWTPU_DT_BF16;
	float f = sdt == PWTPU_DT_F32 ? ((const float *)s)[i] :
		  bf16_widen(((const uint16_t *)s)[i]);
	int32_t v = sdt == PWTPU_DT_I8 ? ((const int8_t *)s)[i] :
		    ((const int32_t *)s)[i];

	if (!src_float)
		f = (float)v;	/* C conversion, round to nearest even */
	switch (ddt) {
	case PWTPU_DT_F32:
		return f32_same(((const float *)d)[i], f);
	case PWTPU_DT_BF16:
		return bf16_same(((const uint16_t *)d)[i], ref_bf16(f));
	case PWTPU_DT_I8:
		return ((const int8_t *)d)[i] ==
		       (src_float ? ref_f2i(f, INT8_MIN, INT8_MAX) :
				    (int8_t)(uint8_t)(uint32_t)v);
	default:
		return ((const int32_t *)d)[i] ==
		       (src_float ? ref_f2i(f, INT32_MIN, INT32_MAX) : v);
	}
}

TEST(all_pairs)
{
	uint32_t si, di, i, bad = 0;

	for (si = 0; si < 4; si++) {
		for (di = 0; di < 4; di++) {
			struct ops o;
			int ts, td;

			ASSERT_EQ(0, ops_init(&o, 8 * N + 256));
			ts = ops_tensor(&o, dtypes[si], 1, N);
			td = ops_tensor(&o, dtypes[di], 1, N);
			ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, td,
						  ts));
			fill(dtypes[si], ops_ptr(&o, ts), N);
			ASSERT_EQ(0, ops_run(&o));
			for (i = 0; i < N; i++) {
				if (check_one(dtypes[si], ops_ptr(&o, ts),
					      dtypes[di], ops_ptr(&o, td), i))
					continue;
				if (bad++ < 8)
					TH_LOG("%d -> %d: element %u wrong",
					       dtypes[si], dtypes[di], i);
			}
			ops_fini(&o);
		}
	}
	EXPECT_EQ(0U, bad);
}

/* The documented edge values, spelled out rather than computed. */
TEST(spelled_out_edges)
{
	static const float in[] = {
		NAN, INFINITY, -INFINITY, 2147483648.0f, -2147483904.0f,
		-1.9f, 1.00390625f, 1.01171875f,
	};
	struct ops o;
	int32_t *i32;
	int8_t *i8;
	uint16_t *h;
	int tf, ti, tb, th;

	ASSERT_EQ(0, ops_init(&o, 1024));
	tf = ops_tensor(&o, PWTPU_DT_F32, 1, 8);
	ti = ops_tensor(&o, PWTPU_DT_I32, 1, 8);
	tb = ops_tensor(&o, PWTPU_DT_I8, 1, 8);
	th = ops_tensor(&o, PWTPU_DT_BF16, 1, 8);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, ti, tf));
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, tb, tf));
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, th, tf));
	memcpy(ops_ptr(&o, tf), in, sizeof(in));
	ASSERT_EQ(0, ops_run(&o));
	i32 = ops_ptr(&o, ti);
	i8 = ops_ptr(&o, tb);
	h = ops_ptr(&o, th);
	EXPECT_EQ(0, i32[0]);
	EXPECT_EQ(INT32_MAX, i32[1]);
	EXPECT_EQ(INT32_MIN, i32[2]);
	EXPECT_EQ(INT32_MAX, i32[3]);
	EXPECT_EQ(INT32_MIN, i32[4]);
	EXPECT_EQ(-1, i32[5]);
	EXPECT_EQ(0, i8[0]);
	EXPECT_EQ(127, i8[1]);
	EXPECT_EQ(-128, i8[2]);
	EXPECT_EQ(-1, i8[5]);
	EXPECT_TRUE(bf16_isnan(h[0]));
	EXPECT_EQ(0x7f80, h[1]);
	EXPECT_EQ(0xff80, h[2]);
	EXPECT_EQ(0x3f80, h[6]);	/* tie, down to even */
	EXPECT_EQ(0x3f82, h[7]);	/* tie, up to even */
	ops_fini(&o);
}

/* A NaN whose payload lives only in the low bits must not become inf. */
TEST(nan_payload_stays_nan)
{
	struct ops o;
	int tf, th;

	ASSERT_EQ(0, ops_init(&o, 256));
	tf = ops_tensor(&o, PWTPU_DT_F32, 1, 2);
	th = ops_tensor(&o, PWTPU_DT_BF16, 1, 2);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, th, tf));
	((float *)ops_ptr(&o, tf))[0] = f32_from_bits(0x7f800001U);
	((float *)ops_ptr(&o, tf))[1] = f32_from_bits(0xff800001U);
	ASSERT_EQ(0, ops_run(&o));
	EXPECT_TRUE(bf16_isnan(((uint16_t *)ops_ptr(&o, th))[0]));
	EXPECT_TRUE(bf16_isnan(((uint16_t *)ops_ptr(&o, th))[1]));
	ops_fini(&o);
}

TEST_HARNESS_MAIN
