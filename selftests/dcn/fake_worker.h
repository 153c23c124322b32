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

#endif /* PW_SELFTESTS_DCN_FAKE_WORKER_H */
