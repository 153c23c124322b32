// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_collective.c - `pwbench collective`: all-reduce (f32 sum) over
 * 2, 4, 8 ... devices of the island for message sizes from a few bytes to
 * tens of MiB, reported like nccl-tests: time, algorithm bandwidth
 * (bytes / time) and bus bandwidth (algbw * 2(n-1)/n, the rate each
 * device's links must sustain), next to the limit of the link model.
 *
 * One process opens devices 0..n-1 and loads the same program on each;
 * an iteration submits the n EXECs (one per rank, a fresh random gang
 * id) on one io_uring and reaps all n. Time is wall clock from submit to
 * the last completion; the device time is the slowest member's exec time
 * from its CQE32 word. A benchmark reports; it only fails when a command
 * does.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "pwtpu/pwprog.h"
#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"

#define MAX_COUNTS	16
#define PAGE		4096ull
/* Sizes past this many bytes run fewer iterations: see iters_for(). */
#define BYTES_PER_SIZE	(256ull << 20)
#define MIN_ITERS	3

struct opts {
	unsigned int counts[MAX_COUNTS];
	unsigned int ncounts;
	uint64_t min;
	uint64_t max;
	unsigned int factor;
	unsigned int iters;
	unsigned int warmup;
	const char *csv;
};

/* One member: its device, buffers, program, gang and command. */
struct member {
	int fd;
	struct pwtpu_bo in;
	struct pwtpu_bo out;
	uint32_t prog;
	uint32_t bufs[2];
	struct pwtpu_gang gang;
	struct pwtpu_cmd cmd;
};

struct bench {
	struct opts o;
	unsigned int ndev;
	int fds[PWTPU_MAX_GANG];
	int gang_fd;		/* every iteration's gang meets in it */
	uint64_t gang_id;	/* the last iteration's */
	struct pwtpu_info info;
	struct io_uring ring;
	double limit_gbps;
	uint64_t *wall;
	uint64_t *dev;
	FILE *csv;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench collective [-n LIST] [--min BYTES] [--max BYTES]\n"
		"                          [--step F] [-i ITERS] [-w WARMUP]\n"
		"                          [--csv FILE]\n"
		"  -n LIST      device counts, e.g. 2,4,8 (default: 2, 4, 8, ...\n"
		"               up to the island's size); devices 0..n-1 are used\n"
		"  --min BYTES  smallest message (default 4; K, M, G suffixes)\n"
		"  --max BYTES  largest message (default 64M)\n"
		"  --step F     size factor between rows (default 4)\n"
		"  -i ITERS     timed iterations per size (default 20; sizes over\n"
		"               %llu MiB / ITERS run fewer, at least %d)\n"
		"  -w WARMUP    untimed iterations first (default 2)\n"
		"  --csv FILE   every sample: n,bytes,iter,wall_ns,dev_ns\n",
		BYTES_PER_SIZE >> 20, MIN_ITERS);
}

/* "64M" -> 67108864; 0 on error. */
static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'G': case 'g':
		v <<= 10;
		/* fall through */
	case 'M': case 'm':
		v <<= 10;
		/* fall through */
	case 'K': case 'k':
		v <<= 10;
		end++;
		break;
	}
	return *end || end == s ? 0 : v;
}

