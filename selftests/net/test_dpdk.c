// SPDX-License-Identifier: GPL-2.0
/*
 * test_dpdk.c - the DPDK transport (runtime/net/dpdk.c) against the
 * kernel UDP transport (udp.c) over a veth pair, host only, as root.
 *
 * Before the tests run, the process moves into a network namespace of its
 * own (B) and makes a second one (A) joined to B by a veth pair:
 *
 *   A: pwdk0 10.99.0.1  DPDK net_af_packet, UDP port 7001 (the kernel of
 *      A has the address too, as a testbed guest's has)
 *   B: pwdk1 10.99.0.2  kernel UDP transport, port 7002
 *
 * so frames really cross the veth: datagrams arrive whole, with their
 * source, both ways; ARP is asked and answered; the kernel of A sends no
 * ICMP port unreachable for our port; the reliable channel delivers 5000
 * messages each way exactly once and in order with 5% of the datagrams
 * dropped; garbage frames sent raw at the DPDK end are dropped and
 * counted under their reason; two processes share A's interface and
 * address. Plus the frame codec on its own.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip_icmp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "net_common.h"
#include "../../runtime/net/dpdk.h"
#include "../../runtime/net/rchan.h"

#define US (1000ull)
#define MS (1000 * 1000ull)

#define IF_A	"pwdk0"
#define IF_B	"pwdk1"
#define IP_A	"10.99.0.1"
#define IP_B	"10.99.0.2"
#define PORT_A	7001
#define PORT_B	7002
#define PORT_C	7003		/* a second process on A */
#define PORT_X	7999		/* nobody's */

static int ns_a = -1, ns_b = -1;
static char setup_err[256];

static struct sockaddr_in inet(const char *ip, unsigned int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
	};

	inet_pton(AF_INET, ip, &a.sin_addr);
	return a;
}

static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void no_ipv6(void)
{
	/* Router solicitations and MLD would muddy the frame counts. */
	int fd = open("/proc/sys/net/ipv6/conf/all/disable_ipv6", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			perror("disable_ipv6");
		close(fd);
	}
}

/* The two namespaces and the veth, once, before the harness forks. */
static void __attribute__((constructor)) make_link(void)
{
	if (unshare(CLONE_NEWNET)) {
		snprintf(setup_err, sizeof(setup_err),
			 "unshare(CLONE_NEWNET): %s (needs root)",
			 strerror(errno));
		return;
	}
	ns_b = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (unshare(CLONE_NEWNET) == 0) {
		ns_a = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		no_ipv6();
		if (sh("ip link set lo up"))
			ns_a = -1;
	}
	if (ns_b < 0 || ns_a < 0 || setns(ns_b, CLONE_NEWNET)) {
		snprintf(setup_err, sizeof(setup_err), "netns setup failed");
		return;
	}
	no_ipv6();
	if (sh("ip link set lo up && "
	       "ip link add " IF_A " type veth peer name " IF_B " && "
	       "ip link set " IF_A " netns /proc/%d/fd/%d && "
	       "ip addr add " IP_B "/24 dev " IF_B " && "
	       "ip link set " IF_B " up", (int)getpid(), ns_a) ||
	    setns(ns_a, CLONE_NEWNET) ||
	    sh("ip addr add " IP_A "/24 dev " IF_A " && "
	       "ip link set " IF_A " up") ||
	    setns(ns_b, CLONE_NEWNET))
		snprintf(setup_err, sizeof(setup_err),
			 "veth setup failed (iproute2?)");
}

static int mac_of(const char *ifname, uint8_t *mac)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int ret;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, ifname);
	ret = ioctl(fd, SIOCGIFHWADDR, &ifr);
	close(fd);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return ret;
}

FIXTURE(link) {
	struct pw_transport *dpdk;
	struct pw_transport *udp;
	struct sockaddr_in a, b;
	uint8_t mac_a[6], mac_b[6];
};

FIXTURE_SETUP(link)
{
	struct pw_dpdk_opts o = { .ifname = IF_A };
	int ret;

	if (setup_err[0])
		SKIP(return, "%s", setup_err);
	self->a = inet(IP_A, PORT_A);
	self->b = inet(IP_B, PORT_B);
	o.addr = self->a;
	ASSERT_EQ(0, setns(ns_a, CLONE_NEWNET));
	ASSERT_EQ(0, mac_of(IF_A, self->mac_a));
	ret = pw_dpdk_open(&self->dpdk, &o);
	ASSERT_EQ(0, setns(ns_b, CLONE_NEWNET));
	ASSERT_EQ(0, ret) TH_LOG("pw_dpdk_open: %s", strerror(-ret));
	ASSERT_EQ(0, mac_of(IF_B, self->mac_b));
	ASSERT_EQ(0, pw_udp_open(&self->udp, &self->b));
	/* Every test starts with neither side knowing the other. */
	ASSERT_EQ(0, sh("ip neigh flush dev " IF_B));
}

