// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_scatter.c - StableHLO's scatter and gather, on the device's
 * SCATTER and GATHER through pw_fn_scatter() and pw_fn_gather(), which
 * check every constraint of the spec.
 *
 * scatter: one input and one updates tensor; the update computation is
 * recognised, not run: a body that returns its second argument replaces
 * (SET), one add, multiply, maximum or minimum of its two arguments
 * combines with that op (on i1: add is or, multiply is and, the
 * device's MAX and MIN of 0 and 1, as are or and and themselves).
 * indices_are_sorted and unique_indices are hints that change nothing:
 * the device applies the updates in row-major order, which is one of
 * the orders the spec allows, and skips a window that does not lie
 * wholly inside the operand, as XLA does.
 *
 * gather: its dimension numbers and slice_sizes as they are.
 */
#include <errno.h>
#include <string.h>

#include "hlo_lower_impl.h"

/* Dimension numbers are small: anything else is not one. */
#define HLO_GS_MAX_DIM	64

/*
 * A list field @name of the dimension numbers @dn (absent: empty) into
 * @out: its length, or -errno (the failure set).
 */
static int gs_list(struct hlo_lower *lw, const struct pw_hlo_attr *dn,
		   const char *name, uint32_t *out)
{
	const struct pw_hlo_attr *f = pw_hlo_attr_field(dn, name);
	int64_t v[PW_MAX_RANK];
	int n, i;

	if (!f)
		return 0;
	n = hlo_int_list(lw, f, name, v, PW_MAX_RANK);
	for (i = 0; i < n; i++) {
		if (v[i] < 0 || v[i] > HLO_GS_MAX_DIM)
			return hlo_lower_fail(lw, -EINVAL,
					      "%s[%d] = %lld is not a dimension",
					      name, i, (long long)v[i]);
		out[i] = (uint32_t)v[i];
	}
	return n;
}

/* index_vector_dim of @dn: 0 when absent, as StableHLO prints it. */
static int gs_vector_dim(struct hlo_lower *lw, const struct pw_hlo_attr *dn,
			 uint32_t *ivd)
{
	const struct pw_hlo_attr *f = pw_hlo_attr_field(dn, "index_vector_dim");

	*ivd = 0;
	if (!f)
		return 0;
	if (f->kind != PW_HLO_ATTR_INT || (f->neg && f->u) ||
	    f->u > HLO_GS_MAX_DIM)
		return hlo_lower_fail(lw, -EINVAL,
				      "index_vector_dim is not a dimension");
	*ivd = (uint32_t)f->u;
	return 0;
}

/* The dimension numbers attribute @name, a #stablehlo.<what><...>. */
static const struct pw_hlo_attr *gs_numbers(struct hlo_lower *lw,
					    const char *name)
{
	const struct pw_hlo_attr *dn = pw_hlo_op_attr(lw->op, name);

	if (!dn || dn->kind != PW_HLO_ATTR_STRUCT) {
		hlo_lower_fail(lw, -EINVAL, "no %s", name);
		return NULL;
	}
	return dn;
}

static bool is_return(const struct pw_hlo_op *op)
{
	return !strcmp(op->name, "stablehlo.return") ||
	       !strcmp(op->name, "func.return") || !strcmp(op->name, "return");
}

static bool is_arg(const struct pw_hlo_block *blk, const struct pw_hlo_value *v,
		   unsigned int i)
{
	return !v->index && !strcmp(v->name, blk->args[i].name);
}

/*
 * The element-wise op that @blk applies to its two arguments (either
 * order) and returns, or NULL for a body of any other form.
 */
static const char *body_op(const struct pw_hlo_block *blk)
{
	const struct pw_hlo_op *o, *r;

	if (blk->nops != 2)
		return NULL;
	o = blk->ops[0];
	r = blk->ops[1];
	if (o->noperands != 2 || o->nresults != 1 || o->nregions ||
	    !o->ngroups || !is_return(r) || r->noperands != 1 ||
	    r->operands[0].index ||
	    strcmp(r->operands[0].name, o->groups[0].name))
		return NULL;
	if ((is_arg(blk, &o->operands[0], 0) &&
	     is_arg(blk, &o->operands[1], 1)) ||
	    (is_arg(blk, &o->operands[0], 1) &&
	     is_arg(blk, &o->operands[1], 0)))
		return o->name;
	return NULL;
}

/*
 * The update computation: SET when it returns its second argument (the
 * update), else one op of its two arguments, into *@mode for element
 * type @dt. Any other body is refused, named.
 */
static int scatter_mode(struct hlo_lower *lw, enum pw_hlo_dtype dt,
			enum pwtpu_scatter *mode)
{
	static const char *const what =
		"a return of the update, or one add, multiply, maximum or minimum of the two arguments";
	const struct pw_hlo_op *op = lw->op;
	const struct hlo_op_entry *e = NULL;
	const struct pw_hlo_block *blk;
	const char *name;
	unsigned int i;

	if (op->nregions != 1 || op->regions[0].nblocks != 1)
		return hlo_lower_fail(lw, -EINVAL,
				      "has no update computation of one block");
	blk = &op->regions[0].blocks[0];
	if (blk->nargs != 2)
		return hlo_lower_fail(lw, -EINVAL,
				      "its update computation takes %u arguments, not 2",
				      blk->nargs);
	for (i = 0; i < 2; i++)
		if (!blk->args[i].type || blk->args[i].type->rank ||
		    blk->args[i].type->dtype != dt)
			return hlo_lower_fail(lw, -EOPNOTSUPP,
					      "an update computation on another element type than the input's is not supported yet");
	if (blk->nops == 1 && is_return(blk->ops[0]) &&
	    blk->ops[0]->noperands == 1 &&
	    is_arg(blk, &blk->ops[0]->operands[0], 1)) {
		*mode = PWTPU_SCATTER_SET;
		return 0;
	}
	name = body_op(blk);
	if (name)
		e = hlo_find_op(name);
	if (!e || e->fn != hlo_lower_binary) {
		if (name || (blk->nops && !is_return(blk->ops[0])))
			return hlo_lower_fail(lw, -EOPNOTSUPP,
					      "an update computation of %s is not supported yet (%s)",
					      name ? name : blk->ops[0]->name,
					      what);
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "an update computation that returns the input is not supported yet (%s)",
				      what);
	}
	if (!hlo_scatter_combiner((enum hlo_binary)e->arg, dt, mode))
		return 0;
	if (e->arg == HLO_AND || e->arg == HLO_OR)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "an update computation of %s on %s is not supported yet (%s)",
				      name, pw_hlo_dtype_name(dt), what);
	return hlo_lower_fail(lw, -EOPNOTSUPP,
			      "an update computation of %s is not supported yet (%s)",
			      name, what);
}