static int parse_counts(const char *s, struct opts *o)
{
	char *end;

	o->ncounts = 0;
	while (*s && o->ncounts < MAX_COUNTS) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v < 2 || v > PWTPU_MAX_GANG)
			return -EINVAL;
		o->counts[o->ncounts++] = (unsigned int)v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "min", required_argument, NULL, 'm' },
		{ "max", required_argument, NULL, 'M' },
		{ "step", required_argument, NULL, 's' },
		{ "csv", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->min = 4;
	o->max = 64ull << 20;
	o->factor = 4;
	o->iters = 20;
	o->warmup = 2;
	while ((opt = getopt_long(argc, argv, "n:i:w:h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (parse_counts(optarg, o)) {
				fprintf(stderr, "pwbench: bad device list "
					"'%s'\n", optarg);
				return 2;
			}
			break;
		case 'm':
			o->min = parse_size(optarg);
			break;
		case 'M':
			o->max = parse_size(optarg);
			break;
		case 's':
			o->factor = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'i':
			o->iters = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'w':
			o->warmup = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'C':
			o->csv = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || !o->min || o->max < o->min ||
	    o->max > (1ull << 32) || o->factor < 2 || !o->iters ||
	    o->iters > 1000000 || o->warmup > 1000) {
		usage(stderr);
		return 2;
	}
	return 0;
}

/* Value of @key in the sysfs spec list "k=v,k=v", or -1. */
static long long spec_value(const char *spec, const char *key)
{
	size_t len = strlen(key);
	const char *s = spec;

	while (s && *s) {
		if (!strncmp(s, key, len) && s[len] == '=')
			return strtoll(s + len + 1, NULL, 0);
		s = strchr(s, ',');
		if (s)
			s++;
	}
	return -1;
}

static unsigned int iters_for(const struct bench *b, uint64_t bytes)
{
	uint64_t cap = BYTES_PER_SIZE / bytes;

	if (cap < MIN_ITERS)
		cap = MIN_ITERS;
	return b->o.iters < cap ? b->o.iters : (unsigned int)cap;
}

/* dst = all-reduce(sum) of src over the gang: f32[elems] each. */
static int load_program(int fd, uint64_t elems, uint32_t *handle)
{
	uint32_t shape[1] = { (uint32_t)elems };
	struct pwtpu_prog_load res;
	struct pwprog *p = pwprog_new(2);
	char log[256] = "";
	size_t size;
	void *img;
	int ret, a, d;

	if (!p)
		return -ENOMEM;
	a = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 0, 0);
	d = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 1, 0);
	ret = pwprog_insn(p, PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_SUM, d, a,
			  PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, NULL, 0);
	img = a < 0 || d < 0 || ret < 0 ? NULL : pwprog_image(p, &size);
	pwprog_free(p);
	if (!img)
		return a < 0 ? a : d < 0 ? d : ret < 0 ? ret : -ENOMEM;
	ret = pwtpu_prog_load(fd, img, size, log, sizeof(log), &res);
	free(img);
	if (ret)
		fprintf(stderr, "pwbench: program load: %s (%s)\n",
			strerror(-ret), log);
	*handle = res.handle;
	return ret;
}

static void release(struct member *m, unsigned int n)
{
	unsigned int r;

	for (r = 0; r < n; r++) {
		if (m[r].in.map)
			pwtpu_bo_free(m[r].fd, &m[r].in);
		if (m[r].out.map)
			pwtpu_bo_free(m[r].fd, &m[r].out);
		if (m[r].prog)
			pwtpu_prog_unload(m[r].fd, m[r].prog);
	}
}

/*
 * Buffers and program on each of the n devices; rank r's input is all
 * r + 1, so every element of the sum is n(n+1)/2, exactly.
 */
static int prepare(struct bench *b, struct member *m, unsigned int n,
		   uint64_t bytes)
{
	uint64_t elems = bytes / 4, i;
	unsigned int r, k;
	int ret;

	memset(m, 0, sizeof(*m) * n);
	for (r = 0; r < n; r++) {
		float *in;

		m[r].fd = b->fds[r];
		ret = pwtpu_bo_alloc(m[r].fd, bytes, &m[r].in);
		if (!ret)
			ret = pwtpu_bo_alloc(m[r].fd, bytes, &m[r].out);
		if (!ret)
			ret = load_program(m[r].fd, elems, &m[r].prog);
		if (ret)
			return ret;
		in = m[r].in.map;
		for (i = 0; i < elems; i++)
			in[i] = (float)(r + 1);
		m[r].bufs[0] = m[r].in.handle;
		m[r].bufs[1] = m[r].out.handle;
		m[r].gang.gang_fd = b->gang_fd;
		m[r].gang.ndevices = n;
		m[r].gang.rank = r;
		for (k = 0; k < n; k++) {
			m[r].gang.devices[k] = k;
			m[r].gang.permute[k] = PWTPU_NO_RANK;
		}
		pwtpu_cmd_exec(&m[r].cmd, m[r].prog, m[r].bufs, 2);
		m[r].cmd.gang_ptr = (uintptr_t)&m[r].gang;
	}
	return 0;
}

