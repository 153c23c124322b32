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

#define PWFW_F64_SIGN	0x8000000000000000ULL
#define PWFW_F64_INF	0x7ff0000000000000ULL

static inline u64 pwfw_f64_bits(double d)
{
	u64 u;

	__builtin_memcpy(&u, &d, sizeof(u));
	return u;
}

static inline double pwfw_f64_from_bits(u64 u)
{
	double d;

	__builtin_memcpy(&d, &u, sizeof(d));
	return d;
}

static inline bool pwfw_f64_isnan(double d)
{
	return (pwfw_f64_bits(d) & ~PWFW_F64_SIGN) > PWFW_F64_INF;
}

/*
 * Binary floating-point formats by their field widths: @ebits exponent
 * bits and @mbits fraction bits (f16 5 and 10, bf16 8 and 7, f32 8 and
 * 23, f64 11 and 52). The helpers below are integer code: they give the
 * same bits on every CPU and in every FPU mode.
 *
 * pwfw_fp_round() rounds the exact value (-1)^@sign * @sig * 2^@exp (@sig
 * may be 0, any 64-bit value) to such a format, to nearest, ties to
 * even, with subnormals, overflowing to infinity; it returns the bits.
 */
static __always_inline u64 pwfw_fp_round(u32 sign, s32 exp, u64 sig,
					 u32 ebits, u32 mbits)
{
	s32 bias = (1 << (ebits - 1)) - 1;
	u64 sbit = (u64)sign << (ebits + mbits);
	u64 m, rem, half;
	s32 e, q, s;

	if (!sig)
		return sbit;
	/* The value lies in [2^e, 2^(e + 1)). */
	e = exp + 63 - __builtin_clzll(sig);
	if (e > bias)
		return sbit | ((1ULL << ebits) - 1) << mbits;
	/* q: the exponent of one ulp there; s: bits of @sig below it. */
	q = (e < 1 - bias ? 1 - bias : e) - (s32)mbits;
	s = q - exp;
	if (s <= 0) {
		m = sig << -s;
	} else if (s >= 64) {
		/* Below half the least subnormal, or (s == 64) above it. */
		m = s == 64 && sig > 1ULL << 63;
	} else {
		m = sig >> s;
		rem = sig & ((1ULL << s) - 1);
		half = 1ULL << (s - 1);
		if (rem > half || (rem == half && (m & 1)))
			m++;
	}
	/*
	 * m counts ulps, the leading bit included for a normal result: adding
	 * it to the exponent field below that of the ulp's binade carries
	 * into the field as it should, also from the largest subnormal to
	 * the least normal, and from the largest finite value to infinity.
	 */
	return sbit | (((u64)(q + (s32)mbits + bias - 1) << mbits) + m);
}

/* A quiet NaN of the format: @sign, the top bits of a @fbits fraction. */
static __always_inline u64 pwfw_fp_nan(u32 sign, u64 frac, u32 fbits,
				       u32 ebits, u32 mbits)
{
	return (u64)sign << (ebits + mbits) |
	       ((1ULL << ebits) - 1) << mbits | 1ULL << (mbits - 1) |
	       frac >> (fbits - mbits);
}

/* f64 bits to the format, rounded to nearest even; NaN stays NaN. */
static __always_inline u64 pwfw_f64_round(u64 u, u32 ebits, u32 mbits)
{
	u32 sign = (u32)(u >> 63), ef = (u32)(u >> 52) & 0x7ff;
	u64 frac = u & ((1ULL << 52) - 1);

	if (ef == 0x7ff && frac)
		return pwfw_fp_nan(sign, frac, 52, ebits, mbits);
	if (ef == 0x7ff)
		return (u64)sign << (ebits + mbits) |
		       ((1ULL << ebits) - 1) << mbits;
	if (!ef)
		return pwfw_fp_round(sign, -1074, frac, ebits, mbits);
	return pwfw_fp_round(sign, (s32)ef - 1075, frac | 1ULL << 52, ebits,
			     mbits);
}

