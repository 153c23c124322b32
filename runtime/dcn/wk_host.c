// SPDX-License-Identifier: GPL-2.0
/*
 * wk_host.c - a client's buffer bytes over the data plane, straight
 * between the client's memory and the buffer object (BUFFER with F_DP,
 * wire version 6), so that host data never crosses the controller.
 *
 * Upload: CREATE makes the buffer, registers it and tells the client
 * where to write (READY, run 0, sent to the client directly); when the
 * client's write lands the buffer is final and STATUS says so.
 * Download: READ names the client's registered region and data-plane
 * address; the worker writes the buffer into it over its connection to
 * the client (made on the first read and kept for the next ones, for a
 * few clients at once), and sends STATUS with the byte count once the
 * write is done.
 *
 * Every transfer holds a reference on its buffer, so a client that goes
 * (BYE) mid-transfer leaves nothing behind: its transfers end with it.
 * A FREE of a buffer whose upload has not landed ends the upload too (its
 * slot, its key and its HBM go at once); a read of a freed buffer runs to
 * its end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "../util/log.h"
#include "roles.h"

static void hx_status(struct pw_worker *w, const struct pw_wk_hxfer *x,
		      int err, uint64_t bytes)
{
	pw_wk_send_status(w, PW_WIRE_BUFFER, x->client, x->id, err, bytes);
}

/* End transfer @x: its buffer let go (a read's connection stays). */
static void hx_end(struct pw_worker *w, struct pw_wk_hxfer *x)
{
	if (x->wb) {
		/* Nobody writes into it any more: the key dies with this. */
		if (x->upload && x->wb->region) {
			pw_dp_dereg(x->wb->region);
			x->wb->region = NULL;
		}
		pw_wbuf_put(&w->store, x->wb);
	}
	memset(x, 0, sizeof(*x));
}

static struct pw_wk_hxfer *hx_take(struct pw_worker *w, uint32_t client,
				   uint32_t id, struct pw_wbuf *wb)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_HXFER; i++) {
		struct pw_wk_hxfer *x = &w->hx[i];

		if (x->used)
			continue;
		memset(x, 0, sizeof(*x));
		x->used = true;
		x->client = client;
		x->id = id;
		x->wb = wb;
		pw_wbuf_get(wb);
		x->cookie = pw_wk_cookie_new(w);
		return x;
	}
	return NULL;
}

/* CREATE with F_DP: make the buffer and tell the client where to write. */
static int hx_upload(struct pw_worker *w, const struct pw_wire_buffer *b)
{
	struct pw_wire_sig sig = { .dtype = b->dtype, .rank = b->rank };
	struct pw_node_peer *cp = pw_node_find(&w->node, b->client);
	struct pw_wk_hxfer *x;
	struct pw_wire_ready *rd;
	struct pw_dp_desc desc;
	struct pw_wire_msg m;
	struct pw_wbuf *wb;
	int ret;

	memcpy(sig.shape, b->shape, sizeof(sig.shape));
	if (pw_wire_sig_bytes(&sig) != b->total || b->dev >= w->dev.ndev)
		return -EINVAL;
	if (!cp)
		return -EHOSTUNREACH;	/* never introduced */
	ret = pw_wbuf_create(&w->store, b->client, b->id, b->dev, b->total,
			     &wb);
	if (ret)
		return ret;
	wb->sig = sig;
	ret = pw_wbuf_register(&w->store, wb);
	x = ret ? NULL : hx_take(w, b->client, b->id, wb);
	if (!x) {
		pw_wbuf_release(&w->store, wb);
		return ret ? ret : -EBUSY;
	}
	x->upload = true;
	pw_dp_region_desc(wb->region, &desc);
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_READY;
	rd = &m.body.ready;
	rd->dst_host = (uint16_t)w->reg.host_id;
	rd->handle = b->id;
	rd->cookie = x->cookie;
	memcpy(rd->data_ip, w->reg.data_ip, 4);
	rd->data_port = w->reg.data_port;
	pw_dp_desc_pack(&desc, rd->desc);
	ret = pw_node_send(&w->node, cp, &m, pw_now_ns());
	if (ret) {
		hx_end(w, x);
		pw_wbuf_release(&w->store, wb);
	}
	return ret;
}

