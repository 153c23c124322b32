/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_gather_scatter.h - SCATTER and GATHER (pwfw_gather_scatter.c):
 * an instruction resolved once into steps and strides, then run over the
 * window tensor in pieces that pwfw_exec.c separates by safe points.
 * Semantics: include/uapi/pwtpu.h, "Scatter and gather".
 */
#ifndef PWFW_GATHER_SCATTER_H
#define PWFW_GATHER_SCATTER_H

#include "pwfw.h"

/**
 * struct pwfw_gs - one SCATTER or GATHER of a verified program
 * @scatter: a SCATTER (else a GATHER).
 * @mode: SCATTER's enum pwtpu_scatter; PWTPU_SCATTER_SET for GATHER.
 * @dtype: of a, c and dst.
 * @esize: bytes of one of their elements.
 * @idtype: b's dtype, an integer one.
 * @wrank: rank of the window tensor w (SCATTER's c, GATHER's dst).
 * @wshape: its extents.
 * @astep: per dimension of w, how far (in elements of a) one step along
 *	it moves in a: a's stride of the window or batching dimension it
 *	stands for, else 0.
 * @bstep: per dimension of w, the same in b: b's stride of the batch
 *	dimension it stands for, else 0.
 * @n: entries of an index vector, 1..4.
 * @vstep: b's stride along the index vector dimension (0 when it is the
 *	implicit one past b's rank).
 * @mstride: a's stride of the dimension entry j starts.
 * @mmax: the largest start of entry j whose window lies inside a.
 * @a: a's first element.
 * @b: b's.
 * @c: c's (NULL for GATHER).
 * @dst: dst's.
 */
struct pwfw_gs {
	bool scatter;
	u32 mode;
	u32 dtype;
	u32 esize;
	u32 idtype;
	u32 wrank;
	u32 wshape[PWTPU_MAX_RANK];
	u64 astep[PWTPU_MAX_RANK];
	u64 bstep[PWTPU_MAX_RANK];
	u32 n;
	u64 vstep;
	u64 mstride[PWTPU_MAX_RANK];
	u64 mmax[PWTPU_MAX_RANK];
	const u8 *a;
	const u8 *b;
	const u8 *c;
	u8 *dst;
};

/*
 * Resolve instruction @in (SCATTER or GATHER) over tensors @a, @b, @c
 * (NULL for GATHER) and @d at @ap, @bp, @cp and @dp.
 */
void pwfw_gs_init(struct pwfw_gs *g, const struct pwtpu_insn *in,
		  const struct pwtpu_tensor *a, const struct pwtpu_tensor *b,
		  const struct pwtpu_tensor *c, const struct pwtpu_tensor *d,
		  const void *ap, const void *bp, const void *cp, void *dp);

/*
 * Whether pieces need an FPU section around them: a SCATTER that
 * combines floats (any mode but SET).
 */
bool pwfw_gs_fpu(const struct pwfw_gs *g);

/*
 * Elements [@e0, @e0 + @n) of w, in row-major order: GATHER writes them,
 * SCATTER combines them into dst (which already holds a). Pieces must
 * run in order for SCATTER.
 */
void pwfw_gs_run(const struct pwfw_gs *g, u64 e0, u64 n);

#endif /* PWFW_GATHER_SCATTER_H */
