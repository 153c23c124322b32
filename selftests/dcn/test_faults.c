// SPDX-License-Identifier: GPL-2.0
/*
 * test_faults.c - libpathways when allocation fails (issue "Checks we
 * can trust", fault injection), on the host: a remote client's whole
 * life against a real controller and a bare worker (fake_worker.h),
 * with its thread's Nth allocation failing (selftests/lib/fault.h), for
 * N = 0, 1, 2... until the life completes without reaching the Nth. Each
 * call that fails returns a negative errno and says why in
 * pw_last_error(); the client is closed and everything freed whatever
 * failed; and the controller keeps serving the next attempt. The sanitize section runs this under LeakSanitizer,
 * which fails a test that leaked (selftests/lib/lsan_exit.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../runtime/dcn/rclient.h"

#include "kselftest_harness.h"
#include "fake_worker.h"
#include "../lib/fault.h"

#define ARG_ID (77u << PW_WIRE_SHARD_BITS)
/* More than any life below allocates: the sweep ends before it. */
#define MAX_STEPS 4000

FIXTURE(faults) {
	struct fake_cluster fc;
	bool up;
};

FIXTURE_SETUP(faults)
{
	ASSERT_EQ(0, fake_cluster_start(&self->fc, 0));
	self->up = true;
}

FIXTURE_TEARDOWN(faults)
{
	if (self->up)
		fake_cluster_stop(&self->fc);
}


/*
 * A client's life: connect, a function built and shipped, a program of
 * it registered and run twice, the client closed. The thread's
 * allocations fail after @budget of them (-1: none fails); everything is
 * closed and freed whatever failed, with no fault armed.
 */
static struct fault_attempt life(const struct sockaddr_in *ctl, long budget)
{
	struct fault_attempt a = { 0 };
	struct pw_remote *r = NULL;
	struct pw_fn *fn = NULL;
	uint32_t prog = 0, out;

	fault_fail_after(budget);
	FAULT_TRY(&a, "connect, function and program",
		  fake_client_program(ctl, "faults", &r, &fn, &prog));
	FAULT_TRY(&a, "run",
		  pw_remote_run(r, prog, (uint32_t[]){ ARG_ID }, 1, &out, 1));
	FAULT_TRY(&a, "run again",
		  pw_remote_run(r, prog, (uint32_t[]){ ARG_ID }, 1, &out, 1));
	a.failed = fault_failed();
	fault_fail_after(-1);
	if (r)
		pw_remote_close(r);
	pw_fn_put(fn);
	return a;
}

TEST_F_TIMEOUT(faults, every_allocation_failure_is_a_clean_error, 600)
{
	unsigned int failures = 0;
	struct fault_attempt a;
	long n;

	/* With no fault, the life completes: the sweep has an end. */
	a = life(&self->fc.ctl_addr, -1);
	ASSERT_EQ(0, a.ret) TH_LOG("%s: %s", a.step, a.why);

	for (n = 0; n < MAX_STEPS; n++) {
		a = life(&self->fc.ctl_addr, n);
		if (!a.failed) {
			/* Past every allocation: the whole life ran. */
			ASSERT_EQ(0, a.ret) TH_LOG("%s: %s", a.step, a.why);
			break;
		}
		if (!a.ret)
			continue;	/* the failure was handled within */
		failures++;
		/* A clean error: a negative errno, and a reason given. */
		EXPECT_GT(0, a.ret) TH_LOG("after %ld: %s", n, a.step);
		EXPECT_NE('\0', a.why[0]) TH_LOG("after %ld: %s", n, a.step);
		if (a.ret == -ENOMEM || strstr(a.why, "memory"))
			continue;
		/* Else it names what it could not do. */
		TH_LOG("after %ld allocations: %s: %s (%s)", n, a.step,
		       strerror(-a.ret), a.why);
	}
	ASSERT_LT(n, MAX_STEPS);
	TH_LOG("%ld allocations in a client's life; %u of their failures ended it with an error",
	       n, failures);
	EXPECT_LT(10u, failures);

	/* The controller serves on as if nothing happened. */
	a = life(&self->fc.ctl_addr, -1);
	ASSERT_EQ(0, a.ret) TH_LOG("%s: %s", a.step, a.why);
}

TEST_HARNESS_MAIN
