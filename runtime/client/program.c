// SPDX-License-Identifier: GPL-2.0
/*
 * program.c - a traced program at the controller. When the block ends
 * the program is registered once (its arguments, each computation on
 * its slice, its results); the controller lowers it once per placement
 * and keeps it. Each pw_program_run() is then one RUN naming the
 * program, its arguments and the ids of its results: the controller
 * sends each worker its part at once (parallel dispatch). Sequential
 * dispatch, kept to compare with, runs node by node: each computation is
 * a one-node program whose RUN goes once the previous one has ended, so
 * no host or controller work for a node overlaps its predecessors'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/wire.h>

#include "program.h"

/* The controller's value of output @e of a node, given each node's first. */
static int edge_val(const int *val, const struct pw_edge *e)
{
	return val[e->node] + (int)e->output;
}

/*
 * The results the controller makes: each computed value once, in
 * order, into @in; arguments given back stay the client's (p->rres).
 */
static int register_results(struct pw_program *p, const struct pw_node *n,
			    const int *val, int *in)
{
	unsigned int j, k;

	p->rres = calloc(n->nin ? n->nin : 1, sizeof(*p->rres));
	if (!p->rres)
		return pw_fail(-ENOMEM, "out of host memory");
	for (j = 0; j < n->nin; j++) {
		const struct pw_edge *e = &n->in[j];

		if (p->nodes[e->node].kind == PW_NODE_ARG) {
			p->rres[j] = -1 - (int)e->node;
			continue;
		}
		for (k = 0; k < j; k++)
			if (p->rres[k] >= 0 && n->in[k].node == e->node &&
			    n->in[k].output == e->output)
				break;
		if (k < j) {
			p->rres[j] = p->rres[k];
		} else {
			p->rres[j] = (int)p->nreg;
			in[p->nreg++] = edge_val(val, e);
		}
	}
	return 0;
}

int pw_program_register(struct pw_program *p)
{
	struct pw_client *c = p->client;
	int *val, in[PWTPU_MAX_BUFS], out[PWTPU_MAX_BUFS];
	struct pw_rprog *rp;
	unsigned int i, j, nr = 0;
	uint32_t id;
	int ret = 0;

	/* Nothing computed: nothing to register, and a run does nothing. */
	for (i = 0; i < p->nnodes && p->nodes[i].kind != PW_NODE_COMPUTE; i++)
		;
	if (i == p->nnodes)
		return 0;
	rp = pw_rprog_begin();
	val = calloc(p->nnodes, sizeof(*val));
	p->rargs = calloc(p->nnodes, sizeof(*p->rargs));
	if (!rp || !val || !p->rargs) {
		ret = pw_fail(-ENOMEM, "out of host memory");
		goto out;
	}
	for (i = 0; i < p->nnodes && !ret; i++) {
		const struct pw_node *n = &p->nodes[i];

		switch (n->kind) {
		case PW_NODE_ARG:
			/* Arguments first in run order, then captured ones. */
			val[i] = pw_rprog_arg_sharded(rp, n->slice->rid,
						      n->nshards, n->sig.dtype,
						      n->sig.rank, n->sig.shape);
			p->rargs[nr++] = n->captured ? -1 - (int)i :
					 n->arg_index;
			break;
		case PW_NODE_COMPUTE:
			ret = pw_check_results(c, n->fn, n->slice);
			if (!ret)
				ret = pw_client_fn_id(c, n->fn, &id);
			/* The tracer checked the inputs; rprog does again. */
			for (j = 0; j < n->nin && !ret; j++)
				in[j] = edge_val(val, &n->in[j]);
			if (!ret)
				ret = pw_rprog_call_sharded(rp, n->fn, id,
							    n->slice->rid,
							    n->slice->n, in,
							    n->nin, out);
			if (!ret)
				val[i] = out[0];
			break;
		case PW_NODE_RESULT:
			ret = register_results(p, n, val, in);
			if (!ret && p->nreg)
				ret = pw_rprog_results(rp, in, p->nreg);
			break;
		}
	}
	p->nrargs = nr;
	/* Only arguments given back: it computes nothing anyone sees. */
	if (!ret && p->nreg)
		ret = pw_remote_program(c->r, rp, &p->rid);
out:
	pw_rprog_free(rp);
	free(val);
	return ret;
}

