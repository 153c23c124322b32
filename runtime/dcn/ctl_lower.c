// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_lower.c - the controller lowers a remote client's program once, when
 * its last node arrives: every value gets a place (host, device) and a
 * symbolic handle (an argument, a result, or a temporary of the run), and
 * every computation becomes an EXEC on its host. An input made on another
 * device of the same island gets a COPY_PEER there; one made on another
 * island gets a DCN_RECV on the consumer's host and a DCN_SEND on the
 * producer's (a cross-island edge over the data plane). A value goes to
 * each (host, device) that needs it once. Runs then only substitute the
 * client's buffer ids for the symbols.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "roles.h"

/* A value: an argument or one output of a computation. */
struct val {
	uint16_t host;
	uint8_t dev;
	bool computed;
	struct pw_wire_sig sig;
	uint32_t sym;
};

/* A copy of value @val moved to (@host, @dev), as temporary @sym. */
struct moved {
	unsigned int val;
	uint16_t host;
	uint8_t dev;
	uint32_t sym;
};

struct lowering {
	struct pw_controller *c;
	struct pw_ctl_program *prog;
	struct val *vals;
	unsigned int *first;	/* per node: its first value */
	struct moved *moved;
	unsigned int nmoved;
	unsigned int ntemps;
	unsigned int cap;	/* room in prog->cmds and moved */
};

static bool sig_equal(const struct pw_wire_sig *a, const struct pw_wire_sig *b)
{
	return a->dtype == b->dtype && a->rank == b->rank &&
	       !memcmp(a->shape, b->shape, sizeof(a->shape));
}

static int place_ok(struct pw_controller *c, unsigned int host,
		    unsigned int dev)
{
	if (host >= PW_MAX_HOSTS || !c->isl[host].used || !c->isl[host].up)
		return -EHOSTDOWN;
	if (dev >= c->isl[host].reg.ndevices)
		return -ENODEV;
	return 0;
}

static unsigned int node_outputs(struct lowering *l, unsigned int n)
{
	return l->first[n + 1] - l->first[n];
}

/* The value edge @e of node @n reads, or -EINVAL. */
static int edge_val(struct lowering *l, unsigned int n,
		    const struct pw_wire_edge *e)
{
	if (e->node >= n || e->output >= node_outputs(l, e->node))
		return -EINVAL;
	return (int)(l->first[e->node] + e->output);
}

/* Pass 1: values, their places and symbols; results renamed. */
static int assign_values(struct lowering *l)
{
	struct pw_ctl_program *prog = l->prog;
	unsigned int n, i, nv = 0;
	bool have_result = false;
	int ret, v;

	for (n = 0; n < prog->nnodes; n++) {
		const struct pw_wire_prog_node *nd = &prog->nodes[n];
		struct pw_ctl_fn *fn;

		l->first[n] = nv;
		switch (nd->kind) {
		case PW_WIRE_NODE_ARG:
			if (nd->nshards != 1 || nd->arg_index >= prog->nargs)
				return -EINVAL;
			ret = place_ok(l->c, nd->host, nd->dev);
			if (ret)
				return ret;
			l->vals[nv] = (struct val){ .host = nd->host, .dev = nd->dev,
				.sym = PW_CTL_SYM_ARG | nd->arg_index };
			l->vals[nv].sig.dtype = nd->dtype;
			l->vals[nv].sig.rank = nd->ndims;
			memcpy(l->vals[nv].sig.shape, nd->shape,
			       sizeof(nd->shape));
			nv++;
			break;
		case PW_WIRE_NODE_COMPUTE:
			fn = pw_ctl_fn_find(l->c, prog->client, nd->fn_id);
			if (!fn || !fn->pl.complete)
				return -ENOENT;
			if (nd->nshards != 1 || nd->nin != fn->pl.desc.nparams)
				return -EINVAL;
			ret = place_ok(l->c, nd->host, nd->dev);
			if (ret)
				return ret;
			for (i = 0; i < fn->pl.desc.nresults; i++)
				l->vals[nv++] = (struct val){
					.host = nd->host, .dev = nd->dev,
					.computed = true,
					.sig = fn->pl.desc.sigs[nd->nin + i],
					.sym = PW_WIRE_BUF_TEMP | l->ntemps++ };
			break;
		case PW_WIRE_NODE_RESULT:
			if (have_result)
				return -EINVAL;
			have_result = true;
			l->first[n + 1] = nv;
			for (i = 0; i < nd->nin; i++) {
				v = edge_val(l, n, &nd->in[i]);
				if (v < 0)
					return v;
				/* Results are computed, each value once. */
				if (!l->vals[v].computed ||
				    !(l->vals[v].sym & PW_WIRE_BUF_TEMP))
					return -EINVAL;
				l->vals[v].sym = PW_CTL_SYM_RESULT | i;
			}
			prog->nresults = nd->nin;
			break;
		default:
			return -EINVAL;
		}
		l->first[n + 1] = nv;
	}
	return 0;
}