/* One all-reduce over all members: wall and slowest device time. */
static int iteration(struct bench *b, struct member *m, unsigned int n,
		     uint64_t *wall, uint64_t *dev)
{
	uint64_t id = ++b->gang_id, t0;
	struct io_uring_cqe *cqe;
	unsigned int r, done;
	int ret, failed = 0;

	for (r = 0; r < n; r++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&b->ring);

		if (!sqe)
			return -EBUSY;
		m[r].gang.gang_id = id;
		pwtpu_prep_uring_cmd(sqe, m[r].fd, PWTPU_CMD_EXEC, &m[r].cmd);
		sqe->user_data = r;
	}
	*dev = 0;
	t0 = pwbench_now_ns();
	ret = io_uring_submit(&b->ring);
	if (ret != (int)n)
		return ret < 0 ? ret : -EIO;
	for (done = 0; done < n; done++) {
		ret = io_uring_wait_cqe(&b->ring, &cqe);
		if (ret)
			return ret;
		if (cqe->res && !failed)
			failed = cqe->res;
		if (PWTPU_CQE_EXEC_NS(cqe->big_cqe[0]) > *dev)
			*dev = PWTPU_CQE_EXEC_NS(cqe->big_cqe[0]);
		io_uring_cqe_seen(&b->ring, cqe);
	}
	*wall = pwbench_now_ns() - t0;
	return failed;
}

/* Whether a few elements of every member's result are n(n+1)/2. */
static bool result_ok(const struct member *m, unsigned int n, uint64_t elems)
{
	const float want = (float)(n * (n + 1) / 2);
	const uint64_t at[3] = { 0, elems / 2, elems - 1 };
	unsigned int r, k;

	for (r = 0; r < n; r++)
		for (k = 0; k < 3; k++)
			if (((const float *)m[r].out.map)[at[k]] != want)
				return false;
	return true;
}

/* Free HBM on devices 0..n-1 is enough for two buffers of @bytes. */
static bool fits(const struct bench *b, unsigned int n, uint64_t bytes,
		 uint64_t *need, uint64_t *avail)
{
	unsigned int r;

	*need = 2 * ((bytes + PAGE - 1) / PAGE * PAGE);
	*avail = UINT64_MAX;
	for (r = 0; r < n; r++) {
		struct pwtpu_info in;

		if (pwtpu_info(b->fds[r], &in))
			return false;
		if (in.hbm_total - in.hbm_used < *avail)
			*avail = in.hbm_total - in.hbm_used;
	}
	return *avail >= *need;
}

/* Whole-island all-reduces on a torus go both ways round each ring. */
static double link_limit(const struct bench *b, unsigned int n)
{
	bool torus = b->info.mesh_flags & PWTPU_MESH_TORUS;

	return torus && n == b->info.ndevices ? 2.0 * b->limit_gbps :
	       b->limit_gbps;
}

