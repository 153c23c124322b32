/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pathways.h - the Pathways client API (libpathways, docs/runtime.md).
 *
 * A client connects to a controller (resource managers, lowering, one
 * scheduler per island) that drives the workers (executors, object
 * stores) of one or many hosts: pathwaysd at an address, or, with no
 * address, the same controller and a worker over this host's
 * /dev/pwtpu* devices run inside the process (docs/architecture.md);
 * every client of the process shares them.
 *
 * The client asks for virtual devices (slices with a mesh shape), builds
 * compiled functions, maps them over slices (SPMD) with sharded buffers as
 * inputs and outputs, and traces blocks of calls into dataflow programs.
 * Calls return at once: their outputs are futures, fetched when asked.
 *
 * Functions return 0 (or a value >= 0) on success and a negative errno on
 * failure; pw_last_error() then names what was wrong.
 */
#ifndef PATHWAYS_PATHWAYS_H
#define PATHWAYS_PATHWAYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../uapi/pwtpu.h"
#include "rm.h"

struct pw_client;
struct pw_fn_builder;
struct pw_fn;
struct pw_buffer;
struct pw_program;

/*
 * Connection
 */

/**
 * struct pw_connect_opts - how to connect
 * @address: the controller, "IP:PORT" (pathwaysd); NULL: the environment's
 *	PATHWAYS_CONTROLLER, or when unset the controller this process runs.
 * @name: the client's name in messages, statistics and the operator's
 *	weights (may be NULL).
 * @weight: proportional-share weight, 1..1000 (0 means 1); pathwaysd
 *	refuses anything but 0 or 1 (-EPERM: weights are its operator's).
 */
struct pw_connect_opts {
	const char *address;
	const char *name;
	unsigned int weight;
};

/*
 * Connect (NULL @opts: as with every field 0). With no address: -ENOENT
 * when pwtpu.ko is not loaded, -EBUSY naming the process when another
 * drives this host's island (connect to its pathwaysd instead). With
 * one: -ETIMEDOUT when no controller answers, -EINVAL for a bad address,
 * -ENOKEY when there is no cluster key in /etc/pathways/cluster.key and
 * PATHWAYS_KEY_FILE names none (-ENOENT when the file it names is
 * missing), -EACCES when others may read the key: every message is
 * authenticated with the cluster's key (docs/dcn.md).
 */
int pw_connect(const struct pw_connect_opts *opts, struct pw_client **client);
/*
 * Disconnect (one BYE): the controller drops the client's runs still
 * held for their turn and cancels the rest on the workers (what is on
 * a device's ring completes there), and the workers free everything the
 * client had. Every handle of the client (buffers, programs, sets and
 * slices) is freed with it: using one after is a use after free.
 * Functions are the caller's (pw_fn_put()). NULL is ignored.
 *
 * Calls on one client are serialised (a wait holds the client until
 * its computation ends): use a client per thread for concurrency.
 */
void pw_disconnect(struct pw_client *client);
/*
 * Devices of the controller's islands that were up when the client
 * connected, numbered over them in host order.
 */
int pw_num_devices(struct pw_client *client);
/* Message of the client's last failure ("" if none). Thread-local. */
const char *pw_last_error(void);

/*
 * Virtual devices: a client's set, and slices of it that the controller's
 * resource manager places on physical devices (include/pathways/rm.h
 * says how). The set belongs to the client and is freed with it.
 */
struct pw_vset;
struct pw_slice;

int pw_make_virtual_device_set(struct pw_client *client,
			       struct pw_vset **vset);
/*
 * A slice of @n devices; @shape "2x2" etc. or NULL (any n devices,
 * neighbours preferred). Errors as pw_rm_add_slice().
 */
int pw_add_slice(struct pw_vset *vset, unsigned int n, const char *shape,
		 struct pw_slice **slice);
