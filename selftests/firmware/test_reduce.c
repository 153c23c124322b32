// SPDX-License-Identifier: GPL-2.0
/*
 * test_reduce.c - REDUCE sum/max/min for every dtype and axis mask. The
 * reference walks the whole source once in row-major order and folds
 * each element into its output: that visits every output's elements in
 * ascending index order, the documented order, so f32 results must match
 * to the bit. bf16 sums in f32 and rounds once; integers wrap.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

static const enum pwtpu_dtype dtypes[] = {
	PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32,
};


/* Reference accumulator: a float for float dtypes, else an int64. */
struct acc {
	float f;
	int64_t i;
};

static void acc_init(struct acc *a, enum pwtpu_reduce mode)
{
	a->f = mode == PWTPU_REDUCE_SUM ? -0.0f :
	       mode == PWTPU_REDUCE_MAX ? -INFINITY : INFINITY;
	a->i = mode == PWTPU_REDUCE_SUM ? 0 :
	       mode == PWTPU_REDUCE_MAX ? INT64_MIN : INT64_MAX;
}

static float fold_max(float a, float x, int is_max)
{
	if (isnan(a) || isnan(x))
		return NAN;
	if (a == x)
		return (signbit(a) != 0) == is_max ? x : a;
	return (x > a) == is_max ? x : a;
}

/* Fold @x into the float accumulator, or the integer one for @ints. */
static void acc_fold(struct acc *a, enum pwtpu_reduce mode, double x,
		     int ints)
{
	int is_max = mode == PWTPU_REDUCE_MAX;

	if (!ints) {
		if (mode == PWTPU_REDUCE_SUM)
			a->f += (float)x;
		else
			a->f = fold_max(a->f, (float)x, is_max);
		return;
	}
	if (mode == PWTPU_REDUCE_SUM)
		a->i += (int64_t)x;
	else if (is_max == ((int64_t)x > a->i))
		a->i = (int64_t)x;
}

static double load(enum pwtpu_dtype dt, const void *p, uint64_t i)
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

/* Output @o of the device equals the reference accumulator? */
static int acc_matches(enum pwtpu_dtype dt, const void *d, uint64_t o,
		       const struct acc *a)
{
	switch (dt) {
	case PWTPU_DT_F32:
		return f32_same(((const float *)d)[o], a->f);
	case PWTPU_DT_BF16:
		return bf16_same(((const uint16_t *)d)[o], ref_bf16(a->f));
	case PWTPU_DT_I8:
		return ((const int8_t *)d)[o] == (int8_t)(uint8_t)a->i;
	default:
		return ((const int32_t *)d)[o] == (int32_t)(uint32_t)a->i;
	}
}

static void fill(enum pwtpu_dtype dt, void *p, uint64_t n, uint32_t seed)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		float f = ops_rand_float(&seed, -100.0f, 100.0f);

		switch (dt) {
		case PWTPU_DT_F32:
			((float *)p)[i] = f;
			break;
		case PWTPU_DT_BF16:
			((uint16_t *)p)[i] = ref_bf16(f);
			break;
		case PWTPU_DT_I8:
			((int8_t *)p)[i] = (int8_t)ops_rand(&seed);
			break;
		default:
			((int32_t *)p)[i] = (int32_t)ops_rand(&seed);
			break;
		}
	}
}

/*
 * Reduce a tensor of @shape over @mask with @mode and compare every
 * output; returns the number of wrong outputs (-1: setup failed).
 */
static int check_reduce(enum pwtpu_dtype dt, enum pwtpu_reduce mode,
			uint32_t rank, const uint32_t *shape, uint32_t mask,
			const void *init)
{
	uint32_t dshape[PWTPU_MAX_RANK], drank = 0, k, idx[PWTPU_MAX_RANK];
	uint64_t n = 1, nout = 1, i, o;
	struct acc *accs;
	struct ops o_;
	int ta, td, bad = 0;
	void *a;

	for (k = 0; k < rank; k++) {
		n *= shape[k];
		if (!(mask & (1U << k))) {
			dshape[drank++] = shape[k];
			nout *= shape[k];
		}
	}
	if (ops_init(&o_, (n + nout) * 4 + 256))
		return -1;
	ta = ops_tensor_shape(&o_, dt, rank, shape);
	td = ops_tensor_shape(&o_, dt, drank, dshape);
	if (ta < 0 || td < 0 ||
	    pwprog_insn(o_.p, PWTPU_OP_REDUCE, mode, td, ta, PWTPU_NO_TENSOR,
			PWTPU_NO_TENSOR, &mask, 1) < 0)
		return -1;
	a = ops_ptr(&o_, ta);
	if (init)
		memcpy(a, init, n * pwfw_dtype_size(dt));
	else
		fill(dt, a, n, 1234 + mask);
	if (ops_run(&o_))
		return -1;

	accs = calloc(nout, sizeof(*accs));
	for (o = 0; o < nout; o++)
		acc_init(&accs[o], mode);
	memset(idx, 0, sizeof(idx));
	for (i = 0; i < n; i++) {
		/* Output index: the kept digits of i, row major. */
		o = 0;
		for (k = 0; k < rank; k++)
			if (!(mask & (1U << k)))
				o = o * shape[k] + idx[k];
		acc_fold(&accs[o], mode, load(dt, a, i),
			 dt == PWTPU_DT_I8 || dt == PWTPU_DT_I32);
		for (k = rank; k-- > 0;) {
			if (++idx[k] < shape[k])
				break;
			idx[k] = 0;
		}
	}
	for (o = 0; o < nout; o++)
		if (!acc_matches(dt, ops_ptr(&o_, td), o, &accs[o]))
			bad++;
	free(accs);
	ops_fini(&o_);
	return bad;
}

