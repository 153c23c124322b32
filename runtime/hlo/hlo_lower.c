// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower.c - a StableHLO module's entry function to a compiled
 * function (docs/stablehlo.md, "Lowering"): values bound to names,
 * func.call inlined, the test suite's checks turned into results, and
 * each op handed to its handler (hlo_lower_ops.c).
 *
 * The module is trusted for nothing: an undefined value, a wrong operand
 * count or an unsupported type is an error naming the op's line and
 * column, never a wrong function.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fn/fn.h"
#include "hlo_lower_impl.h"

int hlo_lower_fail(struct hlo_lower *lw, int err, const char *fmt, ...)
{
	size_t n = 0;
	va_list ap;

	if (lw->err)
		return lw->err;
	lw->err = err;
	if (!lw->msg || !lw->msglen)
		return err;
	if (lw->op)
		n = (size_t)snprintf(lw->msg, lw->msglen, "%u:%u: %s: ",
				     lw->op->line, lw->op->col, lw->op->name);
	if (n < lw->msglen) {
		va_start(ap, fmt);
		vsnprintf(lw->msg + n, lw->msglen - n, fmt, ap);
		va_end(ap);
	}
	return err;
}

int hlo_lower_builder_fail(struct hlo_lower *lw, pw_val v)
{
	/* The builder's limits are the device's: say so as they are. */
	return hlo_lower_fail(lw, v, "%s", pw_last_error());
}

static bool is_return(const char *name)
{
	return !strcmp(name, "func.return") || !strcmp(name, "return") ||
	       !strcmp(name, "stablehlo.return");
}

/* @name#@index in @sc itself. */
static struct hlo_val *scope_find_here(struct hlo_scope *sc,
				       const char *name, uint32_t index)
{
	unsigned int i;

	for (i = sc->n; i-- > 0;)
		if (sc->vals[i].index == index &&
		    !strcmp(sc->vals[i].name, name))
			return &sc->vals[i];
	return NULL;
}

/* @name#@index in @sc, else in the scopes it sees (a region's). */
static struct hlo_val *scope_find(struct hlo_scope *sc, const char *name,
				  uint32_t index)
{
	struct hlo_val *v;

	for (; sc; sc = sc->parent) {
		v = scope_find_here(sc, name, index);
		if (v)
			return v;
	}
	return NULL;
}

static int scope_bind(struct hlo_lower *lw, struct hlo_scope *sc,
		      const char *name, uint32_t index,
		      const struct pw_hlo_type *type, pw_val v, bool verdict)
{
	struct hlo_val *n;

	if (scope_find_here(sc, name, index))
		return hlo_lower_fail(lw, -EINVAL, "%%%s#%u is defined twice",
				      name, index);
	if (sc->n == sc->cap) {
		unsigned int cap = sc->cap ? sc->cap * 2 : 32;

		n = realloc(sc->vals, cap * sizeof(*n));
		if (!n)
			return hlo_lower_fail(lw, -ENOMEM, "out of memory");
		sc->vals = n;
		sc->cap = cap;
	}
	sc->vals[sc->n++] = (struct hlo_val){ .name = name, .index = index,
		.type = type, .v = v, .verdict = verdict };
	return 0;
}

const struct hlo_val *hlo_operand(struct hlo_lower *lw, struct hlo_scope *sc,
				  unsigned int i)
{
	const struct pw_hlo_value *ref;
	struct hlo_val *val;

	if (i >= lw->op->noperands) {
		hlo_lower_fail(lw, -EINVAL, "has %u operands, needs more",
			       lw->op->noperands);
		return NULL;
	}
	ref = &lw->op->operands[i];
	val = scope_find(sc, ref->name, ref->index);
	if (!val) {
		if (ref->index)
			hlo_lower_fail(lw, -EINVAL,
				       "operand %%%s#%u is not defined",
				       ref->name, ref->index);
		else
			hlo_lower_fail(lw, -EINVAL,
				       "operand %%%s is not defined", ref->name);
		return NULL;
	}
	if (val->verdict) {
		hlo_lower_fail(lw, -EOPNOTSUPP,
			       "operand %%%s is a @check.eq outcome, which only the host evaluates",
			       ref->name);
		return NULL;
	}
	return val;
}

