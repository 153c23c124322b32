// SPDX-License-Identifier: GPL-2.0
/*
 * remote.c - pathways.h's client of a controller at an address
 * (pw_connect() with IP:PORT, or PATHWAYS_CONTROLLER): the same calls as
 * the embedded runtime, carried by the one runtime's wire protocol
 * (runtime/dcn/rclient.c). Slices are placed by the controller's
 * resource managers, buffers are sharded in the workers' object stores,
 * a traced program is registered once when it ends and each run is one
 * RUN; a call outside a program is a one-node program, registered the
 * first time its function meets its slices and run after that. Results
 * are futures: a buffer made by a run holds the run's ticket until it
 * is waited for. Scheduling weights are the operator's, not a client's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/remote.h>
#include <pathways/wire.h>

#include "program.h"

/* A run whose results are buffers: waited for once, by whichever asks. */
struct pw_cr_run {
	int refs;
	uint32_t ticket;
	bool done;
	int err;
};

/* A remote buffer's part of struct pw_buffer (@rpriv). */
struct pw_cr_buf {
	uint32_t id;
	struct pw_slice *slice;
	struct pw_cr_run *run;
};

/* A one-node program of pw_call(), kept for its function and slices. */
struct pw_cr_call {
	struct pw_fn *fn;
	struct pw_slice *slice;
	struct pw_slice *in[PWTPU_MAX_BUFS];
	uint32_t prog;
};

/* A function registered with the controller. */
struct pw_cr_fn {
	struct pw_fn *fn;
	uint32_t id;
};

/**
 * struct pw_cr - the remote part of a client (pw_client.remote_state)
 * @r: the connection.
 * @fns: functions it registered (@nfns), holding a reference each.
 * @calls: one-node programs of pw_call() (@ncalls).
 * @slices: slices of its sets, freed at disconnect (@nslices).
 * @bufs: live buffers, freed at disconnect (@nbufs), for collection.
 */
struct pw_cr {
	struct pw_remote *r;
	struct pw_cr_fn *fns;
	unsigned int nfns;
	struct pw_cr_call *calls;
	unsigned int ncalls;
	struct pw_slice **slices;
	unsigned int nslices;
	struct pw_buffer **bufs;
	unsigned int nbufs;
};

static struct pw_cr *cr_of(const struct pw_client *c)
{
	return c->remote_state;
}

/* The last result of a run gone unwaited: the client forgets the run. */
static void run_put(struct pw_cr *cr, struct pw_cr_run *run)
{
	if (!run || --run->refs)
		return;
	if (!run->done && cr)
		pw_remote_forget(cr->r, run->ticket);
	free(run);
}

int pw_cr_connect(const struct pw_connect_opts *opts, const char *address,
		  struct pw_client **out)
{
	struct pw_client *c;
	struct pw_cr *cr;
	int ret;

	c = calloc(1, sizeof(*c));
	cr = calloc(1, sizeof(*cr));
	if (!c || !cr) {
		free(c);
		free(cr);
		return pw_fail(-ENOMEM, "out of host memory");
	}
	ret = pw_remote_connect(address, opts && opts->name ? opts->name :
				"client", &cr->r);
	if (ret) {
		free(c);
		free(cr);
		return ret;	/* its message stands */
	}
	/* The controller decides whether a client may set its own weight. */
	if (opts && opts->weight > 1) {
		ret = pw_remote_set_weight(cr->r, NULL, opts->weight);
		if (ret) {
			pw_remote_close(cr->r);
			free(c);
			free(cr);
			return ret;
		}
	}
	pthread_mutex_init(&c->lock, NULL);
	c->weight = opts && opts->weight ? opts->weight : 1;
	snprintf(c->name, sizeof(c->name), "%s",
		 opts && opts->name ? opts->name : "client");
	c->remote_state = cr;
	*out = c;
	return 0;
}