static void print_header(const struct bench *b)
{
	char mesh[64] = "?";

	pwtpu_sysfs_str(0, "mesh_shape", mesh, sizeof(mesh));
	printf("pwbench collective: all-reduce f32 sum, timing %s, island of "
	       "%u devices, mesh %s, ici_mbps=%u\n",
	       pwtpu_timing_name(b->info.timing_mode), b->ndev, mesh,
	       b->info.ici_mbps);
	printf("limit: busbw <= one link in one direction = %.2f GB/s "
	       "(ici_mbps), twice that on a torus\n"
	       "  when the group is the whole island: the firmware's rings "
	       "(docs/collectives.md) send\n"
	       "  2(n-1)/n of the data, one way round, or half of it each "
	       "way round a torus ring,\n"
	       "  so busbw = algbw * 2(n-1)/n cannot pass the rate of the "
	       "links used. Small messages\n"
	       "  are bound by 2(n-1) steps of link latency and dispatch "
	       "instead. timing=skip shows the\n"
	       "  link model alone; native and modeled also pay for the "
	       "emulation's own copies and adds.\n", b->limit_gbps);
	printf("time: median wall time, submit .. last completion; dev: "
	       "median of the slowest member's\n"
	       "  device time (CQE32); GB/s = 1e9 B/s; check: every member's "
	       "result = n(n+1)/2\n\n");
	printf("%3s %10s %9s %5s %11s %11s %10s %10s %10s %6s %5s\n", "n",
	       "bytes", "count", "iters", "time us", "dev us", "algbw GB/s",
	       "busbw GB/s", "limit GB/s", "bus%", "check");
}

static int run_size(struct bench *b, unsigned int n, uint64_t bytes)
{
	struct member m[PWTPU_MAX_GANG];
	struct pwbench_summary ws, ds;
	unsigned int iters = iters_for(b, bytes), i;
	uint64_t need, avail;
	double algbw, busbw, limit;
	bool ok = true;
	int ret;

	if (bytes / 4 > PWTPU_MAX_ELEMS) {
		printf("%3u %10" PRIu64 "  skipped: a tensor holds at most %u "
		       "elements\n", n, bytes, PWTPU_MAX_ELEMS);
		return 0;
	}
	if (!fits(b, n, bytes, &need, &avail)) {
		printf("%3u %10" PRIu64 "  skipped: needs %.1f MiB of HBM per "
		       "device, %.1f MiB free\n", n, bytes,
		       (double)need / 1048576.0, (double)avail / 1048576.0);
		return 0;
	}
	ret = prepare(b, m, n, bytes);
	for (i = 0; !ret && i < b->o.warmup + iters; i++) {
		unsigned int s = i < b->o.warmup ? 0 : i - b->o.warmup;

		ret = iteration(b, m, n, &b->wall[s], &b->dev[s]);
		if (!ret && i == 0 && b->info.timing_mode !=
		    PWTPU_TIMING_SKIP)
			ok = result_ok(m, n, bytes / 4);
		if (!ret && b->csv && i >= b->o.warmup)
			fprintf(b->csv, "%u,%" PRIu64 ",%u,%" PRIu64 ",%"
				PRIu64 "\n", n, bytes, s, b->wall[s],
				b->dev[s]);
	}
	release(m, n);
	if (ret == -ENOSPC || ret == -ENOMEM) {
		printf("%3u %10" PRIu64 "  skipped: %s\n", n, bytes,
		       strerror(-ret));
		return 0;
	}
	if (ret) {
		fprintf(stderr, "pwbench: all-reduce of %" PRIu64 " bytes over "
			"%u devices: %s\n", bytes, n, strerror(-ret));
		return ret;
	}
	pwbench_summarize(b->wall, iters, &ws);
	pwbench_summarize(b->dev, iters, &ds);
	algbw = (double)bytes / (double)ws.p50;	/* bytes/ns = GB/s */
	busbw = algbw * 2.0 * (n - 1) / n;
	limit = link_limit(b, n);
	printf("%3u %10" PRIu64 " %9" PRIu64 " %5u %11.1f %11.1f %10.3f "
	       "%10.3f %10.2f %5.1f%% %5s\n", n, bytes, bytes / 4, iters,
	       (double)ws.p50 / 1000.0, (double)ds.p50 / 1000.0, algbw, busbw,
	       limit, 100.0 * busbw / limit,
	       b->info.timing_mode == PWTPU_TIMING_SKIP ? "-" :
	       ok ? "ok" : "BAD");
	fflush(stdout);
	return 0;
}

