// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_train.c - Table 1 of the Pathways paper in shape: the
 * same model trained by the multi-controller baseline and by this
 * runtime, tokens per second side by side. The model is the small
 * Transformer of pwbench_transformer.h, data parallel over every device
 * of the island (a sequence of PWP_TF_T tokens per device per step, the
 * gradients all-reduced inside the step function):
 *   single  libpathways: one pw_call() of the step function a step on a
 *           slice of every device, each step's weights the previous
 *           step's results (futures: nothing waits until the last loss)
 *   multi   a process per device running the same function's image on
 *           its own device (pwbench_mc_train.c), PWP_CHAIN steps a
 *           submission
 * Each repetition starts from the same weights, runs -n steps and must
 * end with a loss below the host's at the start; the median is
 * reported.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"
#include "pwbench_paper.h"
#include "pwbench_transformer.h"

#define W	PWP_TF_NWEIGHTS
#define SEQ	(PWP_TF_T * PWP_TF_V)

struct train {
	struct pw_client *cl;
	struct pw_slice *slice;
	struct pw_fn *fn;
	unsigned int ndev;
	float *w[W];
	float *x, *y;
	double first_loss;	/* the host's, at the initial weights */
};

static int train_setup(struct train *t, unsigned int ndev)
{
	const float *cw[W];
	struct pw_vset *vs;
	unsigned int k, v;
	int ret;

	t->ndev = ndev;
	for (k = 0; k < W; k++) {
		t->w[k] = malloc(pwp_tf_elems(k) * sizeof(float));
		if (!t->w[k])
			return -ENOMEM;
		cw[k] = t->w[k];
	}
	t->x = calloc(ndev, SEQ * sizeof(float));
	t->y = calloc(ndev, SEQ * sizeof(float));
	if (!t->x || !t->y)
		return -ENOMEM;
	pwp_tf_init_weights(1, t->w);
	for (v = 0; v < ndev; v++) {
		pwp_tf_data(v, t->x + v * SEQ, t->y + v * SEQ);
		t->first_loss += pwp_tf_host_loss(cw, t->x + v * SEQ,
						  t->y + v * SEQ) / ndev;
	}
	ret = pw_connect(NULL, &t->cl);
	if (ret)
		return pwp_fail(ret, "connect");
	ret = pw_make_virtual_device_set(t->cl, &vs);
	if (!ret)
		ret = pw_add_slice(vs, ndev, NULL, &t->slice);
	return ret ? pwp_fail(ret, "a slice of every device") : 0;
}

static void train_teardown(struct train *t)
{
	unsigned int k;

	pw_disconnect(t->cl);	/* frees its slices and buffers */
	for (k = 0; k < W; k++)
		free(t->w[k]);
	free(t->x);
	free(t->y);
}

/* @n steps from the initial weights: *@ns, *@loss at the end. */
static int train_run(struct train *t, unsigned int n, uint64_t *ns,
		     float *loss)
{
	struct pw_buffer *in[W + 2], *out[W + 1] = { NULL };
	float *l = calloc(t->ndev, sizeof(*l));
	uint64_t t0;
	unsigned int k, step;
	int ret = pwp_tf_args(t->cl, t->slice, t->w, t->x, t->y, in);

	if (!ret && !l)
		ret = -ENOMEM;
	for (k = 0; k < W + 2 && !ret; k++)
		ret = pw_buffer_wait(in[k]);
	t0 = pwbench_now_ns();
	for (step = 0; step < n && !ret; step++) {
		if (out[PWP_TF_LOSS])
			pw_buffer_put(out[PWP_TF_LOSS]);
		ret = pw_call(t->cl, t->fn, t->slice, in, W + 2, out, W + 1);
		for (k = 0; !ret && k < W; k++) {
			pw_buffer_put(in[k]);
			in[k] = out[k];
		}
		if (ret)
			memset(out, 0, sizeof(out));
	}
	if (!ret)
		ret = pw_buffer_to_host(out[PWP_TF_LOSS], l,
					t->ndev * sizeof(*l));
	*ns = pwbench_now_ns() - t0;
	*loss = l ? l[0] : NAN;
	for (k = 0; k < W + 2; k++)
		if (in[k])
			pw_buffer_put(in[k]);
	if (out[PWP_TF_LOSS])
		pw_buffer_put(out[PWP_TF_LOSS]);
	free(l);
	return ret ? pwp_fail(ret, "a training step") : 0;
}

