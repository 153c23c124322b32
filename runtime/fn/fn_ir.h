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
 * @loop: the loop whose body made it (struct pw_fn_builder.loops), or -1
 *	outside every loop; once that loop has ended, nothing may read it.
 *	A loop variable belongs to the loop around its own loop (it lives
 *	on after it) and is written by several ops: its first copy, made
 *	before the LOOP, and the copy of its next value at the body's end.
 */
struct pw_fn_val {
	struct pw_sig sig;
	enum pw_fn_val_kind kind;
	unsigned int index;
	uint64_t const_offset;
	int loop;
};

/**
 * struct pw_fn_op - one instruction over values
 * @op: enum pwtpu_op.
 * @mode: enum pwtpu_cmp or pwtpu_reduce, else 0.
 * @dst: value written, or -1 (DELAY).
 * @src: values read, -1 when unused.
 * @args: the instruction's immediate arguments (a LOOP's trips, 0 until
 *	pw_fn_build() fixes them for PW_FN_TRIPS_AUTO, and body length).
 * @work: its real work per run (pwfw_work_insn()'s units).
 */
struct pw_fn_op {
	enum pwtpu_op op;
	uint8_t mode;
	int dst;
	int src[3];
	uint32_t args[5];
	uint64_t work;
};

/**
 * struct pw_fn_loop - a loop of pw_fn_while_begin() .. pw_fn_while_end()
 * @op: index of its LOOP op (a bounded one).
 * @parent: the loop around it, or -1.
 * @nvars: its variables, the values @vars[0..nvars).
 * @tests: pw_fn_while_test() calls of its own (it needs one).
 * @outer_runs: struct pw_fn_builder.runs around it (its LOOP op's runs).
 * @ended: pw_fn_while_end() closed it.
 */
struct pw_fn_loop {
	unsigned int op;
	int parent;
	unsigned int nvars;
	int *vars;
	unsigned int tests;
	uint64_t outer_runs;
	bool ended;
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
 * @delay_ns: sum of the DELAY ops (times the trips of the loops around
 *	them), bounded by the program time limit.
 * @work: real work of the ops so far in the verifier's units
 *	(pwfw_work_insn()), times the trips of the loops around them,
 *	bounded by PWTPU_MAX_WORK.
 * @dyn_insns: instructions one run executes, counted as @work is,
 *	bounded by PWTPU_MAX_DYN_INSNS. A loop of PW_FN_TRIPS_AUTO counts
 *	as one trip in these three until pw_fn_build() fixes its trips.
 * @loops: every loop begun, @nloops of @loops_cap.
 * @cur: the innermost open loop, or -1.
 * @depth: loops open.
 * @runs: how often one run executes an op made now: the product of the
 *	open loops' trips (1 for PW_FN_TRIPS_AUTO), at most
 *	PWTPU_MAX_DYN_INSNS.
 * @auto_loops: loops of PW_FN_TRIPS_AUTO.
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
	uint64_t dyn_insns;
	struct pw_fn_loop *loops;
	unsigned int nloops;
	unsigned int loops_cap;
	int cur;
	unsigned int depth;
	uint64_t runs;
	unsigned int auto_loops;
	bool collectives;
	unsigned int group_size;
	bool has_permute;
	int permute_shift;
};

/* Free a builder and everything it holds; NULL is ignored. */
void pw_fn_builder_free(struct pw_fn_builder *b);

/* Elements of one tensor of @sig. */
uint64_t pw_sig_elems(const struct pw_sig *sig);

/*
 * Fix the trips of every PW_FN_TRIPS_AUTO loop of @b, whose loops have
 * all ended, to the largest count (one for all of them) with which a run
 * of the function and @extra_insns more instructions of @extra_work in
 * all (its result copies, after the ops) keeps to the device's bounds on
 * instructions, work and time. 0, or -E2BIG (the message set).
 */
int pw_fn_fix_trips(struct pw_fn_builder *b, uint64_t extra_insns,
		    uint64_t extra_work);

#endif /* PW_RUNTIME_FN_IR_H */
