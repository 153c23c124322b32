// SPDX-License-Identifier: GPL-2.0
/*
 * pwtrace_conv.c - pair pwtpu trace records into timeline events.
 *
 * Tracks: one per device (commands, collectives) and one per link a
 * device sent on. A command is drawn from pwtpu_start to pwtpu_complete;
 * a collective from join to done, with the rendezvous wait (join to
 * start) nested in it and its start and steps as instants. A link hop
 * is traced when its transfer is charged, with model_ns the modelled
 * time from then until its data has arrived over this hop (waiting for
 * the link and for earlier hops included). It is drawn on its sender's
 * link track up to that arrival, from when it was traced or, when the
 * link's previous transfer arrived later, from then: a link carries one
 * transfer at a time, and "queued_ns" says how long this one waited.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/pwtpu.h"

#include "pwtrace.h"

enum open_kind {
	OPEN_CMD,
	OPEN_COLL,
};

/**
 * struct pwtrace_open - something begun and not yet ended
 * @kind: command or collective.
 * @pid: island.
 * @dev: device.
 * @key: command id, or gang id.
 * @seq: collective number.
 * @code: command number, or collective op.
 * @begun: a command was seen starting (not only submitted).
 * @begin_ns: command start, or collective join.
 * @started: the collective's peers all arrived.
 * @start_ns: when they had.
 */
struct pwtrace_open {
	enum open_kind kind;
	uint32_t pid;
	uint32_t dev;
	uint64_t key;
	uint32_t seq;
	uint32_t code;
	bool begun;
	uint64_t begin_ns;
	bool started;
	uint64_t start_ns;
};

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? 2 * *cap : 64;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

void pwtrace_conv_init(struct pwtrace_conv *c, uint32_t island)
{
	memset(c, 0, sizeof(*c));
	c->island = island;
}

void pwtrace_conv_free(struct pwtrace_conv *c)
{
	free(c->events);
	free(c->tracks);
	free(c->open);
	memset(c, 0, sizeof(*c));
}

static const char *coll_name(uint32_t op)
{
	switch (op) {
	case PWTPU_OP_ALL_REDUCE:
		return "all_reduce";
	case PWTPU_OP_ALL_GATHER:
		return "all_gather";
	case PWTPU_OP_REDUCE_SCATTER:
		return "reduce_scatter";
	case PWTPU_OP_COLLECTIVE_PERMUTE:
		return "collective_permute";
	}
	return "collective";
}

static struct pwtrace_track *track(struct pwtrace_conv *c, uint32_t tid,
				   const char *name)
{
	struct pwtrace_track *t;
	size_t i;

	for (i = 0; i < c->ntracks; i++)
		if (c->tracks[i].pid == c->island && c->tracks[i].tid == tid)
			return &c->tracks[i];
	if (grow((void **)&c->tracks, &c->tracks_cap, c->ntracks,
		 sizeof(*t)))
		return NULL;
	t = &c->tracks[c->ntracks++];
	memset(t, 0, sizeof(*t));
	t->pid = c->island;
	t->tid = tid;
	snprintf(t->name, sizeof(t->name), "%s", name);
	return t;
}

static struct pwtrace_track *dev_track(struct pwtrace_conv *c, uint32_t dev)
{
	char name[32];

	snprintf(name, sizeof(name), "pwtpu%u", dev);
	return track(c, pwtrace_dev_tid(dev), name);
}

/* A new event on @t; the caller fills name and args. */
static struct pwtrace_event *emit(struct pwtrace_conv *c,
				  const struct pwtrace_track *t, char ph,
				  const char *cat, uint64_t ts, uint64_t dur)
{
	struct pwtrace_event *ev;

	if (!t || grow((void **)&c->events, &c->events_cap, c->nevents,
		       sizeof(*ev)))
		return NULL;
	ev = &c->events[c->nevents++];
	memset(ev, 0, sizeof(*ev));
	ev->ph = ph;
	ev->cat = cat;
	ev->pid = t->pid;
	ev->tid = t->tid;
	ev->ts_ns = ts;
	ev->dur_ns = ph == 'X' ? dur : 0;
	return ev;
}

static struct pwtrace_open *find_open(struct pwtrace_conv *c,
				      enum open_kind kind, uint32_t dev,
				      uint64_t key, uint32_t seq)
{
	size_t i;

	for (i = 0; i < c->nopen; i++) {
		struct pwtrace_open *o = &c->open[i];

		if (o->kind == kind && o->pid == c->island && o->dev == dev &&
		    o->key == key && o->seq == seq)
			return o;
	}
	return NULL;
}

