// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - GPipe-style pipelining: a 4-layer model, one layer per
 * stage, each stage on its own 2-device slice; the batch is cut into
 * micro-batches that flow through the stages, all traced into one
 * program, so that stage s works on micro-batch m while stage s+1 works
 * on micro-batch m-1. The controller places the slices (on a cluster,
 * on the least loaded islands, so stages land on several); activations
 * move between slices by the workers, over the data plane between
 * islands. The result must equal, bit for bit, the unpipelined model:
 * the four layers fused in one function over the whole batch on one
 * device.
 *
 * Usage: pipeline [--connect IP:PORT] [micro-batches]  (default 4;
 *   divides 32); --connect runs on a pathwaysd cluster (also
 *   PATHWAYS_CONTROLLER).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/pathways.h>

#define STAGES	4
#define ROWS	32	/* the batch */
#define WIDTH	16

static float rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

/* y = tanh(x @ w + bias) on x of @rows rows, in builder @b. */
static pw_val layer(struct pw_fn_builder *b, pw_val x, pw_val w, pw_val bias,
		    uint32_t rows)
{
	const uint32_t shape[2] = { rows, WIDTH };

	return pw_fn_unary(b, PWTPU_OP_TANH,
			   pw_fn_binary(b, PWTPU_OP_ADD, pw_fn_matmul(b, x, w),
					pw_fn_broadcast(b, bias, 2, shape)));
}

/* @layers layers over @rows rows: params x, then (w, bias) per layer. */
static struct pw_fn *model_fn(const char *name, unsigned int layers,
			      uint32_t rows)
{
	const uint32_t sx[2] = { rows, WIDTH }, sw[2] = { WIDTH, WIDTH };
	const uint32_t sb[1] = { WIDTH };
	struct pw_fn_builder *b = pw_fn_begin(name);
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 2, sx), w[STAGES], bias[STAGES];
	struct pw_fn *fn = NULL;
	unsigned int l;

	for (l = 0; l < layers; l++) {
		w[l] = pw_fn_param(b, PWTPU_DT_F32, 2, sw);
		bias[l] = pw_fn_param(b, PWTPU_DT_F32, 1, sb);
	}
	for (l = 0; l < layers; l++)
		x = layer(b, x, w[l], bias[l], rows);
	pw_fn_result(b, x);
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "pipeline: %s: %s\n", name, pw_last_error());
	return fn;
}

static int fail(const char *what)
{
	fprintf(stderr, "pipeline: %s: %s\n", what, pw_last_error());
	return 1;
}

