// SPDX-License-Identifier: GPL-2.0
/*
 * rclient.c - a client of a controller on the wire (rclient.h):
 * connect, ship functions, make and read buffers, run registered programs
 * with one small RUN each and collect their DONEs, which each worker of
 * a run sends straight here (the controller answers only for a run it
 * ended itself). Requests that need an
 * answer wait for it, stepping the client's node; runs do not, so many
 * can be in flight (the DONE of each is kept until it is waited for).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "../fn/fn.h"
#include "../net/transport.h"
#include "../net/transport_name.h"
#include "../util/log.h"
#include "local.h"
#include "roles.h"

static struct pw_rc_run *run_slot(struct pw_remote *r, uint32_t run_id)
{
	return &r->runs[run_id % PW_RC_MAX_RUNS];
}

static void on_data(struct pw_remote *r, const struct pw_wire_buffer *b)
{
	if (!r->read_buf || b->id != r->read_id || b->offset != r->read_got ||
	    b->total != r->read_size)
		return;	/* not the read in progress */
	memcpy(r->read_buf + b->offset, b->data, b->nbytes);
	r->read_got += b->nbytes;
}

/* A run's computations ended with @status: completed, failed, cancelled. */
static void count_done(struct pw_remote *r, const struct pw_rc_run *run,
		       uint32_t status)
{
	if (status == ECANCELED) {
		atomic_fetch_add(&r->stats.cancelled, run->ncomp);
		return;
	}
	if (status)
		atomic_fetch_add(&r->stats.failed, run->ncomp);
	atomic_fetch_add(&r->stats.completed, run->ncomp);
}

/*
 * A DONE of run @d->run_id: a worker's part (@part), or the controller's
 * answer, which ends the run at once. The run ends at DONEs of @nhosts
 * distinct workers, the first that failed, or the controller's; the
 * rest find it ended and are dropped. A worker's DONE that disagrees
 * with the first on the run's worker count is dropped (-EPROTO).
 */
static int on_done(struct pw_remote *r, const struct pw_wire_done *d,
		   bool part, uint64_t now)
{
	struct pw_rc_run *run = run_slot(r, d->run_id);

	if (!run->used || run->run_id != d->run_id || run->have_done)
		return 0;	/* a run given up on, or ended already */
	if (part) {
		uint32_t ncmds = run->done.ncmds + d->ncmds;

		/* A worker the run is not on lies (or is confused): refused. */
		if (!pw_hostset_has(&run->hosts, d->host_id))
			return -EPERM;
		if (d->nhosts != run->nhosts)
			return -EPROTO;
		if (pw_hostset_has(&run->hosts_done, d->host_id))
			return 0;	/* that worker's, again */
		pw_hostset_add(&run->hosts_done, d->host_id);
		/* The last worker's timestamps stand for the run's. */
		run->done = *d;
		run->done.ncmds = ncmds;
		if (!d->status &&
		    pw_hostset_count(&run->hosts_done) < run->nhosts)
			return 0;
	} else {
		run->done = *d;
	}
	count_done(r, run, d->status);
	if (run->forgotten) {
		run->used = false;
		return 0;
	}
	run->have_done = true;
	run->recv_ns = now;
	return 0;
}

/* PEER: a worker whose DONEs we take (its address, maybe a new one). */
static int on_peer(struct pw_remote *r, const struct pw_wire_peer *pe)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct pw_node_peer *p;

	if (pe->host == PW_WIRE_ANY_HOST ||
	    pe->node != PW_NODE_WORKER_BASE + pe->host)
		return -EINVAL;
	memcpy(&addr.sin_addr, pe->ip, 4);
	addr.sin_port = htons(pe->port);
	r->dp_peer[pe->host] = pe->flags;
	p = pw_node_find(&r->node, pe->node);
	if (p) {
		p->addr = addr;
		return 0;
	}
	return pw_node_peer(&r->node, pe->node, &addr) ? 0 : -ENOSPC;
}

/* A member of the group asked for: where it went. */
static void on_group_member(struct pw_remote *r, const struct pw_wire_slice *m)
{
	uint32_t k = m->id - r->want_id - 1;	/* wraps below the group */

	if (k >= r->group_members)
		return;
	r->group_ans[k] = (struct pw_rc_slice){ .id = m->id, .host = m->host,
		.n = m->n, .hbm_bytes = m->hbm_bytes };
	memcpy(r->group_ans[k].devs, m->devices, sizeof(m->devices));
}

static int rc_handle(struct pw_node *node, struct pw_node_peer *p,
		     const struct pw_wire_msg *msg, uint64_t now)
{
	struct pw_remote *r = node->ctx;

	/* A worker the controller introduced sends only its DONEs. */
	if (p != r->ctl && msg->hdr.type == PW_WIRE_DONE &&
	    msg->body.done.nhosts &&
	    msg->body.done.host_id < PW_MAX_HOSTS &&
	    p->id == PW_NODE_WORKER_BASE + msg->body.done.host_id)
		return on_done(r, &msg->body.done, true, now);
	/* ... and the targets of uploads it was asked to make. */
	if (p != r->ctl && msg->hdr.type == PW_WIRE_READY &&
	    p->id == PW_NODE_WORKER_BASE + msg->body.ready.dst_host)
		return pw_rc_data_on_ready(r, &msg->body.ready);
	if (p != r->ctl)
		return -EPERM;
	switch (msg->hdr.type) {
	case PW_WIRE_CONNECT_ACK:
		r->ack = msg->body.connect_ack;
		r->connected = true;
		return 0;
	case PW_WIRE_PROGRAM_ACK:
		/* The first answer counts (a refused series gets more). */
		if (msg->body.program_ack.program_id != r->want_program ||
		    r->have_program_ack)
			return 0;
		r->program_ack = msg->body.program_ack;
		r->have_program_ack = true;
		return 0;
	case PW_WIRE_STATUS:
		if (msg->body.status.ref_type != r->want_type ||
		    msg->body.status.ref_id != r->want_id || r->have_status)
			return 0;	/* a late or repeated answer */
		r->status = msg->body.status;
		r->have_status = true;
		return 0;
	case PW_WIRE_BUFFER:
		if (msg->body.buffer.op == PW_WIRE_BUF_DATA)
			on_data(r, &msg->body.buffer);
		return 0;
	case PW_WIRE_SLICE:
		/* Where the slice asked for went; its STATUS follows. */
		if (msg->body.slice.op == PW_WIRE_SLICE_MAKE &&
		    r->want_type == PW_WIRE_SLICE &&
		    msg->body.slice.id == r->want_id && !r->have_status)
			r->slice_ans = msg->body.slice;
		else if (msg->body.slice.op == PW_WIRE_SLICE_MAKE &&
			 r->want_type == PW_WIRE_SLICE && r->group_ans &&
			 !r->have_status)
			on_group_member(r, &msg->body.slice);
		return 0;
	case PW_WIRE_DONE:
		return on_done(r, &msg->body.done, false, now);
	case PW_WIRE_PEER:
		return on_peer(r, &msg->body.peer);
	default:
		return 0;
	}
}

