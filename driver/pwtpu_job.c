// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_job.c - turn a struct pwtpu_cmd into a job: validate it, take
 * references on what it uses, stage host data. Shared by the io_uring and
 * ioctl paths, so both accept and reject exactly the same commands.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "pwtpu.h"

static struct pwtpu_job *pwtpu_job_alloc(struct pwtpu_dev *pdev, u32 nr)
{
	struct pwtpu_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	if (!job)
		return NULL;
	job->pdev = pdev;
	job->nr = nr;
	refcount_set(&job->refs, 1);
	init_completion(&job->done);
	return job;
}

/*
 * Staging memory for copies is bounded per device by its HBM size, so a
 * deep queue of large copies waits for earlier ones instead of taking
 * the host's memory: back-pressure, not failure.
 */
static bool pwtpu_stage_try(struct pwtpu_dev *pdev, u64 bytes)
{
	s64 used = atomic64_read(&pdev->staged);

	do {
		if (bytes > pdev->isl->hbm_bytes - used)
			return false;
	} while (!atomic64_try_cmpxchg(&pdev->staged, &used, used + bytes));
	return true;
}

static void pwtpu_stage_release(struct pwtpu_dev *pdev, u64 bytes)
{
	if (!bytes)
		return;
	atomic64_sub(bytes, &pdev->staged);
	wake_up(&pdev->stage_wait);
}

void pwtpu_job_put(struct pwtpu_job *job)
{
	u32 i;

	if (!refcount_dec_and_test(&job->refs))
		return;
	kvfree(job->bounce);
	pwtpu_stage_release(job->pdev, job->staged);
	for (i = 0; i < job->nbos; i++)
		pwtpu_bo_put(job->bos[i]);
	if (job->prog)
		pwtpu_prog_put(job->prog);
	kfree(job);
}

static int pwtpu_job_bind(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
			  const struct pwtpu_cmd *cmd)
{
	u32 handles[PWTPU_MAX_BUFS];
	u32 i, j;

	job->prog = pwtpu_ctx_get_prog(ctx, cmd->handle);
	if (!job->prog)
		return -ENOENT;
	if (cmd->length || cmd->offset || cmd->host_ptr)
		return -EINVAL;
	if (cmd->nbufs != job->prog->fw.nbufs)
		return -EINVAL;
	if (copy_from_user(handles, u64_to_user_ptr(cmd->bufs_ptr),
			   cmd->nbufs * sizeof(u32)))
		return -EFAULT;

	for (i = 0; i < cmd->nbufs; i++) {
		for (j = 0; j < i; j++)
			if (handles[j] == handles[i])
				return -EINVAL;
		job->bos[i] = pwtpu_ctx_get_bo(ctx, handles[i]);
		if (!job->bos[i])
			return -ENOENT;
		job->nbos = i + 1;
		if (job->bos[i]->size < job->prog->fw.buf_bytes[i])
			return -ERANGE;
	}
	return 0;
}

static int pwtpu_job_copy_in(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
			     const struct pwtpu_cmd *cmd, bool to_dev)
{
	struct pwtpu_bo *bo;

	if (cmd->nbufs || cmd->bufs_ptr)
		return -EINVAL;
	bo = pwtpu_ctx_get_bo(ctx, cmd->handle);
	if (!bo)
		return -ENOENT;
	job->bos[0] = bo;
	job->nbos = 1;
	if (!cmd->length || cmd->offset > bo->size ||
	    cmd->length > bo->size - cmd->offset)
		return -EINVAL;
	job->offset = cmd->offset;
	job->length = cmd->length;
	job->host_ptr = cmd->host_ptr;

	if (wait_event_killable(job->pdev->stage_wait,
				pwtpu_stage_try(job->pdev, cmd->length)))
		return -EINTR;
	job->staged = cmd->length;
	job->bounce = kvmalloc(cmd->length, GFP_KERNEL_ACCOUNT);
	if (!job->bounce)
		return -ENOMEM;
	if (to_dev && copy_from_user(job->bounce,
				     u64_to_user_ptr(cmd->host_ptr),
				     cmd->length))
		return -EFAULT;
	/* Fail now, not after the device did the work, on a bad pointer. */
	if (!to_dev && !access_ok(u64_to_user_ptr(cmd->host_ptr), cmd->length))
		return -EFAULT;
	return 0;
}

/*
 * Returns a job holding one reference, or an ERR_PTR: -ENOTTY for an
 * unknown command, -EINVAL for malformed fields, -ENOENT for a handle
 * this context does not own, -ERANGE for a buffer too small for its
 * binding, -EFAULT for bad user memory.
 */
struct pwtpu_job *pwtpu_job_prepare(struct pwtpu_ctx *ctx, u32 cmd_op,
				    const struct pwtpu_cmd *cmd)
{
	struct pwtpu_job *job;
	int ret;

	switch (cmd_op) {
	case PWTPU_CMD_NOP:
	case PWTPU_CMD_EXEC:
	case PWTPU_CMD_COPY_TO_DEV:
	case PWTPU_CMD_COPY_FROM_DEV:
		break;
	default:
		return ERR_PTR(-ENOTTY);
	}
	if (cmd->flags || cmd->reserved0 ||
	    memchr_inv(cmd->reserved, 0, sizeof(cmd->reserved)))
		return ERR_PTR(-EINVAL);

	job = pwtpu_job_alloc(ctx->pdev, _IOC_NR(cmd_op));
	if (!job)
		return ERR_PTR(-ENOMEM);

	switch (cmd_op) {
	case PWTPU_CMD_NOP:
		ret = (cmd->handle || cmd->nbufs || cmd->bufs_ptr ||
		       cmd->host_ptr || cmd->offset || cmd->length) ? -EINVAL : 0;
		break;
	case PWTPU_CMD_EXEC:
		ret = pwtpu_job_bind(job, ctx, cmd);
		break;
	default:
		ret = pwtpu_job_copy_in(job, ctx, cmd,
					cmd_op == PWTPU_CMD_COPY_TO_DEV);
		break;
	}
	if (ret) {
		pwtpu_job_put(job);
		return ERR_PTR(ret);
	}
	return job;
}

/*
 * The second half of a device-to-host copy, in the submitter's context:
 * the device staged the bytes, this puts them in the caller's memory.
 */
int pwtpu_job_copy_out(struct pwtpu_job *job)
{
	if (job->result || job->nr != _IOC_NR(PWTPU_CMD_COPY_FROM_DEV))
		return job->result;
	if (!current->mm || (current->flags & (PF_EXITING | PF_KTHREAD)))
		return -ECANCELED;
	if (copy_to_user(u64_to_user_ptr(job->host_ptr), job->bounce,
			 job->length))
		return -EFAULT;
	return 0;
}
