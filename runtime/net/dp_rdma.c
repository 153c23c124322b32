// SPDX-License-Identifier: GPL-2.0
/*
 * dp_rdma.c - the data plane over RDMA verbs (dp.h): rdma_cm connects RC
 * queue pairs, a write is one RDMA WRITE WITH IMMEDIATE from the source
 * region into the peer's region, the immediate carrying the cookie.
 *
 * One protection domain, one completion queue (and its channel) for every
 * queue pair of the data plane; a work request's id says whose it is and
 * what it was (wr_tag()), with a generation per connection so that a late
 * completion of a closed connection is dropped, not misattributed. Every
 * queue pair keeps depth zero-length receives posted: a write with an
 * immediate consumes one on the target, and its completion (the
 * immediate, the byte count) is the target's LANDED event. A target that
 * stops polling stops reposting, and the writer's queue pair waits on
 * receiver-not-ready retries (rnr_retry 7: for ever) rather than fail.
 *
 * Connection-manager events come from one non-blocking channel, pumped by
 * pw_dp_poll(); the caller sees them as ACCEPTED, CONNECTED and CLOSED
 * through the common queue. pw_dp_connect() only starts resolving the
 * peer's address: the rest of the handshake follows from those events,
 * and pw_dp_poll() ends a connection not up by its deadline.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "dp_impl.h"

#define RDMA_BACKLOG		64
#define RDMA_CQ_BATCH		32
#define RDMA_RESOLVE_MS		2000

enum rconn_state { RC_CONNECTING, RC_UP, RC_DEAD };

struct rdma_conn {
	struct pw_dp_conn c;
	struct rdma_cm_id *id;
	unsigned int slot;
	uint32_t gen;
	enum rconn_state state;
	bool passive;
	uint64_t deadline_ms;		/* an active one must be up by then */
	uint64_t *lens;			/* lengths of writes in flight */
	unsigned int if_head;
	unsigned int if_len;
};

struct rdma_dp {
	struct pw_dp dp;
	struct rdma_event_channel *ec;
	struct rdma_cm_id *listen_id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	int epfd;
	struct rdma_conn **conns;	/* max_conns slots */
	uint32_t next_gen;
};

/*
 * wr_id: bit 63 receive, bits 62..52 slot, 51..32 generation, 31..0 the
 * cookie of a write.
 */
#define TAG_RECV	(1ull << 63)
#define TAG_SLOT_SHIFT	52
#define TAG_SLOT_MASK	0x7ffu
#define TAG_GEN_SHIFT	32
#define TAG_GEN_MASK	0xfffffu

_Static_assert(TAG_SLOT_MASK + 1 >= 1024, "DP_MAX_CONNS slots fit");

static struct rdma_dp *to_rdma(const struct pw_dp *dp)
{
	return (struct rdma_dp *)dp;
}

static struct rdma_conn *to_conn(const struct pw_dp_conn *c)
{
	return (struct rdma_conn *)c;
}

