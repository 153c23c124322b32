// SPDX-License-Identifier: GPL-2.0
/*
 * test_udp.c - the io_uring UDP transport (runtime/net/udp.c) on the
 * host's loopback: datagrams arrive whole with their source, oversized
 * ones are refused or dropped and counted; and two reliable channels
 * exchange 10k messages each way over real UDP while each sender drops 5%
 * of its datagrams and a plain socket throws garbage at one of them:
 * every message arrives once and in order, every piece of garbage is
 * counted under its reason.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "net_common.h"
#include "../../runtime/net/rchan.h"
#include "../../runtime/net/transport.h"

#define MS (1000 * 1000ull)

static struct sockaddr_in loopback(void)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	return a;
}

/* A plain socket on loopback, for sending what no transport would. */
static int plain_socket(void)
{
	struct sockaddr_in a = loopback();
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

FIXTURE(pair) {
	struct pw_transport *t[2];
	struct sockaddr_in addr[2];
};

FIXTURE_SETUP(pair)
{
	struct sockaddr_in any = loopback();
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pw_udp_open(&self->t[i], &any));
		ASSERT_EQ(0, pw_transport_local_addr(self->t[i],
						     &self->addr[i]));
		ASSERT_NE(0, self->addr[i].sin_port);
	}
	ASSERT_STREQ("udp", self->t[0]->ops->name);
	ASSERT_GE(pw_transport_poll_fd(self->t[0]), 0);
}

FIXTURE_TEARDOWN(pair)
{
	pw_transport_close(self->t[0]);
	pw_transport_close(self->t[1]);
}

/* Receive until @want datagrams came or 5 s passed; @seen per first byte. */
static unsigned int drain(struct pw_transport *t, unsigned int want,
			  unsigned int *seen, const struct sockaddr_in *from,
			  unsigned int *bad)
{
	uint64_t end = net_now_ns() + 5000 * MS;
	unsigned int got = 0;

	while (got < want && net_now_ns() < end) {
		struct pw_dgram dg[8];
		int n, i;

		pw_transport_wait(t, 10 * MS);
		n = pw_transport_recv_burst(t, dg, 8);
		for (i = 0; i < n; i++) {
			size_t k, len = dg[i].len;

			got++;
			if (!net_same_addr(&dg[i].from, from) || !len) {
				(*bad)++;
				continue;
			}
			/* Datagram j is j % 251 repeated, j + 1 bytes. */
			for (k = 0; k < len; k++)
				if (dg[i].data[k] != (len - 1) % 251)
					break;
			if (k < len)
				(*bad)++;
			else
				seen[len - 1]++;
		}
	}
	return got;
}

TEST_F(pair, datagrams_arrive_whole_with_source)
{
	static uint8_t buf[PW_TRANSPORT_MAX_DGRAM + 1];
	static unsigned int seen[PW_TRANSPORT_MAX_DGRAM];
	static uint8_t big[3000];
	unsigned int j, bad = 0, n = 0;
	struct pw_dgram dg[4];
	uint64_t end;
	int fd;

	memset(seen, 0, sizeof(seen));
	/* Lengths 1..2048 in steps, each body tells its length. */
	for (j = 0; j < PW_TRANSPORT_MAX_DGRAM; j += 7, n++) {
		memset(buf, j % 251, j + 1);
		ASSERT_EQ(0, pw_transport_send(self->t[0], &self->addr[1],
					       buf, j + 1));
	}
	ASSERT_EQ(n, drain(self->t[1], n, seen, &self->addr[0], &bad));
	ASSERT_EQ(0u, bad);
	for (j = 0; j < PW_TRANSPORT_MAX_DGRAM; j++) {
		ASSERT_EQ((unsigned int)(j % 7 == 0), seen[j])
			TH_LOG("length %u", j + 1);
	}
	ASSERT_EQ(n, self->t[1]->stats.rx_packets);
	ASSERT_EQ(-EMSGSIZE, pw_transport_send(self->t[0], &self->addr[1], buf,
					       sizeof(buf)));
	/* Nothing more is waiting. */
	ASSERT_EQ(0, pw_transport_wait(self->t[1], 20 * MS));

	/* Too big for the transport: dropped on arrival and counted. */
	fd = plain_socket();
	ASSERT_GE(fd, 0);
	ASSERT_EQ((ssize_t)sizeof(big),
		  sendto(fd, big, sizeof(big), 0,
			 (struct sockaddr *)&self->addr[1],
			 sizeof(self->addr[1])));
	buf[0] = 0;
	ASSERT_EQ(1, sendto(fd, buf, 1, 0, (struct sockaddr *)&self->addr[1],
			    sizeof(self->addr[1])));
	n = 0;
	end = net_now_ns() + 5000 * MS;
	while (!n && net_now_ns() < end) {
		pw_transport_wait(self->t[1], 10 * MS);
		n = pw_transport_recv_burst(self->t[1], dg, 4);
	}
	ASSERT_EQ(1u, n);
	ASSERT_EQ(1u, dg[0].len);
	ASSERT_EQ(1u, self->t[1]->stats.rx_truncated);
	close(fd);
	ASSERT_EQ(0u, self->t[0]->stats.tx_errors);
}

