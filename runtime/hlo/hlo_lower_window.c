// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_window.c - StableHLO's reduce_window, of up to four operands
 * reduced together.
 *
 * Each operand is padded with its init value (base dilations are
 * interior padding). For a window of up to HLO_MAX_WINDOW positions,
 * each position w contributes one tensor of the result's shape: the
 * padded operand read from w times the window dilation, a window stride
 * apart (hlo_pick), and the body combines them in window order. A larger
 * window is reduced one dimension at a time, the last first, by spans
 * that double (along()): O(log n) steps for a window of n, never a
 * program of thousands of instructions. Then the init value comes in. A body of one
 * add, multiply, maximum, minimum, and or or of one operand is that op;
 * any other body is applied element-wise (hlo_apply_body). StableHLO
 * leaves the order of a window's reduction to the implementation; both
 * ways keep the window's row-major order and differ only in grouping,
 * and both are deterministic.
 */
#include <errno.h>
#include <string.h>

#include "hlo_lower_impl.h"

#define HLO_MAX_WINDOW	64

int hlo_window_list(struct hlo_lower *lw, const char *name, uint32_t rank,
		    int64_t dflt, int64_t *out)
{
	const struct pw_hlo_attr *a = pw_hlo_op_attr(lw->op, name);
	uint32_t k;
	int n;

	if (!a) {
		for (k = 0; k < rank; k++)
			out[k] = dflt;
		return 0;
	}
	n = hlo_int_list(lw, a, name, out, PW_MAX_RANK);
	if (n < 0)
		return n;
	if ((uint32_t)n != rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "%s has %d items for rank %u",
				      name, n, rank);
	for (k = 0; k < rank; k++)
		if (out[k] < 1 || out[k] > PWTPU_MAX_ELEMS)
			return hlo_lower_fail(lw, -EINVAL,
					      "%s[%u] = %lld is not in 1..%u",
					      name, k, (long long)out[k],
					      PWTPU_MAX_ELEMS);
	return 0;
}

int hlo_window_padding(struct hlo_lower *lw, uint32_t rank, int64_t *lo,
		       int64_t *hi)
{
	const struct pw_hlo_attr *a = pw_hlo_op_attr(lw->op, "padding");
	int64_t pairs[2 * PW_MAX_RANK];
	uint32_t k;
	int n = 0;

	if (a) {
		n = hlo_int_list(lw, a, "padding", pairs, 2 * PW_MAX_RANK);
		if (n < 0)
			return n;
		if ((uint32_t)n != 2 * rank)
			return hlo_lower_fail(lw, -EINVAL,
					      "padding has %d items for rank %u",
					      n, rank);
	}
	for (k = 0; k < rank; k++) {
		lo[k] = n ? pairs[2 * k] : 0;
		hi[k] = n ? pairs[2 * k + 1] : 0;
		/* Bounded, so that sizes computed from them cannot overflow. */
		if (lo[k] < -(int64_t)PWTPU_MAX_ELEMS ||
		    lo[k] > PWTPU_MAX_ELEMS ||
		    hi[k] < -(int64_t)PWTPU_MAX_ELEMS ||
		    hi[k] > PWTPU_MAX_ELEMS)
			return hlo_lower_fail(lw, -EINVAL,
					      "padding of dimension %u is past the device's %u elements",
					      k, PWTPU_MAX_ELEMS);
	}
	return 0;
}

/* Operands one reduce_window reduces together (select_and_gather takes 2). */
#define HLO_MAX_WINDOW_OPERANDS	4

/* The operands, their padded forms and what each step works on. */
struct window_args {
	unsigned int n;
	const struct hlo_val *x[HLO_MAX_WINDOW_OPERANDS];
	const struct hlo_val *init[HLO_MAX_WINDOW_OPERANDS];
	const struct pw_hlo_type *t;	/* result 0's type: all share its shape */
	uint32_t rank;
};

/*
 * @a[] and @b[] (n tensors each, of @shape) combined by the body into
 * @out[]: the body's one op when it is one and n is 1, else the body
 * applied element-wise to (a..., b...).
 */
static int combine(struct hlo_lower *lw, struct hlo_scope *sc,
		   const struct window_args *wa, const uint32_t *shape,
		   const pw_val *a, const pw_val *b, pw_val *out)
{
	pw_val args[2 * HLO_MAX_WINDOW_OPERANDS];
	enum hlo_binary op;
	unsigned int i;

	if (wa->n == 1 &&
	    !hlo_body_binary(lw, 1u << HLO_ADD | 1u << HLO_MUL |
			     1u << HLO_MAX | 1u << HLO_MIN | 1u << HLO_AND |
			     1u << HLO_OR, NULL, &op)) {
		out[0] = hlo_binary_op(lw, op, wa->t->dtype, a[0], b[0]);
		return lw->err;
	}
	for (i = 0; i < wa->n; i++) {
		args[i] = a[i];
		args[wa->n + i] = b[i];
	}
	return hlo_apply_body(lw, sc, args, 2 * wa->n, wa->n, NULL, wa->rank,
			      shape, out);
}

