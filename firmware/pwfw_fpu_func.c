// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_func.c - SQRT..ATAN2 and POW of floats over tensors. Runs only
 * inside an FPU section.
 *
 * f32, bf16 and f16 elements widen exactly to binary64, go through the
 * function's _d version (pwfw_fpu_func.h) and are rounded once, to
 * nearest even, from its binary64 result to the dtype (never through
 * f32). SQRT is the CPU's correctly rounded binary64 square root, which
 * then rounds correctly to each narrower format too (binary64 has more
 * than twice their precision plus two bits). f64 elements go through the
 * _f64 versions.
 */
#include "pwfw_fpu_func.h"

static double pwfw_func_d(u32 op, double x, double y)
{
	switch (op) {
	case PWTPU_OP_SQRT:
		return __builtin_sqrt(x);
	case PWTPU_OP_CBRT:
		return pwfw_cbrt_d(x);
	case PWTPU_OP_SIN:
	case PWTPU_OP_COS:
	case PWTPU_OP_TAN:
		return pwfw_trig_d(op, x);
	case PWTPU_OP_LOG1P:
		return pwfw_log1p_d(x);
	case PWTPU_OP_EXPM1:
		return pwfw_expm1_d(x);
	case PWTPU_OP_LOGISTIC:
		return pwfw_logistic_d(x);
	case PWTPU_OP_ATAN2:
		return pwfw_atan2_d(x, y);
	default:
		return pwfw_pow_d(x, y);
	}
}

static double pwfw_func_f64(u32 op, double x, double y)
{
	switch (op) {
	case PWTPU_OP_SQRT:
		return __builtin_sqrt(x);
	case PWTPU_OP_CBRT:
		return pwfw_cbrt_f64(x);
	case PWTPU_OP_SIN:
	case PWTPU_OP_COS:
	case PWTPU_OP_TAN:
		return pwfw_trig_f64(op, x);
	case PWTPU_OP_LOG1P:
		return pwfw_log1p_f64(x);
	case PWTPU_OP_EXPM1:
		return pwfw_expm1_f64(x);
	case PWTPU_OP_LOGISTIC:
		return pwfw_logistic_f64(x);
	case PWTPU_OP_ATAN2:
		return pwfw_atan2_f64(x, y);
	default:
		return pwfw_pow_f64(x, y);
	}
}

void pwfw_k_func(u32 op, u32 dtype, void *dst, const void *a, const void *b,
		 u32 n)
{
	const float *af = a, *bf = b;
	const double *ad = a, *bd = b;
	const u16 *ah = a, *bh = b;
	double y = 0;
	u32 i;

	switch (dtype) {
	case PWTPU_DT_F32:
		for (i = 0; i < n; i++) {
			if (bf)
				y = bf[i];
			((float *)dst)[i] = (float)pwfw_func_d(op, af[i], y);
		}
		break;
	case PWTPU_DT_BF16:
		for (i = 0; i < n; i++) {
			if (bh)
				y = pwfw_bf16_to_f32(bh[i]);
			((u16 *)dst)[i] = pwfw_f64_to_bf16(pwfw_func_d(op,
						pwfw_bf16_to_f32(ah[i]), y));
		}
		break;
	case PWTPU_DT_F16:
		for (i = 0; i < n; i++) {
			if (bh)
				y = pwfw_f16_to_f32(bh[i]);
			((u16 *)dst)[i] = pwfw_f64_to_f16(pwfw_func_d(op,
						pwfw_f16_to_f32(ah[i]), y));
		}
		break;
	case PWTPU_DT_F64:
		for (i = 0; i < n; i++) {
			if (bd)
				y = bd[i];
			((double *)dst)[i] = pwfw_func_f64(op, ad[i], y);
		}
		break;
	}
}
