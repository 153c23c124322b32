// SPDX-License-Identifier: GPL-2.0
/*
 * test_dtypes.c - the ops over the integer dtypes (i8, i16, i32, i64, u8,
 * u16, u32, u64) and f64, through pwfw_verify + pwfw_exec, against
 * references written here: integer results computed exactly in 128 bits
 * and wrapped to the dtype, with the UAPI's division rules spelled out;
 * f64 by C double arithmetic with the MAX/MIN rules spelled out; and the
 * layout ops and SELECT, which move any dtype bit for bit, by index
 * arithmetic. f16 has its own test (test_f16.c), CONVERT too
 * (test_convert.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

#define NO	PWTPU_NO_TENSOR

typedef __int128 s128;
typedef unsigned __int128 u128;

/**
 * struct idt - an integer dtype
 * @dt: the dtype.
 * @bits: width.
 * @sgn: signed.
 */
struct idt {
	enum pwtpu_dtype dt;
	int bits;
	int sgn;
};

static const struct idt idts[] = {
	{ PWTPU_DT_I8, 8, 1 }, { PWTPU_DT_I16, 16, 1 },
	{ PWTPU_DT_I32, 32, 1 }, { PWTPU_DT_I64, 64, 1 },
	{ PWTPU_DT_U8, 8, 0 }, { PWTPU_DT_U16, 16, 0 },
	{ PWTPU_DT_U32, 32, 0 }, { PWTPU_DT_U64, 64, 0 },
};
#define NIDT	(sizeof(idts) / sizeof(idts[0]))

static const enum pwtpu_dtype all_dtypes[] = {
	PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32, PWTPU_DT_F16,
	PWTPU_DT_F64, PWTPU_DT_I16, PWTPU_DT_I64, PWTPU_DT_U8, PWTPU_DT_U16,
	PWTPU_DT_U32, PWTPU_DT_U64,
};
#define NDT	(sizeof(all_dtypes) / sizeof(all_dtypes[0]))

static const enum pwtpu_op binary_ops[] = {
	PWTPU_OP_ADD, PWTPU_OP_SUB, PWTPU_OP_MUL, PWTPU_OP_DIV, PWTPU_OP_MAX,
	PWTPU_OP_MIN,
};

static uint64_t mask(const struct idt *t)
{
	return t->bits == 64 ? ~0ULL : (1ULL << t->bits) - 1;
}

/* The value of raw bits @v (low @bits of it) in dtype @t. */
static s128 value(const struct idt *t, uint64_t v)
{
	v &= mask(t);
	if (t->sgn && (v >> (t->bits - 1)) & 1)
		return (s128)v - ((s128)1 << t->bits);
	return (s128)v;
}

static s128 tmin(const struct idt *t)
{
	return t->sgn ? -((s128)1 << (t->bits - 1)) : 0;
}

static s128 tmax(const struct idt *t)
{
	return t->sgn ? ((s128)1 << (t->bits - 1)) - 1 :
			((s128)1 << t->bits) - 1;
}

/* The dtype's bits of the exact value @v: two's complement, mod 2^n. */
static uint64_t wrap(const struct idt *t, s128 v)
{
	return (uint64_t)(u128)v & mask(t);
}

/* The UAPI's integer semantics, from the exact values. */
static uint64_t ref_int(enum pwtpu_op op, const struct idt *t, uint64_t ra,
			uint64_t rb)
{
	s128 a = value(t, ra), b = value(t, rb);

	switch (op) {
	case PWTPU_OP_ADD:
		return wrap(t, a + b);
	case PWTPU_OP_SUB:
		return wrap(t, a - b);
	case PWTPU_OP_MUL:
		/* Low bits of the product; u128 does not overflow. */
		return (uint64_t)((u128)a * (u128)b) & mask(t);
	case PWTPU_OP_DIV:
		if (b == 0)
			return mask(t);	/* all ones: -1, or the maximum */
		if (a == tmin(t) && b == -1 && t->sgn)
			return wrap(t, tmin(t));
		return wrap(t, a / b);	/* C truncates toward zero */
	case PWTPU_OP_MAX:
		return wrap(t, a > b ? a : b);
	default:
		return wrap(t, a < b ? a : b);
	}
}

static uint64_t get(const struct idt *t, const void *p, uint32_t i)
{
	switch (t->bits) {
	case 8:
		return ((const uint8_t *)p)[i];
	case 16:
		return ((const uint16_t *)p)[i];
	case 32:
		return ((const uint32_t *)p)[i];
	default:
		return ((const uint64_t *)p)[i];
	}
}

