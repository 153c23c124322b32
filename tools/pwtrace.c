// SPDX-License-Identifier: GPL-2.0
/*
 * pwtrace - pwtpu trace text to a Chrome/Perfetto timeline.
 *
 *   pwtrace [-i ISLAND] [-o OUT.json] [FILE...]
 *   pwtrace --record [-o OUT.json] [-b KB] -- CMD [ARGS...]
 *
 * Each FILE (default: stdin) is the text of one host's trace, i.e. one
 * island: /sys/kernel/tracing/trace, `trace-cmd report` or `perf script`
 * output with pwtpu:* events. Open the JSON in https://ui.perfetto.dev
 * or chrome://tracing. --record traces CMD itself (root, tracefs).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pwtrace.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwtrace [-i ISLAND] [-o OUT.json] [FILE...]\n"
		"       pwtrace --record [-o OUT.json] [-b KB] -- CMD [ARGS...]\n"
		"  FILE       ftrace text (/sys/kernel/tracing/trace, trace-cmd\n"
		"             report, perf script); one file per island; '-' or\n"
		"             none: stdin\n"
		"  -i ISLAND  island (process id in the trace) of the first FILE;\n"
		"             the next files count up from it (default 0)\n"
		"  -o FILE    write the JSON there (default: stdout; with\n"
		"             --record: pwtrace.json)\n"
		"  --record   enable the pwtpu events (trace_clock mono), run CMD,\n"
		"             convert what it produced\n"
		"  -b KB      with --record: per-CPU trace buffer size\n");
}

static int convert(char **files, int nfiles, uint32_t island, const char *out)
{
	struct pwtrace_conv c;
	uint64_t bad = 0;
	FILE *o = stdout;
	int i, ret = 0;

	pwtrace_conv_init(&c, island);
	for (i = 0; i < (nfiles ? nfiles : 1) && !ret; i++) {
		const char *name = nfiles ? files[i] : "-";
		FILE *in = strcmp(name, "-") ? fopen(name, "r") : stdin;

		if (!in) {
			fprintf(stderr, "pwtrace: %s: %s\n", name,
				strerror(errno));
			ret = -errno;
			break;
		}
		ret = pwtrace_read(in, &c, island + (uint32_t)i, &bad);
		if (in != stdin)
			fclose(in);
		if (ret)
			fprintf(stderr, "pwtrace: %s: %s\n", name,
				strerror(-ret));
	}
	if (!ret && out && !(o = fopen(out, "w"))) {
		ret = -errno;
		fprintf(stderr, "pwtrace: %s: %s\n", out, strerror(errno));
	}
	if (!ret) {
		ret = pwtrace_write_json(o, &c);
		if (o != stdout && fclose(o))
			ret = -EIO;
		fprintf(stderr, "pwtrace: %" PRIu64 " pwtpu records, %zu "
			"events on %zu tracks, %" PRIu64 " unmatched, %" PRIu64
			" unparsable lines\n", c.records, c.nevents, c.ntracks,
			c.unmatched, bad);
	}
	pwtrace_conv_free(&c);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "record", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	unsigned long island = 0, buffer_kb = 0;
	int opt, record = 0;

	while ((opt = getopt_long(argc, argv, "+i:o:b:h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'i':
			island = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			out = optarg;
			break;
		case 'b':
			buffer_kb = strtoul(optarg, NULL, 0);
			break;
		case 'R':
			record = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (island > UINT32_MAX / 2 || buffer_kb > (1ul << 22)) {
		usage(stderr);
		return 2;
	}
	if (record) {
		if (optind >= argc) {
			usage(stderr);
			return 2;
		}
		return pwtrace_record(argv + optind, out ? out : "pwtrace.json",
				      (unsigned int)buffer_kb);
	}
	return convert(argv + optind, argc - optind, (uint32_t)island, out) ?
	       1 : 0;
}
