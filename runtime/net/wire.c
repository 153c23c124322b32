// SPDX-License-Identifier: GPL-2.0
/*
 * wire.c - the DCN control messages of include/pathways/wire.h: encode,
 * and decode that validates every byte before anything trusts it.
 *
 * A message image (struct pw_wire_msg) has the wire's layout with host-order
 * values, so a datagram is copied in or out and each multi-byte field is
 * converted in place. One validator serves both directions: encode
 * refuses exactly what decode would reject.
 */
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "pathways/wire.h"
#include "uapi/pwtpu.h"

static const char *const err_names[PW_WIRE_NERR] = {
	[PW_WIRE_OK] = "ok",
	[PW_WIRE_E_SHORT] = "short",
	[PW_WIRE_E_OVERSIZE] = "oversize",
	[PW_WIRE_E_MAGIC] = "magic",
	[PW_WIRE_E_VERSION] = "version",
	[PW_WIRE_E_TYPE] = "type",
	[PW_WIRE_E_LENGTH] = "length",
	[PW_WIRE_E_FLAGS] = "flags",
	[PW_WIRE_E_SEQ] = "seq",
	[PW_WIRE_E_BODY_SIZE] = "body_size",
	[PW_WIRE_E_COUNT] = "count",
	[PW_WIRE_E_RESERVED] = "reserved",
	[PW_WIRE_E_STRING] = "string",
	[PW_WIRE_E_VALUE] = "value",
};

static const char *const type_names[PW_WIRE_NTYPES] = {
	[PW_WIRE_ACK] = "ACK",
	[PW_WIRE_REGISTER] = "REGISTER",
	[PW_WIRE_REGISTER_ACK] = "REGISTER_ACK",
	[PW_WIRE_HEARTBEAT] = "HEARTBEAT",
	[PW_WIRE_CONNECT] = "CONNECT",
	[PW_WIRE_CONNECT_ACK] = "CONNECT_ACK",
	[PW_WIRE_PROGRAM] = "PROGRAM",
	[PW_WIRE_PROGRAM_ACK] = "PROGRAM_ACK",
	[PW_WIRE_RUN] = "RUN",
	[PW_WIRE_PLAN] = "PLAN",
	[PW_WIRE_DONE] = "DONE",
	[PW_WIRE_ERROR] = "ERROR",
	[PW_WIRE_FUNCTION] = "FUNCTION",
	[PW_WIRE_BUFFER] = "BUFFER",
	[PW_WIRE_STATUS] = "STATUS",
	[PW_WIRE_READY] = "READY",
	[PW_WIRE_CANCEL] = "CANCEL",
	[PW_WIRE_BYE] = "BYE",
	[PW_WIRE_SLICE] = "SLICE",
	[PW_WIRE_ADMIN] = "ADMIN",
	[PW_WIRE_PEER] = "PEER",
};

const char *pw_wire_err_name(enum pw_wire_err err)
{
	if ((unsigned int)err >= PW_WIRE_NERR)
		return "?";
	return err_names[err];
}

const char *pw_wire_type_name(unsigned int type)
{
	if (type == 0 || type >= PW_WIRE_NTYPES)
		return "?";
	return type_names[type];
}

/*
 * A body: @fixed bytes, then a count of @rec-byte records (or bytes), at
 * most @max (both 0 for fixed-size bodies).
 */
struct body_layout {
	uint16_t fixed;
	uint16_t rec;
	uint16_t max;
};

static const struct body_layout layouts[PW_WIRE_NTYPES] = {
	[PW_WIRE_ACK] = { 0, 0, 0 },
	[PW_WIRE_REGISTER] = { sizeof(struct pw_wire_register), 0, 0 },
	[PW_WIRE_REGISTER_ACK] = { sizeof(struct pw_wire_register_ack), 0, 0 },
	[PW_WIRE_HEARTBEAT] = { sizeof(struct pw_wire_heartbeat), 0, 0 },
	[PW_WIRE_CONNECT] = { sizeof(struct pw_wire_connect), 0, 0 },
	[PW_WIRE_CONNECT_ACK] = { sizeof(struct pw_wire_connect_ack), 0, 0 },
	[PW_WIRE_PROGRAM] = { offsetof(struct pw_wire_program, nodes),
			      sizeof(struct pw_wire_prog_node),
			      PW_WIRE_PROG_NODES },
	[PW_WIRE_PROGRAM_ACK] = { sizeof(struct pw_wire_program_ack), 0, 0 },
	[PW_WIRE_RUN] = { offsetof(struct pw_wire_run, ids),
			  sizeof(uint32_t), PW_WIRE_RUN_IDS },
	[PW_WIRE_PLAN] = { offsetof(struct pw_wire_plan, cmds),
			   sizeof(struct pw_wire_plan_cmd), PW_WIRE_PLAN_CMDS },
	[PW_WIRE_DONE] = { sizeof(struct pw_wire_done), 0, 0 },
	[PW_WIRE_ERROR] = { sizeof(struct pw_wire_error), 0, 0 },
	[PW_WIRE_FUNCTION] = { offsetof(struct pw_wire_function, data), 1,
			       PW_WIRE_FN_CHUNK },
	[PW_WIRE_BUFFER] = { offsetof(struct pw_wire_buffer, data), 1,
			     PW_WIRE_BUF_CHUNK },
	[PW_WIRE_STATUS] = { sizeof(struct pw_wire_status), 0, 0 },
	[PW_WIRE_READY] = { sizeof(struct pw_wire_ready), 0, 0 },
	[PW_WIRE_CANCEL] = { sizeof(struct pw_wire_cancel), 0, 0 },
	[PW_WIRE_BYE] = { sizeof(struct pw_wire_bye), 0, 0 },
	[PW_WIRE_SLICE] = { sizeof(struct pw_wire_slice), 0, 0 },
	[PW_WIRE_ADMIN] = { sizeof(struct pw_wire_admin), 0, 0 },
	[PW_WIRE_PEER] = { sizeof(struct pw_wire_peer), 0, 0 },
};

