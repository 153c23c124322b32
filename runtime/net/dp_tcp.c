// SPDX-License-Identifier: GPL-2.0
/*
 * dp_tcp.c - the data plane over TCP (dp.h), for hosts without RDMA.
 *
 * One stream per connection carries messages of a fixed header
 * (TCP_HDR_SIZE bytes, little-endian) and, for a write, its payload:
 *
 *   0 magic "PWDP"  4 type  6 version  8 cookie  12 key
 *   16 addr  24 len  32 status  36 zero
 *
 * WRITE carries addr (the destination's own address, as in the peer's
 * descriptor, plus the offset), key and len, then len payload bytes,
 * which the receiver reads straight into the registered region once key
 * and bounds check out; a refused write's payload is read and dropped so
 * that the stream goes on. Every WRITE is answered by an ACK with its
 * cookie and status, in order: the writer's WRITE_DONE means the bytes
 * are in the peer's memory (or why not). Anything else (bad magic,
 * version, type, a length past PW_DP_MAX_WRITE, an ACK for nothing) ends
 * the connection: a peer is never trusted.
 *
 * Everything is non-blocking and moves on in pw_dp_poll(): a connection
 * comes up (its socket polls writable) or fails there, sends go out
 * from the source region itself as far as the socket takes them; the
 * receiver stops reading while ACKs it owes pile up (TCP_ACK_MAX), which
 * pushes back on a writer that does not read.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dp_impl.h"

#define TCP_MAGIC	0x50445750u	/* "PWDP" as little-endian bytes */
#define TCP_VERSION	1
#define TCP_HDR_SIZE	40
#define TCP_ACK_MAX	64
#define TCP_SCRATCH	(64 * 1024)
#define TCP_BACKLOG	64

enum { TCP_WRITE = 1, TCP_ACK = 2 };

struct tcp_hdr {
	uint16_t type;
	uint16_t version;
	uint32_t cookie;
	uint32_t key;
	uint64_t addr;
	uint64_t len;
	int32_t status;
};

/* One message to send: header, then (for WRITE) payload from a region. */
struct tcp_tx {
	uint8_t hdr[TCP_HDR_SIZE];
	const uint8_t *payload;
	uint64_t len;
	bool is_ack;
};

struct tcp_inflight {
	uint32_t cookie;
	uint64_t len;
};

struct tcp_conn {
	struct pw_dp_conn c;
	int fd;
	unsigned int slot;
	bool dead;
	bool connecting;		/* ours, not up yet */
	uint64_t deadline_ms;		/* when connecting ends in -ETIMEDOUT */
	bool want_out;			/* EPOLLOUT armed */
	/* sending: FIFO of messages, the head partly sent */
	struct tcp_tx *tx;
	unsigned int tx_cap;
	unsigned int tx_head;
	unsigned int tx_len;
	uint64_t tx_sent;		/* bytes of the head message */
	unsigned int acks_owed;		/* ACKs in tx */
	/* our writes not yet acknowledged, in order */
	struct tcp_inflight *inflight;
	unsigned int if_head;
	unsigned int if_len;
	/* receiving: a header, then maybe a payload */
	uint8_t rx_hdr[TCP_HDR_SIZE];
	unsigned int rx_hdr_got;
	bool rx_payload;
	struct tcp_hdr rx;
	uint8_t *rx_dst;		/* NULL: drop the payload */
	struct pw_dp_region *rx_region;
	uint64_t rx_got;
	int rx_status;
};

struct tcp_dp {
	struct pw_dp dp;
	int listen_fd;
	int epfd;
	struct tcp_conn **conns;	/* max_conns slots */
	uint8_t *scratch;		/* dropped payloads land here */
};

static struct tcp_dp *to_tcp(const struct pw_dp *dp)
{
	return (struct tcp_dp *)dp;
}

static struct tcp_conn *to_conn(const struct pw_dp_conn *c)
{
	return (struct tcp_conn *)c;
}

