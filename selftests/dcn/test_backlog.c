// SPDX-License-Identifier: GPL-2.0
/*
 * test_backlog.c - a client that issues runs faster than the devices
 * finish them, on simulated devices in this process (PATHWAYS_DEVICES=
 * sim:..., no module). A client keeps at most PW_RC_MAX_RUNS runs in
 * flight; past that, a call waits for the oldest run nobody waits for
 * to end, and the controller, which frees its copy of a run later than
 * the client does, takes what the client sends then. Runs the client
 * keeps unwaited (held futures) are not given up: past the bound a call
 * fails with EBUSY, saying so.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/pathways.h>

#include "kselftest_harness.h"
#include "../lib/test_fn.h"

/* runtime/dcn/roles.h: PW_RC_MAX_RUNS. */
#define CLIENT_RUNS	1024

FIXTURE(backlog) {
	struct pw_client *cl;
	struct pw_slice *slice;
	struct pw_fn *fn;
	struct pw_buffer *x;
};

FIXTURE_SETUP(backlog)
{
	const uint32_t shape[1] = { 1 };
	const float zero = 0;
	struct pw_vset *vs;

	ASSERT_EQ(0, setenv("PATHWAYS_DEVICES", "sim:2x2", 1));
	ASSERT_EQ(0, pw_connect(NULL, &self->cl));
	ASSERT_EQ(0, pw_make_virtual_device_set(self->cl, &vs));
	ASSERT_EQ(0, pw_add_slice(vs, 2, NULL, &self->slice));
	self->fn = test_fn_add_one("add_one", 1, 1000000);
	ASSERT_NE(NULL, self->fn);
	ASSERT_EQ(0, pw_buffer_from_host(self->cl, self->slice, PWTPU_DT_F32,
					 1, shape, &zero, true, &self->x));
}

FIXTURE_TEARDOWN(backlog)
{
	pw_buffer_put(self->x);
	pw_fn_put(self->fn);
	pw_disconnect(self->cl);
}

/*
 * x = x + 1, three times the bound over, never waiting: x ends right.
 * Each call computes for 1 ms, so that the client, which issues calls
 * far faster, is held back at the bound many times over.
 */
TEST_F(backlog, a_chain_past_the_runs_in_flight_is_held_back_not_failed)
{
	const unsigned int n = 3 * CLIENT_RUNS;
	struct pw_buffer *y;
	unsigned int i;
	float got[2];

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pw_call(self->cl, self->fn, self->slice, &self->x,
				     1, &y, 1))
			TH_LOG("call %u: %s", i, pw_last_error());
		pw_buffer_put(self->x);
		self->x = y;
	}
	ASSERT_EQ(0, pw_buffer_wait(self->x)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_buffer_to_host(self->x, got, sizeof(got)));
	EXPECT_EQ((float)n, got[0]);
	EXPECT_EQ((float)n, got[1]);
}

/* Futures kept unwaited hold their runs: past the bound, EBUSY. */
TEST_F(backlog, futures_kept_past_the_bound_are_refused_with_a_reason)
{
	static struct pw_buffer *held[CLIENT_RUNS];
	struct pw_buffer *y = NULL;
	unsigned int i, n = 0;
	int ret = 0;

	for (i = 0; i < CLIENT_RUNS && !ret; i++) {
		ret = pw_call(self->cl, self->fn, self->slice, &self->x, 1,
			      &held[i], 1);
		n += !ret;
	}
	EXPECT_EQ((unsigned int)CLIENT_RUNS, n);
	if (!ret)
		ret = pw_call(self->cl, self->fn, self->slice, &self->x, 1,
			      &y, 1);
	EXPECT_EQ(-EBUSY, ret);
	EXPECT_NE(NULL, strstr(pw_last_error(), "not waited for yet"))
		TH_LOG("%s", pw_last_error());
	/* Waited for, they go; then a call is taken again. */
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, pw_buffer_wait(held[i]));
		pw_buffer_put(held[i]);
	}
	ASSERT_EQ(0, pw_call(self->cl, self->fn, self->slice, &self->x, 1,
			     &y, 1));
	EXPECT_EQ(0, pw_buffer_wait(y));
	pw_buffer_put(y);
}

TEST_HARNESS_MAIN