int hlo_operands(struct hlo_lower *lw, struct hlo_scope *sc, unsigned int n,
		 const struct hlo_val **v)
{
	unsigned int i;

	if (lw->op->noperands != n || lw->op->nresults != 1)
		return hlo_lower_fail(lw, -EINVAL,
				      "takes %u operand%s and gives 1 result, not %u and %u",
				      n, n == 1 ? "" : "s", lw->op->noperands,
				      lw->op->nresults);
	for (i = 0; i < n; i++) {
		v[i] = hlo_operand(lw, sc, i);
		if (!v[i] || hlo_check_type(lw, v[i]->type))
			return lw->err;
	}
	return 0;
}

/* Name and index of result @i of @op: the group that holds it. */
static void result_name(const struct pw_hlo_op *op, unsigned int i,
			const char **name, uint32_t *index)
{
	unsigned int g;

	for (g = 0; g < op->ngroups; g++) {
		if (i < op->groups[g].count)
			break;
		i -= op->groups[g].count;
	}
	*name = g < op->ngroups ? op->groups[g].name : "";
	*index = i;
}

/*
 * What the builder made for an op must be what the op says it gives: a
 * module whose result types do not follow from its operands is not
 * valid StableHLO, and its function would not have the signature the
 * module declares.
 */
static int hlo_check_made(struct hlo_lower *lw, pw_val v,
			  const struct pw_hlo_type *t)
{
	struct pw_sig sig;
	uint32_t k;

	if (pw_fn_builder_sig(lw->b, v, &sig))
		return hlo_lower_fail(lw, -EINVAL, "no value was made");
	if (sig.dtype != pw_hlo_device_dtype(t->dtype))
		goto differ;
	if (!t->rank && lw->wide_rank) {
		/* A body applied element-wise: its scalars are tensors. */
		if (sig.rank != lw->wide_rank)
			goto differ;
		for (k = 0; k < sig.rank; k++)
			if (sig.shape[k] != lw->wide_shape[k])
				goto differ;
		return 0;
	}
	if (sig.rank != t->rank)
		goto differ;
	for (k = 0; k < t->rank; k++)
		if (sig.shape[k] != t->dims[k])
			goto differ;
	return 0;
differ:
	return hlo_lower_fail(lw, -EINVAL,
			      "its result type is not what its operands give");
}

int hlo_bind_result(struct hlo_lower *lw, struct hlo_scope *sc,
		    unsigned int i, pw_val v)
{
	const struct pw_hlo_op *op = lw->op;
	struct pw_sig sig;
	const char *name;
	uint32_t index;

	if (v < 0)
		return hlo_lower_builder_fail(lw, v);
	if (i >= op->nresults)
		return hlo_lower_fail(lw, -EINVAL, "has %u results, needs more",
				      op->nresults);
	if (hlo_check_type(lw, op->result_types[i]))
		return lw->err;
	/* In a body applied element-wise, a scalar made (a constant) widens. */
	if (lw->wide_rank && !op->result_types[i]->rank &&
	    !pw_fn_builder_sig(lw->b, v, &sig) && !sig.rank)
		v = pw_fn_broadcast(lw->b, v, lw->wide_rank, lw->wide_shape);
	if (v < 0)
		return hlo_lower_builder_fail(lw, v);
	if (hlo_check_made(lw, v, op->result_types[i]))
		return lw->err;
	result_name(op, i, &name, &index);
	return scope_bind(lw, sc, name, index, op->result_types[i], v, false);
}

enum pwtpu_dtype pw_hlo_device_dtype(enum pw_hlo_dtype dt)
{
	static const enum pwtpu_dtype device[] = {
		[PW_HLO_DT_I1] = PWTPU_DT_I8,	/* a predicate: 0 or 1 */
		[PW_HLO_DT_I8] = PWTPU_DT_I8,
		[PW_HLO_DT_I16] = PWTPU_DT_I16,
		[PW_HLO_DT_I32] = PWTPU_DT_I32,
		[PW_HLO_DT_I64] = PWTPU_DT_I64,
		[PW_HLO_DT_UI8] = PWTPU_DT_U8,
		[PW_HLO_DT_UI16] = PWTPU_DT_U16,
		[PW_HLO_DT_UI32] = PWTPU_DT_U32,
		[PW_HLO_DT_UI64] = PWTPU_DT_U64,
		[PW_HLO_DT_F16] = PWTPU_DT_F16,
		[PW_HLO_DT_BF16] = PWTPU_DT_BF16,
		[PW_HLO_DT_F32] = PWTPU_DT_F32,
		[PW_HLO_DT_F64] = PWTPU_DT_F64,
	};

