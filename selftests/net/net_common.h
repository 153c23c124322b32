/* SPDX-License-Identifier: GPL-2.0 */
/*
 * net_common.h - helpers of the control-plane tests: a seeded generator
 * and random valid messages of every type.
 */
#ifndef PW_SELFTESTS_NET_COMMON_H
#define PW_SELFTESTS_NET_COMMON_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "pathways/wire.h"

#include "../../runtime/net/rchan.h"
#include "../../runtime/net/transport.h"

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

/* CLOCK_MONOTONIC in ns. */
uint64_t net_now_ns(void);
bool net_same_addr(const struct sockaddr_in *a, const struct sockaddr_in *b);

/**
 * struct net_ep - one end of a reliable channel over a real transport
 * whose sender drops 5% of its datagrams (acks included)
 * @t: the transport.
 * @ch: the channel; its cfg.xmit is net_ep_xmit, cfg.ctx the endpoint.
 * @peer: where datagrams go.
 * @rng: the drop decisions.
 * @dropped: datagrams dropped on purpose.
 * @next_id: the next message id to send.
 * @expect: the next message id to receive.
 */
struct net_ep {
	struct pw_transport *t;
	struct pw_rchan *ch;
	struct sockaddr_in peer;
	uint64_t rng;
	unsigned long dropped;
	unsigned int next_id;
	unsigned int expect;
};

int net_ep_xmit(void *ctx, const void *dgram, size_t len);
/* Message @id of endpoint @from: a DONE whose fields derive from both. */
void net_ep_msg(struct pw_wire_msg *m, unsigned int from, unsigned int id);
/*
 * Receive, feed the channel, check that it delivers @from's messages in
 * order: -1 on disorder, else 1 if any datagram came, 0 if none.
 */
int net_ep_pump(struct net_ep *e, unsigned int from, uint64_t now);

#endif /* PW_SELFTESTS_NET_COMMON_H */
