// SPDX-License-Identifier: GPL-2.0
/*
 * test_matmul.c - MATMUL on the emulated systolic array.
 *
 * Two references, both written here: one that follows the documented
 * accumulation order (K in tiles of array_dim, each tile summed from +0 in
 * ascending k, tile sums added to an accumulator from +0; f32 products
 * and sums, no fusing), which must match to the bit; and a plain double
 * precision dot product, which must agree within the classic bound for
 * recursive summation. The SIMD and scalar paths must give the same bits.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

struct mm {
	struct ops o;
	enum pwtpu_dtype dt;
	uint32_t m, k, n;
	int ta, tb, td;
};

static double elem(enum pwtpu_dtype dt, const void *p, uint64_t i)
{
	switch (dt) {
	case PWTPU_DT_F32:
		return ((const float *)p)[i];
	case PWTPU_DT_BF16:
		return bf16_widen(((const uint16_t *)p)[i]);
	default:
		return ((const int8_t *)p)[i];
	}
}

static int mm_setup(struct mm *t, enum pwtpu_dtype dt, uint32_t m,
		    uint32_t k, uint32_t n, uint32_t array_dim, uint32_t seed)
{
	uint32_t sz = pwfw_dtype_size(dt);
	uint64_t i;

	t->dt = dt;
	t->m = m;
	t->k = k;
	t->n = n;
	if (ops_init(&t->o, ((uint64_t)m * k + (uint64_t)k * n) * sz +
			    (uint64_t)m * n * 4 + 256))
		return -1;
	t->o.array_dim = array_dim;
	t->ta = ops_tensor(&t->o, dt, 2, m, k);
	t->tb = ops_tensor(&t->o, dt, 2, k, n);
	t->td = ops_tensor(&t->o, dt == PWTPU_DT_I8 ? PWTPU_DT_I32 :
				  PWTPU_DT_F32, 2, m, n);
	if (t->ta < 0 || t->tb < 0 || t->td < 0 ||
	    pwprog_binary(t->o.p, PWTPU_OP_MATMUL, t->td, t->ta, t->tb) < 0)
		return -1;
	for (i = 0; i < (uint64_t)m * k + (uint64_t)k * n; i++) {
		void *p = i < (uint64_t)m * k ? ops_ptr(&t->o, t->ta) :
						ops_ptr(&t->o, t->tb);
		uint64_t j = i < (uint64_t)m * k ? i : i - (uint64_t)m * k;
		float f = ops_rand_float(&seed, -1.0f, 1.0f);

		if (dt == PWTPU_DT_F32)
			((float *)p)[j] = f;
		else if (dt == PWTPU_DT_BF16)
			((uint16_t *)p)[j] = ref_bf16(f);
		else
			((int8_t *)p)[j] = (int8_t)ops_rand(&seed);
	}
	return 0;
}

/* The documented order, for output (r, c), with tiles of @tile. */
static float ref_tiled_f(const struct mm *t, uint32_t tile, uint32_t r,
			 uint32_t c)
{
	const void *a = ops_ptr(&t->o, t->ta), *b = ops_ptr(&t->o, t->tb);
	float acc = 0.0f;
	uint32_t k0, k;

	for (k0 = 0; k0 < t->k; k0 += tile) {
		float part = 0.0f;

		for (k = k0; k < k0 + tile && k < t->k; k++) {
			float prod = (float)elem(t->dt, a, (uint64_t)r * t->k + k) *
				     (float)elem(t->dt, b, (uint64_t)k * t->n + c);

			part = part + prod;
		}
		acc = acc + part;
	}
	return acc;
}

/* Integers: exact products, sums mod 2^32 (order does not matter). */
static int32_t ref_i8(const struct mm *t, uint32_t r, uint32_t c)
{
	const int8_t *a = ops_ptr(&t->o, t->ta), *b = ops_ptr(&t->o, t->tb);
	uint32_t acc = 0, k;

	for (k = 0; k < t->k; k++)
		acc += (uint32_t)((int32_t)a[(uint64_t)r * t->k + k] *
				  b[(uint64_t)k * t->n + c]);
	return (int32_t)acc;
}

