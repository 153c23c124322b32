// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lex.c - tokens of MLIR's text form, each with its line and column.
 * The lexer works on demand from a position, never past the end of the
 * buffer (which need not end in a NUL): the parser can look at the raw
 * characters where MLIR's own grammar is character-level (the 2x3xf32 of
 * a tensor type) and lex again from there.
 */
#include <string.h>

#include "hlo_impl.h"

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* bare-id: [a-zA-Z_][a-zA-Z0-9_$.]* */
static bool is_bare_char(int c)
{
	return is_alpha(c) || is_digit(c) || c == '$' || c == '.';
}

/* suffix-id of %value and ^block: digits, or letters and $._- */
static bool is_suffix_char(int c)
{
	return is_alpha(c) || is_digit(c) || c == '$' || c == '.' || c == '-';
}

void hlo_skip_space(struct hlo_parser *p)
{
	const char *s = p->pos;

	while (s < p->end) {
		if (*s == '\n') {
			p->line++;
			p->line_start = s + 1;
			s++;
		} else if (*s == ' ' || *s == '\t' || *s == '\r') {
			s++;
		} else if (*s == '/' && s + 1 < p->end && s[1] == '/') {
			while (s < p->end && *s != '\n')
				s++;
		} else {
			break;
		}
	}
	p->pos = s;
}

static const char *lex_number(const char *s, const char *end,
			      enum hlo_tok *kind)
{
	if (s < end && *s == '-')
		s++;
	if (s + 1 < end && s[0] == '0' && s[1] == 'x' && s + 2 < end &&
	    is_hex(s[2])) {
		s += 2;
		while (s < end && is_hex(*s))
			s++;
		*kind = T_INT;
		return s;
	}
	while (s < end && is_digit(*s))
		s++;
	*kind = T_INT;
	if (s < end && *s == '.') {
		*kind = T_FLOAT;
		s++;
		while (s < end && is_digit(*s))
			s++;
		if (s < end && (*s == 'e' || *s == 'E')) {
			const char *e = s + 1;

			if (e < end && (*e == '+' || *e == '-'))
				e++;
			if (e < end && is_digit(*e)) {
				while (e < end && is_digit(*e))
					e++;
				s = e;
			}
		}
	}
	return s;
}

static const char *lex_string(const char *s, const char *end)
{
	for (s++; s < end; s++) {
		if (*s == '"')
			return s + 1;
		if (*s == '\n')
			return NULL;
		if (*s == '\\') {
			if (++s >= end)
				return NULL;
		}
	}
	return NULL;
}

