/* SPDX-License-Identifier: GPL-2.0 */
/*
 * node.h - one DCN node (pathwaysd controller or worker, or a remote
 * client): a datagram transport, a reliable channel per peer, and the
 * loop that moves datagrams between them (runtime/dcn/node.c).
 *
 * Datagrams are authenticated and decoded once here: one without the
 * cluster key's tag, or sent too long ago, is dropped and counted; garbage
 * is dropped and counted by reason (include/pathways/wire.h), a message from a node we do not know
 * opens a channel only if it is a greeting (REGISTER or CONNECT), and
 * every other message goes through its peer's channel, which drops
 * duplicates and delivers in order to the node's handler.
 *
 * A channel takes PW_RCHAN_WINDOW unacknowledged messages; what a role
 * sends past that waits in its peer's FIFO queue and enters the channel,
 * in order, as acknowledgements open the window (pw_node_step()), so a
 * long series (a program, plan or function in many parts) never fails
 * half sent. The queue is bounded (@queue_limit bytes per peer); a role
 * that streams more (a big BUFFER) watches pw_node_queued() and waits.
 */
#ifndef PW_RUNTIME_DCN_NODE_H
#define PW_RUNTIME_DCN_NODE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include <pathways/wire.h>

#include "../net/auth.h"
#include "../net/rchan.h"
#include "../net/transport.h"

/*
 * Node ids: the controller is 1, a worker 0x100 + host id, clients high
 * (the top bit and 31 random bits).
 */
#define PW_NODE_CONTROLLER	1u
#define PW_NODE_WORKER_BASE	0x100u
#define PW_NODE_CLIENT_BASE	0x80000000u

#define PW_NODE_MAX_PEERS	1024
/*
 * Slots of the index of peers by id (a power of two, twice the peers so
 * that a probe stays short at the fullest).
 */
#define PW_NODE_INDEX_BITS	11
#define PW_NODE_INDEX_SLOTS	(1u << PW_NODE_INDEX_BITS)
/* Descriptors besides the transport's that pw_node_step() wakes for. */
#define PW_NODE_EXTRA_FDS	2
/*
 * Default bound of a peer's send queue, in wire bytes (header included):
 * 64 MiB is ~48k full datagrams, room for the largest function
 * (PW_WIRE_MAX_FN_BYTES in ~13k parts) a few times over.
 */
#define PW_NODE_QUEUE_LIMIT	(64u << 20)
/*
 * A peer's datagrams come from the address it greeted from (or the one
 * it was introduced with). A restart from elsewhere is taken once the
 * old incarnation was silent this long (the controller uses its down
 * time): the cluster key proves membership, not which node one is, so
 * no member may take over a live peer's channel by claiming its id.
 */
#define PW_NODE_TAKEOVER_NS	1000000000ull

struct pw_node_qmsg;

/**
 * struct pw_node_peer - a node we talk to (a slot; @ch NULL when free)
 * @node: the node it is a peer of.
 * @id: its node id.
 * @addr: where its datagrams come from and ours go.
 * @ch: the reliable channel to it.
 * @last_heard_ns: when a datagram of it last decoded.
 * @user: the role's state for this peer.
 * @q_head: oldest message waiting for room in @ch (NULL: none).
 * @q_tail: newest one.
 * @q_len: messages waiting.
 * @q_bytes: their wire size, counted against the node's @queue_limit.
 */
struct pw_node_peer {
	struct pw_node *node;
	uint32_t id;
	struct sockaddr_in addr;
	struct pw_rchan *ch;
	uint64_t last_heard_ns;
	void *user;
	struct pw_node_qmsg *q_head;
	struct pw_node_qmsg *q_tail;
	unsigned int q_len;
	size_t q_bytes;
};

struct pw_node;

/* A delivered message of @peer; a negative return is logged, not fatal. */
typedef int (*pw_node_handler)(struct pw_node *node, struct pw_node_peer *peer,
			       const struct pw_wire_msg *msg, uint64_t now);

/**
 * struct pw_node_stats - what the node dropped before any channel, and
 * what waited for one
 * @forged: datagrams without a valid tag under the cluster key.
 * @stale: authentic ones sent further than the window from our clock
 *	(replays, or a host whose clock is off).
 * @malformed: authentic datagrams that did not decode.
 * @refused: messages delivered in order that the role refused (its
 *	handler returned an error: a lie, or a race lost, such as a DONE
 *	for a run that has ended).
 * @refused_by: of those, by enum pw_wire_type.
 * @malformed_by: of those, by enum pw_wire_err.
 * @strangers: decoded, from an unknown node, and not a greeting.
 * @misaddressed: decoded, for another node id.
 * @wrong_addr: decoded, under a known peer's id, from an address not its
 *	own, and no restart the node takes from elsewhere (pw_node's
 *	@takeover_ns): someone holding the key claims another node's id.
 * @peers_full: greetings refused because PW_NODE_MAX_PEERS are known.
 * @queued: messages that waited in a peer's queue for the window.
 * @queue_full: sends refused (-ENOBUFS) because the queue was at its bound.
 */
