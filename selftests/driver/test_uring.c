// SPDX-License-Identifier: GPL-2.0
/*
 * test_uring.c - the io_uring path: a deep queue, ring setup requirements,
 * command numbers, flags and reserved fields, the CQE32 device times, in-order
 * execution, and queued work keeping what it uses alive.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "kselftest_harness.h"

#include "drv_common.h"

#define NO	PWTPU_NO_TENSOR
#define DEEP	160	/* commands in flight, more than 128 */

/* A program that only waits @ns nanoseconds; binds one buffer. */
static int load_delay(int fd, uint64_t ns, struct pwtpu_prog_load *res)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 1);
	drv_insn(&dp, PWTPU_OP_DELAY, 0, NO, NO, NO, NO, 2, (uint32_t)ns,
		 (uint32_t)(ns >> 32));
	return drv_prog_load(fd, &dp, NULL, res, NULL, 0);
}

/* Queue without submitting; the rings here are sized so it cannot fail. */
static void queue_cmd(struct io_uring *ring, int fd, uint32_t op,
		      const struct pwtpu_cmd *cmd, uint64_t user_data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		abort();
	pwtpu_prep_uring_cmd(sqe, fd, op, cmd);
	sqe->user_data = user_data;
}

FIXTURE(uring) {
	struct drv d;
};

FIXTURE_SETUP(uring)
{
	DRV_SETUP(&self->d, 256);
}

FIXTURE_TEARDOWN(uring)
{
	drv_teardown(&self->d);
}

/*
 * A delay at the head keeps the queue from draining while DEEP execs,
 * each on its own buffer, are submitted in one go; all complete, each
 * with its own result.
 */
TEST_F_TIMEOUT(uring, deep_queue, 120)
{
	const uint32_t n = 16;
	struct pwtpu_bo bo[DEEP], head_bo;
	struct pwtpu_prog_load delay;
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd;
	bool seen[DEEP + 1] = { false };
	uint32_t add, i, j;
	uint64_t depth = 0;
	int ret;

	ASSERT_EQ(0, drv_load_add(self->d.fd, n, &add));
	ASSERT_EQ(0, load_delay(self->d.fd, 300000000, &delay));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4, &head_bo));
	for (i = 0; i < DEEP; i++) {
		float *f;

		ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 12 * n, &bo[i]));
		f = bo[i].map;
		for (j = 0; j < n; j++) {
			f[j] = (float)i;
			f[n + j] = (float)j * 1000.0f;
		}
	}
	pwtpu_cmd_exec(&cmd, delay.handle, &head_bo.handle, 1);
	queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_EXEC, &cmd, DEEP);
	for (i = 0; i < DEEP; i++) {
		pwtpu_cmd_exec(&cmd, add, &bo[i].handle, 1);
		queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_EXEC, &cmd, i);
	}
	ASSERT_EQ(DEEP + 1, io_uring_submit(&self->d.ring));
	pwtpu_sysfs_u64(self->d.index, "queue_depth", &depth);
	TH_LOG("queue_depth right after submit: %llu",
	       (unsigned long long)depth);

	for (i = 0; i < DEEP + 1; i++) {
		ret = io_uring_wait_cqe(&self->d.ring, &cqe);
		ASSERT_EQ(0, ret);
		ASSERT_GE((uint64_t)DEEP, cqe->user_data);
		EXPECT_FALSE(seen[cqe->user_data]);
		seen[cqe->user_data] = true;
		EXPECT_EQ(0, cqe->res) {
			TH_LOG("command %llu", (unsigned long long)cqe->user_data);
		}
		io_uring_cqe_seen(&self->d.ring, cqe);
	}
	/* timing=skip spends the time but skips the arithmetic. */
	for (i = 0; !skip_mode(&self->d) && i < DEEP; i++) {
		const float *f = bo[i].map;

		for (j = 0; j < n; j++) {
			ASSERT_EQ((float)i + (float)j * 1000.0f, f[2 * n + j]) {
				TH_LOG("buffer %u element %u", i, j);
			}
		}
	}
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "queue_depth", &depth));
	EXPECT_EQ(0ul, depth);
}

