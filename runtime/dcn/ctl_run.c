// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_run.c - the controller's programs and runs. A client registers a
 * program once (PROGRAM, in parts when large); with its last node the
 * controller lowers it (ctl_lower.c) and ships the functions it uses to the
 * workers that run them. A run is one small RUN message naming argument
 * and result buffers; the controller sends each worker its part of the
 * plan (PLAN, in order, in as few messages as fit), and each worker
 * answers the client directly with a DONE when its part ends (and the
 * controller with another, which frees the run's place in the island
 * windows). When a worker fails its part or its host goes down, the
 * controller answers the client too and the other workers get CANCEL,
 * so none waits for a transfer that will not come.
 * A run with a deadline (RUN's timeout_ms) that passes ends the same way,
 * with ETIMEDOUT.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/slots.h"
#include "roles.h"

struct pw_ctl_program *pw_ctl_program_find(struct pw_controller *c,
					   uint32_t client, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < c->nprograms; i++)
		if (c->programs[i].used && c->programs[i].client == client &&
		    c->programs[i].id == id)
			return &c->programs[i];
	return NULL;
}

/* Programs (@programs) or runs in flight of @client. */
static unsigned int client_count(const struct pw_controller *c,
				 uint32_t client, bool programs)
{
	unsigned int i, k = 0;

	if (programs) {
		for (i = 0; i < c->nprograms; i++)
			k += c->programs[i].used &&
			     c->programs[i].client == client;
	} else {
		for (i = 0; i < c->nruns; i++)
			k += c->runs[i].used && c->runs[i].client == client;
	}
	return k;
}

static void program_free(struct pw_ctl_program *p)
{
	free(p->nodes);
	free(p->cmds);
	free(p->parts);
	free(p->pairs);
	memset(p, 0, sizeof(*p));
}

/* Room for one more partial program of @client (PW_CTL_CLIENT_PARTIAL). */
static void evict_partial(struct pw_controller *c, uint32_t client)
{
	struct pw_ctl_program *q, *oldest = NULL;
	unsigned int i, partial = 0;

	for (i = 0; i < c->nprograms; i++) {
		q = &c->programs[i];
		if (!q->used || !q->nodes || q->client != client)
			continue;
		partial++;
		if (!oldest || q->begun < oldest->begun)
			oldest = q;
	}
	if (partial < PW_CTL_CLIENT_PARTIAL)
		return;
	pw_ctl_evicted(c, client, "program", oldest->id);
	program_free(oldest);
}

/* @prog: the program registered (its hosts go with the answer), or NULL. */
static void send_program_ack(struct pw_controller *c, struct pw_node_peer *p,
			     uint32_t id, int err,
			     const struct pw_ctl_program *prog, uint64_t now)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_PROGRAM_ACK;
	m.body.program_ack.program_id = id;
	m.body.program_ack.status = (uint32_t)-err;
	m.body.program_ack.nnodes = prog ? prog->nnodes : 0;
	if (prog)
		memcpy(m.body.program_ack.hosts, prog->hosts.w,
		       sizeof(m.body.program_ack.hosts));
	pw_node_send(&c->node, p, &m, now);
}

/* Lowered: ship every function to the hosts that run it. */
static int ship_functions(struct pw_controller *c, struct pw_ctl_program *prog)
{
	struct pw_ctl_fn *fn;
	unsigned int i;
	int ret;

	for (i = 0; i < prog->ncmds; i++) {
		const struct pw_ctl_cmd *k = &prog->cmds[i];

		if (k->c.op != PW_WIRE_CMD_EXEC)
			continue;
		fn = pw_ctl_fn_find(c, prog->client, k->c.fn_id);
		/* Sent again since and not whole yet: not runnable now. */
		if (!fn || !fn->pl.complete)
			return -ENOENT;
		ret = pw_ctl_fn_ship(c, fn, k->host);
		if (ret)
			return ret;
	}
	return 0;
}

