// SPDX-License-Identifier: GPL-2.0
/*
 * wk_obj.c - a worker's side of FUNCTION, BUFFER and BYE: compiled functions
 * reassembled and checked (loaded on a device the first time a command
 * runs them), buffers created, filled, read back and freed for remote
 * clients (their bytes in BUFFER parts; over the data plane, wk_host.c).
 * Every request ends with one STATUS for its client (through the
 * controller), or DATA for a read. When a client goes, everything it
 * had here goes with it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../util/log.h"
#include "roles.h"

void pw_wk_send_status(struct pw_worker *w, uint8_t ref_type,
		       uint32_t client, uint32_t id, int err, uint64_t value)
{
	struct pw_wire_msg m;

	if (!w->ctl)
		return;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_STATUS;
	m.body.status.ref_type = ref_type;
	m.body.status.status = (uint32_t)-err;
	m.body.status.client = client;
	m.body.status.ref_id = id;
	m.body.status.value = value;
	pw_node_send(&w->node, w->ctl, &m, pw_now_ns());
}

int pw_wk_on_function(struct pw_worker *w, const struct pw_wire_function *f)
{
	int ret = pw_wfn_add(&w->store, f);

	/* The controller checked the function already: only failures. */
	if (ret < 0)
		pw_wk_send_status(w, PW_WIRE_FUNCTION, f->client, f->fn_id, ret, 0);
	return ret < 0 ? ret : 0;
}

static int buf_write(struct pw_worker *w, const struct pw_wire_buffer *b)
{
	struct pw_wbuf *wb = pw_wbuf_find(&w->store, b->client, b->id);
	int ret;

	if (b->op == PW_WIRE_BUF_CREATE) {
		struct pw_wire_sig sig = { .dtype = b->dtype, .rank = b->rank };

		memcpy(sig.shape, b->shape, sizeof(sig.shape));
		if (pw_wire_sig_bytes(&sig) != b->total || b->dev >= w->dev.ndev)
			return -EINVAL;
		ret = pw_wbuf_create(&w->store, b->client, b->id, b->dev,
				     b->total, &wb);
		if (ret)
			return ret;
		wb->sig = sig;
	} else if (!wb) {
		return -ENOENT;
	} else if (wb->state != PW_WBUF_FILLING || b->offset != wb->filled ||
		   b->total != wb->bytes) {
		/* Parts come in order; a final buffer is not written again. */
		return -EPROTO;
	}
	memcpy((uint8_t *)wb->bo.map + b->offset, b->data, b->nbytes);
	wb->filled += b->nbytes;
	if (wb->filled < wb->bytes)
		return 0;
	wb->state = PW_WBUF_READY;
	pw_wk_send_status(w, PW_WIRE_BUFFER, b->client, b->id, 0, wb->filled);
	return 0;
}

int pw_wk_buf_final(struct pw_worker *w, const struct pw_wire_buffer *b,
		    struct pw_wbuf **out)
{
	struct pw_wbuf *wb = pw_wbuf_find(&w->store, b->client, b->id);

	if (!wb)
		return -ENOENT;
	if (wb->state == PW_WBUF_FAILED)
		return -ECANCELED;
	/* Reads come after the runs that make the value: it is final. */
	if (wb->state != PW_WBUF_READY)
		return -EBUSY;
	*out = wb;
	return 0;
}

static int buf_read(struct pw_worker *w, const struct pw_wire_buffer *b)
{
	struct pw_wbuf *wb;
	struct pw_wire_msg m;
	uint64_t off;
	int ret;

	ret = pw_wk_buf_final(w, b, &wb);
	if (ret)
		return ret;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BUFFER;
	m.body.buffer.op = PW_WIRE_BUF_DATA;
	m.body.buffer.host = (uint16_t)w->reg.host_id;
	m.body.buffer.client = b->client;
	m.body.buffer.id = b->id;
	m.body.buffer.total = (uint32_t)wb->bytes;
	for (off = 0; off < wb->bytes; off += m.body.buffer.nbytes) {
		uint64_t left = wb->bytes - off;

		m.body.buffer.offset = (uint32_t)off;
		m.body.buffer.nbytes = (uint16_t)(left < PW_WIRE_BUF_CHUNK ?
						  left : PW_WIRE_BUF_CHUNK);
		memcpy(m.body.buffer.data, (uint8_t *)wb->bo.map + off,
		       m.body.buffer.nbytes);
		ret = pw_node_send(&w->node, w->ctl, &m, pw_now_ns());
		if (ret)
			return ret;
	}
	return 0;
}

