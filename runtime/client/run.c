// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - running a traced program.
 *
 * Parallel dispatch lowers every node up front, allocating every output
 * and building every device command before any of it is sent, and sends
 * the whole program as one batch: each executor receives its part in one
 * message and the devices start on it while nothing else is left to do
 * on the host. When device memory runs out before the batch is complete,
 * the part built so far is sent and lowering goes on in a new batch once
 * that part frees memory.
 *
 * Sequential dispatch sends node by node and lowers node i+1 only after
 * every command of node i has reached its device, which is what a node
 * whose inputs are computed on other devices cannot do before those are
 * done: host work and device work alternate instead of overlapping.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"

/* Send @b; with @wait, return only once it reached the devices. */
static void send_batch(struct pw_ctrl *ctrl, struct pw_batch *b, bool wait)
{
	if (!wait) {
		pw_sched_submit(ctrl, b);
		return;
	}
	atomic_fetch_add(&b->refs, 1);
	pw_sched_submit(ctrl, b);
	pw_batch_wait_submitted(ctrl, b);
	pw_batch_put(b);
}

static int check_arg(const struct pw_client *c, const struct pw_node *n,
		     const struct pw_buffer *buf, unsigned int i)
{
	char want[64], got[64];

	if (!buf)
		return pw_fail(-EINVAL, "argument %u is NULL", i);
	if (buf->prog)
		return pw_fail(-EINVAL, "argument %u is a traced value", i);
	if (buf->owner != c)
		return pw_fail(-EINVAL, "argument %u belongs to client \"%s\"", i,
			       buf->owner->name);
	if (buf->nshards == n->nshards && pw_sig_equal(&buf->sig, &n->sig))
		return 0;
	return pw_fail(-EINVAL, "argument %u is %u shards of %s; the program takes %u shards of %s",
		       i, buf->nshards, pw_sig_format(&buf->sig, got, sizeof(got)),
		       n->nshards, pw_sig_format(&n->sig, want, sizeof(want)));
}

/* Lower compute node @n into *@b, sending and renewing it if memory needs. */
static int run_compute(struct pw_client *c, struct pw_batch **b,
		       const struct pw_node *n, struct pw_buffer **out,
		       struct pw_buffer ***vals)
{
	struct pw_buffer *in[PWTPU_MAX_BUFS];
	unsigned int i;
	int ret;

	for (i = 0; i < n->nin; i++)
		in[i] = vals[n->in[i].node][n->in[i].output];
	for (;;) {
		ret = pw_lower_call(c, *b, n->fn, n->slice, in, n->nin, out);
		if (ret != -EAGAIN)
			return ret;
		/* Memory is held by our own unsent work: send it first. */
		send_batch(c->ctrl, *b, false);
		*b = pw_batch_new(c);
		if (!*b)
			return pw_fail(-ENOMEM, "out of host memory");
	}
}

static void free_vals(const struct pw_program *p, struct pw_buffer ***vals)
{
	unsigned int i, j, nout;

	for (i = 0; i < p->nnodes; i++) {
		if (!vals[i])
			continue;
		nout = p->nodes[i].kind == PW_NODE_COMPUTE ?
		       p->nodes[i].fn->nresults : 1;
		for (j = 0; j < nout; j++)
			pw_buffer_put(vals[i][j]);
		free(vals[i]);
	}
	free(vals);
}

int pw_program_run(struct pw_program *p, enum pw_dispatch dispatch,
		   struct pw_buffer *const *args, unsigned int nargs,
		   struct pw_buffer **results, unsigned int nresults)
{
	struct pw_buffer ***vals;
	const struct pw_node *res;
	struct pw_client *c;
	struct pw_batch *b;
	unsigned int i, j;
	int ret = 0;

	if (!p || (nargs && !args) || (nresults && !results))
		return pw_fail(-EINVAL, "pw_program_run: NULL argument");
	c = p->client;
	res = &p->nodes[p->nnodes - 1];
	if (dispatch != PW_DISPATCH_PARALLEL && dispatch != PW_DISPATCH_SEQUENTIAL)
		return pw_fail(-EINVAL, "unknown dispatch mode %d", dispatch);
	if (nargs != p->nargs || nresults != res->nin)
		return pw_fail(-EINVAL, "the program takes %u arguments and gives %u results, not %u and %u",
			       p->nargs, res->nin, nargs, nresults);
	/* One RUN: the controller's lowering and dispatch do the rest. */
	for (i = 0; c->remote_state && i < p->nnodes - 1; i++) {
		const struct pw_node *n = &p->nodes[i];

		if (n->kind != PW_NODE_ARG || n->captured)
			continue;
		ret = check_arg(c, n, args[n->arg_index],
				(unsigned int)n->arg_index);
		if (ret)
			return ret;
	}
	if (c->remote_state)
		return pw_cr_program_run(p, args, nargs, results);
	if (atomic_load(&c->closing))
		return pw_fail(-ESHUTDOWN, "client is disconnecting");
	vals = calloc(p->nnodes, sizeof(*vals));
	b = pw_batch_new(c);
	if (!vals || !b) {
		free(vals);
		if (b)
			pw_batch_put(b);
		return pw_fail(-ENOMEM, "out of host memory");
	}
	pw_building(c->ctrl, true);
	for (i = 0; i < p->nnodes - 1 && !ret; i++) {
		const struct pw_node *n = &p->nodes[i];

		vals[i] = calloc(n->kind == PW_NODE_COMPUTE ?
				 n->fn->nresults : 1, sizeof(*vals[i]));
		if (!vals[i]) {
			ret = pw_fail(-ENOMEM, "out of host memory");
			break;
		}
		if (n->kind == PW_NODE_ARG) {
			struct pw_buffer *a = n->captured ? n->captured :
					      args[n->arg_index];

			ret = n->captured ? 0 :
			      check_arg(c, n, a, (unsigned int)n->arg_index);
			if (!ret)
				vals[i][0] = pw_buffer_get(a);
			continue;
		}
		ret = run_compute(c, &b, n, vals[i], vals);
		if (!ret && dispatch == PW_DISPATCH_SEQUENTIAL && b->nitems) {
			send_batch(c->ctrl, b, true);
			b = pw_batch_new(c);
			if (!b)
				ret = pw_fail(-ENOMEM, "out of host memory");
		}
	}
	/* What was built is valid work: send it even after a failure. */
	if (b)
		send_batch(c->ctrl, b, false);
	/* Only now is the memory it holds counted as in flight. */
	pw_building(c->ctrl, false);
	for (j = 0; !ret && j < res->nin; j++)
		results[j] = pw_buffer_get(vals[res->in[j].node][res->in[j].output]);
	free_vals(p, vals);
	return ret;
}
