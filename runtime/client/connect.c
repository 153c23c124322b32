// SPDX-License-Identifier: GPL-2.0
/*
 * connect.c - a client of a controller: connecting (to pathwaysd at an
 * address, or to the controller and worker this process runs for its
 * island), virtual device sets and slices the controller places, taking
 * devices out of service, the operator's scheduling calls, statistics.
 * Disconnecting is one BYE: the controller and the workers free all the
 * client had.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/wire.h>

#include "client.h"
#include "program.h"

void pw_client_lock(struct pw_client *c)
{
	pthread_mutex_lock(&c->lock);
}

void pw_client_unlock(struct pw_client *c)
{
	pthread_mutex_unlock(&c->lock);
}

int pw_connect(const struct pw_connect_opts *opts, struct pw_client **out)
{
	const char *name = opts && opts->name ? opts->name : "client";
	pthread_mutexattr_t attr;
	const char *address;
	struct pw_client *c;
	int ret;

	if (!out)
		return pw_fail(-EINVAL, "pw_connect: no client pointer");
	if (opts && opts->weight > 1000)
		return pw_fail(-EINVAL, "weight %u: must be 1..1000",
			       opts->weight);
	/* No address: the controller this process runs for its island. */
	address = opts && opts->address ? opts->address :
		  getenv("PATHWAYS_CONTROLLER");
	if (address && !*address)
		address = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return pw_fail(-ENOMEM, "out of host memory");
	ret = pw_remote_connect(address, name, &c->r);
	if (ret) {
		free(c);
		return ret;	/* its message stands */
	}
	/* The controller decides whether a client may set its own weight. */
	if (opts && opts->weight > 1) {
		ret = pw_remote_set_weight(c->r, NULL, opts->weight);
		if (ret) {
			pw_remote_close(c->r);
			free(c);
			return ret;
		}
	}
	/* Recursive: a call may make buffers, which take it again. */
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&c->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	snprintf(c->name, sizeof(c->name), "%s", name);
	*out = c;
	return 0;
}

