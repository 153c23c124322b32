// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_dcn.c - `pwbench dispatch --dcn`: what it costs to dispatch to
 * a device on another host: a client here sends one RUN to the controller
 * (docs/dcn.md), the controller sends the worker its PLAN, the worker
 * submits to its device through io_uring, and DONE comes back the same
 * way. Two programs, as `pwbench dispatch --local` runs them: an empty
 * program and a 1-element f32 add, each one computation.
 *
 * The control transport is kernel UDP, or DPDK on an interface with
 * --dpdk IF (af_packet; the controller must be on another host, since a
 * host's packets to itself never reach the interface).
 *
 * Besides the round trip (this host's clock) it reports where the time
 * went, each part on one host's clock: the controller's residence (RUN
 * in to PLAN out), the worker's (PLAN in to DONE out), and within the
 * worker's: PLAN in to the device starting (decode, issue, submission and
 * the device's queue), the device (first start to last end) and its
 * completion back out (device end to DONE out); the rest is network and
 * forwarding.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pwtpu/pwprog.h>

#include "../runtime/dcn/roles.h"
#include "../runtime/fn/fn.h"
#include "../runtime/net/transport_name.h"

#include "pwbench.h"

enum { DCN_EMPTY, DCN_ADD, DCN_NCASES };

static const char *const dcn_case[DCN_NCASES] = {
	[DCN_EMPTY] = "exec empty prog",
	[DCN_ADD] = "exec add f32[1]",
};

static const char *const dcn_key[DCN_NCASES] = {
	[DCN_EMPTY] = "exec_empty",
	[DCN_ADD] = "exec_add",
};

struct dcn_opts {
	struct sockaddr_in controller;
	struct sockaddr_in addr;
	struct sockaddr_in echo;
	struct sockaddr_in echo_blocking;
	const char *dpdk_if;
	const char *csv;
	unsigned int host;
	unsigned int iters;
};

/* The round trip and its parts, as sampled per run (ns). */
enum {
	DCN_TOTAL, DCN_CTRL, DCN_WORKER, DCN_TO_DEV, DCN_DEV, DCN_FROM_DEV,
	DCN_NET, DCN_NPARTS
};

static const char *const dcn_part[DCN_NPARTS] = {
	[DCN_TOTAL] = "round trip",
	[DCN_CTRL] = "controller residence",
	[DCN_WORKER] = "worker residence",
	[DCN_TO_DEV] = "  plan in to device",
	[DCN_DEV] = "  device",
	[DCN_FROM_DEV] = "  device to done out",
	[DCN_NET] = "network + forwarding",
};

static const char *const dcn_part_col[DCN_NPARTS] = {
	[DCN_TOTAL] = "total_ns",
	[DCN_CTRL] = "ctrl_ns",
	[DCN_WORKER] = "worker_ns",
	[DCN_TO_DEV] = "to_dev_ns",
	[DCN_DEV] = "dev_ns",
	[DCN_FROM_DEV] = "from_dev_ns",
	[DCN_NET] = "net_ns",
};

/* Samples of one case: v[part][iteration]. */
struct dcn_samples {
	uint64_t *v[DCN_NPARTS];
};

/*
 * The floors: datagram round trips to an echo on the worker's host, from
 * the transport to the transport's echo, from the transport to a
 * blocking echo, and between blocking sockets (the network's own). The
 * differences are what each end's transport costs.
 */
enum { ECHO_T, ECHO_TB, ECHO_B, ECHO_NKINDS };

static const char *const echo_name[ECHO_NKINDS] = {
	[ECHO_T] = "transport to transport",
	[ECHO_TB] = "transport to blocking",
	[ECHO_B] = "blocking sockets",
};

static const char *const echo_key[ECHO_NKINDS] = {
	[ECHO_T] = "echo",
	[ECHO_TB] = "echo_to_blocking",
	[ECHO_B] = "echo_blocking",
};

struct echo_samples {
	uint64_t *v;
	unsigned int n;
	unsigned int lost;
};

static void dcn_usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench dispatch --dcn IP:PORT --host H [-n ITER]\n"
		"                        [--addr IP:PORT] [--dpdk IF] [--csv FILE]\n"
		"  --dcn IP:PORT  the controller\n"
		"  --host H       the worker host whose device 0.. runs the programs\n"
		"  --addr IP:PORT this client's address (default: any, port chosen)\n"
		"  --dpdk IF      DPDK (af_packet on IF) instead of kernel UDP; needs\n"
		"                 --addr with IF's IPv4 address\n"
		"  --echo IP:PORT first the floor: datagram round trips to\n"
		"                 `pwbench echo --serve IP:PORT` (case \"echo\")\n"
		"  --echo-blocking IP:PORT  and to `pwbench echo --serve IP:PORT\n"
		"                 --blocking`, from a blocking socket (case\n"
		"                 \"echo_blocking\", the network's floor) and from\n"
		"                 the transport (case \"echo_to_blocking\")\n"
		"  --csv FILE     every sample: transport,case,iter, then the parts\n");
}

