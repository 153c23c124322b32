// SPDX-License-Identifier: GPL-2.0
/*
 * controller.c - pathwaysd's controller role: workers register their
 * islands (one resource manager each), heartbeat both ways, and a worker
 * silent for down_ms is marked down: its devices leave placement, so new
 * work avoids them and slices on them fail. A worker heard again, or
 * registering again, comes back. Clients connect and learn the cluster.
 *
 * The controller introduces nodes that talk directly (PEER): every
 * worker to every client (DONE), when the later of the two arrives, and
 * two workers to each other (READY, the data plane) when a run first
 * needs them to, before its plans: all pairs at once would be n^2
 * messages as hundreds of hosts register (docs/dcn.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../util/log.h"
#include "roles.h"

void pw_ctl_log(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	pw_log("controller: %s", line);
}

static int ctl_reply(struct pw_controller *c, struct pw_node_peer *p,
		     struct pw_wire_msg *m, unsigned int type, uint64_t now)
{
	int ret;

	m->hdr.type = (uint8_t)type;
	ret = pw_node_send(&c->node, p, m, now);
	if (ret)
		pw_ctl_log("no room to answer node %u (%s)", p->id,
			   pw_wire_type_name(type));
	return ret;
}

/* A resource manager for the island @r describes, or -errno. */
static int island_rm(const struct pw_wire_register *r, struct pw_rm **rm)
{
	struct pw_rm_island desc;
	int ret;

	ret = pw_rm_island_parse(&desc, r->island_id, r->mesh);
	if (ret)
		return ret;
	if (desc.ndevices != r->ndevices)
		return -EINVAL;
	return pw_rm_create(rm, &desc);
}

static bool is_client(const struct pw_node_peer *p)
{
	return p->id & PW_NODE_CLIENT_BASE;
}

static bool is_dying(const struct pw_controller *c, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < PW_CTL_MAX_DYING; i++)
		if (c->dying[i] == id)
			return true;
	return false;
}

/* Tell @to where @about is (PEER). */
static int send_peer(struct pw_controller *c, struct pw_node_peer *to,
		     const struct pw_node_peer *about, uint64_t now)
{
	uint32_t host = about->id - PW_NODE_WORKER_BASE;
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.body.peer.node = about->id;
	m.body.peer.host = is_client(about) ? PW_WIRE_ANY_HOST : (uint16_t)host;
	m.body.peer.port = ntohs(about->addr.sin_port);
	memcpy(m.body.peer.ip, &about->addr.sin_addr, 4);
	if (!is_client(about) && host < PW_MAX_HOSTS &&
	    c->isl[host].reg.data_port)
		m.body.peer.flags = PW_WIRE_PEER_F_DP |
				    (c->isl[host].reg.has_rdma ?
				     PW_WIRE_PEER_F_RDMA : 0);
	return ctl_reply(c, to, &m, PW_WIRE_PEER, now);
}

/*
 * A worker's island (re)starts meeting others: what it knew of them, and
 * they of it, is forgotten or out of date (it registered again, came
 * back, or a run of it found a peer it was not introduced to).
 */
void pw_ctl_forget_met(struct pw_controller *c, unsigned int h)
{
	unsigned int o;

	pw_hostset_clear(&c->isl[h].met);
	for (o = 0; o < PW_MAX_HOSTS; o++)
		pw_hostset_del(&c->isl[o].met, h);
}

/*
 * Introduce node @p (a worker that registered or came back, a client
 * that connected) and every live node of the other kind, both ways:
 * clients to workers. Workers meet each other in pw_ctl_meet().
 */
static void introduce(struct pw_controller *c, struct pw_node_peer *p,
		      uint64_t now)
{
	int h = is_client(p) ? -1 : pw_ctl_host_of(c, p->id);
	unsigned int i;

	if (h >= 0)
		pw_ctl_forget_met(c, (unsigned int)h);
	for (i = 0; i < c->node.npeers; i++) {
		struct pw_node_peer *o = &c->node.peers[i];

		if (!o->ch || o == p || is_client(o) == is_client(p) ||
		    (is_client(o) && is_dying(c, o->id)))
			continue;
		if (!is_client(o) && !pw_ctl_worker_peer(c, o->id -
							 PW_NODE_WORKER_BASE))
			continue;	/* refused, or registered as another */
		send_peer(c, o, p, now);
		send_peer(c, p, o, now);
	}
}

