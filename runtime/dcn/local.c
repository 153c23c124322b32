// SPDX-License-Identifier: GPL-2.0
/*
 * local.c - pathwaysd inside the process: the controller and this host's
 * worker, the same code as on a cluster's hosts, each on its own thread,
 * joined to each other and to the process's clients by the in-process
 * transport (runtime/net/loop.c) instead of sockets. Started by the first
 * client that asks for it and stopped when the last one leaves. The
 * worker claims the island (runtime/util/claim.c) as pathwaysd's does,
 * or, with PATHWAYS_DEVICES=sim:MESH, drives simulated devices: the same
 * firmware in this process (runtime/dcn/wdev_sim.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fn/fn.h"
#include "../util/log.h"
#include "local.h"
#include "roles.h"

/* How long a role's thread sleeps at most: what stopping it costs. */
#define LOCAL_STEP_NS	20000000ull
/*
 * The worker is a thread of this process: its silence means a busy
 * machine (TCG guests miss the 1 s of a cluster), never a lost host.
 */
#define LOCAL_DOWN_MS	10000
/* The worker registers within this time or the start fails. */
#define LOCAL_START_MS	5000

struct pw_local {
	struct pw_controller ctl;
	struct pw_worker wk;
	struct sockaddr_in ctl_addr;
	struct pw_auth_key key;
	pthread_t ctl_thread;
	pthread_t wk_thread;
	atomic_bool stop;
	int users;
};

static pthread_mutex_t local_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pw_local *local;

static void *ctl_main(void *arg)
{
	struct pw_local *l = arg;

	while (!atomic_load(&l->stop))
		if (pw_controller_step(&l->ctl, LOCAL_STEP_NS))
			break;
	return NULL;
}

static void *wk_main(void *arg)
{
	struct pw_local *l = arg;

	while (!atomic_load(&l->stop))
		if (pw_worker_step(&l->wk, LOCAL_STEP_NS))
			break;
	return NULL;
}

/*
 * The devices PATHWAYS_DEVICES names ("kernel" when unset, or
 * "sim:MESH,...": pw_wdev_parse()): 0, with @sim set for simulated ones.
 */
static int local_devices(struct pw_wdev_sim_cfg *cfg, bool *sim)
{
	const char *devices = getenv("PATHWAYS_DEVICES");
	char err[160];

	if (!devices)
		devices = "kernel";
	if (pw_wdev_parse(devices, cfg, sim, err, sizeof(err)))
		return pw_fail(-EINVAL, "PATHWAYS_DEVICES=%s", err);
	return 0;
}

static int local_start(struct pw_local *l)
{
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct pw_wdev_sim_cfg sim_cfg;
	const struct pw_wdev_sim_cfg *sim;
	struct pw_wire_register reg;
	struct pw_transport *t;
	uint64_t until;
	bool is_sim;
	int ret;

	any.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* The roles' log is the user's to ask for: PATHWAYS_LOG=1, stderr. */
	pw_log_to(getenv("PATHWAYS_LOG") ? stderr : NULL);
	ret = local_devices(&sim_cfg, &is_sim);
	if (ret)
		return ret;
	sim = is_sim ? &sim_cfg : NULL;
	/* Port 0 and no RDMA: this worker has no data plane. */
	ret = pw_worker_registration(&reg, &any, sim);
	if (ret)
		return pw_fail(ret, ret == -ENOENT ?
			       "no pwtpu devices: is pwtpu.ko loaded?" :
			       "reading the island from sysfs: %s",
			       strerror(-ret));
	ret = pw_loop_open(&t, &any);
	if (ret)
		return pw_fail(ret, "the controller's endpoint: %s",
			       strerror(-ret));
	pw_transport_local_addr(t, &l->ctl_addr);
	pw_auth_key_random(&l->key);
	ret = pw_controller_init(&l->ctl, t, &l->key, PW_HEARTBEAT_MS,
				 LOCAL_DOWN_MS, PW_CLIENT_TIMEOUT_MS);
	if (ret) {
		pw_transport_close(t);
		return pw_fail(ret, "starting the controller: %s",
			       strerror(-ret));
	}
	/* This process runs the controller: it is its operator. */
	l->ctl.share.clients_administer = true;
	ret = pw_loop_open(&t, &any);
	if (ret) {
		pw_fail(ret, "the worker's endpoint: %s", strerror(-ret));
		goto err_ctl;
	}
	/* No data plane: one island has no cross-island edges. */
	ret = pw_worker_init(&l->wk, t, &l->key, 0, &l->ctl_addr, &reg, NULL,
			     sim);
	if (ret) {
		pw_transport_close(t);
		/* -EBUSY, -ENOENT: the island claim's message stands. */
		if (ret != -EBUSY && ret != -ENOENT)
			pw_fail(ret, "starting the worker: %s", strerror(-ret));
		goto err_ctl;
	}
	/* Registered before any client connects, so it sees the island. */
	until = pw_now_ns() + LOCAL_START_MS * 1000000ull;
	while (!l->wk.registered && pw_now_ns() < until) {
		pw_worker_step(&l->wk, 1000000ull);
		pw_controller_step(&l->ctl, 1000000ull);
	}
	if (!l->wk.registered) {
		ret = pw_fail(-ETIMEDOUT, "the in-process worker did not register");
		goto err_wk;
	}
	ret = pthread_create(&l->ctl_thread, NULL, ctl_main, l);
	if (ret) {
		ret = pw_fail(-ret, "a thread for the controller");
		goto err_wk;
	}
	ret = pthread_create(&l->wk_thread, NULL, wk_main, l);
	if (ret) {
		atomic_store(&l->stop, true);
		pthread_join(l->ctl_thread, NULL);
		ret = pw_fail(-ret, "a thread for the worker");
		goto err_wk;
	}
	return 0;
err_wk:
	pw_worker_fini(&l->wk);
err_ctl:
	pw_controller_fini(&l->ctl);
	return ret;
}

int pw_local_get(struct sockaddr_in *ctl_addr, struct pw_auth_key *key)
{
	struct pw_local *l;
	int ret = 0;

	pthread_mutex_lock(&local_lock);
	if (!local) {
		l = calloc(1, sizeof(*l));
		ret = l ? local_start(l) : pw_fail(-ENOMEM, "out of host memory");
		if (ret)
			free(l);
		else
			local = l;
	}
	if (!ret) {
		local->users++;
		*ctl_addr = local->ctl_addr;
		*key = local->key;
	}
	pthread_mutex_unlock(&local_lock);
	return ret;
}

void pw_local_put(void)
{
	struct pw_local *l = NULL;

	pthread_mutex_lock(&local_lock);
	if (local && --local->users == 0) {
		l = local;
		local = NULL;
	}
	pthread_mutex_unlock(&local_lock);
	if (!l)
		return;
	atomic_store(&l->stop, true);
	pthread_join(l->ctl_thread, NULL);
	pthread_join(l->wk_thread, NULL);
	pw_worker_fini(&l->wk);
	pw_controller_fini(&l->ctl);
	free(l);
}
