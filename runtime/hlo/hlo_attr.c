// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_attr.c - attribute values: integers and floats (typed or not),
 * bools, strings, symbol references, types, arrays, dictionaries, the
 * dialect attributes StableHLO prints (#stablehlo<comparison_direction
 * GT>, #stablehlo.gather<offset_dims = [1], ...>, #stablehlo.conv<[b, f,
 * 0]x[o, i, 0]->[b, f, 0]>), and dense<...>/array<...> (hlo_dense.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_impl.h"

#define HEX	"0123456789abcdefABCDEF"

struct pw_hlo_attr *hlo_attr_new(struct hlo_parser *p,
				 enum pw_hlo_attr_kind kind)
{
	struct pw_hlo_attr *a = hlo_new(p, sizeof(*a));

	if (a)
		a->kind = kind;
	return a;
}

struct pw_hlo_attr *hlo_attr_int(struct hlo_parser *p, int64_t v,
				 struct pw_hlo_type *type)
{
	struct pw_hlo_attr *a = hlo_attr_new(p, PW_HLO_ATTR_INT);

	if (a) {
		a->neg = v < 0;
		a->u = v < 0 ? -(uint64_t)v : (uint64_t)v;
		a->type = type;
	}
	return a;
}

struct pw_hlo_attr *hlo_attr_i64_array(struct hlo_parser *p,
				       const int64_t *v, uint32_t n)
{
	struct pw_hlo_attr *a = hlo_attr_new(p, PW_HLO_ATTR_DENSE_ARRAY);
	uint32_t i;

	if (!a)
		return NULL;
	a->type = hlo_scalar_type(p, PW_HLO_DT_I64);
	a->bytes = hlo_new(p, n * 8u + 1);
	if (!a->type || !a->bytes)
		return NULL;
	for (i = 0; i < n; i++) {
		uint64_t u = (uint64_t)v[i];
		int k;

		for (k = 0; k < 8; k++)
			a->bytes[i * 8 + k] = (uint8_t)(u >> (8 * k));
	}
	a->nbytes = n * 8u;
	a->count = n;
	return a;
}

struct pw_hlo_attr *hlo_attr_enum(struct hlo_parser *p, const char *class,
				  const char *value)
{
	struct pw_hlo_attr *a = hlo_attr_new(p, PW_HLO_ATTR_ENUM);

	if (a) {
		a->text = "stablehlo";
		a->enum_class = class;
		a->enum_value = value;
	}
	return a;
}

int hlo_add_attr(struct hlo_parser *p, struct hlo_vec *v, const char *name,
		 struct pw_hlo_attr *value, uint32_t line, uint32_t col)
{
	struct pw_hlo_named_attr na = { name, value }, *have = v->v;
	uint32_t i;

	if (!name || !value)
		return hlo_nomem(p);
	for (i = 0; i < v->n; i++)
		if (!strcmp(have[i].name, name))
			return hlo_error_at(p, line, col, -EINVAL,
					    "attribute '%s' given twice", name);
	if (v->n >= PW_HLO_MAX_ATTRS)
		return hlo_error_at(p, line, col, -E2BIG,
				    "more than %u attributes",
				    PW_HLO_MAX_ATTRS);
	return hlo_push(p, v, &na, sizeof(na));
}

/* A decimal or 0x integer token into a magnitude and a sign. */
static int tok_int(struct hlo_parser *p, uint64_t *u, bool *neg)
{
	const char *s = p->tok.s, *e = s + p->tok.n;
	uint64_t v = 0;

	*neg = s < e && *s == '-';
	s += *neg;
	if (e - s > 2 && s[1] == 'x') {
		if (e - s > 18)
			return hlo_expected(p, "a hex integer of 64 bits");
		for (s += 2; s < e; s++) {
			int c = *s, d = c <= '9' ? c - '0' :
				(c | 0x20) - 'a' + 10;

			v = v << 4 | (uint64_t)d;
		}
	} else {
		for (; s < e; s++) {
			if (v > (UINT64_MAX - 9) / 10 &&
			    (v > UINT64_MAX / 10 ||
			     v * 10 > UINT64_MAX - (uint64_t)(*s - '0')))
				return hlo_expected(p,
					"an integer of 64 bits at most");
			v = v * 10 + (uint64_t)(*s - '0');
		}
	}
	*u = v;
	return 0;
}

int hlo_parse_int(struct hlo_parser *p, int64_t *v, const char *what)
{
	uint64_t u;
	bool neg;

	if (p->tok.kind != T_INT)
		return hlo_expected(p, "an integer %s", what);
	if (tok_int(p, &u, &neg))
		return p->err;
	if (u > (uint64_t)INT64_MAX + neg)
		return hlo_expected(p, "an integer %s in the range of i64",
				    what);
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	hlo_next(p);
	return 0;
}

int hlo_parse_int_list(struct hlo_parser *p, struct hlo_vec *v,
		       const char *what)
{
	int64_t x;

	if (hlo_expect(p, T_LSQUARE, what))
		return p->err;
	if (hlo_accept(p, T_RSQUARE))
		return 0;
	do {
		if (hlo_parse_int(p, &x, what) || hlo_push(p, v, &x, sizeof(x)))
			return p->err;
	} while (hlo_accept(p, T_COMMA));
	return hlo_expect(p, T_RSQUARE, what);
}

/* A string token's bytes, escapes decoded (\" \\ \n \t \XX). */
static int tok_string(struct hlo_parser *p, const char *s, size_t n,
		      struct pw_hlo_attr *a)
{
	char *d = hlo_new(p, n + 1);
	size_t i, k = 0;

	if (!d)
		return p->err;
	for (i = 1; i + 1 < n; i++) {
		char c = s[i];

		if (c != '\\') {
			d[k++] = c;
			continue;
		}
		c = s[++i];
		if (c == '"' || c == '\\') {
			d[k++] = c;
		} else if (c == 'n') {
			d[k++] = '\n';
		} else if (c == 't') {
			d[k++] = '\t';
		} else if (i + 1 < n - 1 && c && strchr(HEX, c) &&
			   s[i + 1] && strchr(HEX, s[i + 1])) {
			char hex[3] = { c, s[i + 1], 0 };

			d[k++] = (char)strtoul(hex, NULL, 16);
			i++;
		} else {
			return hlo_error_at(p, p->tok.line,
					    p->tok.col + (uint32_t)i, -EINVAL,
					    "bad escape in string literal");
		}
	}
	a->text = d;
	a->len = k;
	return 0;
}

static int parse_number(struct hlo_parser *p, struct pw_hlo_attr *a)
{
	bool is_float = p->tok.kind == T_FLOAT;
	const char *s = p->tok.s;
	size_t n = p->tok.n;

	if (is_float) {
		char buf[64];

		if (n >= sizeof(buf))
			return hlo_expected(p, "a float literal of fewer than "
					    "64 characters");
		memcpy(buf, s, n);
		buf[n] = 0;
		a->kind = PW_HLO_ATTR_FLOAT;
		a->d = strtod(buf, NULL);
	} else {
		a->kind = PW_HLO_ATTR_INT;
		if (tok_int(p, &a->u, &a->neg))
			return p->err;
	}
	a->text = hlo_tokdup(p, 0);
	if (!a->text)
		return p->err;
	hlo_next(p);
	if (!hlo_accept(p, T_COLON))
		return 0;
	if (hlo_parse_type(p, &a->type))
		return p->err;
	if (a->type->kind != PW_HLO_TYPE_SCALAR)
		return hlo_error_at(p, p->tok.line, p->tok.col, -EINVAL,
				    "a number's type must be an element type");
	switch (a->type->dtype) {
	case PW_HLO_DT_F16: case PW_HLO_DT_BF16: case PW_HLO_DT_F32:
	case PW_HLO_DT_F64:
		if (a->kind == PW_HLO_ATTR_INT && !(n > 2 && s[1] == 'x'))
			a->d = a->neg ? -(double)a->u : (double)a->u;
		a->kind = PW_HLO_ATTR_FLOAT;
		break;
	default:
		if (is_float)
			return hlo_error_at(p, p->tok.line, p->tok.col,
					    -EINVAL, "a float literal needs "
					    "a float type");
		break;
	}
	return 0;
}

static int parse_array(struct hlo_parser *p, struct pw_hlo_attr *a)
{
	struct hlo_vec v = { 0 };
	struct pw_hlo_attr *e;

	hlo_next(p);
	a->kind = PW_HLO_ATTR_ARRAY;
	if (!hlo_accept(p, T_RSQUARE)) {
		do {
			if (hlo_parse_attr(p, &e) ||
			    hlo_push(p, &v, &e, sizeof(e)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
		if (hlo_expect(p, T_RSQUARE, "closing the array"))
			return p->err;
	}
	a->n = v.n;
	a->elems = v.v;
	return 0;
}

int hlo_parse_attr_dict(struct hlo_parser *p, struct hlo_vec *v)
{
	if (hlo_expect(p, T_LBRACE, "opening the attributes"))
		return p->err;
	if (hlo_accept(p, T_RBRACE))
		return 0;
	do {
		uint32_t line = p->tok.line, col = p->tok.col;
		struct pw_hlo_attr *val = NULL, tmp = { 0 };
		const char *name;

		if (p->tok.kind == T_STRING) {
			if (tok_string(p, p->tok.s, p->tok.n, &tmp))
				return p->err;
			name = tmp.text;
			if (strlen(name) != tmp.len || !tmp.len)
				return hlo_expected(p, "an attribute name");
		} else if (p->tok.kind == T_BARE) {
			name = hlo_tokdup(p, 0);
		} else {
			return hlo_expected(p, "an attribute name");
		}
		hlo_next(p);
		if (hlo_accept(p, T_EQUAL)) {
			if (hlo_parse_attr(p, &val))
				return p->err;
		} else {
			val = hlo_attr_new(p, PW_HLO_ATTR_UNIT);
		}
		if (hlo_add_attr(p, v, name, val, line, col))
			return p->err;
	} while (hlo_accept(p, T_COMMA));
	return hlo_expect(p, T_RBRACE, "closing the attributes");
}

static struct pw_hlo_attr *int_list_attr(struct hlo_parser *p,
					 const int64_t *v, uint32_t n)
{
	struct pw_hlo_attr *a = hlo_attr_new(p, PW_HLO_ATTR_ARRAY);
	uint32_t i;

	if (!a)
		return NULL;
	a->elems = hlo_new(p, (n ? n : 1) * sizeof(*a->elems));
	if (!a->elems)
		return NULL;
	for (i = 0; i < n; i++) {
		a->elems[i] = hlo_attr_int(p, v[i], NULL);
		if (!a->elems[i])
			return NULL;
	}
	a->n = n;
	return a;
}

/*
 * One of [b, f, 0, 1]: @letters are the two non-spatial dimensions it
 * must name (bf or io), found at @at[0..1]; @spatial[k] is where k is.
 */
static int conv_dims(struct hlo_parser *p, const char *letters, int64_t at[2],
		     int64_t *spatial, uint32_t *nspatial)
{
	uint32_t index = 0, max = 0, i;
	bool seen[PW_HLO_MAX_RANK] = { false };

	at[0] = at[1] = -1;
	if (hlo_expect(p, T_LSQUARE, "opening convolution dimensions"))
		return p->err;
	do {
		if (index == PW_HLO_MAX_RANK)
			return hlo_expected(p, "at most %d dimensions",
					    PW_HLO_MAX_RANK);
		if (p->tok.kind == T_INT) {
			int64_t k;

			if (hlo_parse_int(p, &k, "in convolution dimensions"))
				return p->err;
			if (k < 0 || k >= PW_HLO_MAX_RANK || seen[k])
				return hlo_error_at(p, p->tok.line, p->tok.col,
					-EINVAL, "bad or repeated spatial "
					"dimension %lld", (long long)k);
			seen[k] = true;
			spatial[k] = index;
			if ((uint32_t)k + 1 > max)
				max = (uint32_t)k + 1;
		} else if (p->tok.kind == T_BARE && p->tok.n == 1 &&
			   (p->tok.s[0] == letters[0] ||
			    p->tok.s[0] == letters[1])) {
			int w = p->tok.s[0] == letters[1];

			if (at[w] >= 0)
				return hlo_expected(p, "each of %s once",
						    letters);
			at[w] = index;
			hlo_next(p);
		} else {
			return hlo_expected(p, "a dimension (%c, %c or a "
					    "number)", letters[0], letters[1]);
		}
		index++;
	} while (hlo_accept(p, T_COMMA));
	for (i = 0; i < max; i++)
		if (!seen[i])
			return hlo_expected(p, "spatial dimension %u before "
					    "']'", i);
	if (at[0] < 0 || at[1] < 0)
		return hlo_expected(p, "both %c and %c before ']'",
				    letters[0], letters[1]);
	*nspatial = max;
	return hlo_expect(p, T_RSQUARE, "closing convolution dimensions");
}

/* [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] into the fields of a conv. */
int hlo_parse_conv_dims(struct hlo_parser *p, struct hlo_vec *fields)
{
	static const char *const names[9] = {
		"input_batch_dimension", "input_feature_dimension",
		"input_spatial_dimensions", "kernel_input_feature_dimension",
		"kernel_output_feature_dimension", "kernel_spatial_dimensions",
		"output_batch_dimension", "output_feature_dimension",
		"output_spatial_dimensions",
	};
	int64_t at[3][2], sp[3][PW_HLO_MAX_RANK];
	uint32_t nsp[3], line = p->tok.line, col = p->tok.col;
	int i;

	if (conv_dims(p, "bf", at[0], sp[0], &nsp[0]) ||
	    hlo_expect_bare(p, "x", "between input and kernel dimensions") ||
	    conv_dims(p, "io", at[1], sp[1], &nsp[1]) ||
	    hlo_expect(p, T_ARROW, "before output dimensions") ||
	    conv_dims(p, "bf", at[2], sp[2], &nsp[2]))
		return p->err;
	for (i = 0; i < 3; i++) {
		if (hlo_add_attr(p, fields, names[i * 3],
				 hlo_attr_int(p, at[i][0], NULL),
				 line, col) ||
		    hlo_add_attr(p, fields, names[i * 3 + 1],
				 hlo_attr_int(p, at[i][1], NULL), line, col) ||
		    hlo_add_attr(p, fields, names[i * 3 + 2],
				 int_list_attr(p, sp[i], nsp[i]), line, col))
			return p->err;
	}
	return 0;
}

/* Look one token past the current one: is it @k? */
static bool peek2_is(struct hlo_parser *p, enum hlo_tok k)
{
	struct hlo_parser save = *p;
	bool r;

	hlo_next(p);
	r = p->tok.kind == k;
	p->pos = save.pos;
	p->line = save.line;
	p->line_start = save.line_start;
	p->tok = save.tok;
	return r;
}

/* The body of #prefix<...> after '<', up to and with its '>'. */
static int parse_struct_body(struct hlo_parser *p, struct pw_hlo_attr *a)
{
	struct hlo_vec f = { 0 };

	a->kind = PW_HLO_ATTR_STRUCT;
	if (!strcmp(a->text, "stablehlo.conv") && !hlo_is_bare(p, "raw")) {
		if (hlo_parse_conv_dims(p, &f))
			return p->err;
	} else {
		hlo_accept_bare(p, "raw");
		while (p->tok.kind == T_BARE) {
			uint32_t line = p->tok.line, col = p->tok.col;
			const char *name = hlo_tokdup(p, 0);
			struct pw_hlo_attr *v = NULL;

			hlo_next(p);
			if (hlo_expect(p, T_EQUAL, "after the field's name") ||
			    hlo_parse_attr(p, &v) ||
			    hlo_add_attr(p, &f, name, v, line, col))
				return p->err;
			if (!hlo_accept(p, T_COMMA))
				break;
		}
	}
	a->n = f.n;
	a->fields = f.v;
	return hlo_expect(p, T_GREATER, "closing the attribute");
}

static int parse_dialect_attr(struct hlo_parser *p, struct pw_hlo_attr *a)
{
	a->text = hlo_tokdup(p, 1);
	if (!a->text)
		return p->err;
	if (!strchr(a->text, '.') && !strcmp(a->text, "loc"))
		return hlo_expected(p, "an attribute (locations are not "
				    "attributes)");
	hlo_next(p);
	if (p->tok.kind != T_LESS)
		return hlo_expected(p, "'<' after #%s (attribute aliases are "
				    "not supported)", a->text);
	hlo_next(p);
	if (!strchr(a->text, '.')) {
		/* #stablehlo<comparison_direction GT> */
		a->kind = PW_HLO_ATTR_ENUM;
		if (p->tok.kind != T_BARE)
			return hlo_expected(p, "an enum's kind in #%s<>",
					    a->text);
		a->enum_class = hlo_tokdup(p, 0);
		hlo_next(p);
		if (p->tok.kind != T_BARE)
			return hlo_expected(p, "an enum's value in #%s<%s>",
					    a->text, a->enum_class);
		a->enum_value = hlo_tokdup(p, 0);
		hlo_next(p);
		return hlo_expect(p, T_GREATER, "closing the enum");
	}
	if (p->tok.kind == T_BARE && peek2_is(p, T_GREATER)) {
		/* #stablehlo.result_accuracy_mode<DEFAULT> */
		a->kind = PW_HLO_ATTR_ENUM;
		a->enum_value = hlo_tokdup(p, 0);
		hlo_next(p);
		hlo_next(p);
		return 0;
	}
	return parse_struct_body(p, a);
}

/* algorithm = <...> of dot_general: a struct printed without its name. */
int hlo_parse_struct_named(struct hlo_parser *p, const char *prefix,
			   struct pw_hlo_attr **out)
{
	struct pw_hlo_attr *a = hlo_attr_new(p, PW_HLO_ATTR_STRUCT);

	if (!a)
		return p->err;
	a->text = prefix;
	if (hlo_expect(p, T_LESS, "opening the attribute") ||
	    parse_struct_body(p, a))
		return p->err;
	*out = a;
	return 0;
}

static int parse_attr_body(struct hlo_parser *p, struct pw_hlo_attr *a)
{
	switch (p->tok.kind) {
	case T_INT:
	case T_FLOAT:
		return parse_number(p, a);
	case T_STRING:
		a->kind = PW_HLO_ATTR_STRING;
		if (tok_string(p, p->tok.s, p->tok.n, a))
			return p->err;
		hlo_next(p);
		return 0;
	case T_SYMBOL:
		a->kind = PW_HLO_ATTR_SYMBOL;
		if (p->tok.s[1] == '"') {
			struct pw_hlo_attr tmp = { 0 };

			if (tok_string(p, p->tok.s + 1, p->tok.n - 1, &tmp))
				return p->err;
			if (strlen(tmp.text) != tmp.len)
				return hlo_expected(p, "a symbol without NUL");
			a->text = tmp.text;
		} else {
			a->text = hlo_tokdup(p, 1);
		}
		hlo_next(p);
		return a->text ? 0 : p->err;
	case T_LSQUARE:
		return parse_array(p, a);
	case T_LBRACE: {
		struct hlo_vec v = { 0 };

		a->kind = PW_HLO_ATTR_DICT;
		if (hlo_parse_attr_dict(p, &v))
			return p->err;
		a->n = v.n;
		a->fields = v.v;
		return 0;
	}
	case T_HASH:
		return parse_dialect_attr(p, a);
	case T_BARE:
		if (hlo_accept_bare(p, "true") || hlo_is_bare(p, "false")) {
			a->kind = PW_HLO_ATTR_BOOL;
			a->b = !hlo_accept_bare(p, "false");
			return 0;
		}
		if (hlo_accept_bare(p, "unit")) {
			a->kind = PW_HLO_ATTR_UNIT;
			return 0;
		}
		if (hlo_accept_bare(p, "dense"))
			return hlo_parse_dense(p, a);
		if (hlo_accept_bare(p, "array"))
			return hlo_parse_dense_array(p, a);
		break;
	default:
		break;
	}
	if (hlo_at_type(p)) {
		a->kind = PW_HLO_ATTR_TYPE;
		return hlo_parse_type(p, &a->type);
	}
	return hlo_expected(p, "an attribute value");
}

int hlo_parse_attr(struct hlo_parser *p, struct pw_hlo_attr **out)
{
	struct pw_hlo_attr *a;
	int err;

	if (hlo_enter(p))
		return p->err;
	a = hlo_attr_new(p, PW_HLO_ATTR_UNIT);
	if (!a)
		return p->err;
	err = parse_attr_body(p, a);
	hlo_leave(p);
	*out = a;
	return err;
}
