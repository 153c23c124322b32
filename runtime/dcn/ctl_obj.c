// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_obj.c - the controller's part in remote clients' objects. Clients
 * talk only to the controller: it keeps their compiled functions (checked
 * here, shipped to a worker the first time a program places one there),
 * relays BUFFER requests to the worker that holds the buffer and the
 * answers back, and relays a transfer target's READY to the worker that
 * writes it, adding the target's data-plane address.
 *
 * What a client sends is stamped with its node id here, never taken from
 * the message, so a client reaches only its own objects.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "roles.h"

int pw_ctl_host_of(const struct pw_controller *c, uint32_t node)
{
	uint32_t h = node - PW_NODE_WORKER_BASE;

	if (node < PW_NODE_WORKER_BASE || h >= PW_MAX_HOSTS ||
	    !c->isl[h].used || c->isl[h].node != node)
		return -1;
	return (int)h;
}

static struct pw_node_peer *worker_peer(struct pw_controller *c,
					unsigned int h)
{
	if (h >= PW_MAX_HOSTS || !c->isl[h].used || !c->isl[h].up)
		return NULL;
	return pw_node_find(&c->node, c->isl[h].node);
}

struct pw_ctl_fn *pw_ctl_fn_find(struct pw_controller *c, uint32_t client,
				 uint32_t id)
{
	unsigned int i;

	for (i = 0; c->fns && i < PW_CTL_MAX_FNS; i++)
		if (c->fns[i].used && c->fns[i].client == client &&
		    c->fns[i].id == id)
			return &c->fns[i];
	return NULL;
}

static void fn_free(struct pw_ctl_fn *f)
{
	free(f->payload);
	memset(f, 0, sizeof(*f));
}

static void send_status(struct pw_controller *c, struct pw_node_peer *p,
			uint8_t ref_type, uint32_t id, int err, uint64_t value,
			uint64_t now)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_STATUS;
	m.body.status.ref_type = ref_type;
	m.body.status.status = (uint32_t)-err;
	m.body.status.client = p->id;
	m.body.status.ref_id = id;
	m.body.status.value = value;
	pw_node_send(&c->node, p, &m, now);
}

/* A FUNCTION part; the last one is checked and answered. */
static int fn_add(struct pw_controller *c, struct pw_node_peer *p,
		  const struct pw_wire_function *w, struct pw_ctl_fn **out)
{
	struct pw_ctl_fn *f = pw_ctl_fn_find(c, p->id, w->fn_id);
	unsigned int i;

	if (!c->fns) {
		c->fns = calloc(PW_CTL_MAX_FNS, sizeof(*c->fns));
		if (!c->fns)
			return -ENOMEM;
	}
	if (w->offset == 0) {
		/* Registering an id again replaces the function. */
		if (f)
			fn_free(f);
		for (i = 0; i < PW_CTL_MAX_FNS && c->fns[i].used; i++)
			;
		if (i == PW_CTL_MAX_FNS)
			return -ENOSPC;
		f = &c->fns[i];
		f->payload = malloc(w->total);
		if (!f->payload)
			return -ENOMEM;
		f->used = true;
		f->client = p->id;
		f->id = w->fn_id;
		f->total = w->total;
	} else if (!f || f->complete || w->offset != f->received ||
		   w->total != f->total) {
		if (f)
			fn_free(f);
		return -EPROTO;
	}
	memcpy(f->payload + w->offset, w->data, w->nbytes);
	f->received += w->nbytes;
	*out = f;
	return 0;
}

int pw_ctl_on_function(struct pw_controller *c, struct pw_node_peer *p,
		       const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_function *w = &msg->body.function;
	struct pw_ctl_fn *f = NULL;
	int ret;

	if (pw_ctl_host_of(c, p->id) >= 0)
		return -EPERM;	/* workers do not register functions */
	ret = fn_add(c, p, w, &f);
	if (!ret && f->received < f->total)
		return 0;
	if (!ret)
		ret = pw_wire_fn_desc_unpack(f->payload, f->total, &f->desc);
	if (ret && f)
		fn_free(f);
	else if (f)
		f->complete = true;
	send_status(c, p, PW_WIRE_FUNCTION, w->fn_id, ret,
		    ret ? 0 : w->total, now);
	return ret;
}

