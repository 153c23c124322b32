// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_obj.c - the controller's part in remote clients' objects. Clients
 * send only to the controller: it keeps their compiled functions (checked
 * here, shipped to a worker the first time a program places one there),
 * and relays BUFFER requests to the worker that holds the buffer and the
 * answers back.
 *
 * What a client sends is stamped with its node id here, never taken from
 * the message, so a client reaches only its own objects.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../util/log.h"
#include "../util/slots.h"
#include "roles.h"

int pw_ctl_host_of(const struct pw_controller *c, uint32_t node)
{
	uint32_t h = node - PW_NODE_WORKER_BASE;

	if (node < PW_NODE_WORKER_BASE || h >= PW_MAX_HOSTS ||
	    !c->isl[h].used || c->isl[h].node != node)
		return -1;
	return (int)h;
}

struct pw_node_peer *pw_ctl_worker_peer(struct pw_controller *c,
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

	for (i = 0; i < c->nfns; i++)
		if (c->fns[i].used && c->fns[i].client == client &&
		    c->fns[i].id == id)
			return &c->fns[i];
	return NULL;
}

static void fn_free(struct pw_ctl_fn *f)
{
	pw_fn_payload_free(&f->pl);
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

void pw_ctl_evicted(struct pw_controller *c, uint32_t client,
		    const char *what, uint32_t id)
{
	if (pw_log_due(++c->evicted))
		pw_ctl_log("client node %u: partial %s %u evicted for a newer one (%u at most; %llu so far)",
			   client, what, id, PW_CTL_CLIENT_PARTIAL,
			   (unsigned long long)c->evicted);
}

/*
 * The slot of the function a FUNCTION part @w of @client belongs to. A
 * first part makes (or starts over) a function; one that will not be
 * whole at once is partial, and past PW_CTL_CLIENT_PARTIAL of them it
 * evicts the client's oldest other partial one, whether its id is new
 * or not (starting an id over must not be a way around the bound).
 */
static int fn_slot(struct pw_controller *c, uint32_t client,
		   const struct pw_wire_function *w, struct pw_ctl_fn **out)
{
	struct pw_ctl_fn *f = pw_ctl_fn_find(c, client, w->fn_id), *q;
	struct pw_ctl_fn *oldest = NULL;
	unsigned int i, mine = 0, partial = 0;
	int slot;

	if (w->offset) {
		*out = f;
		return f ? 0 : -EPROTO;
	}
	for (i = 0; i < c->nfns; i++) {
		q = &c->fns[i];
		if (!q->used || q->client != client || q == f)
			continue;
		mine++;
		if (!q->pl.bytes || q->pl.complete)
			continue;
		partial++;
		if (!oldest || q->begun < oldest->begun)
			oldest = q;
	}
	/* A client's own bounds; the table grows for all of them. */
	if (!f && mine >= PW_CTL_CLIENT_FNS)
		return -ENOSPC;
	/* partial > 0, so @oldest is set. */
	_Static_assert(PW_CTL_CLIENT_PARTIAL > 0, "a partial bound of 0");
	if (w->nbytes < w->total && partial >= PW_CTL_CLIENT_PARTIAL) {
		pw_ctl_evicted(c, client, "function", oldest->id);
		fn_free(oldest);
	}
	if (!f) {
		slot = pw_slot_take((void **)&c->fns, &c->nfns, sizeof(*f),
				    UINT_MAX);
		if (slot < 0)
			return slot;
		f = &c->fns[slot];
		f->used = true;
		f->client = client;
		f->id = w->fn_id;
	}
	/* Registering an id again replaces the function everywhere. */
	pw_hostset_clear(&f->sent);
	f->begun = ++c->partial_seq;
	*out = f;
	return 0;
}

int pw_ctl_on_function(struct pw_controller *c, struct pw_node_peer *p,
		       const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_function *w = &msg->body.function;
	struct pw_ctl_fn *f;
	int ret;

	if (pw_ctl_host_of(c, p->id) >= 0)
		return -EPERM;	/* workers do not register functions */
	ret = fn_slot(c, p->id, w, &f);
	if (!ret) {
		ret = pw_fn_payload_add(&f->pl, w);
		if (!ret)
			return 0;	/* more parts to come */
		if (ret < 0)
			fn_free(f);
	}
	ret = ret < 0 ? ret : 0;
	send_status(c, p, PW_WIRE_FUNCTION, w->fn_id, ret,
		    ret ? 0 : w->total, now);
	return ret;
}

int pw_ctl_fn_ship(struct pw_controller *c, struct pw_ctl_fn *fn,
		   unsigned int h)
{
	struct pw_node_peer *wp = pw_ctl_worker_peer(c, h);
	int ret;

	if (pw_hostset_has(&fn->sent, h))
		return 0;
	if (!wp)
		return -EHOSTDOWN;
	ret = pw_fn_payload_send(&c->node, wp, fn->id, fn->client,
				 fn->pl.bytes, fn->pl.total);
	if (!ret)
		pw_hostset_add(&fn->sent, h);
	return ret;
}

void pw_ctl_fn_host_reset(struct pw_controller *c, unsigned int h)
{
	unsigned int i;

	for (i = 0; i < c->nfns; i++)
		pw_hostset_del(&c->fns[i].sent, h);
}

static int buffer_to_host(struct pw_controller *c, struct pw_node_peer *p,
			  struct pw_wire_msg *m, uint64_t now);

/*
 * FREE of a shard of a group's buffer: the shard of that id on every
 * member's host (a member gone with its host has nothing left to free).
 */
static int group_free_shard(struct pw_controller *c, struct pw_node_peer *p,
			    const struct pw_ctl_slice *g,
			    const struct pw_wire_msg *msg, uint64_t now)
{
	struct pw_ctl_slice *m[PW_MAX_HOSTS];
	unsigned int k, members = g->members;
	struct pw_wire_msg one;
	int ret = 0, err;

	pw_ctl_group_members(c, g, m);
	for (k = 0; k < members; k++) {
		if (!m[k])
			continue;
		one = *msg;
		one.body.buffer.slice = 0;
		one.body.buffer.host = m[k]->host;
		err = buffer_to_host(c, p, &one, now);
		ret = ret ? ret : err;
	}
	return ret;
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
	if (b->slice) {
		/* A shard named by its slice: the slice says where. */
		const struct pw_ctl_slice *s;
		unsigned int v = b->id & PW_WIRE_SHARD_MASK;

		s = pw_ctl_slice_find(c, p->id, b->slice);
		if (s && s->members && v < s->n && b->op == PW_WIRE_BUF_FREE)
			return group_free_shard(c, p, s, msg, now);
		/* A group's buffers are made and read member by member. */
		if (!s || v >= s->n || s->members) {
			if (b->op != PW_WIRE_BUF_WRITE && b->op != PW_WIRE_BUF_FREE)
				send_status(c, p, PW_WIRE_BUFFER, b->id,
					    -ENOENT, 0, now);
			return -ENOENT;
		}
		m.body.buffer.slice = 0;
		m.body.buffer.host = s->host;
		m.body.buffer.dev = b->op == PW_WIRE_BUF_CREATE ? s->devs[v] : 0;
	}
	return buffer_to_host(c, p, &m, now);
}

/* Client @p's BUFFER @m, which names its host, on to that worker. */
static int buffer_to_host(struct pw_controller *c, struct pw_node_peer *p,
			  struct pw_wire_msg *m, uint64_t now)
{
	const struct pw_wire_buffer *b = &m->body.buffer;
	struct pw_node_peer *to;

	to = pw_ctl_worker_peer(c, b->host);
	if (!to || (b->op == PW_WIRE_BUF_CREATE &&
		    (b->dev >= c->isl[b->host].reg.ndevices ||
		     c->isl[b->host].out & (1ull << b->dev)))) {
		/* Answer once per request, not once per part. */
		if (b->op != PW_WIRE_BUF_WRITE && b->op != PW_WIRE_BUF_FREE)
			send_status(c, p, PW_WIRE_BUFFER, b->id,
				    to ? -ENODEV : -EHOSTDOWN, 0, now);
		return to ? -ENODEV : -EHOSTDOWN;
	}
	m->body.buffer.client = p->id;
	/* Not past the client's held runs, which may read the buffer. */
	if (b->op == PW_WIRE_BUF_FREE) {
		int held = pw_ctl_share_hold_free(c, p->id, b->host, b->id);

		if (held)
			return held < 0 ? held : 0;
	}
	return pw_node_send(&c->node, to, m, now);
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

void pw_ctl_fns_forget_client(struct pw_controller *c, uint32_t client)
{
	unsigned int i;

	for (i = 0; i < c->nfns; i++)
		if (c->fns[i].used && c->fns[i].client == client)
			fn_free(&c->fns[i]);
}

void pw_ctl_objs_fini(struct pw_controller *c)
{
	unsigned int i;

	for (i = 0; i < c->nfns; i++)
		if (c->fns[i].used)
			fn_free(&c->fns[i]);
	free(c->fns);
	c->fns = NULL;
	c->nfns = 0;
}
