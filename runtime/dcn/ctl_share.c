// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_share.c - how the islands schedule the runs of every client: the
 * controller's one scheduler for them (docs/dcn.md, "Scheduling").
 *
 * A run goes to its workers when it comes if every island it uses has
 * fewer than the window's number of runs in flight; else it is held
 * here, where the order is still open, and released when they have
 * room: FIFO in arrival order, SHARE by stride scheduling over clients
 * (a run advances its client's pass by its computations / weight, and
 * the backlogged client of least pass goes next, so backlogged clients
 * get computations in proportion to their weights). The policy, window and weights are the
 * operator's (pathwaysd's configuration); a client may change them with
 * ADMIN only where the controller says clients administer it (the one a
 * process runs for itself, runtime/dcn/local.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/slots.h"
#include "roles.h"

/* Pass of one computation at weight 1. */
#define SHARE_STRIDE	1000000ull

int pw_ctl_share_check(const struct pw_ctl_share_cfg *cfg)
{
	unsigned int i, j;

	if (cfg->policy >= PW_WIRE_SCHED_NPOLICIES ||
	    cfg->window > PW_WIRE_MAX_SHARE_WINDOW ||
	    cfg->nweights > PW_CTL_MAX_WEIGHTS)
		return -EINVAL;
	for (i = 0; i < cfg->nweights; i++) {
		const struct pw_ctl_weight *w = &cfg->weights[i];

		if (!w->name[0] || !memchr(w->name, 0, sizeof(w->name)) ||
		    !w->weight || w->weight > PW_WIRE_MAX_WEIGHT)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (!strcmp(cfg->weights[j].name, w->name))
				return -EINVAL;
	}
	return 0;
}

int pw_ctl_share_configure(struct pw_controller *c,
			   const struct pw_ctl_share_cfg *cfg)
{
	int ret = pw_ctl_share_check(cfg);

	if (ret)
		return ret;
	c->share = *cfg;
	if (!c->share.window)
		c->share.window = PW_CTL_SHARE_WINDOW;
	return 0;
}

static unsigned int weight_of(const struct pw_ctl_share_cfg *cfg,
			      const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->nweights; i++)
		if (!strcmp(cfg->weights[i].name, name))
			return cfg->weights[i].weight;
	return 1;
}

static struct pw_ctl_tenant *tenant_find(struct pw_controller *c,
					 uint32_t client)
{
	unsigned int i;

	for (i = 0; i < c->ntenants; i++)
		if (c->tenants[i].used && c->tenants[i].client == client)
			return &c->tenants[i];
	return NULL;
}

/* @client's tenant, made (with @name's weight) if it has none. */
static struct pw_ctl_tenant *tenant_get(struct pw_controller *c,
					uint32_t client, const char *name)
{
	struct pw_ctl_tenant *t = tenant_find(c, client);
	int i;

	if (t)
		return t;
	i = pw_slot_take((void **)&c->tenants, &c->ntenants, sizeof(*t),
			 UINT_MAX);
	if (i < 0)
		return NULL;
	t = &c->tenants[i];
	t->used = true;
	t->client = client;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->weight = weight_of(&c->share, name);
	t->pass = c->vtime;
	t->head = -1;
	t->tail = -1;
	return t;
}

void pw_ctl_share_connect(struct pw_controller *c, uint32_t client,
			  const char *name)
{
	struct pw_ctl_tenant *t = tenant_get(c, client, name);

	/* Without memory it is scheduled when its first run comes. */
	if (t && strcmp(t->name, name)) {
		snprintf(t->name, sizeof(t->name), "%s", name);
		t->weight = weight_of(&c->share, name);
	}
}

void pw_ctl_share_forget_client(struct pw_controller *c, uint32_t client)
{
	struct pw_ctl_tenant *t = tenant_find(c, client);

	/* Its held runs ended before (pw_ctl_runs_forget_client). */
	if (t) {
		free(t->frees);
		memset(t, 0, sizeof(*t));
	}
}

/*
 * The last of @t's held runs (but @skip) that names buffer @id, as an
 * argument or a result; -1 if none does.
 */
