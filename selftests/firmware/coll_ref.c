// SPDX-License-Identifier: GPL-2.0
/*
 * coll_ref.c - references for the collective tests; see coll_ref.h.
 */
#include <string.h>

#include "../../include/uapi/pwtpu.h"
#include "coll_ref.h"
#include "ops_util.h"

uint32_t ref_load(const void *p, uint32_t dtype, uint64_t i)
{
	switch (dtype) {
	case PWTPU_DT_BF16:
		return ((const uint16_t *)p)[i];
	case PWTPU_DT_I8:
		return ((const uint8_t *)p)[i];
	default:
		return ((const uint32_t *)p)[i];
	}
}

void ref_store(void *p, uint32_t dtype, uint64_t i, uint32_t bits)
{
	switch (dtype) {
	case PWTPU_DT_BF16:
		((uint16_t *)p)[i] = (uint16_t)bits;
		break;
	case PWTPU_DT_I8:
		((uint8_t *)p)[i] = (uint8_t)bits;
		break;
	default:
		((uint32_t *)p)[i] = bits;
		break;
	}
}

/* A float of magnitude 2^-8..2^8 (PROD: 0.5..2), random sign. */
static float ref_float(uint32_t *state, uint32_t mode)
{
	uint32_t r = ops_rand(state);
	int exp = mode == PWTPU_REDUCE_PROD ? -1 + (int)(r & 1) :
		  -8 + (int)(r % 17);
	float f = 1.0f + (float)(ops_rand(state) >> 9) / 8388608.0f;

	while (exp > 0) {
		f *= 2.0f;
		exp--;
	}
	while (exp < 0) {
		f *= 0.5f;
		exp++;
	}
	return (r >> 16) & 1 ? -f : f;
}

void ref_fill(void *p, uint32_t dtype, uint32_t mode, uint32_t seed,
	      uint64_t n)
{
	uint32_t state = seed * 2654435761U + 1;
	uint64_t i;

	for (i = 0; i < n; i++) {
		switch (dtype) {
		case PWTPU_DT_F32:
			ref_store(p, dtype, i, f32_bits(ref_float(&state, mode)));
			break;
		case PWTPU_DT_BF16:
			ref_store(p, dtype, i,
				  ref_bf16(ref_float(&state, mode)));
			break;
		default:
			ref_store(p, dtype, i, ops_rand(&state));
			break;
		}
	}
}

static float ref_fold_f32(uint32_t mode, float a, float b)
{
	switch (mode) {
	case PWTPU_REDUCE_SUM:
		return a + b;
	case PWTPU_REDUCE_MAX:
		return a > b ? a : b;
	case PWTPU_REDUCE_MIN:
		return a < b ? a : b;
	default:
		return a * b;
	}
}

uint32_t ref_fold(uint32_t mode, uint32_t dtype, uint32_t acc, uint32_t x)
{
	int32_t a = (int32_t)acc, b = (int32_t)x;

	switch (dtype) {
	case PWTPU_DT_F32:
		return f32_bits(ref_fold_f32(mode, f32_from_bits(acc),
					     f32_from_bits(x)));
	case PWTPU_DT_BF16:
		return ref_bf16(ref_fold_f32(mode, bf16_widen((uint16_t)acc),
					     bf16_widen((uint16_t)x)));
	default:
		switch (mode) {
		case PWTPU_REDUCE_SUM:
			return acc + x;
		case PWTPU_REDUCE_MAX:
			return (uint32_t)(a > b ? a : b);
		case PWTPU_REDUCE_MIN:
			return (uint32_t)(a < b ? a : b);
		default:
			return acc * x;
		}
	}
}

/*
 * The fold at @level (1..naxes) of the members whose positions along
 * the axes below @level vary, the others fixed in @base: positions
 * owner + 1, owner + 2, ..., owner around the ring (@back: owner - 1,
 * owner - 2, ..., owner), owner being @pos[level - 1], each a fold of
 * the level below.
 */
static uint32_t ref_level(const struct ref_grid *g, const void *const *in,
			  uint32_t dtype, uint32_t mode, uint32_t level,
			  uint32_t base, const uint32_t *pos, int back,
			  uint64_t e)
{
	uint32_t ax, m, k, q, acc = 0, v;

	if (!level)
		return ref_load(in[base], dtype, e);
	ax = level - 1;
	m = g->extent[ax];
	for (k = 1; k <= m; k++) {
		q = back ? (pos[ax] + m - k) % m : (pos[ax] + k) % m;
		v = ref_level(g, in, dtype, mode, level - 1,
			      base + q * g->stride[ax], pos, back, e);
		acc = k == 1 ? v : ref_fold(mode, dtype, acc, v);
	}
	return acc;
}

uint32_t ref_reduce(const struct ref_grid *g, const void *const *in,
		    uint32_t dtype, uint32_t mode, uint64_t len, uint64_t e)
{
	uint32_t pos[REF_MAX_AXES] = { 0 }, k;
	uint64_t off = 0, size;
	int back = 0;

	/* Bidirectional: the second half, from ceil(len / 2), goes back. */
	if (g->bidir) {
		size = (len + 1) / 2;
		back = e >= size;
		off = back ? size : 0;
		len = back ? len - size : size;
	}
	/* Which chunk holds e at each level; the next level cuts that. */
	for (k = 0; k < g->naxes; k++) {
		size = (len + g->extent[k] - 1) / g->extent[k];
		pos[k] = (uint32_t)((e - off) / size);
		off += pos[k] * size;
		len = len - pos[k] * size < size ? len - pos[k] * size : size;
	}
	return ref_level(g, in, dtype, mode, g->naxes, 0, pos, back, e);
}
