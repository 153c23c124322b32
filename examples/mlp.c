// SPDX-License-Identifier: GPL-2.0
/*
 * mlp.c - data-parallel training of a small MLP: each device holds a
 * shard of the batch and a replica of the weights. A step is a program:
 * on each slice, one compiled function computes the loss and the
 * gradients by hand-written backpropagation and all-reduces them over
 * the slice; another applies SGD with the gradients of every slice, so
 * that the slices' sums cross between them inside the program (over the
 * DCN when the slices are on two hosts' islands). The step is traced
 * once and run once per step; the weights stay in HBM between steps.
 *
 * With no address: one slice of every device of this host. With
 * --connect (a pathwaysd cluster, also PATHWAYS_CONTROLLER): two slices
 * of half the devices each, which the controller places on the least
 * loaded islands; the same training is then run again on one of them
 * alone, with twice the rows per device, and every step's loss must
 * match to 1e-6 relative. The first step's loss is checked against the
 * host's own forward pass, and the loss must fall to under half its
 * first value: exit status 1 otherwise.
 *
 * Usage: mlp [--connect IP:PORT] [steps]   (default 30)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/pathways.h>

#define D	8	/* inputs */
#define H	16	/* hidden units */
#define O	2	/* outputs */
#define B	16	/* rows per device */
#define LR	0.5

/* A fixed, portable pseudo-random sequence in [-1, 1). */
static float rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

#define MAX_SLICES	2
#define MAX_STEPS	200

/*
 * The gradients of @rows rows a device over a slice of @n devices,
 * summed over it, and the loss: mean squared error of the whole batch
 * (@scale: one over its elements), each device's part summed over the
 * slice. The function comes in as JAX hands it over: the StableHLO that
 * jax.jit(jax.pmap(step, axis_name="d")).lower(...).as_text() prints
 * for a step that computes the loss and its gradients (the backward
 * pass written out, as jax.value_and_grad derives it) and psums them
 * over the devices ("stablehlo.all_reduce"), for these shapes.
 */
#define MLP_MODULE_MAX	8192

