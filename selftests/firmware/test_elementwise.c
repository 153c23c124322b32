// SPDX-License-Identifier: GPL-2.0
/*
 * test_elementwise.c - ADD..MIN, NEG, ABS, COMPARE and SELECT for every
 * dtype, through pwfw_verify + pwfw_exec, against references written
 * here: C arithmetic for f32, f32 plus an independent bf16 rounding for
 * bf16, 64-bit arithmetic wrapped for the integers.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

static const float f32_specials[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, -7.25f, 1e30f, -1e30f,
	3.4e38f, 1.17549435e-38f, 1e-40f, -1e-45f, INFINITY, -INFINITY,
	NAN, -NAN,
};
#define NSPECIAL (sizeof(f32_specials) / sizeof(f32_specials[0]))

static const int32_t i32_specials[] = {
	0, 1, -1, 2, -2, 7, -7, 127, -128, INT32_MAX, INT32_MIN,
	INT32_MAX - 1, INT32_MIN + 1, 1 << 16,
};
#define NISPECIAL (sizeof(i32_specials) / sizeof(i32_specials[0]))

static const enum pwtpu_op binary_ops[] = {
	PWTPU_OP_ADD, PWTPU_OP_SUB, PWTPU_OP_MUL, PWTPU_OP_DIV, PWTPU_OP_MAX,
	PWTPU_OP_MIN,
};
#define NBINARY (sizeof(binary_ops) / sizeof(binary_ops[0]))
#define NRANDOM 3000
#define NPAIRS_F (NSPECIAL * NSPECIAL + NRANDOM)
#define NPAIRS_I (NISPECIAL * NISPECIAL + NRANDOM)

/* Documented: NaN wins (the first NaN operand); +0 is above -0. */
static float ref_max(float a, float b, int is_max)
{
	if (isnan(a))
		return a;
	if (isnan(b))
		return b;
	if (a == 0.0f && b == 0.0f) {
		int a_neg = signbit(a) != 0;

		if (is_max)
			return a_neg ? b : a;
		return a_neg ? a : b;
	}
	if (is_max)
		return a > b ? a : b;
	return a < b ? a : b;
}

static float ref_f32(enum pwtpu_op op, float a, float b)
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
		return ref_max(a, b, 1);
	default:
		return ref_max(a, b, 0);
	}
}

