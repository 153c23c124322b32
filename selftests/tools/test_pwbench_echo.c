// SPDX-License-Identifier: GPL-2.0
/*
 * test_pwbench_echo.c - the DCN floor's two ends (tools/pwbench_echo.c)
 * over kernel UDP on loopback, each through the transport and as plain
 * blocking sockets: `pwbench echo --serve [--blocking]` answers echo
 * datagrams and only those (what else comes is counted, never echoed,
 * and it keeps serving); the client side times every echo that comes
 * back, skips echoes of other sequence numbers and from other senders,
 * counts what does not come back and gives up with -ETIMEDOUT when ten
 * in a row do not.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../../runtime/dcn/node.h"
#include "../../runtime/net/transport.h"
#include "../../tools/pwbench.h"

#define N 20u

static struct sockaddr_in loopback(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* A UDP socket on 127.0.0.1 and an ephemeral port; its address in @a. */
static int bound_socket(struct sockaddr_in *a)
{
	socklen_t len = sizeof(*a);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	*a = loopback(0);
	if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof(*a)) ||
	    getsockname(fd, (struct sockaddr *)a, &len))
		return -1;
	return fd;
}

/* An echo datagram as the client sends it: magic, then seq (LE). */
static void echo_dgram(uint8_t *buf, uint64_t seq)
{
	uint64_t le = htole64(seq);

	memcpy(buf, "PWECHO01", 8);
	memcpy(buf + 8, &le, 8);
}

/* Read @fd up to and including a newline (or its end): 0, or -1. */
static int read_line(int fd, char *line, size_t size)
{
	size_t n = 0;

	while (n + 1 < size && read(fd, line + n, 1) == 1)
		if (line[n++] == '\n')
			break;
	line[n] = '\0';
	return n ? 0 : -1;
}

/*
 * `pwbench echo --serve` on a free port, its stdout into *@out_fd; the
 * port in *@port. Returns the child's pid.
 */
static pid_t start_server(uint16_t *port, int *out_fd, bool blocking)
{
	struct sockaddr_in a;
	char addr[32], line[128];
	int fd = bound_socket(&a), pipefd[2];
	pid_t pid;

	if (fd < 0 || pipe(pipefd))
		return -1;
	close(fd);	/* the port is free again for the server */
	*port = ntohs(a.sin_port);
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", *port);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "echo", "--serve", addr, "--blocking", NULL };

		dup2(pipefd[1], STDOUT_FILENO);
		close(pipefd[0]);
		_exit(pwbench_echo_main(blocking ? 4 : 3, argv));
	}
	close(pipefd[1]);
	*out_fd = pipefd[0];
	/* It says when it is bound: nothing sent before could be lost. */
	if (read_line(*out_fd, line, sizeof(line)) ||
	    !strstr(line, "serving on"))
		return -1;
	return pid;
}

