// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_clients.c - Figures 8 and 9 of the Pathways paper: many
 * client processes sharing one island. pwbench starts pathwaysd's
 * controller and this host's worker on the loopback
 * (pwbench_pathwaysd.c) and forks the clients, each a process with its
 * own pw_client connected to that controller and its own slice of every
 * device, issuing small computations (x = all-reduce(max, x) + 1, then
 * DELAY of compute, OpByOp) with a fixed number outstanding, so it is
 * always backlogged: its oldest must finish before it issues another.
 *   Figure 8: aggregate computations/s of 1, 2, 4, 8 clients (FIFO), for
 *	computations from tiny to about 1 ms, and how busy the devices
 *	were: the devices' own busy time (sysfs busy_ns) over the interval.
 *   Figure 9: the share of computations each of 4 clients completes
 *	under SHARE with weights 1:1:1:1 and 1:2:4:8 and a small window,
 *	next to the share the weights ask for. The weights are the
 *	operator's, so they are pathwaysd's: client "wN" has weight N.
 * Each client publishes its completed count (pw_client_stats()) in
 * memory shared with pwbench, which reads them over a fixed interval
 * after a warm-up that lasts until every client has completed a
 * computation (loaded its function). The interval is also cut in ticks
 * of TICK_MS: the median rate of the ticks is less disturbed by a stall
 * of the whole emulation (another guest on the host) than the mean.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"
#include "pwbench_paper.h"

#define MAX_CLIENTS	PWP_MAX_CLIENTS
#define OUTSTANDING	16
#define WARMUP_MS	300
#define WARMUP_MAX_MS	60000
#define TICK_MS		100
#define SHARE_WINDOW	8
/* How long a client told to stop may take to drain and go. */
#define STOP_MS		30000

/* The counters are shared between processes: they must not need a lock. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
	       "process-shared atomics must be lock-free");

static const unsigned int default_counts[] = { 1, 2, 4, MAX_CLIENTS };
/* From tiny to about a millisecond; the paper's is 0.33 ms. */
static const unsigned int default_delays_us[] = { 0, 330, 1000 };

enum client_state { STARTING, RUNNING, ENDED };

/* What a client process and pwbench share (MAP_SHARED). */
struct client_slot {
	_Atomic uint64_t completed;
	_Atomic int state;
	int err;
	char msg[160];
};

struct board {
	atomic_bool stop;
	struct client_slot c[MAX_CLIENTS];
};

/* One configuration: @n clients of @weights on the controller @address. */
struct config {
	const char *address;
	unsigned int n;
	const unsigned int *weights;
	uint64_t delay_ns;
	unsigned int ndev;
	unsigned int interval_ms;
};

static void sleep_ms(unsigned int ms)
{
	usleep(ms * 1000u);
}

/* Connect once the worker's island is up (pathwaysd may be starting). */
static int client_connect(const struct config *cf, unsigned int weight,
			  struct pw_client **cl)
{
	char name[16];
	struct pw_connect_opts opts = { .address = cf->address, .name = name };
	unsigned int ms;
	int ret = 0;

	snprintf(name, sizeof(name), "w%u", weight);
	for (ms = 0; ms < WARMUP_MAX_MS; ms += 100) {
		*cl = NULL;
		ret = pw_connect(&opts, cl);
		if (!ret && pw_num_devices(*cl) >= (int)cf->ndev)
			return 0;
		if (!ret)
			pw_disconnect(*cl);
		*cl = NULL;
		sleep_ms(100);
	}
	return ret ? ret : -ENODEV;
}

/* Issue until told to stop, OUTSTANDING in flight; 0 or -errno. */
static int client_loop(struct board *b, struct client_slot *slot,
		       struct pw_client *cl, struct pw_slice *slice,
		       struct pw_fn *fn, struct pw_buffer *x)
{
	struct pw_buffer *out[OUTSTANDING] = { NULL };
	struct pw_client_stats st;
	unsigned int i, j;
	int ret = 0, wret;

	for (i = 0; !ret && !atomic_load(&b->stop); i++) {
		j = i % OUTSTANDING;
		if (out[j]) {
			ret = pw_buffer_wait(out[j]);
			pw_buffer_put(out[j]);
			out[j] = NULL;
			pw_client_stats(cl, &st);
			atomic_store(&slot->completed, st.completed);
		}
		if (!ret)
			ret = pw_call(cl, fn, slice, &x, 1, &out[j], 1);
	}
	for (j = 0; j < OUTSTANDING; j++) {
		if (!out[j])
			continue;
		wret = pw_buffer_wait(out[j]);
		ret = ret ? ret : wret;
		pw_buffer_put(out[j]);
	}
	pw_client_stats(cl, &st);
	if (!ret && st.failed)
		ret = -EIO;
	return ret;
}

