/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wstore.h - a worker's object store for remote clients
 * (runtime/dcn/wstore.c): buffers in its devices' HBM and the compiled
 * functions clients shipped, found by (owner, handle).
 *
 * A client's buffer is owned by the client's node id and lives until the
 * client frees it; a run's temporary (PW_WIRE_BUF_TEMP) is owned by the
 * run and goes with it. Every buffer is one buffer object of one device,
 * mapped into the worker so that the control plane can fill and read it
 * and the data plane can register it. References: the owner's, plus one
 * per command in flight that uses it; the storage goes with the last.
 */
#ifndef PW_RUNTIME_DCN_WSTORE_H
#define PW_RUNTIME_DCN_WSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include <pathways/wire.h>

#include <pwtpu/pwtpu_dev.h>

#include "../net/dp.h"
#include "fnpayload.h"
#include "wdev.h"

enum pw_wbuf_state {
	PW_WBUF_FILLING,	/* being written (BUFFER, DCN_RECV) */
	PW_WBUF_PENDING,	/* its producer has not been issued yet */
	PW_WBUF_QUEUED,		/* its producer is on @dev's queue */
	PW_WBUF_READY,		/* final */
	PW_WBUF_FAILED,		/* its producer failed */
};

/**
 * struct pw_wbuf - a buffer
 * @next: hash chain.
 * @owner: the client's node id, or the run id for a temporary.
 * @handle: the handle in PLAN and BUFFER messages.
 * @dev: the device whose HBM holds it.
 * @state: enum pw_wbuf_state.
 * @refs: owner + commands using it.
 * @owned: the owner still holds it (FREE or the run's end clears it).
 * @bytes: its size (the buffer object may be larger: whole pages).
 * @bo: its buffer object, mapped.
 * @filled: bytes written so far (FILLING by BUFFER).
 * @sig: dtype and shape, when the creator knew them (dtype 0 if not).
 * @region: its data-plane registration, made on first use.
 * @err: FAILED: why its producer failed (what its readers fail with).
 */
struct pw_wbuf {
	struct pw_wbuf *next;
	uint32_t owner;
	uint32_t handle;
	unsigned int dev;
	enum pw_wbuf_state state;
	unsigned int refs;
	bool owned;
	uint64_t bytes;
	struct pwtpu_bo bo;
	uint64_t filled;
	struct pw_wire_sig sig;
	struct pw_dp_region *region;
	int err;
};

/**
 * struct pw_wfn - a client's compiled function
 * @next: hash chain.
 * @client: its client's node id.
 * @id: the client's id for it.
 * @pl: its payload.
 * @prog: per device, its program handle (0: not loaded there yet).
 * @scratch: per device, its scratch buffer object.
 * @consts: per device, its constants' buffer object.
 */
struct pw_wfn {
	struct pw_wfn *next;
	uint32_t client;
	uint32_t id;
	struct pw_fn_payload pl;
	uint32_t prog[PW_WIRE_MAX_DEVICES];
	uint32_t scratch[PW_WIRE_MAX_DEVICES];
	uint32_t consts[PW_WIRE_MAX_DEVICES];
};

#define PW_WSTORE_BUCKETS	1024
/* Device objects whose destroy failed, kept to be tried again. */
#define PW_WSTORE_UNDONE	64

/**
 * struct pw_wstore_undone - a device object whose destroy failed
 * @handle: its handle on its device.
 * @dev: the device.
 * @prog: a program (else a buffer object).
 */
struct pw_wstore_undone {
	uint32_t handle;
	uint16_t dev;
	bool prog;
};

/**
 * struct pw_wstore - the store
 * @dev: the devices it allocates on.
 * @dp: the data plane buffers register with (NULL: none).
 * @bufs: buffers by (owner, handle).
 * @fns: functions by (client, id).
 * @nbufs: buffers alive.
 * @bytes: their bytes.
 * @nfns: functions kept.
 * @freed: device objects freed so far (runs waiting for HBM look again).
 * @undone: destroys that failed, tried again by pw_wstore_retry().
 * @nundone: how many.
 * @abandoned: failed destroys past PW_WSTORE_UNDONE, left to the files'
 *	close (counted and logged: their HBM stays taken until then).
 * @vanished: destroys the driver said were of no object (-ENOENT): a
 *	destroy twice, which is a bug here (counted and logged).
 */
struct pw_wstore {
	struct pw_wdev *dev;
	struct pw_dp *dp;
	struct pw_wbuf *bufs[PW_WSTORE_BUCKETS];
	struct pw_wfn *fns[PW_WSTORE_BUCKETS];
	unsigned int nbufs;
	uint64_t bytes;
	unsigned int nfns;
	uint64_t freed;
	struct pw_wstore_undone undone[PW_WSTORE_UNDONE];
	unsigned int nundone;
	uint64_t abandoned;
	uint64_t vanished;
};

void pw_wstore_init(struct pw_wstore *s, struct pw_wdev *dev,
		    struct pw_dp *dp);
/* Free everything (the devices' files close after). */
void pw_wstore_fini(struct pw_wstore *s);
/*
 * Try again the destroys that failed; the number still undone. The
 * driver fails BO_DESTROY and PROG_UNLOAD only for a handle it does not
 * have; what this is for is the call failing on its way (a fault
 * injected in the tests, a seccomp filter), which leaves the object and
 * its handle in place: trying again cannot hit another object.
 */
unsigned int pw_wstore_retry(struct pw_wstore *s);

struct pw_wbuf *pw_wbuf_find(struct pw_wstore *s, uint32_t owner,
			     uint32_t handle);
/*
 * A new buffer of @bytes on @dev, mapped, FILLING, one reference (the
 * owner's). -EEXIST if (owner, handle) is taken, -EINVAL for a device the
 * worker lacks, -ENOMEM / -ENOSPC from the device when HBM is short.
 */
int pw_wbuf_create(struct pw_wstore *s, uint32_t owner, uint32_t handle,
		   unsigned int dev, uint64_t bytes, struct pw_wbuf **out);
void pw_wbuf_get(struct pw_wbuf *b);
/* Drop a reference; the last one frees the storage. */
void pw_wbuf_put(struct pw_wstore *s, struct pw_wbuf *b);
/* The owner lets go (FREE, run end): drops the owner's reference once. */
void pw_wbuf_release(struct pw_wstore *s, struct pw_wbuf *b);
/* Free every buffer @owner holds (a run's temporaries, a client's all). */
void pw_wstore_release_owner(struct pw_wstore *s, uint32_t owner);
/* Register @b with the data plane (once): 0 or -errno. */
int pw_wbuf_register(struct pw_wstore *s, struct pw_wbuf *b);

struct pw_wfn *pw_wfn_find(struct pw_wstore *s, uint32_t client,
			   uint32_t id);
/*
 * Part of a FUNCTION: 0 while parts are missing, 1 when the function is
 * complete and checked, -errno when it is refused (then it is dropped).
 */
int pw_wfn_add(struct pw_wstore *s, const struct pw_wire_function *f);
/* Load @fn on @dev if not yet: program, scratch, constants. 0 or -errno. */
int pw_wfn_load(struct pw_wstore *s, struct pw_wfn *fn, unsigned int dev);
/* Forget every function of @client. */
void pw_wstore_drop_fns(struct pw_wstore *s, uint32_t client);

#endif /* PW_RUNTIME_DCN_WSTORE_H */
