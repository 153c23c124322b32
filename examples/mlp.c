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
 * The gradients of @rows rows a device over a slice, summed over it, and
 * the loss: mean squared error of the whole batch (@scale: one over its
 * elements), each device's part summed over the slice.
 */
static struct pw_fn *grad_fn(uint32_t rows, double scale)
{
	const uint32_t sw1[2] = { D, H }, sw2[2] = { H, O };
	const uint32_t sx[2] = { rows, D }, st[2] = { rows, O }, tr[2] = { 1, 0 };
	struct pw_fn_builder *b = pw_fn_begin("grad");
	pw_val w1, w2, x, t, h, y, d, loss, g, dw2, dh, dz, dw1;
	struct pw_fn *fn = NULL;

	w1 = pw_fn_param(b, PWTPU_DT_F32, 2, sw1);
	w2 = pw_fn_param(b, PWTPU_DT_F32, 2, sw2);
	x = pw_fn_param(b, PWTPU_DT_F32, 2, sx);
	t = pw_fn_param(b, PWTPU_DT_F32, 2, st);
	/* Forward. */
	h = pw_fn_unary(b, PWTPU_OP_TANH, pw_fn_matmul(b, x, w1));
	y = pw_fn_matmul(b, h, w2);
	d = pw_fn_binary(b, PWTPU_OP_SUB, y, t);
	loss = pw_fn_reduce(b, PWTPU_REDUCE_SUM, pw_fn_binary(b, PWTPU_OP_MUL,
							      d, d), 3);
	loss = pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, loss);
	loss = pw_fn_binary(b, PWTPU_OP_MUL, loss,
			    pw_fn_scalar(b, PWTPU_DT_F32, scale));
	/* Backward: mean squared error through a tanh layer. */
	g = pw_fn_binary(b, PWTPU_OP_MUL, d,
			 pw_fn_scalar(b, PWTPU_DT_F32, 2 * scale));
	dw2 = pw_fn_matmul(b, pw_fn_transpose(b, h, tr), g);
	dh = pw_fn_matmul(b, g, pw_fn_transpose(b, w2, tr));
	dz = pw_fn_binary(b, PWTPU_OP_MUL, dh,
			  pw_fn_binary(b, PWTPU_OP_SUB,
				       pw_fn_scalar(b, PWTPU_DT_F32, 1),
				       pw_fn_binary(b, PWTPU_OP_MUL, h, h)));
	dw1 = pw_fn_matmul(b, pw_fn_transpose(b, x, tr), dz);
	pw_fn_result(b, pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, dw1));
	pw_fn_result(b, pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, dw2));
	pw_fn_result(b, loss);
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "mlp: grad: %s\n", pw_last_error());
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
	grad = grad_fn(B, 1.0 / ((double)ndev * B * O));
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
		grad1 = grad_fn(one.rows, 1.0 / ((double)ndev * B * O));
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
