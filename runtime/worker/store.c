// SPDX-License-Identifier: GPL-2.0
/*
 * store.c - the object store: sharded buffers in HBM, their futures, their
 * owners, and device memory with back-pressure.
 *
 * A buffer is one logical value of n shards, one refcount, one owner. Its
 * shards become final as the commands writing them retire; waiting for
 * the value waits for all of them. Device memory comes from the driver
 * through a small per-device cache of freed buffer objects (exact sizes,
 * the common case of a program run again). When the driver says HBM is
 * full the allocation waits for work in flight to free memory rather than
 * failing, and fails only when nothing in flight could ever free it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pwtpu/pwtpu_dev.h>

#include "../core/core.h"

/* Cached bytes per device stay under this share of its HBM. */
#define PW_BO_CACHE_SHARE	8
#define PW_MEM_WAIT_MS		50

static bool cache_take(struct pw_bo_cache *c, uint64_t size,
		       struct pw_bo_cached *bo)
{
	unsigned int i;
	bool found = false;

	pthread_mutex_lock(&c->lock);
	for (i = c->n; i-- > 0;) {
		if (c->slot[i].size != size)
			continue;
		*bo = c->slot[i];
		c->bytes -= size;
		memmove(&c->slot[i], &c->slot[i + 1],
			(c->n - i - 1) * sizeof(c->slot[0]));
		c->n--;
		found = true;
		break;
	}
	pthread_mutex_unlock(&c->lock);
	return found;
}

/* Destroy every cached object of @dev; returns how many. */
static unsigned int cache_flush_dev(struct pw_ctrl *ctrl, unsigned int dev)
{
	struct pw_bo_cache *c = &ctrl->cache[dev];
	struct pw_bo_cached slot[PW_BO_CACHE_SLOTS];
	unsigned int i, n;

	pthread_mutex_lock(&c->lock);
	n = c->n;
	memcpy(slot, c->slot, n * sizeof(slot[0]));
	c->n = 0;
	c->bytes = 0;
	pthread_mutex_unlock(&c->lock);
	for (i = 0; i < n; i++)
		pwtpu_bo_destroy(ctrl->exec[dev].fd, slot[i].bo);
	return n;
}

void pw_bo_cache_flush(struct pw_ctrl *ctrl)
{
	unsigned int d;

	for (d = 0; d < ctrl->isl.ndevices; d++)
		cache_flush_dev(ctrl, d);
}

void pw_bo_release(struct pw_ctrl *ctrl, unsigned int dev,
		   const struct pw_bo_cached *bo)
{
	struct pw_bo_cache *c = &ctrl->cache[dev];
	uint64_t size = bo->size;
	bool cached = false;

	pthread_mutex_lock(&c->lock);
	if (c->n < PW_BO_CACHE_SLOTS &&
	    c->bytes + size <= ctrl->hbm_bytes / PW_BO_CACHE_SHARE &&
	    !atomic_load(&ctrl->mem_waiters)) {
		c->slot[c->n++] = *bo;
		c->bytes += size;
		cached = true;
	}
	pthread_mutex_unlock(&c->lock);
	if (!cached)
		pwtpu_bo_destroy(ctrl->exec[dev].fd, bo->bo);
	if (atomic_load(&ctrl->mem_waiters))
		pw_ctrl_broadcast(ctrl);
}

static void mem_wait(struct pw_ctrl *ctrl)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += PW_MEM_WAIT_MS * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&ctrl->wait_lock);
	pthread_cond_timedwait(&ctrl->wait_cond, &ctrl->wait_lock, &ts);
	pthread_mutex_unlock(&ctrl->wait_lock);
}

int pw_bo_alloc(struct pw_client *client, unsigned int dev, uint64_t size,
		bool can_defer, struct pw_bo_cached *bo)
{
	struct pw_ctrl *ctrl = client->ctrl;
	struct pwtpu_bo b;
	int ret;

	if (cache_take(&ctrl->cache[dev], size, bo))
		return 0;
	for (;;) {
		ret = pwtpu_bo_create(ctrl->exec[dev].fd, size, &b);
		if (ret == 0) {
			bo->bo = b.handle;
			bo->mmap_offset = b.mmap_offset;
			bo->size = size;
			break;
		}
		if (ret == -E2BIG)
			return pw_fail(ret, "%llu bytes is more than the %llu bytes of HBM of device %u",
				       (unsigned long long)size,
				       (unsigned long long)ctrl->hbm_bytes, dev);
		if (ret != -ENOSPC)
			return pw_fail(ret, "device %u: allocating %llu bytes: %s",
				       dev, (unsigned long long)size,
				       strerror(-ret));
		if (cache_flush_dev(ctrl, dev))
			continue;
		/*
		 * The last work in flight may have ended, and cached what it
		 * freed, since the flush above: look once more.
		 */
		if (!pw_ctrl_busy(ctrl)) {
			if (cache_flush_dev(ctrl, dev))
				continue;
			if (can_defer)
				return -EAGAIN;
			return pw_fail(-ENOMEM, "HBM of device %u is full (%llu MiB) and no work in flight can free it",
				       dev,
				       (unsigned long long)(ctrl->hbm_bytes >> 20));
		}
		/* Back-pressure: wait for work in flight to free memory. */
		atomic_fetch_add(&ctrl->mem_waiters, 1);
		atomic_fetch_add(&ctrl->blocked_builders, pw_self_building);
		mem_wait(ctrl);
		atomic_fetch_sub(&ctrl->blocked_builders, pw_self_building);
		atomic_fetch_sub(&ctrl->mem_waiters, 1);
	}
	return 0;
}