/*
 * Compare every output with the tiled reference (exact) and, for floats,
 * the double reference within (K + 2) * 2^-24 * sum |a b|. Returns the
 * number of wrong outputs.
 */
static int mm_check(const struct mm *t, uint32_t tile)
{
	const void *a = ops_ptr(&t->o, t->ta), *b = ops_ptr(&t->o, t->tb);
	const void *d = ops_ptr(&t->o, t->td);
	uint32_t r, c, k;
	int bad = 0;

	for (r = 0; r < t->m; r++) {
		for (c = 0; c < t->n; c++) {
			uint64_t o = (uint64_t)r * t->n + c;
			double exact = 0, mag = 0;
			float got;

			if (t->dt == PWTPU_DT_I8) {
				if (((const int32_t *)d)[o] != ref_i8(t, r, c))
					bad++;
				continue;
			}
			got = ((const float *)d)[o];
			if (!f32_same(got, ref_tiled_f(t, tile, r, c)))
				bad++;
			for (k = 0; k < t->k; k++) {
				double p = elem(t->dt, a, (uint64_t)r * t->k + k) *
					   elem(t->dt, b, (uint64_t)k * t->n + c);

				exact += p;
				mag += fabs(p);
			}
			if (fabs(got - exact) > (t->k + 2) * 0x1p-24 * mag)
				bad++;
		}
	}
	return bad;
}

FIXTURE(shapes) {
	struct mm t;
};

FIXTURE_VARIANT(shapes) {
	enum pwtpu_dtype dt;
	uint32_t m, k, n, array_dim;
};

FIXTURE_SETUP(shapes)
{
	ASSERT_EQ(0, mm_setup(&self->t, variant->dt, variant->m, variant->k,
			      variant->n, variant->array_dim, 77));
}

FIXTURE_TEARDOWN(shapes)
{
	ops_fini(&self->t.o);
}

#define SHAPE(name, d, M, K, N, D)					\
	FIXTURE_VARIANT_ADD(shapes, name) {				\
		.dt = d, .m = M, .k = K, .n = N, .array_dim = D,	\
	}

SHAPE(f32_1x1x1, PWTPU_DT_F32, 1, 1, 1, 0);
SHAPE(f32_3x5x7, PWTPU_DT_F32, 3, 5, 7, 0);
SHAPE(f32_small_tiles, PWTPU_DT_F32, 4, 37, 33, 8);
SHAPE(f32_k_not_tile_multiple, PWTPU_DT_F32, 7, 300, 17, 128);
SHAPE(f32_wide, PWTPU_DT_F32, 5, 129, 100, 16);
SHAPE(f32_split_k, PWTPU_DT_F32, 3, 300, 600, 8);
SHAPE(f32_split_columns, PWTPU_DT_F32, 2, 3000, 100, 1024);
SHAPE(bf16_small_tiles, PWTPU_DT_BF16, 4, 37, 33, 8);
SHAPE(bf16_wide, PWTPU_DT_BF16, 6, 300, 50, 128);
SHAPE(bf16_split_columns, PWTPU_DT_BF16, 2, 1000, 100, 1024);
SHAPE(i8_small, PWTPU_DT_I8, 3, 5, 7, 0);
SHAPE(i8_wide, PWTPU_DT_I8, 9, 200, 70, 64);
SHAPE(i8_split_k, PWTPU_DT_I8, 2, 300, 600, 8);

