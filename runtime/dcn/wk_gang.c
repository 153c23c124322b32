// SPDX-License-Identifier: GPL-2.0
/*
 * wk_gang.c - gang scheduling on a worker's island. The controller sends
 * every plan of the island to this one worker, in its order; each
 * computation with collectives (a gang: one EXEC per device of its
 * slice) is noted here in that arrival order. A gang goes to the devices
 * whole, once every member has arrived and every member's inputs are
 * final or queued ahead on its device, and only when no gang that
 * arrived before it and shares a device is still waiting. So every
 * device meets the gangs it serves in the same order, whichever clients
 * they came from, and no member waits on a device for a peer that waits
 * for an input: the two ways collectives deadlock or time out in the
 * driver.
 *
 * The devices of a gang are its slice's (the controller's SLICE). Its
 * members meet in the worker's gang file, which no other process holds,
 * under a gang id drawn per run, so that runs never share one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <pwtpu/pwtpu_dev.h>

#include "roles.h"

const struct pw_wk_slice *pw_wk_slice_find(const struct pw_worker *w,
					   uint32_t client, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < w->nslices; i++)
		if (w->slices[i].client == client && w->slices[i].id == id)
			return &w->slices[i];
	return NULL;
}

int pw_wk_on_slice(struct pw_worker *w, const struct pw_wire_slice *s)
{
	struct pw_wk_slice *n;
	unsigned int i;

	for (i = 0; i < w->nslices; i++)
		if (w->slices[i].client == s->client && w->slices[i].id == s->id)
			break;
	if (s->op == PW_WIRE_SLICE_FREE) {
		if (i < w->nslices)
			w->slices[i] = w->slices[--w->nslices];
		return 0;
	}
	if (!s->n || s->host != w->reg.host_id)
		return -EINVAL;
	if (i == w->nslices) {
		n = realloc(w->slices, (w->nslices + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		w->slices = n;
		w->nslices++;
	}
	n = &w->slices[i];
	n->client = s->client;
	n->id = s->id;
	n->n = s->n;
	memcpy(n->devs, s->devices, sizeof(n->devs));
	return 0;
}

void pw_wk_slices_forget_client(struct pw_worker *w, uint32_t client)
{
	unsigned int i = 0;

	while (i < w->nslices) {
		if (w->slices[i].client == client)
			w->slices[i] = w->slices[--w->nslices];
		else
			i++;
	}
}

static struct pw_wk_gang *gang_find(struct pw_worker *w, unsigned int slot,
				    uint32_t num)
{
	unsigned int i;

	for (i = 0; i < w->ngangs; i++)
		if (w->gangs[i].slot == slot && w->gangs[i].num == num)
			return &w->gangs[i];
	return NULL;
}

int pw_wk_gang_note(struct pw_worker *w, struct pw_wk_run *r,
		    const struct pw_wire_plan_cmd *pc)
{
	unsigned int slot = (unsigned int)(r - w->runs);
	const struct pw_wk_slice *s;
	struct pw_wk_gang *g = gang_find(w, slot, pc->gang_id);

	if (!g) {
		/* Appended: the list is in arrival order. */
		g = realloc(w->gangs, (w->ngangs + 1) * sizeof(*g));
		if (!g)
			return -ENOMEM;
		w->gangs = g;
		g = &w->gangs[w->ngangs++];
		memset(g, 0, sizeof(*g));
		g->slot = slot;
		g->num = pc->gang_id;
		s = pw_wk_slice_find(w, r->client, pc->slice);
		g->want = s ? s->n : 0;
	}
	g->devmask |= 1ull << pc->dev;
	g->have++;
	return 0;
}

int pw_wk_gang_may_go(struct pw_worker *w, struct pw_wk_run *r, uint32_t num)
{
	unsigned int slot = (unsigned int)(r - w->runs), i;
	const struct pw_wk_gang *g = NULL;
	uint64_t before = 0;

	for (i = 0; i < w->ngangs; i++) {
		if (w->gangs[i].slot == slot && w->gangs[i].num == num) {
			g = &w->gangs[i];
			break;
		}
		before |= w->gangs[i].devmask;
	}
	if (!g)
		return -ECANCELED;	/* a member failed: the gang cannot go */
	if (!g->want)
		return -ENOENT;		/* no such slice of the run's client */
	/* Every member here, and nobody earlier waiting on its devices. */
	return g->have == g->want && !(before & g->devmask);
}

unsigned int pw_wk_gang_size(struct pw_worker *w, struct pw_wk_run *r,
			     uint32_t num)
{
	const struct pw_wk_gang *g = gang_find(w, (unsigned int)(r - w->runs),
					       num);

	return g ? g->want : 0;
}

void pw_wk_gang_forget(struct pw_worker *w, struct pw_wk_run *r, uint32_t num)
{
	struct pw_wk_gang *g = gang_find(w, (unsigned int)(r - w->runs), num);
	unsigned int i;

	if (!g)
		return;
	/* Keep the order of the rest. */
	i = (unsigned int)(g - w->gangs);
	memmove(g, g + 1, (w->ngangs - i - 1) * sizeof(*g));
	w->ngangs--;
}

void pw_wk_gangs_forget_run(struct pw_worker *w, struct pw_wk_run *r)
{
	unsigned int slot = (unsigned int)(r - w->runs), i, k = 0;

	for (i = 0; i < w->ngangs; i++)
		if (w->gangs[i].slot != slot)
			w->gangs[k++] = w->gangs[i];
	w->ngangs = k;
}

/*
 * Gang ids of run @r: fresh, and not to be guessed; drawn when its first
 * gang needs them, so that a run without one costs no system call.
 */
static uint64_t gang_base(struct pw_wk_run *r)
{
	if (!r->gang_base_set) {
		if (getrandom(&r->gang_base, sizeof(r->gang_base), 0) !=
		    sizeof(r->gang_base))
			r->gang_base = pw_now_ns() * 0x9e3779b97f4a7c15ull;
		r->gang_base &= ~0xffffffffull;	/* + a 32-bit number */
		r->gang_base_set = true;
	}
	return r->gang_base;
}

int pw_wk_gang_fill(struct pw_worker *w, struct pw_wk_run *r,
		    const struct pw_wire_plan_cmd *pc, bool permute, int shift,
		    struct pwtpu_gang *gang)
{
	unsigned int devs[PW_WIRE_MAX_DEVICES], v, rank = pc->peer_dev;
	const struct pw_wk_slice *s;

	s = pw_wk_slice_find(w, r->client, pc->slice);
	if (!s)
		return -ENOENT;
	if (rank >= s->n || s->devs[rank] != pc->dev || s->n > PWTPU_MAX_GANG)
		return -EINVAL;
	for (v = 0; v < s->n; v++)
		devs[v] = s->devs[v];
	pwtpu_gang_fill(gang, w->dev.gang_fd, gang_base(r) + pc->gang_id, s->n,
			devs, rank, permute, shift);
	return 0;
}