/*
 * The same, on the island that holds @near (a slice of the same client)
 * if @n of its devices are free (no slice on them), else where
 * pw_add_slice() would place it (slices share devices): the
 * stages of a pipeline, each asked near the one before, fill an island
 * before they cross to another over the DCN. -EINVAL when @near is not
 * this client's.
 */
int pw_add_slice_near(struct pw_vset *vset, unsigned int n,
		      const char *shape, const struct pw_slice *near,
		      struct pw_slice **slice);
/* Virtual devices of @slice. */
unsigned int pw_slice_size(const struct pw_slice *slice);
/* The island device virtual device @v of @slice is on, or -EINVAL. */
int pw_slice_device(const struct pw_slice *slice, unsigned int v);
/* The host whose island holds @slice (its worker's number; 0 alone). */
int pw_slice_host(const struct pw_slice *slice);

/*
 * Take device @dev out of service / back in (the operator's: pathwaysd
 * refuses a client with -EPERM). Its commands not yet handed to the
 * device fail with -ENODEV (those already on its ring complete), the
 * client's slices on it fail and stay failed, new slices avoid it.
 */
int pw_remove_device(struct pw_client *client, unsigned int dev);
int pw_add_device(struct pw_client *client, unsigned int dev);

/*
 * Compiled functions: a builder of typed values with static shapes over
 * the device's ops. Values are small integers >= 0; a builder call that
 * fails returns -errno and makes the builder fail (the first message is
 * kept), so calls can be chained and checked once at pw_fn_build().
 */
typedef int pw_val;

#define PW_MAX_RANK	PWTPU_MAX_RANK

struct pw_fn_builder *pw_fn_begin(const char *name);
/* Parameter i (in call order) of @dtype and shard shape @shape[@rank]. */
pw_val pw_fn_param(struct pw_fn_builder *b, enum pwtpu_dtype dtype,
		   unsigned int rank, const uint32_t *shape);
/* A constant of @shape; @data holds the elements, row major. */
pw_val pw_fn_const(struct pw_fn_builder *b, enum pwtpu_dtype dtype,
		   unsigned int rank, const uint32_t *shape, const void *data);
/*
 * A scalar constant (rank 0) converted to @dtype as the device's CONVERT
 * from f64 would: floats rounded once to nearest even (f16 and bf16
 * directly, not through f32), integers truncated toward zero and
 * saturated to the dtype's range, NaN to 0. Every integer a double holds
 * exactly is exact in i64 and u64 (2^53, 2^62 + 2^10, -2^63); others need
 * pw_fn_const().
 */
pw_val pw_fn_scalar(struct pw_fn_builder *b, enum pwtpu_dtype dtype,
		    double value);
/*
 * ADD, SUB, MUL, DIV, MAX, MIN; AND, OR, XOR, SHL, SHR_LOGICAL,
 * SHR_ARITH (integers); ATAN2 (floats); POW and REM (any dtype). A
 * rank-0 operand is broadcast. The dtype rules are the device's
 * (include/uapi/pwtpu.h).
 */
pw_val pw_fn_binary(struct pw_fn_builder *b, enum pwtpu_op op, pw_val x,
		    pw_val y);
/*
 * NEG, ABS; NOT, POPCNT, CLZ (integers); EXP, LOG, TANH, RSQRT, FLOOR,
 * CEIL, ROUND_EVEN, ROUND_AFZ, SQRT, CBRT, SIN, COS, TAN, LOG1P, EXPM1,
 * LOGISTIC (floats, f64 too).
 */
pw_val pw_fn_unary(struct pw_fn_builder *b, enum pwtpu_op op, pw_val x);
/*
 * x's bits as @dtype (BITCAST). Of a wider @dtype, x's last dimension
 * must be the ratio of the widths and goes; of a narrower one, a last
 * dimension of the ratio comes (x then of rank 3 at most).
 */
pw_val pw_fn_bitcast(struct pw_fn_builder *b, pw_val x,
		     enum pwtpu_dtype dtype);
