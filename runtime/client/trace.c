// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - the program tracer. Between pw_program_begin() and
 * pw_program_end() a call records one node for the whole sharded
 * computation, and its outputs are traced values naming that node; a
 * concrete buffer used as an input is captured as an argument node. The
 * representation never grows with the shard count: the controller's
 * lowering is where shards appear.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"

static atomic_uint_fast64_t pw_program_serial;

static int prog_add_node(struct pw_program *p, struct pw_node **out)
{
	if (p->nnodes == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 16;
		struct pw_node *n = realloc(p->nodes, cap * sizeof(*n));

		if (!n)
			return pw_fail(-ENOMEM, "out of host memory");
		p->nodes = n;
		p->cap = cap;
	}
	*out = &p->nodes[p->nnodes++];
	memset(*out, 0, sizeof(**out));
	(*out)->arg_index = -1;
	return 0;
}

static void node_release(struct pw_node *n)
{
	if (n->captured)
		pw_buffer_put(n->captured);
	if (n->fn)
		pw_fn_put(n->fn);
}

static void prog_free(struct pw_program *p)
{
	unsigned int i;

	for (i = 0; i < p->nnodes; i++)
		node_release(&p->nodes[i]);
	free(p->nodes);
	free(p->rargs);
	free(p->rres);
	free(p);
}

int pw_program_begin(struct pw_client *c)
{
	struct pw_program *p;

	if (!c)
		return pw_fail(-EINVAL, "pw_program_begin: no client");
	p = calloc(1, sizeof(*p));
	if (!p)
		return pw_fail(-ENOMEM, "out of host memory");
	p->client = c;
	p->serial = atomic_fetch_add(&pw_program_serial, 1) + 1;
	pthread_mutex_lock(&c->lock);
	if (c->trace) {
		pthread_mutex_unlock(&c->lock);
		free(p);
		return pw_fail(-EBUSY, "a program is already being traced");
	}
	c->trace = p;
	pthread_mutex_unlock(&c->lock);
	return 0;
}

static struct pw_program *tracing(struct pw_client *c)
{
	struct pw_program *p;

	pthread_mutex_lock(&c->lock);
	p = c->trace;
	pthread_mutex_unlock(&c->lock);
	return p;
}

/* A traced value for output @output of node @node, on @slice. */
static int traced_value(struct pw_client *c, struct pw_program *p,
			const struct pw_sig *sig, struct pw_slice *slice,
			unsigned int node, unsigned int output,
			struct pw_buffer **out)
{
	int ret = pw_buffer_new(c, sig, slice, 0, NULL, out);

	if (ret)
		return ret;
	(*out)->prog = p;
	(*out)->prog_serial = p->serial;
	(*out)->node = (int)node;
	(*out)->output = (int)output;
	return 0;
}

static int program_arg(struct pw_client *c, struct pw_slice *slice,
		       enum pwtpu_dtype dtype, unsigned int rank,
		       const uint32_t *shard_shape, struct pw_buffer **arg)
{
	struct pw_program *p;
	struct pw_node *node;
	struct pw_sig sig;
	int ret;

	if (!c || !slice || !arg)
		return pw_fail(-EINVAL, "pw_program_arg: NULL argument");
	p = tracing(c);
	if (!p)
		return pw_fail(-EINVAL, "pw_program_arg outside pw_program_begin/end");
	ret = pw_sig_make(&sig, dtype, rank, shard_shape);
	if (ret)
		return ret;
	ret = prog_add_node(p, &node);
	if (ret)
		return ret;
	node->kind = PW_NODE_ARG;
	node->sig = sig;
	node->nshards = slice->n;
	node->slice = slice;
	node->arg_index = (int)p->nargs++;
	return traced_value(c, p, &sig, slice, p->nnodes - 1, 0, arg);
}

/* The node feeding @buf into the program, capturing it if concrete. */
static int trace_input(struct pw_program *p, struct pw_buffer *buf,
		       struct pw_edge *e)
{
	struct pw_node *node;
	unsigned int i;
	int ret;

