/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drv_ref.h - the independent reference the driver tests check results
 * against: bfloat16 rounding, a deterministic random source, tolerant
 * float comparison. Written from the UAPI text, not from the firmware.
 */
#ifndef DRV_REF_H
#define DRV_REF_H

#include <stdbool.h>
#include <stdint.h>

uint32_t ref_f32_bits(float f);
float ref_bits_f32(uint32_t u);

/* f32 -> bf16, round to nearest even; NaN stays a (quiet) NaN. */
uint16_t ref_bf16(float f);
float ref_bf16_f32(uint16_t b);

/* xorshift64*: the same sequence everywhere, seeded per test. */
struct ref_rng {
	uint64_t s;
};

void ref_rng_seed(struct ref_rng *r, uint64_t seed);
uint32_t ref_rng_u32(struct ref_rng *r);
/* Uniform in [lo, hi). */
float ref_rng_f32(struct ref_rng *r, float lo, float hi);
/* Small integer in [lo, hi], as a float: sums of these are exact. */
float ref_rng_int_f32(struct ref_rng *r, int lo, int hi);

/* Same bits, or both NaN. */
bool ref_same_f32(float want, float got);
/* |got - want| <= abs_tol + rel_tol * |want|, NaN only matches NaN. */
bool ref_close_f32(double want, float got, double rel_tol, double abs_tol);

#endif /* DRV_REF_H */
