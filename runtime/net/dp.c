// SPDX-License-Identifier: GPL-2.0
/*
 * dp.c - the data plane's front (dp.h): choose rdma or tcp, check every
 * argument once for both, count, and hand out queued events first.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp_impl.h"

#define DP_DEFAULT_DEPTH	64
#define DP_DEFAULT_CONNS	16
#define DP_DEFAULT_TIMEOUT_MS	30000
#define DP_MAX_DEPTH		4096
#define DP_MAX_CONNS		1024

int dp_init(struct pw_dp *dp, const struct pw_dp_ops *ops,
	    const struct pw_dp_opts *o)
{
	dp->ops = ops;
	dp->opts = *o;
	if (!dp->opts.depth)
		dp->opts.depth = DP_DEFAULT_DEPTH;
	if (!dp->opts.max_conns)
		dp->opts.max_conns = DP_DEFAULT_CONNS;
	if (!dp->opts.connect_timeout_ms)
		dp->opts.connect_timeout_ms = DP_DEFAULT_TIMEOUT_MS;
	if (dp->opts.depth > DP_MAX_DEPTH || dp->opts.max_conns > DP_MAX_CONNS)
		return -EINVAL;
	dp->q_cap = DP_QUEUE_SPARE + 1 +
		    dp->opts.max_conns * (dp->opts.depth + 2);
	dp->q = calloc(dp->q_cap, sizeof(*dp->q));
	return dp->q ? 0 : -ENOMEM;
}

void dp_fini(struct pw_dp *dp)
{
	free(dp->q);
	dp->q = NULL;
}

void dp_queue(struct pw_dp *dp, const struct pw_dp_event *ev)
{
	if (dp->q_len == dp->q_cap) {
		/* The reservation makes this unreachable; never corrupt. */
		fprintf(stderr, "pw_dp: event queue overflow\n");
		abort();
	}
	dp->q[(dp->q_head + dp->q_len++) % dp->q_cap] = *ev;
}

static unsigned int dp_unqueue(struct pw_dp *dp, struct pw_dp_event *ev,
			       unsigned int max)
{
	unsigned int n = 0;

	while (n < max && dp->q_len) {
		ev[n++] = dp->q[dp->q_head];
		dp->q_head = (dp->q_head + 1) % dp->q_cap;
		dp->q_len--;
	}
	return n;
}

void dp_unqueue_conn(struct pw_dp *dp, const struct pw_dp_conn *conn)
{
	unsigned int i, kept = 0;

	for (i = 0; i < dp->q_len; i++) {
		struct pw_dp_event *ev = &dp->q[(dp->q_head + i) % dp->q_cap];

		if (ev->conn != conn)
			dp->q[(dp->q_head + kept++) % dp->q_cap] = *ev;
	}
	dp->q_len = kept;
}

struct pw_dp_region *dp_region_by_key(struct pw_dp *dp, uint32_t key)
{
	struct pw_dp_region *r;

	for (r = dp->regions; r; r = r->next)
		if (r->key == key)
			return r;
	return NULL;
}

int pw_dp_open(const struct pw_dp_opts *o, struct pw_dp **dpp)
{
	char why[160] = "";
	struct pw_dp *dp = NULL;
	int ret;

	*dpp = NULL;
	if (o->bind.sin_family != AF_INET)
		return -EAFNOSUPPORT;
	switch (o->mode) {
	case PW_DP_RDMA:
		ret = dp_rdma_open(o, &dp, why, sizeof(why));
		if (ret)
			return ret;
		snprintf(dp->note, sizeof(dp->note), "rdma: asked for");
		break;
	case PW_DP_AUTO:
		ret = dp_rdma_open(o, &dp, why, sizeof(why));
		if (!ret) {
			snprintf(dp->note, sizeof(dp->note),
				 "rdma: chosen automatically (%s)", why);
			break;
		}
		ret = dp_tcp_open(o, &dp);
		if (ret)
			return ret;
		snprintf(dp->note, sizeof(dp->note),
			 "tcp: chosen automatically, no rdma (%s)", why);
		break;
	case PW_DP_TCP:
		ret = dp_tcp_open(o, &dp);
		if (ret)
			return ret;
		snprintf(dp->note, sizeof(dp->note), "tcp: asked for");
		break;
	default:
		return -EINVAL;
	}
	*dpp = dp;
	return 0;
}

void pw_dp_close(struct pw_dp *dp)
{
	if (!dp)
		return;
	while (dp->regions)
		pw_dp_dereg(dp->regions);
	dp->ops->close(dp);
}

const char *pw_dp_kind(const struct pw_dp *dp)
{
	return dp->ops->kind;
}

const char *pw_dp_note(const struct pw_dp *dp)
{
	return dp->note;
}

int pw_dp_local(const struct pw_dp *dp, struct sockaddr_in *addr)
{
	return dp->ops->local(dp, addr);
}

void pw_dp_stats(const struct pw_dp *dp, struct pw_dp_stats *st)
{
	*st = dp->stats;
}

