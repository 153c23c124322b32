// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_pipeline.c - Table 2 of the Pathways paper: one model
 * pipelined over S stages (GPipe) at S = 4, 8 and 16, on the same
 * devices. The model is PWP_PIPE_LAYERS layers, each x = x + 1 over a
 * micro-batch's activations (f32 [ROWS, WIDTH]) then compute: the DELAY
 * a layer of one micro-batch takes on one device (--layer-us), shared
 * by the devices of its stage, which split the micro-batch's rows (data
 * parallel inside a stage). With D devices in all, each of S stages
 * holds L/S layers on D/S devices, so a micro-batch spends L x layer-us
 * / D on every stage whatever S is: as in the paper, the devices and
 * the work stay the same and only the cut changes.
 *
 * A step is one run of a traced program of M micro-batches with
 * parallel dispatch: the pipeline fills and drains every step, so its
 * ideal time is (M + S - 1) stage times, and the bubble is
 * (S - 1) / (M + S - 1) of it. Reported per S: rows/s (the paper's
 * tokens/s), the ideal with the bubble, measured over ideal (what the
 * runtime costs beyond the bubble), and how many stage boundaries cross
 * from one host's island to another's: each stage is asked near the one
 * before (pw_add_slice_near()), so the stages fill an island before
 * they cross to the next, as the paper's pipelines keep stages within
 * an island but for its last. Every result is checked: input + L.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/rm.h>

#include "pwbench.h"
#include "pwbench_paper.h"

#define ROWS		64
#define WIDTH		64
#define MAX_STAGES	PWP_PIPE_LAYERS

struct pipe {
	struct pw_client *cl;
	unsigned int stages;
	unsigned int per_stage;		/* devices */
	struct pw_slice *slice[MAX_STAGES];
	struct pw_fn *fn;
	struct pw_program *prog;
	unsigned int crossings;
	unsigned int distinct;		/* devices the stages landed on */
};

/* How many different (host, device) pairs the stages' slices hold. */
static unsigned int distinct_devices(const struct pipe *p)
{
	int seen[MAX_STAGES * PW_RM_MAX_DEVICES][2];
	unsigned int n = 0, s, v, k;

	for (s = 0; s < p->stages; s++)
		for (v = 0; v < p->per_stage; v++) {
			int h = pw_slice_host(p->slice[s]);
			int d = pw_slice_device(p->slice[s], v);

			for (k = 0; k < n; k++)
				if (seen[k][0] == h && seen[k][1] == d)
					break;
			if (k == n && n < MAX_STAGES * PW_RM_MAX_DEVICES) {
				seen[n][0] = h;
				seen[n++][1] = d;
			}
		}
	return n;
}

/* One stage: L/S layers of x = x + 1 then @delay_ns of compute. */
static int stage_fn(unsigned int layers, uint32_t rows, uint64_t delay_ns,
		    struct pw_fn **fn)
{
	const uint32_t shape[2] = { rows, WIDTH };
	struct pw_fn_builder *b = pw_fn_begin("stage");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 2, shape);
	unsigned int l;
	int ret;

	for (l = 0; l < layers; l++) {
		x = pw_fn_binary(b, PWTPU_OP_ADD, x,
				 pw_fn_scalar(b, PWTPU_DT_F32, 1.0));
		if (delay_ns)
			pw_fn_delay(b, delay_ns);
	}
	pw_fn_result(b, x);
	ret = pw_fn_build(b, fn);
	return ret ? pwp_fail(ret, "building a stage") : 0;
}

/* The program: M micro-batches, each through every stage in turn. */
static int trace(struct pipe *p, unsigned int micro)
{
	const uint32_t shape[2] = { ROWS / p->per_stage, WIDTH };
	struct pw_buffer *out[PWP_PIPE_MAX_MICRO], *t, *y;
	unsigned int m, s;
	int ret = pw_program_begin(p->cl);

	for (m = 0; !ret && m < micro; m++) {
		ret = pw_program_arg(p->cl, p->slice[0], PWTPU_DT_F32, 2,
				     shape, &t);
		for (s = 0; !ret && s < p->stages; s++) {
			ret = pw_call(p->cl, p->fn, p->slice[s], &t, 1, &y, 1);
			if (!ret) {
				pw_buffer_put(t);
				t = y;
			}
		}
		if (!ret)
			out[m] = t;
	}
	if (!ret)
		ret = pw_program_end(p->cl, out, micro, &p->prog);
	for (m = 0; !ret && m < micro; m++)
		pw_buffer_put(out[m]);
	return ret ? pwp_fail(ret, "tracing the pipeline") : 0;
}

