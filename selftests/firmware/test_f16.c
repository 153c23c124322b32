// SPDX-License-Identifier: GPL-2.0
/*
 * test_f16.c - IEEE binary16 on the device: every f16 value through
 * CONVERT to f32 and f64 and back, f32 and f64 values around every f16
 * (and bf16) rounding boundary, NaN payloads, and f16 arithmetic, math,
 * comparisons and sums. The references are written here, apart from the
 * firmware's integer rounding: an f16 pattern's value by its formula, and
 * the nearest pattern by bisection and exact distances (ops_util.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

#define NO		PWTPU_NO_TENSOR
#define NF16		65536U
#define F16_INF		0x7c00U
#define F16_MAXBITS	0x7bffU		/* 65504 */

/* A program converting tensor @ts of @sdt (@n elements) to a new @ddt. */
static int convert1(struct ops *o, enum pwtpu_dtype sdt, enum pwtpu_dtype ddt,
		    uint32_t n, int *ts, int *td)
{
	*ts = ops_tensor(o, sdt, 1, n);
	*td = ops_tensor(o, ddt, 1, n);
	if (*ts < 0 || *td < 0)
		return -1;
	return pwprog_unary(o->p, PWTPU_OP_CONVERT, *td, *ts) < 0 ? -1 : 0;
}

/* f32 bits of f16 pattern @h by the formula, NaN payload shifted up. */
static uint32_t want_f32_bits(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;

	if (f16_isnan(h))
		return sign | 0x7f800000U | (uint32_t)(h & 0x3ff) << 13;
	return f32_bits((float)f16_value(h));
}

