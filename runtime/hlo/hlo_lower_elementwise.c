// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_elementwise.c - StableHLO's element-wise ops, constants and
 * iota on the device's element-wise instructions.
 *
 * i1 lives on the device as an i8 of 0 or 1. StableHLO gives booleans
 * their own meaning of the arithmetic ops (add is or, multiply is and),
 * which max and min compute exactly on 0 and 1; xor is "not equal". On
 * the other integers and, or, xor and not are the device's bitwise ops;
 * the shifts, popcnt, count_leading_zeros, the rounding and
 * transcendental functions, power, remainder, bitcast_convert and
 * reduce_precision are each one instruction of the same meaning.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_lower_impl.h"

/* A dense constant's bytes for all of @t's elements (a splat repeated). */
static void *dense_bytes(struct hlo_lower *lw, const struct pw_hlo_attr *a,
			 const struct pw_hlo_type *t)
{
	size_t esz = pw_hlo_dtype_size(t->dtype);
	uint64_t n = hlo_elems(t), i;
	uint8_t *data;

	if (!a || a->kind != PW_HLO_ATTR_DENSE || !a->bytes || !a->type ||
	    a->type->dtype != t->dtype) {
		hlo_lower_fail(lw, -EINVAL, "no dense value of the result's type");
		return NULL;
	}
	if (!a->splat && (!hlo_same_shape(a->type, t) || a->nbytes != n * esz)) {
		hlo_lower_fail(lw, -EINVAL,
			       "the value's shape is not the result's");
		return NULL;
	}
	data = malloc(n * esz);
	if (!data) {
		hlo_lower_fail(lw, -ENOMEM, "out of memory");
		return NULL;
	}
	for (i = 0; i < (a->splat ? n : 1); i++)
		memcpy(data + i * esz, a->bytes, a->splat ? esz : n * esz);
	/* Hex data may hold any byte for an i1: the device's is 0 or 1. */
	if (t->dtype == PW_HLO_DT_I1)
		for (i = 0; i < n; i++)
			data[i] = data[i] != 0;
	return data;
}

int hlo_lower_constant(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_type *t = lw->op->nresults == 1 ?
				      lw->op->result_types[0] : NULL;
	uint32_t shape[PW_MAX_RANK];
	void *data;
	pw_val v;

	(void)arg;
	if (hlo_check_type(lw, t))
		return lw->err;
	data = dense_bytes(lw, pw_hlo_op_attr(lw->op, "value"), t);
	if (!data)
		return lw->err;
	hlo_shape(t, shape);
	v = pw_fn_const(lw->b, pw_hlo_device_dtype(t->dtype), t->rank, shape,
			data);
	free(data);
	return hlo_bind_result(lw, sc, 0, v);
}

/*
 * iota: its values known here, so an i32 constant (extents are far below
 * 2^31), converted on the device to the result's type as a convert would
 * (to nearest even for floats; to i1, "not zero").
 */