static int dcn_parse(int argc, char **argv, struct dcn_opts *o)
{
	static const struct option longopts[] = {
		{ "dcn", required_argument, NULL, 'c' },
		{ "host", required_argument, NULL, 'H' },
		{ "addr", required_argument, NULL, 'a' },
		{ "dpdk", required_argument, NULL, 'D' },
		{ "csv", required_argument, NULL, 'C' },
		{ "echo", required_argument, NULL, 'e' },
		{ "echo-blocking", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_ctl = false;
	int c;

	memset(o, 0, sizeof(*o));
	o->iters = 2000;
	o->addr.sin_family = AF_INET;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (pw_parse_addr(optarg, &o->controller))
				goto bad;
			have_ctl = true;
			break;
		case 'H': o->host = (unsigned int)atoi(optarg); break;
		case 'a':
			if (pw_parse_addr(optarg, &o->addr))
				goto bad;
			break;
		case 'D': o->dpdk_if = optarg; break;
		case 'C': o->csv = optarg; break;
		case 'e':
			if (pw_parse_addr(optarg, &o->echo))
				goto bad;
			break;
		case 'b':
			if (pw_parse_addr(optarg, &o->echo_blocking))
				goto bad;
			break;
		case 'n': o->iters = (unsigned int)atoi(optarg); break;
		case 'h': dcn_usage(stdout); exit(0);
		default: dcn_usage(stderr); return -EINVAL;
		}
	}
	if (!have_ctl || !o->iters || optind != argc ||
	    (o->dpdk_if && !o->addr.sin_addr.s_addr)) {
		dcn_usage(stderr);
		return -EINVAL;
	}
	return 0;
bad:
	fprintf(stderr, "pwbench: %s: want IPv4:PORT\n", optarg);
	return -EINVAL;
}

static int dcn_transport(const struct dcn_opts *o, struct pw_transport **t)
{
	return pw_transport_open(t, o->dpdk_if ? "dpdk" : "udp", o->dpdk_if,
				 &o->addr);
}

static void summary_line(const char *name, const uint64_t *v, unsigned int n)
{
	struct pwbench_summary s;

	pwbench_summarize(v, n, &s);
	printf("  %-22s %9.1f %9.1f %9.1f %9.1f\n", name, s.min / 1e3,
	       s.p50 / 1e3, s.p99 / 1e3, s.max / 1e3);
}

/*
 * The case's program: one computation on device 0 of @host, the same
 * image `pwbench dispatch --local` submits (an empty program, or an add
 * over its one buffer), shipped as a function.
 */
static int dcn_program(struct pw_remote *rc, bool add, unsigned int host,
		       uint32_t *prog)
{
	struct pw_rprog *p = pw_rprog_begin();
	struct pw_fn fn = { .name = "dispatch", .nbufs = 1 };
	uint32_t fn_id;
	size_t size;
	void *img;
	int ret;

	img = pwprog_dispatch_image(add, &size);
	if (!img || !p) {
		free(img);
		pw_rprog_free(p);
		return -ENOMEM;
	}
	ret = pw_remote_function_image(rc, img, size, 4096, &fn_id);
	free(img);
	if (!ret)
		ret = pw_rprog_call(p, &fn, fn_id, host, 0, NULL, 0, NULL);
	if (!ret)
		ret = pw_remote_program(rc, p, prog);
	pw_rprog_free(p);
	return ret;
}