static uint64_t wr_tag(const struct rdma_conn *rc, bool recv, uint32_t cookie)
{
	return (recv ? TAG_RECV : 0) |
	       (uint64_t)rc->slot << TAG_SLOT_SHIFT |
	       (uint64_t)rc->gen << TAG_GEN_SHIFT | cookie;
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

static int post_recv(struct rdma_conn *rc)
{
	struct ibv_recv_wr wr = { .wr_id = wr_tag(rc, true, 0) }, *bad;

	return -ibv_post_recv(rc->id->qp, &wr, &bad);
}

static struct rdma_conn *conn_new(struct rdma_dp *r)
{
	struct pw_dp *dp = &r->dp;
	struct rdma_conn *rc;
	unsigned int slot;

	for (slot = 0; slot < dp->opts.max_conns; slot++)
		if (!r->conns[slot])
			break;
	if (slot == dp->opts.max_conns)
		return NULL;
	rc = calloc(1, sizeof(*rc));
	if (!rc)
		return NULL;
	rc->lens = calloc(dp->opts.depth, sizeof(*rc->lens));
	if (!rc->lens) {
		free(rc);
		return NULL;
	}
	rc->c.dp = dp;
	rc->slot = slot;
	rc->gen = r->next_gen++ & TAG_GEN_MASK;
	rc->state = RC_CONNECTING;
	r->conns[slot] = rc;
	return rc;
}

/* Free @rc; its id's events must all be acknowledged. */
static void conn_free(struct rdma_conn *rc)
{
	struct rdma_dp *r = to_rdma(rc->c.dp);

	if (rc->id) {
		if (rc->id->qp)
			rdma_destroy_qp(rc->id);
		rdma_destroy_id(rc->id);
	}
	dp_unqueue_conn(&r->dp, &rc->c);
	r->conns[rc->slot] = NULL;
	free(rc->lens);
	free(rc);
}

/* A queue pair on @rc->id with every receive posted. */
static int conn_make_qp(struct rdma_conn *rc)
{
	struct rdma_dp *r = to_rdma(rc->c.dp);
	unsigned int depth = r->dp.opts.depth, i;
	struct ibv_qp_init_attr attr = {
		.send_cq = r->cq,
		.recv_cq = r->cq,
		.cap = {
			.max_send_wr = depth,
			.max_recv_wr = depth,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
	};
	int ret;

	if (rdma_create_qp(rc->id, r->pd, &attr))
		return -errno;
	for (i = 0; i < depth; i++) {
		ret = post_recv(rc);
		if (ret)
			return ret;
	}
	return 0;
}

static struct rdma_conn_param conn_param(void)
{
	struct rdma_conn_param p = {
		.retry_count = 7,
		.rnr_retry_count = 7,
	};

	return p;
}

static int cm_status(enum rdma_cm_event_type type)
{
	switch (type) {
	case RDMA_CM_EVENT_REJECTED:
		return -ECONNREFUSED;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		return -EHOSTUNREACH;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return -ENETUNREACH;
	default:
		return -ECONNABORTED;
	}
}

/* An up connection ended: report it, let its queue pair flush. */
static void conn_down(struct rdma_conn *rc, int status)
{
	struct pw_dp_event ev = {
		.type = PW_DP_EV_CLOSED,
		.status = status,
		.conn = &rc->c,
	};

	if (rc->state != RC_UP)
		return;
	rc->state = RC_DEAD;
	rdma_disconnect(rc->id);
	dp_queue(rc->c.dp, &ev);
}

/* Our connection never came up: say why; the owner closes it. */
static void connect_failed(struct rdma_conn *rc, int status)
{
	struct pw_dp_event ev = {
		.type = PW_DP_EV_CLOSED,
		.status = status,
		.conn = &rc->c,
	};

	rc->state = RC_DEAD;
	dp_queue(rc->c.dp, &ev);
}

/* Active connections not up by their deadline end with -ETIMEDOUT. */
static void connect_deadlines(struct rdma_dp *r)
{
	uint64_t now = dp_now_ms();
	unsigned int i;

	for (i = 0; i < r->dp.opts.max_conns; i++) {
		struct rdma_conn *rc = r->conns[i];

		if (rc && !rc->passive && rc->state == RC_CONNECTING &&
		    now >= rc->deadline_ms)
			connect_failed(rc, -ETIMEDOUT);
	}
}

/* A peer asks to connect: accept it, or reject it and return its id. */
static struct rdma_cm_id *cm_connect_request(struct rdma_dp *r,
					     struct rdma_cm_id *id)
{
	struct rdma_conn_param p = conn_param();
	struct rdma_conn *rc = conn_new(r);

	if (!rc) {
		rdma_reject(id, NULL, 0);
		return id;
	}
	rc->id = id;
	rc->passive = true;
	id->context = rc;
	if (conn_make_qp(rc) || rdma_accept(id, &p)) {
		rdma_reject(id, NULL, 0);
		rc->id = NULL;
		if (id->qp)
			rdma_destroy_qp(id);
		conn_free(rc);
		return id;
	}
	return NULL;
}

/*
 * One event of @rc's, acknowledged by the caller afterwards. Returns the
 * connection to free once it is, if any.
 */
static struct rdma_conn *cm_conn_event(struct rdma_conn *rc,
				       enum rdma_cm_event_type type)
{
	struct rdma_conn_param p = conn_param();
	struct pw_dp_event ev = { .type = PW_DP_EV_ACCEPTED, .conn = &rc->c };
	int ret = 0;

	/*
	 * Its end is reported already (a deadline, a failure, a disconnect):
	 * a late step of the handshake must not build a queue pair for it.
	 */
	if (rc->state == RC_DEAD)
		return NULL;
	switch (type) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		if (rdma_resolve_route(rc->id, RDMA_RESOLVE_MS))
			ret = -errno;
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		ret = conn_make_qp(rc);
		if (!ret && rdma_connect(rc->id, &p))
			ret = -errno;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (rc->state != RC_CONNECTING)
			break;
		rc->state = RC_UP;
		if (!rc->passive)
			ev.type = PW_DP_EV_CONNECTED;
		dp_queue(rc->c.dp, &ev);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		if (rc->state == RC_UP)
			conn_down(rc, -ECONNRESET);
		else if (rc->state == RC_CONNECTING)
			ret = -ECONNRESET;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		if (rc->state == RC_UP)
			conn_down(rc, cm_status(type));
		else if (rc->state == RC_CONNECTING)
			ret = cm_status(type);
		break;
	default:
		break;
	}
	if (ret && rc->state == RC_CONNECTING) {
		/* Nobody has seen a passive one yet: it goes quietly. */
		if (rc->passive) {
			rc->state = RC_DEAD;
			return rc;
		}
		connect_failed(rc, ret);
	}
	return NULL;
}

/* Handle every connection-manager event waiting: 1 if any, 0, -errno. */
static int cm_pump(struct rdma_dp *r)
{
	struct rdma_cm_event *e;
	int handled = 0;

	while (!rdma_get_cm_event(r->ec, &e)) {
		struct rdma_cm_id *drop_id = NULL;
		struct rdma_conn *drop = NULL;
		struct rdma_conn *rc = e->id->context;

		handled = 1;
		if (e->event == RDMA_CM_EVENT_CONNECT_REQUEST)
			drop_id = cm_connect_request(r, e->id);
		else if (rc)
			drop = cm_conn_event(rc, e->event);
		rdma_ack_cm_event(e);
		if (drop_id)
			rdma_destroy_id(drop_id);
		if (drop)
			conn_free(drop);
	}
	if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
		return -errno;
	return handled;
}

static int wc_status(enum ibv_wc_status s)
{
	switch (s) {
	case IBV_WC_SUCCESS:
		return 0;
	case IBV_WC_REM_ACCESS_ERR:
	case IBV_WC_LOC_PROT_ERR:
		return -EACCES;
	case IBV_WC_REM_INV_REQ_ERR:
	case IBV_WC_LOC_LEN_ERR:
		return -ERANGE;
	case IBV_WC_WR_FLUSH_ERR:
		return -ECONNRESET;
	case IBV_WC_RETRY_EXC_ERR:
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return -ETIMEDOUT;
	default:
		return -EIO;
	}
}

/* One work completion as an event: 1 if @ev was filled, else 0. */
static int wc_event(struct rdma_dp *r, const struct ibv_wc *wc,
		    struct pw_dp_event *ev)
{
	unsigned int slot = wc->wr_id >> TAG_SLOT_SHIFT & TAG_SLOT_MASK;
	uint32_t gen = wc->wr_id >> TAG_GEN_SHIFT & TAG_GEN_MASK;
	struct rdma_conn *rc = slot < r->dp.opts.max_conns ?
			       r->conns[slot] : NULL;

	if (!rc || rc->gen != gen)
		return 0;	/* a connection closed since */
	memset(ev, 0, sizeof(*ev));
	ev->conn = &rc->c;
	if (wc->wr_id & TAG_RECV) {
		if (wc->status != IBV_WC_SUCCESS)
			return 0;	/* flushed: the connection is ending */
		if (rc->state == RC_UP && post_recv(rc))
			conn_down(rc, -EIO);
		if (wc->opcode != IBV_WC_RECV_RDMA_WITH_IMM) {
			r->dp.stats.rx_bad_proto++;
			return 0;
		}
		ev->type = PW_DP_EV_LANDED;
		ev->cookie = ntohl(wc->imm_data);
		ev->len = wc->byte_len;
		return 1;
	}
	ev->type = PW_DP_EV_WRITE_DONE;
	ev->status = wc_status(wc->status);
	ev->cookie = (uint32_t)wc->wr_id;
	if (rc->if_len) {
		ev->len = rc->lens[rc->if_head];
		rc->if_head = (rc->if_head + 1) % r->dp.opts.depth;
		rc->if_len--;
	}
	/* A failed write leaves the queue pair in error: the end of it. */
	if (ev->status && ev->status != -ECONNRESET)
		conn_down(rc, ev->status);
	return 1;
}

static int rdma_poll(struct pw_dp *dp, struct pw_dp_event *ev,
		     unsigned int max)
{
	struct rdma_dp *r = to_rdma(dp);
	struct ibv_wc wc[RDMA_CQ_BATCH];
	unsigned int nacks = 0, n = 0;
	struct ibv_cq *cq;
	void *ctx;
	int got, i, ret;

	ret = cm_pump(r);
	if (ret < 0)
		return ret;
	connect_deadlines(r);
	while (!ibv_get_cq_event(r->cc, &cq, &ctx))
		nacks++;
	if (nacks)
		ibv_ack_cq_events(r->cq, nacks);
	/* Armed before the CQ is drained, so nothing slips past the fd. */
	if (ibv_req_notify_cq(r->cq, 0))
		return -EIO;
	while (n < max) {
		unsigned int want = max - n;

		got = ibv_poll_cq(r->cq, want < RDMA_CQ_BATCH ?
				  want : RDMA_CQ_BATCH, wc);
		if (got < 0)
			return n ? (int)n : -EIO;
		for (i = 0; i < got; i++)
			n += wc_event(r, &wc[i], &ev[n]);
		if (!got)
			break;
	}
	return n;
}

static int rdma_write(struct pw_dp_conn *c, const struct pw_dp_region *src,
		      uint64_t off, const struct pw_dp_desc *dst,
		      uint64_t dst_off, uint64_t len, uint32_t cookie)
{
	struct rdma_conn *rc = to_conn(c);
	unsigned int depth = c->dp->opts.depth;
	struct ibv_mr *mr = src->priv;
	struct ibv_sge sge = {
		.addr = (uintptr_t)src->addr + off,
		.length = len,
		.lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_tag(rc, false, cookie),
		.sg_list = len ? &sge : NULL,
		.num_sge = len ? 1 : 0,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(cookie),
		.wr.rdma = {
			.remote_addr = dst->addr + dst_off,
			.rkey = dst->key,
		},
	}, *bad;
	int ret;

	if (rc->state == RC_DEAD)
		return -ENOTCONN;
	if (rc->state == RC_CONNECTING || rc->if_len == depth)
		return -EAGAIN;
	ret = ibv_post_send(rc->id->qp, &wr, &bad);
	if (ret)
		return ret == ENOMEM ? -EAGAIN : -ret;
	rc->lens[(rc->if_head + rc->if_len++) % depth] = len;
	return 0;
}

static int rdma_connect_peer(struct pw_dp *dp, const struct sockaddr_in *peer,
			     struct pw_dp_conn **c)
{
	struct rdma_dp *r = to_rdma(dp);
	struct sockaddr_in src = dp->opts.bind;
	struct rdma_conn *rc = conn_new(r);
	int ret;

	if (!rc)
		return -EMFILE;
	if (rdma_create_id(r->ec, &rc->id, rc, RDMA_PS_TCP)) {
		ret = -errno;
		goto err;
	}
	src.sin_port = 0;
	if (rdma_resolve_addr(rc->id, (struct sockaddr *)&src,
			      (struct sockaddr *)peer, RDMA_RESOLVE_MS)) {
		ret = -errno;
		goto err;
	}
	rc->deadline_ms = dp_now_ms() + dp->opts.connect_timeout_ms;
	*c = &rc->c;
	return 0;
err:
	conn_free(rc);
	return ret;
}

static void rdma_conn_close(struct pw_dp_conn *c)
{
	struct rdma_conn *rc = to_conn(c);

	if (rc->state == RC_UP)
		rdma_disconnect(rc->id);
	rc->state = RC_DEAD;
	conn_free(rc);
}

static int rdma_reg(struct pw_dp *dp, struct pw_dp_region *reg)
{
	struct ibv_mr *mr;

	mr = ibv_reg_mr(to_rdma(dp)->pd, reg->addr, reg->len,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		return errno ? -errno : -EIO;
	reg->priv = mr;
	reg->key = mr->rkey;
	return 0;
}

static void rdma_dereg(struct pw_dp_region *reg)
{
	ibv_dereg_mr(reg->priv);
}

static int rdma_fd(const struct pw_dp *dp)
{
	return to_rdma(dp)->epfd;
}

static int rdma_local(const struct pw_dp *dp, struct sockaddr_in *addr)
{
	memcpy(addr, rdma_get_local_addr(to_rdma(dp)->listen_id),
	       sizeof(*addr));
	return 0;
}

static void rdma_close(struct pw_dp *dp)
{
	struct rdma_dp *r = to_rdma(dp);
	unsigned int i;

	for (i = 0; r->conns && i < dp->opts.max_conns; i++)
		if (r->conns[i])
			rdma_conn_close(&r->conns[i]->c);
	if (r->cq)
		ibv_destroy_cq(r->cq);
	if (r->cc)
		ibv_destroy_comp_channel(r->cc);
	if (r->pd)
		ibv_dealloc_pd(r->pd);
	if (r->listen_id)
		rdma_destroy_id(r->listen_id);
	if (r->ec)
		rdma_destroy_event_channel(r->ec);
	if (r->epfd >= 0)
		close(r->epfd);
	free(r->conns);
	dp_fini(dp);
	free(r);
}

static const struct pw_dp_ops rdma_ops = {
	.kind = "rdma",
	.reg = rdma_reg,
	.dereg = rdma_dereg,
	.connect = rdma_connect_peer,
	.conn_close = rdma_conn_close,
	.write = rdma_write,
	.poll = rdma_poll,
	.fd = rdma_fd,
	.local = rdma_local,
	.close = rdma_close,
};

/* Any RDMA device at all? Asked first: rdma_cm complains without one. */
static int have_rdma_device(void)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (list)
		ibv_free_device_list(list);
	return n > 0;
}

/* Everything after the listening id is bound to a device. */
static int rdma_setup(struct rdma_dp *r, char *why, size_t why_len)
{
	struct ibv_context *verbs = r->listen_id->verbs;
	unsigned int cqe = r->dp.opts.max_conns * 2 * r->dp.opts.depth;
	struct epoll_event ee = { .events = EPOLLIN };

	r->pd = ibv_alloc_pd(verbs);
	r->cc = ibv_create_comp_channel(verbs);
	if (!r->pd || !r->cc) {
		snprintf(why, why_len, "ibv_alloc_pd/comp_channel: %s",
			 strerror(errno));
		return -errno;
	}
	r->cq = ibv_create_cq(verbs, cqe, NULL, r->cc, 0);
	if (!r->cq) {
		snprintf(why, why_len, "ibv_create_cq(%u): %s", cqe,
			 strerror(errno));
		return -errno;
	}
	if (ibv_req_notify_cq(r->cq, 0) || set_nonblock(r->cc->fd) ||
	    set_nonblock(r->ec->fd))
		return -EIO;
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0 ||
	    epoll_ctl(r->epfd, EPOLL_CTL_ADD, r->ec->fd, &ee) < 0 ||
	    epoll_ctl(r->epfd, EPOLL_CTL_ADD, r->cc->fd, &ee) < 0)
		return -errno;
	return 0;
}