int hlo_lower_iota(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_type *t = lw->op->nresults == 1 ?
				      lw->op->result_types[0] : NULL;
	const struct pw_hlo_attr *d = pw_hlo_op_attr(lw->op, "iota_dimension");
	uint64_t n, i, inner = 1, k;
	uint32_t shape[PW_MAX_RANK], dim;
	enum pwtpu_dtype to;
	int32_t *data;
	pw_val v;

	(void)arg;
	if (hlo_check_type(lw, t))
		return lw->err;
	if (!d || d->kind != PW_HLO_ATTR_INT || d->neg || d->u >= t->rank)
		return hlo_lower_fail(lw, -EINVAL,
				      "iota_dimension is not a dimension of the result");
	dim = (uint32_t)d->u;
	for (k = dim + 1; k < t->rank; k++)
		inner *= (uint64_t)t->dims[k];
	n = hlo_elems(t);
	if (n > INT32_MAX)
		return hlo_lower_fail(lw, -E2BIG, "%llu elements",
				      (unsigned long long)n);
	data = malloc(n * sizeof(*data));
	if (!data)
		return hlo_lower_fail(lw, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		data[i] = (int32_t)(i / inner % (uint64_t)t->dims[dim]);
	hlo_shape(t, shape);
	v = pw_fn_const(lw->b, PWTPU_DT_I32, t->rank, shape, data);
	free(data);
	to = pw_hlo_device_dtype(t->dtype);
	if (v >= 0 && t->dtype == PW_HLO_DT_I1)
		v = hlo_nonzero(lw, v, PWTPU_DT_I32);
	else if (v >= 0 && to != PWTPU_DT_I32)
		v = pw_fn_convert(lw->b, v, to);
	return hlo_bind_result(lw, sc, 0, v);
}

static const enum pwtpu_op device_binary[] = {
	[HLO_ADD] = PWTPU_OP_ADD, [HLO_SUB] = PWTPU_OP_SUB,
	[HLO_MUL] = PWTPU_OP_MUL, [HLO_DIV] = PWTPU_OP_DIV,
	[HLO_MAX] = PWTPU_OP_MAX, [HLO_MIN] = PWTPU_OP_MIN,
	[HLO_AND] = PWTPU_OP_AND, [HLO_OR] = PWTPU_OP_OR,
	[HLO_XOR] = PWTPU_OP_XOR,
};

static const char *const binary_names[] = {
	[HLO_ADD] = "add", [HLO_SUB] = "subtract", [HLO_MUL] = "multiply",
	[HLO_DIV] = "divide", [HLO_MAX] = "maximum", [HLO_MIN] = "minimum",
	[HLO_AND] = "and", [HLO_OR] = "or", [HLO_XOR] = "xor",
};

pw_val hlo_binary_op(struct hlo_lower *lw, enum hlo_binary op,
		     enum pw_hlo_dtype dt, pw_val x, pw_val y)
{
	if (dt == PW_HLO_DT_I1) {
		switch (op) {
		case HLO_ADD:
		case HLO_OR:
		case HLO_MAX:
			return pw_fn_binary(lw->b, PWTPU_OP_MAX, x, y);
		case HLO_MUL:
		case HLO_AND:
		case HLO_MIN:
			return pw_fn_binary(lw->b, PWTPU_OP_MIN, x, y);
		case HLO_XOR:
			return pw_fn_compare(lw->b, PWTPU_CMP_NE, x, y);
		default:
			return hlo_lower_fail(lw, -EINVAL,
					      "%s is not defined on i1",
					      binary_names[op]);
		}
	}
	if (op >= HLO_AND && hlo_is_float(dt))
		return hlo_lower_fail(lw, -EINVAL,
				      "%s is not defined on floats",
				      binary_names[op]);
	return pw_fn_binary(lw->b, device_binary[op], x, y);
}

/* Two operands of one type, as every element-wise op takes. */
static int same_operands(struct hlo_lower *lw, struct hlo_scope *sc,
			 const struct hlo_val **x, const struct hlo_val **y)
{
	const struct hlo_val *v[2];

	if (hlo_operands(lw, sc, 2, v))
		return lw->err;
	*x = v[0];
	*y = v[1];
	if (v[0]->type->dtype != v[1]->type->dtype ||
	    !hlo_same_shape(v[0]->type, v[1]->type))
		return hlo_lower_fail(lw, -EINVAL, "operands differ in type");
	return 0;
}

int hlo_lower_binary(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *x, *y;
	pw_val v;

	if (same_operands(lw, sc, &x, &y))
		return lw->err;
	v = hlo_binary_op(lw, (enum hlo_binary)arg, x->type->dtype, x->v,
			  y->v);
	return lw->err ? lw->err : hlo_bind_result(lw, sc, 0, v);
}

pw_val hlo_nonzero(struct hlo_lower *lw, pw_val x, enum pwtpu_dtype dt)
{
	pw_val zero = pw_fn_scalar(lw->b, dt, 0);

	return zero < 0 ? zero : pw_fn_compare(lw->b, PWTPU_CMP_NE, x, zero);
}

static const enum pwtpu_op device_unary[] = {
	[HLO_NEG] = PWTPU_OP_NEG, [HLO_ABS] = PWTPU_OP_ABS,
	[HLO_EXP] = PWTPU_OP_EXP, [HLO_LOG] = PWTPU_OP_LOG,
	[HLO_TANH] = PWTPU_OP_TANH, [HLO_RSQRT] = PWTPU_OP_RSQRT,
};

int hlo_lower_unary(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	enum hlo_unary op = (enum hlo_unary)arg;
	const struct hlo_val *x;
	enum pw_hlo_dtype dt;
	pw_val v;

	if (hlo_operands(lw, sc, 1, &x))
		return lw->err;
	dt = x->type->dtype;
	if (op == HLO_NOT) {
		if (hlo_is_float(dt))
			return hlo_lower_fail(lw, -EINVAL,
					      "not is not defined on floats");
		if (dt != PW_HLO_DT_I1)
			return hlo_bind_result(lw, sc, 0,
					       pw_fn_unary(lw->b, PWTPU_OP_NOT,
							   x->v));
		v = pw_fn_scalar(lw->b, PWTPU_DT_I8, 0);
		if (v >= 0)
			v = pw_fn_compare(lw->b, PWTPU_CMP_EQ, x->v, v);
		return hlo_bind_result(lw, sc, 0, v);
	}
	if (dt == PW_HLO_DT_I1)
		return hlo_lower_fail(lw, -EINVAL, "not defined on i1");
	if (op > HLO_ABS && !hlo_is_float(dt))
		return hlo_lower_fail(lw, -EINVAL, "defined on floats only");
	/*
	 * f64 too (the device's f64 RSQRT is 1 / sqrt(x), rounded twice as
	 * the reference interpreter computes it).
	 */
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_unary(lw->b, device_unary[op], x->v));
}