void pw_disconnect(struct pw_client *c)
{
	unsigned int i;

	if (!c)
		return;
	atomic_store(&c->closing, true);
	pw_client_lock(c);
	/* Programs first: they hold references on captured buffers. */
	pw_program_collect(c);
	/* BYE: the controller and the workers free all the client had. */
	pw_remote_close(c->r);
	c->r = NULL;
	pw_buffers_collect(c);
	for (i = 0; i < c->nfns; i++)
		pw_fn_put(c->fns[i].fn);
	for (i = 0; i < c->ncalls; i++)
		pw_fn_put(c->calls[i].fn);
	for (i = 0; i < c->nslices; i++)
		free(c->slices[i]);
	for (i = 0; i < c->nvsets; i++)
		free(c->vsets[i]);
	free(c->vsets);
	free(c->slices);
	free(c->fns);
	free(c->calls);
	pw_client_unlock(c);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int pw_num_devices(struct pw_client *c)
{
	unsigned int h, n = 0;

	if (!c)
		return pw_fail(-EINVAL, "pw_num_devices: no client");
	pw_client_lock(c);
	for (h = 0; h < PW_WIRE_MAX_HOSTS; h++)
		n += pw_remote_host_devices(c->r, h);
	pw_client_unlock(c);
	return (int)n;
}

/* Add @p to the @n entries of *@all, growing it; -ENOMEM with a message. */
static int table_add(void *all, unsigned int *n, void *p)
{
	void **t = realloc(*(void ***)all, (*n + 1) * sizeof(*t));

	if (!t)
		return pw_fail(-ENOMEM, "out of host memory");
	t[(*n)++] = p;
	*(void ***)all = t;
	return 0;
}

int pw_make_virtual_device_set(struct pw_client *c, struct pw_vset **out)
{
	struct pw_vset *vs;
	int ret;

	if (!c || !out)
		return pw_fail(-EINVAL, "pw_make_virtual_device_set: NULL argument");
	vs = calloc(1, sizeof(*vs));
	if (!vs)
		return pw_fail(-ENOMEM, "out of host memory");
	vs->client = c;
	pw_client_lock(c);
	ret = table_add(&c->vsets, &c->nvsets, vs);
	pw_client_unlock(c);
	if (ret) {
		free(vs);
		return ret;
	}
	*out = vs;
	return 0;
}

/* A slice of @vset, on @near's island first when @near is not NULL. */
static int add_slice(struct pw_vset *vset, unsigned int n, const char *shape,
		     const struct pw_slice *near, struct pw_slice **out)
{
	struct pw_rm_shape sh;
	struct pw_client *c;
	struct pw_slice *s;
	unsigned int v;
	int ret;

	if (!vset || !out)
		return pw_fail(-EINVAL, "pw_add_slice: NULL argument");
	if (shape && pw_rm_shape_parse(&sh, shape))
		return pw_fail(-EINVAL, "mesh shape \"%s\": want e.g. 4, 2x2 or 2x2x2",
			       shape);
	s = calloc(1, sizeof(*s));
	if (!s)
		return pw_fail(-ENOMEM, "out of host memory");
	c = vset->client;
	pw_client_lock(c);
	for (v = 0; near && v < c->nslices && c->slices[v] != near; v++)
		;
	if (near && v == c->nslices)
		ret = pw_fail(-EINVAL, "pw_add_slice_near: the slice is not this client's");
	else if (near)
		ret = pw_remote_slice_near(c->r, n, shape, near->rid, &s->rid);
	else
		ret = pw_remote_slice(c->r, n, shape, &s->rid);
	if (!ret) {
		s->n = n;
		s->host = pw_remote_slice_host(c->r, s->rid);
		for (v = 0; v < n; v++)
			s->devs[v] = (uint8_t)pw_remote_slice_device(c->r,
								     s->rid, v);
		ret = table_add(&c->slices, &c->nslices, s);
	}
	pw_client_unlock(c);
	if (ret) {
		free(s);
		return ret;	/* its message stands */
	}
	*out = s;
	return 0;
}

int pw_add_slice(struct pw_vset *vset, unsigned int n, const char *shape,
		 struct pw_slice **out)
{
	return add_slice(vset, n, shape, NULL, out);
}

int pw_add_slice_near(struct pw_vset *vset, unsigned int n,
		      const char *shape, const struct pw_slice *near,
		      struct pw_slice **out)
{
	if (!near)
		return pw_fail(-EINVAL, "pw_add_slice_near: NULL argument");
	return add_slice(vset, n, shape, near, out);
}

unsigned int pw_slice_size(const struct pw_slice *slice)
{
	return slice ? slice->n : 0;
}

int pw_slice_device(const struct pw_slice *slice, unsigned int v)
{
	if (!slice || v >= slice->n)
		return pw_fail(-EINVAL, "virtual device %u of a slice of %u",
			       v, slice ? slice->n : 0);
	return slice->devs[v];
}

int pw_slice_host(const struct pw_slice *slice)
{
	if (!slice)
		return pw_fail(-EINVAL, "pw_slice_host: no slice");
	return slice->host;
}

int pw_slice_check(const struct pw_slice *s)
{
	if (s->failed_dev)
		return pw_fail(-ENODEV, "the slice's device %d was taken out of service: the slice stays failed",
			       s->failed_dev - 1);
	return 0;
}

/* Device @dev, numbered over the islands in host order, out or back. */
static int set_device(struct pw_client *c, unsigned int dev, bool in_service)
{
	unsigned int h, first = 0, n, i, v;
	int ret;

	for (h = 0; h < PW_WIRE_MAX_HOSTS; h++) {
		n = pw_remote_host_devices(c->r, h);
		if (dev < first + n)
			break;
		first += n;
	}
	if (h == PW_WIRE_MAX_HOSTS)
		return pw_fail(-EINVAL, "device %u: the cluster has %u devices",
			       dev, first);
	ret = pw_remote_set_device(c->r, h, dev - first, in_service);
	if (ret || in_service)
		return ret;
	/* This client's slices on it fail, and stay failed. */
	for (i = 0; i < c->nslices; i++) {
		struct pw_slice *s = c->slices[i];

		if (pw_remote_slice_host(c->r, s->rid) != (int)h)
			continue;
		for (v = 0; v < s->n; v++)
			if (s->devs[v] == dev - first && !s->failed_dev)
				s->failed_dev = (int)(dev - first) + 1;
	}
	return 0;
}

static int device_call(struct pw_client *c, unsigned int dev,
		       bool in_service, const char *call)
{
	int ret;

	if (!c)
		return pw_fail(-EINVAL, "%s: no client", call);
	pw_client_lock(c);
	ret = set_device(c, dev, in_service);
	pw_client_unlock(c);
	return ret;
}

int pw_remove_device(struct pw_client *c, unsigned int dev)
{
	return device_call(c, dev, false, "pw_remove_device");
}

int pw_add_device(struct pw_client *c, unsigned int dev)
{
	return device_call(c, dev, true, "pw_add_device");
}

int pw_set_sched_policy(struct pw_client *c, enum pw_sched_policy policy,
			unsigned int window)
{
	int ret;

	if (!c)
		return pw_fail(-EINVAL, "pw_set_sched_policy: no client");
	if (policy != PW_SCHED_FIFO && policy != PW_SCHED_SHARE)
		return pw_fail(-EINVAL, "unknown scheduling policy %d", policy);
	pw_client_lock(c);
	ret = pw_remote_set_policy(c->r, policy, window);
	pw_client_unlock(c);
	return ret;
}

int pw_set_weight(struct pw_client *c, unsigned int weight)
{
	int ret;

	if (!c)
		return pw_fail(-EINVAL, "pw_set_weight: no client");
	if (weight < 1 || weight > 1000)
		return pw_fail(-EINVAL, "weight %u: must be 1..1000", weight);
	pw_client_lock(c);
	ret = pw_remote_set_weight(c->r, NULL, weight);
	pw_client_unlock(c);
	return ret;
}

/* Without the client's lock: another thread's wait may hold it long. */
void pw_client_stats(struct pw_client *c, struct pw_client_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!c)
		return;
	pw_remote_stats(c->r, st);
	/* The shards of its live buffers, wherever the workers hold them. */
	st->hbm_bytes = atomic_load(&c->hbm_bytes);
}
