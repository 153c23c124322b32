// SPDX-License-Identifier: GPL-2.0
/*
 * pathwaysd - the Pathways daemon on a DCN host (docs/dcn.md).
 *
 *   pathwaysd --role controller --listen IP:PORT [--heartbeat-ms N]
 *             [--down-ms N] [--client-timeout-ms N] [--sched fifo|share]
 *             [--window N] [--weight NAME=W]... [--config FILE]
 *   pathwaysd --role worker --listen IP:PORT --controller IP:PORT
 *             --host-id N [--data-port N] [--data auto|rdma|tcp]
 *             [--devices kernel|sim:MESH[,hbm_mib=N][,timing=MODE][,trace=FILE]]
 *             [--down-ms N]
 *   pathwaysd --role status --controller IP:PORT [--listen IP:PORT]
 *   every role: [--transport udp|dpdk [--interface IF]] [--run-for S]
 *               [--key FILE] [--config FILE] [--check-config]
 *   pathwaysd --gen-key FILE
 *
 * The controller keeps the islands workers register and marks a worker
 * down when it falls silent; a worker registers the island of the
 * loaded pwtpu.ko (or, with --devices sim:MESH, simulated devices: the
 * same firmware in the worker's process), heartbeats, and runs remote
 * clients' plans, moving
 * cross-island values over its data plane (RDMA verbs where the listen
 * address has an RDMA device, else TCP; --data forces one); status connects as a client and prints
 * what the controller knows. A worker's --down-ms is how long it waits for
 * the controller's first answer before registering afresh (1000; once
 * registered, the controller's own). The controller keeps at most --window runs
 * in flight per island (64) and releases the others FIFO or by
 * proportional share (--sched share: clients weighted by the name they
 * connect with, --weight NAME=W, 1 for names not given); these are the operator's, and
 * the controller refuses a client's ADMIN to change them. --config FILE
 * reads options from a file, one "option value" per line ("sched share",
 * "weight trainer=4"; "#" starts a comment; "[worker]" starts lines for
 * one role only: tools/pathwaysd_opts.c). Everything is checked before
 * anything starts; --check-config checks and exits (0 valid, 2 a bad
 * option, 1 a key it cannot use). Under systemd (Type=notify) a daemon
 * says READY=1 once it listens (controller) or runs its island (worker).
 * --transport picks the control plane's datagrams: kernel UDP sockets (the
 * default) or DPDK's af_packet driver on the interface that holds the
 * --listen address (--interface names another); a DPDK daemon polls
 * instead of sleeping, and needs --listen with the host's own address
 * (port 0 takes a free one). Both kinds talk to each other.
 * Every datagram is authenticated with the cluster's key (docs/dcn.md):
 * --key FILE, else the file PATHWAYS_KEY_FILE names, else
 * /etc/pathways/cluster.key; a daemon without one, or whose key file
 * others may read, refuses to start. --gen-key FILE writes a new key.
 * --run-for SECONDS stops the daemon after
 * that long; SIGTERM and SIGINT stop it at once. Either way it prints its
 * counters (messages, retransmissions, datagrams dropped by reason).
 * SIGUSR1 makes a controller or worker hand its allocator's free memory
 * back (malloc_trim) and print what the allocator holds, outside the
 * role's tables and in them, the objects live in those, and the tables'
 * sizes:
 *   ROLE: memory: heap in use N bytes outside tables, N in tables,
 *	N objects live; free in the heap N, mapped N; slots: ...
 */
#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include <pathways/rm.h>
#include <pwtpu/pwtpu_dev.h>

#include "../runtime/dcn/roles.h"
#include "../runtime/net/dpdk.h"
#include "../runtime/net/transport_name.h"
#include "../runtime/util/slots.h"
#include "pathwaysd_opts.h"

static volatile sig_atomic_t stop, report;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		report = 1;
	else
		stop = 1;
}

