// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_window.c - StableHLO's reduce_window of one operand.
 *
 * The operand is padded with the init value (base dilations are interior
 * padding), then each position w of the window contributes one tensor of
 * the result's shape: the padded operand read from w times the window
 * dilation, a window stride apart (hlo_pick). The body's op combines
 * them in window order, then with the init value: a body of one add,
 * multiply, maximum, minimum, and or or is that op, any other body is
 * applied element-wise (hlo_apply_body). StableHLO leaves the
 * order of a window's reduction to the implementation; this one is
 * deterministic. A window of more than HLO_MAX_WINDOW positions is
 * refused rather than made into a program of thousands of instructions.
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

/*
 * @a and @b (tensors of @t's shape) combined by the body: the body's one
 * op when it is one, else the body applied element-wise.
 */
static pw_val combine(struct hlo_lower *lw, struct hlo_scope *sc,
		      const struct pw_hlo_type *t, pw_val a, pw_val b)
{
	uint32_t shape[PW_MAX_RANK];
	enum hlo_binary op;
	pw_val args[2] = { a, b }, out = -1;

	if (!hlo_body_binary(lw, 1u << HLO_ADD | 1u << HLO_MUL |
			     1u << HLO_MAX | 1u << HLO_MIN | 1u << HLO_AND |
			     1u << HLO_OR, NULL, &op))
		return hlo_binary_op(lw, op, t->dtype, a, b);
	hlo_shape(t, shape);
	if (hlo_apply_body(lw, sc, args, 2, 1, NULL, t->rank, shape, &out))
		return lw->err;
	return out;
}

int hlo_lower_reduce_window(struct hlo_lower *lw, struct hlo_scope *sc,
			    int arg)
{
	int64_t win[PW_MAX_RANK], stride[PW_MAX_RANK], base[PW_MAX_RANK];
	int64_t dil[PW_MAX_RANK], lo[PW_MAX_RANK], hi[PW_MAX_RANK];
	int64_t in[PW_MAX_RANK], off[PW_MAX_RANK], w[PW_MAX_RANK];
	uint32_t xshape[PW_MAX_RANK], pshape[PW_MAX_RANK], shape[PW_MAX_RANK];
	const struct hlo_val *v[2];
	const struct pw_hlo_type *t;
	uint64_t positions = 1, i;
	uint32_t k, r;
	pw_val padded, acc = -1, part, init;

	(void)arg;
	if (lw->op->noperands != 2 || lw->op->nresults != 1)
		return hlo_lower_fail(lw, lw->op->noperands % 2 ? -EINVAL :
				      -EOPNOTSUPP,
				      "reduces %u operands together: only one is supported yet",
				      lw->op->noperands / 2);
	if (hlo_operands(lw, sc, 2, v))
		return lw->err;
	t = lw->op->result_types[0];
	if (hlo_check_type(lw, t))
		return lw->err;
	r = v[0]->type->rank;
	if (v[1]->type->rank || v[1]->type->dtype != v[0]->type->dtype ||
	    t->dtype != v[0]->type->dtype || t->rank != r)
		return hlo_lower_fail(lw, -EINVAL,
				      "init is not a scalar of the operand's type, or the result differs from the operand in type or rank");
	if (hlo_window_list(lw, "window_dimensions", r, 0, win) ||
	    hlo_window_list(lw, "window_strides", r, 1, stride) ||
	    hlo_window_list(lw, "base_dilations", r, 1, base) ||
	    hlo_window_list(lw, "window_dilations", r, 1, dil) ||
	    hlo_window_padding(lw, r, lo, hi))
		return lw->err;
	hlo_shape(v[0]->type, xshape);
	hlo_shape(t, shape);
	for (k = 0; k < r; k++) {
		int64_t p = lo[k] + hi[k] + (xshape[k] - 1) * base[k] + 1;
		int64_t span = (win[k] - 1) * dil[k] + 1;

		if (p < span || (p - span) / stride[k] + 1 != t->dims[k])
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
		if (positions > HLO_MAX_WINDOW)
			return hlo_lower_fail(lw, -EOPNOTSUPP,
					      "windows of more than %u positions are not supported yet",
					      HLO_MAX_WINDOW);
	}
	padded = hlo_pad(lw, v[0]->v, r, xshape, v[1]->v, lo, hi, in, pshape);
	if (padded < 0)
		return hlo_bind_result(lw, sc, 0, padded);
	memset(w, 0, sizeof(w));
	for (i = 0; i < positions && !lw->err; i++) {
		for (k = 0; k < r; k++)
			off[k] = w[k] * dil[k];
		part = hlo_pick(lw, padded, r, shape, off, stride);
		acc = i ? combine(lw, sc, t, acc, part) : part;
		/* The next window position, row major. */
		for (k = r; k-- > 0;) {
			if (++w[k] < win[k])
				break;
			w[k] = 0;
		}
	}
	init = r ? pw_fn_broadcast(lw->b, v[1]->v, r, shape) : v[1]->v;
	return hlo_bind_result(lw, sc, 0, combine(lw, sc, t, init, acc));
}
