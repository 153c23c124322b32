// SPDX-License-Identifier: GPL-2.0
/*
 * test_queue.c - a device's queue is bounded and cleans up after the
 * dead: one open file may have at most max_inflight commands queued or
 * running (more are refused with -EBUSY, through io_uring and the ioctl
 * alike); the queued commands of a process that dies are not run; and a
 * killed ioctl caller's command that has not started is taken off the
 * queue at once. sysfs cmds_cancelled counts both. A device has at most
 * PWTPU_MAX_RUNNERS files with runner threads.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "drv_common.h"

FIXTURE(queue) {
	struct drv d;
	pid_t child;
};

FIXTURE_SETUP(queue)
{
	DRV_SETUP(&self->d, 0);
	self->child = 0;
}

FIXTURE_TEARDOWN(queue)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	drv_teardown(&self->d);
}

static uint64_t cancelled(const struct drv *d)
{
	uint64_t n = UINT64_MAX;

	pwtpu_sysfs_u64(d->index, "cmds_cancelled", &n);
	return n;
}

/* Queue an EXEC of @prog over @bo on @ring without waiting for it. */
static int queue_exec(struct io_uring *ring, int fd, uint32_t prog,
		      uint32_t *bo)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct pwtpu_cmd cmd;

	if (!sqe)
		return -EBUSY;
	pwtpu_cmd_exec(&cmd, prog, bo, 1);
	pwtpu_prep_uring_cmd(sqe, fd, PWTPU_CMD_EXEC, &cmd);
	return io_uring_submit(ring) == 1 ? 0 : -EIO;
}

/*
 * Behind a long command, a file's max_inflight-th NOP is refused with
 * -EBUSY in its CQE (not queued), the ioctl is refused alike, and once
 * the queue drains the file is served again.
 */
TEST_F_TIMEOUT(queue, a_file_past_max_inflight_is_refused, 120)
{
	struct pwtpu_cmd nop = { 0 };
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	struct pwtpu_bo bo;
	uint64_t limit;
	unsigned int i, ok = 0, busy = 0, other = 0;
	uint32_t prog;

	ASSERT_EQ(0, pwtpu_param_u64("max_inflight", &limit));
	ASSERT_LE(limit, 4000u) TH_LOG("the test's ring holds 4096");
	ASSERT_EQ(0, pwtpu_ring_init(&ring, 4096, 0));
	/* Long enough to outlast the submission even on the debug kernel. */
	ASSERT_EQ(0, drv_load_delay(self->d.fd, 8, 500000000, &prog));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &bo));
	ASSERT_EQ(0, queue_exec(&ring, self->d.fd, prog, &bo.handle));

	/* The EXEC is one: limit - 1 NOPs fit, the limit-th does not. */
	for (i = 0; i < limit; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		ASSERT_NE(NULL, sqe);
		pwtpu_prep_uring_cmd(sqe, self->d.fd, PWTPU_CMD_NOP, NULL);
	}
	ASSERT_EQ((int)limit, io_uring_submit(&ring));
	EXPECT_EQ(-EBUSY, pwtpu_cmd_sync(self->d.fd, PWTPU_CMD_NOP, &nop));

	for (i = 0; i < limit + 1; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		if (cqe->res == 0)
			ok++;
		else if (cqe->res == -EBUSY)
			busy++;
		else
			other++;
		io_uring_cqe_seen(&ring, cqe);
	}
	EXPECT_EQ(limit, ok);
	EXPECT_EQ(1u, busy);
	EXPECT_EQ(0u, other);

	/* Drained: served again. */
	EXPECT_EQ(0, pwtpu_cmd_sync(self->d.fd, PWTPU_CMD_NOP, &nop));
	io_uring_queue_exit(&ring);
}

/*
 * A process killed with seconds of commands queued: the device does not
 * run them (each ends -ECANCELED, counted), so it is free again long
 * before they would have run.
 */
