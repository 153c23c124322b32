// SPDX-License-Identifier: GPL-2.0
/*
 * test_exec.c - every class of op, executed on the device, checked
 * against a reference computed here; each test runs once through the
 * ioctl path and once through io_uring, and one test checks that both
 * paths give the same bits.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "drv_common.h"
#include "drv_ref.h"
#include "../../firmware/pwfw.h"

#define BO_BYTES	(1u << 20)
#define NO		PWTPU_NO_TENSOR

/* Byte offsets handed out in order, 64-byte aligned. */
static uint64_t place(uint64_t *cursor, uint64_t bytes)
{
	uint64_t at = *cursor;

	*cursor = (at + bytes + 63) & ~63ull;
	return at;
}

/* Load, run over (in, out), unload. */
static int run_prog(struct drv *d, enum drv_path path, struct drv_prog *dp,
		    const struct pwtpu_bo *in, const struct pwtpu_bo *out)
{
	const uint32_t bos[2] = { in->handle, out->handle };
	char log[256] = "";
	uint32_t prog;
	int ret;

	ret = drv_prog_load(d->fd, dp, &prog, NULL, log, sizeof(log));
	if (ret) {
		fprintf(stderr, "# load failed %d: %s\n", ret, log);
		return ret;
	}
	ret = drv_exec(d, path, prog, bos, 2);
	pwtpu_prog_unload(d->fd, prog);
	return ret;
}

static float *f32_at(const struct pwtpu_bo *bo, uint64_t off)
{
	return (float *)((char *)bo->map + off);
}

static int32_t *i32_at(const struct pwtpu_bo *bo, uint64_t off)
{
	return (int32_t *)((char *)bo->map + off);
}

static int8_t *i8_at(const struct pwtpu_bo *bo, uint64_t off)
{
	return (int8_t *)((char *)bo->map + off);
}

static uint16_t *bf16_at(const struct pwtpu_bo *bo, uint64_t off)
{
	return (uint16_t *)((char *)bo->map + off);
}

FIXTURE(exec) {
	struct drv d;
	struct pwtpu_bo in, out;
	uint32_t dim;	/* matmul sizes straddle the array */
};

FIXTURE_VARIANT(exec) {
	enum drv_path path;
};

FIXTURE_VARIANT_ADD(exec, ioctl) {
	.path = DRV_IOCTL,
};

FIXTURE_VARIANT_ADD(exec, uring) {
	.path = DRV_URING,
};

FIXTURE_SETUP(exec)
{
	DRV_SETUP(&self->d, 16);
	if (skip_mode(&self->d))
		DRV_SKIP("timing=skip: results are unspecified");
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, BO_BYTES, &self->in));
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, BO_BYTES, &self->out));
	self->dim = self->d.info.array_dim < 96 ? self->d.info.array_dim : 96;
}

FIXTURE_TEARDOWN(exec)
{
	drv_teardown(&self->d);
}

#define RUN(dp) ASSERT_EQ(0, run_prog(&self->d, variant->path, (dp), \
				      &self->in, &self->out))

/*
 * Matmul tolerance that holds for any summation order: each of the K
 * partial sums may round once, so the error is below K * eps * sum|ab|.
 */
static bool matmul_close(double want, double abs_sum, uint32_t k, float got)
{
	return fabs((double)got - want) <= 2.0 * k * FLT_EPSILON * abs_sum +
					    1e-30;
}

static void matmul_float(struct __test_metadata *_metadata,
			 FIXTURE_DATA(exec) *self,
			 const FIXTURE_VARIANT(exec) *variant,
			 enum pwtpu_dtype dt, uint32_t m, uint32_t k,
			 uint32_t n, bool integers)
{
	const size_t esz = dt == PWTPU_DT_F32 ? 4 : 2;
	uint64_t cur = 0, oa, ob, oc;
	struct drv_prog dp;
	struct ref_rng r;
	double *av = malloc(sizeof(double) * m * k);
	double *bv = malloc(sizeof(double) * k * n);
	uint32_t i, j, l, bad = 0;

	ASSERT_TRUE(av && bv);
	oa = place(&cur, esz * m * k);
	ob = place(&cur, esz * k * n);
	oc = 0;
	ASSERT_GE(BO_BYTES, cur);
	ref_rng_seed(&r, m * 7919 + k * 31 + n + dt);
	for (i = 0; i < m * k + k * n; i++) {
		float v = integers ? ref_rng_int_f32(&r, -8, 8) :
				     ref_rng_f32(&r, -1.0f, 1.0f);
		double *slot = i < m * k ? &av[i] : &bv[i - m * k];
		uint64_t off = i < m * k ? oa + esz * i :
					   ob + esz * (i - m * k);

		if (dt == PWTPU_DT_F32) {
			*f32_at(&self->in, off) = v;
			*slot = v;
		} else {
			*bf16_at(&self->in, off) = ref_bf16(v);
			*slot = ref_bf16_f32(ref_bf16(v));
		}
	}
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, dt, 0, oa, 2, m, k);
	drv_tensor(&dp, dt, 0, ob, 2, k, n);
	drv_tensor(&dp, PWTPU_DT_F32, 1, oc, 2, m, n);
	drv_binary(&dp, PWTPU_OP_MATMUL, 2, 0, 1);
	RUN(&dp);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double want = 0, abs_sum = 0;
			float got = f32_at(&self->out, oc)[i * n + j];

			for (l = 0; l < k; l++) {
				want += av[i * k + l] * bv[l * n + j];
				abs_sum += fabs(av[i * k + l] * bv[l * n + j]);
			}
			if (integers ? got != want :
			    !matmul_close(want, abs_sum, k, got)) {
				if (bad++ < 5)
					TH_LOG("[%u,%u] want %.9g got %.9g",
					       i, j, want, got);
			}
		}
	EXPECT_EQ(0u, bad);
	free(av);
	free(bv);
}

TEST_F(exec, matmul_f32)
{
	matmul_float(_metadata, self, variant, PWTPU_DT_F32, 5, 7, 3, true);
	matmul_float(_metadata, self, variant, PWTPU_DT_F32, self->dim + 5,
		     self->dim + 3, self->dim - 1, true);
	matmul_float(_metadata, self, variant, PWTPU_DT_F32, self->dim + 5,
		     self->dim + 3, self->dim - 1, false);
	matmul_float(_metadata, self, variant, PWTPU_DT_F32, 1, 1, 1, false);
}

TEST_F(exec, matmul_bf16)
{
	matmul_float(_metadata, self, variant, PWTPU_DT_BF16, 4, 9, 6, true);
	matmul_float(_metadata, self, variant, PWTPU_DT_BF16, self->dim + 1,
		     self->dim + 7, self->dim + 2, true);
	matmul_float(_metadata, self, variant, PWTPU_DT_BF16, self->dim + 1,
		     self->dim + 7, self->dim + 2, false);
}

