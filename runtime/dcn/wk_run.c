// SPDX-License-Identifier: GPL-2.0
/*
 * wk_run.c - a worker executing its part of a run: every command of a
 * PLAN goes to its device's queue through the worker's io_uring as soon
 * as it arrives; completions are reaped when the ring's eventfd fires,
 * and when the last command of the plan is done one DONE goes back with
 * the worker's timestamps (PLAN arrival, first device start, last device
 * end, DONE departure, all on this host's clock).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "roles.h"

#define PW_WK_REAP	64

static struct pw_wk_run *run_find(struct pw_worker *w, uint32_t run_id)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_RUNS; i++)
		if (w->runs[i].used && w->runs[i].done.run_id == run_id)
			return &w->runs[i];
	return NULL;
}

static void send_done(struct pw_worker *w, struct pw_wk_run *r)
{
	struct pw_wire_msg m;
	uint64_t now = pw_now_ns();

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_DONE;
	m.body.done = r->done;
	m.body.done.host_id = w->reg.host_id;
	m.body.done.ncmds = r->completed;
	m.body.done.worker_send_ns = now;
	if (w->ctl)
		pw_node_send(&w->node, w->ctl, &m, now);
	memset(r, 0, sizeof(*r));
}

/* Refuse a PLAN with a DONE carrying @err: the run must not hang. */
static int refuse(struct pw_worker *w, const struct pw_wire_plan *pl, int err,
		  uint64_t now)
{
	struct pw_wk_run r = { .used = true };

	r.done.run_id = pl->run_id;
	r.done.status = (uint32_t)-err;
	r.done.client_send_ns = pl->client_send_ns;
	r.done.ctrl_recv_ns = pl->ctrl_recv_ns;
	r.done.ctrl_send_ns = pl->ctrl_send_ns;
	r.done.worker_recv_ns = now;
	send_done(w, &r);
	return err;
}

int pw_wk_on_plan(struct pw_worker *w, const struct pw_wire_msg *msg,
		  uint64_t now)
{
	const struct pw_wire_plan *pl = &msg->body.plan;
	struct pw_wk_run *r = run_find(w, pl->run_id);
	unsigned int i;
	int ret;

	if (!r) {
		if (pl->first_cmd)
			return refuse(w, pl, -EPROTO, now);
		for (i = 0; i < PW_WK_MAX_RUNS && w->runs[i].used; i++)
			;
		if (i == PW_WK_MAX_RUNS)
			return refuse(w, pl, -EBUSY, now);
		r = &w->runs[i];
		r->used = true;
		r->total = pl->ncmds_total;
		r->done.run_id = pl->run_id;
		r->done.client_send_ns = pl->client_send_ns;
		r->done.ctrl_recv_ns = pl->ctrl_recv_ns;
		r->done.ctrl_send_ns = pl->ctrl_send_ns;
		r->done.worker_recv_ns = now;
	} else if (pl->first_cmd != r->submitted ||
		   pl->ncmds_total != r->total) {
		/* Parts arrive in order on one channel: a clash of run ids. */
		return refuse(w, pl, -EPROTO, now);
	}
	r->submit_ns = pw_now_ns();
	for (i = 0; i < pl->ncmds; i++) {
		uint64_t tag = ((uint64_t)(r - w->runs) << 32) | pl->run_id;

		ret = pw_wdev_submit(&w->dev, &pl->cmds[i], tag);
		if (ret) {
			/* Counted as done, with its error: the run still ends. */
			if (!r->done.status)
				r->done.status = (uint32_t)-ret;
			r->completed++;
		}
		r->submitted++;
	}
	if (r->completed == r->total)
		send_done(w, r);
	return 0;
}

void pw_wk_reap(struct pw_worker *w)
{
	struct pw_wdev_done d[PW_WK_REAP];
	int n, i;

	do {
		n = pw_wdev_reap(&w->dev, d, PW_WK_REAP);
		for (i = 0; i < n; i++) {
			unsigned int slot = (unsigned int)(d[i].tag >> 32);
			struct pw_wk_run *r = &w->runs[slot];
			uint64_t start, end;

			if (slot >= PW_WK_MAX_RUNS || !r->used ||
			    r->done.run_id != (uint32_t)d[i].tag)
				continue;
			start = r->submit_ns + d[i].queue_ns;
			end = start + d[i].exec_ns;
			if (!r->done.dev_start_ns || start < r->done.dev_start_ns)
				r->done.dev_start_ns = start;
			if (end > r->done.dev_end_ns)
				r->done.dev_end_ns = end;
			if (d[i].res && !r->done.status)
				r->done.status = (uint32_t)-d[i].res;
			if (++r->completed == r->total)
				send_done(w, r);
		}
	} while (n == PW_WK_REAP);
}
