// SPDX-License-Identifier: GPL-2.0
/*
 * rprog.c - a remote client's programs: arguments and computations on
 * slices (sharded over them) or on one (host, device), checked as they
 * are added (so a wrong shape is named at the call that made it), then
 * registered with the controller in PROGRAM parts, once. A (host,
 * device) becomes a pinned slice of that one device at registration.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../fn/fn.h"
#include "roles.h"

/* A value: output @v & 15 of node @v >> 4. */
#define VAL(node, out)	((int)((node) << 4 | (out)))
#define VAL_NODE(v)	((unsigned int)(v) >> 4)
#define VAL_OUT(v)	((unsigned int)(v) & 15)

/* Where node lives: a slice, or one device of a host (pinned). */
struct rplace {
	bool pinned;
	uint16_t host;
	uint8_t dev;
	uint8_t nout;		/* outputs of a COMPUTE node */
};

struct pw_rprog {
	struct pw_wire_prog_node *nodes;
	struct rplace *places;	/* per node */
	struct pw_sig *sigs;	/* per node, PW_WIRE_MAX_BUFS outputs */
	unsigned int nnodes;
	unsigned int cap;
	unsigned int nargs;
	bool have_results;
	int err;		/* the first failure: later calls repeat it */
};

struct pw_rprog *pw_rprog_begin(void)
{
	struct pw_rprog *p = calloc(1, sizeof(*p));

	if (!p)
		pw_fail(-ENOMEM, "program: no memory for a new one");
	return p;
}

void pw_rprog_free(struct pw_rprog *p)
{
	if (!p)
		return;
	free(p->nodes);
	free(p->places);
	free(p->sigs);
	free(p);
}

static int sticky(struct pw_rprog *p, int err)
{
	if (!p->err)
		p->err = err;
	return err;
}

static struct pw_wire_prog_node *add_node(struct pw_rprog *p, uint8_t kind)
{
	if (p->nnodes == PW_WIRE_MAX_PROG_NODES) {
		sticky(p, pw_fail(-E2BIG, "program: more than %u nodes",
				  PW_WIRE_MAX_PROG_NODES));
		return NULL;
	}
	if (p->nnodes == p->cap) {
		unsigned int cap = p->cap ? 2 * p->cap : 16;
		struct pw_wire_prog_node *n = realloc(p->nodes, cap * sizeof(*n));
		struct rplace *pl;
		struct pw_sig *s;

		if (n)
			p->nodes = n;
		pl = realloc(p->places, cap * sizeof(*pl));
		if (pl)
			p->places = pl;
		s = realloc(p->sigs, cap * PW_WIRE_MAX_BUFS * sizeof(*s));
		if (s)
			p->sigs = s;
		if (!n || !pl || !s) {
			sticky(p, pw_fail(-ENOMEM, "program: no memory"));
			return NULL;
		}
		p->cap = cap;
	}
	memset(&p->nodes[p->nnodes], 0, sizeof(p->nodes[0]));
	memset(&p->places[p->nnodes], 0, sizeof(p->places[0]));
	p->nodes[p->nnodes].kind = kind;
	p->nodes[p->nnodes].arg_index = PW_WIRE_NO_ARG;
	return &p->nodes[p->nnodes++];
}

static int check_place(struct pw_rprog *p, unsigned int host,
		       unsigned int dev)
{
	if (host >= PW_WIRE_MAX_HOSTS || dev >= PW_WIRE_MAX_DEVICES)
		return sticky(p, pw_fail(-EINVAL, "program: host %u device %u out of range",
					 host, dev));
	return 0;
}

static int check_slice(struct pw_rprog *p, uint32_t slice,
		       unsigned int nshards)
{
	if (!slice || !nshards || nshards > PW_WIRE_MAX_DEVICES)
		return sticky(p, pw_fail(-EINVAL, "program: slice %u of %u shards: want a slice and 1..%u shards",
					 slice, nshards, PW_WIRE_MAX_DEVICES));
	return 0;
}

