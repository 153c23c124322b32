// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_select_scatter.c - StableHLO's select_and_scatter: in each
 * window of the operand the select body picks one element, and the
 * source's value for that window is combined into the result there.
 *
 * The windows go position by position (hlo_pick of the padded operand a
 * stride apart, one tensor over all windows at once): the select body,
 * applied element-wise, says whether the element picked so far stays
 * (the spec's order: the first valid one, then each next one that the
 * body does not prefer the current one to). Positions in the padding are
 * never picked; a window of padding only picks nothing and its source
 * value is dropped. The places picked, as index vectors, then take the
 * source values in one SCATTER whose combiner is the scatter body's op
 * (add, multiply, maximum, minimum) into the init value broadcast.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_lower_impl.h"

#define HLO_MAX_SELECT_WINDOW	64

/* The window's attributes, checked against the operand and source. */
struct select_window {
	uint32_t r;
	uint32_t oshape[PW_MAX_RANK], sshape[PW_MAX_RANK], pshape[PW_MAX_RANK];
	int64_t win[PW_MAX_RANK], stride[PW_MAX_RANK];
	int64_t lo[PW_MAX_RANK], hi[PW_MAX_RANK];
	uint64_t positions, windows;
};

static int select_window(struct hlo_lower *lw, const struct hlo_val *x,
			 const struct hlo_val *src, struct select_window *w)
{
	uint32_t k;
	int n;

	w->r = x->type->rank;
	hlo_shape(x->type, w->oshape);
	hlo_shape(src->type, w->sshape);
	n = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "window_dimensions"),
			 "window_dimensions", w->win, PW_MAX_RANK);
	if (n < 0)
		return lw->err;
	if ((uint32_t)n != w->r || src->type->rank != w->r)
		return hlo_lower_fail(lw, -EINVAL,
				      "window_dimensions and the source must have the operand's rank");
	if (hlo_window_list(lw, "window_strides", w->r, 1, w->stride) ||
	    hlo_window_padding(lw, w->r, w->lo, w->hi))
		return lw->err;
	w->positions = 1;
	w->windows = 1;
	for (k = 0; k < w->r; k++) {
		int64_t p = w->lo[k] + w->hi[k] + w->oshape[k];

		if (w->win[k] < 1 || w->stride[k] < 1 || p < w->win[k] ||
		    p > PWTPU_MAX_ELEMS ||
		    (p - w->win[k]) / w->stride[k] + 1 != w->sshape[k])
			return hlo_lower_fail(lw, -EINVAL,
					      "source dimension %u is not the number of windows that fit",
					      k);
		w->pshape[k] = (uint32_t)p;
		w->positions *= (uint64_t)w->win[k];
		w->windows *= w->sshape[k];
	}
	if (w->positions > HLO_MAX_SELECT_WINDOW)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "windows of more than %d positions are not supported yet",
				      HLO_MAX_SELECT_WINDOW);
	return 0;
}

/*
 * For window position @at: the operand index of every window's element
 * there (i32 [source..., r]) into *@pos, whether it is inside the
 * operand (i8 [source...]) into *@valid; *@all when every one is.
 */
static int window_places(struct hlo_lower *lw, const struct select_window *w,
			 const int64_t *at, pw_val *pos, pw_val *valid,
			 bool *all)
{
	uint32_t shape[PW_MAX_RANK], j[PW_MAX_RANK] = { 0 }, k;
	int32_t *p;
	uint8_t *ok;
	uint64_t i;

	*pos = *valid = -1;
	*all = true;
	p = malloc(w->windows * w->r * sizeof(*p));
	ok = malloc(w->windows);
	if (!p || !ok) {
		free(p);
		free(ok);
		return hlo_lower_fail(lw, -ENOMEM, "out of memory");
	}
	for (i = 0; i < w->windows; i++) {
		ok[i] = 1;
		for (k = 0; k < w->r; k++) {
			int64_t c = j[k] * w->stride[k] + at[k] - w->lo[k];

			p[i * w->r + k] = (int32_t)c;
			if (c < 0 || c >= w->oshape[k])
				ok[i] = 0;
		}
		*all &= ok[i];
		for (k = w->r; k-- > 0;) {
			if (++j[k] < w->sshape[k])
				break;
			j[k] = 0;
		}
	}
	memcpy(shape, w->sshape, sizeof(shape));
	shape[w->r] = w->r;
	*pos = pw_fn_const(lw->b, PWTPU_DT_I32, w->r + 1, shape, p);
	*valid = pw_fn_const(lw->b, PWTPU_DT_I8, w->r, w->sshape, ok);
	free(p);
	free(ok);
	return 0;
}

/* An i8 [source...] predicate widened to [source..., r]. */
static pw_val per_index(struct hlo_lower *lw, const struct select_window *w,
			pw_val pred)
{
	uint32_t shape[PW_MAX_RANK];

	memcpy(shape, w->sshape, sizeof(shape));
	shape[w->r] = 1;
	pred = pw_fn_reshape(lw->b, pred, w->r + 1, shape);
	shape[w->r] = w->r;
	return pw_fn_broadcast(lw->b, pred, w->r + 1, shape);
}

