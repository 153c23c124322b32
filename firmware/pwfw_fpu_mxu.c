// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_mxu.c - MATMUL on the systolic array (the MXU). Runs only
 * inside an FPU section.
 *
 * The array is D x D (D = spec array_dim): K is fed through it in tiles of
 * D. For each output element, in this order and no other:
 *
 *	acc = +0
 *	for each K tile [k0, k0 + D), ascending:
 *		p = +0
 *		for k in the tile, ascending: p = p + a[m, k] * b[k, n]
 *		acc = acc + p
 *	dst[m, n] = acc
 *
 * For f32 and bf16 (widened exactly to f32) every product and every sum
 * is rounded to f32, never fused. For i8 the products are exact and the
 * sums wrap in 32 bits.
 *
 * Three paths, chosen by the caller's enum pwfw_simd level (the
 * platform's pwfw_plat_simd()): the scalar code below, the reference;
 * SSE2, which computes 16 adjacent outputs of a row at once, one per
 * lane of four 4-lane vectors; and AVX2 (pwfw_fpu_mxu_avx2.c), 8-lane
 * vectors blocked 6 rows by 16 columns. Each vector lane runs exactly the
 * scalar sequence of operations above for its output (i8 may add two
 * exact products before the wrapping sum: the same sum mod 2^32), so all
 * paths give the scalar path's bits (a NaN may differ in payload, as the
 * operand order of a product is the compiler's). Columns the SSE2 blocks
 * leave over, and a b narrower than 16 columns, take the scalar code.
 */
#include "pwfw_fpu.h"
#include "pwfw_platform.h"

/* GCC vector extensions, four 32-bit lanes: SSE2 in kernel and user space. */
typedef float v4sf __attribute__((vector_size(4 * sizeof(u32))));
typedef u32 v4su __attribute__((vector_size(16)));
typedef s32 v4si __attribute__((vector_size(16)));

#define PWFW_MXU_LANES	16	/* outputs per SIMD block: 4 vectors */

static inline u32 pwfw_mm_kend(const struct pwfw_k_matmul *mm, u32 kt)
{
	u64 end = (u64)(kt + 1) * mm->tile;

	return end < mm->k ? (u32)end : mm->k;
}

static inline float pwfw_mm_load(u32 dtype, const void *p, u64 i)
{
	if (dtype == PWTPU_DT_F32)
		return ((const float *)p)[i];
	return pwfw_bf16_to_f32(((const u16 *)p)[i]);
}

static void pwfw_mm_scalar_float(const struct pwfw_k_matmul *mm, u32 m,
				 u32 n, u32 kt0, u32 kt1)
{
	float *dst = (float *)mm->dst + (u64)m * mm->n + n;
	float acc = kt0 ? *dst : 0.0f;
	float a, b, p;
	u32 kt, k;

	for (kt = kt0; kt < kt1; kt++) {
		p = 0.0f;
		for (k = kt * mm->tile; k < pwfw_mm_kend(mm, kt); k++) {
			a = pwfw_mm_load(mm->dtype, mm->a, (u64)m * mm->k + k);
			b = pwfw_mm_load(mm->dtype, mm->b, (u64)k * mm->n + n);
			p = p + a * b;
		}
		acc = acc + p;
	}
	*dst = acc;
}

static void pwfw_mm_scalar_i8(const struct pwfw_k_matmul *mm, u32 m, u32 n,
			      u32 kt0, u32 kt1)
{
	const s8 *a = (const s8 *)mm->a + (u64)m * mm->k;
	const s8 *b = (const s8 *)mm->b + n;
	u32 *dst = (u32 *)mm->dst + (u64)m * mm->n + n;
	u32 acc = kt0 ? *dst : 0;
	u32 kt, k, p;

	for (kt = kt0; kt < kt1; kt++) {
		p = 0;
		for (k = kt * mm->tile; k < pwfw_mm_kend(mm, kt); k++)
			p += (u32)(a[k] * b[(u64)k * mm->n]);
		acc += p;
	}
	*dst = acc;
}

/* Four lanes of b's row k from column n, widened to f32. */
static inline v4sf pwfw_mm_bvec(u32 dtype, const void *row, u32 n)
{
	const u16 *h = (const u16 *)row + n;
	u32 lanes[4];
	v4su w;
	v4sf f;

	if (dtype == PWTPU_DT_F32) {
		__builtin_memcpy(&f, (const float *)row + n, sizeof(f));
		return f;
	}
	/* Widened lane by lane: sparse cannot parse vector conversions. */
	lanes[0] = h[0];
	lanes[1] = h[1];
	lanes[2] = h[2];
	lanes[3] = h[3];
	__builtin_memcpy(&w, lanes, sizeof(w));
	return (v4sf)(w << 16);
}

/*
 * Outputs dst[m, n .. n + 15], one per lane. Inlined into one caller per
 * @dtype, so that the loads are specialised.
 */