static int dcn_case_run(struct pw_remote *rc, uint32_t prog,
			unsigned int iters, struct dcn_samples *s)
{
	uint64_t sent, recv, total, ctrl, worker;
	struct pw_wire_done d;
	unsigned int i;
	int ret;

	for (i = 0; i < iters + iters / 10; i++) {
		unsigned int k = i < iters / 10 ? 0 : i - iters / 10;

		uint32_t ticket;

		ret = pw_remote_run_async(rc, prog, NULL, 0, NULL, 0, &ticket);
		if (!ret)
			ret = pw_remote_wait_done(rc, ticket, &d, &sent, &recv);
		if (ret)
			return ret;
		if (i < iters / 10)
			continue;	/* warm-up */
		total = recv - sent;
		ctrl = d.ctrl_send_ns - d.ctrl_recv_ns;
		worker = d.worker_send_ns - d.worker_recv_ns;
		s->v[DCN_TOTAL][k] = total;
		s->v[DCN_CTRL][k] = ctrl;
		s->v[DCN_WORKER][k] = worker;
		/* Every case runs one device command: the stamps are set. */
		s->v[DCN_TO_DEV][k] = d.dev_start_ns - d.worker_recv_ns;
		s->v[DCN_DEV][k] = d.dev_end_ns - d.dev_start_ns;
		s->v[DCN_FROM_DEV][k] = d.worker_send_ns - d.dev_end_ns;
		s->v[DCN_NET][k] = total > ctrl + worker ?
				   total - ctrl - worker : 0;
	}
	return 0;
}

/* @n round trips of one kind of echo into @v: how many came back. */
static int dcn_echo_block(const struct dcn_opts *o, struct pw_transport *t,
			  unsigned int kind, unsigned int n, uint64_t *v,
			  unsigned int *lost)
{
	const struct sockaddr_in *to = kind == ECHO_T ? &o->echo :
				       &o->echo_blocking;
	unsigned int l = 0;
	int ret;

	if (kind == ECHO_B)
		ret = pwbench_echo_rtt_blocking(to, n, v, &l);
	else
		ret = pwbench_echo_rtt(t, to, n, v, &l);
	*lost += l;
	if (ret < 0)
		fprintf(stderr, "pwbench: echo (%s) from %s:%u: %s\n",
			echo_name[kind], inet_ntoa(to->sin_addr),
			ntohs(to->sin_port), strerror(-ret));
	return ret;
}

/*
 * The floors asked for: a warm-up of a tenth of each, then the round
 * trips interleaved in blocks of ECHO_BLOCK, so that the machine's drift
 * falls on every kind alike and their differences are each end's cost.
 */
#define ECHO_BLOCK	100

static int dcn_echoes(const struct dcn_opts *o, struct pw_transport *t,
		      struct echo_samples *echo)
{
	bool want[ECHO_NKINDS] = {
		[ECHO_T] = o->echo.sin_port,
		[ECHO_TB] = o->echo_blocking.sin_port,
		[ECHO_B] = o->echo_blocking.sin_port,
	};
	unsigned int e, done, n, warm;
	int ret;

	for (e = 0; e < ECHO_NKINDS; e++) {
		if (!want[e])
			continue;
		echo[e].v = calloc(o->iters, sizeof(uint64_t));
		if (!echo[e].v)
			return -ENOMEM;
		ret = dcn_echo_block(o, t, e, o->iters / 10, echo[e].v, &warm);
		if (ret < 0)
			return ret;
	}
	for (done = 0; done < o->iters; done += n) {
		n = o->iters - done < ECHO_BLOCK ? o->iters - done : ECHO_BLOCK;
		for (e = 0; e < ECHO_NKINDS; e++) {
			if (!want[e])
				continue;
			ret = dcn_echo_block(o, t, e, n, echo[e].v + echo[e].n,
					     &echo[e].lost);
			if (ret < 0)
				return ret;
			echo[e].n += (unsigned int)ret;
		}
	}
	for (e = 0; e < ECHO_NKINDS; e++)
		if (want[e] && !echo[e].n) {
			fprintf(stderr, "pwbench: echo (%s): none came back\n",
				echo_name[e]);
			return -EIO;
		}
	return 0;
}