static int add_arg(struct pw_rprog *p, const struct rplace *at,
		   uint32_t slice, unsigned int nshards, enum pwtpu_dtype dtype,
		   unsigned int rank, const uint32_t *shape)
{
	struct pw_wire_prog_node *n;
	struct pw_sig *s;

	if (p->err)
		return p->err;
	if (rank > PW_WIRE_MAX_DIMS || !pwtpu_dtype_size(dtype))
		return sticky(p, pw_fail(-EINVAL, "program argument: dtype %u rank %u",
					 dtype, rank));
	if (p->nargs == PW_WIRE_RUN_IDS)
		return sticky(p, pw_fail(-E2BIG, "program: more than %u arguments",
					 PW_WIRE_RUN_IDS));
	n = add_node(p, PW_WIRE_NODE_ARG);
	if (!n)
		return p->err;
	n->dtype = (uint8_t)dtype;
	n->ndims = (uint8_t)rank;
	n->nshards = (uint16_t)nshards;
	n->arg_index = (uint16_t)p->nargs++;
	n->slice = slice;
	p->places[p->nnodes - 1] = *at;
	memcpy(n->shape, shape, rank * sizeof(*shape));
	s = &p->sigs[(p->nnodes - 1) * PW_WIRE_MAX_BUFS];
	memset(s, 0, sizeof(*s));
	s->dtype = dtype;
	s->rank = rank;
	memcpy(s->shape, shape, rank * sizeof(*shape));
	return VAL(p->nnodes - 1, 0);
}

int pw_rprog_arg(struct pw_rprog *p, unsigned int host, unsigned int dev,
		 enum pwtpu_dtype dtype, unsigned int rank,
		 const uint32_t *shape)
{
	struct rplace at = { .pinned = true, .host = (uint16_t)host,
			     .dev = (uint8_t)dev };

	if (!p->err && check_place(p, host, dev))
		return p->err;
	return add_arg(p, &at, 0, 1, dtype, rank, shape);
}

int pw_rprog_arg_sharded(struct pw_rprog *p, uint32_t slice,
			 unsigned int nshards, enum pwtpu_dtype dtype,
			 unsigned int rank, const uint32_t *shard_shape)
{
	struct rplace at = { 0 };

	if (!p->err && check_slice(p, slice, nshards))
		return p->err;
	return add_arg(p, &at, slice, nshards, dtype, rank, shard_shape);
}

/* The signature of value @v, or NULL when @v is no value of @p. */
static const struct pw_sig *val_sig(const struct pw_rprog *p, int v)
{
	unsigned int node = VAL_NODE(v);

	if (v < 0 || node >= p->nnodes ||
	    p->nodes[node].kind == PW_WIRE_NODE_RESULT)
		return NULL;
	if (p->nodes[node].kind == PW_WIRE_NODE_ARG ? VAL_OUT(v) != 0 :
	    VAL_OUT(v) >= p->places[node].nout)
		return NULL;
	return &p->sigs[node * PW_WIRE_MAX_BUFS + VAL_OUT(v)];
}

static int add_call(struct pw_rprog *p, const struct pw_fn *fn,
		    uint32_t fn_id, const struct rplace *at, uint32_t slice,
		    unsigned int nshards, const int *in, unsigned int nin,
		    int *out)
{
	struct pw_wire_prog_node *n;
	const struct pw_sig *s;
	char want[48], got[48];
	unsigned int i, node, has;

	if (p->err)
		return p->err;
	if (nin != fn->nparams)
		return sticky(p, pw_fail(-EINVAL, "%s: %u inputs for %u parameters",
					 fn->name, nin, fn->nparams));
	if (fn->group_size && fn->group_size != nshards)
		return sticky(p, pw_fail(-EINVAL, "%s: its collectives are shaped for %u devices, the call has %u shards",
					 fn->name, fn->group_size, nshards));
	for (i = 0; i < nin; i++) {
		s = val_sig(p, in[i]);
		if (!s)
			return sticky(p, pw_fail(-EINVAL, "%s: input %u is no value of this program",
						 fn->name, i));
		has = p->nodes[VAL_NODE(in[i])].nshards;
		if (has == nshards && pw_sig_equal(s, &fn->params[i]))
			continue;
		/* Another sharding of as many bytes is resharded. */
		if (s->dtype == fn->params[i].dtype &&
		    has * pw_sig_bytes(s) == nshards * pw_sig_bytes(&fn->params[i]))
			continue;
		return sticky(p, pw_fail(-EINVAL, "%s: input %u is %u shards of %s; the call needs %u shards of %s (or as many bytes of that dtype to reshard)",
					 fn->name, i, has,
					 pw_sig_format(s, got, sizeof(got)),
					 nshards,
					 pw_sig_format(&fn->params[i], want,
						       sizeof(want))));
	}
	n = add_node(p, PW_WIRE_NODE_COMPUTE);
	if (!n)
		return p->err;
	node = p->nnodes - 1;
	n->nin = (uint8_t)nin;
	n->nshards = (uint16_t)nshards;
	n->fn_id = fn_id;
	n->slice = slice;
	p->places[node] = *at;
	p->places[node].nout = (uint8_t)fn->nresults;
	for (i = 0; i < nin; i++) {
		n->in[i].node = (uint16_t)VAL_NODE(in[i]);
		n->in[i].output = (uint16_t)VAL_OUT(in[i]);
	}
	for (i = 0; i < fn->nresults; i++) {
		p->sigs[node * PW_WIRE_MAX_BUFS + i] = fn->results[i];
		out[i] = VAL(node, i);
	}
	return 0;
}

