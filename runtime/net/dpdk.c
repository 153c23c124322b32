// SPDX-License-Identifier: GPL-2.0
/*
 * dpdk.c - the DPDK control-plane transport (dpdk.h): one virtual port
 * (net_af_packet on a kernel interface, or net_memif), one rx and one tx
 * queue, one mempool, polled by the owner thread.
 *
 * Received frames are classified by dpdk_frame.c: ARP is answered or
 * learned at once, datagrams for us wait in the ready queue until
 * recv_burst() lends them out (the caller reads straight from the mbuf;
 * it goes back to the pool at the next recv_burst()), the rest is freed
 * and counted. A datagram for a peer whose Ethernet address is unknown
 * waits in its neighbour entry while ARP asks for it.
 */
#include <errno.h>
#include <limits.h>
#include <linux/filter.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "dpdk.h"

#define RX_BURST	32
#define RX_READY	256	/* datagrams received, not yet lent */
#define RING_DESCS	256
#define POOL_MBUFS	2047	/* a power of two minus one suits rings */
#define POOL_CACHE	32

#define NEIGH_MAX	64
/* Datagrams waiting for one peer: a reliable channel's whole window. */
#define NEIGH_QLEN	64
#define ARP_RETRY_NS	(100 * 1000 * 1000ull)
#define ARP_TRIES	5
#define ARP_STALE_NS	(30 * 1000 * 1000 * 1000ull)

/* wait() polls SPIN_NS, then polls between naps of NAP_NS. */
#define SPIN_NS		(50 * 1000ull)
#define NAP_NS		(20 * 1000ull)
#define TX_RETRY_NS	(1000 * 1000ull)

#define MAX_IFNAME	64

enum neigh_state { N_FREE, N_INCOMPLETE, N_REACHABLE };

/**
 * struct neigh - one peer's Ethernet address
 * @ip: its IPv4 (network order).
 * @state: free, being asked for, known.
 * @mac: its address once known.
 * @confirmed_ns: when it last told us (REACHABLE).
 * @asked_ns: when we last asked.
 * @tries: requests without an answer.
 * @queue: frames built for it, waiting for @mac.
 * @nqueued: how many.
 */
struct neigh {
	uint32_t ip;
	enum neigh_state state;
	uint8_t mac[PW_ETH_ALEN];
	uint64_t confirmed_ns;
	uint64_t asked_ns;
	unsigned int tries;
	struct rte_mbuf *queue[NEIGH_QLEN];
	unsigned int nqueued;
};

/* A received datagram waiting in the ready queue. */
struct ready {
	struct rte_mbuf *m;
	struct sockaddr_in from;
	size_t off;
	size_t len;
};

struct dpdk {
	struct pw_transport t;
	struct pw_dpdk_stats st;
	struct dpdk *next_open;		/* in open_ports */
	char ifname[MAX_IFNAME];	/* af_packet's, or "" */
	char name[32];			/* the vdev's, for removal */
	uint16_t port;
	bool started;
	struct rte_mempool *pool;
	uint8_t mac[PW_ETH_ALEN];
	uint32_t ip;			/* network order */
	uint16_t udp_port;		/* network order */
	uint16_t ip_id;
	size_t max_dgram;
	uint64_t spin_ns;
	int holder_fd;
	struct ready ready[RX_READY];	/* FIFO */
	unsigned int ready_head;
	unsigned int nready;
	struct rte_mbuf *lent[RX_READY];
	unsigned int nlent;
	struct neigh neigh[NEIGH_MAX];
};

