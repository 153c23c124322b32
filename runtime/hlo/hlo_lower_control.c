// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_control.c - control flow over device-side values:
 * stablehlo.while on the builder's loops (the device's bounded LOOP and
 * WHILE), stablehlo.case and stablehlo.if by computing every branch and
 * selecting the results.
 *
 * while: the loop variables are the builder's (pw_fn_while_begin()); its
 * cond region is lowered inside the loop, its i1 result the WHILE's
 * predicate (pw_fn_while_test()), then its body region, whose results
 * are the next values (pw_fn_while_end()). Each trip thus tests first,
 * so a loop whose condition is false at once runs its body zero times.
 * The trips are bounded by what the device allows one run
 * (PW_FN_TRIPS_AUTO): a loop that would go on longer fails the run with
 * -ELOOP, never a wrong result.
 *
 * case and if: the branches are pure, so all of them run and SELECTs
 * pick the results by the index (out of [0, n): the last branch, as the
 * spec says) or the predicate. A branch with an effect is refused while
 * it is lowered (lw->branches): a while (which might not end, and would
 * run whatever the index), a check, a collective.
 *
 * Regions see the values of the scope around the op (implicit capture),
 * besides their block arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fn/fn.h"
#include "hlo_lower_impl.h"

/* "tensor<2x3xf32>", for messages. */
static const char *type_str(const struct pw_hlo_type *t, char *buf,
			    size_t len)
{
	size_t n;
	uint32_t k;

	if (!t || t->kind != PW_HLO_TYPE_TENSOR) {
		snprintf(buf, len, "%s", t && t->name ? t->name : "?");
		return buf;
	}
	n = (size_t)snprintf(buf, len, "tensor<");
	for (k = 0; k < t->rank && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%lldx",
				      (long long)t->dims[k]);
	if (n < len)
		snprintf(buf + n, len - n, "%s>",
			 t->name ? t->name : pw_hlo_dtype_name(t->dtype));
	return buf;
}

static bool same_type(const struct pw_hlo_type *a, const struct pw_hlo_type *b)
{
	return a && b && a->kind == PW_HLO_TYPE_TENSOR &&
	       b->kind == PW_HLO_TYPE_TENSOR && a->dtype == b->dtype &&
	       hlo_same_shape(a, b);
}

/* A rank-0 tensor of @dt. */
static bool is_scalar_of(const struct pw_hlo_type *t, enum pw_hlo_dtype dt)
{
	return t && t->kind == PW_HLO_TYPE_TENSOR && !t->rank &&
	       t->dtype == dt;
}

/* Where a value's lifetime would make an op unsupported here. */
static int check_context(struct hlo_lower *lw, const char *what)
{
	if (lw->wide_rank)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "%s inside a body applied element-wise (reduce, sort, windows) is not supported",
				      what);
	return 0;
}

/*
 * The arrays a while needs: its operands' values and types, the loop
 * variables, the next values and their types.
 */
struct while_vals {
	pw_val *init;
	pw_val *vars;
	pw_val *next;
	const struct pw_hlo_type **types;
	const struct pw_hlo_type **next_types;
};

static void while_vals_free(struct while_vals *w)
{
	free(w->init);
	free(w->vars);
	free(w->next);
	free(w->types);
	free(w->next_types);
}

static int while_vals_alloc(struct hlo_lower *lw, struct while_vals *w,
			    unsigned int n)
{
	size_t m = n ? n : 1;

	w->init = calloc(m, sizeof(*w->init));
	w->vars = calloc(m, sizeof(*w->vars));
	w->next = calloc(m, sizeof(*w->next));
	w->types = calloc(m, sizeof(*w->types));
	w->next_types = calloc(m, sizeof(*w->next_types));
	if (!w->init || !w->vars || !w->next || !w->types || !w->next_types)
		return hlo_lower_fail(lw, -ENOMEM, "out of memory");
	return 0;
}

/* The operands, each of its result's type. */
static int while_operands(struct hlo_lower *lw, struct hlo_scope *sc,
			  struct while_vals *w, unsigned int n)
{
	const struct pw_hlo_op *op = lw->op;
	char s1[96], s2[96];
	const struct hlo_val *v;
	unsigned int i;

