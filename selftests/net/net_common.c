// SPDX-License-Identifier: GPL-2.0
/*
 * net_common.c - what the net tests share: random valid control messages,
 * a clock, and a lossy endpoint of a reliable channel.
 */
#include <string.h>
#include <time.h>

#include "net_common.h"

void net_put16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

void net_put32(uint8_t *p, uint32_t v)
{
	net_put16(p, v);
	net_put16(p + 2, v >> 16);
}

/* A NUL-terminated string of up to @cap - 1 printable characters. */
static void gen_string(char *s, size_t cap, uint64_t *rng)
{
	size_t n = net_below(rng, cap), i;

	for (i = 0; i < n; i++)
		s[i] = 'a' + net_below(rng, 26);
}

/* Node @index of @p: its edges come from earlier nodes. */
static void gen_prog_node(struct pw_wire_prog_node *n,
			  const struct pw_wire_program *p, unsigned int index,
			  uint64_t *rng)
{
	unsigned int i;

	n->kind = 1 + net_below(rng, 3);
	n->nin = index ? net_below(rng, PW_WIRE_MAX_BUFS + 1) : 0;
	n->dtype = net_rand(rng);
	n->ndims = net_below(rng, PW_WIRE_MAX_DIMS + 1);
	n->nshards = net_below(rng, PW_WIRE_MAX_DEVICES + 1);
	n->arg_index = p->nargs && net_chance(rng, 500) ?
		       net_below(rng, p->nargs) : PW_WIRE_NO_ARG;
	n->fn_id = net_rand(rng);
	n->slice = net_rand(rng);
	for (i = 0; i < n->ndims; i++)
		n->shape[i] = net_rand(rng);
	for (i = 0; i < n->nin; i++) {
		n->in[i].node = net_below(rng, index);
		n->in[i].output = net_rand(rng);
	}
}

static void gen_plan_cmd(struct pw_wire_plan_cmd *c, uint64_t *rng)
{
	unsigned int i;

	c->op = PW_WIRE_CMD_NOP + net_below(rng, PW_WIRE_CMD_NOPS - 1);
	c->dev = net_below(rng, PW_WIRE_MAX_DEVICES);
	c->nin = net_below(rng, PW_WIRE_MAX_BUFS + 1);
	c->nout = net_below(rng, PW_WIRE_MAX_BUFS + 1 - c->nin);
	c->peer_dev = net_below(rng, PW_WIRE_MAX_DEVICES);
	c->peer_host = net_rand(rng);
	c->fn_id = net_rand(rng);
	if (c->op == PW_WIRE_CMD_EXEC && net_chance(rng, 500)) {
		c->gang_id = 1 + net_below(rng, UINT32_MAX);
		c->slice = 1 + net_below(rng, UINT32_MAX);
	}
	if (c->op == PW_WIRE_CMD_COPY_PEER) {
		c->nin = 1 + net_below(rng, PW_WIRE_MAX_BUFS - 1);
		c->nout = 1;
		c->skip = net_rand(rng);
	}
	c->bytes = net_rand(rng);
	if (c->op == PW_WIRE_CMD_DCN_SEND)
		c->peer_buf = net_rand(rng);
	for (i = 0; i < (unsigned int)c->nin + c->nout; i++)
		c->bufs[i] = net_rand(rng);
}

