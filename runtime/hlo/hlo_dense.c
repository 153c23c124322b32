// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_dense.c - dense<...> and array<...> literals, decoded into the raw
 * little-endian bytes of their element type, so that every constant
 * reaches the later stages as bytes. The hex form ("0x...", one element
 * for a splat) is checked against the type's size; the list form is
 * checked against its shape and each number against its type's range.
 * Floats are read as MLIR reads them: strtod, then rounded to the element
 * type to nearest, ties to even.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_impl.h"

struct lit {
	enum hlo_tok kind;	/* T_INT, T_FLOAT, T_BARE */
	const char *s;
	size_t n;
	uint32_t line, col;
	bool neg;		/* -inf, -nan */
};

struct elem {
	struct lit re, im;
	bool cplx;
};

struct shape {
	int rank;		/* -1 until known */
	int64_t dims[PW_HLO_MAX_RANK];
	bool known[PW_HLO_MAX_RANK];
	struct hlo_vec elems;	/* struct elem */
};

/*
 * Round a double to a binary format of @mbits mantissa bits and exponent
 * bias @bias, to nearest, ties to even: f16 and bf16.
 */
static uint16_t f64_to_small(double d, int mbits, int bias)
{
	uint64_t b, m, r, rem, half;
	uint16_t sign, bits;
	int e, s, emin = 1 - bias;

	memcpy(&b, &d, sizeof(b));
	sign = (uint16_t)((b >> 63) << 15);
	e = (int)((b >> 52) & 0x7ff);
	m = b & ((1ull << 52) - 1);
	if (e == 0x7ff) {
		if (!m)
			return sign | (uint16_t)(((2 * bias + 1) << mbits));
		/* A quiet NaN keeping the top of the payload. */
		return sign | (uint16_t)((2 * bias + 1) << mbits) |
		       (uint16_t)(1u << (mbits - 1)) |
		       (uint16_t)(m >> (52 - mbits));
	}
	if (!e)
		return sign;	/* a double subnormal is far below both */
	e -= 1023;
	if (e > bias)
		return sign | (uint16_t)((2 * bias + 1) << mbits);
	m |= 1ull << 52;
	s = 52 - mbits + (e < emin ? emin - e : 0);
	if (s > 60)
		return sign;
	r = m >> s;
	rem = m & ((1ull << s) - 1);
	half = 1ull << (s - 1);
	if (rem > half || (rem == half && (r & 1)))
		r++;
	if (e >= emin)
		r += (uint64_t)(e + bias - 1) << mbits;
	if (r >= (uint64_t)(2 * bias + 1) << mbits)
		r = (uint64_t)(2 * bias + 1) << mbits;
	bits = (uint16_t)r;
	return sign | bits;
}

uint16_t hlo_f64_to_f16(double d)
{
	return f64_to_small(d, 10, 15);
}

uint16_t hlo_f64_to_bf16(double d)
{
	return f64_to_small(d, 7, 127);
}

