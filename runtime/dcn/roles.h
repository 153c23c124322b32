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
#include "wdev.h"

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

#define PW_CTL_MAX_PROGRAMS	64
#define PW_CTL_MAX_RUNS		256

/* A computation of a registered program, placed: function, host, device. */
struct pw_ctl_step {
	uint32_t fn_id;
	uint32_t host;
	uint8_t dev;
};

/**
 * struct pw_ctl_program - a client's registered program
 * @used: the slot holds one.
 * @client: the client's node id.
 * @id: the client's program id.
 * @nnodes: nodes of the program; @received of them arrived so far.
 * @received: see @nnodes.
 * @nsteps: computations in @steps, in program order.
 * @steps: the placed computations.
 */
struct pw_ctl_program {
	bool used;
	uint32_t client;
	uint32_t id;
	unsigned int nnodes;
	unsigned int received;
	unsigned int nsteps;
	struct pw_ctl_step *steps;
};

/**
 * struct pw_ctl_run - a run waiting for its workers
 * @used: the slot holds one.
 * @id: the controller's id of the run, in PLAN and the workers' DONE
 *	(clients choose theirs freely; two clients' may clash).
 * @client: who asked; @done.run_id is its id for the run.
 * @hosts: hosts that have not answered yet, one bit each.
 * @done: the DONE to send back, filled as workers answer.
 */
struct pw_ctl_run {
	bool used;
	uint32_t id;
	uint32_t client;
	uint64_t hosts;
	struct pw_wire_done done;
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
 * @programs: registered programs.
 * @runs: runs in flight.
 * @rr: per island, where round-robin placement goes next.
 * @next_run: the last run id given out.
 */
struct pw_controller {
	struct pw_node node;
	unsigned int heartbeat_ms;
	unsigned int down_ms;
	struct pw_ctl_island isl[PW_MAX_HOSTS];
	unsigned int clients;
	uint64_t last_beat_ns;
	unsigned int downs;
	struct pw_ctl_program programs[PW_CTL_MAX_PROGRAMS];
	struct pw_ctl_run runs[PW_CTL_MAX_RUNS];
	unsigned int rr[PW_MAX_HOSTS];
	uint32_t next_run;
};

/* runtime/dcn/ctl_run.c: programs, runs, their completion. */
int pw_ctl_on_program(struct pw_controller *c, struct pw_node_peer *p,
		      const struct pw_wire_msg *msg, uint64_t now);
int pw_ctl_on_run(struct pw_controller *c, struct pw_node_peer *p,
		  const struct pw_wire_msg *msg, uint64_t now);
int pw_ctl_on_done(struct pw_controller *c, struct pw_node_peer *p,
		   const struct pw_wire_msg *msg, uint64_t now);
/* Host @host went down: its runs fail with -EHOSTDOWN. */
void pw_ctl_host_down(struct pw_controller *c, unsigned int host,
		      uint64_t now);
void pw_ctl_runs_fini(struct pw_controller *c);

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
 * @dev: the island's devices, for PLAN commands.
 * @runs: PLANs being executed (runtime/dcn/wk_run.c).
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
	struct pw_wdev dev;
	struct pw_wk_run *runs;
};

#define PW_WK_MAX_RUNS		256

/**
 * struct pw_wk_run - a PLAN a worker executes
 * @used: the slot holds one.
 * @done: the DONE it will send, filled as commands complete.
 * @total: commands of the plan; @submitted and @completed so far.
 * @submitted: see @total.
 * @completed: see @total.
 * @submit_ns: when its last commands were submitted.
 */
struct pw_wk_run {
	bool used;
	struct pw_wire_done done;
	unsigned int total;
	unsigned int submitted;
	unsigned int completed;
	uint64_t submit_ns;
};

/* runtime/dcn/wk_run.c */
int pw_wk_on_plan(struct pw_worker *w, const struct pw_wire_msg *msg,
		  uint64_t now);
/* Reap device completions; send DONE for finished plans. */
void pw_wk_reap(struct pw_worker *w);

/*
 * A worker for host @host_id with island @isl: opens its devices and
 * registers at once.
 */
int pw_worker_init(struct pw_worker *w, struct pw_transport *t,
		   uint32_t host_id, const struct sockaddr_in *controller,
		   const struct pw_wire_register *reg);

/**
 * struct pw_rclient - a client of a remote controller (runtime/dcn/rclient.c)
 * @node: its DCN node.
 * @ctl: the controller.
 * @connected: CONNECT_ACK came.
 * @ack: what it said.
 * @program_ack: the last PROGRAM_ACK, @have_program_ack once it came.
 * @have_program_ack: see @program_ack.
 * @done: the last DONE, @have_done once it came.
 * @have_done: see @done.
 * @done_recv_ns: when it came (this host's clock).
 * @error: the last ERROR, if any (@error.err nonzero).
 * @want_program: the program id whose PROGRAM_ACK is awaited.
 * @want_run: the run id whose DONE is awaited; late answers of earlier
 *	ones are ignored.
 */
struct pw_rclient {
	struct pw_node node;
	struct pw_node_peer *ctl;
	bool connected;
	struct pw_wire_connect_ack ack;
	struct pw_wire_program_ack program_ack;
	bool have_program_ack;
	struct pw_wire_done done;
	bool have_done;
	uint64_t done_recv_ns;
	struct pw_wire_error error;
	uint32_t want_program;
	uint32_t want_run;
};

/* Connect to @controller within @timeout_ms: 0, -ETIMEDOUT, -ECONNREFUSED. */
int pw_rclient_connect(struct pw_rclient *rc, struct pw_transport *t,
		       const struct sockaddr_in *controller, const char *name,
		       unsigned int timeout_ms);
/*
 * Register program @id: @n computations, computation i is function
 * @fn_ids[i] on host @hosts[i], each after the previous. 0 or -errno the
 * controller answered.
 */
int pw_rclient_program(struct pw_rclient *rc, uint32_t id,
		       const uint32_t *fn_ids, const uint32_t *hosts,
		       unsigned int n, unsigned int timeout_ms);
/* Run program @id and wait for its DONE (copied to @done). */
int pw_rclient_run(struct pw_rclient *rc, uint32_t id, uint32_t run_id,
		   struct pw_wire_done *done, uint64_t *sent_ns,
		   uint64_t *recv_ns, unsigned int timeout_ms);
void pw_rclient_close(struct pw_rclient *rc);
int pw_worker_step(struct pw_worker *w, uint64_t timeout_ns);
void pw_worker_fini(struct pw_worker *w);

#endif /* PW_RUNTIME_DCN_ROLES_H */