	if (buf->prog) {
		if (buf->prog_serial != p->serial)
			return pw_fail(-EINVAL, "a traced value of another program");
		e->node = (unsigned int)buf->node;
		e->output = (unsigned int)buf->output;
		return 0;
	}
	if (buf->owner != p->client)
		return pw_fail(-EINVAL, "a buffer of client \"%s\": a program captures its own client's buffers",
			       buf->owner->name);
	for (i = 0; i < p->nnodes; i++) {
		if (p->nodes[i].captured == buf) {
			e->node = i;
			e->output = 0;
			return 0;
		}
	}
	ret = prog_add_node(p, &node);
	if (ret)
		return ret;
	node->kind = PW_NODE_ARG;
	node->sig = buf->sig;
	node->nshards = buf->nshards;
	node->slice = buf->slice;
	node->captured = pw_buffer_get(buf);
	e->node = p->nnodes - 1;
	e->output = 0;
	return 0;
}

/* Signature and shard count of what edge @e carries. */
static void edge_type(const struct pw_program *p, const struct pw_edge *e,
		      struct pw_sig *sig, unsigned int *nshards)
{
	const struct pw_node *n = &p->nodes[e->node];

	if (n->kind == PW_NODE_ARG) {
		*sig = n->sig;
		*nshards = n->nshards;
	} else {
		*sig = n->fn->results[e->output];
		*nshards = n->slice->n;
	}
}

int pw_trace_call(struct pw_client *c, struct pw_fn *fn,
		  struct pw_slice *slice, struct pw_buffer *const *in,
		  unsigned int nin, struct pw_buffer **out)
{
	struct pw_program *p = tracing(c);
	struct pw_edge edges[PWTPU_MAX_BUFS];
	unsigned int i, nsh, n = slice->n;
	struct pw_node *node;
	struct pw_sig sig;
	int ret;

	if (fn->group_size && fn->group_size != n)
		return pw_fail(-EINVAL, "%s: its collectives are shaped for %u devices, the slice has %u",
			       fn->name, fn->group_size, n);
	for (i = 0; i < nin; i++) {
		const struct pw_sig *want = &fn->params[i];
		char a[64], b[64];

		if (!in[i])
			return pw_fail(-EINVAL, "%s: input %u is NULL", fn->name, i);
		ret = trace_input(p, in[i], &edges[i]);
		if (ret)
			return ret;
		edge_type(p, &edges[i], &sig, &nsh);
		/* Same shard count: same shards; else it must reshard. */
		if (nsh == n ? pw_sig_equal(&sig, want) :
		    (sig.dtype == want->dtype &&
		     nsh * pw_sig_bytes(&sig) == n * pw_sig_bytes(want)))
			continue;
		return pw_fail(-EINVAL, "%s: input %u is %u shards of %s; the call needs %u shards of %s",
			       fn->name, i, nsh, pw_sig_format(&sig, a, sizeof(a)),
			       n, pw_sig_format(want, b, sizeof(b)));
	}
	ret = prog_add_node(p, &node);
	if (ret)
		return ret;
	node->kind = PW_NODE_COMPUTE;
	node->fn = pw_fn_get(fn);
	node->slice = slice;
	node->nin = nin;
	memcpy(node->in, edges, nin * sizeof(edges[0]));
	for (i = 0; i < fn->nresults; i++) {
		ret = traced_value(c, p, &fn->results[i], slice, p->nnodes - 1,
				   i, &out[i]);
		if (ret) {
			while (i-- > 0)
				pw_buffer_put(out[i]);
			return ret;
		}
	}
	return 0;
}