static struct pwtrace_open *new_open(struct pwtrace_conv *c,
				     enum open_kind kind, uint32_t dev,
				     uint64_t key, uint32_t seq)
{
	struct pwtrace_open *o;

	if (grow((void **)&c->open, &c->open_cap, c->nopen, sizeof(*o)))
		return NULL;
	o = &c->open[c->nopen++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->pid = c->island;
	o->dev = dev;
	o->key = key;
	o->seq = seq;
	return o;
}

static void close_open(struct pwtrace_conv *c, struct pwtrace_open *o)
{
	*o = c->open[--c->nopen];
}

static void cmd_name(char *buf, size_t len, uint32_t cmd)
{
	const char *name = pwtrace_cmd_name(cmd);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "cmd 0x%x", cmd);
}

static int add_cmd(struct pwtrace_conv *c, const struct pwtrace_rec *r)
{
	struct pwtrace_open *o = find_open(c, OPEN_CMD, r->dev, r->id, 0);
	struct pwtrace_event *ev;
	uint64_t begin;

	if (r->kind != PWTRACE_COMPLETE) {
		if (!o)
			o = new_open(c, OPEN_CMD, r->dev, r->id, 0);
		if (!o)
			return -ENOMEM;
		o->code = r->cmd;
		if (r->kind == PWTRACE_START) {
			o->begun = true;
			o->begin_ns = r->ts_ns;
		}
		return 0;
	}
	/* Without its start in the trace, the device's own time says. */
	begin = r->ts_ns > r->exec_ns ? r->ts_ns - r->exec_ns : 0;
	if (o && o->begun)
		begin = o->begin_ns;
	else
		c->unmatched++;
	if (o)
		close_open(c, o);
	ev = emit(c, dev_track(c, r->dev), 'X', "cmd", begin,
		  r->ts_ns > begin ? r->ts_ns - begin : 0);
	if (!ev)
		return -ENOMEM;
	cmd_name(ev->name, sizeof(ev->name), r->cmd);
	snprintf(ev->args, sizeof(ev->args),
		 "\"id\":%" PRIu64 ",\"result\":%d,\"queue_ns\":%" PRIu64
		 ",\"exec_ns\":%" PRIu64, r->id, r->result, r->queue_ns,
		 r->exec_ns);
	return 0;
}

static void coll_args(char *buf, size_t len, const struct pwtrace_rec *r)
{
	snprintf(buf, len, "\"gang\":\"0x%" PRIx64 "\",\"seq\":%u", r->gang,
		 r->seq);
}

/* The collective's own span and, if its peers all came, the wait. */
static int end_coll(struct pwtrace_conv *c, const struct pwtrace_open *o,
		    uint64_t gang, uint64_t end, const char *tail)
{
	struct pwtrace_track *t = dev_track(c, o->dev);
	struct pwtrace_event *ev;

	ev = emit(c, t, 'X', "coll", o->begin_ns, end - o->begin_ns);
	if (!ev)
		return -ENOMEM;
	snprintf(ev->name, sizeof(ev->name), "%s", coll_name(o->code));
	snprintf(ev->args, sizeof(ev->args),
		 "\"gang\":\"0x%" PRIx64 "\",\"seq\":%u,\"wait_ns\":%" PRIu64
		 "%s", gang, o->seq,
		 (o->started ? o->start_ns : end) - o->begin_ns, tail);
	if (!o->started)
		return 0;
	ev = emit(c, t, 'X', "coll", o->begin_ns, o->start_ns - o->begin_ns);
	if (!ev)
		return -ENOMEM;
	snprintf(ev->name, sizeof(ev->name), "rendezvous");
	snprintf(ev->args, sizeof(ev->args), "\"gang\":\"0x%" PRIx64
		 "\",\"seq\":%u", gang, o->seq);
	return 0;
}

