/* SPDX-License-Identifier: GPL-2.0 */
/*
 * roles.h - pathwaysd's roles on a DCN node (runtime/dcn/): the
 * controller (islands registered by workers, their liveness, a resource
 * manager per island, clients) and the worker (registers its island,
 * heartbeats, re-registers when the controller goes away).
 */
#ifndef PW_RUNTIME_DCN_ROLES_H
#define PW_RUNTIME_DCN_ROLES_H

#include <pthread.h>
#include <stdatomic.h>

#include "rclient.h"
#include <pathways/rm.h>

#include "../net/dp.h"
#include "fnpayload.h"
#include "hostset.h"
#include "node.h"
#include "wdev.h"
#include "wstore.h"

#define PW_MAX_HOSTS		PW_WIRE_MAX_HOSTS
#define PW_HEARTBEAT_MS		100
#define PW_DOWN_MS		1000
/* A client that acknowledges nothing for this long has gone. */
#define PW_CLIENT_TIMEOUT_MS	30000

/**
 * struct pw_ctl_island - a worker's island as the controller knows it
 * @used: the slot holds a worker.
 * @up: it answers; its devices take work.
 * @node: the worker's node id.
 * @reg: what it registered.
 * @rm: the island's resource manager.
 * @last_ns: when the worker was last heard.
 * @out: devices taken out of service (ADMIN DEVICE_OUT), one bit each.
 * @met: the hosts whose workers this one's was introduced to (PEER),
 *	both ways, since it last registered or came back: workers meet
 *	when a run first needs them to (pw_ctl_meet()), not all pairs.
 */
struct pw_ctl_island {
	bool used;
	bool up;
	uint32_t node;
	struct pw_wire_register reg;
	struct pw_rm *rm;
	uint64_t last_ns;
	uint64_t out;
	struct pw_hostset met;
};

/* What one client may hold at the controller (the tables grow). */
#define PW_CTL_CLIENT_PROGRAMS	4096
/*
 * Twice the PW_RC_MAX_RUNS a client keeps in flight: a client frees a
 * run's slot at its workers' DONEs, the controller at its own copy of
 * them, which may come later, so a client at its bound may have sent
 * RUNs for slots the controller still holds.
 */
#define PW_CTL_CLIENT_RUNS	(2 * PW_RC_MAX_RUNS)
#define PW_CTL_MAX_DYING	64
/* Runs whose workers all answered, their client's copy of DONE not sent. */
#define PW_CTL_MAX_ENDS		64
#define PW_CTL_CLIENT_FNS	4096
#define PW_CTL_CLIENT_SLICES	4096
/*
 * Commands one program may lower to over all its hosts (a host's part is
 * also bounded, by PW_WIRE_MAX_PLAN_CMDS): 2^18, 26 MiB at the
 * controller, where the per-host bound alone allowed 512 times 8192.
 */
#define PW_CTL_PROGRAM_CMDS	(1u << 18)
/*
 * Programs, and functions, of one client whose parts have not all come:
 * a client sends each one's parts in a row, so one is the rule; this
 * bounds what a client that starts them and never ends them makes us
 * hold (a function's first part allocates all of it, up to 16 MiB). One
 * more evicts the client's oldest: a client whose sending failed midway
 * never ends that one, and must not be locked out by it.
 */
#define PW_CTL_CLIENT_PARTIAL	4

/**
 * struct pw_ctl_fn - a client's compiled function
 * @used: the slot holds one.
 * @client: the client's node id.
 * @id: the client's id for it.
 * @pl: its payload (the head's signatures serve lowering).
 * @sent: hosts whose worker has it, one bit each.
 * @begun: the controller's partial_seq at its first part (the oldest
 *	partial one is evicted first).
 */
struct pw_ctl_fn {
	bool used;
	uint32_t client;
	uint32_t id;
	struct pw_fn_payload pl;
	struct pw_hostset sent;
	uint64_t begun;
};

/**
 * struct pw_ctl_slice - a client's slice, placed on one island, or a
 *	group of slices on distinct islands
 * @used: the slot holds one.
 * @client: the owner's node id.
 * @id: the client's id for it.
 * @host: the island's host (a group: PW_WIRE_ANY_HOST).
 * @members: a group's slices, the client's @id + 1 .. @id + @members;
 *	0: a slice.
 * @group: a member's group (made with it); 0: none. A slice that only
 *	has a member's id is not one.
 * @n: devices (a group: of each member); virtual device v is island
 *	device @devs[v] (a group: none).
 * @devs: see @n.
 * @rs: the resource manager's slice (NULL when pinned by the client,
 *	and for a group).
 */
struct pw_ctl_slice {
	bool used;
	uint32_t client;
	uint32_t id;
	uint16_t host;
	uint16_t members;
	uint32_t group;
	uint8_t n;
	uint8_t devs[PW_WIRE_MAX_DEVICES];
	struct pw_rm_slice *rs;
};

/* A client's virtual device set on one island's resource manager. */
struct pw_ctl_vset {
	uint32_t client;
	unsigned int host;
	struct pw_rm_vset *vs;
};

/* Buffer handles of a lowered program, bound when it runs. */
/* Buffer handles of a lowered program: | index << PW_WIRE_SHARD_BITS | shard. */
#define PW_CTL_SYM_ARG		0x40000000u	/* argument index */
#define PW_CTL_SYM_RESULT	0x20000000u	/* result index */

/* A command of a lowered program for @host; @c.bufs hold symbols. */
struct pw_ctl_cmd {
	uint16_t host;
	struct pw_wire_plan_cmd c;
};

/* Host @host's part of a lowered program: @n commands from @first. */
struct pw_ctl_part {
	unsigned int host;
	unsigned int first;
	unsigned int n;
};

/* Two hosts whose workers talk directly in a program's runs. */
struct pw_ctl_pair {
	uint16_t a;
	uint16_t b;
};

/**
 * struct pw_ctl_program - a client's registered program
 * @used: the slot holds one.
 * @client: the client's node id.
 * @id: the client's program id.
 * @nnodes: nodes of the program; @received of them arrived so far.
 * @received: see @nnodes.
 * @nodes: the nodes, kept until the last arrives and it is lowered.
 * @lowered: @cmds are valid: the program can run.
 * @stale: a host it runs on registered again (its worker restarted): the
 *	slices, buffers and gangs it was lowered for are gone there, so a
 *	run fails ESTALE until it is registered again.
 * @nargs: arguments a run binds.
 * @nresults: results a run names.
 * @ncmds: commands of all hosts in @cmds: grouped by host, in @parts'
 *	order, each host's in program order (a run sends each host its
 *	part without looking at the others').
 * @cmds: see @ncmds.
 * @hosts: hosts with commands, one bit each.
 * @pairs: hosts whose workers talk in a run (a DCN edge: READY and the
 *	data plane), each pair once, @npairs of them.
 * @npairs: see @pairs.
 * @parts: one per host of @hosts, in ascending host order.
 * @nparts: see @parts.
 * @execs: its computations (EXEC commands): what a run costs under SHARE.
 * @begun: the controller's partial_seq at its first part (the oldest
 *	partial one is evicted first).
 */