/* A ring of @flags, one NOP (or @op) through it, its cqe->res. */
static int one_cmd_on_ring(int fd, unsigned int flags, uint32_t op)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int ret;

	ret = io_uring_queue_init(4, &ring, flags);
	if (ret)
		return 1000 + ret;	/* not a driver answer */
	sqe = io_uring_get_sqe(&ring);
	if (!sqe)
		abort();
	if (flags & IORING_SETUP_SQE128) {
		struct pwtpu_cmd cmd = { 0 };

		pwtpu_prep_uring_cmd(sqe, fd, op, &cmd);
	} else {
		/* Only 16 bytes of command area: set what exists. */
		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
		sqe->cmd_op = op;
		sqe->__pad1 = 0;
	}
	ret = io_uring_submit_and_wait(&ring, 1);
	if (ret == 1)
		ret = io_uring_wait_cqe(&ring, &cqe);
	if (ret >= 0) {
		ret = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
	} else {
		ret += 1000;
	}
	io_uring_queue_exit(&ring);
	return ret;
}

TEST_F(uring, needs_sqe128_and_cqe32)
{
	EXPECT_EQ(0, one_cmd_on_ring(self->d.fd, IORING_SETUP_SQE128 |
				     IORING_SETUP_CQE32, PWTPU_CMD_NOP));
	EXPECT_EQ(-EINVAL, one_cmd_on_ring(self->d.fd, IORING_SETUP_CQE32,
					   PWTPU_CMD_NOP));
	EXPECT_EQ(-EINVAL, one_cmd_on_ring(self->d.fd, IORING_SETUP_SQE128,
					   PWTPU_CMD_NOP));
	EXPECT_EQ(-EINVAL, one_cmd_on_ring(self->d.fd, 0, PWTPU_CMD_NOP));
	EXPECT_EQ(-EINVAL, one_cmd_on_ring(self->d.fd, IORING_SETUP_CQE32,
					   PWTPU_CMD_EXEC));
	EXPECT_EQ(-EINVAL, one_cmd_on_ring(self->d.fd, IORING_SETUP_SQE128,
					   PWTPU_CMD_COPY_TO_DEV));
}

TEST_F(uring, unknown_cmd_op)
{
	const uint32_t ops[] = {
		_IOWR(PWTPU_IOC_MAGIC, 0x15, struct pwtpu_cmd),
		_IOWR(PWTPU_IOC_MAGIC, 0xff, struct pwtpu_cmd),
		_IOWR('x', 0x10, struct pwtpu_cmd),	/* another driver's */
		PWTPU_IOCTL_INFO,			/* control: ioctl only */
		PWTPU_IOCTL_BO_CREATE,
		0,
	};
	struct pwtpu_cmd cmd = { 0 };
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		EXPECT_EQ(-ENOTTY, pwtpu_uring_run(&self->d.ring, self->d.fd,
						   ops[i], &cmd, NULL)) {
			TH_LOG("cmd_op %#x", ops[i]);
		}
	}
}

TEST_F(uring, reserved_fields)
{
	struct pwtpu_cmd cmd;
	int field;

	for (field = 0; field < 4; field++) {
		memset(&cmd, 0, sizeof(cmd));
		switch (field) {
		case 0: cmd.flags = ~PWTPU_CMD_F_ALL; break;
		case 1: cmd.peer_handle = 1; break;
		case 2: cmd.gang_ptr = 1; break;
		case 3: cmd.peer_offset = 1ull << 63; break;
		}
		EXPECT_EQ(-EINVAL, pwtpu_uring_run(&self->d.ring, self->d.fd,
						   PWTPU_CMD_NOP, &cmd, NULL)) {
			TH_LOG("field %d a NOP does not use", field);
		}
	}
	/* The out fields of the ioctl path are ignored on input. */
	memset(&cmd, 0, sizeof(cmd));
	cmd.start_ns = 1;
	cmd.end_ns = 2;
	EXPECT_EQ(0, pwtpu_uring_run(&self->d.ring, self->d.fd, PWTPU_CMD_NOP,
				     &cmd, NULL));
}

/*
 * The driver honours no io_uring command flag, so it refuses them:
 * io_uring in 6.1 passes IORING_URING_CMD_FIXED (a registered buffer)
 * through, and a driver that ignored it would run the command without
 * the buffer its caller named.
 */