static int add_nodes(struct pw_controller *c, struct pw_ctl_program *prog,
		     const struct pw_wire_program *w)
{
	unsigned int i;
	int ret;

	if (w->first_node != prog->received || w->nnodes_total != prog->nnodes ||
	    w->nargs != prog->nargs)
		return -EPROTO;	/* parts come in order on one channel */
	memcpy(&prog->nodes[prog->received], w->nodes,
	       w->nnodes * sizeof(w->nodes[0]));
	prog->received += w->nnodes;
	if (prog->received < prog->nnodes)
		return 0;
	ret = pw_ctl_lower(c, prog);
	for (i = 0; !ret && i < prog->ncmds; i++)
		prog->execs += prog->cmds[i].c.op == PW_WIRE_CMD_EXEC;
	if (!ret)
		ret = ship_functions(c, prog);
	free(prog->nodes);
	prog->nodes = NULL;
	return ret;
}

int pw_ctl_on_program(struct pw_controller *c, struct pw_node_peer *p,
		      const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_program *w = &msg->body.program;
	struct pw_ctl_program *prog = pw_ctl_program_find(c, p->id, w->program_id);
	int ret;

	if (w->first_node == 0) {
		/* A new registration replaces an old one of the same id. */
		if (prog)
			program_free(prog);
		/* Counted only once the table is big enough to hold the bound. */
		if (c->nprograms >= PW_CTL_CLIENT_PROGRAMS &&
		    client_count(c, p->id, true) >= PW_CTL_CLIENT_PROGRAMS) {
			ret = -ENOSPC;
		} else {
			/* One that will not be whole at once is partial. */
			if (w->nnodes < w->nnodes_total)
				evict_partial(c, p->id);
			ret = pw_slot_take((void **)&c->programs,
					   &c->nprograms, sizeof(*prog),
					   UINT_MAX);
		}
		if (ret < 0) {
			send_program_ack(c, p, w->program_id, ret, NULL, now);
			return ret;
		}
		prog = &c->programs[ret];
		prog->nodes = calloc(w->nnodes_total, sizeof(*prog->nodes));
		if (!prog->nodes) {
			send_program_ack(c, p, w->program_id, -ENOMEM, NULL, now);
			return -ENOMEM;
		}
		prog->used = true;
		prog->client = p->id;
		prog->id = w->program_id;
		prog->nnodes = w->nnodes_total;
		prog->nargs = w->nargs;
		prog->begun = ++c->partial_seq;
	} else if (!prog) {
		send_program_ack(c, p, w->program_id, -EPROTO, NULL, now);
		return -EPROTO;
	}
	ret = add_nodes(c, prog, w);
	if (ret) {
		send_program_ack(c, p, w->program_id, ret, NULL, now);
		program_free(prog);
		return ret;
	}
	if (prog->lowered)
		send_program_ack(c, p, w->program_id, 0, prog, now);
	return 0;
}

static void send_end(struct pw_controller *c, uint32_t client,
		     const struct pw_wire_done *done, uint64_t now)
{
	struct pw_node_peer *p = pw_node_find(&c->node, client);
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_DONE;
	m.body.done = *done;
	m.body.done.host_id = 0;
	m.body.done.nhosts = 0;
	if (p)
		pw_node_send(&c->node, p, &m, now);
}

void pw_ctl_ends_flush(struct pw_controller *c, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < c->nends; i++)
		send_end(c, c->end_client[i], &c->end_done[i], now);
	c->nends = 0;
}

/*
 * Always, though the workers' own DONEs usually end the run at the client
 * first: this one ends it if one of theirs is lost for good. @later: the
 * workers answered, so the client most likely has it: after the step.
 */
static void run_end(struct pw_controller *c, struct pw_ctl_run *r,
		    uint64_t now, bool later)
{
	pw_ctl_share_end(c, r);
	if (later && c->nends < PW_CTL_MAX_ENDS) {
		c->end_client[c->nends] = r->client;
		c->end_done[c->nends++] = r->done;
	} else {
		send_end(c, r->client, &r->done, now);
	}
	memset(r, 0, sizeof(*r));
}

void pw_ctl_run_end(struct pw_controller *c, struct pw_ctl_run *r,
		    uint64_t now)
{
	run_end(c, r, now, false);
}