static const struct {
	const char *name;
	enum pwtpu_cmp cmp;
} directions[] = {
	{ "EQ", PWTPU_CMP_EQ }, { "NE", PWTPU_CMP_NE },
	{ "LT", PWTPU_CMP_LT }, { "LE", PWTPU_CMP_LE },
	{ "GT", PWTPU_CMP_GT }, { "GE", PWTPU_CMP_GE },
};

/*
 * IEEE 754 totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN)
 * as a signed integer order: the float's bits, with the magnitude bits
 * of negative ones flipped so that larger magnitudes come first.
 */
pw_val hlo_total_order_key(struct hlo_lower *lw, pw_val x,
			   enum pw_hlo_dtype dt)
{
	enum pwtpu_dtype it = dt == PW_HLO_DT_F64 ? PWTPU_DT_I64 :
			      dt == PW_HLO_DT_F32 ? PWTPU_DT_I32 : PWTPU_DT_I16;
	pw_val k = pw_fn_bitcast(lw->b, x, it);
	/* The largest value of @it: a double saturates to it. */
	pw_val flipped = pw_fn_binary(lw->b, PWTPU_OP_XOR, k,
				      pw_fn_scalar(lw->b, it, 1e300));

	return pw_fn_select(lw->b,
			    pw_fn_compare(lw->b, PWTPU_CMP_LT, k,
					  pw_fn_scalar(lw->b, it, 0)),
			    flipped, k);
}

