/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hlo_lower_impl.h - what the lowering's files share: values bound to
 * names, the lowering's state, and the op handlers' table. Not for other
 * directories.
 */
#ifndef PW_HLO_LOWER_IMPL_H
#define PW_HLO_LOWER_IMPL_H

#include "hlo_lower.h"

/* Inlined func.call depth; deeper is recursion or hostile input. */
#define HLO_LOWER_MAX_CALLS	32

/**
 * struct hlo_val - a StableHLO value and what stands for it
 * @name: its SSA name (without '%'), @index its result number.
 * @type: its StableHLO type (a static tensor; checked when bound).
 * @v: the builder's value; -1 for a verdict.
 * @verdict: a @check.eq's outcome: the host evaluates it, nothing can
 *	use it on the device.
 */
struct hlo_val {
	const char *name;
	uint32_t index;
	const struct pw_hlo_type *type;
	pw_val v;
	bool verdict;
};

/*
 * The values of one function's body, as it is being inlined, or of a
 * region of a while, case or if: those see their @parent's values too
 * (a function's body and a body applied element-wise see none).
 */
struct hlo_scope {
	struct hlo_val *vals;
	unsigned int n;
	unsigned int cap;
	struct hlo_scope *parent;
};

/* An operand of a check, or a result of @main, to become a result. */
struct hlo_out {
	pw_val v;
	enum pw_hlo_dtype dtype;
};

struct hlo_lower {
	const struct pw_hlo_module *mod;
	struct pw_fn_builder *b;
	bool keep_checks;
	int err;
	char *msg;
	size_t msglen;
	const struct pw_hlo_op *op;	/* being lowered, for messages */
	unsigned int calls;		/* inlining depth */
	/*
	 * A body applied element-wise (hlo_apply_body): its scalar values
	 * are tensors of this shape on the device. Rank 0 otherwise.
	 */
	uint32_t wide_rank;
	uint32_t wide_shape[PW_MAX_RANK];
	/*
	 * Branches of stablehlo.case and stablehlo.if being lowered: all of
	 * them run, so nothing with an effect (a while, which might not
	 * end, a check, a collective) may be in one.
	 */
	unsigned int branches;
	struct hlo_out *outs;		/* check operands, in order */
	unsigned int nouts, outs_cap;
	struct pw_hlo_check *checks;
	unsigned int nchecks, checks_cap;
};

/* Record the first failure, "LINE:COL: op: what"; returns it. */
int __attribute__((format(printf, 3, 4)))
hlo_lower_fail(struct hlo_lower *lw, int err, const char *fmt, ...);
/* A builder call failed (@v < 0): its message, at the op. */
int hlo_lower_builder_fail(struct hlo_lower *lw, pw_val v);

/* Operand @i of the op being lowered, or NULL (the failure is set). */
const struct hlo_val *hlo_operand(struct hlo_lower *lw, struct hlo_scope *sc,
				  unsigned int i);
/*
 * The op's @n operands into @v[0..@n), each defined and of a type the
 * device holds, and one result: 0, or the failure.
 */
int hlo_operands(struct hlo_lower *lw, struct hlo_scope *sc, unsigned int n,
		 const struct hlo_val **v);
/*
 * Bind result @i of the op being lowered to @v, which must be of the
 * op's result type (checked for the device here); @v < 0 is a failed
 * builder call, reported.
 */
int hlo_bind_result(struct hlo_lower *lw, struct hlo_scope *sc,
		    unsigned int i, pw_val v);

/* A static tensor type the device can hold, or -EOPNOTSUPP/-EINVAL. */
int hlo_check_type(struct hlo_lower *lw, const struct pw_hlo_type *t);
/* Its shape as the builder takes it (rank <= PW_MAX_RANK, checked). */
void hlo_shape(const struct pw_hlo_type *t, uint32_t *shape);
uint64_t hlo_elems(const struct pw_hlo_type *t);
bool hlo_is_float(enum pw_hlo_dtype dt);
bool hlo_is_unsigned(enum pw_hlo_dtype dt);
bool hlo_same_shape(const struct pw_hlo_type *a, const struct pw_hlo_type *b);

/*
 * An integer list attribute (array<i64: ...>, [1, 2] or dense<...> of
 * integers) into @out[@max]: its length, or -errno (the failure set).
 */
int hlo_int_list(struct hlo_lower *lw, const struct pw_hlo_attr *a,
		 const char *what, int64_t *out, unsigned int max);


/* An op handler: lower lw->op, binding its results in @sc. */
typedef int (*hlo_op_fn)(struct hlo_lower *lw, struct hlo_scope *sc,
			 int arg);

struct hlo_op_entry {
	const char *name;
	hlo_op_fn fn;
	int arg;
};