/*
 * On SIGUSR1: hand the allocator's free memory back (as a client of the
 * soak does before it reads its resident set), then print one line of
 * what the allocator holds: in use outside the role's tables, and in
 * them (@tables bytes: tables of slots grow to the most they held at
 * once and stay), with the objects live in them (@live). A resident set
 * that grows while these do not is memory freed and kept.
 */
static void report_allocator(const char *who, size_t tables,
			     unsigned int live, const char *slots)
{
	struct mallinfo2 mi;
	size_t total;

	report = 0;
	malloc_trim(0);
	mi = mallinfo2();
	/* A table past the mmap threshold is in hblkhd, not uordblks. */
	total = mi.uordblks + mi.hblkhd;
	printf("%s: memory: heap in use %zu bytes outside tables, %zu in tables, %u objects live; free in the heap %zu, mapped %zu; slots: %s\n",
	       who, total > tables ? total - tables : 0, tables, live,
	       mi.fordblks, mi.hblkhd, slots);
	fflush(stdout);
}

#define TABLE(tab, n)	((size_t)(n) * sizeof(*(tab)))
#define USED(tab, n)	pw_slots_used(tab, n, sizeof(*(tab)))

static void report_controller(const struct pw_controller *c)
{
	char slots[160];

	if (!report)
		return;
	snprintf(slots, sizeof(slots),
		 "programs %u runs %u functions %u slices %u sets %u tenants %u peers %u",
		 c->nprograms, c->nruns, c->nfns, c->nslices, c->nvsets,
		 c->ntenants, c->node.npeers);
	report_allocator("controller",
			 TABLE(c->programs, c->nprograms) +
			 TABLE(c->runs, c->nruns) + TABLE(c->fns, c->nfns) +
			 TABLE(c->slices, c->nslices) +
			 TABLE(c->vsets, c->nvsets) +
			 TABLE(c->tenants, c->ntenants),
			 USED(c->programs, c->nprograms) +
			 USED(c->runs, c->nruns) + USED(c->fns, c->nfns) +
			 USED(c->slices, c->nslices) + c->nvsets +
			 USED(c->tenants, c->ntenants), slots);
}

static void report_worker(const struct pw_worker *w)
{
	unsigned int nearly = w->early ? PW_WK_MAX_EARLY : 0;
	char slots[160];

	if (!report)
		return;
	snprintf(slots, sizeof(slots),
		 "runs %u slices %u gangs %u peers %u early %u",
		 w->nruns, w->nslices, w->ngangs, w->node.npeers, nearly);
	report_allocator("worker",
			 TABLE(w->runs, w->nruns) +
			 TABLE(w->slices, w->nslices) +
			 TABLE(w->gangs, w->ngangs) +
			 TABLE(w->early, nearly),
			 USED(w->runs, w->nruns) + w->nslices + w->ngangs +
			 USED(w->early, nearly) + w->store.nbufs +
			 w->store.nfns, slots);
}

/* What went over the control plane's transport, at exit. */
static void print_transport(const char *who, struct pw_transport *t)
{
	const struct pw_transport_stats *ts = &t->stats;
	const struct pw_dpdk_stats *d = pw_dpdk_stats(t);

	printf("%s: transport %s: tx %llu rx %llu datagrams, %llu tx errors, %llu tx waits\n",
	       who, t->ops->name, (unsigned long long)ts->tx_packets,
	       (unsigned long long)ts->rx_packets,
	       (unsigned long long)ts->tx_errors,
	       (unsigned long long)ts->tx_waits);
	if (d)
		printf("%s: dpdk: %llu frames, ARP asked %llu answered %llu learned %llu dropped %llu, %llu for other hosts, %llu for other ports\n",
		       who, (unsigned long long)d->rx_frames,
		       (unsigned long long)d->arp_requests_sent,
		       (unsigned long long)d->arp_replies_sent,
		       (unsigned long long)d->arp_learned,
		       (unsigned long long)d->arp_dropped,
		       (unsigned long long)d->rx_dropped[PW_FRAME_D_OTHER_HOST],
		       (unsigned long long)d->rx_dropped[PW_FRAME_D_OTHER_PORT]);
	fflush(stdout);
}