int hlo_scatter_combiner(enum hlo_binary op, enum pw_hlo_dtype dt,
			 enum pwtpu_scatter *mode)
{
	bool i1 = dt == PW_HLO_DT_I1;

	switch (op) {
	case HLO_ADD:
		*mode = i1 ? PWTPU_SCATTER_MAX : PWTPU_SCATTER_ADD;
		return 0;
	case HLO_MUL:
		*mode = i1 ? PWTPU_SCATTER_MIN : PWTPU_SCATTER_MUL;
		return 0;
	case HLO_MAX:
		*mode = PWTPU_SCATTER_MAX;
		return 0;
	case HLO_MIN:
		*mode = PWTPU_SCATTER_MIN;
		return 0;
	case HLO_AND:
	case HLO_OR:
		if (!i1)
			return -EOPNOTSUPP;
		*mode = op == HLO_OR ? PWTPU_SCATTER_MAX : PWTPU_SCATTER_MIN;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

int hlo_lower_scatter(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	struct pw_fn_scatter_dims d = { 0 };
	const struct pw_hlo_attr *dn;
	const struct hlo_val *v[3];
	enum pwtpu_scatter mode;
	int n[6], i;

	(void)arg;
	if (lw->op->noperands != 3 && lw->op->noperands % 2 &&
	    lw->op->noperands > 3)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "scatters %u inputs together: only one is supported yet",
				      (lw->op->noperands - 1) / 2);
	if (hlo_operands(lw, sc, 3, v))
		return lw->err;
	if (v[0]->type->dtype != v[2]->type->dtype)
		return hlo_lower_fail(lw, -EINVAL,
				      "the updates' element type is not the input's");
	if (scatter_mode(lw, v[0]->type->dtype, &mode))
		return lw->err;
	dn = gs_numbers(lw, "scatter_dimension_numbers");
	if (!dn)
		return lw->err;
	n[0] = gs_list(lw, dn, "update_window_dims", d.update_window_dims);
	n[1] = gs_list(lw, dn, "inserted_window_dims", d.inserted_window_dims);
	n[2] = gs_list(lw, dn, "input_batching_dims", d.input_batching_dims);
	n[3] = gs_list(lw, dn, "scatter_indices_batching_dims",
		       d.scatter_indices_batching_dims);
	n[4] = gs_list(lw, dn, "scatter_dims_to_operand_dims",
		       d.scatter_dims_to_operand_dims);
	n[5] = gs_vector_dim(lw, dn, &d.index_vector_dim);
	for (i = 0; i < 6; i++)
		if (n[i] < 0)
			return lw->err;
	if (n[2] != n[3])
		return hlo_lower_fail(lw, -EINVAL,
				      "input_batching_dims has %d entries, scatter_indices_batching_dims %d",
				      n[2], n[3]);
	d.n_update_window_dims = (unsigned int)n[0];
	d.n_inserted_window_dims = (unsigned int)n[1];
	d.n_batching_dims = (unsigned int)n[2];
	d.n_scatter_dims_to_operand_dims = (unsigned int)n[4];
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_scatter(lw->b, mode, v[0]->v, v[1]->v,
					     v[2]->v, &d));
}

