// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_clients.c - Figures 8 and 9 of the Pathways paper: many
 * clients sharing one island. Each client is a thread with its own
 * pw_client and its own slice of every device, issuing small
 * computations (x = all-reduce(max, x) + 1, OpByOp) with a fixed number
 * outstanding, so it is always backlogged: its oldest must finish before
 * it issues another.
 *   Figure 8: aggregate computations/s of 1, 2, 4, 8 clients (FIFO).
 *   Figure 9: the share of computations each of 4 clients completes
 *	under SHARE with weights 1:1:1:1 and 1:2:4:8 and a small window,
 *	next to the share the weights ask for.
 * Counts come from pw_client_stats() over a fixed interval, after a
 * warm-up that lasts until every client has completed a computation
 * (loaded its function). The interval is also cut in ticks of TICK_MS:
 * the median rate of the ticks is less disturbed by a stall of the
 * whole emulation (another guest on the host) than the mean.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pwbench.h"
#include "pwbench_paper.h"

#define MAX_CLIENTS	8
#define OUTSTANDING	16
#define WARMUP_MS	300
#define WARMUP_MAX_MS	30000
#define TICK_MS		100
#define SHARE_WINDOW	8

struct worker {
	unsigned int index;
	unsigned int weight;
	struct pw_client *cl;
	struct pw_slice *slice;
	struct pw_fn *fn;
	struct pw_buffer *x;
	struct pw_buffer *out[OUTSTANDING];
	atomic_bool *stop;
	pthread_t thread;
	bool started;
	int err;
	char msg[160];
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i, j;
	int ret = 0, wret;

	for (i = 0; !ret && !atomic_load(w->stop); i++) {
		j = i % OUTSTANDING;
		if (w->out[j]) {
			ret = pw_buffer_wait(w->out[j]);
			pw_buffer_put(w->out[j]);
			w->out[j] = NULL;
		}
		if (!ret)
			ret = pw_call(w->cl, w->fn, w->slice, &w->x, 1,
				      &w->out[j], 1);
	}
	if (ret)
		snprintf(w->msg, sizeof(w->msg), "%s", pw_last_error());
	for (j = 0; j < OUTSTANDING; j++) {
		if (!w->out[j])
			continue;
		wret = pw_buffer_wait(w->out[j]);
		if (wret && !ret) {
			ret = wret;
			snprintf(w->msg, sizeof(w->msg), "%s",
				 pw_last_error());
		}
		pw_buffer_put(w->out[j]);
	}
	w->err = ret;
	return NULL;
}

static int worker_setup(struct worker *w)
{
	struct pw_connect_opts opts = { .weight = w->weight };
	const float zero = 0.0f;
	struct pw_vset *vs;
	char name[16];
	int ret;

	snprintf(name, sizeof(name), "client%u", w->index);
	opts.name = name;
	ret = pw_connect(&opts, &w->cl);
	if (ret)
		return pwp_fail(ret, "connect");
	ret = pw_make_virtual_device_set(w->cl, &vs);
	if (!ret)
		ret = pw_add_slice(vs, (unsigned int)pw_num_devices(w->cl),
				   NULL, &w->slice);
	if (ret)
		return pwp_fail(ret, "a slice of every device");
	ret = pwp_step_fn(1, 0, &w->fn);
	if (ret)
		return ret;
	ret = pw_buffer_from_host(w->cl, w->slice, PWTPU_DT_F32, 1,
				  (const uint32_t[]){ 1 }, &zero, true, &w->x);
	return ret ? pwp_fail(ret, "input buffer") : 0;
}

static void sleep_ms(unsigned int ms)
{
	usleep(ms * 1000u);
}

/* Completed computations of each client, and of all of them. */
static uint64_t snapshot(struct worker *w, unsigned int n, uint64_t *done)
{
	struct pw_client_stats st;
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		pw_client_stats(w[i].cl, &st);
		done[i] = st.completed;
		total += st.completed;
	}
	return total;
}

/* Until every client completed one computation, at least WARMUP_MS. */
static int warm_up(struct worker *w, unsigned int n)
{
	uint64_t done[MAX_CLIENTS];
	unsigned int ms, i, ready;

	for (ms = 0; ms < WARMUP_MAX_MS; ms += 10) {
		sleep_ms(10);
		snapshot(w, n, done);
		for (i = 0, ready = 0; i < n; i++)
			ready += done[i] > 0;
		if (ready == n && ms >= WARMUP_MS)
			return 0;
	}
	fprintf(stderr, "pwbench: a client completed nothing in %d ms\n",
		WARMUP_MAX_MS);
	return -ETIMEDOUT;
}

/**
 * struct interval - what the clients did in the measured interval
 * @done: computations each client completed.
 * @ns: length of the interval.
 * @median_cps: median over its ticks of all clients' computations/s.
 */
struct interval {
	uint64_t done[MAX_CLIENTS];
	uint64_t ns;
	uint64_t median_cps;
};

static int measure(struct worker *w, unsigned int n, unsigned int ms,
		   struct interval *iv)
{
	unsigned int ticks = ms / TICK_MS ? ms / TICK_MS : 1, t, i;
	uint64_t before[MAX_CLIENTS], *rate = calloc(ticks, sizeof(*rate));
	uint64_t t0, prev_t, prev_total, total, now;
	struct pwbench_summary sum;

	if (!rate)
		return -ENOMEM;
	prev_total = snapshot(w, n, before);
	t0 = prev_t = pwbench_now_ns();
	for (t = 0; t < ticks; t++) {
		sleep_ms(t + 1 < ticks ? TICK_MS : ms - t * TICK_MS);
		total = snapshot(w, n, iv->done);
		now = pwbench_now_ns();
		rate[t] = (uint64_t)pwp_rate(total - prev_total, now - prev_t);
		prev_total = total;
		prev_t = now;
	}
	iv->ns = prev_t - t0;
	for (i = 0; i < n; i++)
		iv->done[i] -= before[i];
	pwbench_summarize(rate, ticks, &sum);
	iv->median_cps = sum.p50;
	free(rate);
	return 0;
}

