// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper.c - `pwbench pathways`: the Pathways paper's section 5
 * micro-benchmarks on the devices of this host, through libpathways.
 *
 *   throughput  Figure 5: computations/s of OpByOp, Chained and Fused
 *               programs, single-controller (libpathways) next to a
 *               multi-controller baseline (one process per device)
 *   dispatch    Figure 7: parallel vs sequential dispatch of chains of
 *               1..16 stages on 1-device slices
 *   clients     Figures 8, 9: aggregate throughput of 1..8 concurrent
 *               clients, and their work shares under SHARE weights
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

#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"
#include "pwbench_paper.h"

#define DEFAULT_N		512
#define DEFAULT_DISPATCH_RUNS	100
#define DEFAULT_REPS		5
#define DEFAULT_INTERVAL_MS	3000

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench pathways [throughput|dispatch|clients|all]\n"
		"         [-n N] [-r REPS] [-t MS] [--no-multi] [--csv DIR]\n"
		"  throughput  Figure 5: OpByOp, Chained, Fused\n"
		"              computations/s, single- vs multi-controller\n"
		"  dispatch    Figure 7: parallel vs sequential dispatch\n"
		"  clients     Figures 8, 9: concurrent clients, SHARE\n"
		"  all         all three (default)\n"
		"  -n N        throughput: computations per repetition\n"
		"              (default %d, rounded up to a multiple of\n"
		"              %d); dispatch: timed runs per chain length\n"
		"              and mode (default %d)\n"
		"  -r REPS     throughput: timed repetitions, median\n"
		"              reported (default %d)\n"
		"  -t MS       clients: measured interval per\n"
		"              configuration (default %d)\n"
		"  --no-multi  throughput: no multi-controller baseline\n"
		"  --csv DIR   write DIR/fig5.csv, fig7.csv, fig8.csv and\n"
		"              fig9.csv (tools/pwbench-plot DIR draws them)\n",
		DEFAULT_N, PWP_CHAIN, DEFAULT_DISPATCH_RUNS, DEFAULT_REPS,
		DEFAULT_INTERVAL_MS);
}

int pwp_fail(int err, const char *what)
{
	fprintf(stderr, "pwbench: %s: %s (%s)\n", what, strerror(-err),
		pw_last_error());
	return err;
}

bool pwp_devices_compute(void)
{
	char mode[32];

	return pwtpu_param_str("timing", mode, sizeof(mode)) ||
	       strcmp(mode, "skip");
}

int pwp_step_fn(unsigned int steps, struct pw_fn **fn)
{
	const uint32_t shape[1] = { 1 };
	struct pw_fn_builder *b = pw_fn_begin(steps == 1 ? "step" :
					      "fused_steps");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	pw_val one = pw_fn_scalar(b, PWTPU_DT_F32, 1.0);
	unsigned int i;
	int ret;

	/* Builder errors stick: checked once at pw_fn_build(). */
	for (i = 0; i < steps; i++)
		x = pw_fn_binary(b, PWTPU_OP_ADD,
				 pw_fn_all_reduce(b, PWTPU_REDUCE_MAX, x), one);
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

static int parse_opts(int argc, char **argv, struct pwp_opts *o,
		      const char **what)
{
	static const struct option longopts[] = {
		{ "csv", required_argument, NULL, 'C' },
		{ "no-multi", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_n = false;
	int opt;

	memset(o, 0, sizeof(*o));
	o->reps = DEFAULT_REPS;
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
			break;
		case 't':
			o->interval_ms = (unsigned int)strtoul(optarg, NULL,
							       10);
			break;
		case 'M':
			o->multi = false;
			break;
		case 'C':
			o->csv_dir = optarg;
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
	if (!all && strcmp(what, "throughput") && strcmp(what, "dispatch") &&
	    strcmp(what, "clients")) {
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
	if (!ret && (all || !strcmp(what, "dispatch"))) {
		if (!t.n)
			t.n = DEFAULT_DISPATCH_RUNS;
		ret = pwp_dispatch(&t);
	}
	if (!ret && (all || !strcmp(what, "clients")))
		ret = pwp_clients(&o);
	return ret ? 1 : 0;
}
