// SPDX-License-Identifier: GPL-2.0
/*
 * test_bits.c - AND, OR, XOR, NOT, SHL, SHR_LOGICAL, SHR_ARITH, POPCNT,
 * CLZ, and POW and REM of integers, on every integer dtype, through
 * pwfw_verify + pwfw_exec, against references written here bit by bit
 * (shifts one place at a time, counts bit by bit, powers by plain
 * multiplication or left-to-right squaring): every pair of edge values
 * (0, 1, -1, MIN, MAX, the width and around it, patterns) and random
 * pairs, and shift counts 0, 1, n - 1, n, n + 1, huge and "negative".
 */
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

static const enum pwtpu_op bit_ops[] = {
	PWTPU_OP_AND, PWTPU_OP_OR, PWTPU_OP_XOR, PWTPU_OP_NOT, PWTPU_OP_SHL,
	PWTPU_OP_SHR_LOGICAL, PWTPU_OP_SHR_ARITH, PWTPU_OP_POPCNT,
	PWTPU_OP_CLZ, PWTPU_OP_POW, PWTPU_OP_REM,
};
#define NOPS (sizeof(bit_ops) / sizeof(bit_ops[0]))

static int is_unary(enum pwtpu_op op)
{
	return op == PWTPU_OP_NOT || op == PWTPU_OP_POPCNT ||
	       op == PWTPU_OP_CLZ;
}

static int is_signed(enum pwtpu_dtype dt)
{
	return dt == PWTPU_DT_I8 || dt == PWTPU_DT_I16 || dt == PWTPU_DT_I32 ||
	       dt == PWTPU_DT_I64;
}

static unsigned int width(enum pwtpu_dtype dt)
{
	return pwfw_dtype_size(dt) * 8;
}

static uint64_t mask(unsigned int w)
{
	return w == 64 ? ~0ULL : (1ULL << w) - 1;
}

/* The n-bit pattern @v as a signed value. */
static int64_t as_signed(uint64_t v, unsigned int w)
{
	v &= mask(w);
	if (w < 64 && (v >> (w - 1)) & 1)
		return (int64_t)(v | ~mask(w));
	return (int64_t)v;
}

/* Left-to-right binary powering, modulo 2^64 (the low n bits count). */
static uint64_t ref_ipow(uint64_t a, uint64_t e)
{
	uint64_t r = 1;
	int k;

	for (k = 63; k >= 0; k--) {
		r *= r;
		if ((e >> k) & 1)
			r *= a;
	}
	return r;
}

/* The reference of one element, as n bits (the caller masks). */
static uint64_t ref_bits(enum pwtpu_op op, enum pwtpu_dtype dt, uint64_t a,
			 uint64_t b)
{
	unsigned int w = width(dt), k, n;
	uint64_t m = mask(w), top = 1ULL << (w - 1), v = a & m;
	int64_t sa, sb;

	switch (op) {
	case PWTPU_OP_AND:
		return a & b;
	case PWTPU_OP_OR:
		return a | b;
	case PWTPU_OP_XOR:
		return a ^ b;
	case PWTPU_OP_NOT:
		return ~a;
	case PWTPU_OP_SHL:
	case PWTPU_OP_SHR_LOGICAL:
	case PWTPU_OP_SHR_ARITH:
		/* One place at a time; past n places nothing changes. */
		n = (b & m) > w ? w : (unsigned int)(b & m);
		for (k = 0; k < n; k++) {
			if (op == PWTPU_OP_SHL)
				v = (v << 1) & m;
			else if (op == PWTPU_OP_SHR_LOGICAL)
				v >>= 1;
			else
				v = (v >> 1) | (v & top);
		}
		return v;
	case PWTPU_OP_POPCNT:
		for (n = 0, k = 0; k < w; k++)
			n += (v >> k) & 1;
		return n;
	case PWTPU_OP_CLZ:
		for (n = 0; n < w && !((v >> (w - 1 - n)) & 1); n++)
			;
		return n;
	case PWTPU_OP_POW:
		if (is_signed(dt) && as_signed(b, w) < 0) {
			sa = as_signed(a, w);
			if (sa == 1)
				return 1;
			if (sa == -1)
				return (b & 1) ? ~0ULL : 1;
			return 0;
		}
		return ref_ipow(a, b & m);
	default:
		if (!(b & m))
			return a;
		if (!is_signed(dt))
			return (a & m) % (b & m);
		sa = as_signed(a, w);
		sb = as_signed(b, w);
		if (sb == -1)
			return 0;
		return (uint64_t)(sa % sb);
	}
}

static void store(enum pwtpu_dtype dt, void *p, uint32_t i, uint64_t v)
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

static uint64_t load(enum pwtpu_dtype dt, const void *p, uint32_t i)
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

