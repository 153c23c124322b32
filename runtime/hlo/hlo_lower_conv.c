// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_conv.c - StableHLO's convolution of f32, as matmuls on the
 * systolic array, one per kernel position (and feature group).
 *
 * The input goes to [batch, spatial..., feature] and the kernel to
 * [spatial..., in, out]; the input is padded with zeros (lhs dilations
 * are interior padding). For each kernel position k, the input read from
 * k times the rhs dilation, a stride apart (hlo_pick), is a matrix
 * [batch * output positions, in] that multiplies the kernel's [in, out]
 * at k; the products are summed in kernel position order. Feature groups
 * multiply their own columns and join along the output feature. The sum
 * is then laid out as the result asks.
 *
 * Refused: batch_group_count above 1, window reversal, element types
 * other than f32, more than two spatial dimensions (the device's rank is
 * 4), kernels of more than HLO_MAX_KERNEL positions.
 */
#include <errno.h>
#include <string.h>

#include "hlo_lower_impl.h"

#define HLO_MAX_KERNEL	256
#define HLO_MAX_GROUPS	16

/* The convolution's dimension numbers and window, checked. */
struct conv {
	uint32_t n;			/* spatial dimensions */
	int64_t in[PW_MAX_RANK];	/* input: batch, spatial..., feature */
	int64_t ker[PW_MAX_RANK];	/* kernel: spatial..., in, out */
	int64_t out[PW_MAX_RANK];	/* result: batch, spatial..., feature */
	int64_t stride[PW_MAX_RANK], lo[PW_MAX_RANK], hi[PW_MAX_RANK];
	int64_t ldil[PW_MAX_RANK], rdil[PW_MAX_RANK];
	int64_t groups;
};

/* An integer field of the dimension numbers. */
static int conv_int(struct hlo_lower *lw, const struct pw_hlo_attr *dn,
		    const char *name, int64_t *out)
{
	const struct pw_hlo_attr *f = pw_hlo_attr_field(dn, name);

	if (!f || f->kind != PW_HLO_ATTR_INT || f->neg)
		return hlo_lower_fail(lw, -EINVAL,
				      "dimension_numbers: no %s", name);
	*out = (int64_t)f->u;
	return 0;
}

/*
 * One operand's layout: @first and @last around the spatial dimensions
 * into @order (first, spatial..., last), checked to be a permutation of
 * 0..n+1.
 */
static int conv_layout(struct hlo_lower *lw, const struct pw_hlo_attr *dn,
		       const char *first, const char *spatial,
		       const char *last, bool spatial_first, uint32_t *n,
		       int64_t *order)
{
	const struct pw_hlo_attr *f = pw_hlo_attr_field(dn, spatial);
	int64_t sp[PW_MAX_RANK], a = 0, b = 0;
	uint32_t k, seen = 0;
	int ns;

	if (!f)
		return hlo_lower_fail(lw, -EINVAL,
				      "dimension_numbers: no %s", spatial);
	ns = hlo_int_list(lw, f, spatial, sp, PW_MAX_RANK - 2);
	if (ns < 0 || conv_int(lw, dn, first, &a) ||
	    conv_int(lw, dn, last, &b))
		return lw->err;
	if (*n != UINT32_MAX && (uint32_t)ns != *n)
		return hlo_lower_fail(lw, -EINVAL,
				      "%s has %d dimensions, the input %u",
				      spatial, ns, *n);
	*n = (uint32_t)ns;
	if (spatial_first) {
		memcpy(order, sp, ns * sizeof(*sp));
		order[ns] = a;
		order[ns + 1] = b;
	} else {
		order[0] = a;
		memcpy(order + 1, sp, ns * sizeof(*sp));
		order[ns + 1] = b;
	}
	for (k = 0; k < *n + 2; k++) {
		if (order[k] < 0 || order[k] > *n + 1 ||
		    (seen >> order[k] & 1))
			return hlo_lower_fail(lw, -EINVAL,
					      "dimension_numbers: %s, %s and %s are not the dimensions 0..%u",
					      first, spatial, last, *n + 1);
		seen |= 1u << order[k];
	}
	return 0;
}

static int conv_count(struct hlo_lower *lw, const char *name, int64_t *out)
{
	const struct pw_hlo_attr *a = pw_hlo_op_attr(lw->op, name);

	*out = 1;
	if (!a)
		return 0;
	if (a->kind != PW_HLO_ATTR_INT || a->neg || !a->u)
		return hlo_lower_fail(lw, -EINVAL, "%s is not positive", name);
	*out = (int64_t)a->u;
	return 0;
}

/* Whether window_reversal reverses a dimension, in any form it is written. */
static bool window_reversed(const struct pw_hlo_attr *rev)
{
	uint32_t i;

	if (rev->kind == PW_HLO_ATTR_ARRAY) {
		for (i = 0; i < rev->n; i++)
			if (rev->elems[i]->kind != PW_HLO_ATTR_BOOL ||
			    rev->elems[i]->b)
				return true;
		return false;
	}
	/* Bytes of i1 (array<i1: ...>, dense<...>); anything else: refused. */
	if (rev->kind != PW_HLO_ATTR_DENSE_ARRAY && rev->kind != PW_HLO_ATTR_DENSE)
		return true;
	return rev->nbytes && memchr(rev->bytes, 1, rev->nbytes);
}