int pw_wk_on_buffer(struct pw_worker *w, const struct pw_wire_buffer *b)
{
	struct pw_wbuf *wb;
	int ret;

	if (b->flags & PW_WIRE_BUF_F_DP) {
		ret = pw_wk_host_buffer(w, b);
		if (ret)
			pw_wk_send_status(w, PW_WIRE_BUFFER, b->client, b->id, ret, 0);
		return ret;
	}
	switch (b->op) {
	case PW_WIRE_BUF_CREATE:
	case PW_WIRE_BUF_WRITE:
		ret = buf_write(w, b);
		break;
	case PW_WIRE_BUF_READ:
		ret = w->ctl ? buf_read(w, b) : -ENOTCONN;
		break;
	case PW_WIRE_BUF_FREE:
		pw_wk_host_forget_buffer(w, b->client, b->id);
		wb = pw_wbuf_find(&w->store, b->client, b->id);
		if (wb)
			pw_wbuf_release(&w->store, wb);
		else
			pw_wk_free_unmade(w, b->client, b->id);
		return 0;
	default:
		ret = -EOPNOTSUPP;
	}
	if (ret)
		pw_wk_send_status(w, PW_WIRE_BUFFER, b->client, b->id, ret, 0);
	return ret;
}

int pw_wk_on_bye(struct pw_worker *w, const struct pw_wire_bye *b)
{
	unsigned int nbufs = w->store.nbufs, nfns = w->store.nfns;
	uint64_t bytes = w->store.bytes;

	pw_wk_host_forget_client(w, b->client);
	pw_wk_runs_forget_client(w, b->client);
	pw_wk_slices_forget_client(w, b->client);
	pw_wstore_release_owner(&w->store, b->client);
	pw_wstore_drop_fns(&w->store, b->client);
	if (nbufs == w->store.nbufs && nfns == w->store.nfns)
		return 0;	/* one that only asked (pathwaysd --role status) */
	pw_log("worker %u: client node %u gone: freed %u buffers (%llu bytes), %u functions",
	       w->reg.host_id, b->client, nbufs - w->store.nbufs,
	       (unsigned long long)(bytes - w->store.bytes),
	       nfns - w->store.nfns);
	return 0;
}

/*
 * A client that still has a buffer, function, slice, host transfer or
 * data-plane connection here, or 0.
 */
static uint32_t any_client(const struct pw_worker *w)
{
	const struct pw_wstore *s = &w->store;
	unsigned int i;

	for (i = 0; i < PW_WSTORE_BUCKETS; i++) {
		const struct pw_wbuf *b;

		for (b = s->bufs[i]; b; b = b->next)
			if (b->owned && (b->owner & PW_NODE_CLIENT_BASE))
				return b->owner;
		if (s->fns[i])
			return s->fns[i]->client;
	}
	for (i = 0; i < PW_WK_MAX_HXFER; i++)
		if (w->hx[i].used)
			return w->hx[i].client;
	for (i = 0; i < PW_WK_MAX_CCONN; i++)
		if (w->cconn[i].conn)
			return w->cconn[i].client;
	return w->nslices ? w->slices[0].client : 0;
}

void pw_wk_forget_all_clients(struct pw_worker *w)
{
	struct pw_wire_bye bye = { 0 };

	while ((bye.client = any_client(w)))
		pw_wk_on_bye(w, &bye);
}