static void buffer_link(struct pw_client *c, struct pw_buffer *buf)
{
	pthread_mutex_lock(&c->lock);
	buf->next = c->buffers;
	if (c->buffers)
		c->buffers->prev = buf;
	c->buffers = buf;
	pthread_mutex_unlock(&c->lock);
}

static void buffer_unlink(struct pw_client *c, struct pw_buffer *buf)
{
	pthread_mutex_lock(&c->lock);
	if (buf->prev)
		buf->prev->next = buf->next;
	else if (c->buffers == buf)
		c->buffers = buf->next;
	if (buf->next)
		buf->next->prev = buf->prev;
	buf->prev = NULL;
	buf->next = NULL;
	pthread_mutex_unlock(&c->lock);
}

/* Give the device memory back (not the struct). */
static void buffer_release_storage(struct pw_buffer *buf)
{
	unsigned int i;

	for (i = 0; i < buf->nshards; i++) {
		struct pw_bo_cached bo = {
			.bo = buf->shards[i].bo,
			.mmap_offset = buf->shards[i].mmap_offset,
			.size = buf->shard_bytes,
		};

		if (!bo.bo)
			continue;
		pw_bo_release(buf->ctrl, buf->shards[i].dev, &bo);
		buf->shards[i].bo = 0;
		atomic_fetch_sub(&buf->owner->hbm_bytes,
				 (int_fast64_t)buf->shard_bytes);
	}
}

int pw_buffer_new(struct pw_client *client, const struct pw_sig *sig,
		  unsigned int n, const unsigned int *devs, bool traced,
		  bool can_defer, struct pw_buffer **out)
{
	struct pw_buffer *buf;
	unsigned int i;
	int ret;

	buf = calloc(1, sizeof(*buf) + n * sizeof(buf->shards[0]));
	if (!buf)
		return pw_fail(-ENOMEM, "out of host memory");
	atomic_init(&buf->refs, 1);
	buf->ctrl = client->ctrl;
	buf->owner = client;
	buf->sig = *sig;
	buf->shard_bytes = pw_sig_bytes(sig);
	buf->nshards = n;
	buf->node = -1;
	for (i = 0; i < n; i++) {
		struct pw_bo_cached bo;

		buf->shards[i].dev = devs[i];
		if (traced)
			continue;
		ret = pw_bo_alloc(client, devs[i], buf->shard_bytes, can_defer,
				  &bo);
		if (!ret) {
			buf->shards[i].bo = bo.bo;
			buf->shards[i].mmap_offset = bo.mmap_offset;
		}
		if (ret) {
			buffer_release_storage(buf);
			free(buf);
			return ret;
		}
		atomic_fetch_add(&client->hbm_bytes,
				 (int_fast64_t)buf->shard_bytes);
	}
	buffer_link(client, buf);
	*out = buf;
	return 0;
}

struct pw_buffer *pw_buffer_get(struct pw_buffer *buf)
{
	atomic_fetch_add(&buf->refs, 1);
	return buf;
}

void pw_buffer_put(struct pw_buffer *buf)
{
	if (!buf || atomic_fetch_sub(&buf->refs, 1) != 1)
		return;
	if (buf->rops) {
		buf->rops->release(buf);
		return;
	}
	buffer_release_storage(buf);
	buffer_unlink(buf->owner, buf);
	free(buf);
}

void pw_shard_done(struct pw_ref *ref, int err)
{
	struct pw_buffer *buf = ref->buf;
	struct pw_shard *sh = &buf->shards[ref->shard];

	if (err) {
		int zero = 0;

		atomic_compare_exchange_strong(&sh->err, &zero, err);
	}
	if (atomic_fetch_sub(&sh->pending, 1) != 1)
		return;
	/* Executors waiting for this shard from another device. */
	pw_exec_wake_waiters(buf->ctrl);
	if (atomic_fetch_sub(&buf->pending_shards, 1) == 1)
		pw_ctrl_broadcast(buf->ctrl);
}

static int buffer_error(const struct pw_buffer *buf)
{
	unsigned int i;
	int err;

	for (i = 0; i < buf->nshards; i++) {
		err = atomic_load(&buf->shards[i].err);
		if (err)
			return err;
	}
	return 0;
}

int pw_buffer_wait(struct pw_buffer *buf)
{
	struct pw_ctrl *ctrl;
	int err;

	if (!buf)
		return pw_fail(-EINVAL, "pw_buffer_wait: no buffer");
	if (buf->prog)
		return pw_fail(-EINVAL, "a traced value has no data: run the program");
	if (buf->rops)
		return buf->rops->wait(buf);
	ctrl = buf->ctrl;
	pthread_mutex_lock(&ctrl->wait_lock);
	while (atomic_load(&buf->pending_shards) > 0)
		pthread_cond_wait(&ctrl->wait_cond, &ctrl->wait_lock);
	pthread_mutex_unlock(&ctrl->wait_lock);
	err = buffer_error(buf);
	if (err)
		return pw_fail(err, "the computation making this buffer failed: %s",
			       strerror(-err));
	return 0;
}

unsigned int pw_buffer_num_shards(const struct pw_buffer *buf)
{
	return buf ? buf->nshards : 0;
}

size_t pw_buffer_shard_bytes(const struct pw_buffer *buf)
{
	return buf ? buf->shard_bytes : 0;
}

void pw_store_collect(struct pw_client *c)
{
	struct pw_buffer *buf;

	for (;;) {
		pthread_mutex_lock(&c->lock);
		buf = c->buffers;
		if (buf) {
			c->buffers = buf->next;
			if (buf->next)
				buf->next->prev = NULL;
			buf->next = NULL;
		}
		pthread_mutex_unlock(&c->lock);
		if (!buf)
			break;
		buffer_release_storage(buf);
		free(buf);
	}
}
