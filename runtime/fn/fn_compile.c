// SPDX-License-Identifier: GPL-2.0
/*
 * fn_compile.c - pw_fn_build(): lay a builder's IR out as a program image
 * with the buffer bindings of fn.h, and the life of the struct pw_fn it
 * becomes (references, accessors).
 *
 * Every value is one tensor, every op one instruction, in call order.
 * An op whose value is a result writes straight into that result's
 * binding; every other op value lives in the scratch binding. A result
 * that cannot be written in place (a parameter, a constant, or a value
 * that is already another result) is copied there by a RESHAPE to its
 * own shape, after the ops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pwtpu/pwprog.h>

#include "fn_ir.h"

static atomic_uint_fast64_t pw_fn_next_id;

/*
 * Host tests link the builder without the worker; the worker's strong
 * definition (runtime/worker/) replaces this one when it is linked.
 */
__attribute__((weak)) void pw_worker_unload_fn(struct pw_fn *fn)
{
	(void)fn;
}

/**
 * struct fn_layout - where the image puts each value
 * @owner: per value: the result whose binding the op writes, or -1.
 * @offset: per value: byte offset in its binding.
 * @copy: per result: tensor of the RESHAPE copy, or -1 if written in
 *	place.
 * @ncopies: results that need a copy.
 * @scratch_bytes: size of the scratch binding (0: none).
 * @nbufs: bindings.
 * @scratch_buf: binding of the scratch, or -1.
 * @const_buf: binding of the constants, or -1.
 */
struct fn_layout {
	int *owner;
	uint64_t *offset;
	int *copy;
	unsigned int ncopies;
	uint64_t scratch_bytes;
	unsigned int nbufs;
	int scratch_buf;
	int const_buf;
};

static void fn_layout_free(struct fn_layout *l)
{
	free(l->owner);
	free(l->offset);
	free(l->copy);
}

/* Decide every value's binding and offset, and which results copy. */
static int fn_plan(struct pw_fn_builder *b, struct fn_layout *l)
{
	const struct pw_fn_val *v;
	uint64_t off, copy_work;
	unsigned int i, r;

	l->owner = malloc(b->nvals * sizeof(*l->owner));
	l->offset = calloc(b->nvals, sizeof(*l->offset));
	l->copy = malloc(b->nresults * sizeof(*l->copy));
	if (!l->owner || !l->offset || !l->copy)
		return pw_fail(-ENOMEM, "pw_fn_build(%s): out of memory",
			       b->name);
	for (i = 0; i < b->nvals; i++)
		l->owner[i] = -1;
	for (r = 0; r < b->nresults; r++) {
		i = (unsigned int)b->results[r];
		l->copy[r] = -1;
		if (b->vals[i].kind == PW_FN_VAL_OP && l->owner[i] < 0) {
			l->owner[i] = (int)r;
		} else {
			l->copy[r] = 0;	/* its tensor is made later */
			l->ncopies++;
		}
	}
	for (i = 0; i < b->nvals; i++) {
		v = &b->vals[i];
		if (v->kind == PW_FN_VAL_CONST)
			l->offset[i] = v->const_offset;
		if (v->kind != PW_FN_VAL_OP || l->owner[i] >= 0)
			continue;
		off = (l->scratch_bytes + PW_FN_ALIGN - 1) &
		      ~(uint64_t)(PW_FN_ALIGN - 1);
		l->offset[i] = off;
		l->scratch_bytes = off + pw_sig_bytes(&v->sig);
		/* Each value is at most 2^28 bytes: the sum cannot wrap. */
		if (l->scratch_bytes > PWTPU_MAX_OFFSET)
			return pw_fail(-E2BIG,
				       "pw_fn_build(%s): intermediates take more than %llu bytes",
				       b->name,
				       (unsigned long long)PWTPU_MAX_OFFSET);
	}
	/* Each result copy is a RESHAPE: its elements are work too. */
	for (r = 0, copy_work = 0; r < b->nresults; r++)
		if (l->copy[r] >= 0)
			copy_work += pw_sig_elems(&b->vals[b->results[r]].sig);
	if (copy_work > PWTPU_MAX_WORK - b->work)
		return pw_fail(-E2BIG,
			       "pw_fn_build(%s): with its result copies the function's work passes the device's %llu units",
			       b->name, (unsigned long long)PWTPU_MAX_WORK);
	if (l->ncopies > PWTPU_MAX_DYN_INSNS - b->dyn_insns)
		return pw_fail(-E2BIG,
			       "pw_fn_build(%s): with its result copies a run executes more than the device's %u instructions",
			       b->name, PWTPU_MAX_DYN_INSNS);
	if (b->auto_loops && pw_fn_fix_trips(b, l->ncopies, copy_work))
		return -E2BIG;
	if (b->nvals + l->ncopies > PWTPU_MAX_TENSORS)
		return pw_fail(-E2BIG,
			       "pw_fn_build(%s): %u values and %u result copies, more than %u tensors",
			       b->name, b->nvals, l->ncopies,
			       PWTPU_MAX_TENSORS);
	if (b->nops + l->ncopies > PWTPU_MAX_INSNS)
		return pw_fail(-E2BIG,
			       "pw_fn_build(%s): %u ops and %u result copies, more than %u instructions",
			       b->name, b->nops, l->ncopies, PWTPU_MAX_INSNS);
	l->nbufs = b->nparams + b->nresults;
	l->scratch_buf = l->scratch_bytes ? (int)l->nbufs++ : -1;
	l->const_buf = b->const_bytes ? (int)l->nbufs++ : -1;
	/* pw_fn_param() and pw_fn_result() keep this; check anyway. */
	if (l->nbufs > PWTPU_MAX_BUFS)
		return pw_fail(-E2BIG,
			       "pw_fn_build(%s): %u bindings, more than %u",
			       b->name, l->nbufs, PWTPU_MAX_BUFS);
	return 0;
}

