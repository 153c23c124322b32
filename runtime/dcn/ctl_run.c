// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_run.c - the controller's programs and runs. A client registers a
 * program once (PROGRAM, in parts when large); the controller places each
 * computation on a device of the island the client named, round robin
 * over the devices that take work. A run is one small RUN message; the
 * controller sends each worker its part of the plan (PLAN, in order, in
 * as few messages as fit) and answers the client with one DONE when every
 * worker has answered, or at once with an error when a host is down.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roles.h"

static struct pw_ctl_program *program_find(struct pw_controller *c,
					   uint32_t client, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < PW_CTL_MAX_PROGRAMS; i++)
		if (c->programs[i].used && c->programs[i].client == client &&
		    c->programs[i].id == id)
			return &c->programs[i];
	return NULL;
}

static void program_free(struct pw_ctl_program *p)
{
	free(p->steps);
	memset(p, 0, sizeof(*p));
}

static void send_program_ack(struct pw_controller *c, struct pw_node_peer *p,
			     uint32_t id, int err, unsigned int nnodes,
			     uint64_t now)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_PROGRAM_ACK;
	m.body.program_ack.program_id = id;
	m.body.program_ack.status = (uint32_t)-err;
	m.body.program_ack.nnodes = nnodes;
	pw_node_send(&c->node, p, &m, now);
}

/* A device of island @host that takes work, round robin; -ENODEV if none. */
static int place(struct pw_controller *c, uint32_t host)
{
	struct pw_ctl_island *isl = &c->isl[host];
	unsigned int i, d;

	for (i = 0; i < isl->reg.ndevices; i++) {
		d = (c->rr[host] + i) % isl->reg.ndevices;
		if (pw_rm_device_available(isl->rm, d)) {
			c->rr[host] = d + 1;
			return (int)d;
		}
	}
	return -ENODEV;
}

static int add_nodes(struct pw_controller *c, struct pw_ctl_program *prog,
		     const struct pw_wire_program *w)
{
	unsigned int i;
	int dev;

	if (w->first_node != prog->received || w->nnodes_total != prog->nnodes)
		return -EPROTO;	/* parts come in order on one channel */
	for (i = 0; i < w->nnodes; i++) {
		const struct pw_wire_prog_node *n = &w->nodes[i];
		struct pw_ctl_step *s;

		if (n->kind != PW_WIRE_NODE_COMPUTE)
			continue;
		if (n->slice_id >= PW_MAX_HOSTS || !c->isl[n->slice_id].used ||
		    !c->isl[n->slice_id].up)
			return -EHOSTDOWN;
		if (n->fn_id < PW_WDEV_FN_EMPTY || n->fn_id >= PW_WDEV_NFN)
			return -ENOENT;
		dev = place(c, n->slice_id);
		if (dev < 0)
			return dev;
		s = &prog->steps[prog->nsteps++];
		s->fn_id = n->fn_id;
		s->host = n->slice_id;
		s->dev = (uint8_t)dev;
	}
	prog->received += w->nnodes;
	return 0;
}

int pw_ctl_on_program(struct pw_controller *c, struct pw_node_peer *p,
		      const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_program *w = &msg->body.program;
	struct pw_ctl_program *prog = program_find(c, p->id, w->program_id);
	unsigned int i;
	int ret;

	if (w->first_node == 0) {
		/* A new registration replaces an old one of the same id. */
		if (prog)
			program_free(prog);
		for (i = 0; i < PW_CTL_MAX_PROGRAMS && c->programs[i].used; i++)
			;
		if (i == PW_CTL_MAX_PROGRAMS) {
			send_program_ack(c, p, w->program_id, -ENOSPC, 0, now);
			return -ENOSPC;
		}
		prog = &c->programs[i];
		prog->steps = calloc(w->nnodes_total, sizeof(*prog->steps));
		if (!prog->steps) {
			send_program_ack(c, p, w->program_id, -ENOMEM, 0, now);
			return -ENOMEM;
		}
		prog->used = true;
		prog->client = p->id;
		prog->id = w->program_id;
		prog->nnodes = w->nnodes_total;
	} else if (!prog) {
		send_program_ack(c, p, w->program_id, -EPROTO, 0, now);
		return -EPROTO;
	}
	ret = add_nodes(c, prog, w);
	if (ret) {
		send_program_ack(c, p, w->program_id, ret, 0, now);
		program_free(prog);
		return ret;
	}
	if (prog->received == prog->nnodes)
		send_program_ack(c, p, w->program_id, 0, prog->nnodes, now);
	return 0;
}

static void send_done(struct pw_controller *c, struct pw_ctl_run *r,
		      uint64_t now)
{
	struct pw_node_peer *p = pw_node_find(&c->node, r->client);
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_DONE;
	m.body.done = r->done;
	m.body.done.host_id = 0;
	if (p)
		pw_node_send(&c->node, p, &m, now);
	memset(r, 0, sizeof(*r));
}

