// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_reduce.c - StableHLO's contractions: reduce, and
 * dot_general / dot.
 *
 * reduce with one operand and a body of one add, maximum or minimum runs
 * the device's REDUCE over the dimensions, then combines the result with
 * the init value by the body's op: exact when the init value is the op's
 * identity, as frameworks emit it (0 for add, -inf for max). On i1, and
 * and or are the device's MIN and MAX of 0 and 1. Other bodies and
 * several operands (argmax: a value and its index) apply the body
 * element-wise in a tree of halves.
 *
 * dot_general arranges each operand by a transpose and a reshape, lhs as
 * [batch, free, contracting] and rhs as [batch, contracting, free], each
 * group of dimensions flattened into one. f32 and bf16 (f32 accumulate)
 * and i8 into i32 then multiply on the systolic array, one matmul per
 * batch. Other types, and many batches, are a broadcast multiply and a
 * sum over the contracting dimension: f64 in f64, f16 in f32 (as XLA
 * accumulates it), integers in i32 or, for 64-bit ones, i64, exact as
 * the narrow types' wrapping arithmetic is.
 */
#include <errno.h>
#include <string.h>

#include "hlo_lower_impl.h"

/* Operands reduced together (argmax takes 2). */
#define HLO_MAX_REDUCE	4

static const enum pwtpu_reduce device_reduce[] = {
	[HLO_ADD] = PWTPU_REDUCE_SUM, [HLO_MAX] = PWTPU_REDUCE_MAX,
	[HLO_MIN] = PWTPU_REDUCE_MIN, [HLO_AND] = PWTPU_REDUCE_MIN,
	[HLO_OR] = PWTPU_REDUCE_MAX,
};

/* Reduce's operands, inits and results, checked against each other. */
struct reduce_args {
	unsigned int n;				/* operands */
	const struct hlo_val *x[HLO_MAX_REDUCE], *init[HLO_MAX_REDUCE];
	uint32_t axes;				/* reduced dimensions */
	uint32_t xshape[PW_MAX_RANK], rank;	/* every operand's */
};

static int reduce_args(struct hlo_lower *lw, struct hlo_scope *sc,
		       struct reduce_args *ra)
{
	const struct pw_hlo_op *op = lw->op;
	const struct pw_hlo_type *t;
	int64_t dims[PW_MAX_RANK];
	unsigned int i;
	int n, k;

	if (op->noperands % 2 || !op->noperands ||
	    op->nresults != op->noperands / 2)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs operands, as many inits and as many results");
	ra->n = op->noperands / 2;
	if (ra->n > HLO_MAX_REDUCE)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "reduces %u operands together: at most %d are supported",
				      ra->n, HLO_MAX_REDUCE);
	for (i = 0; i < ra->n; i++) {
		ra->x[i] = hlo_operand(lw, sc, i);
		ra->init[i] = ra->x[i] ? hlo_operand(lw, sc, ra->n + i) : NULL;
		t = op->result_types[i];
		if (!ra->init[i] || hlo_check_type(lw, ra->x[i]->type) ||
		    hlo_check_type(lw, t))
			return lw->err;
		if (ra->init[i]->type->rank ||
		    ra->init[i]->type->dtype != ra->x[i]->type->dtype ||
		    t->dtype != ra->x[i]->type->dtype)
			return hlo_lower_fail(lw, -EINVAL,
					      "init %u is not a scalar of operand %u's type",
					      i, i);
		if (!hlo_same_shape(ra->x[i]->type, ra->x[0]->type))
			return hlo_lower_fail(lw, -EINVAL,
					      "operands 0 and %u differ in shape", i);
	}
	hlo_shape(ra->x[0]->type, ra->xshape);
	ra->rank = ra->x[0]->type->rank;
	n = hlo_int_list(lw, pw_hlo_op_attr(op, "dimensions"),
			 "dimensions", dims, PW_MAX_RANK);
	if (n < 0)
		return lw->err;
	ra->axes = 0;
	for (k = 0; k < n; k++) {
		if (dims[k] < 0 || dims[k] >= ra->rank ||
		    (ra->axes >> dims[k] & 1))
			return hlo_lower_fail(lw, -EINVAL,
					      "dimensions[%d] = %lld is not a dimension of the operand, or repeats",
					      k, (long long)dims[k]);
		ra->axes |= 1u << dims[k];
	}
	for (i = 0; i < ra->n; i++) {
		const struct pw_hlo_type *t = op->result_types[i];
		uint32_t j = 0;

		if (t->rank != ra->rank - (uint32_t)n)
			return hlo_lower_fail(lw, -EINVAL,
					      "the result's rank is not the operand's less the dimensions");
		for (k = 0; k < (int)ra->rank; k++)
			if (!(ra->axes >> k & 1) &&
			    t->dims[j++] != ra->xshape[k])
				return hlo_lower_fail(lw, -EINVAL,
						      "result %u's shape is not the operand's less the dimensions",
						      i);
	}
	return 0;
}