/* A symbol of a lowered program bound to run @run's buffer ids. */
static uint32_t bind_sym(const struct pw_wire_run *run, uint32_t sym)
{
	uint32_t shard = sym & PW_WIRE_SHARD_MASK;
	uint32_t i = (sym & ~(PW_CTL_SYM_ARG | PW_CTL_SYM_RESULT)) >>
		     PW_WIRE_SHARD_BITS;

	if (sym & PW_WIRE_BUF_TEMP || !sym)
		return sym;
	if (sym & PW_CTL_SYM_ARG)
		return run->ids[i] | shard;
	return run->ids[run->nargs + i] | shard;
}

/* Part @part of @prog for run @run, to its host in PLAN messages. */
static int send_plan(struct pw_controller *c, const struct pw_ctl_program *prog,
		     const struct pw_ctl_part *part,
		     const struct pw_wire_run *run, uint32_t run_id,
		     uint64_t recv_ns, uint64_t now)
{
	struct pw_node_peer *wp = pw_node_find(&c->node, c->isl[part->host].node);
	unsigned int i, b, total = part->n, sent = 0;
	struct pw_wire_plan *pl;
	struct pw_wire_msg m;
	int ret;

	if (!wp)
		return -EHOSTDOWN;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_PLAN;
	pl = &m.body.plan;
	for (i = part->first; i < part->first + part->n; i++) {
		struct pw_wire_plan_cmd *cmd;

		cmd = &pl->cmds[pl->ncmds++];
		*cmd = prog->cmds[i].c;
		for (b = 0; b < (unsigned int)cmd->nin + cmd->nout; b++)
			cmd->bufs[b] = bind_sym(run, cmd->bufs[b]);
		if (pl->ncmds < PW_WIRE_PLAN_CMDS && sent + pl->ncmds < total)
			continue;
		pl->run_id = run_id;
		pl->program_id = run->program_id;
		pl->client = prog->client;
		pl->client_run = run->run_id;
		pl->nhosts = (uint16_t)prog->nparts;
		pl->ncmds_total = (uint16_t)total;
		pl->first_cmd = (uint16_t)sent;
		pl->client_send_ns = run->client_send_ns;
		pl->ctrl_recv_ns = recv_ns;
		pl->ctrl_send_ns = pw_now_ns();
		ret = pw_node_send(&c->node, wp, &m, now);
		if (ret)
			return ret;
		sent += pl->ncmds;
		memset(&m.body, 0, sizeof(m.body));
	}
	return 0;
}

/* Tell the hosts of @r still working that it is over. */
static void cancel_rest(struct pw_controller *c, struct pw_ctl_run *r,
			uint64_t now)
{
	struct pw_wire_msg m;
	unsigned int h;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_CANCEL;
	m.body.cancel.run_id = r->id;
	m.body.cancel.status = r->done.status ? r->done.status : ECANCELED;
	pw_hostset_for_each(h, &r->hosts) {
		struct pw_node_peer *wp = pw_ctl_worker_peer(c, h);

		if (wp)
			pw_node_send(&c->node, wp, &m, now);
	}
	pw_hostset_clear(&r->hosts);
}

int pw_ctl_on_run(struct pw_controller *c, struct pw_node_peer *p,
		  const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_run *run = &msg->body.run;
	struct pw_ctl_program *prog = pw_ctl_program_find(c, p->id, run->program_id);
	struct pw_ctl_run *r = NULL;
	unsigned int i;
	int ret = 0;

	/* A client has its own bound; the table grows for all of them. */
	ret = c->nruns >= PW_CTL_CLIENT_RUNS &&
	      client_count(c, p->id, false) >= PW_CTL_CLIENT_RUNS ? -EBUSY :
	      pw_slot_take((void **)&c->runs, &c->nruns, sizeof(*r), UINT_MAX);
	if (ret >= 0)
		r = &c->runs[ret];
	ret = 0;
	if (!r) {
		/* Answer at once: a client must never wait for nothing. */
		struct pw_ctl_run busy = { .used = true, .client = p->id };

		busy.done.run_id = run->run_id;
		busy.done.status = EBUSY;
		busy.done.client_send_ns = run->client_send_ns;
		busy.done.ctrl_recv_ns = now;
		pw_ctl_run_end(c, &busy, now);
		return -EBUSY;
	}
	r->used = true;
	if (++c->next_run == 0)
		c->next_run = 1;
	r->id = c->next_run;
	r->client = p->id;
	r->done.run_id = run->run_id;
	r->done.client_send_ns = run->client_send_ns;
	r->done.ctrl_recv_ns = now;
	r->timeout_ms = run->timeout_ms;
	r->deadline_ns = run->timeout_ms ?
			 now + run->timeout_ms * 1000000ull : 0;
	if (r->deadline_ns && (!c->next_deadline_ns ||
			       r->deadline_ns < c->next_deadline_ns))
		c->next_deadline_ns = r->deadline_ns;
	if (!prog || !prog->lowered)
		ret = -ENOENT;
	else if (run->nargs != prog->nargs || run->nresults != prog->nresults)
		ret = -EINVAL;
	for (i = 0; !ret && i < (unsigned int)run->nargs + run->nresults; i++)
		if (!run->ids[i] ||
		    run->ids[i] & (PW_WIRE_BUF_TEMP | PW_WIRE_SHARD_MASK))
			ret = -EINVAL;
	if (ret) {
		r->done.status = (uint32_t)-ret;
		pw_ctl_run_end(c, r, now);
		return ret;
	}
	return pw_ctl_share_submit(c, r, prog, run, now);
}

