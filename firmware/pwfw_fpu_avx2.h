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

#endif /* PWFW_FPU_AVX2_H */
