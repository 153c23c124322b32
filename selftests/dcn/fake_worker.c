// SPDX-License-Identifier: GPL-2.0
/*
 * fake_worker.c - a bare node registers an island and answers plans as
 * a worker would (fake_worker.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../runtime/dcn/roles.h"

#include "fake_worker.h"

int fake_worker_register(struct pw_node *node, struct pw_node_peer *ctl,
			 unsigned int host, unsigned int ndev,
			 const char *mesh)
{
	struct pw_wire_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_REGISTER;
	m.body.reg.host_id = host;
	m.body.reg.ndevices = ndev;
	/* Nothing listens there: a plan's transfers are only read. */
	m.body.reg.data_port = (uint16_t)(4791 + 2 * host);
	m.body.reg.hbm_bytes = 16ull << 20;
	snprintf(m.body.reg.mesh, sizeof(m.body.reg.mesh), "%s", mesh);
	return pw_node_send(node, ctl, &m, pw_now_ns());
}

struct fake_plan fake_plan_of(const struct pw_wire_plan *pl)
{
	return (struct fake_plan){ .run_id = pl->run_id, .client = pl->client,
				   .client_run = pl->client_run,
				   .nhosts = pl->nhosts };
}

int fake_worker_common(struct pw_node *node, const struct pw_wire_msg *msg)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };

	if (msg->hdr.type != PW_WIRE_PEER)
		return 0;
	memcpy(&addr.sin_addr, msg->body.peer.ip, 4);
	addr.sin_port = htons(msg->body.peer.port);
	if (!pw_node_find(node, msg->body.peer.node) &&
	    !pw_node_peer(node, msg->body.peer.node, &addr))
		return -ENOSPC;
	return 1;
}

int fake_worker_done(struct pw_node *node, const struct fake_plan *pl,
		     uint32_t status, unsigned int ncmds, unsigned int to)
{
	struct pw_node_peer *client = pw_node_find(node, pl->client);
	struct pw_wire_msg m;
	uint64_t now = pw_now_ns();
	int ret;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_DONE;
	m.body.done.status = status;
	m.body.done.host_id = node->id - PW_NODE_WORKER_BASE;
	m.body.done.ncmds = ncmds;
	m.body.done.nhosts = pl->nhosts;
	if (to & FAKE_TO_CLIENT) {
		if (!client)
			return -ENOENT;
		m.body.done.run_id = pl->client_run;
		ret = pw_node_send(node, client, &m, now);
		if (ret || !(to & FAKE_TO_CTL))
			return ret;
	}
	m.body.done.run_id = pl->run_id;
	return pw_node_send(node, pw_node_find(node, PW_NODE_CONTROLLER), &m,
			    now);
}