TEST_F(uring, command_flags_refused)
{
	/* Anonymous memory: io_uring pins no file-backed pages. */
	void *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec iov = { .iov_base = buf, .iov_len = 4096 };
	struct pwtpu_cmd cmd = { 0 };
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;

	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, io_uring_register_buffers(&self->d.ring, &iov, 1));
	sqe = io_uring_get_sqe(&self->d.ring);
	ASSERT_NE(NULL, sqe);
	pwtpu_prep_uring_cmd(sqe, self->d.fd, PWTPU_CMD_NOP, &cmd);
	sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
	sqe->buf_index = 0;
	ASSERT_EQ(1, io_uring_submit(&self->d.ring));
	ASSERT_EQ(0, io_uring_wait_cqe(&self->d.ring, &cqe));
	EXPECT_EQ(-EINVAL, cqe->res);
	io_uring_cqe_seen(&self->d.ring, cqe);
	ASSERT_EQ(0, io_uring_unregister_buffers(&self->d.ring));
	/* The same command without the flag runs. */
	EXPECT_EQ(0, pwtpu_uring_run(&self->d.ring, self->d.fd, PWTPU_CMD_NOP,
				     &cmd, NULL));
	munmap(buf, 4096);
}

/* The device's times lie within the host's submit..reap interval. */
TEST_F(uring, cqe32_times_within_round_trip)
{
	struct pwtpu_cmd cmd = { 0 };
	uint64_t extra, t0, t1;
	int i;

	for (i = 0; i < 20; i++) {
		t0 = drv_now_ns();
		ASSERT_EQ(0, pwtpu_uring_run(&self->d.ring, self->d.fd,
					     PWTPU_CMD_NOP, &cmd, &extra));
		t1 = drv_now_ns();
		EXPECT_GE(t1 - t0, (uint64_t)PWTPU_CQE_QUEUE_NS(extra) +
				   PWTPU_CQE_EXEC_NS(extra));
	}
}

TEST_F(uring, cqe32_exec_covers_delay)
{
	const uint64_t ms = 1000000;
	struct pwtpu_prog_load delay;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	uint64_t extra;

	ASSERT_EQ(0, load_delay(self->d.fd, ms, &delay));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4, &bo));
	pwtpu_cmd_exec(&cmd, delay.handle, &bo.handle, 1);
	ASSERT_EQ(0, pwtpu_uring_run(&self->d.ring, self->d.fd,
				     PWTPU_CMD_EXEC, &cmd, &extra));
	EXPECT_LE(ms, PWTPU_CQE_EXEC_NS(extra));
	EXPECT_NE(0xffffffffu, PWTPU_CQE_EXEC_NS(extra));
	EXPECT_LE(ms, delay.modeled_ns);
}

/* The ioctl path reports CLOCK_MONOTONIC start and end inside the call. */
TEST_F(uring, ioctl_times)
{
	struct pwtpu_prog_load delay;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	uint64_t t0, t1;

	ASSERT_EQ(0, load_delay(self->d.fd, 1000000, &delay));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4, &bo));
	pwtpu_cmd_exec(&cmd, delay.handle, &bo.handle, 1);
	t0 = drv_now_ns();
	ASSERT_EQ(0, pwtpu_cmd_sync(self->d.fd, PWTPU_CMD_EXEC, &cmd));
	t1 = drv_now_ns();
	EXPECT_LE(t0, cmd.start_ns);
	EXPECT_LE(cmd.start_ns + 1000000, cmd.end_ns);
	EXPECT_GE(t1, cmd.end_ns);
}

/* With timing=modeled a command lasts at least its modelled time. */
TEST_F(uring, modeled_time_respected)
{
	struct pwtpu_prog_load res;
	struct drv_prog dp;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	uint64_t extra;

	if (self->d.info.timing_mode != PWTPU_TIMING_MODELED)
		DRV_SKIP("timing mode is %s, not modeled",
			 pwtpu_timing_name(self->d.info.timing_mode));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 3 * 4 * 128 * 128, &bo));
	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 128, 128);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 4 * 128 * 128, 2, 128, 128);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 8 * 128 * 128, 2, 128, 128);
	drv_binary(&dp, PWTPU_OP_MATMUL, 2, 0, 1);
	ASSERT_EQ(0, drv_prog_load(self->d.fd, &dp, NULL, &res, NULL, 0));
	pwtpu_cmd_exec(&cmd, res.handle, &bo.handle, 1);
	ASSERT_EQ(0, pwtpu_uring_run(&self->d.ring, self->d.fd,
				     PWTPU_CMD_EXEC, &cmd, &extra));
	EXPECT_LE(res.modeled_ns, PWTPU_CQE_EXEC_NS(extra));
}

