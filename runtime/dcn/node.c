// SPDX-License-Identifier: GPL-2.0
/*
 * node.c - a DCN node's loop: datagrams in, decoded once, demultiplexed
 * to per-peer reliable channels, delivered in order to the role's
 * handler; retransmissions and delayed acks on the channels' deadlines.
 * What a full window cannot take waits in its peer's send queue.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/log.h"
#include "node.h"

#define PW_NODE_BURST	32
/*
 * A polled transport (DPDK) with extra descriptors: poll both for SPIN_NS,
 * then sleep on the descriptors NAP_NS at a time, polling the transport
 * between naps, so that a device's completion wakes the node at once.
 */
#define PW_NODE_SPIN_NS	50000ull
#define PW_NODE_NAP_NS	20000ull

/*
 * A message waiting for room in its peer's channel: the first @len bytes
 * of its struct pw_wire_msg, which has the wire's layout, so pw_wire_size()
 * bytes hold all of it (most messages are far shorter than the struct).
 */
struct pw_node_qmsg {
	struct pw_node_qmsg *next;
	size_t len;
	unsigned char image[];
};
_Static_assert(offsetof(struct pw_wire_msg, body) == PW_WIRE_HDR_SIZE,
	       "a message image is laid out as on the wire");

uint64_t pw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Every datagram leaves with its tag, made at each (re)transmission. */
static int node_xmit(void *ctx, const void *dgram, size_t len)
{
	struct pw_node_peer *peer = ctx;
	uint8_t sealed[PW_WIRE_MAX_DGRAM + PW_WIRE_AUTH_BYTES];

	if (len > PW_WIRE_MAX_DGRAM)
		return -EMSGSIZE;
	memcpy(sealed, dgram, len);
	len = pw_auth_seal(&peer->node->key, sealed, len, pw_auth_now_ns());
	return pw_transport_send(peer->node->t, &peer->addr, sealed, len);
}

int pw_node_init(struct pw_node *node, uint32_t id, struct pw_transport *t,
		 const struct pw_auth_key *key, pw_node_handler handler,
		 void *ctx)
{
	struct timespec ts;
	unsigned int i;

	memset(node, 0, sizeof(*node));
	clock_gettime(CLOCK_REALTIME, &ts);
	node->id = id;
	/* Greater on every restart (ms since the epoch, mod 2^32). */
	node->session = (uint32_t)((uint64_t)ts.tv_sec * 1000 +
				   (uint64_t)ts.tv_nsec / 1000000);
	if (!node->session)
		node->session = 1;
	node->t = t;
	node->handler = handler;
	node->ctx = ctx;
	for (i = 0; i < PW_NODE_EXTRA_FDS; i++)
		node->extra_fd[i] = -1;
	node->queue_limit = PW_NODE_QUEUE_LIMIT;
	node->key = *key;
	node->auth_window_ns = PW_AUTH_WINDOW_NS;
	node->takeover_ns = PW_NODE_TAKEOVER_NS;
	return 0;
}

static void queue_free(struct pw_node_peer *peer)
{
	struct pw_node_qmsg *q, *next;

	for (q = peer->q_head; q; q = next) {
		next = q->next;
		free(q);
	}
	peer->q_head = NULL;
	peer->q_tail = NULL;
	peer->q_len = 0;
	peer->q_bytes = 0;
}

void pw_node_fini(struct pw_node *node)
{
	unsigned int i;

	for (i = 0; i < node->npeers; i++)
		if (node->peers[i].ch)
			pw_node_drop_peer(node, &node->peers[i]);
	pw_transport_close(node->t);
	node->t = NULL;
	explicit_bzero(&node->key, sizeof(node->key));
}

_Static_assert(PW_NODE_INDEX_SLOTS >= 2 * PW_NODE_MAX_PEERS &&
	       PW_NODE_MAX_PEERS < UINT16_MAX,
	       "the peer index must stay half empty, its entries fit u16");

#define INDEX_MASK	(PW_NODE_INDEX_SLOTS - 1)

/* Fibonacci hashing: client ids are random, worker ids consecutive. */
static unsigned int index_home(uint32_t id)
{
	return (id * 2654435769u) >> (32 - PW_NODE_INDEX_BITS);
}