struct pw_ctl_program {
	bool used;
	uint32_t client;
	uint32_t id;
	unsigned int nnodes;
	unsigned int received;
	struct pw_wire_prog_node *nodes;
	bool lowered;
	bool stale;
	unsigned int nargs;
	unsigned int nresults;
	unsigned int ncmds;
	struct pw_ctl_cmd *cmds;
	struct pw_hostset hosts;
	struct pw_ctl_pair *pairs;
	unsigned int npairs;
	struct pw_ctl_part *parts;
	unsigned int nparts;
	unsigned int execs;
	uint64_t begun;
};

/**
 * struct pw_ctl_run - a run waiting for its workers
 * @used: the slot holds one.
 * @id: the controller's id of the run, in PLAN and the workers' DONE
 *	(clients choose theirs freely; two clients' may clash).
 * @client: who asked; @done.run_id is its id for the run.
 * @hosts: hosts that have not answered yet, one bit each.
 * @deadline_ns: when it ends with ETIMEDOUT if not done (RUN's
 *	timeout_ms after it came); 0: never.
 * @timeout_ms: that timeout, for the log.
 * @done: the DONE to send back, filled as workers answer.
 * @held: SHARE: the RUN, while it waits at the controller for its turn;
 *	NULL once its plans are sent.
 * @next_held: the index of its client's next held run, or -1.
 * @charged: hosts whose window it takes (sent, that host not done yet).
 */
struct pw_ctl_run {
	bool used;
	uint32_t id;
	uint32_t client;
	struct pw_hostset hosts;
	uint64_t deadline_ns;
	uint32_t timeout_ms;
	struct pw_wire_done done;
	struct pw_wire_run *held;
	int next_held;
	struct pw_hostset charged;
};

/*
 * How the islands schedule runs (ctl_share.c): the operator's, from
 * pathwaysd's configuration, or from ADMIN where @clients_administer.
 * A run goes at once while each island it uses has fewer than @window
 * runs in flight; else it is held at the controller and released when
 * they have room, FIFO in arrival order or SHARE by stride scheduling
 * over clients (each run advances its client's pass by its computations
 * / weight).
 */
#define PW_CTL_SHARE_WINDOW	64
#define PW_CTL_MAX_WEIGHTS	64

struct pw_ctl_weight {
	char name[PW_WIRE_NAME_LEN];
	unsigned int weight;
};

struct pw_ctl_share_cfg {
	enum pw_wire_sched policy;
	unsigned int window;
	bool clients_administer;
	unsigned int nweights;
	struct pw_ctl_weight weights[PW_CTL_MAX_WEIGHTS];
};

/*
 * A FREE of a client's buffer that a held run of the client names: it
 * goes to host @host once @after, the last such run, has gone (a run
 * sent before the FREE may read the buffer; one sent after it cannot).
 */
struct pw_ctl_free {
	uint32_t after;
	uint16_t host;
	uint32_t id;
};

/*
 * A connected client as the schedulers see it: its weight, its pass, its
 * held runs (indices into the runs table, oldest first; -1: none) and the
 * FREEs behind them (@nfrees, oldest first).
 */
struct pw_ctl_tenant {
	bool used;
	uint32_t client;
	char name[PW_WIRE_NAME_LEN];
	unsigned int weight;
	uint64_t pass;
	int head;
	int tail;
	unsigned int skipped;
	struct pw_ctl_free *frees;
	unsigned int nfrees;
};

/**
 * struct pw_controller - the controller role
 * @node: its DCN node.
 * @heartbeat_ms: how often workers (and it) send HEARTBEAT.
 * @down_ms: a worker silent this long is down.
 * @isl: islands by host id.
 * @clients: clients that connected.
 * @gone: clients that have gone.
 * @client_timeout_ms: a client silent about our messages this long has
 *	gone (crashed, or parted from us): its objects are freed; a worker
 *	that talks but acknowledges nothing this long is forgotten.
 * @dying: peers of gone clients, dropped at @dying_ns[i] (their BYE's
 *	acknowledgement goes out first).
 * @dying_ns: see @dying.
 * @last_beat_ns: when it last sent its own heartbeats.
 * @downs: workers marked down so far.
 * @deaf: of those, workers that talked but acknowledged nothing for the
 *	client timeout, and were forgotten.
 * @run_timeouts: runs ended past their deadline so far.
 * @partial_seq: first parts of programs and functions so far (their order).
 * @evicted: partial programs and functions evicted (PW_CTL_CLIENT_PARTIAL).
 * @next_deadline_ns: the nearest run deadline (0: none), so that a step
 *	wakes for it; it may be of a run done since (then the runs are
 *	looked at for nothing once).
 * @programs: registered programs (@nprograms slots, some free).
 * @nprograms: see @programs.
 * @runs: runs in flight (@nruns slots, some free).
 * @nruns: see @runs.
 * @fns: clients' compiled functions (@nfns slots, some free).
 * @nfns: see @fns.
 * @next_run: the last run id given out.
 * @slices: clients' slices (@nslices slots, some free).
 * @nslices: see @slices.
 * @vsets: clients' virtual device sets, one per (client, island).
 * @nvsets: see @vsets.
 * @program_cmds: commands a program may lower to, over all its hosts;
 *	PW_CTL_PROGRAM_CMDS after pw_controller_init() (a test may lower it).
 */
