// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_type.c - types: tensor<2x3xf32>, tensor<f32>, element types,
 * complex<f32>, !stablehlo.token, tuple<...> and function types
 * (a, b) -> c. An element type the runtime does not know (f8E4M3FN,
 * si32, ...) is kept by name as PW_HLO_DT_OTHER, so that a later stage
 * can name it in its "unsupported" error.
 */
#include <errno.h>
#include <string.h>

#include "hlo_impl.h"

static const struct {
	const char *name;
	enum pw_hlo_dtype dt;
	size_t size;
} dtypes[] = {
	{ "i1", PW_HLO_DT_I1, 1 },	{ "i4", PW_HLO_DT_I4, 1 },
	{ "i8", PW_HLO_DT_I8, 1 },	{ "i16", PW_HLO_DT_I16, 2 },
	{ "i32", PW_HLO_DT_I32, 4 },	{ "i64", PW_HLO_DT_I64, 8 },
	{ "ui4", PW_HLO_DT_UI4, 1 },	{ "ui8", PW_HLO_DT_UI8, 1 },
	{ "ui16", PW_HLO_DT_UI16, 2 },	{ "ui32", PW_HLO_DT_UI32, 4 },
	{ "ui64", PW_HLO_DT_UI64, 8 },	{ "f16", PW_HLO_DT_F16, 2 },
	{ "bf16", PW_HLO_DT_BF16, 2 },	{ "f32", PW_HLO_DT_F32, 4 },
	{ "f64", PW_HLO_DT_F64, 8 },
	{ "complex<f32>", PW_HLO_DT_C64, 8 },
	{ "complex<f64>", PW_HLO_DT_C128, 16 },
};

size_t pw_hlo_dtype_size(enum pw_hlo_dtype dt)
{
	size_t i;

	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (dtypes[i].dt == dt)
			return dtypes[i].size;
	return 0;
}

const char *pw_hlo_dtype_name(enum pw_hlo_dtype dt)
{
	size_t i;

	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (dtypes[i].dt == dt)
			return dtypes[i].name;
	return "?";
}

enum pw_hlo_dtype hlo_dtype_of_name(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (strlen(dtypes[i].name) == n &&
		    !memcmp(dtypes[i].name, s, n))
			return dtypes[i].dt;
	return PW_HLO_DT_OTHER;
}

static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