int pw_rprog_call(struct pw_rprog *p, const struct pw_fn *fn, uint32_t fn_id,
		  unsigned int host, unsigned int dev, const int *in,
		  unsigned int nin, int *out)
{
	struct rplace at = { .pinned = true, .host = (uint16_t)host,
			     .dev = (uint8_t)dev };

	if (!p->err && check_place(p, host, dev))
		return p->err;
	return add_call(p, fn, fn_id, &at, 0, 1, in, nin, out);
}

int pw_rprog_call_sharded(struct pw_rprog *p, const struct pw_fn *fn,
			  uint32_t fn_id, uint32_t slice, unsigned int nshards,
			  const int *in, unsigned int nin, int *out)
{
	struct rplace at = { 0 };

	if (!p->err && check_slice(p, slice, nshards))
		return p->err;
	return add_call(p, fn, fn_id, &at, slice, nshards, in, nin, out);
}

int pw_rprog_results(struct pw_rprog *p, const int *vals, unsigned int n)
{
	struct pw_wire_prog_node *r;
	unsigned int i, j;

	if (p->err)
		return p->err;
	if (p->have_results || n > PW_WIRE_MAX_BUFS ||
	    p->nargs + n > PW_WIRE_RUN_IDS)
		return sticky(p, pw_fail(-EINVAL, "program: results given twice or more than %u",
					 PW_WIRE_MAX_BUFS));
	for (i = 0; i < n; i++) {
		if (!val_sig(p, vals[i]) ||
		    p->nodes[VAL_NODE(vals[i])].kind != PW_WIRE_NODE_COMPUTE)
			return sticky(p, pw_fail(-EINVAL, "program: result %u is not a computed value",
						 i));
		for (j = 0; j < i; j++)
			if (vals[j] == vals[i])
				return sticky(p, pw_fail(-EINVAL, "program: results %u and %u are one value",
							 j, i));
	}
	r = add_node(p, PW_WIRE_NODE_RESULT);
	if (!r)
		return p->err;
	r->nin = (uint8_t)n;
	for (i = 0; i < n; i++) {
		r->in[i].node = (uint16_t)VAL_NODE(vals[i]);
		r->in[i].output = (uint16_t)VAL_OUT(vals[i]);
	}
	p->have_results = true;
	return 0;
}

int pw_rprog_place(const struct pw_rprog *p, int v, unsigned int *host,
		   unsigned int *dev)
{
	if (!val_sig(p, v) || !p->places[VAL_NODE(v)].pinned)
		return -EINVAL;
	*host = p->places[VAL_NODE(v)].host;
	*dev = p->places[VAL_NODE(v)].dev;
	return 0;
}

/* Node @n's slice: its own, or the pinned slice of its (host, device). */
static int node_slice(struct pw_remote *r, const struct pw_rprog *p,
		      unsigned int n, uint32_t *slice)
{
	if (!p->places[n].pinned) {
		*slice = p->nodes[n].slice;
		return 0;
	}
	return pw_remote_pinned_slice(r, p->places[n].host, p->places[n].dev,
				      slice);
}

/* Members of the group @slice names (0: a slice, or one unknown here). */
static unsigned int members_of(const struct pw_remote *r, uint32_t slice)
{
	const struct pw_rc_slice *s = pw_remote_slice_find(r, slice);

	return s ? s->members : 0;
}

/*
 * Values pass between groups of as many members (member m's to member
 * m) or between slices, never between a group and a slice: named here,
 * where the client knows its groups, rather than refused as EINVAL.
 */