/* f32 bits to a narrower format, rounded to nearest even. */
static __always_inline u64 pwfw_f32_round(u32 u, u32 ebits, u32 mbits)
{
	u32 sign = u >> 31, ef = (u >> 23) & 0xff, frac = u & 0x7fffffU;

	if (ef == 0xff && frac)
		return pwfw_fp_nan(sign, frac, 23, ebits, mbits);
	if (ef == 0xff)
		return (u64)sign << (ebits + mbits) |
		       ((1ULL << ebits) - 1) << mbits;
	if (!ef)
		return pwfw_fp_round(sign, -149, frac, ebits, mbits);
	return pwfw_fp_round(sign, (s32)ef - 150, frac | 0x800000U, ebits,
			     mbits);
}

/* f16 widens exactly; a NaN keeps its bits (shifted), quiet or not. */
static inline float pwfw_f16_to_f32(u16 h)
{
	u32 sign = (u32)(h & 0x8000U) << 16, ef = (h >> 10) & 0x1f;
	u32 frac = h & 0x3ffU, n;

	if (ef == 0x1f)
		return pwfw_f32_from_bits(sign | PWFW_F32_INF | frac << 13);
	if (ef)
		return pwfw_f32_from_bits(sign | (ef + 112) << 23 | frac << 13);
	if (!frac)
		return pwfw_f32_from_bits(sign);
	/* Subnormal: frac * 2^-24 with its top bit n, normal in f32. */
	n = 31 - __builtin_clz(frac);
	return pwfw_f32_from_bits(sign | (n + 103) << 23 |
				  ((frac << (23 - n)) & 0x7fffffU));
}

/* Round to nearest even; a NaN stays a NaN (quiet, top payload kept). */
static inline u16 pwfw_f32_to_f16(float f)
{
	return (u16)pwfw_f32_round(pwfw_f32_bits(f), 5, 10);
}

/* The same from f64, in one rounding. */
static inline u16 pwfw_f64_to_f16(double d)
{
	return (u16)pwfw_f64_round(pwfw_f64_bits(d), 5, 10);
}

static inline u16 pwfw_f64_to_bf16(double d)
{
	return (u16)pwfw_f64_round(pwfw_f64_bits(d), 8, 7);
}

/* Signed integer dtypes: i8, i16, i32, i64. */
static __always_inline bool pwfw_int_signed(u32 dtype)
{
	return dtype == PWTPU_DT_I8 || dtype == PWTPU_DT_I16 ||
	       dtype == PWTPU_DT_I32 || dtype == PWTPU_DT_I64;
}

/* Element @i of integer @dtype, sign or zero extended to 64 bits. */
static __always_inline u64 pwfw_int_load(u32 dtype, const void *p, u64 i)
{
	switch (dtype) {
	case PWTPU_DT_I8:
		return (u64)(s64)((const s8 *)p)[i];
	case PWTPU_DT_I16:
		return (u64)(s64)((const s16 *)p)[i];
	case PWTPU_DT_I32:
		return (u64)(s64)((const s32 *)p)[i];
	case PWTPU_DT_U8:
		return ((const u8 *)p)[i];
	case PWTPU_DT_U16:
		return ((const u16 *)p)[i];
	case PWTPU_DT_U32:
		return ((const u32 *)p)[i];
	default:
		return ((const u64 *)p)[i];
	}
}

/* Store the low bits of @v as element @i of integer @dtype. */
static __always_inline void pwfw_int_store(u32 dtype, void *p, u64 i, u64 v)
{
	switch (pwtpu_dtype_size(dtype)) {
	case 1:
		((u8 *)p)[i] = (u8)v;
		break;
	case 2:
		((u16 *)p)[i] = (u16)v;
		break;
	case 4:
		((u32 *)p)[i] = (u32)v;
		break;
	default:
		((u64 *)p)[i] = v;
		break;
	}
}

/* f32 functions of pwfw_fpu_math.c, for the f32, bf16 and f16 kernels. */
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