/*
 * One device queue runs in order: a NOP sent through the ioctl path
 * right behind a 50 ms delay sent through io_uring starts only after the
 * delay ended. The delay's end is at least t0 + its queue + exec time,
 * t0 being taken before it was submitted. (Completion order of CQEs is
 * not part of the contract, so it is not what this checks.)
 */
TEST_F(uring, in_order)
{
	struct pwtpu_prog_load delay;
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd, nop = { 0 };
	struct pwtpu_bo bo;
	uint64_t t0, extra;

	ASSERT_EQ(0, load_delay(self->d.fd, 50000000, &delay));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4, &bo));
	pwtpu_cmd_exec(&cmd, delay.handle, &bo.handle, 1);
	queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_EXEC, &cmd, 1);
	t0 = drv_now_ns();
	ASSERT_EQ(1, io_uring_submit(&self->d.ring));
	ASSERT_EQ(0, pwtpu_cmd_sync(self->d.fd, PWTPU_CMD_NOP, &nop));
	ASSERT_EQ(0, io_uring_wait_cqe(&self->d.ring, &cqe));
	EXPECT_EQ(0, cqe->res);
	extra = cqe->big_cqe[0];
	io_uring_cqe_seen(&self->d.ring, cqe);
	EXPECT_LE(50000000u, PWTPU_CQE_EXEC_NS(extra));
	EXPECT_LE(t0 + PWTPU_CQE_QUEUE_NS(extra) + PWTPU_CQE_EXEC_NS(extra),
		  nop.start_ns);
}

/*
 * Which order io_uring gives: a 500 ms EXEC on one device and a NOP on
 * another complete NOP first; linked (IOSQE_IO_LINK) or with the NOP
 * drained (IOSQE_IO_DRAIN), the NOP is issued only once the EXEC has
 * completed. With IOSQE_ASYNC both go through io-wq and complete, in no
 * promised order (docs/driver.md).
 */
TEST_F(uring, order_links_drains_and_async)
{
	static const struct { const char *name; uint8_t a, b; bool nop_first; }
	cases[] = {
		{ "plain", 0, 0, true },
		{ "link", IOSQE_IO_LINK, 0, false },
		{ "drain", 0, IOSQE_IO_DRAIN, false },
		{ "async", IOSQE_ASYNC, IOSQE_ASYNC, true },
	};
	struct pwtpu_prog_load delay;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	unsigned int i, k, other = (self->d.index + 1) % self->d.info.ndevices;
	uint64_t first = 0;
	int fd2;

	if (other == self->d.index)
		DRV_SKIP("needs two devices, the island has one");
	fd2 = pwtpu_open(other);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, load_delay(self->d.fd, 500000000, &delay));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4, &bo));
	pwtpu_cmd_exec(&cmd, delay.handle, &bo.handle, 1);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sqe = io_uring_get_sqe(&self->d.ring);
		ASSERT_NE(NULL, sqe);
		pwtpu_prep_uring_cmd(sqe, self->d.fd, PWTPU_CMD_EXEC, &cmd);
		sqe->user_data = 1;
		sqe->flags |= cases[i].a;
		sqe = io_uring_get_sqe(&self->d.ring);
		ASSERT_NE(NULL, sqe);
		pwtpu_prep_uring_cmd(sqe, fd2, PWTPU_CMD_NOP, NULL);
		sqe->user_data = 2;
		sqe->flags |= cases[i].b;
		ASSERT_EQ(2, io_uring_submit(&self->d.ring));
		for (k = 0; k < 2; k++) {
			ASSERT_EQ(0, io_uring_wait_cqe(&self->d.ring, &cqe));
			EXPECT_EQ(0, cqe->res) TH_LOG("%s", cases[i].name);
			if (!k)
				first = cqe->user_data;
			io_uring_cqe_seen(&self->d.ring, cqe);
		}
		if (cases[i].name[0] != 'a')
			EXPECT_EQ(cases[i].nop_first ? 2u : 1u, first)
				TH_LOG("%s: the %s completed first", cases[i].name,
				       first == 2 ? "NOP" : "EXEC");
	}
	close(fd2);
}