/* Where @id is in the index, or the empty entry that ends its probe. */
static unsigned int index_pos(const struct pw_node *node, uint32_t id)
{
	unsigned int i = index_home(id);

	while (node->index[i] && node->peers[node->index[i] - 1].id != id)
		i = (i + 1) & INDEX_MASK;
	return i;
}

struct pw_node_peer *pw_node_find(struct pw_node *node, uint32_t id)
{
	unsigned int i = index_pos(node, id);

	return node->index[i] ? &node->peers[node->index[i] - 1] : NULL;
}

/*
 * Take @peer out of the index, shifting back the entries after it that
 * probed past its place, so that no probe ends early at the hole.
 */
static void index_remove(struct pw_node *node, const struct pw_node_peer *peer)
{
	unsigned int hole = index_pos(node, peer->id), i, home;

	if (!node->index[hole])
		return;
	for (i = (hole + 1) & INDEX_MASK; node->index[i];
	     i = (i + 1) & INDEX_MASK) {
		home = index_home(node->peers[node->index[i] - 1].id);
		/* It stays if its home lies cyclically in (hole, i]. */
		if (((i - home) & INDEX_MASK) < ((i - hole) & INDEX_MASK))
			continue;
		node->index[hole] = node->index[i];
		hole = i;
	}
	node->index[hole] = 0;
}

struct pw_node_peer *pw_node_peer(struct pw_node *node, uint32_t id,
				  const struct sockaddr_in *addr)
{
	struct pw_node_peer *p = pw_node_find(node, id);
	struct pw_rchan_cfg cfg;
	unsigned int i;

	if (p)
		return p;
	for (i = 0; i < node->npeers && node->peers[i].ch; i++)
		;
	if (i == PW_NODE_MAX_PEERS)
		return NULL;
	p = &node->peers[i];
	memset(p, 0, sizeof(*p));
	p->node = node;
	p->id = id;
	p->addr = *addr;
	memset(&cfg, 0, sizeof(cfg));
	cfg.self_node = node->id;
	cfg.peer_node = id;
	cfg.session = node->session;
	cfg.xmit = node_xmit;
	cfg.ctx = p;
	if (pw_rchan_create(&p->ch, &cfg))
		return NULL;
	if (i == node->npeers)
		node->npeers++;
	node->index[index_pos(node, id)] = (uint16_t)(i + 1);
	return p;
}

static void add_channel(struct pw_node_totals *tot, const struct pw_rchan *ch)
{
	const struct pw_rchan_stats *st = pw_rchan_stats(ch);

	tot->sent += st->sent;
	tot->retransmitted += st->retransmitted;
	tot->delivered += st->delivered;
	tot->duplicates += st->duplicates;
	tot->stale += st->stale;
}

void pw_node_drop_peer(struct pw_node *node, struct pw_node_peer *peer)
{
	index_remove(node, peer);
	add_channel(&node->dropped_peers, peer->ch);
	queue_free(peer);
	pw_rchan_destroy(peer->ch);
	memset(peer, 0, sizeof(*peer));
}

/*
 * -EINVAL for what pw_rchan_send() would refuse, checked before a message
 * is queued: once queued, nobody is left to hear the error.
 */
static int check_sendable(const struct pw_node *node,
			  const struct pw_node_peer *peer,
			  const struct pw_wire_msg *msg)
{
	struct pw_wire_msg m;
	uint8_t dgram[PW_WIRE_MAX_DGRAM];

	if (msg->hdr.type == PW_WIRE_ACK)
		return -EINVAL;
	/* The header the channel will give it (seq and base 0 pass alike). */
	m = *msg;
	memset(&m.hdr, 0, sizeof(m.hdr));
	m.hdr.type = msg->hdr.type;
	m.hdr.src_node = node->id;
	m.hdr.dst_node = peer->id;
	m.hdr.session = node->session;
	return pw_wire_encode(&m, dgram, sizeof(dgram)) < 0 ? -EINVAL : 0;
}

static int enqueue(struct pw_node *node, struct pw_node_peer *peer,
		   const struct pw_wire_msg *msg)
{
	struct pw_node_qmsg *q;
	int ret, len;

	ret = check_sendable(node, peer, msg);
	if (ret)
		return ret;
	len = pw_wire_size(msg);
	if (peer->q_bytes + (size_t)len > node->queue_limit) {
		node->stats.queue_full++;
		return -ENOBUFS;
	}
	q = malloc(sizeof(*q) + (size_t)len);
	if (!q)
		return -ENOMEM;
	q->next = NULL;
	q->len = (size_t)len;
	memcpy(q->image, msg, (size_t)len);
	if (peer->q_tail)
		peer->q_tail->next = q;
	else
		peer->q_head = q;
	peer->q_tail = q;
	peer->q_len++;
	peer->q_bytes += (size_t)len;
	node->stats.queued++;
	return 0;
}