/*
 * Any body, any number of operands: along each reduced dimension in turn,
 * the first half of every operand and the second half go through the
 * body element-wise (an odd element out joins the result), until one
 * element is left; then the body takes the init values and that. Each
 * element goes into the reduction once and the init value once; the
 * order is a tree, which StableHLO leaves to the implementation.
 */
static int reduce_tree(struct hlo_lower *lw, struct hlo_scope *sc,
		       const struct reduce_args *ra)
{
	pw_val val[HLO_MAX_REDUCE], args[2 * HLO_MAX_REDUCE];
	uint32_t shape[PW_MAX_RANK], start[PW_MAX_RANK], half[PW_MAX_RANK];
	uint32_t last[PW_MAX_RANK], rshape[PW_MAX_RANK], k, h, n;
	const struct pw_hlo_type *t = lw->op->result_types[0];
	unsigned int i;

	memcpy(shape, ra->xshape, sizeof(shape));
	for (i = 0; i < ra->n; i++)
		val[i] = ra->x[i]->v;
	for (k = 0; k < ra->rank; k++) {
		if (!(ra->axes >> k & 1))
			continue;
		for (n = shape[k]; n > 1; n = n - h) {
			h = n / 2;
			memcpy(half, shape, sizeof(half));
			memcpy(last, shape, sizeof(last));
			memset(start, 0, sizeof(start));
			half[k] = h;
			last[k] = 1;
			for (i = 0; i < ra->n; i++) {
				args[i] = pw_fn_slice(lw->b, val[i], start, half);
				start[k] = h;
				args[ra->n + i] = pw_fn_slice(lw->b, val[i], start,
							      half);
				start[k] = 0;
			}
			if (hlo_apply_body(lw, sc, args, 2 * ra->n, ra->n,
					   NULL, ra->rank, half, args))
				return lw->err;
			for (i = 0; i < ra->n; i++) {
				if (!(n & 1)) {
					val[i] = args[i];
					continue;
				}
				start[k] = n - 1;
				val[i] = hlo_join(lw, args[i],
						  pw_fn_slice(lw->b, val[i],
							      start, last),
						  ra->rank, half, last, k);
				start[k] = 0;
			}
			shape[k] = n - h;
		}
	}
	hlo_shape(t, rshape);
	for (i = 0; i < ra->n; i++) {
		args[ra->n + i] = pw_fn_reshape(lw->b, val[i], t->rank, rshape);
		args[i] = t->rank ? pw_fn_broadcast(lw->b, ra->init[i]->v,
						    t->rank, rshape) :
				    ra->init[i]->v;
	}
	if (hlo_apply_body(lw, sc, args, 2 * ra->n, ra->n, NULL, t->rank,
			   rshape, val))
		return lw->err;
	for (i = 0; i < ra->n; i++)
		if (hlo_bind_result(lw, sc, i, val[i]))
			break;
	return lw->err;
}