static void hdr_encode(uint8_t *p, const struct tcp_hdr *h)
{
	dp_put_le(p, TCP_MAGIC, 4);
	dp_put_le(p + 4, h->type, 2);
	dp_put_le(p + 6, TCP_VERSION, 2);
	dp_put_le(p + 8, h->cookie, 4);
	dp_put_le(p + 12, h->key, 4);
	dp_put_le(p + 16, h->addr, 8);
	dp_put_le(p + 24, h->len, 8);
	dp_put_le(p + 32, (uint32_t)h->status, 4);
	dp_put_le(p + 36, 0, 4);
}

/* 0, or -EPROTO for anything this version does not send. */
static int hdr_decode(const uint8_t *p, struct tcp_hdr *h)
{
	if (dp_get_le(p, 4) != TCP_MAGIC || dp_get_le(p + 6, 2) != TCP_VERSION ||
	    dp_get_le(p + 36, 4))
		return -EPROTO;
	h->type = dp_get_le(p + 4, 2);
	h->version = TCP_VERSION;
	h->cookie = dp_get_le(p + 8, 4);
	h->key = dp_get_le(p + 12, 4);
	h->addr = dp_get_le(p + 16, 8);
	h->len = dp_get_le(p + 24, 8);
	h->status = (int32_t)dp_get_le(p + 32, 4);
	if (h->type != TCP_WRITE && h->type != TCP_ACK)
		return -EPROTO;
	if (h->len > PW_DP_MAX_WRITE)
		return -EPROTO;
	if (h->type == TCP_WRITE && h->status)
		return -EPROTO;
	if (h->type == TCP_ACK && (h->status > 0 || h->status < -4095))
		return -EPROTO;
	return 0;
}

static void epoll_want_out(struct tcp_conn *tc, bool out)
{
	struct epoll_event ee = {
		.events = EPOLLIN | (out ? EPOLLOUT : 0),
		.data.u32 = tc->slot + 1,
	};

	if (tc->want_out == out || tc->dead)
		return;
	tc->want_out = out;
	epoll_ctl(to_tcp(tc->c.dp)->epfd, EPOLL_CTL_MOD, tc->fd, &ee);
}

/* The connection is over: report its writes in flight, then its end. */
static void conn_fail(struct tcp_conn *tc, int status)
{
	struct pw_dp *dp = tc->c.dp;
	struct pw_dp_event ev = { .conn = &tc->c };

	if (tc->dead)
		return;
	epoll_ctl(to_tcp(dp)->epfd, EPOLL_CTL_DEL, tc->fd, NULL);
	close(tc->fd);
	tc->fd = -1;
	tc->dead = true;
	ev.type = PW_DP_EV_WRITE_DONE;
	ev.status = -ECONNRESET;
	while (tc->if_len) {
		ev.cookie = tc->inflight[tc->if_head].cookie;
		ev.len = tc->inflight[tc->if_head].len;
		dp_queue(dp, &ev);
		tc->if_head = (tc->if_head + 1) % dp->opts.depth;
		tc->if_len--;
	}
	tc->tx_len = 0;
	tc->acks_owed = 0;
	ev.type = PW_DP_EV_CLOSED;
	ev.status = status;
	ev.cookie = 0;
	ev.len = 0;
	dp_queue(dp, &ev);
}

static void tx_push(struct tcp_conn *tc, const struct tcp_hdr *h,
		    const uint8_t *payload, uint64_t len)
{
	struct tcp_tx *t = &tc->tx[(tc->tx_head + tc->tx_len++) % tc->tx_cap];

	hdr_encode(t->hdr, h);
	t->payload = payload;
	t->len = len;
	t->is_ack = h->type == TCP_ACK;
	if (t->is_ack)
		tc->acks_owed++;
}

