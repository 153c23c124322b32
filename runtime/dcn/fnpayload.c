// SPDX-License-Identifier: GPL-2.0
/*
 * fnpayload.c - FUNCTION payloads cut into parts and put back together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