/*
 * One operand and a body of one add, maximum, minimum, and or or: the
 * device's REDUCE, then the body's op with the init value. Anything else
 * is a tree of the body applied element-wise.
 */
int hlo_lower_reduce(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	struct reduce_args ra;
	enum hlo_binary op = HLO_ADD;
	enum pw_hlo_dtype dt;
	pw_val v;

	(void)arg;
	if (reduce_args(lw, sc, &ra))
		return lw->err;
	dt = ra.x[0]->type->dtype;
	if (ra.n != 1 ||
	    hlo_body_binary(lw, 1u << HLO_ADD | 1u << HLO_MAX | 1u << HLO_MIN |
			    1u << HLO_AND | 1u << HLO_OR, NULL, &op) ||
	    ((op == HLO_AND || op == HLO_OR) && dt != PW_HLO_DT_I1))
		return reduce_tree(lw, sc, &ra);
	v = ra.x[0]->v;
	if (ra.axes) {
		/* On i1 add is or: the MAX of 0s and 1s, never their sum. */
		v = pw_fn_reduce(lw->b, dt == PW_HLO_DT_I1 && op == HLO_ADD ?
				 PWTPU_REDUCE_MAX : device_reduce[op], v,
				 ra.axes);
		if (v < 0)
			return hlo_lower_builder_fail(lw, v);
	}
	v = hlo_binary_op(lw, op, dt, v, ra.init[0]->v);
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

/*
 * Which dimensions of an operand are batch, free and contracting, in the
 * order the products want them: lhs as [batch, free, contracting], rhs
 * as [batch, contracting, free].
 */
struct dot_side {
	uint32_t perm[PW_MAX_RANK];
	uint32_t nfree;
	uint64_t nb, free, k;	/* extents' products */
};

static int dot_side(struct hlo_lower *lw, const struct hlo_val *x,
		    const int64_t *bd, int nb, const int64_t *cd, int nc,
		    bool lhs, struct dot_side *s)
{
	const struct pw_hlo_type *t = x->type;
	uint32_t role[PW_MAX_RANK] = { 0 }, n = 0, k;
	int i;

	s->nb = s->free = s->k = 1;
	for (i = 0; i < nb + nc; i++) {
		int64_t d = i < nb ? bd[i] : cd[i - nb];

		if (d < 0 || d >= t->rank || role[d])
			return hlo_lower_fail(lw, -EINVAL,
					      "%s dimension %lld is out of range or named twice",
					      lhs ? "lhs" : "rhs", (long long)d);
		role[d] = i < nb ? 1 : 2;
	}
	for (i = 0; i < nb; i++) {
		s->perm[n++] = (uint32_t)bd[i];
		s->nb *= (uint64_t)t->dims[bd[i]];
	}
	if (!lhs)
		for (i = 0; i < nc; i++)
			s->perm[n++] = (uint32_t)cd[i];
	s->nfree = 0;
	for (k = 0; k < t->rank; k++)
		if (!role[k]) {
			s->perm[n++] = k;
			s->free *= (uint64_t)t->dims[k];
			s->nfree++;
		}
	if (lhs)
		for (i = 0; i < nc; i++)
			s->perm[n++] = (uint32_t)cd[i];
	for (i = 0; i < nc; i++)
		s->k *= (uint64_t)t->dims[cd[i]];
	return 0;
}

/* @x transposed as @s orders it and reshaped to [batch,] @r0, @r1. */
static pw_val dot_arrange(struct hlo_lower *lw, const struct hlo_val *x,
			  const struct dot_side *s, uint64_t r0, uint64_t r1)
{
	uint32_t shape[3], k, n = 0;
	pw_val v = x->v;

	for (k = 0; k < x->type->rank && s->perm[k] == k; k++)
		;
	if (k < x->type->rank)
		v = pw_fn_transpose(lw->b, v, s->perm);
	if (s->nb > 1)
		shape[n++] = (uint32_t)s->nb;
	shape[n++] = (uint32_t)r0;
	shape[n++] = (uint32_t)r1;
	return pw_fn_reshape(lw->b, v, n, shape);
}

/*
 * a[B,M,K] x b[B,K,N] (without B when @nb is 1) by the element-wise ops:
 * a as [B,M,K,1] and b as [B,1,K,N] broadcast to [B,M,K,N], multiplied in
 * @work and summed over K.
 */
static pw_val mul_sum_matmul(struct hlo_lower *lw, pw_val a, pw_val b,
			     uint32_t nb, const uint32_t *mkn,
			     enum pwtpu_dtype dt, enum pwtpu_dtype work)
{
	uint32_t full[4], as[4], bs[4], r = 0, kdim;

	if (nb > 1) {
		full[r] = as[r] = bs[r] = nb;
		r++;
	}
	kdim = r + 1;
	full[r] = as[r] = mkn[0];
	bs[r++] = 1;
	full[r] = as[r] = bs[r] = mkn[1];
	r++;
	full[r] = bs[r] = mkn[2];
	as[r++] = 1;
	if (dt != work) {
		a = pw_fn_convert(lw->b, a, work);
		b = pw_fn_convert(lw->b, b, work);
	}
	a = pw_fn_broadcast(lw->b, pw_fn_reshape(lw->b, a, r, as), r, full);
	b = pw_fn_broadcast(lw->b, pw_fn_reshape(lw->b, b, r, bs), r, full);
	return pw_fn_reduce(lw->b, PWTPU_REDUCE_SUM,
			    pw_fn_binary(lw->b, PWTPU_OP_MUL, a, b), 1u << kdim);
}

/*
 * The products of batches @lo..@lo + @n - 1 of a[B,M,K] x b[B,K,N] on
 * the systolic array, as [n,M,N]: one matmul per batch, halves joined,
 * so that each level of the tree copies the result once.
 */
static pw_val batch_tree(struct hlo_lower *lw, pw_val a, pw_val b,
			 uint32_t lo, uint32_t n, const uint32_t *mkn)
{
	uint32_t as[3] = { 1, mkn[0], mkn[1] }, bs[3] = { 1, mkn[1], mkn[2] };
	uint32_t start[3] = { lo, 0, 0 }, h = n / 2;
	uint32_t xs[3] = { h, mkn[0], mkn[2] }, ys[3] = { n - h, mkn[0], mkn[2] };
	pw_val p;

	if (n > 1)
		return hlo_join(lw, batch_tree(lw, a, b, lo, h, mkn),
				batch_tree(lw, a, b, lo + h, n - h, mkn), 3, xs,
				ys, 0);
	p = pw_fn_matmul(lw->b,
			 pw_fn_reshape(lw->b, pw_fn_slice(lw->b, a, start, as),
				       2, as + 1),
			 pw_fn_reshape(lw->b, pw_fn_slice(lw->b, b, start, bs),
				       2, bs + 1));
	ys[0] = 1;
	return pw_fn_reshape(lw->b, p, 3, ys);
}

/* a[B,M,K] x b[B,K,N] (without B when @nb is 1) on the systolic array. */
static pw_val array_matmul(struct hlo_lower *lw, pw_val a, pw_val b,
			   uint32_t nb, const uint32_t *mkn)
{
	if (nb == 1)
		return pw_fn_matmul(lw->b, a, b);
	return batch_tree(lw, a, b, 0, nb, mkn);
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

/*
 * More batches than this go to the element-wise ops in one piece, when
 * its broadcast fits the device.
 */
#define DOT_MAX_ARRAY_BATCHES	64

int hlo_lower_dot(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *v2[2], *x, *y;
	const struct pw_hlo_type *t;
	uint32_t mkn[3], shape[PW_MAX_RANK], r = 0, k, nb;
	struct dot_side ls, rs;
	enum pwtpu_dtype dt, to;
	struct dot_dims d;
	pw_val a, b, v;
	bool array;
	int i;

	(void)arg;
	if (hlo_operands(lw, sc, 2, v2))
		return lw->err;
	x = v2[0];
	y = v2[1];
	t = lw->op->result_types[0];
	if (hlo_check_type(lw, t) || dot_dims(lw, x, &d))
		return lw->err;
	if (d.nlb != d.nrb || d.nlc != d.nrc)
		return hlo_lower_fail(lw, -EINVAL,
				      "lhs and rhs differ in their number of batch or contracting dimensions");
	if (dot_side(lw, x, d.lb, d.nlb, d.lc, d.nlc, true, &ls) ||
	    dot_side(lw, y, d.rb, d.nrb, d.rc, d.nrc, false, &rs))
		return lw->err;
	for (i = 0; i < d.nlb + d.nlc; i++) {
		int64_t l = i < d.nlb ? d.lb[i] : d.lc[i - d.nlb];
		int64_t rr = i < d.nlb ? d.rb[i] : d.rc[i - d.nlb];

		if (x->type->dims[l] != y->type->dims[rr])
			return hlo_lower_fail(lw, -EINVAL,
					      "lhs dimension %lld and rhs dimension %lld differ in extent",
					      (long long)l, (long long)rr);
	}
	/* The result is [batch..., lhs free..., rhs free...]. */
	for (i = 0; i < d.nlb; i++)
		shape[r++] = (uint32_t)x->type->dims[d.lb[i]];
	for (k = d.nlb; k < d.nlb + ls.nfree; k++)
		shape[r++] = (uint32_t)x->type->dims[ls.perm[k]];
	for (k = d.nrb + d.nrc; k < y->type->rank; k++)
		shape[r++] = (uint32_t)y->type->dims[rs.perm[k]];
	for (k = 0; k < r && k < t->rank && shape[k] == t->dims[k]; k++)
		;
	if (r != t->rank || k != r)
		return hlo_lower_fail(lw, -EINVAL,
				      "the result is not the batch, then lhs's free, then rhs's free dimensions");
	if (x->type->dtype != y->type->dtype)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "operands of different element types are not supported yet");
	if (x->type->dtype == PW_HLO_DT_I1 || t->dtype == PW_HLO_DT_I1)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "dots of i1 are not supported yet");
	nb = (uint32_t)ls.nb;
	mkn[0] = (uint32_t)ls.free;
	mkn[1] = (uint32_t)ls.k;
	mkn[2] = (uint32_t)rs.free;
	a = dot_arrange(lw, x, &ls, mkn[0], mkn[1]);
	b = a < 0 ? a : dot_arrange(lw, y, &rs, mkn[1], mkn[2]);
	if (b < 0)
		return hlo_lower_builder_fail(lw, b);
	dt = pw_hlo_device_dtype(x->type->dtype);
	to = pw_hlo_device_dtype(t->dtype);
	/* The array's products are exact and its sums as wide as the result. */
	array = ((dt == PWTPU_DT_F32 || dt == PWTPU_DT_BF16) &&
		 (to == dt || to == dot_work(dt))) ||
		(dt == PWTPU_DT_I8 && to == PWTPU_DT_I32);
	/* Many batches in one broadcast, unless it is past the device's. */
	if (array && (nb <= DOT_MAX_ARRAY_BATCHES ||
		      (uint64_t)nb * mkn[0] * mkn[1] * mkn[2] > PWTPU_MAX_ELEMS)) {
		v = array_matmul(lw, a, b, nb, mkn);
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
		v = mul_sum_matmul(lw, a, b, nb, mkn, dt, dot_work(dt));
	}
	if (v >= 0 && to != dot_work(dt))
		v = pw_fn_convert(lw->b, v, to);
	if (v >= 0)
		v = pw_fn_reshape(lw->b, v, t->rank, shape);
	return hlo_bind_result(lw, sc, 0, v);
}
