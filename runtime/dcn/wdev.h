/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wdev.h - a worker's devices for PLAN commands (runtime/dcn/wdev.c):
 * every device of the island open, one io_uring (SQE128 + CQE32, the
 * devices as fixed files, single issuer with deferred task work) with an
 * eventfd the worker's loop polls next to its transport.
 *
 * Programs and buffers come from the worker's object store
 * (runtime/dcn/wstore.h): clients ship compiled functions.
 */
#ifndef PW_RUNTIME_DCN_WDEV_H
#define PW_RUNTIME_DCN_WDEV_H

#include <stdbool.h>
#include <stdint.h>

#include <liburing.h>
#include <pathways/wire.h>

/* Submission queue entries of the worker's ring. */
#define PW_WDEV_RING	1024

/**
 * struct pw_wdev - the worker's devices
 * @ndev: devices open.
 * @fd: each device's file.
 * @ring: one ring for all of them.
 * @efd: eventfd signalled on every completion.
 * @gang_fd: the gang file every gang of this worker meets in: no other
 *	process can join them.
 * @inflight: commands on the ring, or failed and not yet reaped.
 * @owned: the ring is enabled for the thread that first submitted.
 * @unsent: tags of the commands queued since the last submission.
 * @nunsent: see @unsent.
 * @failed: tags of commands a submission failed to hand the kernel,
 *	given back by pw_wdev_reap() with @failed_res (so that a run
 *	waiting for them ends, rather than waiting for ever).
 * @nfailed: see @failed.
 * @failed_res: see @failed.
 */
struct pw_wdev {
	unsigned int ndev;
	int fd[PW_WIRE_MAX_DEVICES];
	int gang_fd;
	struct io_uring ring;
	int efd;
	unsigned int inflight;
	bool owned;
	uint64_t unsent[PW_WDEV_RING];
	unsigned int nunsent;
	uint64_t failed[PW_WDEV_RING];
	unsigned int nfailed;
	int failed_res;
};

/* A finished command: its tag and what the device said. */
struct pw_wdev_done {
	uint64_t tag;
	int res;
	uint32_t queue_ns;
	uint32_t exec_ns;
};

int pw_wdev_open(struct pw_wdev *w, unsigned int ndev);
void pw_wdev_close(struct pw_wdev *w);
/*
 * Queue an EXEC of program @prog binding @bos[@nbos] on device @dev, or a
 * NOP when @prog is 0, with @tag: 0, -EINVAL for a device this worker
 * does not have, -EBUSY when the ring is full. Queued commands go to the
 * devices at the next pw_wdev_flush() (one system call for all of them);
 * the driver reads @bos then, so it must stay as it is until that call.
 */
int pw_wdev_exec(struct pw_wdev *w, unsigned int dev, uint32_t prog,
		 const uint32_t *bos, unsigned int nbos,
		 const struct pwtpu_gang *gang, uint64_t tag);
/*
 * Queue a COPY_PEER on @dev: @length bytes at @offset of its buffer
 * object @bo to @peer_offset of @peer_dev's @peer_bo, over the mesh
 * links; errors as pw_wdev_exec().
 */
int pw_wdev_copy_peer(struct pw_wdev *w, unsigned int dev, uint32_t bo,
		      uint64_t offset, uint64_t length, unsigned int peer_dev,
		      uint32_t peer_bo, uint64_t peer_offset, uint64_t tag);
/* Room for @n commands on the ring (flushing if need be): 0, -EBUSY, -EIO. */
int pw_wdev_reserve(struct pw_wdev *w, unsigned int n);
/*
 * Submit what is queued: commands submitted, or -errno. When submission
 * fails, the commands it could not hand the kernel are taken off the
 * ring and finish with that error at the next pw_wdev_reap() (the
 * eventfd is signalled); until then, new commands fail so too.
 */
int pw_wdev_flush(struct pw_wdev *w);
/* Up to @max finished commands, without waiting: their count. */
int pw_wdev_reap(struct pw_wdev *w, struct pw_wdev_done *done,
		 unsigned int max);

#endif /* PW_RUNTIME_DCN_WDEV_H */
