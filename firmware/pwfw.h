/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw.h - the emulated TPU device ("firmware"): what its hosts call.
 *
 * The same sources run inside pwtpu.ko and in a user-space library; they
 * reach the world only through pwfw_platform.h. Errors are negative Linux
 * errno values (PWFW_E*), so a host can return them unchanged.
 */
#ifndef PWFW_H
#define PWFW_H

#include "pwfw_types.h"
#include "../include/uapi/pwtpu.h"

#define PWFW_ENOMEM	12
#define PWFW_EINVAL	22
#define PWFW_ERANGE	34
#define PWFW_ELOOP	40
#define PWFW_ETIME	62
#define PWFW_ETIMEDOUT	110
#define PWFW_ECANCELED	125

/**
 * struct pwfw_spec - one device kind, the input of the timing model
 * @array_dim: the systolic array is array_dim x array_dim (8..1024).
 * @clock_mhz: core clock.
 * @hbm_mbps: HBM bandwidth, MB/s.
 * @host_mbps: host link bandwidth, MB/s.
 * @ici_mbps: bandwidth of one mesh link, MB/s.
 * @vector_lanes: elements per cycle of the vector unit.
 * @host_latency_ns: fixed cost of one host-link transfer.
 * @insn_overhead_ns: fixed cost of issuing one instruction.
 * @ici_latency_ns: fixed cost of one hop over a mesh link.
 */
struct pwfw_spec {
	u32 array_dim;
	u32 clock_mhz;
	u32 hbm_mbps;
	u32 host_mbps;
	u32 ici_mbps;
	u32 vector_lanes;
	u32 host_latency_ns;
	u32 insn_overhead_ns;
	u32 ici_latency_ns;
};

void pwfw_spec_default(struct pwfw_spec *spec);
/*
 * Parse "key=value,key=value" (keys are the field names above, values
 * decimal) over the defaults. Returns 0, or -PWFW_EINVAL with a message
 * naming the bad key or value in @err.
 */
int pwfw_spec_parse(struct pwfw_spec *spec, const char *str,
		    char *err, u32 errlen);
/* Writes the canonical "key=value,..." form; returns its length. */
u32 pwfw_spec_format(const struct pwfw_spec *spec, char *buf, u32 len);

/**
 * struct pwfw_mesh - island topology
 * @ndims: 1..PWTPU_MESH_MAX_DIMS.
 * @shape: extent per dimension; unused entries 0.
 * @torus: links wrap around in every dimension.
 */
struct pwfw_mesh {
	u32 ndims;
	u32 shape[PWTPU_MESH_MAX_DIMS];
	bool torus;
};

/*
 * Parse "8", "2x4", "2x2x2", "4x4t" ('t': torus). The product must be
 * @ndevices. Returns 0 or -PWFW_EINVAL with a message in @err.
 */
int pwfw_mesh_parse(struct pwfw_mesh *mesh, const char *str, u32 ndevices,
		    char *err, u32 errlen);
/* Device @index's coordinates; the last dimension varies fastest. */
void pwfw_mesh_coords(const struct pwfw_mesh *mesh, u32 index,
		      u32 coords[PWTPU_MESH_MAX_DIMS]);
u32 pwfw_mesh_format(const struct pwfw_mesh *mesh, char *buf, u32 len);