static bool time_up(const struct pathwaysd_opts *o, uint64_t start)
{
	return stop || (o->run_for > 0 &&
			pw_now_ns() - start >= (uint64_t)(o->run_for * 1e9));
}

static int run_controller(const struct pathwaysd_opts *o, struct pw_transport *t)
{
	static struct pw_controller c;
	uint64_t start = pw_now_ns();
	int ret = pw_controller_init(&c, t, &o->key, o->heartbeat_ms,
				     o->down_ms, o->client_timeout_ms);

	/* pathwaysd_check() took every setting these refuse. */
	if (!ret)
		ret = pw_ctl_share_configure(&c, &o->share);
	if (ret) {
		fprintf(stderr, "pathwaysd: controller: %s\n", strerror(-ret));
		return ret;
	}
	printf("controller: listening on %s:%u over %s (heartbeat %u ms, down after %u ms, %s",
	       inet_ntoa(o->listen_at.sin_addr), ntohs(o->listen_at.sin_port),
	       t->ops->name, c.heartbeat_ms, c.down_ms,
	       c.share.policy == PW_WIRE_SCHED_SHARE ? "share" : "fifo");
	if (c.share.policy == PW_WIRE_SCHED_SHARE)
		printf(" window %u, %u weights", c.share.window,
		       c.share.nweights);
	printf(")\n");
	fflush(stdout);
	sd_notify(0, "READY=1\nSTATUS=controller listening");
	while (!time_up(o, start) && !ret) {
		ret = pw_controller_step(&c, 50000000ull);
		report_controller(&c);
	}
	pw_node_print_stats(&c.node, "controller");
	printf("controller: %u workers marked down (%u of them deaf), %u runs past their deadline, %llu partial programs and functions evicted\n",
	       c.downs, c.deaf, c.run_timeouts,
	       (unsigned long long)c.evicted);
	print_transport("controller", t);
	pw_controller_fini(&c);
	return ret;
}

static int run_worker(const struct pathwaysd_opts *o, struct pw_transport *t)
{
	static struct pw_worker w;
	struct pw_wire_register reg;
	struct sockaddr_in reg_at;
	struct pw_dp_opts dp = { .mode = o->data_mode };
	const struct pw_wdev_sim_cfg *sim = o->is_sim ? &o->sim : NULL;
	uint64_t start = pw_now_ns();
	int ret;

	reg_at = o->listen_at;
	reg_at.sin_port = htons((uint16_t)(o->data_port ? o->data_port :
					   ntohs(o->listen_at.sin_port) + 1u));
	ret = pw_worker_registration(&reg, &reg_at, sim);
	if (ret)
		fprintf(stderr, "pathwaysd: no island: %s%s\n", strerror(-ret),
			sim ? "" : " (is pwtpu.ko loaded?)");
	dp.bind = o->listen_at;
	dp.bind.sin_port = htons((uint16_t)reg.data_port);
	if (!ret)
		ret = pw_worker_init(&w, t, &o->key, (uint32_t)o->host_id,
				     &o->controller, &reg, &dp, sim);
	/* Until the controller's REGISTER_ACK brings its own. */
	if (!ret && o->down_ms)
		w.down_ms = o->down_ms;
	if (ret) {
		/* -EBUSY: another process drives the island; it says which. */
		fprintf(stderr, "pathwaysd: worker %ld: %s\n", o->host_id,
			ret == -EBUSY ? pw_last_error() : strerror(-ret));
		pw_transport_close(t);
		return ret;
	}
	printf("worker %ld: island %u, %u %sdevices (%s), controller %s:%u over %s\n",
	       o->host_id, reg.island_id, reg.ndevices,
	       sim ? "simulated " : "", reg.mesh,
	       inet_ntoa(o->controller.sin_addr), ntohs(o->controller.sin_port),
	       t->ops->name);
	fflush(stdout);
	sd_notify(0, "READY=1\nSTATUS=worker running its island");
	while (!time_up(o, start) && !ret) {
		ret = pw_worker_step(&w, 50000000ull);
		report_worker(&w);
	}
	pw_node_print_stats(&w.node, "worker");
	print_transport("worker", t);
	pw_worker_fini(&w);
	return ret;
}