/* Stop the server; its closing line into @line. */
static int stop_server(pid_t pid, int out_fd, char *line, size_t size)
{
	ssize_t n;
	int status;

	kill(pid, SIGTERM);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	n = read(out_fd, line, size - 1);
	close(out_fd);
	line[n > 0 ? n : 0] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* @n round trips to @to from the transport, or from a blocking socket. */
static int client_rtt(bool blocking, const struct sockaddr_in *to,
		      unsigned int n, uint64_t *rtt, unsigned int *lost)
{
	struct sockaddr_in any = loopback(0);
	struct pw_transport *t;
	int ret;

	if (blocking)
		return pwbench_echo_rtt_blocking(to, n, rtt, lost);
	ret = pw_udp_open(&t, &any);
	if (ret)
		return ret;
	ret = pwbench_echo_rtt(t, to, n, rtt, lost);
	pw_transport_close(t);
	return ret;
}

/* Which end is a plain blocking socket: each pairing must work. */
FIXTURE(ends) {
	char line[256];
};

FIXTURE_VARIANT(ends) {
	bool server_blocking;
	bool client_blocking;
};

FIXTURE_VARIANT_ADD(ends, transport_to_transport) {
	.server_blocking = false, .client_blocking = false,
};

FIXTURE_VARIANT_ADD(ends, transport_to_blocking) {
	.server_blocking = true, .client_blocking = false,
};

FIXTURE_VARIANT_ADD(ends, blocking_to_transport) {
	.server_blocking = false, .client_blocking = true,
};

FIXTURE_VARIANT_ADD(ends, blocking_to_blocking) {
	.server_blocking = true, .client_blocking = true,
};

FIXTURE_SETUP(ends)
{
}

FIXTURE_TEARDOWN(ends)
{
}

TEST_F(ends, round_trips_through_the_server)
{
	uint64_t rtt[N];
	struct sockaddr_in to;
	unsigned int i, lost = 99;
	uint16_t port;
	int out;
	pid_t pid = start_server(&port, &out, variant->server_blocking);

	ASSERT_GT(pid, 0);
	to = loopback(port);
	EXPECT_EQ((int)N, client_rtt(variant->client_blocking, &to, N, rtt,
				     &lost));
	EXPECT_EQ(0u, lost);
	for (i = 0; i < N; i++)
		EXPECT_GT(rtt[i], 0u);
	EXPECT_EQ(0, stop_server(pid, out, self->line, sizeof(self->line)));
	EXPECT_NE(NULL, strstr(self->line, "echoed 20, dropped 0"));
}

TEST_F(ends, server_counts_strangers_and_keeps_serving)
{
	uint8_t buf[16], reply[64];
	struct sockaddr_in me, to;
	struct pollfd pfd;
	uint64_t rtt[N];
	unsigned int lost;
	uint16_t port;
	int out, fd;
	pid_t pid = start_server(&port, &out, variant->server_blocking);

	ASSERT_GT(pid, 0);
	to = loopback(port);
	fd = bound_socket(&me);
	ASSERT_GE(fd, 0);
	/* Too short, and the right length with the wrong magic. */
	ASSERT_EQ(5, sendto(fd, "hello", 5, 0, (struct sockaddr *)&to,
			    sizeof(to)));
	echo_dgram(buf, 7);
	buf[0] = 'X';
	ASSERT_EQ(16, sendto(fd, buf, 16, 0, (struct sockaddr *)&to,
			     sizeof(to)));
	pfd.fd = fd;
	pfd.events = POLLIN;
	EXPECT_EQ(0, poll(&pfd, 1, 300));	/* nothing comes back */
	/* A real one from the same socket does. */
	echo_dgram(buf, 8);
	ASSERT_EQ(16, sendto(fd, buf, 16, 0, (struct sockaddr *)&to,
			     sizeof(to)));
	ASSERT_EQ(1, poll(&pfd, 1, 2000));
	ASSERT_EQ(16, recv(fd, reply, sizeof(reply), 0));
	EXPECT_EQ(0, memcmp(reply, buf, 16));
	close(fd);
	EXPECT_EQ(5, client_rtt(variant->client_blocking, &to, 5, rtt,
				&lost));
	EXPECT_EQ(0, stop_server(pid, out, self->line, sizeof(self->line)));
	EXPECT_NE(NULL, strstr(self->line, "echoed 6, dropped 2"));
}

/* The client's end alone, against fakes: transport or blocking socket. */
FIXTURE(client) {
};

FIXTURE_VARIANT(client) {
	bool client_blocking;
};

FIXTURE_VARIANT_ADD(client, transport) {
	.client_blocking = false,
};

FIXTURE_VARIANT_ADD(client, blocking) {
	.client_blocking = true,
};

FIXTURE_SETUP(client)
{
}

FIXTURE_TEARDOWN(client)
{
}

/* How long the false echo holds the right answer back. */
#define RIGHT_AFTER_US	20000

/*
 * A false echo: answers each datagram at once with the next sequence
 * number and from another socket, and rightly only RIGHT_AFTER_US later.
 * Runs until killed.
 */
static void false_echo(int fd, int other)
{
	uint8_t buf[64], bad[16];
	struct sockaddr_in from;
	socklen_t len;
	uint64_t seq;
	ssize_t n;

	for (;;) {
		len = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &len);
		if (n != 16)
			continue;
		memcpy(&seq, buf + 8, 8);
		echo_dgram(bad, le64toh(seq) + 1);
		sendto(fd, bad, 16, 0, (struct sockaddr *)&from, len);
		sendto(other, buf, 16, 0, (struct sockaddr *)&from, len);
		usleep(RIGHT_AFTER_US);
		sendto(fd, buf, 16, 0, (struct sockaddr *)&from, len);
	}
}

TEST_F(client, skips_wrong_sequence_and_sender)
{
	struct sockaddr_in to, other_addr;
	uint64_t rtt[N];
	unsigned int i, lost = 99;
	int fd = bound_socket(&to), other = bound_socket(&other_addr);
	pid_t pid;

	ASSERT_GE(fd, 0);
	ASSERT_GE(other, 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		false_echo(fd, other);
	EXPECT_EQ((int)N, client_rtt(variant->client_blocking, &to, N, rtt,
				     &lost));
	EXPECT_EQ(0u, lost);
	/* Timed to the right answer, not to the false ones before it. */
	for (i = 0; i < N; i++)
		EXPECT_GE(rtt[i], RIGHT_AFTER_US * 1000ull);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fd);
	close(other);
}

TEST_F(client, gives_up_when_nobody_answers)
{
	struct sockaddr_in silent;
	uint64_t rtt[N];
	unsigned int lost = 0;
	/* Bound but never read: datagrams vanish, no ICMP error comes. */
	int fd = bound_socket(&silent);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-ETIMEDOUT, client_rtt(variant->client_blocking, &silent,
					 N, rtt, &lost));
	EXPECT_EQ(10u, lost);
	close(fd);
}

TEST(server_refuses_bad_usage)
{
	char *no_addr[] = { "echo", "--serve", NULL };
	char *bad_addr[] = { "echo", "--serve", "localhost", NULL };
	char *bad_flag[] = { "echo", "--to", "127.0.0.1:1", NULL };
	char *bad_mode[] = { "echo", "--serve", "127.0.0.1:1", "--fast",
			     NULL };

	EXPECT_EQ(2, pwbench_echo_main(2, no_addr));
	EXPECT_EQ(2, pwbench_echo_main(3, bad_addr));
	EXPECT_EQ(2, pwbench_echo_main(3, bad_flag));
	EXPECT_EQ(2, pwbench_echo_main(4, bad_mode));
}

TEST_HARNESS_MAIN