static int program_end(struct pw_client *c, struct pw_buffer *const *results,
		       unsigned int nresults, struct pw_program **out)
{
	struct pw_program *p;
	struct pw_node *node;
	unsigned int i;
	int ret = 0;

	if (!c || !out || (nresults && !results))
		return pw_fail(-EINVAL, "pw_program_end: NULL argument");
	p = tracing(c);
	if (!p)
		return pw_fail(-EINVAL, "pw_program_end without pw_program_begin");
	if (nresults > PWTPU_MAX_BUFS)
		ret = pw_fail(-E2BIG, "%u results: at most %d", nresults,
			      PWTPU_MAX_BUFS);
	for (i = 0; i < nresults && !ret; i++)
		if (!results[i] || !results[i]->prog ||
		    results[i]->prog_serial != p->serial)
			ret = pw_fail(-EINVAL, "result %u is not a value of this program",
				      i);
	if (!ret)
		ret = prog_add_node(p, &node);
	pthread_mutex_lock(&c->lock);
	c->trace = NULL;
	if (!ret) {
		p->next = c->programs;
		c->programs = p;
	}
	pthread_mutex_unlock(&c->lock);
	if (ret) {
		prog_free(p);
		return ret;
	}
	node->kind = PW_NODE_RESULT;
	node->nin = nresults;
	for (i = 0; i < nresults; i++) {
		node->in[i].node = (unsigned int)results[i]->node;
		node->in[i].output = (unsigned int)results[i]->output;
	}
	/* Registered with the controller once; runs name it. */
	pw_client_lock(c);
	ret = pw_program_register(p);
	pw_client_unlock(c);
	if (ret) {
		pw_program_free(p);
		return ret;
	}
	*out = p;
	return 0;
}

/* The traced program changes under the client's lock, as pw_call()'s. */
int pw_program_arg(struct pw_client *c, struct pw_slice *slice,
		   enum pwtpu_dtype dtype, unsigned int rank,
		   const uint32_t *shard_shape, struct pw_buffer **arg)
{
	int ret;

	if (!c)
		return pw_fail(-EINVAL, "pw_program_arg: NULL argument");
	pw_client_lock(c);
	ret = program_arg(c, slice, dtype, rank, shard_shape, arg);
	pw_client_unlock(c);
	return ret;
}

int pw_program_end(struct pw_client *c, struct pw_buffer *const *results,
		   unsigned int nresults, struct pw_program **out)
{
	int ret;

	if (!c)
		return pw_fail(-EINVAL, "pw_program_end: NULL argument");
	pw_client_lock(c);
	ret = program_end(c, results, nresults, out);
	pw_client_unlock(c);
	return ret;
}

void pw_program_free(struct pw_program *p)
{
	struct pw_program **pp;
	struct pw_client *c;

	if (!p)
		return;
	c = p->client;
	pthread_mutex_lock(&c->lock);
	for (pp = &c->programs; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	pthread_mutex_unlock(&c->lock);
	prog_free(p);
}

void pw_program_collect(struct pw_client *c)
{
	struct pw_program *p;

	pthread_mutex_lock(&c->lock);
	p = c->programs;
	c->programs = NULL;
	if (c->trace) {
		c->trace->next = p;
		p = c->trace;
		c->trace = NULL;
	}
	pthread_mutex_unlock(&c->lock);
	while (p) {
		struct pw_program *next = p->next;

		prog_free(p);
		p = next;
	}
}

unsigned int pw_program_num_nodes(const struct pw_program *p)
{
	return p ? p->nnodes : 0;
}

enum pw_node_kind pw_program_node_kind(const struct pw_program *p,
				       unsigned int node)
{
	return p->nodes[node].kind;
}

int pw_program_format(const struct pw_program *p, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i, j;
	char sig[64];

#define PUT(...) do {							\
		int w = snprintf(buf ? buf + (len < size ? len : size) : NULL, \
				 len < size ? size - len : 0, __VA_ARGS__); \
		if (w < 0)						\
			return -EINVAL;					\
		len += (size_t)w;					\
	} while (0)
	if (!p)
		return pw_fail(-EINVAL, "pw_program_format: no program");
	for (i = 0; i < p->nnodes; i++) {
		const struct pw_node *n = &p->nodes[i];

		switch (n->kind) {
		case PW_NODE_ARG:
			PUT("%%%u = arg%s %u x %s", i,
			    n->captured ? " (captured)" : "", n->nshards,
			    pw_sig_format(&n->sig, sig, sizeof(sig)));
			break;
		case PW_NODE_COMPUTE:
			PUT("%%%u = %s[%u](", i, n->fn->name, n->slice->n);
			break;
		case PW_NODE_RESULT:
			PUT("result(");
			break;
		}
		for (j = 0; n->kind != PW_NODE_ARG && j < n->nin; j++)
			PUT("%s%%%u.%u", j ? ", " : "", n->in[j].node,
			    n->in[j].output);
		PUT("%s\n", n->kind == PW_NODE_ARG ? "" : ")");
	}
#undef PUT
	return (int)len;
}
