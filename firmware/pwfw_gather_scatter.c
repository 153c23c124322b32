// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_gather_scatter.c - SCATTER and GATHER, as include/uapi/pwtpu.h
 * defines them ("Scatter and gather"). Integer code (built with -mno-sse
 * in the kernel): index arithmetic, element moves and the integer
 * combiners. A float combiner calls pwfw_k_binary(), so its pieces run
 * inside an FPU section that pwfw_exec.c opens (pwfw_gs_fpu()).
 *
 * Both walk the window tensor w (SCATTER's c, GATHER's dst) in row-major
 * order. An element's place in a is the start its index vector gives
 * plus a linear function of its own index, so the walk keeps two running
 * offsets (in a, and of the index vector in b) and reads an index vector
 * again only when its offset in b changes. Consecutive elements that
 * land on consecutive elements of a form a run, moved or combined in one
 * call; the elements of a run are distinct, so a run gives what its
 * elements one by one would.
 *
 * Every offset stays inside its tensor whatever the index values are:
 * the verifier checked the dimension numbers against the shapes, a
 * GATHER start is clamped to [0, mmax] and a SCATTER start outside it
 * skips its window.
 */
#include "pwfw_gather_scatter.h"
#include "pwfw_kernels.h"
#include "pwfw_tensor.h"

/* Element @i of an integer tensor of @dtype, sign extended if signed. */
static u64 pwfw_gs_load(u32 dtype, const u8 *p, u64 i)
{
	switch (dtype) {
	case PWTPU_DT_I8:
		return (u64)(s64)((const s8 *)p)[i];
	case PWTPU_DT_U8:
		return p[i];
	case PWTPU_DT_I16:
		return (u64)(s64)((const s16 *)p)[i];
	case PWTPU_DT_U16:
		return ((const u16 *)p)[i];
	case PWTPU_DT_I32:
		return (u64)(s64)((const s32 *)p)[i];
	case PWTPU_DT_U32:
		return ((const u32 *)p)[i];
	default:
		return ((const u64 *)p)[i];
	}
}

static bool pwfw_gs_signed(u32 dtype)
{
	return dtype == PWTPU_DT_I8 || dtype == PWTPU_DT_I16 ||
	       dtype == PWTPU_DT_I32 || dtype == PWTPU_DT_I64;
}

/* The low @esize bytes of @v as element @i. */
static void pwfw_gs_store(u32 esize, u8 *p, u64 i, u64 v)
{
	switch (esize) {
	case 1:
		p[i] = (u8)v;
		break;
	case 2:
		((u16 *)p)[i] = (u16)v;
		break;
	case 4:
		((u32 *)p)[i] = (u32)v;
		break;
	default:
		((u64 *)p)[i] = v;
		break;
	}
}

void pwfw_gs_init(struct pwfw_gs *g, const struct pwtpu_insn *in,
		  const struct pwtpu_tensor *a, const struct pwtpu_tensor *b,
		  const struct pwtpu_tensor *c, const struct pwtpu_tensor *d,
		  const void *ap, const void *bp, const void *cp, void *dp)
{
	u32 arg0 = in->arg[0], arg1 = in->arg[1];
	u32 wmask = PWTPU_GS_WINDOW(arg0), bmask = PWTPU_GS_BATCHING(arg0);
	u32 amask = PWTPU_GS_INSERTED(arg0) | bmask;
	u32 vd = PWTPU_GS_VECTOR_DIM(arg0);
	const struct pwtpu_tensor *w = c ? c : d;
	u64 astride[PWTPU_MAX_RANK], bstride[PWTPU_MAX_RANK];
	u32 ext[PWTPU_MAX_RANK];	/* window extent on each dim of a */
	u32 pair_of[PWTPU_MAX_RANK];	/* dim of a paired with dim e of b */
	u32 k, i, e, da;

	pwfw_l_strides(a, astride);
	pwfw_l_strides(b, bstride);
	g->scatter = in->op == PWTPU_OP_SCATTER;
	g->mode = g->scatter ? in->mode : PWTPU_SCATTER_SET;
	g->dtype = a->dtype;
	g->esize = pwfw_dtype_size(a->dtype);
	g->idtype = b->dtype;
	g->wrank = w->rank;
	g->n = vd < b->rank ? b->shape[vd] : 1;
	g->vstep = vd < b->rank ? bstride[vd] : 0;
	g->a = ap;
	g->b = bp;
	g->c = cp;
	g->dst = dp;

	/* The i-th batching dimension of a pairs with b's dimension S[i]. */
	for (e = 0; e < PWTPU_MAX_RANK; e++)
		pair_of[e] = PWTPU_MAX_RANK;
	for (k = 0, i = 0; k < a->rank; k++) {
		ext[k] = 1;
		if (bmask & 1U << k)
			pair_of[PWTPU_GS_PAIR_DIM(arg1, i++)] = k;
	}
	/* w's window dimensions are a's others in order; its batch ones b's. */
	for (k = 0, da = 0, e = 0; k < PWTPU_MAX_RANK; k++) {
		g->wshape[k] = k < w->rank ? w->shape[k] : 1;
		g->astep[k] = 0;
		g->bstep[k] = 0;
		if (k >= w->rank)
			continue;
		if (wmask & 1U << k) {
			while (amask & 1U << da)
				da++;
			ext[da] = w->shape[k];
			g->astep[k] = astride[da++];
			continue;
		}
		if (e == vd)
			e++;
		g->bstep[k] = bstride[e];
		if (pair_of[e] < PWTPU_MAX_RANK)
			g->astep[k] = astride[pair_of[e]];
		e++;
	}
	for (i = 0; i < PWTPU_MAX_RANK; i++) {
		k = PWTPU_GS_MAP_DIM(arg1, i);
		g->mstride[i] = i < g->n ? astride[k] : 0;
		g->mmax[i] = i < g->n ? a->shape[k] - ext[k] : 0;
	}
}

