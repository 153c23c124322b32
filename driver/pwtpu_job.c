// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_job.c - turn a struct pwtpu_cmd into a job: validate it, take
 * references on what it uses (for host copies, the host buffer's pages,
 * pinned), and say whether it is short enough to run inline. Shared by
 * the io_uring and ioctl paths, so both accept and reject exactly the
 * same commands. A job is prepared on its submitter's stack and moved to
 * the heap only to be queued.
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
#include "../firmware/pwfw_platform.h"

/*
 * Start @job, the caller's storage, for @ctx in the submitter's context.
 * Zeroed up to its arrays, which are read only up to their counts
 * (@nbos, @npages), and its completion, which only a queued job uses:
 * on the inline path that is half of what zeroing it all would cost.
 */
static void pwtpu_job_init(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
			   u32 nr, u32 flags)
{
	memset(job, 0, offsetof(struct pwtpu_job, bos));
	INIT_LIST_HEAD(&job->node);
	job->pdev = ctx->pdev;
	job->ctx = ctx;
	job->task = current;
	job->nr = nr;
	job->flags = flags;
}

/* Drop what a prepared @job holds; its storage is the caller's. */
void pwtpu_job_release(struct pwtpu_job *job)
{
	u32 i;

	if (job->npages)
		/* The device wrote into them: COPY_FROM_DEV dirties them. */
		unpin_user_pages_dirty_lock(job->pages, job->npages,
					    job->wrote_host);
	/* Tested first: most commands have none of these, and free fast. */
	if (job->pages && job->pages != job->small_pages)
		kvfree(job->pages);
	for (i = 0; i < job->nbos; i++)
		pwtpu_bo_put(job->bos[i]);
	if (job->prog)
		pwtpu_prog_put(job->prog);
	kfree(job->gang);
	if (job->scratch)
		kvfree(job->scratch);
}

/* End a queued job, its submission path's alone (see pwtpu_job_to_heap()). */
void pwtpu_job_free(struct pwtpu_job *job)
{
	struct pwtpu_ctx *ctx = job->ctx;

	pwtpu_job_release(job);
	put_task_struct(job->task);
	kfree(job);
	atomic_dec(&ctx->jobs);
	pwtpu_ctx_put(ctx);
}

/*
 * Move a prepared @job from its submitter's stack to the heap, to be
 * queued: the one allocation a command makes, charged to the submitter,
 * and only when it does not run inline. It is counted against the
 * island's max_inflight for the file and holds the file's context and
 * its submitter. An
 * ERR_PTR (@job is then still the caller's to release): -EBUSY with
 * max_inflight commands of the file queued or running, -ENOMEM.
 */
static struct pwtpu_job *pwtpu_job_to_heap(struct pwtpu_job *job)
{
	struct pwtpu_ctx *ctx = job->ctx;
	struct pwtpu_job *heap;

	if (atomic_inc_return(&ctx->jobs) > ctx->pdev->isl->max_inflight) {
		atomic_dec(&ctx->jobs);
		return ERR_PTR(-EBUSY);
	}
	heap = kmemdup(job, sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!heap) {
		atomic_dec(&ctx->jobs);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&heap->node);
	init_completion(&heap->turn);
	if (job->pages == job->small_pages)
		heap->pages = heap->small_pages;
	kref_get(&ctx->ref);
	get_task_struct(heap->task);
	return heap;
}

