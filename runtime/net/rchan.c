// SPDX-License-Identifier: GPL-2.0
/*
 * rchan.c - a reliable, ordered channel to one peer (rchan.h).
 *
 * Send side: a ring of PW_RCHAN_WINDOW encoded datagrams, [snd_una,
 * snd_nxt). Each keeps its own deadline and backoff; a cumulative ack
 * frees, a selective ack stops the timer and may reveal a hole that is
 * retransmitted at once. The RTO follows RFC 6298 (Karn: no samples from
 * retransmitted messages).
 *
 * Receive side: a ring of decoded messages, [rcv_deliver, rcv_deliver +
 * window); rcv_next is the first seq not yet received (ack = rcv_next - 1).
 * A fresh receiver joins the peer's stream at the sender's base.
 *
 * Sequence numbers and sessions compare in serial arithmetic, so they may
 * wrap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rchan.h"

#define W PW_RCHAN_WINDOW

_Static_assert((W & (W - 1)) == 0, "window is a power of two");
_Static_assert(W <= 64, "sack bits cover the window");
_Static_assert(W < PW_WIRE_MAX_WINDOW, "wire bounds seq - base");

/* One sent message awaiting its ack. */
struct tx_slot {
	bool used;
	bool sacked;
	bool retransmitted;
	bool fast_done;		/* fast-retransmitted once: now the timer's */
	uint16_t len;
	uint32_t seq;
	uint64_t first_sent_ns;
	uint64_t sent_ns;
	uint64_t deadline_ns;
	uint64_t rto_ns;
	uint8_t dgram[PW_WIRE_MAX_DGRAM];
};

/* One received message awaiting delivery. */
struct rx_slot {
	bool full;
	uint32_t seq;
	struct pw_wire_msg msg;
};

struct pw_rchan {
	struct pw_rchan_cfg cfg;
	struct pw_rchan_stats stats;

	uint32_t snd_una;
	uint32_t snd_nxt;
	uint64_t rttvar_ns;
	struct tx_slot tx[W];

	uint32_t peer_session;	/* 0: never heard from the peer */
	bool rx_synced;		/* rcv_* valid for peer_session */
	uint32_t rcv_deliver;
	uint32_t rcv_next;
	bool ack_pending;
	unsigned int unacked_rx;
	uint64_t ack_deadline_ns;
	struct rx_slot rx[W];
};

static bool seq_lt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static bool seq_le(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) <= 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t clamp_rto(const struct pw_rchan *ch, uint64_t rto)
{
	if (rto < ch->cfg.rto_min_ns)
		return ch->cfg.rto_min_ns;
	return min_u64(rto, ch->cfg.rto_max_ns);
}

int pw_rchan_create(struct pw_rchan **chp, const struct pw_rchan_cfg *cfg)
{
	struct pw_rchan *ch;

	if (!cfg->xmit || !cfg->session)
		return -EINVAL;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return -ENOMEM;
	ch->cfg = *cfg;
	if (!ch->cfg.rto_init_ns)
		ch->cfg.rto_init_ns = PW_RCHAN_RTO_INIT_NS;
	if (!ch->cfg.rto_min_ns)
		ch->cfg.rto_min_ns = PW_RCHAN_RTO_MIN_NS;
	if (!ch->cfg.rto_max_ns)
		ch->cfg.rto_max_ns = PW_RCHAN_RTO_MAX_NS;
	if (!ch->cfg.ack_delay_ns)
		ch->cfg.ack_delay_ns = PW_RCHAN_ACK_DELAY_NS;
	if (ch->cfg.rto_min_ns > ch->cfg.rto_max_ns) {
		free(ch);
		return -EINVAL;
	}
	ch->stats.rto_ns = clamp_rto(ch, ch->cfg.rto_init_ns);
	ch->snd_una = ch->snd_nxt = PW_RCHAN_FIRST_SEQ;
	*chp = ch;
	return 0;
}

