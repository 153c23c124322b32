/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core.h - libpathways' internal objects: the embedded controller, its
 * per-device executors, the island scheduler, sharded buffers and the
 * device work they are made by. docs/runtime.md tells the whole story;
 * this header only says who owns what and which lock guards it.
 */
#ifndef PW_RUNTIME_CORE_H
#define PW_RUNTIME_CORE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <liburing.h>
#include <pathways/pathways.h>

#include "../fn/fn.h"

struct pw_ctrl;
struct pw_batch;

/**
 * struct pw_shard - one shard of a sharded buffer
 * @dev: island device holding it.
 * @bo: buffer object in the worker's file of @dev (0 for traced values).
 * @mmap_offset: where the worker's file maps @bo.
 * @pending: device commands still to write it; final at 0.
 * @err: first error of a command that wrote it or of what it was made
 *	from; 0 when good.
 */
struct pw_shard {
	unsigned int dev;
	uint32_t bo;
	uint64_t mmap_offset;
	atomic_int pending;
	atomic_int err;
};

/*
 * What a buffer of a client of a remote controller does instead
 * (runtime/client/remote.c): its shards live in workers' object stores.
 */
struct pw_buffer_ops {
	int (*wait)(struct pw_buffer *buf);
	int (*to_host)(struct pw_buffer *buf, void *data, size_t size);
	void (*release)(struct pw_buffer *buf);
};

/**
 * struct pw_buffer - a sharded buffer (object store entry) or a traced value
 * @refs: the client's handles plus one per command and program using it.
 * @ctrl: the controller whose devices hold it.
 * @owner: the client it belongs to; collected at its disconnect.
 * @sig: dtype and shape of every shard.
 * @shard_bytes: bytes of one shard.
 * @nshards: shards, one per virtual device of the slice it was made on.
 * @pending_shards: shards not yet final; the value is ready at 0.
 * @prog: traced value: the program it was traced in (only whether it is
 *	NULL may be used: the program may be gone), else NULL.
 * @prog_serial: traced value: that program's serial, which never repeats.
 * @node: traced value: node producing it (argument or computation).
 * @output: traced value: which output of @node.
 * @prev: link in @owner's list of buffers (guarded by its lock).
 * @next: see @prev.
 * @rops: a remote client's buffer: how it waits, reads and goes; NULL
 *	for the embedded runtime's.
 * @rpriv: the remote client's state of it.
 * @shards: @nshards shards (none for a remote client's).
 */
struct pw_buffer {
	atomic_int refs;
	struct pw_ctrl *ctrl;
	struct pw_client *owner;
	struct pw_sig sig;
	uint64_t shard_bytes;
	unsigned int nshards;
	atomic_int pending_shards;
	struct pw_program *prog;
	uint64_t prog_serial;
	int node;
	int output;
	struct pw_buffer *prev;
	struct pw_buffer *next;
	const struct pw_buffer_ops *rops;
	void *rpriv;
	struct pw_shard shards[];
};

/* A shard a command reads or writes; the command holds a reference. */
struct pw_ref {
	struct pw_buffer *buf;
	unsigned int shard;
};

/* One sharded computation: all its commands, for statistics. */
struct pw_comp {
	atomic_int left;
	atomic_bool failed;
};

#define PW_ITEM_MAX_REFS	PWTPU_MAX_BUFS

/**
 * struct pw_item - one device command and what it depends on
 * @next: link in a batch's per-device list, then in the executor's.
 * @dev: device whose queue runs it.
 * @op: PWTPU_CMD_*; 0 for a command that only carries an error.
 * @cmd: the command as submitted (its pointers point into this item).
 * @bos: EXEC binding handles.
 * @gang: EXEC of a function with collectives, else NULL.
 * @fn: EXEC: the function (a reference).
 * @host: COPY_TO_DEV: staging copy the item owns and frees.
 * @in: shards read; their errors poison @out.
 * @nin: entries of @in.
 * @wait: how many leading @in entries must be final before submission
 *	(made on another device).
 * @out: shards written.
 * @nout: entries of @out.
 * @res: cqe->res once done.
 * @done: completed (or failed without reaching the device).
 * @batch: the batch it came in.
 * @comp: the computation it is a shard of, or NULL.
 */