TEST_F(exec, matmul_i8)
{
	const uint32_t m = self->dim + 2, k = self->dim + 9, n = self->dim - 3;
	uint64_t cur = 0, oa, ob;
	struct drv_prog dp;
	struct ref_rng r;
	uint32_t i, j, l, bad = 0;
	int8_t *a, *b;

	oa = place(&cur, m * k);
	ob = place(&cur, k * n);
	a = i8_at(&self->in, oa);
	b = i8_at(&self->in, ob);
	ref_rng_seed(&r, 8);
	for (i = 0; i < m * k; i++)
		a[i] = (int8_t)ref_rng_u32(&r);
	for (i = 0; i < k * n; i++)
		b[i] = (int8_t)ref_rng_u32(&r);
	a[0] = -128;	/* extremes, so the accumulator must be wide */
	b[0] = -128;
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_I8, 0, oa, 2, m, k);
	drv_tensor(&dp, PWTPU_DT_I8, 0, ob, 2, k, n);
	drv_tensor(&dp, PWTPU_DT_I32, 1, 0, 2, m, n);
	drv_binary(&dp, PWTPU_OP_MATMUL, 2, 0, 1);
	RUN(&dp);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			int32_t want = 0;

			for (l = 0; l < k; l++)
				want += a[i * k + l] * b[l * n + j];
			if (i32_at(&self->out, 0)[i * n + j] != want &&
			    bad++ < 5)
				TH_LOG("[%u,%u] want %d got %d", i, j, want,
				       i32_at(&self->out, 0)[i * n + j]);
		}
	EXPECT_EQ(0u, bad);
}

static float ref_fmax(float a, float b)
{
	if (isnan(a) || isnan(b))
		return NAN;
	return a > b ? a : b;
}

static float ref_fmin(float a, float b)
{
	if (isnan(a) || isnan(b))
		return NAN;
	return a < b ? a : b;
}

static float ref_f32_op(enum pwtpu_op op, float a, float b)
{
	switch (op) {
	case PWTPU_OP_ADD: return a + b;
	case PWTPU_OP_SUB: return a - b;
	case PWTPU_OP_MUL: return a * b;
	case PWTPU_OP_DIV: return a / b;
	case PWTPU_OP_MAX: return ref_fmax(a, b);
	case PWTPU_OP_MIN: return ref_fmin(a, b);
	case PWTPU_OP_NEG: return -a;
	case PWTPU_OP_ABS: return fabsf(a);
	default: return NAN;
	}
}

static const enum pwtpu_op elementwise_ops[] = {
	PWTPU_OP_ADD, PWTPU_OP_SUB, PWTPU_OP_MUL, PWTPU_OP_DIV,
	PWTPU_OP_MAX, PWTPU_OP_MIN, PWTPU_OP_NEG, PWTPU_OP_ABS,
};
#define N_EW_OPS (sizeof(elementwise_ops) / sizeof(elementwise_ops[0]))

static bool is_unary(enum pwtpu_op op)
{
	return op == PWTPU_OP_NEG || op == PWTPU_OP_ABS;
}

/* One instruction per op over a[n], b[n] of @dt into out at k * 4n. */
static void build_elementwise(struct drv_prog *dp, enum pwtpu_dtype dt,
			      uint32_t n, uint64_t ob)
{
	size_t k;

	drv_prog_init(dp, 2);
	drv_tensor(dp, dt, 0, 0, 2, 1, n);
	drv_tensor(dp, dt, 0, ob, 2, 1, n);
	for (k = 0; k < N_EW_OPS; k++) {
		int dst = drv_tensor(dp, dt, 1, k * 4 * n, 2, 1, n);

		if (is_unary(elementwise_ops[k]))
			drv_unary(dp, elementwise_ops[k], dst, 0);
		else
			drv_binary(dp, elementwise_ops[k], dst, 0, 1);
	}
}

TEST_F(exec, elementwise_f32)
{
	const uint32_t n = 257;
	float *a = f32_at(&self->in, 0), *b = f32_at(&self->in, 4096);
	struct drv_prog dp;
	struct ref_rng r;
	uint32_t i, bad = 0;
	size_t k;

	ref_rng_seed(&r, 11);
	for (i = 0; i < n; i++) {
		a[i] = ref_rng_f32(&r, -100.0f, 100.0f);
		b[i] = ref_rng_f32(&r, -100.0f, 100.0f);
	}
	a[0] = NAN;		/* NaN in either operand propagates */
	b[1] = NAN;
	a[2] = INFINITY;
	b[3] = a[3];		/* equal operands */
	b[4] = 1e-30f;		/* a big quotient */
	build_elementwise(&dp, PWTPU_DT_F32, n, 4096);
	RUN(&dp);
	for (k = 0; k < N_EW_OPS; k++)
		for (i = 0; i < n; i++) {
			float want = ref_f32_op(elementwise_ops[k], a[i], b[i]);
			float got = f32_at(&self->out, k * 4 * n)[i];

			if (!ref_same_f32(want, got) && bad++ < 8)
				TH_LOG("op %d [%u] (%g, %g): want %g got %g",
				       elementwise_ops[k], i, a[i], b[i], want,
				       got);
		}
	EXPECT_EQ(0u, bad);
}

static int32_t ref_i32_op(enum pwtpu_op op, int32_t a, int32_t b)
{
	uint32_t ua = (uint32_t)a, ub = (uint32_t)b;

	switch (op) {
	case PWTPU_OP_ADD: return (int32_t)(ua + ub);
	case PWTPU_OP_SUB: return (int32_t)(ua - ub);
	case PWTPU_OP_MUL: return (int32_t)(ua * ub);
	case PWTPU_OP_DIV:
		if (b == 0)
			return -1;
		if (a == INT32_MIN && b == -1)
			return INT32_MIN;
		return a / b;
	case PWTPU_OP_MAX: return a > b ? a : b;
	case PWTPU_OP_MIN: return a < b ? a : b;
	case PWTPU_OP_NEG: return (int32_t)(0u - ua);
	case PWTPU_OP_ABS: return a < 0 ? (int32_t)(0u - ua) : a;
	default: return 0;
	}
}

TEST_F(exec, elementwise_i32)
{
	static const int32_t special[][2] = {
		{ INT32_MAX, 1 }, { INT32_MIN, -1 }, { INT32_MIN, 1 },
		{ 5, 0 }, { -5, 0 }, { 0, 0 }, { -7, 2 }, { 7, -2 },
		{ INT32_MIN, INT32_MIN }, { 65536, 65536 }, { -1, INT32_MAX },
	};
	const uint32_t ns = sizeof(special) / sizeof(special[0]), n = 100;
	int32_t *a = i32_at(&self->in, 0), *b = i32_at(&self->in, 4096);
	struct drv_prog dp;
	struct ref_rng r;
	uint32_t i, bad = 0;
	size_t k;

	ref_rng_seed(&r, 12);
	for (i = 0; i < n; i++) {
		a[i] = (int32_t)ref_rng_u32(&r);
		b[i] = (int32_t)ref_rng_u32(&r) >> (i % 31);
	}
	for (i = 0; i < ns; i++) {
		a[i] = special[i][0];
		b[i] = special[i][1];
	}
	build_elementwise(&dp, PWTPU_DT_I32, n, 4096);
	RUN(&dp);
	for (k = 0; k < N_EW_OPS; k++)
		for (i = 0; i < n; i++) {
			int32_t want = ref_i32_op(elementwise_ops[k], a[i],
						  b[i]);
			int32_t got = i32_at(&self->out, k * 4 * n)[i];

			if (want != got && bad++ < 8)
				TH_LOG("op %d [%u] (%d, %d): want %d got %d",
				       elementwise_ops[k], i, a[i], b[i], want,
				       got);
		}
	EXPECT_EQ(0u, bad);
}