static void put(const struct idt *t, void *p, uint32_t i, uint64_t v)
{
	switch (t->bits) {
	case 8:
		((uint8_t *)p)[i] = (uint8_t)v;
		break;
	case 16:
		((uint16_t *)p)[i] = (uint16_t)v;
		break;
	case 32:
		((uint32_t *)p)[i] = (uint32_t)v;
		break;
	default:
		((uint64_t *)p)[i] = v;
		break;
	}
}

static uint64_t rand64(uint32_t *s)
{
	uint64_t hi = ops_rand(s);

	return hi << 32 | ops_rand(s);
}

/*
 * Operand pairs of @t: every pair of u8 (or i8) values when the type has
 * 8 bits; otherwise every pair of the edge values (0, +-1, 2, 7, the
 * extremes and their neighbours, a few patterns), then random values,
 * half of the divisors small. The count is *@n.
 */
#define NPAIRS_MAX	(256 * 256)
static void fill_pairs(const struct idt *t, void *a, void *b, uint32_t *n)
{
	const s128 edges[] = {
		0, 1, -1, 2, -2, 7, -7, 100, 200, tmin(t), tmax(t),
		tmin(t) + 1, tmax(t) - 1, tmax(t) / 2, tmin(t) / 2,
		(s128)0x5555555555555555LL, (s128)0xaaaaaaaaaaaaaaaaULL,
	};
	const uint32_t ne = sizeof(edges) / sizeof(edges[0]);
	uint32_t i, j, k = 0, s = 4321 + t->bits;

	if (t->bits == 8) {
		for (k = 0; k < NPAIRS_MAX; k++) {
			put(t, a, k, k >> 8);
			put(t, b, k, k & 0xff);
		}
		*n = k;
		return;
	}
	for (i = 0; i < ne; i++)
		for (j = 0; j < ne; j++, k++) {
			put(t, a, k, wrap(t, edges[i]));
			put(t, b, k, wrap(t, edges[j]));
		}
	for (; k < 20000; k++) {
		uint64_t y = rand64(&s);

		put(t, a, k, rand64(&s));
		put(t, b, k, (k & 1) ? y : y % 17 - 8);
	}
	*n = k;
}

/* ADD..MIN over every integer dtype. */
TEST(binary_int)
{
	uint32_t ti, k, i, n, bad = 0;

	for (ti = 0; ti < NIDT; ti++) {
		const struct idt *t = &idts[ti];

		for (k = 0; k < 6; k++) {
			struct ops o;
			void *a, *b, *d;
			int ta, tb, td;

			ASSERT_EQ(0, ops_init(&o, 3 * 8 * NPAIRS_MAX + 256));
			ta = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
			tb = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
			td = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
			ASSERT_LE(0, pwprog_binary(o.p, binary_ops[k], td, ta,
						   tb));
			a = ops_ptr(&o, ta);
			b = ops_ptr(&o, tb);
			d = ops_ptr(&o, td);
			fill_pairs(t, a, b, &n);
			ASSERT_EQ(0, ops_run(&o));
			for (i = 0; i < n; i++) {
				uint64_t want = ref_int(binary_ops[k], t,
							get(t, a, i),
							get(t, b, i));

				if (get(t, d, i) != want && bad++ < 8)
					TH_LOG("%s op %d: %llx, %llx -> %llx, want %llx",
					       pwtpu_dtype_name(t->dt),
					       binary_ops[k],
					       (unsigned long long)get(t, a, i),
					       (unsigned long long)get(t, b, i),
					       (unsigned long long)get(t, d, i),
					       (unsigned long long)want);
			}
			ops_fini(&o);
		}
	}
	EXPECT_EQ(0U, bad);
}