/* The read's connection is up: post its writes, a gigabyte at most each. */
static void hx_post(struct pw_worker *w, struct pw_wk_hxfer *x)
{
	uint64_t off, len;
	int ret = 0;

	for (off = 0; off < x->wb->bytes && !ret; off += len) {
		len = x->wb->bytes - off;
		if (len > PW_DP_MAX_WRITE)
			len = PW_DP_MAX_WRITE;
		ret = pw_dp_write(x->conn, x->wb->region, off, &x->target, off,
				  len, x->id);
		if (!ret)
			x->pending++;
	}
	if (ret) {
		hx_status(w, x, ret, 0);
		hx_end(w, x);
	}
}

static bool cconn_busy(const struct pw_worker *w, const struct pw_dp_conn *c)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_HXFER; i++)
		if (w->hx[i].used && w->hx[i].conn == c)
			return true;
	return false;
}

static void cconn_drop(struct pw_wk_cconn *cc)
{
	pw_dp_conn_close(cc->conn);
	memset(cc, 0, sizeof(*cc));
}

/*
 * The kept connection to @client at @addr, or a new one (in a free slot,
 * or in place of the one idle longest).
 */
static struct pw_wk_cconn *cconn_get(struct pw_worker *w, uint32_t client,
				     const struct sockaddr_in *addr, int *err)
{
	struct pw_wk_cconn *cc, *victim = NULL;
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_CCONN; i++) {
		cc = &w->cconn[i];
		if (cc->client == client && cc->conn &&
		    cc->addr.sin_addr.s_addr == addr->sin_addr.s_addr &&
		    cc->addr.sin_port == addr->sin_port)
			return cc;
		if (!cc->conn)
			victim = victim && !victim->conn ? victim : cc;
		else if (!cconn_busy(w, cc->conn) &&
			 (!victim || (victim->conn && cc->last < victim->last)))
			victim = cc;
	}
	if (!victim) {
		*err = -EBUSY;
		return NULL;
	}
	if (victim->conn)
		cconn_drop(victim);
	*err = pw_dp_connect(w->dp, addr, &victim->conn);
	if (*err) {
		memset(victim, 0, sizeof(*victim));
		return NULL;
	}
	victim->client = client;
	victim->addr = *addr;
	return victim;
}

/* READ with F_DP: write into the client's region once connected. */
static int hx_read(struct pw_worker *w, const struct pw_wire_buffer *b)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct pw_dp_desc target;
	struct pw_wk_cconn *cc;
	struct pw_wk_hxfer *x;
	struct pw_wbuf *wb;
	int ret;

	ret = pw_wk_buf_final(w, b, &wb);
	if (!ret)
		ret = pw_dp_desc_unpack(b->data, &target);
	if (ret)
		return ret;
	if (target.len < wb->bytes)
		return -ERANGE;
	memcpy(&addr.sin_addr, b->data + PW_WIRE_DESC_SIZE, 4);
	addr.sin_port = htons((uint16_t)(b->data[PW_WIRE_DESC_SIZE + 4] |
					 b->data[PW_WIRE_DESC_SIZE + 5] << 8));
	ret = pw_wbuf_register(&w->store, wb);
	if (ret)
		return ret;
	x = hx_take(w, b->client, b->id, wb);
	if (!x)
		return -EBUSY;
	x->target = target;
	cc = cconn_get(w, b->client, &addr, &ret);
	if (!cc) {
		hx_end(w, x);
		return ret;
	}
	cc->last = ++w->hx_count;
	x->conn = cc->conn;
	if (cc->up)
		hx_post(w, x);
	return 0;
}

int pw_wk_host_buffer(struct pw_worker *w, const struct pw_wire_buffer *b)
{
	if (!w->dp)
		return -EOPNOTSUPP;	/* in-process: no data plane */
	return b->op == PW_WIRE_BUF_CREATE ? hx_upload(w, b) : hx_read(w, b);
}