TEST(every_mask_mode_dtype)
{
	static const uint32_t shape[] = { 3, 4, 5, 6 };
	uint32_t k, mask;
	int mode, bad;

	for (k = 0; k < 4; k++)
		for (mode = PWTPU_REDUCE_SUM; mode <= PWTPU_REDUCE_MIN; mode++)
			for (mask = 1; mask < 16; mask++) {
				bad = check_reduce(dtypes[k], mode, 4, shape,
						   mask, NULL);
				EXPECT_EQ(0, bad)
					TH_LOG("dtype %d mode %d mask %x",
					       dtypes[k], mode, mask);
			}
}

TEST(ranks_one_to_three)
{
	static const uint32_t s1[] = { 1000 }, s2[] = { 17, 33 },
		s3[] = { 2, 1, 9 };

	EXPECT_EQ(0, check_reduce(PWTPU_DT_F32, PWTPU_REDUCE_SUM, 1, s1, 1,
				  NULL));
	EXPECT_EQ(0, check_reduce(PWTPU_DT_BF16, PWTPU_REDUCE_SUM, 2, s2, 2,
				  NULL));
	EXPECT_EQ(0, check_reduce(PWTPU_DT_I32, PWTPU_REDUCE_MAX, 3, s3, 5,
				  NULL));
	EXPECT_EQ(0, check_reduce(PWTPU_DT_I8, PWTPU_REDUCE_MIN, 3, s3, 2,
				  NULL));
}

/* Outputs folding more elements than one FPU section holds. */
TEST(long_reductions)
{
	static const uint32_t row[] = { 3, 70001 }, col[] = { 70001, 2 },
		all[] = { 300, 301 };
	uint32_t k;

	for (k = 0; k < 4; k++) {
		EXPECT_EQ(0, check_reduce(dtypes[k], PWTPU_REDUCE_SUM, 2, row,
					  2, NULL));
		EXPECT_EQ(0, check_reduce(dtypes[k], PWTPU_REDUCE_SUM, 2, col,
					  1, NULL));
		EXPECT_EQ(0, check_reduce(dtypes[k], PWTPU_REDUCE_MAX, 2, all,
					  3, NULL));
	}
}

/* Summation order is visible: 2^24 + 1 + ... + 1 - 2^24 in f32 is 0. */
TEST(sum_order_is_ascending)
{
	static const uint32_t shape[] = { 10 };
	float v[10] = { 16777216.0f, 1, 1, 1, 1, 1, 1, 1, 1, -16777216.0f };
	struct ops o;
	uint32_t mask = 1;
	int ta, td;

	ASSERT_EQ(0, check_reduce(PWTPU_DT_F32, PWTPU_REDUCE_SUM, 1, shape, 1,
				  v));
	ASSERT_EQ(0, ops_init(&o, 256));
	ta = ops_tensor(&o, PWTPU_DT_F32, 1, 10);
	td = ops_tensor(&o, PWTPU_DT_F32, 0);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, td,
				 ta, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, &mask,
				 1));
	memcpy(ops_ptr(&o, ta), v, sizeof(v));
	ASSERT_EQ(0, ops_run(&o));
	EXPECT_EQ(0.0f, *(float *)ops_ptr(&o, td));
	ops_fini(&o);
}

/* Documented edges: NaN propagates through max and sum; -0 sums to -0. */
TEST(float_edges)
{
	static const uint32_t shape[] = { 4 };
	float nan_in[4] = { 1.0f, NAN, 3.0f, -INFINITY };
	float zeros[4] = { -0.0f, -0.0f, -0.0f, -0.0f };
	float mixed[4] = { -0.0f, 0.0f, -0.0f, -0.0f };
	int mode;

	for (mode = PWTPU_REDUCE_SUM; mode <= PWTPU_REDUCE_MIN; mode++) {
		EXPECT_EQ(0, check_reduce(PWTPU_DT_F32, mode, 1, shape, 1,
					  nan_in));
		EXPECT_EQ(0, check_reduce(PWTPU_DT_F32, mode, 1, shape, 1,
					  zeros));
		EXPECT_EQ(0, check_reduce(PWTPU_DT_F32, mode, 1, shape, 1,
					  mixed));
	}
}

TEST_HARNESS_MAIN