/*
 * bf16 ops compute in f32 and round once to bf16. Operands are kept
 * within a few binades of each other so the f32 result is exact and no
 * double rounding can blur the reference.
 */
TEST_F(exec, elementwise_bf16)
{
	const uint32_t n = 200;
	uint16_t *a = bf16_at(&self->in, 0), *b = bf16_at(&self->in, 4096);
	struct drv_prog dp;
	struct ref_rng r;
	uint32_t i, bad = 0;
	size_t k;

	ref_rng_seed(&r, 13);
	for (i = 0; i < n; i++) {
		float x = ref_rng_f32(&r, 0.0625f, 4.0f);
		float y = ref_rng_f32(&r, 0.0625f, 4.0f);

		a[i] = ref_bf16(i & 1 ? -x : x);
		b[i] = ref_bf16(i & 2 ? -y : y);
	}
	build_elementwise(&dp, PWTPU_DT_BF16, n, 4096);
	RUN(&dp);
	for (k = 0; k < N_EW_OPS; k++) {
		if (elementwise_ops[k] == PWTPU_OP_DIV)
			continue;	/* f32 quotient is inexact: see above */
		for (i = 0; i < n; i++) {
			float want = ref_f32_op(elementwise_ops[k],
						ref_bf16_f32(a[i]),
						ref_bf16_f32(b[i]));
			uint16_t got = bf16_at(&self->out, k * 4 * n)[i];

			if (ref_bf16(want) != got && bad++ < 8)
				TH_LOG("op %d [%u]: want %#x got %#x",
				       elementwise_ops[k], i, ref_bf16(want),
				       got);
		}
	}
	EXPECT_EQ(0u, bad);
}

static const enum pwtpu_op math_ops[] = {
	PWTPU_OP_EXP, PWTPU_OP_LOG, PWTPU_OP_TANH, PWTPU_OP_RSQRT,
};

static double ref_math(enum pwtpu_op op, double x)
{
	switch (op) {
	case PWTPU_OP_EXP: return exp(x);
	case PWTPU_OP_LOG: return log(x);
	case PWTPU_OP_TANH: return tanh(x);
	case PWTPU_OP_RSQRT: return 1.0 / sqrt(x);
	default: return NAN;
	}
}

/* Inputs in each function's domain, over a wide range. */
static float math_input(enum pwtpu_op op, struct ref_rng *r)
{
	switch (op) {
	case PWTPU_OP_EXP: return ref_rng_f32(r, -20.0f, 20.0f);
	case PWTPU_OP_TANH: return ref_rng_f32(r, -6.0f, 6.0f);
	default: return expf(ref_rng_f32(r, -12.0f, 12.0f));
	}
}

static void math_ops_check(struct __test_metadata *_metadata,
			   FIXTURE_DATA(exec) *self,
			   const FIXTURE_VARIANT(exec) *variant,
			   enum pwtpu_dtype dt, double rel_tol)
{
	const uint32_t n = 300;
	const size_t esz = dt == PWTPU_DT_F32 ? 4 : 2;
	struct drv_prog dp;
	struct ref_rng r;
	uint32_t i, bad = 0;
	size_t k;

	ref_rng_seed(&r, 14 + dt);
	drv_prog_init(&dp, 2);
	for (k = 0; k < 4; k++) {
		uint64_t off = k * esz * n;
		int src = drv_tensor(&dp, dt, 0, off, 1, n);
		int dst = drv_tensor(&dp, dt, 1, off, 1, n);

		for (i = 0; i < n; i++) {
			float x = math_input(math_ops[k], &r);

			if (dt == PWTPU_DT_F32)
				f32_at(&self->in, off)[i] = x;
			else
				bf16_at(&self->in, off)[i] = ref_bf16(x);
		}
		drv_unary(&dp, math_ops[k], dst, src);
	}
	RUN(&dp);
	for (k = 0; k < 4; k++)
		for (i = 0; i < n; i++) {
			uint64_t off = k * esz * n;
			float x, got;
			double want;

			if (dt == PWTPU_DT_F32) {
				x = f32_at(&self->in, off)[i];
				got = f32_at(&self->out, off)[i];
			} else {
				x = ref_bf16_f32(bf16_at(&self->in, off)[i]);
				got = ref_bf16_f32(bf16_at(&self->out, off)[i]);
			}
			want = ref_math(math_ops[k], x);
			if (!ref_close_f32(want, got, rel_tol, 1e-37) &&
			    bad++ < 8)
				TH_LOG("op %d (%.9g): want %.9g got %.9g",
				       math_ops[k], x, want, got);
		}
	EXPECT_EQ(0u, bad);
}

TEST_F(exec, math_f32)
{
	math_ops_check(_metadata, self, variant, PWTPU_DT_F32, 1e-5);
}

TEST_F(exec, math_bf16)
{
	/* One bf16 rounding of the result: half an ulp is 2^-9. */
	math_ops_check(_metadata, self, variant, PWTPU_DT_BF16, 1.0 / 128);
}

static bool ref_cmp(enum pwtpu_cmp mode, double a, double b)
{
	switch (mode) {
	case PWTPU_CMP_EQ: return a == b;
	case PWTPU_CMP_NE: return a != b;
	case PWTPU_CMP_LT: return a < b;
	case PWTPU_CMP_LE: return a <= b;
	case PWTPU_CMP_GT: return a > b;
	case PWTPU_CMP_GE: return a >= b;
	}
	return false;
}

/* All six comparisons, then select(a < b, a, b) == min. */
static void compare_select(struct __test_metadata *_metadata,
			   FIXTURE_DATA(exec) *self,
			   const FIXTURE_VARIANT(exec) *variant,
			   enum pwtpu_dtype dt)
{
	const uint32_t n = 64;
	struct drv_prog dp;
	struct ref_rng r;
	double av[64], bv[64];
	uint32_t i, mode, bad = 0;
	int pred_lt = 0, sel;

