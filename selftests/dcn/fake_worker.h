/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_worker.h - what the host tests of the controller share: a bare
 * DCN node in a worker's place registers an island as pathwaysd's worker
 * would (test_controller, test_share, test_lower).
 */
#ifndef PW_SELFTESTS_DCN_FAKE_WORKER_H
#define PW_SELFTESTS_DCN_FAKE_WORKER_H

#include "../../runtime/dcn/node.h"

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
 * the node a peer. 1 if it was one of those, else 0; or -errno.
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

#endif /* PW_SELFTESTS_DCN_FAKE_WORKER_H */