/* Each shape: both paths, each exact against the reference. */
TEST_F(shapes, matches_reference_both_paths)
{
	uint32_t tile = variant->array_dim ? variant->array_dim : 128;
	size_t bytes = (size_t)variant->m * variant->n * 4;
	void *simd_out = malloc(bytes);

	ASSERT_NE(NULL, simd_out);
	ASSERT_EQ(0, ops_run_simd(&self->t.o, 1));
	EXPECT_EQ(tile, self->t.o.prog.array_dim);
	EXPECT_EQ(0, mm_check(&self->t, tile));
	memcpy(simd_out, ops_ptr(&self->t.o, self->t.td), bytes);

	memset(ops_ptr(&self->t.o, self->t.td), OPS_POISON, bytes);
	ASSERT_EQ(0, ops_run_simd(&self->t.o, 0));
	EXPECT_EQ(0, mm_check(&self->t, tile));
	EXPECT_EQ(0, memcmp(simd_out, ops_ptr(&self->t.o, self->t.td), bytes));
	free(simd_out);
}

/*
 * The tiling is observable: with b's column = [2^24, 1 x 7, 1 x 7, -2^24]
 * and a = 1, tiles of 8 give 2^24 + (7 - 2^24) = 7, tiles of 16 give 0.
 */
TEST(tile_size_reaches_the_array)
{
	static const uint32_t dims[] = { 8, 16 };
	static const float want[] = { 7.0f, 0.0f };
	uint32_t i, k;

	for (i = 0; i < 2; i++) {
		struct mm t;
		float *a, *b;
		int simd;

		ASSERT_EQ(0, mm_setup(&t, PWTPU_DT_F32, 1, 16, 16, dims[i], 1));
		a = ops_ptr(&t.o, t.ta);
		b = ops_ptr(&t.o, t.tb);
		for (k = 0; k < 16; k++) {
			a[k] = 1.0f;
			for (uint32_t c = 0; c < 16; c++)
				b[k * 16 + c] = k == 0 ? 16777216.0f :
						k == 15 ? -16777216.0f : 1.0f;
		}
		for (simd = 0; simd <= 1; simd++) {
			ASSERT_EQ(0, ops_run_simd(&t.o, simd));
			for (k = 0; k < 16; k++)
				EXPECT_EQ(want[i], ((float *)ops_ptr(&t.o,
							t.td))[k]);
		}
		ops_fini(&t.o);
	}
}

/* int8 sums past 2^31 wrap in 32 bits: K x (-128) x (-128). */
TEST(i8_accumulator_wraps)
{
	uint32_t k = 140000, n = 20, i;
	struct mm t;

	ASSERT_EQ(0, mm_setup(&t, PWTPU_DT_I8, 1, k, n, 0, 3));
	memset(ops_ptr(&t.o, t.ta), 0x80, k);
	memset(ops_ptr(&t.o, t.tb), 0x80, (size_t)k * n);
	ASSERT_EQ(0, ops_run(&t.o));
	for (i = 0; i < n; i++)
		EXPECT_EQ((int32_t)(uint32_t)(16384ULL * k),
			  ((int32_t *)ops_ptr(&t.o, t.td))[i]);
	ops_fini(&t.o);
}

/* Infinities and NaN flow through both paths alike. */
TEST(non_finite_inputs)
{
	struct mm t;
	size_t bytes = 3 * 40 * 4;
	float *a, simd_out[3 * 40];
	uint32_t i;

	ASSERT_EQ(0, mm_setup(&t, PWTPU_DT_F32, 3, 20, 40, 8, 9));
	a = ops_ptr(&t.o, t.ta);
	a[3] = INFINITY;	/* row 0: inf or NaN (inf * 0, inf - inf) */
	a[20 + 11] = NAN;	/* row 1: NaN */
	ASSERT_EQ(0, ops_run_simd(&t.o, 1));
	memcpy(simd_out, ops_ptr(&t.o, t.td), bytes);
	ASSERT_EQ(0, ops_run_simd(&t.o, 0));
	for (i = 0; i < 3 * 40; i++) {
		float got = ((float *)ops_ptr(&t.o, t.td))[i];

		EXPECT_TRUE(f32_same(simd_out[i], got));
		EXPECT_TRUE(f32_same(got, ref_tiled_f(&t, 8, i / 40, i % 40)));
		if (i / 40 == 1)
			EXPECT_TRUE(isnan(got));
	}
	ops_fini(&t.o);
}

TEST_HARNESS_MAIN