/*
 * x rounded to a float format of @exponent_bits (>= 1) and
 * @mantissa_bits and back (REDUCE_PRECISION); floats.
 */
pw_val pw_fn_reduce_precision(struct pw_fn_builder *b, pw_val x,
			      uint32_t exponent_bits, uint32_t mantissa_bits);
pw_val pw_fn_matmul(struct pw_fn_builder *b, pw_val x, pw_val y);
pw_val pw_fn_compare(struct pw_fn_builder *b, enum pwtpu_cmp cmp, pw_val x,
		     pw_val y);
pw_val pw_fn_select(struct pw_fn_builder *b, pw_val pred, pw_val x,
		    pw_val y);
pw_val pw_fn_convert(struct pw_fn_builder *b, pw_val x,
		     enum pwtpu_dtype dtype);
pw_val pw_fn_broadcast(struct pw_fn_builder *b, pw_val x, unsigned int rank,
		       const uint32_t *shape);
pw_val pw_fn_reshape(struct pw_fn_builder *b, pw_val x, unsigned int rank,
		     const uint32_t *shape);
pw_val pw_fn_transpose(struct pw_fn_builder *b, pw_val x,
		       const uint32_t *perm);
pw_val pw_fn_slice(struct pw_fn_builder *b, pw_val x, const uint32_t *start,
		   const uint32_t *shape);
/* Reduce over the dimensions in @axes (bit mask). */
pw_val pw_fn_reduce(struct pw_fn_builder *b, enum pwtpu_reduce mode,
		    pw_val x, uint32_t axes);
/*
 * Collectives over the slice the function is called on, every member in
 * one group, in virtual device order. ALL_GATHER and REDUCE_SCATTER
 * change the shape by the slice size @n, which the function then
 * requires of every slice it is called on.
 */
pw_val pw_fn_all_reduce(struct pw_fn_builder *b, enum pwtpu_reduce mode,
			pw_val x);
pw_val pw_fn_all_gather(struct pw_fn_builder *b, pw_val x, unsigned int n);
pw_val pw_fn_reduce_scatter(struct pw_fn_builder *b, enum pwtpu_reduce mode,
			    pw_val x, unsigned int n);
/* dst = x of virtual device (v - shift) mod n; one shift per function. */
pw_val pw_fn_permute(struct pw_fn_builder *b, pw_val x, int shift);

/*
 * Scatter and gather as StableHLO defines them (its spec's "scatter",
 * one input, and "gather"), with their dimension numbers as StableHLO
 * writes them: ordered lists, the batching ones in pairs, in order.
 * index_vector_dim may equal the indices' rank: each index vector is
 * then one element (the implicit trailing dimension of extent 1).
 * Indices are of any integer dtype (signed or unsigned as they are);
 * operand, updates and result of any one dtype (i1 is an i8 of 0 or 1).
 *
 * pw_fn_scatter(): @operand with the windows of @updates combined in at
 * @indices by @mode (SET: the update replaces; ADD, MUL, MIN, MAX: the
 * ops of those names on the dtype), the updates taken in row-major order
 * so that repeated indices give one result; a window not wholly inside
 * the operand is skipped (as XLA does). pw_fn_gather(): the slices of
 * @operand of @slice_sizes at @indices, each start clamped so that its
 * slice lies inside the operand; the result's shape is the spec's.
 *
 * Every constraint of the spec is checked (-EINVAL naming the list and
 * what is wrong with it); what the device cannot hold is -EOPNOTSUPP (a
 * gather result of rank above 4, empty slices).
 */
