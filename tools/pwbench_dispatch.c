// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_dispatch.c - `pwbench dispatch --local`: what it costs to get
 * one command to a local device and its completion back ("PCIe").
 *
 * Each case is timed with CLOCK_MONOTONIC around submit..reap of one
 * command at a time, the cases interleaved in one run, so that their
 * ratios to the floor (an IORING_OP_NOP on the default ring) hold on a
 * noisy machine:
 *   io_uring NOP         the floor
 *   uring_cmd NOP        PWTPU_CMD_NOP through IORING_OP_URING_CMD
 *   exec empty prog      PWTPU_CMD_EXEC of a program with no instructions
 *   exec add f32[1]      PWTPU_CMD_EXEC of a 1-element f32 add
 *   ..., queued          with PWTPU_CMD_F_QUEUED: through the device
 *                        thread, as every command went before inlining
 *   ..., plain ring      a ring without the fast path's setup
 *   polled ...           an IORING_SETUP_IOPOLL ring: the completion is
 *                        polled for, nobody is woken
 *   ioctl NOP            the synchronous ioctl
 * The default ring is the fast path's (pwtpu_ring_init_owned(): single
 * issuer, deferred task work, the device as a fixed file, a registered
 * ring fd); --sqpoll makes it an SQPOLL ring whose CQ is spun on.
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

enum ring_kind {
	RING_FAST,	/* pwtpu_ring_init_owned(), or SQPOLL with --sqpoll */
	RING_PLAIN,	/* pwtpu_ring_init(), the fd looked up per SQE */
	RING_POLLED,	/* pwtpu_ring_init_owned() with IOPOLL */
	NR_RINGS,
	VIA_IOCTL = NR_RINGS,
};

enum dispatch_op {
	OP_IO_NOP,
	OP_NOP,
	OP_EXEC_EMPTY,
	OP_EXEC_ADD,
};

struct dispatch_case {
	const char *name;
	const char *key;	/* for the CSV file */
	enum ring_kind via;
	enum dispatch_op op;
	uint32_t flags;		/* PWTPU_CMD_F_* */
	double target;		/* the bound on p50/floor, or 0 */
};

#define QUEUED	PWTPU_CMD_F_QUEUED

static const struct dispatch_case cases[] = {
	{ "io_uring NOP (floor)", "uring_nop", RING_FAST, OP_IO_NOP, 0, 0 },
	{ "uring_cmd NOP", "cmd_nop", RING_FAST, OP_NOP, 0, 2.0 },
	{ "exec empty prog", "exec_empty", RING_FAST, OP_EXEC_EMPTY, 0, 2.0 },
	{ "exec add f32[1]", "exec_add", RING_FAST, OP_EXEC_ADD, 0, 0 },
	{ "uring_cmd NOP, queued", "cmd_nop_queued", RING_FAST, OP_NOP,
	  QUEUED, 0 },
	{ "exec empty, queued", "exec_empty_queued", RING_FAST,
	  OP_EXEC_EMPTY, QUEUED, 0 },
	{ "uring_cmd NOP, plain ring", "cmd_nop_plain", RING_PLAIN, OP_NOP,
	  0, 0 },
	{ "polled uring_cmd NOP", "polled_nop", RING_POLLED, OP_NOP, 0, 1.3 },
	{ "polled exec empty", "polled_exec_empty", RING_POLLED,
	  OP_EXEC_EMPTY, 0, 1.3 },
	{ "polled NOP, queued", "polled_nop_queued", RING_POLLED, OP_NOP,
	  QUEUED, 0 },
	{ "ioctl NOP", "ioctl_nop", VIA_IOCTL, OP_NOP, 0, 0 },
	{ "ioctl NOP, queued", "ioctl_nop_queued", VIA_IOCTL, OP_NOP, QUEUED,
	  0 },
};

#define NR_CASES	(sizeof(cases) / sizeof(cases[0]))

