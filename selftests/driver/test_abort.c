// SPDX-License-Identifier: GPL-2.0
/*
 * test_abort.c - a running command stops at its next safe point when its
 * process dies, and a watchdog stops one still running watchdog_ms past
 * twice its modelled time (-ETIME); sysfs cmds_aborted counts both. The
 * device then serves others at once, not after the work would have ended.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "drv_common.h"

#define WATCHDOG "watchdog_ms"

static uint64_t aborted(const struct drv *d)
{
	uint64_t n = UINT64_MAX;

	pwtpu_sysfs_u64(d->index, "cmds_aborted", &n);
	return n;
}

FIXTURE(abort) {
	struct drv d;
	pid_t child;
	uint64_t watchdog;
};

FIXTURE_SETUP(abort)
{
	DRV_SETUP(&self->d, 0);
	self->child = 0;
	ASSERT_EQ(0, pwtpu_param_u64("watchdog_ms", &self->watchdog));
}

FIXTURE_TEARDOWN(abort)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	drv_param_write(WATCHDOG, (unsigned int)self->watchdog);
	drv_teardown(&self->d);
}

/*
 * A child's 8 s program is running when the child is killed: it stops
 * within a safe point (10 ms of a DELAY, or of the modelled wait), so the
 * child is gone and the device free long before 8 s.
 */
TEST_F_TIMEOUT(abort, a_dead_owners_running_command_stops, 60)
{
	uint64_t before = aborted(&self->d);
	struct pwtpu_cmd nop = { 0 };
	int status;

	ASSERT_NE(UINT64_MAX, before);
	self->child = drv_child_queueing(self->d.index, 1, 8, 1000000000);
	ASSERT_LT(0, self->child) TH_LOG("child failed before submitting");
	/* Taken off the queue: it runs. */
	ASSERT_TRUE(drv_wait_queue_depth(self->d.index, 0, 5000));
	drv_sleep_ms(50);
	ASSERT_EQ(0, kill(self->child, SIGKILL));
	/* Its exit waits for the command: 3 s is far less than 8. */
	ASSERT_TRUE(drv_child_gone(self->child, 3000, &status)) {
		TH_LOG("child still exiting 3 s after SIGKILL: its command ran on");
	}
	self->child = 0;
	EXPECT_EQ(0, pwtpu_cmd_sync(self->d.fd, PWTPU_CMD_NOP, &nop));
	EXPECT_EQ(before + 1, aborted(&self->d));
}

/*
 * Real work far beyond the model (8,000 f32 128x128 matmuls, just under
 * PWTPU_MAX_WORK: a few ms modelled, seconds of a fast core and minutes
 * of TCG): the watchdog stops it with
 * -ETIME once it has run watchdog_ms (set to 500 here) past twice its
 * modelled time.
 */
TEST_F_TIMEOUT(abort, the_watchdog_stops_work_far_past_its_model, 120)
{
	uint64_t before = aborted(&self->d), start, took;
	struct pwtpu_prog_load out;
	struct pwtpu_bo bo;
	uint32_t prog;

	if (skip_mode(&self->d))
		DRV_SKIP("timing=skip computes nothing: no real work to bound");
	ASSERT_NE(UINT64_MAX, before);
	ASSERT_EQ(0, drv_load_matmul_loop(self->d.fd, 8000, &prog, &out));
	TH_LOG("modelled %llu us", (unsigned long long)out.modeled_ns / 1000);
	ASSERT_GT(10000000000ull, out.modeled_ns);
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, DRV_MM_BYTES, &bo));

	ASSERT_EQ(0, drv_param_write(WATCHDOG, 500));
	start = drv_now_ns();
	EXPECT_EQ(-ETIME, pwtpu_exec_sync(self->d.fd, prog, &bo.handle, 1));
	took = (drv_now_ns() - start) / 1000000;
	TH_LOG("stopped after %llu ms", (unsigned long long)took);
	/* Never before its deadline (how soon after is for pwbench). */
	EXPECT_LE(500 + 2 * out.modeled_ns / 1000000, took);
	EXPECT_EQ(before + 1, aborted(&self->d));
}

/* watchdog_ms takes only 100..3600000 ms, at load and when written. */
TEST_F(abort, watchdog_ms_out_of_range_is_refused)
{
	EXPECT_EQ(-EINVAL, drv_param_write(WATCHDOG, 99));
	EXPECT_EQ(-EINVAL, drv_param_write(WATCHDOG, 3600001));
	EXPECT_EQ(0, drv_param_write(WATCHDOG, (unsigned int)self->watchdog));
}

TEST_HARNESS_MAIN