static double tokens_per_s(const struct train *t, unsigned int n,
			   const uint64_t *ns, unsigned int reps)
{
	struct pwbench_summary sum;

	if (pwbench_summarize(ns, reps, &sum))
		return 0.0;
	return pwp_rate((uint64_t)n * PWP_TF_T * t->ndev, sum.p50);
}

int pwp_train(const struct pwp_opts *o)
{
	struct pwp_multi_where w = { 0 };
	uint64_t *sns = calloc(o->reps, sizeof(*sns));
	uint64_t *mns = calloc(o->reps, sizeof(*mns));
	struct pwp_multi *mc = NULL;
	struct train t = { 0 };
	double single, multi;
	bool ok = true, mok;
	unsigned int island = pwp_island_size(), r;
	unsigned int ndev = o->devices ? o->devices : island;
	float loss = NAN;
	uint64_t ns;
	FILE *csv;
	int ret = sns && mns ? 0 : -ENOMEM;

	if (!island) {
		fprintf(stderr, "pwbench: no pwtpu devices (module loaded?)\n");
		ret = -ENOENT;
	} else if (ndev > island) {
		fprintf(stderr, "pwbench: --devices %u: the island has %u\n",
			ndev, island);
		ret = -EINVAL;
	}
	if (!ret)
		ret = pwp_tf_step_fn(ndev, &t.fn);
	if (ret) {
		free(sns);
		free(mns);
		return ret == -ENOENT ? ret : pwp_fail(ret, "the Transformer step");
	}
	csv = pwp_csv_open(o, "table1.csv",
			   "devices,tokens_per_step,steps,single_tokens_per_s,multi_tokens_per_s,ratio,single_loss,first_loss",
			   &ret);
	/* The processes are forked before libpathways starts threads. */
	w.ndev = ndev;
	w.train = t.fn;
	if (!ret)
		ret = pwp_multi_start(&w, o->n, 0, &mc);
	if (!ret)
		ret = train_setup(&t, ndev);
	if (!ret) {
		printf("pwbench pathways train (Table 1): a decoder block (attention and MLP,\n"
		       "  d=%d, vocabulary %d) trained data parallel, a sequence of %d tokens\n"
		       "  per device per step on each of %u devices, %u steps a repetition,\n"
		       "  median of %u; single = libpathways, a pw_call() a step; multi = a\n"
		       "  process per device running the same step function's image\n\n",
		       PWP_TF_D, PWP_TF_V, PWP_TF_T, ndev, o->n, o->reps);
		/* One untimed repetition of each: loads the function. */
		ret = train_run(&t, o->n, &ns, &loss);
	}
	if (!ret)
		ret = pwp_multi_run(mc, PWP_CHAINED, &ns, &mok);
	for (r = 0; r < o->reps && !ret; r++) {
		ret = train_run(&t, o->n, &sns[r], &loss);
		/* Devices that skip their work (timing=skip) learn nothing. */
		ok = ok && (!pwp_devices_compute() ||
			    (isfinite(loss) && loss < t.first_loss));
		if (!ret)
			ret = pwp_multi_run(mc, PWP_CHAINED, &mns[r], &mok);
		ok = ok && mok;
	}
	if (!ret && !ok) {
		fprintf(stderr, "pwbench: train: a loss did not fall below the first (%.4f): single %.4f\n",
			t.first_loss, loss);
		ret = -EIO;
	}
	if (!ret) {
		single = tokens_per_s(&t, o->n, sns, o->reps);
		multi = tokens_per_s(&t, o->n, mns, o->reps);
		printf("%-10s %16s %16s %12s %12s\n", "devices", "single tok/s",
		       "multi tok/s", "single/multi", "loss");
		printf("%-10u %16.0f %16.0f %12.2f %5.3f->%5.3f\n", ndev,
		       single, multi, multi > 0 ? single / multi : 0.0,
		       t.first_loss, loss);
		if (csv)
			fprintf(csv, "%u,%u,%u,%.1f,%.1f,%.4f,%.5f,%.5f\n", ndev,
				PWP_TF_T * ndev, o->n, single, multi,
				multi > 0 ? single / multi : 0.0, loss,
				t.first_loss);
	}
	pwp_multi_stop(mc);
	train_teardown(&t);
	pw_fn_put(t.fn);
	free(sns);
	free(mns);
	r = (unsigned int)pwp_csv_close(csv);
	printf("\n");
	return ret ? ret : (int)r;
}
