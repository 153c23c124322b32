/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dp.h - the DCN data plane: one-sided writes from a registered memory
 * region on this host straight into a registered region on a peer.
 *
 * Two implementations behind one interface, chosen when the data plane is
 * opened and reported by pw_dp_kind():
 *   rdma  RC queue pairs set up with librdmacm; a write is an RDMA WRITE
 *         WITH IMMEDIATE from the source mapping into the destination
 *         mapping, the immediate carrying the caller's cookie
 *         (dp_rdma.c). HBM buffers mapped from /dev/pwtpu* register
 *         directly: no bounce buffer on either side.
 *   tcp   one TCP stream per connection; a write is a header and the
 *         payload, which the receiver reads straight into the registered
 *         region after checking key and bounds (dp_tcp.c).
 *
 * A region's descriptor (struct pw_dp_desc) is what a peer needs to write
 * into it; it travels in the caller's control messages (pw_dp_desc_pack()).
 * Both sides see completions through pw_dp_poll(): the writer learns its
 * write has landed (PW_DP_EV_WRITE_DONE), the target learns which cookie
 * landed (PW_DP_EV_LANDED). Writes on one connection land in the order
 * they were issued.
 *
 * A data plane has one owner thread; nothing here blocks except
 * pw_dp_open() and pw_dp_wait(): a connection comes up (or fails) in the
 * background, so an unreachable peer never stalls the owner's loop.
 * Functions return 0 (or a value >= 0) or a negative errno.
 */
#ifndef PW_RUNTIME_NET_DP_H
#define PW_RUNTIME_NET_DP_H

#include <netinet/in.h>
#include <stdint.h>

enum pw_dp_mode {
	PW_DP_AUTO,	/* rdma if the address has an RDMA device, else tcp */
	PW_DP_RDMA,
	PW_DP_TCP,
};

/* Largest single write; callers split bigger transfers. */
#define PW_DP_MAX_WRITE		(1ull << 30)

/**
 * struct pw_dp_opts - how to open a data plane
 * @mode: which implementation (PW_DP_AUTO: see enum pw_dp_mode).
 * @bind: local IPv4 address and port to listen on (port 0: an ephemeral
 *	one, see pw_dp_local()). RDMA needs the address of an interface with
 *	an RDMA device (e.g. soft-RoCE's rxe0 on eth0), not INADDR_ANY.
 * @depth: writes in flight per connection (0: 64).
 * @max_conns: connections at once, both directions (0: 16).
 * @connect_timeout_ms: how long a connection may take to come up (0:
 *	30000: rdma_cm resends a lost connection request only after about
 *	4 s, and a lossy link may take several).
 */
struct pw_dp_opts {
	enum pw_dp_mode mode;
	struct sockaddr_in bind;
	unsigned int depth;
	unsigned int max_conns;
	unsigned int connect_timeout_ms;
};

/**
 * struct pw_dp_desc - what a peer needs to write into a region
 * @addr: the region's address in its owner's process.
 * @len: its length in bytes.
 * @key: the rkey (rdma) or the registration's random key (tcp).
 */
struct pw_dp_desc {
	uint64_t addr;
	uint64_t len;
	uint32_t key;
};

/* pw_dp_desc on the wire: little-endian addr, len, key, 4 zero bytes. */
#define PW_DP_DESC_SIZE		24

enum pw_dp_event_type {
	PW_DP_EV_WRITE_DONE,	/* our write ended; status 0: it landed */
	PW_DP_EV_LANDED,	/* a peer's write landed in a region of ours */
	PW_DP_EV_ACCEPTED,	/* a peer connected to us: @conn is new */
	PW_DP_EV_CLOSED,	/* @conn ended, or never came up; status says why */
	PW_DP_EV_CONNECTED,	/* our pw_dp_connect() @conn is up */
};

struct pw_dp;
struct pw_dp_conn;
struct pw_dp_region;

/**
 * struct pw_dp_event - one completion
 * @type: enum pw_dp_event_type.
 * @status: 0, or -errno: -EACCES (the peer refused the key), -ERANGE
 *	(outside the peer's region; tcp), -ECONNRESET (the connection
 *	ended first), -ETIMEDOUT, -EIO; for a connection that never came
 *	up: -ECONNREFUSED, -EHOSTUNREACH, -ENETUNREACH, -ETIMEDOUT
 *	(connect_timeout_ms passed).
 * @cookie: the writer's cookie (WRITE_DONE, LANDED).
 * @len: bytes written (WRITE_DONE, LANDED).
 * @conn: the connection.
 */
struct pw_dp_event {
	enum pw_dp_event_type type;
	int status;
	uint32_t cookie;
	uint64_t len;
	struct pw_dp_conn *conn;
};

