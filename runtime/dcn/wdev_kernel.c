// SPDX-License-Identifier: GPL-2.0
/*
 * wdev_kernel.c - the module's devices behind a worker's pw_wdev: open
 * (the island claimed), submit through one io_uring, reap without
 * blocking. The ring is set up for the fast path
 * (pwtpu_ring_init_owned(): the devices as fixed files, single issuer,
 * deferred task work) and belongs to the thread that first submits to
 * it: the worker's loop, which may not be the thread that opened it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <liburing.h>
#include <pwtpu/pwtpu_dev.h>

#include "../util/claim.h"
#include "wdev.h"

/**
 * struct wdev_kernel - the kernel backend's state
 * @fd: each device's file.
 * @ring: one ring for all of them.
 * @inflight: commands on the ring, or failed and not yet reaped.
 * @owned: the ring is enabled for the thread that first submitted.
 * @unsent: tags of the commands queued since the last submission.
 * @nunsent: see @unsent.
 * @failed: tags of commands a submission failed to hand the kernel,
 *	given back by reap() with @failed_res (so that a run waiting for
 *	them ends, rather than waiting for ever).
 * @nfailed: see @failed.
 * @failed_res: see @failed.
 */
struct wdev_kernel {
	int fd[PW_WIRE_MAX_DEVICES];
	struct io_uring ring;
	unsigned int inflight;
	bool owned;
	uint64_t unsent[PW_WDEV_RING];
	unsigned int nunsent;
	uint64_t failed[PW_WDEV_RING];
	unsigned int nfailed;
	int failed_res;
};

static struct wdev_kernel *kdev(const struct pw_wdev *w)
{
	return w->be;
}

static int flush(struct pw_wdev *w);

/* Queue @cmd (an @op) on @dev's queue with @tag. */
static int queue_cmd(struct pw_wdev *w, unsigned int dev, uint32_t op,
		     const struct pwtpu_cmd *cmd, uint64_t tag)
{
	struct wdev_kernel *k = kdev(w);
	struct io_uring_sqe *sqe;

	/* Submission is failing: so do the commands, until reaped. */
	if (k->nfailed)
		return k->failed_res;
	sqe = io_uring_get_sqe(&k->ring);
	if (!sqe && flush(w) >= 0)
		sqe = io_uring_get_sqe(&k->ring);
	if (!sqe)
		return k->nfailed ? k->failed_res : -EBUSY;
	/* The driver copies the command (and the BO list) at submission. */
	pwtpu_prep_uring_cmd_fixed(sqe, dev, op, cmd);
	io_uring_sqe_set_data64(sqe, tag);
	k->unsent[k->nunsent++] = tag;
	k->inflight++;
	return 0;
}

static int exec(struct pw_wdev *w, unsigned int dev, uint32_t prog,
		const uint32_t *bos, unsigned int nbos,
		const struct pwtpu_gang *gang, uint64_t tag)
{
	struct pwtpu_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	if (prog)
		pwtpu_cmd_exec(&cmd, prog, bos, nbos);
	cmd.gang_ptr = (uintptr_t)gang;
	return queue_cmd(w, dev, prog ? PWTPU_CMD_EXEC : PWTPU_CMD_NOP, &cmd,
			 tag);
}

static int copy_peer(struct pw_wdev *w, unsigned int dev, uint32_t bo,
		     uint64_t offset, uint64_t length, unsigned int peer_dev,
		     uint32_t peer_bo, uint64_t peer_offset, uint64_t tag)
{
	struct pwtpu_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.handle = bo;
	cmd.offset = offset;
	cmd.length = length;
	cmd.peer_fd = kdev(w)->fd[peer_dev];
	cmd.peer_handle = peer_bo;
	cmd.peer_offset = peer_offset;
	return queue_cmd(w, dev, PWTPU_CMD_COPY_PEER, &cmd, tag);
}

static int reserve(struct pw_wdev *w, unsigned int n)
{
	struct io_uring *ring = &kdev(w)->ring;

	if (io_uring_sq_space_left(ring) < n && flush(w) < 0)
		return -EIO;
	return io_uring_sq_space_left(ring) < n ? -EBUSY : 0;
}

/*
 * Submission failed with @err: take the commands the kernel has not
 * consumed off the submission queue (no SQPOLL: it reads the queue only
 * in our own io_uring_enter(), so the entries up to its head are all it
 * took) and keep their tags to finish with @err.
 */
static void drop_unsent(struct pw_wdev *w, int err)
{
	struct wdev_kernel *k = kdev(w);
	struct io_uring_sq *sq = &k->ring.sq;
	unsigned int head = io_uring_smp_load_acquire(sq->khead);

	if (!k->nunsent)
		return;
	io_uring_smp_store_release(sq->ktail, head);
	sq->sqe_head = head;
	sq->sqe_tail = head;
	/* Behind those of an earlier failure not reaped yet, if any. */
	memcpy(k->failed + k->nfailed, k->unsent,
	       k->nunsent * sizeof(k->failed[0]));
	k->nfailed += k->nunsent;
	k->nunsent = 0;
	k->failed_res = err;
	eventfd_write(w->efd, 1);
}

static int flush(struct pw_wdev *w)
{
	struct wdev_kernel *k = kdev(w);
	int ret;

	if (!k->owned) {
		/* The first submitter owns the ring (see the top). */
		if (pwtpu_ring_enable(&k->ring)) {
			drop_unsent(w, -EIO);
			return -EIO;
		}
		k->owned = true;
	}
	ret = io_uring_submit(&k->ring);
	if (ret < 0) {
		drop_unsent(w, ret);
		return ret;
	}
	/* The kernel takes them in order; the rest go at the next call. */
	if ((unsigned int)ret > k->nunsent)
		ret = (int)k->nunsent;
	memmove(k->unsent, k->unsent + ret,
		(k->nunsent - (unsigned int)ret) * sizeof(k->unsent[0]));
	k->nunsent -= (unsigned int)ret;
	return ret;
}

