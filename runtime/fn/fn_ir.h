/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fn_ir.h - the compiled-function builder's IR, private to runtime/fn/:
 * fn_builder.c fills it call by call, checking each op as the verifier
 * would; fn_compile.c lays it out as a program image (fn.h's layout).
 */
#ifndef PW_RUNTIME_FN_IR_H
#define PW_RUNTIME_FN_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "fn.h"

/* Every value becomes a tensor, every op an instruction. */
#define PW_FN_MAX_VALS		PWTPU_MAX_TENSORS
#define PW_FN_MAX_OPS		PWTPU_MAX_INSNS
/* Bindings beyond parameters and results: scratch and constants. */
#define PW_FN_EXTRA_BUFS	2
#define PW_FN_ALIGN		64

enum pw_fn_val_kind {
	PW_FN_VAL_PARAM,
	PW_FN_VAL_CONST,
	PW_FN_VAL_OP,
};

/**
 * struct pw_fn_val - one typed value of the function
 * @sig: its dtype and shape.
 * @kind: where it comes from.
 * @index: PARAM: parameter number; OP: index of the op that writes it.
 * @const_offset: CONST: offset of its bytes in the constant pool.
 */
struct pw_fn_val {
	struct pw_sig sig;
	enum pw_fn_val_kind kind;
	unsigned int index;
	uint64_t const_offset;
};

/**
 * struct pw_fn_op - one instruction over values
 * @op: enum pwtpu_op.
 * @mode: enum pwtpu_cmp or pwtpu_reduce, else 0.
 * @dst: value written, or -1 (DELAY).
 * @src: values read, -1 when unused.
 * @args: the instruction's immediate arguments.
 */
struct pw_fn_op {
	enum pwtpu_op op;
	uint8_t mode;
	int dst;
	int src[3];
	uint32_t args[5];
};

/**
 * struct pw_fn_builder - a function under construction
 * @name: the function's name.
 * @err: first failure (negative errno), 0 while none; sticky.
 * @msg: that failure's message.
 * @vals: values, indexed by pw_val; @nvals of @vals_cap.
 * @ops: ops in call order (a topological order); @nops of @ops_cap.
 * @results: result values in call order; @nresults of @results_cap.
 * @nparams: parameters so far.
 * @consts: the constant pool, @const_bytes used of @consts_cap.
 * @delay_ns: sum of the DELAY ops, bounded by the program time limit.
 * @work: real work of the ops so far in the verifier's units
 *	(pwfw_work_insn()), bounded by PWTPU_MAX_WORK.
 * @collectives: some op is a collective.
 * @group_size: slice size ALL_GATHER/REDUCE_SCATTER fixed, 0 for any.
 * @has_permute: a COLLECTIVE_PERMUTE fixed @permute_shift.
 */
struct pw_fn_builder {
	char name[64];
	int err;
	char msg[256];
	struct pw_fn_val *vals;
	unsigned int nvals;
	unsigned int vals_cap;
	struct pw_fn_op *ops;
	unsigned int nops;
	unsigned int ops_cap;
	int *results;
	unsigned int nresults;
	unsigned int results_cap;
	unsigned int nparams;
	unsigned char *consts;
	uint64_t const_bytes;
	uint64_t consts_cap;
	uint64_t delay_ns;
	uint64_t work;
	bool collectives;
	unsigned int group_size;
	bool has_permute;
	int permute_shift;
};

/* Free a builder and everything it holds; NULL is ignored. */
void pw_fn_builder_free(struct pw_fn_builder *b);

/* Elements of one tensor of @sig. */
uint64_t pw_sig_elems(const struct pw_sig *sig);

#endif /* PW_RUNTIME_FN_IR_H */