static void put_le(uint8_t *out, uint64_t v, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

static int lit_error(struct hlo_parser *p, const struct lit *l,
		     const char *what, const char *type)
{
	return hlo_error_at(p, l->line, l->col, -EINVAL,
			    "expected %s for %s, found '%.*s'", what, type,
			    (int)(l->n > 40 ? 40 : l->n), l->s);
}

static bool lit_word(const struct lit *l, const char *w)
{
	return l->kind == T_BARE && l->n == strlen(w) && !memcmp(l->s, w, l->n);
}

/* An integer literal's magnitude, sign and whether it was hex. */
static int lit_int(const struct lit *l, uint64_t *u, bool *neg, bool *hex)
{
	const char *s = l->s, *e = l->s + l->n;
	uint64_t v = 0;

	*neg = *s == '-';
	s += *neg;
	*hex = e - s > 2 && s[1] == 'x';
	if (*hex) {
		if (e - s > 18)
			return -1;
		for (s += 2; s < e; s++)
			v = v << 4 | (uint64_t)(*s <= '9' ? *s - '0' :
						(*s | 0x20) - 'a' + 10);
	} else {
		for (; s < e; s++) {
			if (v > UINT64_MAX / 10 ||
			    v * 10 > UINT64_MAX - (uint64_t)(*s - '0'))
				return -1;
			v = v * 10 + (uint64_t)(*s - '0');
		}
	}
	*u = v;
	return 0;
}

static int conv_float(struct hlo_parser *p, const struct lit *l,
		      enum pw_hlo_dtype dt, uint8_t *out)
{
	size_t size = pw_hlo_dtype_size(dt);
	const char *tname = pw_hlo_dtype_name(dt);
	char buf[512];
	double d;

	if (l->kind == T_INT) {
		uint64_t u;
		bool neg, hex;

		if (lit_int(l, &u, &neg, &hex))
			return lit_error(p, l, "a number in range", tname);
		if (hex) {
			/* The element's bits, as MLIR prints NaN and inf. */
			if (neg || (size < 8 && u >> (8 * size)))
				return lit_error(p, l, "hex bits of its width",
						 tname);
			put_le(out, u, size);
			return 0;
		}
	} else if (l->kind == T_BARE) {
		if (!lit_word(l, "inf") && !lit_word(l, "nan"))
			return lit_error(p, l, "a float", tname);
	} else if (l->kind != T_FLOAT) {
		return lit_error(p, l, "a float", tname);
	}
	if (l->n >= sizeof(buf))
		return lit_error(p, l, "a literal shorter than 512 bytes",
				 tname);
	memcpy(buf, l->s, l->n);
	buf[l->n] = 0;
	d = strtod(buf, NULL);
	if (l->neg)
		d = -d;
	switch (dt) {
	case PW_HLO_DT_F16:
		put_le(out, hlo_f64_to_f16(d), 2);
		break;
	case PW_HLO_DT_BF16:
		put_le(out, hlo_f64_to_bf16(d), 2);
		break;
	case PW_HLO_DT_F32: {
		float f = (float)d;	/* C rounds to nearest even */
		uint32_t u;

		memcpy(&u, &f, sizeof(u));
		put_le(out, u, 4);
		break;
	}
	default: {
		uint64_t u;

		memcpy(&u, &d, sizeof(u));
		put_le(out, u, 8);
		break;
	}
	}
	return 0;
}

static int int_bits(enum pw_hlo_dtype dt, bool *is_unsigned)
{
	*is_unsigned = dt >= PW_HLO_DT_UI4 && dt <= PW_HLO_DT_UI64;
	switch (dt) {
	case PW_HLO_DT_I1: return 1;
	case PW_HLO_DT_I4: case PW_HLO_DT_UI4: return 4;
	case PW_HLO_DT_I8: case PW_HLO_DT_UI8: return 8;
	case PW_HLO_DT_I16: case PW_HLO_DT_UI16: return 16;
	case PW_HLO_DT_I32: case PW_HLO_DT_UI32: return 32;
	case PW_HLO_DT_I64: case PW_HLO_DT_UI64: return 64;
	default: return 0;
	}
}

static int conv_int(struct hlo_parser *p, const struct lit *l,
		    enum pw_hlo_dtype dt, uint8_t *out)
{
	const char *tname = pw_hlo_dtype_name(dt);
	size_t size = pw_hlo_dtype_size(dt);
	uint64_t u, max;
	bool neg, hex, uns;
	int w = int_bits(dt, &uns);

	if (dt == PW_HLO_DT_I1 && l->kind == T_BARE &&
	    (lit_word(l, "true") || lit_word(l, "false"))) {
		out[0] = lit_word(l, "true");
		return 0;
	}
	if (l->kind != T_INT || lit_int(l, &u, &neg, &hex))
		return lit_error(p, l, dt == PW_HLO_DT_I1 ? "true or false" :
				 "an integer", tname);
	max = w == 64 ? UINT64_MAX : (1ull << w) - 1;
	/*
	 * Signless integers take either reading of their bits (255 and -1
	 * are the same i8), unsigned ones only non-negative values.
	 */
	if (u > max || (neg && u && (uns || hex ||
				     u > (1ull << (w - 1)))))
		return lit_error(p, l, "an integer in range", tname);
	if (neg)
		u = (0 - u) & max;
	put_le(out, u, size);
	return 0;
}

static int conv_elem(struct hlo_parser *p, const struct elem *e,
		     enum pw_hlo_dtype dt, uint8_t *out)
{
	switch (dt) {
	case PW_HLO_DT_F16: case PW_HLO_DT_BF16: case PW_HLO_DT_F32:
	case PW_HLO_DT_F64:
		if (e->cplx)
			return lit_error(p, &e->re, "a real number",
					 pw_hlo_dtype_name(dt));
		return conv_float(p, &e->re, dt, out);
	case PW_HLO_DT_C64:
	case PW_HLO_DT_C128: {
		enum pw_hlo_dtype part = dt == PW_HLO_DT_C64 ?
					 PW_HLO_DT_F32 : PW_HLO_DT_F64;
		size_t half = pw_hlo_dtype_size(part);

		if (!e->cplx)
			return lit_error(p, &e->re, "(real, imaginary)",
					 pw_hlo_dtype_name(dt));
		if (conv_float(p, &e->re, part, out) ||
		    conv_float(p, &e->im, part, out + half))
			return p->err;
		return 0;
	}
	default:
		if (e->cplx)
			return lit_error(p, &e->re, "a number",
					 pw_hlo_dtype_name(dt));
		return conv_int(p, &e->re, dt, out);
	}
}

static int parse_lit(struct hlo_parser *p, struct lit *l)
{
	l->neg = false;
	l->line = p->tok.line;
	l->col = p->tok.col;
	if (p->tok.kind == T_MINUS) {
		hlo_next(p);
		if (!hlo_is_bare(p, "inf") && !hlo_is_bare(p, "nan"))
			return hlo_expected(p, "inf or nan after '-'");
		l->neg = true;
	}
	if (p->tok.kind != T_INT && p->tok.kind != T_FLOAT &&
	    p->tok.kind != T_BARE)
		return hlo_expected(p, "a number");
	l->kind = p->tok.kind;
	l->s = p->tok.s;
	l->n = p->tok.n;
	hlo_next(p);
	return 0;
}

static int parse_elem(struct hlo_parser *p, struct shape *sh)
{
	struct elem e = { 0 };

	if (hlo_accept(p, T_LPAREN)) {
		e.cplx = true;
		if (parse_lit(p, &e.re) ||
		    hlo_expect(p, T_COMMA, "between a complex's parts") ||
		    parse_lit(p, &e.im) ||
		    hlo_expect(p, T_RPAREN, "closing the complex number"))
			return p->err;
	} else if (parse_lit(p, &e.re)) {
		return p->err;
	}
	if (sh->elems.n >= PW_HLO_MAX_LIST * 16u)
		return hlo_error_at(p, e.re.line, e.re.col, -E2BIG,
				    "too many elements in dense<>");
	return hlo_push(p, &sh->elems, &e, sizeof(e));
}

/* [...] at @depth, its elements into @sh, its size checked. */
static int parse_list(struct hlo_parser *p, struct shape *sh, int depth)
{
	uint32_t line = p->tok.line, col = p->tok.col;
	int64_t k = 0;

	if (depth >= PW_HLO_MAX_RANK)
		return hlo_error_at(p, line, col, -E2BIG,
				    "dense<> nested deeper than %d",
				    PW_HLO_MAX_RANK);
	if (hlo_enter(p))
		return p->err;
	hlo_next(p);	/* [ */
	if (!hlo_is(p, T_RSQUARE)) {
		do {
			if (p->tok.kind == T_LSQUARE) {
				if (parse_list(p, sh, depth + 1))
					return p->err;
			} else {
				if (sh->rank >= 0 && sh->rank != depth + 1)
					return hlo_expected(p, "'[' (the "
						"elements' nesting differs)");
				sh->rank = depth + 1;
				if (parse_elem(p, sh))
					return p->err;
			}
			k++;
		} while (hlo_accept(p, T_COMMA));
	} else if (sh->rank >= 0 && sh->rank != depth + 1) {
		return hlo_expected(p, "elements (the nesting differs)");
	} else {
		sh->rank = depth + 1;
	}
	if (hlo_expect(p, T_RSQUARE, "closing the list of elements"))
		return p->err;
	if (sh->known[depth] && sh->dims[depth] != k)
		return hlo_error_at(p, line, col, -EINVAL,
				    "list of %lld elements where its "
				    "siblings have %lld", (long long)k,
				    (long long)sh->dims[depth]);
	sh->known[depth] = true;
	sh->dims[depth] = k;
	hlo_leave(p);
	return 0;
}

static int decode_hex(struct hlo_parser *p, const struct hlo_token *t,
		      struct pw_hlo_attr *a, size_t esize)
{
	size_t ndig = t->n - 4, nbytes = ndig / 2, i;
	uint64_t want;
	const char *s = t->s + 3;

	if (ndig % 2)
		return hlo_error_at(p, t->line, t->col, -EINVAL,
				    "hex data with an odd number of digits");
	want = a->count * esize;
	if (nbytes != want && !(nbytes == esize && a->count > 0))
		return hlo_error_at(p, t->line, t->col, -EINVAL,
				    "hex data of %zu bytes for %llu elements "
				    "of %zu bytes: expected %llu, or %zu for "
				    "a splat", nbytes,
				    (unsigned long long)a->count, esize,
				    (unsigned long long)want, esize);
	a->bytes = hlo_new(p, nbytes + 1);
	if (!a->bytes)
		return p->err;
	for (i = 0; i < nbytes; i++) {
		int hi = s[2 * i], lo = s[2 * i + 1];

		if (!strchr("0123456789abcdefABCDEF", hi) || !hi ||
		    !strchr("0123456789abcdefABCDEF", lo) || !lo)
			return hlo_error_at(p, t->line,
					    t->col + 3 + (uint32_t)(2 * i),
					    -EINVAL, "bad hex digit");
		hi = hi <= '9' ? hi - '0' : (hi | 0x20) - 'a' + 10;
		lo = lo <= '9' ? lo - '0' : (lo | 0x20) - 'a' + 10;
		a->bytes[i] = (uint8_t)(hi << 4 | lo);
	}
	a->nbytes = nbytes;
	a->splat = nbytes == esize && a->count != 1;
	return 0;
}

static bool is_hex_string(const struct hlo_token *t)
{
	return t->kind == T_STRING && t->n >= 4 && t->s[1] == '0' &&
	       t->s[2] == 'x';
}

/* @sh's elements as bytes of @a's element type (@esize each) into @a. */
static int elems_to_bytes(struct hlo_parser *p, const struct shape *sh,
			  size_t esize, struct pw_hlo_attr *a)
{
	uint32_t i;

	a->bytes = hlo_new(p, sh->elems.n * esize + 1);
	if (!a->bytes)
		return p->err;
	for (i = 0; i < sh->elems.n; i++)
		if (conv_elem(p, (const struct elem *)sh->elems.v + i,
			      a->type->dtype, a->bytes + i * esize))
			return p->err;
	a->nbytes = sh->elems.n * esize;
	return 0;
}

int hlo_parse_dense(struct hlo_parser *p, struct pw_hlo_attr *a)
{
	struct shape sh = { .rank = -1 };
	struct hlo_token hex = { 0 };
	const char *body;
	uint32_t line, col, i;
	int64_t count;
	size_t esize, tlen, k;
	bool splat = false;

	a->kind = PW_HLO_ATTR_DENSE;
	if (hlo_expect(p, T_LESS, "after dense"))
		return p->err;
	body = p->tok.s;
	if (is_hex_string(&p->tok)) {
		hex = p->tok;
		hlo_next(p);
	} else if (p->tok.kind == T_LSQUARE) {
		if (parse_list(p, &sh, 0))
			return p->err;
	} else if (!hlo_is(p, T_GREATER)) {
		sh.rank = 0;
		splat = true;
		if (parse_elem(p, &sh))
			return p->err;
	}
	if (p->tok.kind != T_GREATER)
		return hlo_expected(p, "'>' closing dense<");
	tlen = (size_t)(p->tok.s - body);
	a->text = hlo_strndup(p->arena, body, tlen);
	if (!a->text)
		return hlo_nomem(p);
	hlo_next(p);
	if (hlo_expect(p, T_COLON, "after dense<...> (its type)"))
		return p->err;
	line = p->tok.line;
	col = p->tok.col;
	if (hlo_parse_type(p, &a->type))
		return p->err;
	count = hlo_type_count(a->type);
	if (a->type->kind != PW_HLO_TYPE_TENSOR || count < 0)
		return hlo_error_at(p, line, col, -EINVAL,
				    "dense<> needs a tensor type of static "
				    "shape");
	a->count = (uint64_t)count;
	esize = pw_hlo_dtype_size(a->type->dtype);
	if (!esize) {
		/* Kept as text for a later stage to refuse: printable. */
		for (k = 0; k < tlen; k++)
			if ((body[k] < 0x20 && !strchr("\t\n\r", body[k])) ||
			    body[k] == 0x7f || !body[k])
				return hlo_error_at(p, line, col, -EINVAL,
						    "a dense<> literal of %s "
						    "with a control character",
						    a->type->name);
		return 0;
	}
	a->text = NULL;
	if (hex.kind == T_STRING)
		return decode_hex(p, &hex, a, esize);
	if (sh.rank < 0) {
		if (count)
			return hlo_error_at(p, line, col, -EINVAL,
					    "dense<> without elements for a "
					    "type of %lld", (long long)count);
		sh.rank = (int)a->type->rank;
	} else if (!splat) {
		bool ok = (uint32_t)sh.rank == a->type->rank;

		for (i = 0; ok && i < a->type->rank; i++)
			ok = sh.dims[i] == a->type->dims[i];
		if (!ok)
			return hlo_error_at(p, line, col, -EINVAL,
					    "the elements' shape is not the "
					    "type's");
	}
	if (elems_to_bytes(p, &sh, esize, a))
		return p->err;
	a->splat = splat && count != 1;
	if (splat && !count)
		a->nbytes = 0;
	return 0;
}

/* array<i64: 1, 2>: the '<' is the current token. */
int hlo_parse_dense_array(struct hlo_parser *p, struct pw_hlo_attr *a)
{
	struct shape sh = { .rank = 1 };
	size_t esize;

	a->kind = PW_HLO_ATTR_DENSE_ARRAY;
	if (hlo_expect(p, T_LESS, "after array"))
		return p->err;
	if (hlo_parse_type(p, &a->type))
		return p->err;
	esize = pw_hlo_dtype_size(a->type->dtype);
	if (a->type->kind != PW_HLO_TYPE_SCALAR || !esize ||
	    a->type->dtype == PW_HLO_DT_C64 || a->type->dtype == PW_HLO_DT_C128)
		return hlo_expected(p, "':' after an integer or float type "
				    "in array<>");
	if (hlo_accept(p, T_COLON)) {
		do {
			if (parse_elem(p, &sh))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
	}
	if (hlo_expect(p, T_GREATER, "closing array<"))
		return p->err;
	if (elems_to_bytes(p, &sh, esize, a))
		return p->err;
	a->count = sh.elems.n;
	return 0;
}