static void gen_body(struct pw_wire_msg *m, unsigned int type, uint64_t *rng)
{
	unsigned int i, n;

	switch (type) {
	case PW_WIRE_REGISTER: {
		struct pw_wire_register *b = &m->body.reg;

		b->host_id = net_rand(rng);
		b->island_id = net_rand(rng);
		b->ndevices = 1 + net_below(rng, PW_WIRE_MAX_DEVICES);
		b->data_port = 1 + net_below(rng, 65535);
		b->has_rdma = net_below(rng, 2);
		b->hbm_bytes = net_rand(rng);
		for (i = 0; i < 4; i++)
			b->data_ip[i] = net_rand(rng);
		b->mesh[0] = '1' + net_below(rng, 8);
		gen_string(b->mesh + 1, sizeof(b->mesh) - 1, rng);
		break;
	}
	case PW_WIRE_REGISTER_ACK:
		m->body.reg_ack.host_id = net_rand(rng);
		m->body.reg_ack.status = net_below(rng, 3) ? 0 : net_rand(rng);
		m->body.reg_ack.heartbeat_ms = 1 + net_below(rng, 1000);
		m->body.reg_ack.down_ms = m->body.reg_ack.heartbeat_ms + 1 +
					  net_below(rng, 10000);
		break;
	case PW_WIRE_HEARTBEAT:
		m->body.heartbeat.time_ns = net_rand(rng);
		m->body.heartbeat.hbm_used = net_rand(rng);
		m->body.heartbeat.inflight = net_rand(rng);
		m->body.heartbeat.status = net_rand(rng);
		break;
	case PW_WIRE_CONNECT:
		m->body.connect.pid = net_rand(rng);
		gen_string(m->body.connect.name, sizeof(m->body.connect.name),
			   rng);
		break;
	case PW_WIRE_CONNECT_ACK:
		m->body.connect_ack.status = net_rand(rng);
		m->body.connect_ack.client_id = net_rand(rng);
		m->body.connect_ack.nislands = net_rand(rng);
		m->body.connect_ack.ndevices = net_rand(rng);
		for (i = 0; i < PW_WIRE_MAX_HOSTS; i++)
			m->body.connect_ack.host_devices[i] =
				net_below(rng, PW_WIRE_MAX_DEVICES + 1);
		break;
	case PW_WIRE_PROGRAM: {
		struct pw_wire_program *b = &m->body.program;

		b->program_id = net_rand(rng);
		b->nnodes = 1 + net_below(rng, PW_WIRE_PROG_NODES);
		b->nnodes_total = b->nnodes +
				  net_below(rng, PW_WIRE_MAX_PROG_NODES -
						 b->nnodes + 1);
		b->first_node = net_below(rng, b->nnodes_total - b->nnodes + 1);
		b->nargs = net_below(rng, PW_WIRE_RUN_IDS + 1);
		for (i = 0; i < b->nnodes; i++)
			gen_prog_node(&b->nodes[i], b, b->first_node + i, rng);
		break;
	}
	case PW_WIRE_PROGRAM_ACK:
		m->body.program_ack.program_id = net_rand(rng);
		m->body.program_ack.status = net_rand(rng);
		m->body.program_ack.nnodes = net_rand(rng);
		for (i = 0; i < PW_WIRE_HOST_WORDS; i++)
			m->body.program_ack.hosts[i] = net_rand(rng);
		break;
	case PW_WIRE_RUN: {
		struct pw_wire_run *b = &m->body.run;

		b->program_id = net_rand(rng);
		b->run_id = net_rand(rng);
		b->client_send_ns = net_rand(rng);
		b->nargs = net_below(rng, PW_WIRE_RUN_IDS + 1);
		b->nresults = net_below(rng, PW_WIRE_RUN_IDS - b->nargs + 1);
		for (i = 0; i < (unsigned int)b->nargs + b->nresults; i++)
			b->ids[i] = net_rand(rng);
		break;
	}
	case PW_WIRE_PLAN: {
		struct pw_wire_plan *b = &m->body.plan;

		b->run_id = net_rand(rng);
		b->program_id = net_rand(rng);
		b->client = net_rand(rng);
		b->ncmds = 1 + net_below(rng, PW_WIRE_PLAN_CMDS);
		b->ncmds_total = b->ncmds +
				 net_below(rng, PW_WIRE_MAX_PLAN_CMDS -
						b->ncmds + 1);
		b->first_cmd = net_below(rng, b->ncmds_total - b->ncmds + 1);
		b->client_run = net_rand(rng);
		b->nhosts = 1 + net_below(rng, PW_WIRE_MAX_HOSTS);
		b->client_send_ns = net_rand(rng);
		b->ctrl_recv_ns = net_rand(rng);
		b->ctrl_send_ns = net_rand(rng);
		for (i = 0; i < b->ncmds; i++)
			gen_plan_cmd(&b->cmds[i], rng);
		break;
	}
	case PW_WIRE_DONE: {
		struct pw_wire_done *b = &m->body.done;

		b->run_id = net_rand(rng);
		b->status = net_rand(rng);
		b->host_id = net_rand(rng);
		b->ncmds = net_rand(rng);
		b->client_send_ns = net_rand(rng);
		b->ctrl_recv_ns = net_rand(rng);
		b->ctrl_send_ns = net_rand(rng);
		b->worker_recv_ns = net_rand(rng);
		b->dev_start_ns = net_rand(rng);
		b->dev_end_ns = net_rand(rng);
		b->worker_send_ns = net_rand(rng);
		b->nhosts = net_below(rng, PW_WIRE_MAX_HOSTS + 1);
		break;
	}
	case PW_WIRE_ERROR:
		m->body.error.err = 1 + net_below(rng, 200);
		m->body.error.ref_type = net_below(rng, PW_WIRE_NTYPES);
		m->body.error.ref_id = net_rand(rng);
		m->body.error.ref_seq = net_rand(rng);
		gen_string(m->body.error.msg, sizeof(m->body.error.msg), rng);
		break;
	case PW_WIRE_FUNCTION: {
		struct pw_wire_function *b = &m->body.function;

		b->fn_id = 1 + net_below(rng, UINT32_MAX);
		b->client = net_rand(rng);
		b->total = PW_WIRE_FN_DESC_SIZE +
			   net_below(rng, PW_WIRE_MAX_FN_BYTES -
					  PW_WIRE_FN_DESC_SIZE + 1);
		/* A part never holds more than the whole. */
		b->nbytes = 1 + net_below(rng, b->total < PW_WIRE_FN_CHUNK ?
					       b->total : PW_WIRE_FN_CHUNK);
		b->offset = net_below(rng, b->total - b->nbytes + 1);
		for (i = 0; i < b->nbytes; i++)
			b->data[i] = net_rand(rng);
		break;
	}
	case PW_WIRE_BUFFER: {
		struct pw_wire_buffer *b = &m->body.buffer;

		b->op = PW_WIRE_BUF_CREATE +
			net_below(rng, PW_WIRE_BUF_NOPS - 1);
		b->client = net_rand(rng);
		b->id = net_rand(rng) & ~PW_WIRE_BUF_TEMP;
		/* From a client a shard may name its slice instead. */
		if (net_chance(rng, 300))
			b->slice = 1 + net_below(rng, UINT32_MAX);
		else
			b->host = net_below(rng, PW_WIRE_MAX_HOSTS);
		if (b->op == PW_WIRE_BUF_CREATE) {
			b->dtype = net_rand(rng);
			b->rank = net_below(rng, PW_WIRE_MAX_DIMS + 1);
			b->dev = b->slice ? 0 : net_rand(rng);
			for (i = 0; i < b->rank; i++)
				b->shape[i] = net_rand(rng);
		}
		if (b->op == PW_WIRE_BUF_READ || b->op == PW_WIRE_BUF_FREE)
			break;
		b->total = 1 + net_below(rng, PW_WIRE_MAX_BUF_BYTES);
		b->nbytes = 1 + net_below(rng, b->total < PW_WIRE_BUF_CHUNK ?
					       b->total : PW_WIRE_BUF_CHUNK);
		if (b->op != PW_WIRE_BUF_CREATE)
			b->offset = net_below(rng, b->total - b->nbytes + 1);
		for (i = 0; i < b->nbytes; i++)
			b->data[i] = net_rand(rng);
		break;
	}
	case PW_WIRE_STATUS: {
		struct pw_wire_status *b = &m->body.status;

		b->ref_type = (uint8_t[]){ PW_WIRE_FUNCTION, PW_WIRE_BUFFER,
					   PW_WIRE_SLICE,
					   PW_WIRE_ADMIN }[net_below(rng, 4)];
		b->status = net_below(rng, 2) ? 0 : net_rand(rng);
		b->client = net_rand(rng);
		b->ref_id = net_rand(rng);
		b->value = net_rand(rng);
		break;
	}
	case PW_WIRE_READY: {
		struct pw_wire_ready *b = &m->body.ready;

		b->run_id = net_rand(rng);
		b->src_host = net_below(rng, PW_WIRE_MAX_HOSTS);
		b->dst_host = net_below(rng, PW_WIRE_MAX_HOSTS);
		b->handle = net_rand(rng);
		b->cookie = net_rand(rng);
		for (i = 0; i < 4; i++)
			b->data_ip[i] = net_rand(rng);
		b->data_port = net_rand(rng);
		for (i = 0; i < PW_WIRE_DESC_SIZE; i++)
			b->desc[i] = net_rand(rng);
		break;
	}
	case PW_WIRE_CANCEL:
		m->body.cancel.run_id = net_rand(rng);
		m->body.cancel.status = 1 + net_below(rng, UINT32_MAX);
		break;
	case PW_WIRE_BYE:
		m->body.bye.client = net_rand(rng);
		break;
	case PW_WIRE_SLICE: {
		struct pw_wire_slice *b = &m->body.slice;

		b->op = PW_WIRE_SLICE_MAKE + net_below(rng, PW_WIRE_SLICE_NOPS - 1);
		b->client = net_rand(rng);
		b->id = 1 + net_below(rng, UINT32_MAX);
		b->host = net_chance(rng, 500) ? PW_WIRE_ANY_HOST :
			  net_below(rng, PW_WIRE_MAX_HOSTS);
		if (b->op == PW_WIRE_SLICE_FREE)
			break;
		b->n = 1 + net_below(rng, PW_WIRE_MAX_DEVICES);
		b->ndims = net_below(rng, PW_WIRE_MAX_DIMS + 1);
		for (i = 0; i < b->ndims; i++)
			b->shape[i] = net_rand(rng);
		if (b->op == PW_WIRE_SLICE_GROUP) {
			b->members = 2 + net_below(rng, PW_WIRE_MAX_HOSTS - 1);
			b->host = PW_WIRE_ANY_HOST;
			b->id = 1 + net_below(rng, PW_WIRE_BUF_TEMP - 1 -
						   b->members);
			break;
		}
		b->hbm_bytes = net_rand(rng);
		if (net_chance(rng, 500))
			b->flags = PW_WIRE_SLICE_PINNED;
		for (i = 0; i < b->n; i++)
			b->devices[i] = net_below(rng, PW_WIRE_MAX_DEVICES);
		break;
	}
	case PW_WIRE_ADMIN: {
		struct pw_wire_admin *b = &m->body.admin;

		b->op = PW_WIRE_ADMIN_WEIGHT +
			net_below(rng, PW_WIRE_ADMIN_NOPS - 1);
		b->id = 1 + net_below(rng, UINT32_MAX);
		if (b->op == PW_WIRE_ADMIN_POLICY) {
			b->value = net_below(rng, PW_WIRE_SCHED_NPOLICIES);
			b->window = net_below(rng, PW_WIRE_MAX_SHARE_WINDOW + 1);
			break;
		}
		if (b->op != PW_WIRE_ADMIN_WEIGHT) {
			b->host = net_below(rng, PW_WIRE_MAX_HOSTS);
			b->value = net_below(rng, PW_WIRE_MAX_DEVICES);
			break;
		}
		b->value = 1 + net_below(rng, PW_WIRE_MAX_WEIGHT);
		n = net_below(rng, PW_WIRE_NAME_LEN);
		for (i = 0; i < n; i++)
			b->name[i] = (char)('a' + net_below(rng, 26));
		break;
	}
	case PW_WIRE_PEER: {
		struct pw_wire_peer *b = &m->body.peer;

		b->node = 1 + net_below(rng, UINT32_MAX);
		b->host = net_chance(rng, 500) ? PW_WIRE_ANY_HOST :
			  net_below(rng, PW_WIRE_MAX_HOSTS);
		b->port = 1 + net_below(rng, UINT16_MAX);
		for (i = 0; i < 4; i++)
			b->ip[i] = (uint8_t)net_rand(rng);
		b->flags = (uint32_t[]){ 0, PW_WIRE_PEER_F_DP,
					 PW_WIRE_PEER_F_ALL }[net_below(rng, 3)];
		break;
	}
	default:	/* ACK */
		break;
	}
}

