// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_uring.c - device commands as IORING_OP_URING_CMD, the fast path.
 *
 * The 80-byte command lives in the shared SQ ring, so it is copied before
 * anything looks at it. A short command that finds the device idle runs
 * inline, in the issue of its SQE, and is completed there (as ublk
 * completes a command inside ->uring_cmd): no allocation, no thread
 * woken. Any other valid command is moved to the heap, queued, and the
 * SQE answered with -EIOCBQUEUED, in submission order (nothing is
 * reissued from io-wq out of order); its file's runner, a thread in the
 * submitter's cgroups, runs it when its turn comes. The one wait here
 * is making that runner, once per file, or a host copy's
 * pinning of its pages, which blocks the submitting ring while a page is
 * faulted in, and for as long as a page never comes (its own memory: an
 * unserved userfaultfd, a hung FUSE server) until the submitter is
 * killed. The runner completes a queued command through task work,
 * or, on an IOPOLL ring, directly: io_uring_cmd_done() then only
 * marks it done for the submitter's poll to reap. Every queued command
 * ends: the device runs a bounded program and always completes (6.1 has
 * no uring_cmd cancellation to rely on).
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
	u64 times = pwtpu_cqe_times(job);
	int res = job->result;

	/* Done may drop the last file reference: nothing of ours after it. */
	pwtpu_job_free(job);
	io_uring_cmd_done(ioucmd, res, times, issue_flags);
}

/* From the file's runner. */
void pwtpu_uring_complete(struct pwtpu_job *job)
{
	/* A polled ring's done only marks the request for its poller. */
	if (job->polled)
		pwtpu_uring_task_cb(job->ioucmd, IO_URING_F_UNLOCKED);
	else
		io_uring_cmd_complete_in_task(job->ioucmd,
					      pwtpu_uring_task_cb);
}

/*
 * IOPOLL: io_uring spins on the request's own completion flag, which the
 * file's runner or the inline path sets; there is no completion queue of
 * the device's to reap here.
 */
int pwtpu_uring_iopoll(struct io_uring_cmd *ioucmd, struct io_comp_batch *iob,
		       unsigned int poll_flags)
{
	cpu_relax();
	return 0;
}

int pwtpu_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags)
{
	struct pwtpu_ctx *ctx = ioucmd->file->private_data;
	struct pwtpu_job job, *queued;
	struct pwtpu_cmd cmd;
	u64 times;
	int ret;

	BUILD_BUG_ON(sizeof(struct pwtpu_cmd) != 80);
	if (_IOC_TYPE(ioucmd->cmd_op) != PWTPU_IOC_MAGIC)
		return -ENOTTY;
	if (!(issue_flags & IO_URING_F_SQE128) ||
	    !(issue_flags & IO_URING_F_CQE32))
		return -EINVAL;
	/*
	 * No command flag is honoured here: a registered buffer
	 * (IORING_URING_CMD_FIXED) would be silently unused, so refuse it.
	 */
	if (ioucmd->flags)
		return -EINVAL;
	memcpy(&cmd, pwtpu_uring_cmd_area(ioucmd), sizeof(cmd));

	ret = pwtpu_job_prepare(&job, ctx, ioucmd->cmd_op, &cmd);
	if (ret)
		return ret;
	queued = pwtpu_job_start(&job);
	if (!queued) {
		ret = job.result;
		times = pwtpu_cqe_times(&job);
		pwtpu_job_release(&job);
		io_uring_cmd_done(ioucmd, ret, times, issue_flags);
		return -EIOCBQUEUED;
	}
	if (IS_ERR(queued))
		return PTR_ERR(queued);
	ret = pwtpu_ctx_runner(ctx);
	if (ret) {
		pwtpu_job_free(queued);
		return ret;
	}
	queued->ioucmd = ioucmd;
	queued->polled = issue_flags & IO_URING_F_IOPOLL;
	pwtpu_pdu(ioucmd)->job = queued;
	pwtpu_queue_submit(queued);
	return -EIOCBQUEUED;
}
