// SPDX-License-Identifier: GPL-2.0
/*
 * executor.c - one thread and one io_uring per device.
 *
 * Commands arrive in batches, in the island scheduler's order, and go to
 * the device in that order: the device queue is in order, so a command
 * needs to wait only for inputs made on other devices (pw_item.wait).
 * The thread sleeps in io_uring_wait_cqe() alone: an eventfd read is
 * always armed on the ring, so new work and finished dependencies wake it
 * the same way as device completions. Completions are reaped in batches
 * and retired in submission order, so a command's same-device inputs are
 * always final when it retires (CQEs themselves may come in any order).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <pwtpu/pwtpu_dev.h>

#include "../core/core.h"

#define PW_EXEC_RING_ENTRIES	256
/* user_data of the eventfd read; commands use their item's address. */
#define PW_EXEC_WAKE_TAG	1ULL

static void exec_arm_wake(struct pw_exec *ex)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ex->ring);

	/* The ring keeps a slot free for this: see exec_submit_ready(). */
	if (!sqe) {
		fprintf(stderr, "pathways: device %u: no SQE for the wake read\n",
			ex->dev);
		return;
	}
	memset(sqe, 0, sizeof(*sqe));
	io_uring_prep_read(sqe, ex->efd, &ex->efd_val, sizeof(ex->efd_val), 0);
	io_uring_sqe_set_data64(sqe, PW_EXEC_WAKE_TAG);
}

void pw_exec_wake(struct pw_exec *ex)
{
	uint64_t one = 1;

	if (write(ex->efd, &one, sizeof(one)) != sizeof(one))
		perror("pathways: executor wake");
}

void pw_exec_push(struct pw_exec *ex, struct pw_item *head,
		  struct pw_item *tail)
{
	pthread_mutex_lock(&ex->lock);
	if (ex->qtail)
		ex->qtail->next = head;
	else
		ex->qhead = head;
	ex->qtail = tail;
	pthread_mutex_unlock(&ex->lock);
	pw_exec_wake(ex);
}

void pw_exec_wake_waiters(struct pw_ctrl *ctrl)
{
	unsigned int d;

	for (d = 0; d < ctrl->isl.ndevices; d++)
		if (atomic_load(&ctrl->exec[d].waiting))
			pw_exec_wake(&ctrl->exec[d]);
}

static bool item_ready(const struct pw_item *it)
{
	unsigned int i;

	for (i = 0; i < it->wait; i++)
		if (atomic_load(&it->in[i].buf->shards[it->in[i].shard].pending))
			return false;
	return true;
}

static void fifo_append(struct pw_exec *ex, struct pw_item *it)
{
	it->next = NULL;
	if (ex->fifo_tail)
		ex->fifo_tail->next = it;
	else
		ex->fifo = it;
	ex->fifo_tail = it;
}

static void batch_submitted(struct pw_ctrl *ctrl, struct pw_batch *b)
{
	if (atomic_fetch_sub(&b->unsubmitted, 1) == 1 &&
	    atomic_load(&b->refs) > 1)
		pw_ctrl_broadcast(ctrl);
}

/*
 * Hand ready commands to the device, in order, stopping at the first
 * whose inputs from other devices are not final. Returns how many SQEs
 * were prepared.
 */
static unsigned int exec_submit_ready(struct pw_exec *ex)
{
	unsigned int n = 0;
	struct pw_item *it;

	while ((it = ex->pending)) {
		if (atomic_load(&ex->removed)) {
			/* Out of service: fail it here, in order. */
			it->res = -ENODEV;
			it->done = true;
		} else {
			struct io_uring_sqe *sqe;

			/* Say we may sleep before looking, so no wake is lost. */
			atomic_store(&ex->waiting, true);
			if (!item_ready(it))
				break;
			atomic_store(&ex->waiting, false);
			/* Keep one slot for re-arming the wake read. */
			if (io_uring_sq_space_left(&ex->ring) < 2 ||
			    ex->inflight + 2 > PW_EXEC_RING_ENTRIES)
				break;
			sqe = io_uring_get_sqe(&ex->ring);
			if (!sqe)
				break;
			pwtpu_prep_uring_cmd(sqe, ex->fd, it->op, &it->cmd);
			io_uring_sqe_set_data(sqe, it);
			ex->inflight++;
			n++;
		}
		ex->pending = it->next;
		if (!ex->pending)
			ex->pending_tail = NULL;
		batch_submitted(ex->ctrl, it->batch);
		fifo_append(ex, it);
	}
	if (!ex->pending)
		atomic_store(&ex->waiting, false);
	return n;
}

