// SPDX-License-Identifier: GPL-2.0
/*
 * udp.c - the kernel UDP transport (transport.h) driven by io_uring.
 *
 * UDP_RX_SLOTS recvmsg requests stay armed on the socket; a completed one
 * joins the ready queue, is lent to the caller by recv_burst() and armed
 * again at the next call. Sends copy into one of UDP_TX_SLOTS buffers and
 * go out as sendmsg requests at once; their completions free the buffer.
 * Every request is submitted before a function returns, so the ring's fd
 * polls readable exactly when completions wait.
 */
#include <errno.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "transport.h"

#define UDP_RX_SLOTS	16
#define UDP_TX_SLOTS	64
#define UDP_RING_SIZE	128
#define UDP_RCVBUF	(1 << 20)

_Static_assert(UDP_RX_SLOTS + UDP_TX_SLOTS <= UDP_RING_SIZE,
	       "every request fits the ring");

/* user_data: kind in the high half, slot in the low half. */
enum { UDP_RX = 1, UDP_TX = 2, UDP_CANCEL = 3 };

struct udp_rx {
	struct msghdr msg;
	struct iovec iov;
	struct sockaddr_in from;
	size_t len;
	uint8_t buf[PW_TRANSPORT_MAX_DGRAM];
};

struct udp_tx {
	struct msghdr msg;
	struct iovec iov;
	struct sockaddr_in to;
	uint8_t buf[PW_TRANSPORT_MAX_DGRAM];
};

struct udp {
	struct pw_transport t;
	int fd;
	struct io_uring ring;
	bool closing;
	unsigned int armed;		/* receives on the ring */
	struct udp_rx rx[UDP_RX_SLOTS];
	unsigned int ready[UDP_RX_SLOTS];	/* FIFO of completed slots */
	unsigned int ready_head;
	unsigned int nready;
	unsigned int lent[UDP_RX_SLOTS];	/* out with the caller */
	unsigned int nlent;
	struct udp_tx tx[UDP_TX_SLOTS];
	unsigned int tx_free[UDP_TX_SLOTS];	/* stack of idle slots */
	unsigned int ntx_free;
};

static struct udp *to_udp(struct pw_transport *t)
{
	return (struct udp *)t;
}

static uint64_t tag(unsigned int kind, unsigned int slot)
{
	return (uint64_t)kind << 32 | slot;
}

/* An SQE; the ring holds every slot's request, so this cannot fail. */
static struct io_uring_sqe *get_sqe(struct udp *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe) {
		io_uring_submit(&u->ring);
		sqe = io_uring_get_sqe(&u->ring);
	}
	return sqe;
}

static void arm_rx(struct udp *u, unsigned int i)
{
	struct udp_rx *r = &u->rx[i];
	struct io_uring_sqe *sqe = get_sqe(u);

	memset(&r->msg, 0, sizeof(r->msg));
	r->iov.iov_base = r->buf;
	r->iov.iov_len = sizeof(r->buf);
	r->msg.msg_name = &r->from;
	r->msg.msg_namelen = sizeof(r->from);
	r->msg.msg_iov = &r->iov;
	r->msg.msg_iovlen = 1;
	io_uring_prep_recvmsg(sqe, u->fd, &r->msg, 0);
	io_uring_sqe_set_data64(sqe, tag(UDP_RX, i));
	u->armed++;
}

static void rx_done(struct udp *u, unsigned int i, int res)
{
	struct udp_rx *r = &u->rx[i];

	u->armed--;
	if (u->closing)
		return;
	if (res < 0) {
		u->t.stats.rx_errors++;
	} else if (r->msg.msg_flags & MSG_TRUNC) {
		u->t.stats.rx_truncated++;
	} else {
		r->len = res;
		u->ready[(u->ready_head + u->nready++) % UDP_RX_SLOTS] = i;
		return;
	}
	arm_rx(u, i);
}

static void tx_done(struct udp *u, unsigned int i, int res)
{
	if (res < 0) {
		u->t.stats.tx_errors++;
	} else {
		u->t.stats.tx_packets++;
		u->t.stats.tx_bytes += res;
	}
	u->tx_free[u->ntx_free++] = i;
}

/* Take every completion there is. */
static void reap(struct udp *u)
{
	struct io_uring_cqe *cqe;
	unsigned int head, n = 0;

	io_uring_for_each_cqe(&u->ring, head, cqe) {
		unsigned int kind = cqe->user_data >> 32;
		unsigned int slot = (uint32_t)cqe->user_data;

		if (kind == UDP_RX && slot < UDP_RX_SLOTS)
			rx_done(u, slot, cqe->res);
		else if (kind == UDP_TX && slot < UDP_TX_SLOTS)
			tx_done(u, slot, cqe->res);
		n++;
	}
	io_uring_cq_advance(&u->ring, n);
}

static int udp_send(struct pw_transport *t, const struct sockaddr_in *to,
		    const void *buf, size_t len)
{
	struct udp *u = to_udp(t);
	struct io_uring_sqe *sqe;
	struct udp_tx *s;
	unsigned int i;
	int ret;

	if (len > PW_TRANSPORT_MAX_DGRAM)
		return -EMSGSIZE;
	reap(u);
	if (!u->ntx_free)
		t->stats.tx_waits++;
	while (!u->ntx_free) {
		ret = io_uring_submit_and_wait(&u->ring, 1);
		if (ret < 0 && ret != -EINTR)
			return ret;
		reap(u);
	}
	i = u->tx_free[--u->ntx_free];
	s = &u->tx[i];
	memcpy(s->buf, buf, len);
	s->to = *to;
	memset(&s->msg, 0, sizeof(s->msg));
	s->iov.iov_base = s->buf;
	s->iov.iov_len = len;
	s->msg.msg_name = &s->to;
	s->msg.msg_namelen = sizeof(s->to);
	s->msg.msg_iov = &s->iov;
	s->msg.msg_iovlen = 1;
	sqe = get_sqe(u);
	io_uring_prep_sendmsg(sqe, u->fd, &s->msg, 0);
	io_uring_sqe_set_data64(sqe, tag(UDP_TX, i));
	ret = io_uring_submit(&u->ring);
	return ret < 0 ? ret : 0;
}

