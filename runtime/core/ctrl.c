// SPDX-License-Identifier: GPL-2.0
/*
 * ctrl.c - connecting: the embedded controller (resource manager, island
 * scheduler) and this host's worker (executors, object store), shared by
 * every client of the process, up while any client is connected.
 * Disconnecting collects everything the client owns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <pwtpu/pwtpu_dev.h>

#include "core.h"
#include "../util/claim.h"
#include "../client/program.h"

static pthread_mutex_t pw_embedded_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pw_ctrl *pw_embedded;
static atomic_uint_fast64_t pw_ctrl_generation;
/* This thread is building a batch (counted in pw_ctrl.building). */
_Thread_local int pw_self_building;

struct pw_ctrl *pw_ctrl_current(void)
{
	return pw_embedded;
}

void pw_ctrl_broadcast(struct pw_ctrl *ctrl)
{
	pthread_mutex_lock(&ctrl->wait_lock);
	pthread_cond_broadcast(&ctrl->wait_cond);
	pthread_mutex_unlock(&ctrl->wait_lock);
}

bool pw_ctrl_busy(struct pw_ctrl *ctrl)
{
	struct pw_sched *s = &ctrl->sched;
	bool busy;

	pthread_mutex_lock(&s->lock);
	busy = s->active || s->queued;
	pthread_mutex_unlock(&s->lock);
	return busy || atomic_load(&ctrl->building) - pw_self_building -
		       atomic_load(&ctrl->blocked_builders) > 0;
}

void pw_building(struct pw_ctrl *ctrl, bool on)
{
	pw_self_building = on;
	atomic_fetch_add(&ctrl->building, on ? 1 : -1);
}

uint64_t pw_ctrl_gang_id(struct pw_ctrl *ctrl)
{
	uint64_t id = ctrl->gang_base + atomic_fetch_add(&ctrl->gang_seq, 1);

	return id ? id : 1;
}

static void ctrl_stop_execs(struct pw_ctrl *ctrl, unsigned int n)
{
	while (n-- > 0)
		pw_exec_stop(&ctrl->exec[n]);
}

static int ctrl_create(struct pw_ctrl **out)
{
	struct pw_ctrl *ctrl = calloc(1, sizeof(*ctrl));
	struct pwtpu_info info;
	unsigned int d;
	int ret;

	if (!ctrl)
		return pw_fail(-ENOMEM, "out of host memory");
	/* One process drives the island: its scheduler orders every gang. */
	ret = pw_island_claim(PW_ISLAND_EMBEDDED);
	if (ret) {
		free(ctrl);
		return ret;
	}
	ret = pw_rm_island_from_sysfs(&ctrl->isl);
	if (ret) {
		pw_island_release();
		free(ctrl);
		if (ret == -ENOENT)
			return pw_fail(ret, "no pwtpu devices: is pwtpu.ko loaded?");
		return pw_fail(ret, "reading the island from sysfs: %s",
			       strerror(-ret));
	}
	ret = pw_rm_create(&ctrl->rm, &ctrl->isl);
	if (ret)
		goto err_free;
	pthread_mutex_init(&ctrl->wait_lock, NULL);
	pthread_cond_init(&ctrl->wait_cond, NULL);
	/* Generations never repeat; a controller's address may. */
	ctrl->gen = atomic_fetch_add(&pw_ctrl_generation, 1) + 1;
	pw_sched_init(&ctrl->sched);
	if (getrandom(&ctrl->gang_base, sizeof(ctrl->gang_base), 0) !=
	    sizeof(ctrl->gang_base))
		ctrl->gang_base = (uint64_t)(uintptr_t)ctrl ^ 0x9e3779b97f4a7c15ULL;
	for (d = 0; d < ctrl->isl.ndevices; d++) {
		pthread_mutex_init(&ctrl->cache[d].lock, NULL);
		ret = pw_exec_start(ctrl, d);
		if (ret) {
			ctrl_stop_execs(ctrl, d);
			goto err_rm;
		}
	}
	ret = pwtpu_info(ctrl->exec[0].fd, &info);
	if (ret) {
		ctrl_stop_execs(ctrl, ctrl->isl.ndevices);
		ret = pw_fail(ret, "PWTPU_IOCTL_INFO: %s", strerror(-ret));
		goto err_rm;
	}
	ctrl->hbm_bytes = info.hbm_total;
	*out = ctrl;
	return 0;
err_rm:
	pw_rm_destroy(ctrl->rm);
err_free:
	pw_island_release();
	free(ctrl);
	return ret;
}