/* The node of argument @a of @p. */
static const struct pw_node *arg_node(const struct pw_program *p, int a)
{
	unsigned int i;

	for (i = 0; i < p->nnodes; i++)
		if (p->nodes[i].kind == PW_NODE_ARG && !p->nodes[i].captured &&
		    p->nodes[i].arg_index == a)
			return &p->nodes[i];
	return NULL;
}

static int check_arg(const struct pw_client *c, const struct pw_node *n,
		     const struct pw_buffer *buf, int i)
{
	char want[64], got[64];

	if (!buf)
		return pw_fail(-EINVAL, "argument %d is NULL", i);
	if (buf->prog)
		return pw_fail(-EINVAL, "argument %d is a traced value", i);
	if (buf->owner != c)
		return pw_fail(-EINVAL, "argument %d belongs to client \"%s\"", i,
			       buf->owner->name);
	if (buf->nshards != n->nshards || !pw_sig_equal(&buf->sig, &n->sig))
		return pw_fail(-EINVAL, "argument %d is %u shards of %s; the program takes %u shards of %s",
			       i, buf->nshards,
			       pw_sig_format(&buf->sig, got, sizeof(got)),
			       n->nshards,
			       pw_sig_format(&n->sig, want, sizeof(want)));
	/* The program was lowered for its arguments' slices. */
	if (buf->slice != n->slice)
		return pw_fail(-EINVAL, "argument %d lives on another slice than the program's argument: make it on that slice",
			       i);
	return 0;
}

/* The slice and signature edge @e of @p carries. */
static void edge_place(const struct pw_program *p, const struct pw_edge *e,
		       struct pw_slice **slice, struct pw_sig *sig)
{
	const struct pw_node *n = &p->nodes[e->node];

	*slice = n->slice;
	*sig = n->kind == PW_NODE_ARG ? n->sig : n->fn->results[e->output];
}

static int run(struct pw_program *p, struct pw_buffer *const *args,
	       struct pw_buffer **results)
{
	const struct pw_node *res = &p->nodes[p->nnodes - 1];
	struct pw_buffer *made[PWTPU_MAX_BUFS];
	struct pw_slice *slices[PWTPU_MAX_BUFS];
	struct pw_sig sigs[PWTPU_MAX_BUFS];
	uint32_t ids[PW_WIRE_RUN_IDS];
	unsigned int i;
	int ret;

	for (i = 0; i < p->nnodes; i++) {
		ret = p->nodes[i].slice ? pw_slice_check(p->nodes[i].slice) : 0;
		if (ret)
			return ret;
	}
	if (p->nrargs > PW_WIRE_RUN_IDS)
		return pw_fail(-E2BIG, "%u arguments and captured buffers: at most %u",
			       p->nrargs, PW_WIRE_RUN_IDS);
	for (i = 0; i < p->nrargs; i++) {
		int a = p->rargs[i];
		const struct pw_node *n = a >= 0 ? arg_node(p, a) :
					  &p->nodes[-1 - a];
		const struct pw_buffer *b = a >= 0 ? args[a] : n->captured;

		ret = check_arg(p->client, n, b, a >= 0 ? a : (int)i);
		if (ret)
			return ret;
		ids[i] = b->id;
	}
	for (i = 0; i < res->nin; i++)
		if (p->rres[i] >= 0)
			edge_place(p, &res->in[i], &slices[p->rres[i]],
				   &sigs[p->rres[i]]);
	ret = pw_client_run(p->client, p->rid, ids, p->nrargs, slices, sigs,
			    p->nreg, made);
	if (ret)
		return ret;
	/* Each result a reference: made ones, or the arguments given back. */
	for (i = 0; i < res->nin; i++) {
		const struct pw_node *n = p->rres[i] >= 0 ? NULL :
					  &p->nodes[-1 - p->rres[i]];

		results[i] = pw_buffer_get(!n ? made[p->rres[i]] :
					   n->captured ? n->captured :
					   args[n->arg_index]);
	}
	for (i = 0; i < p->nreg; i++)
		pw_buffer_put(made[i]);
	return 0;
}