static int run_status(const struct pathwaysd_opts *o, struct pw_transport *t)
{
	static struct pw_remote r;
	double limit = o->run_for > 0 ? o->run_for : 5;
	int ret;

	/* A client that connects, reads the answer and says BYE. */
	ret = pw_remote_open(&r, t, &o->key, &o->controller, "status",
			     (unsigned int)(limit * 1000));
	if (!ret)
		printf("islands %u devices %u\n", r.ack.nislands, r.ack.ndevices);
	pw_remote_shut(&r);
	if (ret == -ETIMEDOUT)
		fprintf(stderr, "pathwaysd: no answer from the controller in %.1f s\n",
			limit);
	return ret;
}

/* The control plane's transport, or a message saying what was wrong. */
static int open_transport(const struct pathwaysd_opts *o, struct pw_transport **t)
{
	const char *ifname = o->ifname[0] ? o->ifname : NULL;

	bool dpdk = !strcmp(o->transport, "dpdk");
	int ret;

	/* Polling naps are short: the default 50 us timer slack is not. */
	if (dpdk)
		prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	ret = pw_transport_open(t, o->transport, ifname, &o->listen_at);
	if (ret == -EADDRNOTAVAIL && dpdk && !ifname)
		fprintf(stderr, "pathwaysd: dpdk: no interface has the address %s (--interface names one)\n",
			inet_ntoa(o->listen_at.sin_addr));
	else if (ret)
		fprintf(stderr, "pathwaysd: %s %s:%u%s%s: %s\n", o->transport,
			inet_ntoa(o->listen_at.sin_addr),
			ntohs(o->listen_at.sin_port), ifname ? " on " : "",
			ifname ? ifname : "", strerror(-ret));
	return ret;
}

int main(int argc, char **argv)
{
	struct pathwaysd_opts o;
	struct sigaction sa = { 0 };
	struct pw_transport *t;
	char why[256];
	int ret;

	if (pathwaysd_parse(argc, argv, &o)) {
		pathwaysd_opts_free(&o);
		return 2;
	}
	if (o.gen_key) {
		ret = pw_auth_key_create(o.gen_key, why, sizeof(why));
		if (ret)
			fprintf(stderr, "pathwaysd: %s\n", why);
		pathwaysd_opts_free(&o);
		return ret ? 1 : 0;
	}
	/* Configuration errors exit 2, a key that cannot be used 1. */
	ret = pathwaysd_check(&o);
	if (ret || o.check_only) {
		if (!ret)
			printf("pathwaysd: the configuration of the %s is valid\n",
			       o.role);
		pathwaysd_opts_free(&o);
		return ret == -EINVAL ? 2 : ret ? 1 : 0;
	}
	if (!o.have_listen) {
		o.listen_at.sin_family = AF_INET;
		o.listen_at.sin_addr.s_addr = htonl(INADDR_ANY);
		if (!strcmp(o.role, "controller"))
			o.listen_at.sin_port = htons(7700);
	}
	/* SA_RESTART: a report asked for mid-call does not fail the call. */
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	ret = open_transport(&o, &t);
	if (ret) {
		pathwaysd_opts_free(&o);
		return 1;
	}
	if (!strcmp(o.role, "controller"))
		ret = run_controller(&o, t);
	else if (!strcmp(o.role, "worker"))
		ret = run_worker(&o, t);
	else
		ret = run_status(&o, t);
	sd_notify(0, "STOPPING=1");
	pathwaysd_opts_free(&o);
	return ret ? 1 : 0;
}