struct opts {
	unsigned int dev;
	unsigned int iters;
	unsigned int depth;	/* 0: no throughput run */
	bool sqpoll;
	const char *csv;
};

struct bench {
	struct opts o;
	int fd;
	struct pwtpu_info info;
	struct io_uring ring[NR_RINGS];
	struct pwtpu_bo bo;
	uint32_t prog_empty, prog_add;
};

struct samples {
	uint64_t *rtt;
	uint64_t *dev_queue;
	uint64_t *dev_exec;
	double qd1_cps;
	double qdn_cps;
};

static bool is_uring(const struct dispatch_case *c)
{
	return c->via != VIA_IOCTL;
}

static bool has_device_times(const struct dispatch_case *c)
{
	return c->op != OP_IO_NOP;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench dispatch --local [-d DEV] [-n ITER] [--sqpoll]\n"
		"                        [-q DEPTH] [--csv FILE]\n"
		"  --local     the device is on this host (\"PCIe\"); see\n"
		"              --dcn for another host's\n"
		"  -d DEV      /dev/pwtpuDEV (default 0)\n"
		"  -n ITER     commands per case (default 10000)\n"
		"  --sqpoll    the default ring is an SQPOLL ring whose CQ is\n"
		"              spun on, instead of io_uring_enter() per command\n"
		"  -q DEPTH    also measure throughput with DEPTH in flight\n"
		"  --csv FILE  every latency sample: case,iter,rtt_ns,"
		"dev_queue_ns,dev_exec_ns\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "local", no_argument, NULL, 'L' },
		{ "sqpoll", no_argument, NULL, 'S' },
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
		case 'S':
			o->sqpoll = true;
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
static int load_program(struct bench *b, bool add, uint32_t *handle)
{
	struct pwtpu_prog_load res;
	char log[256] = "";
	size_t size;
	void *img;
	int ret;

	img = pwprog_dispatch_image(add, &size);
	if (!img)
		return -ENOMEM;
	ret = pwtpu_prog_load(b->fd, img, size, log, sizeof(log), &res);
	free(img);
	if (ret)
		fprintf(stderr, "pwbench: %s program: load failed: %s (%s)\n",
			add ? "add" : "empty", strerror(-ret), log);
	*handle = res.handle;
	return ret;
}

static void make_cmd(const struct bench *b, const struct dispatch_case *c,
		     struct pwtpu_cmd *cmd, uint32_t *op)
{
	memset(cmd, 0, sizeof(*cmd));
	*op = PWTPU_CMD_NOP;
	if (c->op == OP_EXEC_EMPTY || c->op == OP_EXEC_ADD) {
		pwtpu_cmd_exec(cmd, c->op == OP_EXEC_ADD ? b->prog_add :
			       b->prog_empty, &b->bo.handle, 1);
		*op = PWTPU_CMD_EXEC;
	}
	cmd->flags = c->flags;
}

static void prep(struct bench *b, const struct dispatch_case *c,
		 struct io_uring_sqe *sqe)
{
	struct pwtpu_cmd cmd;
	uint32_t op;

	if (c->op == OP_IO_NOP) {
		io_uring_prep_nop(sqe);
		return;
	}
	make_cmd(b, c, &cmd, &op);
	/* The plain ring names the device by fd; the others, fixed file 0. */
	if (c->via == RING_PLAIN)
		pwtpu_prep_uring_cmd(sqe, b->fd, op, &cmd);
	else
		pwtpu_prep_uring_cmd_fixed(sqe, 0, op, &cmd);
}

static bool spins(const struct bench *b, const struct dispatch_case *c)
{
	return b->o.sqpoll && c->via == RING_FAST;
}

/* Submit what is queued and wait for at least one completion. */
static int submit_and_wait_one(struct bench *b,
			       const struct dispatch_case *c,
			       struct io_uring_cqe **cqe)
{
	struct io_uring *ring = &b->ring[c->via];
	int ret;

	if (!spins(b, c)) {
		ret = io_uring_submit_and_wait(ring, 1);
		if (ret < 0)
			return ret;
		/*
		 * An IOPOLL ring's enter may return before a completion when
		 * the task must reschedule (a queued command's runner woke on
		 * this CPU): wait again rather than take it for an error.
		 */
		return io_uring_wait_cqe(ring, cqe);
	}
	/* SQPOLL: no syscall to submit, spin on the CQ to reap. */
	ret = io_uring_submit(ring);
	if (ret < 0)
		return ret;
	while ((ret = io_uring_peek_cqe(ring, cqe)) == -EAGAIN)
		;
	return ret;
}

static int reap(struct io_uring *ring, struct io_uring_cqe *cqe,
		uint64_t *extra)
{
	int res = cqe->res;

	if (extra)
		*extra = cqe->big_cqe[0];
	io_uring_cqe_seen(ring, cqe);
	return res;
}

/* One command, start to completion; fills the sample at @i. */
static int round_trip(struct bench *b, const struct dispatch_case *c,
		      struct samples *s, unsigned int i)
{
	struct io_uring *ring;
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd;
	uint64_t t0, t1, extra = 0;
	uint32_t op;
	int ret;

	if (!is_uring(c)) {
		make_cmd(b, c, &cmd, &op);
		t0 = pwbench_now_ns();
		ret = pwtpu_cmd_sync(b->fd, op, &cmd);
		t1 = pwbench_now_ns();
		s->rtt[i] = t1 - t0;
		s->dev_queue[i] = cmd.start_ns > t0 ? cmd.start_ns - t0 : 0;
		s->dev_exec[i] = cmd.end_ns > cmd.start_ns ?
				 cmd.end_ns - cmd.start_ns : 0;
		return ret;
	}
	ring = &b->ring[c->via];
	prep(b, c, io_uring_get_sqe(ring));
	t0 = pwbench_now_ns();
	ret = submit_and_wait_one(b, c, &cqe);
	t1 = pwbench_now_ns();
	if (ret < 0)
		return ret;
	ret = reap(ring, cqe, &extra);
	s->rtt[i] = t1 - t0;
	s->dev_queue[i] = PWTPU_CQE_QUEUE_NS(extra);
	s->dev_exec[i] = PWTPU_CQE_EXEC_NS(extra);
	return ret;
}

/* Commands per second with @depth in flight, over b->o.iters commands. */
static int throughput(struct bench *b, const struct dispatch_case *c,
		      unsigned int depth, double *cps)
{
	unsigned int submitted = 0, done = 0, inflight = 0;
	struct io_uring *ring = &b->ring[c->via];
	struct io_uring_cqe *cqe;
	uint64_t t0, t1;
	int ret;

	t0 = pwbench_now_ns();
	while (done < b->o.iters) {
		while (inflight < depth && submitted < b->o.iters) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			if (!sqe)
				break;
			prep(b, c, sqe);
			submitted++;
			inflight++;
		}
		ret = submit_and_wait_one(b, c, &cqe);
		if (ret < 0)
			return ret;
		do {
			ret = reap(ring, cqe, NULL);
			if (ret < 0)
				return ret;
			done++;
			inflight--;
		} while (io_uring_peek_cqe(ring, &cqe) == 0);
	}
	t1 = pwbench_now_ns();
	*cps = (double)b->o.iters * 1e9 / (double)(t1 - t0);
	return 0;
}

