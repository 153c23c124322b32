/* SPDX-License-Identifier: GPL-2.0 */
/*
 * net_common.h - helpers of the control-plane tests: a seeded generator
 * and random valid messages of every type.
 */
#ifndef PW_SELFTESTS_NET_COMMON_H
#define PW_SELFTESTS_NET_COMMON_H

#include <stdint.h>

#include "pathways/wire.h"

/* splitmix64: small, seedable, the same on every host. */
static inline uint64_t net_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline uint64_t net_below(uint64_t *state, uint64_t n)
{
	return n ? net_rand(state) % n : 0;
}

/* True with probability @permille / 1000. */
static inline int net_chance(uint64_t *state, unsigned int permille)
{
	return net_below(state, 1000) < permille;
}

/*
 * A random message of @type that pw_wire_encode() accepts, everything
 * unused zero; the header carries random routing and sequencing fields.
 */
void net_gen_msg(struct pw_wire_msg *m, unsigned int type, uint64_t *rng);

/* Little-endian stores into an encoded datagram. */
void net_put16(uint8_t *p, uint16_t v);
void net_put32(uint8_t *p, uint32_t v);

#endif /* PW_SELFTESTS_NET_COMMON_H */