static struct pw_ctl_cmd *emit(struct lowering *l, unsigned int host,
			       uint8_t op, unsigned int dev)
{
	struct pw_ctl_program *prog = l->prog;
	struct pw_ctl_cmd *k;

	if (prog->ncmds == l->cap ||
	    prog->host_cmds[host] == PW_WIRE_MAX_PLAN_CMDS)
		return NULL;
	k = &prog->cmds[prog->ncmds++];
	memset(k, 0, sizeof(*k));
	k->host = (uint16_t)host;
	k->c.op = op;
	k->c.dev = (uint8_t)dev;
	prog->host_cmds[host]++;
	prog->hosts |= 1ull << host;
	return k;
}

/* The handle of value @v on (@host, @dev), moving it there if needed. */
static int value_at(struct lowering *l, unsigned int v, unsigned int host,
		    unsigned int dev, uint32_t *sym)
{
	const struct val *src = &l->vals[v];
	uint64_t bytes = pw_wire_sig_bytes(&src->sig);
	struct pw_ctl_cmd *k, *s;
	unsigned int i;

	if (src->host == host && src->dev == dev) {
		*sym = src->sym;
		return 0;
	}
	for (i = 0; i < l->nmoved; i++)
		if (l->moved[i].val == v && l->moved[i].host == host &&
		    l->moved[i].dev == dev) {
			*sym = l->moved[i].sym;
			return 0;
		}
	if (l->nmoved == l->cap)
		return -E2BIG;
	*sym = PW_WIRE_BUF_TEMP | l->ntemps++;
	l->moved[l->nmoved++] = (struct moved){ .val = v, .host = (uint16_t)host,
						.dev = (uint8_t)dev, .sym = *sym };
	if (src->host == host) {
		k = emit(l, host, PW_WIRE_CMD_COPY_PEER, dev);
		if (!k)
			return -E2BIG;
		k->c.peer_dev = src->dev;
		k->c.nin = 1;
		k->c.nout = 1;
		k->c.bytes = bytes;
		k->c.bufs[0] = src->sym;
		k->c.bufs[1] = *sym;
		return 0;
	}
	/* Both ends need a data plane (an in-process worker has none). */
	if (!l->c->isl[host].reg.data_port ||
	    !l->c->isl[src->host].reg.data_port)
		return -EOPNOTSUPP;
	/* The target first: its READY can go while the value is made. */
	k = emit(l, host, PW_WIRE_CMD_DCN_RECV, dev);
	s = k ? emit(l, src->host, PW_WIRE_CMD_DCN_SEND, src->dev) : NULL;
	if (!s)
		return -E2BIG;
	k->c.peer_dev = src->dev;
	k->c.peer_host = src->host;
	k->c.nout = 1;
	k->c.bytes = bytes;
	k->c.bufs[0] = *sym;
	s->c.peer_dev = (uint8_t)dev;
	s->c.peer_host = (uint16_t)host;
	s->c.nin = 1;
	s->c.bytes = bytes;
	s->c.bufs[0] = src->sym;
	s->c.peer_buf = *sym;
	return 0;
}

/*
 * A device binds a buffer once per command: a value passed twice (x + x)
 * gets a copy on the device for its second use.
 */