static int conv_attrs(struct hlo_lower *lw, struct conv *c)
{
	const struct pw_hlo_attr *dn = pw_hlo_op_attr(lw->op,
						      "dimension_numbers");
	const struct pw_hlo_attr *rev = pw_hlo_op_attr(lw->op,
						       "window_reversal");
	int64_t batch_groups;

	if (!dn || dn->kind != PW_HLO_ATTR_STRUCT)
		return hlo_lower_fail(lw, -EINVAL, "no dimension_numbers");
	c->n = UINT32_MAX;
	if (conv_layout(lw, dn, "input_batch_dimension",
			"input_spatial_dimensions", "input_feature_dimension",
			false, &c->n, c->in) ||
	    conv_layout(lw, dn, "kernel_input_feature_dimension",
			"kernel_spatial_dimensions",
			"kernel_output_feature_dimension", true, &c->n,
			c->ker) ||
	    conv_layout(lw, dn, "output_batch_dimension",
			"output_spatial_dimensions", "output_feature_dimension",
			false, &c->n, c->out) ||
	    hlo_window_list(lw, "window_strides", c->n, 1, c->stride) ||
	    hlo_window_list(lw, "lhs_dilation", c->n, 1, c->ldil) ||
	    hlo_window_list(lw, "rhs_dilation", c->n, 1, c->rdil) ||
	    conv_count(lw, "feature_group_count", &c->groups) ||
	    conv_count(lw, "batch_group_count", &batch_groups))
		return lw->err;
	if (batch_groups != 1)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "batch_group_count %lld is not supported yet",
				      (long long)batch_groups);
	if (rev && window_reversed(rev))
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "window_reversal is not supported yet");
	return hlo_window_padding(lw, c->n, c->lo, c->hi);
}

/* @x's dimensions @order[] as the leading ones, in that order. */
static pw_val conv_transpose(struct hlo_lower *lw, pw_val x, uint32_t rank,
			     const int64_t *order)
{
	uint32_t perm[PW_MAX_RANK], k;
	bool identity = true;

	for (k = 0; k < rank; k++) {
		perm[k] = (uint32_t)order[k];
		identity &= perm[k] == k;
	}
	return identity ? x : pw_fn_transpose(lw->b, x, perm);
}

