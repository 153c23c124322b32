// SPDX-License-Identifier: GPL-2.0
/*
 * mlp.c - data-parallel training of a small MLP on every device of the
 * island: each device holds a shard of the batch and a replica of the
 * weights; one compiled train step computes the loss, the gradients by
 * hand-written backpropagation, all-reduces the gradients over the slice
 * and applies SGD. The step is traced once into a program and run once
 * per step; the weights stay in HBM between steps.
 *
 * The first step's loss is checked against the host's own forward pass,
 * and the loss must fall to under half its first value: exit status 1
 * otherwise.
 *
 * Usage: mlp [steps]   (default 30)
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

static struct pw_fn *train_step(unsigned int ndev)
{
	const uint32_t sw1[2] = { D, H }, sw2[2] = { H, O };
	const uint32_t sx[2] = { B, D }, st[2] = { B, O }, tr[2] = { 1, 0 };
	struct pw_fn_builder *b = pw_fn_begin("train_step");
	double scale = 1.0 / ((double)ndev * B * O);
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
	/* The gradient of the whole batch, then SGD on every replica. */
	dw1 = pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, dw1);
	dw2 = pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, dw2);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_SUB, w1,
				     pw_fn_binary(b, PWTPU_OP_MUL, dw1,
						  pw_fn_scalar(b, PWTPU_DT_F32,
							       LR))));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_SUB, w2,
				     pw_fn_binary(b, PWTPU_OP_MUL, dw2,
						  pw_fn_scalar(b, PWTPU_DT_F32,
							       LR))));
	pw_fn_result(b, loss);
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "mlp: train_step: %s\n", pw_last_error());
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

int main(int argc, char **argv)
{
	const uint32_t sw1[2] = { D, H }, sw2[2] = { H, O };
	const uint32_t sx[2] = { B, D }, st[2] = { B, O };
	int steps = argc > 1 ? atoi(argv[1]) : 30, step, ret = 1;
	struct pw_buffer *w[2], *x, *t, *aw[2], *res[3];
	float *hx, *ht, hw1[D * H], hw2[H * O], loss[64];
	double first = 0, last = 0, ref;
	struct pw_slice *all;
	struct pw_program *prog;
	struct pw_client *cl;
	struct pw_vset *vs;
	unsigned int ndev;
	struct pw_fn *fn;

	if (steps < 2)
		steps = 2;
	if (pw_connect(NULL, &cl))
		return fail("connect");
	if (pw_make_virtual_device_set(cl, &vs))
		return fail("virtual devices");
	ndev = (unsigned int)pw_num_devices(cl);
	if (pw_add_slice(vs, ndev, NULL, &all))
		return fail("slice of every device");
	hx = malloc(sizeof(float) * ndev * B * D);
	ht = malloc(sizeof(float) * ndev * B * O);
	fn = train_step(ndev);
	if (!hx || !ht || !fn)
		goto out;
	make_data(ndev, hx, ht, hw1, hw2);
	ref = host_loss(ndev, hx, ht, hw1, hw2);
	if (pw_buffer_from_host(cl, all, PWTPU_DT_F32, 2, sx, hx, false, &x) ||
	    pw_buffer_from_host(cl, all, PWTPU_DT_F32, 2, st, ht, false, &t) ||
	    pw_buffer_from_host(cl, all, PWTPU_DT_F32, 2, sw1, hw1, true,
				&w[0]) ||
	    pw_buffer_from_host(cl, all, PWTPU_DT_F32, 2, sw2, hw2, true,
				&w[1])) {
		fail("upload");
		goto out;
	}
	/* One step, traced once: weights are arguments, data captured. */
	if (pw_program_begin(cl) ||
	    pw_program_arg(cl, all, PWTPU_DT_F32, 2, sw1, &aw[0]) ||
	    pw_program_arg(cl, all, PWTPU_DT_F32, 2, sw2, &aw[1]) ||
	    pw_call(cl, fn, all, (struct pw_buffer *[]){ aw[0], aw[1], x, t },
		    4, res, 3) ||
	    pw_program_end(cl, res, 3, &prog)) {
		fail("tracing");
		goto out;
	}
	printf("data-parallel MLP %ux%ux%u on %u devices, %u rows each\n",
	       D, H, O, ndev, B);
	for (step = 0; step < steps; step++) {
		if (pw_program_run(prog, PW_DISPATCH_PARALLEL, w, 2, res, 3) ||
		    pw_buffer_to_host(res[2], loss, ndev * sizeof(float))) {
			fail("step");
			goto out;
		}
		pw_buffer_put(w[0]);
		pw_buffer_put(w[1]);
		w[0] = res[0];
		w[1] = res[1];
		pw_buffer_put(res[2]);
		printf("step %3d  loss %.6f\n", step, loss[0]);
		if (step == 0)
			first = loss[0];
		last = loss[0];
	}
	if (fabs(first - ref) > 1e-4 * (ref > 1 ? ref : 1)) {
		fprintf(stderr, "mlp: first loss %.7f, host computes %.7f\n",
			first, ref);
		goto out;
	}
	if (!(last < first / 2)) {
		fprintf(stderr, "mlp: loss went from %.6f to %.6f, not below half\n",
			first, last);
		goto out;
	}
	printf("loss %.6f -> %.6f (host check of step 0: %.6f)\n", first, last,
	       ref);
	ret = 0;
out:
	pw_fn_put(fn);
	free(hx);
	free(ht);
	pw_disconnect(cl);
	return ret;
}
