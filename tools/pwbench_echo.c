// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_echo.c - the DCN's floor: one datagram to a user-space echo on
 * another host and back, without any Pathways role in between. It is to
 * DCN dispatch what the io_uring NOP is to the PCIe path: what no runtime
 * can go below on this network. Two kinds of ends: plain blocking
 * sockets (recvfrom, sendto: the least a program can do, the network's
 * floor), and the control transport a dispatch uses (kernel UDP through
 * io_uring, or DPDK), whose own cost the difference shows.
 *
 *   pwbench echo --serve IP:PORT [--blocking]   answer until SIGTERM
 *   pwbench dispatch --dcn ... --echo IP:PORT --echo-blocking IP:PORT
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../runtime/dcn/roles.h"
#include "../runtime/net/transport.h"

#include "pwbench.h"

/* An echo datagram: magic, then the sender's sequence number (LE). */
#define ECHO_MAGIC	"PWECHO01"
#define ECHO_LEN	16
/*
 * A datagram not back by then is counted lost (a TCG round trip's p99 is
 * about 10 ms, its worst about 50)...
 */
#define ECHO_TIMEOUT_NS	200000000ull
/* ...and this many in a row mean nobody answers (not netem's 5% loss). */
#define ECHO_GIVE_UP	10

static volatile sig_atomic_t echo_stop;

static void on_term(int sig)
{
	(void)sig;
	echo_stop = 1;
}

static void echo_put_seq(uint8_t *buf, uint64_t seq)
{
	uint64_t le = htole64(seq);

	memcpy(buf, ECHO_MAGIC, 8);
	memcpy(buf + 8, &le, 8);
}

static bool echo_get_seq(const struct pw_dgram *dg, uint64_t *seq)
{
	uint64_t le;

	if (dg->len != ECHO_LEN || memcmp(dg->data, ECHO_MAGIC, 8))
		return false;
	memcpy(&le, dg->data + 8, 8);
	*seq = le64toh(le);
	return true;
}

int pwbench_echo_rtt(struct pw_transport *t, const struct sockaddr_in *to,
		     unsigned int n, uint64_t *rtt, unsigned int *lost)
{
	struct pw_dgram dg[16];
	uint8_t buf[ECHO_LEN];
	unsigned int i, k = 0, in_row = 0;
	uint64_t seq, sent;
	int ret, m, j;
	bool back;

	*lost = 0;
	for (i = 0; i < n; i++) {
		echo_put_seq(buf, i);
		sent = pw_now_ns();
		ret = pw_transport_send(t, to, buf, sizeof(buf));
		if (ret < 0)
			return ret;
		for (back = false; !back;) {
			if (pw_now_ns() - sent > ECHO_TIMEOUT_NS) {
				(*lost)++;
				if (++in_row == ECHO_GIVE_UP)
					return -ETIMEDOUT;
				break;
			}
			m = pw_transport_recv_burst(t, dg, 16);
			if (m < 0)
				return m;
			/* Late echoes of lost ones and strangers are skipped. */
			for (j = 0; j < m; j++)
				if (echo_get_seq(&dg[j], &seq) && seq == i &&
				    dg[j].from.sin_addr.s_addr == to->sin_addr.s_addr &&
				    dg[j].from.sin_port == to->sin_port)
					back = true;
			if (back) {
				rtt[k++] = pw_now_ns() - sent;
				in_row = 0;
			} else if (!m) {
				pw_transport_wait(t, ECHO_TIMEOUT_NS / 10);
			}
		}
	}
	return (int)k;
}

/* A server's closing line; flushed, since a test's child _exit()s. */
static void echo_report(uint64_t echoed, uint64_t dropped)
{
	printf("pwbench echo: echoed %llu, dropped %llu not echo datagrams\n",
	       (unsigned long long)echoed, (unsigned long long)dropped);
	fflush(stdout);
}

/* One echo datagram in @buf: its sequence number, if it is one. */
static bool echo_seq_of(const uint8_t *buf, ssize_t len, uint64_t *seq)
{
	struct pw_dgram dg = { .data = (uint8_t *)buf, .len = (size_t)len };

	return len > 0 && echo_get_seq(&dg, seq);
}