struct pw_fn_scatter_dims {
	unsigned int n_update_window_dims;
	uint32_t update_window_dims[PW_MAX_RANK];
	unsigned int n_inserted_window_dims;
	uint32_t inserted_window_dims[PW_MAX_RANK];
	unsigned int n_batching_dims;	/* pairs, in order */
	uint32_t input_batching_dims[PW_MAX_RANK];
	uint32_t scatter_indices_batching_dims[PW_MAX_RANK];
	unsigned int n_scatter_dims_to_operand_dims;
	uint32_t scatter_dims_to_operand_dims[PW_MAX_RANK];
	uint32_t index_vector_dim;	/* may equal the indices' rank */
};
pw_val pw_fn_scatter(struct pw_fn_builder *b, enum pwtpu_scatter mode,
		     pw_val operand, pw_val indices, pw_val updates,
		     const struct pw_fn_scatter_dims *dims);

struct pw_fn_gather_dims {
	unsigned int n_offset_dims;
	uint32_t offset_dims[PW_MAX_RANK];
	unsigned int n_collapsed_slice_dims;
	uint32_t collapsed_slice_dims[PW_MAX_RANK];
	unsigned int n_batching_dims;	/* pairs, in order */
	uint32_t operand_batching_dims[PW_MAX_RANK];
	uint32_t start_indices_batching_dims[PW_MAX_RANK];
	unsigned int n_start_index_map;
	uint32_t start_index_map[PW_MAX_RANK];
	uint32_t index_vector_dim;	/* may equal the indices' rank */
	uint32_t slice_sizes[PW_MAX_RANK];	/* one per operand dimension */
};
pw_val pw_fn_gather(struct pw_fn_builder *b, pw_val operand, pw_val indices,
		    const struct pw_fn_gather_dims *dims);
/* Synthetic compute of @ns nanoseconds (benchmarks). */
int pw_fn_delay(struct pw_fn_builder *b, uint64_t ns);
/*
 * Loops over device-side values (the device's bounded LOOP and WHILE):
 *
 *	pw_fn_while_begin(b, n, init, vars, trips);
 *	pred = ... ops of vars ...;	(the condition)
 *	pw_fn_while_test(b, pred);	(leave unless pred is non-zero)
 *	next[i] = ... ops of vars ...;	(the body)
 *	pw_fn_while_end(b, next);	(vars[i] = next[i], all at once)
 *	... vars[i] now hold the final values ...
 *
 * pw_fn_while_begin() makes @n new values @vars[i], copies of @init[i]
 * (any values the builder can read there), the loop variables, and opens
 * a loop: every op until pw_fn_while_end() runs once a trip. A trip runs
 * its ops in order until a pw_fn_while_test() whose @pred (a rank-0
 * integer: an i8 predicate, or any other) is zero leaves the loop; the
 * loop needs one test of its own at least. pw_fn_while_end() copies
 * @next[i] (of vars[i]'s dtype and shape; @next[i] may be vars[j], the
 * copies happen as one parallel assignment) into vars[i] and ends the
 * trip. After it, @vars hold the values of the trip the test left (at
 * once for a test that is zero at the first trip: the inits).
 *
 * Values made inside a loop live only there: reading one after its loop
 * ends, or making it a result, is refused (carry it out in a loop
 * variable). Loops nest up to PWTPU_MAX_LOOP_DEPTH deep, each inside the
 * innermost open one; a test leaves the innermost loop. @trips bounds the
 * trips (1..PWTPU_MAX_TRIPS): a loop still going after them fails the
 * run with -ELOOP. PW_FN_TRIPS_AUTO asks for as many as the device's
 * bounds on one run allow (PWTPU_MAX_DYN_INSNS instructions,
 * PWTPU_MAX_WORK work, PWTPU_MAX_PROG_NS of delays), fixed at
 * pw_fn_build(): every such loop gets the same count, the largest that
 * fits with the loops run for all their trips. The device's verifier
 * also bounds the modelled time of a run, which the builder does not
 * model but for delays: a device far slower than the default spec may
 * refuse a function of many auto trips at load.
 *
 * The function's work, instructions and delays count each op as often as
 * its loops run it. Refused (-EINVAL): a test or end without an open
 * loop, an end without a test, a non-scalar or float predicate, @next of
 * another dtype or shape, values of an ended loop, pw_fn_build() with a
 * loop open; -E2BIG past the depth or the device's bounds.
 */
