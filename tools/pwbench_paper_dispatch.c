// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_dispatch.c - Figure 7 of the Pathways paper: parallel
 * against sequential dispatch. A chain of L stages, each a tiny
 * computation (x + 1 over f32[1]) on its own 1-device slice of one
 * virtual device set (more stages than devices share devices), traced
 * into one program; each stage's input comes from the stage before, on
 * another device. A run is pw_program_run() until its result is ready:
 * parallel dispatch is one RUN whose parts the controller sends every
 * worker at once; sequential sends stage i+1 as its own RUN only once
 * stage i's run has ended, so no host or controller work hides behind
 * the devices'. Runs of the two alternate, and
 * which goes first alternates too, so drift in the emulation and what
 * one run leaves behind for the next touch both alike.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pwbench.h"
#include "pwbench_paper.h"

#define MAX_STAGES	16
#define WARMUP_RUNS	3

static const unsigned int stage_counts[] = { 1, 2, 4, 8, MAX_STAGES };

struct chain {
	unsigned int stages;
	unsigned int ndevs;	/* distinct devices the stages use */
	struct pw_client *cl;
	struct pw_slice *slice[MAX_STAGES];
	struct pw_fn *inc;
	struct pw_program *prog;
	struct pw_buffer *in;
};

static int inc_fn(struct pw_fn **fn)
{
	const uint32_t shape[1] = { 1 };
	struct pw_fn_builder *b = pw_fn_begin("inc");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	int ret;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1.0)));
	ret = pw_fn_build(b, fn);
	return ret ? pwp_fail(ret, "building x + 1") : 0;
}

static int trace(struct chain *c)
{
	const uint32_t shape[1] = { 1 };
	struct pw_buffer *v, *next;
	unsigned int i;
	int ret;

	ret = pw_program_begin(c->cl);
	if (!ret)
		ret = pw_program_arg(c->cl, c->slice[0], PWTPU_DT_F32, 1,
				     shape, &v);
	for (i = 0; !ret && i < c->stages; i++) {
		ret = pw_call(c->cl, c->inc, c->slice[i], &v, 1, &next, 1);
		if (!ret) {
			pw_buffer_put(v);
			v = next;
		}
	}
	if (!ret)
		ret = pw_program_end(c->cl, &v, 1, &c->prog);
	if (!ret)
		pw_buffer_put(v);
	return ret ? pwp_fail(ret, "tracing the chain") : 0;
}

static int chain_setup(struct chain *c, unsigned int stages)
{
	const struct pw_connect_opts opts = { .name = "dispatch" };
	bool used[PW_RM_MAX_DEVICES] = { false };
	const float zero = 0.0f;
	struct pw_vset *vs;
	unsigned int i;
	int ret, dev;

	memset(c, 0, sizeof(*c));
	c->stages = stages;
	ret = pw_connect(&opts, &c->cl);
	if (ret)
		return pwp_fail(ret, "connect");
	ret = pw_make_virtual_device_set(c->cl, &vs);
	for (i = 0; !ret && i < stages; i++) {
		ret = pw_add_slice(vs, 1, NULL, &c->slice[i]);
		dev = ret ? -1 : pw_slice_device(c->slice[i], 0);
		if (dev >= 0 && !used[dev]) {
			used[dev] = true;
			c->ndevs++;
		}
	}
	if (ret)
		return pwp_fail(ret, "1-device slices");
	ret = inc_fn(&c->inc);
	if (!ret)
		ret = trace(c);
	if (!ret) {
		ret = pw_buffer_from_host(c->cl, c->slice[0], PWTPU_DT_F32, 1,
					  (const uint32_t[]){ 1 }, &zero,
					  false, &c->in);
		if (!ret)
			ret = pw_buffer_wait(c->in);
		if (ret)
			pwp_fail(ret, "input buffer");
	}
	return ret;
}

static void chain_teardown(struct chain *c)
{
	pw_fn_put(c->inc);
	pw_disconnect(c->cl);
}

