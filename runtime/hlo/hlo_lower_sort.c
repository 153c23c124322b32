// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_sort.c - StableHLO's sort of one or more operands along one
 * dimension, with any comparator, and chlo.top_k.
 *
 * Sorting by ranks, all in a few wide instructions instead of a network
 * of compare-exchange steps: over a tensor that pairs every element i of
 * the sorted dimension with every element j, the comparator (applied
 * element-wise, hlo_apply_body) says whether j goes before i; element i's
 * place is the number of j that do, counting equal elements (neither goes
 * before the other) only when j < i. That is a stable sort, which is one
 * of the orders an unstable sort may give. Every operand is then
 * scattered to its places, the other dimensions as batching dimensions.
 * The places are a permutation when the comparator is a strict weak
 * order, as StableHLO requires of it (TOTALORDER compares are; a FLOAT
 * LT over data with NaN is not, and then places collide and the result
 * is not a permutation of the operand).
 *
 * The pairs take one dimension more than the operands: operands of rank
 * PW_MAX_RANK are refused, and so are n * n * (the other dimensions)
 * elements beyond the device's tensors.
 *
 * chlo.top_k is the same with its own order (larger first, floats by
 * IEEE totalOrder, equal ones by index), keeping the first k places: a
 * rank of k or more is out of the result's bounds, and SCATTER skips it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_lower_impl.h"

#define HLO_MAX_SORT	8	/* operands sorted together */

/* @x of @shape (@rank) with an extent of 1 put in before dimension @at. */
static pw_val insert_unit(struct hlo_lower *lw, pw_val x, uint32_t rank,
			  const uint32_t *shape, uint32_t at)
{
	uint32_t s[PW_MAX_RANK], k;

	for (k = 0; k <= rank; k++)
		s[k] = k < at ? shape[k] : k == at ? 1 : shape[k - 1];
	return pw_fn_reshape(lw->b, x, rank + 1, s);
}