/**
 * struct pw_dp_stats - counters
 * @writes: writes posted.
 * @write_bytes: their bytes.
 * @write_errors: writes that completed with an error.
 * @landed: peers' writes that landed here.
 * @landed_bytes: their bytes.
 * @rx_bad_key: peers' writes refused for an unknown key (tcp; rdma's
 *	are refused by the device and seen only by the writer).
 * @rx_bad_bounds: peers' writes refused for reaching outside the region.
 * @rx_bad_proto: connections dropped for a malformed stream (tcp).
 * @accepted: connections accepted.
 * @connected: our connections that came up.
 * @closed: connections that ended.
 */
struct pw_dp_stats {
	uint64_t writes;
	uint64_t write_bytes;
	uint64_t write_errors;
	uint64_t landed;
	uint64_t landed_bytes;
	uint64_t rx_bad_key;
	uint64_t rx_bad_bounds;
	uint64_t rx_bad_proto;
	uint64_t accepted;
	uint64_t connected;
	uint64_t closed;
};

/*
 * Open a data plane listening on @o->bind. PW_DP_AUTO tries rdma (an RDMA
 * device exists and rdma_cm binds the address to one) and falls back to
 * tcp; pw_dp_note() says why. PW_DP_RDMA fails with -ENODEV when there is
 * no usable RDMA device.
 */
int pw_dp_open(const struct pw_dp_opts *o, struct pw_dp **dp);
/* Close every connection, deregister every region, free @dp. */
void pw_dp_close(struct pw_dp *dp);

/* "rdma" or "tcp". */
const char *pw_dp_kind(const struct pw_dp *dp);
/* One line on how the kind was chosen (AUTO's reason for falling back). */
const char *pw_dp_note(const struct pw_dp *dp);
/* The bound address, with the port an ephemeral bind chose. */
int pw_dp_local(const struct pw_dp *dp, struct sockaddr_in *addr);
void pw_dp_stats(const struct pw_dp *dp, struct pw_dp_stats *st);
/*
 * Connections made (pw_dp_connect()) or accepted (ACCEPTED) and not yet
 * pw_dp_conn_close()d: one that ended (CLOSED) still holds its slot of
 * max_conns until its owner closes it.
 */
unsigned int pw_dp_open_conns(const struct pw_dp *dp);

/*
 * Register @len bytes at @addr (a BO mapping or any writable memory) as a
 * source and a target of writes. The memory must stay mapped until
 * pw_dp_dereg(). -errno of ibv_reg_mr() for rdma.
 */
int pw_dp_reg(struct pw_dp *dp, void *addr, uint64_t len,
	      struct pw_dp_region **region);
/* Peers' writes into @region are refused from now on. */
void pw_dp_dereg(struct pw_dp_region *region);
void pw_dp_region_desc(const struct pw_dp_region *region,
		       struct pw_dp_desc *desc);

void pw_dp_desc_pack(const struct pw_dp_desc *desc,
		     uint8_t out[PW_DP_DESC_SIZE]);
/* -EINVAL when the reserved bytes are not zero. */
int pw_dp_desc_unpack(const uint8_t in[PW_DP_DESC_SIZE],
		      struct pw_dp_desc *desc);

/*
 * Start connecting to the data plane listening at @peer (same kind) and
 * return at once with @conn: PW_DP_EV_CONNECTED says it is up, or
 * PW_DP_EV_CLOSED why it never came up (refused, unreachable, or not up
 * within connect_timeout_ms, which pw_dp_poll() checks: poll at least
 * that often). Writes before it is up return -EAGAIN. Errors found at
 * once (no room, no socket, a refusal the kernel knows already) are
 * returned here.
 */
int pw_dp_connect(struct pw_dp *dp, const struct sockaddr_in *peer,
		  struct pw_dp_conn **conn);
/* Disconnect (if up) and free; writes in flight are not reported. */
void pw_dp_conn_close(struct pw_dp_conn *conn);

/*
 * Write @len bytes at @off in @src into @dst (a peer's descriptor) at
 * @dst_off, tagged @cookie. The source bytes must stay unchanged until
 * the write's PW_DP_EV_WRITE_DONE. -ERANGE outside either region, -EAGAIN
 * when @conn is not up yet or @depth writes are in flight on it (poll,
 * then retry),
 * -ENOTCONN once the connection has ended, -EINVAL past PW_DP_MAX_WRITE.
 */
int pw_dp_write(struct pw_dp_conn *conn, const struct pw_dp_region *src,
		uint64_t off, const struct pw_dp_desc *dst, uint64_t dst_off,
		uint64_t len, uint32_t cookie);

/*
 * Up to @max completions, without blocking: their count. Accepts
 * connections and moves tcp streams along too, so a target must poll for
 * peers' writes to land. When it returns @max, call it again before
 * sleeping on pw_dp_fd().
 */
int pw_dp_poll(struct pw_dp *dp, struct pw_dp_event *ev, unsigned int max);
/* A descriptor that polls readable when pw_dp_poll() may have work. */
int pw_dp_fd(const struct pw_dp *dp);
/* Sleep on pw_dp_fd() for up to @timeout_ms (-1: no limit): 1 or 0. */
int pw_dp_wait(struct pw_dp *dp, int timeout_ms);

#endif /* PW_RUNTIME_NET_DP_H */
