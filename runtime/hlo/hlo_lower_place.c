// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_place.c - StableHLO's ops that put elements at computed
 * places: concatenate, pad, reverse, dynamic_slice, dynamic_update_slice
 * and strided slices. Each is one or a few of the device's SCATTER (set
 * elements of a tensor) and GATHER (read them), with the places as an
 * index tensor: a constant when the op's attributes fix them, computed on
 * the device when they are operands.
 *
 * A dimension whose elements move together is a window of the scatter or
 * gather (one index for all of it); one whose elements go to places a
 * stride apart (pad's interior, reverse, a strided slice) is indexed
 * element by element, so the index tensor holds one vector per element of
 * those dimensions only.
 */
#include <errno.h>
#include <stdlib.h>

#include "../fn/fn.h"
#include "hlo_lower_impl.h"

/* The device's tensors have up to PW_MAX_RANK dimensions, indices too. */
#define MAX_STRIDED	(PW_MAX_RANK - 1)

/*
 * An i32 index tensor [x[k] for k in @strided..., @rank]: for each
 * element j of the strided dimensions, the vector off[k] + step[k] * j[k]
 * (off[k] alone for the other dimensions).
 */
static pw_val place_indices(struct hlo_lower *lw, uint32_t rank,
			    const uint32_t *extent, uint32_t strided,
			    const int64_t *off, const int64_t *step)
{
	uint32_t shape[PW_MAX_RANK], dims[PW_MAX_RANK], j[PW_MAX_RANK];
	uint32_t n = 0, k, d;
	uint64_t count = 1, i;
	int32_t *data, *p;
	pw_val v;

	for (k = 0; k < rank; k++)
		if (strided >> k & 1) {
			dims[n] = k;
			shape[n++] = extent[k];
			count *= extent[k];
		}
	shape[n] = rank;
	data = malloc(count * rank * sizeof(*data));
	if (!data)
		return hlo_lower_fail(lw, -ENOMEM, "out of memory");
	for (d = 0; d < n; d++)
		j[d] = 0;
	for (i = 0, p = data; i < count; i++) {
		for (k = 0, d = 0; k < rank; k++) {
			int64_t at = off[k];

			if (d < n && dims[d] == k)
				at += step[k] * j[d++];
			*p++ = (int32_t)at;
		}
		/* The next element, row major over the strided dimensions. */
		for (d = n; d-- > 0;) {
			if (++j[d] < shape[d])
				break;
			j[d] = 0;
		}
	}
	v = pw_fn_const(lw->b, PWTPU_DT_I32, n + 1, shape, data);
	free(data);
	return v;
}

/*
 * @base with @x (of @rank, its element j per index vector @idx) set in:
 * the dimensions in @strided element by element, the others as windows.
 */
static pw_val set_at(struct hlo_lower *lw, pw_val base, pw_val x,
		     uint32_t rank, pw_val idx, uint32_t strided)
{
	struct pw_fn_scatter_dims d = { 0 };
	uint32_t k;

	for (k = 0; k < rank; k++) {
		if (strided >> k & 1)
			d.inserted_window_dims[d.n_inserted_window_dims++] = k;
		else
			d.update_window_dims[d.n_update_window_dims++] = k;
		d.scatter_dims_to_operand_dims[k] = k;
	}
	d.n_scatter_dims_to_operand_dims = rank;
	d.index_vector_dim = d.n_inserted_window_dims;
	if (idx < 0)
		return idx;
	return pw_fn_scatter(lw->b, PWTPU_SCATTER_SET, base, idx, x, &d);
}

/*
 * The elements of @x (of @rank) at the index vectors @idx, a result of
 * @shape: the dimensions in @strided element by element, the others as
 * windows of the result's extent.
 */
static pw_val get_at(struct hlo_lower *lw, pw_val x, uint32_t rank,
		     pw_val idx, uint32_t strided, const uint32_t *shape)
{
	struct pw_fn_gather_dims d = { 0 };
	uint32_t k;

	for (k = 0; k < rank; k++) {
		if (strided >> k & 1) {
			d.collapsed_slice_dims[d.n_collapsed_slice_dims++] = k;
			d.slice_sizes[k] = 1;
		} else {
			d.offset_dims[d.n_offset_dims++] = k;
			d.slice_sizes[k] = shape[k];
		}
		d.start_index_map[k] = k;
	}
	d.n_start_index_map = rank;
	d.index_vector_dim = d.n_collapsed_slice_dims;
	if (idx < 0)
		return idx;
	return pw_fn_gather(lw->b, x, idx, &d);
}

/* The dimensions whose step is not 1, or -EOPNOTSUPP when too many. */
static int strided_dims(struct hlo_lower *lw, uint32_t rank,
			const int64_t *step)
{
	uint32_t k, mask = 0, n = 0;

	for (k = 0; k < rank; k++)
		if (step[k] != 1) {
			mask |= 1u << k;
			n++;
		}
	if (n > MAX_STRIDED)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "strides or reversal in all %u dimensions are not supported yet",
				      n);
	return (int)mask;
}