static void __attribute__((noreturn))
client_main(struct board *b, const struct config *cf, unsigned int i)
{
	struct client_slot *slot = &b->c[i];
	const float zero = 0.0f;
	struct pw_client *cl = NULL;
	struct pw_slice *slice;
	struct pw_buffer *x;
	struct pw_vset *vs;
	struct pw_fn *fn = NULL;
	int ret;

	/* A client must not outlive pwbench, whatever ends it. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() == 1)
		_exit(1);
	ret = client_connect(cf, cf->weights ? cf->weights[i] : 1, &cl);
	if (!ret)
		ret = pw_make_virtual_device_set(cl, &vs);
	if (!ret)
		ret = pw_add_slice(vs, cf->ndev, NULL, &slice);
	if (!ret)
		ret = pwp_step_fn(1, cf->delay_ns, &fn);
	if (!ret)
		ret = pw_buffer_from_host(cl, slice, PWTPU_DT_F32, 1,
					  (const uint32_t[]){ 1 }, &zero, true,
					  &x);
	if (!ret) {
		atomic_store(&slot->state, RUNNING);
		ret = client_loop(b, slot, cl, slice, fn, x);
	}
	if (ret)
		snprintf(slot->msg, sizeof(slot->msg), "%s", ret == -EIO ?
			 "computations failed" : pw_last_error());
	slot->err = ret;
	atomic_store(&slot->state, ENDED);
	pw_fn_put(fn);
	pw_disconnect(cl);
	_exit(ret ? 1 : 0);
}

/* Completed computations of each client, and of all of them. */
static uint64_t snapshot(struct board *b, unsigned int n, uint64_t *done)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		done[i] = atomic_load(&b->c[i].completed);
		total += done[i];
	}
	return total;
}

/* A client that ended before it was told to: its error. */
static int ended_early(struct board *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (atomic_load(&b->c[i].state) == ENDED)
			return b->c[i].err ? b->c[i].err : -EPIPE;
	return 0;
}

/* Until every client completed one computation, at least WARMUP_MS. */
static int warm_up(struct board *b, unsigned int n)
{
	uint64_t done[MAX_CLIENTS];
	unsigned int ms, i, ready;
	int ret;

	for (ms = 0; ms < WARMUP_MAX_MS; ms += 10) {
		sleep_ms(10);
		ret = ended_early(b, n);
		if (ret)
			return ret;
		snapshot(b, n, done);
		for (i = 0, ready = 0; i < n; i++)
			ready += done[i] > 0;
		if (ready == n && ms >= WARMUP_MS)
			return 0;
	}
	fprintf(stderr, "pwbench: a client completed nothing in %d ms\n",
		WARMUP_MAX_MS);
	return -ETIMEDOUT;
}

/* The devices' busy time so far, summed (sysfs busy_ns). */
static uint64_t devices_busy_ns(void)
{
	unsigned int idx[PWTPU_MAX_GANG], n, i;
	uint64_t sum = 0, v;
	int got = pwtpu_list_devices(idx, PWTPU_MAX_GANG);

	n = got > 0 ? (unsigned int)got : 0;
	for (i = 0; i < n; i++)
		if (!pwtpu_sysfs_u64(idx[i], "busy_ns", &v))
			sum += v;
	return sum;
}

/**
 * struct interval - what the clients did in the measured interval
 * @done: computations each client completed.
 * @ns: length of the interval.
 * @median_cps: median over its ticks of all clients' computations/s.
 * @util: the devices' busy time over ndev x @ns.
 */
struct interval {
	uint64_t done[MAX_CLIENTS];
	uint64_t ns;
	uint64_t median_cps;
	double util;
};

static int measure(struct board *b, const struct config *cf,
		   struct interval *iv)
{
	unsigned int ms = cf->interval_ms, n = cf->n, i, t;
	unsigned int ticks = ms / TICK_MS ? ms / TICK_MS : 1;
	uint64_t before[MAX_CLIENTS], *rate = calloc(ticks, sizeof(*rate));
	uint64_t t0, prev_t, prev_total, total, now, busy0;
	struct pwbench_summary sum;