static pw_val not_i1(struct hlo_lower *lw, pw_val x)
{
	return pw_fn_compare(lw->b, PWTPU_CMP_EQ, x,
			     pw_fn_scalar(lw->b, PWTPU_DT_I8, 0));
}

int hlo_lower_select_and_scatter(struct hlo_lower *lw, struct hlo_scope *sc,
				 int arg)
{
	const enum pw_hlo_dtype want = PW_HLO_DT_I1;
	struct pw_fn_scatter_dims d = { 0 };
	int64_t at[PW_MAX_RANK] = { 0 }, in[PW_MAX_RANK] = { 0 };
	pw_val padded, v, pos, valid, keep, take, args[2];
	pw_val sel = -1, sel_pos = -1, sel_ok = -1;
	const struct hlo_val *x[3];
	const struct pw_hlo_type *t;
	struct select_window w;
	enum pwtpu_scatter mode;
	enum hlo_binary op;
	bool all, every = true;
	uint32_t k, idx[PW_MAX_RANK];
	uint64_t i;

	(void)arg;
	if (hlo_operands(lw, sc, 3, x))
		return lw->err;
	t = lw->op->result_types[0];
	if (hlo_check_type(lw, t) ||
	    hlo_region_binary(lw, 1, 1u << HLO_ADD | 1u << HLO_MUL |
			      1u << HLO_MAX | 1u << HLO_MIN | 1u << HLO_AND |
			      1u << HLO_OR,
			      "add, multiply, maximum, minimum, and or or", &op))
		return lw->err;
	if (!hlo_same_shape(t, x[0]->type) || t->dtype != x[0]->type->dtype ||
	    x[1]->type->dtype != t->dtype || x[2]->type->rank ||
	    x[2]->type->dtype != t->dtype)
		return hlo_lower_fail(lw, -EINVAL,
				      "operand, source, init and result differ in type");
	if (hlo_scatter_combiner(op, t->dtype, &mode))
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "a body of %s on %s is not supported yet",
				      op == HLO_AND ? "and" : "or",
				      pw_hlo_dtype_name(t->dtype));
	if (select_window(lw, x[0], x[1], &w))
		return lw->err;
	if (w.r + 1 > PW_MAX_RANK)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "an operand of rank %u is not supported yet",
				      w.r);
	padded = hlo_pad(lw, x[0]->v, w.r, w.oshape,
			 pw_fn_scalar(lw->b, pw_hlo_device_dtype(t->dtype), 0),
			 w.lo, w.hi, in, w.pshape);
	for (i = 0; i < w.positions && !lw->err; i++) {
		v = hlo_pick(lw, padded, w.r, w.sshape, at, w.stride);
		if (window_places(lw, &w, at, &pos, &valid, &all))
			return lw->err;
		every &= all;
		if (!i) {
			sel = v;
			sel_pos = pos;
			sel_ok = valid;
		} else {
			/* Take v where it is valid and the body drops sel. */
			args[0] = sel;
			args[1] = v;
			if (hlo_apply_region(lw, 0, args, 2, 1, &want, w.r,
					     w.sshape, &keep))
				return lw->err;
			take = pw_fn_binary(lw->b, PWTPU_OP_MIN, valid,
					    pw_fn_binary(lw->b, PWTPU_OP_MAX,
							 not_i1(lw, sel_ok),
							 not_i1(lw, keep)));
			sel = pw_fn_select(lw->b, take, v, sel);
			sel_pos = pw_fn_select(lw->b, per_index(lw, &w, take),
					       pos, sel_pos);
			sel_ok = pw_fn_binary(lw->b, PWTPU_OP_MAX, sel_ok,
					      valid);
		}
		for (k = w.r; k-- > 0;) {
			if (++at[k] < w.win[k])
				break;
			at[k] = 0;
		}
	}
	/* Windows of padding only: an index out of bounds is skipped. */
	if (!every) {
		memcpy(idx, w.sshape, sizeof(idx));
		idx[w.r] = w.r;
		sel_pos = pw_fn_select(lw->b, per_index(lw, &w, sel_ok), sel_pos,
				       pw_fn_broadcast(lw->b,
						       pw_fn_scalar(lw->b,
								    PWTPU_DT_I32,
								    -1),
						       w.r + 1, idx));
	}
	for (k = 0; k < w.r; k++) {
		d.inserted_window_dims[k] = k;
		d.scatter_dims_to_operand_dims[k] = k;
	}
	d.n_inserted_window_dims = w.r;
	d.n_scatter_dims_to_operand_dims = w.r;
	d.index_vector_dim = w.r;
	v = pw_fn_scatter(lw->b, mode,
			  pw_fn_broadcast(lw->b, x[2]->v, w.r, w.oshape),
			  sel_pos, x[1]->v, &d);
	return hlo_bind_result(lw, sc, 0, v);
}