/* Exact result in 64 bits; the caller wraps it to the dtype. */
static int64_t ref_int(enum pwtpu_op op, int64_t a, int64_t b, int64_t min)
{
	switch (op) {
	case PWTPU_OP_ADD:
		return a + b;
	case PWTPU_OP_SUB:
		return a - b;
	case PWTPU_OP_MUL:
		return a * b;
	case PWTPU_OP_DIV:
		if (b == 0)
			return -1;
		if (a == min && b == -1)
			return min;
		return a / b;
	case PWTPU_OP_MAX:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
}

static int32_t wrap32(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

static int8_t wrap8(int64_t v)
{
	return (int8_t)(uint8_t)(uint64_t)v;
}

/* Operand pairs: every pair of specials, then random bit patterns. */
static void fill_pairs_f32(float *a, float *b)
{
	uint32_t s = 12345, i, j, n = 0;

	for (i = 0; i < NSPECIAL; i++)
		for (j = 0; j < NSPECIAL; j++, n++) {
			a[n] = f32_specials[i];
			b[n] = f32_specials[j];
		}
	for (i = 0; i < NRANDOM; i++, n++) {
		a[n] = f32_from_bits(ops_rand(&s));
		/* Half the b's near a, so subtraction cancels. */
		b[n] = (i & 1) ? f32_from_bits(ops_rand(&s)) :
				 a[n] * ops_rand_float(&s, 0.5f, 2.0f);
	}
}

static void fill_pairs_i32(int32_t *a, int32_t *b)
{
	uint32_t s = 777, i, j, n = 0;

	for (i = 0; i < NISPECIAL; i++)
		for (j = 0; j < NISPECIAL; j++, n++) {
			a[n] = i32_specials[i];
			b[n] = i32_specials[j];
		}
	for (i = 0; i < NRANDOM; i++, n++) {
		a[n] = (int32_t)ops_rand(&s);
		b[n] = (int32_t)ops_rand(&s) >> (ops_rand(&s) % 31);
	}
}

/* One binary instruction over @n elements; the three tensors out. */
static int run_binary(struct ops *o, enum pwtpu_op op,
		      enum pwtpu_dtype dt, uint32_t n, int *t)
{
	t[0] = ops_tensor(o, dt, 1, n);
	t[1] = ops_tensor(o, dt, 1, n);
	t[2] = ops_tensor(o, dt, 1, n);
	return pwprog_binary(o->p, op, t[2], t[0], t[1]) < 0 ? -1 : 0;
}

TEST(binary_f32)
{
	uint32_t n = NPAIRS_F, i, k, bad = 0;
	struct ops o;
	int t[3];

	for (k = 0; k < NBINARY; k++) {
		ASSERT_EQ(0, ops_init(&o, 3 * 4 * n + 256));
		ASSERT_EQ(0, run_binary(&o, binary_ops[k], PWTPU_DT_F32, n, t));
		fill_pairs_f32(ops_ptr(&o, t[0]), ops_ptr(&o, t[1]));
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < n; i++) {
			float a = ((float *)ops_ptr(&o, t[0]))[i];
			float b = ((float *)ops_ptr(&o, t[1]))[i];
			float got = ((float *)ops_ptr(&o, t[2]))[i];
			float want = ref_f32(binary_ops[k], a, b);

			if (!f32_same(got, want) && bad++ < 5)
				TH_LOG("op %d: %a, %a -> %a, want %a",
				       binary_ops[k], a, b, got, want);
			/* max/min: the NaN operand itself, quieted. */
			if (binary_ops[k] >= PWTPU_OP_MAX && isnan(want) &&
			    f32_bits(got) != (f32_bits(want) | 0x400000U) &&
			    bad++ < 5)
				TH_LOG("op %d: NaN %08x, want %08x",
				       binary_ops[k], f32_bits(got),
				       f32_bits(want) | 0x400000U);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

TEST(binary_bf16)
{
	uint32_t n = NPAIRS_F, i, k, bad = 0;
	float fa[NPAIRS_F], fb[NPAIRS_F];
	struct ops o;
	int t[3];

	fill_pairs_f32(fa, fb);
	for (k = 0; k < NBINARY; k++) {
		uint16_t *a, *b, *d;

		ASSERT_EQ(0, ops_init(&o, 3 * 2 * n + 256));
		ASSERT_EQ(0, run_binary(&o, binary_ops[k], PWTPU_DT_BF16, n,
					t));
		a = ops_ptr(&o, t[0]);
		b = ops_ptr(&o, t[1]);
		d = ops_ptr(&o, t[2]);
		for (i = 0; i < n; i++) {
			a[i] = ref_bf16(fa[i]);
			b[i] = ref_bf16(fb[i]);
		}
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < n; i++) {
			uint16_t want = ref_bf16(ref_f32(binary_ops[k],
							 bf16_widen(a[i]),
							 bf16_widen(b[i])));

			if (!bf16_same(d[i], want) && bad++ < 5)
				TH_LOG("op %d: %04x, %04x -> %04x, want %04x",
				       binary_ops[k], a[i], b[i], d[i], want);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

TEST(binary_i32)
{
	uint32_t n = NPAIRS_I, i, k, bad = 0;
	struct ops o;
	int t[3];

	for (k = 0; k < NBINARY; k++) {
		int32_t *a, *b, *d;

		ASSERT_EQ(0, ops_init(&o, 3 * 4 * n + 256));
		ASSERT_EQ(0, run_binary(&o, binary_ops[k], PWTPU_DT_I32, n, t));
		a = ops_ptr(&o, t[0]);
		b = ops_ptr(&o, t[1]);
		d = ops_ptr(&o, t[2]);
		fill_pairs_i32(a, b);
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < n; i++) {
			int32_t want = wrap32(ref_int(binary_ops[k], a[i], b[i],
						      INT32_MIN));

			if (d[i] != want && bad++ < 5)
				TH_LOG("op %d: %d, %d -> %d, want %d",
				       binary_ops[k], a[i], b[i], d[i], want);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

TEST(binary_i8)
{
	uint32_t n = 256 * 256, i, k, bad = 0;
	struct ops o;
	int t[3];

	for (k = 0; k < NBINARY; k++) {
		int8_t *a, *b, *d;

		ASSERT_EQ(0, ops_init(&o, 3 * n + 256));
		ASSERT_EQ(0, run_binary(&o, binary_ops[k], PWTPU_DT_I8, n, t));
		a = ops_ptr(&o, t[0]);
		b = ops_ptr(&o, t[1]);
		d = ops_ptr(&o, t[2]);
		/* Every pair of i8 values. */
		for (i = 0; i < n; i++) {
			a[i] = (int8_t)(i >> 8);
			b[i] = (int8_t)i;
		}
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < n; i++) {
			int8_t want = wrap8(ref_int(binary_ops[k], a[i], b[i],
						    INT8_MIN));

			if (d[i] != want && bad++ < 5)
				TH_LOG("op %d: %d, %d -> %d, want %d",
				       binary_ops[k], a[i], b[i], d[i], want);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

/* Integer edge cases the UAPI names, spelled out. */
TEST(int_division_edges)
{
	struct ops o;
	int32_t *a, *b, *d;
	int t[3];

	ASSERT_EQ(0, ops_init(&o, 1024));
	ASSERT_EQ(0, run_binary(&o, PWTPU_OP_DIV, PWTPU_DT_I32, 4, t));
	a = ops_ptr(&o, t[0]);
	b = ops_ptr(&o, t[1]);
	d = ops_ptr(&o, t[2]);
	a[0] = 5;	b[0] = 0;
	a[1] = INT32_MIN; b[1] = -1;
	a[2] = -7;	b[2] = 2;
	a[3] = 7;	b[3] = -2;
	ASSERT_EQ(0, ops_run(&o));
	EXPECT_EQ(-1, d[0]);
	EXPECT_EQ(INT32_MIN, d[1]);
	EXPECT_EQ(-3, d[2]);
	EXPECT_EQ(-3, d[3]);
	ops_fini(&o);
}

/* More elements than one FPU section: every chunk is computed. */
TEST(add_many_chunks)
{
	uint32_t n = 3 * 65536 + 17, i, bad = 0;
	float *a, *b, *d;
	struct ops o;
	int t[3];

	ASSERT_EQ(0, ops_init(&o, 3 * 4 * (size_t)n + 256));
	ASSERT_EQ(0, run_binary(&o, PWTPU_OP_ADD, PWTPU_DT_F32, n, t));
	a = ops_ptr(&o, t[0]);
	b = ops_ptr(&o, t[1]);
	d = ops_ptr(&o, t[2]);
	for (i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = 0.25f;
	}
	ASSERT_EQ(0, ops_run(&o));
	for (i = 0; i < n; i++)
		if (d[i] != (float)i + 0.25f)
			bad++;
	EXPECT_EQ(0U, bad);
	ops_fini(&o);
}

/* A result may be an operand exactly: x = x * y, and x = x + x. */
TEST(in_place)
{
	int32_t *x, *y;
	struct ops o;
	int tx, ty, i;

	ASSERT_EQ(0, ops_init(&o, 1024));
	tx = ops_tensor(&o, PWTPU_DT_I32, 2, 4, 5);
	ty = ops_tensor(&o, PWTPU_DT_I32, 2, 4, 5);
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_MUL, tx, tx, ty));
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_ADD, tx, tx, tx));
	x = ops_ptr(&o, tx);
	y = ops_ptr(&o, ty);
	for (i = 0; i < 20; i++) {
		x[i] = i - 10;
		y[i] = 3;
	}
	ASSERT_EQ(0, ops_run(&o));
	for (i = 0; i < 20; i++)
		EXPECT_EQ((i - 10) * 6, x[i]);
	ops_fini(&o);
}

TEST(neg_abs)
{
	static const enum pwtpu_dtype dts[] = {
		PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32,
	};
	uint32_t n = 1000, i, k, s = 99, bad = 0;
	struct ops o;

	for (k = 0; k < 4; k++) {
		uint32_t sz = pwfw_dtype_size(dts[k]);
		unsigned char *a, *dn, *da;
		int ta, tn, tb;

		ASSERT_EQ(0, ops_init(&o, 3 * 4 * n + 256));
		ta = ops_tensor(&o, dts[k], 1, n);
		tn = ops_tensor(&o, dts[k], 1, n);
		tb = ops_tensor(&o, dts[k], 1, n);
		ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_NEG, tn, ta));
		ASSERT_LE(0, pwprog_unary(o.p, PWTPU_OP_ABS, tb, ta));
		a = ops_ptr(&o, ta);
		dn = ops_ptr(&o, tn);
		da = ops_ptr(&o, tb);
		for (i = 0; i < n * sz; i++)
			a[i] = (unsigned char)ops_rand(&s);
		/* The edges: zero, the most negative integer, NaN. */
		memset(a, 0, sz);
		memset(a + sz, 0, sz);
		a[2 * sz - 1] = 0x80;
		if (dts[k] == PWTPU_DT_F32)
			((float *)a)[2] = -NAN;
		ASSERT_EQ(0, ops_run(&o));
		for (i = 0; i < n; i++) {
			int ok;

			switch (dts[k]) {
			case PWTPU_DT_F32: {
				float x = ((float *)a)[i];

				/* Sign operations even on NaN: exact bits. */
				ok = f32_bits(((float *)dn)[i]) ==
				     (f32_bits(x) ^ 0x80000000U) &&
				     f32_bits(((float *)da)[i]) ==
				     f32_bits(fabsf(x));
				break;
			}
			case PWTPU_DT_BF16: {
				uint16_t x = ((uint16_t *)a)[i];

				ok = ((uint16_t *)dn)[i] == (x ^ 0x8000) &&
				     ((uint16_t *)da)[i] == (x & 0x7fff);
				break;
			}
			case PWTPU_DT_I8: {
				int8_t x = ((int8_t *)a)[i];

				ok = ((int8_t *)dn)[i] == wrap8(-(int64_t)x) &&
				     ((int8_t *)da)[i] ==
				     wrap8(x < 0 ? -(int64_t)x : x);
				break;
			}
			default: {
				int32_t x = ((int32_t *)a)[i];

				ok = ((int32_t *)dn)[i] ==
				     wrap32(-(int64_t)x) &&
				     ((int32_t *)da)[i] ==
				     wrap32(x < 0 ? -(int64_t)x : x);
				break;
			}
			}
			if (!ok && bad++ < 5)
				TH_LOG("dtype %d element %u wrong", dts[k], i);
		}
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

static int ref_cmp(enum pwtpu_cmp mode, double a, double b)
{
	switch (mode) {
	case PWTPU_CMP_EQ:
		return a == b;
	case PWTPU_CMP_NE:
		return a != b;
	case PWTPU_CMP_LT:
		return a < b;
	case PWTPU_CMP_LE:
		return a <= b;
	case PWTPU_CMP_GT:
		return a > b;
	default:
		return a >= b;
	}
}

/* Element i of a tensor of @dt as a double (exact for all four). */
static double load_as_double(enum pwtpu_dtype dt, const void *p, uint32_t i)
{
	switch (dt) {
	case PWTPU_DT_F32:
		return ((const float *)p)[i];
	case PWTPU_DT_BF16:
		return bf16_widen(((const uint16_t *)p)[i]);
	case PWTPU_DT_I8:
		return ((const int8_t *)p)[i];
	default:
		return ((const int32_t *)p)[i];
	}
}

TEST(compare)
{
	static const enum pwtpu_dtype dts[] = {
		PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32,
	};
	uint32_t n = NSPECIAL * NSPECIAL, i, k, bad = 0;
	float fa[NSPECIAL * NSPECIAL], fb[NSPECIAL * NSPECIAL];
	int32_t ia[NISPECIAL * NISPECIAL], ib[NISPECIAL * NISPECIAL];
	int mode;

	for (i = 0; i < n; i++) {
		fa[i] = f32_specials[i / NSPECIAL];
		fb[i] = f32_specials[i % NSPECIAL];
	}
	for (i = 0; i < NISPECIAL * NISPECIAL; i++) {
		ia[i] = i32_specials[i / NISPECIAL];
		ib[i] = i32_specials[i % NISPECIAL];
	}
	for (k = 0; k < 4; k++) {
		for (mode = PWTPU_CMP_EQ; mode <= PWTPU_CMP_GE; mode++) {
			uint32_t cnt = dts[k] >= PWTPU_DT_I8 ?
				       NISPECIAL * NISPECIAL : n;
			void *a, *b;
			int8_t *d;
			struct ops o;
			int ta, tb, td;

			ASSERT_EQ(0, ops_init(&o, 9 * cnt + 256));
			ta = ops_tensor(&o, dts[k], 1, cnt);
			tb = ops_tensor(&o, dts[k], 1, cnt);
			td = ops_tensor(&o, PWTPU_DT_I8, 1, cnt);
			ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_COMPARE, mode,
						 td, ta, tb, PWTPU_NO_TENSOR,
						 NULL, 0));
			a = ops_ptr(&o, ta);
			b = ops_ptr(&o, tb);
			d = ops_ptr(&o, td);
			for (i = 0; i < cnt; i++) {
				switch (dts[k]) {
				case PWTPU_DT_F32:
					((float *)a)[i] = fa[i];
					((float *)b)[i] = fb[i];
					break;
				case PWTPU_DT_BF16:
					((uint16_t *)a)[i] = ref_bf16(fa[i]);
					((uint16_t *)b)[i] = ref_bf16(fb[i]);
					break;
				case PWTPU_DT_I8:
					((int8_t *)a)[i] = (int8_t)ia[i];
					((int8_t *)b)[i] = (int8_t)ib[i];
					break;
				default:
					((int32_t *)a)[i] = ia[i];
					((int32_t *)b)[i] = ib[i];
					break;
				}
			}
			ASSERT_EQ(0, ops_run(&o));
			for (i = 0; i < cnt; i++) {
				int want = ref_cmp(mode,
						   load_as_double(dts[k], a, i),
						   load_as_double(dts[k], b, i));

				if (d[i] != want && bad++ < 5)
					TH_LOG("dtype %d mode %d elem %u: %d",
					       dts[k], mode, i, d[i]);
			}
			ops_fini(&o);
		}
	}
	EXPECT_EQ(0U, bad);
}

TEST(select_picks)
{
	static const enum pwtpu_dtype dts[] = {
		PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32,
	};
	uint32_t n = 777, i, k, s = 5, bad = 0;

	for (k = 0; k < 4; k++) {
		uint32_t sz = pwfw_dtype_size(dts[k]);
		unsigned char *b, *c, *d;
		int8_t *pred;
		struct ops o;
		int tp, tb, tc, td;

		ASSERT_EQ(0, ops_init(&o, 4 * 4 * n + 256));
		tp = ops_tensor(&o, PWTPU_DT_I8, 2, 7, 111);
		tb = ops_tensor(&o, dts[k], 2, 7, 111);
		tc = ops_tensor(&o, dts[k], 2, 7, 111);
		td = ops_tensor(&o, dts[k], 2, 7, 111);
		ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_SELECT, 0, td, tp, tb,
					 tc, NULL, 0));
		pred = ops_ptr(&o, tp);
		b = ops_ptr(&o, tb);
		c = ops_ptr(&o, tc);
		d = ops_ptr(&o, td);
		for (i = 0; i < n; i++)
			pred[i] = (int8_t)((ops_rand(&s) % 3) - 1);
		for (i = 0; i < n * sz; i++) {
			b[i] = (unsigned char)ops_rand(&s);
			c[i] = (unsigned char)ops_rand(&s);
		}
		ASSERT_EQ(0, ops_run(&o));
		/* Any non-zero predicate picks b. */
		for (i = 0; i < n; i++)
			if (memcmp(d + i * sz, (pred[i] ? b : c) + i * sz, sz) &&
			    bad++ < 5)
				TH_LOG("dtype %d element %u", dts[k], i);
		ops_fini(&o);
	}
	EXPECT_EQ(0U, bad);
}

TEST_HARNESS_MAIN