void pw_cr_stats(struct pw_client *c, struct pw_client_stats *st)
{
	struct pw_cr *cr = cr_of(c);
	unsigned int i;

	pw_remote_stats(cr->r, st);
	/* The shards of its live buffers, wherever the workers hold them. */
	for (i = 0; i < cr->nbufs; i++)
		st->hbm_bytes += cr->bufs[i]->nshards *
				 cr->bufs[i]->shard_bytes;
}

int pw_cr_set_device(struct pw_client *c, unsigned int dev, bool in_service)
{
	struct pw_cr *cr = cr_of(c);
	unsigned int h, first = 0, n, i, v;
	int ret;

	/* Devices are numbered over the islands, in host order. */
	for (h = 0; h < PW_WIRE_MAX_HOSTS; h++) {
		n = pw_remote_host_devices(cr->r, h);
		if (dev < first + n)
			break;
		first += n;
	}
	if (h == PW_WIRE_MAX_HOSTS)
		return pw_fail(-EINVAL, "device %u: the cluster has %u devices",
			       dev, first);
	ret = pw_remote_set_device(cr->r, h, dev - first, in_service);
	if (ret || in_service)
		return ret;
	/* This client's slices on it fail, and stay failed. */
	for (i = 0; i < cr->nslices; i++) {
		struct pw_slice *s = cr->slices[i];

		if (pw_remote_slice_host(cr->r, s->rid) != (int)h)
			continue;
		for (v = 0; v < s->n; v++)
			if (s->devs[v] == dev - first && !s->failed_dev)
				s->failed_dev = (int)(dev - first) + 1;
	}
	return 0;
}

/* -ENODEV naming the device when @s lost one this client took out. */
static int slice_ok(const struct pw_slice *s)
{
	if (s->failed_dev)
		return pw_fail(-ENODEV, "the slice's device %d was taken out of service: the slice stays failed",
			       s->failed_dev - 1);
	return 0;
}

int pw_cr_set_policy(struct pw_client *c, enum pw_sched_policy policy,
		     unsigned int window)
{
	return pw_remote_set_policy(cr_of(c)->r, policy, window);
}

int pw_cr_set_weight(struct pw_client *c, unsigned int weight)
{
	int ret = pw_remote_set_weight(cr_of(c)->r, NULL, weight);

	if (!ret)
		c->weight = weight;
	return ret;
}

static void buf_free(struct pw_cr *cr, struct pw_buffer *buf)
{
	struct pw_cr_buf *rb = buf->rpriv;

	run_put(cr, rb->run);
	free(rb);
	free(buf);
}