/*
 * What the caller had is done with: back on the socket. Before waiting
 * too, or a burst that completed every slot would leave none armed and
 * the wait would sleep through what arrives meanwhile.
 */
static void rearm_lent(struct udp *u)
{
	while (u->nlent)
		arm_rx(u, u->lent[--u->nlent]);
	io_uring_submit(&u->ring);
}

static int udp_recv_burst(struct pw_transport *t, struct pw_dgram *dg,
			  unsigned int max)
{
	struct udp *u = to_udp(t);
	unsigned int n = 0;

	rearm_lent(u);
	reap(u);
	while (n < max && u->nready) {
		unsigned int i = u->ready[u->ready_head];
		struct udp_rx *r = &u->rx[i];

		u->ready_head = (u->ready_head + 1) % UDP_RX_SLOTS;
		u->nready--;
		u->lent[u->nlent++] = i;
		dg[n].from = r->from;
		dg[n].data = r->buf;
		dg[n].len = r->len;
		t->stats.rx_packets++;
		t->stats.rx_bytes += r->len;
		n++;
	}
	/* Slots that failed were re-armed while reaping. */
	io_uring_submit(&u->ring);
	return n;
}

static int udp_wait(struct pw_transport *t, uint64_t timeout_ns)
{
	struct udp *u = to_udp(t);
	struct __kernel_timespec ts = {
		.tv_sec = timeout_ns / 1000000000,
		.tv_nsec = timeout_ns % 1000000000,
	};
	struct io_uring_cqe *cqe;
	int ret;

	rearm_lent(u);
	reap(u);
	if (!u->nready) {
		ret = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
		if (ret < 0 && ret != -ETIME && ret != -EINTR)
			return ret;
		reap(u);
		io_uring_submit(&u->ring);
	}
	return u->nready > 0;
}

static int udp_poll_fd(struct pw_transport *t)
{
	return to_udp(t)->ring.ring_fd;
}

static int udp_local_addr(struct pw_transport *t, struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);

	if (getsockname(to_udp(t)->fd, (struct sockaddr *)addr, &len) < 0)
		return -errno;
	return 0;
}

/*
 * Cancel the armed receives and wait for every request to finish: the
 * kernel must be done with the buffers before they are freed. Bounded:
 * a receive that ignores the cancel is woken by shutdown().
 */
static void udp_drain(struct udp *u)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 100000000 };
	struct io_uring_sqe *sqe = get_sqe(u);
	struct io_uring_cqe *cqe;
	unsigned int tries;

	u->closing = true;
	io_uring_prep_cancel_fd(sqe, u->fd, IORING_ASYNC_CANCEL_ALL);
	io_uring_sqe_set_data64(sqe, tag(UDP_CANCEL, 0));
	io_uring_submit(&u->ring);
	for (tries = 0; tries < 20; tries++) {
		reap(u);
		if (!u->armed && u->ntx_free == UDP_TX_SLOTS)
			return;
		if (tries == 5)
			shutdown(u->fd, SHUT_RDWR);
		io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
	}
}

static void udp_close(struct pw_transport *t)
{
	struct udp *u = to_udp(t);

	udp_drain(u);
	io_uring_queue_exit(&u->ring);
	close(u->fd);
	free(u);
}

static const struct pw_transport_ops udp_ops = {
	.name = "udp",
	.send = udp_send,
	.recv_burst = udp_recv_burst,
	.wait = udp_wait,
	.poll_fd = udp_poll_fd,
	.local_addr = udp_local_addr,
	.close = udp_close,
};

int pw_udp_open(struct pw_transport **tp, const struct sockaddr_in *bind_to)
{
	int rcvbuf = UDP_RCVBUF;
	struct udp *u;
	unsigned int i;
	int ret;

	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->t.ops = &udp_ops;
	/*
	 * Blocking: io_uring waits by polling; O_NONBLOCK would make it
	 * complete receives with -EAGAIN instead.
	 */
	u->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (u->fd < 0) {
		ret = -errno;
		goto err_free;
	}
	/* Bursts of control traffic should not overflow the socket. */
	setsockopt(u->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(u->fd, (const struct sockaddr *)bind_to,
		 sizeof(*bind_to)) < 0) {
		ret = -errno;
		goto err_close;
	}
	ret = io_uring_queue_init(UDP_RING_SIZE, &u->ring, 0);
	if (ret < 0)
		goto err_close;
	for (i = 0; i < UDP_TX_SLOTS; i++)
		u->tx_free[u->ntx_free++] = UDP_TX_SLOTS - 1 - i;
	for (i = 0; i < UDP_RX_SLOTS; i++)
		arm_rx(u, i);
	ret = io_uring_submit(&u->ring);
	if (ret < 0) {
		io_uring_queue_exit(&u->ring);
		goto err_close;
	}
	*tp = &u->t;
	return 0;

err_close:
	close(u->fd);
err_free:
	free(u);
	return ret;
}
