// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_arena.c - the memory of a parsed module: bump allocation from
 * chunks, freed all at once. A parse that fails midway frees everything
 * it made by freeing its arena, so no error path can leak. The arena has
 * a cap, so that no input can make the reader take more than that.
 */
#include <stdlib.h>
#include <string.h>

#include "hlo_impl.h"

#define CHUNK_MIN	(64u << 10)
#define ALIGN		16u

struct chunk {
	struct chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

struct pw_hlo_arena {
	struct chunk *head;
	size_t total, cap;
};

struct pw_hlo_arena *hlo_arena_new(size_t cap)
{
	struct pw_hlo_arena *a = calloc(1, sizeof(*a));

	if (a)
		a->cap = cap;
	return a;
}

void hlo_arena_free(struct pw_hlo_arena *a)
{
	struct chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *hlo_alloc(struct pw_hlo_arena *a, size_t size)
{
	struct chunk *c = a->head;
	size_t want, csize;
	void *p;

	if (size > a->cap)
		return NULL;
	want = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (!c || c->size - c->used < want) {
		csize = want > CHUNK_MIN ? want : CHUNK_MIN;
		if (a->total + csize > a->cap)
			return NULL;
		c = malloc(sizeof(*c) + csize);
		if (!c)
			return NULL;
		c->size = csize;
		c->used = 0;
		/* A big block keeps the current chunk's free space in use. */
		if (a->head && csize == want) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
		a->total += csize;
	}
	p = c->data + c->used;
	c->used += want;
	memset(p, 0, size);
	return p;
}

char *hlo_strndup(struct pw_hlo_arena *a, const char *s, size_t n)
{
	char *d = hlo_alloc(a, n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}