	ref_rng_seed(&r, 15 + dt);
	for (i = 0; i < n; i++) {
		float x = ref_rng_int_f32(&r, -4, 4);
		float y = i % 4 == 0 ? x : ref_rng_int_f32(&r, -4, 4);

		if (dt == PWTPU_DT_F32) {
			f32_at(&self->in, 0)[i] = x;
			f32_at(&self->in, 256)[i] = y;
		} else {
			i32_at(&self->in, 0)[i] = (int32_t)x;
			i32_at(&self->in, 256)[i] = (int32_t)y;
		}
		av[i] = x;
		bv[i] = y;
	}
	if (dt == PWTPU_DT_F32) {	/* NaN compares unequal to all */
		f32_at(&self->in, 0)[1] = NAN;
		av[1] = NAN;
	}
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, dt, 0, 0, 1, n);
	drv_tensor(&dp, dt, 0, 256, 1, n);
	for (mode = PWTPU_CMP_EQ; mode <= PWTPU_CMP_GE; mode++) {
		int dst = drv_tensor(&dp, PWTPU_DT_I8, 1, mode * n, 1, n);

		if (mode == PWTPU_CMP_LT)
			pred_lt = dst;
		drv_insn(&dp, PWTPU_OP_COMPARE, (uint8_t)mode, dst, 0, 1, NO,
			 0);
	}
	sel = drv_tensor(&dp, dt, 1, 1024, 1, n);
	drv_insn(&dp, PWTPU_OP_SELECT, 0, sel, pred_lt, 0, 1, 0);
	RUN(&dp);
	for (mode = PWTPU_CMP_EQ; mode <= PWTPU_CMP_GE; mode++)
		for (i = 0; i < n; i++) {
			int8_t got = i8_at(&self->out, mode * n)[i];
			int8_t want = ref_cmp(mode, av[i], bv[i]);

			if (got != want && bad++ < 8)
				TH_LOG("cmp %u [%u] (%g, %g): want %d got %d",
				       mode, i, av[i], bv[i], want, got);
		}
	for (i = 0; i < n; i++) {
		double want = av[i] < bv[i] ? av[i] : bv[i];
		double got = dt == PWTPU_DT_F32 ?
			     f32_at(&self->out, 1024)[i] :
			     i32_at(&self->out, 1024)[i];

		if (got != want && bad++ < 8)
			TH_LOG("select [%u]: want %g got %g", i, want, got);
	}
	EXPECT_EQ(0u, bad);
}

TEST_F(exec, compare_select_f32)
{
	compare_select(_metadata, self, variant, PWTPU_DT_F32);
}

TEST_F(exec, compare_select_i32)
{
	compare_select(_metadata, self, variant, PWTPU_DT_I32);
}

TEST_F(exec, convert)
{
	static const float f_in[] = {
		2.7f, -2.7f, 3e9f, -3e9f, NAN, INFINITY, -INFINITY,
		2147483520.0f, 127.9f, 200.0f, -200.0f, -128.5f, -3.9f, 0.0f,
		0x1.01p0f, 0x1.03p0f, 0x1.0101p0f, FLT_MAX, 1e-40f,
	};
	static const int32_t i_in[] = {
		16777217, -5, INT32_MAX, INT32_MIN, 0, 100, -100,
	};
	const uint32_t nf = sizeof(f_in) / sizeof(f_in[0]);
	const uint32_t ni = sizeof(i_in) / sizeof(i_in[0]);
	const uint64_t o_i32 = 0, o_i8 = 256, o_bf = 512, o_back = 768;
	const uint64_t o_if = 1024, o_ii8 = 1280, o_i8f = 1536, o_i8i = 1792;
	struct drv_prog dp;
	uint32_t i;
	int fa, ia, bf, i8;

	memcpy(f32_at(&self->in, 0), f_in, sizeof(f_in));
	memcpy(i32_at(&self->in, 256), i_in, sizeof(i_in));
	drv_prog_init(&dp, 2);
	fa = drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, nf);
	ia = drv_tensor(&dp, PWTPU_DT_I32, 0, 256, 1, ni);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  drv_tensor(&dp, PWTPU_DT_I32, 1, o_i32, 1, nf), fa);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  drv_tensor(&dp, PWTPU_DT_I8, 1, o_i8, 1, nf), fa);
	bf = drv_tensor(&dp, PWTPU_DT_BF16, 1, o_bf, 1, nf);
	drv_unary(&dp, PWTPU_OP_CONVERT, bf, fa);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  drv_tensor(&dp, PWTPU_DT_F32, 1, o_back, 1, nf), bf);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  drv_tensor(&dp, PWTPU_DT_F32, 1, o_if, 1, ni), ia);
	i8 = drv_tensor(&dp, PWTPU_DT_I8, 1, o_ii8, 1, ni);
	drv_unary(&dp, PWTPU_OP_CONVERT, i8, ia);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  drv_tensor(&dp, PWTPU_DT_F32, 1, o_i8f, 1, ni), i8);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  drv_tensor(&dp, PWTPU_DT_I32, 1, o_i8i, 1, ni), i8);
	RUN(&dp);

	for (i = 0; i < nf; i++) {
		float x = f_in[i];
		int32_t w32 = isnan(x) ? 0 : x >= 2147483648.0f ? INT32_MAX :
			      x <= -2147483648.0f ? INT32_MIN : (int32_t)x;
		int32_t w8 = isnan(x) ? 0 : x >= 127.0f ? 127 :
			     x <= -128.0f ? -128 : (int32_t)x;
		uint16_t wbf = ref_bf16(x);

		EXPECT_EQ(w32, i32_at(&self->out, o_i32)[i]) {
			TH_LOG("f32 %g -> i32", x);
		}
		EXPECT_EQ(w8, i8_at(&self->out, o_i8)[i]) {
			TH_LOG("f32 %g -> i8", x);
		}
		if (isnan(x)) {
			EXPECT_TRUE(isnan(ref_bf16_f32(bf16_at(&self->out,
							       o_bf)[i])));
		} else {
			EXPECT_EQ(wbf, bf16_at(&self->out, o_bf)[i]) {
				TH_LOG("f32 %.9g -> bf16", x);
			}
		}
		EXPECT_TRUE(ref_same_f32(ref_bf16_f32(wbf),
					 f32_at(&self->out, o_back)[i]));
	}
	/* The rounding cases, spelled out: ties go to even, above half up. */
	EXPECT_EQ(0x3f80, bf16_at(&self->out, o_bf)[14]);
	EXPECT_EQ(0x3f82, bf16_at(&self->out, o_bf)[15]);
	EXPECT_EQ(0x3f81, bf16_at(&self->out, o_bf)[16]);
	EXPECT_EQ(0x7f80, bf16_at(&self->out, o_bf)[17]);

	for (i = 0; i < ni; i++) {
		EXPECT_TRUE(ref_same_f32((float)i_in[i],
					 f32_at(&self->out, o_if)[i]));
		if (i_in[i] >= -128 && i_in[i] <= 127) {
			EXPECT_EQ(i_in[i], i8_at(&self->out, o_ii8)[i]);
			EXPECT_EQ((float)i_in[i], f32_at(&self->out, o_i8f)[i]);
			EXPECT_EQ(i_in[i], i32_at(&self->out, o_i8i)[i]);
		}
	}
}

