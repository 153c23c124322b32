// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_print.c - a module back to text, in the generic form: every op
 * quoted with its operands, regions, attributes in one {...} and its
 * function type; dense constants in hex, which keeps their bytes exact.
 * Reading the text back gives the same module, which the tests check on
 * every program of the corpus and the fuzzer on every input it accepts.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_impl.h"

struct out {
	char *s;
	size_t n, cap;
	bool failed;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->n + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *ns;

		while (cap < o->n + n + 1)
			cap *= 2;
		ns = realloc(o->s, cap);
		if (!ns) {
			o->failed = true;
			return;
		}
		o->s = ns;
		o->cap = cap;
	}
	memcpy(o->s + o->n, s, n);
	o->n += n;
	o->s[o->n] = 0;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/*
 * Formatted output of any length: names come from the input, and a
 * shortened one would print another program.
 */
__attribute__((format(printf, 2, 3)))
static void putf(struct out *o, const char *fmt, ...)
{
	char buf[128], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n < sizeof(buf)) {
		put(o, buf, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);
	if (!big) {
		o->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	put(o, big, (size_t)n);
	free(big);
}

static void indent(struct out *o, int level)
{
	int i;

	for (i = 0; i < level; i++)
		put(o, "  ", 2);
}

static void put_string(struct out *o, const char *s, size_t n)
{
	size_t i;

	put(o, "\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f)
			putf(o, "\\%02X", c);
		else
			put(o, (const char *)&c, 1);
	}
	put(o, "\"", 1);
}

/* A bare-id when it is one, else a string: attribute names, symbols. */
static void put_name(struct out *o, const char *s)
{
	size_t i, n = strlen(s);
	bool bare = n > 0 && ((s[0] >= 'a' && s[0] <= 'z') ||
			      (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_');

	for (i = 1; bare && i < n; i++)
		bare = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
			      "VWXYZ0123456789_$.", s[i]) != NULL;
	if (bare)
		put(o, s, n);
	else
		put_string(o, s, n);
}

static void put_type(struct out *o, const struct pw_hlo_type *t);

static void put_type_list(struct out *o, struct pw_hlo_type *const *t,
			  uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (i)
			puts_(o, ", ");
		put_type(o, t[i]);
	}
}

static void put_results(struct out *o, struct pw_hlo_type *const *t,
			uint32_t n)
{
	if (n == 1 && t[0]->kind != PW_HLO_TYPE_FUNC) {
		put_type(o, t[0]);
		return;
	}
	puts_(o, "(");
	put_type_list(o, t, n);
	puts_(o, ")");
}

static void put_type(struct out *o, const struct pw_hlo_type *t)
{
	uint32_t i;

	switch (t->kind) {
	case PW_HLO_TYPE_TENSOR:
		puts_(o, "tensor<");
		for (i = 0; i < t->rank; i++) {
			if (t->dims[i] < 0)
				puts_(o, "?x");
			else
				putf(o, "%" PRId64 "x", t->dims[i]);
		}
		puts_(o, t->name);
		puts_(o, ">");
		break;
	case PW_HLO_TYPE_TUPLE:
		puts_(o, "tuple<");
		put_type_list(o, t->elems, t->nelems);
		puts_(o, ">");
		break;
	case PW_HLO_TYPE_FUNC:
		puts_(o, "(");
		put_type_list(o, t->elems, t->nelems);
		puts_(o, ") -> ");
		put_results(o, t->results, t->nresults);
		break;
	default:
		puts_(o, t->name);
		break;
	}
}

static uint64_t get_le(const uint8_t *b, size_t size)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

static void put_dense_array(struct out *o, const struct pw_hlo_attr *a)
{
	enum pw_hlo_dtype dt = a->type->dtype;
	size_t size = pw_hlo_dtype_size(dt);
	uint64_t i, v;

	puts_(o, "array<");
	put_type(o, a->type);
	for (i = 0; i < a->count; i++) {
		puts_(o, i ? ", " : ": ");
		v = get_le(a->bytes + i * size, size);
		switch (dt) {
		case PW_HLO_DT_I1:
			puts_(o, v ? "true" : "false");
			break;
		case PW_HLO_DT_F16: case PW_HLO_DT_BF16: case PW_HLO_DT_F32:
		case PW_HLO_DT_F64:
			putf(o, "0x%0*" PRIX64, (int)(2 * size), v);
			break;
		case PW_HLO_DT_UI4: case PW_HLO_DT_UI8: case PW_HLO_DT_UI16:
		case PW_HLO_DT_UI32: case PW_HLO_DT_UI64:
			putf(o, "%" PRIu64, v);
			break;
		default:
			/* Sign-extend from the element's size. */
			if (size < 8 && (v >> (8 * size - 1)) & 1)
				v |= ~0ull << (8 * size);
			putf(o, "%" PRId64, (int64_t)v);
			break;
		}
	}
	puts_(o, ">");
}

static void put_attr(struct out *o, const struct pw_hlo_attr *a);

static void put_fields(struct out *o, const struct pw_hlo_named_attr *f,
		       uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (i)
			puts_(o, ", ");
		put_name(o, f[i].name);
		if (f[i].value->kind != PW_HLO_ATTR_UNIT) {
			puts_(o, " = ");
			put_attr(o, f[i].value);
		}
	}
}