FIXTURE_TEARDOWN(link)
{
	pw_transport_close(self->dpdk);
	pw_transport_close(self->udp);
}

/* Datagram j of a run: @len bytes, byte k = (j * 7 + k) & 0xff. */
static void fill(uint8_t *buf, unsigned int j, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		buf[k] = (j * 7 + k) & 0xff;
}

static int check(const uint8_t *buf, unsigned int j, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (buf[k] != ((j * 7 + k) & 0xff))
			return -1;
	return 0;
}

/*
 * Send datagrams of lengths first, first + step, ... up to @max from
 * @tx to @rx, a window at a time, and check each arrives whole, once,
 * from @from, in order (one link, no loss). Returns how many arrived.
 */
static unsigned int run_lengths(struct __test_metadata *_metadata,
				struct pw_transport *tx,
				struct pw_transport *rx,
				const struct sockaddr_in *to,
				const struct sockaddr_in *from,
				size_t max, size_t step)
{
	static uint8_t buf[PW_TRANSPORT_MAX_DGRAM];
	unsigned int sent = 0, got = 0, total = (max - 1) / step + 1;
	uint64_t end = net_now_ns() + 5000 * MS;

	while (got < total && net_now_ns() < end) {
		struct pw_dgram dg[16];
		int n, i;

		while (sent < total && sent - got < 32) {
			size_t len = 1 + sent * step;

			fill(buf, sent, len);
			EXPECT_EQ(0, pw_transport_send(tx, to, buf, len));
			sent++;
		}
		pw_transport_wait(rx, 1 * MS);
		/* The sender may have ARP to answer or frames to take. */
		pw_transport_recv_burst(tx, dg, 0);
		n = pw_transport_recv_burst(rx, dg, 16);
		for (i = 0; i < n; i++, got++) {
			EXPECT_TRUE(net_same_addr(&dg[i].from, from));
			EXPECT_EQ(1 + got * step, dg[i].len);
			EXPECT_EQ(0, check(dg[i].data, got, dg[i].len))
				TH_LOG("datagram %u", got);
		}
	}
	return got;
}