#define PW_FN_TRIPS_AUTO	0U
int pw_fn_while_begin(struct pw_fn_builder *b, unsigned int n,
		      const pw_val *init, pw_val *vars, uint32_t trips);
int pw_fn_while_test(struct pw_fn_builder *b, pw_val pred);
int pw_fn_while_end(struct pw_fn_builder *b, const pw_val *next);
/* Mark @x as the next result (in call order). */
int pw_fn_result(struct pw_fn_builder *b, pw_val x);
/*
 * A compiled function from a StableHLO module in MLIR text, as JAX's
 * jax.jit(f).lower(...).as_text() prints it: function @entry (NULL:
 * "main"), its parameters and results in order, func.call inlined; the
 * function is named after the module (@jit_f), else after @entry
 * (docs/stablehlo.md lists the ops, types and attributes supported).
 * -EINVAL with "LINE:COL: what" for text that is not a valid module,
 * -EOPNOTSUPP naming the op, type or attribute not supported yet, -E2BIG
 * for a function larger than a device program. @text needs no NUL.
 */
int pw_fn_from_stablehlo(const char *text, size_t len, const char *entry,
			 struct pw_fn **fn);
/* The same from a file; messages start with its path. */
int pw_fn_from_stablehlo_file(const char *path, const char *entry,
			      struct pw_fn **fn);
/*
 * Finish: the function (refcount 1) or -errno with the builder's first
 * message in pw_last_error(). The builder is freed either way.
 */
int pw_fn_build(struct pw_fn_builder *b, struct pw_fn **fn);
/* Drop a reference; calls and programs using the function hold theirs. */
void pw_fn_put(struct pw_fn *fn);
const char *pw_fn_name(const struct pw_fn *fn);
unsigned int pw_fn_num_params(const struct pw_fn *fn);
unsigned int pw_fn_num_results(const struct pw_fn *fn);

/*
 * Sharded buffers: one logical buffer of n shards, one per virtual device
 * of a slice, each of the same dtype and shard shape. The logical value
 * is the shards concatenated along dimension 0, in virtual device order.
 * Handles are references: pw_buffer_put() drops one; the storage goes
 * when the last reference and the last computation using it are gone.
 */

/*
 * A buffer on @slice from host memory: @data holds every shard, one after
 * another (n * shard bytes); with @replicate it holds one shard that every
 * device gets. The data is copied before the call returns. A shard is at
 * most a device's HBM (-E2BIG). Connected to pathwaysd, a shard of 64 KiB
 * or more goes straight from this memory into the device buffer over the
 * data plane (RDMA or TCP, as the worker runs it; PATHWAYS_DATA=off at
 * connect keeps every shard in control-plane messages), never
 * through the controller; smaller ones, and every shard when the client
 * has no data plane (with no address: the in-process worker), go in
 * control-plane messages, at most 16 MiB a shard (-EINVAL above: make
 * larger values on the devices). pw_buffer_to_host() reads the same ways.
 */
int pw_buffer_from_host(struct pw_client *client, struct pw_slice *slice,
			enum pwtpu_dtype dtype, unsigned int rank,
			const uint32_t *shard_shape, const void *data,
			bool replicate, struct pw_buffer **buf);
/* Wait for the value: 0, or the error of the computation that made it. */
int pw_buffer_wait(struct pw_buffer *buf);
/* Wait, then copy all shards (n * shard bytes) into @data of @size. */
int pw_buffer_to_host(struct pw_buffer *buf, void *data, size_t size);
void pw_buffer_put(struct pw_buffer *buf);
unsigned int pw_buffer_num_shards(const struct pw_buffer *buf);
size_t pw_buffer_shard_bytes(const struct pw_buffer *buf);