int dp_rdma_open(const struct pw_dp_opts *o, struct pw_dp **dpp,
		 char *why, size_t why_len)
{
	char ip[INET_ADDRSTRLEN];
	struct rdma_dp *r;
	int ret;

	inet_ntop(AF_INET, &o->bind.sin_addr, ip, sizeof(ip));
	if (!have_rdma_device()) {
		snprintf(why, why_len, "no RDMA device");
		return -ENODEV;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->epfd = -1;
	ret = dp_init(&r->dp, &rdma_ops, o);
	if (ret)
		goto err;
	ret = -ENOMEM;
	r->conns = calloc(r->dp.opts.max_conns, sizeof(*r->conns));
	if (!r->conns)
		goto err;
	r->ec = rdma_create_event_channel();
	if (!r->ec) {
		ret = errno ? -errno : -ENODEV;
		snprintf(why, why_len, "rdma_create_event_channel: %s",
			 strerror(-ret));
		goto err;
	}
	if (rdma_create_id(r->ec, &r->listen_id, NULL, RDMA_PS_TCP)) {
		ret = -errno;
		snprintf(why, why_len, "rdma_create_id: %s", strerror(-ret));
		goto err;
	}
	if (rdma_bind_addr(r->listen_id, (struct sockaddr *)&o->bind)) {
		ret = -errno;
		snprintf(why, why_len, "rdma_bind_addr(%s): %s", ip,
			 strerror(-ret));
		goto err;
	}
	if (!r->listen_id->verbs) {
		ret = -ENODEV;
		snprintf(why, why_len, "%s is on no RDMA device", ip);
		goto err;
	}
	ret = rdma_setup(r, why, why_len);
	if (ret)
		goto err;
	if (rdma_listen(r->listen_id, RDMA_BACKLOG)) {
		ret = -errno;
		snprintf(why, why_len, "rdma_listen: %s", strerror(-ret));
		goto err;
	}
	snprintf(why, why_len, "%s on %s",
		 ibv_get_device_name(r->listen_id->verbs->device), ip);
	*dpp = &r->dp;
	return 0;
err:
	rdma_close(&r->dp);
	return ret;
}