/*
 * Unloading the program and destroying the buffers right after submit
 * does not disturb queued work: it runs and its result lands in the
 * (still mapped) buffer. HBM comes back once work and mapping are gone.
 */
TEST_F(uring, queued_work_keeps_objects)
{
	struct pwtpu_prog_load delay;
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo, head;
	uint64_t base;
	uint32_t add, i;
	float *f;

	if (skip_mode(&self->d))
		DRV_SKIP("timing=skip: results are unspecified");
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "hbm_used", &base));
	ASSERT_EQ(0, load_delay(self->d.fd, 100000000, &delay));
	ASSERT_EQ(0, drv_load_add(self->d.fd, 4, &add));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4, &head));
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 48, &bo));
	f = bo.map;
	for (i = 0; i < 4; i++) {
		f[i] = (float)i;
		f[4 + i] = 0.5f;
	}
	pwtpu_cmd_exec(&cmd, delay.handle, &head.handle, 1);
	queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_EXEC, &cmd, 1);
	pwtpu_cmd_exec(&cmd, add, &bo.handle, 1);
	queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_EXEC, &cmd, 2);
	ASSERT_EQ(2, io_uring_submit(&self->d.ring));
	EXPECT_EQ(0, pwtpu_prog_unload(self->d.fd, delay.handle));
	EXPECT_EQ(0, pwtpu_prog_unload(self->d.fd, add));
	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, head.handle));
	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo.handle));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&self->d.ring, &cqe));
		EXPECT_EQ(0, cqe->res);
		io_uring_cqe_seen(&self->d.ring, cqe);
	}
	for (i = 0; i < 4; i++) {
		EXPECT_EQ((float)i + 0.5f, f[8 + i]);
	}
	munmap(bo.map, bo.size);
	EXPECT_EQ(base, drv_wait_hbm(self->d.index, base, 5000));
}

/* A ring with a kernel submission thread works the same. */
TEST(sqpoll_ring)
{
	struct pwtpu_cmd cmd = { 0 };
	struct io_uring ring;
	struct drv d;
	int i;

	DRV_SETUP(&d, 0);
	ASSERT_EQ(0, pwtpu_ring_init(&ring, 8, IORING_SETUP_SQPOLL));
	for (i = 0; i < 10; i++) {
		EXPECT_EQ(0, pwtpu_uring_run(&ring, d.fd, PWTPU_CMD_NOP, &cmd,
					     NULL));
	}
	io_uring_queue_exit(&ring);
	drv_teardown(&d);
}

/*
 * Tearing the ring down with commands still queued waits for them (6.1
 * cannot cancel a uring_cmd); afterwards the device works and the
 * buffers those commands held come back once destroyed.
 */
TEST_F(uring, ring_exit_with_work_in_flight)
{
	struct pwtpu_prog_load delay;
	struct pwtpu_bo bo[16];
	struct pwtpu_cmd cmd;
	struct io_uring ring;
	uint64_t base;
	int i;

	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "hbm_used", &base));
	ASSERT_EQ(0, load_delay(self->d.fd, 20000000, &delay));
	ASSERT_EQ(0, pwtpu_ring_init(&ring, 32, 0));
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 8192, &bo[i]));
		pwtpu_cmd_exec(&cmd, delay.handle, &bo[i].handle, 1);
		queue_cmd(&ring, self->d.fd, PWTPU_CMD_EXEC, &cmd, i);
	}
	ASSERT_EQ(16, io_uring_submit(&ring));
	io_uring_queue_exit(&ring);
	for (i = 0; i < 16; i++) {
		EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo[i].handle));
	}
	EXPECT_EQ(base, drv_wait_hbm(self->d.index, base, 20000));
	memset(&cmd, 0, sizeof(cmd));
	EXPECT_EQ(0, pwtpu_uring_run(&self->d.ring, self->d.fd, PWTPU_CMD_NOP,
				     &cmd, NULL));
}