/* Records a variable body counts (host order); 0 for fixed bodies. */
static unsigned int body_count(const struct pw_wire_msg *m)
{
	switch (m->hdr.type) {
	case PW_WIRE_PROGRAM:
		return m->body.program.nnodes;
	case PW_WIRE_RUN:
		return m->body.run.nargs + m->body.run.nresults;
	case PW_WIRE_PLAN:
		return m->body.plan.ncmds;
	case PW_WIRE_FUNCTION:
		return m->body.function.nbytes;
	case PW_WIRE_BUFFER:
		return m->body.buffer.nbytes;
	default:
		return 0;
	}
}

static bool type_known(unsigned int type)
{
	return type != 0 && type < PW_WIRE_NTYPES;
}

int pw_wire_size(const struct pw_wire_msg *msg)
{
	const struct body_layout *l;
	unsigned int n;

	if (!type_known(msg->hdr.type))
		return -EINVAL;
	l = &layouts[msg->hdr.type];
	n = body_count(msg);
	if (n > l->max)
		return -EINVAL;
	return PW_WIRE_HDR_SIZE + l->fixed + n * l->rec;
}

/*
 * Byte order, in place: to the wire (@to_wire) or from it. The conversion
 * is its own inverse on either kind of host, but say which one is meant.
 */
#define ORD(f) ((f) = _Generic((f),					\
	uint16_t: to_wire ? htole16(f) : le16toh(f),			\
	uint32_t: to_wire ? htole32(f) : le32toh(f),			\
	uint64_t: to_wire ? htole64(f) : le64toh(f)))

static void order_hdr(struct pw_wire_hdr *h, bool to_wire)
{
	ORD(h->magic);
	ORD(h->flags);
	ORD(h->length);
	ORD(h->reserved);
	ORD(h->src_node);
	ORD(h->dst_node);
	ORD(h->session);
	ORD(h->seq);
	ORD(h->base);
	ORD(h->ack_session);
	ORD(h->ack);
	ORD(h->sack);
}

static void order_prog_node(struct pw_wire_prog_node *n, bool to_wire)
{
	unsigned int i;

	ORD(n->nshards);
	ORD(n->arg_index);
	ORD(n->fn_id);
	ORD(n->slice);
	for (i = 0; i < PW_WIRE_MAX_DIMS; i++)
		ORD(n->shape[i]);
	for (i = 0; i < PW_WIRE_MAX_BUFS; i++) {
		ORD(n->in[i].node);
		ORD(n->in[i].output);
	}
}

static void order_plan_cmd(struct pw_wire_plan_cmd *c, bool to_wire)
{
	unsigned int i;

	ORD(c->peer_host);
	ORD(c->fn_id);
	ORD(c->gang_id);
	ORD(c->bytes);
	ORD(c->peer_buf);
	ORD(c->slice);
	for (i = 0; i < PW_WIRE_MAX_BUFS; i++)
		ORD(c->bufs[i]);
}