static const char *const jax_step =
"module @jit_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = %1$u : i32} {\n"
"  func.func public @main(%%w1: tensor<%3$ux%4$uxf32>, %%w2: tensor<%4$ux%5$uxf32>, %%x: tensor<%2$ux%3$uxf32>, %%t: tensor<%2$ux%5$uxf32>) -> (tensor<%3$ux%4$uxf32> {jax.result_info = \"[0]\"}, tensor<%4$ux%5$uxf32> {jax.result_info = \"[1]\"}, tensor<f32> {jax.result_info = \"[2]\"}) {\n"
"    %%0 = stablehlo.dot_general %%x, %%w1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<%2$ux%3$uxf32>, tensor<%3$ux%4$uxf32>) -> tensor<%2$ux%4$uxf32>\n"
"    %%1 = stablehlo.tanh %%0 : tensor<%2$ux%4$uxf32>\n"
"    %%2 = stablehlo.dot_general %%1, %%w2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<%2$ux%4$uxf32>, tensor<%4$ux%5$uxf32>) -> tensor<%2$ux%5$uxf32>\n"
"    %%3 = stablehlo.subtract %%2, %%t : tensor<%2$ux%5$uxf32>\n"
"    %%4 = stablehlo.multiply %%3, %%3 : tensor<%2$ux%5$uxf32>\n"
"    %%cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
"    %%5 = stablehlo.reduce(%%4 init: %%cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<%2$ux%5$uxf32>, tensor<f32>) -> tensor<f32>\n"
"    %%6 = \"stablehlo.all_reduce\"(%%5) <{replica_groups = dense<[[%6$s]]> : tensor<1x%1$uxi64>}> ({\n"
"    ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):\n"
"      %%s = stablehlo.add %%a, %%b : tensor<f32>\n"
"      stablehlo.return %%s : tensor<f32>\n"
"    }) : (tensor<f32>) -> tensor<f32>\n"
"    %%cst_0 = stablehlo.constant dense<%7$.9e> : tensor<f32>\n"
"    %%7 = stablehlo.multiply %%6, %%cst_0 : tensor<f32>\n"
"    %%cst_1 = stablehlo.constant dense<%8$.9e> : tensor<f32>\n"
"    %%8 = stablehlo.broadcast_in_dim %%cst_1, dims = [] : (tensor<f32>) -> tensor<%2$ux%5$uxf32>\n"
"    %%9 = stablehlo.multiply %%3, %%8 : tensor<%2$ux%5$uxf32>\n"
"    %%10 = stablehlo.dot_general %%1, %%9, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<%2$ux%4$uxf32>, tensor<%2$ux%5$uxf32>) -> tensor<%4$ux%5$uxf32>\n"
"    %%11 = stablehlo.dot_general %%9, %%w2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<%2$ux%5$uxf32>, tensor<%4$ux%5$uxf32>) -> tensor<%2$ux%4$uxf32>\n"
"    %%12 = stablehlo.multiply %%1, %%1 : tensor<%2$ux%4$uxf32>\n"
"    %%cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
"    %%13 = stablehlo.broadcast_in_dim %%cst_2, dims = [] : (tensor<f32>) -> tensor<%2$ux%4$uxf32>\n"
"    %%14 = stablehlo.subtract %%13, %%12 : tensor<%2$ux%4$uxf32>\n"
"    %%15 = stablehlo.multiply %%11, %%14 : tensor<%2$ux%4$uxf32>\n"
"    %%16 = stablehlo.dot_general %%x, %%15, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<%2$ux%3$uxf32>, tensor<%2$ux%4$uxf32>) -> tensor<%3$ux%4$uxf32>\n"
"    %%17 = \"stablehlo.all_reduce\"(%%16) <{replica_groups = dense<[[%6$s]]> : tensor<1x%1$uxi64>}> ({\n"
"    ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):\n"
"      %%s = stablehlo.add %%a, %%b : tensor<f32>\n"
"      stablehlo.return %%s : tensor<f32>\n"
"    }) : (tensor<%3$ux%4$uxf32>) -> tensor<%3$ux%4$uxf32>\n"
"    %%18 = \"stablehlo.all_reduce\"(%%10) <{replica_groups = dense<[[%6$s]]> : tensor<1x%1$uxi64>}> ({\n"
"    ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):\n"
"      %%s = stablehlo.add %%a, %%b : tensor<f32>\n"
"      stablehlo.return %%s : tensor<f32>\n"
"    }) : (tensor<%4$ux%5$uxf32>) -> tensor<%4$ux%5$uxf32>\n"
"    return %%17, %%18, %%7 : tensor<%3$ux%4$uxf32>, tensor<%4$ux%5$uxf32>, tensor<f32>\n"
"  }\n"
"}\n";

static struct pw_fn *grad_fn(unsigned int n, uint32_t rows, double scale)
{
	char *text = malloc(MLP_MODULE_MAX), ids[4 * PW_RM_MAX_DEVICES];
	struct pw_fn *fn = NULL;
	unsigned int i;
	size_t at = 0;
	int len;

	if (!text)
		return NULL;
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(ids + at, sizeof(ids) - at, "%s%u",
				       i ? ", " : "", i);
	/* The constants as JAX prints them: digits enough for their f32. */
	len = snprintf(text, MLP_MODULE_MAX, jax_step, n, rows, D, H, O, ids,
		       (double)(float)scale, (double)(float)(2 * scale));
	if (len < 0 || len >= MLP_MODULE_MAX)
		fprintf(stderr, "mlp: grad: the module is over %d bytes\n",
			MLP_MODULE_MAX);
	else if (pw_fn_from_stablehlo(text, (size_t)len, NULL, &fn))
		fprintf(stderr, "mlp: grad: %s\n", pw_last_error());
	free(text);
	return fn;
}

/*
 * SGD with the gradients of @k slices, added in slice order: every
 * slice computes the same sums, so the replicas stay equal bit for bit.
 */
static struct pw_fn *sgd_fn(unsigned int k)
{
	const uint32_t sw[2][2] = { { D, H }, { H, O } };
	struct pw_fn_builder *b = pw_fn_begin("sgd");
	pw_val w[2], g[2] = { -1, -1 };
	struct pw_fn *fn = NULL;
	unsigned int i, j;

