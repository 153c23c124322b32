// SPDX-License-Identifier: GPL-2.0
/*
 * test_isolation.c - every open file is its own context: handles of one
 * are unknown to another, in the same process or not; and a process
 * killed with work in flight leaves a working device and its HBM back.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "drv_common.h"

#define NO		PWTPU_NO_TENSOR
#define IN_FLIGHT	160	/* > 128 commands queued when killed */

/*
 * The device works: a NOP and an exec complete, and the exec gives the
 * right answer unless @check_result is false (timing=skip).
 */
static int device_works(unsigned int index, bool check_result)
{
	struct pwtpu_cmd nop = { 0 };
	struct pwtpu_bo bo;
	uint32_t add;
	float *f;
	int fd = pwtpu_open(index), ret, i;

	if (fd < 0)
		return fd;
	ret = pwtpu_cmd_sync(fd, PWTPU_CMD_NOP, &nop);
	if (!ret)
		ret = drv_load_add(fd, 4, &add);
	if (!ret)
		ret = pwtpu_bo_alloc(fd, 48, &bo);
	if (!ret) {
		f = bo.map;
		for (i = 0; i < 8; i++)
			f[i] = (float)i;
		ret = pwtpu_exec_sync(fd, add, &bo.handle, 1);
		for (i = 0; check_result && !ret && i < 4; i++)
			if (f[8 + i] != (float)(2 * i + 4))
				ret = -EIO;
		munmap(bo.map, bo.size);
	}
	close(fd);
	return ret;
}

FIXTURE(iso) {
	struct drv d;
	uint64_t baseline;
	pid_t child;
};

FIXTURE_SETUP(iso)
{
	DRV_SETUP(&self->d, 0);
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "hbm_used",
				     &self->baseline));
	self->child = 0;
}

FIXTURE_TEARDOWN(iso)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	drv_teardown(&self->d);
}

/* The same handle numbers in two opens name different objects. */
TEST_F(iso, two_opens_same_process)
{
	struct pwtpu_bo a, b;
	uint32_t prog_a, bos[1];
	int fd2 = pwtpu_open(self->d.index);
	float *fa;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 48, &a));
	ASSERT_EQ(0, drv_load_add(self->d.fd, 4, &prog_a));

	/* fd2 has nothing yet: every handle of fd is unknown there. */
	bos[0] = a.handle;
	EXPECT_EQ(-ENOENT, pwtpu_exec_sync(fd2, prog_a, bos, 1));
	EXPECT_EQ(-ENOENT, pwtpu_copy_to_dev(fd2, a.handle, 0, "abcd", 4));
	EXPECT_EQ(-ENOENT, pwtpu_prog_unload(fd2, prog_a));
	EXPECT_EQ(-ENOENT, pwtpu_bo_destroy(fd2, a.handle));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2,
				   (off_t)a.mmap_offset));

	/* fd2's own BO may get the same number; it is another buffer. */
	ASSERT_EQ(0, pwtpu_bo_alloc(fd2, 48, &b));
	fa = a.map;
	memset(b.map, 0, 48);
	fa[0] = 1.0f;
	fa[4] = 2.0f;
	EXPECT_EQ(0, pwtpu_bo_free(fd2, &b));
	EXPECT_EQ(0, pwtpu_exec_sync(self->d.fd, prog_a, bos, 1));
	if (!skip_mode(&self->d)) {
		EXPECT_EQ(3.0f, fa[8]);
	}
	/* A program of fd bound to a BO of fd2 is unknown in both. */
	ASSERT_EQ(0, pwtpu_bo_create(fd2, 48, &b));
	EXPECT_EQ(-ENOENT, pwtpu_exec_sync(fd2, prog_a, &b.handle, 1));
	close(fd2);
	/* Closing fd2 took nothing of fd's. */
	EXPECT_EQ(0, pwtpu_exec_sync(self->d.fd, prog_a, bos, 1));
	EXPECT_EQ(0, pwtpu_bo_free(self->d.fd, &a));
}

