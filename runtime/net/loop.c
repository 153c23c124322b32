// SPDX-License-Identifier: GPL-2.0
/*
 * loop.c - the in-process transport (transport.h): endpoints of one
 * process exchange datagrams through memory, without sockets, so that
 * a client with no address runs the same controller, worker and client
 * code as pathwaysd's hosts (docs/runtime.md), each role on its own
 * thread.
 *
 * Endpoints are found by the address they were opened at, in one table
 * per process. A send copies the datagram into the destination's queue
 * and signals its eventfd; a datagram to an address nobody holds is
 * dropped, as UDP would. Delivery is in order and lossless, but the
 * reliable channel above does not rely on that.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "transport.h"

/* Datagrams one endpoint may hold unread; more are dropped and counted. */
#define LOOP_QUEUE_MAX	65536
#define LOOP_BURST	64

struct loop_dgram {
	struct loop_dgram *next;
	struct sockaddr_in from;
	size_t len;
	uint8_t data[];
};

struct loop {
	struct pw_transport t;
	struct sockaddr_in addr;
	int efd;
	struct loop *next;		/* in the process's table */
	/* Guarded by loop_lock: */
	struct loop_dgram *head;
	struct loop_dgram *tail;
	unsigned int queued;
	/* Owner thread only: datagrams lent by the last recv_burst(). */
	struct loop_dgram *lent[LOOP_BURST];
	unsigned int nlent;
};

static pthread_mutex_t loop_lock = PTHREAD_MUTEX_INITIALIZER;
static struct loop *loop_endpoints;
static uint16_t loop_next_port = 1;

static struct loop *to_loop(struct pw_transport *t)
{
	return (struct loop *)t;
}

static bool same_addr(const struct sockaddr_in *a, const struct sockaddr_in *b)
{
	return a->sin_addr.s_addr == b->sin_addr.s_addr &&
	       a->sin_port == b->sin_port;
}

/* Under loop_lock. */
static struct loop *find(const struct sockaddr_in *addr)
{
	struct loop *l;

	for (l = loop_endpoints; l; l = l->next)
		if (same_addr(&l->addr, addr))
			return l;
	return NULL;
}

static int loop_send(struct pw_transport *t, const struct sockaddr_in *to,
		     const void *buf, size_t len)
{
	struct loop *l = to_loop(t), *dst;
	struct loop_dgram *d;
	uint64_t one = 1;

	if (len > PW_TRANSPORT_MAX_DGRAM)
		return -EMSGSIZE;
	d = malloc(sizeof(*d) + len);
	if (!d)
		return -ENOMEM;
	d->next = NULL;
	d->from = l->addr;
	d->len = len;
	memcpy(d->data, buf, len);
	pthread_mutex_lock(&loop_lock);
	dst = find(to);
	if (!dst || dst->queued >= LOOP_QUEUE_MAX) {
		pthread_mutex_unlock(&loop_lock);
		free(d);
		t->stats.tx_errors++;
		return 0;	/* lost, as a datagram may be */
	}
	if (dst->tail)
		dst->tail->next = d;
	else
		dst->head = d;
	dst->tail = d;
	dst->queued++;
	/* Under the lock: the endpoint cannot close meanwhile. */
	if (write(dst->efd, &one, sizeof(one)) < 0) {
		/* The counter is far from overflow; nothing to do. */
	}
	pthread_mutex_unlock(&loop_lock);
	t->stats.tx_packets++;
	t->stats.tx_bytes += len;
	return 0;
}

static void free_lent(struct loop *l)
{
	while (l->nlent)
		free(l->lent[--l->nlent]);
}

static int loop_recv_burst(struct pw_transport *t, struct pw_dgram *dg,
			   unsigned int max)
{
	struct loop *l = to_loop(t);
	unsigned int n = 0;
	uint64_t val;

	free_lent(l);
	if (max > LOOP_BURST)
		max = LOOP_BURST;
	pthread_mutex_lock(&loop_lock);
	while (n < max && l->head) {
		struct loop_dgram *d = l->head;

		l->head = d->next;
		if (!l->head)
			l->tail = NULL;
		l->queued--;
		l->lent[l->nlent++] = d;
		dg[n].from = d->from;
		dg[n].data = d->data;
		dg[n].len = d->len;
		n++;
	}
	/* Reset the eventfd while the queue is known: it polls as queued. */
	if (!l->head && read(l->efd, &val, sizeof(val)) < 0) {
		/* EAGAIN: it was not signalled. */
	}
	pthread_mutex_unlock(&loop_lock);
	t->stats.rx_packets += n;
	while (n-- > 0)
		t->stats.rx_bytes += dg[n].len;
	return (int)(l->nlent);
}

static int loop_wait(struct pw_transport *t, uint64_t timeout_ns)
{
	struct loop *l = to_loop(t);
	struct pollfd pfd = { .fd = l->efd, .events = POLLIN };
	struct timespec ts = {
		.tv_sec = (time_t)(timeout_ns / 1000000000ull),
		.tv_nsec = (long)(timeout_ns % 1000000000ull),
	};
	int ret;

	ret = ppoll(&pfd, 1, &ts, NULL);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	return ret > 0;
}

static int loop_poll_fd(struct pw_transport *t)
{
	return to_loop(t)->efd;
}

static int loop_local_addr(struct pw_transport *t, struct sockaddr_in *addr)
{
	*addr = to_loop(t)->addr;
	return 0;
}

static void loop_close(struct pw_transport *t)
{
	struct loop *l = to_loop(t), **pp;
	struct loop_dgram *d;

	pthread_mutex_lock(&loop_lock);
	for (pp = &loop_endpoints; *pp; pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			break;
		}
	}
	pthread_mutex_unlock(&loop_lock);
	while ((d = l->head)) {
		l->head = d->next;
		free(d);
	}
	free_lent(l);
	close(l->efd);
	free(l);
}

static const struct pw_transport_ops loop_ops = {
	.name = "loop",
	.send = loop_send,
	.recv_burst = loop_recv_burst,
	.wait = loop_wait,
	.poll_fd = loop_poll_fd,
	.local_addr = loop_local_addr,
	.close = loop_close,
};

int pw_loop_open(struct pw_transport **tp, const struct sockaddr_in *bind_to)
{
	struct loop *l = calloc(1, sizeof(*l));
	int ret = 0;

	if (!l)
		return -ENOMEM;
	l->t.ops = &loop_ops;
	l->addr = *bind_to;
	l->addr.sin_family = AF_INET;
	l->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (l->efd < 0) {
		ret = -errno;
		free(l);
		return ret;
	}
	pthread_mutex_lock(&loop_lock);
	if (!l->addr.sin_port) {
		/* An ephemeral port nobody in the process holds. */
		do {
			l->addr.sin_port = htons(loop_next_port++);
			if (!loop_next_port)
				loop_next_port = 1;
		} while (find(&l->addr));
	} else if (find(&l->addr)) {
		ret = -EADDRINUSE;
	}
	if (!ret) {
		l->next = loop_endpoints;
		loop_endpoints = l;
	}
	pthread_mutex_unlock(&loop_lock);
	if (ret) {
		close(l->efd);
		free(l);
		return ret;
	}
	*tp = &l->t;
	return 0;
}