	if ((unsigned int)dt >= sizeof(device) / sizeof(device[0]))
		return 0;
	return device[dt];
}

bool hlo_is_float(enum pw_hlo_dtype dt)
{
	return dt == PW_HLO_DT_F16 || dt == PW_HLO_DT_BF16 ||
	       dt == PW_HLO_DT_F32 || dt == PW_HLO_DT_F64;
}

bool hlo_is_unsigned(enum pw_hlo_dtype dt)
{
	return dt == PW_HLO_DT_UI8 || dt == PW_HLO_DT_UI16 ||
	       dt == PW_HLO_DT_UI32 || dt == PW_HLO_DT_UI64;
}

int hlo_check_type(struct hlo_lower *lw, const struct pw_hlo_type *t)
{
	uint64_t elems = 1;
	uint32_t k;

	if (!t)
		return hlo_lower_fail(lw, -EINVAL, "a value has no type");
	if (t->kind != PW_HLO_TYPE_TENSOR)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "values of type %s are not supported",
				      t->kind == PW_HLO_TYPE_TOKEN ? "token" :
				      t->kind == PW_HLO_TYPE_TUPLE ? "tuple" :
				      t->name ? t->name : "(not a tensor)");
	if (!pw_hlo_device_dtype(t->dtype))
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "element type %s is not supported by the device yet",
				      t->name ? t->name :
				      pw_hlo_dtype_name(t->dtype));
	if (t->rank > PW_MAX_RANK)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "rank %u is above the device's %d",
				      t->rank, PW_MAX_RANK);
	for (k = 0; k < t->rank; k++) {
		if (t->dims[k] < 0)
			return hlo_lower_fail(lw, -EOPNOTSUPP,
					      "dynamic dimensions are not supported");
		if (t->dims[k] == 0)
			return hlo_lower_fail(lw, -EOPNOTSUPP,
					      "tensors with no elements are not supported");
		/* Both at most 2^26: the product cannot overflow. */
		if (t->dims[k] > PWTPU_MAX_ELEMS ||
		    (elems *= (uint64_t)t->dims[k]) > PWTPU_MAX_ELEMS)
			return hlo_lower_fail(lw, -E2BIG,
					      "more than %u elements in a tensor",
					      PWTPU_MAX_ELEMS);
	}
	return 0;
}

void hlo_shape(const struct pw_hlo_type *t, uint32_t *shape)
{
	uint32_t k;

	for (k = 0; k < t->rank && k < PW_MAX_RANK; k++)
		shape[k] = (uint32_t)t->dims[k];
}

uint64_t hlo_elems(const struct pw_hlo_type *t)
{
	uint64_t n = 1;
	uint32_t k;

	for (k = 0; k < t->rank; k++)
		n *= (uint64_t)t->dims[k];
	return n;
}

bool hlo_same_shape(const struct pw_hlo_type *a, const struct pw_hlo_type *b)
{
	/* A rank-0 type may have no dims array at all. */
	return a->rank == b->rank &&
	       (!a->rank ||
		!memcmp(a->dims, b->dims, a->rank * sizeof(*a->dims)));
}

int hlo_int_list(struct hlo_lower *lw, const struct pw_hlo_attr *a,
		 const char *what, int64_t *out, unsigned int max)
{
	unsigned int i, n;

	if (!a)
		return hlo_lower_fail(lw, -EINVAL, "no %s", what);
	switch (a->kind) {
	case PW_HLO_ATTR_ARRAY:
		if (a->n > max)
			break;
		for (i = 0; i < a->n; i++) {
			if (a->elems[i]->kind != PW_HLO_ATTR_INT)
				return hlo_lower_fail(lw, -EINVAL,
						      "%s: item %u is not an integer",
						      what, i);
			/* Two's complement of the magnitude, without overflow. */
			out[i] = (int64_t)(a->elems[i]->neg ?
					   0 - a->elems[i]->u :
					   a->elems[i]->u);
		}
		return (int)a->n;
	case PW_HLO_ATTR_DENSE_ARRAY:
	case PW_HLO_ATTR_DENSE:
		if (!a->bytes || a->splat || !a->type ||
		    (a->type->dtype != PW_HLO_DT_I64 &&
		     a->type->dtype != PW_HLO_DT_I32))
			return hlo_lower_fail(lw, -EINVAL,
					      "%s: not a list of i64 or i32",
					      what);
		n = (unsigned int)(a->nbytes /
				   pw_hlo_dtype_size(a->type->dtype));
		if (n > max)
			break;
		for (i = 0; i < n; i++) {
			int32_t v32;

			if (a->type->dtype == PW_HLO_DT_I64) {
				memcpy(&out[i], a->bytes + 8 * i, 8);
			} else {
				memcpy(&v32, a->bytes + 4 * i, 4);
				out[i] = v32;
			}
		}
		return (int)n;
	default:
		return hlo_lower_fail(lw, -EINVAL, "%s: not a list of integers",
				      what);
	}
	return hlo_lower_fail(lw, -EOPNOTSUPP, "%s: more than %u items", what,
			      max);
}

