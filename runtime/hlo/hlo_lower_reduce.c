// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_reduce.c - StableHLO's contractions: reduce with a body of
 * one associative op, and dot_general / dot.
 *
 * reduce runs the device's REDUCE over the dimensions, then combines the
 * result with the init value by the body's op: exact when the init value
 * is the op's identity, as frameworks emit it (0 for add, -inf for max).
 * On i1, and and or are the device's MIN and MAX of 0 and 1.
 *
 * dot_general without batch dimensions and with one contracting
 * dimension is a matmul on the systolic array for f32 and bf16 (f32
 * accumulate) and for i8 into i32. Other types are a broadcast multiply
 * and a sum over the contracting dimension: f64 in f64, f16 in f32 (as
 * XLA accumulates it), integers in i32 or, for 64-bit ones, i64, exact as
 * the narrow types' wrapping arithmetic is.
 */
#include <errno.h>
#include <string.h>

#include "hlo_lower_impl.h"

static const enum pwtpu_reduce device_reduce[] = {
	[HLO_ADD] = PWTPU_REDUCE_SUM, [HLO_MAX] = PWTPU_REDUCE_MAX,
	[HLO_MIN] = PWTPU_REDUCE_MIN, [HLO_AND] = PWTPU_REDUCE_MIN,
	[HLO_OR] = PWTPU_REDUCE_MAX,
};

int hlo_lower_reduce(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *x, *init;
	const struct pw_hlo_type *t;
	int64_t dims[PW_MAX_RANK];
	enum hlo_binary op = HLO_ADD;
	uint32_t axes = 0;
	pw_val v;
	int n, k;

	(void)arg;
	if (lw->op->noperands != 2 || lw->op->nresults != 1)
		return hlo_lower_fail(lw, lw->op->noperands % 2 ? -EINVAL :
				      -EOPNOTSUPP,
				      "reduces %u operands together: only one is supported yet",
				      lw->op->noperands / 2);
	x = hlo_operand(lw, sc, 0);
	init = x ? hlo_operand(lw, sc, 1) : NULL;
	t = lw->op->result_types[0];
	if (!init || hlo_check_type(lw, x->type) || hlo_check_type(lw, t) ||
	    hlo_body_binary(lw, 1u << HLO_ADD | 1u << HLO_MAX | 1u << HLO_MIN |
			    1u << HLO_AND | 1u << HLO_OR,
			    "add, maximum, minimum, and or or", &op))
		return lw->err;
	if (init->type->rank || init->type->dtype != x->type->dtype ||
	    t->dtype != x->type->dtype)
		return hlo_lower_fail(lw, -EINVAL,
				      "init is not a scalar of the operand's type");
	if ((op == HLO_AND || op == HLO_OR) && x->type->dtype != PW_HLO_DT_I1)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "bitwise reductions of %s are not supported yet",
				      pw_hlo_dtype_name(x->type->dtype));
	n = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "dimensions"),
			 "dimensions", dims, PW_MAX_RANK);
	if (n < 0)
		return lw->err;
	for (k = 0; k < n; k++) {
		if (dims[k] < 0 || dims[k] >= x->type->rank ||
		    (axes >> dims[k] & 1))
			return hlo_lower_fail(lw, -EINVAL,
					      "dimensions[%d] = %lld is not a dimension of the operand, or repeats",
					      k, (long long)dims[k]);
		axes |= 1u << dims[k];
	}
	if (t->rank != x->type->rank - (uint32_t)n)
		return hlo_lower_fail(lw, -EINVAL,
				      "the result's rank is not the operand's less the dimensions");
	v = x->v;
	if (axes) {
		/* On i1 add is or: the MAX of 0s and 1s, never their sum. */
		v = pw_fn_reduce(lw->b, x->type->dtype == PW_HLO_DT_I1 &&
				 op == HLO_ADD ? PWTPU_REDUCE_MAX :
				 device_reduce[op], v, axes);
		if (v < 0)
			return hlo_lower_builder_fail(lw, v);
	}
	v = hlo_binary_op(lw, op, x->type->dtype, v, init->v);
	return lw->err ? lw->err : hlo_bind_result(lw, sc, 0, v);
}