	if (!rate)
		return -ENOMEM;
	busy0 = devices_busy_ns();
	prev_total = snapshot(b, n, before);
	t0 = prev_t = pwbench_now_ns();
	for (t = 0; t < ticks; t++) {
		sleep_ms(t + 1 < ticks ? TICK_MS : ms - t * TICK_MS);
		total = snapshot(b, n, iv->done);
		now = pwbench_now_ns();
		rate[t] = (uint64_t)pwp_rate(total - prev_total, now - prev_t);
		prev_total = total;
		prev_t = now;
	}
	iv->ns = prev_t - t0;
	iv->util = (double)(devices_busy_ns() - busy0) /
		   ((double)cf->ndev * (double)iv->ns);
	for (i = 0; i < n; i++)
		iv->done[i] -= before[i];
	pwbench_summarize(rate, ticks, &sum);
	iv->median_cps = sum.p50;
	free(rate);
	return ended_early(b, n);
}

/* Tell the clients to stop and reap them; the first error wins. */
static int stop_clients(struct board *b, const pid_t *pid, unsigned int n,
			int ret)
{
	unsigned int i;
	int err, status;

	atomic_store(&b->stop, true);
	for (i = 0; i < n; i++) {
		if (pid[i] <= 0)
			continue;
		status = pwp_reap(pid[i], STOP_MS);
		err = b->c[i].err;
		if (err) {
			fprintf(stderr, "pwbench: client %u: %s (%s)\n", i,
				strerror(-err), b->c[i].msg);
			ret = ret ? ret : err;
		} else if (status) {
			fprintf(stderr, "pwbench: client %u %s\n", i,
				status == -ETIMEDOUT ?
				"did not stop: killed" : "died");
			ret = ret ? ret : -EPIPE;
		}
	}
	return ret;
}

static int run_clients(const struct config *cf, struct interval *iv)
{
	pid_t pid[MAX_CLIENTS] = { 0 };
	struct board *b;
	unsigned int i;
	int ret = 0;

	memset(iv, 0, sizeof(*iv));
	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return -errno;
	fflush(NULL);	/* the children must not write our buffers again */
	for (i = 0; i < cf->n && !ret; i++) {
		pid[i] = fork();
		if (!pid[i])
			client_main(b, cf, i);
		if (pid[i] < 0)
			ret = -errno;
	}
	if (!ret)
		ret = warm_up(b, cf->n);
	if (!ret)
		ret = measure(b, cf, iv);
	ret = stop_clients(b, pid, cf->n, ret);
	munmap(b, sizeof(*b));
	return ret;
}

static unsigned int island_devices(void)
{
	unsigned int idx[PWTPU_MAX_GANG];
	int n = pwtpu_list_devices(idx, PWTPU_MAX_GANG);

	return n > 0 ? (unsigned int)n : 0;
}

static int figure8_row(const struct config *cf, FILE *csv)
{
	uint64_t total = 0, lo = UINT64_MAX, hi = 0;
	unsigned int us = (unsigned int)(cf->delay_ns / 1000), k;
	struct interval iv;
	int ret = run_clients(cf, &iv);

	if (ret)
		return ret;
	for (k = 0; k < cf->n; k++) {
		total += iv.done[k];
		lo = iv.done[k] < lo ? iv.done[k] : lo;
		hi = iv.done[k] > hi ? iv.done[k] : hi;
	}
	printf("%8u %7u %12.0f %12llu %12.0f %12.0f %9.1f\n", us, cf->n,
	       pwp_rate(total, iv.ns), (unsigned long long)iv.median_cps,
	       pwp_rate(lo, iv.ns), pwp_rate(hi, iv.ns), 100.0 * iv.util);
	fflush(stdout);
	if (csv)
		fprintf(csv, "%u,%u,%.1f,%llu,%.1f,%.1f,%.4f\n", us, cf->n,
			pwp_rate(total, iv.ns),
			(unsigned long long)iv.median_cps, pwp_rate(lo, iv.ns),
			pwp_rate(hi, iv.ns), iv.util);
	return 0;
}

