// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper.c - `pwbench pathways`: the Pathways paper's section 5
 * micro-benchmarks on the devices of this host, through libpathways.
 *
 *   throughput  Figure 5: computations/s of OpByOp, Chained and Fused
 *               programs, single-controller (libpathways) next to a
 *               multi-controller baseline (one process per device)
 *   parity      Figure 6: the same over computations of growing size,
 *               up to the smallest at which the single controller
 *               keeps up with the baseline
 *   dispatch    Figure 7: parallel vs sequential dispatch of chains of
 *               1..16 stages on 1-device slices
 *   clients     Figure 8: aggregate throughput of 1..8 client
 *               processes of pathwaysd, and the devices' busy time
 *   share       Figure 9: their work shares under SHARE weights
 *   pipeline    Table 2: one model pipelined over 4, 8 and 16 stages
 *
 * Each part prints a table; with --csv DIR each also writes DIR/figN.csv
 * for tools/pwbench-plot. A benchmark reports: it fails only when a
 * computation does or gives a wrong result.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"
#include "pwbench_paper.h"

#define DEFAULT_N		512
#define DEFAULT_DISPATCH_RUNS	100
#define DEFAULT_REPS		5
#define DEFAULT_INTERVAL_MS	3000
#define DEFAULT_PARITY_N	PWP_CHAIN
#define DEFAULT_PARITY_REPS	3
#define MAX_DELAY_US		(PWTPU_MAX_PROG_NS / PWP_CHAIN / 1000)

static const char default_delays[] = "0,250,500,1000,2000,4000,8000,16000";
static const char default_stages[] = "4,8,16";
#define DEFAULT_MICRO		PWP_PIPE_MAX_MICRO
#define DEFAULT_TRAIN_STEPS	PWP_CHAIN
#define DEFAULT_LAYER_US	8000
#define MAX_LAYER_US		100000

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench pathways [throughput|parity|dispatch|clients|share|\n"
		"         pipeline|train|all] [-n N] [-r REPS] [-t MS] [--no-multi]\n"
		"         [--csv DIR] [--delays US,...] [--clients N,...]\n"
		"         [--stages S,...] [--micro M] [--layer-us US]\n"
		"         [--dcn IP:PORT] [--only-multi] [--devices D]\n"
		"         [--sim SPEC [--sim-hosts H]]\n"
		"  throughput  Figure 5: OpByOp, Chained, Fused\n"
		"              computations/s, single- vs multi-controller\n"
		"  parity      Figure 6: the same with each step also\n"
		"              computing for --delays microseconds, each\n"
		"              mode until single/multi >= %.2f\n"
		"  dispatch    Figure 7: parallel vs sequential dispatch\n"
		"  clients     Figure 8: 1..8 client processes of a\n"
		"              pathwaysd this starts, FIFO, for each size\n"
		"              in --delays (default 0,330,1000)\n"
		"  share       Figure 9: 4 client processes under SHARE\n"
		"  pipeline    Table 2: %d layers pipelined over --stages\n"
		"              (default %s) stages of all devices / S\n"
		"  train       Table 1: a small Transformer trained data\n"
		"              parallel on every device, single- vs multi-\n"
		"              controller tokens/s (-n steps, default %d)\n"
		"  all         all but parity, pipeline and train (default)\n"
		"  -n N        throughput, parity: computations per\n"
		"              repetition (default %d and %d, rounded up to a\n"
		"              multiple of %d); dispatch: timed runs per\n"
		"              chain length and mode (default %d); train:\n"
		"              steps, a multiple of %d\n"
		"  -r REPS     throughput, parity, pipeline, train: timed\n"
		"              repetitions or steps, median reported\n"
		"              (default %d, and %d for the others)\n"
		"  -t MS       clients, share: measured interval per\n"
		"              configuration (default %d)\n"
		"  --no-multi  throughput: no multi-controller baseline\n"
		"  --only-multi  throughput: the baseline alone (what\n"
		"              each host of a cluster runs)\n"
		"  --devices D throughput, train: the island's first D\n"
		"              devices\n"
		"  --sim SPEC  throughput --only-multi: the baseline on\n"
		"              simulated hosts, each an island of SPEC\n"
		"              (sim:MESH[,hbm_mib=N][,timing=MODE], as\n"
		"              pathwaysd --devices), not the module's\n"
		"  --sim-hosts H  with --sim: H hosts, a process each\n"
		"              (default 1, at most %d)\n"
		"  --delays L  parity, clients (throughput: one value):\n"
		"              compute per step in\n"
		"              microseconds, ascending, at most %d of them,\n"
		"              each at most %llu (parity's default:\n"
		"              %s)\n"
		"  --clients L clients: client counts (default 1,2,4,8)\n"
		"  --micro M   pipeline: micro-batches per step, 1..%d\n"
		"              (default %d)\n"
		"  --layer-us U  pipeline: compute of a layer of a\n"
		"              micro-batch on one device (default %d)\n"
		"  --dcn A     pipeline: run through pathwaysd's controller\n"
		"              at A (default: this process's own)\n"
		"  --csv DIR   write DIR/fig5.csv .. fig9.csv, table1.csv\n"
		"              and table2.csv, by part (tools/pwbench-plot DIR\n"
		"              draws them)\n",
		PWP_PARITY, PWP_PIPE_LAYERS, default_stages,
		DEFAULT_TRAIN_STEPS, DEFAULT_N, DEFAULT_PARITY_N, PWP_CHAIN,
		DEFAULT_DISPATCH_RUNS, PWP_CHAIN, DEFAULT_REPS,
		DEFAULT_PARITY_REPS, DEFAULT_INTERVAL_MS, PWP_MAX_SIM_HOSTS,
		PWP_MAX_DELAYS, MAX_DELAY_US, default_delays,
		PWP_PIPE_MAX_MICRO, DEFAULT_MICRO, DEFAULT_LAYER_US);
}

