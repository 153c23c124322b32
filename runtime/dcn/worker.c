// SPDX-License-Identifier: GPL-2.0
/*
 * worker.c - pathwaysd's worker role on the control plane: register this
 * host's island with the controller, heartbeat as it asks, and when the
 * controller stays silent for its down time (it died, restarted, or the
 * network parted) start over with a fresh channel and register again.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pwtpu/pwtpu_dev.h>

#include "../util/log.h"
#include "roles.h"

static void wk_log(struct pw_worker *w, const char *what)
{
	pw_log("worker %u: %s", w->reg.host_id, what);
}

/* A fresh channel to the controller and a REGISTER on it. */
static int wk_register(struct pw_worker *w, uint64_t now)
{
	struct pw_wire_msg m;

	if (w->ctl) {
		unsigned int i;

		/*
		 * Runs of the controller we lose: it forgot us (down, or it
		 * restarted) and will send no CANCEL. They end here.
		 */
		for (i = 0; i < w->nruns; i++) {
			struct pw_wire_cancel cn = { .run_id = w->runs[i].id,
						     .status = ECONNRESET };

			if (w->runs[i].used)
				pw_wk_on_cancel(w, &cn);
		}
	}
	pw_wk_early_reset(w);
	/* Everyone: the controller introduces them again once we are back. */
	for (unsigned int i = 0; i < w->node.npeers; i++)
		if (w->node.peers[i].ch)
			pw_node_drop_peer(&w->node, &w->node.peers[i]);
	/*
	 * A new channel is a new stream: a greater session, or a controller
	 * that still has our old channel takes seq 1 for a duplicate.
	 */
	if (++w->node.session == 0)
		w->node.session = 1;
	w->ctl = pw_node_peer(&w->node, PW_NODE_CONTROLLER, &w->ctl_addr);
	w->registered = false;
	w->since_ns = now;
	if (!w->ctl)
		return 0;	/* pw_worker_step() tries again */
	w->ctl->last_heard_ns = now;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_REGISTER;
	m.body.reg = w->reg;
	return pw_node_send(&w->node, w->ctl, &m, now);
}

/* PEER: a client or worker we will talk to directly (its address). */
static int wk_on_peer(struct pw_worker *w, const struct pw_wire_peer *pe)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct pw_node_peer *p;

	if (pe->node == PW_NODE_CONTROLLER ||
	    pe->node == PW_NODE_WORKER_BASE + w->reg.host_id)
		return -EINVAL;
	memcpy(&addr.sin_addr, pe->ip, 4);
	addr.sin_port = htons(pe->port);
	p = pw_node_find(&w->node, pe->node);
	if (p) {
		p->addr = addr;	/* registered again, maybe elsewhere */
		return 0;
	}
	return pw_node_peer(&w->node, pe->node, &addr) ? 0 : -ENOSPC;
}

/* BYE: the client's objects go, and so does our channel to it. */
static int wk_on_bye(struct pw_worker *w, const struct pw_wire_bye *b)
{
	struct pw_node_peer *p = pw_node_find(&w->node, b->client);

	if (p && p != w->ctl)
		pw_node_drop_peer(&w->node, p);
	return pw_wk_on_bye(w, b);
}

static int wk_handle(struct pw_node *node, struct pw_node_peer *p,
		     const struct pw_wire_msg *msg, uint64_t now)
{
	struct pw_worker *w = node->ctx;
	char line[96];

	/* Another worker tells us only where to write (READY). */
	if (p != w->ctl && msg->hdr.type == PW_WIRE_READY)
		return pw_wk_on_ready(w, p, &msg->body.ready);
	if (p != w->ctl)
		return -EPERM;
	switch (msg->hdr.type) {
	case PW_WIRE_REGISTER_ACK:
		if (msg->body.reg_ack.status) {
			snprintf(line, sizeof(line), "controller refused us: %s",
				 strerror((int)msg->body.reg_ack.status));
			wk_log(w, line);
			return -(int)msg->body.reg_ack.status;
		}
		w->registered = true;
		w->registrations++;
		/* A partition healed keeps its clients; a restart does not. */
		if (w->ctl_session && msg->hdr.session != w->ctl_session) {
			w->ctl_restarts++;
			wk_log(w, "the controller restarted: its clients' objects here are freed");
			pw_wk_forget_all_clients(w);
		}
		w->ctl_session = msg->hdr.session;
		w->dev_out = 0;	/* the controller's view: all in service */
		w->heartbeat_ms = msg->body.reg_ack.heartbeat_ms;
		w->down_ms = msg->body.reg_ack.down_ms;
		snprintf(line, sizeof(line), "registered (heartbeat %u ms, down after %u ms)",
			 w->heartbeat_ms, w->down_ms);
		wk_log(w, line);
		return 0;
	case PW_WIRE_HEARTBEAT:
		return 0;
	case PW_WIRE_PLAN:
		return pw_wk_on_plan(w, msg, now);
	case PW_WIRE_FUNCTION:
		return pw_wk_on_function(w, &msg->body.function);
	case PW_WIRE_BUFFER:
		return pw_wk_on_buffer(w, &msg->body.buffer);
	case PW_WIRE_PEER:
		return wk_on_peer(w, &msg->body.peer);
	case PW_WIRE_CANCEL:
		return pw_wk_on_cancel(w, &msg->body.cancel);
	case PW_WIRE_BYE:
		return wk_on_bye(w, &msg->body.bye);
	case PW_WIRE_SLICE:
		return pw_wk_on_slice(w, &msg->body.slice);
	case PW_WIRE_ADMIN:
		return pw_wk_on_admin(w, &msg->body.admin);
	default:
		return -EOPNOTSUPP;
	}
}

