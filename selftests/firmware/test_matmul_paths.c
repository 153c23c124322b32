// SPDX-License-Identifier: GPL-2.0
/*
 * test_matmul_paths.c - every vector path of MATMUL gives the scalar
 * path's bits.
 *
 * For each dtype and shape the scalar path (pwfw_user_simd_cap(NONE)) is
 * the reference; the SSE2 path, the AVX2 path and the AVX2 path without
 * its scratch (pwfw_plat_zalloc() failing: b and a read in place, not
 * packed) must write the same 32-bit words, compared as u32. Shapes cover
 * the edges of the blocking: 1x1x1, M, N, K and the tile not multiples
 * of the vectors (8, 16 columns), of the 6-row micro-blocks or of
 * array_dim, b narrower than 16 columns (the AVX2 path declines it), odd
 * tiles (a lone last k for the i8 pairs), K over many tiles, products of
 * many FPU pieces and large enough for the AVX2 scratch. Inputs are
 * random, some variants with zeros of both signs, infinities, overflowing
 * and subnormal values among them (no NaN inputs: a NaN's payload may
 * depend on the operand order of a product). The AVX2 cases are skipped
 * on a CPU without AVX2.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"
#include "../../firmware/user/pwfw_user.h"

/* Values mixed into the inputs of the "specials" variants. */
static const float specials[] = {
	0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, 1e30f, -1e30f, 1e-40f,
	-1e-40f, 3e38f,
};

static void fill(struct ops *o, int t, enum pwtpu_dtype dt, uint64_t n,
		 int special, uint32_t *seed)
{
	void *p = ops_ptr(o, t);
	uint64_t i;

	for (i = 0; i < n; i++) {
		float f = ops_rand_float(seed, -2.0f, 2.0f);

		/* Rare enough that most outputs stay finite. */
		if (special && ops_rand(seed) % 64 == 0)
			f = specials[ops_rand(seed) % 9];
		if (dt == PWTPU_DT_F32)
			((float *)p)[i] = f;
		else if (dt == PWTPU_DT_BF16)
			((uint16_t *)p)[i] = ref_bf16(f);
		else
			((int8_t *)p)[i] = (int8_t)ops_rand(seed);
	}
}

FIXTURE(paths) {
	struct ops o;
	int td;
	size_t bytes;
	uint32_t *ref;
};

FIXTURE_VARIANT(paths) {
	enum pwtpu_dtype dt;
	uint32_t m, k, n, array_dim;
	int special;
};

/* Run with the vector level capped at @level; 0 or pwfw_exec()'s error. */
static int run_at(struct ops *o, int level)
{
	int ret;

	pwfw_user_simd_cap(level);
	ret = ops_run(o);
	pwfw_user_simd_cap(-1);
	return ret;
}

FIXTURE_SETUP(paths)
{
	enum pwtpu_dtype dt = variant->dt;
	uint32_t m = variant->m, k = variant->k, n = variant->n;
	uint32_t sz = pwfw_dtype_size(dt), seed = 1234 + m + k + n;
	int ta, tb;

	self->bytes = (size_t)m * n * 4;
	ASSERT_EQ(0, ops_init(&self->o, ((uint64_t)m * k + (uint64_t)k * n) *
					sz + self->bytes + 256));
	self->o.array_dim = variant->array_dim;
	ta = ops_tensor(&self->o, dt, 2, m, k);
	tb = ops_tensor(&self->o, dt, 2, k, n);
	self->td = ops_tensor(&self->o, dt == PWTPU_DT_I8 ? PWTPU_DT_I32 :
					PWTPU_DT_F32, 2, m, n);
	ASSERT_LE(0, ta);
	ASSERT_LE(0, tb);
	ASSERT_LE(0, self->td);
	ASSERT_LE(0, pwprog_binary(self->o.p, PWTPU_OP_MATMUL, self->td, ta,
				   tb));
	fill(&self->o, ta, dt, (uint64_t)m * k, variant->special, &seed);
	fill(&self->o, tb, dt, (uint64_t)k * n, variant->special, &seed);

	self->ref = malloc(self->bytes);
	ASSERT_NE(NULL, self->ref);
	ASSERT_EQ(0, run_at(&self->o, PWFW_SIMD_NONE));
	memcpy(self->ref, ops_ptr(&self->o, self->td), self->bytes);
}