/*
 * The name of the one binary op of its two arguments that is @op's
 * region @region, or NULL.
 */
static const char *body_binary_op(const struct pw_hlo_op *op,
				  unsigned int region)
{
	const struct pw_hlo_block *blk;
	const struct pw_hlo_op *o, *r;
	unsigned int i;

	if (op->nregions <= region || op->regions[region].nblocks != 1)
		return NULL;
	blk = &op->regions[region].blocks[0];
	if (blk->nargs != 2 || blk->nops != 2)
		return NULL;
	o = blk->ops[0];
	r = blk->ops[1];
	if (o->noperands != 2 || o->nresults != 1 || o->nregions ||
	    !is_return(r->name) || r->noperands != 1 ||
	    strcmp(r->operands[0].name, o->groups[0].name) ||
	    r->operands[0].index)
		return NULL;
	/* Either order of the arguments: every op asked about commutes. */
	for (i = 0; i < 2; i++)
		if (o->operands[i].index ||
		    (strcmp(o->operands[i].name, blk->args[0].name) &&
		     strcmp(o->operands[i].name, blk->args[1].name)))
			return NULL;
	if (!strcmp(o->operands[0].name, o->operands[1].name))
		return NULL;
	return o->name;
}

int hlo_region_binary(struct hlo_lower *lw, unsigned int region,
		      unsigned int allowed, const char *what,
		      enum hlo_binary *op)
{
	const char *name = body_binary_op(lw->op, region);
	const struct hlo_op_entry *e = name ? hlo_find_op(name) : NULL;

	if (e && e->fn == hlo_lower_binary && (allowed >> e->arg & 1)) {
		*op = (enum hlo_binary)e->arg;
		return 0;
	}
	if (!what)
		return -EOPNOTSUPP;
	return hlo_lower_fail(lw, -EOPNOTSUPP,
			      "a body other than one %s of its two arguments is not supported yet",
			      what);
}

int hlo_body_binary(struct hlo_lower *lw, unsigned int allowed,
		    const char *what, enum hlo_binary *op)
{
	if (lw->op->nregions != 1) {
		if (!what)
			return -EOPNOTSUPP;
		return hlo_lower_fail(lw, -EINVAL, "needs one body");
	}
	return hlo_region_binary(lw, 0, allowed, what, op);
}

static int add_out(struct hlo_lower *lw, pw_val v, enum pw_hlo_dtype dt,
		   unsigned int *index)
{
	if (lw->nouts == lw->outs_cap) {
		unsigned int cap = lw->outs_cap ? lw->outs_cap * 2 : 8;
		struct hlo_out *n = realloc(lw->outs, cap * sizeof(*n));

		if (!n)
			return hlo_lower_fail(lw, -ENOMEM, "out of memory");
		lw->outs = n;
		lw->outs_cap = cap;
	}
	*index = lw->nouts;
	lw->outs[lw->nouts++] = (struct hlo_out){ .v = v, .dtype = dt };
	return 0;
}

static const struct {
	const char *target;
	enum pw_hlo_check_kind kind;
} check_targets[] = {
	{ "check.expect_eq", PW_HLO_CHECK_EXPECT_EQ },
	{ "check.expect_close", PW_HLO_CHECK_EXPECT_CLOSE },
	{ "check.expect_almost_eq", PW_HLO_CHECK_EXPECT_ALMOST_EQ },
	{ "check.eq", PW_HLO_CHECK_EQ },
};

/*
 * A custom call: only the test suite's checks, whose operands become
 * results (their indices among the checks' outputs for now: lower_entry
 * shifts them past @main's own).
 */
