/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hlo_impl.h - what the files of the StableHLO reader share: the arena,
 * the lexer's tokens and the parser's state. Not for other directories.
 */
#ifndef PW_HLO_IMPL_H
#define PW_HLO_IMPL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hlo.h"

/* Arena: everything of a module, freed at once. */
struct pw_hlo_arena;
struct pw_hlo_arena *hlo_arena_new(size_t cap);
void hlo_arena_free(struct pw_hlo_arena *a);
void *hlo_alloc(struct pw_hlo_arena *a, size_t size);	/* zeroed */
char *hlo_strndup(struct pw_hlo_arena *a, const char *s, size_t n);

enum hlo_tok {
	T_EOF,
	T_ERROR,	/* a character no token starts with, or a bad literal */
	T_BARE,		/* identifier: func.func, tensor, i32, GT, x */
	T_VALUE,	/* %name or %name#3 */
	T_SYMBOL,	/* @name or @"quoted" */
	T_CARET,	/* ^bb0 */
	T_HASH,		/* #stablehlo.gather */
	T_BANG,		/* !stablehlo.token */
	T_INT,		/* 12, -3, 0x7FC00000 */
	T_FLOAT,	/* 1.5, -2.0e+03 */
	T_STRING,	/* "..." */
	T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LSQUARE, T_RSQUARE,
	T_LESS, T_GREATER, T_COMMA, T_COLON, T_EQUAL, T_ARROW, T_QUESTION,
	T_STAR, T_PLUS, T_MINUS,
};

struct hlo_token {
	enum hlo_tok kind;
	const char *s;		/* its text in the input */
	size_t n;
	uint32_t line, col;
};

struct hlo_parser {
	const char *src, *end;
	const char *pos;	/* where the next token starts */
	uint32_t line;
	const char *line_start;
	struct hlo_token tok;	/* the current token */
	struct pw_hlo_arena *arena;
	int depth;
	int err;		/* first error, sticky */
	char *msg;
	size_t msglen;
};

/* Lexer (hlo_lex.c). */
void hlo_lex_init(struct hlo_parser *p, const char *text, size_t len);
void hlo_next(struct hlo_parser *p);
bool hlo_is(const struct hlo_parser *p, enum hlo_tok k);
bool hlo_is_bare(const struct hlo_parser *p, const char *word);
bool hlo_accept(struct hlo_parser *p, enum hlo_tok k);
bool hlo_accept_bare(struct hlo_parser *p, const char *word);
const char *hlo_tok_name(enum hlo_tok k);
/* Skip blanks and comments; the position of what follows. */
void hlo_skip_space(struct hlo_parser *p);
/* Re-lex from @s (inside the current token's line or later). */
void hlo_seek(struct hlo_parser *p, const char *s);