FIXTURE_TEARDOWN(paths)
{
	free(self->ref);
	ops_fini(&self->o);
}

/* Index of the first output whose bits differ from the reference, or -1. */
static long first_diff(FIXTURE_DATA(paths) *self)
{
	const uint32_t *got = ops_ptr(&self->o, self->td);
	size_t i;

	for (i = 0; i < self->bytes / 4; i++)
		if (got[i] != self->ref[i])
			return (long)i;
	return -1;
}

/* Run at @level (after poisoning dst) and compare with the reference. */
static int same_bits(struct __test_metadata *_metadata,
		     FIXTURE_DATA(paths) *self, int level)
{
	const uint32_t *got = ops_ptr(&self->o, self->td);
	long i;

	memset(ops_ptr(&self->o, self->td), OPS_POISON, self->bytes);
	if (run_at(&self->o, level))
		return 0;
	i = first_diff(self);
	if (i >= 0)
		TH_LOG("output %ld: 0x%08x, scalar path 0x%08x", i, got[i],
		       self->ref[i]);
	return i < 0;
}

#define SHAPE(name, d, M, K, N, D, S)					\
	FIXTURE_VARIANT_ADD(paths, name) {				\
		.dt = d, .m = M, .k = K, .n = N, .array_dim = D,	\
		.special = S,						\
	}