/*
 * Under the lock: step for up to @until (at least once), heartbeating
 * while the wait is long.
 */
int pw_rc_step(struct pw_remote *r, uint64_t until)
{
	uint64_t now = pw_now_ns(), beat = PW_RC_HEARTBEAT_MS * 1000000ull;
	int ret;

	pw_rc_keepalive(r, now);
	ret = pw_node_step(&r->node, until <= now ? 0 :
			   until - now < beat ? until - now : beat);
	pw_rc_data_poll(r);
	return ret;
}

/* How often a long wait for a run says, in the log, where it stands. */
#define PW_RC_LONG_WAIT_NS	(20 * 1000000000ull)

/* Step until *@flag or the timeout. */
static int rc_wait(struct pw_remote *r, const bool *flag,
		   unsigned int timeout_ms)
{
	uint64_t until = pw_now_ns() + timeout_ms * 1000000ull;
	int ret = 0;

	pw_rc_lock(r);
	while (!*flag && !ret) {
		if (pw_now_ns() >= until)
			ret = -ETIMEDOUT;
		else
			ret = pw_rc_step(r, until);
	}
	pw_rc_unlock(r);
	return ret;
}

/* A long wait for run @run: what its workers sent us, for the log. */
static void log_long_wait(struct pw_remote *r, const struct pw_rc_run *run)
{
	unsigned int i;

	pw_log("client node %u: run %u: %u of %u worker DONEs after %llu s; %llu datagrams from strangers",
	       r->node.id, run->run_id,
	       pw_hostset_count(&run->hosts_done), run->nhosts,
	       (unsigned long long)((pw_now_ns() - run->sent_ns) / 1000000000ull),
	       (unsigned long long)r->node.stats.strangers);
	for (i = 0; i < r->node.npeers; i++) {
		const struct pw_node_peer *p = &r->node.peers[i];
		const struct pw_rchan_stats *st;

		if (!p->ch || p == r->ctl)
			continue;
		st = pw_rchan_stats(p->ch);
		pw_log("client node %u: worker node %u at %s:%u: %llu delivered, %llu duplicates, %llu stale, %llu misaddressed",
		       r->node.id, p->id, inet_ntoa(p->addr.sin_addr),
		       ntohs(p->addr.sin_port),
		       (unsigned long long)st->delivered,
		       (unsigned long long)st->duplicates,
		       (unsigned long long)st->stale,
		       (unsigned long long)st->misaddressed);
	}
}

/*
 * Step until *@flag, however long, while the controller answers: -ETIMEDOUT
 * once it has been silent for the answer timeout (the waits send it
 * heartbeats, which it acknowledges).
 */
static int rc_wait_live(struct pw_remote *r, const bool *flag,
			const struct pw_rc_run *run)
{
	uint64_t silence = r->answer_timeout_ms * 1000000ull, heard;
	uint64_t next_log = pw_now_ns() + PW_RC_LONG_WAIT_NS;
	int ret = 0;

	pw_rc_lock(r);
	while (!*flag && !ret) {
		if (pw_now_ns() >= next_log) {
			log_long_wait(r, run);
			next_log += PW_RC_LONG_WAIT_NS;
		}
		heard = r->ctl ? r->ctl->last_heard_ns : 0;
		if (heard < r->waiting_since_ns)
			heard = r->waiting_since_ns;
		if (pw_now_ns() >= heard + silence)
			ret = -ETIMEDOUT;
		else
			ret = pw_rc_step(r, heard + silence);
	}
	pw_rc_unlock(r);
	return ret;
}

int pw_rc_send(struct pw_remote *r, struct pw_wire_msg *m)
{
	uint64_t now = pw_now_ns();
	int ret;

	pw_rc_lock(r);
	ret = pw_node_send(&r->node, r->ctl, m, now);
	if (!ret)
		r->last_sent_ns = now;
	/*
	 * Queued behind a full window: read the acks that came, so it goes
	 * now and not at the client's next wait (runs of a client that
	 * sends and waits elsewhere would reach the controller late).
	 */
	if (!ret && pw_node_queued(r->ctl))
		pw_node_step(&r->node, 0);
	pw_rc_unlock(r);
	return ret;
}


int pw_remote_open(struct pw_remote *r, struct pw_transport *t,
		   const struct pw_auth_key *key,
		   const struct sockaddr_in *controller, const char *name,
		   unsigned int timeout_ms)
{
	pthread_mutexattr_t attr;
	struct pw_wire_msg m;
	uint32_t id;
	int ret;

	memset(r, 0, sizeof(*r));
	r->answer_timeout_ms = PW_REMOTE_TIMEOUT_MS;
	/* Recursive: a call holding it may send and wait, which take it. */
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&r->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	/*
	 * Random, not the pid: clients on different hosts share one id
	 * space, and their pids repeat from host to host.
	 */
	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = (uint32_t)getpid() ^ (uint32_t)pw_now_ns();
	ret = pw_node_init(&r->node, PW_NODE_CLIENT_BASE | (id & 0x7fffffff),
			   t, key, rc_handle, r);
	if (ret)
		return ret;
	r->ctl = pw_node_peer(&r->node, PW_NODE_CONTROLLER, controller);
	if (!r->ctl)
		return pw_fail(-ENOMEM, "no memory for a channel to the controller");
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_CONNECT;
	m.body.connect.pid = (uint32_t)getpid();
	snprintf(m.body.connect.name, sizeof(m.body.connect.name), "%s",
		 name ? name : "client");
	ret = pw_rc_send(r, &m);
	if (!ret)
		ret = rc_wait(r, &r->connected, timeout_ms);
	if (!ret && r->ack.status)
		ret = -(int)r->ack.status;
	/* Alive between calls too, however long the caller computes. */
	if (!ret)
		ret = pw_rc_beat_start(r);
	return ret;
}

/*
 * A remote client's end of the control plane: kernel UDP, or DPDK when
 * PATHWAYS_TRANSPORT=dpdk (on this host's address toward @ctl; a client
 * on the host of DPDK daemons must be one: the kernel would deliver its
 * datagrams to them over lo, where DPDK does not look).
 */
static int rc_transport(struct pw_transport **t, const struct sockaddr_in *ctl)
{
	const char *kind = getenv("PATHWAYS_TRANSPORT");
	struct sockaddr_in me = { .sin_family = AF_INET };
	char ifname[IF_NAMESIZE] = "";
	int ret;

	if (!kind || !kind[0])
		kind = "udp";
	if (strcmp(kind, "udp") && strcmp(kind, "dpdk"))
		return pw_fail(-EINVAL, "PATHWAYS_TRANSPORT=%s: want udp or dpdk",
			       kind);
	if (!strcmp(kind, "dpdk")) {
		ret = pw_addr_toward(ctl, &me, ifname);
		if (ret)
			return pw_fail(ret, "dpdk: no interface on the controller's subnet (%s)",
				       inet_ntoa(ctl->sin_addr));
	}
	ret = pw_transport_open(t, kind, ifname[0] ? ifname : NULL, &me);
	if (ret)
		return pw_fail(ret, "an endpoint for the control plane (%s%s%s): %s",
			       kind, ifname[0] ? " on " : "", ifname,
			       strerror(-ret));
	return 0;
}

