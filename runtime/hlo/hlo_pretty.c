// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_pretty.c - the custom syntaxes StableHLO, CHLO and func print for
 * their ops, read into the generic shape with the attribute names of the
 * generic form: `stablehlo.compare GT, %a, %b, FLOAT : ...` becomes
 * stablehlo.compare with comparison_direction = #stablehlo<comparison_
 * direction GT> and compare_type = #stablehlo<comparison_type FLOAT>.
 * Most ops are operands, `keyword = value` pairs, an attribute dictionary
 * and types in one of a few forms; a table says which. The forms with
 * regions or structures are in hlo_pretty_region.c. An op whose pretty
 * syntax is not known here is an error that names it.
 */
#include <errno.h>
#include <string.h>

#include "hlo_impl.h"

/* How the types after ':' map to operands and results. */
enum tmode {
	TM_SAME,	/* T for all, or a function type */
	TM_FUNC,	/* (operands) -> results */
	TM_SELECT,	/* pred, T or a function type */
	TM_TUPLE,	/* tuple<...>: operands are its elements */
	TM_ARROW,	/* CHLO: T, T -> T (or a function type) */
	TM_RESULTS,	/* the results' types; no operands */
	TM_COMPLEX,	/* tensor<complex<f32>>: operands are f32 */
	TM_RETURN,	/* optional ': T, T' of return's operands */
	TM_NONE,	/* the handler parses them */
};

enum kwkind { KW_I64ARR, KW_I64, KW_I32, KW_ENUM, KW_STRING, KW_BOOL,
	      KW_FORMAT };

struct kw {
	const char *word;	/* as printed: dims */
	const char *attr;	/* generic name: broadcast_dimensions */
	enum kwkind kind;
	const char *enum_class;
	bool required;
};

struct pretty {
	const char *name;
	enum tmode mode;
	const struct kw *kws;
	int (*fn)(struct hlo_parser *p, struct hlo_opbuild *b);
};

int hlo_pretty_attr(struct hlo_parser *p, struct hlo_opbuild *b,
		    const char *name, struct pw_hlo_attr *a)
{
	return hlo_add_attr(p, &b->attrs, name, a, p->tok.line, p->tok.col);
}

/* %a, %b, ...: as many as there are, none included. */
int hlo_pretty_operands(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct pw_hlo_value v;

	if (p->tok.kind != T_VALUE)
		return 0;
	do {
		if (hlo_parse_value(p, &v) ||
		    hlo_push(p, &b->operands, &v, sizeof(v)))
			return p->err;
	} while (hlo_accept(p, T_COMMA));
	return 0;
}

static void set_types(struct hlo_opbuild *b, struct pw_hlo_type *ft)
{
	b->otypes.v = ft->elems;
	b->otypes.n = ft->nelems;
	b->rtypes.v = ft->results;
	b->rtypes.n = ft->nresults;
}

int hlo_pretty_func_type(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct pw_hlo_type *t;

	if (p->tok.kind != T_LPAREN)
		return hlo_expected(p, "a function type after ':' of %s",
				    b->op->name);
	if (hlo_parse_type(p, &t))
		return p->err;
	set_types(b, t);
	return 0;
}

/* @n copies of @t into @v. */
static int fill(struct hlo_parser *p, struct hlo_vec *v,
		struct pw_hlo_type *t, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (hlo_push(p, v, &t, sizeof(t)))
			return p->err;
	return 0;
}

static struct pw_hlo_type *real_of(struct hlo_parser *p,
				   const struct pw_hlo_type *t)
{
	enum pw_hlo_dtype dt = t->dtype == PW_HLO_DT_C64 ? PW_HLO_DT_F32 :
			       PW_HLO_DT_F64;

	return hlo_tensor_of(p, dt, t->rank, t->dims);
}

static int parse_types(struct hlo_parser *p, struct hlo_opbuild *b,
		       enum tmode mode)
{
	uint32_t nops = b->operands.n, line, col;
	struct hlo_vec list = { 0 };
	struct pw_hlo_type *t, **ts;