static void ctrl_destroy(struct pw_ctrl *ctrl)
{
	unsigned int d;

	pw_bo_cache_flush(ctrl);
	ctrl_stop_execs(ctrl, ctrl->isl.ndevices);
	for (d = 0; d < ctrl->isl.ndevices; d++)
		pthread_mutex_destroy(&ctrl->cache[d].lock);
	pw_rm_destroy(ctrl->rm);
	pw_island_release();
	free(ctrl);
}

int pw_connect(const struct pw_connect_opts *opts, struct pw_client **out)
{
	unsigned int weight = opts && opts->weight ? opts->weight : 1;
	const char *address;
	struct pw_client *c;
	int ret;

	if (!out)
		return pw_fail(-EINVAL, "pw_connect: no client pointer");
	/* An address: a client of that controller (pathwaysd). */
	address = opts && opts->address ? opts->address :
		  getenv("PATHWAYS_CONTROLLER");
	if (address && *address)
		return pw_cr_connect(opts, address, out);
	if (weight > 1000)
		return pw_fail(-EINVAL, "weight %u: must be 1..1000", weight);
	c = calloc(1, sizeof(*c));
	if (!c)
		return pw_fail(-ENOMEM, "out of host memory");
	pthread_mutex_lock(&pw_embedded_lock);
	if (!pw_embedded) {
		ret = ctrl_create(&pw_embedded);
		if (ret) {
			pthread_mutex_unlock(&pw_embedded_lock);
			free(c);
			return ret;
		}
	}
	c->ctrl = pw_embedded;
	c->ctrl->users++;
	c->index = c->ctrl->next_client++;
	pthread_mutex_unlock(&pw_embedded_lock);
	pthread_mutex_init(&c->lock, NULL);
	c->weight = weight;
	snprintf(c->name, sizeof(c->name), "%s",
		 opts && opts->name ? opts->name : "client");
	*out = c;
	return 0;
}

/* A set and its slices (the resource manager releases their devices). */
static void vset_free(struct pw_vset *vs)
{
	unsigned int i;

	pw_rm_vset_destroy(vs->rm);
	for (i = 0; i < vs->nslices; i++)
		free(vs->slices[i]);
	free(vs->slices);
	free(vs);
}

static void client_wait_idle(struct pw_client *c)
{
	struct pw_ctrl *ctrl = c->ctrl;

	pthread_mutex_lock(&ctrl->wait_lock);
	while (atomic_load(&c->active_batches) > 0)
		pthread_cond_wait(&ctrl->wait_cond, &ctrl->wait_lock);
	pthread_mutex_unlock(&ctrl->wait_lock);
}

void pw_disconnect(struct pw_client *c)
{
	struct pw_ctrl *ctrl;
	unsigned int i;

	if (!c)
		return;
	if (c->remote_state) {
		pw_cr_disconnect(c);
		return;
	}
	ctrl = c->ctrl;
	atomic_store(&c->closing, true);
	pw_sched_cancel(ctrl, c);
	client_wait_idle(c);
	pw_program_collect(c);
	pw_store_collect(c);
	for (i = 0; i < c->nvsets; i++)
		vset_free(c->vsets[i]);
	free(c->vsets);
	pthread_mutex_destroy(&c->lock);
	free(c);
	pthread_mutex_lock(&pw_embedded_lock);
	if (--ctrl->users == 0) {
		pw_embedded = NULL;
		ctrl_destroy(ctrl);
	}
	pthread_mutex_unlock(&pw_embedded_lock);
}

int pw_num_devices(struct pw_client *c)
{
	if (!c)
		return pw_fail(-EINVAL, "pw_num_devices: no client");
	if (c->remote_state)
		return pw_cr_num_devices(c);
	return (int)c->ctrl->isl.ndevices;
}

