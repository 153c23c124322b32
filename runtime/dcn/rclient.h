/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rclient.h - the wire-level client of a controller (runtime/dcn/
 * rclient.c, rprog.c, rc_beat.c; docs/dcn.md). Internal: pathways.h's
 * client (runtime/client/) is built on it, and tests and benchmarks of
 * the controller use it directly; users use pathways.h.
 *
 * The client talks to the controller only. It ships compiled functions
 * (built with pathways.h's builder), asks for slices, makes sharded
 * buffers from host memory, describes a program once (arguments,
 * computations on slices, results), and then runs it with one small
 * message per run: the controller sends each worker its part in one
 * PLAN; edges between islands go over the data plane (RDMA, or TCP where
 * no RDMA device exists). Runs are asynchronous: a run returns a ticket
 * and its result buffer ids at once; pw_remote_wait() waits for it.
 * Functions return 0 (or a value >= 0) or a negative errno, with
 * pw_last_error() naming what was wrong.
 */
#ifndef PW_RUNTIME_DCN_RCLIENT_H
#define PW_RUNTIME_DCN_RCLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pathways/pathways.h>

struct pw_remote;
struct pw_rprog;

/* How long a remote call waits for its answer before -ETIMEDOUT. */
#define PW_REMOTE_TIMEOUT_MS	30000

/*
 * Connect to the controller at @controller ("a.b.c.d:port") over kernel
 * UDP. -ETIMEDOUT when it does not answer, -EINVAL for a bad address.
 * NULL: pathwaysd's controller and worker run inside this process (the
 * same code, joined without sockets; one island, this host's), started
 * by the first such client and stopped with the last; -EBUSY when
 * another process drives the island. Their log goes nowhere unless the
 * environment sets PATHWAYS_LOG (then to standard error).
 */
int pw_remote_connect(const char *controller, const char *name,
		      struct pw_remote **r);
/* Close (BYE): the controller and workers free all the client had. */
void pw_remote_close(struct pw_remote *r);
/* Devices of host @host's island (0: no such host up at connect time). */
unsigned int pw_remote_host_devices(const struct pw_remote *r,
				    unsigned int host);

/*
 * Register @fn with the controller: *@fn_id names it in programs. The
 * controller ships it to each worker that runs it.
 */
int pw_remote_function(struct pw_remote *r, const struct pw_fn *fn,
		       uint32_t *fn_id);

/*
 * A slice of @n devices with mesh shape @shape ("2x2"; NULL: any @n,
 * neighbours preferred), placed by the controller's resource managers on
 * the least loaded island that has them: *@slice names it in programs
 * and buffers. -ENOSPC (or -E2BIG) when no island that is up can.
 */
int pw_remote_slice(struct pw_remote *r, unsigned int n, const char *shape,
		    uint32_t *slice);
/*
 * The same, placed on the island of this client's slice @near if @n of
 * its devices are free, else as pw_remote_slice() places it (a
 * pipeline's stages, each asked near the one before, fill an island
 * before crossing to another). -EINVAL when @near is no slice of this
 * client, or a group.
 */
int pw_remote_slice_near(struct pw_remote *r, unsigned int n,
			 const char *shape, uint32_t near, uint32_t *slice);
/*
 * A group of @members (2..PW_WIRE_MAX_HOSTS) slices of @n devices
 * shaped @shape, each on an island of its own, least loaded first, all
 * or none (-ENODEV and friends as for a slice when the islands that are
 * up cannot hold them). *@group names it where a slice goes: in
 * programs (a node on it is a node on every member, member m's values
 * going to member m: a computation over 512 islands is one node, its
 * value one buffer id on every member's host) and buffers (made with
 * the same id on every member; read from the member on a given host;
 * freed on all). Collectives run within each member's island. Freeing
 * the group frees its members.
 */
int pw_remote_slice_group(struct pw_remote *r, unsigned int members,
			  unsigned int n, const char *shape, uint32_t *group);
/* Member @m of @group (a slice id), or 0 when there is none. */
uint32_t pw_remote_group_member(const struct pw_remote *r, uint32_t group,
				unsigned int m);
/*
 * How the islands schedule runs: at most @window runs in flight per
 * island (0: unchanged), the others released FIFO or by proportional
 * share; and the weight
 * (1..1000) of the clients called @name (NULL: this client). These are
 * the operator's: pathwaysd refuses them with -EPERM (its configuration
 * sets them); a controller inside this process (NULL address) takes them.
 */
int pw_remote_set_policy(struct pw_remote *r, enum pw_sched_policy policy,
			 unsigned int window);
int pw_remote_set_weight(struct pw_remote *r, const char *name,
			 unsigned int weight);
/*
 * Take device @dev of host @host's island out of service (or back): the
 * controller places nothing on it, runs that use it fail -ENODEV, and
 * its worker fails the commands on it not yet started with -ENODEV.
 * -EALREADY when it is so already. The operator's, like the policy.
 */
int pw_remote_set_device(struct pw_remote *r, unsigned int host,
			 unsigned int dev, bool in_service);
/*
 * The host whose island holds @slice (as the controller answered), or
 * -ENOENT (a group, on many: -EINVAL).
 */
int pw_remote_slice_host(const struct pw_remote *r, uint32_t slice);
/*
 * The island device of @slice's virtual device @v; -EINVAL past its size
 * (and for a group: ask its members).
 */
int pw_remote_slice_device(const struct pw_remote *r, uint32_t slice,
			   unsigned int v);
/* HBM of each device of @slice's island (0: no such slice). */
uint64_t pw_remote_slice_hbm(const struct pw_remote *r, uint32_t slice);
/*
 * A buffer sharded over @slice: shard v (of @shard_shape) on its virtual
 * device v, from @data holding every shard in order (or, with
 * @replicate, one shard every device gets). Read it back whole with
 * pw_remote_read(), shards in order. On a group, every member gets the
 * same @data under the one id.
 */
int pw_remote_buffer_sharded(struct pw_remote *r, uint32_t slice,
			     enum pwtpu_dtype dtype, unsigned int rank,
			     const uint32_t *shard_shape, const void *data,
			     bool replicate, uint32_t *id);

/*
 * A buffer of @dtype and @shape[@rank] on device @dev of host @host, with
 * @data (all of its bytes): *@id names it. Waits until the worker has it.
 */
int pw_remote_buffer(struct pw_remote *r, unsigned int host,
		     unsigned int dev, enum pwtpu_dtype dtype,
		     unsigned int rank, const uint32_t *shape,
		     const void *data, uint32_t *id);
/*
 * Copy buffer @id (@size bytes, all of it) into @data: @host is not used
 * unless the buffer is on a group, where it chooses the member's copy.
 */
int pw_remote_read(struct pw_remote *r, unsigned int host, uint32_t id,
		   void *data, size_t size);
/* Free buffer @id of host @host (no answer is waited for). */
int pw_remote_free(struct pw_remote *r, unsigned int host, uint32_t id);

/*
 * Programs: values are ints >= 0. An argument is placed where its
 * buffers will be; a call runs @fn (registered as @fn_id) on (@host,
 * @dev) and gives one value per result in @out. Inputs made elsewhere
 * are moved: over the island's devices, or between islands over the
 * data plane. Calls fail with -EINVAL when shapes do not match.
 */
struct pw_rprog *pw_rprog_begin(void);
int pw_rprog_arg(struct pw_rprog *p, unsigned int host, unsigned int dev,
		 enum pwtpu_dtype dtype, unsigned int rank,
		 const uint32_t *shape);
int pw_rprog_call(struct pw_rprog *p, const struct pw_fn *fn, uint32_t fn_id,
		  unsigned int host, unsigned int dev, const int *in,
		  unsigned int nin, int *out);
/*
 * The same on a slice (pw_remote_slice()): an argument of @nshards shards
 * of @shard_shape, and an SPMD call running @fn on every device of the
 * slice, shard v of each input on virtual device v. Inputs on another
 * slice (or device) are moved shard by shard, so they must have as many
 * shards; collectives run over the slice's devices, gang-scheduled by
 * the island's worker in the controller's order.
 */
int pw_rprog_arg_sharded(struct pw_rprog *p, uint32_t slice,
			 unsigned int nshards, enum pwtpu_dtype dtype,
			 unsigned int rank, const uint32_t *shard_shape);
int pw_rprog_call_sharded(struct pw_rprog *p, const struct pw_fn *fn,
			  uint32_t fn_id, uint32_t slice, unsigned int nshards,
			  const int *in, unsigned int nin, int *out);
/* The program's results, in order (each a computed value, once). */
int pw_rprog_results(struct pw_rprog *p, const int *vals, unsigned int n);
/* Where value @v lives, for a value on one (host, device); else -EINVAL. */
int pw_rprog_place(const struct pw_rprog *p, int v, unsigned int *host,
		   unsigned int *dev);
void pw_rprog_free(struct pw_rprog *p);

/* Register @p with the controller (once): *@prog_id names it. */
int pw_remote_program(struct pw_remote *r, const struct pw_rprog *p,
		      uint32_t *prog_id);
/*
 * Run program @prog with argument buffers @args[@nargs]; @results[@nres]
 * receives the ids of new buffers (where pw_rprog_place() says) that
 * hold the results once the run is done. Returns at once with *@ticket.
 */
int pw_remote_run_async(struct pw_remote *r, uint32_t prog,
			const uint32_t *args, unsigned int nargs,
			uint32_t *results, unsigned int nres,
			uint32_t *ticket);
/*
 * Runs started from now on must be done within @timeout_ms of reaching
 * the controller, or end with -ETIMEDOUT: the controller answers at the
 * deadline and cancels the run's work on every worker. 0 (the default):
 * no deadline.
 */
void pw_remote_set_run_timeout(struct pw_remote *r, unsigned int timeout_ms);
/*
 * A wait for a run lasts as long as the run, and gives up (-ETIMEDOUT,
 * nothing cancelled) only once the controller has been silent for
 * @timeout_ms (0: PW_REMOTE_TIMEOUT_MS, the default); the wait's
 * heartbeats keep a live controller answering.
 */
void pw_remote_set_answer_timeout(struct pw_remote *r,
				  unsigned int timeout_ms);
/*
 * Nobody will wait for run @ticket: its DONE, when it comes, frees its
 * slot (of PW_RC_MAX_RUNS in flight) instead of being kept.
 */
void pw_remote_forget(struct pw_remote *r, uint32_t ticket);
/*
 * The computations (one per call of a program) of this client's runs:
 * submitted, and completed (failed among them) or cancelled as their
 * runs ended, whether waited for or not. @hbm_bytes is not filled.
 */
void pw_remote_stats(struct pw_remote *r, struct pw_client_stats *st);
/*
 * The client's data plane for host data: "rdma" or "tcp" once a shard of
 * 64 KiB or more has gone to a worker that has one (of its kind), else
 * "none" (shards go in control-plane parts; PATHWAYS_DATA=off at connect
 * keeps it so).
 */
const char *pw_remote_data_kind(const struct pw_remote *r);
/* Wait for run @ticket: 0, or the errno the run failed with. */
int pw_remote_wait(struct pw_remote *r, uint32_t ticket);
/* Both. */
int pw_remote_run(struct pw_remote *r, uint32_t prog, const uint32_t *args,
		  unsigned int nargs, uint32_t *results, unsigned int nres);

#endif /* PW_RUNTIME_DCN_RCLIENT_H */
