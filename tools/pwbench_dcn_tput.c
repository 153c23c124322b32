// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_dcn_tput.c - `pwbench dcn-throughput`: Figure 5 of the Pathways
 * paper across hosts. One computation is the paper's, x = all-reduce(max,
 * x) + 1 over f32[1] on each device (pwp_step_fn), as one SPMD call on a
 * slice of D devices of each of H hosts' islands (a collective per
 * island: an island ends at its host), dispatched by a remote client
 * through pathwaysd. Over several hosts the slices are one group, so a
 * computation is one node of the program and x one buffer id, whatever
 * H (up to the cluster's 512 hosts):
 *   OpByOp   one run per computation (a one-step program)
 *   Chained  one run of a traced program of L computations
 *   Fused    one run of a function of L steps per slice
 * Runs are asynchronous: up to --window in flight, each run's arguments
 * the previous run's results, so the devices always have work queued and
 * what is measured is how many computations a second the single
 * controller and its workers get through. x is read back on every device
 * at the end and checked.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pathways/wire.h>

#include "../runtime/dcn/rclient.h"

#include "pwbench.h"
#include "pwbench_paper.h"

#define MAX_HOSTS	PW_WIRE_MAX_HOSTS

enum tput_mode { OPBYOP, CHAINED, FUSED, NMODES };

static const char *const mode_name[NMODES] = { "OpByOp", "Chained", "Fused" };

struct tput_opts {
	const char *controller;
	unsigned int hosts;
	unsigned int devices;
	unsigned int chain;
	unsigned int computations;
	unsigned int window;
	unsigned int reps;
	unsigned int delay_us;
	int cpu_of;		/* a process whose CPU time the runs cost */
};

struct tput {
	struct pw_remote *r;
	unsigned int nhosts;
	unsigned int devices;
	uint32_t slice;		/* one host's, or a group of one a host */
	uint32_t prog[NMODES];
	unsigned int per_run[NMODES];	/* computations one run does */
	uint64_t cpu_ns;	/* of opts.cpu_of, over the timed runs */
	uint64_t runs;		/* timed runs */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench dcn-throughput --dcn IP:PORT [--hosts H] [--devices D]\n"
		"                              [--chain L] [-n N] [--window W] [-r REPS]\n"
		"                              [--delay-us U] [--cpu-of PID]\n"
		"  Figure 5 over the DCN: computations/s of OpByOp, Chained and Fused\n"
		"  x = all-reduce(max, x) + 1 over f32[1] on a slice of D devices of\n"
		"  each of hosts 0..H-1, each step then computing U us (Figure 6)\n"
		"  (default H 1, D 1, L 32, N 512 computations per mode and\n"
		"  repetition, W 16 runs in flight, 3 repetitions, the median\n"
		"  reported; U 0). --cpu-of: also the CPU time process PID (the\n"
		"  controller) spent per run, over the timed runs only\n");
}