static struct pw_wk_cconn *cconn_of(struct pw_worker *w,
				     const struct pw_dp_conn *conn)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_CCONN; i++)
		if (w->cconn[i].conn && w->cconn[i].conn == conn)
			return &w->cconn[i];
	return NULL;
}

/*
 * An upload's bytes landed: the buffer is final once all of them have.
 * False if no upload waits for that cookie.
 */
static bool hx_landed(struct pw_worker *w, const struct pw_dp_event *ev)
{
	struct pw_wk_hxfer *x = NULL;
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_HXFER && !x; i++)
		if (w->hx[i].used && w->hx[i].upload &&
		    w->hx[i].cookie == ev->cookie)
			x = &w->hx[i];
	if (!x || ev->len > x->wb->bytes - x->landed)
		return false;
	x->landed += ev->len;
	if (x->landed < x->wb->bytes)
		return true;
	x->wb->filled = x->wb->bytes;
	x->wb->state = PW_WBUF_READY;
	hx_status(w, x, 0, x->wb->bytes);
	hx_end(w, x);
	return true;
}

/* A read's write ended: STATUS once all of its writes have. */
static void hx_written(struct pw_worker *w, const struct pw_dp_event *ev)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_HXFER; i++) {
		struct pw_wk_hxfer *x = &w->hx[i];

		if (!x->used || x->upload || x->conn != ev->conn ||
		    x->id != ev->cookie)
			continue;
		if (ev->status && !x->err)
			x->err = ev->status;
		if (--x->pending)
			return;
		hx_status(w, x, x->err, x->err ? 0 : x->wb->bytes);
		hx_end(w, x);
		return;
	}
}

bool pw_wk_host_dp_event(struct pw_worker *w, const struct pw_dp_event *ev)
{
	struct pw_wk_cconn *cc;
	unsigned int i;
	int err;

	if (ev->type == PW_DP_EV_LANDED)
		return hx_landed(w, ev);	/* else maybe a DCN_RECV's */
	cc = ev->conn ? cconn_of(w, ev->conn) : NULL;
	if (!cc)
		return false;
	switch (ev->type) {
	case PW_DP_EV_CONNECTED:
		cc->up = true;
		for (i = 0; i < PW_WK_MAX_HXFER; i++)
			if (w->hx[i].used && w->hx[i].conn == cc->conn &&
			    !w->hx[i].pending)
				hx_post(w, &w->hx[i]);
		break;
	case PW_DP_EV_WRITE_DONE:
		hx_written(w, ev);
		break;
	case PW_DP_EV_CLOSED:
		/* Never came up, or ended: its reads fail, named. */
		err = ev->status ? ev->status : -ECONNRESET;
		for (i = 0; i < PW_WK_MAX_HXFER; i++) {
			struct pw_wk_hxfer *x = &w->hx[i];

			if (!x->used || x->conn != cc->conn)
				continue;
			pw_log("worker %u: data plane to client node %u ended before buffer %u was read: %s",
			       w->reg.host_id, x->client, x->id,
			       strerror(-err));
			hx_status(w, x, err, 0);
			hx_end(w, x);
		}
		cconn_drop(cc);
		break;
	default:
		break;
	}
	return true;
}

void pw_wk_host_forget_client(struct pw_worker *w, uint32_t client)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_HXFER; i++)
		if (w->hx[i].used && w->hx[i].client == client)
			hx_end(w, &w->hx[i]);
	for (i = 0; i < PW_WK_MAX_CCONN; i++)
		if (w->cconn[i].conn && w->cconn[i].client == client)
			cconn_drop(&w->cconn[i]);
}

void pw_wk_host_forget_buffer(struct pw_worker *w, uint32_t client,
			       uint32_t id)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_HXFER; i++)
		if (w->hx[i].used && w->hx[i].upload &&
		    w->hx[i].client == client && w->hx[i].id == id)
			hx_end(w, &w->hx[i]);
}

void pw_wk_host_fini(struct pw_worker *w)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_HXFER; i++)
		if (w->hx[i].used)
			hx_end(w, &w->hx[i]);
	for (i = 0; i < PW_WK_MAX_CCONN; i++)
		if (w->cconn[i].conn)
			cconn_drop(&w->cconn[i]);
}