/* Dimension numbers of a dot: from dot_general's struct, or dot's. */
struct dot_dims {
	int64_t lb[PW_MAX_RANK], rb[PW_MAX_RANK];
	int64_t lc[PW_MAX_RANK], rc[PW_MAX_RANK];
	int nlb, nrb, nlc, nrc;
};

static int dot_field(struct hlo_lower *lw, const struct pw_hlo_attr *dn,
		     const char *name, int64_t *out)
{
	const struct pw_hlo_attr *f = pw_hlo_attr_field(dn, name);

	return f ? hlo_int_list(lw, f, name, out, PW_MAX_RANK) : 0;
}

static int dot_dims(struct hlo_lower *lw, const struct hlo_val *x,
		    struct dot_dims *d)
{
	const struct pw_hlo_attr *dn;

	memset(d, 0, sizeof(*d));
	if (!strcmp(lw->op->name, "stablehlo.dot")) {
		d->nlc = d->nrc = 1;
		d->lc[0] = x->type->rank ? x->type->rank - 1 : 0;
		return 0;
	}
	dn = pw_hlo_op_attr(lw->op, "dot_dimension_numbers");
	if (!dn || dn->kind != PW_HLO_ATTR_STRUCT)
		return hlo_lower_fail(lw, -EINVAL, "no dot_dimension_numbers");
	d->nlb = dot_field(lw, dn, "lhs_batching_dimensions", d->lb);
	d->nrb = d->nlb < 0 ? -1 :
		 dot_field(lw, dn, "rhs_batching_dimensions", d->rb);
	d->nlc = d->nrb < 0 ? -1 :
		 dot_field(lw, dn, "lhs_contracting_dimensions", d->lc);
	d->nrc = d->nlc < 0 ? -1 :
		 dot_field(lw, dn, "rhs_contracting_dimensions", d->rc);
	return lw->err;
}

/* @x of rank 1 or 2 as a matrix with the contracting dimension @c at @at. */
static pw_val as_matrix(struct hlo_lower *lw, const struct hlo_val *x,
			int64_t c, unsigned int at)
{
	static const uint32_t swap[2] = { 1, 0 };
	uint32_t shape[2];

	if (x->type->rank == 1) {
		shape[at] = (uint32_t)x->type->dims[0];
		shape[1 - at] = 1;
		return pw_fn_reshape(lw->b, x->v, 2, shape);
	}
	return c == at ? x->v : pw_fn_transpose(lw->b, x->v, swap);
}

/*
 * a[M,K] x b[K,N] by the element-wise ops: a as [M,K,1] and b broadcast
 * to [M,K,N], multiplied in @work and summed over K.
 */
static pw_val mul_sum_matmul(struct hlo_lower *lw, pw_val a, pw_val b,
			     const uint32_t *mkn, enum pwtpu_dtype dt,
			     enum pwtpu_dtype work)
{
	uint32_t a3[3] = { mkn[0], mkn[1], 1 };
	pw_val p;

	if (dt != work) {
		a = pw_fn_convert(lw->b, a, work);
		b = pw_fn_convert(lw->b, b, work);
	}
	a = pw_fn_reshape(lw->b, a, 3, a3);
	a = pw_fn_broadcast(lw->b, a, 3, mkn);
	b = pw_fn_broadcast(lw->b, b, 3, mkn);
	p = pw_fn_binary(lw->b, PWTPU_OP_MUL, a, b);
	return pw_fn_reduce(lw->b, PWTPU_REDUCE_SUM, p, 1u << 1);
}