bool pwfw_gs_fpu(const struct pwfw_gs *g)
{
	return g->scatter && g->mode != PWTPU_SCATTER_SET &&
	       pwfw_dtype_is_float(g->dtype);
}

/*
 * The start in a (elements) of the index vector at @boff in b: false
 * when a SCATTER's window does not lie wholly inside a. A GATHER's
 * start is clamped instead, and always true.
 */
static bool pwfw_gs_start(const struct pwfw_gs *g, u64 boff, u64 *start)
{
	bool sgn = pwfw_gs_signed(g->idtype);
	u64 v;
	u32 j;

	*start = 0;
	for (j = 0; j < g->n; j++) {
		v = pwfw_gs_load(g->idtype, g->b, boff + j * g->vstep);
		if ((sgn && (s64)v < 0) || v > g->mmax[j]) {
			if (g->scatter)
				return false;
			v = sgn && (s64)v < 0 ? 0 : g->mmax[j];
		}
		*start += v * g->mstride[j];
	}
	return true;
}

/* x <mode> y on extended integers of @dtype; the low bits are stored. */
static u64 pwfw_gs_int_op(u32 mode, bool sgn, u64 x, u64 y)
{
	switch (mode) {
	case PWTPU_SCATTER_ADD:
		return x + y;
	case PWTPU_SCATTER_MUL:
		return x * y;
	case PWTPU_SCATTER_MIN:
		return (sgn ? (s64)y < (s64)x : y < x) ? y : x;
	default:
		return (sgn ? (s64)y > (s64)x : y > x) ? y : x;
	}
}

/*
 * GATHER: dst[@i .. @i + @len) = a[@t ..]; SCATTER: a[@t ..] of dst
 * combined with c[@i ..]. The run's elements are consecutive in both.
 */
static void pwfw_gs_flush(const struct pwfw_gs *g, u64 t, u64 i, u64 len)
{
	static const u8 float_op[] = {
		[PWTPU_SCATTER_ADD] = PWTPU_OP_ADD,
		[PWTPU_SCATTER_MUL] = PWTPU_OP_MUL,
		[PWTPU_SCATTER_MIN] = PWTPU_OP_MIN,
		[PWTPU_SCATTER_MAX] = PWTPU_OP_MAX,
	};
	u32 es = g->esize;
	u8 *d = g->dst + t * es;
	bool sgn;
	u64 k;

	if (!len)
		return;
	if (!g->scatter) {
		pwfw_l_copy(g->dst + i * es, g->a + t * es, len * es);
		return;
	}
	if (g->mode == PWTPU_SCATTER_SET) {
		pwfw_l_copy(d, g->c + i * es, len * es);
		return;
	}
	if (pwfw_dtype_is_float(g->dtype)) {
		/* In the caller's FPU section; dst is a exactly, allowed. */
		pwfw_k_binary(float_op[g->mode], g->dtype, d, d, g->c + i * es,
			      (u32)len);
		return;
	}
	sgn = pwfw_gs_signed(g->dtype);
	for (k = 0; k < len; k++)
		pwfw_gs_store(es, d, k,
			      pwfw_gs_int_op(g->mode, sgn,
					     pwfw_gs_load(g->dtype, d, k),
					     pwfw_gs_load(g->dtype,
							  g->c + i * es, k)));
}

void pwfw_gs_run(const struct pwfw_gs *g, u64 e0, u64 n)
{
	u64 aoff = 0, boff = 0, rest = e0, start = 0, at, i;
	u64 run_t = 0, run_i = 0, run_n = 0, cached = 0;
	u32 u[PWTPU_MAX_RANK], k;
	bool valid = false, have = false;

	for (k = g->wrank; k-- > 0;) {
		u[k] = (u32)(rest % g->wshape[k]);
		rest /= g->wshape[k];
		aoff += u[k] * g->astep[k];
		boff += u[k] * g->bstep[k];
	}
	for (i = e0; i < e0 + n; i++) {
		if (!have || boff != cached) {
			valid = pwfw_gs_start(g, boff, &start);
			cached = boff;
			have = true;
		}
		at = start + aoff;
		if (valid && run_n && at == run_t + run_n) {
			run_n++;
		} else {
			pwfw_gs_flush(g, run_t, run_i, run_n);
			run_t = at;
			run_i = i;
			run_n = valid;
		}
		/* The next index of w, and both offsets with it. */
		for (k = g->wrank; k-- > 0;) {
			aoff += g->astep[k];
			boff += g->bstep[k];
			if (++u[k] < g->wshape[k])
				break;
			aoff -= u[k] * g->astep[k];
			boff -= u[k] * g->bstep[k];
			u[k] = 0;
		}
	}
	pwfw_gs_flush(g, run_t, run_i, run_n);
}