/* Move @peer's queued messages into its channel while the window has room. */
static void queue_flush(struct pw_node *node, struct pw_node_peer *peer,
			uint64_t now)
{
	struct pw_wire_msg m;
	struct pw_node_qmsg *q;
	int ret;

	while ((q = peer->q_head)) {
		memcpy(&m, q->image, q->len);
		memset((unsigned char *)&m + q->len, 0, sizeof(m) - q->len);
		ret = pw_rchan_send(peer->ch, &m, now);
		if (ret == -ENOBUFS)
			return;
		/* Checked when queued: the codec and the check disagree. */
		if (ret < 0)
			pw_log("pathways: node %u: queued %s to node %u dropped: %s",
			       node->id, pw_wire_type_name(m.hdr.type),
			       peer->id, strerror(-ret));
		peer->q_head = q->next;
		if (!peer->q_head)
			peer->q_tail = NULL;
		peer->q_len--;
		peer->q_bytes -= q->len;
		free(q);
	}
}

int pw_node_send(struct pw_node *node, struct pw_node_peer *peer,
		 struct pw_wire_msg *msg, uint64_t now)
{
	int ret;

	/* Behind what already waits, even if the window has room now. */
	if (!peer->q_head) {
		ret = pw_rchan_send(peer->ch, msg, now);
		if (ret != -ENOBUFS)
			return ret;
	}
	return enqueue(node, peer, msg);
}

unsigned int pw_node_queued(const struct pw_node_peer *peer)
{
	return peer->q_len;
}

/*
 * REGISTER and CONNECT make a stranger a peer, at the controller only:
 * every other node takes only the peers the controller introduces.
 */
static bool is_greeting(const struct pw_node *node, unsigned int type)
{
	return node->id == PW_NODE_CONTROLLER &&
	       (type == PW_WIRE_REGISTER || type == PW_WIRE_CONNECT);
}

static bool same_addr(const struct sockaddr_in *a, const struct sockaddr_in *b)
{
	return a->sin_addr.s_addr == b->sin_addr.s_addr &&
	       a->sin_port == b->sin_port;
}

/*
 * Whether a datagram under @peer's id is @peer's (PW_NODE_TAKEOVER_NS):
 * from its address; or, at the controller, a greeting of its next
 * incarnation from elsewhere once this one has been silent long enough.
 */
static bool from_peer(struct pw_node *node, const struct pw_node_peer *peer,
		      const struct pw_dgram *dg, const struct pw_wire_msg *msg,
		      uint64_t now)
{
	char from[INET_ADDRSTRLEN], known[INET_ADDRSTRLEN];
	uint64_t n;

	if (same_addr(&peer->addr, &dg->from))
		return true;
	if (is_greeting(node, msg->hdr.type) &&
	    pw_rchan_is_restart(peer->ch, msg->hdr.session) &&
	    now - peer->last_heard_ns >= node->takeover_ns)
		return true;
	n = ++node->stats.wrong_addr;
	/* A multi-homed host sends from elsewhere: say so. */
	if (pw_log_due(n)) {
		inet_ntop(AF_INET, &dg->from.sin_addr, from, sizeof(from));
		inet_ntop(AF_INET, &peer->addr.sin_addr, known, sizeof(known));
		pw_log("pathways: node %u: %s under node %u's id from %s:%u, not its %s:%u: dropped (%llu so far; listen on one address, not 0.0.0.0, on a host with several)",
		       node->id, pw_wire_type_name(msg->hdr.type), peer->id,
		       from, ntohs(dg->from.sin_port), known,
		       ntohs(peer->addr.sin_port), (unsigned long long)n);
	}
	return false;
}

/*
 * One datagram: authenticate, decode, find or make its peer, feed its
 * channel.
 */