int hlo_lower_compare(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_attr *dir, *type;
	const struct hlo_val *x, *y;
	enum pw_hlo_dtype dt;
	unsigned int i;

	(void)arg;
	if (same_operands(lw, sc, &x, &y))
		return lw->err;
	dt = x->type->dtype;
	dir = pw_hlo_op_attr(lw->op, "comparison_direction");
	type = pw_hlo_op_attr(lw->op, "compare_type");
	if (!dir || dir->kind != PW_HLO_ATTR_ENUM || !dir->enum_value)
		return hlo_lower_fail(lw, -EINVAL, "no comparison_direction");
	for (i = 0; i < sizeof(directions) / sizeof(directions[0]); i++)
		if (!strcmp(directions[i].name, dir->enum_value))
			break;
	if (i == sizeof(directions) / sizeof(directions[0]))
		return hlo_lower_fail(lw, -EINVAL,
				      "comparison_direction %s is not one of EQ NE LT LE GT GE",
				      dir->enum_value);
	if (type && (type->kind != PW_HLO_ATTR_ENUM || !type->enum_value))
		return hlo_lower_fail(lw, -EINVAL, "compare_type is not a type");
	if (type && !strcmp(type->enum_value, "TOTALORDER")) {
		if (!hlo_is_float(dt))
			return hlo_lower_fail(lw, -EINVAL,
					      "compare_type TOTALORDER is for floats, not %s",
					      pw_hlo_dtype_name(dt));
		return hlo_bind_result(lw, sc, 0,
				       pw_fn_compare(lw->b, directions[i].cmp,
						     hlo_total_order_key(lw, x->v, dt),
						     hlo_total_order_key(lw, y->v, dt)));
	}
	/*
	 * The device compares each dtype in its own order; a compare_type
	 * asking for another is refused (i1 is 0 or 1: signed and unsigned
	 * agree on it).
	 */
	if (type && dt != PW_HLO_DT_I1 &&
	    strcmp(type->enum_value, hlo_is_float(dt) ? "FLOAT" :
		   hlo_is_unsigned(dt) ? "UNSIGNED" : "SIGNED"))
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "compare_type %s of %s is not supported",
				      type->enum_value, pw_hlo_dtype_name(dt));
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_compare(lw->b, directions[i].cmp, x->v,
					     y->v));
}

int hlo_lower_select(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *v[3], *p, *x, *y;
	uint32_t shape[PW_MAX_RANK];
	pw_val pred;

	(void)arg;
	if (hlo_operands(lw, sc, 3, v))
		return lw->err;
	p = v[0];
	x = v[1];
	y = v[2];
	if (p->type->dtype != PW_HLO_DT_I1)
		return hlo_lower_fail(lw, -EINVAL, "the predicate is not i1");
	if (x->type->dtype != y->type->dtype ||
	    !hlo_same_shape(x->type, y->type))
		return hlo_lower_fail(lw, -EINVAL,
				      "on_true and on_false differ in type");
	pred = p->v;
	/* A scalar predicate picks whole tensors: the device's is per element. */
	if (!p->type->rank && x->type->rank) {
		hlo_shape(x->type, shape);
		pred = pw_fn_broadcast(lw->b, pred, x->type->rank, shape);
		if (pred < 0)
			return hlo_lower_builder_fail(lw, pred);
	} else if (!hlo_same_shape(p->type, x->type)) {
		return hlo_lower_fail(lw, -EINVAL,
				      "the predicate's shape is not the operands'");
	}
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_select(lw->b, pred, x->v, y->v));
}

int hlo_lower_convert(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct pw_hlo_type *t;
	const struct hlo_val *x;
	enum pwtpu_dtype from, to;

	(void)arg;
	if (hlo_operands(lw, sc, 1, &x))
		return lw->err;
	t = lw->op->result_types[0];
	if (hlo_check_type(lw, t))
		return lw->err;
	if (!hlo_same_shape(x->type, t))
		return hlo_lower_fail(lw, -EINVAL,
				      "operand and result differ in shape");
	from = pw_hlo_device_dtype(x->type->dtype);
	to = pw_hlo_device_dtype(t->dtype);
	/* To i1 is "not zero" (NaN too); from i1, 0 and 1 convert as is. */
	if (t->dtype == PW_HLO_DT_I1 && x->type->dtype != PW_HLO_DT_I1)
		return hlo_bind_result(lw, sc, 0, hlo_nonzero(lw, x->v, from));
	if (from == to)
		return hlo_bind_result(lw, sc, 0, x->v);
	return hlo_bind_result(lw, sc, 0, pw_fn_convert(lw->b, x->v, to));
}

/*
 * clamp(min, x, max) = min(max(x, min), max), a scalar bound broadcast:
 * NaN anywhere gives NaN, as maximum and minimum do (on i1, 0 and 1).
 */