int hlo_lower_gather(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	struct pw_fn_gather_dims d = { 0 };
	const struct pw_hlo_attr *dn;
	const struct hlo_val *v[2];
	int64_t sizes[PW_MAX_RANK];
	int n[6], i, ns;

	(void)arg;
	if (hlo_operands(lw, sc, 2, v))
		return lw->err;
	dn = gs_numbers(lw, "dimension_numbers");
	if (!dn)
		return lw->err;
	n[0] = gs_list(lw, dn, "offset_dims", d.offset_dims);
	n[1] = gs_list(lw, dn, "collapsed_slice_dims", d.collapsed_slice_dims);
	n[2] = gs_list(lw, dn, "operand_batching_dims",
		       d.operand_batching_dims);
	n[3] = gs_list(lw, dn, "start_indices_batching_dims",
		       d.start_indices_batching_dims);
	n[4] = gs_list(lw, dn, "start_index_map", d.start_index_map);
	n[5] = gs_vector_dim(lw, dn, &d.index_vector_dim);
	for (i = 0; i < 6; i++)
		if (n[i] < 0)
			return lw->err;
	if (n[2] != n[3])
		return hlo_lower_fail(lw, -EINVAL,
				      "operand_batching_dims has %d entries, start_indices_batching_dims %d",
				      n[2], n[3]);
	ns = hlo_int_list(lw, pw_hlo_op_attr(lw->op, "slice_sizes"),
			  "slice_sizes", sizes, PW_MAX_RANK);
	if (ns < 0)
		return lw->err;
	if ((uint32_t)ns != v[0]->type->rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "slice_sizes has %d entries for an operand of rank %u",
				      ns, v[0]->type->rank);
	for (i = 0; i < ns; i++) {
		if (sizes[i] < 0 || sizes[i] > v[0]->type->dims[i])
			return hlo_lower_fail(lw, -EINVAL,
					      "slice_sizes[%d] = %lld is not inside 0..%lld",
					      i, (long long)sizes[i],
					      (long long)v[0]->type->dims[i]);
		d.slice_sizes[i] = (uint32_t)sizes[i];
	}
	d.n_offset_dims = (unsigned int)n[0];
	d.n_collapsed_slice_dims = (unsigned int)n[1];
	d.n_batching_dims = (unsigned int)n[2];
	d.n_start_index_map = (unsigned int)n[4];
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_gather(lw->b, v[0]->v, v[1]->v, &d));
}
