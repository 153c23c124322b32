// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_ctx.c - per-open contexts: the handle tables of one open file.
 */
#include <linux/fs.h>
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
 * Every command in flight holds a reference on the file (io_uring), or
 * on the context and what it uses (a killed ioctl caller's), so dropping
 * the handles here frees at once what is idle and the rest when its last
 * command completes.
 */
int pwtpu_release(struct inode *inode, struct file *file)
{
	struct pwtpu_ctx *ctx = file->private_data;
	struct pwtpu_prog *prog;
	struct pwtpu_bo *bo;
	unsigned long h;

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