int pwp_clients(const struct pwp_opts *o)
{
	const unsigned int *counts = o->nclients ? o->clients : default_counts;
	const unsigned int *delays = o->ndelays ? o->delays_us :
				     default_delays_us;
	unsigned int ncounts = o->nclients ? o->nclients :
			       sizeof(default_counts) / sizeof(*counts);
	unsigned int ndelays = o->ndelays ? o->ndelays :
			       sizeof(default_delays_us) / sizeof(*delays);
	struct config cf = { .interval_ms = o->interval_ms };
	struct pwp_daemons d;
	unsigned int i, k;
	FILE *csv;
	int ret, sret;

	cf.ndev = island_devices();
	if (!cf.ndev) {
		fprintf(stderr, "pwbench: no pwtpu devices (module loaded?)\n");
		return -ENOENT;
	}
	csv = pwp_csv_open(o, "fig8.csv",
			   "delay_us,clients,total_cps,median_cps,"
			   "min_client_cps,max_client_cps,device_util", &ret);
	if (ret)
		return ret;
	printf("pwbench pathways clients (Figure 8): concurrent client "
	       "processes of pathwaysd (FIFO),\n"
	       "  each with a slice of all %u devices, issuing x = "
	       "all-reduce(max, x) + 1 then DELAY us\n"
	       "  of compute, OpByOp, %d outstanding; computations/s over "
	       "%u ms after warm-up: all\n"
	       "  clients (mean, and median of %d ms ticks), the slowest "
	       "and the fastest client; and\n"
	       "  the devices' busy time over the interval\n\n", cf.ndev,
	       OUTSTANDING, o->interval_ms, TICK_MS);
	printf("%8s %7s %12s %12s %12s %12s %9s\n", "delay us", "clients",
	       "total /s", "median /s", "slowest /s", "fastest /s",
	       "busy %");
	ret = pwp_daemons_start(&d, NULL);
	cf.address = d.address;
	for (i = 0; i < ndelays && !ret; i++) {
		cf.delay_ns = delays[i] * 1000ull;
		for (k = 0; k < ncounts && !ret; k++) {
			cf.n = counts[k];
			ret = figure8_row(&cf, csv);
		}
	}
	sret = pwp_daemons_stop(&d, !ret);
	ret = ret ? ret : sret;
	sret = pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : sret;
}

int pwp_share(const struct pwp_opts *o)
{
	static const unsigned int weights[][4] = {
		{ 1, 1, 1, 1 },
		{ 1, 2, 4, 8 },
	};
	static const char *const share_args[] = {
		"--sched", "share", "--window", "8", "--weight", "w1=1",
		"--weight", "w2=2", "--weight", "w4=4", "--weight", "w8=8",
		NULL
	};
	struct config cf = { .interval_ms = o->interval_ms, .n = 4 };
	unsigned int i, k, wsum;
	struct pwp_daemons d;
	struct interval iv;
	char label[32];
	uint64_t total;
	FILE *csv;
	int ret, sret;

	_Static_assert(SHARE_WINDOW == 8, "share_args says --window 8");
	cf.ndev = island_devices();
	if (!cf.ndev) {
		fprintf(stderr, "pwbench: no pwtpu devices (module loaded?)\n");
		return -ENOENT;
	}
	csv = pwp_csv_open(o, "fig9.csv",
			   "weights,client,weight,completed,share,expected",
			   &ret);
	if (ret)
		return ret;
	printf("pwbench pathways share (Figure 9): 4 backlogged client "
	       "processes of pathwaysd under\n"
	       "  SHARE (window %d); share of the computations completed in "
	       "%u ms, next to\n"
	       "  weight / sum of weights\n\n", SHARE_WINDOW, o->interval_ms);
	printf("%-8s %6s %6s %10s %9s %9s\n", "weights", "client", "weight",
	       "completed", "share %", "expect %");
	ret = pwp_daemons_start(&d, share_args);
	cf.address = d.address;
	for (i = 0; i < 2 && !ret; i++) {
		cf.weights = weights[i];
		ret = run_clients(&cf, &iv);
		if (ret)
			break;
		snprintf(label, sizeof(label), "%u:%u:%u:%u", weights[i][0],
			 weights[i][1], weights[i][2], weights[i][3]);
		for (k = 0, total = 0, wsum = 0; k < 4; k++) {
			total += iv.done[k];
			wsum += weights[i][k];
		}
		for (k = 0; k < 4; k++) {
			double share = total ? 100.0 * (double)iv.done[k] /
					       (double)total : 0.0;
			double want = 100.0 * weights[i][k] / wsum;

			printf("%-8s %6u %6u %10llu %9.1f %9.1f\n",
			       k ? "" : label, k, weights[i][k],
			       (unsigned long long)iv.done[k], share, want);
			if (csv)
				fprintf(csv, "%s,%u,%u,%llu,%.2f,%.2f\n",
					label, k, weights[i][k],
					(unsigned long long)iv.done[k], share,
					want);
		}
		fflush(stdout);
	}
	sret = pwp_daemons_stop(&d, !ret);
	ret = ret ? ret : sret;
	sret = pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : sret;
}