	for (j = 0; j < 2; j++)
		w[j] = pw_fn_param(b, PWTPU_DT_F32, 2, sw[j]);
	for (i = 0; i < k; i++)
		for (j = 0; j < 2; j++) {
			pw_val p = pw_fn_param(b, PWTPU_DT_F32, 2, sw[j]);

			g[j] = i ? pw_fn_binary(b, PWTPU_OP_ADD, g[j], p) : p;
		}
	for (j = 0; j < 2; j++)
		pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_SUB, w[j],
					     pw_fn_binary(b, PWTPU_OP_MUL, g[j],
							  pw_fn_scalar(b, PWTPU_DT_F32,
								       LR))));
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "mlp: sgd: %s\n", pw_last_error());
	return fn;
}

/* The host's forward pass: mean squared error of the whole batch. */
static double host_loss(unsigned int ndev, const float *x, const float *t,
			const float *w1, const float *w2)
{
	double sum = 0;
	unsigned int r, i, j, k;

	for (r = 0; r < ndev * B; r++) {
		float hid[H];

		for (j = 0; j < H; j++) {
			double z = 0;

			for (i = 0; i < D; i++)
				z += (double)x[r * D + i] * w1[i * H + j];
			hid[j] = (float)tanh(z);
		}
		for (k = 0; k < O; k++) {
			double y = 0;

			for (j = 0; j < H; j++)
				y += (double)hid[j] * w2[j * O + k];
			sum += (y - t[r * O + k]) * (y - t[r * O + k]);
		}
	}
	return sum / (ndev * B * O);
}

static int fail(const char *what)
{
	fprintf(stderr, "mlp: %s: %s\n", what, pw_last_error());
	return 1;
}

/* Data from a teacher network of the same form, weights from a seed. */
static void make_data(unsigned int ndev, float *x, float *t, float *w1,
		      float *w2)
{
	float tw1[D * H], tw2[H * O];
	unsigned int s = 42, i;

	for (i = 0; i < D * H; i++)
		tw1[i] = rnd(&s);
	for (i = 0; i < H * O; i++)
		tw2[i] = rnd(&s) * 0.5f;
	for (i = 0; i < ndev * B * D; i++)
		x[i] = rnd(&s);
	for (i = 0; i < ndev * B; i++) {
		unsigned int j, k;

		for (k = 0; k < O; k++) {
			double y = 0;

			for (j = 0; j < H; j++) {
				double z = 0;
				unsigned int q;

				for (q = 0; q < D; q++)
					z += (double)x[i * D + q] * tw1[q * H + j];
				y += tanh(z) * tw2[j * O + k];
			}
			t[i * O + k] = (float)y;
		}
	}
	for (i = 0; i < D * H; i++)
		w1[i] = rnd(&s) * 0.3f;
	for (i = 0; i < H * O; i++)
		w2[i] = rnd(&s) * 0.3f;
}

/**
 * struct trainer - one data-parallel training run
 * @k: slices.
 * @slices: where it trains.
 * @rows: rows a device.
 * @x: the batch, on each slice its part of the rows (captured).
 * @t: the targets, likewise.
 * @w: the weights (w1, w2) on each slice: the program's arguments.
 * @prog: one step.
 */
struct trainer {
	unsigned int k;
	struct pw_slice *slices[MAX_SLICES];
	uint32_t rows;
	struct pw_buffer *x[MAX_SLICES];
	struct pw_buffer *t[MAX_SLICES];
	struct pw_buffer *w[2 * MAX_SLICES];
	struct pw_program *prog;
};

