// SPDX-License-Identifier: GPL-2.0
/*
 * rc_data.c - a client's host data over the data plane (wire version 6,
 * BUFFER with F_DP): a shard's bytes go straight between the client's
 * memory and the worker's buffer object, RDMA WRITE or the TCP fallback,
 * never through the controller and never in control-plane datagrams.
 *
 * A client opens a data plane of its own on its first transfer with a
 * worker that has one, of that worker's kind (PEER says: RDMA or TCP),
 * bound to the address its host reaches the controller from;
 * PATHWAYS_DATA=off keeps host data in control-plane parts. Uploads connect to
 * the worker's data plane (once per host, kept); downloads are written by
 * the worker into the client's registered memory over a connection the
 * worker makes. Events are polled while the client waits (pw_rc_step()),
 * under the client's lock, so one transfer is in flight at a time.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../util/log.h"
#include "roles.h"

/* The local address the kernel would send to @peer from. */
static int local_addr_toward(const struct sockaddr_in *peer,
			     struct sockaddr_in *local)
{
	socklen_t len = sizeof(*local);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)peer, sizeof(*peer)) ||
	    getsockname(fd, (struct sockaddr *)local, &len))
		ret = -errno;
	close(fd);
	local->sin_port = 0;
	return ret;
}

/* Our data plane, of the kind @flags names (a worker's, from PEER). */
static int data_open(struct pw_remote *r, uint32_t flags)
{
	struct pw_dp_opts o = {
		.mode = flags & PW_WIRE_PEER_F_RDMA ? PW_DP_RDMA : PW_DP_TCP,
	};
	int ret;

	ret = local_addr_toward(&r->ctl->addr, &o.bind);
	if (!ret)
		ret = pw_dp_open(&o, &r->dp);
	if (ret) {
		/* Host data still moves, in control-plane parts. */
		pw_log("client: no %s data plane (%s): host data goes over the control plane",
		       o.mode == PW_DP_RDMA ? "rdma" : "tcp", strerror(-ret));
		r->dp = NULL;
		return ret;
	}
	pw_dp_local(r->dp, &r->dp_addr);
	r->node.extra_fd[0] = pw_dp_fd(r->dp);
	return 0;
}

void pw_rc_data_close(struct pw_remote *r)
{
	if (!r->dp)
		return;
	pw_dp_close(r->dp);
	r->dp = NULL;
	memset(r->dpc, 0, sizeof(r->dpc));
	memset(r->dpc_up, 0, sizeof(r->dpc_up));
}

const char *pw_remote_data_kind(const struct pw_remote *r)
{
	return r->dp ? pw_dp_kind(r->dp) : "none";
}

bool pw_rc_data_use(struct pw_remote *r, uint32_t slice, unsigned int host,
		    uint64_t bytes)
{
	const struct pw_rc_slice *s = slice ? pw_remote_slice_find(r, slice) :
				      NULL;
	uint32_t flags;
	bool rdma;

	if (s)
		host = s->host;
	if (bytes < PW_RC_DP_MIN_BYTES || host >= PW_WIRE_MAX_HOSTS ||
	    (slice && !s))
		return false;
	flags = r->dp_peer[host];
	if (!(flags & PW_WIRE_PEER_F_DP))
		return false;	/* in-process, or not introduced */
	rdma = flags & PW_WIRE_PEER_F_RDMA;
	/* The heartbeat thread steps the node, whose descriptors change. */
	pw_rc_lock(r);
	if (!r->dp && !r->dp_tried) {
		/*
		 * Once: a client whose open failed does not try each time
		 * (nor one connected with PATHWAYS_DATA=off).
		 */
		r->dp_tried = true;
		data_open(r, flags);
	}
	pw_rc_unlock(r);
	return r->dp && rdma == !strcmp(pw_dp_kind(r->dp), "rdma");
}

static void on_event(struct pw_remote *r, const struct pw_dp_event *ev)
{
	unsigned int h;

	switch (ev->type) {
	case PW_DP_EV_CONNECTED:
		for (h = 0; h < PW_WIRE_MAX_HOSTS; h++)
			if (r->dpc[h] == ev->conn)
				r->dpc_up[h] = true;
		break;
	case PW_DP_EV_WRITE_DONE:
		if (!r->dp_writes || ev->cookie != r->dp_target.cookie)
			break;
		r->dp_writes--;
		if (ev->status && !r->dp_err)
			r->dp_err = ev->status;
		break;
	case PW_DP_EV_LANDED:
		if (ev->cookie == r->dp_want)
			r->dp_landed += ev->len;
		break;
	case PW_DP_EV_CLOSED:
		for (h = 0; h < PW_WIRE_MAX_HOSTS; h++) {
			if (r->dpc[h] != ev->conn)
				continue;
			r->dpc[h] = NULL;
			r->dpc_up[h] = false;
			/* Writes on it will not complete: the upload fails. */
			if (r->dp_writes && h == r->dp_target.dst_host) {
				r->dp_writes = 0;
				r->dp_err = ev->status ? ev->status :
					    -ECONNRESET;
			}
			if (!r->dp_err && h == r->dp_connecting)
				r->dp_err = ev->status ? ev->status :
					    -ECONNRESET;
		}
		/* Ours, or a worker's after it wrote a read: its slot goes. */
		pw_dp_conn_close(ev->conn);
		break;
	default:	/* ACCEPTED: a worker about to write a read */
		break;
	}
}

