// SPDX-License-Identifier: GPL-2.0
/*
 * test_convert.c - CONVERT between all pairs of the twelve dtypes. The
 * reference takes the source's exact value in long double (every f16,
 * bf16, f32, f64 and every 64-bit integer is exact there), then: to a
 * float dtype, the nearest pattern found by ops_util.c's bisection (ties
 * to even, overflow to inf), one rounding from the exact value; to an
 * integer dtype, truncl() then clamping to the range, NaN to 0, from a
 * float, and the low bits from an integer.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

static const enum pwtpu_dtype dtypes[] = {
	PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32, PWTPU_DT_F16,
	PWTPU_DT_F64, PWTPU_DT_I16, PWTPU_DT_I64, PWTPU_DT_U8, PWTPU_DT_U16,
	PWTPU_DT_U32, PWTPU_DT_U64,
};
#define NDT	(sizeof(dtypes) / sizeof(dtypes[0]))

/* Values with something to say about rounding, saturation and NaN. */
static const double f_cases[] = {
	0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 126.9, 127.0, 127.5, 128.0,
	-128.0, -128.9, -129.0, 255.0, 255.9, 256.0, 1e10, -1e10,
	2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0,
	32767.5, 32768.0, -32768.5, 65535.9, 65536.0, 4294967295.5,
	4294967296.0, 0x1p63, -0x1p63, 0x1p63 - 1024, -0x1p63 - 2048,
	0x1p64, 0x1p64 - 2048, 1e30, -1e30, INFINITY, -INFINITY, NAN, -NAN,
	1e-40, 3.4028235e38, 65504.0, 65519.99, 65520.0, 0x1p-25,
	0x1p-25 + 0x1p-60, 1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-8 + 0x1p-40,
	/* bf16 ties: 1 + 2^-8 rounds down to even, 1 + 3 * 2^-8 up. */
	1.00390625, 1.01171875, -1.00390625, 3.3961514e38, 1e-310,
};
#define NFCASES (sizeof(f_cases) / sizeof(f_cases[0]))
#define NRANDOM 4000
#define N (NFCASES + NRANDOM)

static const int64_t i_cases[] = {
	0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, -32768, 65535,
	65536, INT32_MAX, INT32_MIN, 16777217, -16777217, 33554435,
	0x7fffff80, 0x1000001, 65519, 65520, 2049, 2051, 16842753,
	INT64_MAX, INT64_MIN, INT64_MIN + 1, (int64_t)0x8000008000000000ULL,
	(int64_t)0x8000008000000001ULL, 0x0020000000000001LL,
	(int64_t)UINT64_MAX - 1,
};
#define NICASES (sizeof(i_cases) / sizeof(i_cases[0]))

static int is_float(enum pwtpu_dtype dt)
{
	return dt == PWTPU_DT_F32 || dt == PWTPU_DT_BF16 ||
	       dt == PWTPU_DT_F16 || dt == PWTPU_DT_F64;
}

static int is_signed(enum pwtpu_dtype dt)
{
	return dt == PWTPU_DT_I8 || dt == PWTPU_DT_I16 ||
	       dt == PWTPU_DT_I32 || dt == PWTPU_DT_I64;
}

/* Field widths of a float dtype. */
static void widths(enum pwtpu_dtype dt, int *e, int *m)
{
	switch (dt) {
	case PWTPU_DT_F32:
		*e = 8, *m = 23;
		break;
	case PWTPU_DT_BF16:
		*e = 8, *m = 7;
		break;
	case PWTPU_DT_F16:
		*e = 5, *m = 10;
		break;
	default:
		*e = 11, *m = 52;
		break;
	}
}

/* Raw element @i, zero extended. */
static uint64_t get(enum pwtpu_dtype dt, const void *p, uint32_t i)
{
	switch (pwfw_dtype_size(dt)) {
	case 1:
		return ((const uint8_t *)p)[i];
	case 2:
		return ((const uint16_t *)p)[i];
	case 4:
		return ((const uint32_t *)p)[i];
	default:
		return ((const uint64_t *)p)[i];
	}
}

static void put(enum pwtpu_dtype dt, void *p, uint32_t i, uint64_t v)
{
	switch (pwfw_dtype_size(dt)) {
	case 1:
		((uint8_t *)p)[i] = (uint8_t)v;
		break;
	case 2:
		((uint16_t *)p)[i] = (uint16_t)v;
		break;
	case 4:
		((uint32_t *)p)[i] = (uint32_t)v;
		break;
	default:
		((uint64_t *)p)[i] = v;
		break;
	}
}