/* One run until its result is ready; *@ok: the result is 0 + stages. */
static int chain_run(struct chain *c, enum pw_dispatch d, uint64_t *ns,
		     bool *ok)
{
	struct pw_buffer *out;
	uint64_t t0 = pwbench_now_ns();
	float got = 0.0f;
	int ret;

	ret = pw_program_run(c->prog, d, &c->in, 1, &out, 1);
	if (ret)
		return pwp_fail(ret, "pw_program_run");
	ret = pw_buffer_wait(out);
	*ns = pwbench_now_ns() - t0;
	if (!ret && pwp_devices_compute())
		ret = pw_buffer_to_host(out, &got, sizeof(got));
	*ok = !pwp_devices_compute() || got == (float)c->stages;
	pw_buffer_put(out);
	return ret ? pwp_fail(ret, "chain result") : 0;
}

static int measure(const struct pwp_opts *o, unsigned int stages, FILE *csv)
{
	uint64_t *par = calloc(o->n, sizeof(*par));
	uint64_t *seq = calloc(o->n, sizeof(*seq));
	struct pwbench_summary ps, ss;
	struct chain c;
	bool ok = true, rok = true;
	uint64_t ns;
	unsigned int i;
	int ret = par && seq ? chain_setup(&c, stages) : -ENOMEM;

	for (i = 0; i < WARMUP_RUNS + o->n && !ret; i++) {
		bool timed = i >= WARMUP_RUNS;
		unsigned int k;

		for (k = 0; k < 2 && !ret; k++) {
			bool seq_now = (i + k) % 2;
			uint64_t *at = !timed ? &ns : seq_now ?
				       &seq[i - WARMUP_RUNS] :
				       &par[i - WARMUP_RUNS];

			ret = chain_run(&c, seq_now ? PW_DISPATCH_SEQUENTIAL :
					PW_DISPATCH_PARALLEL, at, &rok);
			ok = ok && rok;
		}
	}
	if (!ret && !pwbench_summarize(par, o->n, &ps) &&
	    !pwbench_summarize(seq, o->n, &ss)) {
		double ratio = (double)ss.p50 / (double)ps.p50;

		printf("%6u %7u %11.1f %11.1f %11.1f %11.1f %8.2f %6s\n",
		       stages, c.ndevs, ps.p50 / 1e3, ps.p99 / 1e3,
		       ss.p50 / 1e3, ss.p99 / 1e3, ratio, ok ? "ok" : "BAD");
		fflush(stdout);
		if (csv)
			fprintf(csv, "%u,%u,%.1f,%.1f,%.1f,%.1f,%.4f\n",
				stages, c.ndevs, ps.p50 / 1e3, ps.p99 / 1e3,
				ss.p50 / 1e3, ss.p99 / 1e3, ratio);
	}
	if (par && seq)
		chain_teardown(&c);
	free(par);
	free(seq);
	if (!ret && !ok) {
		fprintf(stderr, "pwbench: chain of %u stages: wrong result\n",
			stages);
		ret = -EIO;
	}
	return ret;
}

int pwp_dispatch(const struct pwp_opts *o)
{
	unsigned int i;
	FILE *csv;
	int ret, cret;

	csv = pwp_csv_open(o, "fig7.csv",
			   "stages,devices,parallel_p50_us,parallel_p99_us,"
			   "sequential_p50_us,sequential_p99_us,ratio", &ret);
	if (ret)
		return ret;
	printf("pwbench pathways dispatch (Figure 7): chains of L stages "
	       "x + 1, each on its own 1-device\n"
	       "  slice, one traced program; time of pw_program_run() until "
	       "the result is ready,\n"
	       "  %u runs of each dispatch (alternating, each first in turn), "
	       "after %u untimed;\n  ratio = sequential / parallel"
	       " median; check: the result is L\n\n", o->n, WARMUP_RUNS);
	printf("%6s %7s %11s %11s %11s %11s %8s %6s\n", "stages", "devices",
	       "par p50 us", "par p99 us", "seq p50 us", "seq p99 us",
	       "seq/par", "check");
	for (i = 0, ret = 0; i < sizeof(stage_counts) /
	     sizeof(stage_counts[0]) && !ret; i++)
		ret = measure(o, stage_counts[i], csv);
	cret = pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : cret;
}