	if (mode == TM_RETURN) {
		if (!hlo_accept(p, T_COLON))
			return 0;
		return hlo_parse_type_list(p, &b->otypes);
	}
	if (hlo_expect(p, T_COLON, "before the op's types"))
		return p->err;
	line = p->tok.line;
	col = p->tok.col;
	switch (mode) {
	case TM_FUNC:
		return hlo_pretty_func_type(p, b);
	case TM_RESULTS:
		return hlo_parse_type_list(p, &b->rtypes);
	case TM_SAME:
	case TM_COMPLEX:
	case TM_TUPLE:
		if (hlo_parse_type(p, &t))
			return p->err;
		if (t->kind == PW_HLO_TYPE_FUNC) {
			set_types(b, t);
			return 0;
		}
		if (mode == TM_TUPLE) {
			if (t->kind != PW_HLO_TYPE_TUPLE)
				return hlo_error_at(p, line, col, -EINVAL,
						    "expected a tuple type");
			b->otypes.v = t->elems;
			b->otypes.n = t->nelems;
			return fill(p, &b->rtypes, t, 1);
		}
		if (mode == TM_COMPLEX) {
			struct pw_hlo_type *r;

			if (t->kind != PW_HLO_TYPE_TENSOR ||
			    (t->dtype != PW_HLO_DT_C64 &&
			     t->dtype != PW_HLO_DT_C128))
				return hlo_error_at(p, line, col, -EINVAL,
						    "expected a tensor of "
						    "complex<f32> or "
						    "complex<f64>");
			r = real_of(p, t);
			if (!r || fill(p, &b->otypes, r, nops))
				return p->err;
			return fill(p, &b->rtypes, t, b->op->nresults);
		}
		if (fill(p, &b->otypes, t, nops) ||
		    fill(p, &b->rtypes, t, b->op->nresults))
			return p->err;
		return 0;
	case TM_SELECT:
		if (hlo_parse_type_list(p, &list))
			return p->err;
		ts = list.v;
		if (list.n == 1 && ts[0]->kind == PW_HLO_TYPE_FUNC) {
			set_types(b, ts[0]);
			return 0;
		}
		if (list.n != 2 || nops != 3)
			return hlo_error_at(p, line, col, -EINVAL,
					    "expected a function type or two "
					    "types for %s", b->op->name);
		if (fill(p, &b->otypes, ts[0], 1) ||
		    fill(p, &b->otypes, ts[1], 2) ||
		    fill(p, &b->rtypes, ts[1], b->op->nresults))
			return p->err;
		return 0;
	case TM_ARROW:
		if (hlo_parse_type_list(p, &list))
			return p->err;
		ts = list.v;
		if (!hlo_accept(p, T_ARROW)) {
			if (list.n != 1 || ts[0]->kind != PW_HLO_TYPE_FUNC)
				return hlo_expected(p, "'->' and the result "
						    "types of %s", b->op->name);
			set_types(b, ts[0]);
			return 0;
		}
		b->otypes = list;
		return hlo_parse_result_types(p, &b->rtypes);
	default:
		return 0;
	}
}

/* {attrs} : types, the end of most pretty forms. */
static int attrs_and_types(struct hlo_parser *p, struct hlo_opbuild *b,
			   enum tmode mode)
{
	if (hlo_parse_opt_attr_dict(p, b))
		return p->err;
	return parse_types(p, b, mode);
}