static int setup(struct pipe *p, const struct pwp_opts *o,
		 unsigned int devices, unsigned int stages)
{
	struct pw_connect_opts copts = { .address = o->dcn,
					 .name = "pipeline" };
	unsigned int s;
	struct pw_vset *vs;
	int ret;

	memset(p, 0, sizeof(*p));
	p->stages = stages;
	p->per_stage = devices / stages;
	ret = pw_connect(&copts, &p->cl);
	if (ret)
		return pwp_fail(ret, "connect");
	ret = pw_make_virtual_device_set(p->cl, &vs);
	for (s = 0; !ret && s < stages; s++) {
		ret = s ? pw_add_slice_near(vs, p->per_stage, NULL,
					    p->slice[s - 1], &p->slice[s]) :
			  pw_add_slice(vs, p->per_stage, NULL, &p->slice[s]);
		if (!ret && s &&
		    pw_slice_host(p->slice[s]) != pw_slice_host(p->slice[s - 1]))
			p->crossings++;
	}
	if (ret)
		return pwp_fail(ret, "a slice per stage");
	p->distinct = distinct_devices(p);
	return stage_fn(PWP_PIPE_LAYERS / stages, ROWS / p->per_stage,
			(uint64_t)o->layer_us * 1000 / p->per_stage, &p->fn);
}

static void teardown(struct pipe *p)
{
	pw_fn_put(p->fn);
	pw_program_free(p->prog);
	pw_disconnect(p->cl);	/* frees its slices and buffers */
}

/* One step: M micro-batches in, each checked out; *@ns its time. */
static int step(struct pipe *p, unsigned int micro, uint64_t *ns)
{
	struct pw_buffer *in[PWP_PIPE_MAX_MICRO] = { NULL };
	struct pw_buffer *out[PWP_PIPE_MAX_MICRO] = { NULL };
	const uint32_t shape[2] = { ROWS / p->per_stage, WIDTH };
	static float x[ROWS * WIDTH], y[ROWS * WIDTH];
	unsigned int m, i;
	uint64_t t0;
	int ret = 0;

	for (m = 0; !ret && m < micro; m++) {
		for (i = 0; i < ROWS * WIDTH; i++)
			x[i] = (float)(m * 100 + i % 97);
		ret = pw_buffer_from_host(p->cl, p->slice[0], PWTPU_DT_F32,
					  2, shape, x, false, &in[m]);
		if (!ret)
			ret = pw_buffer_wait(in[m]);
	}
	t0 = pwbench_now_ns();
	if (!ret)
		ret = pw_program_run(p->prog, PW_DISPATCH_PARALLEL, in, micro,
				     out, micro);
	for (m = 0; !ret && m < micro; m++)
		ret = pw_buffer_wait(out[m]);
	*ns = pwbench_now_ns() - t0;
	for (m = 0; !ret && m < micro; m++) {
		ret = pw_buffer_to_host(out[m], y, sizeof(y));
		for (i = 0; !ret && pwp_devices_compute() &&
		     i < ROWS * WIDTH; i++)
			if (y[i] != (float)(m * 100 + i % 97 + PWP_PIPE_LAYERS))
				ret = -EIO;
	}
	for (m = 0; m < micro; m++) {
		pw_buffer_put(in[m]);
		pw_buffer_put(out[m]);
	}
	if (ret == -EIO)
		fprintf(stderr, "pwbench: %u stages: a micro-batch came out wrong\n",
			p->stages);
	else if (ret)
		pwp_fail(ret, "a pipeline step");
	return ret;
}