static inline void pwfw_mm_simd_float(const struct pwfw_k_matmul *mm,
				      u32 dtype, u32 m, u32 n, u32 kt0,
				      u32 kt1)
{
	u32 esize = dtype == PWTPU_DT_F32 ? 4 : 2;
	float *dst = (float *)mm->dst + (u64)m * mm->n + n;
	const u8 *brow;
	v4sf acc[4], p[4], zero = { 0 };
	u32 kt, k, j;
	float a;

	for (j = 0; j < 4; j++) {
		acc[j] = zero;
		if (kt0)
			__builtin_memcpy(&acc[j], dst + 4 * j, sizeof(acc[j]));
	}
	for (kt = kt0; kt < kt1; kt++) {
		for (j = 0; j < 4; j++)
			p[j] = zero;
		for (k = kt * mm->tile; k < pwfw_mm_kend(mm, kt); k++) {
			a = pwfw_mm_load(dtype, mm->a, (u64)m * mm->k + k);
			brow = (const u8 *)mm->b + (u64)k * mm->n * esize;
			for (j = 0; j < 4; j++)
				p[j] = p[j] + a * pwfw_mm_bvec(dtype, brow,
							       n + 4 * j);
		}
		for (j = 0; j < 4; j++)
			acc[j] = acc[j] + p[j];
	}
	for (j = 0; j < 4; j++)
		__builtin_memcpy(dst + 4 * j, &acc[j], sizeof(acc[j]));
}

static void pwfw_mm_simd_f32(const struct pwfw_k_matmul *mm, u32 m, u32 n,
			     u32 kt0, u32 kt1)
{
	pwfw_mm_simd_float(mm, PWTPU_DT_F32, m, n, kt0, kt1);
}

static void pwfw_mm_simd_bf16(const struct pwfw_k_matmul *mm, u32 m, u32 n,
			      u32 kt0, u32 kt1)
{
	pwfw_mm_simd_float(mm, PWTPU_DT_BF16, m, n, kt0, kt1);
}

static void pwfw_mm_simd_i8(const struct pwfw_k_matmul *mm, u32 m, u32 n,
			    u32 kt0, u32 kt1)
{
	const s8 *arow = (const s8 *)mm->a + (u64)m * mm->k;
	u32 *dst = (u32 *)mm->dst + (u64)m * mm->n + n;
	v4su acc[4], p[4], a, zero = { 0 };
	const s8 *brow, *q;
	u32 kt, k, j;
	v4su b;
	u32 lanes[4];

	for (j = 0; j < 4; j++) {
		acc[j] = zero;
		if (kt0)
			__builtin_memcpy(&acc[j], dst + 4 * j, sizeof(acc[j]));
	}
	for (kt = kt0; kt < kt1; kt++) {
		for (j = 0; j < 4; j++)
			p[j] = zero;
		for (k = kt * mm->tile; k < pwfw_mm_kend(mm, kt); k++) {
			a = zero + (u32)(s32)arow[k];
			brow = (const s8 *)mm->b + (u64)k * mm->n + n;
			for (j = 0; j < 4; j++) {
				q = brow + 4 * j;
				lanes[0] = q[0];
				lanes[1] = q[1];
				lanes[2] = q[2];
				lanes[3] = q[3];
				__builtin_memcpy(&b, lanes, sizeof(b));
				p[j] += a * b;
			}
		}
		for (j = 0; j < 4; j++)
			acc[j] += p[j];
	}
	for (j = 0; j < 4; j++)
		__builtin_memcpy(dst + 4 * j, &acc[j], sizeof(acc[j]));
}

void pwfw_k_matmul(const struct pwfw_k_matmul *mm, u32 m0, u32 m1,
		   u32 n0, u32 n1, u32 kt0, u32 kt1, u32 simd)
{
	bool i8 = mm->dtype == PWTPU_DT_I8;
	u32 m, n;

	if (simd >= PWFW_SIMD_AVX2 &&
	    pwfw_mm_avx2(mm, m0, m1, n0, n1, kt0, kt1))
		return;
	for (m = m0; m < m1; m++) {
		n = n0;
		for (; simd >= PWFW_SIMD_SSE2 && n + PWFW_MXU_LANES <= n1;
		     n += PWFW_MXU_LANES) {
			if (i8)
				pwfw_mm_simd_i8(mm, m, n, kt0, kt1);
			else if (mm->dtype == PWTPU_DT_F32)
				pwfw_mm_simd_f32(mm, m, n, kt0, kt1);
			else
				pwfw_mm_simd_bf16(mm, m, n, kt0, kt1);
		}
		for (; n < n1; n++) {
			if (i8)
				pwfw_mm_scalar_i8(mm, m, n, kt0, kt1);
			else
				pwfw_mm_scalar_float(mm, m, n, kt0, kt1);
		}
	}
}