int hlo_lower_clamp(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *o[3], *lo, *x, *hi;
	pw_val v;

	(void)arg;
	if (hlo_operands(lw, sc, 3, o))
		return lw->err;
	lo = o[0];
	x = o[1];
	hi = o[2];
	if (lo->type->dtype != x->type->dtype ||
	    hi->type->dtype != x->type->dtype ||
	    (lo->type->rank && !hlo_same_shape(lo->type, x->type)) ||
	    (hi->type->rank && !hlo_same_shape(hi->type, x->type)))
		return hlo_lower_fail(lw, -EINVAL,
				      "min and max are not scalars or of the operand's type");
	v = pw_fn_binary(lw->b, PWTPU_OP_MAX, x->v, lo->v);
	if (v >= 0)
		v = pw_fn_binary(lw->b, PWTPU_OP_MIN, v, hi->v);
	return hlo_bind_result(lw, sc, 0, v);
}

/* A scalar @value of @x's device dtype, broadcast to @x's shape. */
static pw_val splat_like(struct hlo_lower *lw, const struct hlo_val *x,
			 double value)
{
	uint32_t shape[PW_MAX_RANK];
	pw_val v = pw_fn_scalar(lw->b, pw_hlo_device_dtype(x->type->dtype),
				value);

	if (v < 0 || !x->type->rank)
		return v;
	hlo_shape(x->type, shape);
	return pw_fn_broadcast(lw->b, v, x->type->rank, shape);
}

/* sign: 1 above 0, -1 below, x itself otherwise (±0 and NaN kept). */
int hlo_lower_sign(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *x;
	pw_val zero, neg, pos, v;

	(void)arg;
	if (hlo_operands(lw, sc, 1, &x))
		return lw->err;
	if (x->type->dtype == PW_HLO_DT_I1)
		return hlo_lower_fail(lw, -EINVAL, "not defined on i1");
	zero = splat_like(lw, x, 0);
	neg = pw_fn_compare(lw->b, PWTPU_CMP_LT, x->v, zero);
	pos = pw_fn_compare(lw->b, PWTPU_CMP_GT, x->v, zero);
	v = pw_fn_select(lw->b, neg, splat_like(lw, x, -1), x->v);
	v = pw_fn_select(lw->b, pos, splat_like(lw, x, 1), v);
	return hlo_bind_result(lw, sc, 0, v);
}

/* is_finite: x - x is 0 for a finite x, NaN for an infinity or a NaN. */
int hlo_lower_is_finite(struct hlo_lower *lw, struct hlo_scope *sc, int arg)
{
	const struct hlo_val *x;
	pw_val v;

	(void)arg;
	if (hlo_operands(lw, sc, 1, &x))
		return lw->err;
	if (!hlo_is_float(x->type->dtype))
		return hlo_lower_fail(lw, -EINVAL, "defined on floats only");
	v = pw_fn_binary(lw->b, PWTPU_OP_SUB, x->v, x->v);
	v = pw_fn_compare(lw->b, PWTPU_CMP_EQ, v, splat_like(lw, x, 0));
	return hlo_bind_result(lw, sc, 0, v);
}

/*
 * The element kinds a device op that StableHLO names one for one is
 * defined on: the shifts, popcnt and count_leading_zeros on integers
 * (not i1); the rounding and transcendental functions and atan2 on
 * floats; power and remainder on both.
 */
static int check_kind(struct hlo_lower *lw, enum pwtpu_op op,
		      enum pw_hlo_dtype dt)
{
	if (dt == PW_HLO_DT_I1)
		return hlo_lower_fail(lw, -EINVAL, "not defined on i1");
	if (op >= PWTPU_OP_AND && op <= PWTPU_OP_CLZ && hlo_is_float(dt))
		return hlo_lower_fail(lw, -EINVAL, "defined on integers only");
	if (op >= PWTPU_OP_FLOOR && op <= PWTPU_OP_ATAN2 && !hlo_is_float(dt))
		return hlo_lower_fail(lw, -EINVAL, "defined on floats only");
	return 0;
}