int pwbench_dcn_main(int argc, char **argv)
{
	static struct pw_remote rc;
	struct dcn_samples s[DCN_NCASES];
	const char *kind;
	struct pw_transport *t;
	struct dcn_opts o;
	struct echo_samples echo[ECHO_NKINDS] = { 0 };
	unsigned int c, i, k, e;
	struct pw_auth_key key;
	FILE *csv = NULL;
	char why[256];
	int ret;

	if (dcn_parse(argc, argv, &o))
		return 2;
	ret = pw_auth_key_default(&key, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "pwbench: %s\n", why);
		return 1;
	}
	kind = o.dpdk_if ? "dcn-dpdk" : "dcn-udp";
	ret = dcn_transport(&o, &t);
	if (ret) {
		fprintf(stderr, "pwbench: %s transport: %s\n", kind, strerror(-ret));
		return 1;
	}
	/* Before the node owns the transport: the echoes are ours alone. */
	ret = dcn_echoes(&o, t, echo);
	if (ret)
		return 1;
	ret = pw_remote_open(&rc, t, &key, &o.controller, "pwbench", 10000);
	if (ret) {
		fprintf(stderr, "pwbench: connecting to %s:%u: %s\n",
			inet_ntoa(o.controller.sin_addr),
			ntohs(o.controller.sin_port), strerror(-ret));
		return 1;
	}
	for (c = 0; c < DCN_NCASES; c++) {
		uint32_t prog;

		ret = dcn_program(&rc, c == DCN_ADD, o.host, &prog);
		if (ret) {
			fprintf(stderr, "pwbench: registering %s on host %u: %s\n",
				dcn_case[c], o.host, strerror(-ret));
			return 1;
		}
		for (k = 0; k < DCN_NPARTS; k++) {
			s[c].v[k] = calloc(o.iters, sizeof(uint64_t));
			if (!s[c].v[k])
				return 1;
		}
		ret = dcn_case_run(&rc, prog, o.iters, &s[c]);
		if (ret) {
			fprintf(stderr, "pwbench: %s over %s: %s\n", dcn_case[c],
				kind, strerror(-ret));
			return 1;
		}
	}
	printf("pwbench dispatch --dcn: %s, controller %s:%u, device on host %u, %u runs per case\n",
	       kind, inet_ntoa(o.controller.sin_addr),
	       ntohs(o.controller.sin_port), o.host, o.iters);
	for (e = 0; e < ECHO_NKINDS; e++) {
		if (!echo[e].n)
			continue;
		printf("datagram echo, %s (us)%*s min       p50       p99       max\n",
		       echo_name[e], (int)(22 - strlen(echo_name[e])), "");
		summary_line("round trip", echo[e].v, echo[e].n);
		printf("  (%u of %u lost)\n", echo[e].lost, o.iters);
	}
	if (echo[ECHO_B].n)
		printf("(the floor is the blocking sockets' round trip: the network's)\n");
	for (c = 0; c < DCN_NCASES; c++) {
		printf("%s (us)                min       p50       p99       max\n",
		       dcn_case[c]);
		for (k = 0; k < DCN_NPARTS; k++)
			summary_line(dcn_part[k], s[c].v[k], o.iters);
	}
	if (o.csv) {
		csv = fopen(o.csv, "w");
		if (!csv) {
			perror(o.csv);
			return 1;
		}
		fprintf(csv, "transport,case,iter");
		for (k = 0; k < DCN_NPARTS; k++)
			fprintf(csv, ",%s", dcn_part_col[k]);
		fprintf(csv, "\n");
		for (e = 0; e < ECHO_NKINDS; e++)
			for (i = 0; i < echo[e].n; i++) {
				fprintf(csv, "%s,%s,%u,%llu", kind, echo_key[e],
					i, (unsigned long long)echo[e].v[i]);
				for (k = 1; k < DCN_NPARTS; k++)
					fprintf(csv, ",0");
				fprintf(csv, "\n");
			}
		for (c = 0; c < DCN_NCASES; c++)
			for (i = 0; i < o.iters; i++) {
				fprintf(csv, "%s,%s,%u", kind, dcn_key[c], i);
				for (k = 0; k < DCN_NPARTS; k++)
					fprintf(csv, ",%llu",
						(unsigned long long)s[c].v[k][i]);
				fprintf(csv, "\n");
			}
		fclose(csv);
	}
	pw_remote_shut(&rc);
	for (c = 0; c < DCN_NCASES; c++)
		for (k = 0; k < DCN_NPARTS; k++)
			free(s[c].v[k]);
	for (e = 0; e < ECHO_NKINDS; e++)
		free(echo[e].v);
	return 0;
}
