// SPDX-License-Identifier: GPL-2.0
/*
 * test_pipelining.c - a pipelined program's stages overlap, on simulated
 * devices in this process (PATHWAYS_DEVICES=sim:..., no module): the
 * worker queues the move of a stage's output on its device right behind
 * the command that makes it (runtime/dcn/wk_run.c, issue_copy), so the
 * next stage starts as soon as this one is done with the micro-batch,
 * while this one goes on with the next.
 *
 * Overlap is the behaviour, so it is asserted on the order of the
 * devices' own events, from their trace (sim:...,trace=FILE: the
 * module's pwtpu_start and pwtpu_complete, in the order they happened):
 * stage 0's device starts the move of micro-batch 0 before it starts
 * micro-batch 1, and stage 1's device starts micro-batch 0 before stage
 * 0's device has completed its last micro-batch. One stage at a time,
 * the move would wait behind all of stage 0's work. The time it takes is
 * pwbench pathways pipeline's to measure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pathways/pathways.h>

#include "kselftest_harness.h"
#include "../../tools/pwtrace.h"
#include "../lib/test_fn.h"

#define STAGES	4
#define MICRO	8
#define DELAY_MS	40
#define ELEMS	256

/* One device event of the trace, in the order of the file. */
struct ev {
	bool start;		/* else complete */
	unsigned int dev;
	bool exec;		/* else copy_peer */
};

/* The starts and completes of @path, in order, read as pwtrace reads them. */
static int read_trace(const char *path, struct ev *ev, int max)
{
	struct pwtrace_rec r;
	char line[256];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		if (pwtrace_parse_line(line, &r) != 1 ||
		    (r.kind != PWTRACE_START && r.kind != PWTRACE_COMPLETE))
			continue;
		ev[n].start = r.kind == PWTRACE_START;
		ev[n].dev = r.dev;
		ev[n].exec = r.cmd == _IOC_NR(PWTPU_CMD_EXEC);
		n++;
	}
	fclose(f);
	return n;
}

/* Index of the @nth (from 0) event of this kind on @dev, or -1. */
static int find(const struct ev *ev, int n, bool start, unsigned int dev,
		bool exec, int nth)
{
	int i;

	for (i = 0; i < n; i++)
		if (ev[i].start == start && ev[i].dev == dev &&
		    ev[i].exec == exec && nth-- == 0)
			return i;
	return -1;
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
	static struct ev ev[8 * STAGES * MICRO];
	char trace[64], devices[96];
	struct pw_fn *fn;
	unsigned int s, m, i;
	int fd, n, first_move, second_exec, last_exec0, first_exec1;

	snprintf(trace, sizeof(trace), "/tmp/test_pipelining.XXXXXX");
	fd = mkstemp(trace);
	ASSERT_LE(0, fd);
	close(fd);
	snprintf(devices, sizeof(devices), "sim:1x4,trace=%s", trace);
	ASSERT_EQ(0, setenv("PATHWAYS_DEVICES", devices, 1));
	ASSERT_EQ(0, pw_connect(NULL, &cl));
	ASSERT_EQ(0, pw_make_virtual_device_set(cl, &vs));
	for (s = 0; s < STAGES; s++)
		ASSERT_EQ(0, pw_add_slice(vs, 1, NULL, &slice[s]));
	/* Compute for DELAY_MS, then x + 1: a move too early reads x unmade. */
	fn = test_fn_add_one("stage", ELEMS, DELAY_MS * 1000000ull);
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
		/* The devices append: the second run's events alone. */
		ASSERT_EQ(0, truncate(trace, 0));
		ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_PARALLEL, in,
					    MICRO, out, MICRO));
		for (m = 0; m < MICRO; m++)
			ASSERT_EQ(0, pw_buffer_wait(out[m]));
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
	n = read_trace(trace, ev, sizeof(ev) / sizeof(*ev));
	unlink(trace);
	/* Each micro-batch: an EXEC per stage and a move between stages. */
	ASSERT_EQ(2 * (int)(STAGES * MICRO + (STAGES - 1) * MICRO), n);
	first_move = find(ev, n, true, 0, false, 0);
	second_exec = find(ev, n, true, 0, true, 1);
	last_exec0 = find(ev, n, false, 0, true, MICRO - 1);
	first_exec1 = find(ev, n, true, 1, true, 0);
	ASSERT_LE(0, first_move);
	ASSERT_LE(0, second_exec);
	ASSERT_LE(0, last_exec0);
	ASSERT_LE(0, first_exec1);
	/* The move went right behind its maker, not behind the stage. */
	EXPECT_LT(first_move, second_exec);
	/* Stage 1 worked while stage 0 still had micro-batches to do. */
	EXPECT_LT(first_exec1, last_exec0);
	pw_fn_put(fn);
	pw_program_free(prog);
	pw_disconnect(cl);
}

TEST_HARNESS_MAIN
