// SPDX-License-Identifier: GPL-2.0
/*
 * rm.c - the resource manager's state: vsets, slices, load per device,
 * removal and re-addition of devices, all under one mutex.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rm_internal.h"

struct pw_rm {
	pthread_mutex_t lock;
	struct pw_rm_island isl;	/* .available is the live state */
	unsigned int load[PW_RM_MAX_DEVICES];
	struct pw_rm_vset *vsets;
};

struct pw_rm_vset {
	struct pw_rm *rm;
	struct pw_rm_vset *next;
	struct pw_rm_slice *slices;
	char error[160];
};

struct pw_rm_slice {
	struct pw_rm_vset *vset;
	struct pw_rm_slice *next;
	struct pw_rm_shape shape;
	unsigned int n;
	int failed_dev;			/* -1 while the slice is ok */
	unsigned int devs[];
};

int pw_rm_create(struct pw_rm **out, const struct pw_rm_island *isl)
{
	struct pw_rm *rm;

	if (!isl->ndevices || isl->ndevices > PW_RM_MAX_DEVICES ||
	    !isl->shape.ndims || isl->shape.ndims > PW_RM_MAX_DIMS)
		return -EINVAL;
	rm = calloc(1, sizeof(*rm));
	if (!rm)
		return -ENOMEM;
	pthread_mutex_init(&rm->lock, NULL);
	rm->isl = *isl;
	*out = rm;
	return 0;
}

/* Caller holds the lock. */
static void release_locked(struct pw_rm_slice *slice)
{
	struct pw_rm *rm = slice->vset->rm;
	struct pw_rm_slice **pp;
	unsigned int i;

	for (i = 0; i < slice->n; i++)
		rm->load[slice->devs[i]]--;
	for (pp = &slice->vset->slices; *pp != slice; pp = &(*pp)->next)
		;
	*pp = slice->next;
	free(slice);
}

/* Caller holds the lock. */
static void vset_destroy_locked(struct pw_rm_vset *vset)
{
	struct pw_rm_vset **pp;

	while (vset->slices)
		release_locked(vset->slices);
	for (pp = &vset->rm->vsets; *pp != vset; pp = &(*pp)->next)
		;
	*pp = vset->next;
	free(vset);
}

void pw_rm_destroy(struct pw_rm *rm)
{
	if (!rm)
		return;
	while (rm->vsets)
		vset_destroy_locked(rm->vsets);
	pthread_mutex_destroy(&rm->lock);
	free(rm);
}

int pw_rm_vset_create(struct pw_rm *rm, struct pw_rm_vset **out)
{
	struct pw_rm_vset *vset = calloc(1, sizeof(*vset));

	if (!vset)
		return -ENOMEM;
	vset->rm = rm;
	pthread_mutex_lock(&rm->lock);
	vset->next = rm->vsets;
	rm->vsets = vset;
	pthread_mutex_unlock(&rm->lock);
	*out = vset;
	return 0;
}

void pw_rm_vset_destroy(struct pw_rm_vset *vset)
{
	struct pw_rm *rm;

	if (!vset)
		return;
	rm = vset->rm;
	pthread_mutex_lock(&rm->lock);
	vset_destroy_locked(vset);
	pthread_mutex_unlock(&rm->lock);
}

const char *pw_rm_vset_error(const struct pw_rm_vset *vset)
{
	return vset->error;
}

static void format_shape(char *buf, size_t len, const struct pw_rm_shape *s,
			 bool torus)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < s->ndims && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u",
					 i ? "x" : "", s->extent[i]);
	if (torus && used < len)
		snprintf(buf + used, len - used, "t");
}

/* "no 2x2 block of available devices on island 0 (2x4): devices 1,5 removed" */
static void explain_nospc(struct pw_rm_vset *vset, unsigned int n,
			  const struct pw_rm_shape *shape)
{
	const struct pw_rm_island *isl = &vset->rm->isl;
	char want[32], have[32], removed[96];
	size_t used = 0;
	unsigned int dev;

	if (shape)
		format_shape(want, sizeof(want), shape, false);
	else
		snprintf(want, sizeof(want), "set of %u", n);
	format_shape(have, sizeof(have), &isl->shape, isl->torus);
	removed[0] = '\0';
	for (dev = 0; dev < isl->ndevices; dev++)
		if (!isl->available[dev] && used < sizeof(removed))
			used += (size_t)snprintf(removed + used,
						 sizeof(removed) - used,
						 "%s%u", used ? "," : "", dev);
	snprintf(vset->error, sizeof(vset->error),
		 "no %s block of available devices on island %u (%s): %s%s removed",
		 want, isl->id, have, used ? "devices " : "no devices",
		 removed);
}

/* Caller holds the lock. Checks that need no placement search. */
static int check_request(struct pw_rm_vset *vset, unsigned int n,
			 const struct pw_rm_shape *shape)
{
	const struct pw_rm_island *isl = &vset->rm->isl;
	unsigned int i;

	if (!n) {
		snprintf(vset->error, sizeof(vset->error),
			 "a slice needs at least one device");
		return -EINVAL;
	}
	if (shape) {
		if (!shape->ndims || shape->ndims > isl->shape.ndims) {
			snprintf(vset->error, sizeof(vset->error),
				 "a %u-dimensional slice on a %u-dimensional island",
				 shape->ndims, isl->shape.ndims);
			return -EINVAL;
		}
		for (i = 0; i < shape->ndims; i++) {
			if (!shape->extent[i]) {
				snprintf(vset->error, sizeof(vset->error),
					 "extent %u of the slice shape is 0", i);
				return -EINVAL;
			}
		}
		if (pw_rm_shape_size(shape) != n) {
			snprintf(vset->error, sizeof(vset->error),
				 "%u devices asked for a shape of %u", n,
				 pw_rm_shape_size(shape));
			return -EINVAL;
		}
	}
	if (n > isl->ndevices) {
		snprintf(vset->error, sizeof(vset->error),
			 "%u devices asked for on island %u of %u", n, isl->id,
			 isl->ndevices);
		return -E2BIG;
	}
	return 0;
}