static int lower_custom_call(struct hlo_lower *lw, struct hlo_scope *sc)
{
	const struct pw_hlo_attr *t = pw_hlo_op_attr(lw->op,
						     "call_target_name");
	const struct hlo_val *x, *y;
	struct pw_hlo_check *c;
	unsigned int i, ix, iy;
	const char *name;
	uint32_t index;

	if (!t || t->kind != PW_HLO_ATTR_STRING)
		return hlo_lower_fail(lw, -EINVAL, "no call_target_name");
	for (i = 0; i < sizeof(check_targets) / sizeof(check_targets[0]); i++)
		if (strlen(check_targets[i].target) == t->len &&
		    !memcmp(check_targets[i].target, t->text, t->len))
			break;
	if (i == sizeof(check_targets) / sizeof(check_targets[0]))
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "custom call @%.*s is not supported",
				      (int)t->len, t->text);
	if (!lw->keep_checks)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "@%s is an assertion of the StableHLO test suite: run such modules with pwhlo",
				      check_targets[i].target);
	if (lw->branches)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "@%s inside a branch of stablehlo.case or stablehlo.if is not supported: every branch is computed, and the check would hold whichever is taken",
				      check_targets[i].target);
	if (lw->op->noperands != 2)
		return hlo_lower_fail(lw, -EINVAL, "@%s takes 2 operands, not %u",
				      check_targets[i].target,
				      lw->op->noperands);
	x = hlo_operand(lw, sc, 0);
	y = x ? hlo_operand(lw, sc, 1) : NULL;
	if (!y)
		return lw->err;
	if (x->type->dtype != y->type->dtype ||
	    hlo_elems(x->type) != hlo_elems(y->type))
		return hlo_lower_fail(lw, -EINVAL,
				      "operands differ in type or element count");
	if (add_out(lw, x->v, x->type->dtype, &ix) ||
	    add_out(lw, y->v, y->type->dtype, &iy))
		return lw->err;
	if (lw->nchecks == lw->checks_cap) {
		unsigned int cap = lw->checks_cap ? lw->checks_cap * 2 : 4;

		c = realloc(lw->checks, cap * sizeof(*c));
		if (!c)
			return hlo_lower_fail(lw, -ENOMEM, "out of memory");
		lw->checks = c;
		lw->checks_cap = cap;
	}
	lw->checks[lw->nchecks++] = (struct pw_hlo_check){
		.kind = check_targets[i].kind, .actual = ix, .expected = iy,
		.line = lw->op->line };
	/* check.eq gives an i1 outcome, which only the host knows. */
	for (i = 0; i < lw->op->nresults; i++) {
		result_name(lw->op, i, &name, &index);
		if (scope_bind(lw, sc, name, index, lw->op->result_types[i],
			       -1, true))
			return lw->err;
	}
	return 0;
}

static int lower_body(struct hlo_lower *lw, const struct pw_hlo_func *fn,
		      struct hlo_scope *sc, const struct pw_hlo_op **ret);

/* func.call: the callee's body inlined, its arguments bound to ours. */
static int lower_call(struct hlo_lower *lw, struct hlo_scope *sc)
{
	const struct pw_hlo_op *call = lw->op, *ret = NULL;
	const struct pw_hlo_attr *callee = pw_hlo_op_attr(call, "callee");
	struct hlo_scope inner = { 0 };
	const struct pw_hlo_func *fn;
	const struct hlo_val *v;
	unsigned int i;

	if (!callee || callee->kind != PW_HLO_ATTR_SYMBOL)
		return hlo_lower_fail(lw, -EINVAL, "no callee");
	fn = pw_hlo_find_func(lw->mod, callee->text);
	if (!fn || !fn->body.nblocks)
		return hlo_lower_fail(lw, -EINVAL, "@%s is not defined",
				      callee->text);
	if (fn->nargs != call->noperands || fn->nresults != call->nresults)
		return hlo_lower_fail(lw, -EINVAL,
				      "@%s takes %u arguments and gives %u results, called with %u and %u",
				      fn->name, fn->nargs, fn->nresults,
				      call->noperands, call->nresults);
	if (lw->calls >= HLO_LOWER_MAX_CALLS)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "calls nest deeper than %d (recursion?)",
				      HLO_LOWER_MAX_CALLS);
	for (i = 0; i < call->noperands; i++) {
		v = hlo_operand(lw, sc, i);
		if (!v)
			goto out;
		if (!fn->args[i].type ||
		    v->type->dtype != fn->args[i].type->dtype ||
		    !hlo_same_shape(v->type, fn->args[i].type)) {
			hlo_lower_fail(lw, -EINVAL,
				       "argument %u is not of @%s's parameter type",
				       i, fn->name);
			goto out;
		}
		if (scope_bind(lw, &inner, fn->args[i].name, 0,
			       fn->args[i].type, v->v, false))
			goto out;
	}
	lw->calls++;
	lower_body(lw, fn, &inner, &ret);
	lw->calls--;
	lw->op = call;
	if (lw->err)
		goto out;
	for (i = 0; i < call->nresults; i++) {
		const struct pw_hlo_value *r = &ret->operands[i];

		const char *name;
		uint32_t index;

		v = scope_find(&inner, r->name, r->index);
		if (v->verdict) {
			/* A check.eq's outcome stays the host's. */
			result_name(call, i, &name, &index);
			if (scope_bind(lw, sc, name, index,
				       call->result_types[i], -1, true))
				break;
			continue;
		}
		if (hlo_bind_result(lw, sc, i, v->v))
			break;
	}