/* NEG and ABS: wrap; MIN is its own; unsigned ABS is the identity. */
TEST(unary_int)
{
	uint32_t ti, i, n, bad = 0;

	for (ti = 0; ti < NIDT; ti++) {
		const struct idt *t = &idts[ti];
		void *a, *b, *dn, *da;
		struct ops o;
		int ta, tb, tn, tm;

		ASSERT_EQ(0, ops_init(&o, 4 * 8 * NPAIRS_MAX + 256));
		ta = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
		tb = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
		tn = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
		tm = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
		ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_NEG, tn, ta));
		ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_ABS, tm, ta));
		a = ops_ptr(&o, ta);
		b = ops_ptr(&o, tb);
		dn = ops_ptr(&o, tn);
		da = ops_ptr(&o, tm);
		fill_pairs(t, a, b, &n);
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < n; i++) {
			s128 v = value(t, get(t, a, i));

			if ((get(t, dn, i) != wrap(t, -v) ||
			     get(t, da, i) != wrap(t, v < 0 ? -v : v)) &&
			    bad++ < 8)
				TH_LOG("%s: %llx: neg %llx abs %llx",
				       pwtpu_dtype_name(t->dt),
				       (unsigned long long)get(t, a, i),
				       (unsigned long long)get(t, dn, i),
				       (unsigned long long)get(t, da, i));
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

static int ref_cmp(uint32_t mode, long double x, long double y)
{
	switch (mode) {
	case PWTPU_CMP_EQ:
		return x == y;
	case PWTPU_CMP_NE:
		return x != y;
	case PWTPU_CMP_LT:
		return x < y;
	case PWTPU_CMP_LE:
		return x <= y;
	case PWTPU_CMP_GT:
		return x > y;
	default:
		return x >= y;
	}
}

/* Every mode over every integer dtype: signed or unsigned order. */
TEST(compare_int)
{
	uint32_t ti, mode, i, n, bad = 0;

	for (ti = 0; ti < NIDT; ti++) {
		const struct idt *t = &idts[ti];

		for (mode = PWTPU_CMP_EQ; mode <= PWTPU_CMP_GE; mode++) {
			struct ops o;
			void *a, *b;
			int8_t *d;
			int ta, tb, td;

			ASSERT_EQ(0, ops_init(&o, 3 * 8 * NPAIRS_MAX + 256));
			ta = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
			tb = ops_tensor(&o, t->dt, 1, NPAIRS_MAX);
			td = ops_tensor(&o, PWTPU_DT_I8, 1, NPAIRS_MAX);
			ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_COMPARE,
						 (uint8_t)mode, td, ta, tb, NO,
						 NULL, 0));
			a = ops_ptr(&o, ta);
			b = ops_ptr(&o, tb);
			d = ops_ptr(&o, td);
			fill_pairs(t, a, b, &n);
			ASSERT_EQ(0, ops_run(&o));
			for (i = 0; i < n; i++) {
				s128 x = value(t, get(t, a, i));
				s128 y = value(t, get(t, b, i));
				int want;

				switch (mode) {
				case PWTPU_CMP_EQ:
					want = x == y;
					break;
				case PWTPU_CMP_NE:
					want = x != y;
					break;
				case PWTPU_CMP_LT:
					want = x < y;
					break;
				case PWTPU_CMP_LE:
					want = x <= y;
					break;
				case PWTPU_CMP_GT:
					want = x > y;
					break;
				default:
					want = x >= y;
					break;
				}
				if (d[i] != want && bad++ < 8)
					TH_LOG("%s mode %u: %llx, %llx -> %d",
					       pwtpu_dtype_name(t->dt), mode,
					       (unsigned long long)get(t, a, i),
					       (unsigned long long)get(t, b, i),
					       d[i]);
			}
			ops_fini(&o);
		}
	}
	EXPECT_EQ(0U, bad);
}

/* One instruction over three [n] tensors of @dt: a, b, then dst. */
static void binary1(struct ops *o, enum pwtpu_op op, enum pwtpu_dtype dt,
		    uint32_t n, int *t)
{
	t[0] = ops_tensor(o, dt, 1, n);
	t[1] = ops_tensor(o, dt, 1, n);
	t[2] = ops_tensor(o, dt, 1, n);
	pwprog_binary(o->p, op, t[2], t[0], t[1]);
}

