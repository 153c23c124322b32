// SPDX-License-Identifier: GPL-2.0
/*
 * dpdk_frame.c - Ethernet + IPv4 + UDP and ARP frames for the DPDK
 * transport (dpdk_frame.h). Every field is read and written byte by byte
 * in network order: frames sit at any alignment in an mbuf.
 */
#include <string.h>

#include "dpdk_frame.h"

#define IP_PROTO_UDP	17
#define IP_TTL		64
#define IP_DF		0x4000
#define IP_MF		0x2000
#define IP_OFFMASK	0x1fff
#define ARP_HTYPE_ETH	1

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Network-order values are stored as they are: their bytes are right. */
static void put_raw(uint8_t *p, const void *v, size_t n)
{
	memcpy(p, v, n);
}

static uint32_t get_ip(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Sum of big-endian 16-bit words, an odd last byte padded with zero. */
static uint32_t csum_add(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += get16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold32(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

uint16_t pw_frame_csum_fold(const void *buf, size_t len, uint32_t sum)
{
	return csum_fold32(csum_add(buf, len, csum_fold32(sum)));
}

/* The UDP pseudo header's sum: addresses, protocol, UDP length. */
static uint32_t pseudo_sum(const uint8_t *ip_hdr, uint16_t udp_len)
{
	return csum_add(ip_hdr + 12, 8, IP_PROTO_UDP + udp_len);
}

static void put_eth(uint8_t *f, const uint8_t *dst, const uint8_t *src,
		    uint16_t type)
{
	put_raw(f, dst, PW_ETH_ALEN);
	put_raw(f + PW_ETH_ALEN, src, PW_ETH_ALEN);
	put16(f + 2 * PW_ETH_ALEN, type);
}

size_t pw_frame_udp_build(uint8_t *frame, const struct pw_frame_udp *a,
			  size_t len)
{
	uint8_t *ip = frame + PW_ETH_HLEN;
	uint8_t *udp = ip + PW_IP_HLEN;
	uint16_t udp_len = PW_UDP_HLEN + len;
	uint16_t csum;

	put_eth(frame, a->dst_mac, a->src_mac, PW_ETHERTYPE_IPV4);

	ip[0] = 0x45;			/* version 4, 5 words */
	ip[1] = 0;			/* DSCP/ECN */
	put16(ip + 2, PW_IP_HLEN + udp_len);
	put_raw(ip + 4, &a->ip_id, 2);
	put16(ip + 6, IP_DF);		/* as Linux's UDP sends */
	ip[8] = IP_TTL;
	ip[9] = IP_PROTO_UDP;
	put16(ip + 10, 0);
	put_raw(ip + 12, &a->src_ip, 4);
	put_raw(ip + 16, &a->dst_ip, 4);
	put16(ip + 10, ~pw_frame_csum_fold(ip, PW_IP_HLEN, 0));

	put_raw(udp, &a->src_port, 2);
	put_raw(udp + 2, &a->dst_port, 2);
	put16(udp + 4, udp_len);
	put16(udp + 6, 0);
	csum = ~pw_frame_csum_fold(udp, udp_len, pseudo_sum(ip, udp_len));
	/* 0 means "no checksum": a computed 0 goes out as its other form. */
	put16(udp + 6, csum ? csum : 0xffff);
	return PW_FRAME_UDP_HDRS + len;
}

size_t pw_frame_arp_build(uint8_t *frame, uint16_t op,
			  const uint8_t sha[PW_ETH_ALEN], uint32_t spa,
			  const uint8_t tha[PW_ETH_ALEN], uint32_t tpa)
{
	static const uint8_t bcast[PW_ETH_ALEN] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	uint8_t *arp = frame + PW_ETH_HLEN;

	put_eth(frame, op == PW_ARP_REQUEST ? bcast : tha, sha,
		PW_ETHERTYPE_ARP);
	put16(arp, ARP_HTYPE_ETH);
	put16(arp + 2, PW_ETHERTYPE_IPV4);
	arp[4] = PW_ETH_ALEN;
	arp[5] = 4;
	put16(arp + 6, op);
	put_raw(arp + 8, sha, PW_ETH_ALEN);
	put_raw(arp + 14, &spa, 4);
	put_raw(arp + 18, tha, PW_ETH_ALEN);
	put_raw(arp + 24, &tpa, 4);
	return PW_FRAME_ARP_LEN;
}

static enum pw_frame_kind drop(struct pw_frame_info *fi,
			       enum pw_frame_drop why)
{
	fi->drop = why;
	return PW_FRAME_DROP;
}

static enum pw_frame_kind parse_arp(const uint8_t *arp, size_t len,
				    uint32_t ip, struct pw_frame_info *fi)
{
	uint32_t spa, tpa;

	if (len < 28 || get16(arp) != ARP_HTYPE_ETH ||
	    get16(arp + 2) != PW_ETHERTYPE_IPV4 || arp[4] != PW_ETH_ALEN ||
	    arp[5] != 4)
		return drop(fi, PW_FRAME_D_MALFORMED);
	fi->arp_op = get16(arp + 6);
	if (fi->arp_op != PW_ARP_REQUEST && fi->arp_op != PW_ARP_REPLY)
		return drop(fi, PW_FRAME_D_MALFORMED);
	memcpy(fi->sha, arp + 8, PW_ETH_ALEN);
	spa = get_ip(arp + 14);
	tpa = get_ip(arp + 24);
	fi->src_ip = spa;
	/* A probe (no sender address) tells nothing to learn or answer. */
	if (!spa)
		return drop(fi, PW_FRAME_D_ARP_OTHER);
	fi->arp_for_us = fi->arp_op == PW_ARP_REQUEST && tpa == ip &&
			 spa != ip;
	/* Replies and announcements (spa == tpa) may update what we know. */
	if (fi->arp_op == PW_ARP_REPLY || tpa == ip || spa == tpa)
		return PW_FRAME_ARP;
	return drop(fi, PW_FRAME_D_ARP_OTHER);
}

static enum pw_frame_kind parse_udp(const uint8_t *ip, size_t ip_len,
				    size_t hlen, uint16_t port,
				    struct pw_frame_info *fi)
{
	const uint8_t *udp = ip + hlen;
	uint16_t udp_len, check, partial;
	uint32_t pseudo;

	if (ip_len - hlen < PW_UDP_HLEN)
		return drop(fi, PW_FRAME_D_MALFORMED);
	udp_len = get16(udp + 4);
	/* Bytes past the UDP length are padding, as the kernel reads it. */
	if (udp_len < PW_UDP_HLEN || udp_len > ip_len - hlen)
		return drop(fi, PW_FRAME_D_MALFORMED);
	if (memcmp(udp + 2, &port, 2))
		return drop(fi, PW_FRAME_D_OTHER_PORT);
	check = get16(udp + 6);
	if (check) {
		pseudo = pseudo_sum(ip, udp_len);
		if (pw_frame_csum_fold(udp, udp_len, pseudo) != 0xffff) {
			partial = csum_fold32(pseudo);
			if (check != partial)
				return drop(fi, PW_FRAME_D_UDP_CSUM);
			fi->csum_offloaded = 1;
		}
	}
	memcpy(&fi->src_port, udp, 2);
	fi->payload = PW_ETH_HLEN + hlen + PW_UDP_HLEN;
	fi->len = udp_len - PW_UDP_HLEN;
	return PW_FRAME_UDP;
}

enum pw_frame_kind pw_frame_parse(const uint8_t *frame, size_t len,
				  uint32_t addr, uint16_t port,
				  struct pw_frame_info *fi)
{
	const uint8_t *ip = frame + PW_ETH_HLEN;
	size_t hlen, ip_len;
	uint16_t type;

	memset(fi, 0, sizeof(*fi));
	if (len < PW_ETH_HLEN)
		return drop(fi, PW_FRAME_D_MALFORMED);
	type = get16(frame + 2 * PW_ETH_ALEN);
	len -= PW_ETH_HLEN;
	if (type == PW_ETHERTYPE_ARP)
		return parse_arp(ip, len, addr, fi);
	if (type != PW_ETHERTYPE_IPV4)
		return drop(fi, PW_FRAME_D_NOT_IP);

	if (len < PW_IP_HLEN || ip[0] >> 4 != 4)
		return drop(fi, PW_FRAME_D_MALFORMED);
	hlen = (ip[0] & 0xf) * 4u;
	ip_len = get16(ip + 2);
	/* Frames may carry padding past the IP length, never less. */
	if (hlen < PW_IP_HLEN || hlen > ip_len || ip_len > len)
		return drop(fi, PW_FRAME_D_MALFORMED);
	if (pw_frame_csum_fold(ip, hlen, 0) != 0xffff)
		return drop(fi, PW_FRAME_D_IP_CSUM);
	fi->src_ip = get_ip(ip + 12);
	if (get_ip(ip + 16) != addr)
		return drop(fi, PW_FRAME_D_OTHER_HOST);
	if (ip[9] != IP_PROTO_UDP)
		return drop(fi, PW_FRAME_D_NOT_UDP);
	if (get16(ip + 6) & (IP_MF | IP_OFFMASK))
		return drop(fi, PW_FRAME_D_FRAGMENT);
	return parse_udp(ip, ip_len, hlen, port, fi);
}