out:
	free(inner.vals);
	return lw->err;
}

/*
 * Lower @fn's body in @sc, which holds its arguments; *@ret is its
 * return, whose operands are checked to be defined and of the results'
 * types.
 */
/* The ops of @blk up to its return (*@ret), lowered in @sc. */
static int lower_block(struct hlo_lower *lw, const struct pw_hlo_block *blk,
		       struct hlo_scope *sc, const struct pw_hlo_op **ret)
{
	const struct hlo_op_entry *e;
	const struct pw_hlo_op *op;
	unsigned int i;

	for (i = 0; i < blk->nops; i++) {
		op = lw->op = blk->ops[i];
		if (is_return(op->name)) {
			*ret = op;
			return 0;
		}
		if (!strcmp(op->name, "func.call") ||
		    !strcmp(op->name, "call"))
			lower_call(lw, sc);
		else if (!strcmp(op->name, "stablehlo.custom_call"))
			lower_custom_call(lw, sc);
		else if ((e = hlo_find_op(op->name)))
			e->fn(lw, sc, e->arg);
		else
			hlo_lower_fail(lw, -EOPNOTSUPP, "not supported yet");
		if (lw->err)
			return lw->err;
	}
	return -ENOENT;
}

static int lower_body(struct hlo_lower *lw, const struct pw_hlo_func *fn,
		      struct hlo_scope *sc, const struct pw_hlo_op **ret)
{
	const struct pw_hlo_op *op;
	unsigned int i;
	int err;

	if (fn->body.nblocks != 1)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "@%s has %u blocks: control flow between blocks is not supported",
				      fn->name, fn->body.nblocks);
	err = lower_block(lw, &fn->body.blocks[0], sc, ret);
	if (err == -ENOENT)
		return hlo_lower_fail(lw, -EINVAL, "@%s does not return",
				      fn->name);
	if (err)
		return err;
	op = *ret;
	if (op->noperands != fn->nresults)
		return hlo_lower_fail(lw, -EINVAL,
				      "returns %u values, @%s has %u results",
				      op->noperands, fn->name, fn->nresults);
	for (i = 0; i < op->noperands; i++) {
		struct hlo_val *v = scope_find(sc, op->operands[i].name,
					       op->operands[i].index);

		if (!v)
			return hlo_lower_fail(lw, -EINVAL,
					      "operand %%%s is not defined",
					      op->operands[i].name);
		if (hlo_check_type(lw, fn->result_types[i]))
			return lw->err;
		if (v->type->dtype != fn->result_types[i]->dtype ||
		    !hlo_same_shape(v->type, fn->result_types[i]))
			return hlo_lower_fail(lw, -EINVAL,
					      "value %u is not of @%s's result type",
					      i, fn->name);
	}
	return 0;
}