static int last_reader(const struct pw_controller *c,
		       const struct pw_ctl_tenant *t, uint32_t id, int skip)
{
	uint32_t base = id & ~PW_WIRE_SHARD_MASK;
	int i, last = -1;
	unsigned int k;

	for (i = t->head; i >= 0; i = c->runs[i].next_held) {
		const struct pw_wire_run *run = c->runs[i].held;

		if (i == skip)
			continue;
		for (k = 0; k < (unsigned int)run->nargs + run->nresults; k++)
			if (run->ids[k] == base)
				last = i;
	}
	return last;
}

int pw_ctl_share_hold_free(struct pw_controller *c, uint32_t client,
			   unsigned int host, uint32_t id)
{
	struct pw_ctl_tenant *t = tenant_find(c, client);
	struct pw_ctl_free *f;
	unsigned int i;
	int reader;

	/* Only behind a held run that names it: others may free HBM now. */
	reader = t && t->tail >= 0 ? last_reader(c, t, id, -1) : -1;
	if (reader < 0)
		return 0;
	/* Held already: the same FREE again adds nothing (nor memory). */
	for (i = 0; i < t->nfrees; i++)
		if (t->frees[i].host == host && t->frees[i].id == id)
			return 1;
	f = realloc(t->frees, (t->nfrees + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	t->frees = f;
	t->frees[t->nfrees++] = (struct pw_ctl_free){
		.after = c->runs[reader].id, .host = (uint16_t)host,
		.id = id };
	return 1;
}

/* Held run @run_id of @t has gone (sent or ended): the FREEs behind it go. */
static void send_frees(struct pw_controller *c, struct pw_ctl_tenant *t,
		       uint32_t run_id, uint64_t now)
{
	unsigned int i, k = 0;

	for (i = 0; i < t->nfrees; i++) {
		struct pw_ctl_free *f = &t->frees[i];
		struct pw_node_peer *wp;
		struct pw_wire_msg m;

		if (f->after != run_id) {
			t->frees[k++] = *f;
			continue;
		}
		wp = pw_ctl_worker_peer(c, f->host);
		if (!wp)
			continue;	/* its worker has gone, and the buffer */
		memset(&m, 0, sizeof(m));
		m.hdr.type = PW_WIRE_BUFFER;
		m.body.buffer.op = PW_WIRE_BUF_FREE;
		m.body.buffer.host = f->host;
		m.body.buffer.client = t->client;
		m.body.buffer.id = f->id;
		pw_node_send(&c->node, wp, &m, now);
	}
	t->nfrees = k;
}

/* Room on every island of @hosts, none of them kept for a client first. */
static bool fits(const struct pw_controller *c,
		 const struct pw_hostset *hosts, const struct pw_hostset *kept)
{
	unsigned int h;

	if (kept && pw_hostset_intersects(hosts, kept))
		return false;
	/* Every RUN asks: look at its hosts only. */
	pw_hostset_for_each(h, hosts)
		if (c->inflight[h] >= c->share.window)
			return false;
	return true;
}

int pw_ctl_share_submit(struct pw_controller *c, struct pw_ctl_run *r,
			struct pw_ctl_program *prog,
			const struct pw_wire_run *run, uint64_t now)
{
	struct pw_ctl_tenant *t;
	int idx = (int)(r - c->runs);

	/* Nothing waits and its islands have room: it goes now. */
	if (!c->nheld && fits(c, &prog->hosts, NULL)) {
		pw_ctl_run_start(c, r, prog, run, now);
		return 0;
	}
	t = tenant_get(c, r->client, "");
	r->held = t ? malloc(sizeof(*run)) : NULL;
	if (!r->held) {
		r->done.status = ENOMEM;
		pw_ctl_run_end(c, r, now);
		return -ENOMEM;
	}
	*r->held = *run;
	r->next_held = -1;
	if (t->tail < 0) {
		/* A client coming back does not bank the time it was idle. */
		if (t->pass < c->vtime)
			t->pass = c->vtime;
		t->head = idx;
	} else {
		c->runs[t->tail].next_held = idx;
	}
	t->tail = idx;
	c->nheld++;
	pw_ctl_share_pump(c, now);
	return 0;
}

void pw_ctl_share_host_done(struct pw_controller *c, struct pw_ctl_run *r,
			    unsigned int h)
{
	if (!pw_hostset_has(&r->charged, h))
		return;
	pw_hostset_del(&r->charged, h);
	c->inflight[h]--;
}

/* Take held run @idx out of @t's queue. */
static void unlink_held(struct pw_controller *c, struct pw_ctl_tenant *t,
			int idx)
{
	int *pp = &t->head, prev = -1;

	while (*pp >= 0 && *pp != idx) {
		prev = *pp;
		pp = &c->runs[*pp].next_held;
	}
	if (*pp < 0)
		return;
	*pp = c->runs[idx].next_held;
	if (t->tail == idx)
		t->tail = prev;
	c->nheld--;
}

/*
 * Held run @r ends unsent: the FREEs behind it wait for the last other
 * held run that names their buffer, if any (else they go now).
 */
static void retag_frees(struct pw_controller *c, struct pw_ctl_tenant *t,
			const struct pw_ctl_run *r)
{
	unsigned int i;
	int reader;

	for (i = 0; i < t->nfrees; i++) {
		if (t->frees[i].after != r->id)
			continue;
		reader = last_reader(c, t, t->frees[i].id, (int)(r - c->runs));
		if (reader >= 0)
			t->frees[i].after = c->runs[reader].id;
	}
}

void pw_ctl_share_end(struct pw_controller *c, struct pw_ctl_run *r)
{
	unsigned int h;

	pw_hostset_for_each(h, &r->charged)
		c->inflight[h]--;
	pw_hostset_clear(&r->charged);
	if (r->held) {
		struct pw_ctl_tenant *t = tenant_find(c, r->client);

		if (t) {
			retag_frees(c, t, r);
			unlink_held(c, t, (int)(r - c->runs));
			send_frees(c, t, r->id, pw_now_ns());
		}
		free(r->held);
		r->held = NULL;
	}
}

/* run ids grow by one per run (and wrap): is @a older than @b? */
static bool older(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

/* The backlogged tenant to look at next, not yet passed over this round. */
static struct pw_ctl_tenant *pick(struct pw_controller *c)
{
	struct pw_ctl_tenant *t, *best = NULL;
	bool share = c->share.policy == PW_WIRE_SCHED_SHARE;
	unsigned int i;

	for (i = 0; i < c->ntenants; i++) {
		t = &c->tenants[i];
		if (!t->used || t->head < 0 || t->skipped == c->pick_round)
			continue;
		if (!best || (share ? t->pass < best->pass :
			      older(c->runs[t->head].id,
				    c->runs[best->head].id)))
			best = t;
	}
	return best;
}

void pw_ctl_share_pump(struct pw_controller *c, uint64_t now)
{
	bool share = c->share.policy == PW_WIRE_SCHED_SHARE;
	struct pw_ctl_program *prog;
	struct pw_ctl_tenant *t;
	struct pw_hostset kept = { { 0 } };

	if (!c->nheld)
		return;
	if (++c->pick_round == 0)
		c->pick_round = 1;
	while (c->nheld && (t = pick(c))) {
		uint32_t id;
		int idx = t->head;
		struct pw_ctl_run *r = &c->runs[idx];
		struct pw_wire_run *run = r->held;

		/* Held for its turn: the program may have gone since. */
		prog = pw_ctl_program_find(c, r->client, run->program_id);
		if (prog && !prog->lowered)
			prog = NULL;
		/*
		 * The client of least pass that cannot go keeps its islands:
		 * others go only elsewhere, so a run over several islands
		 * is not starved by runs on one of them.
		 */
		if (prog && !fits(c, &prog->hosts, &kept)) {
			pw_hostset_or(&kept, &prog->hosts);
			t->skipped = c->pick_round;
			continue;
		}
		unlink_held(c, t, idx);
		r->held = NULL;
		if (share) {
			c->vtime = t->pass;
			t->pass += (uint64_t)(prog && prog->execs ?
					      prog->execs : 1) *
				   SHARE_STRIDE / t->weight;
		}
		/* A program gone meanwhile: the start fails the run. */
		id = r->id;
		pw_ctl_run_start(c, r, prog, run, now);
		free(run);
		/* Its PLANs went first: the FREEs after it cannot overtake. */
		send_frees(c, t, id, now);
	}
}

static int set_weight(struct pw_controller *c, uint32_t client,
		      const char *name, unsigned int weight)
{
	struct pw_ctl_share_cfg *cfg = &c->share;
	struct pw_ctl_tenant *t;
	unsigned int i;

	if (!name[0]) {
		t = tenant_get(c, client, "");
		if (!t)
			return -ENOMEM;
		t->weight = weight;
		return 0;
	}
	for (i = 0; i < cfg->nweights; i++)
		if (!strcmp(cfg->weights[i].name, name))
			break;
	if (i == PW_CTL_MAX_WEIGHTS)
		return -ENOSPC;
	if (i == cfg->nweights) {
		snprintf(cfg->weights[i].name, sizeof(cfg->weights[i].name),
			 "%s", name);
		cfg->nweights++;
	}
	cfg->weights[i].weight = weight;
	for (i = 0; i < c->ntenants; i++)
		if (c->tenants[i].used && !strcmp(c->tenants[i].name, name))
			c->tenants[i].weight = weight;
	return 0;
}

/*
 * Device @a->value of host @a->host out of service or back: its island's
 * resource manager places nothing on it, runs that use it fail ENODEV,
 * and its worker fails the commands on it it has not started.
 */
static int set_device(struct pw_controller *c, const struct pw_wire_admin *a,
		      uint64_t now)
{
	struct pw_ctl_island *isl = &c->isl[a->host];
	bool out = a->op == PW_WIRE_ADMIN_DEVICE_OUT;
	struct pw_node_peer *wp;
	struct pw_wire_msg m;
	int ret;

	if (!isl->used || !isl->up)
		return -EHOSTDOWN;
	if (a->value >= isl->reg.ndevices)
		return -ENODEV;
	ret = out ? pw_rm_remove_device(isl->rm, a->value) :
	      pw_rm_add_device(isl->rm, a->value);
	if (ret < 0)
		return ret;
	if (out)
		isl->out |= 1ull << a->value;
	else
		isl->out &= ~(1ull << a->value);
	wp = pw_ctl_worker_peer(c, a->host);
	if (wp) {
		memset(&m, 0, sizeof(m));
		m.hdr.type = PW_WIRE_ADMIN;
		m.body.admin = *a;
		pw_node_send(&c->node, wp, &m, now);
	}
	pw_ctl_log("host %u device %u %s", a->host, a->value,
		   out ? "out of service" : "back in service");
	return 0;
}

int pw_ctl_on_admin(struct pw_controller *c, struct pw_node_peer *p,
		    const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_admin *a = &msg->body.admin;
	struct pw_wire_msg st;
	int ret = 0;

	if (!(p->id & PW_NODE_CLIENT_BASE))
		ret = -EPROTO;
	else if (!c->share.clients_administer)
		ret = -EPERM;
	else if (a->op == PW_WIRE_ADMIN_WEIGHT)
		ret = set_weight(c, p->id, a->name, a->value);
	else if (a->op == PW_WIRE_ADMIN_POLICY) {
		c->share.policy = (enum pw_wire_sched)a->value;
		if (a->window)
			c->share.window = a->window;
	} else {
		ret = set_device(c, a, now);
	}
	if (ret == -EPERM)
		pw_ctl_log("client node %u: ADMIN refused: the operator sets the policy, weights and devices (pathwaysd's configuration)",
			   p->id);
	memset(&st, 0, sizeof(st));
	st.hdr.type = PW_WIRE_STATUS;
	st.body.status.ref_type = PW_WIRE_ADMIN;
	st.body.status.status = (uint32_t)-ret;
	st.body.status.client = p->id;
	st.body.status.ref_id = a->id;
	pw_node_send(&c->node, p, &st, now);
	/* A wider window or FIFO may release held runs now. */
	pw_ctl_share_pump(c, now);
	return ret;
}

void pw_ctl_share_fini(struct pw_controller *c)
{
	unsigned int i;

	for (i = 0; i < c->ntenants; i++)
		free(c->tenants[i].frees);
	free(c->tenants);
	c->tenants = NULL;
	c->ntenants = 0;
}