static const uint8_t eth_bcast[PW_ETH_ALEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

static struct dpdk *to_dpdk(struct pw_transport *t)
{
	return (struct dpdk *)t;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * EAL, once per process. Its one lcore may run on every CPU the caller
 * may (EAL pins the calling thread to its lcore's set: keep it as is).
 */
static pthread_mutex_t eal_lock = PTHREAD_MUTEX_INITIALIZER;
static int eal_status = 1;		/* 1: not tried; then 0 or -errno */
/*
 * The af_packet driver puts every socket a process opens on one interface
 * in one fanout group, which splits the frames among them: one transport
 * per interface, then. Under eal_lock.
 */
static struct dpdk *open_ports;

static int cpu_list(char *buf, size_t cap)
{
	cpu_set_t set;
	size_t used = 0;
	int cpu, n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		n = snprintf(buf + used, cap - used, "%s%d",
			     used ? "," : "", cpu);
		if (n < 0 || (size_t)n >= cap - used)
			return -ENAMETOOLONG;
		used += n;
	}
	return used ? 0 : -EINVAL;
}

static int eal_init_locked(void)
{
	char lcores[512], cpus[480], prefix[64];
	char *argv[] = {
		"pathways", "--no-huge", "--no-pci", "--no-shconf",
		"--no-telemetry", "--iova-mode=va", lcores, prefix,
		"--log-level=*:error", NULL,
	};
	int ret;

	ret = cpu_list(cpus, sizeof(cpus));
	if (ret)
		return ret;
	snprintf(lcores, sizeof(lcores), "--lcores=0@(%s)", cpus);
	snprintf(prefix, sizeof(prefix), "--file-prefix=pathways%d",
		 (int)getpid());
	ret = rte_eal_init(sizeof(argv) / sizeof(argv[0]) - 1, argv);
	return ret < 0 ? -rte_errno : 0;
}

/* EAL, and @d's claim on its interface: -EBUSY if another has it. */
static int eal_init_claim(struct dpdk *d)
{
	struct dpdk *o;
	int ret;

	pthread_mutex_lock(&eal_lock);
	if (eal_status == 1)
		eal_status = eal_init_locked();
	ret = eal_status;
	for (o = open_ports; !ret && d->ifname[0] && o; o = o->next_open)
		if (!strcmp(o->ifname, d->ifname))
			ret = -EBUSY;
	if (!ret) {
		d->next_open = open_ports;
		open_ports = d;
	}
	pthread_mutex_unlock(&eal_lock);
	return ret;
}

static void unclaim(struct dpdk *d)
{
	struct dpdk **p;

	pthread_mutex_lock(&eal_lock);
	for (p = &open_ports; *p; p = &(*p)->next_open) {
		if (*p == d) {
			*p = d->next_open;
			break;
		}
	}
	pthread_mutex_unlock(&eal_lock);
}

/* Hand @m to the port; a full tx ring is retried briefly. */
static void xmit(struct dpdk *d, struct rte_mbuf *m, bool is_dgram)
{
	uint64_t deadline = 0;
	uint32_t len = rte_pktmbuf_pkt_len(m);

	while (!rte_eth_tx_burst(d->port, 0, &m, 1)) {
		uint64_t now = mono_ns();

		if (!deadline) {
			deadline = now + TX_RETRY_NS;
			d->t.stats.tx_waits++;
		} else if (now > deadline) {
			rte_pktmbuf_free(m);
			d->t.stats.tx_errors++;
			return;
		}
		rte_pause();
	}
	if (is_dgram) {
		d->t.stats.tx_packets++;
		d->t.stats.tx_bytes += len - PW_FRAME_UDP_HDRS;
	}
}

static struct rte_mbuf *alloc_frame(struct dpdk *d, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(d->pool);

	if (!m) {
		d->st.tx_nombuf++;
		return NULL;
	}
	if (!rte_pktmbuf_append(m, len)) {
		rte_pktmbuf_free(m);
		d->st.tx_nombuf++;
		return NULL;
	}
	return m;
}

static void send_arp(struct dpdk *d, uint16_t op, const uint8_t *tha,
		     uint32_t tpa)
{
	static const uint8_t zero[PW_ETH_ALEN];
	struct rte_mbuf *m = alloc_frame(d, PW_FRAME_ARP_LEN);

	if (!m)
		return;
	pw_frame_arp_build(rte_pktmbuf_mtod(m, uint8_t *), op, d->mac, d->ip,
			   tha ? tha : zero, tpa);
	if (op == PW_ARP_REQUEST)
		d->st.arp_requests_sent++;
	else
		d->st.arp_replies_sent++;
	xmit(d, m, false);
}

static struct neigh *neigh_find(struct dpdk *d, uint32_t ip)
{
	unsigned int i;

	for (i = 0; i < NEIGH_MAX; i++)
		if (d->neigh[i].state != N_FREE && d->neigh[i].ip == ip)
			return &d->neigh[i];
	return NULL;
}

static void neigh_drop_queue(struct dpdk *d, struct neigh *n)
{
	while (n->nqueued) {
		rte_pktmbuf_free(n->queue[--n->nqueued]);
		d->st.arp_dropped++;
	}
}

/* A free entry, else the one confirmed longest ago. */
static struct neigh *neigh_new(struct dpdk *d, uint32_t ip)
{
	struct neigh *n = NULL;
	unsigned int i;

	for (i = 0; i < NEIGH_MAX; i++) {
		struct neigh *c = &d->neigh[i];

		if (c->state == N_FREE) {
			n = c;
			break;
		}
		if (!n || c->confirmed_ns < n->confirmed_ns)
			n = c;
	}
	neigh_drop_queue(d, n);
	memset(n, 0, sizeof(*n));
	n->ip = ip;
	return n;
}

/* @ip is at @mac: remember, and send what waited for it. */
static void neigh_learn(struct dpdk *d, struct neigh *n, const uint8_t *mac,
			uint64_t now)
{
	unsigned int i;

	if (n->state != N_REACHABLE || memcmp(n->mac, mac, PW_ETH_ALEN))
		d->st.arp_learned++;
	memcpy(n->mac, mac, PW_ETH_ALEN);
	n->state = N_REACHABLE;
	n->confirmed_ns = now;
	n->tries = 0;
	for (i = 0; i < n->nqueued; i++) {
		struct rte_mbuf *m = n->queue[i];

		memcpy(rte_pktmbuf_mtod(m, uint8_t *), mac, PW_ETH_ALEN);
		xmit(d, m, true);
	}
	n->nqueued = 0;
}

static void handle_arp(struct dpdk *d, const struct pw_frame_info *fi,
		       uint64_t now)
{
	struct neigh *n = neigh_find(d, fi->src_ip);

	/* Whoever asks for us will talk to us: learn it as Linux does. */
	if (fi->arp_for_us) {
		if (!n)
			n = neigh_new(d, fi->src_ip);
		send_arp(d, PW_ARP_REPLY, fi->sha, fi->src_ip);
	}
	if (n)
		neigh_learn(d, n, fi->sha, now);
}

/* Ask again for peers that did not answer; give up on the silent. */
static void neigh_timers(struct dpdk *d, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < NEIGH_MAX; i++) {
		struct neigh *n = &d->neigh[i];

		if (n->state != N_INCOMPLETE ||
		    now - n->asked_ns < ARP_RETRY_NS)
			continue;
		if (n->tries >= ARP_TRIES) {
			neigh_drop_queue(d, n);
			n->state = N_FREE;
			continue;
		}
		n->tries++;
		n->asked_ns = now;
		send_arp(d, PW_ARP_REQUEST, NULL, n->ip);
	}
}

static void ready_push(struct dpdk *d, struct rte_mbuf *m,
		       const struct pw_frame_info *fi)
{
	struct ready *r = &d->ready[(d->ready_head + d->nready++) % RX_READY];

	r->m = m;
	r->off = fi->payload;
	r->len = fi->len;
	memset(&r->from, 0, sizeof(r->from));
	r->from.sin_family = AF_INET;
	r->from.sin_addr.s_addr = fi->src_ip;
	r->from.sin_port = fi->src_port;
}

/* Classify one received frame: keep it, answer it or drop it. */
static void rx_frame(struct dpdk *d, struct rte_mbuf *m, uint64_t now)
{
	struct pw_frame_info fi;

	d->st.rx_frames++;
	if (m->nb_segs != 1) {
		d->st.rx_multiseg++;
		rte_pktmbuf_free(m);
		return;
	}
	switch (pw_frame_parse(rte_pktmbuf_mtod(m, const uint8_t *),
			       rte_pktmbuf_data_len(m), d->ip, d->udp_port,
			       &fi)) {
	case PW_FRAME_UDP:
		if (fi.len > PW_TRANSPORT_MAX_DGRAM) {
			d->t.stats.rx_truncated++;
			break;
		}
		d->st.rx_csum_offloaded += fi.csum_offloaded;
		ready_push(d, m, &fi);
		return;
	case PW_FRAME_ARP:
		handle_arp(d, &fi, now);
		break;
	case PW_FRAME_DROP:
		d->st.rx_dropped[fi.drop]++;
		break;
	}
	rte_pktmbuf_free(m);
}

/* Take what the port has, as long as the ready queue has room. */
static unsigned int poll_port(struct dpdk *d, uint64_t now)
{
	struct rte_mbuf *bufs[RX_BURST];
	unsigned int total = 0;

	for (;;) {
		unsigned int room = RX_READY - d->nready, n, i;

		if (room > RX_BURST)
			room = RX_BURST;
		if (!room)
			break;
		n = rte_eth_rx_burst(d->port, 0, bufs, room);
		for (i = 0; i < n; i++)
			rx_frame(d, bufs[i], now);
		total += n;
		if (n < room)
			break;
	}
	neigh_timers(d, now);
	return total;
}

static void release_lent(struct dpdk *d)
{
	while (d->nlent)
		rte_pktmbuf_free(d->lent[--d->nlent]);
}

/* Queue @m for @ip until ARP answers; the oldest waiting one goes first. */
static void neigh_enqueue(struct dpdk *d, struct neigh *n,
			  struct rte_mbuf *m)
{
	d->st.arp_queued++;
	if (n->nqueued == NEIGH_QLEN) {
		rte_pktmbuf_free(n->queue[0]);
		memmove(n->queue, n->queue + 1,
			(NEIGH_QLEN - 1) * sizeof(n->queue[0]));
		n->nqueued--;
		d->st.arp_dropped++;
	}
	n->queue[n->nqueued++] = m;
}

static int dpdk_send(struct pw_transport *t, const struct sockaddr_in *to,
		     const void *buf, size_t len)
{
	struct dpdk *d = to_dpdk(t);
	uint32_t dst = to->sin_addr.s_addr;
	uint64_t now = mono_ns();
	struct pw_frame_udp a;
	struct rte_mbuf *m;
	struct neigh *n;
	uint8_t *f;

	if (len > d->max_dgram)
		return -EMSGSIZE;
	if (to->sin_family != AF_INET || !dst || !to->sin_port)
		return -EINVAL;
	m = alloc_frame(d, PW_FRAME_UDP_HDRS + len);
	if (!m)
		return -ENOBUFS;
	f = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(f + PW_FRAME_UDP_HDRS, buf, len);

	n = dst == INADDR_BROADCAST || dst == d->ip ? NULL : neigh_find(d, dst);
	memcpy(a.dst_mac, n && n->state == N_REACHABLE ? n->mac : eth_bcast,
	       PW_ETH_ALEN);
	if (dst == d->ip)
		memcpy(a.dst_mac, d->mac, PW_ETH_ALEN);
	memcpy(a.src_mac, d->mac, PW_ETH_ALEN);
	a.src_ip = d->ip;
	a.dst_ip = dst;
	a.src_port = d->udp_port;
	a.dst_port = to->sin_port;
	a.ip_id = htons(d->ip_id++);
	pw_frame_udp_build(f, &a, len);

	if (dst == INADDR_BROADCAST || dst == d->ip) {
		/*
		 * Our own address: another process's transport on this
		 * interface sees the frame leave (af_packet taps outgoing
		 * frames, not the sender's own socket); nobody to ask.
		 */
		xmit(d, m, true);
	} else if (n && n->state == N_REACHABLE) {
		/* Still used while we check that it has not moved. */
		if (now - n->confirmed_ns > ARP_STALE_NS &&
		    now - n->asked_ns > ARP_RETRY_NS) {
			n->asked_ns = now;
			send_arp(d, PW_ARP_REQUEST, NULL, dst);
		}
		xmit(d, m, true);
	} else {
		if (!n) {
			n = neigh_new(d, dst);
			n->state = N_INCOMPLETE;
			n->asked_ns = now;
			n->tries = 1;
			send_arp(d, PW_ARP_REQUEST, NULL, dst);
		}
		neigh_enqueue(d, n, m);
	}
	return 0;
}

static int dpdk_recv_burst(struct pw_transport *t, struct pw_dgram *dg,
			   unsigned int max)
{
	struct dpdk *d = to_dpdk(t);
	unsigned int n = 0;

	release_lent(d);
	poll_port(d, mono_ns());
	while (n < max && d->nready) {
		struct ready *r = &d->ready[d->ready_head];

		d->ready_head = (d->ready_head + 1) % RX_READY;
		d->nready--;
		d->lent[d->nlent++] = r->m;
		dg[n].from = r->from;
		dg[n].data = rte_pktmbuf_mtod_offset(r->m, const uint8_t *,
						     r->off);
		dg[n].len = r->len;
		t->stats.rx_packets++;
		t->stats.rx_bytes += r->len;
		n++;
	}
	return n;
}

/* No descriptor to sleep on: poll, spinning first, then between naps. */
static int dpdk_wait(struct pw_transport *t, uint64_t timeout_ns)
{
	struct dpdk *d = to_dpdk(t);
	uint64_t start = mono_ns(), now = start;

	for (;;) {
		uint64_t left;

		poll_port(d, now);
		if (d->nready)
			return 1;
		now = mono_ns();
		if (now - start >= timeout_ns)
			return 0;
		left = timeout_ns - (now - start);
		if (now - start < d->spin_ns) {
			rte_pause();
		} else {
			struct timespec ts = {
				.tv_nsec = left < NAP_NS ? left : NAP_NS,
			};

			nanosleep(&ts, NULL);
			now = mono_ns();
		}
	}
}

static int dpdk_poll_fd(struct pw_transport *t)
{
	(void)t;
	return -ENOTSUP;
}

static int dpdk_local_addr(struct pw_transport *t, struct sockaddr_in *addr)
{
	struct dpdk *d = to_dpdk(t);

	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = d->ip;
	addr->sin_port = d->udp_port;
	return 0;
}

static void dpdk_free(struct dpdk *d)
{
	unsigned int i;

	release_lent(d);
	while (d->nready) {
		rte_pktmbuf_free(d->ready[d->ready_head].m);
		d->ready_head = (d->ready_head + 1) % RX_READY;
		d->nready--;
	}
	for (i = 0; i < NEIGH_MAX; i++)
		neigh_drop_queue(d, &d->neigh[i]);
	if (d->name[0]) {
		if (d->started)
			rte_eth_dev_stop(d->port);
		rte_eth_dev_close(d->port);
		rte_eal_hotplug_remove("vdev", d->name);
	}
	rte_mempool_free(d->pool);
	if (d->holder_fd >= 0)
		close(d->holder_fd);
	unclaim(d);
	free(d);
}

static void dpdk_close(struct pw_transport *t)
{
	dpdk_free(to_dpdk(t));
}

static const struct pw_transport_ops dpdk_ops = {
	.name = "dpdk",
	.send = dpdk_send,
	.recv_burst = dpdk_recv_burst,
	.wait = dpdk_wait,
	.poll_fd = dpdk_poll_fd,
	.local_addr = dpdk_local_addr,
	.close = dpdk_close,
};

const struct pw_dpdk_stats *pw_dpdk_stats(const struct pw_transport *t)
{
	if (!t || t->ops != &dpdk_ops)
		return NULL;
	return &((const struct dpdk *)t)->st;
}

/*
 * A kernel UDP socket on our address and port that drops everything it
 * gets (a socket filter returning 0): the kernel then neither answers our
 * datagrams with ICMP port unreachable nor queues them, and nobody else
 * can take the port. No socket when the kernel lacks the address: it then
 * ignores the datagrams anyway.
 */
static int hold_port(struct dpdk *d, const struct sockaddr_in *addr)
{
	struct sock_filter drop_all = BPF_STMT(BPF_RET | BPF_K, 0);
	struct sock_fprog prog = { .len = 1, .filter = &drop_all };
	struct sockaddr_in bound;
	socklen_t blen = sizeof(bound);
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one)))
		goto err;
	if (bind(fd, (const struct sockaddr *)addr, sizeof(*addr))) {
		if (errno == EADDRNOTAVAIL && addr->sin_port) {
			close(fd);
			return 0;
		}
		goto err;
	}
	if (getsockname(fd, (struct sockaddr *)&bound, &blen))
		goto err;
	d->udp_port = bound.sin_port;
	d->holder_fd = fd;
	return 0;