	for (i = 0; i < n; i++) {
		v = hlo_operand(lw, sc, i);
		if (!v || hlo_check_type(lw, v->type))
			return lw->err;
		if (!same_type(v->type, op->result_types[i]))
			return hlo_lower_fail(lw, -EINVAL,
					      "result %u is %s but operand %u is %s: a while's results are of its operands' types",
					      i,
					      type_str(op->result_types[i], s1,
						       sizeof(s1)),
					      i, type_str(v->type, s2,
							  sizeof(s2)));
		w->init[i] = v->v;
		w->types[i] = v->type;
	}
	return 0;
}

/* The cond region inside the loop, its i1 the loop's test. */
static int while_cond(struct hlo_lower *lw, struct hlo_scope *sc,
		      struct while_vals *w, unsigned int n)
{
	const struct pw_hlo_type *t = NULL;
	char s[96];
	pw_val pred;
	int ret;

	if (hlo_lower_region(lw, sc, 0, w->types, w->vars, n, 1, &pred, &t))
		return lw->err;
	if (!is_scalar_of(t, PW_HLO_DT_I1))
		return hlo_lower_fail(lw, -EINVAL,
				      "its cond returns %s, not tensor<i1>",
				      type_str(t, s, sizeof(s)));
	ret = pw_fn_while_test(lw->b, pred);
	return ret ? hlo_lower_builder_fail(lw, ret) : 0;
}

/* The body region inside the loop, its values the next ones. */
static int while_body(struct hlo_lower *lw, struct hlo_scope *sc,
		      struct while_vals *w, unsigned int n)
{
	char s1[96], s2[96];
	unsigned int i;
	int ret;

	if (hlo_lower_region(lw, sc, 1, w->types, w->vars, n, n, w->next,
			     w->next_types))
		return lw->err;
	for (i = 0; i < n; i++)
		if (!same_type(w->next_types[i], w->types[i]))
			return hlo_lower_fail(lw, -EINVAL,
					      "its body returns %s as value %u, which is %s",
					      type_str(w->next_types[i], s1,
						       sizeof(s1)),
					      i, type_str(w->types[i], s2,
							  sizeof(s2)));
	ret = pw_fn_while_end(lw->b, w->next);
	return ret ? hlo_lower_builder_fail(lw, ret) : 0;
}

int hlo_lower_while(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_op *op = lw->op;
	unsigned int n = op->noperands, i;
	struct while_vals w = { 0 };
	int ret;

	(void)arg;
	if (check_context(lw, "a while"))
		return lw->err;
	if (lw->branches)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "a while inside a branch of stablehlo.case or stablehlo.if is not supported: every branch is computed, and the loop might not end");
	if (op->nresults != n)
		return hlo_lower_fail(lw, -EINVAL,
				      "has %u operands and %u results: a while gives one result per operand",
				      n, op->nresults);
	if (op->nregions != 2)
		return hlo_lower_fail(lw, -EINVAL,
				      "has %u regions, needs 2 (cond and body)",
				      op->nregions);
	if (while_vals_alloc(lw, &w, n) || while_operands(lw, sc, &w, n))
		goto out;
	ret = pw_fn_while_begin(lw->b, n, w.init, w.vars, PW_FN_TRIPS_AUTO);
	if (ret) {
		hlo_lower_builder_fail(lw, ret);
		goto out;
	}
	if (while_cond(lw, sc, &w, n) || while_body(lw, sc, &w, n))
		goto out;
	for (i = 0; i < n; i++)
		if (hlo_bind_result(lw, sc, i, w.vars[i]))
			break;
out:
	while_vals_free(&w);
	return lw->err;
}

/* case's index or if's predicate: a rank-0 i32 or i1. */
static const struct hlo_val *case_selector(struct hlo_lower *lw,
					   struct hlo_scope *sc, bool is_if)
{
	const struct pw_hlo_op *op = lw->op;
	const struct hlo_val *x;
	char s[96];

