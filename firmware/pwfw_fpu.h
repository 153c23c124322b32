/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_fpu.h - float helpers shared by the pwfw_fpu_*.c files. Include it
 * only from those files: they are the only ones built with SSE, and their
 * code runs only inside an FPU section.
 */
#ifndef PWFW_FPU_H
#define PWFW_FPU_H

#include "pwfw_kernels.h"

#ifndef __KERNEL__
#include "user/pwfw_compiler.h"
#endif

#define PWFW_F32_SIGN	0x80000000U
#define PWFW_F32_INF	0x7f800000U
#define PWFW_F32_QNAN	0x7fc00000U

static inline u32 pwfw_f32_bits(float f)
{
	u32 u;

	__builtin_memcpy(&u, &f, sizeof(u));
	return u;
}

static inline float pwfw_f32_from_bits(u32 u)
{
	float f;

	__builtin_memcpy(&f, &u, sizeof(f));
	return f;
}

static inline bool pwfw_f32_isnan(float f)
{
	return (pwfw_f32_bits(f) & ~PWFW_F32_SIGN) > PWFW_F32_INF;
}

static inline float pwfw_bf16_to_f32(u16 h)
{
	return pwfw_f32_from_bits((u32)h << 16);
}

/*
 * Round to nearest, ties to even. A NaN stays a NaN (quieted, sign and
 * top payload bits kept) rather than rounding its payload away into inf.
 */
static inline u16 pwfw_f32_to_bf16(float f)
{
	u32 u = pwfw_f32_bits(f);

	if ((u & ~PWFW_F32_SIGN) > PWFW_F32_INF)
		return (u16)((u >> 16) | 0x40);
	u += 0x7fff + ((u >> 16) & 1);
	return (u16)(u >> 16);
}

/* f32 functions of pwfw_fpu_math.c, for the f32 and bf16 kernels. */
float pwfw_expf(float x);
float pwfw_logf(float x);
float pwfw_tanhf(float x);
float pwfw_rsqrtf(float x);

/*
 * pwfw_k_matmul() on AVX2 (pwfw_fpu_mxu_avx2.c, the one file built with
 * -mavx2): the whole block, or nothing and false for a b narrower than
 * one 16-column micro-block.
 */
bool pwfw_mm_avx2(const struct pwfw_k_matmul *mm, u32 m0, u32 m1, u32 n0,
		  u32 n1, u32 kt0, u32 kt1);

#ifdef __CHECKER__
/* sparse 0.6.4 does not know this builtin; GCC compiles it to sqrtsd. */
double __builtin_sqrt(double x);
#endif

#endif /* PWFW_FPU_H */
