// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_layout.c - data movement: reshape, transpose, broadcast, slice and
 * select. Integer only (built with -mno-sse in the kernel): elements are
 * moved as 1-, 2-, 4- or 8-byte words whatever their dtype, so no FPU
 * section is needed.
 *
 * Transpose, broadcast and slice are one operation, a gather: walk the
 * dense destination in row-major order and read the source through a
 * stride per destination axis.
 */
#include "pwfw_kernels.h"

void pwfw_l_strides(const struct pwtpu_tensor *t, u64 stride[PWTPU_MAX_RANK])
{
	u64 s = 1;
	int k;

	for (k = PWTPU_MAX_RANK - 1; k >= 0; k--) {
		if (k >= t->rank) {
			stride[k] = 0;
			continue;
		}
		stride[k] = s;
		s *= t->shape[k];
	}
}

static void pwfw_l_init(struct pwfw_l_gather *g, void *dst,
			const struct pwtpu_tensor *dt, const void *src)
{
	u32 k;

	g->esize = pwfw_dtype_size(dt->dtype);
	g->rank = dt->rank;
	for (k = 0; k < PWTPU_MAX_RANK; k++) {
		g->shape[k] = k < dt->rank ? dt->shape[k] : 1;
		g->stride[k] = 0;
	}
	g->src = src;
	g->dst = dst;
}

void pwfw_l_init_transpose(struct pwfw_l_gather *g, void *dst,
			   const struct pwtpu_tensor *dt, const void *src,
			   const struct pwtpu_tensor *st, const u32 *perm)
{
	u64 sstride[PWTPU_MAX_RANK];
	u32 k;

	pwfw_l_init(g, dst, dt, src);
	pwfw_l_strides(st, sstride);
	/* dst index i is source index j with j[perm[k]] = i[k]. */
	for (k = 0; k < dt->rank; k++)
		g->stride[k] = sstride[perm[k]];
}

void pwfw_l_init_broadcast(struct pwfw_l_gather *g, void *dst,
			   const struct pwtpu_tensor *dt, const void *src,
			   const struct pwtpu_tensor *st)
{
	u64 sstride[PWTPU_MAX_RANK];
	u32 lead = dt->rank - st->rank;
	u32 k;

	pwfw_l_init(g, dst, dt, src);
	pwfw_l_strides(st, sstride);
	/* Source axes align to the right; missing or size-1 axes repeat. */
	for (k = lead; k < dt->rank; k++)
		if (st->shape[k - lead] != 1)
			g->stride[k] = sstride[k - lead];
}

void pwfw_l_init_slice(struct pwfw_l_gather *g, void *dst,
		       const struct pwtpu_tensor *dt, const void *src,
		       const struct pwtpu_tensor *st, const u32 *start)
{
	u64 sstride[PWTPU_MAX_RANK];
	u64 first = 0;
	u32 k;

	pwfw_l_init(g, dst, dt, src);
	pwfw_l_strides(st, sstride);
	for (k = 0; k < dt->rank; k++) {
		g->stride[k] = sstride[k];
		first += (u64)start[k] * sstride[k];
	}
	g->src += first * g->esize;
}

/* Copy @n elements, the source @stride elements apart. */
static void pwfw_l_run(u8 *dst, const u8 *src, u64 stride, u64 n, u32 esize)
{
	u64 i;

	switch (esize) {
	case 1:
		for (i = 0; i < n; i++)
			dst[i] = src[i * stride];
		break;
	case 2:
		for (i = 0; i < n; i++)
			((u16 *)dst)[i] = ((const u16 *)src)[i * stride];
		break;
	case 4:
		for (i = 0; i < n; i++)
			((u32 *)dst)[i] = ((const u32 *)src)[i * stride];
		break;
	default:
		for (i = 0; i < n; i++)
			((u64 *)dst)[i] = ((const u64 *)src)[i * stride];
		break;
	}
}

void pwfw_l_gather(const struct pwfw_l_gather *g, u64 e0, u64 n)
{
	u32 idx[PWTPU_MAX_RANK] = { 0 };
	u32 last = g->rank ? g->rank - 1 : 0;
	u8 *d = g->dst + e0 * g->esize;
	u64 rem = e0, off = 0, run;
	int k;

	for (k = (int)g->rank - 1; k >= 0; k--) {
		idx[k] = rem % g->shape[k];
		rem /= g->shape[k];
		off += idx[k] * g->stride[k];
	}
	while (n) {
		/* The rest of the innermost axis, in one strided run. */
		run = g->shape[last] - idx[last];
		if (run > n)
			run = n;
		pwfw_l_run(d, g->src + off * g->esize, g->stride[last], run,
			   g->esize);
		d += run * g->esize;
		n -= run;
		off += run * g->stride[last];
		idx[last] += run;
		for (k = last; k > 0 && idx[k] == g->shape[k]; k--) {
			off -= (u64)g->shape[k] * g->stride[k];
			idx[k] = 0;
			idx[k - 1]++;
			off += g->stride[k - 1];
		}
	}
}

void pwfw_l_copy(void *dst, const void *src, u64 n)
{
	if (dst != src)
		__builtin_memcpy(dst, src, n);
}

void pwfw_l_select(u32 esize, void *dst, const s8 *pred, const void *b,
		   const void *c, u64 n)
{
	u64 i;

	switch (esize) {
	case 1:
		for (i = 0; i < n; i++)
			((u8 *)dst)[i] = pred[i] ? ((const u8 *)b)[i] :
						   ((const u8 *)c)[i];
		break;
	case 2:
		for (i = 0; i < n; i++)
			((u16 *)dst)[i] = pred[i] ? ((const u16 *)b)[i] :
						    ((const u16 *)c)[i];
		break;
	case 4:
		for (i = 0; i < n; i++)
			((u32 *)dst)[i] = pred[i] ? ((const u32 *)b)[i] :
						    ((const u32 *)c)[i];
		break;
	default:
		for (i = 0; i < n; i++)
			((u64 *)dst)[i] = pred[i] ? ((const u64 *)b)[i] :
						    ((const u64 *)c)[i];
		break;
	}
}