int pw_ctl_fn_ship(struct pw_controller *c, struct pw_ctl_fn *fn,
		   unsigned int h, uint64_t now)
{
	struct pw_node_peer *wp = worker_peer(c, h);
	struct pw_wire_msg m;
	uint32_t off;
	int ret;

	if (fn->sent & (1ull << h))
		return 0;
	if (!wp)
		return -EHOSTDOWN;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_FUNCTION;
	m.body.function.fn_id = fn->id;
	m.body.function.client = fn->client;
	m.body.function.total = fn->total;
	for (off = 0; off < fn->total; off += m.body.function.nbytes) {
		uint32_t left = fn->total - off;

		m.body.function.offset = off;
		m.body.function.nbytes = (uint16_t)(left < PW_WIRE_FN_CHUNK ?
						    left : PW_WIRE_FN_CHUNK);
		memcpy(m.body.function.data, fn->payload + off,
		       m.body.function.nbytes);
		ret = pw_node_send(&c->node, wp, &m, now);
		if (ret)
			return ret;
	}
	fn->sent |= 1ull << h;
	return 0;
}

void pw_ctl_fn_host_reset(struct pw_controller *c, unsigned int h)
{
	unsigned int i;

	for (i = 0; c->fns && i < PW_CTL_MAX_FNS; i++)
		c->fns[i].sent &= ~(1ull << h);
}

int pw_ctl_on_buffer(struct pw_controller *c, struct pw_node_peer *p,
		     const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_buffer *b = &msg->body.buffer;
	int from = pw_ctl_host_of(c, p->id);
	struct pw_node_peer *to;
	struct pw_wire_msg m = *msg;

	if (from >= 0) {
		/* A worker's DATA for a client's read. */
		if (b->op != PW_WIRE_BUF_DATA || b->host != from)
			return -EPROTO;
		to = pw_node_find(&c->node, b->client);
		return to ? pw_node_send(&c->node, to, &m, now) : -ENOENT;
	}
	if (b->op == PW_WIRE_BUF_DATA)
		return -EPROTO;
	to = worker_peer(c, b->host);
	if (!to || (b->op == PW_WIRE_BUF_CREATE &&
		    b->dev >= c->isl[b->host].reg.ndevices)) {
		/* Answer once per request, not once per part. */
		if (b->op != PW_WIRE_BUF_WRITE && b->op != PW_WIRE_BUF_FREE)
			send_status(c, p, PW_WIRE_BUFFER, b->id,
				    to ? -ENODEV : -EHOSTDOWN, 0, now);
		return to ? -ENODEV : -EHOSTDOWN;
	}
	m.body.buffer.client = p->id;
	return pw_node_send(&c->node, to, &m, now);
}

int pw_ctl_on_status(struct pw_controller *c, struct pw_node_peer *p,
		     const struct pw_wire_msg *msg, uint64_t now)
{
	struct pw_node_peer *to;
	struct pw_wire_msg m = *msg;

	if (pw_ctl_host_of(c, p->id) < 0)
		return -EPROTO;
	to = pw_node_find(&c->node, msg->body.status.client);
	return to ? pw_node_send(&c->node, to, &m, now) : -ENOENT;
}

int pw_ctl_on_ready(struct pw_controller *c, struct pw_node_peer *p,
		    const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_ready *rd = &msg->body.ready;
	struct pw_node_peer *to;
	struct pw_wire_msg m = *msg;

	if (pw_ctl_host_of(c, p->id) != rd->dst_host)
		return -EPROTO;
	to = worker_peer(c, rd->src_host);
	if (!to)
		return -EHOSTDOWN;	/* the run fails with the host */
	memcpy(m.body.ready.data_ip, c->isl[rd->dst_host].reg.data_ip, 4);
	m.body.ready.data_port = c->isl[rd->dst_host].reg.data_port;
	return pw_node_send(&c->node, to, &m, now);
}

void pw_ctl_fns_forget_client(struct pw_controller *c, uint32_t client)
{
	unsigned int i;

	for (i = 0; c->fns && i < PW_CTL_MAX_FNS; i++)
		if (c->fns[i].used && c->fns[i].client == client)
			fn_free(&c->fns[i]);
}

void pw_ctl_objs_fini(struct pw_controller *c)
{
	unsigned int i;

	for (i = 0; c->fns && i < PW_CTL_MAX_FNS; i++)
		if (c->fns[i].used)
			fn_free(&c->fns[i]);
	free(c->fns);
	c->fns = NULL;
}
