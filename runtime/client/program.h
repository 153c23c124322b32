/* SPDX-License-Identifier: GPL-2.0 */
/*
 * program.h - a traced dataflow program (runtime/client/trace.c,
 * runtime/client/program.c): one node per argument, one per sharded
 * computation whatever its shard count, one for the results. It is
 * registered with the controller once, when it ends, and each run is
 * one RUN.
 */
#ifndef PW_RUNTIME_PROGRAM_H
#define PW_RUNTIME_PROGRAM_H

#include "client.h"

/* Output @output of node @node. */
struct pw_edge {
	unsigned int node;
	unsigned int output;
};

/**
 * struct pw_node - one node
 * @kind: enum pw_node_kind.
 * @sig: ARG: shard signature.
 * @nshards: ARG: shards.
 * @captured: ARG: the buffer captured by reference, or NULL for an
 *	argument bound at run time.
 * @arg_index: ARG: position among the run's arguments (-1 if captured).
 * @fn: COMPUTE: the function (a reference).
 * @slice: COMPUTE: where it runs; ARG: where the buffer is.
 * @nin: inputs (COMPUTE) or results (RESULT).
 * @in: where each comes from.
 */
struct pw_node {
	enum pw_node_kind kind;
	struct pw_sig sig;
	unsigned int nshards;
	struct pw_buffer *captured;
	int arg_index;
	struct pw_fn *fn;
	struct pw_slice *slice;
	unsigned int nin;
	struct pw_edge in[PWTPU_MAX_BUFS];
};

/**
 * struct pw_program - a traced program
 * @client: the client that traced it.
 * @nodes: @nnodes nodes in trace order (a topological order); room for
 *	@cap.
 * @nargs: arguments bound at run time.
 * @next: link in the client's list of programs.
 * @serial: unique in the process, never reused (traced values carry it).
 * @rid: the controller's program (0: it computes nothing).
 * @rargs: for each of the registered program's
 *	arguments, the run's argument it is (>= 0) or -1 - k for the buffer
 *	node k captured; @nrargs of them.
 * @nrargs: see @rargs.
 * @rres: for each of the program's results, the registered program's
 *	result it is (>= 0; a value given twice is registered once), or
 *	-1 - k for argument node k's buffer, given back as it is.
 * @nreg: results the registered program has.
 */
struct pw_program {
	struct pw_client *client;
	struct pw_node *nodes;
	unsigned int nnodes;
	unsigned int cap;
	unsigned int nargs;
	struct pw_program *next;
	uint64_t serial;
	uint32_t rid;
	int *rargs;
	unsigned int nrargs;
	int *rres;
	unsigned int nreg;
};

/* runtime/client/program.c: register @p with the controller. */
int pw_program_register(struct pw_program *p);

/* Record a call into the program being traced (trace.c). */
int pw_trace_call(struct pw_client *client, struct pw_fn *fn,
		  struct pw_slice *slice, struct pw_buffer *const *in,
		  unsigned int nin, struct pw_buffer **out);
/* Free every program @client still has (disconnect). */
void pw_program_collect(struct pw_client *client);

#endif /* PW_RUNTIME_PROGRAM_H */
