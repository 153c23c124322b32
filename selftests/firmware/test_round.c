// SPDX-License-Identifier: GPL-2.0
/*
 * test_round.c - FLOOR, CEIL, ROUND_EVEN, ROUND_AFZ, REDUCE_PRECISION and
 * REM of floats, which are exact, on f16, bf16, f32 and f64, through
 * pwfw_verify + pwfw_exec, bit for bit against references computed here
 * on exact values in long double: floorl, ceill, rintl, roundl and fmodl
 * (every f16 and bf16 input, sweeps and random values of f32 and f64,
 * and the edges: -0.5, 0.5, 2.5, -2.5, 2^52 + 0.5, 0.49999997, NaN, inf,
 * signed zeros, subnormals), and REDUCE_PRECISION's definition written on
 * values rather than bits.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

/* A float dtype's format: exponent and fraction bits, element bytes. */
struct fmt {
	enum pwtpu_dtype dt;
	int e, m, size;
};

static const struct fmt fmt_f16 = { PWTPU_DT_F16, 5, 10, 2 };
static const struct fmt fmt_bf16 = { PWTPU_DT_BF16, 8, 7, 2 };
static const struct fmt fmt_f32 = { PWTPU_DT_F32, 8, 23, 4 };
static const struct fmt fmt_f64 = { PWTPU_DT_F64, 11, 52, 8 };

static const enum pwtpu_op round_ops[] = {
	PWTPU_OP_FLOOR, PWTPU_OP_CEIL, PWTPU_OP_ROUND_EVEN, PWTPU_OP_ROUND_AFZ,
};
static const char *const round_names[] = {
	"floor", "ceil", "round_even", "round_afz",
};

static uint64_t get(const struct fmt *f, const void *p, uint32_t i)
{
	switch (f->size) {
	case 2:
		return ((const uint16_t *)p)[i];
	case 4:
		return ((const uint32_t *)p)[i];
	default:
		return ((const uint64_t *)p)[i];
	}
}