/*
 * Every case's round trips, interleaved in blocks of BLOCK, so that the
 * machine's slow and fast moments fall on all of them alike and their
 * ratios hold; blocks rather than single commands, so that what a case
 * leaves behind (a runner thread going back to sleep) costs the next
 * case only its first sample. Then throughput, case by case, with -q.
 */
#define BLOCK	100

static int run_cases(struct bench *b, struct samples *s, size_t *failed)
{
	unsigned int warmup = b->o.iters / 10 < 1000 ? b->o.iters / 10 : 1000;
	unsigned int n = warmup + b->o.iters, i, j, end;
	uint64_t total[NR_CASES] = { 0 };
	size_t c;
	int ret;

	for (i = 0; i < n; i = end) {
		end = i + BLOCK < n ? i + BLOCK : n;
		for (c = 0; c < NR_CASES; c++)
			for (j = i; j < end; j++) {
				*failed = c;
				ret = round_trip(b, &cases[c], &s[c],
						 j < warmup ? 0 : j - warmup);
				if (ret)
					return ret;
				if (j >= warmup)
					total[c] += s[c].rtt[j - warmup];
			}
	}
	for (c = 0; c < NR_CASES; c++) {
		*failed = c;
		/* One at a time is queue depth 1. */
		s[c].qd1_cps = (double)b->o.iters * 1e9 / (double)total[c];
		if (!b->o.depth || !is_uring(&cases[c]))
			continue;
		ret = throughput(b, &cases[c], 1, &s[c].qd1_cps);
		if (!ret)
			ret = throughput(b, &cases[c], b->o.depth,
					 &s[c].qdn_cps);
		if (ret)
			return ret;
	}
	return 0;
}