/* @base with element j of @x (of @xshape) at off + step * j. */
static pw_val place(struct hlo_lower *lw, pw_val base, pw_val x,
		    uint32_t rank, const uint32_t *xshape, const int64_t *off,
		    const int64_t *step)
{
	int strided = strided_dims(lw, rank, step);

	if (strided < 0)
		return strided;
	return set_at(lw, base, x, rank,
		      place_indices(lw, rank, xshape, (uint32_t)strided, off,
				    step),
		      (uint32_t)strided);
}

pw_val hlo_pick(struct hlo_lower *lw, pw_val x, uint32_t rank,
		const uint32_t *shape, const int64_t *off, const int64_t *step)
{
	int strided = strided_dims(lw, rank, step);

	if (strided < 0)
		return strided;
	if (!strided) {
		uint32_t start[PW_MAX_RANK], k;

		for (k = 0; k < rank; k++)
			start[k] = (uint32_t)off[k];
		return pw_fn_slice(lw->b, x, start, shape);
	}
	return get_at(lw, x, rank,
		      place_indices(lw, rank, shape, (uint32_t)strided, off,
				    step),
		      (uint32_t)strided, shape);
}

/* A tensor of @shape filled with the rank-0 value @fill. */
static pw_val filled(struct hlo_lower *lw, uint32_t rank,
		     const uint32_t *shape, pw_val fill)
{
	if (fill < 0 || !rank)
		return fill;
	return pw_fn_broadcast(lw->b, fill, rank, shape);
}

pw_val hlo_zeros(struct hlo_lower *lw, enum pwtpu_dtype dt, uint32_t rank,
		 const uint32_t *shape)
{
	return filled(lw, rank, shape, pw_fn_scalar(lw->b, dt, 0));
}

pw_val hlo_put(struct hlo_lower *lw, pw_val base, pw_val x, uint32_t rank,
	       const uint32_t *xshape, const int64_t *off)
{
	int64_t step[PW_MAX_RANK];
	uint32_t k;

	if (base < 0 || x < 0)
		return base < 0 ? base : x;
	for (k = 0; k < rank; k++)
		step[k] = 1;
	return place(lw, base, x, rank, xshape, off, step);
}

pw_val hlo_join(struct hlo_lower *lw, pw_val a, pw_val b, uint32_t rank,
		const uint32_t *ashape, const uint32_t *bshape, uint32_t dim)
{
	int64_t off[PW_MAX_RANK] = { 0 };
	uint32_t shape[PW_MAX_RANK], k;
	struct pw_sig sig;
	pw_val v;

	if (a < 0 || b < 0)
		return a < 0 ? a : b;
	if (pw_fn_builder_sig(lw->b, a, &sig))
		return hlo_lower_fail(lw, -EINVAL, "no value was made");
	for (k = 0; k < rank; k++)
		shape[k] = ashape[k];
	shape[dim] = ashape[dim] + bshape[dim];
	v = hlo_put(lw, hlo_zeros(lw, sig.dtype, rank, shape), a, rank, ashape,
		    off);
	off[dim] = ashape[dim];
	return hlo_put(lw, v, b, rank, bshape, off);
}

/* The op's one result type, checked, and that of its first operand. */
static const struct pw_hlo_type *result_type(struct hlo_lower *lw,
					     const struct hlo_val *x)
{
	const struct pw_hlo_type *t = lw->op->result_types[0];

	if (hlo_check_type(lw, t))
		return NULL;
	if (t->dtype != x->type->dtype || t->rank != x->type->rank) {
		hlo_lower_fail(lw, -EINVAL,
			       "operand and result differ in element type or rank");
		return NULL;
	}
	return t;
}

