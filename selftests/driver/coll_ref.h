/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coll_ref.h - the reference the collective tests compare against,
 * written from the UAPI's op descriptions. Every test value is an
 * integer held in int64_t: i32 arithmetic wraps; f32 and bf16 get only
 * integers whose sums and products they hold exactly, so the result is
 * the same in any reduction order and is compared bit for bit.
 */
#ifndef COLL_REF_H
#define COLL_REF_H

#include <stddef.h>
#include <stdint.h>

#include "drv_ref.h"
#include "pwtpu/pwtpu_dev.h"

size_t cref_esize(enum pwtpu_dtype dtype);
const char *cref_dtype_name(enum pwtpu_dtype dtype);
const char *cref_mode_name(uint8_t mode);

/* Store @v as @dtype at element @i of @buf. */
void cref_put(enum pwtpu_dtype dtype, void *buf, size_t i, int64_t v);

/* a <mode> b in @dtype's arithmetic (i32 wraps). */
int64_t cref_reduce(enum pwtpu_dtype dtype, uint8_t mode, int64_t a,
		    int64_t b);

/*
 * A random input for @op (@mode) in @dtype: reductions of such values
 * over up to PWTPU_MAX_GANG members are exact (ranges in coll_ref.c).
 */
int64_t cref_value(struct ref_rng *rng, enum pwtpu_dtype dtype,
		   enum pwtpu_op op, uint8_t mode);

#endif /* COLL_REF_H */