static void print_latency(const struct bench *b, struct samples *s)
{
	struct pwbench_summary sum[NR_CASES], dq, dx;
	char machine[96], target[16];
	double floor_p50;
	size_t c;

	for (c = 0; c < NR_CASES; c++)
		pwbench_summarize(s[c].rtt, b->o.iters, &sum[c]);
	floor_p50 = (double)sum[0].p50;

	pwbench_machine(machine, sizeof(machine));
	printf("pwbench dispatch --local: /dev/pwtpu%u, timing %s, %u "
	       "commands per case; %s\n", b->o.dev,
	       pwtpu_timing_name(b->info.timing_mode), b->o.iters, machine);
	printf("rings: default %s; plain: SQE128|CQE32 only, the fd looked "
	       "up per SQE; polled: IOPOLL|SINGLE_ISSUER, fixed file\n",
	       b->o.sqpoll ? "SQPOLL, CQ spun on, fixed file" :
	       "SINGLE_ISSUER|DEFER_TASKRUN|COOP_TASKRUN, fixed file, "
	       "registered ring fd");
	printf("%-26s %9s %9s %9s %9s %9s %7s %10s %9s\n", "latency (ns)",
	       "min", "p50", "p99", "max", "p50/floor", "target",
	       "dev queue", "dev exec");
	for (c = 0; c < NR_CASES; c++) {
		if (cases[c].target > 0)
			snprintf(target, sizeof(target), "<=%.1fx",
				 cases[c].target);
		else
			snprintf(target, sizeof(target), "-");
		printf("%-26s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
		       " %8.2fx %7s", cases[c].name, sum[c].min, sum[c].p50,
		       sum[c].p99, sum[c].max,
		       floor_p50 > 0 ? (double)sum[c].p50 / floor_p50 : 0.0,
		       target);
		if (has_device_times(&cases[c])) {
			pwbench_summarize(s[c].dev_queue, b->o.iters, &dq);
			pwbench_summarize(s[c].dev_exec, b->o.iters, &dx);
			printf(" %10" PRIu64 " %9" PRIu64 "\n", dq.p50, dx.p50);
		} else {
			printf(" %10s %9s\n", "-", "-");
		}
	}
	printf("(dev queue/exec: medians of the device's own times; uring "
	       "cases from the CQE32 word, ioctl from start_ns/end_ns;\n"
	       " target: the bound issue 13 sets on p50/floor)\n");
}

static void print_throughput(const struct bench *b, const struct samples *s)
{
	char col[32];
	size_t c;

	snprintf(col, sizeof(col), "qd=%u", b->o.depth);
	printf("\n%-26s %12s %12s %9s\n", "throughput (cmds/s)", "qd=1", col,
	       "gain");
	for (c = 0; c < NR_CASES; c++) {
		if (!is_uring(&cases[c])) {
			printf("%-26s %12.0f %12s %9s\n", cases[c].name,
			       s[c].qd1_cps, "-", "-");
			continue;
		}
		printf("%-26s %12.0f %12.0f %8.2fx\n", cases[c].name,
		       s[c].qd1_cps, s[c].qdn_cps,
		       s[c].qd1_cps > 0 ? s[c].qdn_cps / s[c].qd1_cps : 0.0);
	}
}