/*
 * SPMD call: @fn runs on every device of @slice, shard v of each input on
 * virtual device v; @out receives one new buffer per result. Inputs on
 * another slice are moved (resharded) first. Results are futures: at
 * most 1024 runs of a client may be in flight or done and not yet
 * waited for while their buffers live (-EBUSY naming the bound).
 * Returns at once; outside a
 * program block the call is a one-node program (OpByOp).
 */
int pw_call(struct pw_client *client, struct pw_fn *fn,
	    struct pw_slice *slice, struct pw_buffer *const *in,
	    unsigned int nin, struct pw_buffer **out, unsigned int nout);

/*
 * Programs. Between pw_program_begin() and pw_program_end(), pw_call()
 * records a node instead of running, and its outputs are traced values
 * (they cannot be fetched; put them after the block). Inputs are program
 * arguments (pw_program_arg) or buffers captured by reference.
 */
int pw_program_begin(struct pw_client *client);
/* A traced argument: argument i of pw_program_run(), on @slice. */
int pw_program_arg(struct pw_client *client, struct pw_slice *slice,
		   enum pwtpu_dtype dtype, unsigned int rank,
		   const uint32_t *shard_shape, struct pw_buffer **arg);
/* End the block; @results (traced values) become the program's results. */
int pw_program_end(struct pw_client *client, struct pw_buffer *const *results,
		   unsigned int nresults, struct pw_program **prog);
/*
 * Results may repeat a value, or be arguments (pw_program_arg() values,
 * given back as the buffers bound to them).
 * The controller keeps a registered program until the client leaves:
 * at most 4096 programs and 4096 functions per client (-ENOSPC naming
 * the bound); pw_program_free() frees the client's copy only.
 */
void pw_program_free(struct pw_program *prog);

enum pw_node_kind {
	PW_NODE_ARG,
	PW_NODE_COMPUTE,
	PW_NODE_RESULT,
};

/* Nodes: one per argument, one per sharded computation, one for results. */
unsigned int pw_program_num_nodes(const struct pw_program *prog);
enum pw_node_kind pw_program_node_kind(const struct pw_program *prog,
				       unsigned int node);
/* Write the representation, one node per line, to @buf; like snprintf. */
int pw_program_format(const struct pw_program *prog, char *buf, size_t size);

enum pw_dispatch {
	PW_DISPATCH_PARALLEL,	/* one RUN: every worker's part sent at once */
	PW_DISPATCH_SEQUENTIAL,	/* a RUN per node, node i+1 after node i ended */
};

/* Run with @args bound in order; @results receives new buffers. */
int pw_program_run(struct pw_program *prog, enum pw_dispatch dispatch,
		   struct pw_buffer *const *args, unsigned int nargs,
		   struct pw_buffer **results, unsigned int nresults);

/*
 * Scheduling, by the controller for every client of every island. FIFO:
 * runs in arrival order. SHARE: proportional share between clients by
 * their weights (stride scheduling over computations). @window: runs in
 * flight per island (0 keeps the current one). These are the operator's:
 * pathwaysd refuses them with -EPERM (its configuration sets them); the
 * controller a process runs for itself takes them from that process.
 */
enum pw_sched_policy {
	PW_SCHED_FIFO,
	PW_SCHED_SHARE,
};

int pw_set_sched_policy(struct pw_client *client, enum pw_sched_policy policy,
			unsigned int window);
int pw_set_weight(struct pw_client *client, unsigned int weight);

/**
 * struct pw_client_stats - what a client's work did
 * @submitted: computations (one per sharded call) sent to the scheduler.
 * @completed: computations whose every shard finished.
 * @failed: of those, computations with an error.
 * @cancelled: computations of runs that ended cancelled (-ECANCELED).
 * @hbm_bytes: device memory its live buffers hold now.
 */
struct pw_client_stats {
	uint64_t submitted;
	uint64_t completed;
	uint64_t failed;
	uint64_t cancelled;
	uint64_t hbm_bytes;
};

void pw_client_stats(struct pw_client *client, struct pw_client_stats *st);

#endif /* PATHWAYS_PATHWAYS_H */
