/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rchan.h - a reliable, ordered channel to one peer over any datagram
 * transport (kernel UDP, DPDK): sequence numbers, cumulative and
 * selective acknowledgements, retransmission on a timeout that doubles
 * up to a cap and on holes the selective acks reveal, duplicate
 * suppression, in-order delivery exactly once. The header fields it uses
 * are described in include/pathways/wire.h.
 *
 * The channel owns no thread, socket or clock: datagrams leave through the
 * cfg's xmit callback, arrive through pw_rchan_input(), and every call
 * takes the time (CLOCK_MONOTONIC ns, or any clock a test likes). The
 * owner calls pw_rchan_poll() by pw_rchan_deadline() for retransmissions
 * and delayed acks. Not thread-safe: one owner at a time.
 *
 * Functions return 0 (or a value >= 0) or a negative errno.
 */
#ifndef PW_RUNTIME_NET_RCHAN_H
#define PW_RUNTIME_NET_RCHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pathways/wire.h"

/* A stream's first seq (any would do; 1 reads well in tshark). */
#define PW_RCHAN_FIRST_SEQ	1

/* Messages in flight each way; sack bits cover exactly one window. */
#define PW_RCHAN_WINDOW		64

/* Defaults for a zero cfg field. */
#define PW_RCHAN_RTO_INIT_NS	(10 * 1000 * 1000ull)	/* before any RTT */
#define PW_RCHAN_RTO_MIN_NS	(10 * 1000 * 1000ull)
#define PW_RCHAN_RTO_MAX_NS	(1000 * 1000 * 1000ull)
#define PW_RCHAN_ACK_DELAY_NS	(200 * 1000ull)
/* Received messages that force a pure ACK out at once. */
#define PW_RCHAN_ACK_EVERY	8
/* Sacked messages above a hole that make it retransmit at once. */
#define PW_RCHAN_DUPTHRESH	3

/*
 * Hand one datagram to the transport; it copies what it needs before
 * returning. A negative return is counted; retransmission covers it.
 */
typedef int (*pw_rchan_xmit_fn)(void *ctx, const void *dgram, size_t len);

/**
 * struct pw_rchan_cfg - a channel's parameters
 * @self_node: this node's id (hdr.src_node of what it sends).
 * @peer_node: the peer's id; datagrams from other nodes are dropped.
 * @session: this incarnation, nonzero; a restarted node must use one that
 *	is greater in serial arithmetic (e.g. CLOCK_REALTIME in ms).
 * @rto_init_ns: retransmission timeout before any RTT is measured.
 * @rto_min_ns: floor of the computed timeout.
 * @rto_max_ns: cap of the timeout and its backoff.
 * @ack_delay_ns: how long an ack may wait for a message to ride on.
 * @xmit: sends a datagram to the peer.
 * @ctx: @xmit's argument.
 */
struct pw_rchan_cfg {
	uint32_t self_node;
	uint32_t peer_node;
	uint32_t session;
	uint64_t rto_init_ns;
	uint64_t rto_min_ns;
	uint64_t rto_max_ns;
	uint64_t ack_delay_ns;
	pw_rchan_xmit_fn xmit;
	void *ctx;
};

/**
 * struct pw_rchan_stats - counters
 * @sent: sequenced messages sent (first transmissions).
 * @retransmitted: retransmissions, by timeout or fast.
 * @fast_retransmits: of @retransmitted, those for a hole sacks showed.
 * @acks_sent: pure ACK datagrams sent.
 * @received: datagrams that decoded, from anyone.
 * @delivered: messages handed over by pw_rchan_recv().
 * @duplicates: sequenced messages dropped as already received.
 * @out_of_window: dropped beyond the receive window (retransmitted later).
 * @stale: dropped: from an older incarnation of the peer.
 * @misaddressed: dropped: from another node or for another node.
 * @bad_acks: acks of messages never sent, ignored.
 * @peer_resets: the peer came back with a new session.
 * @lost_on_reset: messages of the peer's old session never delivered,
 *	and of its new one that it had sent before we heard of it.
 * @joined_late: the first message of a peer session we heard had a base
 *	past PW_RCHAN_FIRST_SEQ: we (restarted) missed its stream's start.
 * @xmit_errors: datagrams the transport refused.
 * @malformed: datagrams pw_wire_decode() rejected.
 * @malformed_by: @malformed by enum pw_wire_err.
 * @srtt_ns: smoothed round-trip time, 0 before the first sample.
 * @rto_ns: the retransmission timeout a new message starts with: RFC
 *	6298's from the samples, doubled at each timeout until a fresh
 *	sample (each message's own doubles on at its own timeouts).
 */
