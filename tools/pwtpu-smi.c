// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu-smi - what the pwtpu devices are doing, nvidia-smi style: index,
 * island, mesh coordinates, HBM, commands, queue, utilisation, timing.
 *
 * Reads sysfs only, so it works while other processes hold the devices
 * and needs no permission on /dev/pwtpu*. Utilisation is the share of a
 * short sampling interval the device spent executing (busy_ns delta).
 * --topo draws the mesh and its link traffic instead (pwtpu_smi_topo.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pwtpu/pwtpu_dev.h"

#include "pwtpu_smi.h"

#define MAX_DEVS	256

struct dev_row {
	unsigned int index;
	uint64_t island;
	char coords[64];
	uint64_t hbm_used;
	uint64_t hbm_total;
	uint64_t cmds;
	uint64_t queue;
	uint64_t busy0, busy1;
	char timing[16];
	bool ok;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwtpu-smi [-j] [-i MS] [--topo]\n"
		"  -j      JSON instead of a table\n"
		"  -i MS   utilisation sampling interval in ms (default 200;\n"
		"          0 skips sampling and shows no utilisation)\n"
		"  --topo  draw the island's mesh and the bytes sent on each\n"
		"          link (with -j: the topology as JSON)\n");
}

static void read_row(struct dev_row *r)
{
	unsigned int i = r->index;

	r->ok = !pwtpu_sysfs_u64(i, "island", &r->island) &&
		!pwtpu_sysfs_str(i, "mesh_coords", r->coords,
				 sizeof(r->coords)) &&
		!pwtpu_sysfs_u64(i, "hbm_used", &r->hbm_used) &&
		!pwtpu_sysfs_u64(i, "hbm_total", &r->hbm_total) &&
		!pwtpu_sysfs_u64(i, "cmds_completed", &r->cmds) &&
		!pwtpu_sysfs_u64(i, "queue_depth", &r->queue) &&
		!pwtpu_sysfs_str(i, "timing_mode", r->timing,
				 sizeof(r->timing));
}

