// SPDX-License-Identifier: GPL-2.0
/*
 * remote_hostdown.c - part of selftests/dcn/test_pathwaysd.sh: a remote
 * client's run spans host 1 and host 2 (x made on host 1 crosses to host
 * 2, whose steps compute for 27 s) when host 2 powers off. The
 * run must end with EHOSTDOWN, not hang; then a run over hosts 0 and 1
 * must still complete with the right value. Prints "ok: ..." lines the
 * test script checks; exits 0 only if both held.
 *
 * Usage: remote_hostdown CONTROLLER
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../runtime/dcn/rclient.h"
#include "../lib/test_fn.h"

/* Host 2's step: 9 s (a program may model at most 10), three times. */
#define DELAY_STEPS	9
#define SLOW_CALLS	3

/* x on (@h0, 0) -> f0 there -> f1 @n1 times on (@h1, 0): a DCN edge. */
static int program(struct pw_remote *r, struct pw_fn *f0, uint32_t id0,
		   struct pw_fn *f1, uint32_t id1, unsigned int n1,
		   unsigned int h0, unsigned int h1, uint32_t *prog)
{
	const uint32_t shape[1] = { 1 };
	struct pw_rprog *p = pw_rprog_begin();
	unsigned int i;
	int v, ret;

	v = pw_rprog_arg(p, h0, 0, PWTPU_DT_F32, 1, shape);
	ret = pw_rprog_call(p, f0, id0, h0, 0, &v, 1, &v);
	for (i = 0; i < n1 && !ret; i++)
		ret = pw_rprog_call(p, f1, id1, h1, 0, &v, 1, &v);
	if (!ret)
		ret = pw_rprog_results(p, &v, 1);
	if (!ret)
		ret = pw_remote_program(r, p, prog);
	pw_rprog_free(p);
	return ret;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const uint32_t shape[1] = { 1 };
	struct pw_fn *quick = test_fn_add_one("inc", 1, 0);
	struct pw_fn *slow = test_fn_add_one("inc", 1,
					     DELAY_STEPS * 1000000000ull);
	uint32_t quick_id, slow_id, dead, live, x, out, ticket;
	struct pw_remote *r;
	float zero = 0, got = 0;
	bool down_ok;
	double t0;
	int ret;

	if (argc != 2 || !quick || !slow) {
		fprintf(stderr, "usage: remote_hostdown CONTROLLER (%s)\n",
			pw_last_error());
		return 2;
	}
	ret = pw_remote_connect(argv[1], "hostdown", &r);
	if (!ret)
		ret = pw_remote_function(r, quick, &quick_id);
	if (!ret)
		ret = pw_remote_function(r, slow, &slow_id);
	if (!ret)
		ret = program(r, quick, quick_id, slow, slow_id, SLOW_CALLS, 1,
			      2, &dead);
	if (!ret)
		ret = program(r, quick, quick_id, quick, quick_id, 1, 0, 1,
			      &live);
	if (!ret)
		ret = pw_remote_buffer(r, 1, 0, PWTPU_DT_F32, 1, shape, &zero, &x);
	if (!ret)
		ret = pw_remote_run_async(r, dead, &x, 1, &out, 1, &ticket);
	if (ret) {
		fprintf(stderr, "remote_hostdown: setting up: %s\n",
			pw_last_error());
		return 1;
	}
	printf("run over hosts 1 and 2 started\n");
	fflush(stdout);
	t0 = now_s();
	ret = pw_remote_wait(r, ticket);
	printf("run over hosts 1 and 2 ended after %.1f s: %s\n", now_s() - t0,
	       ret ? strerror(-ret) : "no error");
	down_ok = ret == -EHOSTDOWN;
	if (down_ok)
		printf("ok: the run on the powered-off host failed with EHOSTDOWN\n");
	pw_remote_free(r, 1, x);
	ret = pw_remote_buffer(r, 0, 0, PWTPU_DT_F32, 1, shape, &zero, &x);
	if (!ret)
		ret = pw_remote_run(r, live, &x, 1, &out, 1);
	if (!ret)
		ret = pw_remote_read(r, 1, out, &got, sizeof(got));
	if (!ret && got == 2.0f)
		printf("ok: a run over hosts 0 and 1 still completes (x = %g)\n",
		       got);
	else
		printf("run over hosts 0 and 1: %s, x = %g\n",
		       ret ? pw_last_error() : "wrong value", got);
	pw_remote_close(r);
	pw_fn_put(quick);
	pw_fn_put(slow);
	return !down_ok || ret || got != 2.0f;
}
