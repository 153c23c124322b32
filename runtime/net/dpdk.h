/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpdk.h - the DPDK control-plane transport (transport.h): UDP datagrams
 * in Ethernet frames sent and received by DPDK on a virtual device, with
 * ARP of its own. A node on it and a node on kernel UDP sockets (udp.c)
 * exchange the same bytes.
 *
 * The first open in a process initialises DPDK's EAL (no hugepages, no
 * PCI, no shared files, its only lcore running where the caller may run);
 * every transport adds one virtual port with one rx and one tx queue and
 * one mempool. The owner thread polls: recv_burst() takes what the port
 * received, wait() polls it (spinning briefly, then napping) since there
 * is no descriptor to sleep on: poll_fd() is -ENOTSUP. ARP is answered,
 * and datagrams that waited for a peer's address go out, only while the
 * owner polls (send, recv_burst, wait).
 *
 * Processes on one host may each have a transport on one interface and
 * the host's address (a controller and a worker): a datagram to our own
 * address goes out as a frame to our own MAC, which the other processes'
 * af_packet sockets see leave.
 *
 * Limits: peers are on the link (ARP for every destination, no gateway);
 * a datagram must fit one frame (MTU - 28 bytes: -EMSGSIZE past it; IP
 * fragments are dropped and counted); one EAL per process, for its life;
 * one transport per interface per process.
 */
#ifndef PW_RUNTIME_NET_DPDK_H
#define PW_RUNTIME_NET_DPDK_H

#include <netinet/in.h>
#include <stdint.h>

#include "dpdk_frame.h"
#include "transport.h"

/**
 * struct pw_dpdk_opts - where a DPDK transport lives
 * @ifname: af_packet: the kernel interface to send and receive on (the
 *	kernel's own stack keeps it too; see pw_dpdk_open()).
 * @memif_socket: instead of @ifname, a memif port on this socket path,
 *	between two processes on one host.
 * @memif_server: the memif end that creates the socket.
 * @addr: our IPv4 address and UDP port (network order); port 0 takes an
 *	ephemeral one from the kernel (af_packet only).
 * @spin_ns: how long wait() polls before it naps (0: a default).
 */
struct pw_dpdk_opts {
	const char *ifname;
	const char *memif_socket;
	int memif_server;
	struct sockaddr_in addr;
	uint64_t spin_ns;
};

/**
 * struct pw_dpdk_stats - what the frame layer did, besides transport stats
 * @rx_frames: frames the port received.
 * @rx_dropped: frames not handed over, by enum pw_frame_drop.
 * @rx_csum_offloaded: datagrams accepted whose UDP checksum a sender left
 *	to an offload (see struct pw_frame_info).
 * @rx_multiseg: frames in more than one mbuf, dropped.
 * @arp_requests_sent: ARP requests for peers' addresses.
 * @arp_replies_sent: answers to ARP requests for our address.
 * @arp_learned: peer addresses learned or changed.
 * @arp_queued: datagrams that waited for a peer's address.
 * @arp_dropped: datagrams dropped: the wait queue was full, or the peer
 *	never answered (the reliable channel retransmits them).
 * @tx_nombuf: sends refused for want of an mbuf.
 */
struct pw_dpdk_stats {
	uint64_t rx_frames;
	uint64_t rx_dropped[PW_FRAME_NDROP];
	uint64_t rx_csum_offloaded;
	uint64_t rx_multiseg;
	uint64_t arp_requests_sent;
	uint64_t arp_replies_sent;
	uint64_t arp_learned;
	uint64_t arp_queued;
	uint64_t arp_dropped;
	uint64_t tx_nombuf;
};

/*
 * A DPDK transport per @o. On af_packet the kernel's stack sees the same
 * frames: if it holds @o->addr too it answers ARP as we do (same MAC,
 * harmless), and this function binds a kernel UDP socket to the address
 * and port that filters everything away, so that the kernel neither
 * answers our datagrams with ICMP port unreachable nor queues them.
 * -EINVAL for bad options, -EADDRINUSE if a kernel socket has the port,
 * -EADDRNOTAVAIL for port 0 when the kernel lacks the address, -EBUSY if
 * this process has a DPDK transport on @o->ifname already (the af_packet
 * driver would split the frames between the two),
 * -ENODEV if DPDK cannot make the port, other -errno from EAL or ethdev.
 * Must be called in the network namespace of @o->ifname.
 */
int pw_dpdk_open(struct pw_transport **tp, const struct pw_dpdk_opts *o);

/* @t's frame counters, or NULL if @t is not a DPDK transport. */
const struct pw_dpdk_stats *pw_dpdk_stats(const struct pw_transport *t);

#endif /* PW_RUNTIME_NET_DPDK_H */