static int add_coll(struct pwtrace_conv *c, const struct pwtrace_rec *r)
{
	struct pwtrace_open *o = find_open(c, OPEN_COLL, r->dev, r->gang,
					   r->seq);
	struct pwtrace_event *ev;
	char tail[32];
	int ret;

	switch (r->phase) {
	case PWTRACE_JOIN:
		if (o)		/* joined twice: the first never ended */
			c->unmatched++;
		else
			o = new_open(c, OPEN_COLL, r->dev, r->gang, r->seq);
		if (!o)
			return -ENOMEM;
		o->code = r->op;
		o->begin_ns = r->ts_ns;
		o->started = false;
		return 0;
	case PWTRACE_COLL_START:
	case PWTRACE_STEP:
		if (o && r->phase == PWTRACE_COLL_START) {
			o->started = true;
			o->start_ns = r->ts_ns;
		}
		ev = emit(c, dev_track(c, r->dev), 'i', "coll", r->ts_ns, 0);
		if (!ev)
			return -ENOMEM;
		snprintf(ev->name, sizeof(ev->name), "%s",
			 r->phase == PWTRACE_STEP ? "step" : "start");
		coll_args(ev->args, sizeof(ev->args), r);
		snprintf(ev->args + strlen(ev->args),
			 sizeof(ev->args) - strlen(ev->args), ",\"arg\":%d",
			 r->result);
		return 0;
	case PWTRACE_DONE:
		break;
	}
	if (!o) {
		/* Joined before the trace began: only the end is known. */
		c->unmatched++;
		ev = emit(c, dev_track(c, r->dev), 'i', "coll", r->ts_ns, 0);
		if (!ev)
			return -ENOMEM;
		snprintf(ev->name, sizeof(ev->name), "%s done",
			 coll_name(r->op));
		coll_args(ev->args, sizeof(ev->args), r);
		return 0;
	}
	snprintf(tail, sizeof(tail), ",\"result\":%d", r->result);
	ret = end_coll(c, o, r->gang, r->ts_ns, tail);
	close_open(c, o);
	return ret;
}

static int add_link(struct pwtrace_conv *c, const struct pwtrace_rec *r)
{
	uint64_t begin = r->ts_ns, end = r->ts_ns + r->model_ns;
	struct pwtrace_track *t;
	struct pwtrace_event *ev;
	char name[32];

	snprintf(name, sizeof(name), "pwtpu%u -> pwtpu%u", r->dev, r->to);
	dev_track(c, r->dev);	/* a device's links sort under it */
	t = track(c, pwtrace_link_tid(r->dev, r->to), name);
	if (!t)
		return -ENOMEM;
	if (t->busy_until_ns > begin)
		begin = t->busy_until_ns < end ? t->busy_until_ns : end;
	if (end > t->busy_until_ns)
		t->busy_until_ns = end;
	ev = emit(c, t, 'X', "link", begin, end - begin);
	if (!ev)
		return -ENOMEM;
	snprintf(ev->name, sizeof(ev->name), "transfer");
	snprintf(ev->args, sizeof(ev->args),
		 "\"to\":%u,\"bytes\":%" PRIu64 ",\"model_ns\":%" PRIu64
		 ",\"queued_ns\":%" PRIu64, r->to, r->bytes, r->model_ns,
		 begin - r->ts_ns);
	return 0;
}

int pwtrace_conv_add(struct pwtrace_conv *c, const struct pwtrace_rec *r)
{
	c->records++;
	if (r->ts_ns > c->last_ts_ns)
		c->last_ts_ns = r->ts_ns;
	switch (r->kind) {
	case PWTRACE_SUBMIT:
	case PWTRACE_START:
	case PWTRACE_COMPLETE:
		return add_cmd(c, r);
	case PWTRACE_LINK:
		return add_link(c, r);
	case PWTRACE_COLL:
		return add_coll(c, r);
	}
	return 0;
}

int pwtrace_conv_finish(struct pwtrace_conv *c)
{
	static const char unfinished[] = ",\"unfinished\":true";
	size_t i = 0;
	int ret = 0;

	while (i < c->nopen && !ret) {
		struct pwtrace_open *o = &c->open[i];
		struct pwtrace_event *ev;

		if (o->pid != c->island) {
			i++;
			continue;
		}
		if (o->kind == OPEN_COLL) {
			ret = end_coll(c, o, o->key, c->last_ts_ns,
				       unfinished);
		} else if (o->begun) {
			/* One only submitted has nothing to draw. */
			ev = emit(c, dev_track(c, o->dev), 'X', "cmd",
				  o->begin_ns, c->last_ts_ns - o->begin_ns);
			if (!ev)
				return -ENOMEM;
			cmd_name(ev->name, sizeof(ev->name), o->code);
			snprintf(ev->args, sizeof(ev->args),
				 "\"id\":%" PRIu64 "%s", o->key, unfinished);
		}
		close_open(c, o);
	}
	c->last_ts_ns = 0;
	return ret;
}
