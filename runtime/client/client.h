/* SPDX-License-Identifier: GPL-2.0 */
/*
 * client.h - pathways.h's objects (runtime/client/): a client of a
 * controller, its virtual device sets and slices, its sharded buffers
 * (futures of runs) and traced values. The controller places, lowers,
 * schedules and dispatches; the workers hold the shards. A client with
 * no address talks to the controller its process runs
 * (runtime/dcn/local.c), exactly as to pathwaysd.
 */
#ifndef PW_RUNTIME_CLIENT_H
#define PW_RUNTIME_CLIENT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <pathways/pathways.h>

#include "../dcn/rclient.h"
#include "../fn/fn.h"

/* A run whose results are buffers: waited for once, by whichever asks. */
struct pw_crun {
	int refs;
	uint32_t ticket;
	bool done;
	int err;
};

/**
 * struct pw_buffer - a sharded buffer in the workers' stores, or a traced
 *	value of a program being traced
 * @refs: the client's handles plus one per program capturing it.
 * @owner: the client it belongs to; freed at its disconnect.
 * @sig: dtype and shape of every shard.
 * @shard_bytes: bytes of one shard.
 * @nshards: shards, one per virtual device of its slice.
 * @id: the controller's buffer id (0 for a traced value).
 * @slice: where its shards are (a traced argument's: where it will be).
 * @run: the run making it, until waited for; NULL once known made.
 * @prog: traced value: the program it was traced in (only whether it is
 *	NULL may be used: the program may be gone), else NULL.
 * @prog_serial: traced value: that program's serial, which never repeats.
 * @node: traced value: node producing it (argument or computation).
 * @output: traced value: which output of @node.
 */
struct pw_buffer {
	atomic_int refs;
	struct pw_client *owner;
	struct pw_sig sig;
	uint64_t shard_bytes;
	unsigned int nshards;
	uint32_t id;
	struct pw_slice *slice;
	struct pw_crun *run;
	struct pw_program *prog;
	uint64_t prog_serial;
	int node;
	int output;
};

/**
 * struct pw_vset - a client's virtual device set
 * @client: its client.
 */
struct pw_vset {
	struct pw_client *client;
};

/**
 * struct pw_slice - a slice the controller placed for a client
 * @rid: the controller's slice.
 * @host: the host whose island holds it.
 * @n: virtual devices.
 * @devs: the island device of each virtual device.
 * @failed_dev: 1 + the device this client took out of service under the
 *	slice (the slice stays failed); 0 if none.
 */
struct pw_slice {
	uint32_t rid;
	int host;
	unsigned int n;
	uint8_t devs[PW_RM_MAX_DEVICES];
	int failed_dev;
};

/* A one-node program of pw_call(), kept for its function and slices. */
struct pw_ccall {
	struct pw_fn *fn;
	struct pw_slice *slice;
	struct pw_slice *in[PWTPU_MAX_BUFS];
	uint32_t prog;
};

/* A function registered with the controller. */
struct pw_cfn {
	struct pw_fn *fn;
	uint32_t id;
};

/**
 * struct pw_client - a connected client
 * @r: its connection to the controller.
 * @name: for messages.
 * @lock: (recursive) one call at a time: guards everything here and @r.
 * @programs: programs it traced (pw_program's own links).
 * @trace: program being traced, or NULL.
 * @vsets: virtual device sets it made (@nvsets).
 * @slices: slices of its sets (@nslices).
 * @bufs: live buffers and traced values (@nbufs), freed at disconnect.
 * @fns: functions it registered (@nfns), holding a reference each.
 * @calls: one-node programs of pw_call() (@ncalls).
 * @closing: disconnecting: take no new work.
 * @hbm_bytes: bytes of the shards of its live buffers (atomic: the
 *	statistics are read without @lock, which a wait may hold long).
 */
struct pw_client {
	struct pw_remote *r;
	char name[32];
	pthread_mutex_t lock;
	struct pw_program *programs;
	struct pw_program *trace;
	struct pw_vset **vsets;
	unsigned int nvsets;
	struct pw_slice **slices;
	unsigned int nslices;
	struct pw_buffer **bufs;
	unsigned int nbufs;
	struct pw_cfn *fns;
	unsigned int nfns;
	struct pw_ccall *calls;
	unsigned int ncalls;
	atomic_bool closing;
	atomic_uint_fast64_t hbm_bytes;
};

void pw_client_lock(struct pw_client *c);
void pw_client_unlock(struct pw_client *c);

/* runtime/client/buffer.c */
/*
 * A buffer of @sig on @slice: the controller's @id, made by @run (NULL:
 * made already), or a traced value when @id is 0.
 */
int pw_buffer_new(struct pw_client *c, const struct pw_sig *sig,
		  struct pw_slice *slice, uint32_t id, struct pw_crun *run,
		  struct pw_buffer **out);
struct pw_buffer *pw_buffer_get(struct pw_buffer *buf);
/* Drop a client's reference on @run; the last one forgets it unwaited. */
void pw_crun_put(struct pw_client *c, struct pw_crun *run);
/* Free every buffer @c still has (disconnect: the workers freed theirs). */
void pw_buffers_collect(struct pw_client *c);

/* runtime/client/connect.c: -ENODEV naming the device @s lost. */
int pw_slice_check(const struct pw_slice *s);

/* runtime/client/call.c */
/* The controller's id of @fn for @c, registering it once. */
int pw_client_fn_id(struct pw_client *c, struct pw_fn *fn, uint32_t *id);
/* -E2BIG when a result shard of @fn cannot fit a device of @slice. */
int pw_check_results(struct pw_client *c, const struct pw_fn *fn,
		     const struct pw_slice *slice);
/* One sharded computation now: a one-node program's RUN (OpByOp). */
int pw_client_call(struct pw_client *c, struct pw_fn *fn,
		   struct pw_slice *slice, struct pw_buffer *const *in,
		   unsigned int nin, struct pw_buffer **out);
/* Run program @prog on @args; results (futures) on @slices of @sigs. */
int pw_client_run(struct pw_client *c, uint32_t prog, const uint32_t *args,
		  unsigned int nargs, struct pw_slice *const *slices,
		  const struct pw_sig *sigs, unsigned int nres,
		  struct pw_buffer **out);

#endif /* PW_RUNTIME_CLIENT_H */