int hlo_lower_region(struct hlo_lower *lw, struct hlo_scope *sc,
		     unsigned int region,
		     const struct pw_hlo_type *const *arg_types,
		     const pw_val *args, unsigned int nargs, unsigned int nout,
		     pw_val *out, const struct pw_hlo_type **out_types)
{
	const struct pw_hlo_op *op = lw->op, *ret = NULL;
	struct hlo_scope inner = { .parent = sc };
	const struct pw_hlo_block *blk;
	const struct pw_hlo_type *t;
	const struct hlo_val *v;
	unsigned int i;
	int err;

	if (op->nregions <= region || op->regions[region].nblocks != 1)
		return hlo_lower_fail(lw, -EINVAL,
				      "region %u is not one block", region);
	blk = &op->regions[region].blocks[0];
	if (blk->nargs != nargs)
		return hlo_lower_fail(lw, -EINVAL,
				      "region %u takes %u arguments, needs %u",
				      region, blk->nargs, nargs);
	for (i = 0; i < nargs; i++) {
		t = blk->args[i].type;
		if (!t || t->kind != PW_HLO_TYPE_TENSOR ||
		    t->dtype != arg_types[i]->dtype ||
		    !hlo_same_shape(t, arg_types[i])) {
			hlo_lower_fail(lw, -EINVAL,
				       "argument %u of region %u is not of operand %u's type",
				       i, region, i);
			goto out;
		}
		if (scope_bind(lw, &inner, blk->args[i].name, 0, t, args[i],
			       false))
			goto out;
	}
	err = lower_block(lw, blk, &inner, &ret);
	lw->op = op;
	if (err == -ENOENT)
		hlo_lower_fail(lw, -EINVAL, "region %u does not return",
			       region);
	if (lw->err)
		goto out;
	if (ret->noperands != nout) {
		hlo_lower_fail(lw, -EINVAL, "region %u returns %u values, needs %u",
			       region, ret->noperands, nout);
		goto out;
	}
	for (i = 0; i < nout; i++) {
		v = scope_find(&inner, ret->operands[i].name,
			       ret->operands[i].index);
		if (!v) {
			hlo_lower_fail(lw, -EINVAL,
				       "region %u returns %%%s, which is not defined",
				       region, ret->operands[i].name);
			goto out;
		}
		if (v->verdict) {
			hlo_lower_fail(lw, -EOPNOTSUPP,
				       "region %u returns a @check.eq outcome, which only the host evaluates",
				       region);
			goto out;
		}
		out[i] = v->v;
		out_types[i] = v->type;
	}
out:
	free(inner.vals);
	return lw->err;
}

int hlo_apply_region(struct hlo_lower *lw, unsigned int region,
		     const pw_val *args, unsigned int nargs,
		     unsigned int nout, const enum pw_hlo_dtype *want,
		     uint32_t rank, const uint32_t *shape, pw_val *out)
{
	const struct pw_hlo_op *op = lw->op, *ret = NULL;
	struct hlo_scope inner = { 0 };
	const struct pw_hlo_block *blk;
	const struct hlo_val *v;
	unsigned int i;
	int err;

	if (op->nregions <= region || op->regions[region].nblocks != 1)
		return hlo_lower_fail(lw, -EINVAL,
				      "needs a body of one block");
	blk = &op->regions[region].blocks[0];
	if (blk->nargs != nargs)
		return hlo_lower_fail(lw, -EINVAL,
				      "its body takes %u arguments, needs %u",
				      blk->nargs, nargs);
	if (lw->wide_rank)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "a body inside a body is not supported yet");
	for (i = 0; i < nargs; i++)
		if (!blk->args[i].type || blk->args[i].type->rank ||
		    scope_bind(lw, &inner, blk->args[i].name, 0,
			       blk->args[i].type, args[i], false)) {
			hlo_lower_fail(lw, -EINVAL,
				       "argument %u of its body is not a scalar",
				       i);
			goto out;
		}
	lw->wide_rank = rank;
	memcpy(lw->wide_shape, shape, rank * sizeof(*shape));
	err = lower_block(lw, blk, &inner, &ret);
	lw->wide_rank = 0;
	lw->op = op;
	if (err == -ENOENT)
		hlo_lower_fail(lw, -EINVAL, "its body does not return");
	if (lw->err)
		goto out;
	if (ret->noperands != nout) {
		hlo_lower_fail(lw, -EINVAL, "its body returns %u values, needs %u",
			       ret->noperands, nout);
		goto out;
	}
	for (i = 0; i < nout; i++) {
		v = scope_find(&inner, ret->operands[i].name,
			       ret->operands[i].index);
		if (!v || v->verdict || v->type->rank ||
		    v->type->dtype != (want ? want[i] :
				       blk->args[i].type->dtype)) {
			hlo_lower_fail(lw, -EINVAL,
				       "its body's value %u is not a scalar of the type it needs",
				       i);
			goto out;
		}
		out[i] = v->v;
	}
out:
	free(inner.vals);
	return lw->err;
}

int hlo_apply_body(struct hlo_lower *lw, struct hlo_scope *sc,
		   const pw_val *args, unsigned int nargs, unsigned int nout,
		   const enum pw_hlo_dtype *want, uint32_t rank,
		   const uint32_t *shape, pw_val *out)
{
	(void)sc;	/* a body sees only its arguments */
	if (lw->op->nregions != 1)
		return hlo_lower_fail(lw, -EINVAL, "needs one body");
	return hlo_apply_region(lw, 0, args, nargs, nout, want, rank, shape,
				out);
}

