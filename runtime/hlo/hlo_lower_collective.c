// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_collective.c - StableHLO's collectives over the slice a
 * function is called on: all_reduce, as JAX's psum under pmap lowers.
 *
 * The device's collectives reduce over every member of the slice, in
 * virtual device order. A module's replica_groups must say the same:
 * one group, 0..n-1 in order; the function then requires slices of n
 * devices (pw_fn_builder_require_group()), so that a call on another
 * size fails rather than reducing over a different group.
 */
#include <errno.h>
#include <string.h>

#include "../fn/fn.h"
#include "hlo_lower_impl.h"

/* n, when @a is one group listing 0..n-1 in order; else the failure. */
static int one_group(struct hlo_lower *lw, const struct pw_hlo_attr *a)
{
	const struct pw_hlo_type *t = a ? a->type : NULL;
	uint64_t n, i;

	if (!a || a->kind != PW_HLO_ATTR_DENSE || !a->bytes || !t ||
	    t->rank != 2 || (t->dtype != PW_HLO_DT_I64 &&
			     t->dtype != PW_HLO_DT_I32))
		return hlo_lower_fail(lw, -EINVAL,
				      "replica_groups is not a dense 2-D tensor of integers");
	if (t->dims[0] != 1 || a->splat)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "replica groups other than one group of every device are not supported yet");
	n = (uint64_t)t->dims[1];
	if (n < 1 || n > PWTPU_MAX_GANG)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "a group of %lld devices: the device's collectives take 1..%u",
				      (long long)t->dims[1], PWTPU_MAX_GANG);
	for (i = 0; i < n; i++) {
		int64_t id;

		if (t->dtype == PW_HLO_DT_I64) {
			memcpy(&id, a->bytes + 8 * i, 8);
		} else {
			int32_t id32;

			memcpy(&id32, a->bytes + 4 * i, 4);
			id = id32;
		}
		if (id != (int64_t)i)
			return hlo_lower_fail(lw, -EOPNOTSUPP,
					      "replica_groups must list 0..%llu in order (the slice's order)",
					      (unsigned long long)n - 1);
	}
	return (int)n;
}

static const enum pwtpu_reduce all_reduce_mode[] = {
	[HLO_ADD] = PWTPU_REDUCE_SUM, [HLO_MAX] = PWTPU_REDUCE_MAX,
	[HLO_MIN] = PWTPU_REDUCE_MIN, [HLO_MUL] = PWTPU_REDUCE_PROD,
};

int hlo_lower_all_reduce(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	enum hlo_binary op = HLO_ADD;
	const struct hlo_val *x;
	int n, ret;

	(void)arg;
	if (lw->branches)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "a collective inside a branch of stablehlo.case or stablehlo.if is not supported: every branch is computed");
	if (!lw->op->noperands || lw->op->noperands != lw->op->nresults)
		return hlo_lower_fail(lw, -EINVAL,
				      "has %u operands and %u results",
				      lw->op->noperands, lw->op->nresults);
	if (lw->op->noperands > 1)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "all_reduce of %u operands together is not supported yet",
				      lw->op->noperands);
	n = one_group(lw, pw_hlo_op_attr(lw->op, "replica_groups"));
	if (n < 0 ||
	    hlo_body_binary(lw, 1u << HLO_ADD | 1u << HLO_MAX | 1u << HLO_MIN |
			    1u << HLO_MUL, "add, maximum, minimum or multiply",
			    &op))
		return lw->err;
	ret = pw_fn_builder_require_group(lw->b, (unsigned int)n);
	if (ret)
		return hlo_lower_builder_fail(lw, ret);
	x = hlo_operand(lw, sc, 0);
	if (!x || hlo_check_type(lw, x->type))
		return lw->err;
	/* The device's collectives reduce these alone. */
	if (x->type->dtype != PW_HLO_DT_F32 &&
	    x->type->dtype != PW_HLO_DT_BF16 &&
	    x->type->dtype != PW_HLO_DT_I32)
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "all_reduce of %s is not supported by the device yet",
				      pw_hlo_dtype_name(x->type->dtype));
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_all_reduce(lw->b, all_reduce_mode[op], x->v));
}