void pw_rchan_destroy(struct pw_rchan *ch)
{
	free(ch);
}

/* Bit i: seq rcv_next + 1 + i (ack + 2 + i) is buffered. */
static uint64_t rx_sack(const struct pw_rchan *ch)
{
	uint64_t sack = 0;
	unsigned int i;

	for (i = 0; i < W - 1; i++) {
		uint32_t seq = ch->rcv_next + 1 + i;
		const struct rx_slot *s = &ch->rx[seq % W];

		if (seq - ch->rcv_deliver >= W)
			break;
		if (s->full && s->seq == seq)
			sack |= 1ull << i;
	}
	return sack;
}

static void xmit(struct pw_rchan *ch, const void *dgram, size_t len)
{
	if (ch->cfg.xmit(ch->cfg.ctx, dgram, len) < 0)
		ch->stats.xmit_errors++;
}

/* An ack went out: nothing owed any more. */
static void ack_sent(struct pw_rchan *ch)
{
	ch->ack_pending = false;
	ch->unacked_rx = 0;
}

/* (Re)transmit @s carrying the current base and ack. */
static void tx_slot_send(struct pw_rchan *ch, struct tx_slot *s, uint64_t now,
			 bool retrans)
{
	uint16_t flags = retrans ? PW_WIRE_F_RETRANS : 0;

	if (ch->rx_synced)
		flags |= PW_WIRE_F_ACK;
	pw_wire_patch_ack(s->dgram, flags, ch->snd_una, ch->peer_session,
			  ch->rcv_next - 1, ch->rx_synced ? rx_sack(ch) : 0);
	s->sent_ns = now;
	s->deadline_ns = now + s->rto_ns;
	xmit(ch, s->dgram, s->len);
	if (ch->rx_synced)
		ack_sent(ch);
}

static void send_pure_ack(struct pw_rchan *ch)
{
	struct pw_wire_msg m;
	uint8_t buf[PW_WIRE_HDR_SIZE];
	int len;

	if (!ch->rx_synced)
		return;
	memset(&m.hdr, 0, sizeof(m.hdr));
	m.hdr.type = PW_WIRE_ACK;
	m.hdr.flags = PW_WIRE_F_ACK;
	m.hdr.src_node = ch->cfg.self_node;
	m.hdr.dst_node = ch->cfg.peer_node;
	m.hdr.session = ch->cfg.session;
	m.hdr.ack_session = ch->peer_session;
	m.hdr.ack = ch->rcv_next - 1;
	m.hdr.sack = rx_sack(ch);
	len = pw_wire_encode(&m, buf, sizeof(buf));
	if (len < 0)
		return;
	xmit(ch, buf, len);
	ch->stats.acks_sent++;
	ack_sent(ch);
}

int pw_rchan_send(struct pw_rchan *ch, const struct pw_wire_msg *msg,
		  uint64_t now)
{
	struct tx_slot *s = &ch->tx[ch->snd_nxt % W];
	struct pw_wire_msg m;
	int len;

	if (msg->hdr.type == PW_WIRE_ACK || msg->hdr.type >= PW_WIRE_NTYPES)
		return -EINVAL;
	if (ch->snd_nxt - ch->snd_una >= W)
		return -ENOBUFS;
	m = *msg;
	memset(&m.hdr, 0, sizeof(m.hdr));
	m.hdr.type = msg->hdr.type;
	m.hdr.src_node = ch->cfg.self_node;
	m.hdr.dst_node = ch->cfg.peer_node;
	m.hdr.session = ch->cfg.session;
	m.hdr.seq = ch->snd_nxt;
	m.hdr.base = ch->snd_una;
	len = pw_wire_encode(&m, s->dgram, sizeof(s->dgram));
	if (len < 0)
		return -EINVAL;
	s->used = true;
	s->sacked = false;
	s->retransmitted = false;
	s->fast_done = false;
	s->len = len;
	s->seq = ch->snd_nxt++;
	s->first_sent_ns = now;
	s->rto_ns = ch->stats.rto_ns;
	ch->stats.sent++;
	tx_slot_send(ch, s, now, false);
	return 0;
}