/* Where a dot of @dt accumulates (mul_sum_matmul's @work). */
static enum pwtpu_dtype dot_work(enum pwtpu_dtype dt)
{
	switch (dt) {
	case PWTPU_DT_F64:
	case PWTPU_DT_I64:
	case PWTPU_DT_U64:
		return dt;
	case PWTPU_DT_F16:
	case PWTPU_DT_BF16:
	case PWTPU_DT_F32:
		return PWTPU_DT_F32;
	default:
		return PWTPU_DT_I32;
	}
}

int hlo_lower_dot(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *v2[2], *x, *y;
	const struct pw_hlo_type *t;
	enum pwtpu_dtype dt, to;
	uint32_t mkn[3], shape[PW_MAX_RANK];
	struct dot_dims d;
	pw_val a, b, v;
	bool array;

	(void)arg;
	if (hlo_operands(lw, sc, 2, v2))
		return lw->err;
	x = v2[0];
	y = v2[1];
	t = lw->op->result_types[0];
	if (hlo_check_type(lw, t) || dot_dims(lw, x, &d))
		return lw->err;
	if (d.nlb || d.nrb)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "batch dimensions are not supported yet");
	if (d.nlc != 1 || d.nrc != 1)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "%d contracting dimensions: only one is supported yet",
				      d.nlc);
	if (x->type->rank < 1 || x->type->rank > 2 || y->type->rank < 1 ||
	    y->type->rank > 2)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "operands of rank %u and %u: only 1 and 2 are supported yet",
				      x->type->rank, y->type->rank);
	if (d.lc[0] < 0 || d.lc[0] >= x->type->rank || d.rc[0] < 0 ||
	    d.rc[0] >= y->type->rank ||
	    x->type->dims[d.lc[0]] != y->type->dims[d.rc[0]])
		return hlo_lower_fail(lw, -EINVAL,
				      "the contracting dimensions are not of one extent");
	if (x->type->dtype != y->type->dtype)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "operands of different element types are not supported yet");
	if (x->type->dtype == PW_HLO_DT_I1 || t->dtype == PW_HLO_DT_I1)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "dots of i1 are not supported yet");
	mkn[0] = x->type->rank == 2 ? (uint32_t)x->type->dims[1 - d.lc[0]] : 1;
	mkn[1] = (uint32_t)x->type->dims[d.lc[0]];
	mkn[2] = y->type->rank == 2 ? (uint32_t)y->type->dims[1 - d.rc[0]] : 1;
	if (hlo_elems(t) != (uint64_t)mkn[0] * mkn[2])
		return hlo_lower_fail(lw, -EINVAL,
				      "the result is not lhs's free dimensions then rhs's");
	a = as_matrix(lw, x, d.lc[0], 1);
	b = a < 0 ? a : as_matrix(lw, y, d.rc[0], 0);
	if (b < 0)
		return hlo_lower_builder_fail(lw, b);
	dt = pw_hlo_device_dtype(x->type->dtype);
	to = pw_hlo_device_dtype(t->dtype);
	/* The array's products are exact and its sums as wide as the result. */
	array = ((dt == PWTPU_DT_F32 || dt == PWTPU_DT_BF16) &&
		 (to == dt || to == dot_work(dt))) ||
		(dt == PWTPU_DT_I8 && to == PWTPU_DT_I32);
	if (array) {
		v = pw_fn_matmul(lw->b, a, b);	/* dot_work(dt) */
	} else {
		/*
		 * StableHLO converts each operand to the result's type and
		 * sums there: a narrower sum would wrap, or round, where the
		 * reference does not.
		 */
		if (to != dt) {
			a = pw_fn_convert(lw->b, a, to);
			b = pw_fn_convert(lw->b, b, to);
			dt = to;
		}
		v = mul_sum_matmul(lw, a, b, mkn, dt, dot_work(dt));
	}
	if (v >= 0 && to != dot_work(dt))
		v = pw_fn_convert(lw->b, v, to);
	if (v >= 0 && t->rank != 2) {
		hlo_shape(t, shape);
		v = pw_fn_reshape(lw->b, v, t->rank, shape);
	}
	return hlo_bind_result(lw, sc, 0, v);
}