/* The binding of value @i. */
static uint32_t fn_val_buf(const struct pw_fn_builder *b,
			   const struct fn_layout *l, unsigned int i)
{
	switch (b->vals[i].kind) {
	case PW_FN_VAL_PARAM:
		return b->vals[i].index;
	case PW_FN_VAL_CONST:
		return (uint32_t)l->const_buf;
	default:
		if (l->owner[i] >= 0)
			return b->nparams + (uint32_t)l->owner[i];
		return (uint32_t)l->scratch_buf;
	}
}

static int fn_operand(int val)
{
	return val < 0 ? PWTPU_NO_TENSOR : val;
}

/* Tensors (value i is tensor i, then the copies) and instructions. */
static int fn_emit(const struct pw_fn_builder *b, struct fn_layout *l,
		   struct pwprog *p)
{
	const struct pw_fn_op *o;
	const struct pw_sig *sig;
	unsigned int i, r;
	int t;

	for (i = 0; i < b->nvals; i++) {
		sig = &b->vals[i].sig;
		t = pwprog_tensor(p, sig->dtype, sig->rank, sig->shape,
				  fn_val_buf(b, l, i), l->offset[i]);
		if (t < 0)
			return t;
	}
	for (r = 0; r < b->nresults; r++) {
		if (l->copy[r] < 0)
			continue;
		sig = &b->vals[b->results[r]].sig;
		t = pwprog_tensor(p, sig->dtype, sig->rank, sig->shape,
				  b->nparams + r, 0);
		if (t < 0)
			return t;
		l->copy[r] = t;
	}
	for (i = 0; i < b->nops; i++) {
		o = &b->ops[i];
		t = pwprog_insn(p, o->op, o->mode, fn_operand(o->dst),
				fn_operand(o->src[0]), fn_operand(o->src[1]),
				fn_operand(o->src[2]), o->args, 5);
		if (t < 0)
			return t;
	}
	for (r = 0; r < b->nresults; r++) {
		if (l->copy[r] < 0)
			continue;
		/* RESHAPE to the same shape is a copy. */
		t = pwprog_unary(p, PWTPU_OP_RESHAPE, l->copy[r],
				 b->results[r]);
		if (t < 0)
			return t;
	}
	return 0;
}