struct pw_item {
	struct pw_item *next;
	unsigned int dev;
	uint32_t op;
	struct pwtpu_cmd cmd;
	uint32_t bos[PWTPU_MAX_BUFS];
	struct pwtpu_gang *gang;
	struct pw_fn *fn;
	void *host;
	struct pw_ref in[PW_ITEM_MAX_REFS];
	unsigned int nin;
	unsigned int wait;
	struct pw_ref out[PW_ITEM_MAX_REFS];
	unsigned int nout;
	int res;
	bool done;
	struct pw_batch *batch;
	struct pw_comp *comp;
};

/**
 * struct pw_batch - what one dispatch hands the island in one message
 * @next: link in its client's scheduler queue.
 * @refs: one for the commands in flight, one per waiter.
 * @client: who sent it.
 * @cost: computations in it (the scheduler's unit).
 * @seq: arrival number (FIFO order).
 * @items_left: commands not yet retired; the batch ends at 0.
 * @unsubmitted: commands not yet handed to their device.
 * @nitems: commands in it.
 * @released: the scheduler handed it to the executors.
 * @err: first error of any of its commands.
 * @head: per-device command lists, in order.
 * @tail: see @head.
 */
struct pw_batch {
	struct pw_batch *next;
	atomic_int refs;
	struct pw_client *client;
	unsigned int cost;
	uint64_t seq;
	atomic_int items_left;
	atomic_int unsubmitted;
	unsigned int nitems;
	bool released;
	atomic_int err;
	struct pw_item *head[PW_RM_MAX_DEVICES];
	struct pw_item *tail[PW_RM_MAX_DEVICES];
};

/**
 * struct pw_exec - the executor of one device: a thread and an io_uring
 * @ctrl: its controller.
 * @dev: island device.
 * @fd: the worker's file of /dev/pwtpu<dev>.
 * @ring: SQE128 + CQE32 ring; one eventfd read is always armed on it.
 * @efd: eventfd that wakes the thread (new work, a dependency final).
 * @efd_val: where the armed read lands.
 * @thread: the executor thread.
 * @lock: guards @qhead, @qtail and @stop.
 * @qhead: commands handed over, not yet taken by the thread.
 * @qtail: see @qhead.
 * @stop: exit once everything is retired.
 * @removed: the device is out of service: fail what is not submitted.
 * @waiting: the thread may sleep on a dependency; wake it when one ends.
 * @pending: thread-private: taken, not yet submitted, in order.
 * @pending_tail: see @pending.
 * @fifo: thread-private: submitted, not yet retired, in order.
 * @fifo_tail: see @fifo.
 * @inflight: thread-private: commands on the ring.
 */
struct pw_exec {
	struct pw_ctrl *ctrl;
	unsigned int dev;
	int fd;
	struct io_uring ring;
	int efd;
	uint64_t efd_val;
	pthread_t thread;
	pthread_mutex_t lock;
	struct pw_item *qhead;
	struct pw_item *qtail;
	bool stop;
	atomic_bool removed;
	atomic_bool waiting;
	struct pw_item *pending;
	struct pw_item *pending_tail;
	struct pw_item *fifo;
	struct pw_item *fifo_tail;
	unsigned int inflight;
};

/* A buffer object of one device: handle, mmap offset, size. */
struct pw_bo_cached {
	uint32_t bo;
	uint64_t mmap_offset;
	uint64_t size;
};

#define PW_BO_CACHE_SLOTS	512

/**
 * struct pw_bo_cache - recently freed buffer objects of one device
 * @lock: guards the rest.
 * @n: entries in @slot.
 * @bytes: their total size.
 * @slot: the entries, oldest first.
 */
struct pw_bo_cache {
	pthread_mutex_t lock;
	unsigned int n;
	uint64_t bytes;
	struct pw_bo_cached slot[PW_BO_CACHE_SLOTS];
};