static uint64_t low_mask(enum pwtpu_dtype dt)
{
	uint32_t bits = pwfw_dtype_size(dt) * 8;

	return bits == 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* The exact value of raw @v of @dt (NaN for a float NaN). */
static long double value_of(enum pwtpu_dtype dt, uint64_t v)
{
	uint32_t bits = pwfw_dtype_size(dt) * 8;
	int e, m;

	if (is_float(dt)) {
		widths(dt, &e, &m);
		return fmt_value(v, e, m);
	}
	if (is_signed(dt) && bits < 64 && (v >> (bits - 1)) & 1)
		return (long double)(int64_t)(v | ~low_mask(dt));
	if (is_signed(dt))
		return (long double)(int64_t)v;
	return (long double)v;
}

static uint64_t rand64(uint32_t *s)
{
	uint64_t hi = ops_rand(s);

	return hi << 32 | ops_rand(s);
}

/* Fill @n elements of @dt: the cases first, then random values. */
static void fill(enum pwtpu_dtype dt, void *p, uint32_t n)
{
	uint32_t s = 4242, i;
	int e, m;

	for (i = 0; i < n; i++) {
		double f = i < NFCASES ? f_cases[i] :
			   f64_from_bits(rand64(&s));
		uint64_t v = i < NICASES ? (uint64_t)i_cases[i] : rand64(&s);

		/* Half the random floats in integer ranges. */
		if (i >= NFCASES && (i & 1))
			f = ldexp((double)(int64_t)rand64(&s),
				  -(int)(ops_rand(&s) % 60));
		/* Random integers of every magnitude. */
		if (i >= NICASES && (i & 1))
			v >>= ops_rand(&s) % 64;
		if (is_float(dt)) {
			widths(dt, &e, &m);
			/*
			 * Every pattern of a narrow dtype by truncating an
			 * f64's; exact narrowing of the cases otherwise.
			 */
			if (dt == PWTPU_DT_F64)
				put(dt, p, i, f64_bits(f));
			else if (dt == PWTPU_DT_F32)
				put(dt, p, i, f32_bits((float)f));
			else if (i >= NFCASES)
				put(dt, p, i, rand64(&s));
			else
				put(dt, p, i, fmt_round(f, e, m));
		} else {
			put(dt, p, i, v);
		}
	}
}

/* The reference of @x (the exact source value) in integer @ddt. */
static uint64_t ref_to_int(enum pwtpu_dtype ddt, long double x)
{
	uint32_t bits = pwfw_dtype_size(ddt) * 8;
	long double lo = is_signed(ddt) ? -ldexpl(1, bits - 1) : 0;
	long double hi = is_signed(ddt) ? ldexpl(1, bits - 1) - 1 :
			 ldexpl(1, bits) - 1;
	long double t;

	if (isnan(x))
		return 0;
	t = truncl(x);
	if (t < lo)
		t = lo;
	if (t > hi)
		t = hi;
	if (t < 0)
		return (uint64_t)(int64_t)t & low_mask(ddt);
	return (uint64_t)t & low_mask(ddt);
}

/* Whether element @i converted from @sdt to @ddt is right. */
static int check_one(enum pwtpu_dtype sdt, const void *s,
		     enum pwtpu_dtype ddt, const void *d, uint32_t i)
{
	uint64_t raw = get(sdt, s, i), got = get(ddt, d, i);
	long double x = value_of(sdt, raw);
	int e, m;

	if (is_float(ddt)) {
		widths(ddt, &e, &m);
		if (isnan(x))
			return fmt_isnan(got, e, m);
		return got == fmt_round(x, e, m);
	}
	/* The low bits of the value: a signed source sign extends. */
	if (!is_float(sdt) && is_signed(sdt))
		return got == ((uint64_t)(int64_t)x & low_mask(ddt));
	if (!is_float(sdt))
		return got == (raw & low_mask(ddt));
	return got == ref_to_int(ddt, x);
}

TEST(all_pairs)
{
	uint32_t si, di, i, bad = 0;

	for (si = 0; si < NDT; si++) {
		for (di = 0; di < NDT; di++) {
			enum pwtpu_dtype sdt = dtypes[si], ddt = dtypes[di];
			struct ops o;
			int ts, td;

			ASSERT_EQ(0, ops_init(&o, 16 * N + 256));
			ts = ops_tensor(&o, sdt, 1, N);
			td = ops_tensor(&o, ddt, 1, N);
			ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, td,
						  ts));
			fill(sdt, ops_ptr(&o, ts), N);
			ASSERT_EQ(0, ops_run(&o));
			for (i = 0; i < N; i++) {
				if (check_one(sdt, ops_ptr(&o, ts), ddt,
					      ops_ptr(&o, td), i))
					continue;
				if (bad++ < 8)
					TH_LOG("%s -> %s: element %u: %llx -> %llx",
					       pwtpu_dtype_name(sdt),
					       pwtpu_dtype_name(ddt), i,
					       (unsigned long long)
					       get(sdt, ops_ptr(&o, ts), i),
					       (unsigned long long)
					       get(ddt, ops_ptr(&o, td), i));
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

/* One CONVERT of @n elements of @sdt at @src into a new @ddt tensor. */
static int conv(struct ops *o, enum pwtpu_dtype sdt, const void *src,
		enum pwtpu_dtype ddt, uint32_t n)
{
	int ts = ops_tensor(o, sdt, 1, n), td = ops_tensor(o, ddt, 1, n);

	if (ts < 0 || td < 0 ||
	    pwprog_unary(o->p, PWTPU_OP_CONVERT, td, ts) < 0)
		return -1;
	memcpy(ops_ptr(o, ts), src, n * pwfw_dtype_size(sdt));
	return td;
}

/*
 * The 64-bit edges: f64 to i64 and u64 saturating at +-2^63 and 2^64,
 * NaN to 0; u64 and i64 to f32 rounding once from the integer (2^64 - 1
 * to 2^64; 2^63 + 2^39 + 1, which a detour through f64 would round to a
 * tie and then down); integers to f16 and bf16 likewise; f64 to f16 and
 * bf16 directly.
 */
TEST(spelled_out_64bit)
{
	static const double d[] = {
		0x1p63, -0x1p63, 0x1p63 - 1024, -0x1p63 - 2048, NAN,
		INFINITY, -INFINITY, 0x1p64, 0x1p64 - 2048, -1.0, -0.5,
	};
	static const uint64_t u[] = {
		UINT64_MAX, 16777217, 16777219, 0x8000008000000000ULL,
		0x8000008000000001ULL, 65519, 65520, 2049, 2051,
	};
	static const int64_t s[] = {
		-16777217, 16842753, INT64_MIN, 0x123456789abcdefLL,
	};
	static const int32_t w[] = { 16842753 };
	static const double h[] = {
		1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11, 65520.0,
		65519.999, 0x1p-25, 0x1p-25 + 0x1p-60,
	};
	static const double b[] = { 1.0 + 0x1p-8 + 0x1p-40, 1.0 + 0x1p-8 };
	int t_i64, t_u64, t_f32, t_f16, t_bf16, t_s32, t_s16, t_w, t_h, t_b;
	int t_u8;
	uint64_t *u64;
	int64_t *i64;
	uint32_t *f32;
	uint16_t *h16;
	struct ops o;

	ASSERT_EQ(0, ops_init(&o, 8192));
	t_i64 = conv(&o, PWTPU_DT_F64, d, PWTPU_DT_I64, 11);
	t_u64 = conv(&o, PWTPU_DT_F64, d, PWTPU_DT_U64, 11);
	t_f32 = conv(&o, PWTPU_DT_U64, u, PWTPU_DT_F32, 9);
	t_f16 = conv(&o, PWTPU_DT_U64, u, PWTPU_DT_F16, 9);
	t_s32 = conv(&o, PWTPU_DT_I64, s, PWTPU_DT_F32, 4);
	t_bf16 = conv(&o, PWTPU_DT_I64, s, PWTPU_DT_BF16, 4);
	t_s16 = conv(&o, PWTPU_DT_I64, s, PWTPU_DT_I16, 4);
	t_w = conv(&o, PWTPU_DT_I32, w, PWTPU_DT_BF16, 1);
	t_h = conv(&o, PWTPU_DT_F64, h, PWTPU_DT_F16, 6);
	t_b = conv(&o, PWTPU_DT_F64, b, PWTPU_DT_BF16, 2);
	t_u8 = conv(&o, PWTPU_DT_F64, d, PWTPU_DT_U8, 11);
	ASSERT_LE(0, t_u8);
	ASSERT_EQ(0, ops_run(&o));

	i64 = ops_ptr(&o, t_i64);
	EXPECT_EQ(INT64_MAX, i64[0]);
	EXPECT_EQ(INT64_MIN, i64[1]);
	EXPECT_EQ(9223372036854774784LL, i64[2]);
	EXPECT_EQ(INT64_MIN, i64[3]);
	EXPECT_EQ(0, i64[4]);			/* NaN */
	EXPECT_EQ(INT64_MAX, i64[5]);
	EXPECT_EQ(INT64_MIN, i64[6]);
	EXPECT_EQ(INT64_MAX, i64[7]);
	EXPECT_EQ(0, i64[10]);			/* -0.5 truncates to 0 */
	u64 = ops_ptr(&o, t_u64);
	EXPECT_EQ(1ULL << 63, u64[0]);
	EXPECT_EQ(0ULL, u64[1]);		/* saturates at 0 */
	EXPECT_EQ(0ULL, u64[4]);		/* NaN */
	EXPECT_EQ(UINT64_MAX, u64[5]);
	EXPECT_EQ(UINT64_MAX, u64[7]);		/* 2^64 */
	EXPECT_EQ(18446744073709549568ULL, u64[8]);
	EXPECT_EQ(0ULL, u64[9]);		/* -1 */
	f32 = ops_ptr(&o, t_f32);
	EXPECT_EQ(0x5f800000U, f32[0]);		/* 2^64 - 1 -> 2^64 */
	EXPECT_EQ(0x4b800000U, f32[1]);		/* 2^24 + 1: tie, down */
	EXPECT_EQ(0x4b800002U, f32[2]);		/* 2^24 + 3: tie, up */
	EXPECT_EQ(0x5f000000U, f32[3]);		/* 2^63 + 2^39: tie, down */
	EXPECT_EQ(0x5f000001U, f32[4]);		/* and 1 more: up */
	h16 = ops_ptr(&o, t_f16);
	EXPECT_EQ(0x7c00, h16[0]);		/* inf */
	EXPECT_EQ(0x7bff, h16[5]);		/* 65519 -> 65504 */
	EXPECT_EQ(0x7c00, h16[6]);		/* 65520: tie, to inf */
	EXPECT_EQ(0x6800, h16[7]);		/* 2049: tie, to 2048 */
	EXPECT_EQ(0x6802, h16[8]);		/* 2051: tie, to 2052 */
	f32 = ops_ptr(&o, t_s32);
	EXPECT_EQ(0xcb800000U, f32[0]);		/* -(2^24 + 1) */
	EXPECT_EQ(0xdf000000U, f32[2]);		/* -2^63 */
	h16 = ops_ptr(&o, t_bf16);
	/* 2^24 + 2^16 + 1: up; through f32 it would tie and go down. */
	EXPECT_EQ(0x4b81, h16[1]);
	EXPECT_EQ(0xdf00, h16[2]);
	EXPECT_EQ(0x4b81, *(uint16_t *)ops_ptr(&o, t_w));
	EXPECT_EQ(0xcdef, *((uint16_t *)ops_ptr(&o, t_s16) + 3));
	h16 = ops_ptr(&o, t_h);
	EXPECT_EQ(0x3c01, h16[0]);	/* above the tie: up (not via f32) */
	EXPECT_EQ(0x3c00, h16[1]);	/* the tie: to even */
	EXPECT_EQ(0x7c00, h16[2]);
	EXPECT_EQ(0x7bff, h16[3]);
	EXPECT_EQ(0x0000, h16[4]);	/* half the least subnormal: to 0 */
	EXPECT_EQ(0x0001, h16[5]);
	h16 = ops_ptr(&o, t_b);
	EXPECT_EQ(0x3f81, h16[0]);
	EXPECT_EQ(0x3f80, h16[1]);
	ops_fini(&o);
}

/* Integer to integer keeps the low bits of the two's complement value. */
TEST(int_to_int_low_bits)
{
	static const uint8_t u8[] = { 200, 255 };
	static const int8_t i8[] = { -1, -128 };
	static const uint64_t u64[] = { 0xfedcba9876543210ULL, 1ULL << 63 };
	int t1, t2, t3, t4;
	struct ops o;

	ASSERT_EQ(0, ops_init(&o, 2048));
	t1 = conv(&o, PWTPU_DT_U8, u8, PWTPU_DT_I8, 2);
	t2 = conv(&o, PWTPU_DT_I8, i8, PWTPU_DT_U16, 2);
	t3 = conv(&o, PWTPU_DT_U64, u64, PWTPU_DT_I32, 2);
	t4 = conv(&o, PWTPU_DT_I8, i8, PWTPU_DT_U64, 2);
	ASSERT_LE(0, t4);
	ASSERT_EQ(0, ops_run(&o));
	EXPECT_EQ(-56, ((int8_t *)ops_ptr(&o, t1))[0]);
	EXPECT_EQ(-1, ((int8_t *)ops_ptr(&o, t1))[1]);
	EXPECT_EQ(65535, ((uint16_t *)ops_ptr(&o, t2))[0]);
	EXPECT_EQ(65408, ((uint16_t *)ops_ptr(&o, t2))[1]);
	EXPECT_EQ(0x76543210, ((int32_t *)ops_ptr(&o, t3))[0]);
	EXPECT_EQ(0, ((int32_t *)ops_ptr(&o, t3))[1]);
	EXPECT_EQ(UINT64_MAX, ((uint64_t *)ops_ptr(&o, t4))[0]);
	EXPECT_EQ(0xffffffffffffff80ULL, ((uint64_t *)ops_ptr(&o, t4))[1]);
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
