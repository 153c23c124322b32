// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_dispatch.c - `pwbench dispatch --local`: what it costs to get
 * one command to a local device and its completion back ("PCIe").
 *
 * Cases, each timed with CLOCK_MONOTONIC around submit..reap of one
 * command at a time:
 *   io_uring NOP      IORING_OP_NOP on the same ring: the floor
 *   uring_cmd NOP     PWTPU_CMD_NOP through IORING_OP_URING_CMD
 *   exec empty        PWTPU_CMD_EXEC of a program with no instructions
 *   exec add          PWTPU_CMD_EXEC of a 1-element f32 add
 *   ioctl NOP         PWTPU_CMD_NOP through the synchronous ioctl
 * With -q DEPTH, throughput with DEPTH commands in flight as well.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pwtpu/pwprog.h"
#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"

enum dispatch_case {
	CASE_URING_NOP,
	CASE_CMD_NOP,
	CASE_EXEC_EMPTY,
	CASE_EXEC_ADD,
	CASE_IOCTL_NOP,
	NR_CASES,
};

static const char *const case_name[NR_CASES] = {
	[CASE_URING_NOP] = "io_uring NOP (floor)",
	[CASE_CMD_NOP] = "uring_cmd NOP",
	[CASE_EXEC_EMPTY] = "exec empty prog",
	[CASE_EXEC_ADD] = "exec add f32[1]",
	[CASE_IOCTL_NOP] = "ioctl NOP",
};

/* Short names for the CSV file. */
static const char *const case_key[NR_CASES] = {
	[CASE_URING_NOP] = "uring_nop",
	[CASE_CMD_NOP] = "cmd_nop",
	[CASE_EXEC_EMPTY] = "exec_empty",
	[CASE_EXEC_ADD] = "exec_add",
	[CASE_IOCTL_NOP] = "ioctl_nop",
};

struct opts {
	unsigned int dev;
	unsigned int iters;
	unsigned int depth;	/* 0: no throughput run */
	bool poll;
	const char *csv;
};

struct bench {
	struct opts o;
	int fd;
	struct pwtpu_info info;
	struct io_uring ring;
	struct pwtpu_bo bo;
	uint32_t prog[NR_CASES];	/* for the exec cases */
};

struct samples {
	uint64_t *rtt;
	uint64_t *dev_queue;
	uint64_t *dev_exec;
	double qd1_cps;
	double qdn_cps;
};

static bool is_uring(enum dispatch_case c)
{
	return c != CASE_IOCTL_NOP;
}