/* Element of a row-major tensor of @rank at @idx. */
static uint32_t lin(uint32_t rank, const uint32_t *shape, const uint32_t *idx)
{
	uint32_t k, at = 0;

	for (k = 0; k < rank; k++)
		at = at * shape[k] + idx[k];
	return at;
}

/* Advance @idx through @shape; false after the last index. */
static bool next_index(uint32_t rank, const uint32_t *shape, uint32_t *idx)
{
	int k;

	for (k = (int)rank - 1; k >= 0; k--) {
		if (++idx[k] < shape[k])
			return true;
		idx[k] = 0;
	}
	return false;
}

static void fill_seq_f32(float *p, uint32_t n, float start)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		p[i] = start + (float)i;
}

TEST_F(exec, broadcast)
{
	const uint32_t dshape[3] = { 2, 3, 4 }, ashape[3] = { 1, 3, 1 };
	uint32_t idx[3] = { 0 }, aidx[3], k, bad = 0;
	float *a = f32_at(&self->in, 0);
	struct drv_prog dp;
	int src, vec, sc;

	fill_seq_f32(a, 3, 1.0f);		/* a[3,1] */
	fill_seq_f32(f32_at(&self->in, 64), 4, 10.0f);	/* v[4] */
	*f32_at(&self->in, 128) = 42.0f;	/* a scalar */
	drv_prog_init(&dp, 2);
	src = drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 3, 1);
	vec = drv_tensor(&dp, PWTPU_DT_F32, 0, 64, 1, 4);
	sc = drv_tensor(&dp, PWTPU_DT_F32, 0, 128, 0);
	drv_unary(&dp, PWTPU_OP_BROADCAST,
		  drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 3, 2, 3, 4), src);
	drv_unary(&dp, PWTPU_OP_BROADCAST,
		  drv_tensor(&dp, PWTPU_DT_F32, 1, 256, 2, 3, 4), vec);
	drv_unary(&dp, PWTPU_OP_BROADCAST,
		  drv_tensor(&dp, PWTPU_DT_F32, 1, 512, 2, 2, 2), sc);
	RUN(&dp);
	do {
		for (k = 0; k < 3; k++)
			aidx[k] = ashape[k] == 1 ? 0 : idx[k];
		if (f32_at(&self->out, 0)[lin(3, dshape, idx)] !=
		    a[lin(3, ashape, aidx)] && bad++ < 4)
			TH_LOG("[%u,%u,%u] wrong", idx[0], idx[1], idx[2]);
	} while (next_index(3, dshape, idx));
	for (k = 0; k < 12; k++)
		if (f32_at(&self->out, 256)[k] != 10.0f + (float)(k % 4))
			bad++;
	for (k = 0; k < 4; k++)
		if (f32_at(&self->out, 512)[k] != 42.0f)
			bad++;
	EXPECT_EQ(0u, bad);
}

TEST_F(exec, reshape)
{
	struct drv_prog dp;

	fill_seq_f32(f32_at(&self->in, 0), 12, -3.0f);
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 2, 6);
	drv_unary(&dp, PWTPU_OP_RESHAPE,
		  drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 3, 3, 2, 2), 0);
	RUN(&dp);
	EXPECT_EQ(0, memcmp(f32_at(&self->in, 0), f32_at(&self->out, 0), 48));
}

/* numpy.transpose(a, perm) of an f32 tensor of @rank. */
static void transpose_case(struct __test_metadata *_metadata,
			   FIXTURE_DATA(exec) *self,
			   const FIXTURE_VARIANT(exec) *variant,
			   uint32_t rank, const uint32_t *ashape,
			   const uint32_t *perm)
{
	uint32_t dshape[PWTPU_MAX_RANK], idx[PWTPU_MAX_RANK] = { 0 };
	uint32_t aidx[PWTPU_MAX_RANK], k, n = 1, bad = 0;
	struct drv_prog dp;
	int dst;

	for (k = 0; k < rank; k++) {
		dshape[k] = ashape[perm[k]];
		n *= ashape[k];
	}
	fill_seq_f32(f32_at(&self->in, 0), n, 0.0f);
	drv_prog_init(&dp, 2);
	if (rank == 3) {
		drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 3, ashape[0], ashape[1],
			   ashape[2]);
		dst = drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 3, dshape[0],
				 dshape[1], dshape[2]);
		drv_insn(&dp, PWTPU_OP_TRANSPOSE, 0, dst, 0, NO, NO, 3,
			 perm[0], perm[1], perm[2]);
	} else {
		drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 4, ashape[0], ashape[1],
			   ashape[2], ashape[3]);
		dst = drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 4, dshape[0],
				 dshape[1], dshape[2], dshape[3]);
		drv_insn(&dp, PWTPU_OP_TRANSPOSE, 0, dst, 0, NO, NO, 4,
			 perm[0], perm[1], perm[2], perm[3]);
	}
	RUN(&dp);
	do {
		for (k = 0; k < rank; k++)
			aidx[perm[k]] = idx[k];
		if (f32_at(&self->out, 0)[lin(rank, dshape, idx)] !=
		    (float)lin(rank, ashape, aidx) && bad++ < 4)
			TH_LOG("rank %u: dst element %u wrong", rank,
			       lin(rank, dshape, idx));
	} while (next_index(rank, dshape, idx));
	EXPECT_EQ(0u, bad);
}

TEST_F(exec, transpose)
{
	const uint32_t s3[3] = { 2, 3, 4 }, p3[3] = { 2, 0, 1 };
	const uint32_t s4[4] = { 2, 3, 4, 5 }, p4[4] = { 3, 1, 0, 2 };

	transpose_case(_metadata, self, variant, 3, s3, p3);
	transpose_case(_metadata, self, variant, 4, s4, p4);
}

TEST_F(exec, transpose_i8)
{
	struct drv_prog dp;
	int8_t *a = i8_at(&self->in, 0);
	uint32_t i, j;

	for (i = 0; i < 15; i++)
		a[i] = (int8_t)(i * 9 - 60);
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_I8, 0, 0, 2, 3, 5);
	drv_insn(&dp, PWTPU_OP_TRANSPOSE, 0,
		 drv_tensor(&dp, PWTPU_DT_I8, 1, 0, 2, 5, 3), 0, NO, NO, 2,
		 1, 0);
	RUN(&dp);
	for (i = 0; i < 5; i++)
		for (j = 0; j < 3; j++) {
			EXPECT_EQ(a[j * 5 + i], i8_at(&self->out, 0)[i * 3 + j]);
		}
}