static int run_stages(const struct pwp_opts *o, unsigned int devices,
		      unsigned int stages, FILE *csv, double *first_rate)
{
	unsigned int micro = o->micro, r;
	uint64_t *ns = calloc(o->reps, sizeof(*ns)), warm;
	/* A stage's time per micro-batch: L x layer-us / D, in seconds. */
	double stage_s = (double)PWP_PIPE_LAYERS * o->layer_us / devices /
			 1e6;
	double ideal_s = (micro + stages - 1) * stage_s, rate, ideal;
	double bubble = (double)(stages - 1) / (micro + stages - 1);
	struct pwbench_summary sum;
	struct pipe p;
	int ret = ns ? setup(&p, o, devices, stages) : -ENOMEM;

	if (!ret)
		ret = trace(&p, micro);
	if (!ret)
		ret = step(&p, micro, &warm);	/* loads the functions */
	for (r = 0; !ret && r < o->reps; r++)
		ret = step(&p, micro, &ns[r]);
	if (!ret)
		ret = pwbench_summarize(ns, o->reps, &sum);
	if (!ret) {
		rate = micro * ROWS / (sum.p50 / 1e9);
		ideal = micro * ROWS / ideal_s;
		if (!*first_rate)
			*first_rate = rate;
		printf("%6u %7u %6u %8.1f %11.1f %12.0f %12.0f %9.2f %8.3f %9u %5u\n",
		       stages, p.per_stage, micro, 100 * bubble,
		       sum.p50 / 1e6, rate, ideal, rate / ideal,
		       rate / *first_rate, p.crossings, p.distinct);
		fflush(stdout);
		if (csv)
			fprintf(csv, "%u,%u,%u,%.4f,%.3f,%.1f,%.1f,%.4f,%u\n",
				stages, p.per_stage, micro, bubble,
				sum.p50 / 1e6, rate, ideal, rate / ideal,
				p.crossings);
	}
	if (ns)
		teardown(&p);
	free(ns);
	return ret;
}

static int devices_seen(const struct pwp_opts *o)
{
	struct pw_connect_opts copts = { .address = o->dcn };
	struct pw_client *cl;
	int n, ret = pw_connect(&copts, &cl);

	if (ret)
		return pwp_fail(ret, "connect");
	n = pw_num_devices(cl);
	pw_disconnect(cl);
	return n;
}

int pwp_pipeline(const struct pwp_opts *o)
{
	int devices = devices_seen(o), ret = 0, cret;
	double first = 0;
	unsigned int i, s;
	FILE *csv;

	if (devices <= 0)
		return devices ? devices : -ENODEV;
	for (i = 0; i < o->nstages; i++) {
		s = o->stages[i];
		if (PWP_PIPE_LAYERS % s || (unsigned int)devices % s ||
		    ROWS % (devices / s)) {
			fprintf(stderr, "pwbench: %u stages: must divide the %u layers and the %d devices\n",
				s, PWP_PIPE_LAYERS, devices);
			return -EINVAL;
		}
	}
	csv = pwp_csv_open(o, "table2.csv",
			   "stages,devices_per_stage,micro_batches,bubble,"
			   "step_ms,rows_per_s,ideal_rows_per_s,"
			   "measured_over_ideal,island_crossings", &ret);
	if (ret)
		return ret;
	printf("pwbench pathways pipeline (Table 2): %u layers over S stages "
	       "of %d devices / S,\n"
	       "  %u micro-batches of [%d, %d] f32 per step (one run, "
	       "parallel dispatch), each layer\n"
	       "  x + 1 then %u us of compute per micro-batch shared by its "
	       "stage's devices;\n"
	       "  median of %u steps; ideal = with the bubble (S-1)/(M+S-1), "
	       "nothing else\n\n", PWP_PIPE_LAYERS, devices, o->micro, ROWS,
	       WIDTH, o->layer_us, o->reps);
	printf("%6s %7s %6s %8s %11s %12s %12s %9s %8s %9s %5s\n", "stages",
	       "devices", "micro", "bubble %", "step ms", "rows/s",
	       "ideal/s", "of ideal", "vs first", "crossings", "used");
	for (i = 0; i < o->nstages && !ret; i++)
		ret = run_stages(o, (unsigned int)devices, o->stages[i], csv,
				 &first);
	cret = pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : cret;
}
