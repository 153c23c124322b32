// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_uring.c - device commands as IORING_OP_URING_CMD, the fast path.
 *
 * The 80-byte command lives in the shared SQ ring, so it is copied before
 * anything looks at it. A valid command is queued and the SQE answered
 * with -EIOCBQUEUED; the device thread completes it through task work in
 * the submitter's context, where a device-to-host copy can reach user
 * memory. Every queued command ends: the device runs a bounded program
 * and always completes (6.1 has no uring_cmd cancellation to rely on).
 */
#include <linux/fs.h>

#include "pwtpu.h"
#include "pwtpu_compat.h"

struct pwtpu_uring_pdu {
	struct pwtpu_job *job;
};

static struct pwtpu_uring_pdu *pwtpu_pdu(struct io_uring_cmd *ioucmd)
{
	BUILD_BUG_ON(sizeof(struct pwtpu_uring_pdu) > sizeof(ioucmd->pdu));
	return (struct pwtpu_uring_pdu *)ioucmd->pdu;
}

static u64 pwtpu_cqe_times(const struct pwtpu_job *job)
{
	u64 queue = min_t(u64, job->start_ns - job->submit_ns, U32_MAX);
	u64 exec = min_t(u64, job->end_ns - job->start_ns, U32_MAX);

	return exec << 32 | queue;
}

static void pwtpu_uring_task_cb(struct io_uring_cmd *ioucmd,
				unsigned int issue_flags)
{
	struct pwtpu_job *job = pwtpu_pdu(ioucmd)->job;
	int res = pwtpu_job_copy_out(job);

	io_uring_cmd_done(ioucmd, res, pwtpu_cqe_times(job), issue_flags);
	pwtpu_job_put(job);
}

void pwtpu_uring_complete(struct pwtpu_job *job)
{
	io_uring_cmd_complete_in_task(job->ioucmd, pwtpu_uring_task_cb);
}

int pwtpu_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags)
{
	struct pwtpu_ctx *ctx = ioucmd->file->private_data;
	struct pwtpu_job *job;
	struct pwtpu_cmd cmd;

	BUILD_BUG_ON(sizeof(struct pwtpu_cmd) != 80);
	if (_IOC_TYPE(ioucmd->cmd_op) != PWTPU_IOC_MAGIC)
		return -ENOTTY;
	if (!(issue_flags & IO_URING_F_SQE128) ||
	    !(issue_flags & IO_URING_F_CQE32))
		return -EINVAL;
	/*
	 * Copies stage their data and may wait for staging memory: not on
	 * the non-blocking submit path, io_uring reissues them from a worker.
	 */
	if ((issue_flags & IO_URING_F_NONBLOCK) &&
	    (ioucmd->cmd_op == PWTPU_CMD_COPY_TO_DEV ||
	     ioucmd->cmd_op == PWTPU_CMD_COPY_FROM_DEV))
		return -EAGAIN;
	memcpy(&cmd, ioucmd->cmd, sizeof(cmd));

	job = pwtpu_job_prepare(ctx, ioucmd->cmd_op, &cmd);
	if (IS_ERR(job))
		return PTR_ERR(job);
	job->ioucmd = ioucmd;
	pwtpu_pdu(ioucmd)->job = job;
	pwtpu_queue_submit(job);
	return -EIOCBQUEUED;
}
