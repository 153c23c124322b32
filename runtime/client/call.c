// SPDX-License-Identifier: GPL-2.0
/*
 * call.c - pw_call() outside a program (OpByOp): a one-node program,
 * registered with the controller the first time its function meets its
 * slices and run with one RUN after that. Results are futures: a buffer
 * made by a run holds the run's ticket until it is waited for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/wire.h>

#include "client.h"
#include "program.h"

int pw_client_fn_id(struct pw_client *c, struct pw_fn *fn, uint32_t *id)
{
	struct pw_cfn *f;
	unsigned int i;
	int ret;

	for (i = 0; i < c->nfns; i++)
		if (c->fns[i].fn == fn) {
			*id = c->fns[i].id;
			return 0;
		}
	f = realloc(c->fns, (c->nfns + 1) * sizeof(*f));
	if (!f)
		return pw_fail(-ENOMEM, "out of host memory");
	c->fns = f;
	ret = pw_remote_function(c->r, fn, id);
	if (ret)
		return ret;
	c->fns[c->nfns].fn = pw_fn_get(fn);
	c->fns[c->nfns++].id = *id;
	return 0;
}

int pw_check_results(struct pw_client *c, const struct pw_fn *fn,
		     const struct pw_slice *slice)
{
	uint64_t hbm = pw_remote_slice_hbm(c->r, slice->rid);
	unsigned int i;

	for (i = 0; i < fn->nresults; i++)
		if (pw_sig_bytes(&fn->results[i]) > hbm)
			return pw_fail(-E2BIG, "%s: result %u of %llu bytes a shard is larger than a device's HBM (%llu bytes)",
				       fn->name, i,
				       (unsigned long long)pw_sig_bytes(&fn->results[i]),
				       (unsigned long long)hbm);
	return 0;
}

int pw_client_run(struct pw_client *c, uint32_t prog, const uint32_t *args,
		  unsigned int nargs, struct pw_slice *const *slices,
		  const struct pw_sig *sigs, unsigned int nres,
		  struct pw_buffer **out)
{
	uint32_t ids[PWTPU_MAX_BUFS];
	struct pw_crun *r;
	unsigned int i, k;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return pw_fail(-ENOMEM, "out of host memory");
	ret = pw_remote_run_async(c->r, prog, args, nargs, ids, nres,
				  &r->ticket);
	if (ret) {
		free(r);
		return ret;
	}
	r->refs = 1;
	for (i = 0; i < nres; i++) {
		ret = pw_buffer_new(c, &sigs[i], slices[i], ids[i], r, &out[i]);
		if (ret)
			break;
	}
	if (ret) {
		/* The results without a buffer go on the workers too. */
		for (k = i; k < nres; k++)
			pw_remote_free(c->r, 0, ids[k]);
		while (i-- > 0) {
			pw_buffer_put(out[i]);
			out[i] = NULL;
		}
	}
	pw_crun_put(c, r);
	return ret;
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
	if (b->owner != c)
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

/* Register the one-node program of @fn on @slice with inputs like @in. */
static int call_register(struct pw_client *c, struct pw_fn *fn,
			 struct pw_slice *slice, struct pw_buffer *const *in,
			 uint32_t *prog)
{
	int v[PWTPU_MAX_BUFS], out[PWTPU_MAX_BUFS];
	struct pw_rprog *p;
	unsigned int j;
	uint32_t id;
	int ret;

	ret = pw_client_fn_id(c, fn, &id);
	if (ret)
		return ret;
	p = pw_rprog_begin();
	if (!p)
		return pw_fail(-ENOMEM, "out of host memory");
	for (j = 0; j < fn->nparams; j++) {
		const struct pw_slice *s = in[j]->slice;

		v[j] = pw_rprog_arg_sharded(p, s->rid, s->n, in[j]->sig.dtype,
					    in[j]->sig.rank, in[j]->sig.shape);
	}
	pw_rprog_call_sharded(p, fn, id, slice->rid, slice->n, v, fn->nparams,
			      out);
	pw_rprog_results(p, out, fn->nresults);
	ret = pw_remote_program(c->r, p, prog);
	pw_rprog_free(p);
	return ret;
}

/* The one-node program of @fn on @slice with inputs on @in's slices. */
static int call_prog(struct pw_client *c, struct pw_fn *fn,
		     struct pw_slice *slice, struct pw_buffer *const *in,
		     uint32_t *prog)
{
	struct pw_ccall *k;
	unsigned int i, j;
	int ret;

	for (i = 0; i < c->ncalls; i++) {
		k = &c->calls[i];
		if (k->fn != fn || k->slice != slice)
			continue;
		for (j = 0; j < fn->nparams; j++)
			if (k->in[j] != in[j]->slice)
				break;
		if (j == fn->nparams) {
			*prog = k->prog;
			return 0;
		}
	}
	ret = call_register(c, fn, slice, in, prog);
	if (ret)
		return ret;
	k = realloc(c->calls, (c->ncalls + 1) * sizeof(*k));
	if (!k)
		return 0;	/* works, only not kept */
	c->calls = k;
	k = &c->calls[c->ncalls++];
	memset(k, 0, sizeof(*k));
	k->fn = pw_fn_get(fn);
	k->slice = slice;
	for (j = 0; j < fn->nparams; j++)
		k->in[j] = in[j]->slice;
	k->prog = *prog;
	return 0;
}

int pw_client_call(struct pw_client *c, struct pw_fn *fn,
		   struct pw_slice *slice, struct pw_buffer *const *in,
		   unsigned int nin, struct pw_buffer **out)
{
	struct pw_slice *slices[PWTPU_MAX_BUFS];
	uint32_t args[PWTPU_MAX_BUFS], prog;
	unsigned int i;
	int ret;

	ret = pw_slice_check(slice);
	if (ret)
		return ret;
	if (fn->group_size && fn->group_size != slice->n)
		return pw_fail(-EINVAL, "%s: its collectives are shaped for %u devices, the slice has %u",
			       fn->name, fn->group_size, slice->n);
	for (i = 0; i < nin; i++) {
		ret = check_input(c, fn, i, in[i], slice);
		if (ret)
			return ret;
		args[i] = in[i]->id;
	}
	ret = pw_check_results(c, fn, slice);
	if (!ret)
		ret = call_prog(c, fn, slice, in, &prog);
	if (ret)
		return ret;
	for (i = 0; i < fn->nresults; i++)
		slices[i] = slice;
	return pw_client_run(c, prog, args, nin, slices, fn->results,
			     fn->nresults, out);
}

int pw_call(struct pw_client *c, struct pw_fn *fn, struct pw_slice *slice,
	    struct pw_buffer *const *in, unsigned int nin,
	    struct pw_buffer **out, unsigned int nout)
{
	int ret;

	if (!c || !fn || !slice || (nin && !in) || !out)
		return pw_fail(-EINVAL, "pw_call: NULL argument");
	if (nin != fn->nparams || nout != fn->nresults)
		return pw_fail(-EINVAL, "%s takes %u inputs and gives %u results, not %u and %u",
			       fn->name, fn->nparams, fn->nresults, nin, nout);
	if (atomic_load(&c->closing))
		return pw_fail(-ESHUTDOWN, "client is disconnecting");
	pw_client_lock(c);
	ret = c->trace ? pw_trace_call(c, fn, slice, in, nin, out) :
	      pw_client_call(c, fn, slice, in, nin, out);
	pw_client_unlock(c);
	return ret;
}
