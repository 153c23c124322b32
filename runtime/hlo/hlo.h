/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hlo.h - a StableHLO module read from its MLIR text form (internal to
 * libpathways; docs/stablehlo.md).
 *
 * The reader accepts what stablehlo-opt and JAX print: a module of
 * func.func, ops in their generic form ("stablehlo.scatter"(...)) or in
 * the pretty syntax StableHLO, CHLO and func print for them. Every op
 * comes out in one generic shape whatever syntax it was written in: its
 * full name, results, operand references, named attributes (the names of
 * the generic form), regions, operand and result types. Nothing here
 * checks what an op means; a later stage does, and rejects what it does
 * not know.
 *
 * Everything a module holds lives in its arena and is freed at once by
 * pw_hlo_free(): no pointer into it outlives the module.
 */
#ifndef PW_HLO_H
#define PW_HLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits that keep the parser safe on hostile input (-E2BIG past them). */
#define PW_HLO_MAX_INPUT	(256u << 20)	/* bytes of text */
#define PW_HLO_MAX_DEPTH	64	/* regions, attributes, types */
#define PW_HLO_MAX_RANK		64
#define PW_HLO_MAX_LIST		(1u << 20)	/* items of one list */
#define PW_HLO_MAX_ATTRS	4096	/* attributes of one dictionary */

enum pw_hlo_dtype {
	PW_HLO_DT_NONE,		/* not an element type */
	PW_HLO_DT_I1,
	PW_HLO_DT_I4,
	PW_HLO_DT_I8,
	PW_HLO_DT_I16,
	PW_HLO_DT_I32,
	PW_HLO_DT_I64,
	PW_HLO_DT_UI4,
	PW_HLO_DT_UI8,
	PW_HLO_DT_UI16,
	PW_HLO_DT_UI32,
	PW_HLO_DT_UI64,
	PW_HLO_DT_F16,
	PW_HLO_DT_BF16,
	PW_HLO_DT_F32,
	PW_HLO_DT_F64,
	PW_HLO_DT_C64,		/* complex<f32> */
	PW_HLO_DT_C128,		/* complex<f64> */
	PW_HLO_DT_OTHER,	/* kept by name, for a later stage to refuse */
};

enum pw_hlo_type_kind {
	PW_HLO_TYPE_TENSOR,	/* tensor<2x3xf32>; dims[i] < 0 is '?' */
	PW_HLO_TYPE_SCALAR,	/* a bare element type: i64, complex<f32> */
	PW_HLO_TYPE_TOKEN,	/* !stablehlo.token */
	PW_HLO_TYPE_TUPLE,	/* tuple<a, b> */
	PW_HLO_TYPE_FUNC,	/* (a, b) -> c */
	PW_HLO_TYPE_NAMED,	/* any other type, kept as its text */
};

struct pw_hlo_type {
	enum pw_hlo_type_kind kind;
	enum pw_hlo_dtype dtype;	/* TENSOR, SCALAR */
	const char *name;	/* element type's text; NAMED: all of it */
	uint32_t rank;
	int64_t *dims;
	uint32_t nelems;	/* TUPLE: elements; FUNC: inputs */
	struct pw_hlo_type **elems;
	uint32_t nresults;	/* FUNC */
	struct pw_hlo_type **results;
};

enum pw_hlo_attr_kind {
	PW_HLO_ATTR_UNIT,	/* a name alone in a dictionary, or `unit` */
	PW_HLO_ATTR_BOOL,
	PW_HLO_ATTR_INT,	/* 3, -1 : i32 */
	PW_HLO_ATTR_FLOAT,	/* 1.5 : f32 (its text kept exactly) */
	PW_HLO_ATTR_STRING,	/* "..." (bytes, may hold NUL) */
	PW_HLO_ATTR_SYMBOL,	/* @f */
	PW_HLO_ATTR_TYPE,	/* a type as a value */
	PW_HLO_ATTR_ARRAY,	/* [a, b] */
	PW_HLO_ATTR_DENSE_ARRAY, /* array<i64: 1, 2> */
	PW_HLO_ATTR_DENSE,	/* dense<...> : tensor<...> */
	PW_HLO_ATTR_ENUM,	/* #stablehlo<comparison_direction GT> */
	PW_HLO_ATTR_STRUCT,	/* #stablehlo.gather<key = value, ...> */
	PW_HLO_ATTR_DICT,	/* {key = value, ...} */
};

struct pw_hlo_attr;

struct pw_hlo_named_attr {
	const char *name;
	struct pw_hlo_attr *value;
};

/*
 * DENSE and DENSE_ARRAY hold their elements as raw little-endian bytes of
 * the element type (i1 one byte each, complex as real then imaginary):
 * nbytes = stored * element size. A splat stores one element for a
 * tensor of any other count. DENSE of a PW_HLO_DT_OTHER element type is
 * not decoded: bytes is NULL and text keeps its literal.
 */