/* The edge cases the UAPI names, spelled out. */
TEST(spelled_out_edges)
{
	struct ops o;
	int64_t *i64;
	uint64_t *u64;
	uint32_t *u32;
	uint16_t *u16;
	int16_t *i16;
	uint8_t *u8;
	int8_t *c8;
	int t1[3], t2[3], t3[3], t4[3], t5[3], t6[3], t7, t8, t9, t10;

	ASSERT_EQ(0, ops_init(&o, 4096));
	binary1(&o, PWTPU_OP_ADD, PWTPU_DT_I64, 2, t1);
	binary1(&o, PWTPU_OP_DIV, PWTPU_DT_I64, 3, t2);
	binary1(&o, PWTPU_OP_DIV, PWTPU_DT_U32, 2, t3);
	binary1(&o, PWTPU_OP_DIV, PWTPU_DT_U64, 2, t4);
	binary1(&o, PWTPU_OP_DIV, PWTPU_DT_I16, 3, t5);
	binary1(&o, PWTPU_OP_MAX, PWTPU_DT_U8, 1, t6);
	t7 = ops_tensor(&o, PWTPU_DT_I8, 1, 1);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_COMPARE, PWTPU_CMP_GT, t7,
				 t6[0], t6[1], NO, NULL, 0));
	t8 = ops_tensor(&o, PWTPU_DT_U16, 1, 1);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_NEG, t8, t8));
	t9 = ops_tensor(&o, PWTPU_DT_I64, 1, 1);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_ABS, t9, t9));
	t10 = ops_tensor(&o, PWTPU_DT_U8, 1, 1);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_ABS, t10, t10));

	i64 = ops_ptr(&o, t1[0]);
	i64[0] = INT64_MAX;
	i64[1] = INT64_MIN;
	i64 = ops_ptr(&o, t1[1]);
	i64[0] = 1;
	i64[1] = -1;
	i64 = ops_ptr(&o, t2[0]);
	i64[0] = INT64_MIN;
	i64[1] = 5;
	i64[2] = -7;
	i64 = ops_ptr(&o, t2[1]);
	i64[0] = -1;
	i64[1] = 0;
	i64[2] = 2;
	u32 = ops_ptr(&o, t3[0]);
	u32[0] = 5;
	u32[1] = 0xfffffffe;
	u32 = ops_ptr(&o, t3[1]);
	u32[0] = 0;
	u32[1] = 3;
	u64 = ops_ptr(&o, t4[0]);
	u64[0] = 12345;
	u64[1] = UINT64_MAX;
	u64 = ops_ptr(&o, t4[1]);
	u64[0] = 0;
	u64[1] = 2;
	i16 = ops_ptr(&o, t5[0]);
	i16[0] = 7;
	i16[1] = INT16_MIN;
	i16[2] = -7;
	i16 = ops_ptr(&o, t5[1]);
	i16[0] = 0;
	i16[1] = -1;
	i16[2] = 2;
	*(uint8_t *)ops_ptr(&o, t6[0]) = 200;
	*(uint8_t *)ops_ptr(&o, t6[1]) = 100;
	*(uint16_t *)ops_ptr(&o, t8) = 1;
	*(int64_t *)ops_ptr(&o, t9) = INT64_MIN;
	*(uint8_t *)ops_ptr(&o, t10) = 200;
	ASSERT_EQ(0, ops_run(&o));

	i64 = ops_ptr(&o, t1[2]);
	EXPECT_EQ(INT64_MIN, i64[0]);		/* wraps */
	EXPECT_EQ(INT64_MAX, i64[1]);
	i64 = ops_ptr(&o, t2[2]);
	EXPECT_EQ(INT64_MIN, i64[0]);		/* MIN / -1 */
	EXPECT_EQ(-1, i64[1]);			/* x / 0 */
	EXPECT_EQ(-3, i64[2]);			/* truncates */
	u32 = ops_ptr(&o, t3[2]);
	EXPECT_EQ(0xffffffffU, u32[0]);		/* the maximum */
	EXPECT_EQ(0x55555554U, u32[1]);		/* unsigned division */
	u64 = ops_ptr(&o, t4[2]);
	EXPECT_EQ(UINT64_MAX, u64[0]);
	EXPECT_EQ(UINT64_MAX / 2, u64[1]);
	i16 = ops_ptr(&o, t5[2]);
	EXPECT_EQ(-1, i16[0]);
	EXPECT_EQ(INT16_MIN, i16[1]);
	EXPECT_EQ(-3, i16[2]);
	u8 = ops_ptr(&o, t6[2]);
	EXPECT_EQ(200, u8[0]);			/* unsigned order */
	c8 = ops_ptr(&o, t7);
	EXPECT_EQ(1, c8[0]);			/* 200 > 100 */
	u16 = ops_ptr(&o, t8);
	EXPECT_EQ(65535, u16[0]);		/* -1 mod 2^16 */
	EXPECT_EQ(INT64_MIN, *(int64_t *)ops_ptr(&o, t9));
	EXPECT_EQ(200, *(uint8_t *)ops_ptr(&o, t10));
	ops_fini(&o);
}

