// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_host_data.c - `pwbench host-data`: a remote client's host data
 * to and from a worker's device buffer, over the data plane (BUFFER with
 * F_DP: straight into the buffer, RDMA or TCP as the worker's data plane
 * is) and, side by side in the same run, in control-plane BUFFER parts
 * relayed by the controller (a second client with PATHWAYS_DATA=off).
 * For each shard size: median and p99 of an upload (pw_remote_buffer())
 * and of a download (pw_remote_read()), and the data plane's speed-up.
 * Every download is checked against what was uploaded.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/dcn/rclient.h"

#include "pwbench.h"

static const unsigned int shard_kib[] = { 64, 1024, 4096 };
#define NSIZES	(sizeof(shard_kib) / sizeof(shard_kib[0]))

struct hd_opts {
	const char *controller;
	unsigned int host;
	unsigned int iters;
};

static void hd_usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench host-data --dcn IP:PORT --host H [-n ITER]\n"
		"  --dcn IP:PORT  the controller\n"
		"  --host H       the worker host whose device 0 holds the shards\n"
		"  -n ITER        transfers of each size each way (default 10)\n");
}

static int hd_parse(int argc, char **argv, struct hd_opts *o)
{
	static const struct option longopts[] = {
		{ "dcn", required_argument, NULL, 'd' },
		{ "host", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	o->iters = 10;
	o->host = 0;
	o->controller = NULL;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->controller = optarg; break;
		case 'H': o->host = (unsigned int)atoi(optarg); break;
		case 'n': o->iters = (unsigned int)atoi(optarg); break;
		case 'h': hd_usage(stdout); exit(0);
		default: hd_usage(stderr); return -EINVAL;
		}
	}
	if (!o->controller || !o->iters) {
		hd_usage(stderr);
		return -EINVAL;
	}
	return 0;
}

/* @iters uploads and downloads of @bytes through @r: times in @up, @down. */
static int measure(struct pw_remote *r, const struct hd_opts *o,
		   size_t bytes, const float *in, float *out, uint64_t *up,
		   uint64_t *down)
{
	const uint32_t shape[1] = { (uint32_t)(bytes / sizeof(float)) };
	unsigned int i;
	uint32_t id;
	uint64_t t;
	int ret;

	for (i = 0; i < o->iters; i++) {
		t = pwbench_now_ns();
		ret = pw_remote_buffer(r, o->host, 0, PWTPU_DT_F32, 1, shape,
				       in, &id);
		up[i] = pwbench_now_ns() - t;
		if (ret)
			return ret;
		memset(out, 0, bytes);
		t = pwbench_now_ns();
		ret = pw_remote_read(r, o->host, id, out, bytes);
		down[i] = pwbench_now_ns() - t;
		pw_remote_free(r, o->host, id);
		if (ret)
			return ret;
		if (memcmp(in, out, bytes))
			return -EIO;
	}
	return 0;
}

static double mb_per_s(size_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 1e3 / (double)ns : 0;
}

int pwbench_host_data_main(int argc, char **argv)
{
	uint64_t *up[2], *down[2];
	struct pwbench_summary su[2], sd[2];
	struct pw_remote *r[2] = { NULL, NULL };
	size_t max = (size_t)shard_kib[NSIZES - 1] << 10, i, s;
	struct hd_opts o;
	float *in, *out;
	int ret, k;

	ret = hd_parse(argc, argv, &o);
	if (ret)
		return 2;
	in = malloc(max);
	out = malloc(max);
	for (k = 0; k < 2; k++) {
		up[k] = calloc(o.iters, sizeof(uint64_t));
		down[k] = calloc(o.iters, sizeof(uint64_t));
	}
	if (!in || !out || !up[0] || !up[1] || !down[0] || !down[1]) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < max / sizeof(float); i++)
		in[i] = (float)(i % 8191);
	/* Client 0 uses the data plane; client 1 is told not to. */
	ret = pw_remote_connect(o.controller, "host-data", &r[0]);
	if (!ret) {
		setenv("PATHWAYS_DATA", "off", 1);
		ret = pw_remote_connect(o.controller, "host-data-parts", &r[1]);
		unsetenv("PATHWAYS_DATA");
	}
	if (ret) {
		fprintf(stderr, "pwbench host-data: %s\n", pw_last_error());
		goto out;
	}
	printf("pwbench host-data: controller %s, device 0 of host %u, %u transfers each way per size\n",
	       o.controller, o.host, o.iters);
	printf("%-8s %-4s %12s %12s %12s %12s %9s\n", "shard", "way",
	       "dp p50 us", "dp MB/s", "parts p50 us", "parts MB/s",
	       "dp/parts");
	for (s = 0; s < NSIZES; s++) {
		size_t bytes = (size_t)shard_kib[s] << 10;

		for (k = 0; k < 2; k++) {
			ret = measure(r[k], &o, bytes, in, out, up[k],
				      down[k]);
			if (ret) {
				fprintf(stderr, "pwbench host-data: %zu bytes%s: %s (%s)\n",
					bytes, k ? " in parts" : "",
					strerror(-ret), pw_last_error());
				goto out;
			}
			pwbench_summarize(up[k], o.iters, &su[k]);
			pwbench_summarize(down[k], o.iters, &sd[k]);
		}
		printf("%5u KiB %-4s %12.0f %12.1f %12.0f %12.1f %8.1fx\n",
		       shard_kib[s], "up", su[0].p50 / 1e3,
		       mb_per_s(bytes, su[0].p50), su[1].p50 / 1e3,
		       mb_per_s(bytes, su[1].p50),
		       (double)su[1].p50 / (double)su[0].p50);
		printf("%5u KiB %-4s %12.0f %12.1f %12.0f %12.1f %8.1fx\n",
		       shard_kib[s], "down", sd[0].p50 / 1e3,
		       mb_per_s(bytes, sd[0].p50), sd[1].p50 / 1e3,
		       mb_per_s(bytes, sd[1].p50),
		       (double)sd[1].p50 / (double)sd[0].p50);
	}
	printf("data plane: %s\n", pw_remote_data_kind(r[0]));
out:
	for (k = 0; k < 2; k++) {
		pw_remote_close(r[k]);
		free(up[k]);
		free(down[k]);
	}
	free(in);
	free(out);
	return ret ? 1 : 0;
}