struct pw_hlo_attr {
	enum pw_hlo_attr_kind kind;
	struct pw_hlo_type *type;	/* INT, FLOAT (NULL when untyped);
					 * DENSE: tensor; DENSE_ARRAY: element;
					 * TYPE: the value */
	bool b;			/* BOOL */
	bool neg;		/* INT: value is -u */
	uint64_t u;		/* INT: magnitude */
	double d;		/* FLOAT: the value as a double */
	const char *text;	/* FLOAT literal, STRING bytes, SYMBOL name,
				 * ENUM/STRUCT prefix ("stablehlo.gather") */
	size_t len;		/* STRING length */
	const char *enum_class;	/* ENUM: "comparison_direction", NULL */
	const char *enum_value;	/* ENUM: "GT" */
	uint32_t n;		/* ARRAY elements; STRUCT/DICT fields */
	struct pw_hlo_attr **elems;
	struct pw_hlo_named_attr *fields;
	uint8_t *bytes;		/* DENSE, DENSE_ARRAY */
	size_t nbytes;
	uint64_t count;		/* elements the type holds */
	bool splat;
};

/* %name or %name#index: result @index of the op whose results are @name. */
struct pw_hlo_value {
	const char *name;	/* without '%' */
	uint32_t index;
};

/* %name:count = ...: @count results named %name#0.. (%name when 1). */
struct pw_hlo_result {
	const char *name;
	uint32_t count;
};

struct pw_hlo_block_arg {
	const char *name;
	struct pw_hlo_type *type;
	uint32_t nattrs;	/* a func's argument attributes */
	struct pw_hlo_named_attr *attrs;
};

struct pw_hlo_op;

struct pw_hlo_block {
	const char *label;	/* "bb0" or NULL for an unlabelled entry */
	uint32_t nargs;
	struct pw_hlo_block_arg *args;
	uint32_t nops;
	struct pw_hlo_op **ops;
};

struct pw_hlo_region {
	uint32_t nblocks;
	struct pw_hlo_block *blocks;
};

struct pw_hlo_op {
	const char *name;	/* "stablehlo.add", "func.call", ... */
	uint32_t line, col;	/* where the op starts in the source */
	uint32_t ngroups;	/* result groups as written */
	struct pw_hlo_result *groups;
	uint32_t nresults;	/* the sum of their counts */
	struct pw_hlo_type **result_types;
	uint32_t noperands;
	struct pw_hlo_value *operands;
	struct pw_hlo_type **operand_types;
	uint32_t nattrs;
	struct pw_hlo_named_attr *attrs;
	uint32_t nregions;
	struct pw_hlo_region *regions;
};

struct pw_hlo_func {
	const char *name;	/* without '@' */
	const char *visibility;	/* "public", "private", "nested", NULL */
	uint32_t line, col;
	uint32_t nargs;		/* the entry block's, with attributes */
	struct pw_hlo_block_arg *args;
	uint32_t nresults;
	struct pw_hlo_type **result_types;
	struct pw_hlo_named_attr **result_attrs;
	uint32_t *nresult_attrs;
	uint32_t nattrs;	/* `attributes {...}` */
	struct pw_hlo_named_attr *attrs;
	struct pw_hlo_region body;	/* no blocks: a declaration */
};

struct pw_hlo_arena;

struct pw_hlo_module {
	const char *name;	/* module @name, or NULL */
	uint32_t nattrs;
	struct pw_hlo_named_attr *attrs;
	uint32_t nfuncs;
	struct pw_hlo_func **funcs;
	struct pw_hlo_arena *arena;
};

/*
 * Parse @len bytes of @text (no NUL needed). 0 and *@out, or a negative
 * errno (-EINVAL syntax, -ENOMEM, -E2BIG a limit) with "LINE:COL: what
 * was expected, what was found" in @err.
 */
int pw_hlo_parse(const char *text, size_t len, struct pw_hlo_module **out,
		 char *err, size_t errlen);
/* The same for a file; its errors start with its path. */
int pw_hlo_parse_file(const char *path, struct pw_hlo_module **out,
		      char *err, size_t errlen);
void pw_hlo_free(struct pw_hlo_module *mod);

struct pw_hlo_func *pw_hlo_find_func(const struct pw_hlo_module *mod,
				     const char *name);
const struct pw_hlo_attr *pw_hlo_op_attr(const struct pw_hlo_op *op,
					 const char *name);
const struct pw_hlo_attr *pw_hlo_attr_field(const struct pw_hlo_attr *a,
					    const char *name);
/* Bytes of one element of @dt (i1 one, complex<f32> eight), 0 if unknown. */
size_t pw_hlo_dtype_size(enum pw_hlo_dtype dt);
const char *pw_hlo_dtype_name(enum pw_hlo_dtype dt);

/*
 * The module in generic form (every op quoted, attributes in {...},
 * dense constants in hex), a NUL-terminated malloc'd string, or NULL
 * when out of memory. Reading it back gives the same module.
 */
char *pw_hlo_print(const struct pw_hlo_module *mod, size_t *len);

#endif /* PW_HLO_H */