static bool has_device_times(enum dispatch_case c)
{
	return c != CASE_URING_NOP;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench dispatch --local [-d DEV] [-n ITER] [--poll]\n"
		"                        [-q DEPTH] [--csv FILE]\n"
		"  --local     the device is on this host (\"PCIe\"); the only\n"
		"              mode so far\n"
		"  -d DEV      /dev/pwtpuDEV (default 0)\n"
		"  -n ITER     commands per case (default 10000)\n"
		"  --poll      SQPOLL ring and a spinning completion wait\n"
		"              instead of io_uring_enter() per command\n"
		"  -q DEPTH    also measure throughput with DEPTH in flight\n"
		"  --csv FILE  every latency sample: case,iter,rtt_ns,"
		"dev_queue_ns,dev_exec_ns\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "local", no_argument, NULL, 'L' },
		{ "poll", no_argument, NULL, 'P' },
		{ "csv", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->iters = 10000;
	while ((opt = getopt_long(argc, argv, "d:n:q:h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'L':
			break;
		case 'P':
			o->poll = true;
			break;
		case 'C':
			o->csv = optarg;
			break;
		case 'd':
			o->dev = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'n':
			o->iters = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'q':
			o->depth = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || !o->iters || o->iters > 100000000 ||
	    o->depth > 4096) {
		usage(stderr);
		return 2;
	}
	return 0;
}

/* The two programs (pwprog_dispatch_image), loaded on the device. */
static int load_programs(struct bench *b)
{
	struct pwtpu_prog_load res;
	char log[256] = "";
	int i, ret = 0;
	size_t size;
	void *img;

	for (i = CASE_EXEC_EMPTY; i <= CASE_EXEC_ADD && !ret; i++) {
		img = pwprog_dispatch_image(i == CASE_EXEC_ADD, &size);
		if (!img)
			return -ENOMEM;
		ret = pwtpu_prog_load(b->fd, img, size, log, sizeof(log),
				      &res);
		free(img);
		if (ret)
			fprintf(stderr, "pwbench: %s: load failed: %s (%s)\n",
				case_name[i], strerror(-ret), log);
		b->prog[i] = res.handle;
	}
	return ret;
}

static void prep(struct bench *b, enum dispatch_case c,
		 struct io_uring_sqe *sqe)
{
	struct pwtpu_cmd cmd;

	switch (c) {
	case CASE_URING_NOP:
		io_uring_prep_nop(sqe);
		break;
	case CASE_EXEC_EMPTY:
	case CASE_EXEC_ADD:
		pwtpu_cmd_exec(&cmd, b->prog[c], &b->bo.handle, 1);
		pwtpu_prep_uring_cmd(sqe, b->fd, PWTPU_CMD_EXEC, &cmd);
		break;
	default:
		memset(&cmd, 0, sizeof(cmd));
		pwtpu_prep_uring_cmd(sqe, b->fd, PWTPU_CMD_NOP, &cmd);
		break;
	}
}

/* Submit what is queued and wait for at least one completion. */
static int submit_and_wait_one(struct bench *b, struct io_uring_cqe **cqe)
{
	int ret;

	if (!b->o.poll) {
		ret = io_uring_submit_and_wait(&b->ring, 1);
		if (ret < 0)
			return ret;
		return io_uring_peek_cqe(&b->ring, cqe);
	}
	/* SQPOLL: no syscall to submit, spin on the CQ to reap. */
	ret = io_uring_submit(&b->ring);
	if (ret < 0)
		return ret;
	while ((ret = io_uring_peek_cqe(&b->ring, cqe)) == -EAGAIN)
		;
	return ret;
}

static int reap(struct bench *b, struct io_uring_cqe *cqe, uint64_t *extra)
{
	int res = cqe->res;

	if (extra)
		*extra = cqe->big_cqe[0];
	io_uring_cqe_seen(&b->ring, cqe);
	return res;
}

/* One command, start to completion; fills the sample at @i. */
static int round_trip(struct bench *b, enum dispatch_case c,
		      struct samples *s, unsigned int i)
{
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd;
	uint64_t t0, t1, extra = 0;
	int ret;

	if (!is_uring(c)) {
		memset(&cmd, 0, sizeof(cmd));
		t0 = pwbench_now_ns();
		ret = pwtpu_cmd_sync(b->fd, PWTPU_CMD_NOP, &cmd);
		t1 = pwbench_now_ns();
		s->rtt[i] = t1 - t0;
		s->dev_queue[i] = cmd.start_ns > t0 ? cmd.start_ns - t0 : 0;
		s->dev_exec[i] = cmd.end_ns > cmd.start_ns ?
				 cmd.end_ns - cmd.start_ns : 0;
		return ret;
	}
	prep(b, c, io_uring_get_sqe(&b->ring));
	t0 = pwbench_now_ns();
	ret = submit_and_wait_one(b, &cqe);
	t1 = pwbench_now_ns();
	if (ret < 0)
		return ret;
	ret = reap(b, cqe, &extra);
	s->rtt[i] = t1 - t0;
	s->dev_queue[i] = PWTPU_CQE_QUEUE_NS(extra);
	s->dev_exec[i] = PWTPU_CQE_EXEC_NS(extra);
	return ret;
}

/* Commands per second with @depth in flight, over b->o.iters commands. */
static int throughput(struct bench *b, enum dispatch_case c,
		      unsigned int depth, double *cps)
{
	unsigned int submitted = 0, done = 0, inflight = 0;
	struct io_uring_cqe *cqe;
	uint64_t t0, t1;
	int ret;

	t0 = pwbench_now_ns();
	while (done < b->o.iters) {
		while (inflight < depth && submitted < b->o.iters) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&b->ring);

			if (!sqe)
				break;
			prep(b, c, sqe);
			submitted++;
			inflight++;
		}
		ret = submit_and_wait_one(b, &cqe);
		if (ret < 0)
			return ret;
		do {
			ret = reap(b, cqe, NULL);
			if (ret < 0)
				return ret;
			done++;
			inflight--;
		} while (io_uring_peek_cqe(&b->ring, &cqe) == 0);
	}
	t1 = pwbench_now_ns();
	*cps = (double)b->o.iters * 1e9 / (double)(t1 - t0);
	return 0;
}

static int run_case(struct bench *b, enum dispatch_case c, struct samples *s)
{
	unsigned int warmup = b->o.iters / 10 < 1000 ? b->o.iters / 10 : 1000;
	uint64_t total = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < warmup; i++) {
		ret = round_trip(b, c, s, 0);
		if (ret)
			return ret;
	}
	for (i = 0; i < b->o.iters; i++) {
		ret = round_trip(b, c, s, i);
		if (ret)
			return ret;
		total += s->rtt[i];
	}
	/* One at a time is queue depth 1. */
	s->qd1_cps = (double)b->o.iters * 1e9 / (double)total;
	if (b->o.depth && is_uring(c)) {
		ret = throughput(b, c, 1, &s->qd1_cps);
		if (!ret)
			ret = throughput(b, c, b->o.depth, &s->qdn_cps);
		return ret;
	}
	return 0;
}

