// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_pretty_region.c - the pretty forms with regions or structured
 * attributes: stablehlo.while (cond/do over named iteration arguments),
 * stablehlo.reduce (compact `applies stablehlo.add` made into a body of
 * one op, or a `reducer` with its arguments pairwise), convolution
 * (dim_numbers and window), dot and dot_general (dimension numbers,
 * precision, algorithm).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hlo_impl.h"

/* precision = [DEFAULT, HIGHEST] → precision_config, after its ','. */
int hlo_pretty_precision(struct hlo_parser *p, struct hlo_opbuild *b)
{
	uint32_t line = p->tok.line, col = p->tok.col;
	struct hlo_vec v = { 0 };
	struct pw_hlo_attr *arr, *e;

	if (hlo_expect(p, T_EQUAL, "after precision") ||
	    hlo_expect(p, T_LSQUARE, "opening the precisions"))
		return p->err;
	if (!hlo_is(p, T_RSQUARE)) {
		do {
			if (p->tok.kind != T_BARE)
				return hlo_expected(p, "a precision (DEFAULT, "
						    "HIGH, HIGHEST)");
			e = hlo_attr_enum(p, "precision", hlo_tokdup(p, 0));
			hlo_next(p);
			if (!e || hlo_push(p, &v, &e, sizeof(e)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
	}
	if (hlo_expect(p, T_RSQUARE, "closing the precisions"))
		return p->err;
	arr = hlo_attr_new(p, PW_HLO_ATTR_ARRAY);
	if (!arr)
		return p->err;
	arr->n = v.n;
	arr->elems = v.v;
	return hlo_add_attr(p, &b->attrs, "precision_config", arr, line, col);
}

static int two_operands(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct pw_hlo_value v;

	if (hlo_parse_value(p, &v) ||
	    hlo_push(p, &b->operands, &v, sizeof(v)) ||
	    hlo_expect(p, T_COMMA, "between the operands") ||
	    hlo_parse_value(p, &v) ||
	    hlo_push(p, &b->operands, &v, sizeof(v)))
		return p->err;
	return 0;
}

static int end_types(struct hlo_parser *p, struct hlo_opbuild *b)
{
	if (hlo_parse_opt_attr_dict(p, b) ||
	    hlo_expect(p, T_COLON, "before the op's types"))
		return p->err;
	return hlo_pretty_func_type(p, b);
}

/* stablehlo.dot %a, %b [, precision = [...]] {attrs} : (T, T) -> T */
int hlo_pretty_dot(struct hlo_parser *p, struct hlo_opbuild *b)
{
	if (two_operands(p, b))
		return p->err;
	if (hlo_accept(p, T_COMMA) &&
	    (hlo_expect_bare(p, "precision", "after ','") ||
	     hlo_pretty_precision(p, b)))
		return p->err;
	return end_types(p, b);
}

/* [1] x [0] into two int lists. */
static int lhs_rhs(struct hlo_parser *p, struct hlo_vec *l, struct hlo_vec *r)
{
	if (hlo_expect(p, T_EQUAL, "after the keyword") ||
	    hlo_parse_int_list(p, l, "in dimension numbers") ||
	    hlo_expect_bare(p, "x", "between lhs and rhs dimensions") ||
	    hlo_parse_int_list(p, r, "in dimension numbers"))
		return p->err;
	return 0;
}

static struct pw_hlo_attr *int_array(struct hlo_parser *p,
				     const struct hlo_vec *v)
{
	struct pw_hlo_attr *a = hlo_attr_new(p, PW_HLO_ATTR_ARRAY);
	const int64_t *x = v->v;
	uint32_t i;

	if (!a)
		return NULL;
	a->elems = hlo_new(p, (v->n ? v->n : 1) * sizeof(*a->elems));
	if (!a->elems)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!(a->elems[i] = hlo_attr_int(p, x[i], NULL)))
			return NULL;
	a->n = v->n;
	return a;
}

/*
 * stablehlo.dot_general %a, %b, [batching_dims = [0] x [0],]
 * contracting_dims = [1] x [0] [, precision = [...]] [, algorithm = <..>]
 * → dot_dimension_numbers = #stablehlo.dot<...> (empty lists left out,
 * as StableHLO prints them), precision_config, algorithm.
 */
int hlo_pretty_dot_general(struct hlo_parser *p, struct hlo_opbuild *b)
{
	static const char *const names[4] = {
		"lhs_batching_dimensions", "rhs_batching_dimensions",
		"lhs_contracting_dimensions", "rhs_contracting_dimensions",
	};
	struct hlo_vec dims[4] = { { 0 } }, fields = { 0 };
	uint32_t line, col;
	struct pw_hlo_attr *dn, *alg;
	int i;

	if (two_operands(p, b) ||
	    hlo_expect(p, T_COMMA, "before the dimension numbers"))
		return p->err;
	line = p->tok.line;
	col = p->tok.col;
	if (hlo_accept_bare(p, "batching_dims")) {
		if (lhs_rhs(p, &dims[0], &dims[1]) ||
		    hlo_expect(p, T_COMMA, "after batching_dims"))
			return p->err;
	}
	if (hlo_expect_bare(p, "contracting_dims", "in dot_general") ||
	    lhs_rhs(p, &dims[2], &dims[3]))
		return p->err;
	for (i = 0; i < 4; i++) {
		if (dims[i].n && hlo_add_attr(p, &fields, names[i],
					      int_array(p, &dims[i]),
					      line, col))
			return p->err;
	}
	dn = hlo_attr_new(p, PW_HLO_ATTR_STRUCT);
	if (!dn)
		return p->err;
	dn->text = "stablehlo.dot";
	dn->n = fields.n;
	dn->fields = fields.v;
	if (hlo_add_attr(p, &b->attrs, "dot_dimension_numbers", dn, line, col))
		return p->err;
	if (!hlo_accept(p, T_COMMA))
		return end_types(p, b);
	if (hlo_accept_bare(p, "precision")) {
		if (hlo_pretty_precision(p, b))
			return p->err;
		if (!hlo_accept(p, T_COMMA))
			return end_types(p, b);
		if (hlo_expect_bare(p, "algorithm", "after ','"))
			return p->err;
	} else if (hlo_expect_bare(p, "algorithm", "or precision after ','")) {
		return p->err;
	}
	line = p->tok.line;
	col = p->tok.col;
	if (hlo_expect(p, T_EQUAL, "after algorithm") ||
	    hlo_parse_struct_named(p, "stablehlo.dot_algorithm", &alg) ||
	    hlo_add_attr(p, &b->attrs, "algorithm", alg, line, col))
		return p->err;
	return end_types(p, b);
}

/* The block arguments' names and types, of while and reduce. */
static struct pw_hlo_block_arg *make_args(struct hlo_parser *p,
					  const char *const *names,
					  struct pw_hlo_type *const *types,
					  uint32_t n)
{
	struct pw_hlo_block_arg *a = hlo_new(p, (n ? n : 1) * sizeof(*a));
	uint32_t i;

	if (!a)
		return NULL;
	for (i = 0; i < n; i++) {
		a[i].name = names[i];
		a[i].type = types[i];
	}
	return a;
}

/*
 * stablehlo.while(%iterArg = %x, ...) : T, ... [attributes {...}]
 * cond { ... } do { ... }: both regions take the iteration arguments.
 */
int hlo_pretty_while(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct hlo_vec names = { 0 }, types = { 0 };
	struct pw_hlo_block_arg *args;
	struct pw_hlo_region r[2];
	struct pw_hlo_value v;
	uint32_t line, col;
	const char *name;
	int i;

	if (hlo_expect(p, T_LPAREN, "after stablehlo.while"))
		return p->err;
	if (!hlo_accept(p, T_RPAREN)) {
		do {
			if (p->tok.kind != T_VALUE ||
			    memchr(p->tok.s, '#', p->tok.n))
				return hlo_expected(p, "an iteration argument "
						    "(%%name = %%value)");
			name = hlo_tokdup(p, 1);
			hlo_next(p);
			if (!name || hlo_push(p, &names, &name, sizeof(name)) ||
			    hlo_expect(p, T_EQUAL, "after the iteration "
				       "argument") ||
			    hlo_parse_value(p, &v) ||
			    hlo_push(p, &b->operands, &v, sizeof(v)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
		if (hlo_expect(p, T_RPAREN, "closing the iteration arguments"))
			return p->err;
	}
	line = p->tok.line;
	col = p->tok.col;
	if (b->operands.n && (hlo_expect(p, T_COLON, "before the types") ||
			      hlo_parse_type_list(p, &types)))
		return p->err;
	if (types.n != b->operands.n)
		return hlo_error_at(p, line, col, -EINVAL,
				    "%u iteration arguments and %u types",
				    b->operands.n, types.n);
	if (hlo_accept_bare(p, "attributes") &&
	    hlo_parse_attr_dict(p, &b->attrs))
		return p->err;
	b->otypes = types;
	b->rtypes = types;
	args = make_args(p, names.v, types.v, names.n);
	if (!args)
		return p->err;
	memset(r, 0, sizeof(r));
	for (i = 0; i < 2; i++) {
		if (hlo_expect_bare(p, i ? "do" : "cond", i ?
				    "after the condition" :
				    "before the condition") ||
		    hlo_parse_region(p, &r[i], args, names.n) ||
		    hlo_push(p, &b->regions, &r[i], sizeof(r[i])))
			return p->err;
	}
	return 0;
}

/* A body of one op: ^bb0(%l, %r): %o = inner(%l, %r); return %o. */
static int compact_body(struct hlo_parser *p, struct hlo_opbuild *b,
			const char *inner, uint32_t line, uint32_t col)
{
	struct pw_hlo_type *in0, *t;
	struct pw_hlo_block_arg *args;
	struct pw_hlo_op *op, *ret;
	struct pw_hlo_block *blk;
	struct pw_hlo_region r = { 0 };
	const char *dot = strchr(inner, '.');
	char name[3][48], *rname;
	int i;

	if (!b->otypes.n)
		return hlo_error_at(p, line, col, -EINVAL,
				    "stablehlo.reduce without inputs");
	in0 = ((struct pw_hlo_type **)b->otypes.v)[0];
	if (in0->kind != PW_HLO_TYPE_TENSOR)
		return hlo_error_at(p, line, col, -EINVAL,
				    "stablehlo.reduce of a non-tensor");
	t = hlo_new(p, sizeof(*t));
	blk = hlo_new(p, sizeof(*blk));
	op = hlo_new(p, sizeof(*op));
	ret = hlo_new(p, sizeof(*ret));
	if (!t || !blk || !op || !ret)
		return p->err;
	*t = *in0;	/* tensor<> of the first input's element type */
	t->rank = 0;
	for (i = 0; i < 3; i++)
		snprintf(name[i], sizeof(name[i]), "r%u.%u.%s", line, col,
			 i == 0 ? "lhs" : i == 1 ? "rhs" : "out");
	args = hlo_new(p, 2 * sizeof(*args));
	op->operands = hlo_new(p, 2 * sizeof(*op->operands));
	op->operand_types = hlo_new(p, 2 * sizeof(t));
	op->result_types = hlo_new(p, sizeof(t));
	op->groups = hlo_new(p, sizeof(*op->groups));
	ret->operands = hlo_new(p, sizeof(*ret->operands));
	ret->operand_types = hlo_new(p, sizeof(t));
	blk->ops = hlo_new(p, 2 * sizeof(op));
	if (!args || !op->operands || !op->operand_types ||
	    !op->result_types || !op->groups || !ret->operands ||
	    !ret->operand_types || !blk->ops)
		return p->err;
	for (i = 0; i < 2; i++) {
		args[i].name = hlo_strndup(p->arena, name[i], strlen(name[i]));
		args[i].type = t;
		op->operands[i].name = args[i].name;
		op->operand_types[i] = t;
	}
	op->name = inner;
	op->line = line;
	op->col = col;
	op->ngroups = 1;
	op->groups[0].name = hlo_strndup(p->arena, name[2], strlen(name[2]));
	op->groups[0].count = 1;
	op->nresults = 1;
	op->noperands = 2;
	op->result_types[0] = t;
	rname = hlo_new(p, (size_t)(dot - inner) + 8);
	if (!rname)
		return p->err;
	memcpy(rname, inner, (size_t)(dot - inner));
	memcpy(rname + (dot - inner), ".return", 8);
	ret->name = rname;
	if (!args[0].name || !args[1].name || !op->groups[0].name)
		return hlo_nomem(p);
	ret->line = line;
	ret->col = col;
	ret->noperands = 1;
	ret->operands[0].name = op->groups[0].name;
	ret->operand_types[0] = t;
	blk->label = "bb0";
	blk->nargs = 2;
	blk->args = args;
	blk->nops = 2;
	blk->ops[0] = op;
	blk->ops[1] = ret;
	r.nblocks = 1;
	r.blocks = blk;
	return hlo_push(p, &b->regions, &r, sizeof(r));
}

/* reducer(%a: T, %b: T) (%c: U, %d: U) { ... } */
static int reducer(struct hlo_parser *p, struct hlo_opbuild *b, uint32_t n)
{
	struct hlo_vec names[2] = { { 0 } }, types[2] = { { 0 } };
	struct pw_hlo_block_arg *args;
	struct pw_hlo_region r = { 0 };
	uint32_t i, k;

	if (hlo_expect_bare(p, "reducer", "after the reduce's types"))
		return p->err;
	for (i = 0; i < n; i++) {
		if (hlo_expect(p, T_LPAREN, "opening a pair of reducer "
			       "arguments"))
			return p->err;
		for (k = 0; k < 2; k++) {
			struct pw_hlo_type *t;
			const char *name;

			if (p->tok.kind != T_VALUE ||
			    memchr(p->tok.s, '#', p->tok.n))
				return hlo_expected(p, "a reducer argument");
			name = hlo_tokdup(p, 1);
			hlo_next(p);
			if (!name || hlo_expect(p, T_COLON, "after the "
						"argument's name") ||
			    hlo_parse_type(p, &t) ||
			    hlo_push(p, &names[k], &name, sizeof(name)) ||
			    hlo_push(p, &types[k], &t, sizeof(t)))
				return p->err;
			if (!k && hlo_expect(p, T_COMMA, "between the pair"))
				return p->err;
		}
		if (hlo_expect(p, T_RPAREN, "closing the pair"))
			return p->err;
	}
	/* The block takes all the first of each pair, then the seconds. */
	for (i = 0; i < n; i++) {
		if (hlo_push(p, &names[0], (const char **)names[1].v + i,
			     sizeof(char *)) ||
		    hlo_push(p, &types[0], (struct pw_hlo_type **)types[1].v +
			     i, sizeof(void *)))
			return p->err;
	}
	args = make_args(p, names[0].v, types[0].v, 2 * n);
	if (!args || hlo_parse_region(p, &r, args, 2 * n))
		return p->err;
	return hlo_push(p, &b->regions, &r, sizeof(r));
}

/*
 * stablehlo.reduce(%x init: %i), ... applies stablehlo.add across
 * dimensions = [1] {attrs} : (T, T) -> T, or ... across dimensions = [1]
 * : type reducer(...) (...) { body }. Operands: the inputs, then inits.
 */
int hlo_pretty_reduce(struct hlo_parser *p, struct hlo_opbuild *b)
{
	uint32_t line = b->name_line, col = b->name_col, n, i;
	struct hlo_vec inits = { 0 }, dims = { 0 };
	struct pw_hlo_value v;
	const char *inner = NULL;

	do {
		if (hlo_expect(p, T_LPAREN, "opening (%%input init: %%init)") ||
		    hlo_parse_value(p, &v) ||
		    hlo_push(p, &b->operands, &v, sizeof(v)) ||
		    hlo_expect_bare(p, "init", "after the input") ||
		    hlo_expect(p, T_COLON, "after init") ||
		    hlo_parse_value(p, &v) ||
		    hlo_push(p, &inits, &v, sizeof(v)) ||
		    hlo_expect(p, T_RPAREN, "closing (%%input init: %%init)"))
			return p->err;
	} while (hlo_accept(p, T_COMMA));
	n = inits.n;
	for (i = 0; i < n; i++)
		if (hlo_push(p, &b->operands,
			     (struct pw_hlo_value *)inits.v + i, sizeof(v)))
			return p->err;
	if (hlo_accept_bare(p, "applies")) {
		if (p->tok.kind != T_BARE || !memchr(p->tok.s, '.', p->tok.n))
			return hlo_expected(p, "an op's name after applies");
		inner = hlo_tokdup(p, 0);
		hlo_next(p);
	}
	if (hlo_expect_bare(p, "across", "in stablehlo.reduce") ||
	    hlo_expect_bare(p, "dimensions", "after across") ||
	    hlo_expect(p, T_EQUAL, "after dimensions") ||
	    hlo_parse_int_list(p, &dims, "in the reduce's dimensions") ||
	    hlo_add_attr(p, &b->attrs, "dimensions",
			 hlo_attr_i64_array(p, dims.v, dims.n), line, col) ||
	    end_types(p, b))
		return p->err;
	if (inner)
		return compact_body(p, b, inner, line, col);
	return reducer(p, b, n);
}

/* window = {stride = [..], pad = [[l, h], ..], lhs_dilate = [..], ...} */
static int conv_window(struct hlo_parser *p, struct hlo_opbuild *b)
{
	static const char *const words[5] = {
		"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse",
	};
	static const char *const attrs[5] = {
		"window_strides", "padding", "lhs_dilation", "rhs_dilation",
		"window_reversal",
	};
	struct pw_hlo_attr *a;
	int w;

	if (hlo_expect(p, T_LBRACE, "opening the window"))
		return p->err;
	while (p->tok.kind == T_BARE) {
		uint32_t line = p->tok.line, col = p->tok.col;
		struct hlo_vec v = { 0 };

		for (w = 0; w < 5; w++)
			if (hlo_is_bare(p, words[w]))
				break;
		if (w == 5)
			return hlo_expected(p, "stride, pad, lhs_dilate, "
					    "rhs_dilate or reverse");
		hlo_next(p);
		if (hlo_expect(p, T_EQUAL, "after the window's keyword"))
			return p->err;
		if (w == 1) {
			struct pw_hlo_attr *pad;
			int64_t dims[2];

			if (hlo_expect(p, T_LSQUARE, "opening the padding"))
				return p->err;
			if (!hlo_is(p, T_RSQUARE)) {
				do {
					uint32_t before = v.n;

					if (hlo_parse_int_list(p, &v,
							"in the padding"))
						return p->err;
					if (v.n - before != 2)
						return hlo_expected(p, "pairs "
							"[low, high] of "
							"padding");
				} while (hlo_accept(p, T_COMMA));
			}
			if (hlo_expect(p, T_RSQUARE, "closing the padding"))
				return p->err;
			dims[0] = v.n / 2;
			dims[1] = 2;
			a = hlo_attr_new(p, PW_HLO_ATTR_DENSE);
			if (!a)
				return p->err;
			a->type = hlo_tensor_of(p, PW_HLO_DT_I64, 2, dims);
			pad = hlo_attr_i64_array(p, v.v, v.n);
			if (!a->type || !pad)
				return p->err;
			a->bytes = pad->bytes;
			a->nbytes = v.n * 8u;
			a->count = v.n;
		} else if (w == 4) {
			uint32_t i;

			if (hlo_expect(p, T_LSQUARE, "opening reverse"))
				return p->err;
			a = hlo_attr_new(p, PW_HLO_ATTR_DENSE_ARRAY);
			if (!a || !(a->type = hlo_scalar_type(p, PW_HLO_DT_I1)))
				return p->err;
			if (!hlo_is(p, T_RSQUARE)) {
				do {
					uint8_t bit;
					int64_t x;

					if (hlo_is_bare(p, "true") ||
					    hlo_is_bare(p, "false")) {
						bit = hlo_is_bare(p, "true");
						hlo_next(p);
					} else if (hlo_parse_int(p, &x,
							"in reverse")) {
						return p->err;
					} else {
						bit = x != 0;
					}
					if (hlo_push(p, &v, &bit, 1))
						return p->err;
				} while (hlo_accept(p, T_COMMA));
			}
			if (hlo_expect(p, T_RSQUARE, "closing reverse"))
				return p->err;
			a->bytes = hlo_new(p, v.n + 1);
			if (!a->bytes)
				return p->err;
			for (i = 0; i < v.n; i++)
				a->bytes[i] = ((uint8_t *)v.v)[i];
			a->nbytes = a->count = v.n;
		} else {
			if (hlo_parse_int_list(p, &v, "in the window"))
				return p->err;
			a = hlo_attr_i64_array(p, v.v, v.n);
		}
		if (hlo_add_attr(p, &b->attrs, attrs[w], a, line, col))
			return p->err;
		if (!hlo_accept(p, T_COMMA))
			break;
	}
	return hlo_expect(p, T_RBRACE, "closing the window");
}

/*
 * stablehlo.convolution(%a, %b) dim_numbers = [b, f, 0]x[o, i, 0]->[b,
 * f, 0], window = {...} {attrs} : (T, T) -> T
 */
int hlo_pretty_convolution(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct hlo_vec fields = { 0 };
	struct pw_hlo_attr *dn;
	uint32_t line, col;

	if (hlo_expect(p, T_LPAREN, "after stablehlo.convolution") ||
	    hlo_pretty_operands(p, b) ||
	    hlo_expect(p, T_RPAREN, "closing the convolution's operands") ||
	    hlo_expect_bare(p, "dim_numbers", "after the operands") ||
	    hlo_expect(p, T_EQUAL, "after dim_numbers"))
		return p->err;
	line = p->tok.line;
	col = p->tok.col;
	if (hlo_parse_conv_dims(p, &fields))
		return p->err;
	dn = hlo_attr_new(p, PW_HLO_ATTR_STRUCT);
	if (!dn)
		return p->err;
	dn->text = "stablehlo.conv";
	dn->n = fields.n;
	dn->fields = fields.v;
	if (hlo_add_attr(p, &b->attrs, "dimension_numbers", dn, line, col) ||
	    hlo_expect(p, T_COMMA, "after the dimension numbers") ||
	    hlo_expect_bare(p, "window", "after the dimension numbers") ||
	    hlo_expect(p, T_EQUAL, "after window") || conv_window(p, b))
		return p->err;
	return end_types(p, b);
}