/* Signatures of the parameters and results. */
static int fn_sigs(const struct pw_fn_builder *b, struct pw_fn *fn)
{
	unsigned int i;

	if (b->nparams) {
		fn->params = calloc(b->nparams, sizeof(*fn->params));
		if (!fn->params)
			return -ENOMEM;
	}
	fn->results = calloc(b->nresults, sizeof(*fn->results));
	if (!fn->results)
		return -ENOMEM;
	for (i = 0; i < b->nvals; i++)
		if (b->vals[i].kind == PW_FN_VAL_PARAM)
			fn->params[b->vals[i].index] = b->vals[i].sig;
	for (i = 0; i < b->nresults; i++)
		fn->results[i] = b->vals[b->results[i]].sig;
	return 0;
}

static void fn_free(struct pw_fn *fn)
{
	free(fn->image);
	free(fn->params);
	free(fn->results);
	free(fn->const_data);
	free(fn);
}

/* The function of builder @b, laid out as @l says. */
static int fn_make(struct pw_fn_builder *b, struct fn_layout *l,
		   struct pw_fn **out)
{
	struct pwprog *p = pwprog_new(l->nbufs);
	struct pw_fn *fn = calloc(1, sizeof(*fn));
	int ret = -ENOMEM;

	if (!p || !fn)
		goto fail;
	ret = fn_emit(b, l, p);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	fn->image = pwprog_image(p, &fn->image_size);
	if (!fn->image || fn_sigs(b, fn))
		goto fail;
	ret = pthread_mutex_init(&fn->lock, NULL);
	if (ret) {
		ret = -ret;
		goto fail;
	}
	pwprog_free(p);
	atomic_init(&fn->refs, 1);
	fn->id = atomic_fetch_add(&pw_fn_next_id, 1) + 1;
	memcpy(fn->name, b->name, sizeof(fn->name));
	fn->nparams = b->nparams;
	fn->nresults = b->nresults;
	fn->nbufs = l->nbufs;
	fn->scratch_buf = l->scratch_buf;
	fn->scratch_bytes = l->scratch_bytes;
	fn->const_buf = l->const_buf;
	/* The pool is the const binding's contents: take it over. */
	fn->const_data = b->consts;
	fn->const_bytes = b->const_bytes;
	b->consts = NULL;
	fn->collectives = b->collectives;
	fn->group_size = b->group_size;
	fn->has_permute = b->has_permute;
	fn->permute_shift = b->permute_shift;
	fn->owner = NULL;
	*out = fn;
	return 0;
fail:
	pwprog_free(p);
	if (fn)
		fn_free(fn);
	return pw_fail(ret, "pw_fn_build(%s): laying out the image: %s",
		       b->name, strerror(-ret));
}

/*
 * Whether a run fits the device's bounds with every loop of
 * PW_FN_TRIPS_AUTO at @trips, after @insns instructions and @work units
 * of work outside the ops (the result copies).
 */
static bool fn_fits(const struct pw_fn_builder *b, uint64_t trips,
		    uint64_t insns, uint64_t work)
{
	uint64_t runs[PWTPU_MAX_LOOP_DEPTH + 1] = { 1 }, r, t, ns, delay = 0;
	unsigned int ends[PWTPU_MAX_LOOP_DEPTH], depth = 0, i;
	const struct pw_fn_op *o;

	for (i = 0; i < b->nops; i++) {
		o = &b->ops[i];
		while (depth && ends[depth - 1] < i)
			depth--;
		/* Each of these is at most 2^22 and each term below 2^55. */
		r = runs[depth];
		insns += r;
		if (insns > PWTPU_MAX_DYN_INSNS ||
		    o->work * r > PWTPU_MAX_WORK - work)
			return false;
		work += o->work * r;
		if (o->op == PWTPU_OP_DELAY) {
			ns = o->args[0] | (uint64_t)o->args[1] << 32;
			if (ns * r > PWTPU_MAX_PROG_NS - delay)
				return false;
			delay += ns * r;
		}
		if (o->op != PWTPU_OP_LOOP)
			continue;
		/* The builder nests at most PWTPU_MAX_LOOP_DEPTH deep. */
		if (depth == PWTPU_MAX_LOOP_DEPTH)
			return false;
		t = o->args[0] ? o->args[0] : trips;
		ends[depth] = i + o->args[1];
		runs[++depth] = r * t;
		if (runs[depth] > PWTPU_MAX_DYN_INSNS)
			return false;
	}
	return true;
}

