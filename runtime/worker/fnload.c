// SPDX-License-Identifier: GPL-2.0
/*
 * fnload.c - compiled functions on devices: loaded the first time a
 * device runs them (the program, a scratch buffer for intermediates and
 * the constants), kept until the function's last reference goes.
 *
 * A device runs its queue in order and one program at a time, so one
 * scratch buffer per function and device serves every call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <pwtpu/pwtpu_dev.h>

#include "../core/core.h"

static void fn_dev_unload(struct pw_ctrl *ctrl, struct pw_fn_dev *fd,
			  unsigned int dev)
{
	int devfd = ctrl->exec[dev].fd;

	if (fd->prog)
		pwtpu_prog_unload(devfd, fd->prog);
	if (fd->scratch_bo)
		pwtpu_bo_destroy(devfd, fd->scratch_bo);
	if (fd->const_bo)
		pwtpu_bo_destroy(devfd, fd->const_bo);
	memset(fd, 0, sizeof(*fd));
}

/*
 * Write the constants through a mapping of their new buffer object: no
 * command has used it yet, so nothing on the device can race, and the
 * caller does not wait behind the device's queue (a COPY_TO_DEV would).
 */
static int upload_consts(int devfd, const struct pw_fn *fn,
			 const struct pw_bo_cached *cb)
{
	struct pwtpu_bo bo = {
		.handle = cb->bo,
		.size = fn->const_bytes,
		.mmap_offset = cb->mmap_offset,
	};
	int ret;

	ret = pwtpu_bo_map(devfd, &bo);
	if (ret)
		return ret;
	memcpy(bo.map, fn->const_data, fn->const_bytes);
	munmap(bo.map, bo.size);
	return 0;
}

/* Give back what an unneeded or failed load allocated. */
static void release_bos(struct pw_ctrl *ctrl, unsigned int dev,
			struct pw_bo_cached *scratch, struct pw_bo_cached *consts)
{
	if (scratch->bo)
		pw_bo_release(ctrl, dev, scratch);
	if (consts->bo)
		pw_bo_release(ctrl, dev, consts);
}

int pw_worker_load_fn(struct pw_client *client, struct pw_fn *fn,
		      unsigned int dev, bool can_defer)
{
	struct pw_ctrl *ctrl = client->ctrl;
	struct pw_fn_dev *fd = &fn->dev[dev];
	struct pw_bo_cached scratch = { 0 }, consts = { 0 };
	struct pwtpu_prog_load pl;
	char log[256] = "";
	bool loaded;
	int ret = 0;

	pthread_mutex_lock(&fn->lock);
	loaded = fd->loaded && fd->gen == ctrl->gen;
	pthread_mutex_unlock(&fn->lock);
	if (loaded)
		return 0;
	/*
	 * Memory first, without the lock: waiting for HBM while holding it
	 * would stall every other thread loading this function, one of
	 * which may hold the memory we wait for.
	 */
	if (fn->scratch_bytes)
		ret = pw_bo_alloc(client, dev, fn->scratch_bytes, can_defer,
				  &scratch);
	if (!ret && fn->const_bytes) {
		ret = pw_bo_alloc(client, dev, fn->const_bytes, can_defer,
				  &consts);
		if (!ret)
			ret = upload_consts(ctrl->exec[dev].fd, fn, &consts);
		if (ret && ret != -EAGAIN && ret != -ENOMEM && ret != -E2BIG)
			ret = pw_fail(ret, "%s: uploading constants to device %u: %s",
				      fn->name, dev, strerror(-ret));
	}
	if (ret) {
		release_bos(ctrl, dev, &scratch, &consts);
		return ret;
	}
	pthread_mutex_lock(&fn->lock);
	if (fd->loaded && fd->gen == ctrl->gen) {
		/* Another thread got there first. */
		pthread_mutex_unlock(&fn->lock);
		release_bos(ctrl, dev, &scratch, &consts);
		return 0;
	}
	memset(fd, 0, sizeof(*fd));
	ret = pwtpu_prog_load(ctrl->exec[dev].fd, fn->image, fn->image_size,
			      log, sizeof(log), &pl);
	if (ret) {
		pthread_mutex_unlock(&fn->lock);
		release_bos(ctrl, dev, &scratch, &consts);
		return pw_fail(ret, "%s: device %u refused the program: %s",
			       fn->name, dev, log[0] ? log : strerror(-ret));
	}
	fd->prog = pl.handle;
	fd->scratch_bo = scratch.bo;
	fd->const_bo = consts.bo;
	fd->gen = ctrl->gen;
	fd->loaded = true;
	pthread_mutex_unlock(&fn->lock);
	return 0;
}

void pw_worker_unload_fn(struct pw_fn *fn)
{
	struct pw_ctrl *ctrl = pw_ctrl_current();
	unsigned int d;

	if (!ctrl)
		return;
	for (d = 0; d < PW_RM_MAX_DEVICES; d++)
		if (fn->dev[d].loaded && fn->dev[d].gen == ctrl->gen)
			fn_dev_unload(ctrl, &fn->dev[d], d);
}
