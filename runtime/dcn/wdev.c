// SPDX-License-Identifier: GPL-2.0
/*
 * wdev.c - a worker's devices for PLAN commands: open, submit through one
 * io_uring, reap without blocking. The ring is set up for the fast path
 * (pwtpu_ring_init_owned(): the devices as fixed files, single issuer,
 * deferred task work) and belongs to the thread that first submits to
 * it: the worker's loop, which may not be the thread that opened it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <pwtpu/pwtpu_dev.h>

#include "../util/claim.h"
#include "wdev.h"

int pw_wdev_open(struct pw_wdev *w, unsigned int ndev)
{
	unsigned int d;
	int ret;

	memset(w, 0, sizeof(*w));
	if (!ndev || ndev > PW_WIRE_MAX_DEVICES)
		return -EINVAL;
	w->efd = -1;
	w->gang_fd = -1;
	/* The island is ours alone while we drive it (claim.h). */
	ret = pw_island_claim();
	if (ret)
		return ret;
	for (d = 0; d < ndev; d++) {
		w->fd[d] = pwtpu_open(d);
		if (w->fd[d] < 0) {
			ret = w->fd[d];
			goto err;
		}
		w->ndev = d + 1;
	}
	w->gang_fd = pwtpu_gang_create(w->fd[0], NULL);
	if (w->gang_fd < 0) {
		ret = w->gang_fd;
		goto err;
	}
	ret = pwtpu_ring_init_owned(&w->ring, PW_WDEV_RING,
				    IORING_SETUP_R_DISABLED, w->fd, w->ndev);
	if (ret)
		goto err;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	/* liburing returns -errno and leaves errno alone. */
	ret = w->efd < 0 ? -errno : io_uring_register_eventfd(&w->ring, w->efd);
	if (ret) {
		io_uring_queue_exit(&w->ring);
		goto err;
	}
	return 0;
err:
	if (w->efd >= 0)
		close(w->efd);
	if (w->gang_fd >= 0)
		close(w->gang_fd);
	while (w->ndev-- > 0)
		close(w->fd[w->ndev]);
	pw_island_release();
	return ret;
}

void pw_wdev_close(struct pw_wdev *w)
{
	unsigned int d;

	io_uring_queue_exit(&w->ring);
	close(w->efd);
	close(w->gang_fd);
	/* Closing the files frees their programs and buffer objects. */
	for (d = 0; d < w->ndev; d++)
		close(w->fd[d]);
	pw_island_release();
}

/* Queue @cmd (an @op) on @dev's queue with @tag. */
static int queue_cmd(struct pw_wdev *w, unsigned int dev, uint32_t op,
		     const struct pwtpu_cmd *cmd, uint64_t tag)
{
	struct io_uring_sqe *sqe;

	/* Submission is failing: so do the commands, until reaped. */
	if (w->nfailed)
		return w->failed_res;
	sqe = io_uring_get_sqe(&w->ring);
	if (!sqe && pw_wdev_flush(w) >= 0)
		sqe = io_uring_get_sqe(&w->ring);
	if (!sqe)
		return w->nfailed ? w->failed_res : -EBUSY;
	/* The driver copies the command (and the BO list) at submission. */
	pwtpu_prep_uring_cmd_fixed(sqe, dev, op, cmd);
	io_uring_sqe_set_data64(sqe, tag);
	w->unsent[w->nunsent++] = tag;
	w->inflight++;
	return 0;
}

int pw_wdev_exec(struct pw_wdev *w, unsigned int dev, uint32_t prog,
		 const uint32_t *bos, unsigned int nbos,
		 const struct pwtpu_gang *gang, uint64_t tag)
{
	struct pwtpu_cmd cmd;

	if (dev >= w->ndev)
		return -EINVAL;
	memset(&cmd, 0, sizeof(cmd));
	if (prog)
		pwtpu_cmd_exec(&cmd, prog, bos, nbos);
	cmd.gang_ptr = (uintptr_t)gang;
	return queue_cmd(w, dev, prog ? PWTPU_CMD_EXEC : PWTPU_CMD_NOP, &cmd,
			 tag);
}

