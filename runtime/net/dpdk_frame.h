/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpdk_frame.h - the frames the DPDK transport (dpdk.c) puts on the wire
 * and takes off it: Ethernet II + IPv4 + UDP carrying one datagram, and
 * ARP for IPv4 over Ethernet. Plain bytes in, plain bytes out, no DPDK:
 * what a kernel UDP socket sends, byte for byte, so that either end can
 * be either transport and tshark reads both.
 *
 * Addresses, ports and the IP id are in network order in every struct
 * here; lengths are host order.
 */
#ifndef PW_RUNTIME_NET_DPDK_FRAME_H
#define PW_RUNTIME_NET_DPDK_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define PW_ETH_ALEN		6
#define PW_ETH_HLEN		14
#define PW_IP_HLEN		20	/* without options: what we send */
#define PW_UDP_HLEN		8
#define PW_FRAME_UDP_HDRS	(PW_ETH_HLEN + PW_IP_HLEN + PW_UDP_HLEN)
#define PW_FRAME_ARP_LEN	(PW_ETH_HLEN + 28)
/* Shortest Ethernet frame without its FCS: shorter ones are padded. */
#define PW_ETH_ZLEN		60

#define PW_ETHERTYPE_IPV4	0x0800
#define PW_ETHERTYPE_ARP	0x0806
#define PW_ARP_REQUEST		1
#define PW_ARP_REPLY		2

/**
 * struct pw_frame_udp - the addressing of one UDP frame
 * @dst_mac: next hop's Ethernet address.
 * @src_mac: ours.
 * @src_ip: source IPv4 (network order).
 * @dst_ip: destination IPv4 (network order).
 * @src_port: UDP source port (network order).
 * @dst_port: UDP destination port (network order).
 * @ip_id: IPv4 identification (network order).
 */
struct pw_frame_udp {
	uint8_t dst_mac[PW_ETH_ALEN];
	uint8_t src_mac[PW_ETH_ALEN];
	uint32_t src_ip;
	uint32_t dst_ip;
	uint16_t src_port;
	uint16_t dst_port;
	uint16_t ip_id;
};

/*
 * Fill in the Ethernet, IPv4 and UDP headers in front of the @len payload
 * bytes that sit at @frame + PW_FRAME_UDP_HDRS, both checksums computed.
 * The frame is not padded to PW_ETH_ZLEN (the NIC does that). Returns its
 * length.
 */
size_t pw_frame_udp_build(uint8_t *frame, const struct pw_frame_udp *a,
			  size_t len);

/*
 * An ARP frame of @op into @frame (PW_FRAME_ARP_LEN bytes): from
 * @sha/@spa, asking about or answering to @tpa (@tha: its address in a
 * reply, zero in a request). A request is broadcast, a reply goes to
 * @tha. Returns PW_FRAME_ARP_LEN.
 */
size_t pw_frame_arp_build(uint8_t *frame, uint16_t op,
			  const uint8_t sha[PW_ETH_ALEN], uint32_t spa,
			  const uint8_t tha[PW_ETH_ALEN], uint32_t tpa);

/* Why a received frame was not handed over. */
enum pw_frame_drop {
	PW_FRAME_D_NOT_IP,	/* neither IPv4 nor ARP (IPv6, VLAN, ...) */
	PW_FRAME_D_MALFORMED,	/* truncated, bad lengths, bad ARP shape */
	PW_FRAME_D_IP_CSUM,	/* IPv4 header checksum wrong */
	PW_FRAME_D_NOT_UDP,	/* IPv4 but another protocol */
	PW_FRAME_D_FRAGMENT,	/* an IP fragment: never reassembled */
	PW_FRAME_D_OTHER_HOST,	/* IPv4 for another address */
	PW_FRAME_D_OTHER_PORT,	/* UDP for another port of ours */
	PW_FRAME_D_UDP_CSUM,	/* UDP checksum wrong */
	PW_FRAME_D_ARP_OTHER,	/* ARP about someone else */
	PW_FRAME_NDROP
};

enum pw_frame_kind {
	PW_FRAME_DROP,
	PW_FRAME_UDP,		/* a datagram for us */
	PW_FRAME_ARP,		/* for us, or a reply or announcement */
};

/**
 * struct pw_frame_info - what pw_frame_parse() found
 * @drop: the reason, for PW_FRAME_DROP.
 * @src_ip: sender's IPv4 (UDP: IP source; ARP: sender protocol address).
 * @src_port: UDP source port.
 * @payload: offset of the datagram in the frame (UDP).
 * @len: its length (UDP).
 * @csum_offloaded: (UDP) the checksum field held only the pseudo-header
 *	sum: the sender's stack left the rest to a NIC offload that a
 *	packet tap sees before it runs (veth, virtio-net). Accepted.
 * @arp_op: PW_ARP_REQUEST or PW_ARP_REPLY.
 * @arp_for_us: a request for our address (from someone else): answer it.
 * @sha: sender's Ethernet address (ARP).
 */
struct pw_frame_info {
	enum pw_frame_drop drop;
	uint32_t src_ip;
	uint16_t src_port;
	size_t payload;
	size_t len;
	int csum_offloaded;
	uint16_t arp_op;
	int arp_for_us;
	uint8_t sha[PW_ETH_ALEN];
};

/*
 * Classify @len bytes of @frame for the node at @ip:@port (network order):
 * PW_FRAME_UDP for a datagram to that address and port whose headers and
 * checksums hold; PW_FRAME_ARP for an ARP request for @ip or any reply or
 * announcement (the caller decides whom it learns); else PW_FRAME_DROP
 * with @fi->drop saying why. Reads nothing past @len.
 */
enum pw_frame_kind pw_frame_parse(const uint8_t *frame, size_t len,
				  uint32_t ip, uint16_t port,
				  struct pw_frame_info *fi);

/* The Internet checksum of @len bytes, folded, not complemented. */
uint16_t pw_frame_csum_fold(const void *buf, size_t len, uint32_t sum);

#endif /* PW_RUNTIME_NET_DPDK_FRAME_H */