/* i8 [1.., n, n, 1..] at dimensions @d, @d + 1: 1 where j < i. */
static pw_val earlier(struct hlo_lower *lw, uint32_t rank, uint32_t d,
		      uint32_t n, const uint32_t *pairs)
{
	uint32_t s[PW_MAX_RANK], k, i, j;
	uint8_t *mask;
	pw_val v;

	for (k = 0; k < rank; k++)
		s[k] = k == d || k == d + 1 ? n : 1;
	mask = malloc((size_t)n * n);
	if (!mask)
		return hlo_lower_fail(lw, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			mask[i * n + j] = j < i;
	v = pw_fn_const(lw->b, PWTPU_DT_I8, rank, s, mask);
	free(mask);
	return pw_fn_broadcast(lw->b, v, rank, pairs);
}

/*
 * @x (of @rank) set at index @ranks along @d of a zero tensor of @shape,
 * the other dimensions batching; a rank past @shape[d] is skipped.
 */
static pw_val scatter_to(struct hlo_lower *lw, pw_val x, pw_val ranks,
			 enum pwtpu_dtype dt, uint32_t rank,
			 const uint32_t *shape, uint32_t d)
{
	struct pw_fn_scatter_dims sd = { 0 };
	uint32_t k;

	for (k = 0; k < rank; k++)
		if (k != d) {
			sd.input_batching_dims[sd.n_batching_dims] = k;
			sd.scatter_indices_batching_dims[sd.n_batching_dims++] =
				k;
		}
	sd.inserted_window_dims[0] = d;
	sd.n_inserted_window_dims = 1;
	sd.scatter_dims_to_operand_dims[0] = d;
	sd.n_scatter_dims_to_operand_dims = 1;
	sd.index_vector_dim = rank;
	return pw_fn_scatter(lw->b, PWTPU_SCATTER_SET,
			     pw_fn_broadcast(lw->b, pw_fn_scalar(lw->b, dt, 0),
					     rank, shape),
			     ranks, x, &sd);
}

/* Ranks along @d from the i1 pairs "j goes before i" (@before). */
static pw_val ranks_of(struct hlo_lower *lw, pw_val before, uint32_t d)
{
	return pw_fn_reduce(lw->b, PWTPU_REDUCE_SUM,
			    pw_fn_convert(lw->b, before, PWTPU_DT_I32),
			    1u << (d + 1));
}

int hlo_lower_sort(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_attr *a = pw_hlo_op_attr(lw->op, "dimension");
	const struct hlo_val *x[HLO_MAX_SORT];
	pw_val xi[HLO_MAX_SORT], xj[HLO_MAX_SORT], args[2 * HLO_MAX_SORT];
	uint32_t shape[PW_MAX_RANK], pairs[PW_MAX_RANK], k, d, n, r;
	const enum pw_hlo_dtype want = PW_HLO_DT_I1;
	unsigned int i, m = lw->op->noperands;
	pw_val before, after, ranks;
	uint64_t elems;
	int64_t dim;

	(void)arg;
	if (!m || m > HLO_MAX_SORT || lw->op->nresults != m)
		return hlo_lower_fail(lw, m > HLO_MAX_SORT ? -EOPNOTSUPP :
				      -EINVAL,
				      "sorts %u operands into %u results: 1 to %d are supported",
				      m, lw->op->nresults, HLO_MAX_SORT);
	for (i = 0; i < m; i++) {
		x[i] = hlo_operand(lw, sc, i);
		if (!x[i] || hlo_check_type(lw, x[i]->type))
			return lw->err;
		if (!hlo_same_shape(x[i]->type, x[0]->type) ||
		    lw->op->result_types[i]->dtype != x[i]->type->dtype ||
		    !hlo_same_shape(lw->op->result_types[i], x[i]->type))
			return hlo_lower_fail(lw, -EINVAL,
					      "operand %u differs from operand 0 or from its result in shape or type",
					      i);
	}
	r = x[0]->type->rank;
	if (!a || a->kind != PW_HLO_ATTR_INT)
		return hlo_lower_fail(lw, -EINVAL, "no dimension");
	dim = a->neg ? (int64_t)r - (int64_t)a->u : (int64_t)a->u;
	if (!r || dim < 0 || dim >= r)
		return hlo_lower_fail(lw, -EINVAL,
				      "dimension is not a dimension of the operands");
	d = (uint32_t)dim;
	hlo_shape(x[0]->type, shape);
	n = shape[d];
	if (n == 1) {
		for (i = 0; i < m; i++)
			if (hlo_bind_result(lw, sc, i, x[i]->v))
				break;
		return lw->err;
	}
	if (r == PW_MAX_RANK)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "sorting a tensor of rank %d is not supported yet",
				      PW_MAX_RANK);
	elems = hlo_elems(x[0]->type) * n;
	if (elems > PWTPU_MAX_ELEMS)
		return hlo_lower_fail(lw, -E2BIG,
				      "sorting %u elements along a dimension of %llu needs %llu pairs",
				      n, (unsigned long long)hlo_elems(x[0]->type),
				      (unsigned long long)elems);
	/* pairs: dimension d is i, d + 1 is j. */
	for (k = 0; k <= r; k++)
		pairs[k] = k <= d ? shape[k] : k == d + 1 ? n : shape[k - 1];
	for (i = 0; i < m; i++) {
		xi[i] = pw_fn_broadcast(lw->b, insert_unit(lw, x[i]->v, r,
							   shape, d + 1),
					r + 1, pairs);
		xj[i] = pw_fn_broadcast(lw->b, insert_unit(lw, x[i]->v, r,
							   shape, d),
					r + 1, pairs);
	}
	/* The comparator takes (lhs, rhs) of each operand in turn. */
	for (i = 0; i < m; i++) {
		args[2 * i] = xj[i];
		args[2 * i + 1] = xi[i];
	}
	if (hlo_apply_body(lw, sc, args, 2 * m, 1, &want, r + 1, pairs,
			   &before))
		return lw->err;
	for (i = 0; i < m; i++) {
		args[2 * i] = xi[i];
		args[2 * i + 1] = xj[i];
	}
	if (hlo_apply_body(lw, sc, args, 2 * m, 1, &want, r + 1, pairs,
			   &after))
		return lw->err;
	/* j goes before i, or they are equal and j < i. */
	after = pw_fn_compare(lw->b, PWTPU_CMP_EQ, after,
			      pw_fn_scalar(lw->b, PWTPU_DT_I8, 0));
	before = pw_fn_binary(lw->b, PWTPU_OP_MAX, before,
			      pw_fn_binary(lw->b, PWTPU_OP_MIN, after,
					   earlier(lw, r + 1, d, n, pairs)));
	ranks = ranks_of(lw, before, d);
	for (i = 0; i < m; i++)
		if (hlo_bind_result(lw, sc, i,
				    scatter_to(lw, x[i]->v, ranks,
					       pw_hlo_device_dtype(x[i]->type->dtype),
					       r, shape, d)))
			break;
	return lw->err;
}