/* A child's handles, sent over a pipe, are unknown in the parent. */
TEST_F(iso, two_processes)
{
	struct {
		uint32_t bo, prog;
		uint64_t mmap_offset;
	} msg;
	int to_parent[2], to_child[2];
	uint32_t bos[1];
	int status;
	char go;

	ASSERT_EQ(0, pipe(to_parent));
	ASSERT_EQ(0, pipe(to_child));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		struct pwtpu_bo bo;
		int fd = pwtpu_open(self->d.index);

		if (fd < 0 || pwtpu_bo_create(fd, 48, &bo) ||
		    drv_load_add(fd, 4, &msg.prog))
			_exit(2);
		msg.bo = bo.handle;
		msg.mmap_offset = bo.mmap_offset;
		if (write(to_parent[1], &msg, sizeof(msg)) != sizeof(msg) ||
		    read(to_child[0], &go, 1) != 1)
			_exit(3);
		/* The parent's attempts changed nothing here. */
		_exit(pwtpu_exec_sync(fd, msg.prog, &bo.handle, 1) ? 4 : 0);
	}
	ASSERT_EQ(sizeof(msg), (size_t)read(to_parent[0], &msg, sizeof(msg)));
	bos[0] = msg.bo;
	EXPECT_EQ(-ENOENT, pwtpu_exec_sync(self->d.fd, msg.prog, bos, 1));
	EXPECT_EQ(-ENOENT, pwtpu_bo_destroy(self->d.fd, msg.bo));
	EXPECT_EQ(-ENOENT, pwtpu_prog_unload(self->d.fd, msg.prog));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED,
				   self->d.fd, (off_t)msg.mmap_offset));
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(self->child, waitpid(self->child, &status, 0));
	self->child = 0;
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * A child queues IN_FLIGHT delay programs through io_uring, each on its
 * own BO, tells the parent, and is SIGKILLed. The device must keep
 * working and the child's HBM must come back.
 */
TEST_F_TIMEOUT(iso, kill_with_queue_in_flight, 120)
{
	uint64_t used;
	int ready[2];
	int status;
	char c;

	ASSERT_EQ(0, pipe(ready));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		struct io_uring ring;
		struct pwtpu_cmd cmd;
		struct pwtpu_bo bo;
		uint32_t prog;
		int fd = pwtpu_open(self->d.index), i;

		if (fd < 0 || drv_load_delay(fd, 1, 20000000, &prog) ||
		    pwtpu_ring_init(&ring, 256, 0))
			_exit(2);
		for (i = 0; i < IN_FLIGHT; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe || pwtpu_bo_alloc(fd, 65536, &bo))
				_exit(3);
			pwtpu_cmd_exec(&cmd, prog, &bo.handle, 1);
			pwtpu_prep_uring_cmd(sqe, fd, PWTPU_CMD_EXEC, &cmd);
		}
		if (io_uring_submit(&ring) != IN_FLIGHT)
			_exit(4);
		if (write(ready[1], "r", 1) != 1)
			_exit(5);
		for (;;)
			pause();
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1)) {
		TH_LOG("child failed before submitting");
	}
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "hbm_used", &used));
	EXPECT_LE(self->baseline + IN_FLIGHT * 65536ull, used);
	ASSERT_EQ(0, kill(self->child, SIGKILL));
	ASSERT_EQ(self->child, waitpid(self->child, &status, 0));
	self->child = 0;
	EXPECT_TRUE(WIFSIGNALED(status));

	/* All queued work ends (run or dropped) within 160 x 20 ms + slack. */
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       60000));
	EXPECT_EQ(0, device_works(self->d.index, !skip_mode(&self->d)));
}

/*
 * A child blocked in the synchronous EXEC ioctl on a long program dies
 * when killed, without waiting for the program; the device then works.
 */