TEST_F(exec, slice)
{
	const uint32_t as[3] = { 3, 4, 5 }, ds[3] = { 2, 2, 3 };
	const uint32_t st[3] = { 1, 2, 2 };
	uint32_t idx[3] = { 0 }, aidx[3], k, bad = 0;
	uint16_t *bf = bf16_at(&self->in, 1024);
	struct drv_prog dp;

	fill_seq_f32(f32_at(&self->in, 0), 60, 0.0f);
	for (k = 0; k < 30; k++)
		bf[k] = ref_bf16((float)k);
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 3, 3, 4, 5);
	drv_insn(&dp, PWTPU_OP_SLICE, 0,
		 drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 3, 2, 2, 3), 0, NO, NO,
		 3, st[0], st[1], st[2]);
	drv_tensor(&dp, PWTPU_DT_BF16, 0, 1024, 2, 5, 6);
	drv_insn(&dp, PWTPU_OP_SLICE, 0,
		 drv_tensor(&dp, PWTPU_DT_BF16, 1, 1024, 2, 1, 6), 2, NO, NO,
		 2, 4, 0);
	RUN(&dp);
	do {
		for (k = 0; k < 3; k++)
			aidx[k] = idx[k] + st[k];
		if (f32_at(&self->out, 0)[lin(3, ds, idx)] !=
		    (float)lin(3, as, aidx) && bad++ < 4)
			TH_LOG("[%u,%u,%u] wrong", idx[0], idx[1], idx[2]);
	} while (next_index(3, ds, idx));
	/* The last row of the bf16 matrix. */
	EXPECT_EQ(0, memcmp(bf + 24, bf16_at(&self->out, 1024), 12));
	EXPECT_EQ(0u, bad);
}

TEST_F(exec, reduce)
{
	const uint32_t shape[3] = { 3, 4, 5 };
	uint32_t idx[3] = { 0 }, i;
	float *a = f32_at(&self->in, 0);
	int32_t *ia = i32_at(&self->in, 1024);
	float sum02[4] = { 0 }, max1[15], min_all = INFINITY;
	int32_t isum0[20] = { 0 };
	struct drv_prog dp;
	struct ref_rng r;

	ref_rng_seed(&r, 16);
	for (i = 0; i < 60; i++) {
		a[i] = ref_rng_int_f32(&r, -50, 50);
		ia[i] = (int32_t)ref_rng_u32(&r);	/* sums wrap */
	}
	for (i = 0; i < 15; i++)
		max1[i] = -INFINITY;
	do {
		float v = a[lin(3, shape, idx)];
		uint32_t m = idx[0] * 5 + idx[2];

		sum02[idx[1]] += v;
		max1[m] = v > max1[m] ? v : max1[m];
		min_all = v < min_all ? v : min_all;
		isum0[idx[1] * 5 + idx[2]] = (int32_t)((uint32_t)isum0[idx[1] *
			5 + idx[2]] + (uint32_t)ia[lin(3, shape, idx)]);
	} while (next_index(3, shape, idx));

	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 3, 3, 4, 5);
	drv_tensor(&dp, PWTPU_DT_I32, 0, 1024, 3, 3, 4, 5);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM,
		 drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 1, 4), 0, NO, NO, 1, 5);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_MAX,
		 drv_tensor(&dp, PWTPU_DT_F32, 1, 64, 2, 3, 5), 0, NO, NO, 1,
		 2);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_MIN,
		 drv_tensor(&dp, PWTPU_DT_F32, 1, 192, 0), 0, NO, NO, 1, 7);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM,
		 drv_tensor(&dp, PWTPU_DT_I32, 1, 256, 2, 4, 5), 1, NO, NO, 1,
		 1);
	RUN(&dp);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(sum02[i], f32_at(&self->out, 0)[i]);
	}
	for (i = 0; i < 15; i++) {
		EXPECT_EQ(max1[i], f32_at(&self->out, 64)[i]);
	}
	EXPECT_EQ(min_all, *f32_at(&self->out, 192));
	for (i = 0; i < 20; i++) {
		EXPECT_EQ(isum0[i], i32_at(&self->out, 256)[i]);
	}
}

TEST_F(exec, loops)
{
	float *a = f32_at(&self->in, 0);
	struct drv_prog dp;
	int ta, acc, acc1, acc2;
	uint32_t i;

	for (i = 0; i < 8; i++) {
		a[i] = (float)i - 3.0f;
		f32_at(&self->out, 0)[i] = 1.0f;
		f32_at(&self->out, 64)[i] = 0.0f;
		f32_at(&self->out, 128)[i] = 0.5f;
	}
	drv_prog_init(&dp, 2);
	ta = drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 8);
	acc = drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 1, 8);
	acc1 = drv_tensor(&dp, PWTPU_DT_F32, 1, 64, 1, 8);
	acc2 = drv_tensor(&dp, PWTPU_DT_F32, 1, 128, 1, 8);
	/* acc += a, 5 times */
	drv_insn(&dp, PWTPU_OP_LOOP, 0, NO, NO, NO, NO, 2, 5, 1);
	drv_binary(&dp, PWTPU_OP_ADD, acc, acc, ta);
	/* 3 x { 4 x { acc1 += a }; acc2 += a } */
	drv_insn(&dp, PWTPU_OP_LOOP, 0, NO, NO, NO, NO, 2, 3, 3);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, NO, NO, NO, NO, 2, 4, 1);
	drv_binary(&dp, PWTPU_OP_ADD, acc1, acc1, ta);
	drv_binary(&dp, PWTPU_OP_ADD, acc2, acc2, ta);
	/* After the loops: runs once. */
	drv_binary(&dp, PWTPU_OP_ADD, acc2, acc2, acc2);
	RUN(&dp);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(1.0f + 5.0f * a[i], f32_at(&self->out, 0)[i]);
		EXPECT_EQ(12.0f * a[i], f32_at(&self->out, 64)[i]);
		EXPECT_EQ(2.0f * (0.5f + 3.0f * a[i]),
			  f32_at(&self->out, 128)[i]);
	}
}

/* A delay spends time and touches no data; the ops around it still run. */
TEST_F(exec, delay)
{
	float *a = f32_at(&self->in, 0);
	struct drv_prog dp;
	uint32_t i;

	for (i = 0; i < 4; i++)
		a[i] = (float)i + 0.5f;
	memset(self->out.map, 0x11, 64);
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 1, 4);
	drv_binary(&dp, PWTPU_OP_ADD, 1, 0, 0);
	drv_insn(&dp, PWTPU_OP_DELAY, 0, NO, NO, NO, NO, 2, 200000, 0);
	drv_binary(&dp, PWTPU_OP_MUL, 1, 1, 1);
	RUN(&dp);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(4.0f * a[i] * a[i], f32_at(&self->out, 0)[i]);
	}
	EXPECT_EQ(0x11, ((unsigned char *)self->out.map)[16]);
}

