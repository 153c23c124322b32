// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_tensor.c - dtypes and tensor geometry; see pwfw_tensor.h.
 */
#include "pwfw_tensor.h"

u32 pwfw_dtype_size(u32 dtype)
{
	return pwtpu_dtype_size(dtype);
}

const char *pwfw_dtype_name(u32 dtype)
{
	const char *name = pwtpu_dtype_name(dtype);

	return name ? name : "dtype?";
}

bool pwfw_dtype_is_float(u32 dtype)
{
	return dtype == PWTPU_DT_F32 || dtype == PWTPU_DT_BF16 ||
	       dtype == PWTPU_DT_F16 || dtype == PWTPU_DT_F64;
}

/*
 * Safe on any descriptor: the rank is clamped and the product saturates
 * at U64_MAX rather than wrap, so a caller checking a limit on the result
 * never sees a small number for a huge tensor.
 */
u64 pwfw_tensor_elems(const struct pwtpu_tensor *t)
{
	u32 rank = t->rank < PWTPU_MAX_RANK ? t->rank : PWTPU_MAX_RANK;
	u64 n = 1;
	u32 k;

	for (k = 0; k < rank; k++) {
		u64 e = t->shape[k];

		if (e && n > ~0ULL / e)
			return ~0ULL;
		n *= e;
	}
	return n;
}

u64 pwfw_tensor_bytes(const struct pwtpu_tensor *t)
{
	return pwfw_tensor_elems(t) * pwfw_dtype_size(t->dtype);
}

u64 pwfw_tensor_end(const struct pwtpu_tensor *t)
{
	return t->offset + pwfw_tensor_bytes(t);
}

bool pwfw_shape_equal(const struct pwtpu_tensor *a,
		      const struct pwtpu_tensor *b)
{
	u32 k;

	if (a->rank != b->rank)
		return 0;
	for (k = 0; k < PWTPU_MAX_RANK; k++)
		if (a->shape[k] != b->shape[k])
			return 0;
	return 1;
}

bool pwfw_tensor_same(const struct pwtpu_tensor *a,
		      const struct pwtpu_tensor *b)
{
	return a->buf == b->buf && a->offset == b->offset &&
	       a->dtype == b->dtype && pwfw_shape_equal(a, b);
}

bool pwfw_tensor_overlap(const struct pwtpu_tensor *a,
			 const struct pwtpu_tensor *b)
{
	/* Half-open byte ranges; every accepted tensor has a byte or more. */
	return a->buf == b->buf && a->offset < pwfw_tensor_end(b) &&
	       b->offset < pwfw_tensor_end(a);
}

void pwfw_fmt_shape(struct pwfw_fmt *f, const struct pwtpu_tensor *t)
{
	u32 rank = t->rank < PWTPU_MAX_RANK ? t->rank : PWTPU_MAX_RANK;
	u32 k;

	pwfw_fmt_char(f, '[');
	for (k = 0; k < rank; k++) {
		if (k)
			pwfw_fmt_char(f, ',');
		pwfw_fmt_u64(f, t->shape[k]);
	}
	pwfw_fmt_char(f, ']');
}