static void put(const struct fmt *f, void *p, uint32_t i, uint64_t v)
{
	switch (f->size) {
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

static uint64_t inf_bits(const struct fmt *f)
{
	return ((1ULL << f->e) - 1) << f->m;
}

static int isnan_bits(const struct fmt *f, uint64_t u)
{
	return fmt_isnan(u, f->e, f->m);
}

static long double value(const struct fmt *f, uint64_t u)
{
	return fmt_value(u, f->e, f->m);
}

/* The pattern of an exact (or rounded-to-nearest) value. */
static uint64_t pattern(const struct fmt *f, long double v)
{
	float x;
	double d;

	switch (f->dt) {
	case PWTPU_DT_F32:
		x = (float)v;
		return f32_bits(x);
	case PWTPU_DT_F64:
		d = (double)v;
		return f64_bits(d);
	default:
		return fmt_round(v, f->e, f->m);
	}
}

/* Same bits; or both NaN, the result quiet. */
static int same(const struct fmt *f, uint64_t got, uint64_t want)
{
	if (isnan_bits(f, want))
		return isnan_bits(f, got) && ((got >> (f->m - 1)) & 1);
	return got == want;
}

static uint64_t ref_round(const struct fmt *f, enum pwtpu_op op, uint64_t u)
{
	long double v = value(f, u);

	if (isnan(v) || isinf(v))
		return u;
	switch (op) {
	case PWTPU_OP_FLOOR:
		return pattern(f, floorl(v));
	case PWTPU_OP_CEIL:
		return pattern(f, ceill(v));
	case PWTPU_OP_ROUND_EVEN:
		return pattern(f, rintl(v));
	default:
		return pattern(f, roundl(v));
	}
}

/*
 * REDUCE_PRECISION on values: round |x| to @mb fraction bits in its
 * binade (in the least normal one for a subnormal), to nearest, a tie to
 * the even last kept bit (with no fraction bits, that is the exponent
 * field's: of 0.75 between 0.5 and 1, the one whose field is even); then,
 * for @eb below the format's, 2^(r + 1) and up is inf and below 2^(1 - r)
 * is 0 (r = 2^(eb - 1) - 1). NaN stays (is +inf for mb = 0).
 */
static int exp_field_odd(long double y, int bias)
{
	return y != 0 && ((ilogbl(y) + bias) & 1);
}

static uint64_t ref_rp(const struct fmt *f, uint64_t u, uint32_t eb,
		       uint32_t mb)
{
	long double v = value(f, u), a = fabsl(v), q, y;
	int bias = (1 << (f->e - 1)) - 1, e, r;

	if (isnan(v))
		return mb ? u : inf_bits(f);
	if (isinf(v))
		return u;
	y = a;
	if (a != 0 && mb < (uint32_t)f->m) {
		e = ilogbl(a);
		if (e < 1 - bias)
			e = 1 - bias;
		q = ldexpl(1.0L, e - (int)mb);
		y = rintl(a / q) * q;
		if (!mb && a / q - floorl(a / q) == 0.5L) {
			y = floorl(a / q) * q;
			if (exp_field_odd(y, bias))
				y += q;
		}
	}
	if (eb < (uint32_t)f->e) {
		r = (1 << (eb - 1)) - 1;
		if (y >= ldexpl(1.0L, r + 1))
			y = INFINITY;
		else if (y < ldexpl(1.0L, 1 - r))
			y = 0;
	}
	return pattern(f, signbit(v) ? -y : y);
}

static uint64_t ref_rem(const struct fmt *f, uint64_t x, uint64_t y)
{
	return pattern(f, fmodl(value(f, x), value(f, y)));
}

/* Edge values, in any format, as long doubles. */
static const long double edge_values[] = {
	0.0L, -0.0L, 0.5L, -0.5L, 1.5L, -1.5L, 2.5L, -2.5L, 3.5L, 0.25L,
	0.75L, -0.75L, 1.0L, -1.0L, 0.49999997L, -0.49999997L, 0.5000001L,
	8388608.5L, 4503599627370496.5L, 4503599627370497.0L,
	-4503599627370495.5L, 1e-40L, -1e-300L, 65504.0L, 65519.0L,
	65520.0L, 1e30L, -1e30L, 3.4e38L, 1e308L, 7.0L, -7.0L, 123.456L,
};
#define NEDGES (sizeof(edge_values) / sizeof(edge_values[0]))

static uint64_t rand64(uint32_t *s)
{
	uint64_t hi = ops_rand(s);

	return hi << 32 | ops_rand(s);
}

/* @n inputs of format @f: edges, then the specials, then @fill. */
static uint32_t inputs(const struct fmt *f, uint64_t *v, uint32_t n,
		       int exhaustive, uint32_t *seed)
{
	uint32_t i = 0, k;

	if (exhaustive) {
		for (i = 0; i < n; i++)
			v[i] = i;
		return n;
	}
	for (k = 0; k < NEDGES; k++)
		v[i++] = pattern(f, edge_values[k]);
	v[i++] = inf_bits(f);
	v[i++] = inf_bits(f) | 1ULL << (f->e + f->m);
	v[i++] = inf_bits(f) | 1;			/* signalling NaN */
	v[i++] = inf_bits(f) | 1ULL << (f->m - 1);	/* quiet NaN */
	v[i++] = 1;					/* least subnormal */
	v[i++] = (1ULL << f->m) - 1;			/* largest */
	v[i++] = inf_bits(f) - 1;			/* largest finite */
	for (; i < n; i++) {
		uint64_t r = rand64(seed);

		if (f->size < 8)
			r &= (1ULL << (8 * f->size)) - 1;
		/* Half of them near 1..2^M, where the fraction matters. */
		if (i & 1) {
			long double x = ldexpl((long double)(r % 100000) +
					       (long double)(r >> 40) /
					       16777216.0L,
					       (int)(r % 60) - 30);
			r = pattern(f, (r >> 63) ? -x : x);
		}
		v[i] = r;
	}
	return n;
}

static void check_round(struct __test_metadata *_metadata,
			const struct fmt *f, uint32_t n, int exhaustive)
{
	uint32_t seed = 0x9e3779b9u + (uint32_t)f->dt, i, k, bad = 0;
	uint64_t *v = malloc(n * sizeof(*v));
	int ta, td[4];
	struct ops o;
	void *a;

	ASSERT_NE(NULL, v);
	inputs(f, v, n, exhaustive, &seed);
	ASSERT_EQ(0, ops_init(&o, 5 * (size_t)n * f->size + 1024));
	ta = ops_tensor(&o, f->dt, 1, n);
	for (k = 0; k < 4; k++) {
		td[k] = ops_tensor(&o, f->dt, 1, n);
		ASSERT_LE(0, pwprog_unary(o.p, round_ops[k], td[k], ta));
	}
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++)
		put(f, a, i, v[i]);
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < 4; k++) {
		for (i = 0; i < n; i++) {
			uint64_t got = get(f, ops_ptr(&o, td[k]), i);
			uint64_t want = ref_round(f, round_ops[k], v[i]);

			if (!same(f, got, want) && bad++ < 10)
				TH_LOG("%s %s(%#llx = %La) = %#llx, want %#llx",
				       pwtpu_dtype_name(f->dt), round_names[k],
				       (unsigned long long)v[i],
				       value(f, v[i]),
				       (unsigned long long)got,
				       (unsigned long long)want);
		}
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
	free(v);
}

TEST(round_f16_all)
{
	check_round(_metadata, &fmt_f16, 65536, 1);
}

TEST(round_bf16_all)
{
	check_round(_metadata, &fmt_bf16, 65536, 1);
}

TEST(round_f32)
{
	check_round(_metadata, &fmt_f32, 200000, 0);
}

TEST(round_f64)
{
	check_round(_metadata, &fmt_f64, 200000, 0);
}

/* The header's examples. */
TEST(round_documented)
{
	static const struct {
		enum pwtpu_op op;
		float x, want;
	} cases[] = {
		{ PWTPU_OP_FLOOR, -0.5f, -1.0f },
		{ PWTPU_OP_FLOOR, 0.5f, 0.0f },
		{ PWTPU_OP_FLOOR, -0.0f, -0.0f },
		{ PWTPU_OP_CEIL, -0.5f, -0.0f },
		{ PWTPU_OP_CEIL, 0.5f, 1.0f },
		{ PWTPU_OP_ROUND_EVEN, -0.5f, -0.0f },
		{ PWTPU_OP_ROUND_EVEN, 2.5f, 2.0f },
		{ PWTPU_OP_ROUND_EVEN, -2.5f, -2.0f },
		{ PWTPU_OP_ROUND_EVEN, 3.5f, 4.0f },
		{ PWTPU_OP_ROUND_AFZ, -0.5f, -1.0f },
		{ PWTPU_OP_ROUND_AFZ, 0.49999997f, 0.0f },
		{ PWTPU_OP_ROUND_AFZ, 2.5f, 3.0f },
		{ PWTPU_OP_ROUND_AFZ, 8388607.5f, 8388608.0f },
		{ PWTPU_OP_ROUND_EVEN, 8388607.5f, 8388608.0f },
		{ PWTPU_OP_FLOOR, INFINITY, INFINITY },
		{ PWTPU_OP_CEIL, -INFINITY, -INFINITY },
	};
	uint32_t n = sizeof(cases) / sizeof(cases[0]), i;
	struct ops o;

	ASSERT_EQ(0, ops_init(&o, 2 * 64 * n));
	for (i = 0; i < n; i++) {
		int ta = ops_tensor(&o, PWTPU_DT_F32, 0);
		int td = ops_tensor(&o, PWTPU_DT_F32, 0);

		ASSERT_LE(0, pwprog_unary(o.p, cases[i].op, td, ta));
		*(float *)ops_ptr(&o, ta) = cases[i].x;
	}
	ASSERT_EQ(0, ops_run(&o));
	for (i = 0; i < n; i++)
		EXPECT_EQ(f32_bits(cases[i].want),
			  f32_bits(*(float *)ops_ptr(&o, 2 * i + 1)))
			TH_LOG("op %d (%a)", cases[i].op, cases[i].x);
	ops_fini(&o);
}

/* Reduced formats: e5m10 (f16), e8m7 (bf16), e4m3, e5m2, e2m1, e1m0... */
static const uint32_t rp_formats[][2] = {
	{ 5, 10 }, { 8, 7 }, { 4, 3 }, { 5, 2 }, { 2, 1 }, { 1, 0 }, { 3, 0 },
	{ 8, 23 }, { 11, 52 }, { 6, 30 }, { 100, 200 }, { 10, 1 },
};
#define NRP (sizeof(rp_formats) / sizeof(rp_formats[0]))

static void check_rp(struct __test_metadata *_metadata, const struct fmt *f,
		     uint32_t n, int exhaustive)
{
	uint32_t seed = 0x51ed270bu + (uint32_t)f->dt, i, k, bad = 0;
	uint64_t *v = malloc(n * sizeof(*v));
	int ta, td[NRP];
	struct ops o;
	void *a;

	ASSERT_NE(NULL, v);
	inputs(f, v, n, exhaustive, &seed);
	ASSERT_EQ(0, ops_init(&o, (NRP + 1) * (size_t)n * f->size + 4096));
	ta = ops_tensor(&o, f->dt, 1, n);
	for (k = 0; k < NRP; k++) {
		td[k] = ops_tensor(&o, f->dt, 1, n);
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE_PRECISION, 0,
					 td[k], ta, PWTPU_NO_TENSOR,
					 PWTPU_NO_TENSOR, rp_formats[k], 2));
	}
	a = ops_ptr(&o, ta);
	for (i = 0; i < n; i++)
		put(f, a, i, v[i]);
	ASSERT_EQ(0, ops_run(&o));
	for (k = 0; k < NRP; k++) {
		for (i = 0; i < n; i++) {
			uint64_t got = get(f, ops_ptr(&o, td[k]), i);
			uint64_t want = ref_rp(f, v[i], rp_formats[k][0],
					       rp_formats[k][1]);

			/* NaN is kept bit for bit. */
			if (got != want && bad++ < 10)
				TH_LOG("%s e%um%u(%#llx = %La) = %#llx, want %#llx",
				       pwtpu_dtype_name(f->dt),
				       rp_formats[k][0], rp_formats[k][1],
				       (unsigned long long)v[i],
				       value(f, v[i]),
				       (unsigned long long)got,
				       (unsigned long long)want);
		}
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
	free(v);
}