/* One operand, one device instruction (@arg: its enum pwtpu_op). */
int hlo_lower_device_unary(struct hlo_lower *lw, struct hlo_scope *sc,
			   int arg)
{
	const struct hlo_val *x;

	if (hlo_operands(lw, sc, 1, &x) ||
	    check_kind(lw, (enum pwtpu_op)arg, x->type->dtype))
		return lw->err;
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_unary(lw->b, (enum pwtpu_op)arg, x->v));
}

/*
 * Two operands of one type, one device instruction: the shifts (the
 * count read as unsigned, past the width 0 or the sign), atan2, power
 * (of integers by squaring, wrapping) and remainder (the dividend's
 * sign; x % 0 is x for integers, MIN % -1 is 0, as XLA gives them).
 */
int hlo_lower_device_binary(struct hlo_lower *lw, struct hlo_scope *sc,
			    int arg)
{
	const struct hlo_val *x, *y;

	if (same_operands(lw, sc, &x, &y) ||
	    check_kind(lw, (enum pwtpu_op)arg, x->type->dtype))
		return lw->err;
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_binary(lw->b, (enum pwtpu_op)arg, x->v,
					    y->v));
}

/*
 * bitcast_convert: the operand's bytes as the result's element type,
 * narrow elements along a last dimension (little endian). i1 is a whole
 * byte on the device, so only i1 to i1 is the same bits.
 */
int hlo_lower_bitcast_convert(struct hlo_lower *lw, struct hlo_scope *sc,
			      int arg)
{
	const struct pw_hlo_type *t;
	const struct hlo_val *x;

	(void)arg;
	if (hlo_operands(lw, sc, 1, &x))
		return lw->err;
	t = lw->op->result_types[0];
	if (hlo_check_type(lw, t))
		return lw->err;
	if ((t->dtype == PW_HLO_DT_I1) != (x->type->dtype == PW_HLO_DT_I1))
		return hlo_lower_fail(lw, -EOPNOTSUPP,
				      "bitcast_convert between i1 and %s is not supported",
				      pw_hlo_dtype_name(t->dtype == PW_HLO_DT_I1 ?
							x->type->dtype :
							t->dtype));
	if (t->dtype == x->type->dtype)
		return hlo_bind_result(lw, sc, 0, x->v);
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_bitcast(lw->b, x->v,
					     pw_hlo_device_dtype(t->dtype)));
}

/* An i32 attribute @name of at least @min: 0 and *@v, or the failure. */
static int int_attr(struct hlo_lower *lw, const char *name, uint32_t min,
		    uint32_t *v)
{
	const struct pw_hlo_attr *a = pw_hlo_op_attr(lw->op, name);

	if (!a || a->kind != PW_HLO_ATTR_INT)
		return hlo_lower_fail(lw, -EINVAL, "no integer %s", name);
	if (a->neg || a->u < min || a->u > INT32_MAX)
		return hlo_lower_fail(lw, -EINVAL, "%s %s%llu is not %u..%d",
				      name, a->neg ? "-" : "",
				      (unsigned long long)a->u, min, INT32_MAX);
	*v = (uint32_t)a->u;
	return 0;
}

/* reduce_precision: REDUCE_PRECISION with the format's two widths. */
int hlo_lower_reduce_precision(struct hlo_lower *lw, struct hlo_scope *sc,
			       int arg)
{
	const struct hlo_val *x;
	uint32_t ebits, mbits;

	(void)arg;
	if (hlo_operands(lw, sc, 1, &x) ||
	    check_kind(lw, PWTPU_OP_FLOOR, x->type->dtype) ||
	    int_attr(lw, "exponent_bits", 1, &ebits) ||
	    int_attr(lw, "mantissa_bits", 0, &mbits))
		return lw->err;
	return hlo_bind_result(lw, sc, 0,
			       pw_fn_reduce_precision(lw->b, x->v, ebits,
						      mbits));
}