void pw_ctl_meet(struct pw_controller *c, const struct pw_ctl_program *prog,
		 uint64_t now)
{
	struct pw_node_peer *a, *b;
	unsigned int i;

	for (i = 0; i < prog->npairs; i++) {
		const struct pw_ctl_pair *pr = &prog->pairs[i];

		if (pw_hostset_has(&c->isl[pr->a].met, pr->b))
			continue;
		a = pw_ctl_worker_peer(c, pr->a);
		b = pw_ctl_worker_peer(c, pr->b);
		if (!a || !b)
			continue;	/* the run fails on the host that is down */
		/* Met only if both were told: else the next run tries again. */
		if (send_peer(c, a, b, now) || send_peer(c, b, a, now))
			continue;
		pw_hostset_add(&c->isl[pr->a].met, pr->b);
		pw_hostset_add(&c->isl[pr->b].met, pr->a);
	}
}

static struct pw_ctl_island *island_of(struct pw_controller *c, uint32_t node)
{
	uint32_t host = node - PW_NODE_WORKER_BASE;

	if (node < PW_NODE_WORKER_BASE || host >= PW_MAX_HOSTS ||
	    !c->isl[host].used || c->isl[host].node != node)
		return NULL;
	return &c->isl[host];
}

/*
 * Forget @p a second from now, so that our acknowledgement of its last
 * message goes out first; at once when PW_CTL_MAX_DYING wait already.
 */
static void drop_later(struct pw_controller *c, struct pw_node_peer *p,
		       uint64_t now)
{
	unsigned int i, free_slot = PW_CTL_MAX_DYING;

	for (i = 0; i < PW_CTL_MAX_DYING; i++) {
		if (c->dying[i] == p->id)
			return;
		if (!c->dying[i] && free_slot == PW_CTL_MAX_DYING)
			free_slot = i;
	}
	if (free_slot == PW_CTL_MAX_DYING) {
		pw_node_drop_peer(&c->node, p);
		return;
	}
	c->dying[free_slot] = p->id;
	c->dying_ns[free_slot] = now + 1000000000ull;
}

static int on_register(struct pw_controller *c, struct pw_node_peer *p,
		       const struct pw_wire_msg *msg, uint64_t now)
{
	const struct pw_wire_register *r = &msg->body.reg;
	struct pw_wire_msg ack;
	struct pw_ctl_island *isl;
	struct pw_rm *rm;
	int ret = 0;

	memset(&ack, 0, sizeof(ack));
	ack.body.reg_ack.host_id = r->host_id;
	ack.body.reg_ack.heartbeat_ms = c->heartbeat_ms;
	ack.body.reg_ack.down_ms = c->down_ms;
	if (r->host_id >= PW_MAX_HOSTS ||
	    p->id != PW_NODE_WORKER_BASE + r->host_id) {
		ret = -EINVAL;
		pw_ctl_log("refused node %u: host id %u is not its own or past %u",
			   p->id, r->host_id, PW_MAX_HOSTS - 1);
	} else if ((ret = island_rm(r, &rm))) {
		pw_ctl_log("refused host %u: mesh \"%s\" with %u devices: %s",
			   r->host_id, r->mesh, r->ndevices, strerror(-ret));
	} else {
		isl = &c->isl[r->host_id];
		/* Registering again: what it had in flight is lost. */
		if (isl->used)
			pw_ctl_host_down(c, r->host_id, now);
		pw_ctl_fn_host_reset(c, r->host_id);
		pw_ctl_slices_host_reset(c, r->host_id);
		pw_ctl_programs_host_reset(c, r->host_id);
		pw_rm_destroy(isl->rm);
		isl->rm = rm;
		isl->used = true;
		isl->up = true;
		isl->node = p->id;
		isl->reg = *r;
		isl->last_ns = now;
		isl->out = 0;	/* a new worker: every device in service */
		pw_ctl_log("host %u registered: island %u, %u devices (%s), %llu MiB HBM each",
			   r->host_id, r->island_id, r->ndevices, r->mesh,
			   (unsigned long long)(r->hbm_bytes >> 20));
	}
	ack.body.reg_ack.status = (uint32_t)-ret;
	ctl_reply(c, p, &ack, PW_WIRE_REGISTER_ACK, now);
	if (!ret)
		introduce(c, p, now);
	else if (!is_client(p) && !island_of(c, p->id))
		drop_later(c, p, now);	/* no worker of ours: no slot kept */
	return ret;
}