static int parse_kw_value(struct hlo_parser *p, struct hlo_opbuild *b,
			  const struct kw *k)
{
	uint32_t line = p->tok.line, col = p->tok.col;
	struct hlo_vec v = { 0 };
	struct pw_hlo_attr *a = NULL;
	int64_t x;

	switch (k->kind) {
	case KW_I64ARR:
		if (hlo_parse_int_list(p, &v, "in a list of dimensions"))
			return p->err;
		a = hlo_attr_i64_array(p, v.v, v.n);
		break;
	case KW_I64:
	case KW_I32:
		if (hlo_parse_int(p, &x, k->word))
			return p->err;
		if (k->kind == KW_I32 && (x < INT32_MIN || x > INT32_MAX))
			return hlo_error_at(p, line, col, -EINVAL,
					    "%s out of the range of i32",
					    k->word);
		a = hlo_attr_int(p, x, hlo_scalar_type(p, k->kind == KW_I64 ?
							  PW_HLO_DT_I64 :
							  PW_HLO_DT_I32));
		break;
	case KW_ENUM:
		if (p->tok.kind != T_BARE)
			return hlo_expected(p, "a %s", k->enum_class);
		a = hlo_attr_enum(p, k->enum_class, hlo_tokdup(p, 0));
		hlo_next(p);
		break;
	case KW_STRING:
	case KW_BOOL:
		if (k->kind == KW_STRING ? p->tok.kind != T_STRING :
		    !hlo_is_bare(p, "true") && !hlo_is_bare(p, "false"))
			return hlo_expected(p, "%s after %s =",
					    k->kind == KW_STRING ? "a string" :
					    "true or false", k->word);
		if (hlo_parse_attr(p, &a))
			return p->err;
		break;
	case KW_FORMAT: {
		/* e5m10: exponent_bits = 5 : i32, mantissa_bits = 10 : i32 */
		const char *s = p->tok.s, *end = s + p->tok.n;
		int64_t e = 0, m = 0;
		const char *q;

		if (p->tok.kind != T_BARE || *s != 'e')
			return hlo_expected(p, "a format eNmM");
		for (q = s + 1; q < end && *q >= '0' && *q <= '9' && e < 1000;
		     q++)
			e = e * 10 + (*q - '0');
		if (q == s + 1 || q >= end || *q != 'm')
			return hlo_expected(p, "a format eNmM");
		s = ++q;
		for (; q < end && *q >= '0' && *q <= '9' && m < 1000; q++)
			m = m * 10 + (*q - '0');
		if (q == s || q != end)
			return hlo_expected(p, "a format eNmM");
		hlo_next(p);
		if (hlo_add_attr(p, &b->attrs, "exponent_bits",
				    hlo_attr_int(p, e, hlo_scalar_type(p,
						 PW_HLO_DT_I32)), line, col) ||
		    hlo_add_attr(p, &b->attrs, "mantissa_bits",
				 hlo_attr_int(p, m, hlo_scalar_type(p,
					      PW_HLO_DT_I32)), line, col))
			return p->err;
		return 0;
	}
	}
	return hlo_add_attr(p, &b->attrs, k->attr, a, line, col);
}

/*
 * Operands and `keyword = value` pairs in the order the op prints them,
 * commas between: `%x, %y, low = [..], high = [..]`. Every keyword marked
 * required must be there.
 */
static int parse_items(struct hlo_parser *p, struct hlo_opbuild *b,
		       const struct kw *kws)
{
	const struct kw *k = NULL;
	bool first = true;

	do {
		if (p->tok.kind == T_VALUE) {
			struct pw_hlo_value v;

			if (hlo_parse_value(p, &v) ||
			    hlo_push(p, &b->operands, &v, sizeof(v)))
				return p->err;
		} else {
			for (k = kws; k && k->word; k++)
				if (hlo_is_bare(p, k->word))
					break;
			if (!k || !k->word) {
				if (first)
					break;
				return hlo_expected(p, "an operand%s after "
						    "',' in %s", kws ?
						    " or a keyword" : "",
						    b->op->name);
			}
			hlo_next(p);
			if (hlo_expect(p, T_EQUAL, "after the keyword") ||
			    parse_kw_value(p, b, k))
				return p->err;
		}
		first = false;
	} while (hlo_accept(p, T_COMMA));
	for (k = kws; k && k->word; k++) {
		if (k->required && !pw_hlo_op_attr(&(struct pw_hlo_op){
				.nattrs = b->attrs.n, .attrs = b->attrs.v },
				k->kind == KW_FORMAT ? "exponent_bits" :
				k->attr))
			return hlo_expected(p, "'%s = ...' in %s", k->word,
					    b->op->name);
	}
	return 0;
}

