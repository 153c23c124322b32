/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dp_impl.h - what dp.c shares with the data plane's implementations
 * (dp_rdma.c, dp_tcp.c): the common object, its event queue and regions.
 *
 * dp.c checks arguments, counts and chooses; an implementation only moves
 * bytes. Events an implementation finds outside pw_dp_poll()'s output
 * array (connection changes, tcp completions) wait in the queue, whose
 * room is reserved so that it never overflows: every connection may need
 * depth + 2 slots (CONNECTED or ACCEPTED, then its writes in flight and
 * CLOSED when it ends), and anything else is produced only while fewer
 * than DP_QUEUE_SPARE wait.
 */
#ifndef PW_RUNTIME_NET_DP_IMPL_H
#define PW_RUNTIME_NET_DP_IMPL_H

#include <time.h>

#include "dp.h"

#define DP_QUEUE_SPARE	256

/**
 * struct pw_dp_ops - what an implementation provides
 * @kind: "rdma", "tcp".
 * @reg: register @r (addr and len set): set r->key and r->priv.
 * @dereg: undo @reg.
 * @connect: start a connection to @peer (dp.h: pw_dp_connect()).
 * @conn_close: disconnect and free @c.
 * @write: post one write; arguments are checked already.
 * @poll: up to @max events into @ev (or into the queue): their count.
 * @fd: the descriptor pw_dp_fd() returns.
 * @local: the bound address.
 * @close: free everything of the implementation's, @dp itself too.
 */
struct pw_dp_ops {
	const char *kind;
	int (*reg)(struct pw_dp *dp, struct pw_dp_region *r);
	void (*dereg)(struct pw_dp_region *r);
	int (*connect)(struct pw_dp *dp, const struct sockaddr_in *peer,
		       struct pw_dp_conn **c);
	void (*conn_close)(struct pw_dp_conn *c);
	int (*write)(struct pw_dp_conn *c, const struct pw_dp_region *src,
		     uint64_t off, const struct pw_dp_desc *dst,
		     uint64_t dst_off, uint64_t len, uint32_t cookie);
	int (*poll)(struct pw_dp *dp, struct pw_dp_event *ev,
		    unsigned int max);
	int (*fd)(const struct pw_dp *dp);
	int (*local)(const struct pw_dp *dp, struct sockaddr_in *addr);
	void (*close)(struct pw_dp *dp);
};

/* The part every implementation's object starts with. */
struct pw_dp {
	const struct pw_dp_ops *ops;
	struct pw_dp_opts opts;		/* defaults filled in */
	struct pw_dp_stats stats;
	unsigned int open_conns;	/* made or accepted, not yet closed */
	char note[192];
	struct pw_dp_region *regions;	/* every live registration */
	struct pw_dp_event *q;		/* ring of waiting events */
	unsigned int q_head;
	unsigned int q_len;
	unsigned int q_cap;
};

/* The part every implementation's connection starts with. */
struct pw_dp_conn {
	struct pw_dp *dp;
};

struct pw_dp_region {
	struct pw_dp *dp;
	struct pw_dp_region *next;
	uint8_t *addr;
	uint64_t len;
	uint32_t key;
	void *priv;
};

/* Set up the common part (opts with defaults, the queue) of a new @dp. */
int dp_init(struct pw_dp *dp, const struct pw_dp_ops *ops,
	    const struct pw_dp_opts *o);
/* Free the common part (regions are deregistered by pw_dp_close()). */
void dp_fini(struct pw_dp *dp);
/* Queue @ev; the reservation above guarantees room. */
void dp_queue(struct pw_dp *dp, const struct pw_dp_event *ev);
/* Forget queued events of @conn, which is about to be freed. */
void dp_unqueue_conn(struct pw_dp *dp, const struct pw_dp_conn *conn);
/* True while the queue may take events other than connection ends. */
static inline int dp_queue_has_spare(const struct pw_dp *dp)
{
	return dp->q_len < DP_QUEUE_SPARE;
}
/* CLOCK_MONOTONIC in ms: connection deadlines. */
static inline uint64_t dp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000ull + (uint64_t)ts.tv_nsec / 1000000;
}

/* The live region with @key, or NULL. */
struct pw_dp_region *dp_region_by_key(struct pw_dp *dp, uint32_t key);

/* @bytes of @v at @p, little-endian (descriptors, the TCP header). */
static inline void dp_put_le(uint8_t *p, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t dp_get_le(const uint8_t *p, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int dp_rdma_open(const struct pw_dp_opts *o, struct pw_dp **dp,
		 char *why, size_t why_len);
int dp_tcp_open(const struct pw_dp_opts *o, struct pw_dp **dp);

#endif /* PW_RUNTIME_NET_DP_IMPL_H */
