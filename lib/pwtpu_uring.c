// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_uring.c - rings for pwtpu commands (SQE128 for the 80-byte
 * command, CQE32 for the device times) and a one-command round trip.
 */
#include <errno.h>

#include "pwtpu/pwtpu_dev.h"

int pwtpu_ring_init(struct io_uring *ring, unsigned int entries,
		    unsigned int extra_flags)
{
	return io_uring_queue_init(entries, ring, IORING_SETUP_SQE128 |
				   IORING_SETUP_CQE32 | extra_flags);
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