/* concatenate: each operand set at its offset along `dimension`. */
int hlo_lower_concatenate(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_attr *a = pw_hlo_op_attr(lw->op, "dimension");
	int64_t off[PW_MAX_RANK] = { 0 };
	uint32_t xshape[PW_MAX_RANK], k, i, dim;
	const struct pw_hlo_type *t;
	const struct hlo_val *x;
	pw_val v;

	(void)arg;
	if (lw->op->nresults != 1 || !lw->op->noperands)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs operands and one result");
	x = hlo_operand(lw, sc, 0);
	t = x ? result_type(lw, x) : NULL;
	if (!t)
		return lw->err;
	if (!a || a->kind != PW_HLO_ATTR_INT || a->neg || a->u >= t->rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "dimension is not a dimension of the result");
	dim = (uint32_t)a->u;
	if (lw->op->noperands == 1)
		return hlo_bind_result(lw, sc, 0, x->v);
	hlo_shape(t, xshape);
	v = hlo_zeros(lw, pw_hlo_device_dtype(t->dtype), t->rank, xshape);
	for (i = 0; i < lw->op->noperands && v >= 0; i++) {
		x = hlo_operand(lw, sc, i);
		if (!x || hlo_check_type(lw, x->type))
			return lw->err;
		if (x->type->dtype != t->dtype || x->type->rank != t->rank)
			return hlo_lower_fail(lw, -EINVAL,
					      "operand %u differs from the result in element type or rank",
					      i);
		for (k = 0; k < t->rank; k++)
			if (k != dim && x->type->dims[k] != t->dims[k])
				return hlo_lower_fail(lw, -EINVAL,
						      "operand %u differs from the result in dimension %u",
						      i, k);
		if (off[dim] + x->type->dims[dim] > t->dims[dim])
			return hlo_lower_fail(lw, -EINVAL,
					      "the operands are longer than the result in dimension %u",
					      dim);
		hlo_shape(x->type, xshape);
		v = hlo_put(lw, v, x->v, t->rank, xshape, off);
		off[dim] += x->type->dims[dim];
	}
	if (v >= 0 && off[dim] != t->dims[dim])
		return hlo_lower_fail(lw, -EINVAL,
				      "the operands are shorter than the result in dimension %u",
				      dim);
	return hlo_bind_result(lw, sc, 0, v);
}

/* One dimension of pad: what of the operand lands in the result, where. */
struct pad_dim {
	int64_t first, count;	/* operand elements kept */
	int64_t at;		/* where the first one goes */
};

static int pad_dim(struct hlo_lower *lw, uint32_t k, int64_t n, int64_t lo,
		   int64_t hi, int64_t in, int64_t r, struct pad_dim *pd)
{
	int64_t step, last;

	/* Bounded first, so that nothing below can overflow. */
	if (in < 0 || in > PWTPU_MAX_ELEMS || lo < -(int64_t)PWTPU_MAX_ELEMS ||
	    lo > PWTPU_MAX_ELEMS || hi < -(int64_t)PWTPU_MAX_ELEMS ||
	    hi > PWTPU_MAX_ELEMS)
		return hlo_lower_fail(lw, -EINVAL,
				      "dimension %u: padding %lld, %lld, interior %lld is negative or past the device's %u elements",
				      k, (long long)lo, (long long)hi,
				      (long long)in, PWTPU_MAX_ELEMS);
	step = in + 1;
	if (lo + hi + n + (n - 1) * in != r)
		return hlo_lower_fail(lw, -EINVAL,
				      "result dimension %u is not low + high + size + interior",
				      k);
	/* Negative edges cut elements; keep those from 0 to r - 1. */
	pd->first = lo >= 0 ? 0 : (-lo + step - 1) / step;
	last = (r - 1 - lo) / step;
	if (r - 1 - lo < 0)
		last = -1;
	if (last > n - 1)
		last = n - 1;
	pd->count = last >= pd->first ? last - pd->first + 1 : 0;
	pd->at = lo + pd->first * step;
	return 0;
}

pw_val hlo_pad(struct hlo_lower *lw, pw_val x, uint32_t rank,
	       const uint32_t *xshape, pw_val fill, const int64_t *lo,
	       const int64_t *hi, const int64_t *in, const uint32_t *shape)
{
	uint32_t start[PW_MAX_RANK], part_shape[PW_MAX_RANK], k;
	int64_t off[PW_MAX_RANK], step[PW_MAX_RANK];
	bool empty = false, whole = true;
	struct pad_dim pd = { 0 };
	pw_val v, part;

	for (k = 0; k < rank; k++) {
		if (pad_dim(lw, k, xshape[k], lo[k], hi[k], in[k], shape[k],
			    &pd))
			return lw->err;
		empty |= !pd.count;
		whole &= pd.count == xshape[k];
		start[k] = (uint32_t)pd.first;
		part_shape[k] = (uint32_t)pd.count;
		off[k] = pd.at;
		step[k] = in[k] + 1;
	}
	if (!rank)
		return x;
	v = filled(lw, rank, shape, fill);
	if (empty || v < 0)
		return v;
	part = whole ? x : pw_fn_slice(lw->b, x, start, part_shape);
	return place(lw, v, part, rank, part_shape, off, step);
}