/*
 * @n clients of @weights (NULL: all 1), under SHARE when @share, for
 * @interval_ms.
 */
static int run_clients(unsigned int n, const unsigned int *weights,
		       bool share, unsigned int interval_ms,
		       struct interval *iv)
{
	struct worker w[MAX_CLIENTS];
	struct pw_client_stats st;
	atomic_bool stop = false;
	unsigned int i;
	int ret = 0;

	memset(w, 0, sizeof(w));
	memset(iv, 0, sizeof(*iv));
	for (i = 0; i < n && !ret; i++) {
		w[i].index = i;
		w[i].weight = weights ? weights[i] : 1;
		w[i].stop = &stop;
		ret = worker_setup(&w[i]);
	}
	/* The policy is the island's: one client sets it for all. */
	if (!ret && share) {
		ret = pw_set_sched_policy(w[0].cl, PW_SCHED_SHARE,
					  SHARE_WINDOW);
		if (ret)
			pwp_fail(ret, "SHARE policy");
	}
	for (i = 0; i < n && !ret; i++) {
		ret = -pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
		w[i].started = !ret;
	}
	if (!ret)
		ret = warm_up(w, n);
	if (!ret)
		ret = measure(w, n, interval_ms, iv);
	atomic_store(&stop, true);
	for (i = 0; i < n; i++) {
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
		if (w[i].err && !ret) {
			ret = w[i].err;
			fprintf(stderr, "pwbench: client %u: %s (%s)\n", i,
				strerror(-ret), w[i].msg);
		}
		if (w[i].cl) {
			pw_client_stats(w[i].cl, &st);
			if (st.failed && !ret) {
				fprintf(stderr, "pwbench: client %u: %llu "
					"computations failed\n", i,
					(unsigned long long)st.failed);
				ret = -EIO;
			}
		}
	}
	for (i = 0; i < n; i++) {
		pw_fn_put(w[i].fn);
		pw_disconnect(w[i].cl);
	}
	return ret;
}

static int figure8(const struct pwp_opts *o)
{
	static const unsigned int counts[] = { 1, 2, 4, MAX_CLIENTS };
	uint64_t total, lo, hi;
	struct interval iv;
	unsigned int i, k;
	FILE *csv;
	int ret, cret;

	csv = pwp_csv_open(o, "fig8.csv",
			   "clients,total_cps,median_cps,min_client_cps,"
			   "max_client_cps", &ret);
	if (ret)
		return ret;
	printf("pwbench pathways clients (Figure 8): concurrent clients, "
	       "each a thread with its own\n"
	       "  pw_client and a slice of every device, issuing x = "
	       "all-reduce(max, x) + 1 OpByOp with\n"
	       "  %d outstanding; FIFO; computations/s over %u ms after "
	       "warm-up: all clients together\n"
	       "  (mean, and median of %d ms ticks), the slowest and the "
	       "fastest client\n\n", OUTSTANDING, o->interval_ms, TICK_MS);
	printf("%7s %12s %12s %12s %12s\n", "clients", "total /s",
	       "median /s", "slowest /s", "fastest /s");
	for (i = 0, ret = 0; i < sizeof(counts) / sizeof(counts[0]) && !ret;
	     i++) {
		ret = run_clients(counts[i], NULL, false, o->interval_ms, &iv);
		if (ret)
			break;
		total = 0;
		lo = UINT64_MAX;
		hi = 0;
		for (k = 0; k < counts[i]; k++) {
			total += iv.done[k];
			lo = iv.done[k] < lo ? iv.done[k] : lo;
			hi = iv.done[k] > hi ? iv.done[k] : hi;
		}
		printf("%7u %12.0f %12llu %12.0f %12.0f\n", counts[i],
		       pwp_rate(total, iv.ns),
		       (unsigned long long)iv.median_cps, pwp_rate(lo, iv.ns),
		       pwp_rate(hi, iv.ns));
		fflush(stdout);
		if (csv)
			fprintf(csv, "%u,%.1f,%llu,%.1f,%.1f\n", counts[i],
				pwp_rate(total, iv.ns),
				(unsigned long long)iv.median_cps,
				pwp_rate(lo, iv.ns), pwp_rate(hi, iv.ns));
	}
	cret = pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : cret;
}

static int figure9(const struct pwp_opts *o)
{
	static const unsigned int weights[][4] = {
		{ 1, 1, 1, 1 },
		{ 1, 2, 4, 8 },
	};
	unsigned int i, k, wsum;
	struct interval iv;
	char label[32];
	uint64_t total;
	FILE *csv;
	int ret, cret;

	csv = pwp_csv_open(o, "fig9.csv",
			   "weights,client,weight,completed,share,expected",
			   &ret);
	if (ret)
		return ret;
	printf("pwbench pathways clients (Figure 9): 4 backlogged clients "
	       "under SHARE (window %d);\n"
	       "  share of the computations completed in %u ms, next to "
	       "weight / sum of weights\n\n", SHARE_WINDOW, o->interval_ms);
	printf("%-8s %6s %6s %10s %9s %9s\n", "weights", "client", "weight",
	       "completed", "share %", "expect %");
	for (i = 0, ret = 0; i < 2 && !ret; i++) {
		ret = run_clients(4, weights[i], true, o->interval_ms, &iv);
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
	cret = pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : cret;
}

int pwp_clients(const struct pwp_opts *o)
{
	int ret = figure8(o);

	return ret ? ret : figure9(o);
}
