// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_tput.c - Figure 5 of the Pathways paper: how many small
 * computations a second one controller gets through, by how they are
 * handed over. A computation is x = all-reduce(max, x) + 1 over f32[1]
 * on every device of the island (one slice of all of them):
 *   OpByOp   each computation its own pw_call(), asynchronous; only the
 *            last is waited for
 *   Chained  a traced program of PWP_CHAIN calls, run again and again
 *   Fused    one function of PWP_CHAIN steps, called again and again
 * next to the same programs submitted by one process per device
 * (pwbench_paper_multi.c). Each repetition starts from x = 0 and checks
 * x = n on every device at the end.
 *
 * Figure 6 (parity) repeats it with every step also computing for a
 * while (the device's DELAY), from small to large, until the single
 * controller's rate is within PWP_PARITY of the baseline's: what it
 * costs per computation is then hidden behind the computation.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

#include "../runtime/dcn/wdev.h"

#include "pwbench.h"
#include "pwbench_paper.h"

const char *const pwp_mode_name[PWP_NR_MODES] = {
	[PWP_OPBYOP] = "OpByOp",
	[PWP_CHAINED] = "Chained",
	[PWP_FUSED] = "Fused",
};

/* The single controller's side: one client, one slice of all devices. */
struct single {
	struct pw_client *cl;
	struct pw_slice *slice;
	unsigned int ndev;
	struct pw_fn *step;
	struct pw_fn *fused;
	struct pw_program *chain;
};

/* PWP_CHAIN calls of the step function, traced into one program. */
static int trace_chain(struct single *s)
{
	const uint32_t shape[1] = { 1 };
	struct pw_buffer *v, *next;
	unsigned int i;
	int ret;

	ret = pw_program_begin(s->cl);
	if (!ret)
		ret = pw_program_arg(s->cl, s->slice, PWTPU_DT_F32, 1, shape,
				     &v);
	for (i = 0; !ret && i < PWP_CHAIN; i++) {
		ret = pw_call(s->cl, s->step, s->slice, &v, 1, &next, 1);
		if (!ret) {
			pw_buffer_put(v);
			v = next;
		}
	}
	if (!ret)
		ret = pw_program_end(s->cl, &v, 1, &s->chain);
	if (!ret)
		pw_buffer_put(v);
	return ret ? pwp_fail(ret, "tracing the chained program") : 0;
}

static int single_setup(struct single *s, unsigned int ndev,
			uint64_t delay_ns)
{
	struct pw_vset *vs;
	int ret = pw_connect(NULL, &s->cl);

	if (ret)
		return pwp_fail(ret, "connect");
	s->ndev = ndev;
	ret = pw_make_virtual_device_set(s->cl, &vs);
	if (!ret)
		ret = pw_add_slice(vs, s->ndev, NULL, &s->slice);
	if (ret)
		return pwp_fail(ret, "a slice of every device");
	ret = pwp_step_fn(1, delay_ns, &s->step);
	if (!ret)
		ret = pwp_step_fn(PWP_CHAIN, delay_ns, &s->fused);
	if (!ret)
		ret = trace_chain(s);
	return ret;
}

static void single_teardown(struct single *s)
{
	pw_fn_put(s->step);
	pw_fn_put(s->fused);
	/* Disconnecting frees the program, slice and buffers. */
	pw_disconnect(s->cl);
}

/* x = f(x): the next computation(s) of @mode, x replaced by the result. */
static int single_issue(struct single *s, enum pwp_mode mode,
			struct pw_buffer **x)
{
	struct pw_buffer *y;
	int ret;

	switch (mode) {
	case PWP_OPBYOP:
		ret = pw_call(s->cl, s->step, s->slice, x, 1, &y, 1);
		break;
	case PWP_CHAINED:
		ret = pw_program_run(s->chain, PW_DISPATCH_PARALLEL, x, 1,
				     &y, 1);
		break;
	default:
		ret = pw_call(s->cl, s->fused, s->slice, x, 1, &y, 1);
		break;
	}
	if (ret)
		return pwp_fail(ret, pwp_mode_name[mode]);
	pw_buffer_put(*x);
	*x = y;
	return 0;
}

/* @n computations of @mode from x = 0; *@ok: every device ends at n. */
static int single_run(struct single *s, enum pwp_mode mode, unsigned int n,
		      uint64_t *ns, bool *ok)
{
	const float zero = 0.0f;
	unsigned int i, step = mode == PWP_OPBYOP ? 1 : PWP_CHAIN;
	struct pw_buffer *x;
	uint64_t t0;
	float *got;
	int ret;

	ret = pw_buffer_from_host(s->cl, s->slice, PWTPU_DT_F32, 1,
				  (const uint32_t[]){ 1 }, &zero, true, &x);
	if (!ret)
		ret = pw_buffer_wait(x);
	if (ret)
		return pwp_fail(ret, "input buffer");
	t0 = pwbench_now_ns();
	for (i = 0; i < n && !ret; i += step)
		ret = single_issue(s, mode, &x);
	if (!ret) {
		ret = pw_buffer_wait(x);
		*ns = pwbench_now_ns() - t0;
		if (ret)
			pwp_fail(ret, pwp_mode_name[mode]);
	}
	got = calloc(s->ndev, sizeof(*got));
	*ok = true;
	if (!ret && got && pwp_devices_compute() &&
	    !pw_buffer_to_host(x, got, s->ndev * sizeof(*got)))
		for (i = 0; i < s->ndev; i++)
			*ok = *ok && got[i] == (float)n;
	free(got);
	pw_buffer_put(x);
	return ret;
}

/* Median time of @ns[@reps] as computations per second. */
static double median_rate(const uint64_t *ns, unsigned int reps,
			  unsigned int n)
{
	struct pwbench_summary sum;

	if (pwbench_summarize(ns, reps, &sum))
		return 0.0;
	return pwp_rate(n, sum.p50);
}

/*
 * Median computations/s of @mode, single-controller and (with @mc)
 * multi-controller, over @o->reps repetitions after an untimed one;
 * -EIO when a result is wrong.
 */
static int measure(const struct pwp_opts *o, struct single *s,
		   struct pwp_multi *mc, enum pwp_mode mode,
		   double *single_cps, double *multi_cps)
{
	uint64_t *sns = calloc(o->reps, sizeof(*sns));
	uint64_t *mns = calloc(o->reps, sizeof(*mns));
	bool ok = true, sok = true, mok = true;
	uint64_t ns;
	unsigned int r;
	int ret = sns && mns ? 0 : -ENOMEM;

	/* One untimed repetition of each first: loads and warms caches. */
	if (!ret && s)
		ret = single_run(s, mode, o->n, &ns, &sok);
	if (!ret && mc)
		ret = pwp_multi_run(mc, mode, &ns, &mok);
	ok = sok && mok;
	for (r = 0; r < o->reps && !ret; r++) {
		if (s)
			ret = single_run(s, mode, o->n, &sns[r], &sok);
		if (!ret && mc)
			ret = pwp_multi_run(mc, mode, &mns[r], &mok);
		ok = ok && sok && mok;
	}
	*single_cps = 0.0;
	*multi_cps = 0.0;
	if (!ret) {
		if (s)
			*single_cps = median_rate(sns, o->reps, o->n);
		if (mc)
			*multi_cps = median_rate(mns, o->reps, o->n);
	}
	free(sns);
	free(mns);
	if (!ret && !ok) {
		fprintf(stderr, "pwbench: %s: a result is wrong\n",
			pwp_mode_name[mode]);
		ret = -EIO;
	}
	return ret;
}

static double ratio(double single_cps, double multi_cps)
{
	return multi_cps > 0 ? single_cps / multi_cps : 0.0;
}

static int run_mode(const struct pwp_opts *o, struct single *s,
		    struct pwp_multi *mc, enum pwp_mode mode, FILE *csv)
{
	double single_cps, multi_cps;
	int ret = measure(o, s, mc, mode, &single_cps, &multi_cps);

	if (ret)
		return ret;
	if (!s)
		printf("%-8s %14s %14.0f %12s\n", pwp_mode_name[mode], "-",
		       multi_cps, "-");
	else if (mc)
		printf("%-8s %14.0f %14.0f %12.2f\n", pwp_mode_name[mode],
		       single_cps, multi_cps, ratio(single_cps, multi_cps));
	else
		printf("%-8s %14.0f %14s %12s\n", pwp_mode_name[mode],
		       single_cps, "-", "-");
	fflush(stdout);
	if (csv)
		fprintf(csv, "%s,%.1f,%.1f,%.4f\n", pwp_mode_name[mode],
			single_cps, multi_cps, ratio(single_cps, multi_cps));
	return 0;
}

/* The baseline's simulated hosts' island, from @o->sim. */
static int sim_island(const struct pwp_opts *o, struct pw_wdev_sim_cfg *cfg,
		      struct pwp_multi_where *where)
{
	char err[256];
	bool sim;

	if (pw_wdev_parse(o->sim, cfg, &sim, err, sizeof(err))) {
		fprintf(stderr, "pwbench: --sim %s\n", err);
		return -EINVAL;
	}
	if (!sim) {
		fprintf(stderr, "pwbench: --sim wants simulated devices, sim:MESH,...\n");
		return -EINVAL;
	}
	if (o->devices && o->devices != cfg->ndev) {
		fprintf(stderr, "pwbench: --devices %u: the simulated island has %u\n",
			o->devices, cfg->ndev);
		return -EINVAL;
	}
	where->ndev = cfg->ndev;
	where->sim = cfg;
	where->hosts = o->sim_hosts;
	return 0;
}

int pwp_throughput(const struct pwp_opts *o)
{
	struct pwp_multi_where where = { 0 };
	struct pw_wdev_sim_cfg sim_cfg;
	struct pwp_multi *mc = NULL;
	struct single s = { 0 };
	unsigned int ndev = o->sim ? 0 : pwp_island_size();
	uint64_t delay_ns;
	FILE *csv;
	int ret, mode, cret;

	if (o->sim) {
		ret = sim_island(o, &sim_cfg, &where);
		if (ret)
			return ret;
		ndev = where.ndev;
	} else if (!ndev) {
		fprintf(stderr, "pwbench: no pwtpu devices (module loaded?)\n");
		return -ENOENT;
	}
	if (o->devices > ndev) {
		fprintf(stderr, "pwbench: --devices %u: the island has %u\n",
			o->devices, ndev);
		return -EINVAL;
	}
	if (o->devices)
		ndev = o->devices;
	if (!o->sim)
		where.ndev = ndev;
	if (o->ndelays > 1) {
		fprintf(stderr, "pwbench: throughput takes one --delays value (a compute time per step)\n");
		return -EINVAL;
	}
	delay_ns = o->ndelays ? o->delays_us[0] * 1000ull : 0;
	csv = pwp_csv_open(o, "fig5.csv", "mode,single_cps,multi_cps,ratio",
			   &ret);
	if (ret)
		return ret;
	/* The processes are forked before libpathways starts threads. */
	if (o->multi) {
		ret = pwp_multi_start(&where, o->n, delay_ns, &mc);
		if (ret) {
			fprintf(stderr, "pwbench: multi-controller baseline: "
				"%s\n", strerror(-ret));
			pwp_csv_close(csv);
			return ret;
		}
	}
	if (!o->only_multi)
		ret = single_setup(&s, ndev, delay_ns);
	if (!ret) {
		printf("pwbench pathways throughput (Figure 5): x = "
		       "all-reduce(max, x) + 1, then %llu us of compute,\n"
		       "  f32[1] on each of %u devices\n"
		       "%s"
		       "  computations/s: median of %u repetitions of %u "
		       "computations (Chained, Fused: %u per\n"
		       "  program run or call); single-controller = "
		       "libpathways, multi-controller = one process\n"
		       "  per device submitting the same programs to its "
		       "device; check: every device ends at x = %u\n\n",
		       (unsigned long long)(delay_ns / 1000), ndev,
		       o->sim ? "  of each simulated host; the multi-controller "
				"process of a host drives its island\n" : "",
		       o->reps,
		       o->n, PWP_CHAIN, o->n);
		printf("%-8s %14s %14s %12s\n", "mode", "single /s",
		       "multi /s", "single/multi");
	}
	for (mode = 0; mode < PWP_NR_MODES && !ret; mode++)
		ret = run_mode(o, o->only_multi ? NULL : &s, mc,
			       (enum pwp_mode)mode, csv);
	single_teardown(&s);
	pwp_multi_stop(mc);
	cret = pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : cret;
}

/*
 * Figure 6 at one compute time per step: the modes still in @todo, each
 * taken out of it once at parity.
 */
static int parity_at(const struct pwp_opts *o, unsigned int ndev,
		     unsigned int delay_us, bool *todo, FILE *csv)
{
	const struct pwp_multi_where where = { .ndev = ndev };
	struct pwp_multi *mc = NULL;
	struct single s = { 0 };
	double single_cps, multi_cps;
	int mode, ret;

	ret = pwp_multi_start(&where, o->n, delay_us * 1000ull, &mc);
	if (ret) {
		fprintf(stderr, "pwbench: multi-controller baseline: %s\n",
			strerror(-ret));
		return ret;
	}
	ret = single_setup(&s, ndev, delay_us * 1000ull);
	for (mode = 0; mode < PWP_NR_MODES && !ret; mode++) {
		if (!todo[mode])
			continue;
		ret = measure(o, &s, mc, (enum pwp_mode)mode, &single_cps,
			      &multi_cps);
		if (ret)
			break;
		printf("%8u %-8s %14.1f %14.1f %12.2f\n", delay_us,
		       pwp_mode_name[mode], single_cps, multi_cps,
		       ratio(single_cps, multi_cps));
		fflush(stdout);
		if (csv)
			fprintf(csv, "%u,%s,%.2f,%.2f,%.4f\n", delay_us,
				pwp_mode_name[mode], single_cps, multi_cps,
				ratio(single_cps, multi_cps));
		if (ratio(single_cps, multi_cps) >= PWP_PARITY)
			todo[mode] = false;
	}
	single_teardown(&s);
	pwp_multi_stop(mc);
	return ret;
}

int pwp_parity(const struct pwp_opts *o)
{
	bool todo[PWP_NR_MODES] = { true, true, true };
	unsigned int ndev = pwp_island_size(), i, first[PWP_NR_MODES];
	FILE *csv;
	int ret, mode, cret;

	if (!ndev) {
		fprintf(stderr, "pwbench: no pwtpu devices (module loaded?)\n");
		return -ENOENT;
	}
	csv = pwp_csv_open(o, "fig6.csv",
			   "delay_us,mode,single_cps,multi_cps,ratio", &ret);
	if (ret)
		return ret;
	printf("pwbench pathways parity (Figure 6): x = all-reduce(max, x) + 1, "
	       "then DELAY us of compute,\n"
	       "  f32[1] on each of %u devices; computations/s, median of %u "
	       "repetitions of %u computations;\n"
	       "  each mode until single/multi >= %.2f\n\n",
	       ndev, o->reps, o->n, PWP_PARITY);
	printf("%8s %-8s %14s %14s %12s\n", "delay us", "mode", "single /s",
	       "multi /s", "single/multi");
	ret = 0;
	for (mode = 0; mode < PWP_NR_MODES; mode++)
		first[mode] = 0;
	for (i = 0; i < o->ndelays && !ret; i++) {
		bool before[PWP_NR_MODES];

		memcpy(before, todo, sizeof(before));
		if (!memchr(before, true, sizeof(before)))
			break;
		ret = parity_at(o, ndev, o->delays_us[i], todo, csv);
		for (mode = 0; mode < PWP_NR_MODES; mode++)
			if (before[mode] && !todo[mode])
				first[mode] = o->delays_us[i];
	}
	cret = pwp_csv_close(csv);
	if (ret)
		return ret;
	printf("\nparity (single/multi >= %.2f):", PWP_PARITY);
	for (mode = 0; mode < PWP_NR_MODES; mode++) {
		if (todo[mode])
			printf(" %s not by %u us;", pwp_mode_name[mode],
			       o->delays_us[o->ndelays - 1]);
		else
			printf(" %s at %u us;", pwp_mode_name[mode],
			       first[mode]);
	}
	printf("\n\n");
	return cret;
}
