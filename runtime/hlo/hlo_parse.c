// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_parse.c - a module of func.func, regions, blocks and ops in MLIR's
 * generic form: "stablehlo.scatter"(%a, %b) <{props}> ({ region })
 * {attrs} : (types) -> types. Ops written in a pretty syntax go to
 * hlo_pretty.c and come back in the same shape. The entry points, the
 * errors ("LINE:COL: expected ..., found '...'") and the limits that keep
 * the parser safe on hostile input are here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hlo_impl.h"

int hlo_error_at(struct hlo_parser *p, uint32_t line, uint32_t col,
		 int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->err)
		return p->err;
	p->err = err;
	if (!p->msglen)
		return err;
	n = snprintf(p->msg, p->msglen, "%u:%u: ", line, col);
	if (n < 0 || (size_t)n >= p->msglen)
		return err;
	va_start(ap, fmt);
	vsnprintf(p->msg + n, p->msglen - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

int hlo_expected(struct hlo_parser *p, const char *fmt, ...)
{
	const struct hlo_token *t = &p->tok;
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (t->kind == T_EOF)
		return hlo_error_at(p, t->line, t->col, -EINVAL,
				    "expected %s, found end of input", what);
	if (t->kind == T_ERROR && t->n <= 1)
		return hlo_error_at(p, t->line, t->col, -EINVAL,
				    "expected %s, found '%.1s'%s", what,
				    t->s, *t->s == '"' ?
				    " (an unterminated string)" : "");
	return hlo_error_at(p, t->line, t->col, -EINVAL,
			    "expected %s, found '%.*s'%s", what,
			    (int)(t->n > 40 ? 40 : t->n), t->s,
			    t->n > 40 ? "..." : "");
}

int hlo_expect(struct hlo_parser *p, enum hlo_tok k, const char *where)
{
	if (hlo_accept(p, k))
		return 0;
	return hlo_expected(p, "%s %s", hlo_tok_name(k), where);
}

int hlo_expect_bare(struct hlo_parser *p, const char *word, const char *where)
{
	if (hlo_accept_bare(p, word))
		return 0;
	return hlo_expected(p, "'%s' %s", word, where);
}

int hlo_nomem(struct hlo_parser *p)
{
	return hlo_error_at(p, p->tok.line, p->tok.col, -ENOMEM,
			    "out of memory");
}

int hlo_enter(struct hlo_parser *p)
{
	if (++p->depth > PW_HLO_MAX_DEPTH)
		return hlo_error_at(p, p->tok.line, p->tok.col, -E2BIG,
				    "nested deeper than %d", PW_HLO_MAX_DEPTH);
	return 0;
}

void hlo_leave(struct hlo_parser *p)
{
	p->depth--;
}

void *hlo_new(struct hlo_parser *p, size_t size)
{
	void *v = hlo_alloc(p->arena, size);

	if (!v)
		hlo_nomem(p);
	return v;
}

char *hlo_tokdup(struct hlo_parser *p, size_t skip)
{
	char *s = hlo_strndup(p->arena, p->tok.s + skip, p->tok.n - skip);

	if (!s)
		hlo_nomem(p);
	return s;
}

int hlo_push(struct hlo_parser *p, struct hlo_vec *v, const void *item,
	     size_t size)
{
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? v->cap * 2 : 4;
		void *n;

		if (v->n >= PW_HLO_MAX_LIST * 16u)
			return hlo_error_at(p, p->tok.line, p->tok.col, -E2BIG,
					    "list longer than %u",
					    PW_HLO_MAX_LIST * 16u);
		n = hlo_new(p, (size_t)cap * size);
		if (!n)
			return p->err;
		if (v->n)
			memcpy(n, v->v, (size_t)v->n * size);
		v->v = n;
		v->cap = cap;
	}
	memcpy((char *)v->v + (size_t)v->n * size, item, size);
	v->n++;
	return 0;
}