/* ICMP destination unreachable messages on @fd: count[0] about @port. */
static void icmp_unreach(int fd, unsigned int port, unsigned int count[2])
{
	uint8_t buf[1500];
	ssize_t len;

	count[0] = count[1] = 0;
	while ((len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		/* IP (20) + ICMP (8) + the offending IP (20): its UDP at 48. */
		if (len >= 52 && buf[20] == ICMP_DEST_UNREACH)
			count[(unsigned int)(buf[48 + 2] << 8 |
					     buf[48 + 3]) != port]++;
	}
}

TEST_F(link, datagrams_both_ways_with_arp)
{
	const struct pw_dpdk_stats *st = pw_dpdk_stats(self->dpdk);
	struct pw_transport_stats *ts = &self->dpdk->stats;
	static uint8_t buf[PW_TRANSPORT_MAX_DGRAM];
	struct sockaddr_in x = inet(IP_A, PORT_X), local;
	unsigned int before, n, unreach[2];
	uint64_t end;
	int icmp;

	ASSERT_NE(NULL, st);
	ASSERT_EQ(NULL, pw_dpdk_stats(self->udp));
	ASSERT_STREQ("dpdk", self->dpdk->ops->name);
	ASSERT_EQ(-ENOTSUP, pw_transport_poll_fd(self->dpdk));
	ASSERT_EQ(0, pw_transport_local_addr(self->dpdk, &local));
	ASSERT_TRUE(net_same_addr(&local, &self->a));
	icmp = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	ASSERT_GE(icmp, 0);

	/* Three sent before the peer's address is known wait for ARP. */
	EXPECT_EQ(0u, st->arp_learned);
	n = run_lengths(_metadata, self->dpdk, self->udp, &self->b, &self->a,
			3, 1);
	ASSERT_EQ(3u, n);
	EXPECT_EQ(1u, st->arp_requests_sent);
	EXPECT_EQ(1u, st->arp_learned);
	EXPECT_EQ(3u, st->arp_queued);
	EXPECT_EQ(0u, st->arp_dropped);

	/* Every length a 1500-byte MTU carries, both ways. */
	n = run_lengths(_metadata, self->dpdk, self->udp, &self->b, &self->a,
			1472, 3);
	EXPECT_EQ(491u, n);
	EXPECT_EQ(-EMSGSIZE, pw_transport_send(self->dpdk, &self->b, buf,
					       1473));
	EXPECT_EQ(494u, ts->tx_packets);

	/* B forgets A: the kernel of B asks, DPDK answers (so may A's). */
	ASSERT_EQ(0, sh("ip neigh flush dev " IF_B));
	before = st->arp_replies_sent;
	n = run_lengths(_metadata, self->udp, self->dpdk, &self->a, &self->b,
			1472, 3);
	EXPECT_EQ(491u, n);
	EXPECT_EQ(491u, ts->rx_packets);
	EXPECT_GT(st->arp_replies_sent, before);
	EXPECT_EQ(0u, st->rx_dropped[PW_FRAME_D_IP_CSUM]);
	EXPECT_EQ(0u, st->rx_dropped[PW_FRAME_D_UDP_CSUM]);
	EXPECT_EQ(0u, st->rx_dropped[PW_FRAME_D_MALFORMED]);
	TH_LOG("kernel datagrams with offloaded UDP checksums: %llu of %u",
	       (unsigned long long)st->rx_csum_offloaded, n);

	/*
	 * The kernel of A holds our port: no ICMP for it; a datagram to a
	 * port nobody has gets one (the check can see ICMP), and DPDK
	 * counts that datagram as for another port.
	 */
	before = st->rx_dropped[PW_FRAME_D_OTHER_PORT];
	ASSERT_EQ(0, pw_transport_send(self->udp, &x, buf, 10));
	end = net_now_ns() + 2000 * MS;
	while (st->rx_dropped[PW_FRAME_D_OTHER_PORT] == before &&
	       net_now_ns() < end)
		pw_transport_wait(self->dpdk, 1 * MS);
	EXPECT_EQ(before + 1, st->rx_dropped[PW_FRAME_D_OTHER_PORT]);
	usleep(100 * 1000);
	icmp_unreach(icmp, PORT_A, unreach);
	EXPECT_EQ(0u, unreach[0]);
	EXPECT_EQ(1u, unreach[1]);
	close(icmp);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

TEST_F(link, echo_round_trips)
{
	const unsigned int n = 2000;
	static uint64_t rtt[2000];
	uint8_t buf[64];
	unsigned int j, lost = 0;

	for (j = 0; j < n; j++) {
		struct pw_dgram dg[4];
		uint64_t t0 = net_now_ns(), end = t0 + 1000 * MS;
		bool back = false;
		int k, got;

		fill(buf, j, sizeof(buf));
		ASSERT_EQ(0, pw_transport_send(self->dpdk, &self->b, buf,
					       sizeof(buf)));
		/* The kernel end echoes... */
		while (!back && net_now_ns() < end) {
			pw_transport_recv_burst(self->dpdk, dg, 0);
			pw_transport_wait(self->udp, 20 * US);
			got = pw_transport_recv_burst(self->udp, dg, 4);
			for (k = 0; k < got; k++) {
				ASSERT_EQ(0, pw_transport_send(self->udp,
							      &dg[k].from,
							      dg[k].data,
							      dg[k].len));
				back = true;
			}
		}
		/* ...and DPDK gets its bytes back. */
		for (back = false; !back && net_now_ns() < end;) {
			if (!pw_transport_wait(self->dpdk, 1 * MS))
				continue;
			got = pw_transport_recv_burst(self->dpdk, dg, 4);
			for (k = 0; k < got; k++) {
				ASSERT_EQ(sizeof(buf), dg[k].len);
				ASSERT_EQ(0, check(dg[k].data, j, dg[k].len));
				back = true;
			}
		}
		if (!back)
			lost++;
		rtt[j] = net_now_ns() - t0;
	}
	ASSERT_EQ(0u, lost);
	/* Informational only: timings belong in pwbench. */
	qsort(rtt, n, sizeof(rtt[0]), cmp_u64);
	TH_LOG("DPDK->UDP->DPDK round trip over veth: p50 %llu us, p99 %llu "
	       "us, min %llu us, max %llu us (%u echoes)",
	       (unsigned long long)rtt[n / 2] / 1000,
	       (unsigned long long)rtt[n * 99 / 100] / 1000,
	       (unsigned long long)rtt[0] / 1000,
	       (unsigned long long)rtt[n - 1] / 1000, n);
}

/* Garbage frames raw on the wire at the DPDK end, and how each counts. */
enum garbage {
	G_IP_CSUM,	/* IPv4 header checksum off by one */
	G_UDP_TRUNC,	/* UDP length past the IP payload */
	G_OTHER_PORT,	/* well formed, for a port nobody has */
	G_NOT_IP,	/* an ethertype of no one's */
	G_UDP_CSUM,	/* a payload byte changed after the checksum */
	G_NOT_UDP,	/* IPv4 protocol 253 (experimental) */
	G_SHORT,	/* an Ethernet header and nothing after it */
	G_WIRE,		/* a good frame, its datagram no message */
	G_KINDS,
};

#define GARBAGE_EACH 10u

static size_t make_garbage(uint8_t *f, enum garbage kind,
			   const uint8_t *mac_a, const uint8_t *mac_b)
{
	struct pw_frame_udp a;
	size_t len;

	memcpy(a.dst_mac, mac_a, 6);
	memcpy(a.src_mac, mac_b, 6);
	a.src_ip = inet(IP_B, 0).sin_addr.s_addr;
	a.dst_ip = inet(IP_A, 0).sin_addr.s_addr;
	a.src_port = htons(PORT_B);
	a.dst_port = htons(kind == G_OTHER_PORT ? PORT_X : PORT_A);
	a.ip_id = htons(kind);
	memset(f + PW_FRAME_UDP_HDRS, 0x5a, 32);
	len = pw_frame_udp_build(f, &a, 32);
	switch (kind) {
	case G_IP_CSUM:
		f[PW_ETH_HLEN + 11] ^= 1;
		break;
	case G_UDP_TRUNC:
		f[PW_ETH_HLEN + PW_IP_HLEN + 5] += 40;
		break;
	case G_NOT_IP:
		f[12] = 0x88;
		f[13] = 0xb5;
		break;
	case G_UDP_CSUM:
		f[PW_FRAME_UDP_HDRS + 3] ^= 0x10;
		break;
	case G_NOT_UDP:
		f[PW_ETH_HLEN + 9] = 253;
		f[PW_ETH_HLEN + 10] = f[PW_ETH_HLEN + 11] = 0;
		len = pw_frame_csum_fold(f + PW_ETH_HLEN, PW_IP_HLEN, 0);
		f[PW_ETH_HLEN + 10] = ~len >> 8;
		f[PW_ETH_HLEN + 11] = ~len;
		len = PW_FRAME_UDP_HDRS + 32;
		break;
	case G_SHORT:
		len = PW_ETH_HLEN;
		break;
	default:
		break;
	}
	return len;
}

TEST_F(link, rchan_5000_with_drops_and_garbage)
{
	const unsigned int n = 5000, garbage = G_KINDS * GARBAGE_EACH;
	const struct pw_dpdk_stats *st = pw_dpdk_stats(self->dpdk);
	const struct pw_rchan_stats *rs;
	unsigned int sent_garbage = 0, i, iter = 0;
	struct sockaddr_ll ll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = if_nametoindex(IF_B),
		.sll_halen = 6,
	};
	uint64_t start = net_now_ns();
	uint8_t junk[128];
	struct net_ep ep[2];
	int raw;

	raw = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	ASSERT_GE(raw, 0);
	memcpy(ll.sll_addr, self->mac_a, 6);
	memset(ep, 0, sizeof(ep));
	ep[0].t = self->dpdk;
	ep[0].peer = self->b;
	ep[1].t = self->udp;
	ep[1].peer = self->a;
	for (i = 0; i < 2; i++) {
		struct pw_rchan_cfg cfg = {
			.self_node = 1 + i,
			.peer_node = 2 - i,
			.session = 1000 + i,
			.xmit = net_ep_xmit,
			.ctx = &ep[i],
		};

		ep[i].rng = 1 + i;
		ASSERT_EQ(0, pw_rchan_create(&ep[i].ch, &cfg));
	}
	rs = pw_rchan_stats(ep[0].ch);

	for (;;) {
		uint64_t now = net_now_ns();
		int busy = 0;

		for (i = 0; i < 2; i++) {
			struct pw_wire_msg m;

			while (ep[i].next_id < n) {
				net_ep_msg(&m, 1 + i, ep[i].next_id);
				if (pw_rchan_send(ep[i].ch, &m, now))
					break;
				ep[i].next_id++;
			}
		}
		if (++iter % 16 == 0 && sent_garbage < garbage) {
			size_t len = make_garbage(junk, sent_garbage % G_KINDS,
						  self->mac_a, self->mac_b);

			ASSERT_EQ((ssize_t)len,
				  sendto(raw, junk, len, 0,
					 (struct sockaddr *)&ll, sizeof(ll)));
			sent_garbage++;
		}
		for (i = 0; i < 2; i++) {
			int r = net_ep_pump(&ep[i], 2 - i, now);

			ASSERT_LE(0, r) TH_LOG("endpoint %u expected %u", i,
					       ep[i].expect);
			busy |= r;
		}
		if (ep[0].expect == n && ep[1].expect == n &&
		    !pw_rchan_inflight(ep[0].ch) &&
		    !pw_rchan_inflight(ep[1].ch) && sent_garbage == garbage &&
		    rs->malformed == GARBAGE_EACH)
			break;
		ASSERT_LT(now - start, 25000 * MS)
			TH_LOG("stuck: %u/%u delivered, inflight %u/%u",
			       ep[0].expect, ep[1].expect,
			       pw_rchan_inflight(ep[0].ch),
			       pw_rchan_inflight(ep[1].ch));
		if (!busy) {
			/* No descriptor for DPDK: take turns, briefly. */
			pw_transport_wait(self->dpdk, 20 * US);
			pw_transport_wait(self->udp, 20 * US);
		}
	}

	for (i = 0; i < 2; i++) {
		const struct pw_rchan_stats *s = pw_rchan_stats(ep[i].ch);

		ASSERT_EQ(n, s->delivered);
		ASSERT_EQ(n, s->sent);
		ASSERT_GT(s->retransmitted, 0u);
		ASSERT_EQ(0u, s->peer_resets);
		ASSERT_GT(ep[i].dropped, 0ul);
		ASSERT_EQ(0u, ep[i].t->stats.tx_errors);
		TH_LOG("%s end: sent %llu retx %llu acks %llu dropped %lu "
		       "dups %llu srtt %llu ns", ep[i].t->ops->name,
		       (unsigned long long)s->sent,
		       (unsigned long long)s->retransmitted,
		       (unsigned long long)s->acks_sent, ep[i].dropped,
		       (unsigned long long)s->duplicates,
		       (unsigned long long)s->srtt_ns);
	}
	/* Each kind of garbage counted once per frame, under its reason. */
	EXPECT_EQ(GARBAGE_EACH, st->rx_dropped[PW_FRAME_D_IP_CSUM]);
	EXPECT_EQ(2 * GARBAGE_EACH, st->rx_dropped[PW_FRAME_D_MALFORMED]);
	EXPECT_EQ(GARBAGE_EACH, st->rx_dropped[PW_FRAME_D_OTHER_PORT]);
	EXPECT_EQ(GARBAGE_EACH, st->rx_dropped[PW_FRAME_D_NOT_IP]);
	EXPECT_EQ(GARBAGE_EACH, st->rx_dropped[PW_FRAME_D_UDP_CSUM]);
	EXPECT_EQ(GARBAGE_EACH, st->rx_dropped[PW_FRAME_D_NOT_UDP]);
	EXPECT_EQ(0u, st->rx_dropped[PW_FRAME_D_FRAGMENT]);
	/*
	 * Not counted exactly: a packet tap sees the kernel of A's own
	 * frames too (its ICMP errors about some of the garbage), dropped
	 * as for another host.
	 */
	EXPECT_EQ(GARBAGE_EACH, rs->malformed_by[PW_WIRE_E_SHORT]);
	EXPECT_EQ(0u, pw_rchan_stats(ep[1].ch)->malformed);
	EXPECT_EQ(0u, st->arp_dropped);
	TH_LOG("dpdk: %llu frames, %llu datagrams, %llu with offloaded "
	       "checksums, ARP %llu asked %llu answered",
	       (unsigned long long)st->rx_frames,
	       (unsigned long long)self->dpdk->stats.rx_packets,
	       (unsigned long long)st->rx_csum_offloaded,
	       (unsigned long long)st->arp_requests_sent,
	       (unsigned long long)st->arp_replies_sent);
	for (i = 0; i < 2; i++)
		pw_rchan_destroy(ep[i].ch);
	close(raw);
}

/* RFC 1071's example: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2. */
TEST(frame_checksum)
{
	static const uint8_t b[] = {
		0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7
	};

	ASSERT_EQ(0xddf2, pw_frame_csum_fold(b, sizeof(b), 0));
	ASSERT_EQ(0xddf2, pw_frame_csum_fold(b + 2, 6, 0x0001));
	/* An odd length pads with a zero byte. */
	ASSERT_EQ(0xf201, pw_frame_csum_fold(b, 3, 0));
}

/* pw_frame_parse() as an int, for the harness's comparisons. */
static int parse(const uint8_t *f, size_t len, uint32_t ip, uint16_t port,
		 struct pw_frame_info *fi)
{
	return pw_frame_parse(f, len, ip, port, fi);
}

static size_t test_frame(uint8_t *f, size_t len)
{
	struct pw_frame_udp a = {
		.dst_mac = { 2, 0, 0, 0, 0, 1 },
		.src_mac = { 2, 0, 0, 0, 0, 2 },
		.src_ip = inet(IP_B, 0).sin_addr.s_addr,
		.dst_ip = inet(IP_A, 0).sin_addr.s_addr,
		.src_port = htons(PORT_B),
		.dst_port = htons(PORT_A),
		.ip_id = htons(77),
	};

	fill(f + PW_FRAME_UDP_HDRS, 3, len);
	return pw_frame_udp_build(f, &a, len);
}

static void ip_recsum(uint8_t *f)
{
	uint16_t c;

	f[PW_ETH_HLEN + 10] = f[PW_ETH_HLEN + 11] = 0;
	c = ~pw_frame_csum_fold(f + PW_ETH_HLEN, PW_IP_HLEN, 0);
	f[PW_ETH_HLEN + 10] = c >> 8;
	f[PW_ETH_HLEN + 11] = c;
}

TEST(frame_parse)
{
	uint32_t a = inet(IP_A, 0).sin_addr.s_addr;
	uint32_t b = inet(IP_B, 0).sin_addr.s_addr;
	uint16_t pa = htons(PORT_A), udp_len;
	uint8_t f[1600], g[1600];
	struct pw_frame_info fi;
	size_t len, cut;

	len = test_frame(f, 100);
	ASSERT_EQ((size_t)PW_FRAME_UDP_HDRS + 100, len);
	ASSERT_EQ(PW_FRAME_UDP, parse(f, len, a, pa, &fi));
	ASSERT_EQ(b, fi.src_ip);
	ASSERT_EQ(htons(PORT_B), fi.src_port);
	ASSERT_EQ((size_t)PW_FRAME_UDP_HDRS, fi.payload);
	ASSERT_EQ(100u, fi.len);
	ASSERT_EQ(0, fi.csum_offloaded);
	ASSERT_EQ(0, check(f + fi.payload, 3, fi.len));
	/* Ethernet padding after the IP length is ignored. */
	memset(f + len, 0, 20);
	ASSERT_EQ(PW_FRAME_UDP, parse(f, len + 20, a, pa, &fi));
	ASSERT_EQ(100u, fi.len);

	/* Every truncation is malformed, never read past its end. */
	for (cut = 0; cut < len; cut++) {
		ASSERT_EQ(PW_FRAME_DROP, parse(f, cut, a, pa, &fi));
		ASSERT_EQ(PW_FRAME_D_MALFORMED, (int)fi.drop)
			TH_LOG("cut %zu", cut);
	}
	ASSERT_EQ(PW_FRAME_DROP, parse(f, len, b, pa, &fi));
	ASSERT_EQ(PW_FRAME_D_OTHER_HOST, (int)fi.drop);
	ASSERT_EQ(PW_FRAME_DROP, parse(f, len, a, pa + 1, &fi));
	ASSERT_EQ(PW_FRAME_D_OTHER_PORT, (int)fi.drop);

	/* No checksum (0) is allowed by IPv4; the offload form is too. */
	memcpy(g, f, len);
	g[PW_ETH_HLEN + PW_IP_HLEN + 6] = g[PW_ETH_HLEN + PW_IP_HLEN + 7] = 0;
	ASSERT_EQ(PW_FRAME_UDP, parse(g, len, a, pa, &fi));
	udp_len = 8 + 100;
	udp_len = pw_frame_csum_fold(g + PW_ETH_HLEN + 12, 8, 17 + udp_len);
	g[PW_ETH_HLEN + PW_IP_HLEN + 6] = udp_len >> 8;
	g[PW_ETH_HLEN + PW_IP_HLEN + 7] = udp_len;
	ASSERT_EQ(PW_FRAME_UDP, parse(g, len, a, pa, &fi));
	ASSERT_EQ(1, fi.csum_offloaded);
	g[PW_FRAME_UDP_HDRS] ^= 1;
	g[PW_ETH_HLEN + PW_IP_HLEN + 7] ^= 1;
	ASSERT_EQ(PW_FRAME_DROP, parse(g, len, a, pa, &fi));
	ASSERT_EQ(PW_FRAME_D_UDP_CSUM, (int)fi.drop);

	/* Fragments and IP options. */
	memcpy(g, f, len);
	g[PW_ETH_HLEN + 6] |= 0x20;		/* more fragments */
	ip_recsum(g);
	ASSERT_EQ(PW_FRAME_DROP, parse(g, len, a, pa, &fi));
	ASSERT_EQ(PW_FRAME_D_FRAGMENT, (int)fi.drop);
	memcpy(g, f, len);
	g[PW_ETH_HLEN] = 0x44;		/* header shorter than 20 */
	ip_recsum(g);
	ASSERT_EQ(PW_FRAME_DROP, parse(g, len, a, pa, &fi));
	ASSERT_EQ(PW_FRAME_D_MALFORMED, (int)fi.drop);
	g[PW_ETH_HLEN] = 0x65;		/* IPv6 in an IPv4 frame */
	ASSERT_EQ(PW_FRAME_DROP, parse(g, len, a, pa, &fi));
	ASSERT_EQ(PW_FRAME_D_MALFORMED, (int)fi.drop);
}

TEST(frame_arp)
{
	static const uint8_t us[6] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t them[6] = { 2, 0, 0, 0, 0, 2 };
	uint32_t a = inet(IP_A, 0).sin_addr.s_addr;
	uint32_t b = inet(IP_B, 0).sin_addr.s_addr;
	uint32_t c = inet("10.99.0.3", 0).sin_addr.s_addr;
	struct pw_frame_info fi;
	uint8_t f[64];
	size_t len;

	/* B asks for A: for us, with B's address to learn. */
	len = pw_frame_arp_build(f, PW_ARP_REQUEST, them, b, us, a);
	ASSERT_EQ(42u, len);
	ASSERT_EQ(0, memcmp(f, "\xff\xff\xff\xff\xff\xff", 6));
	ASSERT_EQ(PW_FRAME_ARP, parse(f, len, a, 1, &fi));
	ASSERT_EQ(PW_ARP_REQUEST, fi.arp_op);
	ASSERT_EQ(1, fi.arp_for_us);
	ASSERT_EQ(b, fi.src_ip);
	ASSERT_EQ(0, memcmp(fi.sha, them, 6));
	/* ...but not when we are C. */
	ASSERT_EQ(PW_FRAME_DROP, parse(f, len, c, 1, &fi));
	ASSERT_EQ(PW_FRAME_D_ARP_OTHER, (int)fi.drop);
	/* A reply goes to whoever asked, and may teach anyone. */
	len = pw_frame_arp_build(f, PW_ARP_REPLY, them, b, us, a);
	ASSERT_EQ(0, memcmp(f, us, 6));
	ASSERT_EQ(PW_FRAME_ARP, parse(f, len, c, 1, &fi));
	ASSERT_EQ(0, fi.arp_for_us);
	/* Short or of another shape: malformed. */
	ASSERT_EQ(PW_FRAME_DROP, parse(f, len - 1, a, 1, &fi));
	ASSERT_EQ(PW_FRAME_D_MALFORMED, (int)fi.drop);
	f[PW_ETH_HLEN + 7] = 9;
	ASSERT_EQ(PW_FRAME_DROP, parse(f, len, a, 1, &fi));
	ASSERT_EQ(PW_FRAME_D_MALFORMED, (int)fi.drop);
}

TEST(open_rejects_bad_options)
{
	struct pw_dpdk_opts o = { .ifname = IF_A };
	struct pw_transport *t = NULL;

	ASSERT_EQ(-EINVAL, pw_dpdk_open(&t, NULL));
	ASSERT_EQ(-EINVAL, pw_dpdk_open(&t, &o));	/* no address */
	o.addr = inet(IP_A, PORT_A);
	o.memif_socket = "/tmp/x.sock";			/* both kinds */
	ASSERT_EQ(-EINVAL, pw_dpdk_open(&t, &o));
	o.memif_socket = NULL;
	o.ifname = "pwdk0,iface=lo";		/* devargs injection */
	ASSERT_EQ(-EINVAL, pw_dpdk_open(&t, &o));
	if (setup_err[0])
		SKIP(return, "%s", setup_err);
	/* In B, where A's address and interface are not. */
	o.ifname = "pwnone0";
	o.addr = inet(IP_B, 0);
	o.addr.sin_port = htons(PORT_B);
	ASSERT_EQ(0, pw_udp_open(&t, &o.addr));
	EXPECT_EQ(-EADDRINUSE, pw_dpdk_open(&t, &o));
	pw_transport_close(t);
	t = NULL;
	o.addr = inet(IP_A, 0);
	ASSERT_EQ(-EADDRNOTAVAIL, pw_dpdk_open(&t, &o));
	o.addr.sin_port = htons(PORT_A);
	ASSERT_EQ(-ENODEV, pw_dpdk_open(&t, &o));
	ASSERT_EQ(NULL, t);
}

/* Receive one datagram on @t within 2 s: its length, or -1. */
static int recv_one(struct pw_transport *t, struct pw_dgram *dg)
{
	uint64_t end = net_now_ns() + 2000 * MS;

	while (net_now_ns() < end)
		if (pw_transport_wait(t, 1 * MS) &&
		    pw_transport_recv_burst(t, dg, 1) == 1)
			return dg->len;
	return -1;
}

TEST_F(link, one_per_interface_ephemeral_port_reopen)
{
	struct pw_dpdk_opts o = { .ifname = IF_A };
	struct sockaddr_in local;
	uint8_t buf[8] = "reopen!";
	struct pw_transport *t;
	struct pw_dgram dg;

	ASSERT_EQ(0, setns(ns_a, CLONE_NEWNET));
	o.addr = inet(IP_A, PORT_A + 10);
	EXPECT_EQ(-EBUSY, pw_dpdk_open(&t, &o));
	pw_transport_close(self->dpdk);
	self->dpdk = NULL;

	/* Port 0: the one the kernel gave the socket that holds it. */
	o.addr = inet(IP_A, 0);
	ASSERT_EQ(0, pw_dpdk_open(&t, &o));
	ASSERT_EQ(0, pw_transport_local_addr(t, &local));
	ASSERT_NE(0, local.sin_port);
	ASSERT_EQ(0, pw_transport_send(self->udp, &local, buf, sizeof(buf)));
	ASSERT_EQ((int)sizeof(buf), recv_one(t, &dg));
	ASSERT_EQ(0, memcmp(dg.data, buf, sizeof(buf)));
	ASSERT_TRUE(net_same_addr(&dg.from, &self->b));
	pw_transport_close(t);

	/* Closed means gone: the interface and the port open again. */
	o.addr = self->a;
	ASSERT_EQ(0, pw_dpdk_open(&self->dpdk, &o));
	ASSERT_EQ(0, setns(ns_b, CLONE_NEWNET));
	ASSERT_EQ(0, pw_transport_send(self->udp, &self->a, buf, 3));
	ASSERT_EQ(3, recv_one(self->dpdk, &dg));
	/* Sent once ARP answers, which the owner takes as it polls. */
	ASSERT_EQ(0, pw_transport_send(self->dpdk, &self->b, buf, 5));
	pw_transport_wait(self->dpdk, 50 * MS);
	ASSERT_EQ(5, recv_one(self->udp, &dg));
}

/*
 * Two processes, one interface, one address (a host's controller and its
 * worker): datagrams between them travel as frames that leave the
 * interface, and each process's port sees the other's; nobody ARPs for
 * its own address. The other process is dpdk_ping's echo end.
 */
TEST_F_TIMEOUT(link, two_processes_share_an_address, 90)
{
	const struct pw_dpdk_stats *st = pw_dpdk_stats(self->dpdk);
	struct sockaddr_in c = inet(IP_A, PORT_C);
	char exe[512], *slash, addr[64], peer[64];
	unsigned int j, echoed = 0;
	uint8_t buf[64];
	uint64_t end;
	ssize_t len;
	pid_t pid;
	int status;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 16);
	ASSERT_GT(len, 0);
	exe[len] = 0;
	slash = strrchr(exe, '/');
	ASSERT_NE(NULL, slash);
	strcpy(slash + 1, "dpdk_ping");
	snprintf(addr, sizeof(addr), "%s:%d", IP_A, PORT_C);
	snprintf(peer, sizeof(peer), "%s:%d", IP_A, PORT_A);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/* Its report stays out of the TAP stream; it dies with us. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) ||
		    setns(ns_a, CLONE_NEWNET) ||
		    dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(126);
		execl(exe, exe, "--dpdk", IF_A, "--addr", addr, "--peer", peer,
		      "--pong", "--msgs", "0", (char *)NULL);
		_exit(127);
	}
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "PING", 4);
	/* Until its port is up, then 100 more; each must come back. */
	for (j = 0, end = net_now_ns() + 30000 * MS;
	     echoed < 101 && net_now_ns() < end; j++) {
		uint64_t next = net_now_ns() + (echoed ? 1000 : 50) * MS;
		struct pw_dgram dg[4];
		bool back = false;
		int n, i;

		memcpy(buf + 4, &j, 4);
		ASSERT_EQ(0, pw_transport_send(self->dpdk, &c, buf,
					       sizeof(buf)));
		while (!back && net_now_ns() < next) {
			pw_transport_wait(self->dpdk, 1 * MS);
			n = pw_transport_recv_burst(self->dpdk, dg, 4);
			for (i = 0; i < n; i++) {
				EXPECT_TRUE(net_same_addr(&dg[i].from, &c));
				back |= dg[i].len == sizeof(buf) &&
					!memcmp(dg[i].data, buf, sizeof(buf));
			}
		}
		if (echoed)
			EXPECT_TRUE(back) TH_LOG("echo %u lost", j);
		echoed += back;
	}
	EXPECT_EQ(101u, echoed);
	for (j = 0; j < 3; j++)
		pw_transport_send(self->dpdk, &c, "BYE!", 4);
	for (end = net_now_ns() + 200 * MS; net_now_ns() < end;)
		pw_transport_wait(self->dpdk, 1 * MS);
	/* Lost echoes: it may never have seen a BYE either. */
	if (echoed < 101)
		kill(pid, SIGTERM);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("dpdk_ping exited with status 0x%x", status);
	EXPECT_EQ(0u, st->arp_requests_sent);
	EXPECT_EQ(0u, st->arp_queued);
}

TEST_HARNESS_MAIN