/* @x[] (n tensors) read from @off along @k, @len long there. */
static void shift(struct hlo_lower *lw, const struct window_args *wa,
		  const pw_val *x, uint32_t k, int64_t off, uint32_t len,
		  const uint32_t *xshape, uint32_t *shape, pw_val *out)
{
	int64_t o[PW_MAX_RANK] = { 0 }, step[PW_MAX_RANK];
	unsigned int i;
	uint32_t d;

	for (d = 0; d < wa->rank; d++) {
		shape[d] = xshape[d];
		step[d] = 1;
	}
	shape[k] = len;
	o[k] = off;
	for (i = 0; i < wa->n; i++)
		out[i] = hlo_pick(lw, x[i], wa->rank, shape, o, step);
}

/*
 * The window reduced along dimension @k alone, at every position (stride
 * 1): @win positions @dil apart, in O(log win) combinations. f holds
 * spans of a positions; two spans side by side make one of 2a, and the
 * spans of @win's bits, taken left to right, make the window. Every
 * combination keeps the window's order, only the grouping differs.
 */
static int along(struct hlo_lower *lw, struct hlo_scope *sc,
		 const struct window_args *wa, pw_val *x, uint32_t *xshape,
		 uint32_t k, int64_t win, int64_t dil)
{
	pw_val f[HLO_MAX_WINDOW_OPERANDS], acc[HLO_MAX_WINDOW_OPERANDS];
	pw_val p[HLO_MAX_WINDOW_OPERANDS], q[HLO_MAX_WINDOW_OPERANDS];
	uint32_t fshape[PW_MAX_RANK], shape[PW_MAX_RANK];
	uint32_t out = xshape[k] - (uint32_t)((win - 1) * dil);
	int64_t a, done = 0;
	unsigned int i;

	memcpy(fshape, xshape, sizeof(fshape));
	memcpy(f, x, wa->n * sizeof(*f));
	for (a = 1; a <= win && !lw->err; a *= 2) {
		if (win & a) {
			shift(lw, wa, f, k, done * dil, out, fshape, shape, p);
			if (done)
				combine(lw, sc, wa, shape, acc, p, acc);
			else
				memcpy(acc, p, wa->n * sizeof(*acc));
			done += a;
		}
		if (2 * a > win)
			break;
		/* Spans of 2a: f[i] and f[i + a dil]. */
		shift(lw, wa, f, k, 0, fshape[k] - (uint32_t)(a * dil), fshape,
		      shape, p);
		shift(lw, wa, f, k, a * dil, fshape[k] - (uint32_t)(a * dil),
		      fshape, shape, q);
		if (combine(lw, sc, wa, shape, p, q, f))
			break;
		fshape[k] = shape[k];
	}
	memcpy(x, acc, wa->n * sizeof(*x));
	xshape[k] = out;
	for (i = 0; i < wa->n; i++)
		if (x[i] < 0 && !lw->err)
			return hlo_lower_builder_fail(lw, x[i]);
	return lw->err;
}

static int window_args(struct hlo_lower *lw, struct hlo_scope *sc,
		       struct window_args *wa)
{
	const struct pw_hlo_op *op = lw->op;
	unsigned int i, k;

	if (op->noperands % 2 || !op->noperands ||
	    op->nresults != op->noperands / 2)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs operands, as many init values and as many results");
	wa->n = op->noperands / 2;
	if (wa->n > HLO_MAX_WINDOW_OPERANDS)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "reduces %u operands together: up to %u are supported",
				      wa->n, HLO_MAX_WINDOW_OPERANDS);
	wa->t = op->result_types[0];
	for (i = 0; i < wa->n; i++) {
		const struct pw_hlo_type *t = op->result_types[i];

		wa->x[i] = hlo_operand(lw, sc, i);
		wa->init[i] = wa->x[i] ? hlo_operand(lw, sc, wa->n + i) : NULL;
		if (!wa->init[i] || hlo_check_type(lw, t))
			return lw->err;
		if (wa->init[i]->type->rank ||
		    wa->init[i]->type->dtype != wa->x[i]->type->dtype ||
		    t->dtype != wa->x[i]->type->dtype ||
		    t->rank != wa->x[0]->type->rank ||
		    wa->x[i]->type->rank != wa->x[0]->type->rank)
			return hlo_lower_fail(lw, -EINVAL,
					      "init %u is not a scalar of operand %u's type, or result %u differs from it in type or rank",
					      i, i, i);
		for (k = 0; k < t->rank; k++)
			if (t->dims[k] != wa->t->dims[k] ||
			    wa->x[i]->type->dims[k] !=
			    wa->x[0]->type->dims[k])
				return hlo_lower_fail(lw, -EINVAL,
						      "operand or result %u differs from the first in shape",
						      i);
	}
	wa->rank = wa->t->rank;
	return 0;
}