TEST(reduce_precision_f16_all)
{
	check_rp(_metadata, &fmt_f16, 65536, 1);
}

TEST(reduce_precision_bf16_all)
{
	check_rp(_metadata, &fmt_bf16, 65536, 1);
}

TEST(reduce_precision_f32)
{
	check_rp(_metadata, &fmt_f32, 100000, 0);
}

TEST(reduce_precision_f64)
{
	check_rp(_metadata, &fmt_f64, 50000, 0);
}

/* StableHLO's example: f64 to e5m10. */
TEST(reduce_precision_spec_example)
{
	const double in[6] = {
		INFINITY, f64_from_bits(0x7fffffffffffffffULL),
		f64_from_bits(1), 0.0, 65519.0, 65520.0,
	};
	const uint32_t args[2] = { 5, 10 };
	struct ops o;
	double *d;
	int ta, td;

	ASSERT_EQ(0, ops_init(&o, 256));
	ta = ops_tensor(&o, PWTPU_DT_F64, 1, 6);
	td = ops_tensor(&o, PWTPU_DT_F64, 1, 6);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE_PRECISION, 0, td, ta,
				 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, args, 2));
	memcpy(ops_ptr(&o, ta), in, sizeof(in));
	ASSERT_EQ(0, ops_run(&o));
	d = ops_ptr(&o, td);
	EXPECT_EQ(INFINITY, d[0]);
	EXPECT_EQ(0x7fffffffffffffffULL, f64_bits(d[1]));
	EXPECT_EQ(0ULL, f64_bits(d[2]));
	EXPECT_EQ(0ULL, f64_bits(d[3]));
	EXPECT_EQ(65504.0, d[4]);
	EXPECT_EQ(INFINITY, d[5]);
	ops_fini(&o);
}

