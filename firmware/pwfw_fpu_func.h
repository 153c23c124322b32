/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_fpu_func.h - the math functions of SQRT..POW (pwfw_fpu_func.c
 * runs them over tensors). Include it only from FPU files.
 *
 * Each has two versions. The _d one serves f32, bf16 and f16: its
 * arguments are values of those formats (exact in f32), and it returns
 * the result in binary64, within a few units of 2^-53 relative (about
 * 2^-46 for POW), for one rounding to the dtype. The _f64 one returns
 * the f64 result itself, computed in double-double and rounded once.
 * Special values follow C99 Annex F; an invalid operation gives the
 * default NaN (sign set, quiet, as SSE's arithmetic gives it).
 */
#ifndef PWFW_FPU_FUNC_H
#define PWFW_FPU_FUNC_H

#include "pwfw_fpu.h"

#define PWFW_F64_DEFAULT_NAN	0xfff8000000000000ULL

/* pwfw_fpu_root.c */
double pwfw_cbrt_d(double x);
double pwfw_cbrt_f64(double x);

/* pwfw_fpu_trig.c: @op is PWTPU_OP_SIN, PWTPU_OP_COS or PWTPU_OP_TAN. */
double pwfw_trig_d(u32 op, double x);
double pwfw_trig_f64(u32 op, double x);
double pwfw_atan2_d(double y, double x);
double pwfw_atan2_f64(double y, double x);

/* pwfw_fpu_explog.c */
double pwfw_expm1_d(double x);
double pwfw_expm1_f64(double x);
double pwfw_log1p_d(double x);
double pwfw_log1p_f64(double x);
double pwfw_logistic_d(double x);
double pwfw_logistic_f64(double x);
double pwfw_pow_d(double x, double y);
double pwfw_pow_f64(double x, double y);
/* f64 EXP, LOG, TANH: double-double, rounded once (pwfw_fpu_math.c). */
double pwfw_exp_f64(double x);
double pwfw_log_f64(double x);
double pwfw_tanh_f64(double x);

#endif /* PWFW_FPU_FUNC_H */