/* Errors (hlo_parse.c): the first one is kept; they return p->err. */
int hlo_error_at(struct hlo_parser *p, uint32_t line, uint32_t col,
		 int err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* "L:C: expected ..., found 'tok'" at the current token. */
int hlo_expected(struct hlo_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int hlo_expect(struct hlo_parser *p, enum hlo_tok k, const char *where);
int hlo_expect_bare(struct hlo_parser *p, const char *word, const char *where);
int hlo_nomem(struct hlo_parser *p);
int hlo_enter(struct hlo_parser *p);	/* one level deeper, or -E2BIG */
void hlo_leave(struct hlo_parser *p);
void *hlo_new(struct hlo_parser *p, size_t size);
char *hlo_tokdup(struct hlo_parser *p, size_t skip);

/* Growing lists in the arena: the old copies are left to it. */
struct hlo_vec {
	void *v;
	uint32_t n, cap;
};
int hlo_push(struct hlo_parser *p, struct hlo_vec *v, const void *item,
	     size_t size);

/* Types (hlo_type.c). */
bool hlo_at_type(const struct hlo_parser *p);
int hlo_parse_type(struct hlo_parser *p, struct pw_hlo_type **out);
/* `T` or `(T, ...)`: the results of a function type. */
int hlo_parse_result_types(struct hlo_parser *p, struct hlo_vec *v);
int hlo_parse_type_list(struct hlo_parser *p, struct hlo_vec *v);
struct pw_hlo_type *hlo_scalar_type(struct hlo_parser *p,
				    enum pw_hlo_dtype dt);
struct pw_hlo_type *hlo_tensor_of(struct hlo_parser *p,
				  enum pw_hlo_dtype dt, uint32_t rank,
				  const int64_t *dims);
bool hlo_type_equal(const struct pw_hlo_type *a, const struct pw_hlo_type *b);
/* Elements of a static tensor type, -1 when dynamic or too many. */
int64_t hlo_type_count(const struct pw_hlo_type *t);
enum pw_hlo_dtype hlo_dtype_of_name(const char *s, size_t n);

/* Attributes (hlo_attr.c). */
int hlo_parse_attr(struct hlo_parser *p, struct pw_hlo_attr **out);
/* `{name = value, ...}` into @v (of struct pw_hlo_named_attr). */
int hlo_parse_attr_dict(struct hlo_parser *p, struct hlo_vec *v);
int hlo_add_attr(struct hlo_parser *p, struct hlo_vec *v, const char *name,
		 struct pw_hlo_attr *value, uint32_t line, uint32_t col);
struct pw_hlo_attr *hlo_attr_new(struct hlo_parser *p,
				 enum pw_hlo_attr_kind kind);
struct pw_hlo_attr *hlo_attr_int(struct hlo_parser *p, int64_t v,
				 struct pw_hlo_type *type);
struct pw_hlo_attr *hlo_attr_i64_array(struct hlo_parser *p,
				       const int64_t *v, uint32_t n);
struct pw_hlo_attr *hlo_attr_enum(struct hlo_parser *p, const char *class,
				  const char *value);
int hlo_parse_int(struct hlo_parser *p, int64_t *v, const char *what);
/* `[1, 2]` of integers into @v (of int64_t). */
int hlo_parse_int_list(struct hlo_parser *p, struct hlo_vec *v,
		       const char *what);
int hlo_parse_conv_dims(struct hlo_parser *p, struct hlo_vec *fields);
/* <key = value, ...> of a struct attribute printed without its name. */
int hlo_parse_struct_named(struct hlo_parser *p, const char *prefix,
			   struct pw_hlo_attr **out);

/* Dense literals (hlo_dense.c). */
int hlo_parse_dense(struct hlo_parser *p, struct pw_hlo_attr *a);
int hlo_parse_dense_array(struct hlo_parser *p, struct pw_hlo_attr *a);
uint16_t hlo_f64_to_f16(double d);
uint16_t hlo_f64_to_bf16(double d);

/* Ops (hlo_parse.c, hlo_pretty.c). */
struct hlo_opbuild {
	struct pw_hlo_op *op;
	uint32_t name_line, name_col;	/* of the op's name */
	struct hlo_vec operands;	/* struct pw_hlo_value */
	struct hlo_vec otypes;		/* struct pw_hlo_type * */
	struct hlo_vec rtypes;		/* struct pw_hlo_type * */
	struct hlo_vec attrs;		/* struct pw_hlo_named_attr */
	struct hlo_vec regions;		/* struct pw_hlo_region */
};
int hlo_parse_value(struct hlo_parser *p, struct pw_hlo_value *v);
int hlo_parse_region(struct hlo_parser *p, struct pw_hlo_region *r,
		     const struct pw_hlo_block_arg *args, uint32_t nargs);
int hlo_parse_pretty(struct hlo_parser *p, struct hlo_opbuild *b);
/* hlo_pretty_region.c: the pretty forms with regions or structures. */
int hlo_pretty_while(struct hlo_parser *p, struct hlo_opbuild *b);
int hlo_pretty_reduce(struct hlo_parser *p, struct hlo_opbuild *b);
int hlo_pretty_convolution(struct hlo_parser *p, struct hlo_opbuild *b);
int hlo_pretty_dot_general(struct hlo_parser *p, struct hlo_opbuild *b);
int hlo_pretty_dot(struct hlo_parser *p, struct hlo_opbuild *b);
/* Shared by both: operands, types after ':' and one attribute. */
int hlo_pretty_operands(struct hlo_parser *p, struct hlo_opbuild *b);
int hlo_pretty_func_type(struct hlo_parser *p, struct hlo_opbuild *b);
int hlo_pretty_attr(struct hlo_parser *p, struct hlo_opbuild *b,
		    const char *name, struct pw_hlo_attr *a);
int hlo_pretty_precision(struct hlo_parser *p, struct hlo_opbuild *b);
int hlo_parse_opt_attr_dict(struct hlo_parser *p, struct hlo_opbuild *b);

#endif /* PW_HLO_IMPL_H */
