// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_mc_kernel.c - a multi-controller process on one device of the
 * module's island: it opens its /dev/pwtpuN and submits EXECs of raw
 * programs straight through its own io_uring. Computation k carries
 * gang id k in the gang file every process inherited, so the members of
 * a computation meet on the devices without any message between the
 * processes, and no other process can meet them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

#include "pwbench_mc.h"

struct mc_kernel {
	int fd;
	struct pwtpu_bo bo;
	uint32_t prog_step;
	uint32_t prog_fused;
	struct io_uring ring;
	bool ring_ok;
	struct pwtpu_gang gang[MC_SLOTS];
};

static struct mc_kernel *kdev(struct mc_child *c)
{
	return c->priv;
}

static int load_steps(int fd, unsigned int steps, uint64_t delay_ns,
		      uint32_t *handle)
{
	struct pwtpu_prog_load res;
	char log[256] = "";
	size_t size;
	void *img = mc_step_image(steps, delay_ns, &size);
	int ret;

	if (!img)
		return -ENOMEM;
	ret = pwtpu_prog_load(fd, img, size, log, sizeof(log), &res);
	free(img);
	if (ret)
		fprintf(stderr, "pwbench: %u-step program: %s (%s)\n", steps,
			strerror(-ret), log);
	*handle = res.handle;
	return ret;
}

static int kernel_prepare(struct mc_child *c)
{
	struct mc_kernel *k = calloc(1, sizeof(*k));
	int ret;

	if (!k)
		return -ENOMEM;
	c->priv = k;
	k->fd = pwtpu_open(c->index);
	if (k->fd < 0)
		return k->fd;
	ret = pwtpu_bo_alloc(k->fd, MC_BO_BYTES, &k->bo);
	if (!ret)
		ret = load_steps(k->fd, 1, c->delay_ns, &k->prog_step);
	if (!ret)
		ret = load_steps(k->fd, PWP_CHAIN, c->delay_ns,
				 &k->prog_fused);
	if (!ret)
		ret = pwtpu_ring_init(&k->ring, MC_SLOTS, 0);
	k->ring_ok = !ret;
	return ret;
}

static int kernel_queue(struct mc_child *c, bool fused, unsigned int slot,
			uint64_t id)
{
	struct mc_kernel *k = kdev(c);
	struct pwtpu_gang *g = &k->gang[slot];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&k->ring);
	struct pwtpu_cmd cmd;
	unsigned int devs[PWTPU_MAX_GANG], d;

	if (!sqe)
		return -EBUSY;
	for (d = 0; d < c->ndev; d++)
		devs[d] = d;
	pwtpu_gang_fill(g, c->gang_fd, id, c->ndev, devs, c->index, false, 0);
	pwtpu_cmd_exec(&cmd, fused ? k->prog_fused : k->prog_step,
		       &k->bo.handle, 1);
	cmd.gang_ptr = (uintptr_t)g;
	pwtpu_prep_uring_cmd(sqe, k->fd, PWTPU_CMD_EXEC, &cmd);
	sqe->user_data = slot;
	return 1;
}

int mc_ring_submit(struct io_uring *ring, unsigned int queued)
{
	int ret = io_uring_submit(ring);

	if (ret != (int)queued)
		return ret < 0 ? ret : -EIO;
	return 0;
}

int mc_ring_reap(struct mc_child *c, struct io_uring *ring, bool wait)
{
	struct io_uring_cqe *cqe;
	int ret = wait ? io_uring_wait_cqe(ring, &cqe) :
		  io_uring_peek_cqe(ring, &cqe);

	if (ret == -EAGAIN && !wait)
		return 0;
	if (ret)
		return ret;
	mc_child_done(c, (unsigned int)cqe->user_data, cqe->res);
	io_uring_cqe_seen(ring, cqe);
	return 1;
}

static int kernel_submit(struct mc_child *c, unsigned int queued)
{
	return mc_ring_submit(&kdev(c)->ring, queued);
}

static int kernel_reap(struct mc_child *c, bool wait)
{
	return mc_ring_reap(c, &kdev(c)->ring, wait);
}

static void kernel_reset(struct mc_child *c)
{
	float *v = kdev(c)->bo.map;

	v[MC_OFF_X / 4] = 0.0f;
	v[MC_OFF_ONE / 4] = 1.0f;
}

static bool kernel_check(struct mc_child *c, float want)
{
	const float *v = kdev(c)->bo.map;

	return v[MC_OFF_X / 4] == want;
}

/* The process exits next: the module frees what its file held. */
static void kernel_close(struct mc_child *c)
{
	struct mc_kernel *k = kdev(c);

	if (k && k->ring_ok)
		io_uring_queue_exit(&k->ring);
}

const struct mc_backend mc_kernel_backend = {
	.what = "/dev/pwtpu",
	.prepare = kernel_prepare,
	.queue = kernel_queue,
	.submit = kernel_submit,
	.reap = kernel_reap,
	.reset = kernel_reset,
	.check = kernel_check,
	.close = kernel_close,
};