static void node_input(struct pw_node *node, const struct pw_dgram *dg,
		       uint64_t now)
{
	struct pw_node_peer *peer;
	struct pw_wire_msg msg;
	enum pw_wire_err err;

	switch (pw_auth_open(&node->key, dg->data, dg->len, pw_auth_now_ns(),
			     node->auth_window_ns)) {
	case PW_AUTH_OK:
		break;
	case PW_AUTH_STALE:
		node->stats.stale++;
		return;
	default:
		node->stats.forged++;
		return;
	}
	err = pw_wire_decode(&msg, dg->data, dg->len - PW_WIRE_AUTH_BYTES);
	if (err != PW_WIRE_OK) {
		node->stats.malformed++;
		node->stats.malformed_by[err]++;
		return;
	}
	if (msg.hdr.dst_node != node->id) {
		node->stats.misaddressed++;
		return;
	}
	peer = pw_node_find(node, msg.hdr.src_node);
	if (!peer) {
		if (!is_greeting(node, msg.hdr.type)) {
			node->stats.strangers++;
			return;
		}
		peer = pw_node_peer(node, msg.hdr.src_node, &dg->from);
		if (!peer) {
			node->stats.peers_full++;
			return;
		}
	} else if (!from_peer(node, peer, dg, &msg, now)) {
		return;
	}
	/*
	 * Only news moves a peer or proves it alive: a replayed datagram
	 * (authentic, but a duplicate) must not redirect a worker's traffic
	 * to whoever replayed its greeting, nor keep a dead peer alive.
	 */
	if (!pw_rchan_input_msg(peer->ch, &msg, now))
		return;
	peer->last_heard_ns = now;
	/* A restarted peer may come back from another address. */
	if (is_greeting(node, msg.hdr.type))
		peer->addr = dg->from;
}

/* Hand every message the channels have in order to the handler. */
static void node_deliver(struct pw_node *node, uint64_t now)
{
	struct pw_wire_msg msg;
	unsigned int i;

	for (i = 0; i < node->npeers; i++) {
		struct pw_node_peer *p = &node->peers[i];

		while (p->ch && pw_rchan_recv(p->ch, &msg) == 1) {
			int ret = node->handler(node, p, &msg, now);
			uint64_t n;

			if (ret >= 0)
				continue;
			node->stats.refused++;
			n = ++node->stats.refused_by[msg.hdr.type];
			if (pw_log_due(n))
				pw_log("pathways: node %u: refused %s from node %u (%llu so far): %s",
				       node->id, pw_wire_type_name(msg.hdr.type),
				       msg.hdr.src_node, (unsigned long long)n,
				       strerror(-ret));
		}
	}
}

/* A polled transport and @n descriptors: until either has work. */
static int node_poll_wait(struct pw_node *node, struct pollfd *pfd,
			  unsigned int n, uint64_t timeout_ns)
{
	uint64_t start = pw_now_ns(), now = start;

	for (;;) {
		uint64_t nap = 0;
		struct timespec ts;
		int ret = pw_transport_wait(node->t, 0);

		if (ret)
			return ret < 0 ? ret : 0;
		if (now - start >= timeout_ns)
			return 0;
		if (now - start >= PW_NODE_SPIN_NS)
			nap = timeout_ns - (now - start) < PW_NODE_NAP_NS ?
			      timeout_ns - (now - start) : PW_NODE_NAP_NS;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)nap;
		ret = ppoll(pfd, n, &ts, NULL);
		if (ret > 0)
			return 0;
		if (ret < 0 && errno != EINTR)
			return -errno;
		now = pw_now_ns();
	}
}