static int reap(struct pw_wdev *w, struct pw_wdev_done *done,
		unsigned int max)
{
	struct wdev_kernel *k = kdev(w);
	struct io_uring_cqe *cqe;
	unsigned int head, n = 0, nfail = 0;
	uint64_t val;

	/* Clear the eventfd first: a completion after this signals again. */
	if (read(w->efd, &val, sizeof(val)) < 0 && errno != EAGAIN)
		return -errno;
	/* What a failed submission never handed the devices. */
	while (k->nfailed && n < max) {
		memset(&done[n], 0, sizeof(done[n]));
		done[n].tag = k->failed[--k->nfailed];
		done[n].res = k->failed_res;
		n++;
		nfail++;
	}
	if (k->nfailed)
		eventfd_write(w->efd, 1);	/* more next time */
	/* Deferred task work: the completions are posted when we ask. */
	if (k->inflight > nfail && pwtpu_ring_get_events(&k->ring) < 0) {
		if (!nfail)
			return -EIO;
		k->inflight -= n;
		return (int)n;
	}
	io_uring_for_each_cqe(&k->ring, head, cqe) {
		if (n == max)
			break;
		done[n].tag = cqe->user_data;
		done[n].res = cqe->res;
		done[n].queue_ns = PWTPU_CQE_QUEUE_NS(cqe->big_cqe[0]);
		done[n].exec_ns = PWTPU_CQE_EXEC_NS(cqe->big_cqe[0]);
		n++;
	}
	io_uring_cq_advance(&k->ring, n - nfail);
	k->inflight -= n;
	return (int)n;
}

static int bo_create(struct pw_wdev *w, unsigned int dev, uint64_t bytes,
		     struct pwtpu_bo *bo)
{
	return pwtpu_bo_create(kdev(w)->fd[dev], bytes, bo);
}

static int bo_map(struct pw_wdev *w, unsigned int dev, struct pwtpu_bo *bo)
{
	return pwtpu_bo_map(kdev(w)->fd[dev], bo);
}

static void bo_unmap(struct pw_wdev *w, struct pwtpu_bo *bo)
{
	(void)w;
	munmap(bo->map, bo->size);
}

static int bo_destroy(struct pw_wdev *w, unsigned int dev, uint32_t handle)
{
	return pwtpu_bo_destroy(kdev(w)->fd[dev], handle);
}

static int prog_load(struct pw_wdev *w, unsigned int dev, const void *image,
		     size_t size, uint32_t *handle)
{
	struct pwtpu_prog_load pl;
	int ret;

	ret = pwtpu_prog_load(kdev(w)->fd[dev], image, size, NULL, 0, &pl);
	if (!ret)
		*handle = pl.handle;
	return ret;
}

static int prog_unload(struct pw_wdev *w, unsigned int dev, uint32_t handle)
{
	return pwtpu_prog_unload(kdev(w)->fd[dev], handle);
}

static void close_kernel(struct pw_wdev *w)
{
	struct wdev_kernel *k = kdev(w);
	unsigned int d;

	io_uring_queue_exit(&k->ring);
	close(w->efd);
	close(w->gang_fd);
	/* Closing the files frees their programs and buffer objects. */
	for (d = 0; d < w->ndev; d++)
		close(k->fd[d]);
	free(k);
	pw_island_release();
}

static const struct pw_wdev_ops kernel_ops = {
	.name = "kernel",
	.close = close_kernel,
	.exec = exec,
	.copy_peer = copy_peer,
	.reserve = reserve,
	.flush = flush,
	.reap = reap,
	.bo_create = bo_create,
	.bo_map = bo_map,
	.bo_unmap = bo_unmap,
	.bo_destroy = bo_destroy,
	.prog_load = prog_load,
	.prog_unload = prog_unload,
};

int pw_wdev_open(struct pw_wdev *w, unsigned int ndev)
{
	struct wdev_kernel *k;
	unsigned int d;
	int ret;

	memset(w, 0, sizeof(*w));
	if (!ndev || ndev > PW_WIRE_MAX_DEVICES)
		return -EINVAL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	w->ops = &kernel_ops;
	w->be = k;
	w->efd = -1;
	w->gang_fd = -1;
	/* The island is ours alone while we drive it (claim.h). */
	ret = pw_island_claim();
	if (ret) {
		free(k);
		return ret;
	}
	for (d = 0; d < ndev; d++) {
		k->fd[d] = pwtpu_open(d);
		if (k->fd[d] < 0) {
			ret = k->fd[d];
			goto err;
		}
		w->ndev = d + 1;
	}
	w->gang_fd = pwtpu_gang_create(k->fd[0], NULL);
	if (w->gang_fd < 0) {
		ret = w->gang_fd;
		goto err;
	}
	ret = pwtpu_ring_init_owned(&k->ring, PW_WDEV_RING,
				    IORING_SETUP_R_DISABLED, k->fd, w->ndev);
	if (ret)
		goto err;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	/* liburing returns -errno and leaves errno alone. */
	ret = w->efd < 0 ? -errno : io_uring_register_eventfd(&k->ring, w->efd);
	if (ret) {
		io_uring_queue_exit(&k->ring);
		goto err;
	}
	return 0;
err:
	if (w->efd >= 0)
		close(w->efd);
	if (w->gang_fd >= 0)
		close(w->gang_fd);
	while (w->ndev-- > 0)
		close(k->fd[w->ndev]);
	free(k);
	memset(w, 0, sizeof(*w));
	pw_island_release();
	return ret;
}