int pw_rm_add_slice(struct pw_rm_vset *vset, unsigned int n,
		    const struct pw_rm_shape *shape,
		    struct pw_rm_slice **out)
{
	struct pw_rm *rm = vset->rm;
	struct pw_rm_slice *slice;
	unsigned int i, room = n < PW_RM_MAX_DEVICES ? n : PW_RM_MAX_DEVICES;
	int ret;

	/* Bounded even for absurd n, which check_request() refuses. */
	slice = calloc(1, sizeof(*slice) + room * sizeof(slice->devs[0]));
	if (!slice)
		return -ENOMEM;
	pthread_mutex_lock(&rm->lock);
	ret = check_request(vset, n, shape);
	if (!ret)
		ret = shape ? rm_place_block(&rm->isl, rm->load, shape,
					     slice->devs)
			    : rm_place_any(&rm->isl, rm->load, n, slice->devs);
	if (ret == -ENOSPC)
		explain_nospc(vset, n, shape);
	if (ret) {
		pthread_mutex_unlock(&rm->lock);
		free(slice);
		return ret;
	}
	slice->vset = vset;
	slice->n = n;
	slice->failed_dev = -1;
	if (shape) {
		slice->shape = *shape;
	} else {
		slice->shape.ndims = 1;
		slice->shape.extent[0] = n;
	}
	for (i = 0; i < n; i++)
		rm->load[slice->devs[i]]++;
	slice->next = vset->slices;
	vset->slices = slice;
	vset->error[0] = '\0';
	pthread_mutex_unlock(&rm->lock);
	*out = slice;
	return 0;
}

void pw_rm_release_slice(struct pw_rm_slice *slice)
{
	struct pw_rm *rm;

	if (!slice)
		return;
	rm = slice->vset->rm;
	pthread_mutex_lock(&rm->lock);
	release_locked(slice);
	pthread_mutex_unlock(&rm->lock);
}

/* Placement never changes after creation: these need no lock. */
unsigned int pw_rm_slice_size(const struct pw_rm_slice *slice)
{
	return slice->n;
}

struct pw_rm_shape pw_rm_slice_shape(const struct pw_rm_slice *slice)
{
	return slice->shape;
}

int pw_rm_slice_device(const struct pw_rm_slice *slice, unsigned int v)
{
	return v < slice->n ? (int)slice->devs[v] : -EINVAL;
}

int pw_rm_slice_coords(const struct pw_rm_slice *slice, unsigned int v,
		       unsigned int coords[PW_RM_MAX_DIMS])
{
	unsigned int i;

	if (v >= slice->n)
		return -EINVAL;
	memset(coords, 0, PW_RM_MAX_DIMS * sizeof(coords[0]));
	for (i = slice->shape.ndims; i-- > 0;) {
		coords[i] = v % slice->shape.extent[i];
		v /= slice->shape.extent[i];
	}
	return 0;
}

bool pw_rm_slice_ok(const struct pw_rm_slice *slice, int *failed_dev)
{
	struct pw_rm *rm = slice->vset->rm;
	int failed;

	pthread_mutex_lock(&rm->lock);
	failed = slice->failed_dev;
	pthread_mutex_unlock(&rm->lock);
	if (failed_dev)
		*failed_dev = failed;
	return failed < 0;
}

int pw_rm_remove_device(struct pw_rm *rm, unsigned int dev)
{
	struct pw_rm_vset *vset;
	struct pw_rm_slice *slice;
	unsigned int i;
	int failed = 0;

	if (dev >= rm->isl.ndevices)
		return -EINVAL;
	pthread_mutex_lock(&rm->lock);
	if (!rm->isl.available[dev]) {
		pthread_mutex_unlock(&rm->lock);
		return -EALREADY;
	}
	rm->isl.available[dev] = false;
	for (vset = rm->vsets; vset; vset = vset->next) {
		for (slice = vset->slices; slice; slice = slice->next) {
			if (slice->failed_dev >= 0)
				continue;
			for (i = 0; i < slice->n; i++)
				if (slice->devs[i] == dev)
					break;
			if (i < slice->n) {
				slice->failed_dev = (int)dev;
				failed++;
			}
		}
	}
	pthread_mutex_unlock(&rm->lock);
	return failed;
}

int pw_rm_add_device(struct pw_rm *rm, unsigned int dev)
{
	int ret = 0;

	if (dev >= rm->isl.ndevices)
		return -EINVAL;
	pthread_mutex_lock(&rm->lock);
	if (rm->isl.available[dev])
		ret = -EALREADY;
	rm->isl.available[dev] = true;
	pthread_mutex_unlock(&rm->lock);
	return ret;
}

int pw_rm_device_load(struct pw_rm *rm, unsigned int dev)
{
	int load;

	if (dev >= rm->isl.ndevices)
		return -EINVAL;
	pthread_mutex_lock(&rm->lock);
	load = (int)rm->load[dev];
	pthread_mutex_unlock(&rm->lock);
	return load;
}

bool pw_rm_device_available(struct pw_rm *rm, unsigned int dev)
{
	bool avail;

	if (dev >= rm->isl.ndevices)
		return false;
	pthread_mutex_lock(&rm->lock);
	avail = rm->isl.available[dev];
	pthread_mutex_unlock(&rm->lock);
	return avail;
}