/* -ENODEV when @prog runs on a device taken out of service. */
static int devices_in_service(const struct pw_controller *c,
			      const struct pw_ctl_program *prog)
{
	unsigned int i, h;
	uint64_t out = 0;

	pw_hostset_for_each(h, &prog->hosts)
		out |= c->isl[h].out;
	for (i = 0; out && i < prog->ncmds; i++)
		if (c->isl[prog->cmds[i].host].out &
		    (1ull << prog->cmds[i].c.dev))
			return -ENODEV;
	return 0;
}

void pw_ctl_run_start(struct pw_controller *c, struct pw_ctl_run *r,
		      struct pw_ctl_program *prog,
		      const struct pw_wire_run *run, uint64_t now)
{
	unsigned int h, p;
	int ret = 0;

	/* A held run's program may have gone or changed since it came. */
	if (!prog || !prog->lowered)
		ret = -ENOENT;
	else if (prog->stale)
		ret = -ESTALE;
	else if (run->nargs != prog->nargs || run->nresults != prog->nresults)
		ret = -EINVAL;
	if (!ret)
		pw_hostset_for_each(h, &prog->hosts)
			if (!c->isl[h].up)
				ret = -EHOSTDOWN;
	if (!ret)
		ret = devices_in_service(c, prog);
	if (!ret)
		ret = ship_functions(c, prog);	/* a worker may be new */
	/* Before the plans: a worker takes READY only from one it met. */
	if (!ret)
		pw_ctl_meet(c, prog, now);
	for (p = 0; !ret && p < prog->nparts; p++) {
		h = prog->parts[p].host;
		/* Before sending: a host with part of a plan must get CANCEL. */
		pw_hostset_add(&r->hosts, h);
		pw_hostset_add(&r->charged, h);
		c->inflight[h]++;
		ret = send_plan(c, prog, &prog->parts[p], run, r->id,
				r->done.ctrl_recv_ns, now);
	}
	/* No worker to answer (a program of no commands): answer here. */
	if (!ret && pw_hostset_empty(&r->hosts))
		pw_ctl_run_end(c, r, now);
	if (ret) {
		r->done.status = (uint32_t)-ret;
		cancel_rest(c, r, now);
		pw_ctl_run_end(c, r, now);
	}
}

