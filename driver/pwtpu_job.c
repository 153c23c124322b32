// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_job.c - turn a struct pwtpu_cmd into a job: validate it, take
 * references on what it uses (for host copies, the host buffer's pages,
 * pinned). Shared by the io_uring and ioctl paths, so both accept and
 * reject exactly the same commands.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/task.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "pwtpu.h"

/*
 * A job of @ctx, counted against the island's max_inflight for the file
 * (-EBUSY past it) and charged to the caller's memory cgroup.
 */
static struct pwtpu_job *pwtpu_job_alloc(struct pwtpu_ctx *ctx, u32 nr)
{
	struct pwtpu_job *job;

	if (atomic_inc_return(&ctx->jobs) > ctx->pdev->isl->max_inflight) {
		atomic_dec(&ctx->jobs);
		return ERR_PTR(-EBUSY);
	}
	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job) {
		atomic_dec(&ctx->jobs);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&job->node);
	job->pdev = ctx->pdev;
	kref_get(&ctx->ref);
	job->ctx = ctx;
	job->task = get_task_struct(current);
	job->nr = nr;
	refcount_set(&job->refs, 1);
	init_completion(&job->done);
	return job;
}

void pwtpu_job_put(struct pwtpu_job *job)
{
	u32 i;

	if (!refcount_dec_and_test(&job->refs))
		return;
	if (job->pages) {
		/* The device wrote into them: COPY_FROM_DEV dirties them. */
		unpin_user_pages_dirty_lock(job->pages, job->npages,
					    job->wrote_host);
		kvfree(job->pages);
	}
	for (i = 0; i < job->nbos; i++)
		pwtpu_bo_put(job->bos[i]);
	if (job->prog)
		pwtpu_prog_put(job->prog);
	put_task_struct(job->task);
	atomic_dec(&job->ctx->jobs);
	pwtpu_ctx_put(job->ctx);
	kfree(job->gang);
	kvfree(job->scratch);
	kfree(job);
}

/* The gang of an EXEC, copied and checked now: the device runs it later. */
static int pwtpu_job_gang(struct pwtpu_job *job, const struct pwtpu_cmd *cmd)
{
	struct pwtpu_dev *pdev = job->pdev;
	int ret;

	/* A gang exactly when the program has collectives. */
	if (!cmd->gang_ptr != !job->prog->fw.ncoll)
		return -EINVAL;
	if (!cmd->gang_ptr)
		return 0;
	job->gang = memdup_user(u64_to_user_ptr(cmd->gang_ptr),
				sizeof(*job->gang));
	if (IS_ERR(job->gang)) {
		ret = PTR_ERR(job->gang);
		job->gang = NULL;
		return ret;
	}
	if (pwfw_gang_check(pdev->isl->fw, pdev->index, job->gang))
		return -EINVAL;
	return pwtpu_gang_scope(job->gang->gang_fd, &job->gang_scope);
}

/*
 * The collectives' scratch, up to twice a result (the firmware zeroes
 * what it uses), once the command is otherwise valid: the submitter's
 * memory cgroup pays, and past its limit the command fails rather than
 * calling the OOM killer, or allocating in the device thread where
 * nobody pays. In skip mode collectives compute nothing and need none.
 */
