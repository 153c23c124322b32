/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostset.h - a set of a cluster's hosts (islands), one bit each: the
 * hosts a program runs on, a run still waits for, a function was shipped
 * to. PW_WIRE_MAX_HOSTS bits, host h at bit h % 64 of word h / 64: the
 * layout PROGRAM_ACK carries it in (include/pathways/wire.h).
 */
#ifndef PW_RUNTIME_DCN_HOSTSET_H
#define PW_RUNTIME_DCN_HOSTSET_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <pathways/wire.h>

struct pw_hostset {
	uint64_t w[PW_WIRE_HOST_WORDS];
};

_Static_assert(sizeof(struct pw_hostset) ==
	       sizeof(((struct pw_wire_program_ack *)0)->hosts),
	       "a set of hosts is PROGRAM_ACK's");

static inline void pw_hostset_clear(struct pw_hostset *s)
{
	memset(s, 0, sizeof(*s));
}

/* @h must be below PW_WIRE_MAX_HOSTS; callers check what comes in. */
static inline void pw_hostset_add(struct pw_hostset *s, unsigned int h)
{
	s->w[h / 64] |= 1ull << (h % 64);
}

static inline void pw_hostset_del(struct pw_hostset *s, unsigned int h)
{
	s->w[h / 64] &= ~(1ull << (h % 64));
}

static inline bool pw_hostset_has(const struct pw_hostset *s, unsigned int h)
{
	return h < PW_WIRE_MAX_HOSTS && (s->w[h / 64] >> (h % 64) & 1);
}

static inline bool pw_hostset_empty(const struct pw_hostset *s)
{
	unsigned int i;

	for (i = 0; i < PW_WIRE_HOST_WORDS; i++)
		if (s->w[i])
			return false;
	return true;
}

static inline unsigned int pw_hostset_count(const struct pw_hostset *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < PW_WIRE_HOST_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(s->w[i]);
	return n;
}

static inline bool pw_hostset_intersects(const struct pw_hostset *a,
					 const struct pw_hostset *b)
{
	unsigned int i;

	for (i = 0; i < PW_WIRE_HOST_WORDS; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

/* @a |= @b. */
static inline void pw_hostset_or(struct pw_hostset *a,
				 const struct pw_hostset *b)
{
	unsigned int i;

	for (i = 0; i < PW_WIRE_HOST_WORDS; i++)
		a->w[i] |= b->w[i];
}

/* The first host of @s at or after @h, PW_WIRE_MAX_HOSTS if none. */
static inline unsigned int pw_hostset_next(const struct pw_hostset *s,
					   unsigned int h)
{
	unsigned int i = h / 64;
	uint64_t w;

	if (h >= PW_WIRE_MAX_HOSTS)
		return PW_WIRE_MAX_HOSTS;
	w = s->w[i] & (~0ull << (h % 64));
	while (!w) {
		if (++i == PW_WIRE_HOST_WORDS)
			return PW_WIRE_MAX_HOSTS;
		w = s->w[i];
	}
	return i * 64 + (unsigned int)__builtin_ctzll(w);
}

#define pw_hostset_for_each(h, s)					\
	for ((h) = pw_hostset_next((s), 0); (h) < PW_WIRE_MAX_HOSTS;	\
	     (h) = pw_hostset_next((s), (h) + 1))

#endif