/**
 * struct pw_sched - the island's gang scheduler
 * @lock: guards everything here and every client's queue fields.
 * @policy: enum pw_sched_policy.
 * @window: computations released to the devices at once.
 * @inflight: computations released and not yet ended.
 * @active: batches released and not yet ended (host copies included,
 *	whose cost is 0): memory they hold is still to be freed.
 * @queued: batches waiting in client queues.
 * @seq: arrival counter.
 * @vtime: SHARE: pass of the last batch released.
 * @clients: clients with queued batches (linked by sched_next).
 */
struct pw_sched {
	pthread_mutex_t lock;
	enum pw_sched_policy policy;
	unsigned int window;
	unsigned int inflight;
	unsigned int active;
	unsigned int queued;
	uint64_t seq;
	uint64_t vtime;
	struct pw_client *clients;
};

#define PW_SCHED_DEFAULT_WINDOW	256

/**
 * struct pw_ctrl - the embedded controller and the worker of this host
 * @users: connected clients; the last disconnect tears it down.
 * @isl: the island (from sysfs).
 * @rm: its resource manager.
 * @hbm_bytes: HBM of each device.
 * @exec: one executor per device.
 * @cache: one buffer object cache per device.
 * @sched: the island's scheduler.
 * @wait_lock: with @wait_cond: buffers becoming final, batches reaching
 *	their devices or ending, memory freed.
 * @wait_cond: see @wait_lock.
 * @gang_base: random base of gang ids; @gang_seq counts from it.
 * @gang_seq: see @gang_base.
 * @next_client: numbers clients.
 * @mem_waiters: threads waiting for device memory to free.
 * @building: threads building a batch (memory they hold will be sent).
 * @blocked_builders: of those, how many wait for memory themselves.
 * @gen: this controller's generation: unique in the process.
 */
struct pw_ctrl {
	int users;
	struct pw_rm_island isl;
	struct pw_rm *rm;
	uint64_t hbm_bytes;
	struct pw_exec exec[PW_RM_MAX_DEVICES];
	struct pw_bo_cache cache[PW_RM_MAX_DEVICES];
	struct pw_sched sched;
	pthread_mutex_t wait_lock;
	pthread_cond_t wait_cond;
	uint64_t gang_base;
	atomic_uint_fast64_t gang_seq;
	unsigned int next_client;
	atomic_int mem_waiters;
	atomic_int building;
	atomic_int blocked_builders;
	uint64_t gen;
};

/**
 * struct pw_vset - a client's virtual device set
 * @client: its client.
 * @rm: the resource manager's set (NULL for a remote client's).
 * @slices: its slices (@nslices), freed with it.
 * @nslices: see @slices.
 */
struct pw_vset {
	struct pw_client *client;
	struct pw_rm_vset *rm;
	struct pw_slice **slices;
	unsigned int nslices;
};

/**
 * struct pw_slice - a slice of a client's set
 * @rs: the embedded resource manager's placement, or NULL.
 * @rid: a remote client's: the controller's slice, of @n devices.
 * @devs: a remote client's: the island device of each virtual device, as
 *	the controller placed it.
 * @failed_dev: a remote client's: 1 + the device this client took out of
 *	service under the slice (the slice stays failed); 0 if none.
 * @n: see @rid.
 */
struct pw_slice {
	struct pw_rm_slice *rs;
	uint32_t rid;
	unsigned int n;
	uint8_t devs[PW_RM_MAX_DEVICES];
	int failed_dev;
};

/**
 * struct pw_client - a connected client
 * @ctrl: its controller.
 * @index: number among the controller's clients.
 * @name: for messages.
 * @lock: guards @buffers, @programs, @vsets, @nvsets and @trace.
 * @buffers: buffers it owns (pw_buffer.prev/next).
 * @programs: programs it traced (pw_program's own links).
 * @vsets: virtual device sets it made; @nvsets of them.
 * @trace: program being traced, or NULL.
 * @closing: disconnecting: take no new work.
 * @bypass: tests: skip the scheduler's order.
 * @weight: SHARE weight (sched lock).
 * @pass: SHARE: stride pass (sched lock).
 * @qhead: its queued batches (sched lock).
 * @qtail: see @qhead.
 * @sched_next: link in pw_sched.clients (sched lock).
 * @active_batches: batches sent and not ended.
 * @submitted: statistics, see struct pw_client_stats.
 * @completed: see @submitted.
 * @failed: see @submitted.
 * @cancelled: see @submitted.
 * @hbm_bytes: see @submitted.
 * @remote_state: a client of a remote controller (runtime/client/
 *	remote.c); NULL for the embedded runtime's, which has @ctrl.
 */