/* RFC 6298 with @r a fresh round-trip sample. */
static void rtt_sample(struct pw_rchan *ch, uint64_t r)
{
	struct pw_rchan_stats *st = &ch->stats;

	if (!st->srtt_ns) {
		st->srtt_ns = r;
		ch->rttvar_ns = r / 2;
	} else {
		uint64_t diff = st->srtt_ns > r ? st->srtt_ns - r
						: r - st->srtt_ns;

		ch->rttvar_ns = (3 * ch->rttvar_ns + diff) / 4;
		st->srtt_ns = (7 * st->srtt_ns + r) / 8;
	}
	st->rto_ns = clamp_rto(ch, st->srtt_ns + 4 * ch->rttvar_ns);
}

/*
 * Retransmit a hole at once when PW_RCHAN_DUPTHRESH later messages were
 * sacked and a round trip passed since it was sent; once per message, so
 * that reordering costs at most one spurious copy (a lost retransmission
 * waits for the timer).
 */
static void fast_retransmit(struct pw_rchan *ch, uint64_t now)
{
	uint64_t rtt = ch->stats.srtt_ns;
	unsigned int above = 0;
	uint32_t seq;

	if (!rtt)
		return;
	for (seq = ch->snd_nxt; seq != ch->snd_una;) {
		struct tx_slot *s = &ch->tx[--seq % W];

		if (s->sacked) {
			above++;
			continue;
		}
		if (above < PW_RCHAN_DUPTHRESH || s->fast_done ||
		    now - s->sent_ns < rtt + rtt / 4)
			continue;
		s->retransmitted = true;
		s->fast_done = true;
		ch->stats.retransmitted++;
		ch->stats.fast_retransmits++;
		tx_slot_send(ch, s, now, true);
	}
}

/*
 * A round-trip sample from @s, newly acknowledged: only from a message
 * sent once (Karn) and not sacked before (its cumulative ack may have
 * waited for a hole to be repaired).
 */
static uint64_t sample_of(const struct tx_slot *s, uint64_t now)
{
	if (s->retransmitted || s->sacked)
		return 0;
	return now - s->sent_ns;
}

static void process_ack(struct pw_rchan *ch, uint32_t ack, uint64_t sack,
			uint64_t now)
{
	uint64_t sample = 0, r;
	unsigned int i;

	if (!seq_lt(ack, ch->snd_nxt)) {
		ch->stats.bad_acks++;
		return;
	}
	while (seq_le(ch->snd_una, ack)) {
		struct tx_slot *s = &ch->tx[ch->snd_una % W];

		r = sample_of(s, now);
		if (r)
			sample = r;
		s->used = false;
		ch->snd_una++;
	}
	for (i = 0; i < 64 && sack; i++) {
		uint32_t seq = ack + 2 + i;
		struct tx_slot *s = &ch->tx[seq % W];

		if (!(sack & (1ull << i)))
			continue;
		if (seq_le(ch->snd_una, seq) && seq_lt(seq, ch->snd_nxt) &&
		    s->seq == seq && !s->sacked) {
			r = sample_of(s, now);
			if (r)
				sample = r;
			s->sacked = true;
		}
	}
	if (sample)
		rtt_sample(ch, sample);
	if (sack)
		fast_retransmit(ch, now);
}

/* Forget what the peer's old incarnation sent us and what it sacked. */
static void peer_reset(struct pw_rchan *ch, uint64_t now)
{
	uint32_t seq;
	unsigned int i;

	for (i = 0; i < W; i++) {
		if (ch->rx[i].full)
			ch->stats.lost_on_reset++;
		ch->rx[i].full = false;
	}
	/*
	 * Its new incarnation holds nothing the old one sacked, and waits
	 * for all of it: retransmit at the next poll. What it has not
	 * acknowledged is new to it: its silence about them starts now.
	 */
	for (seq = ch->snd_una; seq != ch->snd_nxt; seq++) {
		ch->tx[seq % W].sacked = false;
		ch->tx[seq % W].deadline_ns = 0;
		ch->tx[seq % W].first_sent_ns = now;
	}
	ch->rx_synced = false;
	ch->ack_pending = false;
	ch->unacked_rx = 0;
	ch->stats.peer_resets++;
}