static int check_groups(const struct pw_remote *r, const struct pw_rprog *p,
			const uint32_t *slices)
{
	unsigned int n, i, from, want, has;

	for (n = 0; n < p->nnodes; n++) {
		if (p->nodes[n].kind != PW_WIRE_NODE_COMPUTE)
			continue;
		want = members_of(r, slices[n]);
		for (i = 0; i < p->nodes[n].nin; i++) {
			from = p->nodes[n].in[i].node;
			has = members_of(r, slices[from]);
			if (has == want)
				continue;
			return pw_fail(-EINVAL, "program: node %u on %s %u (%u members) reads node %u's value on %s %u (%u members): values pass only between groups of as many members, or between slices",
				       n, want ? "group" : "slice", slices[n],
				       want, from, has ? "group" : "slice",
				       slices[from], has);
		}
	}
	return 0;
}

int pw_remote_program(struct pw_remote *r, const struct pw_rprog *p,
		      uint32_t *prog_id)
{
	uint32_t *slices, res_slice[PW_WIRE_MAX_BUFS];
	unsigned int i = 0, n, nres = 0, ncomp = 0;
	struct pw_wire_program *w;
	struct pw_wire_msg m;
	struct pw_hostset hosts = { { 0 } };
	uint32_t id;
	int ret = 0;

	if (p->err)
		return pw_fail(p->err, "program: building it failed earlier");
	if (!p->nnodes)
		return pw_fail(-EINVAL, "program: empty");
	slices = calloc(p->nnodes, sizeof(*slices));
	if (!slices)
		return pw_fail(-ENOMEM, "program: no memory");
	for (n = 0; n < p->nnodes && !ret; n++)
		if (p->nodes[n].kind != PW_WIRE_NODE_RESULT)
			ret = node_slice(r, p, n, &slices[n]);
	if (!ret)
		ret = check_groups(r, p, slices);
	if (ret) {
		free(slices);
		return ret;
	}
	id = pw_remote_next_obj_id(r);
	pw_rc_lock(r);
	r->want_program = id;
	r->have_program_ack = false;
	pw_rc_unlock(r);
	while (i < p->nnodes && !ret) {
		memset(&m, 0, sizeof(m));
		m.hdr.type = PW_WIRE_PROGRAM;
		w = &m.body.program;
		w->program_id = id;
		w->nnodes_total = (uint16_t)p->nnodes;
		w->first_node = (uint16_t)i;
		w->nargs = (uint16_t)p->nargs;
		for (; i < p->nnodes && w->nnodes < PW_WIRE_PROG_NODES; i++) {
			w->nodes[w->nnodes] = p->nodes[i];
			w->nodes[w->nnodes].slice = slices[i];
			w->nnodes++;
		}
		ret = pw_rc_send(r, &m);
	}
	if (!ret)
		ret = pw_remote_program_wait(r, &hosts);
	for (n = 0; n < p->nnodes; n++) {
		const struct pw_wire_prog_node *res = &p->nodes[n];

		if (res->kind != PW_WIRE_NODE_RESULT)
			continue;
		for (nres = 0; nres < res->nin; nres++)
			res_slice[nres] = slices[res->in[nres].node];
	}
	free(slices);
	if (ret == -ENOSPC)
		return pw_fail(ret, "program of %u nodes: the controller holds %u programs of this client, its limit",
			       p->nnodes, PW_CTL_CLIENT_PROGRAMS);
	if (ret == -E2BIG)
		return pw_fail(ret, "program of %u nodes: too big to lower (a controller's bounds: %u commands on one host, %u in all by default, shards under 4 GiB, temporaries and gathers in their symbol bits)",
			       p->nnodes, PW_WIRE_MAX_PLAN_CMDS,
			       PW_CTL_PROGRAM_CMDS);
	if (ret)
		return pw_fail(ret, "program of %u nodes: the controller refused it: %s",
			       p->nnodes, strerror(-ret));
	for (n = 0; n < p->nnodes; n++)
		ncomp += p->nodes[n].kind == PW_WIRE_NODE_COMPUTE;
	ret = pw_remote_program_add(r, id, nres, ncomp, res_slice, &hosts);
	if (ret)
		return pw_fail(ret, "program: no memory");
	*prog_id = id;
	return 0;
}