int pw_wdev_copy_peer(struct pw_wdev *w, unsigned int dev, uint32_t bo,
		      uint64_t offset, uint64_t length, unsigned int peer_dev,
		      uint32_t peer_bo, uint64_t peer_offset, uint64_t tag)
{
	struct pwtpu_cmd cmd;

	if (dev >= w->ndev || peer_dev >= w->ndev)
		return -EINVAL;
	memset(&cmd, 0, sizeof(cmd));
	cmd.handle = bo;
	cmd.offset = offset;
	cmd.length = length;
	cmd.peer_fd = w->fd[peer_dev];
	cmd.peer_handle = peer_bo;
	cmd.peer_offset = peer_offset;
	return queue_cmd(w, dev, PWTPU_CMD_COPY_PEER, &cmd, tag);
}

int pw_wdev_reserve(struct pw_wdev *w, unsigned int n)
{
	if (io_uring_sq_space_left(&w->ring) < n && pw_wdev_flush(w) < 0)
		return -EIO;
	return io_uring_sq_space_left(&w->ring) < n ? -EBUSY : 0;
}

/*
 * Submission failed with @err: take the commands the kernel has not
 * consumed off the submission queue (no SQPOLL: it reads the queue only
 * in our own io_uring_enter(), so the entries up to its head are all it
 * took) and keep their tags to finish with @err.
 */
static void drop_unsent(struct pw_wdev *w, int err)
{
	struct io_uring_sq *sq = &w->ring.sq;
	unsigned int head = io_uring_smp_load_acquire(sq->khead);

	if (!w->nunsent)
		return;
	io_uring_smp_store_release(sq->ktail, head);
	sq->sqe_head = head;
	sq->sqe_tail = head;
	/* Behind those of an earlier failure not reaped yet, if any. */
	memcpy(w->failed + w->nfailed, w->unsent,
	       w->nunsent * sizeof(w->failed[0]));
	w->nfailed += w->nunsent;
	w->nunsent = 0;
	w->failed_res = err;
	eventfd_write(w->efd, 1);
}

int pw_wdev_flush(struct pw_wdev *w)
{
	int ret;

	if (!w->owned) {
		/* The first submitter owns the ring (see the top). */
		if (pwtpu_ring_enable(&w->ring)) {
			drop_unsent(w, -EIO);
			return -EIO;
		}
		w->owned = true;
	}
	ret = io_uring_submit(&w->ring);
	if (ret < 0) {
		drop_unsent(w, ret);
		return ret;
	}
	/* The kernel takes them in order; the rest go at the next call. */
	if ((unsigned int)ret > w->nunsent)
		ret = (int)w->nunsent;
	memmove(w->unsent, w->unsent + ret,
		(w->nunsent - (unsigned int)ret) * sizeof(w->unsent[0]));
	w->nunsent -= (unsigned int)ret;
	return ret;
}

int pw_wdev_reap(struct pw_wdev *w, struct pw_wdev_done *done,
		 unsigned int max)
{
	struct io_uring_cqe *cqe;
	unsigned int head, n = 0, nfail = 0;
	uint64_t val;

	/* Clear the eventfd first: a completion after this signals again. */
	if (read(w->efd, &val, sizeof(val)) < 0 && errno != EAGAIN)
		return -errno;
	/* What a failed submission never handed the devices. */
	while (w->nfailed && n < max) {
		memset(&done[n], 0, sizeof(done[n]));
		done[n].tag = w->failed[--w->nfailed];
		done[n].res = w->failed_res;
		n++;
		nfail++;
	}
	if (w->nfailed)
		eventfd_write(w->efd, 1);	/* more next time */
	/* Deferred task work: the completions are posted when we ask. */
	if (w->inflight > nfail && pwtpu_ring_get_events(&w->ring) < 0) {
		if (!nfail)
			return -EIO;
		w->inflight -= n;
		return (int)n;
	}
	io_uring_for_each_cqe(&w->ring, head, cqe) {
		if (n == max)
			break;
		done[n].tag = cqe->user_data;
		done[n].res = cqe->res;
		done[n].queue_ns = PWTPU_CQE_QUEUE_NS(cqe->big_cqe[0]);
		done[n].exec_ns = PWTPU_CQE_EXEC_NS(cqe->big_cqe[0]);
		n++;
	}
	io_uring_cq_advance(&w->ring, n - nfail);
	w->inflight -= n;
	return (int)n;
}
