// SPDX-License-Identifier: GPL-2.0
/*
 * fnpayload.c - FUNCTION payloads cut into parts and put back together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../fn/fn.h"
#include "fnpayload.h"

void pw_fn_payload_free(struct pw_fn_payload *pl)
{
	free(pl->bytes);
	memset(pl, 0, sizeof(*pl));
}

int pw_fn_payload_add(struct pw_fn_payload *pl,
		      const struct pw_wire_function *w)
{
	int ret;

	if (w->offset == 0) {
		pw_fn_payload_free(pl);
		pl->bytes = malloc(w->total);
		if (!pl->bytes)
			return -ENOMEM;
		pl->total = w->total;
	} else if (!pl->bytes || pl->complete || w->offset != pl->received ||
		   w->total != pl->total) {
		/* Parts come in order on one channel. */
		pw_fn_payload_free(pl);
		return -EPROTO;
	}
	/* The codec checked offset + nbytes <= total. */
	memcpy(pl->bytes + w->offset, w->data, w->nbytes);
	pl->received += w->nbytes;
	if (pl->received < pl->total)
		return 0;
	ret = pw_wire_fn_desc_unpack(pl->bytes, pl->total, &pl->desc);
	if (ret) {
		pw_fn_payload_free(pl);
		return ret;
	}
	pl->complete = true;
	return 1;
}

int pw_fn_payload_send(struct pw_node *node, struct pw_node_peer *peer,
		       uint32_t fn_id, uint32_t client, const uint8_t *bytes,
		       uint32_t total)
{
	struct pw_wire_function *f;
	struct pw_wire_msg m;
	uint32_t off;
	int ret;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_FUNCTION;
	f = &m.body.function;
	f->fn_id = fn_id;
	f->client = client;
	f->total = total;
	for (off = 0; off < total; off += f->nbytes) {
		uint32_t left = total - off;

		f->offset = off;
		f->nbytes = (uint16_t)(left < PW_WIRE_FN_CHUNK ?
				       left : PW_WIRE_FN_CHUNK);
		memcpy(f->data, bytes + off, f->nbytes);
		ret = pw_node_send(node, peer, &m, pw_now_ns());
		if (ret)
			return ret;
	}
	return 0;
}

static void sig_to_wire(const struct pw_sig *s, struct pw_wire_sig *w)
{
	memset(w, 0, sizeof(*w));
	w->dtype = (uint8_t)s->dtype;
	w->rank = (uint8_t)s->rank;
	memcpy(w->shape, s->shape, sizeof(w->shape));
}

void pw_fn_payload_desc(const struct pw_fn *fn, struct pw_wire_fn_desc *d)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	if (fn->collectives) {
		d->flags = PW_WIRE_FN_COLLECTIVES;
		d->group_size = fn->group_size;
	}
	if (fn->has_permute) {
		d->flags |= PW_WIRE_FN_PERMUTE;
		d->permute_shift = fn->permute_shift;
	}
	d->nparams = fn->nparams;
	d->nresults = fn->nresults;
	d->nbufs = fn->nbufs;
	d->scratch_buf = fn->scratch_buf;
	d->const_buf = fn->const_buf;
	d->image_bytes = (uint32_t)fn->image_size;
	d->scratch_bytes = fn->scratch_buf >= 0 ? fn->scratch_bytes : 0;
	d->const_bytes = fn->const_buf >= 0 ? fn->const_bytes : 0;
	for (i = 0; i < fn->nparams; i++)
		sig_to_wire(&fn->params[i], &d->sigs[i]);
	for (i = 0; i < fn->nresults; i++)
		sig_to_wire(&fn->results[i], &d->sigs[fn->nparams + i]);
}

uint8_t *pw_fn_payload_pack(const struct pw_wire_fn_desc *d,
			    const void *image, const void *consts,
			    uint32_t *total)
{
	uint8_t *payload;

	*total = PW_WIRE_FN_DESC_SIZE + d->image_bytes +
		 (uint32_t)d->const_bytes;
	payload = malloc(*total);
	if (!payload)
		return NULL;
	pw_wire_fn_desc_pack(d, payload);
	memcpy(payload + PW_WIRE_FN_DESC_SIZE, image, d->image_bytes);
	if (d->const_bytes)
		memcpy(payload + PW_WIRE_FN_DESC_SIZE + d->image_bytes,
		       consts, d->const_bytes);
	return payload;
}
