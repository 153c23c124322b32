// SPDX-License-Identifier: GPL-2.0
/*
 * test_loop.c - the in-process transport (runtime/net/loop.c) itself:
 * datagrams arrive whole, in order, with their source; an address is
 * held once; ephemeral ports never clash; a datagram to nobody is
 * dropped and counted; an oversized one is refused; the poll fd is
 * readable exactly while datagrams wait; closing with datagrams queued
 * frees them (run under valgrind to see). test_node runs nodes over it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../runtime/net/transport.h"

static struct sockaddr_in at(uint32_t ip, uint16_t port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(ip),
		.sin_port = htons(port),
	};

	return a;
}

static bool readable(struct pw_transport *t)
{
	struct pollfd p = { .fd = pw_transport_poll_fd(t), .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

TEST(datagrams_arrive_whole_in_order_with_source)
{
	struct sockaddr_in a = at(0x0a000001, 7700), b = at(0x0a000002, 0);
	struct pw_transport *ta, *tb;
	struct sockaddr_in bb;
	uint8_t buf[PW_TRANSPORT_MAX_DGRAM];
	struct pw_dgram dg[16];
	unsigned int i, got = 0;
	int n, k;

	ASSERT_EQ(0, pw_loop_open(&ta, &a));
	ASSERT_EQ(0, pw_loop_open(&tb, &b));
	ASSERT_STREQ("loop", ta->ops->name);
	ASSERT_EQ(0, pw_transport_local_addr(tb, &bb));
	ASSERT_NE(0, bb.sin_port);
	EXPECT_FALSE(readable(ta));
	for (i = 0; i < 100; i++) {
		memset(buf, (int)i, i + 1);
		ASSERT_EQ(0, pw_transport_send(tb, &a, buf, i + 1));
	}
	EXPECT_TRUE(readable(ta));
	EXPECT_EQ(1, pw_transport_wait(ta, 0));
	while (got < 100) {
		n = pw_transport_recv_burst(ta, dg, 16);
		ASSERT_GT(n, 0);
		for (k = 0; k < n; k++, got++) {
			ASSERT_EQ(got + 1, dg[k].len);
			EXPECT_EQ(got, dg[k].data[got]);
			EXPECT_EQ(bb.sin_port, dg[k].from.sin_port);
			EXPECT_EQ(bb.sin_addr.s_addr, dg[k].from.sin_addr.s_addr);
		}
	}
	EXPECT_FALSE(readable(ta));
	EXPECT_EQ(0, pw_transport_wait(ta, 1000000));
	EXPECT_EQ(100u, ta->stats.rx_packets);
	EXPECT_EQ(-EMSGSIZE, pw_transport_send(tb, &a, buf, sizeof(buf) + 1));
	pw_transport_close(ta);
	pw_transport_close(tb);
}

TEST(addresses_are_held_once_and_ephemeral_ports_differ)
{
	struct sockaddr_in a = at(0x7f000001, 7700), any = at(0x7f000001, 0);
	struct sockaddr_in p1, p2;
	struct pw_transport *t1, *t2, *t3, *e1, *e2;

	ASSERT_EQ(0, pw_loop_open(&t1, &a));
	EXPECT_EQ(-EADDRINUSE, pw_loop_open(&t2, &a));
	ASSERT_EQ(0, pw_loop_open(&e1, &any));
	ASSERT_EQ(0, pw_loop_open(&e2, &any));
	pw_transport_local_addr(e1, &p1);
	pw_transport_local_addr(e2, &p2);
	EXPECT_NE(p1.sin_port, p2.sin_port);
	pw_transport_close(t1);
	/* Free again once closed. */
	ASSERT_EQ(0, pw_loop_open(&t3, &a));
	pw_transport_close(t3);
	pw_transport_close(e1);
	pw_transport_close(e2);
}

TEST(datagram_to_nobody_is_dropped_and_queued_ones_freed_at_close)
{
	struct sockaddr_in a = at(0x0a000001, 7701), nobody = at(0x0a000009, 1);
	struct pw_transport *ta, *tb;
	uint8_t byte = 1;

	ASSERT_EQ(0, pw_loop_open(&ta, &a));
	ASSERT_EQ(0, pw_loop_open(&tb, &nobody));
	pw_transport_close(tb);
	EXPECT_EQ(0, pw_transport_send(ta, &nobody, &byte, 1));
	EXPECT_EQ(1u, ta->stats.tx_errors);
	EXPECT_EQ(0u, ta->stats.tx_packets);
	/* Queued to itself and never read: close frees them. */
	EXPECT_EQ(0, pw_transport_send(ta, &a, &byte, 1));
	EXPECT_EQ(0, pw_transport_send(ta, &a, &byte, 1));
	pw_transport_close(ta);
}

TEST_HARNESS_MAIN