struct pw_controller {
	struct pw_node node;
	unsigned int heartbeat_ms;
	unsigned int down_ms;
	struct pw_ctl_island isl[PW_MAX_HOSTS];
	unsigned int clients;
	unsigned int gone;
	unsigned int client_timeout_ms;
	uint32_t dying[PW_CTL_MAX_DYING];
	uint64_t dying_ns[PW_CTL_MAX_DYING];
	uint64_t last_beat_ns;
	unsigned int downs;
	unsigned int deaf;
	unsigned int run_timeouts;
	uint64_t partial_seq;
	uint64_t evicted;
	uint64_t next_deadline_ns;
	struct pw_ctl_program *programs;
	unsigned int nprograms;
	struct pw_ctl_run *runs;
	unsigned int nruns;
	struct pw_ctl_fn *fns;
	unsigned int nfns;
	uint32_t next_run;
	struct pw_ctl_slice *slices;
	unsigned int nslices;
	struct pw_ctl_vset *vsets;
	unsigned int nvsets;
	unsigned int program_cmds;
	struct pw_ctl_share_cfg share;
	struct pw_ctl_tenant *tenants;
	unsigned int ntenants;
	unsigned int nheld;
	unsigned int inflight[PW_MAX_HOSTS];
	uint64_t vtime;
	unsigned int pick_round;
	/* Client, DONE: sent after the step's other messages (ctl_run.c). */
	uint32_t end_client[PW_CTL_MAX_ENDS];
	struct pw_wire_done end_done[PW_CTL_MAX_ENDS];
	unsigned int nends;
};

/*
 * Client @client's partial program or function (@what) @id makes room
 * for a newer one: counted, and logged on the 1st, 2nd, 4th...
 */
void pw_ctl_evicted(struct pw_controller *c, uint32_t client,
		    const char *what, uint32_t id);

/* runtime/dcn/ctl_run.c: programs, runs, their completion. */
int pw_ctl_on_program(struct pw_controller *c, struct pw_node_peer *p,
		      const struct pw_wire_msg *msg, uint64_t now);
int pw_ctl_on_run(struct pw_controller *c, struct pw_node_peer *p,
		  const struct pw_wire_msg *msg, uint64_t now);
int pw_ctl_on_done(struct pw_controller *c, struct pw_node_peer *p,
		   const struct pw_wire_msg *msg, uint64_t now);
/* Client @client has gone: forget its programs, end its runs. */
void pw_ctl_runs_forget_client(struct pw_controller *c, uint32_t client,
			       uint64_t now);
/* Host @h registered again: programs on it go stale. */
void pw_ctl_programs_host_reset(struct pw_controller *c, unsigned int h);
/* Host @host went down: its runs fail with -EHOSTDOWN. */
void pw_ctl_host_down(struct pw_controller *c, unsigned int host,
		      uint64_t now);
/*
 * End the runs past their deadline with ETIMEDOUT (their workers get
 * CANCEL); return the nearest deadline still to come (0: none).
 */
uint64_t pw_ctl_runs_expire(struct pw_controller *c, uint64_t now);
void pw_ctl_runs_fini(struct pw_controller *c);
/* A line of the controller's log (stdout, "controller: " first). */
void pw_ctl_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Introduce the workers of @prog's pairs that have not met (PEER both
 * ways), before its plans (controller.c); forget whom host @h's worker
 * met, so that the next runs introduce it again.
 */
void pw_ctl_meet(struct pw_controller *c, const struct pw_ctl_program *prog,
		 uint64_t now);
void pw_ctl_forget_met(struct pw_controller *c, unsigned int h);
/*
 * Send run @r's plans of @prog (found just now; NULL if it has gone), or
 * end it failed.
 */
void pw_ctl_run_start(struct pw_controller *c, struct pw_ctl_run *r,
		      struct pw_ctl_program *prog,
		      const struct pw_wire_run *run, uint64_t now);
/*
 * Send the DONEs of runs whose workers all answered, held back by
 * pw_ctl_on_done() until the step's other messages went (a run they
 * start must not wait behind a copy the client most likely has).
 */
void pw_ctl_ends_flush(struct pw_controller *c, uint64_t now);
/* End run @r with @r->done (to its client, if still there); frees the slot. */
void pw_ctl_run_end(struct pw_controller *c, struct pw_ctl_run *r,
		    uint64_t now);
/* @client's program @program_id, or NULL. */
struct pw_ctl_program *pw_ctl_program_find(struct pw_controller *c,
					   uint32_t client, uint32_t id);
/* runtime/dcn/ctl_share.c: the island schedulers' policy and weights. */
/*
 * Check the operator's settings (pathwaysd's configuration): -EINVAL for
 * a policy, window or weight out of range, or a name weighted twice.
 */
int pw_ctl_share_check(const struct pw_ctl_share_cfg *cfg);
/* Check them, then take them. */
int pw_ctl_share_configure(struct pw_controller *c,
			   const struct pw_ctl_share_cfg *cfg);
void pw_ctl_share_connect(struct pw_controller *c, uint32_t client,
			  const char *name);
void pw_ctl_share_forget_client(struct pw_controller *c, uint32_t client);
/*
 * A validated run of @prog: sent now if nothing waits and its islands
 * have room, else held for its turn.
 */
int pw_ctl_share_submit(struct pw_controller *c, struct pw_ctl_run *r,
			struct pw_ctl_program *prog,
			const struct pw_wire_run *run, uint64_t now);
/* Host @h is done with run @r: its window has room again. */
void pw_ctl_share_host_done(struct pw_controller *c, struct pw_ctl_run *r,
			    unsigned int h);
/* Run @r ends: out of its client's queue, its islands' windows freed. */
void pw_ctl_share_end(struct pw_controller *c, struct pw_ctl_run *r);
/* Release held runs while the islands have room, in the policy's order. */
void pw_ctl_share_pump(struct pw_controller *c, uint64_t now);
int pw_ctl_on_admin(struct pw_controller *c, struct pw_node_peer *p,
		    const struct pw_wire_msg *msg, uint64_t now);
/*
 * A client's FREE of buffer @id on host @host: held behind the last of
 * its held runs that names the buffer (1), or not (0: send it now);
 * -ENOMEM.
 */
int pw_ctl_share_hold_free(struct pw_controller *c, uint32_t client,
			   unsigned int host, uint32_t id);
void pw_ctl_share_fini(struct pw_controller *c);
/* runtime/dcn/ctl_slice.c: clients' slices, placed by islands' RMs. */
struct pw_ctl_slice *pw_ctl_slice_find(struct pw_controller *c,
				       uint32_t client, uint32_t id);
/*
 * Group @g's members that are still there (one's slices go with its
 * host), by member: @m[k] is member k or NULL. One pass over the slices.
 * Returns how many there are.
 */
unsigned int pw_ctl_group_members(struct pw_controller *c,
				  const struct pw_ctl_slice *g,
				  struct pw_ctl_slice **m);
int pw_ctl_on_slice(struct pw_controller *c, struct pw_node_peer *p,
		    const struct pw_wire_msg *msg, uint64_t now);
