// SPDX-License-Identifier: GPL-2.0
/*
 * lower.c - one sharded computation onto physical devices: device
 * commands for every shard, transfers for inputs that live elsewhere,
 * outputs allocated up front.
 *
 * A buffer's logical value is its shards concatenated along dimension 0,
 * so moving it between slices (scatter, gather, resharding) is a set of
 * byte ranges: destination shard v takes bytes [v*db, (v+1)*db) of the
 * value, from whichever source shards hold them, each piece one
 * COPY_PEER over the mesh links in the source device's queue (ordered
 * after whatever wrote the source there). The computation's shard on the
 * destination waits for its pieces: the one cross-device dependency.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pwtpu/pwtpu_dev.h>

#include "../core/core.h"

static bool same_placement(const struct pw_buffer *b, unsigned int n,
			   const unsigned int *devs)
{
	unsigned int v;

	if (b->nshards != n)
		return false;
	for (v = 0; v < n; v++)
		if (b->shards[v].dev != devs[v])
			return false;
	return true;
}

/* Copy commands that fill @dst (on its devices) from @src. */
static int emit_reshard(struct pw_ctrl *ctrl, struct pw_batch *batch,
			struct pw_buffer *src, struct pw_buffer *dst)
{
	uint64_t sb = src->shard_bytes, db = dst->shard_bytes;
	unsigned int v, s;

	for (v = 0; v < dst->nshards; v++) {
		uint64_t lo = v * db, hi = lo + db;

		for (s = lo / sb; s < src->nshards && s * sb < hi; s++) {
			uint64_t a = lo > s * sb ? lo : s * sb;
			uint64_t e = hi < (s + 1) * sb ? hi : (s + 1) * sb;
			struct pw_item *it;

			it = pw_batch_add(batch, src->shards[s].dev,
					  PWTPU_CMD_COPY_PEER);
			if (!it)
				return -ENOMEM;
			it->cmd.handle = src->shards[s].bo;
			it->cmd.offset = a - s * sb;
			it->cmd.length = e - a;
			it->cmd.peer_fd = ctrl->exec[dst->shards[v].dev].fd;
			it->cmd.peer_handle = dst->shards[v].bo;
			it->cmd.peer_offset = a - lo;
			pw_item_in(it, src, s, false);
			pw_item_out(it, dst, v);
		}
	}
	return 0;
}

static int check_input(const struct pw_client *client, const struct pw_fn *fn,
		       unsigned int i, const struct pw_buffer *b, unsigned int n,
		       bool same)
{
	const struct pw_sig *p = &fn->params[i];
	char want[64], got[64];

	if (b->prog)
		return pw_fail(-EINVAL, "%s: input %u is a traced value outside its program",
			       fn->name, i);
	if (b->owner != client)
		return pw_fail(-EINVAL, "%s: input %u belongs to client \"%s\": a client computes on its own buffers",
			       fn->name, i, b->owner->name);
	if (same && pw_sig_equal(&b->sig, p))
		return 0;
	if (!same && b->sig.dtype == p->dtype &&
	    b->nshards * b->shard_bytes == n * pw_sig_bytes(p))
		return 0;
	return pw_fail(-EINVAL, "%s: input %u is %u shards of %s; the call needs %u shards of %s%s",
		       fn->name, i, b->nshards,
		       pw_sig_format(&b->sig, got, sizeof(got)), n,
		       pw_sig_format(p, want, sizeof(want)),
		       same ? "" : " (or as many bytes of that dtype to reshard)");
}

static int emit_exec(struct pw_ctrl *ctrl, struct pw_batch *batch,
		     struct pw_fn *fn, unsigned int n, const unsigned int *devs,
		     struct pw_buffer **in, const bool *moved,
		     struct pw_buffer **out)
{
	uint64_t gang_id = fn->collectives ? pw_ctrl_gang_id(ctrl) : 0;
	struct pw_comp *comp = calloc(1, sizeof(*comp));
	struct pw_item *items[PW_RM_MAX_DEVICES] = { NULL };
	unsigned int v, i;

