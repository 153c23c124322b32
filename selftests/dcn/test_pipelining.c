// SPDX-License-Identifier: GPL-2.0
/*
 * test_pipelining.c - a pipelined program's stages overlap, on simulated
 * devices in this process (PATHWAYS_DEVICES=sim:..., no module): the
 * worker queues the move of a stage's output on its device right behind
 * the command that makes it (runtime/dcn/wk_run.c, issue_copy), so the
 * next stage starts as soon as this one is done with the micro-batch,
 * while this one goes on with the next.
 *
 * Overlap is the behaviour, so it is asserted through time, with a wide
 * margin: a step of M micro-batches over S stages of D each takes
 * (M + S - 1) x D pipelined (440 ms here) and M x S x D one stage at a
 * time (1280 ms); the bound is half of the latter, 200 ms over the
 * pipelined time (the compute sleeps, so a busy CPU delays only the
 * dispatch). pwbench pathways pipeline measures it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <pathways/pathways.h>

#include "kselftest_harness.h"

#define STAGES	4
#define MICRO	8
#define DELAY_MS	40
#define ELEMS	256

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Compute for DELAY_MS, then x + 1: a move too early reads x unmade. */
static struct pw_fn *stage_fn(void)
{
	const uint32_t shape[1] = { ELEMS };
	struct pw_fn_builder *b = pw_fn_begin("stage");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_fn *fn = NULL;

	pw_fn_delay(b, DELAY_MS * 1000000ull);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1.0)));
	if (pw_fn_build(b, &fn))
		return NULL;
	return fn;
}

TEST(a_pipelines_stages_overlap_and_every_micro_batch_is_right)
{
	const uint32_t shape[1] = { ELEMS };
	struct pw_buffer *arg[MICRO], *in[MICRO], *out[MICRO], *t, *y;
	struct pw_slice *slice[STAGES];
	static float x[ELEMS], got[ELEMS];
	struct pw_program *prog;
	struct pw_client *cl;
	struct pw_vset *vs;
	struct pw_fn *fn;
	uint64_t t0, took;
	unsigned int s, m, i;

	ASSERT_EQ(0, setenv("PATHWAYS_DEVICES", "sim:1x4", 1));
	ASSERT_EQ(0, pw_connect(NULL, &cl));
	ASSERT_EQ(0, pw_make_virtual_device_set(cl, &vs));
	for (s = 0; s < STAGES; s++)
		ASSERT_EQ(0, pw_add_slice(vs, 1, NULL, &slice[s]));
	fn = stage_fn();
	ASSERT_NE(NULL, fn);

	ASSERT_EQ(0, pw_program_begin(cl));
	for (m = 0; m < MICRO; m++) {
		ASSERT_EQ(0, pw_program_arg(cl, slice[0], PWTPU_DT_F32, 1,
					    shape, &arg[m]));
		t = arg[m];
		for (s = 0; s < STAGES; s++) {
			ASSERT_EQ(0, pw_call(cl, fn, slice[s], &t, 1, &y, 1));
			t = y;
		}
		out[m] = t;
	}
	ASSERT_EQ(0, pw_program_end(cl, out, MICRO, &prog));

	/* Twice: the first run also loads the function on each device. */
	for (i = 0; i < 2; i++) {
		for (m = 0; m < MICRO; m++) {
			unsigned int k;

			for (k = 0; k < ELEMS; k++)
				x[k] = (float)(m * 1000 + k);
			ASSERT_EQ(0, pw_buffer_from_host(cl, slice[0],
							 PWTPU_DT_F32, 1, shape,
							 x, false, &in[m]));
			ASSERT_EQ(0, pw_buffer_wait(in[m]));
		}
		t0 = now_ms();
		ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_PARALLEL, in,
					    MICRO, out, MICRO));
		for (m = 0; m < MICRO; m++)
			ASSERT_EQ(0, pw_buffer_wait(out[m]));
		took = now_ms() - t0;
		for (m = 0; m < MICRO; m++) {
			unsigned int k;

			ASSERT_EQ(0, pw_buffer_to_host(out[m], got,
						       sizeof(got)));
			for (k = 0; k < ELEMS; k++)
				ASSERT_EQ((float)(m * 1000 + k + STAGES),
					  got[k]);
			pw_buffer_put(in[m]);
			pw_buffer_put(out[m]);
		}
	}
	TH_LOG("%u micro-batches over %u stages of %u ms: %llu ms (%u pipelined, %u one at a time)",
	       MICRO, STAGES, DELAY_MS, (unsigned long long)took,
	       (MICRO + STAGES - 1) * DELAY_MS, MICRO * STAGES * DELAY_MS);
	EXPECT_LT(took, (uint64_t)MICRO * STAGES * DELAY_MS / 2);
	pw_fn_put(fn);
	pw_program_free(prog);
	pw_disconnect(cl);
}

TEST_HARNESS_MAIN