struct pw_client {
	struct pw_ctrl *ctrl;
	unsigned int index;
	char name[32];
	pthread_mutex_t lock;
	struct pw_buffer *buffers;
	struct pw_program *programs;
	struct pw_vset **vsets;
	unsigned int nvsets;
	struct pw_program *trace;
	atomic_bool closing;
	bool bypass;
	unsigned int weight;
	uint64_t pass;
	struct pw_batch *qhead;
	struct pw_batch *qtail;
	struct pw_client *sched_next;
	atomic_int active_batches;
	atomic_uint_fast64_t submitted;
	atomic_uint_fast64_t completed;
	atomic_uint_fast64_t failed;
	atomic_uint_fast64_t cancelled;
	atomic_int_fast64_t hbm_bytes;
	struct pw_cr *remote_state;
};

/* runtime/client/remote.c: pathways.h over a remote controller. */
int pw_cr_connect(const struct pw_connect_opts *opts, const char *address,
		  struct pw_client **out);
void pw_cr_disconnect(struct pw_client *c);
void pw_cr_stats(struct pw_client *c, struct pw_client_stats *st);
/* Device @dev (numbered over the islands in host order) out or back. */
int pw_cr_set_device(struct pw_client *c, unsigned int dev, bool in_service);
/* The controller's ADMIN: -EPERM from pathwaysd (its operator's). */
int pw_cr_set_policy(struct pw_client *c, enum pw_sched_policy policy,
		     unsigned int window);
int pw_cr_set_weight(struct pw_client *c, unsigned int weight);
int pw_cr_num_devices(struct pw_client *c);
int pw_cr_add_slice(struct pw_vset *vs, unsigned int n, const char *shape,
		    struct pw_slice **out);
int pw_cr_buffer_from_host(struct pw_client *c, struct pw_slice *slice,
			   const struct pw_sig *sig, const void *data,
			   bool replicate, struct pw_buffer **out);
/* The slice a remote client's buffer lives on. */
struct pw_slice *pw_cr_buffer_slice(const struct pw_buffer *buf);
int pw_cr_call(struct pw_client *c, struct pw_fn *fn, struct pw_slice *slice,
	       struct pw_buffer *const *in, unsigned int nin,
	       struct pw_buffer **out);

/* runtime/core/ctrl.c */
/* The embedded controller while one is up, else NULL. */
struct pw_ctrl *pw_ctrl_current(void);
void pw_ctrl_broadcast(struct pw_ctrl *ctrl);
/*
 * Whether anything could still free device memory: work queued or on a
 * device, or another thread building a batch it has yet to send (and
 * not itself stuck waiting for memory).
 */
bool pw_ctrl_busy(struct pw_ctrl *ctrl);
/* The calling thread starts (@on) or stops building a batch. */
void pw_building(struct pw_ctrl *ctrl, bool on);
extern _Thread_local int pw_self_building;
uint64_t pw_ctrl_gang_id(struct pw_ctrl *ctrl);

/* runtime/worker/executor.c */
int pw_exec_start(struct pw_ctrl *ctrl, unsigned int dev);
/* Stop after everything handed over has retired; close the device. */
void pw_exec_stop(struct pw_exec *ex);
/* Append @head..@tail (one batch's commands for this device) and wake. */
void pw_exec_push(struct pw_exec *ex, struct pw_item *head,
		  struct pw_item *tail);
void pw_exec_wake(struct pw_exec *ex);
/* Wake every executor that may wait for a dependency. */
void pw_exec_wake_waiters(struct pw_ctrl *ctrl);

/* runtime/worker/store.c */
/*
 * A buffer of @n shards of @sig on @devs; allocates device memory unless
 * @traced. Waits while HBM is full and work in flight may free it;
 * -ENOMEM with a message when nothing can.
 */