/* @main's parameters, body and results, then the checks' operands. */
static int lower_entry(struct hlo_lower *lw, const struct pw_hlo_func *fn,
		       struct pw_hlo_lowered *out)
{
	const struct pw_hlo_op *ret = NULL;
	struct hlo_scope sc = { 0 };
	uint32_t shape[PW_MAX_RANK];
	unsigned int i, nres = 0;
	pw_val v;

	lw->op = NULL;
	for (i = 0; i < fn->nargs; i++) {
		const struct pw_hlo_type *t = fn->args[i].type;

		if (hlo_check_type(lw, t))
			goto out;
		hlo_shape(t, shape);
		v = pw_fn_param(lw->b, pw_hlo_device_dtype(t->dtype), t->rank,
				shape);
		if (v < 0) {
			hlo_lower_builder_fail(lw, v);
			goto out;
		}
		if (scope_bind(lw, &sc, fn->args[i].name, 0, t, v, false))
			goto out;
	}
	if (lower_body(lw, fn, &sc, &ret))
		goto out;
	out->dtypes = calloc(fn->nresults + lw->nouts + 1,
			     sizeof(*out->dtypes));
	if (!out->dtypes) {
		hlo_lower_fail(lw, -ENOMEM, "out of memory");
		goto out;
	}
	lw->op = ret;
	for (i = 0; i < ret->noperands; i++) {
		struct hlo_val *r = scope_find(&sc, ret->operands[i].name,
					       ret->operands[i].index);

		if (r->verdict)
			continue;
		v = pw_fn_result(lw->b, r->v);
		if (v < 0) {
			hlo_lower_builder_fail(lw, v);
			goto out;
		}
		out->dtypes[nres++] = r->type->dtype;
	}
	out->nmain = nres;
	for (i = 0; i < lw->nouts; i++) {
		v = pw_fn_result(lw->b, lw->outs[i].v);
		if (v < 0) {
			hlo_lower_builder_fail(lw, v);
			goto out;
		}
		out->dtypes[nres + i] = lw->outs[i].dtype;
	}
	for (i = 0; i < lw->nchecks; i++) {
		lw->checks[i].actual += nres;
		lw->checks[i].expected += nres;
	}
out:
	free(sc.vals);
	return lw->err;
}

int pw_hlo_lower(const struct pw_hlo_module *mod, const char *entry,
		 bool keep_checks, struct pw_hlo_lowered *out, char *err,
		 size_t errlen)
{
	struct hlo_lower lw = { .mod = mod, .keep_checks = keep_checks,
				.msg = err, .msglen = errlen };
	const struct pw_hlo_func *fn;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!mod || !out)
		return hlo_lower_fail(&lw, -EINVAL, "no module or no output");
	memset(out, 0, sizeof(*out));
	entry = entry ? entry : "main";
	fn = pw_hlo_find_func(mod, entry);
	if (!fn || !fn->body.nblocks)
		return hlo_lower_fail(&lw, -EINVAL,
				      "the module has no function @%s", entry);
	/* JAX names a module after its function: @jit_f. */
	lw.b = pw_fn_begin(mod->name ? mod->name : entry);
	if (!lw.b)
		return hlo_lower_fail(&lw, -ENOMEM, "out of memory");
	if (!lower_entry(&lw, fn, out)) {
		ret = pw_fn_build(lw.b, &out->fn);
		lw.b = NULL;	/* freed by pw_fn_build() either way */
		if (ret)
			hlo_lower_fail(&lw, ret, "%s", pw_last_error());
	}
	if (lw.b) {
		/* Build a failed builder only to free it. */
		pw_fn_build(lw.b, &out->fn);
	}
	free(lw.outs);
	if (lw.err) {
		free(lw.checks);
		pw_hlo_lowered_free(out);
		/* pw_last_error() says the same as @err. */
		pw_fail(lw.err, "%s", err && errlen ? err : "lowering failed");
		return lw.err;
	}
	out->checks = lw.checks;
	out->nchecks = lw.nchecks;
	return 0;
}

void pw_hlo_lowered_free(struct pw_hlo_lowered *l)
{
	if (!l)
		return;
	pw_fn_put(l->fn);
	free(l->dtypes);
	free(l->checks);
	memset(l, 0, sizeof(*l));
}