err:
	one = -errno;
	close(fd);
	return one;
}

static int port_setup(struct dpdk *d, const struct pw_dpdk_opts *o,
		      unsigned int id)
{
	static const struct rte_eth_conf conf;
	int socket = rte_socket_id();
	struct rte_ether_addr ea;
	char args[PATH_MAX + 64], pool[32];
	uint16_t mtu;
	int ret;

	if (o->ifname) {
		snprintf(d->name, sizeof(d->name), "net_af_packet_pw%u", id);
		/* Through the qdisc: netem and captures see what we send. */
		snprintf(args, sizeof(args), "iface=%s,qpairs=1,qdisc_bypass=0",
			 o->ifname);
	} else {
		snprintf(d->name, sizeof(d->name), "net_memif_pw%u", id);
		snprintf(args, sizeof(args), "role=%s,socket=%s,id=0",
			 o->memif_server ? "server" : "client",
			 o->memif_socket);
	}
	/* The driver says why on stderr; its return says little. */
	ret = rte_eal_hotplug_add("vdev", d->name, args);
	if (ret < 0) {
		d->name[0] = 0;
		return -ENODEV;
	}
	ret = rte_eth_dev_get_port_by_name(d->name, &d->port);
	if (ret < 0)
		return -ENODEV;

	snprintf(pool, sizeof(pool), "pw_dpdk_pool%u", id);
	d->pool = rte_pktmbuf_pool_create(pool, POOL_MBUFS, POOL_CACHE, 0,
					  RTE_MBUF_DEFAULT_BUF_SIZE, socket);
	if (!d->pool)
		return -rte_errno;
	ret = rte_eth_dev_configure(d->port, 1, 1, &conf);
	if (!ret)
		ret = rte_eth_rx_queue_setup(d->port, 0, RING_DESCS, socket,
					     NULL, d->pool);
	if (!ret)
		ret = rte_eth_tx_queue_setup(d->port, 0, RING_DESCS, socket,
					     NULL);
	if (!ret)
		ret = rte_eth_macaddr_get(d->port, &ea);
	if (!ret)
		ret = rte_eth_dev_start(d->port);
	if (ret)
		return ret;
	d->started = true;
	memcpy(d->mac, ea.addr_bytes, PW_ETH_ALEN);

	/* A datagram is one frame: what the MTU and one mbuf hold. */
	d->max_dgram = RTE_MBUF_DEFAULT_DATAROOM - PW_FRAME_UDP_HDRS;
	if (!rte_eth_dev_get_mtu(d->port, &mtu) &&
	    (size_t)mtu < d->max_dgram + PW_IP_HLEN + PW_UDP_HLEN)
		d->max_dgram = (size_t)mtu - PW_IP_HLEN - PW_UDP_HLEN;
	if (d->max_dgram > PW_TRANSPORT_MAX_DGRAM)
		d->max_dgram = PW_TRANSPORT_MAX_DGRAM;
	return 0;
}