/* Garbage kinds and what the receiving channel must make of them. */
enum garbage {
	G_SHORT, G_MAGIC, G_VERSION, G_OVERSIZE, G_LENGTH, G_FLAGS,
	G_STRANGER, G_HUGE, G_KINDS,
};

#define GARBAGE_EACH 20u

static size_t make_garbage(uint8_t *buf, enum garbage kind, uint64_t *rng)
{
	struct pw_wire_msg m;
	size_t len, i;

	net_gen_msg(&m, PW_WIRE_HEARTBEAT, rng);
	m.hdr.src_node = 1;
	m.hdr.dst_node = 2;
	len = pw_wire_encode(&m, buf, PW_WIRE_MAX_DGRAM);
	switch (kind) {
	case G_SHORT:
		len = 1 + net_below(rng, PW_WIRE_HDR_SIZE - 1);
		for (i = 0; i < len; i++)
			buf[i] = net_rand(rng);
		break;
	case G_MAGIC:
		buf[1] ^= 0x20;
		break;
	case G_VERSION:
		buf[4] = PW_WIRE_VERSION + 1;
		break;
	case G_OVERSIZE:
		len = PW_WIRE_MAX_DGRAM + 8;
		memset(buf + PW_WIRE_HDR_SIZE, 0, len - PW_WIRE_HDR_SIZE);
		break;
	case G_LENGTH:
		len -= 5;
		break;
	case G_FLAGS:
		buf[7] = 0x40;
		break;
	case G_STRANGER:	/* well formed, from node 77 */
		m.hdr.src_node = 77;
		len = pw_wire_encode(&m, buf, PW_WIRE_MAX_DGRAM);
		break;
	case G_HUGE:
		len = PW_TRANSPORT_MAX_DGRAM + 100;
		break;
	default:
		break;
	}
	return len;
}

