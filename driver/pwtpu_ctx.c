// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_ctx.c - per-open contexts: the handle tables of one open file,
 * and its runner thread.
 */
#include <linux/cgroup.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "pwtpu.h"

int pwtpu_open(struct inode *inode, struct file *file)
{
	struct pwtpu_dev *pdev = container_of(inode->i_cdev, struct pwtpu_dev,
					      cdev);
	struct pwtpu_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	kref_init(&ctx->ref);
	ctx->pdev = pdev;
	xa_init_flags(&ctx->bos, XA_FLAGS_ALLOC1);
	xa_init_flags(&ctx->progs, XA_FLAGS_ALLOC1);
	mutex_init(&ctx->runner_lock);
	init_waitqueue_head(&ctx->rwait);
	file->private_data = ctx;
	return 0;
}

static void pwtpu_ctx_free(struct kref *ref)
{
	kfree(container_of(ref, struct pwtpu_ctx, ref));
}

void pwtpu_ctx_put(struct pwtpu_ctx *ctx)
{
	kref_put(&ctx->ref, pwtpu_ctx_free);
}

/*
 * The file's runner, made at its first queued io_uring command: a kernel
 * thread that runs the file's queued commands (pwtpu_queue_runner()),
 * attached to the cgroups of the task that queues it, as vhost attaches
 * its worker to its owner's, so that their CPU time is charged where the
 * work came from. Attaching takes the cgroup locks once per file, not
 * per command. A file handed to another process keeps the first
 * submitter's cgroups. A device has at most PWTPU_MAX_RUNNERS: kernel
 * threads are made by kthreadd, outside every user's limits (threads,
 * pids, memory), so one user's open files must not make them without
 * bound. 0; -EBUSY with PWTPU_MAX_RUNNERS already, or when no thread can
 * be made (never -EAGAIN, which io_uring would take as "reissue from
 * io-wq", out of order); -EINTR for a killed submitter; -ENOMEM; or a
 * cgroup controller's refusal to attach.
 */
int pwtpu_ctx_runner(struct pwtpu_ctx *ctx)
{
	atomic_t *runners = &ctx->pdev->runners;
	struct task_struct *runner;
	int ret = 0;

	/* Pairs with the release below: a runner seen is a runner woken. */
	if (smp_load_acquire(&ctx->runner))
		return 0;
	if (mutex_lock_killable(&ctx->runner_lock))
		return -EINTR;
	if (ctx->runner)
		goto out;
	if (atomic_inc_return(runners) > PWTPU_MAX_RUNNERS) {
		ret = -EBUSY;
		goto out_count;
	}
	runner = kthread_create(pwtpu_queue_runner, ctx, "pwtpu%u-%d",
				ctx->pdev->index, task_tgid_nr(current));
	if (IS_ERR(runner)) {
		ret = PTR_ERR(runner);
		goto out_count;
	}
	ret = cgroup_attach_task_all(current, runner);
	if (ret) {
		kthread_stop(runner);	/* never woken: it does not run */
		goto out_count;
	}
	wake_up_process(runner);
	/* Published once made and woken, for the lockless check above. */
	smp_store_release(&ctx->runner, runner);
	goto out;
out_count:
	atomic_dec(runners);
out:
	mutex_unlock(&ctx->runner_lock);
	return ret == -EAGAIN ? -EBUSY : ret;
}

/*
 * Every command in flight holds a reference on the file (io_uring), or
 * is its ioctl caller's, who holds the file, so none is left here: the
 * runner stops, and dropping the handles frees what they held.
 */
int pwtpu_release(struct inode *inode, struct file *file)
{
	struct pwtpu_ctx *ctx = file->private_data;
	struct pwtpu_prog *prog;
	struct pwtpu_bo *bo;
	unsigned long h;

	if (ctx->runner) {
		kthread_stop(ctx->runner);
		atomic_dec(&ctx->pdev->runners);
	}
	/* Up to PWTPU_MAX_HANDLES of each: give the CPU up as we go. */
	xa_for_each(&ctx->bos, h, bo) {
		pwtpu_bo_put(bo);
		cond_resched();
	}
	xa_destroy(&ctx->bos);
	xa_for_each(&ctx->progs, h, prog) {
		pwtpu_prog_put(prog);
		cond_resched();
	}
	xa_destroy(&ctx->progs);
	pwtpu_ctx_put(ctx);
	return 0;
}

/*
 * One more handle of a kind (@count, the file's nbos or nprogs): -EDQUOT
 * past PWTPU_MAX_HANDLES, so one file cannot pin kernel memory without
 * bound (what it does pin is charged to its memory cgroup as well).
 */
int pwtpu_ctx_count_get(atomic_t *count)
{
	if (atomic_inc_return(count) > PWTPU_MAX_HANDLES) {
		atomic_dec(count);
		return -EDQUOT;
	}
	return 0;
}

struct pwtpu_bo *pwtpu_ctx_get_bo(struct pwtpu_ctx *ctx, u32 handle)
{
	struct pwtpu_bo *bo;

	xa_lock(&ctx->bos);
	bo = xa_load(&ctx->bos, handle);
	if (bo)
		kref_get(&bo->ref);
	xa_unlock(&ctx->bos);
	return bo;
}

struct pwtpu_prog *pwtpu_ctx_get_prog(struct pwtpu_ctx *ctx, u32 handle)
{
	struct pwtpu_prog *prog;

	xa_lock(&ctx->progs);
	prog = xa_load(&ctx->progs, handle);
	if (prog)
		kref_get(&prog->ref);
	xa_unlock(&ctx->progs);
	return prog;
}