static void put_attr(struct out *o, const struct pw_hlo_attr *a)
{
	uint32_t i;
	size_t k;

	switch (a->kind) {
	case PW_HLO_ATTR_UNIT:
		puts_(o, "unit");
		break;
	case PW_HLO_ATTR_BOOL:
		puts_(o, a->b ? "true" : "false");
		break;
	case PW_HLO_ATTR_INT:
	case PW_HLO_ATTR_FLOAT:
		if (a->kind == PW_HLO_ATTR_INT)
			putf(o, "%s%" PRIu64, a->neg ? "-" : "", a->u);
		else
			puts_(o, a->text);
		if (a->type) {
			puts_(o, " : ");
			put_type(o, a->type);
		}
		break;
	case PW_HLO_ATTR_STRING:
		put_string(o, a->text, a->len);
		break;
	case PW_HLO_ATTR_SYMBOL:
		puts_(o, "@");
		put_name(o, a->text);
		break;
	case PW_HLO_ATTR_TYPE:
		put_type(o, a->type);
		break;
	case PW_HLO_ATTR_ARRAY:
		puts_(o, "[");
		for (i = 0; i < a->n; i++) {
			if (i)
				puts_(o, ", ");
			put_attr(o, a->elems[i]);
		}
		puts_(o, "]");
		break;
	case PW_HLO_ATTR_DENSE_ARRAY:
		put_dense_array(o, a);
		break;
	case PW_HLO_ATTR_DENSE:
		puts_(o, "dense<");
		if (!a->bytes && a->text) {
			puts_(o, a->text);
		} else if (a->nbytes) {
			puts_(o, "\"0x");
			for (k = 0; k < a->nbytes; k++)
				putf(o, "%02X", a->bytes[k]);
			puts_(o, "\"");
		}
		puts_(o, "> : ");
		put_type(o, a->type);
		break;
	case PW_HLO_ATTR_ENUM:
		putf(o, "#%s<", a->text);
		if (a->enum_class) {
			puts_(o, a->enum_class);
			puts_(o, " ");
		}
		puts_(o, a->enum_value);
		puts_(o, ">");
		break;
	case PW_HLO_ATTR_STRUCT:
		putf(o, "#%s<", a->text);
		if (!strcmp(a->text, "stablehlo.conv"))
			puts_(o, "raw ");
		put_fields(o, a->fields, a->n);
		puts_(o, ">");
		break;
	case PW_HLO_ATTR_DICT:
		puts_(o, "{");
		put_fields(o, a->fields, a->n);
		puts_(o, "}");
		break;
	}
}

static void put_dict(struct out *o, const struct pw_hlo_named_attr *f,
		     uint32_t n)
{
	puts_(o, "{");
	put_fields(o, f, n);
	puts_(o, "}");
}

static void put_arg(struct out *o, const struct pw_hlo_block_arg *a)
{
	putf(o, "%%%s: ", a->name);
	put_type(o, a->type);
	if (a->nattrs) {
		puts_(o, " ");
		put_dict(o, a->attrs, a->nattrs);
	}
}

static void put_op(struct out *o, const struct pw_hlo_op *op, int level);

