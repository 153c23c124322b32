// SPDX-License-Identifier: GPL-2.0
/*
 * fn_sig.c - signatures of parameters, results and buffer shards: their
 * checks, size, equality and how messages spell them ("f32[2,3]", "i32[]").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fn_ir.h"


uint64_t pw_sig_elems(const struct pw_sig *sig)
{
	uint64_t n = 1;
	uint32_t k;

	/* Extents are 32 bit and rank <= 4, but saturate rather than wrap. */
	for (k = 0; k < sig->rank && k < PW_MAX_RANK; k++) {
		if (sig->shape[k] && n > UINT64_MAX / sig->shape[k])
			return UINT64_MAX;
		n *= sig->shape[k];
	}
	return n;
}

uint64_t pw_sig_bytes(const struct pw_sig *sig)
{
	uint64_t n = pw_sig_elems(sig);
	unsigned int size = pwtpu_dtype_size(sig->dtype);

	if (size && n > UINT64_MAX / size)
		return UINT64_MAX;
	return n * size;
}

bool pw_sig_equal(const struct pw_sig *a, const struct pw_sig *b)
{
	uint32_t k;

	if (a->dtype != b->dtype || a->rank != b->rank)
		return false;
	for (k = 0; k < a->rank && k < PW_MAX_RANK; k++)
		if (a->shape[k] != b->shape[k])
			return false;
	return true;
}

const char *pw_sig_format(const struct pw_sig *sig, char *buf, size_t size)
{
	const char *name = pwtpu_dtype_name(sig->dtype);
	size_t used;
	uint32_t k;
	int n;

	if (!size)
		return buf;
	if (name)
		n = snprintf(buf, size, "%s[", name);
	else
		n = snprintf(buf, size, "dtype%u[", sig->dtype);
	for (k = 0; k < sig->rank && k < PW_MAX_RANK; k++) {
		used = n < 0 ? size : (size_t)n;
		if (used >= size)
			return buf;
		n += snprintf(buf + used, size - used, k ? ",%u" : "%u",
			      sig->shape[k]);
	}
	used = n < 0 ? size : (size_t)n;
	if (used < size)
		snprintf(buf + used, size - used, "]");
	return buf;
}

int pw_sig_make(struct pw_sig *sig, enum pwtpu_dtype dtype,
		unsigned int rank, const uint32_t *shape)
{
	unsigned int i;

	memset(sig, 0, sizeof(*sig));
	if (!pwtpu_dtype_size(dtype))
		return pw_fail(-EINVAL, "unknown dtype %d", dtype);
	if (rank > PW_MAX_RANK || (rank && !shape))
		return pw_fail(-EINVAL, "rank %u: must be 0..%d with a shape",
			       rank, PW_MAX_RANK);
	sig->dtype = dtype;
	sig->rank = rank;
	for (i = 0; i < rank; i++) {
		if (!shape[i] || shape[i] > PWTPU_MAX_ELEMS)
			return pw_fail(-EINVAL, "extent %u of dimension %u is out of range",
				       shape[i], i);
		sig->shape[i] = shape[i];
	}
	/* 2^28 bytes, or a device tensor's 2^26 elements of 8 bytes. */
	if (pw_sig_bytes(sig) > (uint64_t)PWTPU_MAX_ELEMS *
				(pwtpu_dtype_size(dtype) > 4 ? 8 : 4))
		return pw_fail(-EINVAL, "shard of %llu bytes is too large",
			       (unsigned long long)pw_sig_bytes(sig));
	return 0;
}
