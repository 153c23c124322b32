/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_worker.h - what the host tests of the controller share: a bare
 * DCN node in a worker's place registers an island as pathwaysd's worker
 * would (test_controller, test_share, test_lower).
 */
#ifndef PW_SELFTESTS_DCN_FAKE_WORKER_H
#define PW_SELFTESTS_DCN_FAKE_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#include "../../runtime/dcn/roles.h"

/*
 * REGISTER host @host's island of @ndev devices shaped @mesh ("2x2"),
 * 16 MiB of HBM each, with a data-plane port, through @node to the
 * controller @ctl. 0 or -errno; REGISTER_ACK comes to the node's handler.
 */
int fake_worker_register(struct pw_node *node, struct pw_node_peer *ctl,
			 unsigned int host, unsigned int ndev,
			 const char *mesh);

/* What a worker keeps of a PLAN to answer it. */
struct fake_plan {
	uint32_t run_id;
	uint32_t client;
	uint32_t client_run;
	uint32_t nhosts;
};

struct fake_plan fake_plan_of(const struct pw_wire_plan *pl);

/*
 * A message for the worker @node that is not the test's: PEER (the
 * controller introduces a client, whose DONEs go to it directly) makes
 * the node a peer; BYE (the client has gone) drops it, as a worker does.
 * 1 if it was one of those, else 0; or -errno.
 */
int fake_worker_common(struct pw_node *node, const struct pw_wire_msg *msg);

/* Where a DONE goes: pathwaysd's worker sends both. */
#define FAKE_TO_CLIENT	0x1
#define FAKE_TO_CTL	0x2
#define FAKE_TO_BOTH	(FAKE_TO_CLIENT | FAKE_TO_CTL)

/*
 * Answer run @pl as pathwaysd's worker does: DONE with @status and
 * @ncmds to the controller, and straight to the run's client (@to says
 * which of the two, for tests of what each does alone).
 */
int fake_worker_done(struct pw_node *node, const struct fake_plan *pl,
		     uint32_t status, unsigned int ncmds, unsigned int to);

struct pw_remote;
struct pw_fn;

/*
 * The program every host test runs, registered by client @r: one call of
 * @fn (f32[4] in, f32[4] out) on host 0's device 0, one argument, one
 * result. 0, or -errno (pw_last_error() says why).
 */
int fake_program(struct pw_remote *r, struct pw_fn *fn, uint32_t *prog);
/*
 * A remote client of the controller at @ctl, named @name, with that
 * program of x + x. 0, or -errno (pw_last_error() says why); *@r, *@fn
 * and *@prog are the caller's to close and put.
 */
int fake_client_program(const struct sockaddr_in *ctl, const char *name,
			struct pw_remote **r, struct pw_fn **fn,
			uint32_t *prog);

/**
 * struct fake_cluster - a controller and host 0's bare worker, one device
 *	("1x1"), served by a thread of their own over UDP on loopback
 * @c: the controller.
 * @ctl_addr: its address.
 * @wk: host 0's worker node: it answers each PLAN at once while @answer.
 * @registered: its REGISTER_ACK came with status 0.
 * @answer: see @wk.
 * @loop: the thread stepping both.
 * @stop: ends @loop.
 * @pause: @loop stops stepping, and sets @paused once it has.
 * @paused: see @pause.
 */
struct fake_cluster {
	struct pw_controller c;
	struct sockaddr_in ctl_addr;
	struct pw_node wk;
	atomic_bool registered;
	atomic_bool answer;
	pthread_t loop;
	atomic_bool stop;
	atomic_bool pause;
	atomic_bool paused;
};

/* Start @fc, clients given up on after @client_timeout_ms: 0 or -errno. */
int fake_cluster_start(struct fake_cluster *fc, unsigned int client_timeout_ms);
void fake_cluster_stop(struct fake_cluster *fc);
/* Stop stepping, so that the caller may read @fc->c; then go on. */
void fake_cluster_hold(struct fake_cluster *fc);
void fake_cluster_resume(struct fake_cluster *fc);

#endif /* PW_SELFTESTS_DCN_FAKE_WORKER_H */