static const double f64_specials[] = {
	0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 3.0, 1e300, -1e300, 1.7976931348623157e308,
	2.2250738585072014e-308, 4.9e-324, -4.9e-324, 0x1p53, 0x1p-53,
	INFINITY, -INFINITY, NAN, -NAN,
};
#define NSF64		(sizeof(f64_specials) / sizeof(f64_specials[0]))
#define NPAIRS_F64	(NSF64 * NSF64 + 20000)

/* Documented: NaN wins (the first NaN operand); +0 is above -0. */
static double ref_f64(enum pwtpu_op op, double a, double b)
{
	int max = op == PWTPU_OP_MAX;

	switch (op) {
	case PWTPU_OP_ADD:
		return a + b;
	case PWTPU_OP_SUB:
		return a - b;
	case PWTPU_OP_MUL:
		return a * b;
	case PWTPU_OP_DIV:
		return a / b;
	default:
		if (isnan(a))
			return f64_from_bits(f64_bits(a) | 0x0008000000000000ULL);
		if (isnan(b))
			return f64_from_bits(f64_bits(b) | 0x0008000000000000ULL);
		if (a == b)
			return (signbit(a) != 0) == max ? b : a;
		return (a > b) == max ? a : b;
	}
}

static void fill_pairs_f64(double *a, double *b)
{
	uint32_t i, j, n = 0, s = 6464;

	for (i = 0; i < NSF64; i++)
		for (j = 0; j < NSF64; j++, n++) {
			a[n] = f64_specials[i];
			b[n] = f64_specials[j];
		}
	for (; n < NPAIRS_F64; n++) {
		a[n] = f64_from_bits(rand64(&s));
		b[n] = (n & 1) ? f64_from_bits(rand64(&s)) :
			a[n] * (1.0 + (double)(ops_rand(&s) % 1000) / 997);
	}
}

/*
 * f64 in binary64: every result is C's (SSE2, correctly rounded); MAX and
 * MIN of a NaN give the first NaN operand, quieted, bit for bit.
 */