/* Past every message buffered in order. */
static void advance_rcv_next(struct pw_rchan *ch)
{
	while (ch->rcv_next - ch->rcv_deliver < W) {
		const struct rx_slot *s = &ch->rx[ch->rcv_next % W];

		if (!s->full || s->seq != ch->rcv_next)
			break;
		ch->rcv_next++;
	}
}

/* The sender's base passed what we wait for: it will never come. */
static void skip_to_base(struct pw_rchan *ch, uint32_t base)
{
	if (base - ch->rcv_deliver >= W) {
		unsigned int i;

		for (i = 0; i < W; i++) {
			if (ch->rx[i].full)
				ch->stats.lost_on_reset++;
			ch->rx[i].full = false;
		}
		ch->stats.lost_on_reset += base - ch->rcv_next;
		ch->rcv_deliver = ch->rcv_next = base;
		return;
	}
	/* pw_rchan_recv() steps over the holes left below base. */
	while (seq_lt(ch->rcv_next, base)) {
		const struct rx_slot *s = &ch->rx[ch->rcv_next % W];

		if (!s->full || s->seq != ch->rcv_next)
			ch->stats.lost_on_reset++;
		ch->rcv_next++;
	}
	advance_rcv_next(ch);
}

/* A data message in: true when it is kept (not a duplicate, in window). */
static bool rx_data(struct pw_rchan *ch, const struct pw_wire_msg *msg,
		    uint64_t now)
{
	uint32_t seq = msg->hdr.seq;
	struct rx_slot *s = &ch->rx[seq % W];
	bool in_order;

	if (!ch->rx_synced) {
		ch->rcv_deliver = ch->rcv_next = msg->hdr.base;
		ch->rx_synced = true;
		if (msg->hdr.base != PW_RCHAN_FIRST_SEQ)
			ch->stats.joined_late++;
	} else if (seq_lt(ch->rcv_next, msg->hdr.base)) {
		skip_to_base(ch, msg->hdr.base);
	}
	if (seq_lt(seq, ch->rcv_next) || (s->full && s->seq == seq)) {
		ch->stats.duplicates++;
		send_pure_ack(ch);	/* our earlier ack was lost */
		return false;
	}
	if (seq - ch->rcv_deliver >= W) {
		ch->stats.out_of_window++;
		send_pure_ack(ch);
		return false;
	}
	s->full = true;
	s->seq = seq;
	s->msg = *msg;
	in_order = seq == ch->rcv_next;
	advance_rcv_next(ch);
	/* A hole: tell the sender now, its sacks drive the repair. */
	if (!in_order || ++ch->unacked_rx >= PW_RCHAN_ACK_EVERY) {
		send_pure_ack(ch);
	} else if (!ch->ack_pending) {
		ch->ack_pending = true;
		ch->ack_deadline_ns = now + ch->cfg.ack_delay_ns;
	}
	return true;
}

bool pw_rchan_input_msg(struct pw_rchan *ch, const struct pw_wire_msg *msg,
			uint64_t now)
{
	const struct pw_wire_hdr *h = &msg->hdr;
	uint32_t una = ch->snd_una;
	bool news = false;

	ch->stats.received++;
	if (h->src_node != ch->cfg.peer_node ||
	    h->dst_node != ch->cfg.self_node) {
		ch->stats.misaddressed++;
		return false;
	}
	if (!ch->peer_session || seq_lt(ch->peer_session, h->session)) {
		if (ch->peer_session)
			peer_reset(ch, now);
		ch->peer_session = h->session;
		news = true;
	} else if (h->session != ch->peer_session) {
		ch->stats.stale++;
		return false;
	}
	if ((h->flags & PW_WIRE_F_ACK) && h->ack_session == ch->cfg.session)
		process_ack(ch, h->ack, h->sack, now);
	if (h->type != PW_WIRE_ACK)
		news |= rx_data(ch, msg, now);
	return news || ch->snd_una != una;
}

