// SPDX-License-Identifier: GPL-2.0
/*
 * drv_ref.c - reference arithmetic for the driver tests.
 */
#include <math.h>
#include <string.h>

#include "drv_ref.h"

uint32_t ref_f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

float ref_bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

uint16_t ref_bf16(float f)
{
	uint32_t u = ref_f32_bits(f);

	if (isnan(f))
		return (uint16_t)((u >> 16) | 0x0040);
	/* Add just under half an ulp, plus one if the kept LSB is odd. */
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float ref_bf16_f32(uint16_t b)
{
	return ref_bits_f32((uint32_t)b << 16);
}

void ref_rng_seed(struct ref_rng *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ull + 1;
}

uint32_t ref_rng_u32(struct ref_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (uint32_t)((r->s * 0x2545f4914f6cdd1dull) >> 32);
}

float ref_rng_f32(struct ref_rng *r, float lo, float hi)
{
	return lo + (hi - lo) * (float)(ref_rng_u32(r) >> 8) / 16777216.0f;
}

float ref_rng_int_f32(struct ref_rng *r, int lo, int hi)
{
	return (float)(lo + (int)(ref_rng_u32(r) % (uint32_t)(hi - lo + 1)));
}

bool ref_same_f32(float want, float got)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	return ref_f32_bits(want) == ref_f32_bits(got);
}

bool ref_close_f32(double want, float got, double rel_tol, double abs_tol)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (isinf(want) || isinf(got))
		return want == got;
	return fabs((double)got - want) <= abs_tol + rel_tol * fabs(want);
}