/* pad: the padding value everywhere, then the operand set in, strided. */
int hlo_lower_pad(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	int64_t lo[PW_MAX_RANK], hi[PW_MAX_RANK], in[PW_MAX_RANK];
	uint32_t xshape[PW_MAX_RANK], shape[PW_MAX_RANK], r;
	const struct hlo_val *x[2];
	const struct pw_hlo_type *t;
	int nl, nh, ni;

	(void)arg;
	if (hlo_operands(lw, sc, 2, x))
		return lw->err;
	t = result_type(lw, x[0]);
	if (!t)
		return lw->err;
	if (x[1]->type->rank || x[1]->type->dtype != t->dtype)
		return hlo_lower_fail(lw, -EINVAL,
				      "the padding value is not a scalar of the operand's type");
	r = t->rank;
	nl = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "edge_padding_low"),
			  "edge_padding_low", lo, PW_MAX_RANK);
	nh = nl < 0 ? nl : hlo_int_list(lw, pw_hlo_op_attr(lw->op,
							   "edge_padding_high"),
					"edge_padding_high", hi, PW_MAX_RANK);
	ni = nh < 0 ? nh : hlo_int_list(lw, pw_hlo_op_attr(lw->op,
							   "interior_padding"),
					"interior_padding", in, PW_MAX_RANK);
	if (ni < 0)
		return lw->err;
	if ((uint32_t)nl != r || (uint32_t)nh != r || (uint32_t)ni != r)
		return hlo_lower_fail(lw, -EINVAL,
				      "low, high and interior must have one item per dimension");
	hlo_shape(x[0]->type, xshape);
	hlo_shape(t, shape);
	return hlo_bind_result(lw, sc, 0,
			       hlo_pad(lw, x[0]->v, r, xshape, x[1]->v, lo, hi,
				       in, shape));
}

/* reverse: element j of a reversed dimension of n is element n - 1 - j. */
int hlo_lower_reverse(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	int64_t dims[PW_MAX_RANK], off[PW_MAX_RANK] = { 0 }, step[PW_MAX_RANK];
	uint32_t shape[PW_MAX_RANK], k, seen = 0;
	const struct pw_hlo_type *t;
	const struct hlo_val *x;
	int n, i;

	(void)arg;
	if (hlo_operands(lw, sc, 1, &x))
		return lw->err;
	t = result_type(lw, x);
	if (!t)
		return lw->err;
	n = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "dimensions"),
			 "dimensions", dims, PW_MAX_RANK);
	if (n < 0)
		return lw->err;
	for (k = 0; k < t->rank; k++)
		step[k] = 1;
	for (i = 0; i < n; i++) {
		if (dims[i] < 0 || dims[i] >= t->rank || (seen >> dims[i] & 1))
			return hlo_lower_fail(lw, -EINVAL,
					      "dimensions[%d] = %lld is not a dimension, or repeats",
					      i, (long long)dims[i]);
		seen |= 1u << dims[i];
		/* Reversing an extent of 1 moves nothing. */
		if (t->dims[dims[i]] == 1)
			continue;
		off[dims[i]] = t->dims[dims[i]] - 1;
		step[dims[i]] = -1;
	}
	if (!hlo_same_shape(t, x->type))
		return hlo_lower_fail(lw, -EINVAL,
				      "operand and result differ in shape");
	for (k = 0; k < t->rank && step[k] == 1; k++)
		;
	if (k == t->rank)
		return hlo_bind_result(lw, sc, 0, x->v);
	hlo_shape(t, shape);
	return hlo_bind_result(lw, sc, 0,
			       hlo_pick(lw, x->v, t->rank, shape, off, step));
}

/*
 * The start indices of dynamic_slice and dynamic_update_slice, operands
 * @first.. (rank-0 integers), as one i32 vector [@rank] computed on the
 * device, each clamped to 0..@limit[k] as the spec says.
 */
