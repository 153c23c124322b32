// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_shape.c - StableHLO's ops that move elements without
 * computing on them: broadcast_in_dim, broadcast, reshape, transpose,
 * slice, and ops that pass values through (optimization_barrier).
 */
#include <errno.h>

#include "hlo_lower_impl.h"

/* The one operand and the one result of a shape op, both checked. */
static const struct hlo_val *one_in_one_out(struct hlo_lower *lw,
					    struct hlo_scope *sc,
					    const struct pw_hlo_type **t)
{
	const struct hlo_val *x;

	if (hlo_operands(lw, sc, 1, &x))
		return NULL;
	*t = lw->op->result_types[0];
	if (hlo_check_type(lw, *t))
		return NULL;
	if (x->type->dtype != (*t)->dtype) {
		hlo_lower_fail(lw, -EINVAL,
			       "operand and result differ in element type");
		return NULL;
	}
	return x;
}

/*
 * broadcast_in_dim: operand dimension i becomes result dimension
 * dims[i]. On the device: a transpose when dims are out of order, a
 * reshape putting 1s where the result has dimensions of its own, then
 * the device's broadcast of extents 1.
 */
int hlo_lower_broadcast_in_dim(struct hlo_lower *lw, struct hlo_scope *sc,
			       int arg)
{
	uint32_t rank_of[PW_MAX_RANK], order[PW_MAX_RANK], shape[PW_MAX_RANK];
	int64_t dims[PW_MAX_RANK];
	uint32_t k, j, r;
	const struct pw_hlo_type *t;
	const struct hlo_val *x;
	bool sorted = true;
	pw_val v;
	int n;

	(void)arg;
	x = one_in_one_out(lw, sc, &t);
	if (!x)
		return lw->err;
	r = x->type->rank;
	n = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "broadcast_dimensions"),
			 "broadcast_dimensions", dims, PW_MAX_RANK);
	if (n < 0)
		return lw->err;
	if ((uint32_t)n != r)
		return hlo_lower_fail(lw, -EINVAL,
				      "broadcast_dimensions has %d items for an operand of rank %u",
				      n, r);
	for (k = 0; k < r; k++) {
		if (dims[k] < 0 || dims[k] >= t->rank)
			return hlo_lower_fail(lw, -EINVAL,
					      "broadcast_dimensions[%u] = %lld is not a result dimension",
					      k, (long long)dims[k]);
		for (j = 0; j < k; j++)
			if (dims[j] == dims[k])
				return hlo_lower_fail(lw, -EINVAL,
						      "broadcast_dimensions repeats %lld",
						      (long long)dims[k]);
		if (x->type->dims[k] != 1 && x->type->dims[k] != t->dims[dims[k]])
			return hlo_lower_fail(lw, -EINVAL,
					      "operand dimension %u of %lld cannot broadcast to %lld",
					      k, (long long)x->type->dims[k],
					      (long long)t->dims[dims[k]]);
		if (k && dims[k] < dims[k - 1])
			sorted = false;
	}
	v = x->v;
	if (!sorted) {
		/*
		 * Operand dimension k goes rank_of[k]-th among the result's;
		 * the device's transpose takes, per place, where from.
		 */
		for (k = 0; k < r; k++) {
			rank_of[k] = 0;
			for (j = 0; j < r; j++)
				rank_of[k] += dims[j] < dims[k];
		}
		for (k = 0; k < r; k++)
			order[rank_of[k]] = k;
		v = pw_fn_transpose(lw->b, v, order);
		if (v < 0)
			return hlo_lower_builder_fail(lw, v);
	}
	/* Same rank: dims is a permutation, the transpose did it all. */
	if (t->rank != r) {
		for (k = 0; k < t->rank; k++)
			shape[k] = 1;
		for (k = 0; k < r; k++)
			shape[dims[k]] = (uint32_t)x->type->dims[k];
		v = pw_fn_reshape(lw->b, v, t->rank, shape);
		if (v < 0)
			return hlo_lower_builder_fail(lw, v);
	}
	hlo_shape(t, shape);
	if (hlo_elems(t) != hlo_elems(x->type))
		v = pw_fn_broadcast(lw->b, v, t->rank, shape);
	return hlo_bind_result(lw, sc, 0, v);
}

/* broadcast: new leading dimensions, the operand's as they are. */
int hlo_lower_broadcast(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	uint32_t shape[PW_MAX_RANK], k, lead;
	const struct pw_hlo_type *t;
	const struct hlo_val *x;

	(void)arg;
	x = one_in_one_out(lw, sc, &t);
	if (!x)
		return lw->err;
	if (t->rank < x->type->rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "the result has a lower rank than the operand");
	lead = t->rank - x->type->rank;
	for (k = 0; k < x->type->rank; k++)
		if (t->dims[lead + k] != x->type->dims[k])
			return hlo_lower_fail(lw, -EINVAL,
					      "the result does not end in the operand's shape");
	if (!lead)
		return hlo_bind_result(lw, sc, 0, x->v);
	hlo_shape(t, shape);
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_broadcast(lw->b, x->v, t->rank, shape));
}