int pw_dp_reg(struct pw_dp *dp, void *addr, uint64_t len,
	      struct pw_dp_region **region)
{
	struct pw_dp_region *r;
	int ret;

	*region = NULL;
	if (!addr || !len || (uintptr_t)addr + len < (uintptr_t)addr)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->dp = dp;
	r->addr = addr;
	r->len = len;
	ret = dp->ops->reg(dp, r);
	if (ret) {
		free(r);
		return ret;
	}
	r->next = dp->regions;
	dp->regions = r;
	*region = r;
	return 0;
}

void pw_dp_dereg(struct pw_dp_region *r)
{
	struct pw_dp_region **pp;

	if (!r)
		return;
	for (pp = &r->dp->regions; *pp; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	}
	r->dp->ops->dereg(r);
	free(r);
}

void pw_dp_region_desc(const struct pw_dp_region *r, struct pw_dp_desc *d)
{
	d->addr = (uintptr_t)r->addr;
	d->len = r->len;
	d->key = r->key;
}

void pw_dp_desc_pack(const struct pw_dp_desc *d, uint8_t out[PW_DP_DESC_SIZE])
{
	dp_put_le(out, d->addr, 8);
	dp_put_le(out + 8, d->len, 8);
	dp_put_le(out + 16, d->key, 4);
	dp_put_le(out + 20, 0, 4);
}

int pw_dp_desc_unpack(const uint8_t in[PW_DP_DESC_SIZE],
		      struct pw_dp_desc *d)
{
	if (dp_get_le(in + 20, 4))
		return -EINVAL;
	d->addr = dp_get_le(in, 8);
	d->len = dp_get_le(in + 8, 8);
	d->key = dp_get_le(in + 16, 4);
	return 0;
}

int pw_dp_connect(struct pw_dp *dp, const struct sockaddr_in *peer,
		  struct pw_dp_conn **conn)
{
	int ret;

	*conn = NULL;
	if (peer->sin_family != AF_INET)
		return -EAFNOSUPPORT;
	ret = dp->ops->connect(dp, peer, conn);
	if (!ret)
		dp->open_conns++;
	return ret;
}

void pw_dp_conn_close(struct pw_dp_conn *conn)
{
	if (!conn)
		return;
	conn->dp->open_conns--;
	conn->dp->ops->conn_close(conn);
}

unsigned int pw_dp_open_conns(const struct pw_dp *dp)
{
	return dp->open_conns;
}

/* [off, off + len) inside [0, size), without overflow. */
static int inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

int pw_dp_write(struct pw_dp_conn *conn, const struct pw_dp_region *src,
		uint64_t off, const struct pw_dp_desc *dst, uint64_t dst_off,
		uint64_t len, uint32_t cookie)
{
	struct pw_dp *dp = conn->dp;
	int ret;

	if (len > PW_DP_MAX_WRITE || src->dp != dp)
		return -EINVAL;
	if (!inside(off, len, src->len) || !inside(dst_off, len, dst->len))
		return -ERANGE;
	ret = dp->ops->write(conn, src, off, dst, dst_off, len, cookie);
	if (ret)
		return ret;
	dp->stats.writes++;
	dp->stats.write_bytes += len;
	return 0;
}

static void count(struct pw_dp *dp, const struct pw_dp_event *ev)
{
	switch (ev->type) {
	case PW_DP_EV_WRITE_DONE:
		if (ev->status)
			dp->stats.write_errors++;
		break;
	case PW_DP_EV_LANDED:
		dp->stats.landed++;
		dp->stats.landed_bytes += ev->len;
		break;
	case PW_DP_EV_ACCEPTED:
		dp->stats.accepted++;
		dp->open_conns++;	/* the owner's to close from now on */
		break;
	case PW_DP_EV_CONNECTED:
		dp->stats.connected++;
		break;
	case PW_DP_EV_CLOSED:
		dp->stats.closed++;
		break;
	}
}

int pw_dp_poll(struct pw_dp *dp, struct pw_dp_event *ev, unsigned int max)
{
	unsigned int n, i;
	int ret = 0;

	n = dp_unqueue(dp, ev, max);
	if (n < max) {
		ret = dp->ops->poll(dp, ev + n, max - n);
		if (ret > 0)
			n += ret;
		n += dp_unqueue(dp, ev + n, max - n);
	}
	if (!n && ret < 0)
		return ret;
	for (i = 0; i < n; i++)
		count(dp, &ev[i]);
	return n;
}

int pw_dp_fd(const struct pw_dp *dp)
{
	return dp->ops->fd(dp);
}

int pw_dp_wait(struct pw_dp *dp, int timeout_ms)
{
	struct pollfd pfd = { .events = POLLIN };
	int ret;

	if (dp->q_len)
		return 1;
	pfd.fd = dp->ops->fd(dp);
	if (pfd.fd < 0)
		return pfd.fd;
	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	return ret > 0;
}