void pw_cr_disconnect(struct pw_client *c)
{
	struct pw_cr *cr = cr_of(c);
	unsigned int i;

	atomic_store(&c->closing, true);
	/* Programs first: they hold references on captured buffers. */
	pw_program_collect(c);
	/* BYE: the controller and the workers free all the client had. */
	pw_remote_close(cr->r);
	for (i = 0; i < cr->nbufs; i++)
		buf_free(NULL, cr->bufs[i]);	/* the connection is gone */
	for (i = 0; i < cr->nfns; i++)
		pw_fn_put(cr->fns[i].fn);
	for (i = 0; i < cr->ncalls; i++)
		pw_fn_put(cr->calls[i].fn);
	for (i = 0; i < cr->nslices; i++)
		free(cr->slices[i]);
	for (i = 0; i < c->nvsets; i++) {
		free(c->vsets[i]->slices);
		free(c->vsets[i]);
	}
	free(c->vsets);
	free(cr->bufs);
	free(cr->fns);
	free(cr->calls);
	free(cr->slices);
	free(cr);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int pw_cr_num_devices(struct pw_client *c)
{
	unsigned int h, n = 0;

	for (h = 0; h < PW_WIRE_MAX_HOSTS; h++)
		n += pw_remote_host_devices(cr_of(c)->r, h);
	return (int)n;
}

int pw_cr_add_slice(struct pw_vset *vs, unsigned int n, const char *shape,
		    struct pw_slice **out)
{
	struct pw_cr *cr = cr_of(vs->client);
	struct pw_slice **all, *s;
	unsigned int i;
	int ret;

	all = realloc(cr->slices, (cr->nslices + 1) * sizeof(*all));
	if (!all)
		return pw_fail(-ENOMEM, "out of host memory");
	cr->slices = all;
	s = calloc(1, sizeof(*s));
	if (!s)
		return pw_fail(-ENOMEM, "out of host memory");
	ret = pw_remote_slice(cr->r, n, shape, &s->rid);
	if (ret) {
		free(s);
		return ret;
	}
	s->n = n;
	for (i = 0; i < n; i++)
		s->devs[i] = (uint8_t)pw_remote_slice_device(cr->r, s->rid, i);
	all[cr->nslices++] = s;
	*out = s;
	return 0;
}

static const struct pw_buffer_ops cr_buffer_ops;

struct pw_slice *pw_cr_buffer_slice(const struct pw_buffer *buf)
{
	return buf->rpriv ? ((const struct pw_cr_buf *)buf->rpriv)->slice :
	       NULL;
}

/* A client-side remote buffer of @n shards of @sig on @slice, id @id. */
static int buf_new(struct pw_client *c, const struct pw_sig *sig,
		   struct pw_slice *slice, uint32_t id, struct pw_cr_run *run,
		   struct pw_buffer **out)
{
	struct pw_cr *cr = cr_of(c);
	struct pw_buffer **all, *buf;
	struct pw_cr_buf *rb;

	all = realloc(cr->bufs, (cr->nbufs + 1) * sizeof(*all));
	if (!all)
		return pw_fail(-ENOMEM, "out of host memory");
	cr->bufs = all;
	buf = calloc(1, sizeof(*buf));
	rb = calloc(1, sizeof(*rb));
	if (!buf || !rb) {
		free(buf);
		free(rb);
		return pw_fail(-ENOMEM, "out of host memory");
	}
	atomic_init(&buf->refs, 1);
	buf->owner = c;
	buf->sig = *sig;
	buf->shard_bytes = pw_sig_bytes(sig);
	buf->nshards = slice->n;
	buf->node = -1;
	buf->rops = &cr_buffer_ops;
	buf->rpriv = rb;
	rb->id = id;
	rb->slice = slice;
	rb->run = run;
	if (run)
		run->refs++;
	all[cr->nbufs++] = buf;
	*out = buf;
	return 0;
}

int pw_cr_buffer_from_host(struct pw_client *c, struct pw_slice *slice,
			   const struct pw_sig *sig, const void *data,
			   bool replicate, struct pw_buffer **out)
{
	uint32_t id;
	int ret;

	if (!slice->rid)
		return pw_fail(-EINVAL, "a slice of another runtime");
	ret = slice_ok(slice);
	if (ret)
		return ret;
	ret = pw_remote_buffer_sharded(cr_of(c)->r, slice->rid, sig->dtype,
				       sig->rank, sig->shape, data, replicate,
				       &id);
	return ret ? ret : buf_new(c, sig, slice, id, NULL, out);
}

static int cr_wait(struct pw_buffer *buf)
{
	struct pw_cr_buf *rb = buf->rpriv;
	struct pw_cr_run *run = rb->run;

	if (run && !run->done) {
		run->err = pw_remote_wait(cr_of(buf->owner)->r, run->ticket);
		run->done = true;
		/* Given up on: its DONE, if it ever comes, frees its slot. */
		if (run->err == -ETIMEDOUT)
			pw_remote_forget(cr_of(buf->owner)->r, run->ticket);
	}
	if (run && run->err == -ENOMEM)
		return pw_fail(run->err, "the computation making this buffer failed: a device's HBM was full and nothing under way freed it");
	if (run && run->err)
		return pw_fail(run->err, "the computation making this buffer failed: %s",
			       strerror(-run->err));
	return 0;
}

static int cr_to_host(struct pw_buffer *buf, void *data, size_t size)
{
	struct pw_cr_buf *rb = buf->rpriv;
	int ret = cr_wait(buf);

	if (ret)
		return ret;
	return pw_remote_read(cr_of(buf->owner)->r, 0, rb->id, data, size);
}

/* The last reference went: the workers free the shards too. */
static void cr_release(struct pw_buffer *buf)
{
	struct pw_cr *cr = cr_of(buf->owner);
	struct pw_cr_buf *rb = buf->rpriv;
	unsigned int i;

	/* A run still making it is waited for by nobody now: that is fine. */
	pw_remote_free(cr->r, 0, rb->id);
	for (i = 0; i < cr->nbufs; i++)
		if (cr->bufs[i] == buf)
			cr->bufs[i] = cr->bufs[--cr->nbufs];
	buf_free(cr, buf);
}

static const struct pw_buffer_ops cr_buffer_ops = {
	.wait = cr_wait,
	.to_host = cr_to_host,
	.release = cr_release,
};

/* The controller's id of @fn for this client, registering it once. */
static int fn_id(struct pw_cr *cr, struct pw_fn *fn, uint32_t *id)
{
	struct pw_cr_fn *f;
	unsigned int i;
	int ret;

	for (i = 0; i < cr->nfns; i++)
		if (cr->fns[i].fn == fn) {
			*id = cr->fns[i].id;
			return 0;
		}
	f = realloc(cr->fns, (cr->nfns + 1) * sizeof(*f));
	if (!f)
		return pw_fail(-ENOMEM, "out of host memory");
	cr->fns = f;
	ret = pw_remote_function(cr->r, fn, id);
	if (ret)
		return ret;
	cr->fns[cr->nfns].fn = pw_fn_get(fn);
	cr->fns[cr->nfns++].id = *id;
	return 0;
}

static int check_input(const struct pw_client *c, const struct pw_fn *fn,
		       unsigned int i, const struct pw_buffer *b,
		       const struct pw_slice *slice)
{
	char want[64], got[64];

	if (!b)
		return pw_fail(-EINVAL, "%s: input %u is NULL", fn->name, i);
	if (b->prog)
		return pw_fail(-EINVAL, "%s: input %u is a traced value outside its program",
			       fn->name, i);
	if (!b->rpriv || b->owner != c)
		return pw_fail(-EINVAL, "%s: input %u belongs to client \"%s\": a client computes on its own buffers",
			       fn->name, i, b->owner->name);
	if (b->nshards == slice->n && pw_sig_equal(&b->sig, &fn->params[i]))
		return 0;
	/* The controller reshards as many bytes of one dtype. */
	if (b->sig.dtype == fn->params[i].dtype &&
	    b->nshards * pw_sig_bytes(&b->sig) ==
	    slice->n * pw_sig_bytes(&fn->params[i]))
		return 0;
	return pw_fail(-EINVAL, "%s: input %u is %u shards of %s; the call needs %u shards of %s (or as many bytes of that dtype to reshard)",
		       fn->name, i, b->nshards,
		       pw_sig_format(&b->sig, got, sizeof(got)), slice->n,
		       pw_sig_format(&fn->params[i], want, sizeof(want)));
}

/* The one-node program of @fn on @slice with inputs on @in's slices. */
static int call_prog(struct pw_client *c, struct pw_fn *fn,
		     struct pw_slice *slice, struct pw_buffer *const *in,
		     uint32_t *prog)
{
	struct pw_cr *cr = cr_of(c);
	struct pw_cr_call *k;
	struct pw_rprog *p;
	int v[PWTPU_MAX_BUFS], out[PWTPU_MAX_BUFS];
	unsigned int i, j;
	uint32_t id;
	int ret;

	for (i = 0; i < cr->ncalls; i++) {
		k = &cr->calls[i];
		if (k->fn != fn || k->slice != slice)
			continue;
		for (j = 0; j < fn->nparams; j++)
			if (k->in[j] != ((struct pw_cr_buf *)in[j]->rpriv)->slice)
				break;
		if (j == fn->nparams) {
			*prog = k->prog;
			return 0;
		}
	}
	ret = fn_id(cr, fn, &id);
	if (ret)
		return ret;
	p = pw_rprog_begin();
	if (!p)
		return pw_fail(-ENOMEM, "out of host memory");
	for (j = 0; j < fn->nparams; j++) {
		const struct pw_slice *s = ((struct pw_cr_buf *)in[j]->rpriv)->slice;

		v[j] = pw_rprog_arg_sharded(p, s->rid, s->n, in[j]->sig.dtype,
					    in[j]->sig.rank, in[j]->sig.shape);
	}
	pw_rprog_call_sharded(p, fn, id, slice->rid, slice->n, v, fn->nparams,
			      out);
	pw_rprog_results(p, out, fn->nresults);
	ret = pw_remote_program(cr->r, p, prog);
	pw_rprog_free(p);
	if (ret)
		return ret;
	k = realloc(cr->calls, (cr->ncalls + 1) * sizeof(*k));
	if (!k)
		return 0;	/* works, only not kept */
	cr->calls = k;
	k = &cr->calls[cr->ncalls++];
	memset(k, 0, sizeof(*k));
	k->fn = pw_fn_get(fn);
	k->slice = slice;
	for (j = 0; j < fn->nparams; j++)
		k->in[j] = ((struct pw_cr_buf *)in[j]->rpriv)->slice;
	k->prog = *prog;
	return 0;
}

/* Run @prog on @args; results (futures) on @slices, of @sigs. */
static int run(struct pw_client *c, uint32_t prog, const uint32_t *args,
	       unsigned int nargs, struct pw_slice *const *slices,
	       const struct pw_sig *sigs, unsigned int nres,
	       struct pw_buffer **out)
{
	struct pw_cr *cr = cr_of(c);
	uint32_t ids[PWTPU_MAX_BUFS];
	struct pw_cr_run *r;
	unsigned int i;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return pw_fail(-ENOMEM, "out of host memory");
	ret = pw_remote_run_async(cr->r, prog, args, nargs, ids, nres,
				  &r->ticket);
	if (ret) {
		free(r);
		return ret;
	}
	r->refs = 1;
	for (i = 0; i < nres; i++) {
		ret = buf_new(c, &sigs[i], slices[i], ids[i], r, &out[i]);
		if (ret)
			break;
	}
	if (ret)
		while (i-- > 0)
			pw_buffer_put(out[i]);
	run_put(cr, r);
	return ret;
}

/* A result shard larger than a device's HBM can never be made. */
static int check_results(struct pw_cr *cr, const struct pw_fn *fn,
			 const struct pw_slice *slice)
{
	uint64_t hbm = pw_remote_slice_hbm(cr->r, slice->rid);
	unsigned int i;

	for (i = 0; i < fn->nresults; i++)
		if (pw_sig_bytes(&fn->results[i]) > hbm)
			return pw_fail(-E2BIG, "%s: result %u of %llu bytes a shard is larger than a device's HBM (%llu bytes)",
				       fn->name, i,
				       (unsigned long long)pw_sig_bytes(&fn->results[i]),
				       (unsigned long long)hbm);
	return 0;
}

int pw_cr_call(struct pw_client *c, struct pw_fn *fn, struct pw_slice *slice,
	       struct pw_buffer *const *in, unsigned int nin,
	       struct pw_buffer **out)
{
	struct pw_slice *slices[PWTPU_MAX_BUFS];
	uint32_t args[PWTPU_MAX_BUFS], prog;
	unsigned int i;
	int ret;

	if (!slice->rid)
		return pw_fail(-EINVAL, "%s: a slice of another runtime", fn->name);
	ret = slice_ok(slice);
	if (ret)
		return ret;
	if (fn->group_size && fn->group_size != slice->n)
		return pw_fail(-EINVAL, "%s: its collectives are shaped for %u devices, the slice has %u",
			       fn->name, fn->group_size, slice->n);
	for (i = 0; i < nin; i++) {
		ret = check_input(c, fn, i, in[i], slice);
		if (ret)
			return ret;
		args[i] = ((struct pw_cr_buf *)in[i]->rpriv)->id;
	}
	ret = check_results(cr_of(c), fn, slice);
	if (!ret)
		ret = call_prog(c, fn, slice, in, &prog);
	if (ret)
		return ret;
	for (i = 0; i < fn->nresults; i++)
		slices[i] = slice;
	return run(c, prog, args, nin, slices, fn->results, fn->nresults, out);
}

/* The slice and signature edge @e of @p carries. */
static void edge_place(const struct pw_program *p, const struct pw_edge *e,
		       struct pw_slice **slice, struct pw_sig *sig)
{
	const struct pw_node *n = &p->nodes[e->node];

	*slice = n->slice;
	*sig = n->kind == PW_NODE_ARG ? n->sig : n->fn->results[e->output];
}

int pw_cr_program_end(struct pw_program *p)
{
	struct pw_cr *cr = cr_of(p->client);
	int *val, in[PWTPU_MAX_BUFS], out[PWTPU_MAX_BUFS];
	struct pw_rprog *rp = pw_rprog_begin();
	unsigned int i, j, nr = 0;
	uint32_t id;
	int ret = 0;

	/* Nothing computed: nothing to register, and a run does nothing. */
	for (i = 0; i < p->nnodes && p->nodes[i].kind != PW_NODE_COMPUTE; i++)
		;
	if (i == p->nnodes) {
		pw_rprog_free(rp);
		return 0;
	}
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
			ret = check_results(cr, n->fn, n->slice);
			if (!ret)
				ret = fn_id(cr, n->fn, &id);
			/* The tracer checked the inputs; rprog does again. */
			for (j = 0; j < n->nin && !ret; j++)
				in[j] = val[n->in[j].node] + (int)n->in[j].output;
			if (!ret)
				ret = pw_rprog_call_sharded(rp, n->fn, id,
							    n->slice->rid,
							    n->slice->n, in,
							    n->nin, out);
			if (!ret)
				val[i] = out[0];
			break;
		case PW_NODE_RESULT:
			for (j = 0; j < n->nin; j++)
				in[j] = val[n->in[j].node] + (int)n->in[j].output;
			ret = pw_rprog_results(rp, in, n->nin);
			break;
		}
	}
	p->nrargs = nr;
	if (!ret)
		ret = pw_remote_program(cr->r, rp, &p->rid);
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