static void print_latency(const struct bench *b, struct samples *s)
{
	struct pwbench_summary sum[NR_CASES], dq, dx;
	double floor_p50;
	int c;

	for (c = 0; c < NR_CASES; c++)
		pwbench_summarize(s[c].rtt, b->o.iters, &sum[c]);
	floor_p50 = (double)sum[CASE_URING_NOP].p50;

	printf("pwbench dispatch --local: /dev/pwtpu%u, timing %s, %u "
	       "commands per case, completion by %s\n", b->o.dev,
	       pwtpu_timing_name(b->info.timing_mode), b->o.iters,
	       b->o.poll ? "SQPOLL + spinning on the CQ" :
			   "io_uring_enter() per command");
	printf("%-22s %10s %10s %10s %10s %9s   %10s %10s\n", "latency (ns)",
	       "min", "p50", "p99", "max", "p50/floor", "dev queue",
	       "dev exec");
	for (c = 0; c < NR_CASES; c++) {
		printf("%-22s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
		       " %10" PRIu64 " %8.2fx", case_name[c], sum[c].min,
		       sum[c].p50, sum[c].p99, sum[c].max,
		       floor_p50 > 0 ? (double)sum[c].p50 / floor_p50 : 0.0);
		if (has_device_times(c)) {
			pwbench_summarize(s[c].dev_queue, b->o.iters, &dq);
			pwbench_summarize(s[c].dev_exec, b->o.iters, &dx);
			printf("   %10" PRIu64 " %10" PRIu64 "\n", dq.p50,
			       dx.p50);
		} else {
			printf("   %10s %10s\n", "-", "-");
		}
	}
	printf("(dev queue/exec: medians of the device's own times; uring "
	       "cases from the CQE32 word, ioctl from start_ns/end_ns)\n");
}

static void print_throughput(const struct bench *b, const struct samples *s)
{
	char col[32];
	int c;

	snprintf(col, sizeof(col), "qd=%u", b->o.depth);
	printf("\n%-22s %12s %12s %9s\n", "throughput (cmds/s)", "qd=1", col,
	       "gain");
	for (c = 0; c < NR_CASES; c++) {
		if (!is_uring(c)) {
			printf("%-22s %12.0f %12s %9s\n", case_name[c],
			       s[c].qd1_cps, "-", "-");
			continue;
		}
		printf("%-22s %12.0f %12.0f %8.2fx\n", case_name[c],
		       s[c].qd1_cps, s[c].qdn_cps,
		       s[c].qd1_cps > 0 ? s[c].qdn_cps / s[c].qd1_cps : 0.0);
	}
}