void pw_rc_data_poll(struct pw_remote *r)
{
	struct pw_dp_event ev[16];
	int n, i;

	if (!r->dp)
		return;
	do {
		n = pw_dp_poll(r->dp, ev, 16);
		for (i = 0; i < n; i++)
			on_event(r, &ev[i]);
	} while (n == 16);
}

int pw_rc_data_on_ready(struct pw_remote *r, const struct pw_wire_ready *rd)
{
	if (rd->run_id || rd->handle != r->dp_want || r->dp_have_target)
		return 0;	/* not the upload we wait for: a late one */
	r->dp_target = *rd;
	r->dp_have_target = true;
	return 0;
}

/*
 * The slowest data plane a transfer's wait allows for, beyond the answer
 * timeout: 1 MiB/s (TCP under TCG moves about 8).
 */
#define PW_RC_DP_MIN_BYTES_PER_S	(1ull << 20)

/*
 * Under the lock: step until @done(r), an error, or the answer timeout
 * plus the time @bytes take at the slowest rate allowed for.
 */
static int wait_until(struct pw_remote *r, bool (*done)(struct pw_remote *),
		      uint64_t bytes)
{
	uint64_t until = pw_now_ns() + PW_REMOTE_TIMEOUT_MS * 1000000ull +
			 bytes / PW_RC_DP_MIN_BYTES_PER_S * 1000000000ull;
	int ret = 0;

	while (!ret && !done(r)) {
		if (pw_now_ns() >= until)
			ret = -ETIMEDOUT;
		else
			ret = pw_rc_step(r, until);
	}
	return ret;
}

static bool target_or_status(struct pw_remote *r)
{
	return r->dp_have_target || r->have_status;
}

static bool conn_settled(struct pw_remote *r)
{
	return r->dp_err || r->dpc_up[r->dp_connecting];
}

static bool writes_done(struct pw_remote *r)
{
	return !r->dp_writes;
}

static bool status_came(struct pw_remote *r)
{
	return r->have_status;
}

static bool read_ended(struct pw_remote *r)
{
	return r->have_status &&
	       (r->status.status || r->dp_landed >= r->status.value);
}

/* The refusal in STATUS, or -EPROTO for an answer that is not one. */
static int status_error(const struct pw_remote *r)
{
	return r->status.status ? -(int)r->status.status : -EPROTO;
}

/* Our connection to host @h's data plane at @rd's address, up. */
static int conn_to(struct pw_remote *r, const struct pw_wire_ready *rd)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	unsigned int h = rd->dst_host;
	int ret;

	if (r->dpc[h] && r->dpc_up[h])
		return 0;
	if (!r->dpc[h]) {
		memcpy(&addr.sin_addr, rd->data_ip, 4);
		addr.sin_port = htons(rd->data_port);
		ret = pw_dp_connect(r->dp, &addr, &r->dpc[h]);
		if (ret) {
			r->dpc[h] = NULL;
			return ret;
		}
	}
	r->dp_connecting = h;
	r->dp_err = 0;
	ret = wait_until(r, conn_settled, 0);
	return ret ? ret : r->dp_err;
}

/* Register @len bytes at @data as a source, or a copy of them. */
static int source(struct pw_remote *r, const void *data, uint64_t len,
		  struct pw_dp_region **reg, void **copy)
{
	/* The data plane only reads it; read-only pages need the copy. */
	if (!pw_dp_reg(r->dp, (void *)data, len, reg))
		return 0;
	*copy = malloc(len);
	if (!*copy)
		return -ENOMEM;
	memcpy(*copy, data, len);
	return pw_dp_reg(r->dp, *copy, len, reg);
}