static void vals_free(const struct pw_program *p, struct pw_buffer ***vals)
{
	unsigned int i, j;

	for (i = 0; i < p->nnodes; i++) {
		for (j = 0; vals[i] && j < PWTPU_MAX_BUFS; j++)
			pw_buffer_put(vals[i][j]);
		free(vals[i]);
	}
	free(vals);
}

/* Node by node, each computation's RUN after its predecessor's ended. */
static int run_sequential(struct pw_program *p, struct pw_buffer *const *args,
			  struct pw_buffer **results)
{
	const struct pw_node *res = &p->nodes[p->nnodes - 1];
	struct pw_buffer *in[PWTPU_MAX_BUFS], ***vals;
	unsigned int i, j;
	int ret = 0;

	vals = calloc(p->nnodes, sizeof(*vals));
	if (!vals)
		return pw_fail(-ENOMEM, "out of host memory");
	for (i = 0; i + 1 < p->nnodes && !ret; i++) {
		const struct pw_node *n = &p->nodes[i];

		vals[i] = calloc(PWTPU_MAX_BUFS, sizeof(*vals[i]));
		if (!vals[i]) {
			ret = pw_fail(-ENOMEM, "out of host memory");
			break;
		}
		if (n->kind == PW_NODE_ARG) {
			vals[i][0] = pw_buffer_get(n->captured ? n->captured :
						   args[n->arg_index]);
			continue;
		}
		for (j = 0; j < n->nin; j++)
			in[j] = vals[n->in[j].node][n->in[j].output];
		ret = pw_client_call(p->client, n->fn, n->slice, in, n->nin,
				     vals[i]);
		if (!ret && n->fn->nresults)
			ret = pw_buffer_wait(vals[i][0]);
	}
	for (j = 0; !ret && j < res->nin; j++)
		results[j] = pw_buffer_get(vals[res->in[j].node][res->in[j].output]);
	vals_free(p, vals);
	return ret;
}

int pw_program_run(struct pw_program *p, enum pw_dispatch dispatch,
		   struct pw_buffer *const *args, unsigned int nargs,
		   struct pw_buffer **results, unsigned int nresults)
{
	const struct pw_node *res;
	struct pw_client *c;
	unsigned int i;
	int ret;

	if (!p || (nargs && !args) || (nresults && !results))
		return pw_fail(-EINVAL, "pw_program_run: NULL argument");
	c = p->client;
	res = &p->nodes[p->nnodes - 1];
	if (dispatch != PW_DISPATCH_PARALLEL && dispatch != PW_DISPATCH_SEQUENTIAL)
		return pw_fail(-EINVAL, "unknown dispatch mode %d", dispatch);
	if (nargs != p->nargs || nresults != res->nin)
		return pw_fail(-EINVAL, "the program takes %u arguments and gives %u results, not %u and %u",
			       p->nargs, res->nin, nargs, nresults);
	if (atomic_load(&c->closing))
		return pw_fail(-ESHUTDOWN, "client is disconnecting");
	/* Every argument is checked, even of a program computing nothing. */
	for (i = 0; i < p->nnodes - 1; i++) {
		const struct pw_node *n = &p->nodes[i];

		if (n->kind != PW_NODE_ARG || n->captured)
			continue;
		ret = check_arg(c, n, args[n->arg_index], n->arg_index);
		if (ret)
			return ret;
	}
	pw_client_lock(c);
	/* Computing nothing, it has only its arguments to give back. */
	if (dispatch == PW_DISPATCH_SEQUENTIAL || !p->rid)
		ret = run_sequential(p, args, results);
	else
		ret = run(p, args, results);
	pw_client_unlock(c);
	return ret;
}