/* Client @client has gone: its slices and virtual device sets go. */
void pw_ctl_slices_forget_client(struct pw_controller *c, uint32_t client);
/* Host @h (re)registered: nothing stays placed on its island. */
void pw_ctl_slices_host_reset(struct pw_controller *c, unsigned int h);
void pw_ctl_slices_fini(struct pw_controller *c);
/* runtime/dcn/ctl_lower.c: a whole program's nodes into commands per host. */
int pw_ctl_lower(struct pw_controller *c, struct pw_ctl_program *prog);
/* runtime/dcn/ctl_obj.c: functions, buffers, transfers (relayed). */
struct pw_ctl_fn *pw_ctl_fn_find(struct pw_controller *c, uint32_t client,
				 uint32_t id);
int pw_ctl_on_function(struct pw_controller *c, struct pw_node_peer *p,
		       const struct pw_wire_msg *msg, uint64_t now);
/* Send function @fn to host @h's worker unless it has it. */
int pw_ctl_fn_ship(struct pw_controller *c, struct pw_ctl_fn *fn,
		   unsigned int h);
/* Host @h (re)registered: it has no functions. */
void pw_ctl_fn_host_reset(struct pw_controller *c, unsigned int h);
int pw_ctl_on_buffer(struct pw_controller *c, struct pw_node_peer *p,
		     const struct pw_wire_msg *msg, uint64_t now);
int pw_ctl_on_status(struct pw_controller *c, struct pw_node_peer *p,
		     const struct pw_wire_msg *msg, uint64_t now);
/* Host @h's worker while it is registered and up, else NULL. */
struct pw_node_peer *pw_ctl_worker_peer(struct pw_controller *c,
					unsigned int h);
/* The host of worker node @node, or -1 if it is no registered worker. */
int pw_ctl_host_of(const struct pw_controller *c, uint32_t node);
void pw_ctl_objs_fini(struct pw_controller *c);
/* Client @client has gone: drop its functions. */
void pw_ctl_fns_forget_client(struct pw_controller *c, uint32_t client);