static int parse_kw_form(struct hlo_parser *p, struct hlo_opbuild *b,
			 const struct pretty *pr)
{
	if (parse_items(p, b, pr->kws))
		return p->err;
	return attrs_and_types(p, b, pr->mode);
}

/* stablehlo.constant [{attrs}] dense<...> : tensor<...> */
static int pretty_constant(struct hlo_parser *p, struct hlo_opbuild *b)
{
	uint32_t line, col;
	struct pw_hlo_attr *a;

	if (hlo_accept(p, T_LPAREN)) {
		/* ( ) <{value = ...}> {attrs} : () -> T */
		if (hlo_expect(p, T_RPAREN, "after '('"))
			return p->err;
		if (hlo_accept(p, T_LESS) &&
		    (hlo_parse_attr_dict(p, &b->attrs) ||
		     hlo_expect(p, T_GREATER, "closing the properties")))
			return p->err;
		if (hlo_parse_opt_attr_dict(p, b) ||
		    hlo_expect(p, T_COLON, "before the constant's type"))
			return p->err;
		return hlo_pretty_func_type(p, b);
	}
	if (hlo_parse_opt_attr_dict(p, b))
		return p->err;
	line = p->tok.line;
	col = p->tok.col;
	if (hlo_parse_attr(p, &a))
		return p->err;
	if (a->kind != PW_HLO_ATTR_DENSE)
		return hlo_error_at(p, line, col, -EINVAL,
				    "expected dense<...> : tensor<...> after "
				    "%s", b->op->name);
	if (hlo_add_attr(p, &b->attrs, "value", a, line, col))
		return p->err;
	return fill(p, &b->rtypes, a->type, 1);
}

/* stablehlo.compare GT, %a, %b [, FLOAT] {attrs} : (T, T) -> T */
static int pretty_compare(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct pw_hlo_value v;
	int i;

	if (p->tok.kind != T_BARE)
		return hlo_expected(p, "a comparison direction (EQ, NE, GE, "
				    "GT, LE, LT)");
	if (hlo_pretty_attr(p, b, "comparison_direction",
			    hlo_attr_enum(p, "comparison_direction",
					  hlo_tokdup(p, 0))))
		return p->err;
	hlo_next(p);
	for (i = 0; i < 2; i++) {
		if (hlo_expect(p, T_COMMA, "in stablehlo.compare") ||
		    hlo_parse_value(p, &v) ||
		    hlo_push(p, &b->operands, &v, sizeof(v)))
			return p->err;
	}
	if (hlo_accept(p, T_COMMA)) {
		if (p->tok.kind != T_BARE)
			return hlo_expected(p, "a comparison type (FLOAT, "
					    "TOTALORDER, SIGNED, UNSIGNED)");
		if (hlo_pretty_attr(p, b, "compare_type",
				    hlo_attr_enum(p, "comparison_type",
						  hlo_tokdup(p, 0))))
			return p->err;
		hlo_next(p);
	}
	return attrs_and_types(p, b, TM_FUNC);
}