/**
 * struct pwfw_prog - a verified program
 * @tensors: descriptors, inside the image.
 * @insns: instructions, inside the image.
 * @ntensors: count of @tensors.
 * @ninsns: count of @insns.
 * @nbufs: buffers to bind at exec.
 * @array_dim: systolic array dimension of the spec the program was
 *	verified for (struct pwfw_spec.array_dim); MATMUL sums K in tiles
 *	of this size (docs/firmware-ops.md). The verifier sets it.
 * @buf_bytes: bytes each binding must have at least.
 * @ncoll: collective instructions in the program (counted once each,
 *	loops not unrolled); an EXEC of a program with any needs a gang.
 * @coll_scratch: bytes of scratch the program's collectives need at most
 *	(twice the largest REDUCE_SCATTER result; 0 without one), for the
 *	host to provide in struct pwfw_exec_env.
 * @dyn_insns: instructions one execution runs, loops unrolled (bounded
 *	loops at all their trips: a bound).
 * @modeled_ns: modelled duration of one execution (bounded loops at all
 *	their trips: a bound; pwfw_exec() reports what one ran in struct
 *	pwfw_exec_env.model_ns); a collective counts only its issue overhead
 *	here, its link time is reported by pwfw_exec() in struct
 *	pwfw_exec_env.link_ns.
 * @work: real work of one execution (pwfw_work_insn()), loops unrolled.
 * @nbounded: bounded loops (LOOP of mode PWTPU_LOOP_BOUNDED) in the
 *	program, counted once each.
 *
 * The host keeps the image alive and unchanged while the program exists.
 */
struct pwfw_prog {
	const struct pwtpu_tensor *tensors;
	const struct pwtpu_insn *insns;
	u32 ntensors;
	u32 ninsns;
	u32 nbufs;
	u32 array_dim;
	u32 ncoll;
	u64 coll_scratch;
	u64 buf_bytes[PWTPU_MAX_BUFS];
	u64 dyn_insns;
	u64 modeled_ns;
	u64 work;
	u32 nbounded;
};

/**
 * struct pwfw_verr - a verifier verdict
 * @code: enum pwtpu_verr.
 * @insn: offending instruction, or PWTPU_VERR_NO_INSN.
 * @msg: what rule was broken where, NUL ended.
 */
struct pwfw_verr {
	s32 code;
	u32 insn;
	char msg[160];
};

/* The largest image a device takes: every table full (-E2BIG past it). */
#define PWFW_MAX_PROG_SIZE						\
	(sizeof(struct pwtpu_prog_header) +				\
	 PWTPU_MAX_TENSORS * sizeof(struct pwtpu_tensor) +		\
	 PWTPU_MAX_INSNS * sizeof(struct pwtpu_insn))

/*
 * Check every rule of the program format; on success fill @prog. Returns
 * 0, or -PWFW_EINVAL with @err filled. Nothing unverified may be executed.
 */
int pwfw_verify(const void *image, u64 size, const struct pwfw_spec *spec,
		struct pwfw_prog *prog, struct pwfw_verr *err);

/**
 * struct pwfw_buf - memory bound to one binding at exec
 * @base: first byte.
 * @size: bytes.
 */
struct pwfw_buf {
	void *base;
	u64 size;
};

struct pwfw_island;

/**
 * struct pwfw_exec_env - what one execution reaches beyond its buffers
 * @isl: the device's island, for collectives; NULL: none can run.
 * @dev: this device's index in the island.
 * @gang: the execution's gang, checked by pwfw_gang_check(), or NULL.
 * @gang_scope: the host's name for the gang's capability (the driver's
 *	gang file serial): members meet only within one scope, whatever
 *	gang_id they give.
 * @scratch: NULL, or @scratch_bytes (at least the program's
 *	coll_scratch) the collectives use in turn, so that the host can
 *	allocate and account them when the command is submitted; with
 *	NULL each collective allocates its own with pwfw_plat_zalloc().
 * @scratch_bytes: of @scratch.
 * @compute: false in skip timing mode: collectives still meet their
 *	peers and charge the links, but no arithmetic or data moves (and a
 *	WHILE never leaves its loop, whose trips then all run: no error).
 * @spec: NULL, or the device's spec: with it, an execution of a program
 *	with bounded loops adds up the modelled time of the instructions it
 *	runs into @model_ns.
 * @link_ns: out: modelled time the execution's collectives spent on
 *	links, beyond the program's static modeled_ns.
 * @model_ns: out: modelled time of the execution, links aside: the
 *	program's modeled_ns, or with @spec and bounded loops the sum of
 *	pwfw_model_insn_ns() over the instructions that ran (at most the
 *	program's modeled_ns).
 * @fault_insn: out: with -PWFW_ELOOP, the bounded LOOP whose trips all
 *	ended without a WHILE leaving it; else PWTPU_VERR_NO_INSN.
 * @stop: NULL, or asked at safe points (between pieces of an
 *	instruction's work, between instructions, every 10 ms of a DELAY):
 *	0 to go on, or a -PWFW_E* that ends the execution with it (its owner
 *	died: -PWFW_ECANCELED; a watchdog: -PWFW_ETIME). Buffers then hold
 *	whatever was written so far. Collectives are not stopped inside:
 *	their waits are bounded by the gang timeout.
 * @owner: the host's, for @stop.
 * @stopped: out: what @stop said, or 0.
 */