/* Host copies through the same path as the exec carry inputs and results. */
TEST_F(exec, copy_exec_copy)
{
	float in[64], out[64];
	struct pwtpu_cmd cmd;
	struct drv_prog dp;
	uint32_t i;

	for (i = 0; i < 64; i++)
		in[i] = (float)i * 0.25f;
	memset(&cmd, 0, sizeof(cmd));
	cmd.handle = self->in.handle;
	cmd.host_ptr = (uintptr_t)in;
	cmd.offset = 4096;
	cmd.length = sizeof(in);
	ASSERT_EQ(0, drv_cmd(&self->d, variant->path, PWTPU_CMD_COPY_TO_DEV,
			     &cmd, NULL));
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 4096, 2, 8, 8);
	drv_tensor(&dp, PWTPU_DT_F32, 1, 8192, 2, 8, 8);
	drv_binary(&dp, PWTPU_OP_MUL, 1, 0, 0);
	RUN(&dp);
	memset(out, 0, sizeof(out));
	memset(&cmd, 0, sizeof(cmd));
	cmd.handle = self->out.handle;
	cmd.host_ptr = (uintptr_t)out;
	cmd.offset = 8192;
	cmd.length = sizeof(out);
	ASSERT_EQ(0, drv_cmd(&self->d, variant->path, PWTPU_CMD_COPY_FROM_DEV,
			     &cmd, NULL));
	for (i = 0; i < 64; i++) {
		EXPECT_EQ(in[i] * in[i], out[i]);
	}
}

/*
 * An [n] tensor of @dt at the next free offset of binding @buf; its
 * offset in *@at when @at is not NULL.
 */
static int nd_tensor(struct drv_prog *dp, uint64_t *cur, uint32_t buf,
		     enum pwtpu_dtype dt, uint32_t n, uint64_t *at)
{
	uint64_t o = place(cur, (uint64_t)n * pwtpu_dtype_size(dt));

	if (at)
		*at = o;
	return drv_tensor(dp, dt, buf, o, 1, n);
}

#define ND	512

/*
 * The dtypes F16..U64 on the device against the same firmware built in
 * user space (libpwfw.a): one image over the same inputs gives the same
 * bytes, NaN payloads included (the FPU sections run the same SSE2 code;
 * narrowing to f16 and bf16, and integers to floats, is integer code),
 * and a few results are spelled out.
 */
TEST_F(exec, new_dtypes_match_user_space)
{
	enum { A, B, H1, H2, X, Y, U, V, P, Q, S16, W16, W32, NIN };
	static const enum pwtpu_dtype in_dt[NIN] = {
		PWTPU_DT_F64, PWTPU_DT_F64, PWTPU_DT_F16, PWTPU_DT_F16,
		PWTPU_DT_I64, PWTPU_DT_I64, PWTPU_DT_U64, PWTPU_DT_U64,
		PWTPU_DT_U8, PWTPU_DT_U8, PWTPU_DT_I16, PWTPU_DT_U16,
		PWTPU_DT_U32,
	};
	static const enum pwtpu_op f_ops[] = {
		PWTPU_OP_ADD, PWTPU_OP_DIV, PWTPU_OP_MAX, PWTPU_OP_MUL,
	};
	static const enum pwtpu_op math_ops[] = {
		PWTPU_OP_EXP, PWTPU_OP_LOG, PWTPU_OP_TANH, PWTPU_OP_RSQRT,
	};
	static const enum pwtpu_dtype to_float[] = {
		PWTPU_DT_F32, PWTPU_DT_F16, PWTPU_DT_BF16, PWTPU_DT_F64,
	};
	uint64_t cur_in = 0, cur_out = 0, off[NIN];
	uint64_t o_h = 0, o_i64 = 0, o_f32 = 0, o_mul = 0, o_u8 = 0;
	int t[NIN], lt, x2d, xt;
	struct pwfw_prog prog;
	struct pwfw_verr verr;
	struct pwfw_spec spec;
	struct pwfw_buf bufs[2];
	struct drv_prog dp;
	struct ref_rng r;
	unsigned char *inp, *got;
	uint32_t i, k;
	size_t size;
	void *img;
	int err;

	drv_prog_init(&dp, 2);
	for (k = 0; k < NIN; k++)
		t[k] = nd_tensor(&dp, &cur_in, 0, in_dt[k], ND, &off[k]);
	ASSERT_GE(BO_BYTES, cur_in);
	ref_rng_seed(&r, 1616);
	inp = self->in.map;
	for (i = 0; i < cur_in; i++)
		inp[i] = (unsigned char)ref_rng_u32(&r);
	/* Edges first; the rest random bit patterns (NaNs, inf included). */
	((double *)(inp + off[A]))[0] = 1.0 + 0x1p-11 + 0x1p-40;
	((double *)(inp + off[A]))[1] = 0x1p63;
	((double *)(inp + off[A]))[2] = NAN;
	((double *)(inp + off[A]))[3] = -0x1p63 - 2048;
	((uint64_t *)(inp + off[U]))[0] = UINT64_MAX;
	((uint64_t *)(inp + off[U]))[1] = 0x8000008000000001ULL;
	((int64_t *)(inp + off[X]))[0] = INT64_MAX;
	((int64_t *)(inp + off[Y]))[0] = 2;
	((uint8_t *)(inp + off[P]))[0] = 7;
	((uint8_t *)(inp + off[Q]))[0] = 0;

	/* f64 and f16 arithmetic, f16 math, comparison, select, sums. */
	for (k = 0; k < 4; k++) {
		drv_binary(&dp, f_ops[k],
			   nd_tensor(&dp, &cur_out, 1, PWTPU_DT_F64, ND, NULL),
			   t[A], t[B]);
		drv_binary(&dp, f_ops[k],
			   nd_tensor(&dp, &cur_out, 1, PWTPU_DT_F16, ND, NULL),
			   t[H1], t[H2]);
		drv_unary(&dp, math_ops[k],
			  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_F16, ND, NULL),
			  t[H1]);
	}
	lt = nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I8, ND, NULL);
	drv_insn(&dp, PWTPU_OP_COMPARE, PWTPU_CMP_LT, lt, t[A], t[B], NO, 0);
	drv_insn(&dp, PWTPU_OP_SELECT, 0,
		 nd_tensor(&dp, &cur_out, 1, PWTPU_DT_F64, ND, NULL), lt, t[A],
		 t[B], 0);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM,
		 drv_tensor(&dp, PWTPU_DT_F64, 1, place(&cur_out, 8), 0),
		 t[A], NO, NO, 1, 1);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM,
		 drv_tensor(&dp, PWTPU_DT_F16, 1, place(&cur_out, 2), 0),
		 t[H1], NO, NO, 1, 1);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_MAX,
		 drv_tensor(&dp, PWTPU_DT_U8, 1, place(&cur_out, 1), 0),
		 t[P], NO, NO, 1, 1);
	/* Conversions to every float from f64, i64, u64, narrower ones. */
	for (k = 0; k < 4; k++) {
		drv_unary(&dp, PWTPU_OP_CONVERT,
			  nd_tensor(&dp, &cur_out, 1, to_float[k], ND,
				    k == 1 ? &o_h : NULL), t[A]);
		drv_unary(&dp, PWTPU_OP_CONVERT,
			  nd_tensor(&dp, &cur_out, 1, to_float[k], ND, NULL),
			  t[X]);
		drv_unary(&dp, PWTPU_OP_CONVERT,
			  nd_tensor(&dp, &cur_out, 1, to_float[k], ND,
				    k == 0 ? &o_f32 : NULL), t[U]);
		drv_unary(&dp, PWTPU_OP_CONVERT,
			  nd_tensor(&dp, &cur_out, 1, to_float[k], ND, NULL),
			  t[H1]);
		drv_unary(&dp, PWTPU_OP_CONVERT,
			  nd_tensor(&dp, &cur_out, 1, to_float[k], ND, NULL),
			  t[W32]);
		drv_unary(&dp, PWTPU_OP_CONVERT,
			  nd_tensor(&dp, &cur_out, 1, to_float[k], ND, NULL),
			  t[W16]);
	}
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I64, ND, &o_i64), t[A]);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_U64, ND, NULL), t[A]);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_U8, ND, NULL), t[A]);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I32, ND, NULL), t[H1]);
	drv_unary(&dp, PWTPU_OP_CONVERT,
		  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_U64, ND, NULL), t[S16]);
	/* Integer arithmetic: wrapping, division by zero, orders. */
	drv_binary(&dp, PWTPU_OP_MUL,
		   nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I64, ND, &o_mul),
		   t[X], t[Y]);
	drv_binary(&dp, PWTPU_OP_DIV,
		   nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I64, ND, NULL), t[X],
		   t[Y]);
	drv_binary(&dp, PWTPU_OP_DIV,
		   nd_tensor(&dp, &cur_out, 1, PWTPU_DT_U64, ND, NULL), t[U],
		   t[V]);
	drv_binary(&dp, PWTPU_OP_MAX,
		   nd_tensor(&dp, &cur_out, 1, PWTPU_DT_U64, ND, NULL), t[U],
		   t[V]);
	drv_binary(&dp, PWTPU_OP_DIV,
		   nd_tensor(&dp, &cur_out, 1, PWTPU_DT_U8, ND, &o_u8), t[P],
		   t[Q]);
	drv_insn(&dp, PWTPU_OP_COMPARE, PWTPU_CMP_GT,
		 nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I8, ND, NULL), t[P],
		 t[Q], NO, 0);
	drv_unary(&dp, PWTPU_OP_NEG,
		  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I16, ND, NULL), t[S16]);
	drv_unary(&dp, PWTPU_OP_ABS,
		  nd_tensor(&dp, &cur_out, 1, PWTPU_DT_I16, ND, NULL), t[S16]);
	/* 8-byte moves: x as [8, ND/8], transposed. */
	x2d = drv_tensor(&dp, PWTPU_DT_I64, 0, off[X], 2, 8, ND / 8);
	xt = drv_tensor(&dp, PWTPU_DT_I64, 1, place(&cur_out, 8 * ND), 2,
			ND / 8, 8);
	drv_insn(&dp, PWTPU_OP_TRANSPOSE, 0, xt, x2d, NO, NO, 2, 1, 0);
	ASSERT_GE(BO_BYTES, cur_out);
	/* RUN() frees the program: its image for user space first. */
	img = drv_prog_image(&dp, &size, &err);
	ASSERT_NE(NULL, img);
	RUN(&dp);

	/* The same image in user space, over a copy of the input. */
	pwfw_spec_default(&spec);
	ASSERT_EQ(0, pwfw_verify(img, size, &spec, &prog, &verr))
		TH_LOG("%s", verr.msg);
	bufs[0].size = BO_BYTES;
	bufs[0].base = malloc(BO_BYTES);
	bufs[1].size = BO_BYTES;
	bufs[1].base = calloc(1, BO_BYTES);
	ASSERT_TRUE(bufs[0].base && bufs[1].base);
	memcpy(bufs[0].base, self->in.map, BO_BYTES);
	ASSERT_EQ(0, pwfw_exec(&prog, bufs, 2, NULL));
	got = self->out.map;
	for (i = 0; i < cur_out; i++)
		if (got[i] != ((unsigned char *)bufs[1].base)[i])
			break;
	EXPECT_EQ(cur_out, (uint64_t)i) TH_LOG("first different byte: %u", i);

	/* Spelled out, from the UAPI's rules. */
	EXPECT_EQ(0x3c01, *(uint16_t *)(got + o_h));	/* once, not via f32 */
	EXPECT_EQ(INT64_MAX, ((int64_t *)(got + o_i64))[1]);	/* 2^63 */
	EXPECT_EQ(0, ((int64_t *)(got + o_i64))[2]);		/* NaN */
	EXPECT_EQ(INT64_MIN, ((int64_t *)(got + o_i64))[3]);
	EXPECT_EQ(0x5f800000u, ((uint32_t *)(got + o_f32))[0]);
	EXPECT_EQ(0x5f000001u, ((uint32_t *)(got + o_f32))[1]);
	EXPECT_EQ(-2, ((int64_t *)(got + o_mul))[0]);	/* wraps */
	EXPECT_EQ(255, got[o_u8]);			/* 7 / 0 */
	free(bufs[0].base);
	free(bufs[1].base);
	free(img);
}