/* stablehlo.slice %x [0:2, 1:3:2] {attrs} : (T) -> T */
static int pretty_slice(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct hlo_vec start = { 0 }, limit = { 0 }, stride = { 0 };
	struct pw_hlo_value v;
	int64_t x;

	if (hlo_parse_value(p, &v) ||
	    hlo_push(p, &b->operands, &v, sizeof(v)) ||
	    hlo_expect(p, T_LSQUARE, "opening the slice's ranges"))
		return p->err;
	if (!hlo_is(p, T_RSQUARE)) {
		do {
			if (hlo_parse_int(p, &x, "(a slice's start)") ||
			    hlo_push(p, &start, &x, sizeof(x)) ||
			    hlo_expect(p, T_COLON, "after a slice's start") ||
			    hlo_parse_int(p, &x, "(a slice's limit)") ||
			    hlo_push(p, &limit, &x, sizeof(x)))
				return p->err;
			x = 1;
			if (hlo_accept(p, T_COLON) &&
			    hlo_parse_int(p, &x, "(a slice's stride)"))
				return p->err;
			if (hlo_push(p, &stride, &x, sizeof(x)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
	}
	if (hlo_expect(p, T_RSQUARE, "closing the slice's ranges") ||
	    hlo_pretty_attr(p, b, "start_indices",
			    hlo_attr_i64_array(p, start.v, start.n)) ||
	    hlo_pretty_attr(p, b, "limit_indices",
			    hlo_attr_i64_array(p, limit.v, limit.n)) ||
	    hlo_pretty_attr(p, b, "strides",
			    hlo_attr_i64_array(p, stride.v, stride.n)))
		return p->err;
	return attrs_and_types(p, b, TM_FUNC);
}

/* stablehlo.get_tuple_element %t[0] : (tuple<..>) -> T */
static int pretty_get_tuple_element(struct hlo_parser *p,
				    struct hlo_opbuild *b)
{
	struct pw_hlo_value v;
	int64_t x;

	if (hlo_parse_value(p, &v) ||
	    hlo_push(p, &b->operands, &v, sizeof(v)) ||
	    hlo_expect(p, T_LSQUARE, "before the tuple's index") ||
	    hlo_parse_int(p, &x, "(the tuple's index)") ||
	    hlo_expect(p, T_RSQUARE, "after the tuple's index"))
		return p->err;
	if (x < 0 || x > INT32_MAX)
		return hlo_expected(p, "an index in the range of i32");
	if (hlo_pretty_attr(p, b, "index", hlo_attr_int(p, x,
			    hlo_scalar_type(p, PW_HLO_DT_I32))))
		return p->err;
	return attrs_and_types(p, b, TM_FUNC);
}

/*
 * @target(%a, %b) {attrs} : (T, T) -> T, of stablehlo.custom_call
 * (call_target_name = "target") and func.call (callee = @target).
 */
static int pretty_call(struct hlo_parser *p, struct hlo_opbuild *b)
{
	bool custom = !strcmp(b->op->name, "stablehlo.custom_call");
	uint32_t line = p->tok.line, col = p->tok.col;
	struct pw_hlo_attr *a;

	if (p->tok.kind != T_SYMBOL)
		return hlo_expected(p, "the callee (@name) of %s",
				    b->op->name);
	if (hlo_parse_attr(p, &a))
		return p->err;
	if (custom) {
		a->kind = PW_HLO_ATTR_STRING;
		a->len = strlen(a->text);
	}
	if (hlo_add_attr(p, &b->attrs, custom ? "call_target_name" : "callee",
			 a, line, col) ||
	    hlo_expect(p, T_LPAREN, "before the call's operands") ||
	    hlo_pretty_operands(p, b) ||
	    hlo_expect(p, T_RPAREN, "closing the call's operands"))
		return p->err;
	return attrs_and_types(p, b, TM_FUNC);
}

/* stablehlo.composite "name" %a, %b {attrs} : (T, T) -> T */
static int pretty_composite(struct hlo_parser *p, struct hlo_opbuild *b)
{
	uint32_t line = p->tok.line, col = p->tok.col;
	struct pw_hlo_attr *a;

	if (p->tok.kind != T_STRING)
		return hlo_expected(p, "the composite's name (a string)");
	if (hlo_parse_attr(p, &a) ||
	    hlo_add_attr(p, &b->attrs, "name", a, line, col) ||
	    hlo_pretty_operands(p, b))
		return p->err;
	return attrs_and_types(p, b, TM_FUNC);
}

/* chlo.top_k(%x, k = 2 [, is_stable = true]) : T -> (T, T) */
static int pretty_top_k(struct hlo_parser *p, struct hlo_opbuild *b)
{
	static const struct kw kws[] = {
		{ "k", "k", KW_I64, NULL, true },
		{ "is_stable", "is_stable", KW_BOOL, NULL, false },
		{ NULL, NULL, 0, NULL, false },
	};

	if (hlo_expect(p, T_LPAREN, "after chlo.top_k") ||
	    parse_items(p, b, kws) ||
	    hlo_expect(p, T_RPAREN, "closing chlo.top_k's operands"))
		return p->err;
	return attrs_and_types(p, b, TM_ARROW);
}

/* stablehlo.optimization_barrier {attrs} %a, %b : T, T  or  () */
static int pretty_barrier(struct hlo_parser *p, struct hlo_opbuild *b)
{
	if (hlo_parse_opt_attr_dict(p, b))
		return p->err;
	if (hlo_accept(p, T_LPAREN))
		return hlo_expect(p, T_RPAREN, "in stablehlo.optimization_"
				  "barrier()");
	if (hlo_pretty_operands(p, b) ||
	    hlo_expect(p, T_COLON, "before the types") ||
	    hlo_parse_type_list(p, &b->otypes))
		return p->err;
	b->rtypes = b->otypes;
	return 0;
}

static const struct kw kw_bcast_in_dim[] = {
	{ "dims", "broadcast_dimensions", KW_I64ARR, NULL, true }, { 0 } };
static const struct kw kw_bcast[] = {
	{ "sizes", "broadcast_sizes", KW_I64ARR, NULL, true }, { 0 } };
static const struct kw kw_iota[] = {
	{ "dim", "iota_dimension", KW_I64, NULL, true }, { 0 } };
static const struct kw kw_transpose[] = {
	{ "dims", "permutation", KW_I64ARR, NULL, true }, { 0 } };
static const struct kw kw_reverse[] = {
	{ "dims", "dimensions", KW_I64ARR, NULL, true }, { 0 } };
static const struct kw kw_dim[] = {
	{ "dim", "dimension", KW_I64, NULL, true }, { 0 } };
static const struct kw kw_dynamic_slice[] = {
	{ "sizes", "slice_sizes", KW_I64ARR, NULL, true }, { 0 } };
static const struct kw kw_pad[] = {
	{ "low", "edge_padding_low", KW_I64ARR, NULL, true },
	{ "high", "edge_padding_high", KW_I64ARR, NULL, true },
	{ "interior", "interior_padding", KW_I64ARR, NULL, true }, { 0 } };
static const struct kw kw_reduce_precision[] = {
	{ "format", "exponent_bits", KW_FORMAT, NULL, true }, { 0 } };
static const struct kw kw_rng_bit[] = {
	{ "algorithm", "rng_algorithm", KW_ENUM, "rng_algorithm", true },
	{ 0 } };
static const struct kw kw_rng[] = {
	{ "distribution", "rng_distribution", KW_ENUM, "rng_distribution",
	  true }, { 0 } };
static const struct kw kw_fft[] = {
	{ "type", "fft_type", KW_ENUM, "fft_type", true },
	{ "length", "fft_length", KW_I64ARR, NULL, true }, { 0 } };
static const struct kw kw_einsum[] = {
	{ "config", "einsum_config", KW_STRING, NULL, true }, { 0 } };
static const struct kw kw_cholesky[] = {
	{ "lower", "lower", KW_BOOL, NULL, false }, { 0 } };
static const struct kw kw_dyn_bcast[] = {
	{ "dims", "broadcast_dimensions", KW_I64ARR, NULL, true }, { 0 } };

#define SH(n)		"stablehlo." n
#define E(n, m)		{ .name = n, .mode = m }
#define K(n, m, k)	{ .name = n, .mode = m, .kws = k }
#define F(n, f)		{ .name = n, .mode = TM_NONE, .fn = f }
static const struct pretty table[] = {
	/* Element-wise: one type for all, or a function type. */
	E(SH("abs"), TM_SAME), E(SH("cbrt"), TM_SAME),
	E(SH("ceil"), TM_SAME), E(SH("convert"), TM_SAME),
	E(SH("count_leading_zeros"), TM_SAME), E(SH("cosine"), TM_SAME),
	E(SH("exponential"), TM_SAME),
	E(SH("exponential_minus_one"), TM_SAME), E(SH("floor"), TM_SAME),
	E(SH("imag"), TM_SAME), E(SH("log"), TM_SAME),
	E(SH("log_plus_one"), TM_SAME), E(SH("logistic"), TM_SAME),
	E(SH("not"), TM_SAME), E(SH("negate"), TM_SAME),
	E(SH("popcnt"), TM_SAME), E(SH("real"), TM_SAME),
	E(SH("round_nearest_afz"), TM_SAME),
	E(SH("round_nearest_even"), TM_SAME), E(SH("rsqrt"), TM_SAME),
	E(SH("sign"), TM_SAME), E(SH("sine"), TM_SAME),
	E(SH("sqrt"), TM_SAME), E(SH("tan"), TM_SAME),
	E(SH("tanh"), TM_SAME), E(SH("add"), TM_SAME),
	E(SH("atan2"), TM_SAME), E(SH("divide"), TM_SAME),
	E(SH("maximum"), TM_SAME), E(SH("minimum"), TM_SAME),
	E(SH("multiply"), TM_SAME), E(SH("power"), TM_SAME),
	E(SH("remainder"), TM_SAME), E(SH("shift_left"), TM_SAME),
	E(SH("shift_right_arithmetic"), TM_SAME),
	E(SH("shift_right_logical"), TM_SAME), E(SH("subtract"), TM_SAME),
	E(SH("and"), TM_SAME), E(SH("or"), TM_SAME), E(SH("xor"), TM_SAME),
	E(SH("clamp"), TM_SAME), E(SH("after_all"), TM_SAME),
	E(SH("complex"), TM_COMPLEX),
	/* operands : (T) -> T */
	E(SH("is_finite"), TM_FUNC), E(SH("reshape"), TM_FUNC),
	E(SH("dynamic_reshape"), TM_FUNC),
	E(SH("dynamic_update_slice"), TM_FUNC),
	E(SH("bitcast_convert"), TM_FUNC),
	E(SH("real_dynamic_slice"), TM_FUNC), E(SH("dynamic_pad"), TM_FUNC),
	E(SH("uniform_quantize"), TM_FUNC),
	E(SH("uniform_dequantize"), TM_FUNC),
	E(SH("select"), TM_SELECT), E(SH("tuple"), TM_TUPLE),
	E(SH("replica_id"), TM_RESULTS), E(SH("partition_id"), TM_RESULTS),
	E(SH("create_token"), TM_RESULTS),
	E(SH("return"), TM_RETURN), E("func.return", TM_RETURN),
	/* operands and keywords */
	K(SH("broadcast_in_dim"), TM_FUNC, kw_bcast_in_dim),
	K(SH("broadcast"), TM_FUNC, kw_bcast),
	K(SH("dynamic_broadcast_in_dim"), TM_FUNC, kw_dyn_bcast),
	K(SH("iota"), TM_RESULTS, kw_iota),
	K(SH("dynamic_iota"), TM_FUNC, kw_iota),
	K(SH("transpose"), TM_FUNC, kw_transpose),
	K(SH("reverse"), TM_SAME, kw_reverse),
	K(SH("concatenate"), TM_FUNC, kw_dim),
	K(SH("get_dimension_size"), TM_FUNC, kw_dim),
	K(SH("set_dimension_size"), TM_FUNC, kw_dim),
	K(SH("dynamic_slice"), TM_FUNC, kw_dynamic_slice),
	K(SH("pad"), TM_FUNC, kw_pad),
	K(SH("reduce_precision"), TM_SAME, kw_reduce_precision),
	K(SH("rng_bit_generator"), TM_FUNC, kw_rng_bit),
	K(SH("rng"), TM_FUNC, kw_rng),
	K(SH("fft"), TM_FUNC, kw_fft),
	K(SH("einsum"), TM_FUNC, kw_einsum),
	K(SH("unary_einsum"), TM_FUNC, kw_einsum),
	K(SH("cholesky"), TM_SAME, kw_cholesky),
	/* their own syntax */
	F(SH("constant"), pretty_constant),
	F("chlo.constant", pretty_constant),
	F(SH("compare"), pretty_compare),
	F(SH("slice"), pretty_slice),
	F(SH("get_tuple_element"), pretty_get_tuple_element),
	F(SH("custom_call"), pretty_call),
	F("func.call", pretty_call),
	F(SH("composite"), pretty_composite),
	F(SH("optimization_barrier"), pretty_barrier),
	F(SH("while"), hlo_pretty_while),
	F(SH("reduce"), hlo_pretty_reduce),
	F(SH("convolution"), hlo_pretty_convolution),
	F(SH("dot_general"), hlo_pretty_dot_general),
	F(SH("dot"), hlo_pretty_dot),
	F("chlo.top_k", pretty_top_k),
	/* CHLO: operands : T, T -> T, or a function type */
	E("chlo._asin_acos_kernel", TM_ARROW), E("chlo.acos", TM_ARROW),
	E("chlo.acosh", TM_ARROW), E("chlo.asin", TM_ARROW),
	E("chlo.asinh", TM_ARROW), E("chlo.atan", TM_ARROW),
	E("chlo.atanh", TM_ARROW), E("chlo.bessel_i1e", TM_ARROW),
	E("chlo.conj", TM_ARROW), E("chlo.cosh", TM_ARROW),
	E("chlo.sinh", TM_ARROW), E("chlo.tan", TM_ARROW),
	E("chlo.digamma", TM_ARROW), E("chlo.erf", TM_ARROW),
	E("chlo.erf_inv", TM_ARROW), E("chlo.erfc", TM_ARROW),
	E("chlo.is_inf", TM_ARROW), E("chlo.is_neg_inf", TM_ARROW),
	E("chlo.is_pos_inf", TM_ARROW), E("chlo.lgamma", TM_ARROW),
	E("chlo.square", TM_ARROW), E("chlo.next_after", TM_ARROW),
	E("chlo.polygamma", TM_ARROW), E("chlo.zeta", TM_ARROW),
	E("chlo.mulhi", TM_ARROW), E("chlo.broadcast_add", TM_ARROW),
	E("chlo.broadcast_atan2", TM_ARROW),
	E("chlo.broadcast_divide", TM_ARROW),
	E("chlo.broadcast_maximum", TM_ARROW),
	E("chlo.broadcast_minimum", TM_ARROW),
	E("chlo.broadcast_multiply", TM_ARROW),
	E("chlo.broadcast_next_after", TM_ARROW),
	E("chlo.broadcast_polygamma", TM_ARROW),
	E("chlo.broadcast_power", TM_ARROW),
	E("chlo.broadcast_remainder", TM_ARROW),
	E("chlo.broadcast_shift_left", TM_ARROW),
	E("chlo.broadcast_shift_right_arithmetic", TM_ARROW),
	E("chlo.broadcast_shift_right_logical", TM_ARROW),
	E("chlo.broadcast_subtract", TM_ARROW),
	E("chlo.broadcast_zeta", TM_ARROW),
	E("chlo.broadcast_and", TM_ARROW), E("chlo.broadcast_or", TM_ARROW),
	E("chlo.broadcast_xor", TM_ARROW),
	E("chlo.broadcast_complex", TM_ARROW),
	E("chlo.broadcast_compare", TM_ARROW),
	E("chlo.broadcast_select", TM_ARROW),
};

int hlo_parse_pretty(struct hlo_parser *p, struct hlo_opbuild *b)
{
	const struct pretty *pr;
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		pr = &table[i];
		if (strcmp(pr->name, b->op->name))
			continue;
		if (pr->fn)
			return pr->fn(p, b);
		return parse_kw_form(p, b, pr);
	}
	return hlo_error_at(p, b->name_line, b->name_col, -EINVAL,
			    "unknown op '%s' in pretty form (no custom "
			    "syntax is known for it; the generic form "
			    "\"%s\"(...) is read for any op)", b->op->name,
			    b->op->name);
}