/* Host @h's part of @prog for run @run, in PLAN messages. */
static int send_plan(struct pw_controller *c, const struct pw_ctl_program *prog,
		     const struct pw_wire_run *run, uint32_t run_id,
		     unsigned int h, uint64_t recv_ns, uint64_t now)
{
	struct pw_node_peer *wp = pw_node_find(&c->node, c->isl[h].node);
	struct pw_wire_msg m;
	unsigned int i, total = 0, sent = 0;
	int ret;

	if (!wp)
		return -EHOSTDOWN;
	for (i = 0; i < prog->nsteps; i++)
		total += prog->steps[i].host == h;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_PLAN;
	for (i = 0; i < prog->nsteps; i++) {
		struct pw_wire_plan_cmd *cmd;

		if (prog->steps[i].host != h)
			continue;
		cmd = &m.body.plan.cmds[m.body.plan.ncmds++];
		cmd->op = PW_WIRE_CMD_EXEC;
		cmd->dev = prog->steps[i].dev;
		cmd->fn_id = prog->steps[i].fn_id;
		if (m.body.plan.ncmds < PW_WIRE_PLAN_CMDS &&
		    sent + m.body.plan.ncmds < total)
			continue;
		m.body.plan.run_id = run_id;
		m.body.plan.program_id = run->program_id;
		m.body.plan.ncmds_total = (uint16_t)total;
		m.body.plan.first_cmd = (uint16_t)sent;
		m.body.plan.client_send_ns = run->client_send_ns;
		m.body.plan.ctrl_recv_ns = recv_ns;
		m.body.plan.ctrl_send_ns = pw_now_ns();
		ret = pw_node_send(&c->node, wp, &m, now);
		if (ret)
			return ret;
		sent += m.body.plan.ncmds;
		memset(&m.body, 0, sizeof(m.body));
	}
	return 0;
}

int pw_ctl_on_run(struct pw_controller *c, struct pw_node_peer *p,
		  const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_run *run = &msg->body.run;
	struct pw_ctl_program *prog = program_find(c, p->id, run->program_id);
	struct pw_ctl_run *r = NULL;
	unsigned int i, h;
	int ret = 0;

	for (i = 0; i < PW_CTL_MAX_RUNS && !r; i++)
		if (!c->runs[i].used)
			r = &c->runs[i];
	if (!r) {
		/* Answer at once: a client must never wait for nothing. */
		struct pw_ctl_run busy = { .used = true, .client = p->id };

		busy.done.run_id = run->run_id;
		busy.done.status = EBUSY;
		busy.done.client_send_ns = run->client_send_ns;
		busy.done.ctrl_recv_ns = now;
		send_done(c, &busy, now);
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
	if (!prog || prog->received != prog->nnodes)
		ret = -ENOENT;
	for (i = 0; !ret && i < prog->nsteps; i++) {
		h = prog->steps[i].host;
		if (!c->isl[h].up)
			ret = -EHOSTDOWN;
		r->hosts |= 1ull << h;
	}
	for (h = 0; !ret && h < PW_MAX_HOSTS; h++)
		if (r->hosts & (1ull << h))
			ret = send_plan(c, prog, run, r->id, h, now, now);
	if (ret || !r->hosts) {
		r->done.status = (uint32_t)-ret;
		send_done(c, r, now);
	}
	return ret;
}

int pw_ctl_on_done(struct pw_controller *c, struct pw_node_peer *p,
		   const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_done *d = &msg->body.done;
	uint32_t host = p->id - PW_NODE_WORKER_BASE;
	unsigned int i;

	for (i = 0; i < PW_CTL_MAX_RUNS; i++) {
		struct pw_ctl_run *r = &c->runs[i];

		if (!r->used || r->id != d->run_id ||
		    host >= PW_MAX_HOSTS || !(r->hosts & (1ull << host)))
			continue;
		r->hosts &= ~(1ull << host);
		if (!r->done.status)
			r->done.status = d->status;
		r->done.ncmds += d->ncmds;
		r->done.ctrl_send_ns = d->ctrl_send_ns;
		r->done.worker_recv_ns = d->worker_recv_ns;
		r->done.dev_start_ns = d->dev_start_ns;
		r->done.dev_end_ns = d->dev_end_ns;
		r->done.worker_send_ns = d->worker_send_ns;
		if (!r->hosts)
			send_done(c, r, now);
		return 0;
	}
	return -ENOENT;
}

void pw_ctl_host_down(struct pw_controller *c, unsigned int host,
		      uint64_t now)
{
	unsigned int i;

	for (i = 0; i < PW_CTL_MAX_RUNS; i++) {
		struct pw_ctl_run *r = &c->runs[i];

		if (!r->used || !(r->hosts & (1ull << host)))
			continue;
		r->hosts &= ~(1ull << host);
		r->done.status = EHOSTDOWN;
		if (!r->hosts)
			send_done(c, r, now);
	}
}

void pw_ctl_runs_fini(struct pw_controller *c)
{
	unsigned int i;

	for (i = 0; i < PW_CTL_MAX_PROGRAMS; i++)
		if (c->programs[i].used)
			program_free(&c->programs[i]);
}
