// SPDX-License-Identifier: GPL-2.0
/*
 * rclient.c - a client of a remote controller: connect, register a
 * program once, run it with one small RUN message and wait for its DONE.
 * Synchronous on purpose: it is what the DCN dispatch measurement times;
 * the asynchronous client API over the DCN builds on the same messages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "roles.h"

static int rc_handle(struct pw_node *node, struct pw_node_peer *p,
		     const struct pw_wire_msg *msg, uint64_t now)
{
	struct pw_rclient *rc = node->ctx;

	if (p != rc->ctl)
		return -EPERM;
	switch (msg->hdr.type) {
	case PW_WIRE_CONNECT_ACK:
		rc->ack = msg->body.connect_ack;
		rc->connected = true;
		return 0;
	case PW_WIRE_PROGRAM_ACK:
		if (msg->body.program_ack.program_id != rc->want_program)
			return 0;
		rc->program_ack = msg->body.program_ack;
		rc->have_program_ack = true;
		return 0;
	case PW_WIRE_DONE:
		if (msg->body.done.run_id != rc->want_run)
			return 0;	/* a late answer to a run given up on */
		rc->done = msg->body.done;
		rc->have_done = true;
		rc->done_recv_ns = now;
		return 0;
	case PW_WIRE_ERROR:
		rc->error = msg->body.error;
		return 0;
	default:
		return 0;
	}
}

/* Step until *@flag or @timeout_ms pass. */
static int rc_wait(struct pw_rclient *rc, const bool *flag,
		   unsigned int timeout_ms)
{
	uint64_t until = pw_now_ns() + timeout_ms * 1000000ull;
	int ret;

	while (!*flag) {
		uint64_t now = pw_now_ns();

		if (now >= until)
			return -ETIMEDOUT;
		ret = pw_node_step(&rc->node, until - now);
		if (ret)
			return ret;
	}
	return 0;
}

int pw_rclient_connect(struct pw_rclient *rc, struct pw_transport *t,
		       const struct sockaddr_in *controller, const char *name,
		       unsigned int timeout_ms)
{
	struct pw_wire_msg m;
	int ret;

	memset(rc, 0, sizeof(*rc));
	ret = pw_node_init(&rc->node,
			   PW_NODE_CLIENT_BASE | ((uint32_t)getpid() & 0x7fffffff),
			   t, rc_handle, rc);
	if (ret)
		return ret;
	rc->ctl = pw_node_peer(&rc->node, PW_NODE_CONTROLLER, controller);
	if (!rc->ctl)
		return -ENOMEM;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_CONNECT;
	m.body.connect.pid = (uint32_t)getpid();
	snprintf(m.body.connect.name, sizeof(m.body.connect.name), "%s",
		 name ? name : "client");
	ret = pw_node_send(&rc->node, rc->ctl, &m, pw_now_ns());
	if (ret)
		return ret;
	ret = rc_wait(rc, &rc->connected, timeout_ms);
	if (!ret && rc->ack.status)
		ret = -(int)rc->ack.status;
	return ret;
}

int pw_rclient_program(struct pw_rclient *rc, uint32_t id,
		       const uint32_t *fn_ids, const uint32_t *hosts,
		       unsigned int n, unsigned int timeout_ms)
{
	struct pw_wire_msg m;
	unsigned int i = 0;
	int ret;

	if (!n || n > PW_WIRE_MAX_PROG_NODES)
		return -EINVAL;
	rc->have_program_ack = false;
	rc->want_program = id;
	while (i < n) {
		struct pw_wire_program *p = &m.body.program;

		memset(&m, 0, sizeof(m));
		m.hdr.type = PW_WIRE_PROGRAM;
		p->program_id = id;
		p->nnodes_total = (uint16_t)n;
		p->first_node = (uint16_t)i;
		for (; i < n && p->nnodes < PW_WIRE_PROG_NODES; i++) {
			struct pw_wire_prog_node *node = &p->nodes[p->nnodes++];

			node->kind = PW_WIRE_NODE_COMPUTE;
			node->arg_index = PW_WIRE_NO_ARG;
			node->fn_id = fn_ids[i];
			node->slice_id = hosts[i];
		}
		ret = pw_node_send(&rc->node, rc->ctl, &m, pw_now_ns());
		if (ret)
			return ret;
	}
	ret = rc_wait(rc, &rc->have_program_ack, timeout_ms);
	if (!ret && rc->program_ack.status)
		ret = -(int)rc->program_ack.status;
	return ret;
}

int pw_rclient_run(struct pw_rclient *rc, uint32_t id, uint32_t run_id,
		   struct pw_wire_done *done, uint64_t *sent_ns,
		   uint64_t *recv_ns, unsigned int timeout_ms)
{
	struct pw_wire_msg m;
	int ret;

	rc->have_done = false;
	rc->want_run = run_id;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_RUN;
	m.body.run.program_id = id;
	m.body.run.run_id = run_id;
	m.body.run.client_send_ns = pw_now_ns();
	*sent_ns = m.body.run.client_send_ns;
	ret = pw_node_send(&rc->node, rc->ctl, &m, *sent_ns);
	if (ret)
		return ret;
	ret = rc_wait(rc, &rc->have_done, timeout_ms);
	if (ret)
		return ret;
	*done = rc->done;
	*recv_ns = rc->done_recv_ns;
	return rc->done.status ? -(int)rc->done.status : 0;
}

void pw_rclient_close(struct pw_rclient *rc)
{
	/* Let the last acks go out before the channel goes. */
	pw_node_step(&rc->node, 1000000ull);
	pw_node_fini(&rc->node);
}