int pw_remote_connect(const char *controller, const char *name,
		      struct pw_remote **out)
{
	struct sockaddr_in ctl, any = { .sin_family = AF_INET };
	struct pw_transport *t;
	struct pw_auth_key key;
	const char *data = getenv("PATHWAYS_DATA");
	struct pw_remote *r;
	char why[256];
	int ret;

	/* Whether a data plane is RDMA or TCP is each worker's (--data). */
	if (data && *data && strcmp(data, "off"))
		return pw_fail(-EINVAL,
			       "PATHWAYS_DATA=%s: only \"off\" (no data plane) is known; the workers choose RDMA or TCP",
			       data);
	if (controller && pw_parse_addr(controller, &ctl))
		return pw_fail(-EINVAL, "controller address \"%s\": want a.b.c.d:port",
			       controller);
	/* A cluster's key is on its hosts; the process's own is made here. */
	if (controller && (ret = pw_auth_key_default(&key, why, sizeof(why))))
		return pw_fail(ret, "%s", why);
	/*
	 * The node's log is the user's to ask for (PATHWAYS_LOG=1: standard
	 * error): a library does not write into its user's output.
	 */
	pw_log_default(getenv("PATHWAYS_LOG") ? stderr : NULL);
	/* No address: the controller and worker run in this process. */
	if (!controller) {
		ret = pw_local_get(&ctl, &key);
		if (ret)
			return ret;
	}
	r = malloc(sizeof(*r));
	if (!r) {
		ret = pw_fail(-ENOMEM, "no memory for a remote client");
		goto err_local;
	}
	ret = controller ? rc_transport(&t, &ctl) : pw_loop_open(&t, &any);
	if (ret) {
		free(r);
		if (!controller)
			pw_fail(ret, "an endpoint for the control plane: %s",
				strerror(-ret));
		goto err_local;
	}
	ret = pw_remote_open(r, t, &key, &ctl, name, PW_REMOTE_TIMEOUT_MS);
	r->local = !controller;
	/* PATHWAYS_DATA=off: host data in control-plane parts only. */
	r->dp_tried = data && !strcmp(data, "off");
	if (ret) {
		pw_remote_shut(r);
		free(r);
		return pw_fail(ret, "connecting to the controller at %s: %s",
			       controller ? controller : "(in-process)",
			       strerror(-ret));
	}
	*out = r;
	return 0;
err_local:
	if (!controller)
		pw_local_put();
	return ret;
}

void pw_remote_shut(struct pw_remote *r)
{
	struct pw_wire_msg m;
	unsigned int i;

	pw_rc_beat_stop(r);
	/* BYE: the controller and workers free all the client had. */
	if (r->connected) {
		memset(&m, 0, sizeof(m));
		m.hdr.type = PW_WIRE_BYE;
		pw_rc_send(r, &m);
	}
	/* Let the last messages and acks go out before the channel goes. */
	for (i = 0; i < 100 && r->ctl && r->ctl->ch &&
	     pw_rchan_inflight(r->ctl->ch) + pw_node_queued(r->ctl); i++)
		pw_node_step(&r->node, 10000000ull);
	pw_rc_data_close(r);
	pw_node_fini(&r->node);
	free(r->bufs);
	r->bufs = NULL;
	free(r->progs);
	r->progs = NULL;
	free(r->slices);
	r->slices = NULL;
	if (r->local)
		pw_local_put();
	r->local = false;
	pthread_mutex_destroy(&r->lock);
}