int hlo_lower_reshape(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	uint32_t shape[PW_MAX_RANK];
	const struct pw_hlo_type *t;
	const struct hlo_val *x;

	(void)arg;
	x = one_in_one_out(lw, sc, &t);
	if (!x)
		return lw->err;
	if (hlo_elems(t) != hlo_elems(x->type))
		return hlo_lower_fail(lw, -EINVAL,
				      "operand and result differ in element count");
	if (hlo_same_shape(t, x->type))
		return hlo_bind_result(lw, sc, 0, x->v);
	hlo_shape(t, shape);
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_reshape(lw->b, x->v, t->rank, shape));
}

int hlo_lower_transpose(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	uint32_t perm[PW_MAX_RANK], k, seen = 0;
	int64_t p[PW_MAX_RANK];
	const struct pw_hlo_type *t;
	const struct hlo_val *x;
	bool identity = true;
	int n;

	(void)arg;
	x = one_in_one_out(lw, sc, &t);
	if (!x)
		return lw->err;
	n = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "permutation"),
			 "permutation", p, PW_MAX_RANK);
	if (n < 0)
		return lw->err;
	if ((uint32_t)n != x->type->rank || t->rank != x->type->rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "permutation has %d items for rank %u",
				      n, x->type->rank);
	for (k = 0; k < (uint32_t)n; k++) {
		if (p[k] < 0 || p[k] >= n || (seen >> p[k] & 1))
			return hlo_lower_fail(lw, -EINVAL,
					      "permutation is not one of 0..%d",
					      n - 1);
		seen |= 1u << p[k];
		perm[k] = (uint32_t)p[k];
		identity &= perm[k] == k;
		if (t->dims[k] != x->type->dims[p[k]])
			return hlo_lower_fail(lw, -EINVAL,
					      "result dimension %u is not operand dimension %lld",
					      k, (long long)p[k]);
	}
	if (identity)
		return hlo_bind_result(lw, sc, 0, x->v);
	return hlo_bind_result(lw, sc, 0, pw_fn_transpose(lw->b, x->v, perm));
}

int hlo_lower_slice(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	int64_t start[PW_MAX_RANK], limit[PW_MAX_RANK], stride[PW_MAX_RANK];
	uint32_t ustart[PW_MAX_RANK], shape[PW_MAX_RANK], k, r;
	const struct pw_hlo_type *t;
	const struct hlo_val *x;
	bool strided = false;
	int ns, nl, nt;

	(void)arg;
	x = one_in_one_out(lw, sc, &t);
	if (!x)
		return lw->err;
	r = x->type->rank;
	ns = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "start_indices"),
			  "start_indices", start, PW_MAX_RANK);
	nl = ns < 0 ? ns : hlo_int_list(lw, pw_hlo_op_attr(lw->op,
							   "limit_indices"),
					"limit_indices", limit, PW_MAX_RANK);
	nt = nl < 0 ? nl : hlo_int_list(lw, pw_hlo_op_attr(lw->op, "strides"),
					"strides", stride, PW_MAX_RANK);
	if (nt < 0)
		return lw->err;
	if ((uint32_t)ns != r || (uint32_t)nl != r || (uint32_t)nt != r ||
	    t->rank != r)
		return hlo_lower_fail(lw, -EINVAL,
				      "start, limit and strides must have one item per dimension");
	for (k = 0; k < r; k++) {
		if (start[k] < 0 || limit[k] < start[k] ||
		    limit[k] > x->type->dims[k] || stride[k] < 1)
			return hlo_lower_fail(lw, -EINVAL,
					      "dimension %u: [%lld:%lld:%lld] is not inside 0..%lld",
					      k, (long long)start[k],
					      (long long)limit[k],
					      (long long)stride[k],
					      (long long)x->type->dims[k]);
		if (t->dims[k] != (limit[k] - start[k] + stride[k] - 1) /
				  stride[k])
			return hlo_lower_fail(lw, -EINVAL,
					      "result dimension %u is not (limit - start) / stride",
					      k);
		ustart[k] = (uint32_t)start[k];
		strided |= stride[k] != 1;
	}
	if (hlo_same_shape(t, x->type))
		return hlo_bind_result(lw, sc, 0, x->v);
	hlo_shape(t, shape);
	if (strided)
		return hlo_bind_result(lw, sc, 0,
				       hlo_pick(lw, x->v, r, shape, start,
						stride));
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_slice(lw->b, x->v, ustart, shape));
}

/* Results are the operands (optimization_barrier: nothing to order here). */
int hlo_lower_identity(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *x;
	unsigned int i;

	(void)arg;
	if (lw->op->noperands != lw->op->nresults)
		return hlo_lower_fail(lw, -EINVAL,
				      "has %u operands and %u results",
				      lw->op->noperands, lw->op->nresults);
	for (i = 0; i < lw->op->noperands; i++) {
		x = hlo_operand(lw, sc, i);
		if (!x || hlo_bind_result(lw, sc, i, x->v))
			return lw->err;
	}
	return 0;
}