TEST_F(pair, rchan_10k_each_way_with_drops_and_garbage)
{
	const unsigned int n = 10000;
	static uint8_t junk[PW_TRANSPORT_MAX_DGRAM + 128];
	unsigned int sent_garbage = 0, i, iter = 0;
	const struct pw_rchan_stats *st;
	uint64_t grng = 99, start = net_now_ns();
	struct net_ep ep[2];
	int fd = plain_socket();

	ASSERT_GE(fd, 0);
	memset(ep, 0, sizeof(ep));
	for (i = 0; i < 2; i++) {
		struct pw_rchan_cfg cfg = {
			.self_node = 1 + i,
			.peer_node = 2 - i,
			.session = 1000 + i,
			.xmit = net_ep_xmit,
			.ctx = &ep[i],
		};

		ep[i].t = self->t[i];
		ep[i].peer = self->addr[1 - i];
		ep[i].rng = 1 + i;
		ASSERT_EQ(0, pw_rchan_create(&ep[i].ch, &cfg));
	}
	st = pw_rchan_stats(ep[1].ch);

	for (;;) {
		struct pollfd pfd[2];
		uint64_t now = net_now_ns(), next = now + 10 * MS;
		int timeout_ms;

		for (i = 0; i < 2; i++) {
			struct pw_wire_msg m;

			while (ep[i].next_id < n) {
				net_ep_msg(&m, 1 + i, ep[i].next_id);
				if (pw_rchan_send(ep[i].ch, &m, now))
					break;
				ep[i].next_id++;
			}
		}
		/* Garbage for endpoint 1, spread over the exchange. */
		if (++iter % 8 == 0 && sent_garbage < G_KINDS * GARBAGE_EACH) {
			size_t len = make_garbage(junk, sent_garbage % G_KINDS,
						  &grng);

			ASSERT_EQ((ssize_t)len,
				  sendto(fd, junk, len, 0,
					 (struct sockaddr *)&self->addr[1],
					 sizeof(self->addr[1])));
			sent_garbage++;
		}
		for (i = 0; i < 2; i++) {
			ASSERT_NE(-1, net_ep_pump(&ep[i], 2 - i, now))
				TH_LOG("endpoint %u expected %u", i,
				       ep[i].expect);
		}
		if (ep[0].expect == n && ep[1].expect == n &&
		    !pw_rchan_inflight(ep[0].ch) &&
		    !pw_rchan_inflight(ep[1].ch) &&
		    sent_garbage == G_KINDS * GARBAGE_EACH &&
		    st->malformed + st->misaddressed +
		    self->t[1]->stats.rx_truncated ==
		    G_KINDS * GARBAGE_EACH)
			break;
		ASSERT_LT(now - start, 30000 * MS)
			TH_LOG("stuck: %u/%u delivered, inflight %u/%u",
			       ep[0].expect, ep[1].expect,
			       pw_rchan_inflight(ep[0].ch),
			       pw_rchan_inflight(ep[1].ch));
		for (i = 0; i < 2; i++) {
			uint64_t d = pw_rchan_deadline(ep[i].ch);

			if (d < next)
				next = d;
			if (ep[i].next_id < n &&
			    pw_rchan_inflight(ep[i].ch) < PW_RCHAN_WINDOW)
				next = now;
			pfd[i].fd = pw_transport_poll_fd(ep[i].t);
			pfd[i].events = POLLIN;
		}
		if (sent_garbage < G_KINDS * GARBAGE_EACH)
			next = now;
		timeout_ms = next > now ? (next - now + MS - 1) / MS : 0;
		poll(pfd, 2, timeout_ms);
	}

	for (i = 0; i < 2; i++) {
		const struct pw_rchan_stats *s = pw_rchan_stats(ep[i].ch);

		ASSERT_EQ(n, s->delivered);
		ASSERT_EQ(n, s->sent);
		ASSERT_GT(s->retransmitted, 0u);
		ASSERT_EQ(0u, s->peer_resets);
		ASSERT_EQ(0u, s->stale);
		ASSERT_GT(ep[i].dropped, 0ul);
		ASSERT_EQ(0u, ep[i].t->stats.tx_errors);
		TH_LOG("endpoint %u: sent %llu retx %llu acks %llu dropped %lu "
		       "dups %llu srtt %llu ns rto %llu ns", i,
		       (unsigned long long)s->sent,
		       (unsigned long long)s->retransmitted,
		       (unsigned long long)s->acks_sent, ep[i].dropped,
		       (unsigned long long)s->duplicates,
		       (unsigned long long)s->srtt_ns,
		       (unsigned long long)s->rto_ns);
	}
	/* Endpoint 0 heard nothing but its peer. */
	ASSERT_EQ(0u, pw_rchan_stats(ep[0].ch)->malformed);
	ASSERT_EQ(GARBAGE_EACH, st->malformed_by[PW_WIRE_E_SHORT]);
	ASSERT_EQ(GARBAGE_EACH, st->malformed_by[PW_WIRE_E_MAGIC]);
	ASSERT_EQ(GARBAGE_EACH, st->malformed_by[PW_WIRE_E_VERSION]);
	ASSERT_EQ(GARBAGE_EACH, st->malformed_by[PW_WIRE_E_OVERSIZE]);
	ASSERT_EQ(GARBAGE_EACH, st->malformed_by[PW_WIRE_E_LENGTH]);
	ASSERT_EQ(GARBAGE_EACH, st->malformed_by[PW_WIRE_E_FLAGS]);
	ASSERT_EQ(6 * GARBAGE_EACH, st->malformed);
	ASSERT_EQ(GARBAGE_EACH, st->misaddressed);
	ASSERT_EQ(GARBAGE_EACH, self->t[1]->stats.rx_truncated);
	for (i = 0; i < 2; i++)
		pw_rchan_destroy(ep[i].ch);
	close(fd);
}

TEST_HARNESS_MAIN
