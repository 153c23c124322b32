// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_ioctl.c - control calls, and the synchronous path for device
 * commands (the same struct pwtpu_cmd and validation as io_uring).
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

#include "pwtpu.h"

static int pwtpu_info(struct pwtpu_ctx *ctx, struct pwtpu_info __user *uarg)
{
	struct pwtpu_dev *pdev = ctx->pdev;
	struct pwtpu_island *isl = pdev->isl;
	struct pwtpu_info info = {
		.uapi_version = PWTPU_UAPI_VERSION,
		.index = pdev->index,
		.island = isl->island,
		.ndevices = isl->ndev,
		.mesh_ndims = isl->mesh.ndims,
		.mesh_flags = isl->mesh.torus ? PWTPU_MESH_TORUS : 0,
		.array_dim = isl->spec.array_dim,
		.clock_mhz = isl->spec.clock_mhz,
		.hbm_mbps = isl->spec.hbm_mbps,
		.host_mbps = isl->spec.host_mbps,
		.ici_mbps = isl->spec.ici_mbps,
		.timing_mode = isl->timing,
		.hbm_total = isl->hbm_bytes,
		.hbm_used = atomic64_read(&pdev->hbm_used),
		.cmds_completed = READ_ONCE(pdev->cmds_completed),
		.busy_ns = READ_ONCE(pdev->busy_ns),
		.max_bufs = PWTPU_MAX_BUFS,
		.max_tensors = PWTPU_MAX_TENSORS,
		.max_insns = PWTPU_MAX_INSNS,
	};

	u32 axis, dir;

	memcpy(info.mesh_shape, isl->mesh.shape, sizeof(info.mesh_shape));
	memcpy(info.mesh_coords, pdev->coords, sizeof(info.mesh_coords));
	for (axis = 0; axis < PWTPU_MESH_MAX_DIMS; axis++)
		for (dir = 0; dir < 2; dir++)
			info.neighbors[axis][dir] =
				pwfw_island_neighbor(isl->fw, pdev->index,
						     axis, dir);
	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

static int pwtpu_cmd_sync(struct pwtpu_ctx *ctx, unsigned int op,
			  struct pwtpu_cmd __user *uarg)
{
	struct pwtpu_job job, *queued;
	struct pwtpu_cmd cmd;
	int ret;

	if (copy_from_user(&cmd, uarg, sizeof(cmd)))
		return -EFAULT;
	ret = pwtpu_job_prepare(&job, ctx, op, &cmd);
	if (ret)
		return ret;
	queued = pwtpu_job_start(&job);
	if (!queued) {
		ret = job.result;
		cmd.start_ns = job.start_ns;
		cmd.end_ns = job.end_ns;
		pwtpu_job_release(&job);
		goto out;
	}
	if (IS_ERR(queued))
		return PTR_ERR(queued);
	/* Our turn comes, and we run it ourselves: our time, our cgroup. */
	pwtpu_queue_submit(queued);
	if (wait_for_completion_killable(&queued->turn) &&
	    pwtpu_queue_unlink(queued)) {
		/* Killed before its turn: it never runs. */
		pwtpu_job_free(queued);
		return -EINTR;
	}
	/*
	 * Killed as its turn came: a dying process's job is cancelled (one
	 * killed only by another thread's exec runs: its process lives).
	 */
	pwtpu_queue_run_turn(queued);
	ret = queued->result;
	cmd.start_ns = queued->start_ns;
	cmd.end_ns = queued->end_ns;
	pwtpu_job_free(queued);
out:
	if (!ret && (put_user(cmd.start_ns, &uarg->start_ns) ||
		     put_user(cmd.end_ns, &uarg->end_ns)))
		ret = -EFAULT;
	return ret;
}

long pwtpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pwtpu_ctx *ctx = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (_IOC_TYPE(cmd) != PWTPU_IOC_MAGIC)
		return -ENOTTY;

	switch (cmd) {
	case PWTPU_IOCTL_INFO:
		return pwtpu_info(ctx, uarg);
	case PWTPU_IOCTL_BO_CREATE:
		return pwtpu_bo_create(ctx, uarg);
	case PWTPU_IOCTL_BO_DESTROY:
		return pwtpu_bo_destroy(ctx, uarg);
	case PWTPU_IOCTL_PROG_LOAD:
		return pwtpu_prog_load(ctx, uarg);
	case PWTPU_IOCTL_PROG_UNLOAD:
		return pwtpu_prog_unload(ctx, uarg);
	case PWTPU_IOCTL_GANG_CREATE:
		return pwtpu_gang_create(ctx, uarg);
	case PWTPU_CMD_NOP:
	case PWTPU_CMD_EXEC:
	case PWTPU_CMD_COPY_TO_DEV:
	case PWTPU_CMD_COPY_FROM_DEV:
	case PWTPU_CMD_COPY_PEER:
		return pwtpu_cmd_sync(ctx, cmd, uarg);
	default:
		return -ENOTTY;
	}
}