/* The whole body of @type, every record slot included. */
static void order_body(struct pw_wire_msg *m, unsigned int type, bool to_wire)
{
	unsigned int i;

	switch (type) {
	case PW_WIRE_REGISTER: {
		struct pw_wire_register *b = &m->body.reg;

		ORD(b->host_id);
		ORD(b->island_id);
		ORD(b->ndevices);
		ORD(b->data_port);
		ORD(b->hbm_bytes);
		ORD(b->reserved2);
		break;
	}
	case PW_WIRE_REGISTER_ACK: {
		struct pw_wire_register_ack *b = &m->body.reg_ack;

		ORD(b->host_id);
		ORD(b->status);
		ORD(b->heartbeat_ms);
		ORD(b->down_ms);
		break;
	}
	case PW_WIRE_HEARTBEAT: {
		struct pw_wire_heartbeat *b = &m->body.heartbeat;

		ORD(b->time_ns);
		ORD(b->hbm_used);
		ORD(b->inflight);
		ORD(b->status);
		break;
	}
	case PW_WIRE_CONNECT:
		ORD(m->body.connect.pid);
		ORD(m->body.connect.reserved);
		break;
	case PW_WIRE_CONNECT_ACK: {
		struct pw_wire_connect_ack *b = &m->body.connect_ack;

		ORD(b->status);
		ORD(b->client_id);
		ORD(b->nislands);
		ORD(b->ndevices);
		break;
	}
	case PW_WIRE_PROGRAM: {
		struct pw_wire_program *b = &m->body.program;

		ORD(b->program_id);
		ORD(b->nnodes_total);
		ORD(b->first_node);
		ORD(b->nnodes);
		ORD(b->nargs);
		ORD(b->reserved);
		for (i = 0; i < PW_WIRE_PROG_NODES; i++)
			order_prog_node(&b->nodes[i], to_wire);
		break;
	}
	case PW_WIRE_PROGRAM_ACK: {
		struct pw_wire_program_ack *b = &m->body.program_ack;

		ORD(b->program_id);
		ORD(b->status);
		ORD(b->nnodes);
		ORD(b->reserved);
		for (i = 0; i < PW_WIRE_HOST_WORDS; i++)
			ORD(b->hosts[i]);
		break;
	}
	case PW_WIRE_RUN: {
		struct pw_wire_run *b = &m->body.run;

		ORD(b->program_id);
		ORD(b->run_id);
		ORD(b->client_send_ns);
		ORD(b->nargs);
		ORD(b->nresults);
		ORD(b->timeout_ms);
		for (i = 0; i < PW_WIRE_RUN_IDS; i++)
			ORD(b->ids[i]);
		break;
	}
	case PW_WIRE_PLAN: {
		struct pw_wire_plan *b = &m->body.plan;

		ORD(b->run_id);
		ORD(b->program_id);
		ORD(b->client);
		ORD(b->client_run);
		ORD(b->ncmds_total);
		ORD(b->first_cmd);
		ORD(b->ncmds);
		ORD(b->nhosts);
		ORD(b->client_send_ns);
		ORD(b->ctrl_recv_ns);
		ORD(b->ctrl_send_ns);
		for (i = 0; i < PW_WIRE_PLAN_CMDS; i++)
			order_plan_cmd(&b->cmds[i], to_wire);
		break;
	}
	case PW_WIRE_DONE: {
		struct pw_wire_done *b = &m->body.done;

		ORD(b->run_id);
		ORD(b->status);
		ORD(b->host_id);
		ORD(b->ncmds);
		ORD(b->client_send_ns);
		ORD(b->ctrl_recv_ns);
		ORD(b->ctrl_send_ns);
		ORD(b->worker_recv_ns);
		ORD(b->dev_start_ns);
		ORD(b->dev_end_ns);
		ORD(b->worker_send_ns);
		ORD(b->nhosts);
		ORD(b->reserved);
		break;
	}
	case PW_WIRE_ERROR:
		ORD(m->body.error.err);
		ORD(m->body.error.ref_id);
		ORD(m->body.error.ref_seq);
		break;
	case PW_WIRE_FUNCTION: {
		struct pw_wire_function *b = &m->body.function;

		ORD(b->fn_id);
		ORD(b->client);
		ORD(b->total);
		ORD(b->offset);
		ORD(b->nbytes);
		ORD(b->reserved);
		ORD(b->reserved2);
		break;
	}
	case PW_WIRE_BUFFER: {
		struct pw_wire_buffer *b = &m->body.buffer;

		ORD(b->host);
		ORD(b->flags);
		ORD(b->client);
		ORD(b->id);
		ORD(b->total);
		ORD(b->offset);
		ORD(b->nbytes);
		ORD(b->reserved2);
		for (i = 0; i < PW_WIRE_MAX_DIMS; i++)
			ORD(b->shape[i]);
		ORD(b->slice);
		break;
	}
	case PW_WIRE_STATUS: {
		struct pw_wire_status *b = &m->body.status;

		ORD(b->status);
		ORD(b->client);
		ORD(b->ref_id);
		ORD(b->value);
		break;
	}
	case PW_WIRE_READY: {
		struct pw_wire_ready *b = &m->body.ready;

		ORD(b->run_id);
		ORD(b->src_host);
		ORD(b->dst_host);
		ORD(b->handle);
		ORD(b->cookie);
		ORD(b->data_port);
		ORD(b->reserved);
		break;
	}
	case PW_WIRE_CANCEL:
		ORD(m->body.cancel.run_id);
		ORD(m->body.cancel.status);
		break;
	case PW_WIRE_BYE:
		ORD(m->body.bye.client);
		ORD(m->body.bye.reserved);
		break;
	case PW_WIRE_SLICE: {
		struct pw_wire_slice *b = &m->body.slice;

		ORD(b->members);
		ORD(b->host);
		ORD(b->client);
		ORD(b->id);
		for (i = 0; i < PW_WIRE_MAX_DIMS; i++)
			ORD(b->shape[i]);
		ORD(b->hbm_bytes);
		break;
	}
	case PW_WIRE_ADMIN:
		ORD(m->body.admin.op);
		ORD(m->body.admin.host);
		ORD(m->body.admin.id);
		ORD(m->body.admin.value);
		ORD(m->body.admin.window);
		break;
	case PW_WIRE_PEER:
		ORD(m->body.peer.node);
		ORD(m->body.peer.host);
		ORD(m->body.peer.port);
		ORD(m->body.peer.flags);
		break;
	default:	/* ACK: no body */
		break;
	}
}

/* NUL-terminated and NUL-padded: nothing hides after the string. */
static bool string_ok(const char *s, size_t n)
{
	const char *nul = memchr(s, 0, n);

	if (!nul)
		return false;
	for (; nul < s + n; nul++)
		if (*nul)
			return false;
	return true;
}