/* The handler of @name, or NULL when the op is not supported. */
const struct hlo_op_entry *hlo_find_op(const char *name);

/*
 * Handlers (hlo_lower_elementwise.c, hlo_lower_shape.c, hlo_lower_reduce.c,
 * hlo_lower_collective.c, hlo_lower_place.c, hlo_lower_window.c,
 * hlo_lower_sort.c, hlo_lower_conv.c, hlo_lower_select_scatter.c,
 * hlo_lower_control.c).
 */
int hlo_lower_constant(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_iota(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_binary(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_unary(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_compare(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_select(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_convert(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_clamp(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_sign(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_is_finite(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_device_unary(struct hlo_lower *lw, struct hlo_scope *sc,
			   int arg);
int hlo_lower_device_binary(struct hlo_lower *lw, struct hlo_scope *sc,
			    int arg);
int hlo_lower_bitcast_convert(struct hlo_lower *lw, struct hlo_scope *sc,
			      int arg);
int hlo_lower_reduce_precision(struct hlo_lower *lw, struct hlo_scope *sc,
			       int arg);
int hlo_lower_broadcast_in_dim(struct hlo_lower *lw, struct hlo_scope *sc,
			       int arg);
int hlo_lower_broadcast(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_reshape(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_transpose(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_slice(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_identity(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_reduce(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_dot(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_all_reduce(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
/* hlo_lower_scatter.c */
int hlo_lower_scatter(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_gather(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_concatenate(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_pad(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_reverse(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_dynamic_slice(struct hlo_lower *lw, struct hlo_scope *sc,
			    int arg);
int hlo_lower_dynamic_update_slice(struct hlo_lower *lw,
				   struct hlo_scope *sc, int arg);
int hlo_lower_reduce_window(struct hlo_lower *lw, struct hlo_scope *sc,
			    int arg);
int hlo_lower_sort(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_top_k(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_convolution(struct hlo_lower *lw, struct hlo_scope *sc,
			  int arg);
int hlo_lower_select_and_scatter(struct hlo_lower *lw, struct hlo_scope *sc,
				 int arg);
/* hlo_lower_control.c */
int hlo_lower_while(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_case(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
/* hlo_lower_chlo.c: @arg of the first is its enum chlo_fn. */
int hlo_lower_chlo_unary(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_chlo_atan(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_chlo_is_inf(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_chlo_square(struct hlo_lower *lw, struct hlo_scope *sc, int arg);
int hlo_lower_chlo_next_after(struct hlo_lower *lw, struct hlo_scope *sc,
			      int arg);
int hlo_lower_chlo_binary(struct hlo_lower *lw, struct hlo_scope *sc,
			  int arg);

/* hlo_lower_chlo_unary's @arg (hlo_lower_chlo_binary's: the last two). */
enum chlo_fn {
	CHLO_SINH, CHLO_COSH, CHLO_ASINH, CHLO_ACOSH, CHLO_ATANH, CHLO_ASIN,
	CHLO_ACOS, CHLO_ERF, CHLO_ERFC, CHLO_ERF_INV, CHLO_LGAMMA,
	CHLO_DIGAMMA, CHLO_BESSEL_I1E, CHLO_ZETA, CHLO_POLYGAMMA,
};

/* Element-wise ops by what they compute (hlo_lower_binary's @arg). */
enum hlo_binary {
	HLO_ADD, HLO_SUB, HLO_MUL, HLO_DIV, HLO_MAX, HLO_MIN,
	HLO_AND, HLO_OR, HLO_XOR,
};

/* hlo_lower_unary's @arg. */
enum hlo_unary {
	HLO_NEG, HLO_ABS, HLO_EXP, HLO_LOG, HLO_TANH, HLO_RSQRT, HLO_NOT,
};

/*
 * @x (a value of StableHLO element type @dt) op @y on the device, with
 * i1's meaning (add is or, multiply is and); shared with reduce.
 */
pw_val hlo_binary_op(struct hlo_lower *lw, enum hlo_binary op,
		     enum pw_hlo_dtype dt, pw_val x, pw_val y);
/*
 * The reductions' combiner: the op being lowered has a body of one
 * element-wise op of its two arguments (either order), returned, which
 * is one of the bits (1u << enum hlo_binary) of @allowed. 0 and *@op, or
 * -EOPNOTSUPP saying a body other than one @what is not supported (with
 * @what NULL, said nowhere: the caller has another way).
 */
int hlo_body_binary(struct hlo_lower *lw, unsigned int allowed,
		    const char *what, enum hlo_binary *op);
/* The same for region @region of an op with several. */
int hlo_region_binary(struct hlo_lower *lw, unsigned int region,
		      unsigned int allowed, const char *what,
		      enum hlo_binary *op);
/*
 * A result of @shape whose element j is @x[@off + @step * j] (x of
 * @rank): a gather, element by element along dimensions whose step is not
 * 1 (hlo_lower_place.c).
 */
pw_val hlo_pick(struct hlo_lower *lw, pw_val x, uint32_t rank,
		const uint32_t *shape, const int64_t *off, const int64_t *step);
/*
 * @x (of @rank and @xshape) padded with the rank-0 @fill as StableHLO's
 * pad: @lo and @hi elements at the edges (negative ones cut), @in
 * between neighbours; the result is of @shape, checked against them.
 */
pw_val hlo_pad(struct hlo_lower *lw, pw_val x, uint32_t rank,
	       const uint32_t *xshape, pw_val fill, const int64_t *lo,
	       const int64_t *hi, const int64_t *in, const uint32_t *shape);
/*
 * The op's body (one block of @nargs scalar arguments, returning @nout
 * scalars of the types @want[], or when NULL of the first @nout
 * arguments' types) applied element-wise: argument i bound to @args[i],
 * a tensor of @shape (rank 0: scalars), each of the body's ops lowered
 * over such tensors, its results into @out. 0 or the failure.
 */
int hlo_apply_body(struct hlo_lower *lw, struct hlo_scope *sc,
		   const pw_val *args, unsigned int nargs, unsigned int nout,
		   const enum pw_hlo_dtype *want, uint32_t rank,
		   const uint32_t *shape, pw_val *out);
/*
 * Region @region of the op being lowered (one block of @nargs arguments
 * of the types @arg_types, bound to @args) lowered as it is, in a scope
 * that also sees @sc's values; its return's @nout values into @out and
 * their types into @out_types (for the caller to check). 0 or the
 * failure (a wrong count of arguments or values is -EINVAL).
 */
int hlo_lower_region(struct hlo_lower *lw, struct hlo_scope *sc,
		     unsigned int region,
		     const struct pw_hlo_type *const *arg_types,
		     const pw_val *args, unsigned int nargs, unsigned int nout,
		     pw_val *out, const struct pw_hlo_type **out_types);
/* The same for region @region of an op with several. */
int hlo_apply_region(struct hlo_lower *lw, unsigned int region,
		     const pw_val *args, unsigned int nargs,
		     unsigned int nout, const enum pw_hlo_dtype *want,
		     uint32_t rank, const uint32_t *shape, pw_val *out);
/* A tensor of @shape (of @rank) and device type @dt, all zeros. */
pw_val hlo_zeros(struct hlo_lower *lw, enum pwtpu_dtype dt, uint32_t rank,
		 const uint32_t *shape);
/* @base (of @rank) with all of @x (of @xshape) set in from @off on. */
pw_val hlo_put(struct hlo_lower *lw, pw_val base, pw_val x, uint32_t rank,
	       const uint32_t *xshape, const int64_t *off);
/*
 * @a and @b (of @rank, @ashape and @bshape, which differ at most along
 * @dim) joined along @dim: @a's elements then @b's.
 */
pw_val hlo_join(struct hlo_lower *lw, pw_val a, pw_val b, uint32_t rank,
		const uint32_t *ashape, const uint32_t *bshape, uint32_t dim);
/*
 * A signed integer of @x's width (@x a float of StableHLO type @dt)
 * whose order is IEEE 754's totalOrder of @x.
 */
pw_val hlo_total_order_key(struct hlo_lower *lw, pw_val x,
			   enum pw_hlo_dtype dt);
/*
 * The window attributes of reduce_window, convolution and
 * select_and_scatter (hlo_lower_window.c): a list @name of @rank positive
 * items, or all @dflt when absent; `padding`, [[lo, hi], ...] of @rank
 * pairs, or zeros when absent. 0 or the failure.
 */
int hlo_window_list(struct hlo_lower *lw, const char *name, uint32_t rank,
		    int64_t dflt, int64_t *out);
int hlo_window_padding(struct hlo_lower *lw, uint32_t rank, int64_t *lo,
		       int64_t *hi);
/*
 * The scatter mode that combines as @op does on element type @dt (on i1,
 * add and or are MAX, multiply and and MIN), or -EOPNOTSUPP.
 */
int hlo_scatter_combiner(enum hlo_binary op, enum pw_hlo_dtype dt,
			 enum pwtpu_scatter *mode);
/* An i1 of x != 0, for a value of device dtype @dt. */
pw_val hlo_nonzero(struct hlo_lower *lw, pw_val x, enum pwtpu_dtype dt);

#endif /* PW_HLO_LOWER_IMPL_H */
