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

int pw_worker_load_fn(struct pw_client *client, struct pw_fn *fn,
		      unsigned int dev)
{
	struct pw_ctrl *ctrl = client->ctrl;
	struct pw_fn_dev *fd = &fn->dev[dev];
	struct pw_bo_cached bo;
	struct pwtpu_prog_load pl;
	char log[256] = "";
	int ret = 0;

	pthread_mutex_lock(&fn->lock);
	if (fd->loaded && fd->ctrl == ctrl)
		goto out;
	memset(fd, 0, sizeof(*fd));
	ret = pwtpu_prog_load(ctrl->exec[dev].fd, fn->image, fn->image_size,
			      log, sizeof(log), &pl);
	if (ret) {
		ret = pw_fail(ret, "%s: device %u refused the program: %s",
			      fn->name, dev, log[0] ? log : strerror(-ret));
		goto out;
	}
	fd->prog = pl.handle;
	if (fn->scratch_bytes) {
		ret = pw_bo_alloc(client, dev, fn->scratch_bytes, false, &bo);
		if (ret)
			goto err;
		fd->scratch_bo = bo.bo;
	}
	if (fn->const_bytes) {
		ret = pw_bo_alloc(client, dev, fn->const_bytes, false, &bo);
		if (ret)
			goto err;
		fd->const_bo = bo.bo;
		ret = upload_consts(ctrl->exec[dev].fd, fn, &bo);
		if (ret) {
			ret = pw_fail(ret, "%s: uploading constants to device %u: %s",
				      fn->name, dev, strerror(-ret));
			goto err;
		}
	}
	fd->ctrl = ctrl;
	fd->loaded = true;
	goto out;
err:
	fn_dev_unload(ctrl, fd, dev);
out:
	pthread_mutex_unlock(&fn->lock);
	return ret;
}

void pw_worker_unload_fn(struct pw_fn *fn)
{
	struct pw_ctrl *ctrl = pw_ctrl_current();
	unsigned int d;

	if (!ctrl)
		return;
	for (d = 0; d < PW_RM_MAX_DEVICES; d++)
		if (fn->dev[d].loaded && fn->dev[d].ctrl == ctrl)
			fn_dev_unload(ctrl, &fn->dev[d], d);
}