static void wk_free(struct pw_worker *w)
{
	pw_wk_host_fini(w);
	pw_wk_runs_fini(w);
	pw_wstore_fini(&w->store);
	if (w->dp)
		pw_dp_close(w->dp);
	pw_wdev_close(&w->dev);
	free(w->runs);
	free(w->recv);
	free(w->send);
	free(w->slices);
	free(w->gangs);
	free(w->early);
}

/* The data plane, and what the registration says of it. */
static int wk_open_dp(struct pw_worker *w, const struct pw_dp_opts *o)
{
	struct sockaddr_in at;
	int ret;

	ret = pw_dp_open(o, &w->dp);
	if (ret)
		return ret;
	pw_dp_local(w->dp, &at);
	w->reg.data_port = ntohs(at.sin_port);
	memcpy(w->reg.data_ip, &at.sin_addr, 4);
	w->reg.has_rdma = !strcmp(pw_dp_kind(w->dp), "rdma");
	pw_log("worker %u: data plane %s on %s:%u (%s)", w->reg.host_id,
	       pw_dp_kind(w->dp), inet_ntoa(at.sin_addr), ntohs(at.sin_port),
	       pw_dp_note(w->dp));
	return 0;
}

/* "2x4t" from the island's description. */
static void mesh_string(const struct pw_rm_island *isl, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	for (i = 0; i < isl->shape.ndims && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
					i ? "x" : "", isl->shape.extent[i]);
	if (isl->torus && off < len)
		snprintf(buf + off, len - off, "t");
}

int pw_worker_registration(struct pw_wire_register *reg,
			   const struct sockaddr_in *data_at,
			   const struct pw_wdev_sim_cfg *sim)
{
	struct pw_rm_island isl;
	uint64_t hbm = 0;
	int ret;

	if (sim) {
		ret = pw_rm_island_parse(&isl, 0, sim->mesh);
		if (!ret && isl.ndevices != sim->ndev)
			ret = -EINVAL;
		hbm = sim->hbm_bytes;
	} else {
		ret = pw_rm_island_from_sysfs(&isl);
		pwtpu_sysfs_u64(0, "hbm_total", &hbm);
	}
	if (ret)
		return ret;
	memset(reg, 0, sizeof(*reg));
	reg->island_id = isl.id;
	reg->ndevices = isl.ndevices;
	reg->hbm_bytes = hbm;
	reg->data_port = ntohs(data_at->sin_port);
	memcpy(reg->data_ip, &data_at->sin_addr, 4);
	mesh_string(&isl, reg->mesh, sizeof(reg->mesh));
	return 0;
}

int pw_worker_init(struct pw_worker *w, struct pw_transport *t,
		   const struct pw_auth_key *key,
		   uint32_t host_id, const struct sockaddr_in *controller,
		   const struct pw_wire_register *reg,
		   const struct pw_dp_opts *dp,
		   const struct pw_wdev_sim_cfg *sim)
{
	int ret;

	memset(w, 0, sizeof(*w));
	w->ctl_addr = *controller;
	w->reg = *reg;
	w->reg.host_id = host_id;
	w->heartbeat_ms = PW_HEARTBEAT_MS;
	w->down_ms = PW_DOWN_MS;
	w->deaf_ms = PW_CLIENT_TIMEOUT_MS;
	w->recv = calloc(PW_WK_MAX_RECV, sizeof(*w->recv));
	w->send = calloc(PW_WK_MAX_SEND, sizeof(*w->send));
	ret = w->recv && w->send ? 0 : -ENOMEM;
	if (!ret)
		ret = sim ? pw_wdev_open_sim(&w->dev, sim) :
			    pw_wdev_open(&w->dev, reg->ndevices);
	if (ret) {
		free(w->runs);
		free(w->recv);
			free(w->send);
		return ret;
	}
	ret = dp ? wk_open_dp(w, dp) : 0;
	pw_wstore_init(&w->store, &w->dev, w->dp);
	if (!ret)
		ret = pw_node_init(&w->node, PW_NODE_WORKER_BASE + host_id, t,
				   key, wk_handle, w);
	if (ret) {
		wk_free(w);
		return ret;
	}
	if (w->dp)
		w->node.extra_fd[1] = pw_dp_fd(w->dp);
	w->node.extra_fd[0] = w->dev.efd;
	return wk_register(w, pw_now_ns());
}