/* Send as much as the socket takes. */
static void tx_flush(struct tcp_conn *tc)
{
	while (!tc->dead && tc->tx_len) {
		struct tcp_tx *t = &tc->tx[tc->tx_head];
		uint64_t total = TCP_HDR_SIZE + t->len;
		struct iovec iov[2];
		struct msghdr msg = { .msg_iov = iov };
		ssize_t n;

		if (tc->tx_sent < TCP_HDR_SIZE) {
			iov[0].iov_base = t->hdr + tc->tx_sent;
			iov[0].iov_len = TCP_HDR_SIZE - tc->tx_sent;
			iov[1].iov_base = (void *)t->payload;
			iov[1].iov_len = t->len;
			msg.msg_iovlen = t->len ? 2 : 1;
		} else {
			iov[0].iov_base = (void *)(t->payload + tc->tx_sent -
						   TCP_HDR_SIZE);
			iov[0].iov_len = total - tc->tx_sent;
			msg.msg_iovlen = 1;
		}
		n = sendmsg(tc->fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == EINTR)
				continue;
			conn_fail(tc, -ECONNRESET);
			return;
		}
		tc->tx_sent += n;
		if (tc->tx_sent < total)
			continue;
		if (t->is_ack)
			tc->acks_owed--;
		tc->tx_head = (tc->tx_head + 1) % tc->tx_cap;
		tc->tx_len--;
		tc->tx_sent = 0;
	}
	epoll_want_out(tc, tc->tx_len > 0);
}

static void proto_error(struct tcp_conn *tc)
{
	tc->c.dp->stats.rx_bad_proto++;
	conn_fail(tc, -EPROTO);
}

/* A peer's ACK for our oldest write in flight. */
static void rx_ack(struct tcp_conn *tc)
{
	struct pw_dp *dp = tc->c.dp;
	struct tcp_inflight *w = &tc->inflight[tc->if_head];
	struct pw_dp_event ev = {
		.type = PW_DP_EV_WRITE_DONE,
		.conn = &tc->c,
	};

	if (!tc->if_len || w->cookie != tc->rx.cookie ||
	    w->len != tc->rx.len) {
		proto_error(tc);
		return;
	}
	ev.status = tc->rx.status;
	ev.cookie = w->cookie;
	ev.len = w->len;
	tc->if_head = (tc->if_head + 1) % dp->opts.depth;
	tc->if_len--;
	dp_queue(dp, &ev);
}

/* A peer's WRITE header: where its payload goes, if anywhere. */
static void rx_write_begin(struct tcp_conn *tc)
{
	struct pw_dp *dp = tc->c.dp;
	struct pw_dp_region *r = dp_region_by_key(dp, tc->rx.key);
	uint64_t base;

	tc->rx_dst = NULL;
	tc->rx_region = NULL;
	tc->rx_status = 0;
	if (!r) {
		dp->stats.rx_bad_key++;
		tc->rx_status = -EACCES;
		return;
	}
	base = (uintptr_t)r->addr;
	if (tc->rx.addr < base || tc->rx.addr - base > r->len ||
	    tc->rx.len > r->len - (tc->rx.addr - base)) {
		dp->stats.rx_bad_bounds++;
		tc->rx_status = -ERANGE;
		return;
	}
	tc->rx_region = r;
	tc->rx_dst = r->addr + (tc->rx.addr - base);
}

static void rx_write_end(struct tcp_conn *tc)
{
	struct tcp_hdr ack = {
		.type = TCP_ACK,
		.cookie = tc->rx.cookie,
		.len = tc->rx.len,
		.status = tc->rx_status,
	};
	struct pw_dp_event ev = {
		.type = PW_DP_EV_LANDED,
		.cookie = tc->rx.cookie,
		.len = tc->rx.len,
		.conn = &tc->c,
	};

	if (!tc->rx_status)
		dp_queue(tc->c.dp, &ev);
	tx_push(tc, &ack, NULL, 0);
	tc->rx_payload = false;
	tc->rx_region = NULL;
	tc->rx_dst = NULL;
}

