// SPDX-License-Identifier: GPL-2.0
/*
 * dpdk_ping.c - two hosts talk over the control-plane transports, each
 * end DPDK or kernel UDP: the pinging end times COUNT echoes of 64-byte
 * datagrams (median, p99, min, max), then both ends run a reliable
 * channel that carries MSGS messages each way while each sender drops
 * LOSS per mille of its datagrams; both check every message arrives once
 * and in order. Exit status 0 when all went well.
 *
 *   dpdk_ping (--dpdk IFNAME | --memif SOCKET [--memif-server] | --udp)
 *             --addr IP:PORT --peer IP:PORT
 *             (--ping COUNT | --pong) [--msgs MSGS] [--loss PERMILLE]
 *
 * In the testbed (host 0 on DPDK over eth0, host 1 on kernel UDP):
 *   tools/testbed-multi -n 2 -- sh -c 'if [ $PWTPU_HOST_INDEX = 0 ];
 *     then build/selftests/net/dpdk_ping --dpdk eth0 --addr 10.77.0.1:7001
 *          --peer 10.77.0.2:7002 --ping 2000;
 *     else build/selftests/net/dpdk_ping --udp --addr 10.77.0.2:7002
 *          --peer 10.77.0.1:7001 --pong; fi'
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net_common.h"
#include "../../runtime/dcn/node.h"
#include "../../runtime/net/dpdk.h"
#include "../../runtime/net/rchan.h"

#define MS		(1000 * 1000ull)
#define ECHO_LEN	64
#define PONG_LIFE_NS	(300 * 1000 * MS)

static const char ping_tag[4] = "PING", bye_tag[4] = "BYE!";

struct end {
	struct pw_transport *t;
	struct sockaddr_in peer;
	struct pw_rchan *ch;
	uint64_t rng;
	unsigned int loss;
	unsigned long dropped;
	unsigned int next_id, expect, msgs;
	unsigned int echoes_seen;
	bool streaming;
	bool bye;
	bool bad;
};

static int end_xmit(void *ctx, const void *d, size_t len)
{
	struct end *e = ctx;

	if (net_chance(&e->rng, e->loss)) {
		e->dropped++;
		return 0;
	}
	return pw_transport_send(e->t, &e->peer, d, len);
}

/* Message @id of the stream from the node with @from. */
static void stream_msg(struct pw_wire_msg *m, unsigned int from,
		       unsigned int id)
{
	memset(m, 0, sizeof(*m));
	m->hdr.type = PW_WIRE_DONE;
	m->body.done.run_id = id;
	m->body.done.host_id = from;
	m->body.done.ncmds = id * 3 + from;
}

/*
 * Everything that arrived: echo pings (pong), note echoes (ping), feed
 * the channel and check its deliveries. Returns echoes of @want_seq.
 */
