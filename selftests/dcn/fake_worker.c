// SPDX-License-Identifier: GPL-2.0
/*
 * fake_worker.c - a bare node registers an island and answers plans as
 * a worker would (fake_worker.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../runtime/dcn/rclient.h"
#include "../../runtime/dcn/roles.h"
#include "../../runtime/net/transport.h"

#include "fake_worker.h"
#include "../lib/test_key.h"

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
	struct pw_node_peer *gone;

	/* Only the controller says who has gone; never the sender itself. */
	if (msg->hdr.type == PW_WIRE_BYE) {
		gone = pw_node_find(node, msg->body.bye.client);
		if (msg->hdr.src_node == PW_NODE_CONTROLLER && gone &&
		    gone->id != PW_NODE_CONTROLLER)
			pw_node_drop_peer(node, gone);
		return 1;
	}
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

static struct pw_fn *add_fn(void)
{
	const uint32_t shape[1] = { 4 };
	struct pw_fn_builder *b = pw_fn_begin("add");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_fn *fn = NULL;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x, x));
	pw_fn_build(b, &fn);
	return fn;
}

int fake_program(struct pw_remote *r, struct pw_fn *fn, uint32_t *prog)
{
	const uint32_t shape[1] = { 4 };
	struct pw_rprog *p;
	uint32_t fid;
	int a, y, ret;

	ret = pw_remote_function(r, fn, &fid);
	if (ret)
		return ret;
	p = pw_rprog_begin();
	if (!p)
		return -ENOMEM;
	a = pw_rprog_arg(p, 0, 0, PWTPU_DT_F32, 1, shape);
	ret = pw_rprog_call(p, fn, fid, 0, 0, &a, 1, &y);
	if (!ret)
		ret = pw_rprog_results(p, &y, 1);
	if (!ret)
		ret = pw_remote_program(r, p, prog);
	pw_rprog_free(p);
	return ret;
}

int fake_client_program(const struct sockaddr_in *ctl, const char *name,
			struct pw_remote **r, struct pw_fn **fn,
			uint32_t *prog)
{
	char ctl_str[32];
	int ret;

	*fn = NULL;
	snprintf(ctl_str, sizeof(ctl_str), "127.0.0.1:%u", ntohs(ctl->sin_port));
	ret = pw_remote_connect(ctl_str, name, r);
	if (ret)
		return ret;
	*fn = add_fn();
	return *fn ? fake_program(*r, *fn, prog) : -ENOMEM;
}

static int cluster_worker(struct pw_node *node, struct pw_node_peer *peer,
			  const struct pw_wire_msg *msg, uint64_t now)
{
	struct fake_cluster *fc = node->ctx;
	struct fake_plan plan;
	int ret = fake_worker_common(node, msg);

	(void)peer;
	(void)now;
	if (ret)
		return ret < 0 ? ret : 0;
	if (msg->hdr.type == PW_WIRE_REGISTER_ACK)
		atomic_store(&fc->registered, msg->body.reg_ack.status == 0);
	if (msg->hdr.type != PW_WIRE_PLAN || !atomic_load(&fc->answer))
		return 0;
	plan = fake_plan_of(&msg->body.plan);
	return fake_worker_done(node, &plan, 0, msg->body.plan.ncmds_total,
				FAKE_TO_BOTH);
}

static void *cluster_serve(void *arg)
{
	struct fake_cluster *fc = arg;

	while (!atomic_load(&fc->stop)) {
		if (atomic_load(&fc->pause)) {
			atomic_store(&fc->paused, true);
			usleep(1000);
			continue;
		}
		atomic_store(&fc->paused, false);
		pw_controller_step(&fc->c, 1000000ull);
		pw_node_step(&fc->wk, 0);
	}
	return NULL;
}

int fake_cluster_start(struct fake_cluster *fc, unsigned int client_timeout_ms)
{
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct pw_node_peer *to_ctl;
	struct pw_auth_key key;
	struct pw_transport *t;
	int ret, i;

	memset(fc, 0, sizeof(*fc));
	atomic_init(&fc->answer, true);
	ret = test_cluster_key(&key);
	if (ret)
		return ret;
	ret = pw_udp_open(&t, &lo);
	if (ret)
		return ret;
	/* The bare worker sends no heartbeats: never marked down. */
	ret = pw_controller_init(&fc->c, t, &key, 0, 600000, client_timeout_ms);
	if (!ret)
		ret = pw_transport_local_addr(t, &fc->ctl_addr);
	if (!ret)
		ret = pw_udp_open(&t, &lo);
	if (!ret)
		ret = pw_node_init(&fc->wk, PW_NODE_WORKER_BASE, t, &key,
				   cluster_worker, fc);
	if (ret) {
		pw_controller_fini(&fc->c);
		return ret;
	}
	to_ctl = pw_node_peer(&fc->wk, PW_NODE_CONTROLLER, &fc->ctl_addr);
	ret = to_ctl ? fake_worker_register(&fc->wk, to_ctl, 0, 1, "1x1") :
		       -ENOMEM;
	if (!ret)
		ret = -pthread_create(&fc->loop, NULL, cluster_serve, fc);
	if (ret) {
		pw_node_fini(&fc->wk);
		pw_controller_fini(&fc->c);
		return ret;
	}
	for (i = 0; i < 10000 && !atomic_load(&fc->registered); i++)
		usleep(1000);
	if (!atomic_load(&fc->registered)) {
		fake_cluster_stop(fc);
		return -ETIMEDOUT;
	}
	return 0;
}

void fake_cluster_stop(struct fake_cluster *fc)
{
	atomic_store(&fc->stop, true);
	pthread_join(fc->loop, NULL);
	pw_node_fini(&fc->wk);
	pw_controller_fini(&fc->c);
}

void fake_cluster_hold(struct fake_cluster *fc)
{
	int i;

	atomic_store(&fc->pause, true);
	for (i = 0; i < 10000 && !atomic_load(&fc->paused); i++)
		usleep(1000);
}

void fake_cluster_resume(struct fake_cluster *fc)
{
	atomic_store(&fc->paused, false);
	atomic_store(&fc->pause, false);
}
