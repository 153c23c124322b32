/* SPDX-License-Identifier: GPL-2.0 */
/*
 * roles.h - pathwaysd's roles on a DCN node (runtime/dcn/): the
 * controller (islands registered by workers, their liveness, a resource
 * manager per island, clients) and the worker (registers its island,
 * heartbeats, re-registers when the controller goes away).
 */
#ifndef PW_RUNTIME_DCN_ROLES_H
#define PW_RUNTIME_DCN_ROLES_H

#include <pathways/rm.h>

#include "node.h"

/* Node ids: the controller is 1, a worker 0x100 + host id, clients high. */
#define PW_NODE_CONTROLLER	1u
#define PW_NODE_WORKER_BASE	0x100u
#define PW_NODE_CLIENT_BASE	0x80000000u

#define PW_MAX_HOSTS		64
#define PW_HEARTBEAT_MS		100
#define PW_DOWN_MS		1000

/**
 * struct pw_ctl_island - a worker's island as the controller knows it
 * @used: the slot holds a worker.
 * @up: it answers; its devices take work.
 * @node: the worker's node id.
 * @reg: what it registered.
 * @rm: the island's resource manager.
 * @last_ns: when the worker was last heard.
 */
struct pw_ctl_island {
	bool used;
	bool up;
	uint32_t node;
	struct pw_wire_register reg;
	struct pw_rm *rm;
	uint64_t last_ns;
};

/**
 * struct pw_controller - the controller role
 * @node: its DCN node.
 * @heartbeat_ms: how often workers (and it) send HEARTBEAT.
 * @down_ms: a worker silent this long is down.
 * @isl: islands by host id.
 * @clients: clients that connected.
 * @last_beat_ns: when it last sent its own heartbeats.
 * @downs: workers marked down so far.
 */
struct pw_controller {
	struct pw_node node;
	unsigned int heartbeat_ms;
	unsigned int down_ms;
	struct pw_ctl_island isl[PW_MAX_HOSTS];
	unsigned int clients;
	uint64_t last_beat_ns;
	unsigned int downs;
};

int pw_controller_init(struct pw_controller *c, struct pw_transport *t,
		       unsigned int heartbeat_ms, unsigned int down_ms);
/* Run for up to @timeout_ns; marks silent workers down. */
int pw_controller_step(struct pw_controller *c, uint64_t timeout_ns);
void pw_controller_fini(struct pw_controller *c);
/* Islands up and their devices. */
void pw_controller_count(const struct pw_controller *c, unsigned int *islands,
			 unsigned int *devices);

/**
 * struct pw_worker - the worker role
 * @node: its DCN node.
 * @ctl_addr: the controller's address.
 * @ctl: the controller's peer slot, NULL between attempts.
 * @reg: what it registers.
 * @registered: the controller accepted it.
 * @heartbeat_ms: as the controller asked (PW_HEARTBEAT_MS until then).
 * @down_ms: as the controller asked; silence this long: register again.
 * @last_beat_ns: when it last sent HEARTBEAT.
 * @since_ns: when the current registration attempt started.
 * @registrations: accepted registrations so far.
 */
struct pw_worker {
	struct pw_node node;
	struct sockaddr_in ctl_addr;
	struct pw_node_peer *ctl;
	struct pw_wire_register reg;
	bool registered;
	unsigned int heartbeat_ms;
	unsigned int down_ms;
	uint64_t last_beat_ns;
	uint64_t since_ns;
	unsigned int registrations;
};

/* A worker for host @host_id with island @isl; registers at once. */
int pw_worker_init(struct pw_worker *w, struct pw_transport *t,
		   uint32_t host_id, const struct sockaddr_in *controller,
		   const struct pw_wire_register *reg);
int pw_worker_step(struct pw_worker *w, uint64_t timeout_ns);
void pw_worker_fini(struct pw_worker *w);

#endif /* PW_RUNTIME_DCN_ROLES_H */