int pwp_fail(int err, const char *what)
{
	fprintf(stderr, "pwbench: %s: %s (%s)\n", what, strerror(-err),
		pw_last_error());
	return err;
}

unsigned int pwp_island_size(void)
{
	struct pwtpu_info info;
	int fd = pwtpu_open(0);

	if (fd < 0)
		return 0;
	if (pwtpu_info(fd, &info))
		info.ndevices = 0;
	close(fd);
	return info.ndevices;
}

bool pwp_devices_compute(void)
{
	char mode[32];

	return pwtpu_param_str("timing", mode, sizeof(mode)) ||
	       strcmp(mode, "skip");
}

int pwp_step_fn(unsigned int steps, uint64_t delay_ns, struct pw_fn **fn)
{
	const uint32_t shape[1] = { 1 };
	struct pw_fn_builder *b = pw_fn_begin(steps == 1 ? "step" :
					      "fused_steps");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	pw_val one = pw_fn_scalar(b, PWTPU_DT_F32, 1.0);
	unsigned int i;
	int ret;

	/* Builder errors stick: checked once at pw_fn_build(). */
	for (i = 0; i < steps; i++) {
		x = pw_fn_binary(b, PWTPU_OP_ADD,
				 pw_fn_all_reduce(b, PWTPU_REDUCE_MAX, x), one);
		if (delay_ns)
			pw_fn_delay(b, delay_ns);
	}
	pw_fn_result(b, x);
	ret = pw_fn_build(b, fn);
	return ret ? pwp_fail(ret, "building the step function") : 0;
}