TEST(every_f16_to_f32_and_f64)
{
	uint16_t *h;
	float *f;
	double *d;
	uint32_t i, bad = 0;
	struct ops o;
	int th, tf, td;

	ASSERT_EQ(0, ops_init(&o, NF16 * 16 + 256));
	ASSERT_EQ(0, convert1(&o, PWTPU_DT_F16, PWTPU_DT_F32, NF16, &th, &tf));
	td = ops_tensor(&o, PWTPU_DT_F64, 1, NF16);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, td, th));
	h = ops_ptr(&o, th);
	for (i = 0; i < NF16; i++)
		h[i] = (uint16_t)i;
	ASSERT_EQ(0, ops_run(&o));
	f = ops_ptr(&o, tf);
	d = ops_ptr(&o, td);
	for (i = 0; i < NF16; i++) {
		/* To f32 bit for bit, a signalling NaN included. */
		if (f32_bits(f[i]) != want_f32_bits(h[i]) && bad++ < 8)
			TH_LOG("f16 %04x -> f32 %08x, want %08x", h[i],
			       f32_bits(f[i]), want_f32_bits(h[i]));
		/* To f64 exactly; a NaN stays one, with its sign. */
		if (f16_isnan(h[i])) {
			if ((!isnan(d[i]) ||
			     !signbit(d[i]) != !(h[i] & 0x8000)) && bad++ < 8)
				TH_LOG("f16 %04x -> f64 %a", h[i], d[i]);
		} else if (!f64_same(d[i], (double)f16_value(h[i])) &&
			   bad++ < 8) {
			TH_LOG("f16 %04x -> f64 %a, want %a", h[i], d[i],
			       (double)f16_value(h[i]));
		}
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

/*
 * f16 -> f32 -> f16 and f16 -> f64 -> f16 give every pattern back; a
 * NaN comes back quiet (bit 0x200) with its payload and sign.
 */
TEST(every_f16_round_trips)
{
	uint16_t *h, *h32, *h64;
	uint32_t i, bad = 0;
	struct ops o;
	int th, tf, td, t32, t64;

	ASSERT_EQ(0, ops_init(&o, NF16 * 20 + 512));
	ASSERT_EQ(0, convert1(&o, PWTPU_DT_F16, PWTPU_DT_F32, NF16, &th, &tf));
	td = ops_tensor(&o, PWTPU_DT_F64, 1, NF16);
	t32 = ops_tensor(&o, PWTPU_DT_F16, 1, NF16);
	t64 = ops_tensor(&o, PWTPU_DT_F16, 1, NF16);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, td, th));
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, t32, tf));
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_CONVERT, t64, td));
	h = ops_ptr(&o, th);
	for (i = 0; i < NF16; i++)
		h[i] = (uint16_t)i;
	ASSERT_EQ(0, ops_run(&o));
	h32 = ops_ptr(&o, t32);
	h64 = ops_ptr(&o, t64);
	for (i = 0; i < NF16; i++) {
		uint16_t want = f16_isnan(h[i]) ? h[i] | 0x200 : h[i];

		if ((h32[i] != want || h64[i] != want) && bad++ < 8)
			TH_LOG("%04x: back from f32 %04x, from f64 %04x", h[i],
			       h32[i], h64[i]);
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

/*
 * Around the boundary between each pair of adjacent non-negative f16
 * values (the last pair is 65504 and the overflow threshold): the lower
 * value, the midpoint (a tie: to the even pattern), and the f32 just
 * below and just above the midpoint; and all of them negated.
 */
#define PER_PAIR	4
TEST(f32_around_every_rounding_boundary)
{
	uint32_t npairs = F16_MAXBITS + 1, n = 2 * PER_PAIR * npairs;
	uint32_t i, k, bad = 0;
	uint16_t *want, *got;
	struct ops o;
	float *f;
	int tf, th;

	want = malloc(n * sizeof(*want));
	ASSERT_NE(NULL, want);
	ASSERT_EQ(0, ops_init(&o, (size_t)n * 6 + 256));
	ASSERT_EQ(0, convert1(&o, PWTPU_DT_F32, PWTPU_DT_F16, n, &tf, &th));
	f = ops_ptr(&o, tf);
	for (i = 0; i < npairs; i++) {
		/* The next pattern is inf for 65504: 65520 is its tie. */
		long double lo = f16_value((uint16_t)i);
		long double hi = i == F16_MAXBITS ? 65536.0L :
			f16_value((uint16_t)(i + 1));
		float mid = (float)((lo + hi) / 2);
		uint16_t even = (i & 1) ? (uint16_t)(i + 1) : (uint16_t)i;
		float in[PER_PAIR] = {
			(float)lo, mid, nextafterf(mid, 0.0f),
			nextafterf(mid, INFINITY),
		};
		uint16_t out[PER_PAIR] = {
			(uint16_t)i, even, (uint16_t)i, (uint16_t)(i + 1),
		};

		/* The midpoint has 12 significant bits: exact in f32. */
		ASSERT_TRUE((long double)mid == (lo + hi) / 2);
		for (k = 0; k < PER_PAIR; k++) {
			f[PER_PAIR * i + k] = in[k];
			want[PER_PAIR * i + k] = out[k];
			f[PER_PAIR * (npairs + i) + k] = -in[k];
			want[PER_PAIR * (npairs + i) + k] = out[k] | 0x8000;
		}
	}
	ASSERT_EQ(0, ops_run(&o));
	got = ops_ptr(&o, th);
	for (i = 0; i < n; i++) {
		if (got[i] != want[i] && bad++ < 8)
			TH_LOG("f32 %a -> f16 %04x, want %04x", f[i], got[i],
			       want[i]);
		/* The independent reference agrees with the construction. */
		if (ref_f16(f[i]) != want[i] && bad++ < 8)
			TH_LOG("reference: %a -> %04x, want %04x", f[i],
			       ref_f16(f[i]), want[i]);
	}
	EXPECT_EQ(0U, bad);
	free(want);
	ops_fini(&o);
}

/* Random f32 bit patterns (every exponent) against the reference. */
TEST(f32_random_to_f16)
{
	uint32_t n = 1U << 20, i, s = 16016, bad = 0;
	uint16_t *got;
	struct ops o;
	float *f;
	int tf, th;

	ASSERT_EQ(0, ops_init(&o, (size_t)n * 6 + 256));
	ASSERT_EQ(0, convert1(&o, PWTPU_DT_F32, PWTPU_DT_F16, n, &tf, &th));
	f = ops_ptr(&o, tf);
	for (i = 0; i < n; i++) {
		uint32_t u = ops_rand(&s);

		/* Half of them in and near f16's exponent range. */
		if (i & 1)
			u = (u & 0x807fffffU) | (uint32_t)(97 + u % 48) << 23;
		f[i] = f32_from_bits(u);
	}
	ASSERT_EQ(0, ops_run(&o));
	got = ops_ptr(&o, th);
	for (i = 0; i < n; i++)
		if (!f16_same(got[i], ref_f16(f[i])) && bad++ < 8)
			TH_LOG("f32 %a -> f16 %04x, want %04x", f[i], got[i],
			       ref_f16(f[i]));
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

/*
 * f64 to f16 and to bf16 round once: a double one ulp above a midpoint
 * rounds up, though through f32 it would be the midpoint and round to
 * even. Around every boundary as above, with double neighbours; and
 * random doubles against the reference.
 */
static void f64_boundaries(struct __test_metadata *_metadata,
			   enum pwtpu_dtype dt, int ebits, int mbits)
{
	uint64_t inf = ((1ULL << ebits) - 1) << mbits;
	uint32_t npairs = (uint32_t)inf, nrand = 100000;
	uint32_t n = 2 * PER_PAIR * npairs + nrand, i, k, bad = 0;
	uint32_t s = 6464;
	uint16_t *want, *got;
	struct ops o;
	double *d;
	int tf, th;

	want = malloc(n * sizeof(*want));
	ASSERT_NE(NULL, want);
	ASSERT_EQ(0, ops_init(&o, (size_t)n * 10 + 256));
	ASSERT_EQ(0, convert1(&o, PWTPU_DT_F64, dt, n, &tf, &th));
	d = ops_ptr(&o, tf);
	for (i = 0; i < npairs; i++) {
		long double lo = fmt_value(i, ebits, mbits);
		long double hi = i + 1 == inf ?
			ldexpl(1.0L, (1 << (ebits - 1))) :
			fmt_value(i + 1, ebits, mbits);
		double mid = (double)((lo + hi) / 2);
		uint16_t even = (i & 1) ? (uint16_t)(i + 1) : (uint16_t)i;
		double in[PER_PAIR] = {
			(double)lo, mid, nextafter(mid, 0.0),
			nextafter(mid, INFINITY),
		};
		uint16_t out[PER_PAIR] = {
			(uint16_t)i, even, (uint16_t)i, (uint16_t)(i + 1),
		};

		for (k = 0; k < PER_PAIR; k++) {
			d[PER_PAIR * i + k] = in[k];
			want[PER_PAIR * i + k] = out[k];
			d[PER_PAIR * (npairs + i) + k] = -in[k];
			want[PER_PAIR * (npairs + i) + k] =
				out[k] | (uint16_t)(1U << (ebits + mbits));
		}
	}
	for (i = 2 * PER_PAIR * npairs; i < n; i++) {
		uint64_t u = (uint64_t)ops_rand(&s) << 32 | ops_rand(&s);

		/* Mostly near the format's range, some anywhere. */
		if (i & 3)
			u = (u & 0x800fffffffffffffULL) |
			    (uint64_t)(1023 - (1 << (ebits - 1)) - mbits +
				       (int)(u % (2U << ebits))) << 52;
		d[i] = f64_from_bits(u);
		want[i] = (uint16_t)fmt_round(d[i], ebits, mbits);
	}
	ASSERT_EQ(0, ops_run(&o));
	got = ops_ptr(&o, th);
	for (i = 0; i < n; i++) {
		int ok = fmt_isnan(want[i], ebits, mbits) ?
			 fmt_isnan(got[i], ebits, mbits) : got[i] == want[i];

		if (!ok && bad++ < 8)
			TH_LOG("f64 %a -> %04x, want %04x", d[i], got[i],
			       want[i]);
	}
	EXPECT_EQ(0U, bad);
	free(want);
	ops_fini(&o);
}

TEST(f64_to_f16_rounds_once)
{
	f64_boundaries(_metadata, PWTPU_DT_F16, F16_E, F16_M);
}

TEST(f64_to_bf16_rounds_once)
{
	f64_boundaries(_metadata, PWTPU_DT_BF16, 8, 7);
}

/*
 * NaNs narrowing to f16 stay NaNs: quiet, sign and top payload kept, even
 * when the payload lives only in bits f16 has no room for.
 */
TEST(nan_payloads)
{
	static const uint32_t f32_nans[] = {
		0x7f800001U, 0xff800001U, 0x7fc00000U, 0x7fa00000U,
		0xffffe000U, 0x7f802000U,
	};
	static const uint16_t want32[] = {
		0x7e00, 0xfe00, 0x7e00, 0x7f00, 0xffff, 0x7e01,
	};
	static const uint64_t f64_nans[] = {
		0x7ff0000000000001ULL, 0xfff8000000000000ULL,
		0x7ff4000000000000ULL, 0x7ffffc0000000000ULL,
	};
	static const uint16_t want64[] = { 0x7e00, 0xfe00, 0x7f00, 0x7fff };
	uint16_t *h32, *h64;
	struct ops o;
	int tf, th, td, th2;
	uint32_t i;

	ASSERT_EQ(0, ops_init(&o, 1024));
	ASSERT_EQ(0, convert1(&o, PWTPU_DT_F32, PWTPU_DT_F16, 6, &tf, &th));
	ASSERT_EQ(0, convert1(&o, PWTPU_DT_F64, PWTPU_DT_F16, 4, &td, &th2));
	for (i = 0; i < 6; i++)
		((uint32_t *)ops_ptr(&o, tf))[i] = f32_nans[i];
	for (i = 0; i < 4; i++)
		((uint64_t *)ops_ptr(&o, td))[i] = f64_nans[i];
	ASSERT_EQ(0, ops_run(&o));
	h32 = ops_ptr(&o, th);
	h64 = ops_ptr(&o, th2);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want32[i], h32[i]) TH_LOG("f32 NaN %08x", f32_nans[i]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(want64[i], h64[i]);
	ops_fini(&o);
}

static const uint16_t f16_specials[] = {
	0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff, 0x0400,
	0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x3555,
	0x4248, 0x5bff, 0x6800, 0x1400,
};
#define NSPEC	(sizeof(f16_specials) / sizeof(f16_specials[0]))
#define NPAIRS	(NSPEC * NSPEC + 60000)

static void fill_pairs(uint16_t *a, uint16_t *b)
{
	uint32_t i, j, n = 0, s = 1616;

	for (i = 0; i < NSPEC; i++)
		for (j = 0; j < NSPEC; j++, n++) {
			a[n] = f16_specials[i];
			b[n] = f16_specials[j];
		}
	for (; n < NPAIRS; n++) {
		a[n] = (uint16_t)ops_rand(&s);
		/* Every other b near a, so that sums cancel. */
		b[n] = (n & 1) ? (uint16_t)ops_rand(&s) :
			(uint16_t)((a[n] ^ 0x8000) + ops_rand(&s) % 64 - 32);
	}
}

/* Exact in long double, but DIV: rounded once to 64 bits first. */
static long double ref_binary(enum pwtpu_op op, long double a, long double b)
{
	switch (op) {
	case PWTPU_OP_ADD:
		return a + b;
	case PWTPU_OP_SUB:
		return a - b;
	case PWTPU_OP_MUL:
		return a * b;
	case PWTPU_OP_DIV:
		return a / b;
	case PWTPU_OP_MAX:
		if (a == b)
			return signbit(a) ? b : a;
		return a > b ? a : b;
	default:
		if (a == b)
			return signbit(a) ? a : b;
		return a < b ? a : b;
	}
}

/*
 * ADD..MIN: the correctly rounded f16 of the exact result (a 64-bit
 * quotient rounds to the same f16: 64 >= 2 * 11 + 2). MAX and MIN of a
 * NaN: the first NaN operand, quieted.
 */
TEST(binary_ops)
{
	static const enum pwtpu_op ops[] = {
		PWTPU_OP_ADD, PWTPU_OP_SUB, PWTPU_OP_MUL, PWTPU_OP_DIV,
		PWTPU_OP_MAX, PWTPU_OP_MIN,
	};
	uint32_t k, i, bad = 0;

	for (k = 0; k < 6; k++) {
		uint16_t *a, *b, *d, want;
		struct ops o;
		int t[3];

		ASSERT_EQ(0, ops_init(&o, 6 * NPAIRS + 256));
		t[0] = ops_tensor(&o, PWTPU_DT_F16, 1, NPAIRS);
		t[1] = ops_tensor(&o, PWTPU_DT_F16, 1, NPAIRS);
		t[2] = ops_tensor(&o, PWTPU_DT_F16, 1, NPAIRS);
		ASSERT_LE(0, pwprog_binary(o.p, ops[k], t[2], t[0], t[1]));
		a = ops_ptr(&o, t[0]);
		b = ops_ptr(&o, t[1]);
		d = ops_ptr(&o, t[2]);
		fill_pairs(a, b);
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < NPAIRS; i++) {
			if (ops[k] >= PWTPU_OP_MAX && f16_isnan(a[i]))
				want = a[i] | 0x200;
			else if (ops[k] >= PWTPU_OP_MAX && f16_isnan(b[i]))
				want = b[i] | 0x200;
			else
				want = ref_f16(ref_binary(ops[k],
							  f16_value(a[i]),
							  f16_value(b[i])));
			if (!(ops[k] >= PWTPU_OP_MAX ? d[i] == want :
			      f16_same(d[i], want)) && bad++ < 8)
				TH_LOG("op %d: %04x, %04x -> %04x, want %04x",
				       ops[k], a[i], b[i], d[i], want);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

/* NEG and ABS flip and clear the sign bit of every pattern, NaN too. */
TEST(neg_abs_every_value)
{
	uint16_t *a, *n, *m;
	uint32_t i, bad = 0;
	struct ops o;
	int ta, tn, tm;

	ASSERT_EQ(0, ops_init(&o, NF16 * 6 + 256));
	ta = ops_tensor(&o, PWTPU_DT_F16, 1, NF16);
	tn = ops_tensor(&o, PWTPU_DT_F16, 1, NF16);
	tm = ops_tensor(&o, PWTPU_DT_F16, 1, NF16);
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_NEG, tn, ta));
	ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_ABS, tm, ta));
	a = ops_ptr(&o, ta);
	for (i = 0; i < NF16; i++)
		a[i] = (uint16_t)i;
	ASSERT_EQ(0, ops_run(&o));
	n = ops_ptr(&o, tn);
	m = ops_ptr(&o, tm);
	for (i = 0; i < NF16; i++)
		if ((n[i] != (a[i] ^ 0x8000) || m[i] != (a[i] & 0x7fff)) &&
		    bad++ < 8)
			TH_LOG("%04x: neg %04x abs %04x", a[i], n[i], m[i]);
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

TEST(compare)
{
	uint32_t mode, i, bad = 0;

	for (mode = PWTPU_CMP_EQ; mode <= PWTPU_CMP_GE; mode++) {
		uint16_t *a, *b;
		struct ops o;
		int8_t *d;
		int t[3];

		ASSERT_EQ(0, ops_init(&o, 5 * NPAIRS + 256));
		t[0] = ops_tensor(&o, PWTPU_DT_F16, 1, NPAIRS);
		t[1] = ops_tensor(&o, PWTPU_DT_F16, 1, NPAIRS);
		t[2] = ops_tensor(&o, PWTPU_DT_I8, 1, NPAIRS);
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_COMPARE, (uint8_t)mode,
					 t[2], t[0], t[1], PWTPU_NO_TENSOR,
					 NULL, 0));
		a = ops_ptr(&o, t[0]);
		b = ops_ptr(&o, t[1]);
		d = ops_ptr(&o, t[2]);
		fill_pairs(a, b);
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < NPAIRS; i++) {
			long double x = f16_value(a[i]), y = f16_value(b[i]);
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
				TH_LOG("mode %u: %04x, %04x -> %d", mode, a[i],
				       b[i], d[i]);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

static float ref_math(enum pwtpu_op op, long double x)
{
	switch (op) {
	case PWTPU_OP_EXP:
		return (float)expl(x);
	case PWTPU_OP_LOG:
		return (float)logl(x);
	case PWTPU_OP_TANH:
		return (float)tanhl(x);
	default:
		return (float)(1.0L / sqrtl(x));
	}
}

/*
 * EXP, LOG, TANH, RSQRT of every f16: the f32 function's result rounded
 * to f16. The f32 functions are documented within 1 ulp of the correctly
 * rounded f32 (test_math.c): a result is right when it is the f16
 * rounding of that f32 or of a neighbour, and NaN, infinities and zeros
 * must be exact.
 */
TEST(math_every_value)
{
	static const enum pwtpu_op ops[] = {
		PWTPU_OP_EXP, PWTPU_OP_LOG, PWTPU_OP_TANH, PWTPU_OP_RSQRT,
	};
	uint32_t k, i, bad = 0, inexact = 0;

	for (k = 0; k < 4; k++) {
		uint16_t *a, *d;
		struct ops o;
		int ta, td;

		ASSERT_EQ(0, ops_init(&o, 4 * NF16 + 256));
		ta = ops_tensor(&o, PWTPU_DT_F16, 1, NF16);
		td = ops_tensor(&o, PWTPU_DT_F16, 1, NF16);
		ASSERT_LE(0, pwprog_unary(o.p, ops[k], td, ta));
		a = ops_ptr(&o, ta);
		for (i = 0; i < NF16; i++)
			a[i] = (uint16_t)i;
		ASSERT_EQ(0, ops_run(&o));
		d = ops_ptr(&o, td);
		for (i = 0; i < NF16; i++) {
			float r = ref_math(ops[k], f16_value(a[i]));
			uint16_t want = ref_f16(r);
			int ok = f16_same(d[i], want);

			if (!ok && isfinite(r) && r != 0.0f &&
			    (d[i] == ref_f16(nextafterf(r, INFINITY)) ||
			     d[i] == ref_f16(nextafterf(r, -INFINITY)))) {
				ok = 1;
				inexact++;
			}
			if (!ok && bad++ < 8)
				TH_LOG("op %d of %04x: %04x, want %04x", ops[k],
				       a[i], d[i], want);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
	TH_LOG("%u results from an f32 one ulp off", inexact);
}

/*
 * REDUCE of f16 accumulates in f32 and rounds once: 2048 plus 100 ones
 * is 2148 (f16 sums would stay at 2048, whose ulp is 2). Random rows
 * against an f32 sum in ascending order, rounded to f16.
 */
TEST(reduce_accumulates_in_f32)
{
	uint32_t rows = 64, cols = 301, i, j, s = 1234, bad = 0, axis = 2;
	uint16_t *a, *sum, *mx, *mn;
	struct ops o;
	int ta, ts, tx, tn;

	ASSERT_EQ(0, ops_init(&o, 2 * rows * cols + 3 * 2 * rows + 512));
	ta = ops_tensor(&o, PWTPU_DT_F16, 2, rows, cols);
	ts = ops_tensor(&o, PWTPU_DT_F16, 1, rows);
	tx = ops_tensor(&o, PWTPU_DT_F16, 1, rows);
	tn = ops_tensor(&o, PWTPU_DT_F16, 1, rows);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, ts,
				 ta, NO, NO, &axis, 1));
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_MAX, tx,
				 ta, NO, NO, &axis, 1));
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_MIN, tn,
				 ta, NO, NO, &axis, 1));
	a = ops_ptr(&o, ta);
	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			a[i * cols + j] = (uint16_t)((ops_rand(&s) % 0x7800) |
						     (ops_rand(&s) & 0x8000));
	/* Row 0: 2048, then ones. */
	a[0] = 0x6800;
	for (j = 1; j < cols; j++)
		a[j] = j <= 100 ? 0x3c00 : 0x0000;
	ASSERT_EQ(0, ops_run(&o));
	sum = ops_ptr(&o, ts);
	mx = ops_ptr(&o, tx);
	mn = ops_ptr(&o, tn);
	EXPECT_EQ(0x6832, sum[0]);	/* 2148 */
	for (i = 0; i < rows; i++) {
		float f = -0.0f;
		long double hi = -INFINITY, lo = INFINITY;

		for (j = 0; j < cols; j++) {
			long double v = f16_value(a[i * cols + j]);

			f += (float)v;
			hi = v > hi ? v : hi;
			lo = v < lo ? v : lo;
		}
		if ((!f16_same(sum[i], ref_f16(f)) ||
		     f16_value(mx[i]) != hi || f16_value(mn[i]) != lo) &&
		    bad++ < 8)
			TH_LOG("row %u: sum %04x max %04x min %04x", i, sum[i],
			       mx[i], mn[i]);
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

TEST_HARNESS_MAIN
