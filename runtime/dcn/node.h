/* SPDX-License-Identifier: GPL-2.0 */
/*
 * node.h - one DCN node (pathwaysd controller or worker, or a remote
 * client): a datagram transport, a reliable channel per peer, and the
 * loop that moves datagrams between them (runtime/dcn/node.c).
 *
 * Datagrams are decoded once here: garbage is dropped and counted by
 * reason (include/pathways/wire.h), a message from a node we do not know
 * opens a channel only if it is a greeting (REGISTER or CONNECT), and
 * every other message goes through its peer's channel, which drops
 * duplicates and delivers in order to the node's handler.
 */
#ifndef PW_RUNTIME_DCN_NODE_H
#define PW_RUNTIME_DCN_NODE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include <pathways/wire.h>

#include "../net/rchan.h"
#include "../net/transport.h"

#define PW_NODE_MAX_PEERS	256

/**
 * struct pw_node_peer - a node we talk to (a slot; @ch NULL when free)
 * @node: the node it is a peer of.
 * @id: its node id.
 * @addr: where its datagrams come from and ours go.
 * @ch: the reliable channel to it.
 * @last_heard_ns: when a datagram of it last decoded.
 * @user: the role's state for this peer.
 */
struct pw_node_peer {
	struct pw_node *node;
	uint32_t id;
	struct sockaddr_in addr;
	struct pw_rchan *ch;
	uint64_t last_heard_ns;
	void *user;
};

struct pw_node;

/* A delivered message of @peer; a negative return is logged, not fatal. */
typedef int (*pw_node_handler)(struct pw_node *node, struct pw_node_peer *peer,
			       const struct pw_wire_msg *msg, uint64_t now);

/**
 * struct pw_node_stats - what the node dropped before any channel
 * @malformed: datagrams that did not decode.
 * @malformed_by: of those, by enum pw_wire_err.
 * @strangers: decoded, from an unknown node, and not a greeting.
 * @misaddressed: decoded, for another node id.
 * @peers_full: greetings refused because PW_NODE_MAX_PEERS are known.
 */
struct pw_node_stats {
	uint64_t malformed;
	uint64_t malformed_by[PW_WIRE_NERR];
	uint64_t strangers;
	uint64_t misaddressed;
	uint64_t peers_full;
};

/**
 * struct pw_node - a node
 * @id: this node's id.
 * @session: this incarnation (CLOCK_REALTIME ms at start).
 * @t: the transport.
 * @handler: gets every delivered message.
 * @ctx: the role's state.
 * @npeers: slots of @peers ever used (free ones have no channel).
 * @peers: the peers; a slot's address never changes.
 * @stats: drops before any channel.
 * @extra_fd: another descriptor pw_node_step() wakes for (e.g. a device
 *	ring's eventfd), or -1.
 */
struct pw_node {
	uint32_t id;
	uint32_t session;
	struct pw_transport *t;
	pw_node_handler handler;
	void *ctx;
	unsigned int npeers;
	struct pw_node_peer peers[PW_NODE_MAX_PEERS];
	struct pw_node_stats stats;
	int extra_fd;
};

uint64_t pw_now_ns(void);

/* A node over transport @t (it takes ownership). */
int pw_node_init(struct pw_node *node, uint32_t id, struct pw_transport *t,
		 pw_node_handler handler, void *ctx);
void pw_node_fini(struct pw_node *node);

/* The peer @id, made with address @addr if unknown; NULL if full. */
struct pw_node_peer *pw_node_peer(struct pw_node *node, uint32_t id,
				  const struct sockaddr_in *addr);
struct pw_node_peer *pw_node_find(struct pw_node *node, uint32_t id);
/* Forget @peer (its channel too). */
void pw_node_drop_peer(struct pw_node *node, struct pw_node_peer *peer);

/* Send @msg to @peer reliably (type and body are the caller's). */
int pw_node_send(struct pw_node *node, struct pw_node_peer *peer,
		 struct pw_wire_msg *msg, uint64_t now);

/*
 * Run the node for up to @timeout_ns: receive, deliver, retransmit.
 * Returns 0, or -errno of the transport.
 */
int pw_node_step(struct pw_node *node, uint64_t timeout_ns);

/* "a.b.c.d:port" into @addr: 0 or -EINVAL. */
int pw_parse_addr(const char *str, struct sockaddr_in *addr);
/* Sum of every channel's counters and the node's own drops, printed. */
void pw_node_print_stats(const struct pw_node *node, const char *who);

#endif /* PW_RUNTIME_DCN_NODE_H */