static bool zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/* Everything in the header but magic, version, type and length. */
static enum pw_wire_err check_hdr_fields(const struct pw_wire_hdr *h)
{
	if (h->flags & ~PW_WIRE_F_ALL)
		return PW_WIRE_E_FLAGS;
	if (h->reserved)
		return PW_WIRE_E_RESERVED;
	if (!h->session)
		return PW_WIRE_E_SEQ;
	if (h->flags & PW_WIRE_F_ACK) {
		if (!h->ack_session)
			return PW_WIRE_E_SEQ;
	} else if (h->ack_session || h->ack || h->sack) {
		return PW_WIRE_E_SEQ;
	}
	if (h->type == PW_WIRE_ACK) {
		/* Nothing to number, nothing to retransmit, all to ack. */
		if (h->seq || h->base || !(h->flags & PW_WIRE_F_ACK) ||
		    (h->flags & PW_WIRE_F_RETRANS))
			return PW_WIRE_E_SEQ;
	} else if ((uint32_t)(h->seq - h->base) >= PW_WIRE_MAX_WINDOW) {
		return PW_WIRE_E_SEQ;
	}
	return PW_WIRE_OK;
}

static enum pw_wire_err check_register(const struct pw_wire_register *b)
{
	if (b->reserved || b->reserved2)
		return PW_WIRE_E_RESERVED;
	if (!string_ok(b->mesh, sizeof(b->mesh)))
		return PW_WIRE_E_STRING;
	/* data_port 0: no data plane (an in-process worker). */
	if (!b->ndevices || b->ndevices > PW_WIRE_MAX_DEVICES ||
	    (!b->data_port && b->has_rdma) || b->has_rdma > 1 || !b->mesh[0])
		return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_register_ack(const struct pw_wire_register_ack *b)
{
	if (!b->status && (!b->heartbeat_ms || b->down_ms <= b->heartbeat_ms))
		return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_connect_ack(const struct pw_wire_connect_ack *b)
{
	unsigned int i;

	/* An island has at most PW_WIRE_MAX_DEVICES, as REGISTER says. */
	for (i = 0; i < PW_WIRE_MAX_HOSTS; i++)
		if (b->host_devices[i] > PW_WIRE_MAX_DEVICES)
			return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

/* Node @index of program @p. */
static enum pw_wire_err check_prog_node(const struct pw_wire_prog_node *n,
					const struct pw_wire_program *p,
					unsigned int index)
{
	unsigned int i;

	if (n->nin > PW_WIRE_MAX_BUFS || n->ndims > PW_WIRE_MAX_DIMS ||
	    n->nshards > PW_WIRE_MAX_DEVICES)
		return PW_WIRE_E_COUNT;
	if (!zero(&n->shape[n->ndims],
		  (PW_WIRE_MAX_DIMS - n->ndims) * sizeof(n->shape[0])) ||
	    !zero(&n->in[n->nin],
		  (PW_WIRE_MAX_BUFS - n->nin) * sizeof(n->in[0])))
		return PW_WIRE_E_RESERVED;
	if (n->kind < PW_WIRE_NODE_ARG || n->kind > PW_WIRE_NODE_RESULT)
		return PW_WIRE_E_VALUE;
	if (n->arg_index != PW_WIRE_NO_ARG && n->arg_index >= p->nargs)
		return PW_WIRE_E_VALUE;
	/* Edges only from earlier nodes: a program is acyclic by layout. */
	for (i = 0; i < n->nin; i++)
		if (n->in[i].node >= index)
			return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_program(const struct pw_wire_program *b)
{
	enum pw_wire_err err;
	unsigned int i;

	if (!b->nnodes || b->nnodes > PW_WIRE_PROG_NODES ||
	    !b->nnodes_total || b->nnodes_total > PW_WIRE_MAX_PROG_NODES ||
	    b->first_node + b->nnodes > b->nnodes_total ||
	    b->nargs > PW_WIRE_RUN_IDS)
		return PW_WIRE_E_COUNT;
	if (b->reserved)
		return PW_WIRE_E_RESERVED;
	for (i = 0; i < b->nnodes; i++) {
		err = check_prog_node(&b->nodes[i], b, b->first_node + i);
		if (err)
			return err;
	}
	return PW_WIRE_OK;
}

static enum pw_wire_err check_run(const struct pw_wire_run *b)
{
	if (b->nargs + b->nresults > PW_WIRE_RUN_IDS)
		return PW_WIRE_E_COUNT;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_plan_cmd(const struct pw_wire_plan_cmd *c)
{
	unsigned int used = c->nin + c->nout;

	if (used > PW_WIRE_MAX_BUFS)
		return PW_WIRE_E_COUNT;
	if (c->reserved ||
	    (c->op != PW_WIRE_CMD_DCN_SEND && c->op != PW_WIRE_CMD_COPY_PEER &&
	     c->peer_buf) ||
	    (c->op != PW_WIRE_CMD_EXEC && (c->slice || c->gang_id)) ||
	    (!c->gang_id != !c->slice) ||
	    !zero(&c->bufs[used],
		  (PW_WIRE_MAX_BUFS - used) * sizeof(c->bufs[0])))
		return PW_WIRE_E_RESERVED;
	if (c->op < PW_WIRE_CMD_NOP || c->op >= PW_WIRE_CMD_NOPS ||
	    c->dev >= PW_WIRE_MAX_DEVICES || c->peer_dev >= PW_WIRE_MAX_DEVICES)
		return PW_WIRE_E_VALUE;
	/* A copy gathers its inputs' bytes into one output. */
	if (c->op == PW_WIRE_CMD_COPY_PEER && (!c->nin || c->nout != 1))
		return PW_WIRE_E_COUNT;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_plan(const struct pw_wire_plan *b)
{
	enum pw_wire_err err;
	unsigned int i;

	if (!b->ncmds || b->ncmds > PW_WIRE_PLAN_CMDS ||
	    !b->ncmds_total || b->ncmds_total > PW_WIRE_MAX_PLAN_CMDS ||
	    b->first_cmd + b->ncmds > b->ncmds_total)
		return PW_WIRE_E_COUNT;
	if (!b->nhosts || b->nhosts > PW_WIRE_MAX_HOSTS)
		return PW_WIRE_E_COUNT;
	for (i = 0; i < b->ncmds; i++) {
		err = check_plan_cmd(&b->cmds[i]);
		if (err)
			return err;
	}
	return PW_WIRE_OK;
}

static enum pw_wire_err check_error(const struct pw_wire_error *b)
{
	if (!zero(b->reserved, sizeof(b->reserved)))
		return PW_WIRE_E_RESERVED;
	if (!string_ok(b->msg, sizeof(b->msg)))
		return PW_WIRE_E_STRING;
	if (!b->err || b->ref_type >= PW_WIRE_NTYPES)
		return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_function(const struct pw_wire_function *b)
{
	/* In 64 bits: offset + nbytes must not wrap past total. */
	if (b->total < PW_WIRE_FN_DESC_SIZE ||
	    b->total > PW_WIRE_MAX_FN_BYTES ||
	    !b->nbytes || b->nbytes > PW_WIRE_FN_CHUNK ||
	    (uint64_t)b->offset + b->nbytes > b->total)
		return PW_WIRE_E_COUNT;
	if (b->reserved || b->reserved2)
		return PW_WIRE_E_RESERVED;
	if (!b->fn_id)
		return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

/* BUFFER over the data plane: CREATE without bytes, READ with a target. */
static enum pw_wire_err check_buffer_dp(const struct pw_wire_buffer *b)
{
	if (b->op == PW_WIRE_BUF_CREATE)
		return !b->total || b->nbytes || b->offset ? PW_WIRE_E_COUNT :
							    PW_WIRE_OK;
	if (b->op != PW_WIRE_BUF_READ)
		return PW_WIRE_E_VALUE;
	if (b->nbytes != PW_WIRE_BUF_DP_TARGET)
		return PW_WIRE_E_COUNT;
	if (b->data[PW_WIRE_BUF_DP_TARGET - 2] ||
	    b->data[PW_WIRE_BUF_DP_TARGET - 1])
		return PW_WIRE_E_RESERVED;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_buffer(const struct pw_wire_buffer *b)
{
	bool create = b->op == PW_WIRE_BUF_CREATE;
	bool carries = create || b->op == PW_WIRE_BUF_WRITE ||
		       b->op == PW_WIRE_BUF_DATA;
	bool dp = b->flags & PW_WIRE_BUF_F_DP;
	enum pw_wire_err err;

	if (b->op < PW_WIRE_BUF_CREATE || b->op >= PW_WIRE_BUF_NOPS)
		return PW_WIRE_E_VALUE;
	if (b->flags & ~PW_WIRE_BUF_F_DP)
		return PW_WIRE_E_RESERVED;
	if (dp) {
		err = check_buffer_dp(b);
		if (err)
			return err;
	} else if (carries) {
		if (!b->total || b->total > PW_WIRE_MAX_BUF_BYTES ||
		    !b->nbytes || b->nbytes > PW_WIRE_BUF_CHUNK ||
		    (uint64_t)b->offset + b->nbytes > b->total ||
		    (create && b->offset))
			return PW_WIRE_E_COUNT;
	} else if (b->nbytes) {
		return PW_WIRE_E_COUNT;	/* READ, FREE carry no data */
	}
	if (b->rank > PW_WIRE_MAX_DIMS)
		return PW_WIRE_E_COUNT;
	if (b->reserved2 ||
	    !zero(&b->shape[b->rank],
		  (PW_WIRE_MAX_DIMS - b->rank) * sizeof(b->shape[0])))
		return PW_WIRE_E_RESERVED;
	/* What only CREATE describes, and what READ and FREE do not use. */
	if (!create && (b->dtype || b->rank || b->dev))
		return PW_WIRE_E_RESERVED;
	if (!carries && (b->total || b->offset))
		return PW_WIRE_E_RESERVED;
	if ((b->id & PW_WIRE_BUF_TEMP) || b->host >= PW_WIRE_MAX_HOSTS)
		return PW_WIRE_E_VALUE;
	/* A shard named by its slice names no place of its own. */
	if (b->slice && (b->host || b->dev))
		return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_slice(const struct pw_wire_slice *b)
{
	bool group = b->op == PW_WIRE_SLICE_GROUP;
	bool make = b->op == PW_WIRE_SLICE_MAKE || group;
	unsigned int i;

	if (b->op < PW_WIRE_SLICE_MAKE || b->op >= PW_WIRE_SLICE_NOPS)
		return PW_WIRE_E_VALUE;
	if (b->n > PW_WIRE_MAX_DEVICES || b->ndims > PW_WIRE_MAX_DIMS ||
	    b->members > PW_WIRE_MAX_HOSTS || (group && b->members < 2))
		return PW_WIRE_E_COUNT;
	if ((!group && b->members) || (group && (b->flags || b->hbm_bytes)) ||
	    (b->flags & ~(PW_WIRE_SLICE_PINNED | PW_WIRE_SLICE_NEAR)) ||
	    !zero(&b->shape[b->ndims],
		  (PW_WIRE_MAX_DIMS - b->ndims) * sizeof(b->shape[0])) ||
	    !zero(&b->devices[b->n], PW_WIRE_MAX_DEVICES - b->n))
		return PW_WIRE_E_RESERVED;
	if (!make && (b->flags || b->n || b->ndims || b->hbm_bytes))
		return PW_WIRE_E_RESERVED;
	if (!b->id || (make && !b->n) ||
	    (b->host >= PW_WIRE_MAX_HOSTS && b->host != PW_WIRE_ANY_HOST) ||
	    ((b->flags & PW_WIRE_SLICE_NEAR) &&
	     ((b->flags & PW_WIRE_SLICE_PINNED) ||
	      b->host == PW_WIRE_ANY_HOST)) ||
	    (group && (b->host != PW_WIRE_ANY_HOST ||
		       b->id > UINT32_MAX - b->members ||
		       ((b->id + b->members) & PW_WIRE_BUF_TEMP))))
		return PW_WIRE_E_VALUE;
	for (i = 0; i < b->n; i++)
		if (b->devices[i] >= PW_WIRE_MAX_DEVICES)
			return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_status(const struct pw_wire_status *b)
{
	if (!zero(b->reserved, sizeof(b->reserved)))
		return PW_WIRE_E_RESERVED;
	if (b->ref_type != PW_WIRE_FUNCTION && b->ref_type != PW_WIRE_BUFFER &&
	    b->ref_type != PW_WIRE_SLICE && b->ref_type != PW_WIRE_ADMIN)
		return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

static enum pw_wire_err check_admin(const struct pw_wire_admin *b)
{
	bool weight = b->op == PW_WIRE_ADMIN_WEIGHT;
	bool device = b->op == PW_WIRE_ADMIN_DEVICE_OUT ||
		      b->op == PW_WIRE_ADMIN_DEVICE_IN;

	if (b->op < PW_WIRE_ADMIN_WEIGHT || b->op >= PW_WIRE_ADMIN_NOPS)
		return PW_WIRE_E_VALUE;
	if ((!device && b->host) || ((weight || device) && b->window) ||
	    (!weight && !zero(b->name, sizeof(b->name))))
		return PW_WIRE_E_RESERVED;
	if (!string_ok(b->name, sizeof(b->name)))
		return PW_WIRE_E_STRING;
	if (!b->id)
		return PW_WIRE_E_VALUE;
	if (device ? b->host >= PW_WIRE_MAX_HOSTS ||
		     b->value >= PW_WIRE_MAX_DEVICES :
	    weight ? !b->value || b->value > PW_WIRE_MAX_WEIGHT :
	    b->value >= PW_WIRE_SCHED_NPOLICIES)
		return PW_WIRE_E_VALUE;
	if (b->window > PW_WIRE_MAX_SHARE_WINDOW)
		return PW_WIRE_E_COUNT;
	return PW_WIRE_OK;
}

/* @desc is the data plane's: its own unpack checks those bytes. */
static enum pw_wire_err check_ready(const struct pw_wire_ready *b)
{
	if (b->reserved)
		return PW_WIRE_E_RESERVED;
	if (b->src_host >= PW_WIRE_MAX_HOSTS ||
	    b->dst_host >= PW_WIRE_MAX_HOSTS)
		return PW_WIRE_E_VALUE;
	return PW_WIRE_OK;
}

/* The body of a message whose header and size already passed. */
static enum pw_wire_err check_body(const struct pw_wire_msg *m)
{
	switch (m->hdr.type) {
	case PW_WIRE_REGISTER:
		return check_register(&m->body.reg);
	case PW_WIRE_REGISTER_ACK:
		return check_register_ack(&m->body.reg_ack);
	case PW_WIRE_CONNECT:
		if (m->body.connect.reserved)
			return PW_WIRE_E_RESERVED;
		if (!string_ok(m->body.connect.name,
			       sizeof(m->body.connect.name)))
			return PW_WIRE_E_STRING;
		return PW_WIRE_OK;
	case PW_WIRE_CONNECT_ACK:
		return check_connect_ack(&m->body.connect_ack);
	case PW_WIRE_PROGRAM:
		return check_program(&m->body.program);
	case PW_WIRE_PROGRAM_ACK:
		if (m->body.program_ack.reserved)
			return PW_WIRE_E_RESERVED;
		return PW_WIRE_OK;
	case PW_WIRE_RUN:
		return check_run(&m->body.run);
	case PW_WIRE_PLAN:
		return check_plan(&m->body.plan);
	case PW_WIRE_ERROR:
		return check_error(&m->body.error);
	case PW_WIRE_FUNCTION:
		return check_function(&m->body.function);
	case PW_WIRE_BUFFER:
		return check_buffer(&m->body.buffer);
	case PW_WIRE_STATUS:
		return check_status(&m->body.status);
	case PW_WIRE_READY:
		return check_ready(&m->body.ready);
	case PW_WIRE_CANCEL:
		if (!m->body.cancel.status)
			return PW_WIRE_E_VALUE;
		return PW_WIRE_OK;
	case PW_WIRE_BYE:
		return m->body.bye.reserved ? PW_WIRE_E_RESERVED : PW_WIRE_OK;
	case PW_WIRE_SLICE:
		return check_slice(&m->body.slice);
	case PW_WIRE_ADMIN:
		return check_admin(&m->body.admin);
	case PW_WIRE_DONE:
		if (m->body.done.reserved)
			return PW_WIRE_E_RESERVED;
		return m->body.done.nhosts > PW_WIRE_MAX_HOSTS ?
		       PW_WIRE_E_COUNT : PW_WIRE_OK;
	case PW_WIRE_PEER:
		if (m->body.peer.flags & ~PW_WIRE_PEER_F_ALL ||
		    m->body.peer.flags == PW_WIRE_PEER_F_RDMA)
			return PW_WIRE_E_RESERVED;
		if (!m->body.peer.node || !m->body.peer.port ||
		    (m->body.peer.host >= PW_WIRE_MAX_HOSTS &&
		     m->body.peer.host != PW_WIRE_ANY_HOST))
			return PW_WIRE_E_VALUE;
		return PW_WIRE_OK;
	default:	/* ACK, HEARTBEAT: any values */
		return PW_WIRE_OK;
	}
}

/*
 * Body size against the type, once the fixed part is in @m (so that a
 * variable body's count can be read): @body_len bytes followed the header.
 */
static enum pw_wire_err check_body_size(const struct pw_wire_msg *m,
					size_t body_len)
{
	const struct body_layout *l = &layouts[m->hdr.type];
	unsigned int n;

	if (!l->rec)
		return body_len == l->fixed ? PW_WIRE_OK : PW_WIRE_E_BODY_SIZE;
	if (body_len < l->fixed)
		return PW_WIRE_E_BODY_SIZE;
	n = body_count(m);
	if (n > l->max)
		return PW_WIRE_E_COUNT;
	if (body_len != l->fixed + (size_t)n * l->rec)
		return PW_WIRE_E_BODY_SIZE;
	return PW_WIRE_OK;
}

int pw_wire_encode(const struct pw_wire_msg *msg, void *buf, size_t cap)
{
	struct pw_wire_msg m;
	int len = pw_wire_size(msg);

	if (len < 0)
		return len;
	if ((size_t)len > cap)
		return -ENOSPC;
	m = *msg;
	m.hdr.magic = PW_WIRE_MAGIC;
	m.hdr.version = PW_WIRE_VERSION;
	m.hdr.length = len;
	if (check_hdr_fields(&m.hdr) || check_body(&m))
		return -EINVAL;
	order_hdr(&m.hdr, true);
	order_body(&m, msg->hdr.type, true);
	memcpy(buf, &m, len);
	return len;
}

enum pw_wire_err pw_wire_decode(struct pw_wire_msg *msg, const void *buf,
				size_t len)
{
	struct pw_wire_hdr *h = &msg->hdr;
	enum pw_wire_err err;

	memset(msg, 0, sizeof(*msg));
	if (len < PW_WIRE_HDR_SIZE)
		return PW_WIRE_E_SHORT;
	if (len > PW_WIRE_MAX_DGRAM)
		return PW_WIRE_E_OVERSIZE;
	memcpy(h, buf, PW_WIRE_HDR_SIZE);
	order_hdr(h, false);
	if (h->magic != PW_WIRE_MAGIC)
		return PW_WIRE_E_MAGIC;
	if (h->version != PW_WIRE_VERSION)
		return PW_WIRE_E_VERSION;
	if (!type_known(h->type))
		return PW_WIRE_E_TYPE;
	if (h->length != len)
		return PW_WIRE_E_LENGTH;
	err = check_hdr_fields(h);
	if (err)
		return err;
	memcpy(msg->body.raw, (const uint8_t *)buf + PW_WIRE_HDR_SIZE,
	       len - PW_WIRE_HDR_SIZE);
	order_body(msg, h->type, false);
	err = check_body_size(msg, len - PW_WIRE_HDR_SIZE);
	if (err)
		return err;
	return check_body(msg);
}

static void put16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

void pw_wire_patch_ack(void *buf, uint16_t flags, uint32_t base,
		       uint32_t ack_session, uint32_t ack, uint64_t sack)
{
	uint8_t *p = buf;

	if (!(flags & PW_WIRE_F_ACK))
		ack_session = ack = sack = 0;
	put16(p + offsetof(struct pw_wire_hdr, flags), flags);
	put32(p + offsetof(struct pw_wire_hdr, base), base);
	put32(p + offsetof(struct pw_wire_hdr, ack_session), ack_session);
	put32(p + offsetof(struct pw_wire_hdr, ack), ack);
	put64(p + offsetof(struct pw_wire_hdr, sack), sack);
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/* Byte offsets of the payload head: the struct's layout (wire.h checks). */
#define FN_OFF(f) offsetof(struct pw_wire_fn_desc, f)
#define SIG_OFF(i, f) (FN_OFF(sigs) + (i) * sizeof(struct pw_wire_sig) + \
		       offsetof(struct pw_wire_sig, f))

void pw_wire_fn_desc_pack(const struct pw_wire_fn_desc *d,
			  uint8_t out[PW_WIRE_FN_DESC_SIZE])
{
	unsigned int i, k;

	put32(out + FN_OFF(nparams), d->nparams);
	put32(out + FN_OFF(nresults), d->nresults);
	put32(out + FN_OFF(nbufs), d->nbufs);
	put32(out + FN_OFF(scratch_buf), (uint32_t)d->scratch_buf);
	put32(out + FN_OFF(const_buf), (uint32_t)d->const_buf);
	put32(out + FN_OFF(image_bytes), d->image_bytes);
	put64(out + FN_OFF(scratch_bytes), d->scratch_bytes);
	put64(out + FN_OFF(const_bytes), d->const_bytes);
	put32(out + FN_OFF(flags), d->flags);
	put32(out + FN_OFF(group_size), d->group_size);
	put32(out + FN_OFF(permute_shift), (uint32_t)d->permute_shift);
	put32(out + FN_OFF(reserved), d->reserved);
	for (i = 0; i < PW_WIRE_MAX_BUFS; i++) {
		const struct pw_wire_sig *s = &d->sigs[i];

		out[SIG_OFF(i, dtype)] = s->dtype;
		out[SIG_OFF(i, rank)] = s->rank;
		put16(out + SIG_OFF(i, reserved), s->reserved);
		for (k = 0; k < PW_WIRE_MAX_DIMS; k++)
			put32(out + SIG_OFF(i, shape[k]), s->shape[k]);
	}
}

/* A binding of scratch or constants: none, or one after the results. */
static bool extra_buf_ok(int32_t buf, const struct pw_wire_fn_desc *d)
{
	return buf == -1 ||
	       (buf >= 0 && (uint32_t)buf >= d->nparams + d->nresults &&
		(uint32_t)buf < d->nbufs);
}

static bool sig_ok(const struct pw_wire_sig *s)
{
	return pwtpu_dtype_size(s->dtype) && s->rank <= PW_WIRE_MAX_DIMS &&
	       !s->reserved &&
	       zero(&s->shape[s->rank],
		    (PW_WIRE_MAX_DIMS - s->rank) * sizeof(s->shape[0]));
}

uint64_t pw_wire_sig_bytes(const struct pw_wire_sig *s)
{
	uint64_t n = pwtpu_dtype_size(s->dtype);
	unsigned int i;

	/* Four u32 extents can wrap a u64: such a tensor has no size. */
	for (i = 0; i < s->rank && i < PW_WIRE_MAX_DIMS; i++)
		if (__builtin_mul_overflow(n, s->shape[i], &n))
			return 0;
	return n;
}

int pw_wire_fn_desc_unpack(const uint8_t *in, uint32_t payload_bytes,
			   struct pw_wire_fn_desc *d)
{
	unsigned int i, k, nsigs;

	memset(d, 0, sizeof(*d));
	d->nparams = get32(in + FN_OFF(nparams));
	d->nresults = get32(in + FN_OFF(nresults));
	d->nbufs = get32(in + FN_OFF(nbufs));
	d->scratch_buf = (int32_t)get32(in + FN_OFF(scratch_buf));
	d->const_buf = (int32_t)get32(in + FN_OFF(const_buf));
	d->image_bytes = get32(in + FN_OFF(image_bytes));
	d->scratch_bytes = get64(in + FN_OFF(scratch_bytes));
	d->const_bytes = get64(in + FN_OFF(const_bytes));
	d->flags = get32(in + FN_OFF(flags));
	d->group_size = get32(in + FN_OFF(group_size));
	d->permute_shift = (int32_t)get32(in + FN_OFF(permute_shift));
	d->reserved = get32(in + FN_OFF(reserved));
	for (i = 0; i < PW_WIRE_MAX_BUFS; i++) {
		struct pw_wire_sig *s = &d->sigs[i];

		s->dtype = in[SIG_OFF(i, dtype)];
		s->rank = in[SIG_OFF(i, rank)];
		s->reserved = get16(in + SIG_OFF(i, reserved));
		for (k = 0; k < PW_WIRE_MAX_DIMS; k++)
			s->shape[k] = get32(in + SIG_OFF(i, shape[k]));
	}

	if ((d->flags & ~PW_WIRE_FN_FLAGS) || d->reserved ||
	    (!(d->flags & PW_WIRE_FN_COLLECTIVES) &&
	     (d->flags || d->group_size)) ||
	    (!(d->flags & PW_WIRE_FN_PERMUTE) && d->permute_shift) ||
	    d->group_size > PW_WIRE_MAX_DEVICES)
		return -EINVAL;
	/* Bounding nbufs first keeps every sum below small. */
	if (d->nbufs > PW_WIRE_MAX_BUFS || d->nparams > d->nbufs ||
	    d->nresults > d->nbufs - d->nparams)
		return -EINVAL;
	nsigs = d->nparams + d->nresults;
	if (!extra_buf_ok(d->scratch_buf, d) ||
	    !extra_buf_ok(d->const_buf, d) ||
	    (d->scratch_buf >= 0 && d->scratch_buf == d->const_buf))
		return -EINVAL;
	if (d->nbufs != nsigs + (d->scratch_buf >= 0) + (d->const_buf >= 0))
		return -EINVAL;
	if ((d->scratch_bytes == 0) != (d->scratch_buf == -1) ||
	    (d->const_bytes == 0) != (d->const_buf == -1))
		return -EINVAL;
	/* Each term is below 2^32 or checked to be: the sum cannot wrap. */
	if (!d->image_bytes || d->const_bytes > UINT32_MAX ||
	    (uint64_t)PW_WIRE_FN_DESC_SIZE + d->image_bytes + d->const_bytes !=
	    payload_bytes)
		return -EINVAL;
	for (i = 0; i < nsigs; i++)
		if (!sig_ok(&d->sigs[i]))
			return -EINVAL;
	if (!zero(&d->sigs[nsigs],
		  (PW_WIRE_MAX_BUFS - nsigs) * sizeof(d->sigs[0])))
		return -EINVAL;
	return 0;
}