static int on_heartbeat(struct pw_controller *c, struct pw_node_peer *p,
			uint64_t now)
{
	struct pw_ctl_island *isl = island_of(c, p->id);
	unsigned int d;

	if (!isl)
		return 0;	/* a client's: nothing to track yet */
	isl->last_ns = now;
	if (isl->up)
		return 0;
	for (d = 0; d < isl->reg.ndevices; d++)
		pw_rm_add_device(isl->rm, d);
	isl->up = true;
	pw_ctl_log("host %u is back: %u devices available again",
		   isl->reg.host_id, isl->reg.ndevices);
	/* Clients that connected meanwhile have not met it. */
	introduce(c, p, now);
	return 0;
}

void pw_controller_count(const struct pw_controller *c, unsigned int *islands,
			 unsigned int *devices)
{
	unsigned int h;

	*islands = 0;
	*devices = 0;
	for (h = 0; h < PW_MAX_HOSTS; h++) {
		if (!c->isl[h].used || !c->isl[h].up)
			continue;
		(*islands)++;
		*devices += c->isl[h].reg.ndevices;
	}
}

static int on_connect(struct pw_controller *c, struct pw_node_peer *p,
		      const struct pw_wire_msg *msg, uint64_t now)
{
	struct pw_wire_msg ack;
	unsigned int islands, devices, h;

	memset(&ack, 0, sizeof(ack));
	/* A worker's or the controller's id is no client's: never met. */
	if (!is_client(p)) {
		ack.body.connect_ack.status = EPERM;
		ctl_reply(c, p, &ack, PW_WIRE_CONNECT_ACK, now);
		drop_later(c, p, now);	/* its slot is not kept */
		return -EPERM;
	}
	pw_controller_count(c, &islands, &devices);
	ack.body.connect_ack.client_id = p->id;
	ack.body.connect_ack.nislands = islands;
	ack.body.connect_ack.ndevices = devices;
	for (h = 0; h < PW_MAX_HOSTS; h++)
		if (c->isl[h].used && c->isl[h].up)
			ack.body.connect_ack.host_devices[h] =
				(uint8_t)c->isl[h].reg.ndevices;
	c->clients++;
	pw_ctl_share_connect(c, p->id, msg->body.connect.name);
	pw_ctl_log("client \"%s\" (pid %u, node %u) connected: %u islands, %u devices",
		   msg->body.connect.name, msg->body.connect.pid, p->id, islands,
		   devices);
	introduce(c, p, now);
	ctl_reply(c, p, &ack, PW_WIRE_CONNECT_ACK, now);
	return 0;
}

/*
 * Client @p has gone (@why): its runs end, its programs and functions go,
 * every worker frees its buffers and functions, and its peer slot is
 * dropped a second later (our acknowledgement of its BYE goes first).
 */
static void client_gone(struct pw_controller *c, struct pw_node_peer *p,
			const char *why, uint64_t now)
{
	struct pw_wire_msg m;
	unsigned int h;

	pw_ctl_runs_forget_client(c, p->id, now);
	pw_ctl_fns_forget_client(c, p->id);
	pw_ctl_slices_forget_client(c, p->id);
	pw_ctl_share_forget_client(c, p->id);
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BYE;
	m.body.bye.client = p->id;
	for (h = 0; h < PW_MAX_HOSTS; h++) {
		struct pw_node_peer *wp = pw_ctl_worker_peer(c, h);

		if (wp)
			pw_node_send(&c->node, wp, &m, now);
	}
	c->gone++;
	pw_ctl_log("client node %u gone (%s): its objects are freed", p->id, why);
	drop_later(c, p, now);
}

/*
 * Clients that stopped acknowledging have gone; the peers of gone
 * clients are dropped once their time is up.
 */