static int parse(int argc, char **argv, struct tput_opts *o)
{
	static const struct option longopts[] = {
		{ "dcn", required_argument, NULL, 'c' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "devices", required_argument, NULL, 'D' },
		{ "chain", required_argument, NULL, 'L' },
		{ "window", required_argument, NULL, 'W' },
		{ "delay-us", required_argument, NULL, 'U' },
		{ "cpu-of", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	*o = (struct tput_opts){ .hosts = 1, .devices = 1, .chain = 32,
				 .computations = 512, .window = 16, .reps = 3 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': o->controller = optarg; break;
		case 'H': o->hosts = (unsigned int)atoi(optarg); break;
		case 'D': o->devices = (unsigned int)atoi(optarg); break;
		case 'L': o->chain = (unsigned int)atoi(optarg); break;
		case 'W': o->window = (unsigned int)atoi(optarg); break;
		case 'U':
			o->delay_us = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '-') {
				fprintf(stderr, "pwbench: --delay-us '%s': want microseconds\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'P': o->cpu_of = atoi(optarg); break;
		case 'n': o->computations = (unsigned int)atoi(optarg); break;
		case 'r': o->reps = (unsigned int)atoi(optarg); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -EINVAL;
		}
	}
	if (o->hosts > MAX_HOSTS || o->devices > PW_WIRE_MAX_DEVICES) {
		fprintf(stderr, "pwbench: --hosts is at most %u, --devices %u\n",
			MAX_HOSTS, PW_WIRE_MAX_DEVICES);
		return -EINVAL;
	}
	if (!o->controller || !o->hosts || !o->devices || !o->chain ||
	    o->chain > 1000 || !o->window || o->window > 256 || !o->reps ||
	    o->computations < o->chain || o->computations % o->chain ||
	    (uint64_t)o->delay_us * o->chain > PWTPU_MAX_PROG_NS / 1000 ||
	    optind != argc) {
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

/*
 * CPU time process @pid's threads have run, in ns (their
 * /proc/PID/task/TID/schedstat: nanoseconds, where stat has ticks), or 0.
 */
static uint64_t cpu_ns_of(int pid)
{
	unsigned long long ns, sum = 0;
	struct dirent *e;
	char path[96];
	DIR *d;
	FILE *f;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat",
			 pid, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;	/* a thread that just ended */
		if (fscanf(f, "%llu", &ns) == 1)
			sum += ns;
		fclose(f);
	}
	closedir(d);
	return sum;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* A program of @calls computations of @fn on every host's slice. */
static int program(struct tput *t, struct pw_fn *fn, uint32_t fn_id,
		   unsigned int calls, uint32_t *prog)
{
	const uint32_t shape[1] = { 1 };
	struct pw_rprog *p = pw_rprog_begin();
	unsigned int k;
	int v, ret = 0;

	v = pw_rprog_arg_sharded(p, t->slice, t->devices, PWTPU_DT_F32, 1,
				 shape);
	for (k = 0; k < calls && !ret; k++)
		ret = pw_rprog_call_sharded(p, fn, fn_id, t->slice, t->devices,
					    &v, 1, &v);
	if (!ret)
		ret = pw_rprog_results(p, &v, 1);
	if (!ret)
		ret = pw_remote_program(t->r, p, prog);
	pw_rprog_free(p);
	return ret;
}

static int setup(struct tput *t, const struct tput_opts *o)
{
	struct pw_fn *one = NULL, *fused = NULL;
	uint32_t one_id, fused_id;
	unsigned int h;
	int ret;

	ret = pw_remote_connect(o->controller, "pwbench", &t->r);
	if (ret)
		return ret;
	t->devices = o->devices;
	/*
	 * The controller puts a slice on the least loaded island, the
	 * lowest numbered of equals: with nothing else placed, the slice
	 * of host h (member h of the group) lands on host h, where the
	 * multi-controller baseline runs.
	 */
	for (h = 0; h < o->hosts; h++) {
		if (pw_remote_host_devices(t->r, h) < o->devices) {
			fprintf(stderr, "pwbench: host %u has %u devices up, want %u\n",
				h, pw_remote_host_devices(t->r, h), o->devices);
			return -ENODEV;
		}
	}
	ret = o->hosts > 1 ?
	      pw_remote_slice_group(t->r, o->hosts, o->devices, NULL,
				    &t->slice) :
	      pw_remote_slice(t->r, o->devices, NULL, &t->slice);
	if (ret)
		return ret;
	t->nhosts = o->hosts;
	for (h = 0; h < o->hosts; h++) {
		uint32_t one = o->hosts > 1 ?
			       pw_remote_group_member(t->r, t->slice, h) :
			       t->slice;

		if (pw_remote_slice_host(t->r, one) != (int)h) {
			fprintf(stderr, "pwbench: host %u's slice went to host %d: is another client placing slices?\n",
				h, pw_remote_slice_host(t->r, one));
			return -EBUSY;
		}
	}
	ret = pwp_step_fn(1, o->delay_us * 1000ull, &one);
	if (!ret)
		ret = pwp_step_fn(o->chain, o->delay_us * 1000ull, &fused);
	if (ret) {
		pw_fn_put(one);
		return ret;
	}
	ret = pw_remote_function(t->r, one, &one_id);
	if (!ret)
		ret = pw_remote_function(t->r, fused, &fused_id);
	if (!ret)
		ret = program(t, one, one_id, 1, &t->prog[OPBYOP]);
	if (!ret)
		ret = program(t, one, one_id, o->chain, &t->prog[CHAINED]);
	if (!ret)
		ret = program(t, fused, fused_id, 1, &t->prog[FUSED]);
	t->per_run[OPBYOP] = 1;
	t->per_run[CHAINED] = o->chain;
	t->per_run[FUSED] = o->chain;
	pw_fn_put(one);
	pw_fn_put(fused);
	return ret;
}

/*
 * One repetition of @mode: x = 0 everywhere, @o->computations
 * computations, x checked. Returns computations/s, or -errno.
 */
static double run_mode(struct tput *t, const struct tput_opts *o,
		       enum tput_mode mode)
{
	unsigned int nruns = o->computations / t->per_run[mode], h, k, v;
	uint32_t *ids = calloc(nruns + 1, sizeof(*ids));
	uint32_t *ticket = calloc(nruns, sizeof(*ticket));
	const uint32_t shape[1] = { 1 };
	const float zero = 0;
	uint64_t start, end, cpu0;
	int ret = 0;

	if (!ids || !ticket) {
		ret = -ENOMEM;
		goto out;
	}
	ret = pw_remote_buffer_sharded(t->r, t->slice, PWTPU_DT_F32, 1, shape,
				       &zero, true, &ids[0]);
	cpu0 = cpu_ns_of(o->cpu_of);
	start = now_ns();
	for (k = 0; k < nruns && !ret; k++) {
		/* Keep the window full; free what the run waited for read. */
		if (k >= o->window) {
			ret = pw_remote_wait(t->r, ticket[k - o->window]);
			if (!ret)
				pw_remote_free(t->r, 0, ids[k - o->window]);
		}
		if (!ret)
			ret = pw_remote_run_async(t->r, t->prog[mode], &ids[k], 1,
						  &ids[k + 1], 1, &ticket[k]);
	}
	for (k = nruns > o->window ? nruns - o->window : 0; k < nruns && !ret;
	     k++) {
		ret = pw_remote_wait(t->r, ticket[k]);
		if (!ret)
			pw_remote_free(t->r, 0, ids[k]);
	}
	end = now_ns();
	t->cpu_ns += cpu_ns_of(o->cpu_of) - cpu0;
	t->runs += nruns;
	for (h = 0; h < t->nhosts && !ret; h++) {
		float x[PW_WIRE_MAX_DEVICES];

		ret = pw_remote_read(t->r, h, ids[nruns], x,
				     t->devices * sizeof(*x));
		for (v = 0; !ret && v < t->devices; v++) {
			if (x[v] == (float)o->computations)
				continue;
			fprintf(stderr, "pwbench: %s: host %u device %u has x = %g, want %u\n",
				mode_name[mode], h, v, x[v], o->computations);
			ret = -EIO;
		}
	}
	pw_remote_free(t->r, 0, ids[nruns]);	/* read or not */
out:
	free(ids);
	free(ticket);
	if (ret)
		return ret;
	return o->computations / ((end - start) / 1e9);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int pwbench_dcn_tput_main(int argc, char **argv)
{
	static struct tput t;
	struct tput_opts o;
	double rate[NMODES][16];
	unsigned int m, k;
	int ret;

	if (parse(argc, argv, &o))
		return 2;
	if (o.reps > 16)
		o.reps = 16;
	ret = setup(&t, &o);
	if (ret) {
		fprintf(stderr, "pwbench: setting up: %s (%s)\n", strerror(-ret),
			pw_last_error());
		pw_remote_close(t.r);
		return 1;
	}
	/* Modes interleaved per repetition: drift hits all alike. */
	for (k = 0; k < o.reps; k++) {
		for (m = 0; m < NMODES; m++) {
			rate[m][k] = run_mode(&t, &o, m);
			if (rate[m][k] < 0) {
				fprintf(stderr, "pwbench: %s: %s (%s)\n",
					mode_name[m], strerror((int)-rate[m][k]),
					pw_last_error());
				pw_remote_close(t.r);
				return 1;
			}
		}
	}
	printf("pwbench dcn-throughput: %u host(s) x %u device(s), chain %u, %u computations x %u repetitions, window %u, %u us compute a step\n",
	       o.hosts, o.devices, o.chain, o.computations, o.reps, o.window,
	       o.delay_us);
	printf("%-8s %14s %14s %14s\n", "mode", "computations/s", "min", "max");
	for (m = 0; m < NMODES; m++) {
		qsort(rate[m], o.reps, sizeof(double), cmp_double);
		printf("%-8s %14.0f %14.0f %14.0f\n", mode_name[m],
		       rate[m][o.reps / 2], rate[m][0], rate[m][o.reps - 1]);
	}
	if (o.cpu_of > 0)
		/* Over all modes' runs: OpByOp's, the most, weigh most. */
		printf("cpu-of %d: %.1f us per run over %llu timed runs\n",
		       o.cpu_of, t.runs ? t.cpu_ns / 1e3 / t.runs : 0.0,
		       (unsigned long long)t.runs);
	pw_remote_close(t.r);
	return 0;
}