void net_gen_msg(struct pw_wire_msg *m, unsigned int type, uint64_t *rng)
{
	struct pw_wire_hdr *h = &m->hdr;

	memset(m, 0, sizeof(*m));
	h->type = type;
	h->src_node = net_rand(rng);
	h->dst_node = net_rand(rng);
	h->session = 1 + net_below(rng, UINT32_MAX);
	if (type == PW_WIRE_ACK || net_chance(rng, 700)) {
		h->flags |= PW_WIRE_F_ACK;
		h->ack_session = 1 + net_below(rng, UINT32_MAX);
		h->ack = net_rand(rng);
		h->sack = net_rand(rng);
	}
	if (type != PW_WIRE_ACK) {
		h->seq = net_rand(rng);
		h->base = h->seq - net_below(rng, PW_WIRE_MAX_WINDOW);
		if (net_chance(rng, 200))
			h->flags |= PW_WIRE_F_RETRANS;
	}
	gen_body(m, type, rng);
}

uint64_t net_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool net_same_addr(const struct sockaddr_in *a, const struct sockaddr_in *b)
{
	return a->sin_addr.s_addr == b->sin_addr.s_addr &&
	       a->sin_port == b->sin_port;
}

int net_ep_xmit(void *ctx, const void *dgram, size_t len)
{
	struct net_ep *e = ctx;

	if (net_chance(&e->rng, 50)) {
		e->dropped++;
		return 0;
	}
	return pw_transport_send(e->t, &e->peer, dgram, len);
}

void net_ep_msg(struct pw_wire_msg *m, unsigned int from, unsigned int id)
{
	memset(m, 0, sizeof(*m));
	m->hdr.type = PW_WIRE_DONE;
	m->body.done.run_id = id;
	m->body.done.host_id = from;
	m->body.done.ncmds = id * 3 + from;
}

int net_ep_pump(struct net_ep *e, unsigned int from, uint64_t now)
{
	struct pw_dgram dg[16];
	struct pw_wire_msg m, want;
	int n, i;

	n = pw_transport_recv_burst(e->t, dg, 16);
	for (i = 0; i < n; i++)
		pw_rchan_input(e->ch, dg[i].data, dg[i].len, now);
	while (pw_rchan_recv(e->ch, &m) == 1) {
		net_ep_msg(&want, from, e->expect);
		if (m.hdr.type != PW_WIRE_DONE ||
		    memcmp(&m.body.done, &want.body.done,
			   sizeof(want.body.done)))
			return -1;
		e->expect++;
	}
	pw_rchan_poll(e->ch, now);
	return n > 0;
}