static unsigned int pump(struct end *e, bool pong, uint32_t want_seq,
			 unsigned int peer_node)
{
	uint64_t now = net_now_ns();
	struct pw_wire_msg m, want;
	struct pw_dgram dg[16];
	unsigned int echoes = 0;
	int n, i;

	n = pw_transport_recv_burst(e->t, dg, 16);
	for (i = 0; i < n; i++) {
		const uint8_t *p = dg[i].data;
		uint32_t seq;

		if (dg[i].len == ECHO_LEN && !memcmp(p, ping_tag, 4)) {
			if (pong) {
				pw_transport_send(e->t, &dg[i].from, p,
						  dg[i].len);
				e->echoes_seen++;
				continue;
			}
			memcpy(&seq, p + 4, 4);
			echoes += seq == want_seq;
		} else if (dg[i].len == 4 && !memcmp(p, bye_tag, 4)) {
			e->bye = true;
		} else if (e->ch) {
			/* The peer's stream started: ours goes too. */
			e->streaming = true;
			pw_rchan_input(e->ch, p, dg[i].len, now);
		}
	}
	if (!e->ch)
		return echoes;
	while (pw_rchan_recv(e->ch, &m) == 1) {
		stream_msg(&want, peer_node, e->expect);
		if (memcmp(&m.body.done, &want.body.done,
			   sizeof(want.body.done)))
			e->bad = true;
		e->expect++;
	}
	while (e->streaming && e->next_id < e->msgs) {
		stream_msg(&m, peer_node == 1 ? 2 : 1, e->next_id);
		if (pw_rchan_send(e->ch, &m, now))
			break;
		e->next_id++;
	}
	pw_rchan_poll(e->ch, now);
	return echoes;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The peer may start later: ping it until it answers, for a minute. */
static int wait_for_peer(struct end *e, uint8_t *buf)
{
	uint32_t seq = UINT32_MAX - 1;
	uint64_t end = net_now_ns() + 60000 * MS;

	memcpy(buf + 4, &seq, 4);
	while (net_now_ns() < end) {
		uint64_t next = net_now_ns() + 100 * MS;

		if (pw_transport_send(e->t, &e->peer, buf, ECHO_LEN))
			return -1;
		while (net_now_ns() < next) {
			pw_transport_wait(e->t, 1 * MS);
			if (pump(e, false, seq, 2))
				return 0;
		}
	}
	fprintf(stderr, "dpdk_ping: the peer never answered\n");
	return -1;
}

static int do_ping(struct end *e, unsigned int count)
{
	uint64_t *rtt = calloc(count ? count : 1, sizeof(*rtt));
	uint8_t buf[ECHO_LEN];
	unsigned int j, lost = 0, got = 0;

	if (!rtt)
		return -1;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, ping_tag, 4);
	if (wait_for_peer(e, buf))
		return -1;
	for (j = 0; j < count; j++) {
		uint64_t t0 = net_now_ns(), end = t0 + 1000 * MS;
		uint32_t seq = j;
		bool back = false;

		memcpy(buf + 4, &seq, 4);
		if (pw_transport_send(e->t, &e->peer, buf, sizeof(buf)))
			return -1;
		while (!back && net_now_ns() < end) {
			pw_transport_wait(e->t, 1 * MS);
			back = pump(e, false, seq, 2) > 0;
		}
		if (back)
			rtt[got++] = net_now_ns() - t0;
		else
			lost++;
	}
	qsort(rtt, got, sizeof(*rtt), cmp_u64);
	if (got)
		printf("dpdk_ping: %s -> peer -> %s, %u echoes of %d bytes: "
		       "p50 %.1f us, p99 %.1f us, min %.1f us, max %.1f us, "
		       "lost %u\n", e->t->ops->name, e->t->ops->name, got,
		       ECHO_LEN, rtt[got / 2] / 1e3, rtt[got * 99 / 100] / 1e3,
		       rtt[0] / 1e3, rtt[got - 1] / 1e3, lost);
	free(rtt);
	return lost || !got ? -1 : 0;
}

static bool stream_done(struct end *e)
{
	return e->expect == e->msgs && e->next_id == e->msgs &&
	       !pw_rchan_inflight(e->ch);
}

static void print_stats(struct end *e)
{
	const struct pw_rchan_stats *s = pw_rchan_stats(e->ch);
	const struct pw_dpdk_stats *d = pw_dpdk_stats(e->t);

	printf("dpdk_ping: %s channel: delivered %llu/%u in order, sent %llu "
	       "retx %llu dropped-by-us %lu dups %llu malformed %llu "
	       "srtt %llu us\n", e->t->ops->name,
	       (unsigned long long)s->delivered, e->msgs,
	       (unsigned long long)s->sent,
	       (unsigned long long)s->retransmitted, e->dropped,
	       (unsigned long long)s->duplicates,
	       (unsigned long long)s->malformed,
	       (unsigned long long)s->srtt_ns / 1000);
	if (d)
		printf("dpdk_ping: dpdk frames %llu, offloaded csums %llu, "
		       "ARP asked %llu answered %llu learned %llu dropped "
		       "%llu, not-IP %llu other-host %llu other-port %llu\n",
		       (unsigned long long)d->rx_frames,
		       (unsigned long long)d->rx_csum_offloaded,
		       (unsigned long long)d->arp_requests_sent,
		       (unsigned long long)d->arp_replies_sent,
		       (unsigned long long)d->arp_learned,
		       (unsigned long long)d->arp_dropped,
		       (unsigned long long)d->rx_dropped[PW_FRAME_D_NOT_IP],
		       (unsigned long long)d->rx_dropped[PW_FRAME_D_OTHER_HOST],
		       (unsigned long long)
		       d->rx_dropped[PW_FRAME_D_OTHER_PORT]);
}

