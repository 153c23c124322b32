// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_bo.c - buffer objects: device memory ("HBM") a process can map.
 *
 * A BO is vmalloc memory, zeroed and charged to the creator's memory
 * cgroup, mapped page by page, so mmap() gives ordinary pages that
 * ibv_reg_mr() can pin. HBM is a byte budget per device, charged in whole
 * pages while the BO exists, i.e. until its handle is destroyed and the
 * last command and mapping that use it are gone.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "pwtpu.h"
#include "pwtpu_compat.h"

static int pwtpu_hbm_charge(struct pwtpu_dev *pdev, u64 bytes)
{
	s64 used = atomic64_read(&pdev->hbm_used);

	do {
		if (bytes > pdev->isl->hbm_bytes - used)
			return -ENOSPC;
	} while (!atomic64_try_cmpxchg(&pdev->hbm_used, &used, used + bytes));
	return 0;
}

static void pwtpu_bo_release(struct kref *ref)
{
	struct pwtpu_bo *bo = container_of(ref, struct pwtpu_bo, ref);

	vfree(bo->vaddr);
	atomic64_sub(bo->charged, &bo->pdev->hbm_used);
	kfree(bo);
}

void pwtpu_bo_put(struct pwtpu_bo *bo)
{
	kref_put(&bo->ref, pwtpu_bo_release);
}

int pwtpu_bo_create(struct pwtpu_ctx *ctx, struct pwtpu_bo_create __user *uarg)
{
	struct pwtpu_dev *pdev = ctx->pdev;
	struct pwtpu_bo_create arg;
	struct pwtpu_bo *bo;
	u32 handle;
	int ret;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.flags || arg.handle || arg.mmap_offset ||
	    memchr_inv(arg.reserved, 0, sizeof(arg.reserved)))
		return -EINVAL;
	if (!arg.size)
		return -EINVAL;
	if (arg.size > pdev->isl->hbm_bytes)
		return -E2BIG;

	ret = pwtpu_ctx_count_get(&ctx->nbos);
	if (ret)
		return ret;
	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo) {
		atomic_dec(&ctx->nbos);
		return -ENOMEM;
	}
	kref_init(&bo->ref);
	bo->pdev = pdev;
	bo->size = arg.size;
	bo->charged = PAGE_ALIGN(arg.size);
	ret = pwtpu_hbm_charge(pdev, bo->charged);
	if (ret) {
		atomic_dec(&ctx->nbos);
		kfree(bo);
		return ret;
	}
	/*
	 * vmalloc_user() would not charge the caller's memory cgroup. A
	 * request past the cgroup's limit fails (-ENOMEM) rather than call
	 * its OOM killer, and quietly: any user can ask.
	 */
	bo->vaddr = __vmalloc(bo->charged, GFP_KERNEL_ACCOUNT | __GFP_ZERO |
			      __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!bo->vaddr) {
		ret = -ENOMEM;
		goto err_put;
	}

	ret = xa_alloc_cyclic(&ctx->bos, &handle, bo, xa_limit_31b,
			      &ctx->next_bo, GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		goto err_put;

	arg.handle = handle;
	arg.mmap_offset = (u64)handle << PWTPU_MMAP_SHIFT;
	if (copy_to_user(uarg, &arg, sizeof(arg))) {
		/* Published: another thread may have destroyed it already. */
		if (xa_erase(&ctx->bos, handle) == bo) {
			atomic_dec(&ctx->nbos);
			pwtpu_bo_put(bo);
		}
		return -EFAULT;
	}
	return 0;

err_put:
	atomic_dec(&ctx->nbos);
	pwtpu_bo_put(bo);
	return ret;
}

int pwtpu_bo_destroy(struct pwtpu_ctx *ctx, struct pwtpu_handle_arg __user *uarg)
{
	struct pwtpu_handle_arg arg;
	struct pwtpu_bo *bo;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.reserved)
		return -EINVAL;
	bo = xa_erase(&ctx->bos, arg.handle);
	if (!bo)
		return -ENOENT;
	atomic_dec(&ctx->nbos);
	pwtpu_bo_put(bo);
	return 0;
}

/* Each mapping holds the BO, so HBM stays charged while it is mapped. */
static void pwtpu_vm_open(struct vm_area_struct *vma)
{
	struct pwtpu_bo *bo = vma->vm_private_data;

	kref_get(&bo->ref);
}

static void pwtpu_vm_close(struct vm_area_struct *vma)
{
	pwtpu_bo_put(vma->vm_private_data);
}

static const struct vm_operations_struct pwtpu_vm_ops = {
	.open = pwtpu_vm_open,
	.close = pwtpu_vm_close,
};

/*
 * What remap_vmalloc_range() does, for memory that is not VM_USERMAP
 * (only vmalloc_user() sets it, and it cannot charge a memory cgroup).
 */
static int pwtpu_bo_map(struct vm_area_struct *vma, struct pwtpu_bo *bo,
			unsigned long pgoff)
{
	u8 *kaddr = (u8 *)bo->vaddr + (pgoff << PAGE_SHIFT);
	unsigned long addr;
	int ret;

	for (addr = vma->vm_start; addr < vma->vm_end;
	     addr += PAGE_SIZE, kaddr += PAGE_SIZE) {
		ret = vm_insert_page(vma, addr, vmalloc_to_page(kaddr));
		if (ret)
			return ret;
	}
	pwtpu_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

int pwtpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct pwtpu_ctx *ctx = file->private_data;
	const unsigned long shift = PWTPU_MMAP_SHIFT - PAGE_SHIFT;
	unsigned long pgoff = vma->vm_pgoff & ((1UL << shift) - 1);
	unsigned long npages = vma_pages(vma);
	struct pwtpu_bo *bo;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	bo = pwtpu_ctx_get_bo(ctx, vma->vm_pgoff >> shift);
	if (!bo)
		return -EINVAL;
	if (pgoff + npages < pgoff ||
	    pgoff + npages > (bo->charged >> PAGE_SHIFT)) {
		ret = -EINVAL;
		goto err_put;
	}
	ret = pwtpu_bo_map(vma, bo, pgoff);
	if (ret)
		goto err_put;
	vma->vm_private_data = bo;
	vma->vm_ops = &pwtpu_vm_ops;
	return 0;

err_put:
	pwtpu_bo_put(bo);
	return ret;
}