int pw_ctl_on_done(struct pw_controller *c, struct pw_node_peer *p,
		   const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_done *d = &msg->body.done;
	uint32_t host = p->id - PW_NODE_WORKER_BASE;
	unsigned int i;

	for (i = 0; i < c->nruns; i++) {
		struct pw_ctl_run *r = &c->runs[i];

		if (!r->used || r->id != d->run_id ||
		    !pw_hostset_has(&r->hosts, host))
			continue;
		pw_hostset_del(&r->hosts, host);
		/*
		 * Its worker lacks a peer it was introduced to (it forgot
		 * one deaf for long): the next runs introduce them again.
		 */
		if (d->status == EHOSTUNREACH)
			pw_ctl_forget_met(c, host);
		if (!r->done.status)
			r->done.status = d->status;
		r->done.ncmds += d->ncmds;
		if (d->status)
			cancel_rest(c, r, now);
		r->done.ctrl_send_ns = d->ctrl_send_ns;
		r->done.worker_recv_ns = d->worker_recv_ns;
		r->done.dev_start_ns = d->dev_start_ns;
		r->done.dev_end_ns = d->dev_end_ns;
		r->done.worker_send_ns = d->worker_send_ns;
		pw_ctl_share_host_done(c, r, host);
		if (pw_hostset_empty(&r->hosts))
			run_end(c, r, now, true);
		/* Its islands have room: a held run may go. */
		pw_ctl_share_pump(c, now);
		return 0;
	}
	/*
	 * A run that ended here first (its client left, its time ran out,
	 * it failed elsewhere) while the worker's DONE was on its way, or a
	 * lie: refused, and counted by the node.
	 */
	return -ENOENT;
}

void pw_ctl_runs_forget_client(struct pw_controller *c, uint32_t client,
			       uint64_t now)
{
	unsigned int i;

	for (i = 0; i < c->nprograms; i++)
		if (c->programs[i].used && c->programs[i].client == client)
			program_free(&c->programs[i]);
	for (i = 0; i < c->nruns; i++) {
		struct pw_ctl_run *r = &c->runs[i];

		if (!r->used || r->client != client)
			continue;
		/* Nobody to answer: the workers stop, the slot is free. */
		r->done.status = ECANCELED;
		cancel_rest(c, r, now);
		pw_ctl_share_end(c, r);
		memset(r, 0, sizeof(*r));
	}
}

void pw_ctl_programs_host_reset(struct pw_controller *c, unsigned int h)
{
	unsigned int i;

	for (i = 0; i < c->nprograms; i++)
		if (c->programs[i].used &&
		    pw_hostset_has(&c->programs[i].hosts, h))
			c->programs[i].stale = true;
}

void pw_ctl_host_down(struct pw_controller *c, unsigned int host,
		      uint64_t now)
{
	unsigned int i;

	for (i = 0; i < c->nruns; i++) {
		struct pw_ctl_run *r = &c->runs[i];

		if (!r->used || !pw_hostset_has(&r->hosts, host))
			continue;
		pw_hostset_del(&r->hosts, host);
		r->done.status = EHOSTDOWN;
		cancel_rest(c, r, now);
		pw_ctl_run_end(c, r, now);
	}
}

uint64_t pw_ctl_runs_expire(struct pw_controller *c, uint64_t now)
{
	uint64_t next = 0;
	unsigned int i;

	for (i = 0; i < c->nruns; i++) {
		struct pw_ctl_run *r = &c->runs[i];

		if (!r->used || !r->deadline_ns)
			continue;
		if (r->deadline_ns > now) {
			if (!next || r->deadline_ns < next)
				next = r->deadline_ns;
			continue;
		}
		if (pw_hostset_empty(&r->hosts))
			pw_ctl_log("run %u of client %u: not done within its %u ms: ETIMEDOUT (held, not started)",
				   r->done.run_id, r->client, r->timeout_ms);
		else
			pw_ctl_log("run %u of client %u: not done within its %u ms: ETIMEDOUT (the %u hosts still working, host %u first, are cancelled)",
				   r->done.run_id, r->client, r->timeout_ms,
				   pw_hostset_count(&r->hosts),
				   pw_hostset_next(&r->hosts, 0));
		c->run_timeouts++;
		r->done.status = ETIMEDOUT;
		cancel_rest(c, r, now);
		pw_ctl_run_end(c, r, now);
	}
	return next;
}

void pw_ctl_runs_fini(struct pw_controller *c)
{
	unsigned int i;

	for (i = 0; i < c->nprograms; i++)
		if (c->programs[i].used)
			program_free(&c->programs[i]);
	for (i = 0; i < c->nruns; i++)
		free(c->runs[i].held);
	free(c->programs);
	free(c->runs);
	c->programs = NULL;
	c->runs = NULL;
	c->nprograms = 0;
	c->nruns = 0;
	pw_ctl_objs_fini(c);
}