/* Upload the data and the first weights, and trace one step. */
static int trainer_setup(struct pw_client *cl, struct trainer *tr,
			 const float *hx, const float *ht, const float *hw1,
			 const float *hw2, struct pw_fn *grad, struct pw_fn *sgd)
{
	const uint32_t sw1[2] = { D, H }, sw2[2] = { H, O };
	const uint32_t sx[2] = { tr->rows, D }, st[2] = { tr->rows, O };
	struct pw_buffer *aw[2 * MAX_SLICES], *g[MAX_SLICES][3];
	struct pw_buffer *res[3 * MAX_SLICES], *in[2 + 2 * MAX_SLICES];
	unsigned int i, j, first = 0, n;

	for (i = 0; i < tr->k; i++) {
		n = pw_slice_size(tr->slices[i]);
		if (pw_buffer_from_host(cl, tr->slices[i], PWTPU_DT_F32, 2, sx,
					hx + (size_t)first * tr->rows * D,
					false, &tr->x[i]) ||
		    pw_buffer_from_host(cl, tr->slices[i], PWTPU_DT_F32, 2, st,
					ht + (size_t)first * tr->rows * O,
					false, &tr->t[i]) ||
		    pw_buffer_from_host(cl, tr->slices[i], PWTPU_DT_F32, 2, sw1,
					hw1, true, &tr->w[2 * i]) ||
		    pw_buffer_from_host(cl, tr->slices[i], PWTPU_DT_F32, 2, sw2,
					hw2, true, &tr->w[2 * i + 1]))
			return fail("upload");
		first += n;
	}
	/* One step: weights are arguments, the data captured. */
	if (pw_program_begin(cl))
		return fail("tracing");
	for (i = 0; i < tr->k; i++)
		if (pw_program_arg(cl, tr->slices[i], PWTPU_DT_F32, 2, sw1,
				   &aw[2 * i]) ||
		    pw_program_arg(cl, tr->slices[i], PWTPU_DT_F32, 2, sw2,
				   &aw[2 * i + 1]) ||
		    pw_call(cl, grad, tr->slices[i],
			    (struct pw_buffer *[]){ aw[2 * i], aw[2 * i + 1],
						    tr->x[i], tr->t[i] },
			    4, g[i], 3))
			return fail("tracing the gradients");
	/* Every slice applies every slice's gradients, in slice order. */
	for (i = 0; i < tr->k; i++) {
		in[0] = aw[2 * i];
		in[1] = aw[2 * i + 1];
		for (j = 0; j < tr->k; j++) {
			in[2 + 2 * j] = g[j][0];
			in[3 + 2 * j] = g[j][1];
		}
		if (pw_call(cl, sgd, tr->slices[i], in, 2 + 2 * tr->k,
			    &res[2 * i], 2))
			return fail("tracing SGD");
	}
	for (i = 0; i < tr->k; i++)
		res[2 * tr->k + i] = g[i][2];
	if (pw_program_end(cl, res, 3 * tr->k, &tr->prog))
		return fail("tracing");
	return 0;
}

