// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_prog.c - programs: copied in, verified once, kept per context.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "pwtpu.h"

static void pwtpu_prog_release(struct kref *ref)
{
	struct pwtpu_prog *prog = container_of(ref, struct pwtpu_prog, ref);

	kvfree(prog->image);
	kfree(prog);
}

void pwtpu_prog_put(struct pwtpu_prog *prog)
{
	kref_put(&prog->ref, pwtpu_prog_release);
}

/* Tell the caller why the verifier said no: code, instruction, message. */
static int pwtpu_prog_report(struct pwtpu_prog_load __user *uarg,
			     struct pwtpu_prog_load *arg,
			     const struct pwfw_verr *verr)
{
	u32 len;

	arg->verr = verr->code;
	arg->err_insn = verr->insn;
	if (arg->log_size) {
		len = strnlen(verr->msg, sizeof(verr->msg)) + 1;
		len = min(arg->log_size, len);
		if (copy_to_user(u64_to_user_ptr(arg->log_ptr), verr->msg, len))
			return -EFAULT;
		if (len == arg->log_size &&
		    put_user('\0', (char __user *)u64_to_user_ptr(arg->log_ptr) +
			     len - 1))
			return -EFAULT;
	}
	if (copy_to_user(uarg, arg, sizeof(*arg)))
		return -EFAULT;
	return 0;
}

int pwtpu_prog_load(struct pwtpu_ctx *ctx, struct pwtpu_prog_load __user *uarg)
{
	struct pwtpu_prog_load arg;
	struct pwtpu_prog *prog;
	struct pwfw_verr *verr;
	u32 handle;
	int ret;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.flags || arg.handle || arg.verr || arg.err_insn ||
	    arg.modeled_ns || memchr_inv(arg.reserved, 0, sizeof(arg.reserved)))
		return -EINVAL;
	if (!arg.prog_size)
		return -EINVAL;
	if (arg.prog_size > PWFW_MAX_PROG_SIZE)
		return -E2BIG;

	ret = pwtpu_ctx_count_get(&ctx->nprogs);
	if (ret)
		return ret;
	/* Kept while loaded: charged to the caller's memory cgroup. */
	prog = kzalloc(sizeof(*prog), GFP_KERNEL_ACCOUNT);
	verr = kzalloc(sizeof(*verr), GFP_KERNEL);
	if (!prog || !verr) {
		ret = -ENOMEM;
		goto err_free;
	}
	kref_init(&prog->ref);
	/* Page-granular: kmalloc would round a 129 KiB image up to 256. */
	prog->image = arg.prog_size > PAGE_SIZE ?
		__vmalloc(arg.prog_size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN) :
		kmalloc(arg.prog_size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!prog->image) {
		ret = -ENOMEM;
		goto err_free;
	}
	if (copy_from_user(prog->image, u64_to_user_ptr(arg.prog_ptr),
			   arg.prog_size)) {
		ret = -EFAULT;
		goto err_free;
	}

	ret = pwfw_verify(prog->image, arg.prog_size, &ctx->pdev->isl->spec,
			  &prog->fw, verr);
	if (ret) {
		ret = pwtpu_prog_report(uarg, &arg, verr) ?: -EINVAL;
		goto err_free;
	}

	ret = xa_alloc_cyclic(&ctx->progs, &handle, prog, xa_limit_31b,
			      &ctx->next_prog, GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		goto err_free;
	verr->code = PWTPU_VERR_OK;
	verr->insn = PWTPU_VERR_NO_INSN;
	strscpy(verr->msg, "ok", sizeof(verr->msg));
	arg.handle = handle;
	arg.modeled_ns = prog->fw.modeled_ns;
	ret = pwtpu_prog_report(uarg, &arg, verr);
	kfree(verr);
	/* Published: another thread may have unloaded or used it already. */
	if (ret && xa_erase(&ctx->progs, handle) == prog) {
		atomic_dec(&ctx->nprogs);
		pwtpu_prog_put(prog);
	}
	return ret;

err_free:
	atomic_dec(&ctx->nprogs);
	kfree(verr);
	if (prog) {
		kvfree(prog->image);
		kfree(prog);
	}
	return ret;
}

int pwtpu_prog_unload(struct pwtpu_ctx *ctx, struct pwtpu_handle_arg __user *uarg)
{
	struct pwtpu_handle_arg arg;
	struct pwtpu_prog *prog;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.reserved)
		return -EINVAL;
	prog = xa_erase(&ctx->progs, arg.handle);
	if (!prog)
		return -ENOENT;
	atomic_dec(&ctx->nprogs);
	pwtpu_prog_put(prog);
	return 0;
}