/* Post writes of @len bytes of @src to @dst, a gigabyte at most each. */
static int post_writes(struct pw_remote *r, struct pw_dp_conn *conn,
		       const struct pw_dp_region *src,
		       const struct pw_dp_desc *dst, uint64_t len)
{
	uint64_t off = 0, n;
	int ret = 0;

	while (!ret && off < len) {
		n = len - off < PW_DP_MAX_WRITE ? len - off : PW_DP_MAX_WRITE;
		ret = pw_dp_write(conn, src, off, dst, off, n,
				  r->dp_target.cookie);
		if (ret == -EAGAIN) {
			/* The connection's depth is full: let some end. */
			ret = pw_rc_step(r, pw_now_ns() + 1000000ull);
			continue;
		}
		if (!ret) {
			r->dp_writes++;
			off += n;
		}
	}
	return ret;
}

int pw_rc_data_write(struct pw_remote *r, uint32_t slice, uint32_t id,
		     const struct pw_wire_sig *sig, uint64_t total,
		     const void *data)
{
	struct pw_dp_region *reg = NULL;
	struct pw_dp_desc dst;
	struct pw_wire_msg m;
	void *copy = NULL;
	int ret;

	pw_rc_buffer_create(&m, slice, id, sig, total);
	m.body.buffer.flags = PW_WIRE_BUF_F_DP;
	pw_rc_lock(r);
	r->want_type = PW_WIRE_BUFFER;
	r->want_id = id;
	r->have_status = false;
	r->dp_want = id;
	r->dp_have_target = false;
	r->dp_writes = 0;
	r->dp_err = 0;
	ret = pw_rc_send(r, &m);
	if (!ret)
		ret = wait_until(r, target_or_status, 0);
	if (!ret && !r->dp_have_target)
		ret = status_error(r);	/* refused before any byte */
	if (!ret)
		ret = conn_to(r, &r->dp_target);
	if (!ret)
		ret = pw_dp_desc_unpack(r->dp_target.desc, &dst);
	if (!ret)
		ret = source(r, data, total, &reg, &copy);
	if (!ret)
		ret = post_writes(r, r->dpc[r->dp_target.dst_host], reg, &dst,
				  total);
	if (!ret)
		ret = wait_until(r, writes_done, total);
	if (!ret)
		ret = r->dp_err;
	/* The worker says when the bytes are its buffer's. */
	if (!ret)
		ret = wait_until(r, status_came, 0);
	if (!ret && r->status.status)
		ret = status_error(r);
	/*
	 * Writes still posted (a timeout, an error) may read the memory
	 * after we return: end the connection before it goes.
	 */
	if (r->dp_writes) {
		unsigned int h = r->dp_target.dst_host;

		pw_dp_conn_close(r->dpc[h]);
		r->dpc[h] = NULL;
		r->dpc_up[h] = false;
		r->dp_writes = 0;
	}
	r->want_type = 0;
	r->dp_want = 0;
	if (reg)
		pw_dp_dereg(reg);
	pw_rc_unlock(r);
	free(copy);
	return ret;
}

int pw_rc_data_read(struct pw_remote *r, uint32_t slice, unsigned int host,
		    uint32_t id, void *data, size_t size)
{
	struct pw_dp_region *reg;
	struct pw_wire_buffer *b;
	struct pw_dp_desc mine;
	struct pw_wire_msg m;
	int ret;

	/* Memory the data plane cannot take: the caller uses parts. */
	if (pw_dp_reg(r->dp, data, size, &reg))
		return -EOPNOTSUPP;
	pw_dp_region_desc(reg, &mine);
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BUFFER;
	b = &m.body.buffer;
	b->op = PW_WIRE_BUF_READ;
	b->flags = PW_WIRE_BUF_F_DP;
	b->slice = slice;
	b->host = slice ? 0 : (uint16_t)host;
	b->id = id;
	b->nbytes = PW_WIRE_BUF_DP_TARGET;
	pw_dp_desc_pack(&mine, b->data);
	memcpy(b->data + PW_WIRE_DESC_SIZE, &r->dp_addr.sin_addr, 4);
	b->data[PW_WIRE_DESC_SIZE + 4] = (uint8_t)ntohs(r->dp_addr.sin_port);
	b->data[PW_WIRE_DESC_SIZE + 5] =
		(uint8_t)(ntohs(r->dp_addr.sin_port) >> 8);
	pw_rc_lock(r);
	r->want_type = PW_WIRE_BUFFER;
	r->want_id = id;
	r->have_status = false;
	r->dp_want = id;
	r->dp_landed = 0;
	ret = pw_rc_send(r, &m);
	/* STATUS, and (when it says so) every byte landed here. */
	if (!ret)
		ret = wait_until(r, read_ended, size);
	if (!ret && r->status.status)
		ret = status_error(r);
	else if (!ret && r->status.value != size)
		ret = -EPROTO;
	r->want_type = 0;
	r->dp_want = 0;
	pw_dp_dereg(reg);
	pw_rc_unlock(r);
	return ret;
}