static void rx_header_done(struct tcp_conn *tc)
{
	tc->rx_hdr_got = 0;
	if (hdr_decode(tc->rx_hdr, &tc->rx)) {
		proto_error(tc);
		return;
	}
	if (tc->rx.type == TCP_ACK) {
		rx_ack(tc);
		return;
	}
	rx_write_begin(tc);
	tc->rx_payload = true;
	tc->rx_got = 0;
	if (!tc->rx.len)
		rx_write_end(tc);
}

/* Read what is there, while the queue and the ACK backlog have room. */
static void rx_progress(struct tcp_conn *tc)
{
	struct tcp_dp *t = to_tcp(tc->c.dp);

	while (!tc->dead && dp_queue_has_spare(&t->dp) &&
	       tc->acks_owed < TCP_ACK_MAX) {
		uint8_t *buf;
		size_t want;
		ssize_t n;

		if (!tc->rx_payload) {
			buf = tc->rx_hdr + tc->rx_hdr_got;
			want = TCP_HDR_SIZE - tc->rx_hdr_got;
		} else if (tc->rx_dst) {
			buf = tc->rx_dst + tc->rx_got;
			want = tc->rx.len - tc->rx_got;
		} else {
			buf = t->scratch;
			want = tc->rx.len - tc->rx_got;
			if (want > TCP_SCRATCH)
				want = TCP_SCRATCH;
		}
		n = recv(tc->fd, buf, want, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			conn_fail(tc, -ECONNRESET);
			break;
		}
		if (!tc->rx_payload) {
			tc->rx_hdr_got += n;
			if (tc->rx_hdr_got == TCP_HDR_SIZE)
				rx_header_done(tc);
		} else {
			tc->rx_got += n;
			if (tc->rx_got == tc->rx.len)
				rx_write_end(tc);
		}
	}
}

/* Track @fd; a @connecting one is watched for writable (connected). */
static int conn_add(struct tcp_dp *t, int fd, bool connecting,
		    struct tcp_conn **out)
{
	struct pw_dp *dp = &t->dp;
	struct epoll_event ee = {
		.events = connecting ? EPOLLIN | EPOLLOUT : EPOLLIN,
	};
	struct tcp_conn *tc;
	unsigned int slot;
	int one = 1;

	for (slot = 0; slot < dp->opts.max_conns; slot++)
		if (!t->conns[slot])
			break;
	if (slot == dp->opts.max_conns)
		return -EMFILE;
	tc = calloc(1, sizeof(*tc));
	if (!tc)
		return -ENOMEM;
	tc->tx_cap = dp->opts.depth + TCP_ACK_MAX;
	tc->tx = calloc(tc->tx_cap, sizeof(*tc->tx));
	tc->inflight = calloc(dp->opts.depth, sizeof(*tc->inflight));
	if (!tc->tx || !tc->inflight) {
		free(tc->tx);
		free(tc->inflight);
		free(tc);
		return -ENOMEM;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	ee.data.u32 = slot + 1;
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ee) < 0) {
		int ret = -errno;

		free(tc->tx);
		free(tc->inflight);
		free(tc);
		return ret;
	}
	tc->c.dp = dp;
	tc->fd = fd;
	tc->slot = slot;
	tc->connecting = connecting;
	tc->want_out = connecting;
	tc->deadline_ms = dp_now_ms() + dp->opts.connect_timeout_ms;
	t->conns[slot] = tc;
	*out = tc;
	return 0;
}

static void tcp_conn_close(struct pw_dp_conn *c)
{
	struct tcp_conn *tc = to_conn(c);
	struct tcp_dp *t = to_tcp(c->dp);

	if (!tc->dead) {
		epoll_ctl(t->epfd, EPOLL_CTL_DEL, tc->fd, NULL);
		close(tc->fd);
	}
	dp_unqueue_conn(c->dp, c);
	t->conns[tc->slot] = NULL;
	free(tc->tx);
	free(tc->inflight);
	free(tc);
}

