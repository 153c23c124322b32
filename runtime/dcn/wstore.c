// SPDX-License-Identifier: GPL-2.0
/*
 * wstore.c - a worker's object store for remote clients: buffers (one
 * mapped buffer object each) and shipped functions, in two hash tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/log.h"
#include "wstore.h"

static unsigned int bucket(uint32_t owner, uint32_t handle)
{
	uint64_t k = ((uint64_t)owner << 32 | handle) * 0x9e3779b97f4a7c15ull;

	return (unsigned int)(k >> 54) % PW_WSTORE_BUCKETS;
}

/* 0 when the object is gone: destroyed now, or not there (-ENOENT). */
static int destroy_once(struct pw_wstore *s, const struct pw_wstore_undone *u)
{
	int ret = u->prog ? pw_wdev_prog_unload(s->dev, u->dev, u->handle) :
			    pw_wdev_bo_destroy(s->dev, u->dev, u->handle);

	if (ret == -ENOENT) {
		if (pw_log_due(++s->vanished))
			pw_log("wstore: %s %u on device %u was not there to destroy (%llu so far)",
			       u->prog ? "program" : "buffer object",
			       u->handle, u->dev,
			       (unsigned long long)s->vanished);
		return 0;
	}
	if (!ret)
		s->freed++;
	return ret;
}

/*
 * Destroy a device object; one that fails is kept and tried again, so
 * that a failed call does not hold its HBM until the worker exits.
 */
static void destroy(struct pw_wstore *s, unsigned int dev, bool prog,
		    uint32_t handle)
{
	struct pw_wstore_undone u = { .handle = handle, .dev = (uint16_t)dev,
				      .prog = prog };
	int ret = destroy_once(s, &u);

	if (!ret)
		return;
	if (s->nundone < PW_WSTORE_UNDONE) {
		s->undone[s->nundone++] = u;
		return;
	}
	if (pw_log_due(++s->abandoned))
		pw_log("wstore: %llu device objects could not be destroyed (the last %s %u on device %u: %s); their HBM is held until the worker exits",
		       (unsigned long long)s->abandoned,
		       prog ? "program" : "buffer object", handle, dev,
		       strerror(-ret));
}

unsigned int pw_wstore_retry(struct pw_wstore *s)
{
	unsigned int i = 0;

	while (i < s->nundone) {
		if (destroy_once(s, &s->undone[i]))
			i++;
		else
			s->undone[i] = s->undone[--s->nundone];
	}
	return s->nundone;
}

void pw_wstore_init(struct pw_wstore *s, struct pw_wdev *dev,
		    struct pw_dp *dp)
{
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	s->dp = dp;
}

struct pw_wbuf *pw_wbuf_find(struct pw_wstore *s, uint32_t owner,
			     uint32_t handle)
{
	struct pw_wbuf *b = s->bufs[bucket(owner, handle)];

	while (b && (b->owner != owner || b->handle != handle))
		b = b->next;
	return b;
}

int pw_wbuf_create(struct pw_wstore *s, uint32_t owner, uint32_t handle,
		   unsigned int dev, uint64_t bytes, struct pw_wbuf **out)
{
	unsigned int h = bucket(owner, handle);
	struct pw_wbuf *b;
	int ret;

	if (dev >= s->dev->ndev || !bytes)
		return -EINVAL;
	if (pw_wbuf_find(s, owner, handle))
		return -EEXIST;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	ret = pw_wdev_bo_alloc(s->dev, dev, bytes, &b->bo);
	if (ret) {
		free(b);
		return ret;
	}
	b->owner = owner;
	b->handle = handle;
	b->bytes = bytes;
	b->dev = dev;
	b->state = PW_WBUF_FILLING;
	b->refs = 1;
	b->owned = true;
	b->next = s->bufs[h];
	s->bufs[h] = b;
	s->nbufs++;
	s->bytes += bytes;
	*out = b;
	return 0;
}

void pw_wbuf_get(struct pw_wbuf *b)
{
	b->refs++;
}

void pw_wbuf_put(struct pw_wstore *s, struct pw_wbuf *b)
{
	struct pw_wbuf **pp;

	if (--b->refs)
		return;
	for (pp = &s->bufs[bucket(b->owner, b->handle)]; *pp != b;
	     pp = &(*pp)->next)
		;
	*pp = b->next;
	if (b->region)
		pw_dp_dereg(b->region);
	pw_wdev_bo_unmap(s->dev, &b->bo);
	destroy(s, b->dev, false, b->bo.handle);
	s->nbufs--;
	s->bytes -= b->bytes;
	free(b);
}

void pw_wbuf_release(struct pw_wstore *s, struct pw_wbuf *b)
{
	if (!b->owned)
		return;
	b->owned = false;
	/*
	 * A freed handle is gone at once for lookups, even while commands
	 * in flight still hold the storage: give it an owner nobody has.
	 */
	if (b->refs > 1) {
		struct pw_wbuf **pp;

		for (pp = &s->bufs[bucket(b->owner, b->handle)]; *pp != b;
		     pp = &(*pp)->next)
			;
		*pp = b->next;
		b->owner = 0;
		b->handle = 0;
		b->next = s->bufs[bucket(0, 0)];
		s->bufs[bucket(0, 0)] = b;
	}
	pw_wbuf_put(s, b);
}

