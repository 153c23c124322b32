// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_uring.c - rings for pwtpu commands (SQE128 for the 80-byte
 * command, CQE32 for the device times) and a one-command round trip.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

int pwtpu_ring_init(struct io_uring *ring, unsigned int entries,
		    unsigned int extra_flags)
{
	return io_uring_queue_init(entries, ring, IORING_SETUP_SQE128 |
				   IORING_SETUP_CQE32 | extra_flags);
}

/* Register @ring's fd for the calling thread: 0 or -errno. */
static int register_ring_fd(struct io_uring *ring)
{
	/* The count of rings registered: 1, or -errno. */
	int ret = io_uring_register_ring_fd(ring);

	return ret == 1 ? 0 : ret < 0 ? ret : -EIO;
}

int pwtpu_ring_init_owned(struct io_uring *ring, unsigned int entries,
			  unsigned int extra_flags, const int *fds,
			  unsigned int nfds)
{
	unsigned int flags = extra_flags;
	int ret;

	if (!(flags & IORING_SETUP_SQPOLL)) {
		flags |= IORING_SETUP_SINGLE_ISSUER;
		if (!(flags & IORING_SETUP_IOPOLL))
			flags |= IORING_SETUP_DEFER_TASKRUN |
				 IORING_SETUP_COOP_TASKRUN;
	}
	ret = pwtpu_ring_init(ring, entries, flags);
	if (ret)
		return ret;
	ret = nfds ? io_uring_register_files(ring, fds, nfds) : 0;
	/* A registered fd is the registering thread's: the owner's. */
	if (!ret && !(flags & IORING_SETUP_R_DISABLED))
		ret = register_ring_fd(ring);
	if (ret)
		io_uring_queue_exit(ring);
	return ret;
}

int pwtpu_ring_enable(struct io_uring *ring)
{
	/*
	 * liburing 2.3 (Debian 12) declares io_uring_enable_rings() but
	 * does not export it: the system call itself.
	 */
	if (syscall(__NR_io_uring_register, ring->ring_fd,
		    IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0)
		return -errno;
	return register_ring_fd(ring);
}

int pwtpu_ring_get_events(struct io_uring *ring)
{
	if (!(ring->flags & IORING_SETUP_DEFER_TASKRUN))
		return 0;
	return io_uring_get_events(ring);
}

int pwtpu_uring_run(struct io_uring *ring, int fd, uint32_t cmd_op,
		    const struct pwtpu_cmd *cmd, uint64_t *extra)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	pwtpu_prep_uring_cmd(sqe, fd, cmd_op, cmd);
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0)
		return ret;
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	if (extra)
		*extra = (ring->flags & IORING_SETUP_CQE32) ?
			 cqe->big_cqe[0] : 0;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}