bool pw_rchan_is_restart(const struct pw_rchan *ch, uint32_t session)
{
	return ch->peer_session && seq_lt(ch->peer_session, session);
}

void pw_rchan_count_malformed(struct pw_rchan *ch, enum pw_wire_err err)
{
	ch->stats.malformed++;
	if ((unsigned int)err < PW_WIRE_NERR)
		ch->stats.malformed_by[err]++;
}

int pw_rchan_input(struct pw_rchan *ch, const void *dgram, size_t len,
		   uint64_t now)
{
	struct pw_wire_msg msg;
	enum pw_wire_err err = pw_wire_decode(&msg, dgram, len);

	if (err) {
		pw_rchan_count_malformed(ch, err);
		return -EBADMSG;
	}
	pw_rchan_input_msg(ch, &msg, now);
	return 0;
}

int pw_rchan_recv(struct pw_rchan *ch, struct pw_wire_msg *msg)
{
	while (ch->rcv_deliver != ch->rcv_next) {
		struct rx_slot *s = &ch->rx[ch->rcv_deliver % W];
		uint32_t seq = ch->rcv_deliver++;

		if (!s->full || s->seq != seq)
			continue;	/* skipped: counted in skip_to_base() */
		s->full = false;
		*msg = s->msg;
		ch->stats.delivered++;
		return 1;
	}
	return 0;
}

void pw_rchan_poll(struct pw_rchan *ch, uint64_t now)
{
	bool backed_off = false;
	uint32_t seq;

	for (seq = ch->snd_una; seq != ch->snd_nxt; seq++) {
		struct tx_slot *s = &ch->tx[seq % W];

		if (now < s->deadline_ns)
			continue;
		s->rto_ns = min_u64(2 * s->rto_ns, ch->cfg.rto_max_ns);
		if (s->sacked) {
			/* Held by the peer: only the timer keeps running. */
			s->deadline_ns = now + s->rto_ns;
			continue;
		}
		/*
		 * RFC 6298 5.5: new messages start from the backed-off
		 * timeout too, until a fresh sample. Else a peer slower
		 * than the timeout has every message resent, and Karn
		 * leaves no sample to learn from. Once a poll: timeouts
		 * that fall together are one event.
		 */
		if (!backed_off) {
			ch->stats.rto_ns = min_u64(2 * ch->stats.rto_ns,
						   ch->cfg.rto_max_ns);
			backed_off = true;
		}
		s->retransmitted = true;
		ch->stats.retransmitted++;
		tx_slot_send(ch, s, now, true);
	}
	if (ch->ack_pending && now >= ch->ack_deadline_ns)
		send_pure_ack(ch);
}

uint64_t pw_rchan_deadline(const struct pw_rchan *ch)
{
	uint64_t t = ch->ack_pending ? ch->ack_deadline_ns : UINT64_MAX;
	uint32_t seq;

	for (seq = ch->snd_una; seq != ch->snd_nxt; seq++)
		t = min_u64(t, ch->tx[seq % W].deadline_ns);
	return t;
}

unsigned int pw_rchan_inflight(const struct pw_rchan *ch)
{
	return ch->snd_nxt - ch->snd_una;
}

uint64_t pw_rchan_oldest_unacked(const struct pw_rchan *ch)
{
	if (ch->snd_una == ch->snd_nxt)
		return UINT64_MAX;
	return ch->tx[ch->snd_una % W].first_sent_ns;
}

const struct pw_rchan_stats *pw_rchan_stats(const struct pw_rchan *ch)
{
	return &ch->stats;
}