/* loc(...) after an op or an argument: where it came from, dropped. */
static int skip_loc(struct hlo_parser *p)
{
	int level = 0;

	if (!hlo_is_bare(p, "loc"))
		return 0;
	hlo_next(p);
	if (!hlo_is(p, T_LPAREN))
		return hlo_expected(p, "'(' after loc");
	do {
		if (p->tok.kind == T_EOF || p->tok.kind == T_ERROR)
			return hlo_expected(p, "')' closing loc(");
		level += p->tok.kind == T_LPAREN;
		level -= p->tok.kind == T_RPAREN;
		hlo_next(p);
	} while (level);
	return 0;
}

int hlo_parse_value(struct hlo_parser *p, struct pw_hlo_value *v)
{
	const char *s = p->tok.s + 1, *hash;
	size_t n = p->tok.n - 1;

	if (p->tok.kind != T_VALUE)
		return hlo_expected(p, "a value");
	hash = memchr(s, '#', n);
	v->index = 0;
	if (hash) {
		const char *d;
		uint64_t i = 0;

		for (d = hash + 1; d < s + n; d++) {
			i = i * 10 + (uint64_t)(*d - '0');
			if (i > PW_HLO_MAX_LIST)
				return hlo_expected(p, "a result number below "
						    "%u", PW_HLO_MAX_LIST);
		}
		v->index = (uint32_t)i;
		n = (size_t)(hash - s);
	}
	v->name = hlo_strndup(p->arena, s, n);
	if (!v->name)
		return hlo_nomem(p);
	hlo_next(p);
	return 0;
}

/* %name : type, of a block or a function. */
static int parse_arg(struct hlo_parser *p, struct pw_hlo_block_arg *a,
		     bool with_attrs)
{
	if (p->tok.kind != T_VALUE || memchr(p->tok.s, '#', p->tok.n))
		return hlo_expected(p, "an argument (%%name)");
	a->name = hlo_tokdup(p, 1);
	hlo_next(p);
	if (hlo_expect(p, T_COLON, "after the argument's name") ||
	    hlo_parse_type(p, &a->type))
		return p->err;
	if (with_attrs && hlo_is(p, T_LBRACE)) {
		struct hlo_vec v = { 0 };

		if (hlo_parse_attr_dict(p, &v))
			return p->err;
		a->nattrs = v.n;
		a->attrs = v.v;
	}
	return skip_loc(p);
}

static int parse_op(struct hlo_parser *p, struct pw_hlo_op **out);

static int parse_block_body(struct hlo_parser *p, struct pw_hlo_block *b)
{
	struct hlo_vec ops = { 0 };
	struct pw_hlo_op *op;

	while (!hlo_is(p, T_RBRACE) && !hlo_is(p, T_CARET)) {
		if (parse_op(p, &op) || hlo_push(p, &ops, &op, sizeof(op)))
			return p->err;
	}
	b->nops = ops.n;
	b->ops = ops.v;
	return 0;
}