static int write_csv(const struct bench *b, const struct samples *s)
{
	FILE *f = fopen(b->o.csv, "w");
	unsigned int i;
	int c;

	if (!f)
		return -errno;
	fprintf(f, "case,iter,rtt_ns,dev_queue_ns,dev_exec_ns\n");
	for (c = 0; c < NR_CASES; c++)
		for (i = 0; i < b->o.iters; i++) {
			if (has_device_times(c))
				fprintf(f, "%s,%u,%" PRIu64 ",%" PRIu64
					",%" PRIu64 "\n", case_key[c], i,
					s[c].rtt[i], s[c].dev_queue[i],
					s[c].dev_exec[i]);
			else
				fprintf(f, "%s,%u,%" PRIu64 ",,\n",
					case_key[c], i, s[c].rtt[i]);
		}
	return fclose(f) ? -errno : 0;
}

static int bench_open(struct bench *b)
{
	unsigned int entries = b->o.depth > 16 ? b->o.depth : 16;
	int ret;

	b->fd = pwtpu_open(b->o.dev);
	if (b->fd < 0) {
		fprintf(stderr, "pwbench: /dev/pwtpu%u: %s\n", b->o.dev,
			strerror(-b->fd));
		return b->fd;
	}
	ret = pwtpu_info(b->fd, &b->info);
	if (!ret)
		ret = pwtpu_ring_init(&b->ring, entries,
				      b->o.poll ? IORING_SETUP_SQPOLL : 0);
	if (ret) {
		fprintf(stderr, "pwbench: device setup: %s\n", strerror(-ret));
		return ret;
	}
	ret = pwtpu_bo_create(b->fd, 4096, &b->bo);
	if (ret) {
		fprintf(stderr, "pwbench: BO_CREATE: %s\n", strerror(-ret));
		return ret;
	}
	return load_programs(b);
}

int pwbench_dispatch_main(int argc, char **argv)
{
	struct samples s[NR_CASES];
	struct bench b;
	int c, ret;

	for (c = 1; c < argc; c++)
		if (!strncmp(argv[c], "--dcn", 5))
			return pwbench_dcn_main(argc, argv);
	memset(&b, 0, sizeof(b));
	memset(s, 0, sizeof(s));
	ret = parse_opts(argc, argv, &b.o);
	if (ret)
		return ret;
	for (c = 0; c < NR_CASES; c++) {
		s[c].rtt = calloc(b.o.iters, sizeof(uint64_t));
		s[c].dev_queue = calloc(b.o.iters, sizeof(uint64_t));
		s[c].dev_exec = calloc(b.o.iters, sizeof(uint64_t));
		if (!s[c].rtt || !s[c].dev_queue || !s[c].dev_exec) {
			fprintf(stderr, "pwbench: out of memory\n");
			return 1;
		}
	}
	if (bench_open(&b))
		return 1;
	for (c = 0; c < NR_CASES; c++) {
		ret = run_case(&b, c, &s[c]);
		if (ret) {
			fprintf(stderr, "pwbench: %s failed: %s\n",
				case_name[c], strerror(-ret));
			return 1;
		}
	}
	print_latency(&b, s);
	if (b.o.depth)
		print_throughput(&b, s);
	if (b.o.csv) {
		ret = write_csv(&b, s);
		if (ret) {
			fprintf(stderr, "pwbench: %s: %s\n", b.o.csv,
				strerror(-ret));
			return 1;
		}
	}
	io_uring_queue_exit(&b.ring);
	close(b.fd);
	for (c = 0; c < NR_CASES; c++) {
		free(s[c].rtt);
		free(s[c].dev_queue);
		free(s[c].dev_exec);
	}
	return 0;
}