/*
 * Forget peer workers that acknowledged nothing of ours for @deaf_ms
 * (gone, or lying: what we queue for them only grows); the controller
 * introduces them again before a run that needs them (our EHOSTUNREACH
 * in its DONE tells it so). A client is not
 * forgotten here: the controller decides when one has gone (and says
 * BYE), and what waits for it is bounded by the node's queue limit.
 * True when the controller itself is deaf: the caller registers again.
 */
static bool wk_forget_deaf(struct pw_worker *w, uint64_t now)
{
	uint64_t limit = w->deaf_ms * 1000000ull;
	char line[96];
	unsigned int i;

	for (i = 0; i < w->node.npeers; i++) {
		struct pw_node_peer *p = &w->node.peers[i];
		uint64_t oldest;

		if (!p->ch || (p != w->ctl && p->id & PW_NODE_CLIENT_BASE))
			continue;
		oldest = pw_rchan_oldest_unacked(p->ch);
		if (oldest == UINT64_MAX || now - oldest < limit)
			continue;
		w->deaf++;
		if (p == w->ctl)
			return true;
		snprintf(line, sizeof(line),
			 "node %u acknowledged nothing for %u ms: forgotten",
			 p->id, w->deaf_ms);
		wk_log(w, line);
		pw_node_drop_peer(&w->node, p);
	}
	return false;
}

int pw_worker_step(struct pw_worker *w, uint64_t timeout_ns)
{
	uint64_t cap = w->heartbeat_ms * 1000000ull / 2, now;
	struct pw_wire_msg m;
	int ret;

	ret = pw_node_step(&w->node, timeout_ns < cap ? timeout_ns : cap);
	if (ret)
		return ret;
	pw_wk_reap(w);
	now = pw_now_ns();
	/* Registered or not: what they hold is HBM runs here wait for. */
	if (w->store.nundone &&
	    now - w->retried_ns >= w->heartbeat_ms * 1000000ull) {
		w->retried_ns = now;
		pw_wstore_retry(&w->store);
	}
	if (!w->ctl) {
		/* No channel could be made: try again after the down time. */
		if (now - w->since_ns < w->down_ms * 1000000ull)
			return 0;
		return wk_register(w, now);
	}
	if (now - w->ctl->last_heard_ns >= w->down_ms * 1000000ull) {
		wk_log(w, w->registered ? "controller silent: registering again" :
		       "no answer from the controller yet: trying again");
		return wk_register(w, now);
	}
	if (!w->registered ||
	    now - w->last_beat_ns < w->heartbeat_ms * 1000000ull)
		return 0;
	w->last_beat_ns = now;
	/* Once a heartbeat, not on every step: deafness takes seconds. */
	if (wk_forget_deaf(w, now)) {
		wk_log(w, "the controller acknowledged nothing for the deaf time: registering again");
		return wk_register(w, now);
	}
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_HEARTBEAT;
	m.body.heartbeat.time_ns = now;
	/* A full window means no acks: the silence check above decides. */
	pw_node_send(&w->node, w->ctl, &m, now);
	return 0;
}

void pw_worker_fini(struct pw_worker *w)
{
	/* What clients left behind: 0 and 0 when every one said BYE. */
	pw_log("worker %u: at exit: %u buffers (%llu bytes), %u functions of clients",
	       w->reg.host_id, w->store.nbufs,
	       (unsigned long long)w->store.bytes, w->store.nfns);
	pw_wk_stages_log(w);
	pw_log("worker %u: at exit: %u runs waited for HBM (back-pressure)",
	       w->reg.host_id, w->hbm_waits);
	pw_log("worker %u: at exit: %llu READYs came before their PLAN and waited for it, %llu were lost (their runs failed), %llu lost runs forgotten",
	       w->reg.host_id, (unsigned long long)w->early_kept,
	       (unsigned long long)w->early_lost,
	       (unsigned long long)w->lost_forgotten);
	pw_log("worker %u: at exit: %llu data-plane writes landed that no transfer waited for",
	       w->reg.host_id, (unsigned long long)w->stray_landings);
	if (w->dp) {
		struct pw_dp_stats st;

		/* Every one that ended was closed: only live ones are left. */
		pw_dp_stats(w->dp, &st);
		pw_log("worker %u: at exit: %u data-plane connections open (%llu accepted, %llu ended)",
		       w->reg.host_id, pw_dp_open_conns(w->dp),
		       (unsigned long long)st.accepted,
		       (unsigned long long)st.closed);
	}
	pw_node_fini(&w->node);
	wk_free(w);
}