/* Each shape for each dtype. */
#define SHAPES(t, d)							\
	SHAPE(t##_1x1x1, d, 1, 1, 1, 0, 0);				\
	SHAPE(t##_narrow_3x5x7, d, 3, 5, 7, 0, 0);			\
	SHAPE(t##_5x33x17_tiles_of_8, d, 5, 33, 17, 8, 1);		\
	SHAPE(t##_7x300x40, d, 7, 300, 40, 0, 0);			\
	SHAPE(t##_6x700x33, d, 6, 700, 33, 0, 0);			\
	SHAPE(t##_20x150x16_tiles_of_16, d, 20, 150, 16, 16, 1);	\
	SHAPE(t##_13x129x100_odd_tile, d, 13, 129, 100, 37, 1);	\
	SHAPE(t##_2x3000x100_tile_1024, d, 2, 3000, 100, 1024, 0);	\
	SHAPE(t##_70x200x90_packed, d, 70, 200, 90, 64, 1);		\
	SHAPE(t##_50x513x61_packed, d, 50, 513, 61, 0, 0);		\
	SHAPE(t##_31x1025x47_tile_1024, d, 31, 1025, 47, 1024, 0);	\
	SHAPE(t##_96x256x256_packed, d, 96, 256, 256, 0, 0)

SHAPES(f32, PWTPU_DT_F32);
SHAPES(bf16, PWTPU_DT_BF16);
SHAPES(i8, PWTPU_DT_I8);

TEST_F(paths, sse2_equals_scalar)
{
	EXPECT_TRUE(same_bits(_metadata, self, PWFW_SIMD_SSE2));
}

TEST_F(paths, avx2_equals_scalar)
{
	if (pwfw_user_simd_cpu() < PWFW_SIMD_AVX2)
		SKIP(return, "this CPU has no AVX2");
	EXPECT_TRUE(same_bits(_metadata, self, PWFW_SIMD_AVX2));
}

/* Without scratch the AVX2 path reads a and b where they are. */
TEST_F(paths, avx2_unpacked_equals_scalar)
{
	int ok;

	if (pwfw_user_simd_cpu() < PWFW_SIMD_AVX2)
		SKIP(return, "this CPU has no AVX2");
	pwfw_user_zalloc_fail_after(0);
	ok = same_bits(_metadata, self, PWFW_SIMD_AVX2);
	pwfw_user_zalloc_fail_after(-1);
	EXPECT_TRUE(ok);
}

/*
 * The AVX2 path keeps its packed copy of b for later pieces of a MATMUL;
 * never for the next MATMUL, even on the same b rewritten in between:
 * d1 = a b; b = b + b; d2 = a b, all in one execution. b is one tile of
 * 16 columns, so the second MATMUL wants the very copy the first made,
 * and a is tall enough for the AVX2 scratch.
 */
TEST(pack_not_reused_across_matmuls)
{
	uint32_t m = 512, k = 128, n = 16, seed = 99;
	int ta, tb, t1, t2, level;
	uint32_t *ref;
	size_t bytes = (size_t)m * n * 4;
	struct ops o;

	if (pwfw_user_simd_cpu() < PWFW_SIMD_AVX2)
		SKIP(return, "this CPU has no AVX2");
	ASSERT_EQ(0, ops_init(&o, ((size_t)m * k + (size_t)k * n) * 4 +
				  2 * bytes + 256));
	ta = ops_tensor(&o, PWTPU_DT_F32, 2, m, k);
	tb = ops_tensor(&o, PWTPU_DT_F32, 2, k, n);
	t1 = ops_tensor(&o, PWTPU_DT_F32, 2, m, n);
	t2 = ops_tensor(&o, PWTPU_DT_F32, 2, m, n);
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_MATMUL, t1, ta, tb));
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_ADD, tb, tb, tb));
	ASSERT_LE(0, pwprog_binary(o.p, PWTPU_OP_MATMUL, t2, ta, tb));
	ref = malloc(2 * bytes);
	ASSERT_NE(NULL, ref);
	for (level = PWFW_SIMD_NONE; level <= PWFW_SIMD_AVX2;
	     level += PWFW_SIMD_AVX2) {
		seed = 99;
		fill(&o, ta, PWTPU_DT_F32, (uint64_t)m * k, 0, &seed);
		fill(&o, tb, PWTPU_DT_F32, (uint64_t)k * n, 0, &seed);
		ASSERT_EQ(0, run_at(&o, level));
		if (level == PWFW_SIMD_NONE) {
			memcpy(ref, ops_ptr(&o, t1), bytes);
			memcpy((char *)ref + bytes, ops_ptr(&o, t2), bytes);
			continue;
		}
		EXPECT_EQ(0, memcmp(ref, ops_ptr(&o, t1), bytes));
		EXPECT_EQ(0, memcmp((char *)ref + bytes, ops_ptr(&o, t2),
				    bytes));
	}
	free(ref);
	ops_fini(&o);
}

/* The cap: each level is used as asked, never above the CPU's. */
TEST(simd_cap)
{
	int cpu = (int)pwfw_user_simd_cpu(), l;

	EXPECT_LE(PWFW_SIMD_SSE2, cpu);
	for (l = PWFW_SIMD_NONE; l <= PWFW_SIMD_AVX2; l++) {
		pwfw_user_simd_cap(l);
		EXPECT_EQ(l < cpu ? l : cpu, (int)pwfw_plat_simd());
	}
	pwfw_user_simd_cap(-1);
	setenv("PWFW_SIMD", "sse2", 1);
	EXPECT_EQ(PWFW_SIMD_SSE2, (int)pwfw_plat_simd());
	setenv("PWFW_SIMD", "0", 1);
	EXPECT_EQ(PWFW_SIMD_NONE, (int)pwfw_plat_simd());
	unsetenv("PWFW_SIMD");
	EXPECT_EQ(cpu, (int)pwfw_plat_simd());
}

TEST_HARNESS_MAIN