int hlo_lower_reduce_window(struct hlo_lower *lw, struct hlo_scope *sc,
			    int arg)
{
	int64_t win[PW_MAX_RANK], stride[PW_MAX_RANK], base[PW_MAX_RANK];
	int64_t dil[PW_MAX_RANK], lo[PW_MAX_RANK], hi[PW_MAX_RANK];
	int64_t in[PW_MAX_RANK], off[PW_MAX_RANK], w[PW_MAX_RANK];
	uint32_t xshape[PW_MAX_RANK], pshape[PW_MAX_RANK], shape[PW_MAX_RANK];
	pw_val x[HLO_MAX_WINDOW_OPERANDS], acc[HLO_MAX_WINDOW_OPERANDS];
	pw_val part[HLO_MAX_WINDOW_OPERANDS];
	struct window_args wa;
	uint64_t positions = 1, i;
	uint32_t k, r;

	(void)arg;
	for (i = 0; i < HLO_MAX_WINDOW_OPERANDS; i++)
		acc[i] = -EINVAL;
	if (window_args(lw, sc, &wa))
		return lw->err;
	r = wa.rank;
	if (!pw_hlo_op_attr(lw->op, "window_dimensions"))
		return hlo_lower_fail(lw, -EINVAL, "has no window_dimensions");
	if (hlo_window_list(lw, "window_dimensions", r, 0, win) ||
	    hlo_window_list(lw, "window_strides", r, 1, stride) ||
	    hlo_window_list(lw, "base_dilations", r, 1, base) ||
	    hlo_window_list(lw, "window_dilations", r, 1, dil) ||
	    hlo_window_padding(lw, r, lo, hi))
		return lw->err;
	hlo_shape(wa.x[0]->type, xshape);
	hlo_shape(wa.t, shape);
	for (k = 0; k < r; k++) {
		int64_t p = lo[k] + hi[k] + (xshape[k] - 1) * base[k] + 1;
		int64_t span = (win[k] - 1) * dil[k] + 1;

		if (p < span || (p - span) / stride[k] + 1 != wa.t->dims[k])
			return hlo_lower_fail(lw, -EINVAL,
					      "result dimension %u is not the number of windows that fit",
					      k);
		if (p > PWTPU_MAX_ELEMS)
			return hlo_lower_fail(lw, -E2BIG,
					      "padded dimension %u of %lld",
					      k, (long long)p);
		pshape[k] = (uint32_t)p;
		in[k] = base[k] - 1;
		if ((uint64_t)win[k] > HLO_MAX_WINDOW / positions)
			positions = HLO_MAX_WINDOW + 1;
		else
			positions *= (uint64_t)win[k];
	}
	for (i = 0; i < wa.n; i++) {
		x[i] = hlo_pad(lw, wa.x[i]->v, r, xshape, wa.init[i]->v, lo, hi,
			       in, pshape);
		if (x[i] < 0)
			return hlo_bind_result(lw, sc, 0, x[i]);
	}
	memset(w, 0, sizeof(w));
	if (positions > HLO_MAX_WINDOW) {
		/*
		 * Large windows: dimension by dimension, the last first, so
		 * that each row of the window is reduced in order and the
		 * rows then in theirs: row-major, as small windows are. Then
		 * the strides.
		 */
		for (k = r; k-- > 0;)
			if (win[k] > 1 &&
			    along(lw, sc, &wa, x, pshape, k, win[k], dil[k]))
				return lw->err;
		for (i = 0; i < wa.n; i++)
			acc[i] = hlo_pick(lw, x[i], r, shape, w, stride);
	}
	for (i = 0; positions <= HLO_MAX_WINDOW && i < positions && !lw->err;
	     i++) {
		for (k = 0; k < r; k++)
			off[k] = w[k] * dil[k];
		for (k = 0; k < wa.n; k++)
			part[k] = hlo_pick(lw, x[k], r, shape, off, stride);
		if (i)
			combine(lw, sc, &wa, shape, acc, part, acc);
		else
			memcpy(acc, part, wa.n * sizeof(*acc));
		/* The next window position, row major. */
		for (k = r; k-- > 0;) {
			if (++w[k] < win[k])
				break;
			w[k] = 0;
		}
	}
	for (i = 0; i < wa.n && !lw->err; i++)
		part[i] = r ? pw_fn_broadcast(lw->b, wa.init[i]->v, r, shape) :
			      wa.init[i]->v;
	if (!lw->err)
		combine(lw, sc, &wa, shape, part, acc, acc);
	for (i = 0; i < wa.n && !lw->err; i++)
		if (hlo_bind_result(lw, sc, (unsigned int)i, acc[i]))
			break;
	return lw->err;
}