TEST_F_TIMEOUT(iso, kill_in_sync_exec, 60)
{
	int ready[2];
	int status;
	char c;

	ASSERT_EQ(0, pipe(ready));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		struct pwtpu_bo bo;
		uint32_t prog;
		int fd = pwtpu_open(self->d.index);

		/* 8 x 1 s: far longer than the test waits for the kill. */
		if (fd < 0 || drv_load_delay(fd, 8, 1000000000, &prog) ||
		    pwtpu_bo_create(fd, 1 << 20, &bo))
			_exit(2);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		pwtpu_exec_sync(fd, prog, &bo.handle, 1);
		_exit(4);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	drv_sleep_ms(300);	/* let it enter the ioctl */
	ASSERT_EQ(0, kill(self->child, SIGKILL));
	ASSERT_TRUE(drv_child_gone(self->child, 4000, &status)) {
		TH_LOG("child still in the EXEC ioctl 4 s after SIGKILL");
	}
	self->child = 0;
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       30000));
	EXPECT_EQ(0, device_works(self->d.index, !skip_mode(&self->d)));
}

/*
 * A host buffer whose pages never come (a userfaultfd nobody serves, as
 * a FUSE file whose server hangs) blocks only the process that copies
 * from it: its pages are pinned in its own context at submit, so the
 * device never faults on them and serves everyone else.
 */
TEST_F_TIMEOUT(iso, a_host_buffer_that_never_arrives_wedges_only_its_owner, 60)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = { .tv_sec = 5 };
	struct io_uring ring;
	int ready[2], status;
	char c;

	ASSERT_EQ(0, pipe(ready));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		struct uffdio_api api = { .api = UFFD_API };
		struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
		long uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
		struct pwtpu_bo bo;
		void *buf;
		int fd = pwtpu_open(self->d.index);

		buf = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (fd < 0 || uffd < 0 || buf == MAP_FAILED ||
		    ioctl((int)uffd, UFFDIO_API, &api) ||
		    pwtpu_bo_create(fd, 65536, &bo))
			_exit(2);
		reg.range.start = (uintptr_t)buf;
		reg.range.len = 65536;
		if (ioctl((int)uffd, UFFDIO_REGISTER, &reg))
			_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		/* Its first page faults, and nobody will ever answer. */
		pwtpu_copy_to_dev(fd, bo.handle, 0, buf, 65536);
		_exit(5);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1)) {
		TH_LOG("child could not set up its userfaultfd");
	}
	drv_sleep_ms(300);	/* it is stuck in its copy */

	/* Another process's command goes through the same device. */
	ASSERT_EQ(0, pwtpu_ring_init(&ring, 4, 0));
	pwtpu_prep_uring_cmd(io_uring_get_sqe(&ring), self->d.fd,
			     PWTPU_CMD_NOP, NULL);
	ASSERT_EQ(1, io_uring_submit(&ring));
	ASSERT_EQ(0, io_uring_wait_cqe_timeout(&ring, &cqe, &ts)) {
		TH_LOG("the device is wedged behind the unanswered fault");
	}
	EXPECT_EQ(0, cqe->res);
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);

	ASSERT_EQ(0, kill(self->child, SIGKILL));
	ASSERT_TRUE(drv_child_gone(self->child, 5000, &status));
	self->child = 0;
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       10000));
}

/* fork() shares the open file, so the child uses the parent's handles. */
TEST_F(iso, fork_shares_context)
{
	struct pwtpu_bo bo;
	uint32_t add;
	int status;

	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 48, &bo));
	ASSERT_EQ(0, drv_load_add(self->d.fd, 4, &add));
	((float *)bo.map)[0] = 20.0f;
	((float *)bo.map)[4] = 22.0f;
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0)
		_exit(pwtpu_exec_sync(self->d.fd, add, &bo.handle, 1) ? 1 : 0);
	ASSERT_EQ(self->child, waitpid(self->child, &status, 0));
	self->child = 0;
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	if (!skip_mode(&self->d)) {
		EXPECT_EQ(42.0f, ((float *)bo.map)[8]);
	}
}

TEST_HARNESS_MAIN