/* ^label(%a: T, ...): */
static int parse_block_label(struct hlo_parser *p, struct pw_hlo_block *b)
{
	struct hlo_vec args = { 0 };
	struct pw_hlo_block_arg a;

	b->label = hlo_tokdup(p, 1);
	hlo_next(p);
	if (hlo_accept(p, T_LPAREN)) {
		do {
			memset(&a, 0, sizeof(a));
			if (parse_arg(p, &a, false) ||
			    hlo_push(p, &args, &a, sizeof(a)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
		if (hlo_expect(p, T_RPAREN, "closing the block's arguments"))
			return p->err;
	}
	b->nargs = args.n;
	b->args = args.v;
	return hlo_expect(p, T_COLON, "after the block's label");
}

int hlo_parse_region(struct hlo_parser *p, struct pw_hlo_region *r,
		     const struct pw_hlo_block_arg *args, uint32_t nargs)
{
	struct hlo_vec blocks = { 0 };
	struct pw_hlo_block b;

	if (hlo_enter(p) || hlo_expect(p, T_LBRACE, "opening a region"))
		return p->err;
	if (nargs || !hlo_is(p, T_RBRACE)) {
		memset(&b, 0, sizeof(b));
		if (hlo_is(p, T_CARET)) {
			if (nargs)
				return hlo_expected(p, "the region's first op "
						    "(its arguments are "
						    "given before it)");
			if (parse_block_label(p, &b))
				return p->err;
		} else {
			b.nargs = nargs;
			b.args = (struct pw_hlo_block_arg *)args;
			if (nargs)
				b.label = "bb0";
		}
		if (parse_block_body(p, &b) ||
		    hlo_push(p, &blocks, &b, sizeof(b)))
			return p->err;
	}
	while (hlo_is(p, T_CARET)) {
		memset(&b, 0, sizeof(b));
		if (parse_block_label(p, &b) || parse_block_body(p, &b) ||
		    hlo_push(p, &blocks, &b, sizeof(b)))
			return p->err;
	}
	if (hlo_expect(p, T_RBRACE, "closing the region"))
		return p->err;
	r->nblocks = blocks.n;
	r->blocks = blocks.v;
	hlo_leave(p);
	return 0;
}

int hlo_parse_opt_attr_dict(struct hlo_parser *p, struct hlo_opbuild *b)
{
	if (!hlo_is(p, T_LBRACE))
		return 0;
	return hlo_parse_attr_dict(p, &b->attrs);
}

/* "name"(%a, %b) <{props}> ({regions}) {attrs} : (types) -> types */
static int parse_generic(struct hlo_parser *p, struct hlo_opbuild *b)
{
	struct pw_hlo_value v;
	struct pw_hlo_type *ft;
	struct pw_hlo_region r;
	uint32_t line, col;

	if (hlo_expect(p, T_LPAREN, "after the op's name"))
		return p->err;
	if (!hlo_accept(p, T_RPAREN)) {
		do {
			if (hlo_parse_value(p, &v) ||
			    hlo_push(p, &b->operands, &v, sizeof(v)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
		if (hlo_expect(p, T_RPAREN, "closing the operands"))
			return p->err;
	}
	if (hlo_is(p, T_LSQUARE))
		return hlo_expected(p, "no successors (branches are not "
				    "supported)");
	if (hlo_accept(p, T_LESS)) {
		if (hlo_parse_attr_dict(p, &b->attrs) ||
		    hlo_expect(p, T_GREATER, "closing the properties"))
			return p->err;
	}
	if (hlo_accept(p, T_LPAREN)) {
		do {
			memset(&r, 0, sizeof(r));
			if (hlo_parse_region(p, &r, NULL, 0) ||
			    hlo_push(p, &b->regions, &r, sizeof(r)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
		if (hlo_expect(p, T_RPAREN, "closing the regions"))
			return p->err;
	}
	if (hlo_parse_opt_attr_dict(p, b) ||
	    hlo_expect(p, T_COLON, "before the op's type"))
		return p->err;
	line = p->tok.line;
	col = p->tok.col;
	if (hlo_parse_type(p, &ft))
		return p->err;
	if (ft->kind != PW_HLO_TYPE_FUNC)
		return hlo_error_at(p, line, col, -EINVAL,
				    "expected a function type for %s",
				    b->op->name);
	b->otypes.v = ft->elems;
	b->otypes.n = ft->nelems;
	b->rtypes.v = ft->results;
	b->rtypes.n = ft->nresults;
	return 0;
}

static int parse_results(struct hlo_parser *p, struct hlo_vec *groups,
			 uint32_t *total)
{
	struct pw_hlo_result r;

	do {
		int64_t n = 1;

		if (p->tok.kind != T_VALUE || memchr(p->tok.s, '#', p->tok.n))
			return hlo_expected(p, "a result name");
		r.name = hlo_tokdup(p, 1);
		hlo_next(p);
		if (hlo_accept(p, T_COLON) &&
		    hlo_parse_int(p, &n, "(the number of results)"))
			return p->err;
		if (n < 1 || n > PW_HLO_MAX_LIST)
			return hlo_error_at(p, p->tok.line, p->tok.col,
					    -EINVAL, "bad number of results");
		r.count = (uint32_t)n;
		*total += r.count;
		if (*total > PW_HLO_MAX_LIST)
			return hlo_error_at(p, p->tok.line, p->tok.col, -E2BIG,
					    "more than %u results",
					    PW_HLO_MAX_LIST);
		if (hlo_push(p, groups, &r, sizeof(r)))
			return p->err;
	} while (hlo_accept(p, T_COMMA));
	return hlo_expect(p, T_EQUAL, "after the results");
}

static int parse_op(struct hlo_parser *p, struct pw_hlo_op **out)
{
	struct hlo_vec groups = { 0 };
	struct hlo_opbuild b = { 0 };
	struct pw_hlo_op *op;
	uint32_t nres = 0;

	op = hlo_new(p, sizeof(*op));
	if (!op)
		return p->err;
	b.op = op;
	op->line = p->tok.line;
	op->col = p->tok.col;
	if (hlo_is(p, T_VALUE) && parse_results(p, &groups, &nres))
		return p->err;
	op->ngroups = groups.n;
	op->groups = groups.v;
	op->nresults = nres;
	if (p->tok.kind == T_STRING) {
		struct pw_hlo_attr *name;

		if (hlo_parse_attr(p, &name))
			return p->err;
		if (!name->len || strlen(name->text) != name->len)
			return hlo_error_at(p, op->line, op->col, -EINVAL,
					    "an op's name cannot be empty");
		op->name = name->text;
		if (parse_generic(p, &b))
			return p->err;
	} else if (p->tok.kind == T_BARE) {
		if (hlo_is_bare(p, "return") || hlo_is_bare(p, "call")) {
			char *n = hlo_new(p, p->tok.n + 6);

			if (!n)
				return p->err;
			memcpy(n, "func.", 5);
			memcpy(n + 5, p->tok.s, p->tok.n);
			op->name = n;
		} else {
			op->name = hlo_tokdup(p, 0);
		}
		b.name_line = p->tok.line;
		b.name_col = p->tok.col;
		hlo_next(p);
		if (!op->name || hlo_parse_pretty(p, &b))
			return p->err;
	} else {
		return hlo_expected(p, "an op");
	}
	if (b.otypes.n != b.operands.n)
		return hlo_error_at(p, op->line, op->col, -EINVAL,
				    "%s has %u operands and %u operand types",
				    op->name, b.operands.n, b.otypes.n);
	if (b.rtypes.n != nres)
		return hlo_error_at(p, op->line, op->col, -EINVAL,
				    "%s has %u results and %u result types",
				    op->name, nres, b.rtypes.n);
	op->noperands = b.operands.n;
	op->operands = b.operands.v;
	op->operand_types = b.otypes.v;
	op->result_types = b.rtypes.v;
	op->nattrs = b.attrs.n;
	op->attrs = b.attrs.v;
	op->nregions = b.regions.n;
	op->regions = b.regions.v;
	*out = op;
	return skip_loc(p);
}

/* -> T or -> (T {attrs}, ...) */
static int parse_func_results(struct hlo_parser *p, struct pw_hlo_func *f)
{
	struct hlo_vec types = { 0 }, attrs = { 0 }, nattrs = { 0 };
	bool paren;

	if (!hlo_accept(p, T_ARROW))
		return 0;
	paren = hlo_accept(p, T_LPAREN);
	if (!paren || !hlo_is(p, T_RPAREN)) {
		do {
			struct hlo_vec v = { 0 };
			struct pw_hlo_type *t;
			struct pw_hlo_named_attr *na;

			if (hlo_parse_type(p, &t) ||
			    hlo_push(p, &types, &t, sizeof(t)))
				return p->err;
			if (paren && hlo_is(p, T_LBRACE) &&
			    hlo_parse_attr_dict(p, &v))
				return p->err;
			na = v.v;
			if (hlo_push(p, &attrs, &na, sizeof(na)) ||
			    hlo_push(p, &nattrs, &v.n, sizeof(v.n)))
				return p->err;
		} while (paren && hlo_accept(p, T_COMMA));
	}
	if (paren && hlo_expect(p, T_RPAREN, "closing the function's results"))
		return p->err;
	f->nresults = types.n;
	f->result_types = types.v;
	f->result_attrs = attrs.v;
	f->nresult_attrs = nattrs.v;
	return 0;
}

static int parse_func(struct hlo_parser *p, struct pw_hlo_func **out)
{
	struct hlo_vec args = { 0 };
	struct pw_hlo_block_arg a;
	struct pw_hlo_func *f;
	struct pw_hlo_attr *sym;

	f = hlo_new(p, sizeof(*f));
	if (!f)
		return p->err;
	f->line = p->tok.line;
	f->col = p->tok.col;
	hlo_next(p);	/* func.func */
	if (hlo_is_bare(p, "public") || hlo_is_bare(p, "private") ||
	    hlo_is_bare(p, "nested")) {
		f->visibility = hlo_tokdup(p, 0);
		hlo_next(p);
	}
	if (p->tok.kind != T_SYMBOL)
		return hlo_expected(p, "the function's name (@name)");
	if (hlo_parse_attr(p, &sym))
		return p->err;
	f->name = sym->text;
	if (hlo_expect(p, T_LPAREN, "before the function's arguments"))
		return p->err;
	if (!hlo_accept(p, T_RPAREN)) {
		do {
			memset(&a, 0, sizeof(a));
			if (parse_arg(p, &a, true) ||
			    hlo_push(p, &args, &a, sizeof(a)))
				return p->err;
		} while (hlo_accept(p, T_COMMA));
		if (hlo_expect(p, T_RPAREN, "closing the function's arguments"))
			return p->err;
	}
	f->nargs = args.n;
	f->args = args.v;
	if (parse_func_results(p, f))
		return p->err;
	if (hlo_accept_bare(p, "attributes")) {
		struct hlo_vec v = { 0 };

		if (hlo_parse_attr_dict(p, &v))
			return p->err;
		f->nattrs = v.n;
		f->attrs = v.v;
	}
	if (hlo_is(p, T_LBRACE)) {
		if (hlo_parse_region(p, &f->body, f->args, f->nargs))
			return p->err;
		if (!f->body.nblocks)
			return hlo_error_at(p, f->line, f->col, -EINVAL,
					    "@%s has an empty body", f->name);
	}
	*out = f;
	return skip_loc(p);
}

static int parse_funcs(struct hlo_parser *p, struct pw_hlo_module *m,
		       enum hlo_tok end)
{
	struct hlo_vec funcs = { 0 };
	struct pw_hlo_func *f;
	uint32_t i;

	while (!hlo_is(p, end)) {
		if (!hlo_is_bare(p, "func.func"))
			return hlo_expected(p, "func.func%s", end == T_EOF ?
					    "" : " or '}' closing the module");
		if (parse_func(p, &f))
			return p->err;
		for (i = 0; i < funcs.n; i++)
			if (!strcmp(((struct pw_hlo_func **)funcs.v)[i]->name,
				    f->name))
				return hlo_error_at(p, f->line, f->col,
						    -EINVAL, "function @%s "
						    "defined twice", f->name);
		if (hlo_push(p, &funcs, &f, sizeof(f)))
			return p->err;
	}
	m->nfuncs = funcs.n;
	m->funcs = funcs.v;
	return 0;
}

static int parse_module(struct hlo_parser *p, struct pw_hlo_module *m)
{
	if (!hlo_accept_bare(p, "module"))
		return parse_funcs(p, m, T_EOF);
	if (p->tok.kind == T_SYMBOL) {
		struct pw_hlo_attr *sym;

		if (hlo_parse_attr(p, &sym))
			return p->err;
		m->name = sym->text;
	}
	if (hlo_accept_bare(p, "attributes")) {
		struct hlo_vec v = { 0 };

		if (hlo_parse_attr_dict(p, &v))
			return p->err;
		m->nattrs = v.n;
		m->attrs = v.v;
	}
	if (hlo_expect(p, T_LBRACE, "opening the module") ||
	    parse_funcs(p, m, T_RBRACE) ||
	    hlo_expect(p, T_RBRACE, "closing the module") || skip_loc(p))
		return p->err;
	if (!hlo_is(p, T_EOF))
		return hlo_expected(p, "end of input after the module");
	return 0;
}

int pw_hlo_parse(const char *text, size_t len, struct pw_hlo_module **out,
		 char *err, size_t errlen)
{
	struct hlo_parser p = { .msg = err, .msglen = errlen };
	struct pw_hlo_module *m;
	size_t cap;

	*out = NULL;
	if (errlen)
		err[0] = 0;
	if (len > PW_HLO_MAX_INPUT)
		return hlo_error_at(&p, 1, 1, -E2BIG, "input of %zu bytes is "
				    "above the limit of %u", len,
				    PW_HLO_MAX_INPUT);
	/* Room for what any text of this length can become. */
	cap = 64 * len + (16u << 20);
	p.arena = hlo_arena_new(cap);
	if (!p.arena)
		return hlo_error_at(&p, 1, 1, -ENOMEM, "out of memory");
	m = hlo_alloc(p.arena, sizeof(*m));
	if (!m) {
		hlo_arena_free(p.arena);
		return hlo_error_at(&p, 1, 1, -ENOMEM, "out of memory");
	}
	m->arena = p.arena;
	hlo_lex_init(&p, text, len);
	if (parse_module(&p, m)) {
		hlo_arena_free(p.arena);
		return p.err;
	}
	*out = m;
	return 0;
}

int pw_hlo_parse_file(const char *path, struct pw_hlo_module **out,
		      char *err, size_t errlen)
{
	char *buf = NULL, *msg = NULL;
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if ((uint64_t)st.st_size > PW_HLO_MAX_INPUT) {
		close(fd);
		snprintf(err, errlen, "%s: %lld bytes is above the limit of %u",
			 path, (long long)st.st_size, PW_HLO_MAX_INPUT);
		return -E2BIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	msg = malloc(errlen + 1);
	if (!buf || !msg) {
		close(fd);
		free(buf);
		free(msg);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = 0;
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* A read error, or a file that shrank: not a prefix. */
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	if (ret)
		snprintf(msg, errlen + 1, " %s", strerror(-ret));
	else
		ret = pw_hlo_parse(buf, got, out, msg, errlen + 1);
	if (ret)
		snprintf(err, errlen, "%s:%s", path, msg);
	free(buf);
	free(msg);
	return ret;
}

void pw_hlo_free(struct pw_hlo_module *mod)
{
	if (mod)
		hlo_arena_free(mod->arena);
}

struct pw_hlo_func *pw_hlo_find_func(const struct pw_hlo_module *mod,
				     const char *name)
{
	uint32_t i;

	for (i = 0; i < mod->nfuncs; i++)
		if (!strcmp(mod->funcs[i]->name, name))
			return mod->funcs[i];
	return NULL;
}

static const struct pw_hlo_attr *find_attr(const struct pw_hlo_named_attr *a,
					   uint32_t n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(a[i].name, name))
			return a[i].value;
	return NULL;
}

const struct pw_hlo_attr *pw_hlo_op_attr(const struct pw_hlo_op *op,
					 const char *name)
{
	return find_attr(op->attrs, op->nattrs, name);
}

const struct pw_hlo_attr *pw_hlo_attr_field(const struct pw_hlo_attr *a,
					    const char *name)
{
	return find_attr(a->fields, a->n, name);
}