/* The gang of an EXEC, copied and checked now: the device runs it later. */
static int pwtpu_job_gang(struct pwtpu_job *job, const struct pwtpu_cmd *cmd)
{
	struct pwtpu_dev *pdev = job->pdev;
	int ret;

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
 * calling the OOM killer, or allocating when it runs. In skip mode
 * collectives compute nothing and need none.
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
	const u32 __user *ubufs;
	u32 i, j;
	int ret;

	if (cmd->peer_handle || cmd->host_ptr || cmd->offset || cmd->length ||
	    cmd->peer_offset)
		return -EINVAL;
	job->prog = pwtpu_ctx_get_prog(ctx, cmd->handle);
	if (!job->prog)
		return -ENOENT;
	ret = pwfw_cmd_check_exec(&job->prog->fw, cmd->nbufs, cmd->gang_ptr);
	if (!ret)
		ret = pwtpu_job_gang(job, cmd);
	if (ret)
		return ret;
	/*
	 * At most PWTPU_MAX_BUFS, usually one or two: get_user() each, not
	 * copy_from_user() of a variable size, whose hardened-usercopy check
	 * walks the stack frames on every command.
	 */
	ubufs = u64_to_user_ptr(cmd->bufs_ptr);
	for (i = 0; i < cmd->nbufs; i++)
		if (get_user(handles[i], ubufs + i))
			return -EFAULT;

	for (i = 0; i < cmd->nbufs; i++) {
		for (j = 0; j < i; j++)
			if (handles[j] == handles[i])
				return -EINVAL;
		job->bos[i] = pwtpu_ctx_get_bo(ctx, handles[i]);
		if (!job->bos[i])
			return -ENOENT;
		job->nbos = i + 1;
		ret = pwfw_cmd_check_buf(&job->prog->fw, i, job->bos[i]->size);
		if (ret)
			return ret;
	}
	return pwtpu_job_scratch(job);
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

	if (!pwfw_cmd_range_ok(job->bos[0]->size, cmd->offset, cmd->length) ||
	    !pwfw_cmd_range_ok(bo->size, cmd->peer_offset, cmd->length))
		return -EINVAL;
	job->offset = cmd->offset;
	job->peer_offset = cmd->peer_offset;
	job->length = cmd->length;
	return 0;
}

/*
 * A host copy moves data between HBM and the caller's memory when the
 * device runs it, like DMA: its pages are pinned here, in the submitter's
 * context (as NVMe passthrough maps a user buffer), so its runner never
 * faults on user memory: a buffer whose pages never come (a FUSE
 * file whose server does not answer, a userfaultfd nobody serves) blocks
 * only its submitter, and the job holds no address space. Nothing is
 * staged in the kernel; the host buffer must stay valid until the
 * command completes.
 */
static int pwtpu_job_copy_in(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
			     const struct pwtpu_cmd *cmd)
{
	bool to_host = job->nr == _IOC_NR(PWTPU_CMD_COPY_FROM_DEV);
	unsigned long first, npages;
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
	if (!pwfw_cmd_range_ok(bo->size, cmd->offset, cmd->length))
		return -EINVAL;
	if (!access_ok(u64_to_user_ptr(cmd->host_ptr), cmd->length))
		return -EFAULT;
	job->offset = cmd->offset;
	job->length = cmd->length;
	job->host_ptr = cmd->host_ptr;

	first = cmd->host_ptr & PAGE_MASK;
	npages = DIV_ROUND_UP(offset_in_page(cmd->host_ptr) + cmd->length,
			      PAGE_SIZE);
	if (npages <= ARRAY_SIZE(job->small_pages))
		job->pages = job->small_pages;
	else
		job->pages = kvmalloc_array(npages, sizeof(*job->pages),
					    GFP_KERNEL_ACCOUNT);
	if (!job->pages)
		return -ENOMEM;
	/* Only what was pinned is let go (release sees npages). */
	for (; job->npages < npages; job->npages += ret) {
		ret = pin_user_pages_fast(first + job->npages * PAGE_SIZE,
					  min(npages - job->npages, 1UL << 16),
					  to_host ? FOLL_WRITE : 0,
					  job->pages + job->npages);
		if (ret <= 0)
			return ret < 0 ? (int)ret : -EFAULT;
	}
	return 0;
}

/*
 * Prepare @job, the caller's storage, for @cmd: 0 with @job holding its
 * references (pwtpu_job_release() ends it; pwtpu_job_to_heap() moves
 * it to be queued), or
 * -ENOTTY for an unknown command, -EINVAL for malformed fields or flags
 * (and a malformed gang, a gang_fd that is not a gang file, a peer file
 * that is not a pwtpu device), -ENOENT for a handle the file does not
 * own, -ERANGE for a buffer too small for its binding, -EBADF for a peer
 * or gang fd that is not open, -ENOMEM for a collective's scratch the
 * submitter's cgroup has no room for, -EFAULT for bad user memory (or
 * what pinning a host copy's pages said: -ENOMEM, -EINTR, -EHWPOISON).
 */