/* Edge values of an n-bit dtype, as bit patterns. */
static uint32_t edges(unsigned int w, uint64_t *v)
{
	uint64_t m = mask(w), top = 1ULL << (w - 1);
	uint32_t n = 0;

	v[n++] = 0;
	v[n++] = 1;
	v[n++] = 2;
	v[n++] = 3;
	v[n++] = w - 1;
	v[n++] = w;
	v[n++] = w + 1;
	v[n++] = 2 * w;
	v[n++] = 63;
	v[n++] = 64;
	v[n++] = 65;
	v[n++] = 127;
	v[n++] = 128;
	v[n++] = 255;
	v[n++] = m;		/* -1 */
	v[n++] = m - 1;		/* -2 */
	v[n++] = (0 - (uint64_t)w) & m;	/* -n */
	v[n++] = top;		/* MIN, or 2^(n-1) */
	v[n++] = top - 1;	/* MAX */
	v[n++] = top + 1;
	v[n++] = 0x5555555555555555ULL & m;
	v[n++] = 0xaaaaaaaaaaaaaaaaULL & m;
	v[n++] = 0x0123456789abcdefULL & m;
	v[n++] = 7;
	return n;
}

#define MAX_EDGES	32
#define NRANDOM		4000

static uint64_t rand64(uint32_t *s)
{
	uint64_t hi = ops_rand(s);

	return hi << 32 | ops_rand(s);
}

/* Every op on @dt over edge pairs and random pairs. */
static void check_dtype(struct __test_metadata *_metadata,
			enum pwtpu_dtype dt)
{
	uint64_t ev[MAX_EDGES];
	unsigned int w = width(dt);
	uint32_t ne = edges(w, ev), n = ne * ne + NRANDOM, i, k, bad = 0;
	uint32_t seed = 0x1234567u + w + (uint32_t)is_signed(dt);
	uint32_t esz = pwfw_dtype_size(dt);
	int ta, tb, td[NOPS];
	struct ops o;
	void *a, *b;