static pw_val dynamic_starts(struct hlo_lower *lw, struct hlo_scope *sc,
			     unsigned int first, uint32_t rank,
			     const int64_t *limit)
{
	uint32_t one = 1, vshape[1] = { rank };
	const struct hlo_val *s;
	enum pwtpu_dtype dt;
	int32_t unit[PW_MAX_RANK];
	pw_val idx = -1, v, e;
	uint32_t k, j;

	if (lw->op->noperands != first + rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "has %u start indices for rank %u",
				      lw->op->noperands - first, rank);
	for (k = 0; k < rank; k++) {
		s = hlo_operand(lw, sc, first + k);
		if (!s)
			return lw->err;
		if (s->type->rank || hlo_is_float(s->type->dtype) ||
		    s->type->dtype == PW_HLO_DT_I1)
			return hlo_lower_fail(lw, -EINVAL,
					      "start index %u is not an integer scalar",
					      k);
		dt = pw_hlo_device_dtype(s->type->dtype);
		v = s->v;
		if (!hlo_is_unsigned(s->type->dtype))
			v = pw_fn_binary(lw->b, PWTPU_OP_MAX, v,
					 pw_fn_scalar(lw->b, dt, 0));
		/* A limit above the dtype's range saturates: no clamp. */
		v = pw_fn_binary(lw->b, PWTPU_OP_MIN, v,
				 pw_fn_scalar(lw->b, dt, (double)limit[k]));
		if (dt != PWTPU_DT_I32)
			v = pw_fn_convert(lw->b, v, PWTPU_DT_I32);
		if (rank == 1)
			return pw_fn_reshape(lw->b, v, 1, &one);
		/* Start k into place k of the vector: times a unit vector. */
		for (j = 0; j < rank; j++)
			unit[j] = j == k;
		e = pw_fn_binary(lw->b, PWTPU_OP_MUL,
				 pw_fn_const(lw->b, PWTPU_DT_I32, 1, vshape,
					     unit), v);
		idx = k ? pw_fn_binary(lw->b, PWTPU_OP_ADD, idx, e) : e;
	}
	return idx;
}

int hlo_lower_dynamic_slice(struct hlo_lower *lw, struct hlo_scope *sc,
			    int arg)
{
	int64_t sizes[PW_MAX_RANK], limit[PW_MAX_RANK];
	uint32_t shape[PW_MAX_RANK], k;
	const struct pw_hlo_type *t;
	const struct hlo_val *x;
	int n;

	(void)arg;
	if (lw->op->nresults != 1 || !lw->op->noperands)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs operands and one result");
	x = hlo_operand(lw, sc, 0);
	t = x ? result_type(lw, x) : NULL;
	if (!t || hlo_check_type(lw, x->type))
		return lw->err;
	n = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "slice_sizes"),
			 "slice_sizes", sizes, PW_MAX_RANK);
	if (n < 0)
		return lw->err;
	if ((uint32_t)n != t->rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "slice_sizes has %d items for rank %u",
				      n, t->rank);
	for (k = 0; k < t->rank; k++) {
		if (sizes[k] < 0 || sizes[k] > x->type->dims[k] ||
		    t->dims[k] != sizes[k])
			return hlo_lower_fail(lw, -EINVAL,
					      "slice_sizes[%u] = %lld does not fit the operand or the result",
					      k, (long long)sizes[k]);
		limit[k] = x->type->dims[k] - sizes[k];
	}
	if (!t->rank)
		return hlo_bind_result(lw, sc, 0, x->v);
	hlo_shape(t, shape);
	return hlo_bind_result(lw, sc, 0,
			       get_at(lw, x->v, t->rank,
				      dynamic_starts(lw, sc, 1, t->rank, limit),
				      0, shape));
}

int hlo_lower_dynamic_update_slice(struct hlo_lower *lw,
				   struct hlo_scope *sc, int arg)
{
	int64_t limit[PW_MAX_RANK];
	const struct hlo_val *x, *u;
	const struct pw_hlo_type *t;
	uint32_t k;

	(void)arg;
	if (lw->op->nresults != 1 || lw->op->noperands < 2)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs an operand, an update and one result");
	x = hlo_operand(lw, sc, 0);
	u = x ? hlo_operand(lw, sc, 1) : NULL;
	t = u ? result_type(lw, x) : NULL;
	if (!t || hlo_check_type(lw, u->type))
		return lw->err;
	if (!hlo_same_shape(t, x->type) || u->type->dtype != t->dtype ||
	    u->type->rank != t->rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "operand, update and result differ in type");
	for (k = 0; k < t->rank; k++) {
		if (u->type->dims[k] > t->dims[k])
			return hlo_lower_fail(lw, -EINVAL,
					      "the update is larger than the operand in dimension %u",
					      k);
		limit[k] = t->dims[k] - u->type->dims[k];
	}
	if (!t->rank)
		return hlo_bind_result(lw, sc, 0, u->v);
	return hlo_bind_result(lw, sc, 0,
			       set_at(lw, x->v, u->v, t->rank,
				      dynamic_starts(lw, sc, 2, t->rank, limit),
				      0));
}
