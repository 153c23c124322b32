// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_slice.c - clients' slices: the controller's resource managers place
 * them. A client asks for n devices (with a mesh shape, or any n,
 * neighbours preferred); the controller tries the islands that are up,
 * least loaded first, and the first whose resource manager can place it
 * holds it; a slice asked near a host tries that host's island first
 * when it has the devices free (a pipeline's stages fill an island
 * before they cross to another).
 * Tests and benchmarks may pin a slice to a host's devices.
 * The client learns the host only as an answer; programs and buffers
 * name the slice. The slice's worker is told its devices (SLICE), for
 * the gangs of computations over it. A group is slices on as many
 * distinct islands, made at once: one program node on it stands for one
 * on each member (ctl_lower.c), so a computation over 512 islands is
 * one node and its value one buffer id.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "roles.h"

struct pw_ctl_slice *pw_ctl_slice_find(struct pw_controller *c,
				       uint32_t client, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < c->nslices; i++)
		if (c->slices[i].used && c->slices[i].client == client &&
		    c->slices[i].id == id)
			return &c->slices[i];
	return NULL;
}

unsigned int pw_ctl_group_members(struct pw_controller *c,
				  const struct pw_ctl_slice *g,
				  struct pw_ctl_slice **m)
{
	unsigned int i, k, found = 0;

	memset(m, 0, g->members * sizeof(*m));
	for (i = 0; i < c->nslices; i++) {
		struct pw_ctl_slice *s = &c->slices[i];

		k = s->id - g->id - 1;	/* wraps for ids below the group's */
		if (s->used && s->client == g->client && s->group == g->id &&
		    k < g->members) {
			m[k] = s;
			found++;
		}
	}
	return found;
}

