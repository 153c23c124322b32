/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_fpu_avx2.h - vector types of the AVX2 path (pwfw_fpu_mxu_avx2.c,
 * the only file built with -mavx2 and the only one to include this).
 * GCC vector extensions, no <immintrin.h>: the few operations they cannot
 * express are GCC's x86 builtins, declared here for sparse.
 */
#ifndef PWFW_FPU_AVX2_H
#define PWFW_FPU_AVX2_H

#include "pwfw_fpu.h"

/* 8 x f32, 8 x u32, 8 x s32: one ymm register; sizes in u32 lanes. */
typedef float v8sf __attribute__((vector_size(8 * sizeof(u32))));
typedef u32 v8su __attribute__((vector_size(8 * sizeof(u32))));
typedef s32 v8si __attribute__((vector_size(8 * sizeof(u32))));
/* 16 x s16 (ymm), 8 x s16 and 16 x char (xmm), as the builtins want. */
typedef s16 v16hi __attribute__((vector_size(16 * sizeof(s16))));
typedef s16 v8hi __attribute__((vector_size(8 * sizeof(s16))));
typedef char v16qi __attribute__((vector_size(16 * sizeof(s8))));

#ifdef __CHECKER__
/* sparse 0.6.4 does not know these; GCC has them with -mavx2. */
v8si __builtin_ia32_pmovzxwd256(v8hi x);
v16hi __builtin_ia32_pmovsxbw256(v16qi x);
v16qi __builtin_ia32_punpcklbw128(v16qi x, v16qi y);
v16qi __builtin_ia32_punpckhbw128(v16qi x, v16qi y);
v8si __builtin_ia32_pmaddwd256(v16hi x, v16hi y);
#endif

/*
 * The instructions the vector extensions cannot express, one name each.
 * The kernel is built with GCC; clang (the fuzzers' build of the
 * user-space firmware, selftests/fuzz/) spells the first four as generic
 * vector builtins, which GCC 12 has too but widens through two xmm halves.
 */
#ifdef __clang__
typedef u16 v8hu __attribute__((vector_size(8 * sizeof(u16))));
typedef s8 v16qs __attribute__((vector_size(16 * sizeof(s8))));

/* vpmovzxwd: 8 x u16 zero-extended to 8 x u32. */
static inline v8si pwfw_avx2_zext_u16(v8hi x)
{
	return (v8si)__builtin_convertvector((v8hu)x, v8su);
}

/* vpmovsxbw: 16 x s8 sign-extended to 16 x s16, whatever char is. */
static inline v16hi pwfw_avx2_sext_s8(v16qi x)
{
	return __builtin_convertvector((v16qs)x, v16hi);
}

/* vpunpcklbw, vpunpckhbw: bytes of the low (high) halves interleaved. */
static inline v16qi pwfw_avx2_unpacklo_s8(v16qi x, v16qi y)
{
	return __builtin_shufflevector(x, y, 0, 16, 1, 17, 2, 18, 3, 19,
				       4, 20, 5, 21, 6, 22, 7, 23);
}

static inline v16qi pwfw_avx2_unpackhi_s8(v16qi x, v16qi y)
{
	return __builtin_shufflevector(x, y, 8, 24, 9, 25, 10, 26, 11, 27,
				       12, 28, 13, 29, 14, 30, 15, 31);
}
#else
#define pwfw_avx2_zext_u16(x)		__builtin_ia32_pmovzxwd256(x)
#define pwfw_avx2_sext_s8(x)		__builtin_ia32_pmovsxbw256(x)
#define pwfw_avx2_unpacklo_s8(x, y)	__builtin_ia32_punpcklbw128(x, y)
#define pwfw_avx2_unpackhi_s8(x, y)	__builtin_ia32_punpckhbw128(x, y)
#endif

/* vpmaddwd: both compilers' name. */
#define pwfw_avx2_maddwd(x, y)		__builtin_ia32_pmaddwd256(x, y)

#endif /* PWFW_FPU_AVX2_H */
