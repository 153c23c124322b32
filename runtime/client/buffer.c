// SPDX-License-Identifier: GPL-2.0
/*
 * buffer.c - a client's sharded buffers. The shards live in the workers'
 * object stores; the client holds the controller's id, the slice, and
 * the run making it until someone waits for it (a future). The last
 * reference frees the shards on the workers (FREE, held by the
 * controller behind the runs still reading it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

void pw_crun_put(struct pw_client *c, struct pw_crun *run)
{
	if (!run || --run->refs)
		return;
	/* Nobody waits for it: its DONE, when it comes, frees its slot. */
	if (!run->done && c && c->r)
		pw_remote_forget(c->r, run->ticket);
	free(run);
}

int pw_buffer_new(struct pw_client *c, const struct pw_sig *sig,
		  struct pw_slice *slice, uint32_t id, struct pw_crun *run,
		  struct pw_buffer **out)
{
	struct pw_buffer **all, *buf;

	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return pw_fail(-ENOMEM, "out of host memory");
	pw_client_lock(c);
	all = realloc(c->bufs, (c->nbufs + 1) * sizeof(*all));
	if (!all) {
		pw_client_unlock(c);
		free(buf);
		return pw_fail(-ENOMEM, "out of host memory");
	}
	c->bufs = all;
	atomic_init(&buf->refs, 1);
	buf->owner = c;
	buf->sig = *sig;
	buf->shard_bytes = pw_sig_bytes(sig);
	buf->nshards = slice->n;
	buf->id = id;
	buf->slice = slice;
	buf->run = run;
	buf->node = -1;
	if (run)
		run->refs++;
	if (id)
		atomic_fetch_add(&c->hbm_bytes, buf->nshards * buf->shard_bytes);
	all[c->nbufs++] = buf;
	pw_client_unlock(c);
	*out = buf;
	return 0;
}

struct pw_buffer *pw_buffer_get(struct pw_buffer *buf)
{
	atomic_fetch_add(&buf->refs, 1);
	return buf;
}

int pw_buffer_from_host(struct pw_client *c, struct pw_slice *slice,
			enum pwtpu_dtype dtype, unsigned int rank,
			const uint32_t *shard_shape, const void *data,
			bool replicate, struct pw_buffer **out)
{
	struct pw_sig sig;
	uint32_t id;
	int ret;

	if (!c || !slice || !data || !out)
		return pw_fail(-EINVAL, "pw_buffer_from_host: NULL argument");
	if (atomic_load(&c->closing))
		return pw_fail(-ESHUTDOWN, "client is disconnecting");
	ret = pw_sig_make(&sig, dtype, rank, shard_shape);
	if (!ret)
		ret = pw_slice_check(slice);
	if (ret)
		return ret;
	pw_client_lock(c);
	ret = pw_remote_buffer_sharded(c->r, slice->rid, sig.dtype, sig.rank,
				       sig.shape, data, replicate, &id);
	if (!ret)
		ret = pw_buffer_new(c, &sig, slice, id, NULL, out);
	pw_client_unlock(c);
	return ret;
}

/* Wait for the run making @buf, once; its error stays with the buffer. */
static int buffer_made(struct pw_buffer *buf)
{
	struct pw_client *c = buf->owner;
	struct pw_crun *run = buf->run;
	int err;

	if (!run)
		return 0;
	if (!run->done) {
		/* Given up on, the connection forgets it (its DONE frees it). */
		run->err = pw_remote_wait(c->r, run->ticket);
		run->done = true;
	}
	err = run->err;
	if (err == -ENOMEM)
		return pw_fail(err, "the computation making this buffer failed: a device's HBM was full and nothing under way freed it");
	if (err)
		return pw_fail(err, "the computation making this buffer failed: %s",
			       strerror(-err));
	return 0;
}

int pw_buffer_wait(struct pw_buffer *buf)
{
	int ret;

	if (!buf)
		return pw_fail(-EINVAL, "pw_buffer_wait: no buffer");
	if (buf->prog)
		return pw_fail(-EINVAL, "a traced value has no data: run the program");
	pw_client_lock(buf->owner);
	ret = buffer_made(buf);
	pw_client_unlock(buf->owner);
	return ret;
}

int pw_buffer_to_host(struct pw_buffer *buf, void *data, size_t size)
{
	int ret;

	if (!buf || !data)
		return pw_fail(-EINVAL, "pw_buffer_to_host: NULL argument");
	if (buf->prog)
		return pw_fail(-EINVAL, "a traced value has no data: run the program");
	if (size != buf->nshards * buf->shard_bytes)
		return pw_fail(-EINVAL, "buffer holds %llu bytes, not %zu",
			       (unsigned long long)(buf->nshards *
						    buf->shard_bytes), size);
	pw_client_lock(buf->owner);
	ret = buffer_made(buf);
	if (!ret)
		ret = pw_remote_read(buf->owner->r, 0, buf->id, data, size);
	pw_client_unlock(buf->owner);
	return ret;
}

unsigned int pw_buffer_num_shards(const struct pw_buffer *buf)
{
	return buf ? buf->nshards : 0;
}

size_t pw_buffer_shard_bytes(const struct pw_buffer *buf)
{
	return buf ? buf->shard_bytes : 0;
}

void pw_buffer_put(struct pw_buffer *buf)
{
	struct pw_client *c;
	unsigned int i;

	if (!buf || atomic_fetch_sub(&buf->refs, 1) != 1)
		return;
	c = buf->owner;
	pw_client_lock(c);
	/* A run still making it is waited for by nobody now: that is fine. */
	if (buf->id && c->r)
		pw_remote_free(c->r, 0, buf->id);
	if (buf->id)
		atomic_fetch_sub(&c->hbm_bytes, buf->nshards * buf->shard_bytes);
	for (i = 0; i < c->nbufs; i++)
		if (c->bufs[i] == buf)
			c->bufs[i] = c->bufs[--c->nbufs];
	pw_crun_put(c, buf->run);
	pw_client_unlock(c);
	free(buf);
}

void pw_buffers_collect(struct pw_client *c)
{
	unsigned int i;

	for (i = 0; i < c->nbufs; i++) {
		pw_crun_put(c, c->bufs[i]->run);
		free(c->bufs[i]);
	}
	free(c->bufs);
	c->bufs = NULL;
	c->nbufs = 0;
}