/* The client's virtual device set on host @h's island, made on first use. */
static struct pw_rm_vset *vset_of(struct pw_controller *c, uint32_t client,
				  unsigned int h)
{
	struct pw_ctl_vset *v;
	unsigned int i;

	for (i = 0; i < c->nvsets; i++)
		if (c->vsets[i].client == client && c->vsets[i].host == h)
			return c->vsets[i].vs;
	v = realloc(c->vsets, (c->nvsets + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->vsets = v;
	v = &c->vsets[c->nvsets];
	v->client = client;
	v->host = h;
	if (pw_rm_vset_create(c->isl[h].rm, &v->vs))
		return NULL;
	c->nvsets++;
	return v->vs;
}

static unsigned int client_slices(const struct pw_controller *c,
				  uint32_t client)
{
	unsigned int i, k = 0;

	for (i = 0; i < c->nslices; i++)
		k += c->slices[i].used && c->slices[i].client == client;
	return k;
}

static struct pw_ctl_slice *slice_slot(struct pw_controller *c)
{
	struct pw_ctl_slice *s;
	unsigned int i;

	for (i = 0; i < c->nslices; i++)
		if (!c->slices[i].used)
			return &c->slices[i];
	s = realloc(c->slices, (c->nslices + 1) * sizeof(*s));
	if (!s)
		return NULL;
	c->slices = s;
	s = &c->slices[c->nslices++];
	memset(s, 0, sizeof(*s));
	return s;
}

/* Devices of host @h's island that slices use now (its load). */
static unsigned int island_load(struct pw_controller *c, unsigned int h)
{
	unsigned int d, load = 0;

	for (d = 0; d < c->isl[h].reg.ndevices; d++)
		load += (unsigned int)pw_rm_device_load(c->isl[h].rm, d);
	return load;
}

struct host_load {
	uint32_t load;
	uint16_t host;
};

/* Least loaded first; the lowest host id among equals. */
static int by_load(const void *a, const void *b)
{
	const struct host_load *x = a, *y = b;

	if (x->load != y->load)
		return x->load < y->load ? -1 : 1;
	return (int)x->host - (int)y->host;
}

/* Devices of host @h's island that no slice uses and that take slices. */
static unsigned int island_free(struct pw_controller *c, unsigned int h)
{
	unsigned int d, n = 0;

	for (d = 0; d < c->isl[h].reg.ndevices; d++)
		n += pw_rm_device_load(c->isl[h].rm, d) == 0 &&
		     pw_rm_device_available(c->isl[h].rm, d);
	return n;
}

/*
 * Move @host to the front of @order[@n] if @order holds it and its
 * island has @want devices free: a slice shares devices with others
 * only where it must, so a NEAR one goes to the next island, not onto
 * its neighbour's devices, once the island is full.
 */
static void try_first(struct pw_controller *c, struct host_load *order,
		      unsigned int n, unsigned int host, unsigned int want)
{
	struct host_load first;
	unsigned int k;

	for (k = 0; k < n && order[k].host != host; k++)
		;
	if (k == n || island_free(c, host) < want)
		return;
	first = order[k];
	memmove(&order[1], &order[0], k * sizeof(order[0]));
	order[0] = first;
}

/*
 * Place @req on some island but those in @skip, least loaded first (a
 * NEAR request's host first of all). The loads are taken once and
 * sorted: a failed try changes none, and a request that fits nowhere
 * would otherwise cost hosts^2 load sums at 512 hosts.
 */
static int place(struct pw_controller *c, const struct pw_wire_slice *req,
		 const struct pw_hostset *skip, struct pw_ctl_slice *s)
{
	struct pw_rm_shape shape = { .ndims = req->ndims };
	struct host_load order[PW_MAX_HOSTS];
	unsigned int h, k, n = 0, v;
	int ret = -ENODEV;

	if (req->ndims > PW_RM_MAX_DIMS)
		return -EINVAL;
	for (v = 0; v < req->ndims; v++)
		shape.extent[v] = req->shape[v];
	for (h = 0; h < PW_MAX_HOSTS; h++) {
		if (!c->isl[h].used || !c->isl[h].up ||
		    pw_hostset_has(skip, h))
			continue;
		order[n].load = island_load(c, h);
		order[n++].host = (uint16_t)h;
	}
	qsort(order, n, sizeof(order[0]), by_load);
	if (req->flags & PW_WIRE_SLICE_NEAR)
		try_first(c, order, n, req->host, req->n);
	for (k = 0; k < n; k++) {
		unsigned int had = c->nvsets;
		struct pw_rm_vset *vs = vset_of(c, s->client, order[k].host);

		if (!vs)
			return -ENOMEM;
		ret = pw_rm_add_slice(vs, req->n, req->ndims ? &shape : NULL,
				      &s->rs);
		if (ret) {
			/* A set made for this try alone goes with it. */
			if (c->nvsets > had)
				pw_rm_vset_destroy(c->vsets[--c->nvsets].vs);
			continue;
		}
		s->host = order[k].host;
		for (v = 0; v < req->n; v++)
			s->devs[v] = (uint8_t)pw_rm_slice_device(s->rs, v);
		return 0;
	}
	return ret;
}

static int pin(struct pw_controller *c, const struct pw_wire_slice *req,
	       struct pw_ctl_slice *s)
{
	struct pw_ctl_island *isl;
	uint64_t seen = 0;
	unsigned int v;

	if (req->host >= PW_MAX_HOSTS)
		return -EHOSTDOWN;
	isl = &c->isl[req->host];
	if (!isl->used || !isl->up)
		return -EHOSTDOWN;
	for (v = 0; v < req->n; v++) {
		if (req->devices[v] >= isl->reg.ndevices)
			return -ENODEV;
		if (seen & (1ull << req->devices[v]))
			return -EINVAL;
		seen |= 1ull << req->devices[v];
	}
	s->host = req->host;
	memcpy(s->devs, req->devices, req->n);
	return 0;
}

/* Tell host @h's worker of slice @s (MAKE) or that it is gone (FREE). */
static void tell_worker(struct pw_controller *c, const struct pw_ctl_slice *s,
			uint8_t op, uint64_t now)
{
	struct pw_node_peer *wp;
	struct pw_wire_msg m;

	wp = pw_ctl_worker_peer(c, s->host);
	if (!wp)
		return;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_SLICE;
	m.body.slice.op = op;
	m.body.slice.host = s->host;
	m.body.slice.client = s->client;
	m.body.slice.id = s->id;
	if (op == PW_WIRE_SLICE_MAKE) {
		m.body.slice.n = s->n;
		memcpy(m.body.slice.devices, s->devs, s->n);
	}
	pw_node_send(&c->node, wp, &m, now);
}

/* Where @s went: its devices, before the STATUS that answers MAKE. */
static void tell_client(struct pw_controller *c, struct pw_node_peer *p,
			const struct pw_ctl_slice *s, uint64_t now)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_SLICE;
	m.body.slice.op = PW_WIRE_SLICE_MAKE;
	m.body.slice.host = s->host;
	m.body.slice.client = s->client;
	m.body.slice.id = s->id;
	m.body.slice.n = s->n;
	memcpy(m.body.slice.devices, s->devs, s->n);
	m.body.slice.hbm_bytes = c->isl[s->host].reg.hbm_bytes;
	pw_node_send(&c->node, p, &m, now);
}

static void slice_free(struct pw_controller *c, struct pw_ctl_slice *s,
		       bool tell, uint64_t now)
{
	if (tell && !s->members)
		tell_worker(c, s, PW_WIRE_SLICE_FREE, now);
	if (s->rs)
		pw_rm_release_slice(s->rs);
	memset(s, 0, sizeof(*s));
}

/* Free group @g's members, then @g itself. */
static void group_free(struct pw_controller *c, struct pw_ctl_slice *g,
		       bool tell, uint64_t now)
{
	struct pw_ctl_slice *m[PW_MAX_HOSTS];
	unsigned int k, members = g->members;

	pw_ctl_group_members(c, g, m);
	for (k = 0; k < members; k++)
		if (m[k])	/* not gone with its host */
			slice_free(c, m[k], tell, now);
	slice_free(c, g, tell, now);
}

/*
 * GROUP @req of client @p: its members placed each on an island of its
 * own, least loaded first, all or none, then the workers and the client
 * told of each. The group's slot last: a slot taken may move the table.
 */
static int group_make(struct pw_controller *c, struct pw_node_peer *p,
		      const struct pw_wire_slice *req, uint64_t now)
{
	struct pw_ctl_slice *s, *g;
	struct pw_hostset used;
	unsigned int m;
	int ret = 0;

	for (m = 0; m <= req->members; m++)
		if (pw_ctl_slice_find(c, p->id, req->id + m))
			return -EEXIST;
	if (client_slices(c, p->id) + req->members + 1u > PW_CTL_CLIENT_SLICES) {
		pw_ctl_log("client node %u: group %u of %u slices refused: %u slices at most",
			   p->id, req->id, req->members, PW_CTL_CLIENT_SLICES);
		return -EBUSY;
	}
	pw_hostset_clear(&used);
	for (m = 0; m < req->members && !ret; m++) {
		s = slice_slot(c);
		if (!s) {
			ret = -ENOMEM;
			break;
		}
		s->client = p->id;
		s->id = req->id + 1 + m;
		s->group = req->id;
		s->n = req->n;
		ret = place(c, req, &used, s);
		if (ret) {
			memset(s, 0, sizeof(*s));
			break;
		}
		s->used = true;
		pw_hostset_add(&used, s->host);
	}
	g = ret ? NULL : slice_slot(c);
	if (!g) {
		while (m-- > 0)
			slice_free(c, pw_ctl_slice_find(c, p->id,
							req->id + 1 + m),
				   false, now);
		return ret ? ret : -ENOMEM;
	}
	*g = (struct pw_ctl_slice){ .used = true, .client = p->id,
		.id = req->id, .host = PW_WIRE_ANY_HOST,
		.members = req->members, .n = req->n };
	for (m = 0; m < req->members; m++) {
		s = pw_ctl_slice_find(c, p->id, req->id + 1 + m);
		tell_worker(c, s, PW_WIRE_SLICE_MAKE, now);
		tell_client(c, p, s, now);
	}
	return 0;
}

int pw_ctl_on_slice(struct pw_controller *c, struct pw_node_peer *p,
		    const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_slice *req = &msg->body.slice;
	struct pw_ctl_slice *s;
	struct pw_wire_msg st;
	int ret = 0;

	if (!(p->id & PW_NODE_CLIENT_BASE) || req->client)
		return -EPERM;
	s = pw_ctl_slice_find(c, p->id, req->id);
	if (req->op == PW_WIRE_SLICE_FREE) {
		if (s && s->group) {
			/* Its group's lowering would lose a member. */
			pw_ctl_log("client node %u: slice %u not freed: a member of group %u (free the group)",
				   p->id, req->id, s->group);
			return -EBUSY;
		}
		if (s && s->members)
			group_free(c, s, true, now);
		else if (s)
			slice_free(c, s, true, now);
		return 0;	/* no answer is waited for */
	}
	memset(&st, 0, sizeof(st));
	if (req->op == PW_WIRE_SLICE_GROUP) {
		ret = group_make(c, p, req, now);
		if (!ret)
			st.body.status.value = req->members;
	} else if (s) {
		ret = -EEXIST;
	} else if (c->nslices >= PW_CTL_CLIENT_SLICES &&
		   client_slices(c, p->id) >= PW_CTL_CLIENT_SLICES) {
		ret = -EBUSY;	/* its own bound; the table grows for all */
		pw_ctl_log("client node %u: slice %u refused: it has %u slices already",
			   p->id, req->id, PW_CTL_CLIENT_SLICES);
	} else if (!(s = slice_slot(c))) {
		ret = -ENOMEM;
	} else {
		s->client = p->id;
		s->id = req->id;
		s->n = req->n;
		ret = req->flags & PW_WIRE_SLICE_PINNED ? pin(c, req, s) :
		      !(req->flags & PW_WIRE_SLICE_NEAR) &&
		      req->host != PW_WIRE_ANY_HOST ? -EINVAL :
		      place(c, req, &(struct pw_hostset){ 0 }, s);
		if (ret) {
			memset(s, 0, sizeof(*s));
		} else {
			s->used = true;
			tell_worker(c, s, PW_WIRE_SLICE_MAKE, now);
			tell_client(c, p, s, now);
			st.body.status.value = s->host;
		}
	}
	st.hdr.type = PW_WIRE_STATUS;
	st.body.status.ref_type = PW_WIRE_SLICE;
	st.body.status.status = (uint32_t)-ret;
	st.body.status.ref_id = req->id;
	pw_node_send(&c->node, p, &st, now);
	return ret;
}

/* Drop the slices and sets of @client (or, with @by_host, of host @who). */
static void slices_drop(struct pw_controller *c, bool by_host, uint32_t who)
{
	unsigned int i, k = 0;

	for (i = 0; i < c->nslices; i++) {
		struct pw_ctl_slice *s = &c->slices[i];

		if (s->used && (by_host ? s->host : s->client) == who)
			slice_free(c, s, false, 0);
	}
	for (i = 0; i < c->nvsets; i++) {
		if ((by_host ? c->vsets[i].host : c->vsets[i].client) == who)
			pw_rm_vset_destroy(c->vsets[i].vs);
		else
			c->vsets[k++] = c->vsets[i];
	}
	c->nvsets = k;
}

void pw_ctl_slices_forget_client(struct pw_controller *c, uint32_t client)
{
	/* The workers hear BYE: they drop the client's slices themselves. */
	slices_drop(c, false, client);
}

void pw_ctl_slices_host_reset(struct pw_controller *c, unsigned int h)
{
	/* Its resource manager is made again: nothing placed on it stays. */
	slices_drop(c, true, h);
}

void pw_ctl_slices_fini(struct pw_controller *c)
{
	unsigned int i;

	for (i = 0; i < c->nslices; i++)
		if (c->slices[i].used && c->slices[i].rs)
			pw_rm_release_slice(c->slices[i].rs);
	for (i = 0; i < c->nvsets; i++)
		pw_rm_vset_destroy(c->vsets[i].vs);
	free(c->slices);
	free(c->vsets);
	c->slices = NULL;
	c->vsets = NULL;
	c->nslices = 0;
	c->nvsets = 0;
}