	ASSERT_EQ(0, ops_init(&o, (NOPS + 2) * (size_t)n * esz + 4096));
	ta = ops_tensor(&o, dt, 1, n);
	tb = ops_tensor(&o, dt, 1, n);
	for (k = 0; k < NOPS; k++) {
		td[k] = ops_tensor(&o, dt, 1, n);
		ASSERT_LE(0, is_unary(bit_ops[k]) ?
			  pwprog_unary(o.p, bit_ops[k], td[k], ta) :
			  pwprog_binary(o.p, bit_ops[k], td[k], ta, tb));
	}
	a = ops_ptr(&o, ta);
	b = ops_ptr(&o, tb);
	for (i = 0; i < n; i++) {
		uint64_t x = i < ne * ne ? ev[i / ne] : rand64(&seed);
		uint64_t y = i < ne * ne ? ev[i % ne] : rand64(&seed);

		/* Small counts are where the shifts change most. */
		if (i >= ne * ne && (i & 1))
			y %= 2 * w + 3;
		store(dt, a, i, x);
		store(dt, b, i, y);
	}
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < NOPS; k++) {
		const void *d = ops_ptr(&o, td[k]);

		for (i = 0; i < n; i++) {
			uint64_t x = load(dt, a, i), y = load(dt, b, i);
			uint64_t want = ref_bits(bit_ops[k], dt, x, y) &
					mask(w);
			uint64_t got = load(dt, d, i);

			if (got != want && bad++ < 10)
				TH_LOG("%s op %d (%#llx, %#llx) = %#llx, want %#llx",
				       pwtpu_dtype_name(dt), bit_ops[k],
				       (unsigned long long)x,
				       (unsigned long long)y,
				       (unsigned long long)got,
				       (unsigned long long)want);
		}
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

TEST(dtype_i8)
{
	check_dtype(_metadata, PWTPU_DT_I8);
}

TEST(dtype_i16)
{
	check_dtype(_metadata, PWTPU_DT_I16);
}

TEST(dtype_i32)
{
	check_dtype(_metadata, PWTPU_DT_I32);
}

TEST(dtype_i64)
{
	check_dtype(_metadata, PWTPU_DT_I64);
}

TEST(dtype_u8)
{
	check_dtype(_metadata, PWTPU_DT_U8);
}

TEST(dtype_u16)
{
	check_dtype(_metadata, PWTPU_DT_U16);
}

TEST(dtype_u32)
{
	check_dtype(_metadata, PWTPU_DT_U32);
}

TEST(dtype_u64)
{
	check_dtype(_metadata, PWTPU_DT_U64);
}

/* The header's examples, literally, in i32 and u8. */
TEST(documented_cases)
{
	static const struct {
		enum pwtpu_op op;
		enum pwtpu_dtype dt;
		int64_t a, b, want;
	} cases[] = {
		{ PWTPU_OP_SHL, PWTPU_DT_I32, 1, 31, INT32_MIN },
		{ PWTPU_OP_SHL, PWTPU_DT_I32, 1, 32, 0 },
		{ PWTPU_OP_SHL, PWTPU_DT_I32, 1, -1, 0 },
		{ PWTPU_OP_SHR_LOGICAL, PWTPU_DT_I32, -1, 1, INT32_MAX },
		{ PWTPU_OP_SHR_LOGICAL, PWTPU_DT_I32, -1, 33, 0 },
		{ PWTPU_OP_SHR_ARITH, PWTPU_DT_I32, -8, 1, -4 },
		{ PWTPU_OP_SHR_ARITH, PWTPU_DT_I32, INT32_MIN, 40, -1 },
		{ PWTPU_OP_SHR_ARITH, PWTPU_DT_I32, INT32_MAX, 40, 0 },
		{ PWTPU_OP_SHR_ARITH, PWTPU_DT_U8, 0x80, 1, 0xc0 },
		{ PWTPU_OP_SHR_ARITH, PWTPU_DT_U8, 0x80, 200, 0xff },
		{ PWTPU_OP_SHR_LOGICAL, PWTPU_DT_U8, 0x80, 7, 1 },
		{ PWTPU_OP_POPCNT, PWTPU_DT_I32, -1, 0, 32 },
		{ PWTPU_OP_POPCNT, PWTPU_DT_U8, 127, 0, 7 },
		{ PWTPU_OP_CLZ, PWTPU_DT_I32, 0, 0, 32 },
		{ PWTPU_OP_CLZ, PWTPU_DT_I32, 1, 0, 31 },
		{ PWTPU_OP_CLZ, PWTPU_DT_I32, -1, 0, 0 },
		{ PWTPU_OP_CLZ, PWTPU_DT_U8, 1, 0, 7 },
		{ PWTPU_OP_NOT, PWTPU_DT_I8, 1, 0, -2 },
		{ PWTPU_OP_XOR, PWTPU_DT_I8, 1, 1, 0 },
		{ PWTPU_OP_POW, PWTPU_DT_I32, 2, 31, INT32_MIN },
		{ PWTPU_OP_POW, PWTPU_DT_I32, 3, 4, 81 },
		{ PWTPU_OP_POW, PWTPU_DT_I32, 0, 0, 1 },
		{ PWTPU_OP_POW, PWTPU_DT_I32, 2, -1, 0 },
		{ PWTPU_OP_POW, PWTPU_DT_I32, -1, -3, -1 },
		{ PWTPU_OP_POW, PWTPU_DT_I32, -1, -4, 1 },
		{ PWTPU_OP_POW, PWTPU_DT_I32, 1, INT32_MIN, 1 },
		{ PWTPU_OP_POW, PWTPU_DT_U8, 2, 255, 0 },
		{ PWTPU_OP_POW, PWTPU_DT_U8, 3, 5, 243 },
		{ PWTPU_OP_REM, PWTPU_DT_I32, -17, 3, -2 },
		{ PWTPU_OP_REM, PWTPU_DT_I32, 17, -3, 2 },
		{ PWTPU_OP_REM, PWTPU_DT_I32, 17, 0, 17 },
		{ PWTPU_OP_REM, PWTPU_DT_I32, INT32_MIN, -1, 0 },
		{ PWTPU_OP_REM, PWTPU_DT_U8, 200, 7, 4 },
	};
	uint32_t n = sizeof(cases) / sizeof(cases[0]), i;
	struct ops o;
	int t[3];

	for (i = 0; i < n; i++) {
		enum pwtpu_dtype dt = cases[i].dt;

		ASSERT_EQ(0, ops_init(&o, 3 * 64));
		t[0] = ops_tensor(&o, dt, 0);
		t[1] = ops_tensor(&o, dt, 0);
		t[2] = ops_tensor(&o, dt, 0);
		ASSERT_LE(0, is_unary(cases[i].op) ?
			  pwprog_unary(o.p, cases[i].op, t[2], t[0]) :
			  pwprog_binary(o.p, cases[i].op, t[2], t[0], t[1]));
		store(dt, ops_ptr(&o, t[0]), 0, (uint64_t)cases[i].a);
		store(dt, ops_ptr(&o, t[1]), 0, (uint64_t)cases[i].b);
		ASSERT_EQ(0, ops_run(&o));
		EXPECT_EQ((uint64_t)cases[i].want & mask(width(dt)),
			  load(dt, ops_ptr(&o, t[2]), 0))
			TH_LOG("case %u: op %d (%lld, %lld)", i, cases[i].op,
			       (long long)cases[i].a, (long long)cases[i].b);
		ops_fini(&o);
	}
}

/* The result may be an operand exactly: a <<= b, a = ~a in place. */
TEST(in_place)
{
	struct ops o;
	int32_t *a, *b;
	int ta, tb, i;

	ASSERT_EQ(0, ops_init(&o, 1024));
	ta = ops_tensor(&o, PWTPU_DT_I32, 1, 8);
	tb = ops_tensor(&o, PWTPU_DT_I32, 1, 8);
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_SHL, ta, ta, tb));
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_NOT, tb, tb));
	a = ops_ptr(&o, ta);
	b = ops_ptr(&o, tb);
	for (i = 0; i < 8; i++) {
		a[i] = 3;
		b[i] = i * 5;
	}
	ASSERT_EQ(0, ops_run(&o));
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(i * 5 < 32 ? (int32_t)(3u << (i * 5)) : 0, a[i]);
		EXPECT_EQ(~(i * 5), b[i]);
	}
	ops_fini(&o);
}

TEST_HARNESS_MAIN