static int unalias(struct lowering *l, const struct pw_wire_prog_node *nd,
		   uint32_t *in, unsigned int i)
{
	struct pw_ctl_cmd *k;
	unsigned int j;

	for (j = 0; j < i && in[j] != in[i]; j++)
		;
	if (j == i)
		return 0;
	k = emit(l, nd->host, PW_WIRE_CMD_COPY_PEER, nd->dev);
	if (!k)
		return -E2BIG;
	k->c.peer_dev = nd->dev;
	k->c.nin = 1;
	k->c.nout = 1;
	k->c.bytes = pw_wire_sig_bytes(&l->vals[l->first[nd->in[i].node] +
					nd->in[i].output].sig);
	k->c.bufs[0] = in[i];
	k->c.bufs[1] = PW_WIRE_BUF_TEMP | l->ntemps++;
	in[i] = k->c.bufs[1];
	return 0;
}

/* Pass 2: the commands, in program order. */
static int emit_commands(struct lowering *l)
{
	struct pw_ctl_program *prog = l->prog;
	uint32_t in[PW_WIRE_MAX_BUFS];
	unsigned int n, i, nout;
	struct pw_ctl_cmd *k;
	struct pw_ctl_fn *fn;
	int ret, v;

	for (n = 0; n < prog->nnodes; n++) {
		const struct pw_wire_prog_node *nd = &prog->nodes[n];

		if (nd->kind != PW_WIRE_NODE_COMPUTE)
			continue;
		fn = pw_ctl_fn_find(l->c, prog->client, nd->fn_id);
		for (i = 0; i < nd->nin; i++) {
			v = edge_val(l, n, &nd->in[i]);
			if (v < 0)
				return v;
			if (!sig_equal(&l->vals[v].sig, &fn->pl.desc.sigs[i]))
				return -EINVAL;
			ret = value_at(l, (unsigned int)v, nd->host, nd->dev,
				       &in[i]);
			if (!ret)
				ret = unalias(l, nd, in, i);
			if (ret)
				return ret;
		}
		k = emit(l, nd->host, PW_WIRE_CMD_EXEC, nd->dev);
		if (!k)
			return -E2BIG;
		nout = node_outputs(l, n);
		k->c.fn_id = nd->fn_id;
		k->c.nin = nd->nin;
		k->c.nout = (uint8_t)nout;
		memcpy(k->c.bufs, in, nd->nin * sizeof(in[0]));
		for (i = 0; i < nout; i++)
			k->c.bufs[nd->nin + i] = l->vals[l->first[n] + i].sym;
	}
	return 0;
}

int pw_ctl_lower(struct pw_controller *c, struct pw_ctl_program *prog)
{
	struct lowering l = { .c = c, .prog = prog };
	unsigned int n, nvals = 0;
	int ret = -ENOMEM;

	for (n = 0; n < prog->nnodes; n++)
		nvals += prog->nodes[n].kind == PW_WIRE_NODE_COMPUTE ?
			PW_WIRE_MAX_BUFS : 1;
	/* At most an EXEC and two transfer commands per input, per node. */
	l.cap = prog->nnodes * (1 + 2 * PW_WIRE_MAX_BUFS);
	l.vals = calloc(nvals, sizeof(*l.vals));
	l.first = calloc(prog->nnodes + 1, sizeof(*l.first));
	l.moved = calloc(l.cap, sizeof(*l.moved));
	prog->cmds = calloc(l.cap, sizeof(*prog->cmds));
	if (l.vals && l.first && l.moved && prog->cmds)
		ret = assign_values(&l);
	if (!ret)
		ret = emit_commands(&l);
	if (!ret && !prog->ncmds)
		ret = -EINVAL;	/* nothing to run */
	free(l.vals);
	free(l.first);
	free(l.moved);
	if (ret) {
		free(prog->cmds);
		prog->cmds = NULL;
		prog->ncmds = 0;
		return ret;
	}
	/* Keep what the commands take, not the bound. */
	prog->cmds = realloc(prog->cmds, prog->ncmds * sizeof(*prog->cmds)) ?:
		prog->cmds;
	prog->lowered = true;
	return 0;
}