int pw_buffer_new(struct pw_client *client, const struct pw_sig *sig,
		  unsigned int n, const unsigned int *devs, bool traced,
		  bool can_defer, struct pw_buffer **buf);
struct pw_buffer *pw_buffer_get(struct pw_buffer *buf);
/*
 * A device buffer object of @size on @dev. While HBM is full it waits for
 * work in flight to free some; when none is in flight it returns -EAGAIN
 * if @can_defer (the caller holds an unsent batch: send it and retry),
 * else -ENOMEM.
 */
int pw_bo_alloc(struct pw_client *client, unsigned int dev, uint64_t size,
		bool can_defer, struct pw_bo_cached *bo);
void pw_bo_release(struct pw_ctrl *ctrl, unsigned int dev,
		   const struct pw_bo_cached *bo);
/* Return every cached buffer object of the devices to the driver. */
void pw_bo_cache_flush(struct pw_ctrl *ctrl);
/* A command wrote (or gave up on) shard @ref with @err. */
void pw_shard_done(struct pw_ref *ref, int err);
/* Free the storage of every buffer @client still owns. */
void pw_store_collect(struct pw_client *client);

/* runtime/worker/store_host.c: checked signature, message on failure. */
int pw_sig_make(struct pw_sig *sig, enum pwtpu_dtype dtype,
		unsigned int rank, const uint32_t *shape);

/* runtime/worker/fnload.c */
/*
 * Load @fn on @dev (once): program, scratch and constants. Memory is
 * allocated outside the function's lock (it may wait for memory);
 * @can_defer as for pw_bo_alloc().
 */
int pw_worker_load_fn(struct pw_client *client, struct pw_fn *fn,
		      unsigned int dev, bool can_defer);

/* runtime/sched/sched.c */
void pw_sched_init(struct pw_sched *s);
/* Queue @batch (or hand it over at once when bypassed). */
void pw_sched_submit(struct pw_ctrl *ctrl, struct pw_batch *batch);
/* A batch's last command retired. */
void pw_sched_batch_end(struct pw_ctrl *ctrl, struct pw_batch *batch);
/* Drop @client's queued batches: their commands fail -ECANCELED. */
void pw_sched_cancel(struct pw_ctrl *ctrl, struct pw_client *client);

/* runtime/client/batch.c */
struct pw_batch *pw_batch_new(struct pw_client *client);
/* A command for @dev appended to @batch, or NULL (ENOMEM). */
struct pw_item *pw_batch_add(struct pw_batch *batch, unsigned int dev,
			     uint32_t op);
/*
 * The same in two steps, for all-or-nothing groups: a command not yet in
 * any batch (free() it if it never joins one; it holds nothing), then
 * its append.
 */
struct pw_item *pw_item_new(unsigned int dev, uint32_t op);
void pw_batch_append(struct pw_batch *batch, struct pw_item *it);
/* Add a shard reference (taking a buffer reference). */
void pw_item_in(struct pw_item *it, struct pw_buffer *buf, unsigned int shard,
		bool wait);
void pw_item_out(struct pw_item *it, struct pw_buffer *buf,
		 unsigned int shard);
/* Retire @it: propagate errors, finalize shards, end the batch. */
void pw_item_retire(struct pw_ctrl *ctrl, struct pw_item *it);
void pw_batch_put(struct pw_batch *batch);
/* Fail every command of @batch with @err without running it. */
void pw_batch_fail(struct pw_ctrl *ctrl, struct pw_batch *batch, int err);

/* runtime/client/lower.c */
/*
 * Append one sharded computation of @fn over @slice to @batch: moves
 * inputs not on the slice, allocates outputs into @out.
 */
int pw_lower_call(struct pw_client *client, struct pw_batch *batch,
		  struct pw_fn *fn, struct pw_slice *slice,
		  struct pw_buffer *const *in, unsigned int nin,
		  struct pw_buffer **out);
/* Wait until every command of @batch reached its device / retired. */
void pw_batch_wait_submitted(struct pw_ctrl *ctrl, struct pw_batch *batch);
int pw_batch_wait_done(struct pw_ctrl *ctrl, struct pw_batch *batch);

#endif /* PW_RUNTIME_CORE_H */
