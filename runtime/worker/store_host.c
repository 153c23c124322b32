// SPDX-License-Identifier: GPL-2.0
/*
 * store_host.c - moving sharded buffers between host memory and HBM.
 *
 * Both directions are device commands (COPY_TO_DEV, COPY_FROM_DEV) in the
 * devices' queues, so they are ordered with the computations around them
 * exactly as the device orders everything else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"

static int check_slice(struct pw_slice *slice, unsigned int *devs)
{
	unsigned int n = pw_slice_size(slice), v;
	int failed;

	if (!slice->rs)
		return pw_fail(-EINVAL, "a slice of a remote controller's client");
	if (!pw_rm_slice_ok(slice->rs, &failed))
		return pw_fail(-ENODEV, "the slice uses device %d, which was removed",
			       failed);
	for (v = 0; v < n; v++)
		devs[v] = (unsigned int)pw_slice_device(slice, v);
	return 0;
}

int pw_sig_make(struct pw_sig *sig, enum pwtpu_dtype dtype,
		    unsigned int rank, const uint32_t *shape)
{
	unsigned int i;

	memset(sig, 0, sizeof(*sig));
	if (dtype < PWTPU_DT_F32 || dtype > PWTPU_DT_I32)
		return pw_fail(-EINVAL, "unknown dtype %d", dtype);
	if (rank > PW_MAX_RANK || (rank && !shape))
		return pw_fail(-EINVAL, "rank %u: must be 0..%d with a shape",
			       rank, PW_MAX_RANK);
	sig->dtype = dtype;
	sig->rank = rank;
	for (i = 0; i < rank; i++) {
		if (!shape[i] || shape[i] > PWTPU_MAX_ELEMS)
			return pw_fail(-EINVAL, "extent %u of dimension %u is out of range",
				       shape[i], i);
		sig->shape[i] = shape[i];
	}
	if (pw_sig_bytes(sig) > (uint64_t)PWTPU_MAX_ELEMS * 4)
		return pw_fail(-EINVAL, "shard of %llu bytes is too large",
			       (unsigned long long)pw_sig_bytes(sig));
	return 0;
}

int pw_buffer_from_host(struct pw_client *client, struct pw_slice *slice,
			enum pwtpu_dtype dtype, unsigned int rank,
			const uint32_t *shard_shape, const void *data,
			bool replicate, struct pw_buffer **out)
{
	unsigned int devs[PW_RM_MAX_DEVICES], n, v;
	struct pw_buffer *buf;
	struct pw_batch *b;
	struct pw_sig sig;
	int ret;

	if (!client || !slice || !data || !out)
		return pw_fail(-EINVAL, "pw_buffer_from_host: NULL argument");
	if (client->remote_state) {
		ret = pw_sig_make(&sig, dtype, rank, shard_shape);
		return ret ? ret : pw_cr_buffer_from_host(client, slice, &sig,
							  data, replicate, out);
	}
	if (atomic_load(&client->closing))
		return pw_fail(-ESHUTDOWN, "client is disconnecting");
	ret = pw_sig_make(&sig, dtype, rank, shard_shape);
	if (ret)
		return ret;
	ret = check_slice(slice, devs);
	if (ret)
		return ret;
	n = pw_slice_size(slice);
	ret = pw_buffer_new(client, &sig, n, devs, false, false, &buf);
	if (ret)
		return ret;
	b = pw_batch_new(client);
	if (!b)
		goto nomem;
	for (v = 0; v < n; v++) {
		const unsigned char *src = (const unsigned char *)data +
			(replicate ? 0 : v * buf->shard_bytes);
		struct pw_item *it = pw_batch_add(b, devs[v],
						  PWTPU_CMD_COPY_TO_DEV);

		if (!it)
			goto nomem_batch;
		it->host = malloc(buf->shard_bytes);
		if (!it->host)
			goto nomem_batch;
		memcpy(it->host, src, buf->shard_bytes);
		it->cmd.handle = buf->shards[v].bo;
		it->cmd.host_ptr = (uintptr_t)it->host;
		it->cmd.length = buf->shard_bytes;
		pw_item_out(it, buf, v);
	}
	pw_sched_submit(client->ctrl, b);
	*out = buf;
	return 0;
nomem_batch:
	pw_batch_fail(client->ctrl, b, -ENOMEM);
nomem:
	pw_buffer_put(buf);
	return pw_fail(-ENOMEM, "out of host memory");
}

int pw_buffer_to_host(struct pw_buffer *buf, void *data, size_t size)
{
	struct pw_client *client;
	struct pw_batch *b;
	unsigned int v;
	int ret;

	if (!buf || !data)
		return pw_fail(-EINVAL, "pw_buffer_to_host: NULL argument");
	if (size != buf->nshards * buf->shard_bytes)
		return pw_fail(-EINVAL, "buffer holds %llu bytes, not %zu",
			       (unsigned long long)(buf->nshards *
						    buf->shard_bytes), size);
	if (buf->rops)
		return buf->rops->to_host(buf, data, size);
	ret = pw_buffer_wait(buf);
	if (ret)
		return ret;
	client = buf->owner;
	b = pw_batch_new(client);
	if (!b)
		return pw_fail(-ENOMEM, "out of host memory");
	for (v = 0; v < buf->nshards; v++) {
		struct pw_item *it = pw_batch_add(b, buf->shards[v].dev,
						  PWTPU_CMD_COPY_FROM_DEV);

		if (!it) {
			pw_batch_fail(client->ctrl, b, -ENOMEM);
			return pw_fail(-ENOMEM, "out of host memory");
		}
		it->cmd.handle = buf->shards[v].bo;
		it->cmd.host_ptr = (uintptr_t)data + v * buf->shard_bytes;
		it->cmd.length = buf->shard_bytes;
		pw_item_in(it, buf, v, false);
	}
	atomic_fetch_add(&b->refs, 1);
	pw_sched_submit(client->ctrl, b);
	ret = pw_batch_wait_done(client->ctrl, b);
	pw_batch_put(b);
	if (ret)
		return pw_fail(ret, "reading the buffer back failed: %s",
			       strerror(-ret));
	return 0;
}