int pw_controller_init(struct pw_controller *c, struct pw_transport *t,
		       const struct pw_auth_key *key,
		       unsigned int heartbeat_ms, unsigned int down_ms,
		       unsigned int client_timeout_ms);
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
 * @deaf_ms: a peer worker that acknowledges nothing of ours this long
 *	is forgotten (the controller: register again); PW_CLIENT_TIMEOUT_MS
 *	after pw_worker_init() (a test may lower it).
 * @deaf: peers forgotten so, and registrations for a deaf controller.
 * @last_beat_ns: when it last sent HEARTBEAT.
 * @retried_ns: when it last tried failed destroys again (pw_wstore_retry).
 * @since_ns: when the current registration attempt started.
 * @registrations: accepted registrations so far.
 * @ctl_session: the session of the controller that accepted the last one
 *	(0: none yet): another means the controller restarted.
 * @ctl_restarts: registrations with a controller that had restarted,
 *	each of which freed what the old one's clients had here.
 * @dev: the island's devices, for PLAN commands.
 * @store: buffers and functions of remote clients (runtime/dcn/wstore.c).
 * @dp: the data plane (rdma or tcp) cross-island transfers use.
 * @conn: data-plane connection to each host, made on first use.
 * @runs: PLANs being executed (runtime/dcn/wk_run.c), @nruns slots.
 * @nruns: see @runs.
 * @recv: DCN_RECV targets waiting for their data, by cookie.
 * @send: DCN_SEND writes in flight.
 * @nparked: runs waiting for HBM (back-pressure), oldest first by
 *	@arrivals order; @hbm_waits: runs that ever waited.
 * @arrivals: runs begun so far (a run's place in line for HBM).
 * @runs_ended: runs freed so far; with the store's @freed, tells
 *	pw_wk_reap() when HBM may have come free: @seen_ended, @seen_freed.
 * @slices: clients' slices on this island (SLICE), @nslices of them.
 * @nslices: see @slices.
 * @gangs: gangs not yet on the devices, in arrival order (wk_gang.c).
 * @ngangs: see @gangs.
 */
/* A client's slice on a worker's island: island devices of its ranks. */
struct pw_wk_slice {
	uint32_t client;
	uint32_t id;
	uint8_t n;
	uint8_t devs[PW_WIRE_MAX_DEVICES];
};

/**
 * struct pw_wk_gang - a computation with collectives not yet issued
 * @slot: its run's slot.
 * @num: its number in the run's plan.
 * @devmask: devices of the members arrived so far.
 * @want: members it has (its slice's size; 0: unknown slice).
 * @have: members arrived so far.
 */
struct pw_wk_gang {
	unsigned int slot;
	uint32_t num;
	uint64_t devmask;
	unsigned int want;
	unsigned int have;
};

/**
 * struct pw_wk_hxfer - a client's buffer moving over the data plane
 *	(wk_host.c)
 * @used: the slot is taken.
 * @upload: CREATE (the client writes into @wb), else READ (we write).
 * @client: the buffer's owner.
 * @id: its handle.
 * @wb: the buffer (a reference held).
 * @cookie: an upload's: what the client's write carries.
 * @landed: an upload's bytes landed so far.
 * @conn: a read's connection to the client's data plane (the worker's
 *	kept one to the client, struct pw_wk_cconn).
 * @target: a read's: the client's region.
 * @pending: a read's writes posted and not done.
 * @err: a read's first failed write.
 */
struct pw_wk_hxfer {
	bool used;
	bool upload;
	uint32_t client;
	uint32_t id;
	struct pw_wbuf *wb;
	uint32_t cookie;
	uint64_t landed;
	struct pw_dp_conn *conn;
	struct pw_dp_desc target;
	unsigned int pending;
	int err;
};

/**
 * struct pw_wk_early - a READY that came before the PLAN part of the
 *	DCN_SEND it is for (wk_run.c)
 * @used: the slot is taken.
 * @at_ns: when it came.
 * @rd: the message.
 */
struct pw_wk_early {
	bool used;
	uint64_t at_ns;
	struct pw_wire_ready rd;
};

#define PW_WK_MAX_EARLY		1024
#define PW_WK_EARLY_NS		(60 * 1000000000ull)

/**
 * struct pw_wk_lost - a run whose early READY could not be kept (wk_run.c):
 *	its PLAN, when it comes, fails the run with @err instead of leaving
 *	a DCN_SEND waiting for a target it was already told and lost
 * @run_id: the controller's id of the run; 0: the slot is free.
 * @err: -ENOBUFS (more than PW_WK_MAX_EARLY waited), -ETIMEDOUT (kept
 *	PW_WK_EARLY_NS), -ENOMEM (no memory to keep it).
 */
struct pw_wk_lost {
	uint32_t run_id;
	int err;
};

/*
 * Lost READYs' runs remembered; past that the oldest is forgotten (and
 * its run waits for its deadline), loudly.
 */
#define PW_WK_MAX_LOST		1024

/* Host transfers over the data plane in flight on a worker at once. */
#define PW_WK_MAX_HXFER		64

/* Random cookies fetched from the kernel at once (256 bytes). */
#define PW_WK_COOKIE_POOL	64

/**
 * struct pw_wk_cconn - a worker's data-plane connection to a client, kept
 *	for the client's next reads (wk_host.c)
 * @client: the client's node id (0: a free slot).
 * @addr: the client's data-plane address.
 * @conn: the connection.
 * @up: it came up.
 * @last: when a read last used it (the worker's transfer count).
 */
struct pw_wk_cconn {
	uint32_t client;
	struct sockaddr_in addr;
	struct pw_dp_conn *conn;
	bool up;
	uint64_t last;
};

/* Clients a worker keeps a connection to (the data plane has 16 in all). */
#define PW_WK_MAX_CCONN		4

/*
 * Where a worker's part of a run spends its time (wk_stages.c): PLAN in
 * to the submission of its first command (decode, prepare), that
 * io_uring_submit() (a short command runs inline in it), submit's return
 * to the reaping of its last completion, reaping to DONE sent. The last
 * PW_WK_STAGE_SAMPLES runs' times, in ns.
 */
enum pw_wk_stage {
	PW_WK_ST_PREPARE,
	PW_WK_ST_SUBMIT,
	PW_WK_ST_REAP,
	PW_WK_ST_DONE,
	PW_WK_NSTAGES
};

#define PW_WK_STAGE_SAMPLES	1024

struct pw_wk_stages {
	uint32_t ns[PW_WK_NSTAGES][PW_WK_STAGE_SAMPLES];
	uint64_t runs;
};

struct pw_worker {
	struct pw_node node;
	struct sockaddr_in ctl_addr;
	struct pw_node_peer *ctl;
	struct pw_wire_register reg;
	bool registered;
	unsigned int heartbeat_ms;
	unsigned int down_ms;
	unsigned int deaf_ms;
	uint64_t deaf;
	uint64_t last_beat_ns;
	uint64_t retried_ns;
	uint64_t since_ns;
	unsigned int registrations;
	uint32_t ctl_session;
	unsigned int ctl_restarts;
	struct pw_wdev dev;
	struct pw_wstore store;
	struct pw_dp *dp;
	/* Our connection to each host, whether it came up, its address. */
	struct pw_dp_conn *conn[PW_MAX_HOSTS];
	bool conn_up[PW_MAX_HOSTS];
	struct sockaddr_in conn_addr[PW_MAX_HOSTS];
	struct pw_wk_run *runs;
	unsigned int nruns;
	struct pw_wk_xfer *recv;
	struct pw_wk_xfer *send;
	unsigned int nparked;
	unsigned int hbm_waits;
	uint64_t grace_due_ns;
	uint64_t dev_out;
	uint64_t arrivals;
	uint64_t runs_ended;
	uint64_t seen_ended;
	uint64_t seen_freed;
	struct pw_wk_slice *slices;
	unsigned int nslices;
	struct pw_wk_gang *gangs;
	unsigned int ngangs;
	struct pw_wk_hxfer hx[PW_WK_MAX_HXFER];
	struct pw_wk_cconn cconn[PW_WK_MAX_CCONN];
	uint64_t hx_count;
	struct pw_wk_early *early;
	unsigned int nearly;
	uint64_t early_kept;
	struct pw_wk_lost lost[PW_WK_MAX_LOST];
	unsigned int lost_next;
	unsigned int nlost;
	uint64_t early_lost;
	uint64_t lost_forgotten;
	uint32_t cookies[PW_WK_COOKIE_POOL];
	unsigned int ncookies;
	uint64_t stray_landings;
	struct pw_wk_stages stages;
};

/*
 * Data-plane cookies (wk_cookie.c): a fresh random one, none live twice;
 * the DCN_RECV waiting for @cookie, or NULL; a write nothing waits for,
 * counted and logged.
 */
uint32_t pw_wk_cookie_new(struct pw_worker *w);
struct pw_wk_xfer *pw_wk_recv_of(struct pw_worker *w, uint32_t cookie);
void pw_wk_stray_landing(struct pw_worker *w, const struct pw_dp_event *ev);

/* Runs in flight on a worker: the device tags' 16 bits (the table grows). */
#define PW_WK_MAX_RUNS		65535
/*
 * A run waiting for HBM while no run is under way fails with ENOMEM
 * after this long without a FREE making room (a client's frees travel
 * through the controller, after the runs that read the buffers).
 */
#define PW_WK_HBM_GRACE_MS	500
#define PW_WK_MAX_RECV		4096
#define PW_WK_MAX_SEND		256

/**
 * struct pw_wk_xfer - a data-plane transfer in flight
 * @used: the slot holds one.
 * @run: slot in the worker's runs.
 * @cmd: the command's index in its run.
 * @cookie: what the write carries.
 * @conn: DCN_SEND: the connection it went on.
 */
struct pw_wk_xfer {
	bool used;
	unsigned int run;
	unsigned int cmd;
	uint32_t cookie;
	struct pw_dp_conn *conn;
};

/* A command's state in a worker's run. */
enum pw_wk_cmd_state {
	PW_WK_WAITING,	/* inputs not final (nor queued ahead on its device) */
	PW_WK_ISSUED,	/* on a device queue, or a transfer in flight */
	PW_WK_DONE,	/* finished, failed or skipped */
};

/**
 * struct pw_wk_cmd - a command of a worker's part of a run
 * @c: what the PLAN said.
 * @state: enum pw_wk_cmd_state.
 * @have_target: DCN_SEND: the target's READY came: @target, @cookie.
 * @target: DCN_SEND: where to write.
 * @cookie: DCN_SEND: what the write carries.
 * @nheld: buffers it holds references on while issued: @held.
 * @nin_held: of those, inputs (first); the rest are its outputs.
 * @issue_ns: when it was issued (device times count from it).
 * @held: see @nheld.
 * @bos: EXEC: the buffer objects it binds, read when the ring is flushed.
 * @pieces: COPY_PEER: device copies (one per input it reads) not done.
 * @pieces_err: COPY_PEER: the first error of one that is.
 * @outs_made: outputs made so far (all of them once its run is not
 *	waiting for HBM at it).
 * @free_out: outputs (bits) the client freed before they were made.
 * @gang: EXEC with collectives: its gang descriptor while the driver may
 *	read it (until the ring is flushed), else NULL.
 * @pin: per buffer of @c, a reference on a client's buffer taken when the
 *	plan came (inputs) or its output was made, kept until it finishes,
 *	so that the client freeing the handle meanwhile changes nothing.
 */
struct pw_wk_cmd {
	struct pw_wire_plan_cmd c;
	uint8_t state;
	bool have_target;
	struct pw_dp_desc target;
	uint32_t cookie;
	unsigned int nheld;
	unsigned int nin_held;
	uint64_t issue_ns;
	struct pw_wbuf *held[PW_WIRE_MAX_BUFS];
	uint32_t bos[PW_WIRE_MAX_BUFS];
	uint16_t pieces;
	int pieces_err;
	unsigned int outs_made;
	uint16_t free_out;
	struct pwtpu_gang *gang;
	struct pw_wbuf *pin[PW_WIRE_MAX_BUFS];
};

/**
 * struct pw_wk_run - a PLAN a worker executes
 * @used: the slot holds one.
 * @id: the controller's run id (temporaries' owner).
 * @client: the client whose buffers and functions it uses.
 * @done: the DONE it will send, filled as commands complete.
 * @total: commands of the plan; @received, @completed so far.
 * @received: see @total.
 * @completed: see @total.
 * @next: commands before it are all issued or done.
 * @cancelled: CANCEL came: issue nothing more.
 * @parked: waiting for HBM for the outputs of command @park_at: it and
 *	the commands after it wait (back-pressure).
 * @park_at: see @parked.
 * @arrival: its place in line for HBM (the worker's @arrivals).
 * @waited: it has waited for HBM (once counted in @hbm_waits).
 * @grace_end_ns: waiting for HBM with no run under way: FREEs a client
 *	sent may still be coming, so it waits until then before ENOMEM.
 * @gang_base: drawn at random when it came: its gang number k has id
 *	@gang_base + k.
 * @cmds: the commands (@total of them).
 */
struct pw_wk_run {
	bool used;
	uint32_t id;
	uint32_t client;
	uint32_t client_run;
	struct pw_wire_done done;
	unsigned int total;
	unsigned int received;
	unsigned int completed;
	unsigned int next;
	bool cancelled;
	bool parked;
	unsigned int park_at;
	uint64_t arrival;
	bool waited;
	uint64_t grace_end_ns;
	uint64_t gang_base;
	bool gang_base_set;
	struct pw_wk_cmd *cmds;
	/* Its stages' ends (struct pw_wk_stages): 0 until each happened. */
	uint64_t submit_ns;
	uint64_t submitted_ns;
	uint64_t reaped_ns;
};

/* runtime/dcn/wk_run.c */
/*
 * FREE of a client's buffer not made yet: its run waits for HBM. It is
 * freed once made (its readers hold it meanwhile); false: no such one.
 */
bool pw_wk_free_unmade(struct pw_worker *w, uint32_t client, uint32_t id);
/* ADMIN DEVICE_OUT / DEVICE_IN from the controller. */
int pw_wk_on_admin(struct pw_worker *w, const struct pw_wire_admin *a);
int pw_wk_on_plan(struct pw_worker *w, const struct pw_wire_msg *msg,
		  uint64_t now);
/*
 * Forget every kept READY and every lost one's run: after the worker
 * registers again, the controller's run ids may start again.
 */
void pw_wk_early_reset(struct pw_worker *w);
int pw_wk_on_ready(struct pw_worker *w, const struct pw_node_peer *p,
		   const struct pw_wire_ready *rd);
int pw_wk_on_cancel(struct pw_worker *w, const struct pw_wire_cancel *c);
/* Reap device and data-plane completions; send DONE for finished plans. */
void pw_wk_reap(struct pw_worker *w);
void pw_wk_runs_fini(struct pw_worker *w);
/* runtime/dcn/wk_stages.c: @r's stages, its DONE sent at @now. */
void pw_wk_stages_add(struct pw_worker *w, const struct pw_wk_run *r,
		      uint64_t now);
/* Their medians and 99th percentiles to the log. */
void pw_wk_stages_log(const struct pw_worker *w);
/* runtime/dcn/wk_obj.c: STATUS of a client's request, through the controller. */
void pw_wk_send_status(struct pw_worker *w, uint8_t ref_type,
		       uint32_t client, uint32_t id, int err, uint64_t value);
/* The client's buffer @b names, final: 0, -ENOENT, -ECANCELED, -EBUSY. */
int pw_wk_buf_final(struct pw_worker *w, const struct pw_wire_buffer *b,
		    struct pw_wbuf **out);
/* runtime/dcn/wk_host.c: BUFFER bytes over the data plane (F_DP). */
int pw_wk_host_buffer(struct pw_worker *w, const struct pw_wire_buffer *b);
/* A data-plane event of a host transfer: true if it was one (handled). */
bool pw_wk_host_dp_event(struct pw_worker *w, const struct pw_dp_event *ev);
void pw_wk_host_forget_client(struct pw_worker *w, uint32_t client);
/* FREE: an upload into that buffer that has not landed ends. */
void pw_wk_host_forget_buffer(struct pw_worker *w, uint32_t client,
			      uint32_t id);
void pw_wk_host_fini(struct pw_worker *w);
/* runtime/dcn/wk_gang.c: slices and gang scheduling on the island. */
const struct pw_wk_slice *pw_wk_slice_find(const struct pw_worker *w,
					   uint32_t client, uint32_t id);
int pw_wk_on_slice(struct pw_worker *w, const struct pw_wire_slice *s);
void pw_wk_slices_forget_client(struct pw_worker *w, uint32_t client);
/* EXEC @pc of run @r arrived: a member of its gang. */
int pw_wk_gang_note(struct pw_worker *w, struct pw_wk_run *r,
		    const struct pw_wire_plan_cmd *pc);
/*
 * Whether gang @num of @r may go: 1 (all here, nobody earlier in its
 * way), 0 (not yet), or -errno when it never will.
 */
int pw_wk_gang_may_go(struct pw_worker *w, struct pw_wk_run *r, uint32_t num);
/* Members gang @num of @r has (its slice's size); 0 if unknown. */
unsigned int pw_wk_gang_size(struct pw_worker *w, struct pw_wk_run *r,
			     uint32_t num);
/* Gang @num of @r went, or never will. */
void pw_wk_gang_forget(struct pw_worker *w, struct pw_wk_run *r, uint32_t num);
void pw_wk_gangs_forget_run(struct pw_worker *w, struct pw_wk_run *r);
/* The descriptor of member @pc of its gang. */
int pw_wk_gang_fill(struct pw_worker *w, struct pw_wk_run *r,
		    const struct pw_wire_plan_cmd *pc, bool permute, int shift,
		    struct pwtpu_gang *gang);
/* runtime/dcn/wk_obj.c: FUNCTION, BUFFER and BYE messages. */
int pw_wk_on_function(struct pw_worker *w, const struct pw_wire_function *f);
int pw_wk_on_buffer(struct pw_worker *w, const struct pw_wire_buffer *b);
int pw_wk_on_bye(struct pw_worker *w, const struct pw_wire_bye *b);
/*
 * The controller restarted: it knows none of the clients whose objects
 * are here, and none of them will send BYE. Free them all, as at BYE.
 */
void pw_wk_forget_all_clients(struct pw_worker *w);
/* End client @client's runs here (it has gone). */
void pw_wk_runs_forget_client(struct pw_worker *w, uint32_t client);

/*
 * A worker for host @host_id with island @reg: opens its devices (@sim's
 * simulated ones, or with NULL the module's) and its data plane (@dp;
 * NULL: none, no cross-island edges), and registers at once.
 */
/*
 * What a worker registers for this host's island (from sysfs, or @sim's
 * simulated devices when not NULL), its data plane at @data_at. 0, or
 * -errno when no island can be read.
 */
int pw_worker_registration(struct pw_wire_register *reg,
			   const struct sockaddr_in *data_at,
			   const struct pw_wdev_sim_cfg *sim);
int pw_worker_init(struct pw_worker *w, struct pw_transport *t,
		   const struct pw_auth_key *key,
		   uint32_t host_id, const struct sockaddr_in *controller,
		   const struct pw_wire_register *reg,
		   const struct pw_dp_opts *dp,
		   const struct pw_wdev_sim_cfg *sim);

#define PW_RC_MAX_RUNS		1024
/* A client heartbeats this often when it has sent nothing else. */
#define PW_RC_HEARTBEAT_MS	1000

/*
 * A run of a remote client, waiting for or holding its DONE; a forgotten
 * one's DONE frees the slot (nobody will wait for it). @hosts: the
 * workers its program runs on (PROGRAM_ACK), the only ones whose DONE it
 * takes; @nhosts: how many, which each of their DONEs must say too;
 * @hosts_done: those whose DONE came.
 */
struct pw_rc_run {
	bool used;
	bool have_done;
	bool forgotten;
	uint32_t run_id;
	uint32_t timeout_ms;
	uint64_t sent_ns;
	uint64_t recv_ns;
	struct pw_wire_done done;
	struct pw_hostset hosts;
	struct pw_hostset hosts_done;
	uint32_t nhosts;
	unsigned int ncomp;
};

/*
 * A program a remote client registered: where its results live, and its
 * computations (one per sharded call: what a run counts in the stats),
 * and the hosts whose workers run it.
 */
struct pw_rc_prog {
	uint32_t id;
	unsigned int nres;
	uint32_t slice[PW_WIRE_MAX_BUFS];
	unsigned int ncomp;
	struct pw_hostset hosts;
};

/* A buffer a remote client made and has not freed: @n shards on @slice. */
struct pw_rc_buf {
	uint32_t id;
	uint32_t slice;
	unsigned int n;
};

/*
 * A slice a remote client has: @n devices of host @host's island; a
 * pinned one of a single device @dev was made for the (host, device)
 * calls of remote.h. A group: @members slices (its ids + 1 ..), @n
 * devices each, @host PW_WIRE_ANY_HOST.
 */
struct pw_rc_slice {
	uint32_t id;
	uint16_t host;
	uint8_t n;
	bool pinned;
	uint8_t devs[PW_WIRE_MAX_DEVICES];
	uint64_t hbm_bytes;
	uint16_t members;
};

/**
 * struct pw_remote - a client of a remote controller (runtime/dcn/rclient.c)
 * @node: its DCN node.
 * @ctl: the controller.
 * @connected: CONNECT_ACK came.
 * @ack: what it said.
 * @program_ack: the last PROGRAM_ACK, @have_program_ack once it came.
 * @have_program_ack: see @program_ack.
 * @want_program: the program id whose PROGRAM_ACK is awaited.
 * @status: the last STATUS for (@want_type, @want_id), @have_status.
 * @have_status: see @status.
 * @want_type: see @status.
 * @want_id: see @status.
 * @slice_ans: the controller's SLICE with the devices of the slice MAKE
 *	(@want_id) asked for, before its STATUS.
 * @group_ans: the members of the group GROUP (@want_id) asked for, as
 *	the controller's SLICEs tell them (@group_members; NULL: none
 *	asked for).
 * @group_members: see @group_ans.
 * @read_buf: a read's destination, @read_size bytes, @read_got so far.
 * @read_size: see @read_buf.
 * @read_got: see @read_buf.
 * @read_id: the buffer being read.
 * @runs: runs in flight or done and not yet waited for.
 * @run_timeout_ms: the deadline runs started now carry (0: none).
 * @next_run: the last run id given out.
 * @next_id: the last buffer id given out.
 * @next_obj: the last function, program or slice id given out.
 * @bufs: buffers alive (@nbufs of @cap), freed at close.
 * @nbufs: see @bufs.
 * @cap: see @bufs.
 * @progs: programs registered (@nprogs), for their results' hosts.
 * @nprogs: see @progs.
 * @local: its controller runs in this process (runtime/dcn/local.c).
 * @stats: computations of its runs: submitted, and completed, failed or
 *	cancelled as their DONEs came; atomic, so that another thread
 *	reads them while a call waits holding @lock.
 * @slices: slices it made (@nslices).
 * @nslices: see @slices.
 * @lock: held while a call (or the heartbeat thread) uses @node.
 * @beat: the heartbeat thread (runtime/dcn/rc_beat.c), if @beating.
 * @beating: see @beat.
 * @beat_stop: tells @beat to end.
 * @uses: times a call let go of @lock (the thread sees idleness).
 * @last_sent_ns: when a message last went to the controller.
 * @answer_timeout_ms: how long the controller may be silent before a
 *	wait for a run gives up.
 * @waiting_since_ns: when the current wait for a run began.
 * @ids_wrapped: buffer ids came round once: new ones skip live ones.
 */
struct pw_remote {
	struct pw_node node;
	struct pw_node_peer *ctl;
	bool connected;
	struct pw_wire_connect_ack ack;
	struct pw_wire_program_ack program_ack;
	bool have_program_ack;
	uint32_t want_program;
	struct pw_wire_status status;
	bool have_status;
	uint8_t want_type;
	uint32_t want_id;
	struct pw_wire_slice slice_ans;
	struct pw_rc_slice *group_ans;
	unsigned int group_members;
	uint8_t *read_buf;
	uint64_t read_size;
	uint64_t read_got;
	uint32_t read_id;
	struct pw_rc_run runs[PW_RC_MAX_RUNS];
	uint32_t run_timeout_ms;
	uint32_t next_run;
	uint32_t next_id;
	uint32_t next_obj;
	struct pw_rc_buf *bufs;
	unsigned int nbufs;
	unsigned int cap;
	struct pw_rc_prog *progs;
	unsigned int nprogs;
	bool local;
	struct {
		atomic_uint_fast64_t submitted;
		atomic_uint_fast64_t completed;
		atomic_uint_fast64_t failed;
		atomic_uint_fast64_t cancelled;
	} stats;
	struct pw_rc_slice *slices;
	unsigned int nslices;
	pthread_mutex_t lock;
	pthread_t beat;
	bool beating;
	atomic_bool beat_stop;
	atomic_uint_fast64_t uses;
	uint64_t last_sent_ns;
	unsigned int answer_timeout_ms;
	uint64_t waiting_since_ns;
	bool ids_wrapped;
	uint32_t dp_peer[PW_WIRE_MAX_HOSTS];
	bool dp_tried;
	struct pw_dp *dp;
	struct sockaddr_in dp_addr;
	struct pw_dp_conn *dpc[PW_WIRE_MAX_HOSTS];
	bool dpc_up[PW_WIRE_MAX_HOSTS];
	unsigned int dp_connecting;
	uint32_t dp_want;
	bool dp_have_target;
	struct pw_wire_ready dp_target;
	unsigned int dp_writes;
	int dp_err;
	uint64_t dp_landed;
};

/*
 * runtime/dcn/rc_data.c: host data over the data plane. Shards of at
 * least PW_RC_DP_MIN_BYTES go that way when the client and the shard's
 * worker have a data plane of one kind; smaller ones take fewer messages
 * as BUFFER parts.
 */
#define PW_RC_DP_MIN_BYTES	(64u << 10)
void pw_rc_data_close(struct pw_remote *r);
/*
 * Whether @bytes of a shard on @slice (or, when 0, @host) go over the
 * data plane; opens the client's on first use, of its worker's kind.
 */
bool pw_rc_data_use(struct pw_remote *r, uint32_t slice, unsigned int host,
		    uint64_t bytes);
/* Under the lock: the data plane's events. */
void pw_rc_data_poll(struct pw_remote *r);
/* READY of a worker the controller introduced: an upload's target. */
int pw_rc_data_on_ready(struct pw_remote *r, const struct pw_wire_ready *rd);
int pw_rc_data_write(struct pw_remote *r, uint32_t slice, uint32_t id,
		     const struct pw_wire_sig *sig, uint64_t total,
		     const void *data);
/* -EOPNOTSUPP: @data cannot be registered; read it in BUFFER parts. */
int pw_rc_data_read(struct pw_remote *r, uint32_t slice, unsigned int host,
		    uint32_t id, void *data, size_t size);
/* BUFFER CREATE of shard @id (of @total bytes, @sig) on @slice, no bytes. */
void pw_rc_buffer_create(struct pw_wire_msg *m, uint32_t slice, uint32_t id,
			 const struct pw_wire_sig *sig, uint64_t total);
/* Under the lock: step the node (and data plane) for up to @until. */
int pw_rc_step(struct pw_remote *r, uint64_t until);

/* runtime/dcn/rc_beat.c: the client's node, shared with its heartbeat. */
void pw_rc_lock(struct pw_remote *r);
void pw_rc_unlock(struct pw_remote *r);
/* Under the lock: HEARTBEAT if nothing went for PW_RC_HEARTBEAT_MS. */
void pw_rc_keepalive(struct pw_remote *r, uint64_t now);
int pw_rc_beat_start(struct pw_remote *r);
void pw_rc_beat_stop(struct pw_remote *r);
/* Send @m to the controller (takes the lock). */
int pw_rc_send(struct pw_remote *r, struct pw_wire_msg *m);

/*
 * Connect over transport @t (taken), as a node of the cluster @key: 0,
 * -ETIMEDOUT, -errno refused.
 */
int pw_remote_open(struct pw_remote *r, struct pw_transport *t,
		   const struct pw_auth_key *key,
		   const struct sockaddr_in *controller, const char *name,
		   unsigned int timeout_ms);
/* Close what pw_remote_open() opened (@r itself is the caller's). */
void pw_remote_shut(struct pw_remote *r);
/*
 * Register a raw program image binding one scratch buffer of
 * @scratch_bytes (the dispatch benchmark's empty and add programs).
 */
int pw_remote_function_image(struct pw_remote *r, const void *image,
			     size_t size, uint64_t scratch_bytes,
			     uint32_t *fn_id);
/* A new buffer id (bit 31 and the shard bits clear, nonzero). */
uint32_t pw_remote_next_id(struct pw_remote *r);
/* A new function, program or slice id (bit 31 clear, nonzero). */
uint32_t pw_remote_next_obj_id(struct pw_remote *r);
/*
 * Wait for the PROGRAM_ACK of the program just sent: 0 or -errno; the
 * hosts it runs on into @hosts.
 */
int pw_remote_program_wait(struct pw_remote *r, struct pw_hostset *hosts);
/*
 * Remember program @id's results live on @slice[@nres]; @ncomp calls;
 * it runs on the workers of @hosts (one bit each).
 */
int pw_remote_program_add(struct pw_remote *r, uint32_t id, unsigned int nres,
			  unsigned int ncomp, const uint32_t *slice,
			  const struct pw_hostset *hosts);
/* Remember buffer @id on @slice, to free it at close. */
int pw_remote_track(struct pw_remote *r, uint32_t id, uint32_t slice);
/* The slice @id of @r, or NULL. */
const struct pw_rc_slice *pw_remote_slice_find(const struct pw_remote *r,
					       uint32_t id);
/* FREE shard handle @id on @slice (no answer is waited for). */
int pw_remote_free_shard(struct pw_remote *r, uint32_t slice, uint32_t id);
/* A slice of device @dev of host @host alone (made once, then reused). */
int pw_remote_pinned_slice(struct pw_remote *r, unsigned int host,
			   unsigned int dev, uint32_t *slice);
/* Wait for run @ticket; its DONE and this host's send/receive times. */
int pw_remote_wait_done(struct pw_remote *r, uint32_t ticket,
			struct pw_wire_done *done, uint64_t *sent_ns,
			uint64_t *recv_ns);
int pw_worker_step(struct pw_worker *w, uint64_t timeout_ns);
void pw_worker_fini(struct pw_worker *w);

#endif /* PW_RUNTIME_DCN_ROLES_H */