static int write_csv(const struct bench *b, const struct samples *s)
{
	FILE *f = fopen(b->o.csv, "w");
	unsigned int i;
	size_t c;

	if (!f)
		return -errno;
	fprintf(f, "case,iter,rtt_ns,dev_queue_ns,dev_exec_ns\n");
	for (c = 0; c < NR_CASES; c++)
		for (i = 0; i < b->o.iters; i++) {
			if (has_device_times(&cases[c]))
				fprintf(f, "%s,%u,%" PRIu64 ",%" PRIu64
					",%" PRIu64 "\n", cases[c].key, i,
					s[c].rtt[i], s[c].dev_queue[i],
					s[c].dev_exec[i]);
			else
				fprintf(f, "%s,%u,%" PRIu64 ",,\n",
					cases[c].key, i, s[c].rtt[i]);
		}
	return fclose(f) ? -errno : 0;
}

static int rings_open(struct bench *b)
{
	unsigned int entries = b->o.depth > 16 ? b->o.depth : 16;
	int ret;

	ret = pwtpu_ring_init_owned(&b->ring[RING_FAST], entries,
				    b->o.sqpoll ? IORING_SETUP_SQPOLL : 0,
				    &b->fd, 1);
	if (ret) {
		fprintf(stderr, "pwbench: default ring: %s\n", strerror(-ret));
		return ret;
	}
	ret = pwtpu_ring_init(&b->ring[RING_PLAIN], entries, 0);
	if (ret) {
		fprintf(stderr, "pwbench: plain ring: %s\n", strerror(-ret));
		return ret;
	}
	ret = pwtpu_ring_init_owned(&b->ring[RING_POLLED], entries,
				    IORING_SETUP_IOPOLL, &b->fd, 1);
	if (ret)
		fprintf(stderr, "pwbench: polled ring: %s\n", strerror(-ret));
	return ret;
}

static int bench_open(struct bench *b)
{
	int ret;

	b->fd = pwtpu_open(b->o.dev);
	if (b->fd < 0) {
		fprintf(stderr, "pwbench: /dev/pwtpu%u: %s\n", b->o.dev,
			strerror(-b->fd));
		return b->fd;
	}
	ret = pwtpu_info(b->fd, &b->info);
	if (ret) {
		fprintf(stderr, "pwbench: INFO: %s\n", strerror(-ret));
		return ret;
	}
	ret = rings_open(b);
	if (ret)
		return ret;
	ret = pwtpu_bo_create(b->fd, 4096, &b->bo);
	if (ret) {
		fprintf(stderr, "pwbench: BO_CREATE: %s\n", strerror(-ret));
		return ret;
	}
	ret = load_program(b, false, &b->prog_empty);
	return ret ? ret : load_program(b, true, &b->prog_add);
}

int pwbench_dispatch_main(int argc, char **argv)
{
	struct samples s[NR_CASES];
	struct bench b;
	size_t c;
	int ret, r;

	for (r = 1; r < argc; r++)
		if (!strncmp(argv[r], "--dcn", 5))
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
	ret = run_cases(&b, s, &c);
	if (ret) {
		fprintf(stderr, "pwbench: %s failed: %s\n", cases[c].name,
			strerror(-ret));
		return 1;
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
	for (r = 0; r < NR_RINGS; r++)
		io_uring_queue_exit(&b.ring[r]);
	close(b.fd);
	for (c = 0; c < NR_CASES; c++) {
		free(s[c].rtt);
		free(s[c].dev_queue);
		free(s[c].dev_exec);
	}
	return 0;
}