int hlo_lower_top_k(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_attr *ka = pw_hlo_op_attr(lw->op, "k");
	uint32_t shape[PW_MAX_RANK], pairs[PW_MAX_RANK], out[PW_MAX_RANK];
	const struct pw_hlo_type *tv, *ti;
	pw_val key, ki, kj, before, ranks;
	const struct hlo_val *x;
	uint32_t k, d, n, r, i;
	int32_t *iota;
	uint64_t e;

	(void)arg;
	if (lw->op->noperands != 1 || lw->op->nresults != 2)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs one operand and two results");
	x = hlo_operand(lw, sc, 0);
	if (!x || hlo_check_type(lw, x->type))
		return lw->err;
	tv = lw->op->result_types[0];
	ti = lw->op->result_types[1];
	if (hlo_check_type(lw, tv) || hlo_check_type(lw, ti))
		return lw->err;
	r = x->type->rank;
	if (!ka || ka->kind != PW_HLO_ATTR_INT || ka->neg || !r)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs k and an operand of rank 1 or more");
	d = r - 1;
	hlo_shape(x->type, shape);
	n = shape[d];
	if (ka->u > n)
		return hlo_lower_fail(lw, -EINVAL, "k = %llu is more than %u",
				      (unsigned long long)ka->u, n);
	k = (uint32_t)ka->u;
	memcpy(out, shape, sizeof(out));
	out[d] = k;
	for (i = 0; i < r; i++)
		if (tv->rank != r || ti->rank != r || tv->dims[i] != out[i] ||
		    ti->dims[i] != out[i])
			break;
	if (i < r || tv->dtype != x->type->dtype || ti->dtype != PW_HLO_DT_I32)
		return hlo_lower_fail(lw, -EINVAL,
				      "results are not the operand's type and i32 with k along the last dimension");
	if (r == PW_MAX_RANK)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "top_k of a tensor of rank %d is not supported yet",
				      PW_MAX_RANK);
	e = hlo_elems(x->type);
	if (e * n > PWTPU_MAX_ELEMS)
		return hlo_lower_fail(lw, -E2BIG, "%llu pairs",
				      (unsigned long long)(e * n));
	for (i = 0; i <= r; i++)
		pairs[i] = i <= d ? shape[i] : n;
	key = hlo_is_float(x->type->dtype) ?
	      hlo_total_order_key(lw, x->v, x->type->dtype) : x->v;
	ki = pw_fn_broadcast(lw->b, insert_unit(lw, key, r, shape, d + 1),
			     r + 1, pairs);
	kj = pw_fn_broadcast(lw->b, insert_unit(lw, key, r, shape, d), r + 1,
			     pairs);
	/* j goes first: larger, or equal and earlier. */
	before = pw_fn_binary(lw->b, PWTPU_OP_MAX,
			      pw_fn_compare(lw->b, PWTPU_CMP_GT, kj, ki),
			      pw_fn_binary(lw->b, PWTPU_OP_MIN,
					   pw_fn_compare(lw->b, PWTPU_CMP_EQ,
							 kj, ki),
					   earlier(lw, r + 1, d, n, pairs)));
	ranks = ranks_of(lw, before, d);
	iota = malloc(e * sizeof(*iota));
	if (!iota)
		return hlo_lower_fail(lw, -ENOMEM, "out of memory");
	for (i = 0; i < e; i++)
		iota[i] = (int32_t)(i % n);
	if (hlo_bind_result(lw, sc, 0,
			    scatter_to(lw, x->v, ranks,
				       pw_hlo_device_dtype(x->type->dtype), r,
				       out, d)) ||
	    hlo_bind_result(lw, sc, 1,
			    scatter_to(lw, pw_fn_const(lw->b, PWTPU_DT_I32, r,
						       shape, iota),
				       ranks, PWTPU_DT_I32, r, out, d))) {
		free(iota);
		return lw->err;
	}
	free(iota);
	return 0;
}