static int pwtpu_job_scratch(struct pwtpu_job *job)
{
	u64 bytes = job->prog->fw.coll_scratch;

	if (!bytes || READ_ONCE(job->pdev->isl->timing) == PWTPU_TIMING_SKIP)
		return 0;
	job->scratch = kvmalloc(bytes, GFP_KERNEL_ACCOUNT |
				__GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	return job->scratch ? 0 : -ENOMEM;
}

static int pwtpu_job_bind(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
			  const struct pwtpu_cmd *cmd)
{
	u32 handles[PWTPU_MAX_BUFS];
	u32 i, j;
	int ret;

	if (cmd->peer_handle || cmd->host_ptr || cmd->offset || cmd->length ||
	    cmd->peer_offset)
		return -EINVAL;
	job->prog = pwtpu_ctx_get_prog(ctx, cmd->handle);
	if (!job->prog)
		return -ENOENT;
	if (cmd->nbufs != job->prog->fw.nbufs)
		return -EINVAL;
	ret = pwtpu_job_gang(job, cmd);
	if (ret)
		return ret;
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
	return pwtpu_job_scratch(job);
}

/* Both ends of a copy: @bo must hold [@offset, @offset + @length). */
static bool pwtpu_range_ok(const struct pwtpu_bo *bo, u64 offset, u64 length)
{
	return length && offset <= bo->size && length <= bo->size - offset;
}

/*
 * The destination of a COPY_PEER: a BO of another open pwtpu file of the
 * caller's, named by its fd, on any device of the island.
 */
static int pwtpu_job_peer(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
			  const struct pwtpu_cmd *cmd)
{
	struct pwtpu_ctx *peer;
	struct pwtpu_bo *bo;
	struct file *file;

	if (cmd->bufs_ptr || cmd->host_ptr || cmd->gang_ptr)
		return -EINVAL;
	job->bos[0] = pwtpu_ctx_get_bo(ctx, cmd->handle);
	if (!job->bos[0])
		return -ENOENT;
	job->nbos = 1;

	file = fget(cmd->peer_fd);
	if (!file)
		return -EBADF;
	if (file->f_op != &pwtpu_fops) {
		fput(file);
		return -EINVAL;
	}
	peer = file->private_data;
	bo = pwtpu_ctx_get_bo(peer, cmd->peer_handle);
	job->peer = peer->pdev;
	fput(file);
	if (!bo)
		return -ENOENT;
	job->bos[1] = bo;
	job->nbos = 2;

	if (!pwtpu_range_ok(job->bos[0], cmd->offset, cmd->length) ||
	    !pwtpu_range_ok(bo, cmd->peer_offset, cmd->length))
		return -EINVAL;
	job->offset = cmd->offset;
	job->peer_offset = cmd->peer_offset;
	job->length = cmd->length;
	return 0;
}

/*
 * A host copy moves data between HBM and the caller's memory when the
 * device runs it, like DMA: its pages are pinned here, in the submitter's
 * context (as NVMe passthrough maps a user buffer), so the device thread
 * never faults on user memory: a buffer whose pages never come (a FUSE
 * file whose server does not answer, a userfaultfd nobody serves) blocks
 * only its submitter, and the job holds no address space. Nothing is
 * staged in the kernel; the host buffer must stay valid until the
 * command completes.
 */
static int pwtpu_job_copy_in(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
			     const struct pwtpu_cmd *cmd)
{
	bool to_host = job->nr == _IOC_NR(PWTPU_CMD_COPY_FROM_DEV);
	unsigned long first, pinned;
	struct pwtpu_bo *bo;
	long ret;

	if (cmd->nbufs || cmd->peer_handle || cmd->bufs_ptr || cmd->gang_ptr ||
	    cmd->peer_offset)
		return -EINVAL;
	bo = pwtpu_ctx_get_bo(ctx, cmd->handle);
	if (!bo)
		return -ENOENT;
	job->bos[0] = bo;
	job->nbos = 1;
	if (!pwtpu_range_ok(bo, cmd->offset, cmd->length))
		return -EINVAL;
	if (!access_ok(u64_to_user_ptr(cmd->host_ptr), cmd->length))
		return -EFAULT;
	job->offset = cmd->offset;
	job->length = cmd->length;
	job->host_ptr = cmd->host_ptr;

	first = cmd->host_ptr & PAGE_MASK;
	job->npages = DIV_ROUND_UP(offset_in_page(cmd->host_ptr) + cmd->length,
				   PAGE_SIZE);
	job->pages = kvmalloc_array(job->npages, sizeof(*job->pages),
				    GFP_KERNEL_ACCOUNT);
	if (!job->pages)
		return -ENOMEM;
	for (pinned = 0; pinned < job->npages; pinned += ret) {
		ret = pin_user_pages_fast(first + pinned * PAGE_SIZE,
					  min(job->npages - pinned, 1UL << 16),
					  to_host ? FOLL_WRITE : 0,
					  job->pages + pinned);
		if (ret <= 0)
			break;
	}
	if (pinned < job->npages) {
		/* Only what was pinned is let go (put sees npages). */
		job->npages = pinned;
		return ret < 0 ? (int)ret : -EFAULT;
	}
	return 0;
}

/*
 * Returns a job holding one reference, or an ERR_PTR: -ENOTTY for an
 * unknown command, -EINVAL for malformed fields (and a malformed gang, a
 * gang_fd that is not a gang file, a peer file that is not a pwtpu
 * device), -ENOENT for a handle the file does not own, -ERANGE for a
 * buffer too small for its binding, -EBADF for a peer or gang fd that is
 * not open, -ENOMEM for a collective's scratch the submitter's cgroup
 * has no room for, -EFAULT for bad user memory (or what pinning a host
 * copy's pages said: -ENOMEM, -EINTR, -EHWPOISON), -EBUSY when the file
 * has max_inflight commands queued or running.
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
	case PWTPU_CMD_COPY_PEER:
		break;
	default:
		return ERR_PTR(-ENOTTY);
	}
	if (cmd->flags)
		return ERR_PTR(-EINVAL);

	job = pwtpu_job_alloc(ctx, _IOC_NR(cmd_op));
	if (IS_ERR(job))
		return job;

	switch (cmd_op) {
	case PWTPU_CMD_NOP:
		ret = (cmd->handle || cmd->nbufs || cmd->peer_handle ||
		       cmd->bufs_ptr || cmd->host_ptr || cmd->offset ||
		       cmd->length || cmd->gang_ptr || cmd->peer_offset) ?
		      -EINVAL : 0;
		break;
	case PWTPU_CMD_EXEC:
		ret = pwtpu_job_bind(job, ctx, cmd);
		break;
	case PWTPU_CMD_COPY_PEER:
		ret = pwtpu_job_peer(job, ctx, cmd);
		break;
	default:
		ret = pwtpu_job_copy_in(job, ctx, cmd);
		break;
	}
	if (ret) {
		pwtpu_job_put(job);
		return ERR_PTR(ret);
	}
	return job;
}

/*
 * Run on the device thread: copy between HBM and the pinned host pages,
 * a page at a time, letting others run every 1 MiB.
 */
void pwtpu_job_host_copy(struct pwtpu_job *job)
{
	u8 *hbm = (u8 *)job->bos[0]->vaddr + job->offset;
	bool to_dev = job->nr == _IOC_NR(PWTPU_CMD_COPY_TO_DEV);
	unsigned long off = offset_in_page(job->host_ptr), i;
	u64 done = 0, n;
	u8 *host;

	job->wrote_host = !to_dev;
	for (i = 0; i < job->npages && done < job->length; i++) {
		n = min_t(u64, PAGE_SIZE - off, job->length - done);
		host = kmap_local_page(job->pages[i]);
		if (to_dev)
			memcpy(hbm + done, host + off, n);
		else
			memcpy(host + off, hbm + done, n);
		kunmap_local(host);
		done += n;
		off = 0;
		if (!(i % (SZ_1M / PAGE_SIZE)))
			cond_resched();
	}
}