static void check_rem(struct __test_metadata *_metadata, const struct fmt *f,
		      uint32_t n)
{
	uint32_t seed = 0x2545f491u + (uint32_t)f->dt, i, bad = 0;
	uint64_t *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	uint32_t ne = (uint32_t)NEDGES + 7, ngrid = ne * ne;
	uint64_t e[NEDGES + 7];
	int ta, tb, td;
	struct ops o;
	void *a, *b;

	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, y);
	ASSERT_LT(ngrid, n);
	/* Every pair of edges, then random pairs. */
	inputs(f, e, ne, 0, &seed);
	for (i = 0; i < ngrid; i++) {
		x[i] = e[i / ne];
		y[i] = e[i % ne];
	}
	inputs(f, x + ngrid, n - ngrid, 0, &seed);
	inputs(f, y + ngrid, n - ngrid, 0, &seed);
	for (i = ngrid; i < n; i++) {
		uint64_t r = rand64(&seed);

		/* Mostly finite, any exponents: long divisions of all lengths. */
		if (r & 1)
			x[i] = r % inf_bits(f) | (r & 2 ? 1ULL << (f->e + f->m) : 0);
		if (r & 4)
			y[i] = (r >> 8) % inf_bits(f) |
			       (r & 8 ? 1ULL << (f->e + f->m) : 0);
	}
	ASSERT_EQ(0, ops_init(&o, 3 * (size_t)n * f->size + 1024));
	ta = ops_tensor(&o, f->dt, 1, n);
	tb = ops_tensor(&o, f->dt, 1, n);
	td = ops_tensor(&o, f->dt, 1, n);
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_REM, td, ta, tb));
	a = ops_ptr(&o, ta);
	b = ops_ptr(&o, tb);
	for (i = 0; i < n; i++) {
		put(f, a, i, x[i]);
		put(f, b, i, y[i]);
	}
	ASSERT_EQ(0, ops_run(&o));
	for (i = 0; i < n; i++) {
		uint64_t got = get(f, ops_ptr(&o, td), i);
		uint64_t want = ref_rem(f, x[i], y[i]);

		if (!same(f, got, want) && bad++ < 10)
			TH_LOG("%s rem(%La, %La) = %#llx, want %#llx",
			       pwtpu_dtype_name(f->dt), value(f, x[i]),
			       value(f, y[i]), (unsigned long long)got,
			       (unsigned long long)want);
	}
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
	free(x);
	free(y);
}

TEST(rem_f16)
{
	check_rem(_metadata, &fmt_f16, 100000);
}

TEST(rem_bf16)
{
	check_rem(_metadata, &fmt_bf16, 100000);
}

TEST(rem_f32)
{
	check_rem(_metadata, &fmt_f32, 100000);
}

TEST(rem_f64)
{
	check_rem(_metadata, &fmt_f64, 100000);
}

TEST_HARNESS_MAIN