TEST(binary_f64)
{
	uint32_t k, i, bad = 0;

	for (k = 0; k < 6; k++) {
		double *a, *b, *d, want;
		struct ops o;
		int t[3];

		ASSERT_EQ(0, ops_init(&o, 3 * 8 * NPAIRS_F64 + 256));
		binary1(&o, binary_ops[k], PWTPU_DT_F64, NPAIRS_F64, t);
		a = ops_ptr(&o, t[0]);
		b = ops_ptr(&o, t[1]);
		d = ops_ptr(&o, t[2]);
		fill_pairs_f64(a, b);
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < NPAIRS_F64; i++) {
			want = ref_f64(binary_ops[k], a[i], b[i]);
			if (!(k >= 4 ? f64_bits(d[i]) == f64_bits(want) :
			      f64_same(d[i], want)) && bad++ < 8)
				TH_LOG("op %d: %a, %a -> %a, want %a",
				       binary_ops[k], a[i], b[i], d[i], want);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

/* Exact bits of sums f32 could not hold, and a tie to even. */
TEST(f64_add_exact)
{
	static const double a[] = { 0.1, 1.0, 1.0, 0x1p53, 1e16, 1.0 / 3 };
	static const double b[] = { 0.2, 0x1p-52, 0x1p-53, 1.0, 2.0, 0.0 };
	static const uint64_t want[] = {
		0x3fd3333333333334ULL,	/* 0.30000000000000004 */
		0x3ff0000000000001ULL,	/* 1 + 2^-52 */
		0x3ff0000000000000ULL,	/* 1 + 2^-53: tie, to even */
		0x4340000000000000ULL,	/* 2^53 + 1: tie, to even */
		0x4341c37937e08001ULL,	/* 10000000000000002 */
		0x3fd5555555555555ULL,
	};
	struct ops o;
	double *d;
	uint32_t i;
	int t[3];

	ASSERT_EQ(0, ops_init(&o, 1024));
	binary1(&o, PWTPU_OP_ADD, PWTPU_DT_F64, 6, t);
	memcpy(ops_ptr(&o, t[0]), a, sizeof(a));
	memcpy(ops_ptr(&o, t[1]), b, sizeof(b));
	ASSERT_EQ(0, ops_run(&o));
	d = ops_ptr(&o, t[2]);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want[i], f64_bits(d[i])) TH_LOG("sum %u", i);
	ops_fini(&o);
}

/* NEG, ABS: the sign bit of any pattern; COMPARE: IEEE. */
TEST(unary_compare_f64)
{
	uint32_t mode, i, bad = 0;
	double *a, *b, *dn, *da;
	int8_t *c[6];
	struct ops o;
	int t[3], tn, tm, tc[6];

	ASSERT_EQ(0, ops_init(&o, 6 * 8 * NPAIRS_F64 + 8192));
	binary1(&o, PWTPU_OP_ADD, PWTPU_DT_F64, NPAIRS_F64, t);
	tn = ops_tensor(&o, PWTPU_DT_F64, 1, NPAIRS_F64);
	tm = ops_tensor(&o, PWTPU_DT_F64, 1, NPAIRS_F64);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_NEG, tn, t[0]));
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_ABS, tm, t[0]));
	for (mode = 0; mode < 6; mode++) {
		tc[mode] = ops_tensor(&o, PWTPU_DT_I8, 1, NPAIRS_F64);
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_COMPARE, (uint8_t)mode,
					 tc[mode], t[0], t[1], NO, NULL, 0));
	}
	a = ops_ptr(&o, t[0]);
	b = ops_ptr(&o, t[1]);
	fill_pairs_f64(a, b);
	ASSERT_EQ(0, ops_run(&o));
	dn = ops_ptr(&o, tn);
	da = ops_ptr(&o, tm);
	for (mode = 0; mode < 6; mode++)
		c[mode] = ops_ptr(&o, tc[mode]);
	for (i = 0; i < NPAIRS_F64; i++) {
		if ((f64_bits(dn[i]) != (f64_bits(a[i]) ^ (1ULL << 63)) ||
		     f64_bits(da[i]) != (f64_bits(a[i]) & ~(1ULL << 63))) &&
		    bad++ < 8)
			TH_LOG("%a: neg %a abs %a", a[i], dn[i], da[i]);
		for (mode = 0; mode < 6; mode++)
			if (c[mode][i] != ref_cmp(mode, a[i], b[i]) &&
			    bad++ < 8)
				TH_LOG("mode %u: %a, %a -> %d", mode, a[i],
				       b[i], c[mode][i]);
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

/* SELECT and the layout ops move every dtype bit for bit. */
TEST(select_and_layout_every_dtype)
{
	uint32_t k, i, j, r, bad = 0, s = 99;

	for (k = 0; k < NDT; k++) {
		enum pwtpu_dtype dt = all_dtypes[k];
		uint32_t sz = pwfw_dtype_size(dt);
		unsigned char *a, *b, *sel, *tr, *bc, *sl;
		const uint32_t start[2] = { 1, 2 };
		uint32_t perm[2] = { 1, 0 };
		struct ops o;
		int8_t *pred;
		int ta, tb, tp, ts, tt, tbc, tsl, trs;

		ASSERT_EQ(0, ops_init(&o, 16 * 1024));
		ta = ops_tensor(&o, dt, 2, 5, 7);
		tb = ops_tensor(&o, dt, 2, 5, 7);
		tp = ops_tensor(&o, PWTPU_DT_I8, 2, 5, 7);
		ts = ops_tensor(&o, dt, 2, 5, 7);
		tt = ops_tensor(&o, dt, 2, 7, 5);
		tbc = ops_tensor(&o, dt, 3, 3, 5, 7);
		tsl = ops_tensor(&o, dt, 2, 3, 4);
		trs = ops_tensor(&o, dt, 1, 35);
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_SELECT, 0, ts, tp, ta,
					 tb, NULL, 0));
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_TRANSPOSE, 0, tt, ta,
					 NO, NO, perm, 2));
		ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_BROADCAST, tbc, ta));
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_SLICE, 0, tsl, ta, NO,
					 NO, start, 2));
		ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_RESHAPE, trs, ta));
		a = ops_ptr(&o, ta);
		b = ops_ptr(&o, tb);
		pred = ops_ptr(&o, tp);
		for (i = 0; i < 35 * sz; i++) {
			a[i] = (unsigned char)ops_rand(&s);
			b[i] = (unsigned char)ops_rand(&s);
		}
		for (i = 0; i < 35; i++)
			pred[i] = (int8_t)(ops_rand(&s) % 3);	/* 0, 1, 2 */
		ASSERT_EQ(0, ops_run(&o));
		sel = ops_ptr(&o, ts);
		tr = ops_ptr(&o, tt);
		bc = ops_ptr(&o, tbc);
		sl = ops_ptr(&o, tsl);
		for (i = 0; i < 35; i++)
			bad += !!memcmp(sel + i * sz,
					(pred[i] ? a : b) + i * sz, sz);
		for (i = 0; i < 5; i++)
			for (j = 0; j < 7; j++)
				bad += !!memcmp(tr + (j * 5 + i) * sz,
						a + (i * 7 + j) * sz, sz);
		for (r = 0; r < 3; r++)
			bad += !!memcmp(bc + r * 35 * sz, a, 35 * sz);
		for (i = 0; i < 3; i++)
			bad += !!memcmp(sl + i * 4 * sz,
					a + ((i + 1) * 7 + 2) * sz, 4 * sz);
		bad += !!memcmp(ops_ptr(&o, trs), a, 35 * sz);
		if (bad)
			TH_LOG("%s: %u wrong", pwtpu_dtype_name(dt), bad);
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