int pw_dpdk_open(struct pw_transport **tp, const struct pw_dpdk_opts *o)
{
	static atomic_uint next_id;
	struct dpdk *d;
	int ret;

	if (!o || !o->ifname == !o->memif_socket ||
	    o->addr.sin_family != AF_INET || !o->addr.sin_addr.s_addr ||
	    (o->ifname && (!o->ifname[0] ||
			   strlen(o->ifname) >= MAX_IFNAME ||
			   strchr(o->ifname, ','))) ||
	    (o->memif_socket && (!o->addr.sin_port ||
				 strlen(o->memif_socket) >= PATH_MAX ||
				 strchr(o->memif_socket, ','))))
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->t.ops = &dpdk_ops;
	d->holder_fd = -1;
	d->ip = o->addr.sin_addr.s_addr;
	d->udp_port = o->addr.sin_port;
	d->spin_ns = o->spin_ns ? o->spin_ns : SPIN_NS;
	d->ip_id = (uint16_t)mono_ns();
	if (o->ifname)
		strcpy(d->ifname, o->ifname);
	ret = eal_init_claim(d);
	if (ret)
		goto err;
	if (o->ifname) {
		ret = hold_port(d, &o->addr);
		if (ret)
			goto err;
	}
	ret = port_setup(d, o, atomic_fetch_add(&next_id, 1));
	if (ret)
		goto err;
	*tp = &d->t;
	return 0;
err:
	dpdk_free(d);
	return ret;
}