static void ctl_reap_clients(struct pw_controller *c, uint64_t now)
{
	uint64_t limit = c->client_timeout_ms * 1000000ull;
	unsigned int i;

	for (i = 0; i < PW_CTL_MAX_DYING; i++) {
		struct pw_node_peer *p;

		if (!c->dying[i] || now < c->dying_ns[i])
			continue;
		p = pw_node_find(&c->node, c->dying[i]);
		/* A refused worker may have registered rightly since. */
		if (p && !island_of(c, p->id))
			pw_node_drop_peer(&c->node, p);
		c->dying[i] = 0;
	}
	for (i = 0; i < c->node.npeers; i++) {
		struct pw_node_peer *p = &c->node.peers[i];
		uint64_t oldest;

		if (!p->ch || !is_client(p) || is_dying(c, p->id))
			continue;
		/* A live client heartbeats even while its program computes. */
		if (now - p->last_heard_ns >= limit) {
			client_gone(c, p, "nothing heard from it for the client timeout",
				    now);
			continue;
		}
		oldest = pw_rchan_oldest_unacked(p->ch);
		if (oldest != UINT64_MAX && now - oldest >= limit)
			client_gone(c, p, "it acknowledged nothing for the client timeout",
				    now);
	}
}

static int ctl_handle(struct pw_node *node, struct pw_node_peer *p,
		      const struct pw_wire_msg *msg, uint64_t now)
{
	struct pw_controller *c = node->ctx;

	/* A client we gave up on is not served again, even if alive. */
	if (is_client(p) && is_dying(c, p->id))
		return -ESHUTDOWN;
	switch (msg->hdr.type) {
	case PW_WIRE_REGISTER:
		return on_register(c, p, msg, now);
	case PW_WIRE_HEARTBEAT:
		return on_heartbeat(c, p, now);
	case PW_WIRE_CONNECT:
		return on_connect(c, p, msg, now);
	case PW_WIRE_PROGRAM:
		return pw_ctl_on_program(c, p, msg, now);
	case PW_WIRE_RUN:
		return pw_ctl_on_run(c, p, msg, now);
	case PW_WIRE_DONE:
		return pw_ctl_on_done(c, p, msg, now);
	case PW_WIRE_FUNCTION:
		return pw_ctl_on_function(c, p, msg, now);
	case PW_WIRE_BUFFER:
		return pw_ctl_on_buffer(c, p, msg, now);
	case PW_WIRE_STATUS:
		return pw_ctl_on_status(c, p, msg, now);
	case PW_WIRE_SLICE:
		return pw_ctl_on_slice(c, p, msg, now);
	case PW_WIRE_ADMIN:
		return pw_ctl_on_admin(c, p, msg, now);
	case PW_WIRE_BYE:
		if (!is_client(p))
			return -EPROTO;
		client_gone(c, p, "it closed", now);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

int pw_controller_init(struct pw_controller *c, struct pw_transport *t,
		       const struct pw_auth_key *key,
		       unsigned int heartbeat_ms, unsigned int down_ms,
		       unsigned int client_timeout_ms)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->heartbeat_ms = heartbeat_ms ? heartbeat_ms : PW_HEARTBEAT_MS;
	c->down_ms = down_ms ? down_ms : PW_DOWN_MS;
	c->client_timeout_ms = client_timeout_ms ? client_timeout_ms :
						   PW_CLIENT_TIMEOUT_MS;
	c->share.window = PW_CTL_SHARE_WINDOW;
	c->program_cmds = PW_CTL_PROGRAM_CMDS;
	if (c->down_ms <= c->heartbeat_ms)
		return -EINVAL;
	ret = pw_node_init(&c->node, PW_NODE_CONTROLLER, t, key, ctl_handle, c);
	/* A worker that restarted elsewhere is taken once it is down here. */
	c->node.takeover_ns = c->down_ms * 1000000ull;
	return ret;
}

/*
 * Whether worker @p still talks, the client timeout after our oldest
 * unacknowledged message, without having acknowledged it: it is broken
 * or lying, and what we queue for it only grows. A worker that stalls
 * says nothing meanwhile, and its first word when it wakes acknowledges
 * all it got: silence is liveness's to judge (down, back when heard).
 */
static bool is_deaf(const struct pw_controller *c,
		    const struct pw_node_peer *p)
{
	uint64_t oldest = p ? pw_rchan_oldest_unacked(p->ch) : UINT64_MAX;

	return oldest != UINT64_MAX && p->last_heard_ns > oldest &&
	       p->last_heard_ns - oldest >= c->client_timeout_ms * 1000000ull;
}

/*
 * Mark workers silent for down_ms down; their devices leave placement.
 * A worker deaf for the client timeout is down too, and forgotten: its
 * queue goes, and it must register again (it will, once we fall silent).
 */
static void ctl_check_liveness(struct pw_controller *c, uint64_t now)
{
	unsigned int h, d;

	for (h = 0; h < PW_MAX_HOSTS; h++) {
		struct pw_ctl_island *isl = &c->isl[h];
		struct pw_node_peer *p;
		uint64_t silent;
		bool deaf;

		if (!isl->used || !isl->up)
			continue;
		silent = (now - isl->last_ns) / 1000000;
		p = pw_node_find(&c->node, isl->node);
		deaf = is_deaf(c, p);
		if (silent < c->down_ms && !deaf)
			continue;
		isl->up = false;
		for (d = 0; d < isl->reg.ndevices; d++)
			pw_rm_remove_device(isl->rm, d);
		c->downs++;
		pw_ctl_host_down(c, h, now);
		if (deaf) {
			c->deaf++;
			pw_node_drop_peer(&c->node, p);
			pw_ctl_log("host %u down: it talks but acknowledged nothing for %u ms; forgotten until it registers again",
				   h, c->client_timeout_ms);
			continue;
		}
		pw_ctl_log("host %u down: silent for %llu ms (limit %u ms); its %u devices removed",
			   h, (unsigned long long)silent, c->down_ms,
			   isl->reg.ndevices);
	}
}

/* HEARTBEAT to every worker that is up, so that it knows we are. */
static void ctl_beat(struct pw_controller *c, uint64_t now)
{
	struct pw_wire_msg m;
	unsigned int h;

	if (now - c->last_beat_ns < c->heartbeat_ms * 1000000ull)
		return;
	c->last_beat_ns = now;
	for (h = 0; h < PW_MAX_HOSTS; h++) {
		struct pw_node_peer *p;

		if (!c->isl[h].used || !c->isl[h].up)
			continue;
		p = pw_node_find(&c->node, c->isl[h].node);
		if (!p)
			continue;
		memset(&m, 0, sizeof(m));
		m.hdr.type = PW_WIRE_HEARTBEAT;
		m.body.heartbeat.time_ns = now;
		/* A full window means it is not acking: liveness decides. */
		pw_node_send(&c->node, p, &m, now);
	}
}

int pw_controller_step(struct pw_controller *c, uint64_t timeout_ns)
{
	uint64_t cap = c->heartbeat_ms * 1000000ull / 2;
	uint64_t now = pw_now_ns();
	int ret;

	/* Wake for the nearest run deadline too, not a heartbeat later. */
	if (c->next_deadline_ns) {
		uint64_t left = c->next_deadline_ns > now ?
				c->next_deadline_ns - now : 0;

		if (left < cap)
			cap = left;
	}
	ret = pw_node_step(&c->node, timeout_ns < cap ? timeout_ns : cap);
	now = pw_now_ns();
	pw_ctl_ends_flush(c, now);
	ctl_check_liveness(c, now);
	ctl_reap_clients(c, now);
	ctl_beat(c, now);
	/* The runs are looked at only when the nearest deadline passed. */
	if (c->next_deadline_ns && now >= c->next_deadline_ns)
		c->next_deadline_ns = pw_ctl_runs_expire(c, now);
	/* Held runs whose islands went down or whose time is up ended. */
	pw_ctl_share_pump(c, now);
	return ret;
}

void pw_controller_fini(struct pw_controller *c)
{
	unsigned int h;

	pw_ctl_runs_fini(c);
	pw_ctl_share_fini(c);
	pw_ctl_slices_fini(c);
	for (h = 0; h < PW_MAX_HOSTS; h++)
		pw_rm_destroy(c->isl[h].rm);
	pw_node_fini(&c->node);
}