int pw_cr_program_run(struct pw_program *p, struct pw_buffer *const *args,
		      unsigned int nargs, struct pw_buffer **results)
{
	const struct pw_node *res = &p->nodes[p->nnodes - 1];
	struct pw_slice *slices[PWTPU_MAX_BUFS];
	struct pw_sig sigs[PWTPU_MAX_BUFS];
	uint32_t ids[PW_WIRE_RUN_IDS];
	unsigned int i;

	if (!p->rid)
		return 0;	/* it computes nothing */
	for (i = 0; i < p->nnodes; i++)
		if (p->nodes[i].slice && slice_ok(p->nodes[i].slice))
			return -ENODEV;
	if (p->nrargs > PW_WIRE_RUN_IDS)
		return pw_fail(-E2BIG, "%u arguments and captured buffers: at most %u",
			       p->nrargs, PW_WIRE_RUN_IDS);
	for (i = 0; i < p->nrargs; i++) {
		int a = p->rargs[i];
		const struct pw_node *n = a >= 0 ? arg_node(p, a) :
					  &p->nodes[-1 - a];
		const struct pw_buffer *b = a >= 0 ? args[a] : n->captured;

		if (a >= 0 && (unsigned int)a >= nargs)
			return pw_fail(-EINVAL, "argument %d missing", a);
		if (!b || !b->rpriv || b->owner != p->client)
			return pw_fail(-EINVAL, "argument %u is not a buffer of this client",
				       i);
		/* The program was lowered for its arguments' slices. */
		if (((const struct pw_cr_buf *)b->rpriv)->slice != n->slice)
			return pw_fail(-EINVAL, "argument %d lives on another slice than the program's argument: make it on that slice",
				       a);
		ids[i] = ((const struct pw_cr_buf *)b->rpriv)->id;
	}
	for (i = 0; i < res->nin; i++)
		edge_place(p, &res->in[i], &slices[i], &sigs[i]);
	return run(p->client, p->rid, ids, p->nrargs, slices, sigs, res->nin,
		   results);
}