int hlo_lower_convolution(struct hlo_lower *lw, struct hlo_scope *sc,
			  int arg)
{
	uint32_t ishape[PW_MAX_RANK], kshape[PW_MAX_RANK], pshape[PW_MAX_RANK];
	uint32_t patch[PW_MAX_RANK], oshape[PW_MAX_RANK], perm[PW_MAX_RANK];
	uint32_t kstart[PW_MAX_RANK], kone[PW_MAX_RANK], m2[2], w2[2], g2[2];
	int64_t to_result[PW_MAX_RANK], in[PW_MAX_RANK], off[PW_MAX_RANK];
	int64_t step[PW_MAX_RANK], kpos[PW_MAX_RANK];
	pw_val acc[HLO_MAX_GROUPS], x, w, padded, pm, wm, prod, out;
	const struct pw_hlo_type *t;
	const struct hlo_val *v[2];
	uint64_t positions = 1, p, rows = 1;
	uint32_t k, r, ci, co, og, g;
	struct conv c;

	(void)arg;
	if (hlo_operands(lw, sc, 2, v))
		return lw->err;
	t = lw->op->result_types[0];
	if (hlo_check_type(lw, t) || conv_attrs(lw, &c))
		return lw->err;
	r = c.n + 2;
	if (v[0]->type->rank != r || v[1]->type->rank != r || t->rank != r)
		return hlo_lower_fail(lw, -EINVAL,
				      "input, kernel and result are not of rank %u",
				      r);
	if (v[0]->type->dtype != PW_HLO_DT_F32 ||
	    v[1]->type->dtype != PW_HLO_DT_F32 || t->dtype != PW_HLO_DT_F32)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "convolution of %s is not supported yet (f32 is)",
				      pw_hlo_dtype_name(t->dtype));
	for (k = 0; k < r; k++) {
		ishape[k] = (uint32_t)v[0]->type->dims[c.in[k]];
		kshape[k] = (uint32_t)v[1]->type->dims[c.ker[k]];
		oshape[k] = (uint32_t)t->dims[c.out[k]];
	}
	ci = kshape[c.n];
	co = kshape[c.n + 1];
	if (c.groups > HLO_MAX_GROUPS)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "feature_group_count %lld is more than %d",
				      (long long)c.groups, HLO_MAX_GROUPS);
	g = (uint32_t)c.groups;
	if (ishape[r - 1] != ci * g || co % g || oshape[0] != ishape[0] ||
	    oshape[r - 1] != co)
		return hlo_lower_fail(lw, -EINVAL,
				      "features: input %u, kernel %u in and %u out, %u groups, result %u",
				      ishape[r - 1], ci, co, g, oshape[r - 1]);
	og = co / g;
	/* Padded input: batch and feature as they are. */
	pshape[0] = ishape[0];
	pshape[r - 1] = ishape[r - 1];
	in[0] = in[r - 1] = 0;
	for (k = 0; k < c.n; k++) {
		int64_t padded_k = c.lo[k] + c.hi[k] +
				   (ishape[1 + k] - 1) * c.ldil[k] + 1;
		int64_t span = (kshape[k] - 1) * c.rdil[k] + 1;

		if (padded_k < span || padded_k > PWTPU_MAX_ELEMS ||
		    (padded_k - span) / c.stride[k] + 1 != oshape[1 + k])
			return hlo_lower_fail(lw, -EINVAL,
					      "result spatial dimension %u is not the number of windows that fit",
					      k);
		pshape[1 + k] = (uint32_t)padded_k;
		in[1 + k] = c.ldil[k] - 1;
		positions *= kshape[k];
		rows *= oshape[1 + k];
	}
	if (positions > HLO_MAX_KERNEL)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "kernels of more than %d positions are not supported yet",
				      HLO_MAX_KERNEL);
	rows *= oshape[0];
	if (rows * ci * g > PWTPU_MAX_ELEMS)
		return hlo_lower_fail(lw, -E2BIG, "%llu rows of input",
				      (unsigned long long)rows);
	x = conv_transpose(lw, v[0]->v, r, c.in);
	w = conv_transpose(lw, v[1]->v, r, c.ker);
	{
		int64_t lo[PW_MAX_RANK] = { 0 }, hi[PW_MAX_RANK] = { 0 };

		for (k = 0; k < c.n; k++) {
			lo[1 + k] = c.lo[k];
			hi[1 + k] = c.hi[k];
		}
		padded = hlo_pad(lw, x, r, ishape, pw_fn_scalar(lw->b,
								PWTPU_DT_F32,
								0),
				 lo, hi, in, pshape);
	}
	/* Patches: [batch, output positions..., in features]. */
	memcpy(patch, oshape, sizeof(patch));
	patch[r - 1] = ishape[r - 1];
	m2[0] = (uint32_t)rows;
	m2[1] = ishape[r - 1];
	w2[0] = ci;
	w2[1] = co;
	for (k = 0; k < r; k++)
		kone[k] = k < c.n ? 1 : kshape[k];
	memset(kpos, 0, sizeof(kpos));
	for (p = 0; p < positions && !lw->err; p++) {
		off[0] = off[r - 1] = 0;
		step[0] = step[r - 1] = 1;
		for (k = 0; k < c.n; k++) {
			off[1 + k] = kpos[k] * c.rdil[k];
			step[1 + k] = c.stride[k];
			kstart[k] = (uint32_t)kpos[k];
		}
		kstart[c.n] = kstart[c.n + 1] = 0;
		pm = pw_fn_reshape(lw->b, hlo_pick(lw, padded, r, patch, off,
						   step), 2, m2);
		wm = pw_fn_reshape(lw->b, pw_fn_slice(lw->b, w, kstart, kone),
				   2, w2);
		for (k = 0; k < g; k++) {
			uint32_t s0[2] = { 0, k * ci }, s1[2] = { 0, k * og };

			g2[0] = (uint32_t)rows;
			g2[1] = ci;
			prod = pw_fn_matmul(lw->b,
					    g > 1 ? pw_fn_slice(lw->b, pm, s0, g2) :
						    pm,
					    g > 1 ? pw_fn_slice(lw->b, wm, s1,
								(uint32_t[2]){ ci, og }) :
						    wm);
			acc[k] = p ? pw_fn_binary(lw->b, PWTPU_OP_ADD, acc[k],
						  prod) : prod;
		}
		/* The next kernel position, row major. */
		for (k = c.n; k-- > 0;) {
			if (++kpos[k] < kshape[k])
				break;
			kpos[k] = 0;
		}
	}
	if (lw->err)
		return lw->err;
	out = acc[0];
	for (k = 1; k < g; k++) {
		uint32_t a2[2] = { (uint32_t)rows, k * og };
		uint32_t b2[2] = { (uint32_t)rows, og };

		out = hlo_join(lw, out, acc[k], 2, a2, b2, 1);
	}
	out = pw_fn_reshape(lw->b, out, r, oshape);
	/* Result dimension c.out[k] holds the sum's dimension k. */
	for (k = 0; k < r; k++)
		perm[c.out[k]] = k;
	for (k = 0; k < r; k++)
		to_result[k] = perm[k];
	return hlo_bind_result(lw, sc, 0,
			       conv_transpose(lw, out, r, to_result));
}