struct pw_node_stats {
	uint64_t forged;
	uint64_t stale;
	uint64_t malformed;
	uint64_t malformed_by[PW_WIRE_NERR];
	uint64_t refused;
	uint64_t refused_by[PW_WIRE_NTYPES];
	uint64_t strangers;
	uint64_t misaddressed;
	uint64_t wrong_addr;
	uint64_t peers_full;
	uint64_t queued;
	uint64_t queue_full;
};

/**
 * struct pw_node_totals - the channels' counters over the node's life
 * @sent: sequenced messages sent (first transmissions).
 * @retransmitted: retransmissions.
 * @delivered: messages handed to the handler.
 * @duplicates: sequenced messages dropped as already received.
 * @stale: dropped as from an older incarnation of a peer.
 */
struct pw_node_totals {
	uint64_t sent;
	uint64_t retransmitted;
	uint64_t delivered;
	uint64_t duplicates;
	uint64_t stale;
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
 * @index: the live peers by id, for pw_node_find(): open addressing with
 *	linear probing, each entry a slot of @peers plus one (0: empty).
 * @stats: drops before any channel.
 * @dropped_peers: the channel counters of peers already dropped, so that
 *	totals cover clients that came and went.
 * @extra_fd: other descriptors pw_node_step() wakes for (a device ring's
 *	eventfd, the data plane's), -1 when unused.
 * @queue_limit: bytes a peer's send queue may hold (PW_NODE_QUEUE_LIMIT
 *	after pw_node_init(); a test may lower it).
 * @key: the cluster key every datagram in and out is authenticated with.
 * @auth_window_ns: PW_AUTH_WINDOW_NS after pw_node_init() (a test may
 *	lower it).
 * @takeover_ns: how long a peer must be silent before the controller
 *	takes its restart (a greeting of a newer session) from another
 *	address; PW_NODE_TAKEOVER_NS after pw_node_init().
 */
struct pw_node {
	uint32_t id;
	uint32_t session;
	struct pw_transport *t;
	pw_node_handler handler;
	void *ctx;
	unsigned int npeers;
	struct pw_node_peer peers[PW_NODE_MAX_PEERS];
	uint16_t index[PW_NODE_INDEX_SLOTS];
	struct pw_node_stats stats;
	struct pw_node_totals dropped_peers;
	int extra_fd[PW_NODE_EXTRA_FDS];
	size_t queue_limit;
	struct pw_auth_key key;
	uint64_t auth_window_ns;
	uint64_t takeover_ns;
};

uint64_t pw_now_ns(void);

/* A node over transport @t (it takes ownership), of the cluster @key. */
int pw_node_init(struct pw_node *node, uint32_t id, struct pw_transport *t,
		 const struct pw_auth_key *key, pw_node_handler handler,
		 void *ctx);
void pw_node_fini(struct pw_node *node);

/* The peer @id, made with address @addr if unknown; NULL if full. */
struct pw_node_peer *pw_node_peer(struct pw_node *node, uint32_t id,
				  const struct sockaddr_in *addr);
struct pw_node_peer *pw_node_find(struct pw_node *node, uint32_t id);
/* Forget @peer (its channel and send queue too). */
void pw_node_drop_peer(struct pw_node *node, struct pw_node_peer *peer);

/*
 * Send @msg to @peer reliably (type and body are the caller's): into the
 * channel now, or behind the messages already queued for it. Returns 0,
 * -EINVAL if @msg does not encode (or is an ACK), -ENOMEM, or -ENOBUFS
 * when the peer's queue is at the node's @queue_limit.
 */
int pw_node_send(struct pw_node *node, struct pw_node_peer *peer,
		 struct pw_wire_msg *msg, uint64_t now);
/* Messages of @peer waiting for room in its channel. */
unsigned int pw_node_queued(const struct pw_node_peer *peer);

/*
 * Run the node for up to @timeout_ns: receive, move queued messages into
 * the windows acks opened, deliver, retransmit.
 * Returns 0, or -errno of the transport.
 */
int pw_node_step(struct pw_node *node, uint64_t timeout_ns);

/* "a.b.c.d:port" into @addr: 0 or -EINVAL. */
int pw_parse_addr(const char *str, struct sockaddr_in *addr);
/* Every channel's counters summed, live peers and dropped ones alike. */
void pw_node_totals(const struct pw_node *node, struct pw_node_totals *tot);
/* pw_node_totals() and the node's own drops, printed. */
void pw_node_print_stats(const struct pw_node *node, const char *who);

#endif /* PW_RUNTIME_DCN_NODE_H */
