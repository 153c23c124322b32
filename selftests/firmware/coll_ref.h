/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coll_ref.h - references for the collective tests: test values whose
 * reductions depend on the order, and the reductions themselves in the
 * order docs/collectives.md fixes, written from that text alone.
 */
#ifndef COLL_REF_H
#define COLL_REF_H

#include <stddef.h>
#include <stdint.h>

#define REF_MAX_MEMBERS	64
#define REF_MAX_AXES	3

/* Element @i of a dense array of @dtype, as its bits (zero extended). */
uint32_t ref_load(const void *p, uint32_t dtype, uint64_t i);
void ref_store(void *p, uint32_t dtype, uint64_t i, uint32_t bits);

/*
 * Fill @n elements with values for a reduction of @mode: floats of mixed
 * magnitudes (PROD: near 1) so that the order of a sum shows in its
 * rounding, never 0, inf or NaN; integers over the whole range.
 */
void ref_fill(void *p, uint32_t dtype, uint32_t mode, uint32_t seed,
	      uint64_t n);

/* acc <mode> x, rounded to @dtype (bf16 computed in f32). */
uint32_t ref_fold(uint32_t mode, uint32_t dtype, uint32_t acc, uint32_t x);

/**
 * struct ref_grid - how the members of a reduction are arranged
 * @naxes: rings the reduction runs over, one after the other.
 * @extent: members along each.
 * @stride: index step between neighbours along each; a member's index
 *	is the sum of its positions times the strides.
 * @bidir: the rings are bidirectional (a torus): the second half of the
 *	elements goes round every ring backward.
 *
 * One ring in group-rank order is { 1, { n }, { 1 } }; the per-axis
 * all-reduce of a mesh lists its axes longer than 1, device index as
 * member index.
 */
struct ref_grid {
	uint32_t naxes;
	uint32_t extent[REF_MAX_AXES];
	uint32_t stride[REF_MAX_AXES];
	int bidir;
};

/*
 * Element @e of the reduction over @len elements of the members' arrays
 * @in (indexed by member index), in the documented order.
 */
uint32_t ref_reduce(const struct ref_grid *g, const void *const *in,
		    uint32_t dtype, uint32_t mode, uint64_t len, uint64_t e);

#endif /* COLL_REF_H */
