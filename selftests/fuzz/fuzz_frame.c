// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_frame.c - libFuzzer harness: the input is one Ethernet frame off
 * the DPDK port of the node at 10.0.0.1:7000. pw_frame_parse() must read
 * nothing past it and either drop it with a reason or hand over a
 * datagram inside it; a datagram handed over, built again by the sending
 * side (pw_frame_udp_build()), must parse back to the same bytes, and an
 * ARP request for us must be answerable with a reply that parses.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/net/dpdk_frame.h"
#include "fuzz.h"

#define FUZZ_PORT	7000

static uint32_t our_ip(void)
{
	return htonl(0x0a000001);	/* 10.0.0.1 */
}

/* The datagram at @fi, sent again by our own builder, must come back. */
static void rebuild_udp(const uint8_t *frame, const struct pw_frame_info *fi)
{
	static uint8_t again[PW_FRAME_UDP_HDRS + 65536];
	struct pw_frame_udp a;
	struct pw_frame_info fi2;
	size_t n;

	memcpy(a.dst_mac, frame, PW_ETH_ALEN);
	memcpy(a.src_mac, frame + PW_ETH_ALEN, PW_ETH_ALEN);
	a.src_ip = fi->src_ip;
	a.dst_ip = our_ip();
	a.src_port = fi->src_port;
	a.dst_port = htons(FUZZ_PORT);
	a.ip_id = 0;
	memcpy(again + PW_FRAME_UDP_HDRS, frame + fi->payload, fi->len);
	n = pw_frame_udp_build(again, &a, fi->len);
	if (n != PW_FRAME_UDP_HDRS + fi->len ||
	    pw_frame_parse(again, n, our_ip(), htons(FUZZ_PORT), &fi2) !=
	    PW_FRAME_UDP || fi2.len != fi->len ||
	    fi2.payload != PW_FRAME_UDP_HDRS || fi2.csum_offloaded ||
	    memcmp(again + fi2.payload, frame + fi->payload, fi->len))
		abort();
}

static void answer_arp(const struct pw_frame_info *fi)
{
	static const uint8_t our_mac[PW_ETH_ALEN] = { 2, 0, 0, 0, 0, 1 };
	uint8_t reply[PW_FRAME_ARP_LEN];
	struct pw_frame_info fi2;

	pw_frame_arp_build(reply, PW_ARP_REPLY, our_mac, our_ip(), fi->sha,
			   fi->src_ip);
	if (pw_frame_parse(reply, sizeof(reply), fi->src_ip, 0, &fi2) !=
	    PW_FRAME_ARP || fi2.arp_op != PW_ARP_REPLY ||
	    fi2.src_ip != our_ip() || memcmp(fi2.sha, our_mac, PW_ETH_ALEN))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pw_frame_info fi;

	switch (pw_frame_parse(data, size, our_ip(), htons(FUZZ_PORT), &fi)) {
	case PW_FRAME_DROP:
		if (fi.drop >= PW_FRAME_NDROP)
			abort();
		break;
	case PW_FRAME_UDP:
		if (fi.payload < PW_FRAME_UDP_HDRS ||
		    fi.payload + fi.len > size)
			abort();
		rebuild_udp(data, &fi);
		break;
	case PW_FRAME_ARP:
		if (fi.arp_op != PW_ARP_REQUEST && fi.arp_op != PW_ARP_REPLY)
			abort();
		if (fi.arp_for_us)
			answer_arp(&fi);
		break;
	default:
		abort();
	}
	return 0;
}