int pw_remote_program_add(struct pw_remote *r, uint32_t id, unsigned int nres,
			  unsigned int ncomp, const uint32_t *slice,
			  const struct pw_hostset *hosts)
{
	struct pw_rc_prog *p = realloc(r->progs,
				       (r->nprogs + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	r->progs = p;
	p = &r->progs[r->nprogs++];
	p->id = id;
	p->nres = nres;
	p->ncomp = ncomp;
	p->hosts = *hosts;
	memcpy(p->slice, slice, nres * sizeof(*slice));
	return 0;
}

static const struct pw_rc_prog *prog_find(const struct pw_remote *r,
					  uint32_t id)
{
	unsigned int i;

	for (i = 0; i < r->nprogs; i++)
		if (r->progs[i].id == id)
			return &r->progs[i];
	return NULL;
}

void pw_remote_close(struct pw_remote *r)
{
	if (!r)
		return;
	pw_remote_shut(r);
	free(r);
}

unsigned int pw_remote_host_devices(const struct pw_remote *r,
				    unsigned int host)
{
	return host < PW_WIRE_MAX_HOSTS ? r->ack.host_devices[host] : 0;
}

uint32_t pw_remote_next_obj_id(struct pw_remote *r)
{
	r->next_obj = (r->next_obj + 1) & ~PW_WIRE_BUF_TEMP;
	if (!r->next_obj)
		r->next_obj = 1;
	return r->next_obj;
}

static const struct pw_rc_buf *buf_find(const struct pw_remote *r,
					uint32_t id)
{
	unsigned int i;

	for (i = 0; i < r->nbufs; i++)
		if (r->bufs[i].id == id)
			return &r->bufs[i];
	return NULL;
}

uint32_t pw_remote_next_id(struct pw_remote *r)
{
	/*
	 * The low bits name a buffer's shards (PW_WIRE_SHARD_BITS). Once the
	 * ids have wrapped, one a live buffer still has is passed over.
	 */
	do {
		r->next_id = (r->next_id + (1u << PW_WIRE_SHARD_BITS)) &
			     ~PW_WIRE_BUF_TEMP;
		if (!r->next_id) {
			r->next_id = 1u << PW_WIRE_SHARD_BITS;
			r->ids_wrapped = true;
		}
	} while (r->ids_wrapped && buf_find(r, r->next_id));
	return r->next_id;
}

int pw_remote_program_wait(struct pw_remote *r, struct pw_hostset *hosts)
{
	int ret;

	pw_rc_lock(r);
	ret = rc_wait(r, &r->have_program_ack, PW_REMOTE_TIMEOUT_MS);
	if (!ret)
		ret = -(int)r->program_ack.status;
	memcpy(hosts->w, r->program_ack.hosts, sizeof(hosts->w));
	pw_rc_unlock(r);
	return ret;
}

/* Wait for the STATUS of (@type, @id) that the last send asked for. */
static int wait_status(struct pw_remote *r, uint64_t *value)
{
	int ret = rc_wait(r, &r->have_status, PW_REMOTE_TIMEOUT_MS);

	r->want_type = 0;
	if (ret)
		return ret;
	if (value)
		*value = r->status.value;
	return -(int)r->status.status;
}

static void expect_status(struct pw_remote *r, uint8_t type, uint32_t id)
{
	pw_rc_lock(r);
	r->want_type = type;
	r->want_id = id;
	r->have_status = false;
	pw_rc_unlock(r);
}

/* Ship a payload of head @desc, @image and @consts as FUNCTION @id. */
static int ship_function(struct pw_remote *r, uint32_t id,
			 const struct pw_wire_fn_desc *desc,
			 const void *image, const void *consts)
{
	uint32_t total;
	uint8_t *payload;
	int ret;

	payload = pw_fn_payload_pack(desc, image, consts, &total);
	if (!payload)
		return pw_fail(-ENOMEM, "function: no memory for its payload");
	expect_status(r, PW_WIRE_FUNCTION, id);
	pw_rc_lock(r);
	ret = pw_fn_payload_send(&r->node, r->ctl, id, 0, payload, total);
	pw_rc_unlock(r);
	free(payload);
	return ret ? ret : wait_status(r, NULL);
}

int pw_remote_function(struct pw_remote *r, const struct pw_fn *fn,
		       uint32_t *fn_id)
{
	struct pw_wire_fn_desc d;
	uint32_t id;
	int ret;

	pw_fn_payload_desc(fn, &d);
	id = pw_remote_next_obj_id(r);
	ret = ship_function(r, id, &d, fn->image, fn->const_data);
	if (ret)
		return pw_fail(ret, "%s: the controller refused the function: %s",
			       fn->name, strerror(-ret));
	*fn_id = id;
	return 0;
}

int pw_remote_function_image(struct pw_remote *r, const void *image,
			     size_t size, uint64_t scratch_bytes,
			     uint32_t *fn_id)
{
	struct pw_wire_fn_desc d;
	uint32_t id = pw_remote_next_obj_id(r);
	int ret;

	memset(&d, 0, sizeof(d));
	d.nbufs = 1;
	d.scratch_buf = 0;
	d.const_buf = -1;
	d.image_bytes = (uint32_t)size;
	d.scratch_bytes = scratch_bytes;
	ret = ship_function(r, id, &d, image, NULL);
	if (!ret)
		*fn_id = id;
	return ret;
}

int pw_remote_track(struct pw_remote *r, uint32_t id, uint32_t slice)
{
	const struct pw_rc_slice *s;

	if (r->nbufs == r->cap) {
		unsigned int cap = r->cap ? 2 * r->cap : 64;
		struct pw_rc_buf *b = realloc(r->bufs, cap * sizeof(*b));

		if (!b)
			return pw_fail(-ENOMEM, "buffer %u: no memory to keep track of it",
				       id);
		r->bufs = b;
		r->cap = cap;
	}
	s = pw_remote_slice_find(r, slice);
	/* Its shards, kept: a slice made again later must not lose them. */
	r->bufs[r->nbufs++] = (struct pw_rc_buf){ .id = id, .slice = slice,
						  .n = s ? s->n : 1 };
	return 0;
}

const struct pw_rc_slice *pw_remote_slice_find(const struct pw_remote *r,
					       uint32_t id)
{
	unsigned int i;

	for (i = 0; i < r->nslices; i++)
		if (r->slices[i].id == id)
			return &r->slices[i];
	return NULL;
}

/* SLICE MAKE @req: placed (or pinned) by the controller, remembered. */
static int slice_make(struct pw_remote *r, struct pw_wire_slice *req,
		      uint32_t *id)
{
	struct pw_rc_slice *s;
	struct pw_wire_msg m;
	uint64_t host;
	int ret;

	s = realloc(r->slices, (r->nslices + 1) * sizeof(*s));
	if (!s)
		return pw_fail(-ENOMEM, "slice: no memory for a new one");
	r->slices = s;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_SLICE;
	req->op = PW_WIRE_SLICE_MAKE;
	req->id = pw_remote_next_obj_id(r);
	m.body.slice = *req;
	expect_status(r, PW_WIRE_SLICE, req->id);
	memset(&r->slice_ans, 0, sizeof(r->slice_ans));
	ret = pw_rc_send(r, &m);
	if (!ret)
		ret = wait_status(r, &host);
	if (ret)
		return ret;
	/* The controller says where it went (a pinned one: where asked). */
	if (r->slice_ans.id != req->id || r->slice_ans.n != req->n)
		return -EPROTO;
	s = &r->slices[r->nslices++];
	*s = (struct pw_rc_slice){ .id = req->id, .host = (uint16_t)host,
				   .n = req->n,
				   .pinned = req->flags & PW_WIRE_SLICE_PINNED };
	memcpy(s->devs, r->slice_ans.devices, req->n);
	s->hbm_bytes = r->slice_ans.hbm_bytes;
	*id = req->id;
	return 0;
}

int pw_remote_slice_host(const struct pw_remote *r, uint32_t slice)
{
	const struct pw_rc_slice *s = pw_remote_slice_find(r, slice);

	if (!s)
		return -ENOENT;
	return s->members ? -EINVAL : s->host;
}

void pw_remote_stats(struct pw_remote *r, struct pw_client_stats *st)
{
	/*
	 * DONEs that came meanwhile count now, not at the next call; a call
	 * holding the node (a wait) reads them itself, and is not waited for.
	 */
	if (!pthread_mutex_trylock(&r->lock)) {
		pw_node_step(&r->node, 0);
		pthread_mutex_unlock(&r->lock);
	}
	memset(st, 0, sizeof(*st));
	st->submitted = atomic_load(&r->stats.submitted);
	st->completed = atomic_load(&r->stats.completed);
	st->failed = atomic_load(&r->stats.failed);
	st->cancelled = atomic_load(&r->stats.cancelled);
}

uint64_t pw_remote_slice_hbm(const struct pw_remote *r, uint32_t slice)
{
	const struct pw_rc_slice *s = pw_remote_slice_find(r, slice);

	return s ? s->hbm_bytes : 0;
}

int pw_remote_slice_device(const struct pw_remote *r, uint32_t slice,
			   unsigned int v)
{
	const struct pw_rc_slice *s = pw_remote_slice_find(r, slice);

	if (!s)
		return -ENOENT;
	return v < s->n && !s->members ? s->devs[v] : -EINVAL;
}

/* A SLICE request for @n devices shaped @shape (NULL: any). */
static int slice_request(unsigned int n, const char *shape,
			 struct pw_wire_slice *req)
{
	struct pw_rm_shape sh;
	unsigned int i;

	memset(req, 0, sizeof(*req));
	req->host = PW_WIRE_ANY_HOST;
	if (!n || n > PW_WIRE_MAX_DEVICES)
		return pw_fail(-EINVAL, "slice of %u devices: want 1..%u", n,
			       PW_WIRE_MAX_DEVICES);
	if (shape) {
		if (pw_rm_shape_parse(&sh, shape) ||
		    pw_rm_shape_size(&sh) != n)
			return pw_fail(-EINVAL, "slice of %u devices: mesh shape \"%s\" does not make %u",
				       n, shape, n);
		req->ndims = (uint8_t)sh.ndims;
		for (i = 0; i < sh.ndims; i++)
			req->shape[i] = sh.extent[i];
	}
	req->n = (uint8_t)n;
	return 0;
}

static const char *placing_error(int ret)
{
	return ret == -ENOSPC || ret == -E2BIG || ret == -ENODEV ?
	       "no island that is up has such devices free" : strerror(-ret);
}

int pw_remote_slice(struct pw_remote *r, unsigned int n, const char *shape,
		    uint32_t *slice)
{
	struct pw_wire_slice req;
	int ret;

	ret = slice_request(n, shape, &req);
	if (!ret)
		ret = slice_make(r, &req, slice);
	if (ret)
		return pw_fail(ret, "slice of %u devices%s%s: %s", n,
			       shape ? " shaped " : "", shape ? shape : "",
			       placing_error(ret));
	return 0;
}

int pw_remote_slice_near(struct pw_remote *r, unsigned int n,
			 const char *shape, uint32_t near, uint32_t *slice)
{
	int host = pw_remote_slice_host(r, near);
	struct pw_wire_slice req;
	int ret;

	if (host < 0)
		return pw_fail(-EINVAL, "slice of %u devices near slice %u: no such slice of this client (a group's members are near their own islands)",
			       n, near);
	ret = slice_request(n, shape, &req);
	if (ret)
		return ret;
	req.flags = PW_WIRE_SLICE_NEAR;
	req.host = (uint16_t)host;
	ret = slice_make(r, &req, slice);
	if (ret)
		return pw_fail(ret, "slice of %u devices%s%s near slice %u: %s",
			       n, shape ? " shaped " : "", shape ? shape : "",
			       near, placing_error(ret));
	return 0;
}

/* @n consecutive object ids, not wrapping: the first. */
static uint32_t next_obj_ids(struct pw_remote *r, unsigned int n)
{
	if (r->next_obj >= (PW_WIRE_BUF_TEMP - 1) - n)
		r->next_obj = 0;
	r->next_obj += n;
	return r->next_obj - n + 1;
}

/* GROUP @req: its members' answers gathered, then all of it kept. */
static int group_make(struct pw_remote *r, struct pw_wire_slice *req,
		      uint32_t *group)
{
	unsigned int members = req->members, m;
	uint64_t made, hbm = UINT64_MAX;
	struct pw_rc_slice *s;
	struct pw_wire_msg msg;
	int ret;

	s = realloc(r->slices, (r->nslices + members + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	r->slices = s;
	pw_rc_lock(r);
	r->group_ans = calloc(members, sizeof(*r->group_ans));
	r->group_members = members;
	pw_rc_unlock(r);
	if (!r->group_ans)
		return -ENOMEM;
	req->op = PW_WIRE_SLICE_GROUP;
	req->id = next_obj_ids(r, members + 1);
	memset(&msg, 0, sizeof(msg));
	msg.hdr.type = PW_WIRE_SLICE;
	msg.body.slice = *req;
	expect_status(r, PW_WIRE_SLICE, req->id);
	ret = pw_rc_send(r, &msg);
	if (!ret)
		ret = wait_status(r, &made);
	for (m = 0; !ret && m < members; m++) {
		if (r->group_ans[m].id != req->id + 1 + m ||
		    r->group_ans[m].n != req->n)
			ret = -EPROTO;	/* a member it did not tell */
		else if (r->group_ans[m].hbm_bytes < hbm)
			hbm = r->group_ans[m].hbm_bytes;
	}
	if (!ret) {
		memcpy(&r->slices[r->nslices], r->group_ans,
		       members * sizeof(*s));
		r->nslices += members;
		/* A shard must fit the smallest member's devices. */
		r->slices[r->nslices++] = (struct pw_rc_slice){ .id = req->id,
			.host = PW_WIRE_ANY_HOST, .n = req->n,
			.members = (uint16_t)members, .hbm_bytes = hbm };
		*group = req->id;
	} else if (ret == -ETIMEDOUT || ret == -EPROTO) {
		/*
		 * It may have been made all the same (no answer came, or one
		 * we cannot take): free it, or its members hold devices on
		 * hundreds of islands until we leave. A FREE of nothing is
		 * nothing; a refusal (EEXIST among them) made nothing.
		 */
		memset(&msg, 0, sizeof(msg));
		msg.hdr.type = PW_WIRE_SLICE;
		msg.body.slice.op = PW_WIRE_SLICE_FREE;
		msg.body.slice.id = req->id;
		pw_rc_send(r, &msg);
	}
	pw_rc_lock(r);
	free(r->group_ans);
	r->group_ans = NULL;
	pw_rc_unlock(r);
	return ret;
}

int pw_remote_slice_group(struct pw_remote *r, unsigned int members,
			  unsigned int n, const char *shape, uint32_t *group)
{
	struct pw_wire_slice req;
	int ret;

	if (members < 2 || members > PW_WIRE_MAX_HOSTS)
		return pw_fail(-EINVAL, "group of %u slices: want 2..%u",
			       members, PW_WIRE_MAX_HOSTS);
	ret = slice_request(n, shape, &req);
	if (ret)
		return ret;
	req.members = (uint16_t)members;
	ret = group_make(r, &req, group);
	if (ret)
		return pw_fail(ret, "group of %u slices of %u devices%s%s, each on its own island: %s",
			       members, n, shape ? " shaped " : "",
			       shape ? shape : "", placing_error(ret));
	return 0;
}

uint32_t pw_remote_group_member(const struct pw_remote *r, uint32_t group,
				unsigned int m)
{
	const struct pw_rc_slice *s = pw_remote_slice_find(r, group);

	return s && m < s->members ? group + 1 + m : 0;
}

/*
 * A worker restarted: the (host, device) slices the controller dropped
 * with it are made again when next named.
 */
static void forget_pinned(struct pw_remote *r)
{
	unsigned int i = 0;

	pw_rc_lock(r);
	while (i < r->nslices)
		if (r->slices[i].pinned)
			r->slices[i] = r->slices[--r->nslices];
		else
			i++;
	pw_rc_unlock(r);
}

int pw_remote_pinned_slice(struct pw_remote *r, unsigned int host,
			   unsigned int dev, uint32_t *slice)
{
	struct pw_wire_slice req = { .flags = PW_WIRE_SLICE_PINNED, .n = 1 };
	unsigned int i;
	int ret;

	for (i = 0; i < r->nslices; i++)
		if (r->slices[i].pinned && r->slices[i].host == host &&
		    r->slices[i].devs[0] == dev) {
			*slice = r->slices[i].id;
			return 0;
		}
	if (host >= PW_WIRE_MAX_HOSTS || dev >= PW_WIRE_MAX_DEVICES)
		return pw_fail(-EINVAL, "host %u device %u out of range", host,
			       dev);
	req.host = (uint16_t)host;
	req.devices[0] = (uint8_t)dev;
	ret = slice_make(r, &req, slice);
	if (ret)
		return pw_fail(ret, "device %u of host %u: %s", dev, host,
			       ret == -EHOSTDOWN ? "no such host up" :
			       ret == -ENODEV ? "no such device" :
			       strerror(-ret));
	return 0;
}

_Static_assert(PW_SCHED_FIFO == (int)PW_WIRE_SCHED_FIFO &&
	       PW_SCHED_SHARE == (int)PW_WIRE_SCHED_SHARE,
	       "pathways.h's policies are the wire's");

/* ADMIN @a, answered by STATUS; -EPERM named as the operator's. */
static int admin(struct pw_remote *r, struct pw_wire_admin *a,
		 const char *what)
{
	struct pw_wire_msg m;
	int ret;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_ADMIN;
	a->id = pw_remote_next_obj_id(r);
	m.body.admin = *a;
	expect_status(r, PW_WIRE_ADMIN, a->id);
	ret = pw_rc_send(r, &m);
	if (!ret)
		ret = wait_status(r, NULL);
	if (ret == -EPERM)
		return pw_fail(ret, "%s: the operator of pathwaysd sets the scheduling policy and weights (its configuration: --sched, --weight NAME=W) and its devices, not a client",
			       what);
	if (ret)
		return pw_fail(ret, "%s: %s", what,
			       ret == -EALREADY ? "it is so already" :
			       strerror(-ret));
	return 0;
}

int pw_remote_set_weight(struct pw_remote *r, const char *name,
			 unsigned int weight)
{
	struct pw_wire_admin a = { .op = PW_WIRE_ADMIN_WEIGHT,
				   .value = weight };

	if (!weight || weight > PW_WIRE_MAX_WEIGHT)
		return pw_fail(-EINVAL, "weight %u: must be 1..%u", weight,
			       PW_WIRE_MAX_WEIGHT);
	if (name && strlen(name) >= sizeof(a.name))
		return pw_fail(-ENAMETOOLONG, "weight of \"%s\": names have at most %zu characters",
			       name, sizeof(a.name) - 1);
	if (name)
		memcpy(a.name, name, strlen(name));
	return admin(r, &a, "weight");
}

int pw_remote_set_device(struct pw_remote *r, unsigned int host,
			 unsigned int dev, bool in_service)
{
	struct pw_wire_admin a = {
		.op = in_service ? PW_WIRE_ADMIN_DEVICE_IN :
		      PW_WIRE_ADMIN_DEVICE_OUT,
		.host = (uint16_t)host, .value = dev };
	char what[48];

	snprintf(what, sizeof(what), "device %u of host %u", dev, host);
	if (host >= PW_WIRE_MAX_HOSTS || dev >= PW_WIRE_MAX_DEVICES)
		return pw_fail(-EINVAL, "%s: no such device", what);
	return admin(r, &a, what);
}

int pw_remote_set_policy(struct pw_remote *r, enum pw_sched_policy policy,
			 unsigned int window)
{
	struct pw_wire_admin a = { .op = PW_WIRE_ADMIN_POLICY,
				   .value = (uint32_t)policy,
				   .window = window };

	if ((unsigned int)policy >= PW_WIRE_SCHED_NPOLICIES)
		return pw_fail(-EINVAL, "unknown scheduling policy %d", policy);
	if (window > PW_WIRE_MAX_SHARE_WINDOW)
		return pw_fail(-EINVAL, "window %u: at most %u runs per island",
			       window, PW_WIRE_MAX_SHARE_WINDOW);
	return admin(r, &a, "scheduling policy");
}

void pw_rc_buffer_create(struct pw_wire_msg *m, uint32_t slice, uint32_t id,
			 const struct pw_wire_sig *sig, uint64_t total)
{
	struct pw_wire_buffer *b = &m->body.buffer;

	memset(m, 0, sizeof(*m));
	m->hdr.type = PW_WIRE_BUFFER;
	b->op = PW_WIRE_BUF_CREATE;
	b->dtype = sig->dtype;
	b->rank = sig->rank;
	b->slice = slice;
	b->id = id;
	b->total = (uint32_t)total;
	memcpy(b->shape, sig->shape, sizeof(b->shape));
}

/* Shard handle @id (its shard in the low bits) of @size bytes from @data. */
static int shard_write(struct pw_remote *r, uint32_t slice, uint32_t id,
		       const struct pw_wire_sig *sig, uint64_t total,
		       const void *data)
{
	struct pw_wire_buffer *b;
	struct pw_wire_msg m;
	bool done = false;
	uint64_t off;
	int ret = 0;

	if (pw_rc_data_use(r, slice, 0, total))
		return pw_rc_data_write(r, slice, id, sig, total, data);
	pw_rc_buffer_create(&m, slice, id, sig, total);
	b = &m.body.buffer;
	expect_status(r, PW_WIRE_BUFFER, b->id);
	for (off = 0; off < total && !ret; off += b->nbytes) {
		uint64_t left = total - off;

		if (off) {
			/* Only the first part describes the buffer. */
			b->op = PW_WIRE_BUF_WRITE;
			b->dtype = 0;
			b->rank = 0;
			memset(b->shape, 0, sizeof(b->shape));
		}
		b->offset = (uint32_t)off;
		b->nbytes = (uint16_t)(left < PW_WIRE_BUF_CHUNK ?
				       left : PW_WIRE_BUF_CHUNK);
		memcpy(b->data, (const uint8_t *)data + off, b->nbytes);
		ret = pw_rc_send(r, &m);
		/* Hold back while a window's worth waits: the queue is bounded. */
		pw_rc_lock(r);
		while (!ret && pw_node_queued(r->ctl) > 4 * PW_RCHAN_WINDOW)
			ret = pw_rc_step(r, pw_now_ns() + 10000000ull);
		/* The worker answered early: it refused the buffer (no HBM). */
		done = r->have_status;
		pw_rc_unlock(r);
		if (done)
			break;
	}
	return ret ? ret : wait_status(r, NULL);
}

int pw_remote_buffer_sharded(struct pw_remote *r, uint32_t slice,
			     enum pwtpu_dtype dtype, unsigned int rank,
			     const uint32_t *shard_shape, const void *data,
			     bool replicate, uint32_t *id)
{
	const struct pw_rc_slice *s = pw_remote_slice_find(r, slice);
	struct pw_wire_sig sig = { .dtype = (uint8_t)dtype,
				   .rank = (uint8_t)rank };
	unsigned int v, m, nmem;
	uint32_t base, one;
	uint64_t total;
	int ret = 0;

	if (!s)
		return pw_fail(-ENOENT, "buffer: no slice %u", slice);
	if (rank > PW_WIRE_MAX_DIMS || !pwtpu_dtype_size(dtype))
		return pw_fail(-EINVAL, "buffer: dtype %u, rank %u: want a known dtype and rank <= %u",
			       dtype, rank, PW_WIRE_MAX_DIMS);
	memcpy(sig.shape, shard_shape, rank * sizeof(*shard_shape));
	total = pw_wire_sig_bytes(&sig);
	if (total > s->hbm_bytes)
		return pw_fail(-E2BIG, "buffer: a shard of %llu bytes is larger than a device's HBM (%llu bytes)",
			       (unsigned long long)total,
			       (unsigned long long)s->hbm_bytes);
	/* A group's members each get it all, under the one id. */
	nmem = s->members ? s->members : 1;
	for (m = 0; m < nmem; m++) {
		one = s->members ? slice + 1 + m : slice;
		if (!total || total > UINT32_MAX ||
		    (total > PW_WIRE_MAX_BUF_BYTES &&
		     !pw_rc_data_use(r, one, 0, total)))
			return pw_fail(-EINVAL, "buffer: %llu bytes a shard: from host memory, at most %u bytes a shard go over the control plane, and slice %u's worker and this client have no data plane in common (make larger values on the devices)",
				       (unsigned long long)total,
				       PW_WIRE_MAX_BUF_BYTES, one);
	}
	base = pw_remote_next_id(r);
	for (m = 0; m < nmem && !ret; m++) {
		one = s->members ? slice + 1 + m : slice;
		for (v = 0; v < s->n && !ret; v++)
			ret = shard_write(r, one, base | v, &sig, total,
					  (const uint8_t *)data +
					  (replicate ? 0 : v * total));
	}
	if (ret) {
		/* What was made goes again: the worker frees what it has. */
		for (v = 0; v < s->n; v++)
			pw_remote_free_shard(r, slice, base | v);
		if (ret == -ENOSPC)
			return pw_fail(-ENOMEM, "buffer of %u shards on slice %u: a device's HBM is full",
				       s->n, slice);
		return pw_fail(ret, "buffer of %u shards on slice %u: %s", s->n,
			       slice, strerror(-ret));
	}
	*id = base;
	return pw_remote_track(r, base, slice);
}

int pw_remote_buffer(struct pw_remote *r, unsigned int host,
		     unsigned int dev, enum pwtpu_dtype dtype,
		     unsigned int rank, const uint32_t *shape,
		     const void *data, uint32_t *id)
{
	uint32_t slice;
	int ret;

	if (rank > PW_WIRE_MAX_DIMS || !pwtpu_dtype_size(dtype))
		return pw_fail(-EINVAL, "buffer: dtype %u, rank %u: want a known dtype and rank <= %u",
			       dtype, rank, PW_WIRE_MAX_DIMS);
	ret = pw_remote_pinned_slice(r, host, dev, &slice);
	if (ret)
		return pw_fail(ret, "buffer on host %u device %u: %s", host,
			       dev, pw_last_error());
	return pw_remote_buffer_sharded(r, slice, dtype, rank, shape, data,
					false, id);
}

/* Read shard handle @id (on @slice, or on @host when 0) into @data. */
static int shard_read(struct pw_remote *r, uint32_t slice, unsigned int host,
		      uint32_t id, void *data, size_t size)
{
	bool done = false;
	struct pw_wire_msg m;
	uint64_t until = pw_now_ns() + PW_REMOTE_TIMEOUT_MS * 1000000ull;
	int ret;

	if (pw_rc_data_use(r, slice, host, size)) {
		ret = pw_rc_data_read(r, slice, host, id, data, size);
		if (ret != -EOPNOTSUPP)
			return ret;
	}
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BUFFER;
	m.body.buffer.op = PW_WIRE_BUF_READ;
	m.body.buffer.slice = slice;
	m.body.buffer.host = slice ? 0 : (uint16_t)host;
	m.body.buffer.id = id;
	/* The heartbeat thread's steps deliver too: set up under the lock. */
	pw_rc_lock(r);
	r->read_buf = data;
	r->read_size = size;
	r->read_got = 0;
	r->read_id = id;
	expect_status(r, PW_WIRE_BUFFER, id);
	ret = pw_rc_send(r, &m);
	/* DATA parts until all came, or a STATUS saying why not. */
	while (!ret && !done) {
		if (pw_now_ns() >= until)
			ret = -ETIMEDOUT;
		else
			ret = pw_rc_step(r, until);
		if (r->have_status)
			ret = r->status.status ? -(int)r->status.status : -EPROTO;
		done = r->read_got == size;
	}
	r->read_buf = NULL;
	r->want_type = 0;
	pw_rc_unlock(r);
	return ret;
}

/* The member of group @g on @host, or NULL. */
static const struct pw_rc_slice *member_on(const struct pw_remote *r,
					   const struct pw_rc_slice *g,
					   unsigned int host)
{
	const struct pw_rc_slice *s;
	unsigned int m;

	for (m = 0; m < g->members; m++) {
		s = pw_remote_slice_find(r, g->id + 1 + m);
		if (s && s->host == host)
			return s;
	}
	return NULL;
}

int pw_remote_read(struct pw_remote *r, unsigned int host, uint32_t id,
		   void *data, size_t size)
{
	const struct pw_rc_buf *b = buf_find(r, id);
	const struct pw_rc_slice *s = b ? pw_remote_slice_find(r, b->slice) :
				      NULL;
	unsigned int v, n = s ? s->n : 1;
	int ret = 0;

	if (s && s->members) {
		s = member_on(r, s, host);
		if (!s)
			return pw_fail(-ENOENT, "reading buffer %u: its group has no member on host %u",
				       id, host);
	}

	if (size % n)
		return pw_fail(-EINVAL, "reading buffer %u: %zu bytes are not %u whole shards",
			       id, size, n);
	/* An id we never had still goes: the worker answers for it. */
	for (v = 0; v < n && !ret; v++)
		ret = shard_read(r, s ? s->id : 0, host, id | v,
				 (uint8_t *)data + v * (size / n), size / n);
	if (ret)
		return pw_fail(ret, "reading buffer %u (%zu bytes): %s", id,
			       size, strerror(-ret));
	return 0;
}

int pw_remote_free_shard(struct pw_remote *r, uint32_t slice, uint32_t id)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BUFFER;
	m.body.buffer.op = PW_WIRE_BUF_FREE;
	m.body.buffer.slice = slice;
	m.body.buffer.id = id;
	return pw_rc_send(r, &m);
}

int pw_remote_free(struct pw_remote *r, unsigned int host, uint32_t id)
{
	unsigned int i, v, n;
	uint32_t slice;
	int ret = 0;

	(void)host;	/* the buffer's slice says where it is */
	for (i = 0; i < r->nbufs; i++)
		if (r->bufs[i].id == id)
			break;
	if (i == r->nbufs)
		return pw_fail(-ENOENT, "free: no buffer %u", id);
	slice = r->bufs[i].slice;
	n = r->bufs[i].n;
	r->bufs[i] = r->bufs[--r->nbufs];
	/* By its slice, which the controller still has if its host does. */
	for (v = 0; v < n && !ret; v++)
		ret = pw_remote_free_shard(r, slice, id | v);
	return ret;
}

void pw_remote_set_run_timeout(struct pw_remote *r, unsigned int timeout_ms)
{
	r->run_timeout_ms = timeout_ms;
}

void pw_remote_set_answer_timeout(struct pw_remote *r, unsigned int timeout_ms)
{
	r->answer_timeout_ms = timeout_ms ? timeout_ms : PW_REMOTE_TIMEOUT_MS;
}

int pw_remote_run_async(struct pw_remote *r, uint32_t prog,
			const uint32_t *args, unsigned int nargs,
			uint32_t *results, unsigned int nres,
			uint32_t *ticket)
{
	const struct pw_rc_prog *p;
	struct pw_wire_msg m;
	struct pw_rc_run *run;
	uint64_t deadline;
	unsigned int i;
	bool forgotten;
	int ret = 0;

	if (nargs + nres > PW_WIRE_RUN_IDS)
		return pw_fail(-E2BIG, "run: %u arguments + %u results: at most %u",
			       nargs, nres, PW_WIRE_RUN_IDS);
	pw_rc_lock(r);
	/*
	 * The next free slot: a run kept unwaited (a long-lived future) or
	 * forgotten and still in flight holds its own, and is skipped. With
	 * all held by runs some of which are forgotten, their slots free as
	 * their DONEs come: step and look again, for up to the answer
	 * timeout from now (a client that issues runs faster than the
	 * devices finish them is held back here, not failed).
	 */
	deadline = pw_now_ns() + PW_REMOTE_TIMEOUT_MS * 1000000ull;
	for (;;) {
		forgotten = false;
		for (i = 0; i < PW_RC_MAX_RUNS; i++) {
			if (++r->next_run == 0)
				r->next_run = 1;
			run = run_slot(r, r->next_run);
			if (!run->used)
				break;
			forgotten |= run->forgotten;
		}
		if (!run->used || !forgotten || pw_now_ns() >= deadline)
			break;
		ret = pw_rc_step(r, pw_now_ns() + 10000000ull);
		if (ret < 0) {
			pw_rc_unlock(r);
			return ret;
		}
		ret = 0;
	}
	if (run->used) {
		pw_rc_unlock(r);
		if (forgotten)
			return pw_fail(-EBUSY, "run: %u runs in flight, none done in %u ms",
				       PW_RC_MAX_RUNS, PW_REMOTE_TIMEOUT_MS);
		return pw_fail(-EBUSY, "run: %u runs not waited for yet",
			       PW_RC_MAX_RUNS);
	}
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_RUN;
	m.body.run.program_id = prog;
	m.body.run.run_id = r->next_run;
	m.body.run.nargs = (uint16_t)nargs;
	m.body.run.nresults = (uint16_t)nres;
	memcpy(m.body.run.ids, args, nargs * sizeof(*args));
	for (i = 0; i < nres; i++)
		m.body.run.ids[nargs + i] = results[i] = pw_remote_next_id(r);
	memset(run, 0, sizeof(*run));
	p = prog_find(r, prog);
	run->used = true;
	run->ncomp = p ? p->ncomp : 0;
	/* Only these workers' DONEs count; none for a program not ours. */
	if (p)
		run->hosts = p->hosts;
	run->nhosts = pw_hostset_count(&run->hosts);
	run->run_id = r->next_run;
	run->timeout_ms = m.body.run.timeout_ms = r->run_timeout_ms;
	m.body.run.client_send_ns = run->sent_ns = pw_now_ns();
	ret = pw_rc_send(r, &m);
	if (ret)
		run->used = false;
	else
		atomic_fetch_add(&r->stats.submitted, run->ncomp);
	pw_rc_unlock(r);
	if (ret)
		return pw_fail(ret, "run: sending: %s", strerror(-ret));
	*ticket = run->run_id;
	/* The results are the client's buffers: freed at close if not before. */
	for (i = 0; p && i < nres && i < p->nres; i++)
		pw_remote_track(r, results[i], p->slice[i]);
	return 0;
}

int pw_remote_wait_done(struct pw_remote *r, uint32_t ticket,
			struct pw_wire_done *done, uint64_t *sent_ns,
			uint64_t *recv_ns)
{
	struct pw_rc_run *run = run_slot(r, ticket);
	uint32_t status;
	int ret;

	pw_rc_lock(r);
	if (!run->used || run->run_id != ticket) {
		pw_rc_unlock(r);
		return pw_fail(-ENOENT, "wait: no run %u in flight", ticket);
	}
	/*
	 * As long as it takes: the controller ends a run at its deadline
	 * (if it has one) and answers; only its silence ends the wait.
	 */
	r->waiting_since_ns = pw_now_ns();
	ret = rc_wait_live(r, &run->have_done, run);
	if (!ret) {
		if (done)
			*done = run->done;
		if (sent_ns)
			*sent_ns = run->sent_ns;
		if (recv_ns)
			*recv_ns = run->recv_ns;
		run->used = false;
	}
	status = run->done.status;
	pw_rc_unlock(r);
	/* Given up on: its DONE, if it ever comes, frees its slot. */
	if (ret)
		pw_remote_forget(r, ticket);
	if (ret == -ETIMEDOUT)
		return pw_fail(ret, "run %u: the controller has not answered for %u ms: it or the way to it is gone",
			       ticket, r->answer_timeout_ms);
	if (ret)
		return pw_fail(ret, "run %u: no answer: %s", ticket,
			       strerror(-ret));
	if (status == ESTALE) {
		forget_pinned(r);
		return pw_fail(-ESTALE, "run %u failed: a host of its program registered again (its worker restarted, losing its slices and buffers): make them and the program again",
			       ticket);
	}
	if (status == ELOOP)
		return pw_fail(-ELOOP, "run %u failed: a while loop of a function ran all the trips the device allows it without ending (ELOOP)",
			       ticket);
	if (status)
		return pw_fail(-(int)status, "run %u failed: %s", ticket,
			       strerror((int)status));
	return 0;
}

void pw_remote_forget(struct pw_remote *r, uint32_t ticket)
{
	struct pw_rc_run *run = run_slot(r, ticket);

	pw_rc_lock(r);
	if (run->used && run->run_id == ticket) {
		if (run->have_done)
			run->used = false;
		else
			run->forgotten = true;
	}
	pw_rc_unlock(r);
}

int pw_remote_wait(struct pw_remote *r, uint32_t ticket)
{
	return pw_remote_wait_done(r, ticket, NULL, NULL, NULL);
}

int pw_remote_run(struct pw_remote *r, uint32_t prog, const uint32_t *args,
		  unsigned int nargs, uint32_t *results, unsigned int nres)
{
	uint32_t ticket;
	int ret;

	ret = pw_remote_run_async(r, prog, args, nargs, results, nres, &ticket);
	return ret ? ret : pw_remote_wait(r, ticket);
}