/* A blocking UDP socket bound to @addr (port 0: any), 0.2 s receive timeout. */
static int blocking_socket(const struct sockaddr_in *addr)
{
	struct timeval tv = { .tv_usec = ECHO_TIMEOUT_NS / 1000 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -errno;
	if (bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int pwbench_echo_rtt_blocking(const struct sockaddr_in *to, unsigned int n,
			      uint64_t *rtt, unsigned int *lost)
{
	struct sockaddr_in any = { .sin_family = AF_INET };
	uint8_t buf[ECHO_LEN], in[PW_TRANSPORT_MAX_DGRAM];
	unsigned int i, k = 0, in_row = 0;
	struct sockaddr_in from;
	socklen_t fromlen;
	uint64_t seq, sent;
	ssize_t len;
	int fd = blocking_socket(&any);

	if (fd < 0)
		return fd;
	*lost = 0;
	for (i = 0; i < n; i++) {
		echo_put_seq(buf, i);
		sent = pw_now_ns();
		if (sendto(fd, buf, sizeof(buf), 0, (const struct sockaddr *)to,
			   sizeof(*to)) < 0) {
			k = (unsigned int)-errno;
			close(fd);
			return (int)k;
		}
		for (;;) {
			fromlen = sizeof(from);
			len = recvfrom(fd, in, sizeof(in), 0,
				       (struct sockaddr *)&from, &fromlen);
			if (len < 0 || pw_now_ns() - sent > ECHO_TIMEOUT_NS) {
				(*lost)++;
				in_row++;
				break;
			}
			/* Late echoes of lost ones and strangers are skipped. */
			if (echo_seq_of(in, len, &seq) && seq == i &&
			    from.sin_addr.s_addr == to->sin_addr.s_addr &&
			    from.sin_port == to->sin_port) {
				rtt[k++] = pw_now_ns() - sent;
				in_row = 0;
				break;
			}
		}
		if (in_row == ECHO_GIVE_UP) {
			close(fd);
			return -ETIMEDOUT;
		}
	}
	close(fd);
	return (int)k;
}

/* recvfrom, sendto: the least any program can do per datagram. */
static int echo_serve_blocking(const struct sockaddr_in *addr)
{
	uint64_t echoed = 0, dropped = 0, seq;
	uint8_t buf[PW_TRANSPORT_MAX_DGRAM];
	struct sockaddr_in from;
	socklen_t fromlen;
	ssize_t len;
	int fd = blocking_socket(addr);

	if (fd < 0)
		return fd;
	printf("pwbench echo: serving on %s:%u, blocking sockets\n",
	       inet_ntoa(addr->sin_addr), ntohs(addr->sin_port));
	fflush(stdout);
	while (!echo_stop) {
		fromlen = sizeof(from);
		len = recvfrom(fd, buf, sizeof(buf), 0,
			       (struct sockaddr *)&from, &fromlen);
		if (len < 0)
			continue;	/* the timeout: look at echo_stop */
		if (!echo_seq_of(buf, len, &seq)) {
			dropped++;
			continue;
		}
		if (sendto(fd, buf, (size_t)len, 0, (struct sockaddr *)&from,
			   fromlen) == len)
			echoed++;
	}
	echo_report(echoed, dropped);
	close(fd);
	return 0;
}

int pwbench_echo_main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	uint64_t echoed = 0, dropped = 0, seq;
	struct sockaddr_in addr;
	struct pw_transport *t;
	struct pw_dgram dg[16];
	int ret, m, j;

	bool blocking = argc == 4 && !strcmp(argv[3], "--blocking");

	if ((argc != 3 && !blocking) || strcmp(argv[1], "--serve") ||
	    pw_parse_addr(argv[2], &addr)) {
		fprintf(stderr,
			"usage: pwbench echo --serve IP:PORT [--blocking]\n");
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (blocking) {
		ret = echo_serve_blocking(&addr);
		if (ret)
			fprintf(stderr, "pwbench echo: %s: %s\n", argv[2],
				strerror(-ret));
		return ret ? 1 : 0;
	}
	ret = pw_udp_open(&t, &addr);
	if (ret) {
		fprintf(stderr, "pwbench echo: binding %s: %s\n", argv[2],
			strerror(-ret));
		return 1;
	}
	/* Whoever started us may send now. */
	printf("pwbench echo: serving on %s\n", argv[2]);
	fflush(stdout);
	while (!echo_stop) {
		pw_transport_wait(t, 100000000ull);
		m = pw_transport_recv_burst(t, dg, 16);
		if (m < 0) {
			fprintf(stderr, "pwbench echo: %s\n", strerror(-m));
			break;
		}
		for (j = 0; j < m; j++) {
			if (!echo_get_seq(&dg[j], &seq)) {
				dropped++;	/* not ours: never echoed */
				continue;
			}
			if (pw_transport_send(t, &dg[j].from, dg[j].data,
					      dg[j].len) == 0)
				echoed++;
		}
	}
	echo_report(echoed, dropped);
	pw_transport_close(t);
	return 0;
}