	/*
	 * All shards or none: a gang sent without one member would leave the
	 * others waiting in the driver until its timeout.
	 */
	for (v = 0; v < n && comp; v++) {
		items[v] = pw_item_new(devs[v], PWTPU_CMD_EXEC);
		if (items[v] && fn->collectives) {
			items[v]->gang = calloc(1, sizeof(*items[v]->gang));
			if (!items[v]->gang) {
				free(items[v]);
				items[v] = NULL;
			}
		}
		if (!items[v])
			break;
	}
	if (!comp || v < n) {
		while (v-- > 0) {
			free(items[v]->gang);
			free(items[v]);
		}
		free(comp);
		return -ENOMEM;
	}
	atomic_init(&comp->left, (int)n);
	for (v = 0; v < n; v++) {
		const struct pw_fn_dev *fd = &fn->dev[devs[v]];
		struct pw_item *it = items[v];
		unsigned int nb = 0;

		pw_batch_append(batch, it);
		it->comp = comp;
		it->fn = pw_fn_get(fn);
		for (i = 0; i < fn->nparams; i++) {
			it->bos[nb++] = in[i]->shards[v].bo;
			pw_item_in(it, in[i], v, moved[i]);
		}
		for (i = 0; i < fn->nresults; i++) {
			it->bos[nb++] = out[i]->shards[v].bo;
			pw_item_out(it, out[i], v);
		}
		if (fn->scratch_buf >= 0)
			it->bos[fn->scratch_buf] = fd->scratch_bo;
		if (fn->const_buf >= 0)
			it->bos[fn->const_buf] = fd->const_bo;
		pwtpu_cmd_exec(&it->cmd, fd->prog, it->bos, fn->nbufs);
		if (fn->collectives) {
			pwtpu_gang_fill(it->gang, gang_id, n, devs, v,
					fn->has_permute, fn->permute_shift);
			it->cmd.gang_ptr = (uintptr_t)it->gang;
		}
	}
	batch->cost++;
	return 0;
}

int pw_lower_call(struct pw_client *client, struct pw_batch *batch,
		  struct pw_fn *fn, struct pw_slice *slice,
		  struct pw_buffer *const *in, unsigned int nin,
		  struct pw_buffer **out)
{
	struct pw_buffer *args[PWTPU_MAX_BUFS] = { NULL };
	struct pw_buffer *res[PWTPU_MAX_BUFS] = { NULL };
	bool moved[PWTPU_MAX_BUFS] = { false };
	struct pw_ctrl *ctrl = client->ctrl;
	unsigned int devs[PW_RM_MAX_DEVICES], n, i, v;
	bool defer = batch->nitems > 0, host_oom = false;
	int failed, ret = 0;

	if (!slice->rs)
		return pw_fail(-EINVAL, "%s: a slice of a remote controller's client",
			       fn->name);
	if (!pw_rm_slice_ok(slice->rs, &failed))
		return pw_fail(-ENODEV, "%s: the slice uses device %d, which was removed",
			       fn->name, failed);
	n = pw_slice_size(slice);
	for (v = 0; v < n; v++)
		devs[v] = (unsigned int)pw_slice_device(slice, v);
	if (nin != fn->nparams)
		return pw_fail(-EINVAL, "%s takes %u inputs, not %u", fn->name,
			       fn->nparams, nin);
	if (fn->group_size && fn->group_size != n)
		return pw_fail(-EINVAL, "%s: its collectives are shaped for %u devices, the slice has %u",
			       fn->name, fn->group_size, n);
	for (i = 0; i < nin; i++) {
		bool same;

		if (!in[i])
			return pw_fail(-EINVAL, "%s: input %u is NULL", fn->name, i);
		same = same_placement(in[i], n, devs);
		ret = check_input(client, fn, i, in[i], n, same);
		if (ret)
			return ret;
		moved[i] = !same;
	}
	for (v = 0; v < n; v++) {
		ret = pw_worker_load_fn(client, fn, devs[v], defer);
		if (ret)
			return ret;
	}
	/* Everything allocated before any command, so failure adds none. */
	for (i = 0; i < nin && !ret; i++) {
		if (moved[i])
			ret = pw_buffer_new(client, &fn->params[i], n, devs,
					    false, defer, &args[i]);
		else
			args[i] = pw_buffer_get(in[i]);
	}
	for (i = 0; i < fn->nresults && !ret; i++)
		ret = pw_buffer_new(client, &fn->results[i], n, devs, false,
				    defer, &res[i]);
	if (!ret) {
		/* Past allocation, only host memory can fail. */
		for (i = 0; i < nin && !ret; i++)
			if (moved[i])
				ret = emit_reshard(ctrl, batch, in[i], args[i]);
		if (!ret)
			ret = emit_exec(ctrl, batch, fn, n, devs, args, moved,
					res);
		host_oom = ret != 0;
	}
	for (i = 0; i < nin; i++)
		pw_buffer_put(args[i]);
	if (ret) {
		for (i = 0; i < fn->nresults; i++)
			pw_buffer_put(res[i]);
		if (host_oom)
			return pw_fail(ret, "out of host memory");
		return ret;
	}
	for (i = 0; i < fn->nresults; i++)
		out[i] = res[i];
	return 0;
}
