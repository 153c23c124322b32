// SPDX-License-Identifier: GPL-2.0
/*
 * batch.c - device commands and the batches that carry them.
 *
 * A command holds a reference on every buffer it reads or writes until it
 * retires, so buffers a client puts early (intermediates, temporaries)
 * live exactly as long as the device needs them. Retiring propagates
 * errors: a command that read a failed shard fails its outputs with the
 * same error, whatever the device said.
 */
#include <errno.h>
#include <stdlib.h>

#include "../core/core.h"

struct pw_batch *pw_batch_new(struct pw_client *client)
{
	struct pw_batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->client = client;
	atomic_init(&b->refs, 1);
	return b;
}

struct pw_item *pw_item_new(unsigned int dev, uint32_t op)
{
	struct pw_item *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->dev = dev;
	it->op = op;
	return it;
}

struct pw_item *pw_batch_add(struct pw_batch *b, unsigned int dev,
			     uint32_t op)
{
	struct pw_item *it = pw_item_new(dev, op);

	if (it)
		pw_batch_append(b, it);
	return it;
}

void pw_batch_append(struct pw_batch *b, struct pw_item *it)
{
	unsigned int dev = it->dev;

	it->batch = b;
	if (b->tail[dev])
		b->tail[dev]->next = it;
	else
		b->head[dev] = it;
	b->tail[dev] = it;
	b->nitems++;
	atomic_fetch_add(&b->items_left, 1);
	atomic_fetch_add(&b->unsubmitted, 1);
}

void pw_item_in(struct pw_item *it, struct pw_buffer *buf, unsigned int shard,
		bool wait)
{
	/* Waited-for inputs lead the array: exec checks only those. */
	if (wait) {
		it->in[it->nin] = it->in[it->wait];
		it->in[it->wait].buf = pw_buffer_get(buf);
		it->in[it->wait].shard = shard;
		it->wait++;
	} else {
		it->in[it->nin].buf = pw_buffer_get(buf);
		it->in[it->nin].shard = shard;
	}
	it->nin++;
}

void pw_item_out(struct pw_item *it, struct pw_buffer *buf,
		 unsigned int shard)
{
	/* Not final until this command retires. */
	if (atomic_fetch_add(&buf->shards[shard].pending, 1) == 0)
		atomic_fetch_add(&buf->pending_shards, 1);
	it->out[it->nout].buf = pw_buffer_get(buf);
	it->out[it->nout].shard = shard;
	it->nout++;
}

static void item_free(struct pw_item *it)
{
	unsigned int i;

	for (i = 0; i < it->nin; i++)
		pw_buffer_put(it->in[i].buf);
	for (i = 0; i < it->nout; i++)
		pw_buffer_put(it->out[i].buf);
	if (it->fn)
		pw_fn_put(it->fn);
	free(it->gang);
	free(it->host);
	free(it);
}

void pw_batch_put(struct pw_batch *b)
{
	if (atomic_fetch_sub(&b->refs, 1) == 1)
		free(b);
}

static void comp_done(struct pw_client *c, struct pw_comp *comp, int err)
{
	if (!comp)
		return;
	if (err)
		atomic_store(&comp->failed, true);
	if (atomic_fetch_sub(&comp->left, 1) != 1)
		return;
	/* Cancelled ones are counted as such (pw_sched_cancel), not here. */
	if (err == -ECANCELED) {
		free(comp);
		return;
	}
	atomic_fetch_add(&c->completed, 1);
	if (atomic_load(&comp->failed))
		atomic_fetch_add(&c->failed, 1);
	free(comp);
}

void pw_item_retire(struct pw_ctrl *ctrl, struct pw_item *it)
{
	struct pw_batch *b = it->batch;
	int err = it->res;
	unsigned int i;

	for (i = 0; i < it->nin && !err; i++)
		err = atomic_load(&it->in[i].buf->shards[it->in[i].shard].err);
	if (err) {
		int zero = 0;

		atomic_compare_exchange_strong(&b->err, &zero, err);
	}
	/* Statistics first: whoever sees the outputs final sees them too. */
	comp_done(b->client, it->comp, err);
	for (i = 0; i < it->nout; i++)
		pw_shard_done(&it->out[i], err);
	item_free(it);
	if (atomic_fetch_sub(&b->items_left, 1) == 1) {
		if (b->released)
			pw_sched_batch_end(ctrl, b);
		if (atomic_load(&b->refs) > 1)
			pw_ctrl_broadcast(ctrl);
		pw_batch_put(b);
	}
}

void pw_batch_fail(struct pw_ctrl *ctrl, struct pw_batch *b, int err)
{
	unsigned int d;

	/* Nothing of it reached an executor: no order to keep. */
	if (!b->nitems) {
		pw_batch_put(b);
		return;
	}
	for (d = 0; d < PW_RM_MAX_DEVICES; d++) {
		struct pw_item *it = b->head[d], *next;

		b->head[d] = NULL;
		b->tail[d] = NULL;
		for (; it; it = next) {
			next = it->next;
			it->res = err;
			it->done = true;
			atomic_fetch_sub(&b->unsubmitted, 1);
			pw_item_retire(ctrl, it);
		}
	}
}

void pw_batch_wait_submitted(struct pw_ctrl *ctrl, struct pw_batch *b)
{
	pthread_mutex_lock(&ctrl->wait_lock);
	while (atomic_load(&b->unsubmitted) > 0)
		pthread_cond_wait(&ctrl->wait_cond, &ctrl->wait_lock);
	pthread_mutex_unlock(&ctrl->wait_lock);
}

int pw_batch_wait_done(struct pw_ctrl *ctrl, struct pw_batch *b)
{
	pthread_mutex_lock(&ctrl->wait_lock);
	while (atomic_load(&b->items_left) > 0)
		pthread_cond_wait(&ctrl->wait_cond, &ctrl->wait_lock);
	pthread_mutex_unlock(&ctrl->wait_lock);
	return atomic_load(&b->err);
}