void pw_wstore_release_owner(struct pw_wstore *s, uint32_t owner)
{
	unsigned int i;

	for (i = 0; i < PW_WSTORE_BUCKETS; i++) {
		struct pw_wbuf *b = s->bufs[i], *next;

		for (; b; b = next) {
			next = b->next;
			if (b->owner == owner && b->owned)
				pw_wbuf_release(s, b);
		}
	}
}

int pw_wbuf_register(struct pw_wstore *s, struct pw_wbuf *b)
{
	if (b->region)
		return 0;
	if (!s->dp)
		return -ENOTCONN;
	return pw_dp_reg(s->dp, b->bo.map, b->bo.size, &b->region);
}

struct pw_wfn *pw_wfn_find(struct pw_wstore *s, uint32_t client,
			   uint32_t id)
{
	struct pw_wfn *f = s->fns[bucket(client, id)];

	while (f && (f->client != client || f->id != id))
		f = f->next;
	return f;
}

static void wfn_free(struct pw_wstore *s, struct pw_wfn *f)
{
	struct pw_wfn **pp;
	unsigned int d;

	for (pp = &s->fns[bucket(f->client, f->id)]; *pp && *pp != f;
	     pp = &(*pp)->next)
		;
	if (*pp)
		*pp = f->next;
	for (d = 0; d < s->dev->ndev; d++) {
		if (f->prog[d])
			destroy(s, d, true, f->prog[d]);
		if (f->scratch[d])
			destroy(s, d, false, f->scratch[d]);
		if (f->consts[d])
			destroy(s, d, false, f->consts[d]);
	}
	pw_fn_payload_free(&f->pl);
	free(f);
	s->nfns--;
}

int pw_wfn_add(struct pw_wstore *s, const struct pw_wire_function *w)
{
	struct pw_wfn *f = pw_wfn_find(s, w->client, w->fn_id);
	int ret;

	if (w->offset == 0) {
		/* A new registration of an id replaces the old one. */
		if (f)
			wfn_free(s, f);
		f = calloc(1, sizeof(*f));
		if (!f)
			return -ENOMEM;
		f->client = w->client;
		f->id = w->fn_id;
		f->next = s->fns[bucket(f->client, f->id)];
		s->fns[bucket(f->client, f->id)] = f;
		s->nfns++;
	} else if (!f) {
		return -EPROTO;
	}
	ret = pw_fn_payload_add(&f->pl, w);
	if (ret < 0)
		wfn_free(s, f);
	return ret;
}

/* Write @fn's constants through a mapping of @b (nothing uses it yet). */
static int upload_consts(struct pw_wstore *s, unsigned int dev,
			 const struct pw_wfn *fn, struct pwtpu_bo *b)
{
	const struct pw_wire_fn_desc *d = &fn->pl.desc;
	int ret;

	ret = pw_wdev_bo_map(s->dev, dev, b);
	if (ret)
		return ret;
	memcpy(b->map, fn->pl.bytes + PW_WIRE_FN_DESC_SIZE + d->image_bytes,
	       d->const_bytes);
	pw_wdev_bo_unmap(s->dev, b);
	return 0;
}

int pw_wfn_load(struct pw_wstore *s, struct pw_wfn *fn, unsigned int dev)
{
	const struct pw_wire_fn_desc *d = &fn->pl.desc;
	struct pwtpu_bo bo;
	int ret;

	if (fn->prog[dev])
		return 0;
	if (d->scratch_bytes && !fn->scratch[dev]) {
		ret = pw_wdev_bo_create(s->dev, dev, d->scratch_bytes, &bo);
		if (ret)
			return ret;
		fn->scratch[dev] = bo.handle;
	}
	if (d->const_bytes && !fn->consts[dev]) {
		ret = pw_wdev_bo_create(s->dev, dev, d->const_bytes, &bo);
		if (ret)
			return ret;
		ret = upload_consts(s, dev, fn, &bo);
		if (ret) {
			/* Never a program with zeroed constants: next time anew. */
			destroy(s, dev, false, bo.handle);
			return ret;
		}
		fn->consts[dev] = bo.handle;
	}
	return pw_wdev_prog_load(s->dev, dev,
				 fn->pl.bytes + PW_WIRE_FN_DESC_SIZE,
				 d->image_bytes, &fn->prog[dev]);
}

void pw_wstore_drop_fns(struct pw_wstore *s, uint32_t client)
{
	unsigned int i;

	for (i = 0; i < PW_WSTORE_BUCKETS; i++) {
		struct pw_wfn *f = s->fns[i], *next;

		for (; f; f = next) {
			next = f->next;
			if (f->client == client)
				wfn_free(s, f);
		}
	}
}

void pw_wstore_fini(struct pw_wstore *s)
{
	unsigned int i;

	for (i = 0; i < PW_WSTORE_BUCKETS; i++) {
		while (s->bufs[i]) {
			struct pw_wbuf *b = s->bufs[i];

			b->refs = 1;
			pw_wbuf_put(s, b);
		}
		while (s->fns[i])
			wfn_free(s, s->fns[i]);
	}
	if (pw_wstore_retry(s) || s->abandoned || s->vanished)
		pw_log("wstore: at exit: %u device objects could not be destroyed, %llu were given up on before (the devices' files release them as they close); %llu destroys found nothing",
		       s->nundone, (unsigned long long)s->abandoned,
		       (unsigned long long)s->vanished);
}
