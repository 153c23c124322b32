// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_convert.c - CONVERT between f32, bf16, i8 and i32. Runs only
 * inside an FPU section.
 *
 * Every element goes through one of two pivots: a float (f32; bf16 widens
 * exactly) or an integer (s32). Float to bf16 rounds to nearest even;
 * float to integer truncates toward zero and saturates, NaN gives 0;
 * integer to float rounds to nearest even as a C conversion does (to bf16:
 * to f32 first, then to bf16); integer to integer keeps the low bits as a
 * C conversion does.
 */
#include "pwfw_fpu.h"

static inline s32 pwfw_f32_to_s32(float f, s32 lo, s32 hi)
{
	if (pwfw_f32_isnan(f))
		return 0;
	if (f <= (float)lo)
		return lo;
	if (f >= (float)hi)
		return hi;
	return (s32)f;
}

static inline float pwfw_load_float(u32 dtype, const void *src, u32 i)
{
	if (dtype == PWTPU_DT_F32)
		return ((const float *)src)[i];
	return pwfw_bf16_to_f32(((const u16 *)src)[i]);
}

static inline s32 pwfw_load_int(u32 dtype, const void *src, u32 i)
{
	if (dtype == PWTPU_DT_I8)
		return ((const s8 *)src)[i];
	return ((const s32 *)src)[i];
}

static void pwfw_store_float(u32 dtype, void *dst, u32 i, float f)
{
	if (dtype == PWTPU_DT_F32)
		((float *)dst)[i] = f;
	else
		((u16 *)dst)[i] = pwfw_f32_to_bf16(f);
}

static void pwfw_from_float(u32 dtype, void *dst, u32 src_dtype,
			    const void *src, u32 n)
{
	u32 i;
	float f;

	for (i = 0; i < n; i++) {
		f = pwfw_load_float(src_dtype, src, i);
		switch (dtype) {
		case PWTPU_DT_F32:
		case PWTPU_DT_BF16:
			pwfw_store_float(dtype, dst, i, f);
			break;
		case PWTPU_DT_I8:
			((s8 *)dst)[i] = (s8)pwfw_f32_to_s32(f, -128, 127);
			break;
		default:
			/* 2^31 - 1 is not a float: the bound is 2^31. */
			((s32 *)dst)[i] = pwfw_f32_to_s32(f, -0x7fffffff - 1,
							  0x7fffffff);
			break;
		}
	}
}

static void pwfw_from_int(u32 dtype, void *dst, u32 src_dtype,
			  const void *src, u32 n)
{
	u32 i;
	s32 v;

	for (i = 0; i < n; i++) {
		v = pwfw_load_int(src_dtype, src, i);
		switch (dtype) {
		case PWTPU_DT_F32:
		case PWTPU_DT_BF16:
			pwfw_store_float(dtype, dst, i, (float)v);
			break;
		case PWTPU_DT_I8:
			((u8 *)dst)[i] = (u8)v;
			break;
		default:
			((s32 *)dst)[i] = v;
			break;
		}
	}
}

void pwfw_k_convert(u32 dst_dtype, void *dst, u32 src_dtype,
		    const void *src, u32 n)
{
	if (src_dtype == PWTPU_DT_F32 || src_dtype == PWTPU_DT_BF16)
		pwfw_from_float(dst_dtype, dst, src_dtype, src, n);
	else
		pwfw_from_int(dst_dtype, dst, src_dtype, src, n);
}