/*
 * The reference of one output: @n elements of @t from element @first,
 * @stride apart, folded in order from the mode's identity; sums wrap.
 */
static uint64_t ref_reduce(const struct idt *t, uint32_t mode, const void *a,
			   uint32_t first, uint32_t stride, uint32_t n)
{
	s128 acc = mode == PWTPU_REDUCE_SUM ? 0 :
		   mode == PWTPU_REDUCE_MAX ? tmin(t) : tmax(t);
	uint32_t j;

	for (j = 0; j < n; j++) {
		s128 v = value(t, get(t, a, first + j * stride));

		if (mode == PWTPU_REDUCE_SUM)
			acc = value(t, wrap(t, acc + v));
		else if (mode == PWTPU_REDUCE_MAX)
			acc = v > acc ? v : acc;
		else
			acc = v < acc ? v : acc;
	}
	return wrap(t, acc);
}

/*
 * REDUCE SUM, MAX, MIN over each axis of [37,301] of every integer dtype:
 * sums wrap, MAX and MIN in the dtype's order.
 */
TEST(reduce_int)
{
	const uint32_t rows = 37, cols = 301;
	uint32_t ti, mode, axis, i, bad = 0;

	for (ti = 0; ti < NIDT * 3 * 2; ti++) {
		const struct idt *t = &idts[ti / 6];
		uint32_t nout, s = 7 + ti, mask_arg;
		uint64_t want;
		struct ops o;
		void *a, *d;
		int ta, td;

		mode = ti / 2 % 3;
		axis = ti % 2;
		mask_arg = 1U << axis;
		nout = axis ? rows : cols;
		ASSERT_EQ(0, ops_init(&o, 8 * (rows * cols + cols) + 256));
		ta = ops_tensor(&o, t->dt, 2, rows, cols);
		td = ops_tensor(&o, t->dt, 1, nout);
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, (uint8_t)mode,
					 td, ta, NO, NO, &mask_arg, 1));
		a = ops_ptr(&o, ta);
		d = ops_ptr(&o, td);
		for (i = 0; i < rows * cols; i++)
			put(t, a, i, rand64(&s));
		/* Row and column 0: the extremes. */
		put(t, a, 0, wrap(t, tmax(t)));
		put(t, a, 1, wrap(t, tmax(t)));
		put(t, a, cols, wrap(t, tmin(t)));
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < nout; i++) {
			/* axis 1: row i; axis 0: column i. */
			want = axis ? ref_reduce(t, mode, a, i * cols, 1, cols) :
				      ref_reduce(t, mode, a, i, cols, rows);
			if (get(t, d, i) != want && bad++ < 8)
				TH_LOG("%s mode %u axis %u out %u: %llx, want %llx",
				       pwtpu_dtype_name(t->dt), mode, axis, i,
				       (unsigned long long)get(t, d, i),
				       (unsigned long long)want);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

/*
 * f64 sums fold in binary64 in ascending order: 2^53 + 1 + 1 + ... stays
 * 2^53 (each + 1 is a tie to even), so the row sums to 0 after -2^53;
 * MAX and MIN take NaN and order -0 below +0.
 */
TEST(reduce_f64)
{
	uint32_t cols = 100, i, bad = 0, s = 5;
	double *a, *sum, *mx, *mn, ref;
	uint32_t mask_arg = 2;
	struct ops o;
	int ta, ts, tx, tn;

	ASSERT_EQ(0, ops_init(&o, 8 * (4 * cols + 12) + 512));
	ta = ops_tensor(&o, PWTPU_DT_F64, 2, 4, cols);
	ts = ops_tensor(&o, PWTPU_DT_F64, 1, 4);
	tx = ops_tensor(&o, PWTPU_DT_F64, 1, 4);
	tn = ops_tensor(&o, PWTPU_DT_F64, 1, 4);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, ts,
				 ta, NO, NO, &mask_arg, 1));
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_MAX, tx,
				 ta, NO, NO, &mask_arg, 1));
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_MIN, tn,
				 ta, NO, NO, &mask_arg, 1));
	a = ops_ptr(&o, ta);
	for (i = 0; i < cols; i++) {
		a[i] = i == 0 ? 0x1p53 : i == cols - 1 ? -0x1p53 : 1.0;
		a[cols + i] = i == 50 ? NAN : (double)i;
		a[2 * cols + i] = i & 1 ? -0.0 : 0.0;
		a[3 * cols + i] = f64_from_bits(rand64(&s) & ~(0x7ffULL << 52)) *
				  0x1p900 * (i + 1);
	}
	ASSERT_EQ(0, ops_run(&o));
	sum = ops_ptr(&o, ts);
	mx = ops_ptr(&o, tx);
	mn = ops_ptr(&o, tn);
	EXPECT_EQ(0x0ULL, f64_bits(sum[0]));
	EXPECT_TRUE(isnan(mx[1]));
	EXPECT_TRUE(isnan(mn[1]));
	EXPECT_EQ(0ULL, f64_bits(mx[2]));		/* +0 */
	EXPECT_EQ(1ULL << 63, f64_bits(mn[2]));		/* -0 */
	ref = -0.0;
	for (i = 0; i < cols; i++)
		ref += a[3 * cols + i];
	EXPECT_EQ(f64_bits(ref), f64_bits(sum[3]));
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