/* Retire finished commands from the head of the submission order. */
static void exec_retire(struct pw_exec *ex)
{
	struct pw_item *it;

	while ((it = ex->fifo) && it->done) {
		ex->fifo = it->next;
		if (!ex->fifo)
			ex->fifo_tail = NULL;
		pw_item_retire(ex->ctrl, it);
	}
}

/* Take what was handed over; true when told to stop. */
static bool exec_take(struct pw_exec *ex)
{
	struct pw_item *head, *tail;
	bool stop;

	pthread_mutex_lock(&ex->lock);
	head = ex->qhead;
	tail = ex->qtail;
	ex->qhead = NULL;
	ex->qtail = NULL;
	stop = ex->stop;
	pthread_mutex_unlock(&ex->lock);
	if (head) {
		if (ex->pending_tail)
			ex->pending_tail->next = head;
		else
			ex->pending = head;
		ex->pending_tail = tail;
	}
	return stop;
}

static void *exec_thread(void *arg)
{
	struct pw_exec *ex = arg;
	struct io_uring_cqe *cqe;
	bool stop = false;

	exec_arm_wake(ex);
	for (;;) {
		unsigned int head, seen = 0;
		bool rearm = false;
		int ret;

		stop = exec_take(ex);
		exec_submit_ready(ex);
		exec_retire(ex);
		if (stop && !ex->pending && !ex->fifo)
			break;
		ret = io_uring_submit_and_wait(&ex->ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EBUSY && ret != -EAGAIN) {
			/*
			 * The ring failed us: take the device out of service
			 * so that what waits fails (-ENODEV) rather than
			 * hangs, and keep reaping what is on the ring.
			 */
			if (!atomic_exchange(&ex->removed, true))
				fprintf(stderr, "pathways: device %u: io_uring: %s; device out of service\n",
					ex->dev, strerror(-ret));
			exec_take(ex);
			exec_submit_ready(ex);
			exec_retire(ex);
			if (!ex->inflight && !ex->pending && !ex->fifo &&
			    ex->stop)
				break;
			usleep(1000);
		}
		io_uring_for_each_cqe(&ex->ring, head, cqe) {
			seen++;
			if (cqe->user_data == PW_EXEC_WAKE_TAG) {
				rearm = true;
				continue;
			}
			{
				struct pw_item *it = io_uring_cqe_get_data(cqe);

				it->res = cqe->res;
				it->done = true;
				ex->inflight--;
			}
		}
		io_uring_cq_advance(&ex->ring, seen);
		if (rearm)
			exec_arm_wake(ex);
	}
	return NULL;
}

int pw_exec_start(struct pw_ctrl *ctrl, unsigned int dev)
{
	struct pw_exec *ex = &ctrl->exec[dev];
	int ret;

	memset(ex, 0, sizeof(*ex));
	ex->ctrl = ctrl;
	ex->dev = dev;
	ex->fd = pwtpu_open(dev);
	if (ex->fd < 0)
		return pw_fail(ex->fd, "open /dev/pwtpu%u: %s", dev,
			       strerror(-ex->fd));
	ex->efd = eventfd(0, EFD_CLOEXEC);
	if (ex->efd < 0) {
		ret = -errno;
		goto err_fd;
	}
	ret = pwtpu_ring_init(&ex->ring, PW_EXEC_RING_ENTRIES, 0);
	if (ret)
		goto err_efd;
	pthread_mutex_init(&ex->lock, NULL);
	ret = -pthread_create(&ex->thread, NULL, exec_thread, ex);
	if (ret)
		goto err_ring;
	return 0;
err_ring:
	pthread_mutex_destroy(&ex->lock);
	io_uring_queue_exit(&ex->ring);
err_efd:
	close(ex->efd);
err_fd:
	close(ex->fd);
	return pw_fail(ret, "device %u executor: %s", dev, strerror(-ret));
}

void pw_exec_stop(struct pw_exec *ex)
{
	pthread_mutex_lock(&ex->lock);
	ex->stop = true;
	pthread_mutex_unlock(&ex->lock);
	pw_exec_wake(ex);
	pthread_join(ex->thread, NULL);
	pthread_mutex_destroy(&ex->lock);
	io_uring_queue_exit(&ex->ring);
	close(ex->efd);
	close(ex->fd);
}