/*
 * Host copies move data when the device runs them, straight from the
 * caller's memory: far more bytes than the guest's RAM can be queued at
 * once without the kernel holding copies of them, and all land.
 */
TEST_F_TIMEOUT(uring, copies_deep_queue_of_large_copies, 300)
{
	const uint64_t len = 32ull << 20;
	const unsigned int ncopies = 40;	/* 1.25 GiB queued */
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	uint32_t *host, *back;
	unsigned int i;
	uint64_t k;

	if (self->d.info.hbm_total < len)
		DRV_SKIP("needs %llu bytes of HBM", (unsigned long long)len);
	host = malloc(len);
	back = malloc(len);
	ASSERT_TRUE(host && back);
	for (k = 0; k < len / 4; k++)
		host[k] = (uint32_t)(k * 2654435761u);
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, len, &bo));

	memset(&cmd, 0, sizeof(cmd));
	cmd.handle = bo.handle;
	cmd.host_ptr = (uintptr_t)host;
	cmd.length = len;
	for (i = 0; i < ncopies; i++)
		queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_COPY_TO_DEV,
			  &cmd, i);
	ASSERT_EQ((int)ncopies, io_uring_submit(&self->d.ring));
	for (i = 0; i < ncopies; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&self->d.ring, &cqe));
		EXPECT_EQ(0, cqe->res);
		io_uring_cqe_seen(&self->d.ring, cqe);
	}

	cmd.host_ptr = (uintptr_t)back;
	ASSERT_EQ(0, pwtpu_uring_run(&self->d.ring, self->d.fd,
				     PWTPU_CMD_COPY_FROM_DEV, &cmd, NULL));
	if (!skip_mode(&self->d))
		EXPECT_EQ(0, memcmp(host, back, len));
	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo.handle));
	free(host);
	free(back);
}

/*
 * Submission order is execution order for every command kind: a copy in,
 * an exec and a copy out submitted in one batch, without waiting, give
 * the exec's result for the copied-in data. Repeated so that a reordering
 * (say, copies reissued from io-wq) would show.
 */
TEST_F(uring, copy_exec_copy_in_one_batch)
{
	const uint32_t n = 64;
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd in, ex, out;
	struct pwtpu_bo bo;
	float host[3 * 64], back[64];
	uint32_t add, round, i;

	ASSERT_EQ(0, drv_load_add(self->d.fd, n, &add));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, sizeof(host), &bo));
	memset(&in, 0, sizeof(in));
	in.handle = bo.handle;
	in.host_ptr = (uintptr_t)host;
	in.length = 8 * n;		/* a and b */
	memset(&out, 0, sizeof(out));
	out.handle = bo.handle;
	out.host_ptr = (uintptr_t)back;
	out.offset = 8 * n;		/* c */
	out.length = 4 * n;
	pwtpu_cmd_exec(&ex, add, &bo.handle, 1);

	for (round = 0; round < 50; round++) {
		for (i = 0; i < n; i++) {
			host[i] = (float)(round * 1000 + i);
			host[n + i] = 0.5f;
		}
		memset(back, 0, sizeof(back));
		queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_COPY_TO_DEV,
			  &in, 0);
		queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_EXEC, &ex, 1);
		queue_cmd(&self->d.ring, self->d.fd, PWTPU_CMD_COPY_FROM_DEV,
			  &out, 2);
		ASSERT_EQ(3, io_uring_submit(&self->d.ring));
		for (i = 0; i < 3; i++) {
			ASSERT_EQ(0, io_uring_wait_cqe(&self->d.ring, &cqe));
			EXPECT_EQ(0, cqe->res);
			io_uring_cqe_seen(&self->d.ring, cqe);
		}
		for (i = 0; !skip_mode(&self->d) && i < n; i++) {
			ASSERT_EQ((float)(round * 1000 + i) + 0.5f, back[i]) {
				TH_LOG("round %u element %u", round, i);
			}
		}
	}
	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo.handle));
}

TEST_HARNESS_MAIN