static void queue_connected(struct tcp_conn *tc)
{
	struct pw_dp_event ev = { .type = PW_DP_EV_CONNECTED, .conn = &tc->c };

	tc->connecting = false;
	dp_queue(tc->c.dp, &ev);
}

/* A connection of ours not up yet: up, failed, timed out, or still not. */
static void connect_progress(struct tcp_conn *tc, uint64_t now)
{
	struct pollfd pfd = { .fd = tc->fd, .events = POLLOUT };
	socklen_t len = sizeof(int);
	int err = 0;

	if (poll(&pfd, 1, 0) > 0) {
		if (getsockopt(tc->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			err = errno;
		if (err) {
			conn_fail(tc, -err);
			return;
		}
		queue_connected(tc);
		epoll_want_out(tc, tc->tx_len > 0);
		return;
	}
	if (now >= tc->deadline_ms)
		conn_fail(tc, -ETIMEDOUT);
}

static int tcp_connect(struct pw_dp *dp, const struct sockaddr_in *peer,
		       struct pw_dp_conn **c)
{
	struct sockaddr_in src = dp->opts.bind;
	struct tcp_conn *tc;
	bool in_progress = false;
	int fd, ret;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* Leave from the data plane's own interface. */
	src.sin_port = 0;
	if (bind(fd, (struct sockaddr *)&src, sizeof(src)) < 0) {
		ret = -errno;
		goto err;
	}
	if (connect(fd, (const struct sockaddr *)peer, sizeof(*peer)) < 0) {
		ret = -errno;
		if (ret != -EINPROGRESS)
			goto err;
		in_progress = true;
	}
	ret = conn_add(to_tcp(dp), fd, in_progress, &tc);
	if (ret)
		goto err;
	if (!in_progress)
		queue_connected(tc);
	*c = &tc->c;
	return 0;
err:
	close(fd);
	return ret;
}

static void tcp_accept(struct tcp_dp *t)
{
	struct pw_dp_event ev = { .type = PW_DP_EV_ACCEPTED };
	struct tcp_conn *tc;
	int fd;

	while (dp_queue_has_spare(&t->dp)) {
		fd = accept4(t->listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		/* No room: the peer sees its connection reset. */
		if (conn_add(t, fd, false, &tc)) {
			close(fd);
			continue;
		}
		ev.conn = &tc->c;
		dp_queue(&t->dp, &ev);
	}
}

static int tcp_write(struct pw_dp_conn *c, const struct pw_dp_region *src,
		     uint64_t off, const struct pw_dp_desc *dst,
		     uint64_t dst_off, uint64_t len, uint32_t cookie)
{
	struct tcp_conn *tc = to_conn(c);
	unsigned int depth = c->dp->opts.depth;
	struct tcp_hdr h = {
		.type = TCP_WRITE,
		.cookie = cookie,
		.key = dst->key,
		.addr = dst->addr + dst_off,
		.len = len,
	};
	struct tcp_inflight *w;

	if (tc->dead)
		return -ENOTCONN;
	if (tc->connecting || tc->if_len == depth)
		return -EAGAIN;
	w = &tc->inflight[(tc->if_head + tc->if_len++) % depth];
	w->cookie = cookie;
	w->len = len;
	tx_push(tc, &h, src->addr + off, len);
	tx_flush(tc);
	return 0;
}

static int tcp_poll(struct pw_dp *dp, struct pw_dp_event *ev,
		    unsigned int max)
{
	struct tcp_dp *t = to_tcp(dp);
	uint64_t now = dp_now_ms();
	unsigned int i;

	(void)ev;
	(void)max;
	tcp_accept(t);
	for (i = 0; i < dp->opts.max_conns; i++) {
		struct tcp_conn *tc = t->conns[i];

		if (tc && !tc->dead && tc->connecting)
			connect_progress(tc, now);
		if (!tc || tc->dead || tc->connecting)
			continue;
		rx_progress(tc);
		tx_flush(tc);
	}
	return 0;
}

static int tcp_reg(struct pw_dp *dp, struct pw_dp_region *r)
{
	uint32_t key;

	/* A random key: a peer cannot guess one it was not given. */
	do {
		if (getrandom(&key, sizeof(key), 0) != sizeof(key))
			return -EIO;
	} while (!key || dp_region_by_key(dp, key));
	r->key = key;
	return 0;
}

static void tcp_dereg(struct pw_dp_region *r)
{
	struct tcp_dp *t = to_tcp(r->dp);
	unsigned int i;

	/* A payload on its way into @r is dropped from now on. */
	for (i = 0; i < r->dp->opts.max_conns; i++) {
		struct tcp_conn *tc = t->conns[i];

		if (tc && tc->rx_payload && tc->rx_region == r) {
			tc->rx_region = NULL;
			tc->rx_dst = NULL;
			tc->rx_status = -EACCES;
		}
	}
}

static int tcp_fd(const struct pw_dp *dp)
{
	return to_tcp(dp)->epfd;
}

static int tcp_local(const struct pw_dp *dp, struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);

	if (getsockname(to_tcp(dp)->listen_fd, (struct sockaddr *)addr,
			&len) < 0)
		return -errno;
	return 0;
}

static void tcp_close(struct pw_dp *dp)
{
	struct tcp_dp *t = to_tcp(dp);
	unsigned int i;

	for (i = 0; t->conns && i < dp->opts.max_conns; i++)
		if (t->conns[i])
			tcp_conn_close(&t->conns[i]->c);
	if (t->listen_fd >= 0)
		close(t->listen_fd);
	if (t->epfd >= 0)
		close(t->epfd);
	free(t->conns);
	free(t->scratch);
	dp_fini(dp);
	free(t);
}

static const struct pw_dp_ops tcp_ops = {
	.kind = "tcp",
	.reg = tcp_reg,
	.dereg = tcp_dereg,
	.connect = tcp_connect,
	.conn_close = tcp_conn_close,
	.write = tcp_write,
	.poll = tcp_poll,
	.fd = tcp_fd,
	.local = tcp_local,
	.close = tcp_close,
};

int dp_tcp_open(const struct pw_dp_opts *o, struct pw_dp **dpp)
{
	struct epoll_event ee = { .events = EPOLLIN, .data.u32 = 0 };
	struct tcp_dp *t = calloc(1, sizeof(*t));
	int one = 1, ret;

	if (!t)
		return -ENOMEM;
	t->listen_fd = -1;
	t->epfd = -1;
	ret = dp_init(&t->dp, &tcp_ops, o);
	if (ret)
		goto err;
	ret = -ENOMEM;
	t->conns = calloc(t->dp.opts.max_conns, sizeof(*t->conns));
	t->scratch = malloc(TCP_SCRATCH);
	if (!t->conns || !t->scratch)
		goto err;
	t->epfd = epoll_create1(EPOLL_CLOEXEC);
	t->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK |
			      SOCK_CLOEXEC, 0);
	if (t->epfd < 0 || t->listen_fd < 0)
		goto err_errno;
	setsockopt(t->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(t->listen_fd, (const struct sockaddr *)&o->bind,
		 sizeof(o->bind)) < 0 ||
	    listen(t->listen_fd, TCP_BACKLOG) < 0 ||
	    epoll_ctl(t->epfd, EPOLL_CTL_ADD, t->listen_fd, &ee) < 0)
		goto err_errno;
	*dpp = &t->dp;
	return 0;

err_errno:
	ret = -errno;
err:
	tcp_close(&t->dp);
	return ret;
}