static void put_block(struct out *o, const struct pw_hlo_block *b, int level,
		      bool label)
{
	uint32_t i;

	if (label) {
		indent(o, level - 1);
		putf(o, "^%s", b->label ? b->label : "bb0");
		if (b->nargs) {
			puts_(o, "(");
			for (i = 0; i < b->nargs; i++) {
				if (i)
					puts_(o, ", ");
				put_arg(o, &b->args[i]);
			}
			puts_(o, ")");
		}
		puts_(o, ":\n");
	}
	for (i = 0; i < b->nops; i++)
		put_op(o, b->ops[i], level);
}

/* The blocks of @r; the entry's label only when it has one. */
static void put_region_body(struct out *o, const struct pw_hlo_region *r,
			    int level, bool entry_label)
{
	uint32_t i;

	for (i = 0; i < r->nblocks; i++)
		put_block(o, &r->blocks[i], level,
			  i || (entry_label && (r->blocks[i].label ||
						r->blocks[i].nargs)));
}

static void put_op(struct out *o, const struct pw_hlo_op *op, int level)
{
	uint32_t i;

	indent(o, level);
	for (i = 0; i < op->ngroups; i++) {
		putf(o, "%s%%%s", i ? ", " : "", op->groups[i].name);
		if (op->groups[i].count != 1)
			putf(o, ":%u", op->groups[i].count);
	}
	if (op->ngroups)
		puts_(o, " = ");
	put_string(o, op->name, strlen(op->name));
	puts_(o, "(");
	for (i = 0; i < op->noperands; i++) {
		putf(o, "%s%%%s", i ? ", " : "", op->operands[i].name);
		if (op->operands[i].index)
			putf(o, "#%u", op->operands[i].index);
	}
	puts_(o, ")");
	if (op->nregions) {
		puts_(o, " (");
		for (i = 0; i < op->nregions; i++) {
			puts_(o, i ? ", {\n" : "{\n");
			put_region_body(o, &op->regions[i], level + 1, true);
			indent(o, level);
			puts_(o, "}");
		}
		puts_(o, ")");
	}
	if (op->nattrs) {
		puts_(o, " ");
		put_dict(o, op->attrs, op->nattrs);
	}
	puts_(o, " : (");
	put_type_list(o, op->operand_types, op->noperands);
	puts_(o, ") -> ");
	put_results(o, op->result_types, op->nresults);
	puts_(o, "\n");
}

static void put_func(struct out *o, const struct pw_hlo_func *f)
{
	uint32_t i;

	puts_(o, "  func.func ");
	if (f->visibility)
		putf(o, "%s ", f->visibility);
	puts_(o, "@");
	put_name(o, f->name);
	puts_(o, "(");
	for (i = 0; i < f->nargs; i++) {
		if (i)
			puts_(o, ", ");
		put_arg(o, &f->args[i]);
	}
	puts_(o, ")");
	if (f->nresults) {
		puts_(o, " -> (");
		for (i = 0; i < f->nresults; i++) {
			if (i)
				puts_(o, ", ");
			put_type(o, f->result_types[i]);
			if (f->nresult_attrs[i]) {
				puts_(o, " ");
				put_dict(o, f->result_attrs[i],
					 f->nresult_attrs[i]);
			}
		}
		puts_(o, ")");
	}
	if (f->nattrs) {
		puts_(o, " attributes ");
		put_dict(o, f->attrs, f->nattrs);
	}
	if (f->body.nblocks) {
		puts_(o, " {\n");
		put_region_body(o, &f->body, 2, false);
		puts_(o, "  }");
	}
	puts_(o, "\n");
}

char *pw_hlo_print(const struct pw_hlo_module *mod, size_t *len)
{
	struct out o = { 0 };
	uint32_t i;

	puts_(&o, "module");
	if (mod->name) {
		puts_(&o, " @");
		put_name(&o, mod->name);
	}
	if (mod->nattrs) {
		puts_(&o, " attributes ");
		put_dict(&o, mod->attrs, mod->nattrs);
	}
	puts_(&o, " {\n");
	for (i = 0; i < mod->nfuncs; i++)
		put_func(&o, mod->funcs[i]);
	puts_(&o, "}\n");
	if (o.failed) {
		free(o.s);
		return NULL;
	}
	if (len)
		*len = o.n;
	return o.s;
}