/* @steps steps; the loss of each (before its update) into @loss. */
static int trainer_run(struct trainer *tr, int steps, double *loss)
{
	struct pw_buffer *res[3 * MAX_SLICES];
	float part[PW_RM_MAX_DEVICES];
	unsigned int i, n = 2 * tr->k;
	int step;

	for (step = 0; step < steps; step++) {
		if (pw_program_run(tr->prog, PW_DISPATCH_PARALLEL, tr->w, n,
				   res, 3 * tr->k))
			return fail("step");
		loss[step] = 0;
		for (i = 0; i < tr->k; i++) {
			if (pw_buffer_to_host(res[n + i], part,
					      pw_slice_size(tr->slices[i]) *
					      sizeof(float)))
				return fail("loss");
			loss[step] += part[0];
			pw_buffer_put(res[n + i]);
		}
		for (i = 0; i < n; i++) {
			pw_buffer_put(tr->w[i]);
			tr->w[i] = res[i];
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct pw_connect_opts opts = { .name = "mlp" };
	struct trainer tr = { .k = 1, .rows = B }, one = { .k = 1 };
	double loss[MAX_STEPS], ref_loss[MAX_STEPS], ref, worst = 0;
	struct pw_fn *grad = NULL, *sgd = NULL, *grad1 = NULL, *sgd1 = NULL;
	float *hx = NULL, *ht = NULL, hw1[D * H], hw2[H * O];
	int steps = 30, step, ret = 1, i;
	struct pw_client *cl;
	struct pw_vset *vs;
	unsigned int ndev;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc) {
			opts.address = argv[++i];
		} else if (argv[i][0] != '-') {
			steps = atoi(argv[i]);
		} else {
			fprintf(stderr, "usage: mlp [--connect IP:PORT] [steps]\n");
			return 2;
		}
	}
	steps = steps < 2 ? 2 : steps > MAX_STEPS ? MAX_STEPS : steps;
	if (pw_connect(&opts, &cl))
		return fail("connect");
	if (pw_make_virtual_device_set(cl, &vs))
		return fail("virtual devices");
	ndev = (unsigned int)pw_num_devices(cl);
	/* A cluster: two slices, which the controller spreads. */
	if (opts.address || getenv("PATHWAYS_CONTROLLER"))
		tr.k = MAX_SLICES;
	if (ndev % tr.k || ndev / tr.k > PW_RM_MAX_DEVICES) {
		fprintf(stderr, "mlp: %u devices do not split into %u slices\n",
			ndev, tr.k);
		goto out;
	}
	for (i = 0; i < (int)tr.k; i++)
		if (pw_add_slice(vs, ndev / tr.k, NULL, &tr.slices[i])) {
			fail("slices");
			goto out;
		}
	hx = malloc(sizeof(float) * ndev * B * D);
	ht = malloc(sizeof(float) * ndev * B * O);
	grad = grad_fn(ndev / tr.k, B, 1.0 / ((double)ndev * B * O));
	sgd = sgd_fn(tr.k);
	if (!hx || !ht || !grad || !sgd)
		goto out;
	make_data(ndev, hx, ht, hw1, hw2);
	ref = host_loss(ndev, hx, ht, hw1, hw2);
	if (trainer_setup(cl, &tr, hx, ht, hw1, hw2, grad, sgd))
		goto out;
	printf("data-parallel MLP %ux%ux%u on %u devices, %u rows each",
	       D, H, O, ndev, B);
	for (i = 0; i < (int)tr.k; i++)
		printf("%s slice %d on host %d", i ? "," : ":", i,
		       pw_slice_host(tr.slices[i]));
	printf("\n");
	if (trainer_run(&tr, steps, loss))
		goto out;
	for (step = 0; step < steps; step++)
		printf("step %3d  loss %.6f\n", step, loss[step]);
	if (tr.k > 1) {
		/* The same training on the first slice alone. */
		one.slices[0] = tr.slices[0];
		one.rows = B * tr.k;
		grad1 = grad_fn(ndev / tr.k, one.rows,
				1.0 / ((double)ndev * B * O));
		sgd1 = sgd_fn(1);
		if (!grad1 || !sgd1 ||
		    trainer_setup(cl, &one, hx, ht, hw1, hw2, grad1, sgd1) ||
		    trainer_run(&one, steps, ref_loss))
			goto out;
		for (step = 0; step < steps; step++) {
			double rel = fabs(loss[step] - ref_loss[step]) /
				     fabs(ref_loss[step]);

			worst = rel > worst ? rel : worst;
		}
		printf("one slice alone: loss %.6f -> %.6f; largest relative difference %.2g\n",
		       ref_loss[0], ref_loss[steps - 1], worst);
		if (!(worst <= 1e-6)) {
			fprintf(stderr, "mlp: the losses differ from one slice's by %.2g (relative) > 1e-6\n",
				worst);
			goto out;
		}
	}
	if (fabs(loss[0] - ref) > 1e-4 * (ref > 1 ? ref : 1)) {
		fprintf(stderr, "mlp: first loss %.7f, host computes %.7f\n",
			loss[0], ref);
		goto out;
	}
	if (!(loss[steps - 1] < loss[0] / 2)) {
		fprintf(stderr, "mlp: loss went from %.6f to %.6f, not below half\n",
			loss[0], loss[steps - 1]);
		goto out;
	}
	printf("loss %.6f -> %.6f (host check of step 0: %.6f)\n", loss[0],
	       loss[steps - 1], ref);
	ret = 0;
out:
	pw_fn_put(grad);
	pw_fn_put(sgd);
	pw_fn_put(grad1);
	pw_fn_put(sgd1);
	free(hx);
	free(ht);
	/* Disconnecting collects the buffers, programs and slices. */
	pw_disconnect(cl);
	return ret;
}