/* Sleep until the transport or an extra descriptor may have work. */
static int node_wait(struct pw_node *node, uint64_t timeout_ns)
{
	struct pollfd pfd[1 + PW_NODE_EXTRA_FDS];
	unsigned int i, nfds = 1;
	struct timespec ts;
	int tfd, n;

	for (i = 0; i < PW_NODE_EXTRA_FDS; i++) {
		if (node->extra_fd[i] < 0)
			continue;
		pfd[nfds].fd = node->extra_fd[i];
		pfd[nfds].events = POLLIN;
		nfds++;
	}
	if (nfds == 1)
		return pw_transport_wait(node->t, timeout_ns);
	tfd = pw_transport_poll_fd(node->t);
	if (tfd < 0)
		return node_poll_wait(node, pfd + 1, nfds - 1, timeout_ns);
	/* Datagrams the transport holds already do not poll readable. */
	n = pw_transport_wait(node->t, 0);
	if (n)
		return n < 0 ? n : 0;
	pfd[0].fd = tfd;
	pfd[0].events = POLLIN;
	ts.tv_sec = (time_t)(timeout_ns / 1000000000ull);
	ts.tv_nsec = (long)(timeout_ns % 1000000000ull);
	if (ppoll(pfd, nfds, &ts, NULL) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

int pw_node_step(struct pw_node *node, uint64_t timeout_ns)
{
	struct pw_dgram dg[PW_NODE_BURST];
	uint64_t now = pw_now_ns(), due = now + timeout_ns;
	unsigned int i;
	int n;

	for (i = 0; i < node->npeers; i++) {
		struct pw_node_peer *p = &node->peers[i];
		uint64_t d;

		if (!p->ch)
			continue;
		d = pw_rchan_deadline(p->ch);
		/* Queued messages the window has room for: no sleeping. */
		if (p->q_head && pw_rchan_inflight(p->ch) < PW_RCHAN_WINDOW)
			d = now;
		if (d < due)
			due = d;
	}
	if (due > now) {
		n = node_wait(node, due - now);
		if (n < 0)
			return n;
	}
	now = pw_now_ns();
	n = pw_transport_recv_burst(node->t, dg, PW_NODE_BURST);
	if (n < 0)
		return n;
	for (i = 0; i < (unsigned int)n; i++)
		node_input(node, &dg[i], now);
	/* Before the handler's replies, which go behind what waits. */
	for (i = 0; i < node->npeers; i++)
		if (node->peers[i].ch && node->peers[i].q_head)
			queue_flush(node, &node->peers[i], now);
	node_deliver(node, now);
	for (i = 0; i < node->npeers; i++)
		if (node->peers[i].ch)
			pw_rchan_poll(node->peers[i].ch, now);
	return 0;
}

int pw_parse_addr(const char *str, struct sockaddr_in *addr)
{
	char host[64];
	const char *colon = strrchr(str, ':');
	unsigned long port;
	char *end;

	if (!colon || (size_t)(colon - str) >= sizeof(host))
		return -EINVAL;
	memcpy(host, str, (size_t)(colon - str));
	host[colon - str] = '\0';
	port = strtoul(colon + 1, &end, 10);
	if (*end || !colon[1] || port > 65535)
		return -EINVAL;
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &addr->sin_addr) != 1)
		return -EINVAL;
	return 0;
}

void pw_node_totals(const struct pw_node *node, struct pw_node_totals *tot)
{
	unsigned int i;

	*tot = node->dropped_peers;
	for (i = 0; i < node->npeers; i++)
		if (node->peers[i].ch)
			add_channel(tot, node->peers[i].ch);
}

void pw_node_print_stats(const struct pw_node *node, const char *who)
{
	struct pw_node_totals tot;
	unsigned int e;

	pw_node_totals(node, &tot);
	printf("%s: sent %llu retransmitted %llu delivered %llu duplicates %llu stale %llu queued %llu queue_full %llu\n",
	       who, (unsigned long long)tot.sent,
	       (unsigned long long)tot.retransmitted,
	       (unsigned long long)tot.delivered,
	       (unsigned long long)tot.duplicates,
	       (unsigned long long)tot.stale,
	       (unsigned long long)node->stats.queued,
	       (unsigned long long)node->stats.queue_full);
	printf("%s: dropped forged %llu stale %llu malformed %llu strangers %llu misaddressed %llu wrong_addr %llu",
	       who, (unsigned long long)node->stats.forged,
	       (unsigned long long)node->stats.stale,
	       (unsigned long long)node->stats.malformed,
	       (unsigned long long)node->stats.strangers,
	       (unsigned long long)node->stats.misaddressed,
	       (unsigned long long)node->stats.wrong_addr);
	for (e = 1; e < PW_WIRE_NERR; e++)
		if (node->stats.malformed_by[e])
			printf(" %s=%llu", pw_wire_err_name(e),
			       (unsigned long long)node->stats.malformed_by[e]);
	printf("\n%s: refused %llu", who,
	       (unsigned long long)node->stats.refused);
	for (e = 1; e < PW_WIRE_NTYPES; e++)
		if (node->stats.refused_by[e])
			printf(" %s=%llu", pw_wire_type_name(e),
			       (unsigned long long)node->stats.refused_by[e]);
	printf("\n");
	fflush(stdout);
}