int pw_fn_fix_trips(struct pw_fn_builder *b, uint64_t extra_insns,
		    uint64_t extra_work)
{
	uint64_t lo = 1, hi = PWTPU_MAX_TRIPS, mid;
	unsigned int i;

	if (!fn_fits(b, lo, extra_insns, extra_work))
		return pw_fail(-E2BIG,
			       "pw_fn_build(%s): its loops do not fit the device's bounds on a run (%u instructions, %llu units of work) even at one trip each",
			       b->name, PWTPU_MAX_DYN_INSNS,
			       (unsigned long long)PWTPU_MAX_WORK);
	/* The largest count that fits: fn_fits() falls as trips grow. */
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (fn_fits(b, mid, extra_insns, extra_work))
			lo = mid;
		else
			hi = mid - 1;
	}
	for (i = 0; i < b->nops; i++)
		if (b->ops[i].op == PWTPU_OP_LOOP && !b->ops[i].args[0])
			b->ops[i].args[0] = (uint32_t)lo;
	return 0;
}

int pw_fn_build(struct pw_fn_builder *b, struct pw_fn **fn)
{
	struct fn_layout l = { 0 };
	int ret;

	if (!b)
		return pw_fail(-EINVAL, "pw_fn_build: no builder");
	if (fn)
		*fn = NULL;
	if (b->err)
		ret = pw_fail(b->err, "%s", b->msg);
	else if (!fn)
		ret = pw_fail(-EINVAL, "pw_fn_build(%s): nowhere to put it",
			      b->name);
	else if (!b->nresults)
		ret = pw_fail(-EINVAL,
			      "pw_fn_build(%s): the function has no results",
			      b->name);
	else if (b->depth)
		ret = pw_fail(-EINVAL,
			      "pw_fn_build(%s): %u loops of pw_fn_while_begin() are not ended (pw_fn_while_end)",
			      b->name, b->depth);
	else
		ret = fn_plan(b, &l);
	if (!ret)
		ret = fn_make(b, &l, fn);
	fn_layout_free(&l);
	pw_fn_builder_free(b);
	return ret;
}

struct pw_fn *pw_fn_get(struct pw_fn *fn)
{
	if (fn)
		atomic_fetch_add(&fn->refs, 1);
	return fn;
}

uint64_t pw_fn_binding_bytes(const struct pw_fn *fn, unsigned int b)
{
	if (b < fn->nparams)
		return pw_sig_bytes(&fn->params[b]);
	if (b < fn->nparams + fn->nresults)
		return pw_sig_bytes(&fn->results[b - fn->nparams]);
	if ((int)b == fn->scratch_buf)
		return fn->scratch_bytes;
	if ((int)b == fn->const_buf)
		return fn->const_bytes;
	return 0;
}

void pw_fn_put(struct pw_fn *fn)
{
	if (!fn || atomic_fetch_sub(&fn->refs, 1) != 1)
		return;
	pw_worker_unload_fn(fn);
	pthread_mutex_destroy(&fn->lock);
	fn_free(fn);
}

const char *pw_fn_name(const struct pw_fn *fn)
{
	return fn ? fn->name : "";
}

unsigned int pw_fn_num_params(const struct pw_fn *fn)
{
	return fn ? fn->nparams : 0;
}

unsigned int pw_fn_num_results(const struct pw_fn *fn)
{
	return fn ? fn->nresults : 0;
}