/* MLIR's builtin element types by name: iN, siN, uiN, fN..., bf16, ... */
static bool builtin_elem_name(const char *s, size_t n)
{
	if (n >= 2 && s[0] == 'i')
		return all_digits(s + 1, n - 1);
	if (n >= 3 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i')
		return all_digits(s + 2, n - 2);
	if (n >= 2 && s[0] == 'f' && s[1] >= '0' && s[1] <= '9')
		return true;	/* f16, f32, f8E4M3FN, f4E2M1FN, ... */
	return (n == 4 && (!memcmp(s, "bf16", 4) || !memcmp(s, "tf32", 4))) ||
	       (n == 5 && !memcmp(s, "index", 5)) ||
	       (n == 4 && !memcmp(s, "none", 4));
}

bool hlo_at_type(const struct hlo_parser *p)
{
	const struct hlo_token *t = &p->tok;

	if (t->kind == T_BANG || t->kind == T_LPAREN)
		return true;
	return t->kind == T_BARE &&
	       (builtin_elem_name(t->s, t->n) || hlo_is_bare(p, "tensor") ||
		hlo_is_bare(p, "complex") || hlo_is_bare(p, "tuple"));
}

struct pw_hlo_type *hlo_scalar_type(struct hlo_parser *p,
				    enum pw_hlo_dtype dt)
{
	struct pw_hlo_type *t = hlo_new(p, sizeof(*t));

	if (t) {
		t->kind = PW_HLO_TYPE_SCALAR;
		t->dtype = dt;
		t->name = pw_hlo_dtype_name(dt);
	}
	return t;
}

struct pw_hlo_type *hlo_tensor_of(struct hlo_parser *p, enum pw_hlo_dtype dt,
				  uint32_t rank, const int64_t *dims)
{
	struct pw_hlo_type *t = hlo_new(p, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = PW_HLO_TYPE_TENSOR;
	t->dtype = dt;
	t->name = pw_hlo_dtype_name(dt);
	t->rank = rank;
	t->dims = hlo_new(p, (rank ? rank : 1) * sizeof(int64_t));
	if (!t->dims)
		return NULL;
	if (rank)
		memcpy(t->dims, dims, rank * sizeof(int64_t));
	return t;
}

int64_t hlo_type_count(const struct pw_hlo_type *t)
{
	int64_t n = 1;
	uint32_t i;

	if (t->kind == PW_HLO_TYPE_SCALAR)
		return 1;
	if (t->kind != PW_HLO_TYPE_TENSOR)
		return -1;
	for (i = 0; i < t->rank; i++) {
		if (t->dims[i] < 0 ||
		    __builtin_mul_overflow(n, t->dims[i], &n) ||
		    n > ((int64_t)1 << 48))
			return -1;
	}
	return n;
}

bool hlo_type_equal(const struct pw_hlo_type *a, const struct pw_hlo_type *b)
{
	uint32_t i;

	if (a->kind != b->kind || a->rank != b->rank ||
	    a->nelems != b->nelems || a->nresults != b->nresults ||
	    a->dtype != b->dtype || strcmp(a->name ? a->name : "",
					   b->name ? b->name : ""))
		return false;
	for (i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	for (i = 0; i < a->nelems; i++)
		if (!hlo_type_equal(a->elems[i], b->elems[i]))
			return false;
	for (i = 0; i < a->nresults; i++)
		if (!hlo_type_equal(a->results[i], b->results[i]))
			return false;
	return true;
}

/* A !dialect.type, with a <...> body kept as text when it has one. */
static int parse_dialect_type(struct hlo_parser *p, struct pw_hlo_type *t)
{
	const char *s = p->tok.s, *e;
	int level = 0;

	if (p->tok.n == 16 && !memcmp(s, "!stablehlo.token", 16)) {
		t->kind = PW_HLO_TYPE_TOKEN;
		t->name = "!stablehlo.token";
		hlo_next(p);
		return 0;
	}
	e = s + p->tok.n;
	if (e < p->end && *e == '<') {
		/* Kept as text: printable characters only. */
		for (; e < p->end; e++) {
			if (*e < 0x20 || *e > 0x7e || *e == '"')
				break;
			level += *e == '<';
			level -= *e == '>';
			if (!level)
				break;
		}
		if (e >= p->end || level)
			return hlo_expected(p, "'>' closing the dialect type");
		e++;
	}
	t->kind = PW_HLO_TYPE_NAMED;
	t->name = hlo_strndup(p->arena, s, (size_t)(e - s));
	if (!t->name)
		return hlo_nomem(p);
	hlo_seek(p, e);
	return 0;
}

static int parse_elem_type(struct hlo_parser *p, struct pw_hlo_type **out,
			   const char *where);

/* complex<f32>; the '<' is the current token. */
static int parse_complex(struct hlo_parser *p, struct pw_hlo_type *t)
{
	struct pw_hlo_type *e;
	size_t n;
	char *s;
	int err;

	if (hlo_expect(p, T_LESS, "after complex"))
		return p->err;
	err = parse_elem_type(p, &e, "in complex<>");
	if (err)
		return err;
	if (hlo_expect(p, T_GREATER, "closing complex<"))
		return p->err;
	t->kind = PW_HLO_TYPE_SCALAR;
	if (e->dtype == PW_HLO_DT_F32 || e->dtype == PW_HLO_DT_F64) {
		t->dtype = e->dtype == PW_HLO_DT_F32 ? PW_HLO_DT_C64 :
						       PW_HLO_DT_C128;
		t->name = pw_hlo_dtype_name(t->dtype);
		return 0;
	}
	t->dtype = PW_HLO_DT_OTHER;
	n = strlen(e->name);
	s = hlo_new(p, n + 10);
	if (!s)
		return p->err;
	memcpy(s, "complex<", 8);
	memcpy(s + 8, e->name, n);
	s[n + 8] = '>';
	t->name = s;
	return 0;
}

static int parse_elem_type(struct hlo_parser *p, struct pw_hlo_type **out,
			   const char *where)
{
	struct pw_hlo_type *t;
	int err;

	if (p->tok.kind == T_BANG) {
		t = hlo_new(p, sizeof(*t));
		if (!t)
			return p->err;
		err = parse_dialect_type(p, t);
		*out = t;
		return err;
	}
	if (hlo_is_bare(p, "complex")) {
		t = hlo_new(p, sizeof(*t));
		if (!t)
			return p->err;
		hlo_next(p);
		*out = t;
		/* complex<complex<...>> nests: bounded like any nesting. */
		if (hlo_enter(p))
			return p->err;
		err = parse_complex(p, t);
		hlo_leave(p);
		return err;
	}
	if (p->tok.kind != T_BARE || !builtin_elem_name(p->tok.s, p->tok.n))
		return hlo_expected(p, "an element type %s", where);
	t = hlo_new(p, sizeof(*t));
	if (!t)
		return p->err;
	t->kind = PW_HLO_TYPE_SCALAR;
	t->dtype = hlo_dtype_of_name(p->tok.s, p->tok.n);
	t->name = t->dtype == PW_HLO_DT_OTHER ? hlo_tokdup(p, 0) :
						pw_hlo_dtype_name(t->dtype);
	if (!t->name)
		return p->err;
	hlo_next(p);
	*out = t;
	return 0;
}

/* tensor<2x?x3xf32>: the dims are characters, not tokens. */
static int parse_tensor(struct hlo_parser *p, struct pw_hlo_type *t)
{
	int64_t dims[PW_HLO_MAX_RANK];
	uint32_t rank = 0;
	struct pw_hlo_type *e;
	const char *s, *end = p->end;
	int err;

	if (hlo_expect(p, T_LESS, "after tensor"))
		return p->err;
	s = p->tok.s;
	for (;;) {
		const char *d = s;
		int64_t v = 0;

		if (d < end && *d == '?') {
			v = -1;
			d++;
		} else if (d < end && *d == '*') {
			return hlo_expected(p, "a ranked tensor type");
		} else {
			while (d < end && *d >= '0' && *d <= '9') {
				if (v > (INT64_MAX - 9) / 10)
					return hlo_expected(p, "a tensor "
							    "dimension below "
							    "2^63");
				v = v * 10 + (*d++ - '0');
			}
			if (d == s)
				break;
		}
		if (d >= end || *d != 'x')
			break;
		if (rank == PW_HLO_MAX_RANK)
			return hlo_error_at(p, p->tok.line, p->tok.col, -E2BIG,
					    "tensor rank above %d",
					    PW_HLO_MAX_RANK);
		dims[rank++] = v;
		s = d + 1;
	}
	if (s != p->tok.s)
		hlo_seek(p, s);
	err = parse_elem_type(p, &e, "in tensor type");
	if (err)
		return err;
	if (e->kind == PW_HLO_TYPE_TOKEN)
		return hlo_error_at(p, p->tok.line, p->tok.col, -EINVAL,
				    "a token cannot be a tensor's element");
	if (p->tok.kind == T_COMMA)
		return hlo_expected(p, "'>' closing the tensor type (tensor "
				    "encodings are not supported)");
	if (hlo_expect(p, T_GREATER, "closing the tensor type"))
		return p->err;
	t->kind = PW_HLO_TYPE_TENSOR;
	t->dtype = e->dtype;
	t->name = e->name;
	t->rank = rank;
	t->dims = hlo_new(p, (rank ? rank : 1) * sizeof(int64_t));
	if (!t->dims)
		return p->err;
	memcpy(t->dims, dims, rank * sizeof(int64_t));
	return 0;
}

int hlo_parse_type_list(struct hlo_parser *p, struct hlo_vec *v)
{
	struct pw_hlo_type *t;

	do {
		if (hlo_parse_type(p, &t) || hlo_push(p, v, &t, sizeof(t)))
			return p->err;
	} while (hlo_accept(p, T_COMMA));
	return 0;
}

int hlo_parse_result_types(struct hlo_parser *p, struct hlo_vec *v)
{
	struct pw_hlo_type *t;

	if (!hlo_accept(p, T_LPAREN)) {
		if (hlo_parse_type(p, &t) || hlo_push(p, v, &t, sizeof(t)))
			return p->err;
		return 0;
	}
	if (hlo_accept(p, T_RPAREN))
		return 0;
	if (hlo_parse_type_list(p, v))
		return p->err;
	return hlo_expect(p, T_RPAREN, "closing the result types");
}

static int parse_func_type(struct hlo_parser *p, struct pw_hlo_type *t)
{
	struct hlo_vec in = { 0 }, out = { 0 };

	hlo_next(p);	/* ( */
	if (!hlo_accept(p, T_RPAREN)) {
		if (hlo_parse_type_list(p, &in) ||
		    hlo_expect(p, T_RPAREN, "closing the function's inputs"))
			return p->err;
	}
	if (hlo_expect(p, T_ARROW, "after the function's inputs") ||
	    hlo_parse_result_types(p, &out))
		return p->err;
	t->kind = PW_HLO_TYPE_FUNC;
	t->nelems = in.n;
	t->elems = in.v;
	t->nresults = out.n;
	t->results = out.v;
	return 0;
}

int hlo_parse_type(struct hlo_parser *p, struct pw_hlo_type **out)
{
	struct pw_hlo_type *t;
	int err = 0;

	if (p->tok.kind != T_LPAREN && !hlo_is_bare(p, "tensor") &&
	    !hlo_is_bare(p, "tuple"))
		return parse_elem_type(p, out, "or type");
	if (hlo_enter(p))
		return p->err;
	t = hlo_new(p, sizeof(*t));
	if (!t)
		return p->err;
	if (p->tok.kind == T_LPAREN) {
		err = parse_func_type(p, t);
	} else if (hlo_accept_bare(p, "tensor")) {
		err = parse_tensor(p, t);
	} else {
		struct hlo_vec el = { 0 };

		hlo_next(p);
		if (hlo_expect(p, T_LESS, "after tuple"))
			return p->err;
		if (!hlo_is(p, T_GREATER) && hlo_parse_type_list(p, &el))
			return p->err;
		if (hlo_expect(p, T_GREATER, "closing the tuple type"))
			return p->err;
		t->kind = PW_HLO_TYPE_TUPLE;
		t->nelems = el.n;
		t->elems = el.v;
	}
	hlo_leave(p);
	*out = t;
	return err;
}
