// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_mc_sim.c - a multi-controller process on a simulated host: it
 * opens the host's island as pathwaysd's simulated worker does
 * (pw_wdev_open_sim(), the firmware in this process) and, for each
 * computation, queues an EXEC on every device of the island with the
 * computation's number as gang id, so the island's all-reduce meets as
 * it does under a controller. As JAX's one process a host, nothing
 * passes between hosts.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pwtpu/pwtpu_dev.h"

#include "pwbench_mc.h"

struct mc_sim {
	struct pw_wdev w;
	bool open;
	struct pwtpu_bo bo[PWTPU_MAX_GANG];
	uint32_t prog_step[PWTPU_MAX_GANG];
	uint32_t prog_fused[PWTPU_MAX_GANG];
};

static struct mc_sim *sdev(struct mc_child *c)
{
	return c->priv;
}

static int load_steps(struct mc_sim *s, unsigned int dev, unsigned int steps,
		      uint64_t delay_ns, uint32_t *handle)
{
	size_t size;
	void *img = mc_step_image(steps, delay_ns, &size);
	int ret;

	if (!img)
		return -ENOMEM;
	ret = pw_wdev_prog_load(&s->w, dev, img, size, handle);
	free(img);
	if (ret)
		fprintf(stderr, "pwbench: %u-step program on a simulated device: %s (%s)\n",
			steps, strerror(-ret), pw_last_error());
	return ret;
}

static int sim_prepare(struct mc_child *c)
{
	struct mc_sim *s = calloc(1, sizeof(*s));
	unsigned int d;
	int ret;

	if (!s)
		return -ENOMEM;
	c->priv = s;
	if (c->ndev > PWTPU_MAX_GANG)
		return -E2BIG;
	ret = pw_wdev_open_sim(&s->w, &c->sim);
	s->open = !ret;
	for (d = 0; d < c->ndev && !ret; d++) {
		ret = pw_wdev_bo_alloc(&s->w, d, MC_BO_BYTES, &s->bo[d]);
		if (!ret)
			ret = load_steps(s, d, 1, c->delay_ns,
					 &s->prog_step[d]);
		if (!ret)
			ret = load_steps(s, d, PWP_CHAIN, c->delay_ns,
					 &s->prog_fused[d]);
	}
	return ret;
}

static int sim_queue(struct mc_child *c, bool fused, unsigned int slot,
		     uint64_t id)
{
	struct mc_sim *s = sdev(c);
	unsigned int devs[PWTPU_MAX_GANG], d;
	struct pwtpu_gang g;
	int ret;

	ret = pw_wdev_reserve(&s->w, c->ndev);
	for (d = 0; d < c->ndev; d++)
		devs[d] = d;
	for (d = 0; d < c->ndev && !ret; d++) {
		/* The backend keeps a copy of the gang. */
		pwtpu_gang_fill(&g, s->w.gang_fd, id, c->ndev, devs, d, false,
				0);
		ret = pw_wdev_exec(&s->w, d,
				   fused ? s->prog_fused[d] : s->prog_step[d],
				   &s->bo[d].handle, 1, &g, slot);
	}
	return ret ? ret : (int)c->ndev;
}

static int sim_submit(struct mc_child *c, unsigned int queued)
{
	int ret = pw_wdev_flush(&sdev(c)->w);

	/*
	 * Fewer than @queued when a reserve flushed some already; commands
	 * the devices could not take finish with the error at the reap.
	 */
	(void)queued;
	return ret < 0 ? ret : 0;
}

static int sim_reap(struct mc_child *c, bool wait)
{
	struct mc_sim *s = sdev(c);
	struct pw_wdev_done done[64];
	struct pollfd p = { .fd = s->w.efd, .events = POLLIN };
	int n, i;

	for (;;) {
		n = pw_wdev_reap(&s->w, done, 64);
		if (n || !wait)
			break;
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -errno;
	}
	for (i = 0; i < n; i++)
		mc_child_done(c, (unsigned int)done[i].tag, done[i].res);
	return n;
}

static void sim_reset(struct mc_child *c)
{
	struct mc_sim *s = sdev(c);
	unsigned int d;

	for (d = 0; d < c->ndev; d++) {
		float *v = s->bo[d].map;

		v[MC_OFF_X / 4] = 0.0f;
		v[MC_OFF_ONE / 4] = 1.0f;
	}
}

static bool sim_check(struct mc_child *c, float want)
{
	struct mc_sim *s = sdev(c);
	unsigned int d;

	for (d = 0; d < c->ndev; d++) {
		const float *v = s->bo[d].map;

		if (v[MC_OFF_X / 4] != want)
			return false;
	}
	return true;
}

static void sim_close(struct mc_child *c)
{
	struct mc_sim *s = sdev(c);

	if (s && s->open)
		pw_wdev_close(&s->w);
	free(s);
	c->priv = NULL;
}

const struct mc_backend mc_sim_backend = {
	.what = "simulated host ",
	.prepare = sim_prepare,
	.queue = sim_queue,
	.submit = sim_submit,
	.reap = sim_reap,
	.reset = sim_reset,
	.check = sim_check,
	.close = sim_close,
};