void hlo_next(struct hlo_parser *p)
{
	struct hlo_token *t = &p->tok;
	const char *s, *e, *end = p->end;
	int c;

	hlo_skip_space(p);
	s = p->pos;
	t->s = s;
	t->line = p->line;
	t->col = (uint32_t)(s - p->line_start) + 1;
	if (s >= end) {
		t->kind = T_EOF;
		t->n = 0;
		return;
	}
	c = *s;
	e = s + 1;
	switch (c) {
	case '(': t->kind = T_LPAREN; break;
	case ')': t->kind = T_RPAREN; break;
	case '{': t->kind = T_LBRACE; break;
	case '}': t->kind = T_RBRACE; break;
	case '[': t->kind = T_LSQUARE; break;
	case ']': t->kind = T_RSQUARE; break;
	case '<': t->kind = T_LESS; break;
	case '>': t->kind = T_GREATER; break;
	case ',': t->kind = T_COMMA; break;
	case ':': t->kind = T_COLON; break;
	case '=': t->kind = T_EQUAL; break;
	case '?': t->kind = T_QUESTION; break;
	case '*': t->kind = T_STAR; break;
	case '+': t->kind = T_PLUS; break;
	case '-':
		if (e < end && *e == '>') {
			t->kind = T_ARROW;
			e++;
		} else if (e < end && is_digit(*e)) {
			e = lex_number(s, end, &t->kind);
		} else {
			t->kind = T_MINUS;
		}
		break;
	case '"':
		e = lex_string(s, end);
		t->kind = e ? T_STRING : T_ERROR;
		if (!e)
			e = s + 1;
		break;
	case '%':
	case '^':
		while (e < end && is_suffix_char(*e))
			e++;
		t->kind = c == '%' ? T_VALUE : T_CARET;
		if (e == s + 1) {
			t->kind = T_ERROR;
			break;
		}
		/* %0#1: the result number belongs to the value. */
		if (c == '%' && e + 1 < end && *e == '#' && is_digit(e[1])) {
			e++;
			while (e < end && is_digit(*e))
				e++;
		}
		break;
	case '@':
		if (e < end && *e == '"') {
			const char *q = lex_string(e, end);

			t->kind = q ? T_SYMBOL : T_ERROR;
			e = q ? q : e;
			break;
		}
		/* fall through */
	case '#':
	case '!':
		if (e >= end || !is_alpha(*e)) {
			t->kind = T_ERROR;
			break;
		}
		while (e < end && is_bare_char(*e))
			e++;
		t->kind = c == '@' ? T_SYMBOL : c == '#' ? T_HASH : T_BANG;
		break;
	default:
		if (is_digit(c)) {
			e = lex_number(s, end, &t->kind);
		} else if (is_alpha(c)) {
			while (e < end && is_bare_char(*e))
				e++;
			t->kind = T_BARE;
		} else {
			t->kind = T_ERROR;
		}
		break;
	}
	t->n = (size_t)(e - s);
	p->pos = e;
}

void hlo_seek(struct hlo_parser *p, const char *s)
{
	const char *q;

	/* Only forward within what was lexed, so lines stay counted. */
	for (q = p->tok.s; q < s; q++) {
		if (*q == '\n') {
			p->line++;
			p->line_start = q + 1;
		}
	}
	p->pos = s;
	hlo_next(p);
}

void hlo_lex_init(struct hlo_parser *p, const char *text, size_t len)
{
	p->src = text;
	p->end = text + len;
	p->pos = text;
	p->line = 1;
	p->line_start = text;
	hlo_next(p);
}

bool hlo_is(const struct hlo_parser *p, enum hlo_tok k)
{
	return p->tok.kind == k;
}

bool hlo_is_bare(const struct hlo_parser *p, const char *word)
{
	size_t n = strlen(word);

	return p->tok.kind == T_BARE && p->tok.n == n &&
	       !memcmp(p->tok.s, word, n);
}

bool hlo_accept(struct hlo_parser *p, enum hlo_tok k)
{
	if (p->tok.kind != k)
		return false;
	hlo_next(p);
	return true;
}

bool hlo_accept_bare(struct hlo_parser *p, const char *word)
{
	if (!hlo_is_bare(p, word))
		return false;
	hlo_next(p);
	return true;
}

const char *hlo_tok_name(enum hlo_tok k)
{
	static const char *const names[] = {
		[T_EOF] = "end of input", [T_ERROR] = "bad token",
		[T_BARE] = "identifier", [T_VALUE] = "value",
		[T_SYMBOL] = "symbol", [T_CARET] = "block label",
		[T_HASH] = "attribute", [T_BANG] = "dialect type",
		[T_INT] = "integer", [T_FLOAT] = "float",
		[T_STRING] = "string", [T_LPAREN] = "'('",
		[T_RPAREN] = "')'", [T_LBRACE] = "'{'", [T_RBRACE] = "'}'",
		[T_LSQUARE] = "'['", [T_RSQUARE] = "']'", [T_LESS] = "'<'",
		[T_GREATER] = "'>'", [T_COMMA] = "','", [T_COLON] = "':'",
		[T_EQUAL] = "'='", [T_ARROW] = "'->'", [T_QUESTION] = "'?'",
		[T_STAR] = "'*'", [T_PLUS] = "'+'", [T_MINUS] = "'-'",
	};

	return names[k];
}