struct pwfw_exec_env {
	struct pwfw_island *isl;
	u32 dev;
	const struct pwtpu_gang *gang;
	u64 gang_scope;
	void *scratch;
	u64 scratch_bytes;
	bool compute;
	const struct pwfw_spec *spec;
	u64 link_ns;
	u64 model_ns;
	u32 fault_insn;
	int (*stop)(struct pwfw_exec_env *env);
	void *owner;
	int stopped;
};

/*
 * Run a verified program over @nbufs bound buffers. Returns 0,
 * -PWFW_EINVAL when @nbufs is not the program's, or -PWFW_ERANGE when a
 * buffer is smaller than the program needs (nothing is executed then);
 * -PWFW_EINVAL when the program has collectives and @env has no gang or
 * the gang's group does not fit their shapes, or the peers disagree;
 * -PWFW_ETIMEDOUT when the peers of a collective do not all arrive in
 * the island's gang timeout; -PWFW_ENOMEM when a collective's scratch
 * cannot be allocated; -PWFW_ELOOP when a bounded loop's trips all end
 * without a WHILE leaving it (@env->fault_insn says which loop; the
 * execution stops there). With @env->compute false nothing but the
 * collectives' meetings and link charges runs. Float work runs inside
 * bounded pwfw_plat_fpu_begin/end sections with pwfw_plat_yield()
 * between them.
 */
int pwfw_exec(const struct pwfw_prog *prog, const struct pwfw_buf *bufs,
	      u32 nbufs, struct pwfw_exec_env *env);

/*
 * Check a gang descriptor taken from user space for device @dev of @isl:
 * 0, or -PWFW_EINVAL on any malformed field (gang_id 0, flags set, bad
 * counts, devices out of the island or repeated, devices[rank] != @dev,
 * permute targets outside the member's group or shared by two members,
 * entries past ndevices not zero). gang_fd is the host's to resolve into
 * pwfw_exec_env.gang_scope.
 */
int pwfw_gang_check(const struct pwfw_island *isl, u32 dev,
		    const struct pwtpu_gang *gang);

/* Timing model; see docs/firmware.md. */
u64 pwfw_model_insn_ns(const struct pwfw_spec *spec,
		       const struct pwfw_prog *prog,
		       const struct pwtpu_insn *insn);
u64 pwfw_model_copy_ns(const struct pwfw_spec *spec, u64 bytes);
/*
 * The real work of one run of @insn (PWTPU_MAX_WORK's units): what bounds
 * the device's CPU time, which the model does not (a matmul that models
 * at microseconds may take seconds to emulate).
 */
u64 pwfw_work_insn(const struct pwfw_prog *prog,
		   const struct pwtpu_insn *insn);
/*
 * Units of real work per element of an elementwise @op on @dtype (1 for
 * the cheap ones; the math functions cost more): pwfw_work_insn() and
 * the interpreter's pieces both use it.
 */
u32 pwfw_work_elem(u32 op, u32 dtype);

/* Bytes per element of a valid dtype, 0 for an unknown one. */
u32 pwfw_dtype_size(u32 dtype);
/* Elements of a tensor whose shape the verifier accepted. */
u64 pwfw_tensor_elems(const struct pwtpu_tensor *t);

#endif /* PWFW_H */