static void usage(void)
{
	fprintf(stderr, "usage: dpdk_ping (--dpdk IFNAME | --memif SOCKET "
		"[--memif-server] | --udp)\n"
		"                 --addr IP:PORT --peer IP:PORT "
		"(--ping COUNT | --pong) [--msgs N] [--loss PERMILLE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dpdk", required_argument, NULL, 'd' },
		{ "udp", no_argument, NULL, 'u' },
		{ "memif", required_argument, NULL, 'M' },
		{ "memif-server", no_argument, NULL, 'S' },
		{ "addr", required_argument, NULL, 'a' },
		{ "peer", required_argument, NULL, 'p' },
		{ "ping", required_argument, NULL, 'P' },
		{ "pong", no_argument, NULL, 'O' },
		{ "msgs", required_argument, NULL, 'm' },
		{ "loss", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct pw_dpdk_opts dopts = { 0 };
	struct end e = { .msgs = 5000, .loss = 50 };
	struct pw_rchan_cfg cfg = { 0 };
	const char *ifname = NULL;
	int c, ret, pong = -1, udp = 0;
	unsigned int count = 0;
	struct sockaddr_in addr;
	bool have_addr = false;
	uint64_t end;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': ifname = optarg; break;
		case 'u': udp = 1; break;
		case 'M': dopts.memif_socket = optarg; break;
		case 'S': dopts.memif_server = 1; break;
		case 'a': have_addr = !pw_parse_addr(optarg, &addr); break;
		case 'p': if (pw_parse_addr(optarg, &e.peer)) usage(); break;
		case 'P': pong = 0; count = atoi(optarg); break;
		case 'O': pong = 1; break;
		case 'm': e.msgs = atoi(optarg); break;
		case 'l': e.loss = atoi(optarg); break;
		default: usage();
		}
	}
	if (!have_addr || !e.peer.sin_port || pong < 0 ||
	    !!ifname + !!dopts.memif_socket + udp != 1)
		usage();
	if (udp) {
		ret = pw_udp_open(&e.t, &addr);
	} else {
		dopts.ifname = ifname;
		dopts.addr = addr;
		ret = pw_dpdk_open(&e.t, &dopts);
	}
	if (ret) {
		fprintf(stderr, "dpdk_ping: open %s: %s\n",
			udp ? "udp" : "dpdk", strerror(-ret));
		return 1;
	}
	/* The pinging end is node 1. */
	cfg.self_node = pong ? 2 : 1;
	cfg.peer_node = pong ? 1 : 2;
	cfg.session = 100 + pong;
	cfg.xmit = end_xmit;
	cfg.ctx = &e;
	e.rng = 7 + pong;
	if (pw_rchan_create(&e.ch, &cfg))
		return 1;

	ret = 0;
	if (!pong) {
		ret = do_ping(&e, count);
		/* The pong end echoed; now the streams, then good-bye. */
		e.streaming = true;
		end = net_now_ns() + 120000 * MS;
		while (!stream_done(&e) && net_now_ns() < end) {
			pw_transport_wait(e.t, 1 * MS);
			pump(&e, false, UINT32_MAX, 2);
		}
		for (end = net_now_ns() + 500 * MS; net_now_ns() < end;) {
			pw_transport_wait(e.t, 1 * MS);
			pump(&e, false, UINT32_MAX, 2);
		}
		for (c = 0; c < 3; c++)
			pw_transport_send(e.t, &e.peer, bye_tag, 4);
	} else {
		end = net_now_ns() + PONG_LIFE_NS;
		while (!(e.bye && stream_done(&e)) && net_now_ns() < end) {
			pw_transport_wait(e.t, 1 * MS);
			pump(&e, true, 0, 1);
		}
		printf("dpdk_ping: %s end echoed %u datagrams\n",
		       e.t->ops->name, e.echoes_seen);
	}
	print_stats(&e);
	if (!stream_done(&e) || e.bad) {
		printf("dpdk_ping: FAILED: %u/%u delivered%s\n", e.expect,
		       e.msgs, e.bad ? ", out of order or corrupt" : "");
		ret = -1;
	}
	pw_rchan_destroy(e.ch);
	pw_transport_close(e.t);
	return ret ? 1 : 0;
}