int pwtpu_job_prepare(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
		      u32 cmd_op, const struct pwtpu_cmd *cmd)
{
	int ret;

	switch (cmd_op) {
	case PWTPU_CMD_NOP:
	case PWTPU_CMD_EXEC:
	case PWTPU_CMD_COPY_TO_DEV:
	case PWTPU_CMD_COPY_FROM_DEV:
	case PWTPU_CMD_COPY_PEER:
		break;
	default:
		return -ENOTTY;
	}
	if (cmd->flags & ~PWTPU_CMD_F_ALL)
		return -EINVAL;

	pwtpu_job_init(job, ctx, _IOC_NR(cmd_op), cmd->flags);

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
	if (ret)
		pwtpu_job_release(job);
	return ret;
}

/*
 * Whether @job may run inline, in its submitter's context, should the
 * device be idle (include/uapi/pwtpu.h, docs/driver.md): its whole run
 * must be about as short as its dispatch, since it holds the submitter
 * (and its ring) for that long. So: NOP; an EXEC whose real work fits
 * one of the firmware's uninterrupted pieces, of at most
 * PWTPU_INLINE_MAX_INSNS instructions run (loops and delays count no
 * work, and a spec may model instructions at no cost), and whose
 * modelled time is at most inline_us (in modelled timing the submitter
 * also spends that wait), never one with collectives, whose members wait for each other
 * and may be later SQEs of the same submission; a host copy of at most
 * PWTPU_INLINE_COPY_MAX bytes (its pages fit the job: no allocation)
 * and inline_us modelled. Never a COPY_PEER, which waits for the
 * island's links.
 */
static bool pwtpu_job_short(const struct pwtpu_job *job)
{
	u64 limit = (u64)READ_ONCE(pwtpu_inline_us) * NSEC_PER_USEC;
	const struct pwfw_prog *prog;

	if (!limit || (job->flags & PWTPU_CMD_F_QUEUED))
		return false;
	switch (job->nr) {
	case _IOC_NR(PWTPU_CMD_NOP):
		return true;
	case _IOC_NR(PWTPU_CMD_EXEC):
		prog = &job->prog->fw;
		return !job->gang && prog->work <= PWFW_FPU_CHUNK &&
		       prog->dyn_insns <= PWTPU_INLINE_MAX_INSNS &&
		       prog->modeled_ns <= limit;
	case _IOC_NR(PWTPU_CMD_COPY_TO_DEV):
	case _IOC_NR(PWTPU_CMD_COPY_FROM_DEV):
		return job->length <= PWTPU_INLINE_COPY_MAX &&
		       pwfw_model_copy_ns(&job->pdev->isl->spec,
					  job->length) <= limit;
	default:
		return false;
	}
}

/*
 * Where a prepared @job goes, for both submission paths: NULL when it
 * ran inline (its result and times are in it; the caller releases it),
 * else its heap copy to be queued, or an ERR_PTR (@job released then).
 */
struct pwtpu_job *pwtpu_job_start(struct pwtpu_job *job)
{
	struct pwtpu_job *queued;

	if (pwtpu_job_short(job) && pwtpu_queue_run_inline(job))
		return NULL;
	queued = pwtpu_job_to_heap(job);
	if (IS_ERR(queued))
		pwtpu_job_release(job);
	return queued;
}

/*
 * Run by the device (firmware/pwfw_cmd.c): copy between HBM and the
 * pinned host pages, a page at a time, letting others run and stopping
 * for a dying owner or the watchdog every 1 MiB.
 */
void pwtpu_job_host_copy(struct pwfw_cmd *cmd)
{
	struct pwtpu_job *job = cmd->owner;
	u8 *hbm = (u8 *)cmd->bufs[0].base + cmd->offset;
	bool to_dev = cmd->nr == _IOC_NR(PWTPU_CMD_COPY_TO_DEV);
	unsigned long off = offset_in_page(job->host_ptr), i;
	u64 done = 0, n;
	u8 *host;

	job->wrote_host = !to_dev;
	for (i = 0; i < job->npages && done < cmd->length; i++) {
		n = min_t(u64, PAGE_SIZE - off, cmd->length - done);
		host = kmap_local_page(job->pages[i]);
		if (to_dev)
			memcpy(hbm + done, host + off, n);
		else
			memcpy(host + off, hbm + done, n);
		kunmap_local(host);
		done += n;
		off = 0;
		/* Every 1 MiB: a dying owner or the watchdog stops it. */
		if (!((i + 1) % (SZ_1M / PAGE_SIZE)) && done < cmd->length) {
			cond_resched();
			cmd->result = cmd->stop(cmd, true);
			if (cmd->result)
				return;
		}
	}
}
