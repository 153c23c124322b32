// SPDX-License-Identifier: GPL-2.0
/*
 * fake_worker.c - a bare node registers an island (fake_worker.h).
 */
#include <stdio.h>
#include <string.h>

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
