// SPDX-License-Identifier: GPL-2.0
/*
 * coll_ref.c - element arithmetic and inputs of the collective reference.
 */
#include <string.h>

#include "coll_ref.h"

size_t cref_esize(enum pwtpu_dtype dtype)
{
	switch (dtype) {
	case PWTPU_DT_BF16:
		return 2;
	case PWTPU_DT_I8:
		return 1;
	default:
		return 4;
	}
}

const char *cref_dtype_name(enum pwtpu_dtype dtype)
{
	switch (dtype) {
	case PWTPU_DT_F32:
		return "f32";
	case PWTPU_DT_BF16:
		return "bf16";
	case PWTPU_DT_I32:
		return "i32";
	default:
		return "?";
	}
}

const char *cref_mode_name(uint8_t mode)
{
	static const char *const names[] = { "sum", "max", "min", "prod" };

	return mode < 4 ? names[mode] : "?";
}

void cref_put(enum pwtpu_dtype dtype, void *buf, size_t i, int64_t v)
{
	uint32_t u32;
	uint16_t u16;
	int32_t s32;

	switch (dtype) {
	case PWTPU_DT_F32:
		u32 = ref_f32_bits((float)v);
		memcpy((char *)buf + 4 * i, &u32, 4);
		break;
	case PWTPU_DT_BF16:
		u16 = ref_bf16((float)v);
		memcpy((char *)buf + 2 * i, &u16, 2);
		break;
	default:
		s32 = (int32_t)v;
		memcpy((char *)buf + 4 * i, &s32, 4);
		break;
	}
}

int64_t cref_reduce(enum pwtpu_dtype dtype, uint8_t mode, int64_t a,
		    int64_t b)
{
	bool wrap = dtype == PWTPU_DT_I32;

	switch (mode) {
	case PWTPU_REDUCE_SUM:
		return wrap ? (int32_t)((uint32_t)a + (uint32_t)b) : a + b;
	case PWTPU_REDUCE_PROD:
		return wrap ? (int32_t)((uint32_t)a * (uint32_t)b) : a * b;
	case PWTPU_REDUCE_MAX:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
}

static int64_t range(struct ref_rng *rng, int lo, int hi)
{
	return lo + (int64_t)(ref_rng_u32(rng) % (uint32_t)(hi - lo + 1));
}

/*
 * i32: anything (wrapping sums and products do not depend on the order).
 * Floats: every partial sum of at most PWTPU_MAX_GANG (64) values of
 * |v| <= 1000 (f32) or 3 (bf16, which holds integers up to 256 exactly)
 * is exact; products of +-1 and +-2 are powers of two; max, min and
 * moves take any integer the type holds exactly.
 */
int64_t cref_value(struct ref_rng *rng, enum pwtpu_dtype dtype,
		   enum pwtpu_op op, uint8_t mode)
{
	bool reduce = op == PWTPU_OP_ALL_REDUCE ||
		      op == PWTPU_OP_REDUCE_SCATTER;
	int64_t v;

	if (dtype == PWTPU_DT_I32)
		return (int32_t)ref_rng_u32(rng);
	if (reduce && mode == PWTPU_REDUCE_PROD) {
		v = range(rng, 1, 2);
		return ref_rng_u32(rng) & 1 ? -v : v;
	}
	if (reduce && mode == PWTPU_REDUCE_SUM)
		return dtype == PWTPU_DT_F32 ? range(rng, -1000, 1000) :
		       range(rng, -3, 3);
	return dtype == PWTPU_DT_F32 ? range(rng, -1000000, 1000000) :
	       range(rng, -256, 256);
}