TEST_F_TIMEOUT(queue, a_dead_processs_queued_commands_are_not_run, 120)
{
	const unsigned int queued = 40;	/* x 200 ms: 8 s of work */
	uint64_t before = cancelled(&self->d), start;
	struct pwtpu_cmd nop = { 0 };
	int status;

	ASSERT_NE(UINT64_MAX, before);
	self->child = drv_child_queueing(self->d.index, queued, 1, 200000000);
	ASSERT_LT(0, self->child) TH_LOG("child failed before queueing");
	ASSERT_EQ(0, kill(self->child, SIGKILL));
	ASSERT_TRUE(drv_child_gone(self->child, 10000, &status));
	self->child = 0;

	/* At most the one running (and one being taken) still runs. */
	start = drv_now_ns();
	EXPECT_EQ(0, pwtpu_cmd_sync(self->d.fd, PWTPU_CMD_NOP, &nop));
	EXPECT_LE(before + queued - 2, cancelled(&self->d));
	TH_LOG("device free %llu ms after the kill",
	       (unsigned long long)((drv_now_ns() - start) / 1000000));
}

/*
 * An ioctl caller killed while its command waits behind another is gone
 * at once, and so is its command: taken off the queue, never run.
 */
TEST_F_TIMEOUT(queue, a_killed_ioctl_callers_waiting_command_is_unlinked, 60)
{
	uint64_t before = cancelled(&self->d), busy_before, busy_after;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	struct pwtpu_bo bo;
	int ready[2], status;
	uint32_t prog;
	char c;

	ASSERT_NE(UINT64_MAX, before);
	ASSERT_EQ(0, pwtpu_ring_init(&ring, 8, 0));
	ASSERT_EQ(0, drv_load_delay(self->d.fd, 1, 1000000000, &prog));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &bo));
	ASSERT_EQ(0, pipe(ready));
	/* The device is busy for 1 s with ours... */
	ASSERT_EQ(0, queue_exec(&ring, self->d.fd, prog, &bo.handle));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		/* ... and the child's 1 s waits behind it. */
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		pwtpu_exec_sync(self->d.fd, prog, &bo.handle, 1);
		_exit(3);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	/* Its command is queued behind ours (which runs). */
	ASSERT_TRUE(drv_wait_queue_depth(self->d.index, 1, 5000));
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "busy_ns", &busy_before));
	ASSERT_EQ(0, kill(self->child, SIGKILL));
	ASSERT_TRUE(drv_child_gone(self->child, 4000, &status));
	self->child = 0;
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(before + 1, cancelled(&self->d));

	/* Ours ends; the child's never ran: about 1 s busy, not 2. */
	ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
	EXPECT_EQ(0, cqe->res);
	io_uring_cqe_seen(&ring, cqe);
	drv_sleep_ms(1500);
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "busy_ns", &busy_after));
	EXPECT_GT(busy_before + 1500000000ull, busy_after);
	io_uring_queue_exit(&ring);
}

/*
 * A device has at most PWTPU_MAX_RUNNERS files whose io_uring commands
 * have been queued (each has a runner thread, which kthreadd makes
 * outside the user's limits): a queued command of one more file is
 * refused with -EBUSY, and closing one of them makes room.
 */
TEST_F_TIMEOUT(queue, runners_per_device_are_bounded, 120)
{
	const int n = PWTPU_MAX_RUNNERS + 1;
	struct pwtpu_cmd nop;
	struct io_uring ring;
	int fds[PWTPU_MAX_RUNNERS + 1], i;

	ASSERT_EQ(0, pwtpu_ring_init(&ring, 4, 0));
	for (i = 0; i < n; i++) {
		fds[i] = pwtpu_open(self->d.index);
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < n; i++) {
		memset(&nop, 0, sizeof(nop));
		nop.flags = PWTPU_CMD_F_QUEUED;
		EXPECT_EQ(i < n - 1 ? 0 : -EBUSY,
			  pwtpu_uring_run(&ring, fds[i], PWTPU_CMD_NOP, &nop,
					  NULL)) TH_LOG("file %d", i);
	}
	close(fds[0]);
	memset(&nop, 0, sizeof(nop));
	nop.flags = PWTPU_CMD_F_QUEUED;
	EXPECT_EQ(0, pwtpu_uring_run(&ring, fds[n - 1], PWTPU_CMD_NOP, &nop,
				     NULL));
	for (i = 1; i < n; i++)
		close(fds[i]);
	io_uring_queue_exit(&ring);
}

TEST_HARNESS_MAIN