int main(int argc, char **argv)
{
	const uint32_t sw[2] = { WIDTH, WIDTH }, sb[1] = { WIDTH };
	struct pw_connect_opts opts = { .name = "pipeline" };
	int mb = 4, ret = 1, m, s, i;
	static float x[ROWS * WIDTH], piped[ROWS * WIDTH], whole[ROWS * WIDTH];
	static float hw[STAGES][WIDTH * WIDTH], hb[STAGES][WIDTH];
	struct pw_buffer *w[STAGES], *bias[STAGES], *wone[STAGES * 2 + 1];
	struct pw_buffer *args[ROWS], *xin[ROWS], *out[ROWS], *t, *ref;
	struct pw_slice *stage[STAGES], *one;
	struct pw_fn *stage_fn, *whole_fn;
	struct pw_program *prog;
	struct pw_client *cl;
	struct pw_vset *vs;
	unsigned int seed = 7;
	uint32_t rows;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc) {
			opts.address = argv[++i];
		} else if (argv[i][0] != '-') {
			mb = atoi(argv[i]);
		} else {
			fprintf(stderr, "usage: pipeline [--connect IP:PORT] [micro-batches]\n");
			return 2;
		}
	}
	if (mb < 1 || ROWS % (2 * mb)) {
		fprintf(stderr, "pipeline: %d micro-batches: must divide %d in even parts\n",
			mb, ROWS);
		return 2;
	}
	rows = ROWS / mb / 2;	/* rows per device of a micro-batch */
	for (i = 0; i < ROWS * WIDTH; i++)
		x[i] = rnd(&seed);
	for (s = 0; s < STAGES; s++) {
		for (i = 0; i < WIDTH * WIDTH; i++)
			hw[s][i] = rnd(&seed) * 0.4f;
		for (i = 0; i < WIDTH; i++)
			hb[s][i] = rnd(&seed) * 0.1f;
	}
	if (pw_connect(&opts, &cl))
		return fail("connect");
	stage_fn = model_fn("stage", 1, rows);
	whole_fn = model_fn("model", STAGES, ROWS);
	if (!stage_fn || !whole_fn)
		goto out;
	if (pw_make_virtual_device_set(cl, &vs) ||
	    pw_add_slice(vs, 1, NULL, &one)) {
		fail("slices");
		goto out;
	}
	for (s = 0; s < STAGES; s++) {
		if (pw_add_slice(vs, 2, "2", &stage[s]) ||
		    pw_buffer_from_host(cl, stage[s], PWTPU_DT_F32, 2, sw, hw[s],
					true, &w[s]) ||
		    pw_buffer_from_host(cl, stage[s], PWTPU_DT_F32, 1, sb, hb[s],
					true, &bias[s])) {
			fail("stage");
			goto out;
		}
		printf("stage %d: host %d, devices %d %d\n", s,
		       pw_slice_host(stage[s]), pw_slice_device(stage[s], 0),
		       pw_slice_device(stage[s], 1));
	}

	/* Micro-batch m enters stage 0 as argument m; results in order. */
	if (pw_program_begin(cl)) {
		fail("begin");
		goto out;
	}
	for (m = 0; m < mb; m++) {
		const uint32_t sx[2] = { rows, WIDTH };

		if (pw_program_arg(cl, stage[0], PWTPU_DT_F32, 2, sx, &args[m])) {
			fail("argument");
			goto out;
		}
		t = args[m];
		for (s = 0; s < STAGES; s++) {
			struct pw_buffer *y;

			if (pw_call(cl, stage_fn, stage[s],
				    (struct pw_buffer *[]){ t, w[s], bias[s] },
				    3, &y, 1)) {
				fail("stage call");
				goto out;
			}
			t = y;
		}
		out[m] = t;
	}
	if (pw_program_end(cl, out, (unsigned int)mb, &prog)) {
		fail("end");
		goto out;
	}
	printf("pipeline: %d stages x %d micro-batches, %u nodes\n", STAGES, mb,
	       pw_program_num_nodes(prog));

	for (m = 0; m < mb; m++) {
		const uint32_t sx[2] = { rows, WIDTH };

		if (pw_buffer_from_host(cl, stage[0], PWTPU_DT_F32, 2, sx,
					x + m * 2 * rows * WIDTH, false,
					&xin[m])) {
			fail("input");
			goto out;
		}
	}
	if (pw_program_run(prog, PW_DISPATCH_PARALLEL, xin, (unsigned int)mb,
			   out, (unsigned int)mb)) {
		fail("run");
		goto out;
	}
	for (m = 0; m < mb; m++)
		if (pw_buffer_to_host(out[m], piped + m * 2 * rows * WIDTH,
				      2 * rows * WIDTH * sizeof(float))) {
			fail("fetch");
			goto out;
		}

	/* The unpipelined model: one function, one device, whole batch. */
	{
		const uint32_t sx[2] = { ROWS, WIDTH };

		if (pw_buffer_from_host(cl, one, PWTPU_DT_F32, 2, sx, x, false,
					&wone[0])) {
			fail("reference input");
			goto out;
		}
	}
	for (s = 0; s < STAGES; s++)
		if (pw_buffer_from_host(cl, one, PWTPU_DT_F32, 2, sw, hw[s],
					false, &wone[1 + 2 * s]) ||
		    pw_buffer_from_host(cl, one, PWTPU_DT_F32, 1, sb, hb[s],
					false, &wone[2 + 2 * s])) {
			fail("reference weights");
			goto out;
		}
	if (pw_call(cl, whole_fn, one, wone, 1 + 2 * STAGES, &ref, 1) ||
	    pw_buffer_to_host(ref, whole, sizeof(whole))) {
		fail("reference");
		goto out;
	}
	if (memcmp(piped, whole, sizeof(whole))) {
		for (i = 0; i < ROWS * WIDTH && piped[i] == whole[i]; i++)
			;
		fprintf(stderr, "pipeline: element %d: pipelined %.9g, unpipelined %.9g\n",
			i, piped[i], whole[i]);
		goto out;
	}
	printf("pipelined result equals the unpipelined model (%d x %d, bit for bit)\n",
	       ROWS, WIDTH);
	ret = 0;
out:
	pw_fn_put(stage_fn);
	pw_fn_put(whole_fn);
	pw_disconnect(cl);
	return ret;
}