/*
 * More elements than one piece: elementwise i64 over several pieces, and
 * reductions of one output folding more than a piece (the accumulator,
 * 64 bits wide, carried between pieces) for i64, u64 and f64.
 */
TEST(many_pieces_64bit)
{
	uint32_t n = 3 * 65536 + 17, i, bad = 0, s = 77;
	uint32_t mask_arg = 1;
	int64_t *a, *b, *d, want_i = 0;
	uint64_t *u, want_u;
	double *f, want_f = -0.0;
	struct ops o;
	int t[3], tsi, tu, tsu, tf, tsf;

	ASSERT_EQ(0, ops_init(&o, 8 * (size_t)n * 6 + 1024));
	binary1(&o, PWTPU_OP_MUL, PWTPU_DT_I64, n, t);
	tsi = ops_tensor(&o, PWTPU_DT_I64, 0);
	tu = ops_tensor(&o, PWTPU_DT_U64, 1, n);
	tsu = ops_tensor(&o, PWTPU_DT_U64, 0);
	tf = ops_tensor(&o, PWTPU_DT_F64, 1, n);
	tsf = ops_tensor(&o, PWTPU_DT_F64, 0);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, tsi,
				 t[0], NO, NO, &mask_arg, 1));
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_MAX, tsu,
				 tu, NO, NO, &mask_arg, 1));
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, tsf,
				 tf, NO, NO, &mask_arg, 1));
	a = ops_ptr(&o, t[0]);
	b = ops_ptr(&o, t[1]);
	u = ops_ptr(&o, tu);
	f = ops_ptr(&o, tf);
	for (i = 0; i < n; i++) {
		a[i] = (int64_t)rand64(&s);
		b[i] = (int64_t)rand64(&s);
		u[i] = rand64(&s) >> 1;
		f[i] = (double)(int32_t)ops_rand(&s) * 0x1p-7 * (i + 1);
		want_i = (int64_t)((uint64_t)want_i + (uint64_t)a[i]);
		want_f += f[i];
	}
	/* The maximum in the middle, above every signed value. */
	u[n / 2] = UINT64_MAX;
	want_u = UINT64_MAX;
	ASSERT_EQ(0, ops_run(&o));
	d = ops_ptr(&o, t[2]);
	for (i = 0; i < n; i++)
		if ((uint64_t)d[i] != (uint64_t)a[i] * (uint64_t)b[i])
			bad++;
	EXPECT_EQ(0U, bad);
	EXPECT_EQ(want_i, *(int64_t *)ops_ptr(&o, tsi));
	EXPECT_EQ(want_u, *(uint64_t *)ops_ptr(&o, tsu));
	EXPECT_EQ(f64_bits(want_f), f64_bits(*(double *)ops_ptr(&o, tsf)));
	ops_fini(&o);
}

TEST_HARNESS_MAIN