struct pw_rchan_stats {
	uint64_t sent;
	uint64_t retransmitted;
	uint64_t fast_retransmits;
	uint64_t acks_sent;
	uint64_t received;
	uint64_t delivered;
	uint64_t duplicates;
	uint64_t out_of_window;
	uint64_t stale;
	uint64_t misaddressed;
	uint64_t bad_acks;
	uint64_t peer_resets;
	uint64_t lost_on_reset;
	uint64_t joined_late;
	uint64_t xmit_errors;
	uint64_t malformed;
	uint64_t malformed_by[PW_WIRE_NERR];
	uint64_t srtt_ns;
	uint64_t rto_ns;
};

struct pw_rchan;

/* A channel, or -EINVAL (no xmit, zero session, min > max), -ENOMEM. */
int pw_rchan_create(struct pw_rchan **chp, const struct pw_rchan_cfg *cfg);
void pw_rchan_destroy(struct pw_rchan *ch);

/*
 * Send @msg (any type but ACK); the header's routing, sequencing and ack
 * fields are the channel's, the rest is the caller's. Returns 0 once the
 * message is queued (and sent once), -ENOBUFS when PW_RCHAN_WINDOW
 * messages await acknowledgement, -EINVAL if @msg does not encode.
 */
int pw_rchan_send(struct pw_rchan *ch, const struct pw_wire_msg *msg,
		  uint64_t now);

/*
 * A datagram from the transport. 0 when it decoded (whatever became of
 * it: delivered later, duplicate, ack only...), -EBADMSG when it did not
 * (counted by reason).
 */
int pw_rchan_input(struct pw_rchan *ch, const void *dgram, size_t len,
		   uint64_t now);
/*
 * The same for a message the caller decoded itself (to demultiplex).
 * True when it was news: data never received before, a newer session of
 * the peer, or an acknowledgement of something not acknowledged yet;
 * false for duplicates, stale or misaddressed messages and acks that
 * acknowledge nothing new (a replay is never news).
 */
bool pw_rchan_input_msg(struct pw_rchan *ch, const struct pw_wire_msg *msg,
			uint64_t now);
/*
 * True when @session is a newer incarnation of a peer already heard: a
 * message of it would reset the channel (a restart).
 */
bool pw_rchan_is_restart(const struct pw_rchan *ch, uint32_t session);
/* Count a datagram the caller's decode rejected for @err. */
void pw_rchan_count_malformed(struct pw_rchan *ch, enum pw_wire_err err);

/* The next message in order into @msg: 1, or 0 if none is ready. */
int pw_rchan_recv(struct pw_rchan *ch, struct pw_wire_msg *msg);

/* Retransmit what is due, send an ack that waited long enough. */
void pw_rchan_poll(struct pw_rchan *ch, uint64_t now);
/* When pw_rchan_poll() has work next; UINT64_MAX for never. */
uint64_t pw_rchan_deadline(const struct pw_rchan *ch);

/* Messages sent and not yet acknowledged. */
unsigned int pw_rchan_inflight(const struct pw_rchan *ch);
/*
 * First transmission time of the oldest unacknowledged message, or
 * UINT64_MAX if none: now minus this is how long the peer has been
 * silent about it (liveness is the caller's decision).
 */
uint64_t pw_rchan_oldest_unacked(const struct pw_rchan *ch);
const struct pw_rchan_stats *pw_rchan_stats(const struct pw_rchan *ch);

#endif /* PW_RUNTIME_NET_RCHAN_H */