/* Devices 2, 4, 8, ... up to the island, and the island itself. */
static void default_counts(struct bench *b)
{
	unsigned int n;

	for (n = 2; n <= b->ndev && b->o.ncounts < MAX_COUNTS; n *= 2)
		b->o.counts[b->o.ncounts++] = n;
	if (b->o.ncounts && b->o.counts[b->o.ncounts - 1] != b->ndev &&
	    b->o.ncounts < MAX_COUNTS)
		b->o.counts[b->o.ncounts++] = b->ndev;
}

static int bench_open(struct bench *b)
{
	char spec[512] = "";
	unsigned int r;
	int ret;

	b->fds[0] = pwtpu_open(0);
	if (b->fds[0] < 0) {
		fprintf(stderr, "pwbench: /dev/pwtpu0: %s\n",
			strerror(-b->fds[0]));
		return b->fds[0];
	}
	ret = pwtpu_info(b->fds[0], &b->info);
	if (ret)
		return ret;
	b->gang_fd = pwtpu_gang_create(b->fds[0], NULL);
	if (b->gang_fd < 0) {
		fprintf(stderr, "pwbench: a gang file: %s\n",
			strerror(-b->gang_fd));
		return b->gang_fd;
	}
	b->ndev = b->info.ndevices < PWTPU_MAX_GANG ? b->info.ndevices :
		  PWTPU_MAX_GANG;
	for (r = 1; r < b->ndev; r++) {
		b->fds[r] = pwtpu_open(r);
		if (b->fds[r] < 0) {
			fprintf(stderr, "pwbench: /dev/pwtpu%u: %s\n", r,
				strerror(-b->fds[r]));
			return b->fds[r];
		}
	}
	/* MB/s is 1e6 bytes a second: GB/s = ici_mbps / 1000. */
	if (!pwtpu_sysfs_str(0, "spec", spec, sizeof(spec)) &&
	    spec_value(spec, "ici_mbps") > 0)
		b->limit_gbps = (double)spec_value(spec, "ici_mbps") / 1000.0;
	else
		b->limit_gbps = (double)b->info.ici_mbps / 1000.0;
	return pwtpu_ring_init(&b->ring, 2 * PWTPU_MAX_GANG, 0);
}

int pwbench_collective_main(int argc, char **argv)
{
	struct bench b;
	unsigned int i, max_iters;
	uint64_t bytes;
	int ret = 0;

	memset(&b, 0, sizeof(b));
	if (parse_opts(argc, argv, &b.o))
		return 2;
	if (bench_open(&b))
		return 1;
	if (!b.o.ncounts)
		default_counts(&b);
	max_iters = b.o.iters + b.o.warmup;
	b.wall = calloc(max_iters, sizeof(uint64_t));
	b.dev = calloc(max_iters, sizeof(uint64_t));
	if (!b.wall || !b.dev)
		return 1;
	if (b.o.csv) {
		b.csv = fopen(b.o.csv, "w");
		if (!b.csv) {
			fprintf(stderr, "pwbench: %s: %s\n", b.o.csv,
				strerror(errno));
			return 1;
		}
		fprintf(b.csv, "n,bytes,iter,wall_ns,dev_ns\n");
	}
	print_header(&b);
	for (i = 0; i < b.o.ncounts && !ret; i++) {
		if (b.o.counts[i] > b.ndev) {
			printf("%3u  skipped: the island has %u devices\n",
			       b.o.counts[i], b.ndev);
			continue;
		}
		for (bytes = (b.o.min + 3) / 4 * 4; bytes <= b.o.max && !ret;
		     bytes *= b.o.factor)
			ret = run_size(&b, b.o.counts[i], bytes);
	}
	if (b.csv && fclose(b.csv))
		ret = -errno;
	io_uring_queue_exit(&b.ring);
	for (i = 0; i < b.ndev; i++)
		close(b.fds[i]);
	free(b.wall);
	free(b.dev);
	return ret ? 1 : 0;
}