int pw_make_virtual_device_set(struct pw_client *c, struct pw_vset **out)
{
	struct pw_vset **n, *vs;
	int ret;

	if (!c || !out)
		return pw_fail(-EINVAL, "pw_make_virtual_device_set: NULL argument");
	vs = calloc(1, sizeof(*vs));
	if (!vs)
		return pw_fail(-ENOMEM, "out of host memory");
	vs->client = c;
	pthread_mutex_lock(&c->lock);
	n = realloc(c->vsets, (c->nvsets + 1) * sizeof(*n));
	if (!n) {
		pthread_mutex_unlock(&c->lock);
		free(vs);
		return pw_fail(-ENOMEM, "out of host memory");
	}
	c->vsets = n;
	/* A remote client's set is its own: the controller places slices. */
	ret = c->remote_state ? 0 : pw_rm_vset_create(c->ctrl->rm, &vs->rm);
	if (!ret)
		n[c->nvsets++] = vs;
	pthread_mutex_unlock(&c->lock);
	if (ret) {
		free(vs);
		return pw_fail(ret, "making a virtual device set: %s",
			       strerror(-ret));
	}
	*out = vs;
	return 0;
}

int pw_add_slice(struct pw_vset *vset, unsigned int n, const char *shape,
		 struct pw_slice **slice)
{
	struct pw_slice **all, *s;
	struct pw_rm_shape sh;
	int ret;

	if (!vset || !slice)
		return pw_fail(-EINVAL, "pw_add_slice: NULL argument");
	if (shape && pw_rm_shape_parse(&sh, shape))
		return pw_fail(-EINVAL, "mesh shape \"%s\": want e.g. 4, 2x2 or 2x2x2",
			       shape);
	if (!vset->rm)
		return pw_cr_add_slice(vset, n, shape, slice);
	all = realloc(vset->slices, (vset->nslices + 1) * sizeof(*all));
	if (!all)
		return pw_fail(-ENOMEM, "out of host memory");
	vset->slices = all;
	s = calloc(1, sizeof(*s));
	if (!s)
		return pw_fail(-ENOMEM, "out of host memory");
	ret = pw_rm_add_slice(vset->rm, n, shape ? &sh : NULL, &s->rs);
	if (ret) {
		free(s);
		return pw_fail(ret, "%s", pw_rm_vset_error(vset->rm));
	}
	all[vset->nslices++] = s;
	*slice = s;
	return 0;
}

unsigned int pw_slice_size(const struct pw_slice *slice)
{
	return slice->rs ? pw_rm_slice_size(slice->rs) : slice->n;
}

int pw_slice_device(const struct pw_slice *slice, unsigned int v)
{
	if (slice->rs)
		return pw_rm_slice_device(slice->rs, v);
	if (v >= slice->n)
		return pw_fail(-EINVAL, "virtual device %u of a slice of %u",
			       v, slice->n);
	return slice->devs[v];
}

int pw_remove_device(struct pw_client *c, unsigned int dev)
{
	int ret;

	if (!c)
		return pw_fail(-EINVAL, "pw_remove_device: no client");
	if (c->remote_state)
		return pw_cr_set_device(c, dev, false);
	ret = pw_rm_remove_device(c->ctrl->rm, dev);
	if (ret < 0)
		return pw_fail(ret, "removing device %u: %s", dev,
			       ret == -EALREADY ? "already removed" :
			       "no such device");
	atomic_store(&c->ctrl->exec[dev].removed, true);
	pw_exec_wake(&c->ctrl->exec[dev]);
	return 0;
}

int pw_add_device(struct pw_client *c, unsigned int dev)
{
	int ret;

	if (!c)
		return pw_fail(-EINVAL, "pw_add_device: no client");
	if (c->remote_state)
		return pw_cr_set_device(c, dev, true);
	ret = pw_rm_add_device(c->ctrl->rm, dev);
	if (ret < 0)
		return pw_fail(ret, "adding device %u: %s", dev,
			       ret == -EALREADY ? "already in service" :
			       "no such device");
	atomic_store(&c->ctrl->exec[dev].removed, false);
	return 0;
}

void pw_client_stats(struct pw_client *c, struct pw_client_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!c)
		return;
	if (c->remote_state) {
		pw_cr_stats(c, st);
		return;
	}
	st->submitted = atomic_load(&c->submitted);
	st->completed = atomic_load(&c->completed);
	st->failed = atomic_load(&c->failed);
	st->cancelled = atomic_load(&c->cancelled);
	st->hbm_bytes = (uint64_t)atomic_load(&c->hbm_bytes);
}
