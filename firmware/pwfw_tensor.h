/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_tensor.h - tensor helpers shared inside the firmware (verifier,
 * timing model, interpreter). Unless said otherwise they assume a tensor
 * the verifier accepted: known dtype, rank <= PWTPU_MAX_RANK, at most
 * PWTPU_MAX_ELEMS elements, ending at or below PWTPU_MAX_OFFSET.
 */
#ifndef PWFW_TENSOR_H
#define PWFW_TENSOR_H

#include "pwfw.h"
#include "pwfw_fmt.h"

/* "f32", "bf16", "i8", "u64"..., or "dtype?" for an unknown one. */
const char *pwfw_dtype_name(u32 dtype);
/* f32, bf16, f16 or f64. */
bool pwfw_dtype_is_float(u32 dtype);

/* Bytes of the whole tensor: elements times element size. */
u64 pwfw_tensor_bytes(const struct pwtpu_tensor *t);
/* One past its last byte in its binding. */
u64 pwfw_tensor_end(const struct pwtpu_tensor *t);
/* Same rank and extents. */
bool pwfw_shape_equal(const struct pwtpu_tensor *a,
		      const struct pwtpu_tensor *b);
/* The same tensor: binding, offset, dtype and shape all equal. */
bool pwfw_tensor_same(const struct pwtpu_tensor *a,
		      const struct pwtpu_tensor *b);
/* Whether @a and @b share at least one byte of one binding. */
bool pwfw_tensor_overlap(const struct pwtpu_tensor *a,
			 const struct pwtpu_tensor *b);

/* Append "[4,5]" ("[]" for a scalar). */
void pwfw_fmt_shape(struct pwfw_fmt *f, const struct pwtpu_tensor *t);

#endif /* PWFW_TENSOR_H */