	if (op->noperands != 1) {
		hlo_lower_fail(lw, -EINVAL, "takes 1 operand (its %s), not %u",
			       is_if ? "predicate" : "index", op->noperands);
		return NULL;
	}
	x = hlo_operand(lw, sc, 0);
	if (!x || hlo_check_type(lw, x->type))
		return NULL;
	if (!is_scalar_of(x->type, is_if ? PW_HLO_DT_I1 : PW_HLO_DT_I32)) {
		hlo_lower_fail(lw, -EINVAL, "its %s is %s, not tensor<%s>",
			       is_if ? "predicate" : "index",
			       type_str(x->type, s, sizeof(s)),
			       is_if ? "i1" : "i32");
		return NULL;
	}
	if (is_if && op->nregions != 2) {
		hlo_lower_fail(lw, -EINVAL,
			       "has %u regions, needs 2 (true and false)",
			       op->nregions);
		return NULL;
	}
	if (!op->nregions) {
		hlo_lower_fail(lw, -EINVAL, "has no branches");
		return NULL;
	}
	return x;
}

/* Every branch, its results into @vals[k * nres + r]. */
static int case_branches(struct hlo_lower *lw, struct hlo_scope *sc,
			 pw_val *vals, const struct pw_hlo_type **types)
{
	const struct pw_hlo_op *op = lw->op;
	unsigned int nres = op->nresults, k, r;
	char s1[96], s2[96];

	for (k = 0; k < op->nregions; k++) {
		lw->branches++;
		hlo_lower_region(lw, sc, k, NULL, NULL, 0, nres,
				 vals + (size_t)k * nres, types);
		lw->branches--;
		if (lw->err)
			return lw->err;
		for (r = 0; r < nres; r++)
			if (!same_type(types[r], op->result_types[r]))
				return hlo_lower_fail(lw, -EINVAL,
						      "branch %u returns %s as result %u, which is %s",
						      k,
						      type_str(types[r], s1,
							       sizeof(s1)),
						      r,
						      type_str(op->result_types[r],
							       s2, sizeof(s2)));
	}
	return 0;
}

/*
 * stablehlo.case (@arg 0) and stablehlo.if (@arg 1): every branch, then
 * if: select(pred, true branch, false branch); case: the last branch's
 * values, then from the one before the last down to branch 0,
 * select(index == k, branch k, so far), so that an index out of [0, n)
 * takes the last branch.
 */
int hlo_lower_case(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_op *op = lw->op;
	unsigned int nres = op->nresults, nbr = op->nregions, r, k;
	const struct pw_hlo_type **types = NULL;
	const struct hlo_val *x;
	pw_val *vals = NULL, *res = NULL, pred, key;
	bool is_if = arg;

	if (check_context(lw, is_if ? "an if" : "a case"))
		return lw->err;
	x = case_selector(lw, sc, is_if);
	if (!x)
		return lw->err;
	for (r = 0; r < nres; r++)
		if (hlo_check_type(lw, op->result_types[r]))
			return lw->err;
	vals = calloc((size_t)nbr * nres + 1, sizeof(*vals));
	types = calloc(nres + 1, sizeof(*types));
	res = calloc(nres + 1, sizeof(*res));
	if (!vals || !types || !res) {
		hlo_lower_fail(lw, -ENOMEM, "out of memory");
		goto out;
	}
	if (case_branches(lw, sc, vals, types))
		goto out;
	for (r = 0; r < nres; r++)
		res[r] = vals[(size_t)(nbr - 1) * nres + r];
	for (k = nbr - 1; k-- > 0 && nres;) {
		if (is_if) {
			pred = x->v;
		} else {
			key = pw_fn_scalar(lw->b, PWTPU_DT_I32, (double)k);
			pred = key < 0 ? key :
			       pw_fn_compare(lw->b, PWTPU_CMP_EQ, x->v, key);
		}
		for (r = 0; r < nres && pred >= 0; r++) {
			res[r] = pw_fn_select(lw->b, pred,
					      vals[(size_t)k * nres + r],
					      res[r]);
			if (res[r] < 0)
				pred = res[r];
		}
		if (pred < 0) {
			hlo_lower_builder_fail(lw, pred);
			goto out;
		}
	}
	for (r = 0; r < nres; r++)
		if (hlo_bind_result(lw, sc, r, res[r]))
			break;
out:
	free(vals);
	free(types);
	free(res);
	return lw->err;
}
