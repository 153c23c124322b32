/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transport.h - a datagram transport for the control plane: send one
 * datagram to an IPv4 peer, receive a burst with their sources. The kernel
 * UDP transport (udp.c) and the DPDK one implement it, and the reliable
 * channel (rchan.h) runs over either.
 *
 * A transport has one owner thread. Datagrams are unreliable: they may be
 * lost, duplicated, reordered, or be garbage from anyone.
 *
 * Functions return 0 (or a value >= 0) or a negative errno.
 */
#ifndef PW_RUNTIME_NET_TRANSPORT_H
#define PW_RUNTIME_NET_TRANSPORT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

/* Largest datagram a transport carries (the wire's are smaller). */
#define PW_TRANSPORT_MAX_DGRAM	2048

/**
 * struct pw_dgram - one received datagram
 * @from: its source.
 * @data: its bytes, owned by the transport: valid until the next
 *	recv_burst(), wait() or close().
 * @len: bytes at @data.
 */
struct pw_dgram {
	struct sockaddr_in from;
	const uint8_t *data;
	size_t len;
};

/**
 * struct pw_transport_stats - counters
 * @tx_packets: datagrams sent.
 * @tx_bytes: their bytes.
 * @tx_errors: sends that failed after being queued.
 * @tx_waits: sends that waited for a free send buffer.
 * @rx_packets: datagrams received and handed over.
 * @rx_bytes: their bytes.
 * @rx_errors: receives that failed.
 * @rx_truncated: datagrams dropped as larger than PW_TRANSPORT_MAX_DGRAM.
 */
struct pw_transport_stats {
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t tx_errors;
	uint64_t tx_waits;
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t rx_errors;
	uint64_t rx_truncated;
};

struct pw_transport;

/**
 * struct pw_transport_ops - what a transport implements
 * @name: "udp", "dpdk".
 * @send: queue @len bytes to @to; the transport copies them. -EMSGSIZE
 *	past PW_TRANSPORT_MAX_DGRAM.
 * @recv_burst: up to @max datagrams that arrived, without blocking:
 *	their count.
 * @wait: block until a datagram may be ready or @timeout_ns passed (it
 *	may return early): 1 if one is ready, else 0.
 * @poll_fd: a descriptor that polls readable when @recv_burst may have
 *	work, or -ENOTSUP.
 * @local_addr: the bound address (the port an ephemeral bind chose).
 * @close: stop and free everything.
 */
struct pw_transport_ops {
	const char *name;
	int (*send)(struct pw_transport *t, const struct sockaddr_in *to,
		    const void *buf, size_t len);
	int (*recv_burst)(struct pw_transport *t, struct pw_dgram *dg,
			  unsigned int max);
	int (*wait)(struct pw_transport *t, uint64_t timeout_ns);
	int (*poll_fd)(struct pw_transport *t);
	int (*local_addr)(struct pw_transport *t, struct sockaddr_in *addr);
	void (*close)(struct pw_transport *t);
};

/* The part every transport starts with. */
struct pw_transport {
	const struct pw_transport_ops *ops;
	struct pw_transport_stats stats;
};

static inline int pw_transport_send(struct pw_transport *t,
				    const struct sockaddr_in *to,
				    const void *buf, size_t len)
{
	return t->ops->send(t, to, buf, len);
}

static inline int pw_transport_recv_burst(struct pw_transport *t,
					  struct pw_dgram *dg,
					  unsigned int max)
{
	return t->ops->recv_burst(t, dg, max);
}

static inline int pw_transport_wait(struct pw_transport *t,
				    uint64_t timeout_ns)
{
	return t->ops->wait(t, timeout_ns);
}

static inline int pw_transport_poll_fd(struct pw_transport *t)
{
	return t->ops->poll_fd(t);
}

static inline int pw_transport_local_addr(struct pw_transport *t,
					  struct sockaddr_in *addr)
{
	return t->ops->local_addr(t, addr);
}

static inline void pw_transport_close(struct pw_transport *t)
{
	if (t)
		t->ops->close(t);
}

/*
 * Kernel UDP driven by io_uring, bound to @bind (port 0: an ephemeral
 * one). -errno from socket(), bind() or io_uring setup.
 */
int pw_udp_open(struct pw_transport **tp, const struct sockaddr_in *bind);

/*
 * In-process (loop.c): an endpoint at @bind (port 0: one nobody in the
 * process holds) that exchanges datagrams with the process's other loop
 * endpoints through memory. -EADDRINUSE if the address is taken.
 */
int pw_loop_open(struct pw_transport **tp, const struct sockaddr_in *bind);

#endif /* PW_RUNTIME_NET_TRANSPORT_H */