/* The same program on the same inputs gives the same bits either way. */
TEST(paths_agree)
{
	const uint32_t n = 64;
	struct pwtpu_bo in, out[2];
	struct drv d;
	struct drv_prog dp;
	struct ref_rng r;
	uint32_t prog, bos[2], i;
	int x, y, e, t, mm;

	DRV_SETUP(&d, 4);
	if (skip_mode(&d))
		DRV_SKIP("timing=skip: results are unspecified");
	ASSERT_EQ(0, pwtpu_bo_alloc(d.fd, 65536, &in));
	ASSERT_EQ(0, pwtpu_bo_alloc(d.fd, 65536, &out[0]));
	ASSERT_EQ(0, pwtpu_bo_alloc(d.fd, 65536, &out[1]));
	ref_rng_seed(&r, 17);
	for (i = 0; i < 2 * n * n; i++)
		f32_at(&in, 0)[i] = ref_rng_f32(&r, -2.0f, 2.0f);
	drv_prog_init(&dp, 2);
	x = drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, n, n);
	y = drv_tensor(&dp, PWTPU_DT_F32, 0, 4 * n * n, 2, n, n);
	mm = drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 2, n, n);
	e = drv_tensor(&dp, PWTPU_DT_F32, 1, 4 * n * n, 2, n, n);
	t = drv_tensor(&dp, PWTPU_DT_F32, 1, 8 * n * n, 1, n);
	drv_binary(&dp, PWTPU_OP_MATMUL, mm, x, y);
	drv_unary(&dp, PWTPU_OP_TANH, e, mm);
	drv_unary(&dp, PWTPU_OP_EXP, e, e);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, t, e, NO, NO, 1, 2);
	ASSERT_EQ(0, drv_prog_load(d.fd, &dp, &prog, NULL, NULL, 0));
	bos[0] = in.handle;
	bos[1] = out[0].handle;
	ASSERT_EQ(0, drv_exec(&d, DRV_IOCTL, prog, bos, 2));
	bos[1] = out[1].handle;
	ASSERT_EQ(0, drv_exec(&d, DRV_URING, prog, bos, 2));
	EXPECT_EQ(0, memcmp(out[0].map, out[1].map, 4 * (2 * n * n + n)));
	drv_teardown(&d);
}

TEST_HARNESS_MAIN