FILE *pwp_csv_open(const struct pwp_opts *o, const char *name,
		   const char *header, int *err)
{
	char path[4096];
	FILE *f;

	*err = 0;
	if (!o->csv_dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", o->csv_dir, name);
	f = fopen(path, "w");
	if (!f) {
		*err = -errno;
		fprintf(stderr, "pwbench: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "%s\n", header);
	return f;
}

int pwp_csv_close(FILE *f)
{
	if (!f)
		return 0;
	return fclose(f) ? -errno : 0;
}

/*
 * "0,250,..." into @v[*@n]: ascending numbers of at most @max each;
 * -EINVAL with a message naming @what if not.
 */
static int parse_list(const char *what, const char *list, unsigned int *v,
		      unsigned int *n, unsigned long min, unsigned long max)
{
	const char *p = list;
	char *end;

	*n = 0;
	while (*p) {
		unsigned long x;

		errno = 0;
		x = strtoul(p, &end, 10);
		if (end == p || errno || x < min || x > max ||
		    (*end && *end != ',') || *n == PWP_MAX_DELAYS ||
		    (*n && x <= v[*n - 1]))
			break;
		v[(*n)++] = (unsigned int)x;
		p = *end ? end + 1 : end;
	}
	if (*p || !*n) {
		fprintf(stderr, "pwbench: %s '%s': want up to %d ascending numbers, each %lu..%lu\n",
			what, list, PWP_MAX_DELAYS, min, max);
		return -EINVAL;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct pwp_opts *o,
		      const char **what)
{
	static const struct option longopts[] = {
		{ "csv", required_argument, NULL, 'C' },
		{ "no-multi", no_argument, NULL, 'M' },
		{ "only-multi", no_argument, NULL, 'O' },
		{ "devices", required_argument, NULL, 'V' },
		{ "sim", required_argument, NULL, 's' },
		{ "sim-hosts", required_argument, NULL, 'H' },
		{ "delays", required_argument, NULL, 'D' },
		{ "clients", required_argument, NULL, 'c' },
		{ "stages", required_argument, NULL, 'S' },
		{ "micro", required_argument, NULL, 'm' },
		{ "layer-us", required_argument, NULL, 'L' },
		{ "dcn", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_n = false, have_r = false;
	int opt;

	memset(o, 0, sizeof(*o));
	o->reps = DEFAULT_REPS;
	o->micro = DEFAULT_MICRO;
	o->layer_us = DEFAULT_LAYER_US;
	o->interval_ms = DEFAULT_INTERVAL_MS;
	o->multi = true;
	while ((opt = getopt_long(argc, argv, "n:r:t:h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'n':
			o->n = (unsigned int)strtoul(optarg, NULL, 10);
			have_n = true;
			break;
		case 'r':
			o->reps = (unsigned int)strtoul(optarg, NULL, 10);
			have_r = true;
			break;
		case 't':
			o->interval_ms = (unsigned int)strtoul(optarg, NULL,
							       10);
			break;
		case 'M':
			o->multi = false;
			break;
		case 'O':
			o->only_multi = true;
			break;
		case 'V':
			o->devices = (unsigned int)strtoul(optarg, NULL, 10);
			if (!o->devices || o->devices > PWTPU_MAX_GANG) {
				fprintf(stderr, "pwbench: --devices is 1..%d\n",
					PWTPU_MAX_GANG);
				return 2;
			}
			break;
		case 's':
			o->sim = optarg;
			break;
		case 'H':
			o->sim_hosts = (unsigned int)strtoul(optarg, NULL, 10);
			if (!o->sim_hosts || o->sim_hosts > PWP_MAX_SIM_HOSTS) {
				fprintf(stderr, "pwbench: --sim-hosts is 1..%d\n",
					PWP_MAX_SIM_HOSTS);
				return 2;
			}
			break;
		case 'C':
			o->csv_dir = optarg;
			break;
		case 'D':
			if (parse_list("--delays", optarg, o->delays_us,
				       &o->ndelays, 0, MAX_DELAY_US))
				return 2;
			break;
		case 'c':
			if (parse_list("--clients", optarg, o->clients,
				       &o->nclients, 1, PWP_MAX_CLIENTS))
				return 2;
			break;
		case 'S':
			if (parse_list("--stages", optarg, o->stages,
				       &o->nstages, 1, PWP_PIPE_LAYERS))
				return 2;
			break;
		case 'm':
			o->micro = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'L':
			o->layer_us = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'd':
			o->dcn = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	*what = optind < argc ? argv[optind++] : "all";
	/* Each step of these computes for up to ms: fewer, by default. */
	if ((!strcmp(*what, "parity") || !strcmp(*what, "pipeline")) &&
	    !have_r)
		o->reps = DEFAULT_PARITY_REPS;
	if (o->only_multi && !o->multi) {
		fprintf(stderr, "pwbench: --only-multi and --no-multi leave nothing\n");
		return 2;
	}
	/* The single controller on simulated hosts is pathwaysd's. */
	if ((o->sim || o->sim_hosts) &&
	    (!o->sim || !o->only_multi || strcmp(*what, "throughput"))) {
		fprintf(stderr, "pwbench: --sim and --sim-hosts go together, with throughput --only-multi (the single controller on simulated hosts: tools/sim-scale)\n");
		return 2;
	}
	if (o->sim && !o->sim_hosts)
		o->sim_hosts = 1;
	if (!o->micro || o->micro > PWP_PIPE_MAX_MICRO || !o->layer_us ||
	    o->layer_us > MAX_LAYER_US) {
		fprintf(stderr, "pwbench: --micro is 1..%d and --layer-us 1..%d\n",
			PWP_PIPE_MAX_MICRO, MAX_LAYER_US);
		return 2;
	}
	if (optind != argc || (have_n && (!o->n || o->n > 1000000)) ||
	    !o->reps || o->reps > 1000 || o->interval_ms < 10 ||
	    o->interval_ms > 3600000) {
		usage(stderr);
		return 2;
	}
	return 0;
}

int pwbench_paper_main(int argc, char **argv)
{
	struct pwp_opts o, t;
	const char *what;
	bool all;
	int ret = 0;

	if (parse_opts(argc, argv, &o, &what))
		return 2;
	all = !strcmp(what, "all");
	if (!all && strcmp(what, "throughput") && strcmp(what, "parity") &&
	    strcmp(what, "dispatch") && strcmp(what, "clients") &&
	    strcmp(what, "share") && strcmp(what, "pipeline") &&
	    strcmp(what, "train")) {
		fprintf(stderr, "pwbench: pathways: unknown part '%s'\n",
			what);
		usage(stderr);
		return 2;
	}
	if (o.csv_dir && mkdir(o.csv_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "pwbench: %s: %s\n", o.csv_dir,
			strerror(errno));
		return 1;
	}
	/* -n means something else to each part; each has its default. */
	t = o;
	if (!ret && (all || !strcmp(what, "throughput"))) {
		if (!t.n)
			t.n = DEFAULT_N;
		t.n = (t.n + PWP_CHAIN - 1) / PWP_CHAIN * PWP_CHAIN;
		ret = pwp_throughput(&t);
	}
	t = o;
	if (!ret && !strcmp(what, "parity")) {
		if (!t.n)
			t.n = DEFAULT_PARITY_N;
		if (!t.ndelays && parse_list("delays", default_delays,
					     t.delays_us, &t.ndelays, 0,
					     MAX_DELAY_US))
			return 1;
		t.n = (t.n + PWP_CHAIN - 1) / PWP_CHAIN * PWP_CHAIN;
		ret = pwp_parity(&t);
	}
	t = o;
	if (!ret && (all || !strcmp(what, "dispatch"))) {
		if (!t.n)
			t.n = DEFAULT_DISPATCH_RUNS;
		ret = pwp_dispatch(&t);
	}
	if (!ret && (all || !strcmp(what, "clients")))
		ret = pwp_clients(&o);
	if (!ret && (all || !strcmp(what, "share")))
		ret = pwp_share(&o);
	t = o;
	if (!ret && !strcmp(what, "pipeline")) {
		if (!t.nstages && parse_list("stages", default_stages,
					     t.stages, &t.nstages, 1,
					     PWP_PIPE_LAYERS))
			return 1;
		ret = pwp_pipeline(&t);
	}
	t = o;
	if (!ret && !strcmp(what, "train")) {
		if (!t.n)
			t.n = DEFAULT_TRAIN_STEPS;
		t.n = (t.n + PWP_CHAIN - 1) / PWP_CHAIN * PWP_CHAIN;
		ret = pwp_train(&t);
	}
	return ret ? 1 : 0;
}