static double util_pct(const struct dev_row *r, uint64_t interval_ns)
{
	if (!interval_ns || r->busy1 < r->busy0)
		return -1.0;
	return 100.0 * (double)(r->busy1 - r->busy0) / (double)interval_ns;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

static void print_table(const struct dev_row *rows, int n,
			uint64_t interval_ns)
{
	char mesh[64] = "?", spec[512] = "?";
	int i;

	pwtpu_sysfs_str(rows[0].index, "mesh_shape", mesh, sizeof(mesh));
	pwtpu_sysfs_str(rows[0].index, "spec", spec, sizeof(spec));
	printf("pwtpu: %d device%s, mesh %s\n", n, n == 1 ? "" : "s", mesh);
	printf("spec: %s\n", spec);
	printf("%-4s %-6s %-8s %18s %5s %6s %12s %6s  %s\n", "DEV",
	       "ISLAND", "COORDS", "HBM USED/TOTAL MiB", "HBM%", "QUEUE",
	       "CMDS", "UTIL", "TIMING");
	for (i = 0; i < n; i++) {
		const struct dev_row *r = &rows[i];
		char coords[70], hbm[40], util[16];
		double u = util_pct(r, interval_ns);

		if (!r->ok) {
			printf("%-4u (attributes unreadable)\n", r->index);
			continue;
		}
		snprintf(coords, sizeof(coords), "(%s)", r->coords);
		snprintf(hbm, sizeof(hbm), "%.1f/%.0f", mib(r->hbm_used),
			 mib(r->hbm_total));
		if (u < 0)
			snprintf(util, sizeof(util), "-");
		else
			snprintf(util, sizeof(util), "%.1f%%", u);
		printf("%-4u %-6" PRIu64 " %-8s %18s %4.0f%% %6" PRIu64
		       " %12" PRIu64 " %6s  %s\n", r->index, r->island,
		       coords, hbm,
		       r->hbm_total ? 100.0 * (double)r->hbm_used /
				      (double)r->hbm_total : 0.0,
		       r->queue, r->cmds, util, r->timing);
	}
}

static void print_json(const struct dev_row *rows, int n,
		       uint64_t interval_ns)
{
	char mesh[64] = "", spec[512] = "";
	int i;

	pwtpu_sysfs_str(rows[0].index, "mesh_shape", mesh, sizeof(mesh));
	pwtpu_sysfs_str(rows[0].index, "spec", spec, sizeof(spec));
	printf("{\"mesh\": \"%s\", \"spec\": \"%s\", "
	       "\"interval_ns\": %" PRIu64 ", \"devices\": [", mesh, spec,
	       interval_ns);
	for (i = 0; i < n; i++) {
		const struct dev_row *r = &rows[i];
		double u = util_pct(r, interval_ns);

		printf("%s\n  {\"index\": %u", i ? "," : "", r->index);
		if (!r->ok) {
			printf(", \"error\": \"attributes unreadable\"}");
			continue;
		}
		printf(", \"island\": %" PRIu64 ", \"coords\": [%s]"
		       ", \"hbm_used\": %" PRIu64 ", \"hbm_total\": %" PRIu64
		       ", \"queue_depth\": %" PRIu64
		       ", \"cmds_completed\": %" PRIu64
		       ", \"busy_ns\": %" PRIu64, r->island, r->coords,
		       r->hbm_used, r->hbm_total, r->queue, r->cmds, r->busy1);
		if (u >= 0)
			printf(", \"util_pct\": %.2f", u);
		else
			printf(", \"util_pct\": null");
		printf(", \"timing\": \"%s\"}", r->timing);
	}
	printf("\n]}\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "topo", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct dev_row rows[MAX_DEVS];
	unsigned int idx[MAX_DEVS];
	uint64_t interval_ns = 0, t0, t1;
	long interval_ms = 200;
	bool json = false, topo = false;
	int n, i, opt;

	while ((opt = getopt_long(argc, argv, "ji:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'T':
			topo = true;
			break;
		case 'j':
			json = true;
			break;
		case 'i':
			interval_ms = strtol(optarg, NULL, 10);
			if (interval_ms < 0 || interval_ms > 60000) {
				fprintf(stderr, "pwtpu-smi: bad interval\n");
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}

	n = pwtpu_list_devices(idx, MAX_DEVS);
	if (n == -ENOENT) {
		fprintf(stderr, "pwtpu-smi: no pwtpu devices: %s does not exist"
			" (is pwtpu.ko loaded?)\n", PWTPU_SYSFS_CLASS);
		return 1;
	}
	if (n < 0) {
		fprintf(stderr, "pwtpu-smi: %s: %s\n", PWTPU_SYSFS_CLASS,
			strerror(-n));
		return 1;
	}
	if (n == 0) {
		fprintf(stderr, "pwtpu-smi: no pwtpu devices in %s\n",
			PWTPU_SYSFS_CLASS);
		return 1;
	}
	if (n > MAX_DEVS)
		n = MAX_DEVS;
	if (topo)
		return smi_topo(idx, n, json);

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		rows[i].index = idx[i];
		pwtpu_sysfs_u64(idx[i], "busy_ns", &rows[i].busy0);
	}
	if (interval_ms) {
		struct timespec ts = {
			.tv_sec = interval_ms / 1000,
			.tv_nsec = (interval_ms % 1000) * 1000000L,
		};

		nanosleep(&ts, NULL);
	}
	for (i = 0; i < n; i++)
		pwtpu_sysfs_u64(idx[i], "busy_ns", &rows[i].busy1);
	t1 = now_ns();
	if (interval_ms)
		interval_ns = t1 - t0;
	for (i = 0; i < n; i++)
		read_row(&rows[i]);

	if (json)
		print_json(rows, n, interval_ns);
	else
		print_table(rows, n, interval_ns);
	return 0;
}
