// SPDX-License-Identifier: GPL-2.0
/*
 * test_badinput.c - every malformed call gets its own defined errno:
 * control ioctls directly, device commands through both paths. The
 * kernel log staying clean is checked by run-in-guest.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "kselftest_harness.h"

#include "drv_common.h"

#define NO		PWTPU_NO_TENSOR
#define BAD_PTR		((uint64_t)0x10)	/* never mapped */
#define KERNEL_PTR	0xffff888000000000ull	/* not a user address */

static int raw_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

/* Two buffers: t0 at 32 in buffer 0 (needs 48 bytes), t1 in buffer 1. */
static int load_copy2(int fd, uint32_t *prog)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 32, 1, 4);
	drv_tensor(&dp, PWTPU_DT_F32, 1, 0, 1, 4);
	drv_unary(&dp, PWTPU_OP_NEG, 1, 0);
	return drv_prog_load(fd, &dp, prog, NULL, NULL, 0);
}

FIXTURE(ctl) {
	struct drv d;
};

FIXTURE_SETUP(ctl)
{
	DRV_SETUP(&self->d, 0);
}

FIXTURE_TEARDOWN(ctl)
{
	drv_teardown(&self->d);
}

TEST_F(ctl, unknown_ioctl)
{
	char buf[256] = { 0 };

	EXPECT_EQ(-ENOTTY, raw_ioctl(self->d.fd, _IOWR(PWTPU_IOC_MAGIC, 0x7f,
						       struct pwtpu_info),
				     buf));
	EXPECT_EQ(-ENOTTY, raw_ioctl(self->d.fd, _IOR('x', 0x00,
						       struct pwtpu_info),
				     buf));
	EXPECT_EQ(-ENOTTY, raw_ioctl(self->d.fd, _IO(PWTPU_IOC_MAGIC, 0x05),
				     NULL));
}

TEST_F(ctl, bad_pointers)
{
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_INFO, NULL));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_INFO,
				     (void *)(uintptr_t)KERNEL_PTR));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_BO_CREATE, NULL));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_BO_DESTROY,
				     NULL));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_PROG_LOAD, NULL));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_PROG_UNLOAD,
				     NULL));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_CMD_NOP, NULL));
}

TEST_F(ctl, bo_create_bad_fields)
{
	struct pwtpu_bo_create arg;
	int field;

	for (field = 0; field < 5; field++) {
		memset(&arg, 0, sizeof(arg));
		arg.size = 4096;
		switch (field) {
		case 0: arg.flags = 1; break;
		case 1: arg.reserved[0] = 1; break;
		case 2: arg.reserved[1] = 1; break;
		case 3: arg.size = 0; break;
		case 4: arg.flags = 0x80000000u; break;
		}
		EXPECT_EQ(-EINVAL, raw_ioctl(self->d.fd, PWTPU_IOCTL_BO_CREATE,
					     &arg)) {
			TH_LOG("case %d", field);
		}
	}
}

TEST_F(ctl, bo_create_sizes)
{
	const uint64_t total = self->d.info.hbm_total;
	struct pwtpu_bo bo, fill;
	uint64_t used;

	EXPECT_EQ(-E2BIG, pwtpu_bo_create(self->d.fd, total + 1, &bo));
	EXPECT_EQ(-E2BIG, pwtpu_bo_create(self->d.fd, UINT64_MAX, &bo));
	EXPECT_EQ(-E2BIG, pwtpu_bo_create(self->d.fd, 1ull << 63, &bo));
	/* Fill what is free, then one byte more does not fit. */
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "hbm_used", &used));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, total - used, &fill));
	EXPECT_EQ(-ENOSPC, pwtpu_bo_create(self->d.fd, 1, &bo));
	EXPECT_EQ(-ENOSPC, pwtpu_bo_create(self->d.fd, total, &bo));
	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, fill.handle));
	EXPECT_EQ(0, pwtpu_bo_create(self->d.fd, 1, &bo));
}

TEST_F(ctl, handle_args)
{
	struct pwtpu_handle_arg arg = { .handle = 1, .reserved = 1 };
	struct pwtpu_bo bo;
	uint32_t prog;

	EXPECT_EQ(-ENOENT, pwtpu_bo_destroy(self->d.fd, 0));
	EXPECT_EQ(-ENOENT, pwtpu_bo_destroy(self->d.fd, 12345));
	EXPECT_EQ(-ENOENT, pwtpu_bo_destroy(self->d.fd, UINT32_MAX));
	EXPECT_EQ(-ENOENT, pwtpu_prog_unload(self->d.fd, 0));
	EXPECT_EQ(-ENOENT, pwtpu_prog_unload(self->d.fd, UINT32_MAX));

	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &bo));
	ASSERT_EQ(0, drv_load_add(self->d.fd, 4, &prog));
	arg.handle = bo.handle;
	EXPECT_EQ(-EINVAL, raw_ioctl(self->d.fd, PWTPU_IOCTL_BO_DESTROY,
				     &arg));
	arg.handle = prog;
	EXPECT_EQ(-EINVAL, raw_ioctl(self->d.fd, PWTPU_IOCTL_PROG_UNLOAD,
				     &arg));
	/* Both still exist after the rejected calls. */
	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo.handle));
	EXPECT_EQ(0, pwtpu_prog_unload(self->d.fd, prog));
	EXPECT_EQ(-ENOENT, pwtpu_bo_destroy(self->d.fd, bo.handle));
	EXPECT_EQ(-ENOENT, pwtpu_prog_unload(self->d.fd, prog));
}

TEST_F(ctl, prog_load_bad_fields)
{
	struct pwtpu_prog_load arg;
	struct drv_prog dp;
	size_t size;
	void *img;
	int err, field;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	img = drv_prog_image(&dp, &size, &err);
	drv_prog_fini(&dp);
	ASSERT_NE(NULL, img);

	for (field = 0; field < 5; field++) {
		memset(&arg, 0, sizeof(arg));
		arg.prog_ptr = (uintptr_t)img;
		arg.prog_size = (uint32_t)size;
		switch (field) {
		case 0: arg.flags = 1; break;
		case 1: arg.reserved[0] = 1; break;
		case 2: arg.reserved[1] = 1; break;
		case 3: arg.prog_size = 0; break;
		case 4: arg.prog_ptr = 0; arg.prog_size = 0; break;
		}
		EXPECT_EQ(-EINVAL, raw_ioctl(self->d.fd, PWTPU_IOCTL_PROG_LOAD,
					     &arg)) {
			TH_LOG("case %d", field);
		}
	}
	memset(&arg, 0, sizeof(arg));
	arg.prog_ptr = BAD_PTR;
	arg.prog_size = (uint32_t)size;
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_PROG_LOAD, &arg));
	arg.prog_ptr = KERNEL_PTR;
	EXPECT_EQ(-EFAULT, raw_ioctl(self->d.fd, PWTPU_IOCTL_PROG_LOAD, &arg));
	free(img);
}

/* Device commands, once per path. */
FIXTURE(cmd) {
	struct drv d;
	struct pwtpu_bo bo, small, other;
	uint32_t add, two;
};

FIXTURE_VARIANT(cmd) {
	enum drv_path path;
};

FIXTURE_VARIANT_ADD(cmd, ioctl) {
	.path = DRV_IOCTL,
};

FIXTURE_VARIANT_ADD(cmd, uring) {
	.path = DRV_URING,
};

FIXTURE_SETUP(cmd)
{
	DRV_SETUP(&self->d, 8);
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &self->bo));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 40, &self->small));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &self->other));
	ASSERT_EQ(0, drv_load_add(self->d.fd, 4, &self->add));
	ASSERT_EQ(0, load_copy2(self->d.fd, &self->two));
}

FIXTURE_TEARDOWN(cmd)
{
	drv_teardown(&self->d);
}

static int run(FIXTURE_DATA(cmd) *self, const FIXTURE_VARIANT(cmd) *variant,
	       uint32_t op, struct pwtpu_cmd *cmd)
{
	return drv_cmd(&self->d, variant->path, op, cmd, NULL);
}

static int copy(FIXTURE_DATA(cmd) *self, const FIXTURE_VARIANT(cmd) *variant,
		uint32_t op, uint32_t handle, uint64_t host, uint64_t offset,
		uint64_t length)
{
	struct pwtpu_cmd cmd = {
		.handle = handle,
		.host_ptr = host,
		.offset = offset,
		.length = length,
	};

	return run(self, variant, op, &cmd);
}

static int exec(FIXTURE_DATA(cmd) *self, const FIXTURE_VARIANT(cmd) *variant,
		uint32_t prog, const uint32_t *bos, uint32_t nbos)
{
	return drv_exec(&self->d, variant->path, prog, bos, nbos);
}

TEST_F(cmd, reserved_and_flags)
{
	struct pwtpu_cmd cmd;
	const uint32_t ops[] = {
		PWTPU_CMD_NOP, PWTPU_CMD_EXEC, PWTPU_CMD_COPY_TO_DEV,
		PWTPU_CMD_COPY_FROM_DEV,
	};
	char host[64];
	size_t i;
	int field;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (field = 0; field < 4; field++) {
			/* Otherwise valid, so only the bad field can fail it. */
			memset(&cmd, 0, sizeof(cmd));
			if (ops[i] == PWTPU_CMD_EXEC)
				pwtpu_cmd_exec(&cmd, self->add,
					       &self->bo.handle, 1);
			if (ops[i] == PWTPU_CMD_COPY_TO_DEV ||
			    ops[i] == PWTPU_CMD_COPY_FROM_DEV) {
				cmd.handle = self->bo.handle;
				cmd.host_ptr = (uintptr_t)host;
				cmd.length = sizeof(host);
			}
			switch (field) {
			case 0: cmd.flags = ~PWTPU_CMD_F_ALL; break;
			case 1: cmd.peer_handle = 1; break;
			case 2: cmd.peer_offset = 1; break;
			/* A field only another command uses. */
			case 3:
				if (ops[i] == PWTPU_CMD_EXEC)
					cmd.length = 4;
				else
					cmd.gang_ptr = 1;
				break;
			}
			EXPECT_EQ(-EINVAL, run(self, variant, ops[i], &cmd)) {
				TH_LOG("op %#x field %d", ops[i], field);
			}
		}
	}
}

TEST_F(cmd, unknown_op)
{
	struct pwtpu_cmd cmd = { 0 };

	EXPECT_EQ(-ENOTTY, run(self, variant,
			       _IOWR(PWTPU_IOC_MAGIC, 0x1f, struct pwtpu_cmd),
			       &cmd));
}

TEST_F(cmd, exec_bad_handles)
{
	uint32_t bos[2] = { self->bo.handle, 999999 };
	struct pwtpu_bo gone;
	uint32_t unloaded;

	EXPECT_EQ(-ENOENT, exec(self, variant, 999999, bos, 1));
	EXPECT_EQ(-ENOENT, exec(self, variant, self->add, &bos[1], 1));
	EXPECT_EQ(-ENOENT, exec(self, variant, self->two, bos, 2));

	ASSERT_EQ(0, drv_load_add(self->d.fd, 4, &unloaded));
	ASSERT_EQ(0, pwtpu_prog_unload(self->d.fd, unloaded));
	EXPECT_EQ(-ENOENT, exec(self, variant, unloaded, bos, 1));

	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &gone));
	ASSERT_EQ(0, pwtpu_bo_destroy(self->d.fd, gone.handle));
	EXPECT_EQ(-ENOENT, exec(self, variant, self->add, &gone.handle, 1));
	/* And the valid command still works. */
	EXPECT_EQ(0, exec(self, variant, self->add, bos, 1));
}

TEST_F(cmd, exec_bindings)
{
	uint32_t bos[PWTPU_MAX_BUFS + 1], i;
	struct pwtpu_cmd cmd;

	for (i = 0; i <= PWTPU_MAX_BUFS; i++)
		bos[i] = self->bo.handle;
	bos[1] = self->other.handle;
	/* nbufs must be the program's. */
	EXPECT_EQ(-EINVAL, exec(self, variant, self->add, bos, 0));
	EXPECT_EQ(-EINVAL, exec(self, variant, self->add, bos, 2));
	EXPECT_EQ(-EINVAL, exec(self, variant, self->two, bos, 1));
	EXPECT_EQ(-EINVAL, exec(self, variant, self->two, bos, 3));
	EXPECT_EQ(-EINVAL, exec(self, variant, self->add, bos,
				PWTPU_MAX_BUFS + 1));
	EXPECT_EQ(-EINVAL, exec(self, variant, self->add, bos, UINT32_MAX));
	/* A buffer bound twice. */
	bos[1] = self->bo.handle;
	EXPECT_EQ(-EINVAL, exec(self, variant, self->two, bos, 2));
	/* A buffer smaller than the program's tensors need (48 bytes). */
	EXPECT_EQ(-ERANGE, exec(self, variant, self->add,
				&self->small.handle, 1));
	bos[0] = self->small.handle;
	bos[1] = self->bo.handle;
	EXPECT_EQ(-ERANGE, exec(self, variant, self->two, bos, 2));
	/* Binding list not readable. */
	pwtpu_cmd_exec(&cmd, self->add, NULL, 1);
	cmd.bufs_ptr = BAD_PTR;
	EXPECT_EQ(-EFAULT, run(self, variant, PWTPU_CMD_EXEC, &cmd));
	cmd.bufs_ptr = KERNEL_PTR;
	EXPECT_EQ(-EFAULT, run(self, variant, PWTPU_CMD_EXEC, &cmd));
	/* The valid binding works. */
	bos[0] = self->bo.handle;
	bos[1] = self->other.handle;
	EXPECT_EQ(0, exec(self, variant, self->two, bos, 2));
}

TEST_F(cmd, copy_ranges)
{
	const uint32_t to = PWTPU_CMD_COPY_TO_DEV;
	const uint32_t from = PWTPU_CMD_COPY_FROM_DEV;
	static char host[8192];
	const uint64_t h = (uintptr_t)host;
	const uint32_t bo = self->bo.handle;
	int dir;

	for (dir = 0; dir < 2; dir++) {
		uint32_t op = dir ? from : to;

		EXPECT_EQ(0, copy(self, variant, op, bo, h, 0, 4096));
		EXPECT_EQ(0, copy(self, variant, op, bo, h, 4095, 1));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h, 0, 4097));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h, 4096, 1));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h, 1, 4096));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h, 0, 0));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h, 100, 0));
		/* offset + length wraps around */
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h,
					UINT64_MAX - 7, 16));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h, 16,
					UINT64_MAX - 7));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, bo, h,
					1ull << 63, 1ull << 63));
		/* The BO's size is its size, not its pages: 40 bytes. */
		EXPECT_EQ(0, copy(self, variant, op, self->small.handle, h, 0,
				  40));
		EXPECT_EQ(-EINVAL, copy(self, variant, op, self->small.handle,
					h, 0, 41));
		EXPECT_EQ(-ENOENT, copy(self, variant, op, 999999, h, 0, 1));
	}
}

TEST_F(cmd, copy_bad_host_ptr)
{
	const uint32_t bo = self->bo.handle;
	char *ro = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	/* A hole after the first page. */
	ASSERT_EQ(0, munmap(ro + 4096, 4096));
	EXPECT_EQ(-EFAULT, copy(self, variant, PWTPU_CMD_COPY_TO_DEV, bo,
				BAD_PTR, 0, 64));
	EXPECT_EQ(-EFAULT, copy(self, variant, PWTPU_CMD_COPY_FROM_DEV, bo,
				BAD_PTR, 0, 64));
	EXPECT_EQ(-EFAULT, copy(self, variant, PWTPU_CMD_COPY_TO_DEV, bo,
				KERNEL_PTR, 0, 64));
	EXPECT_EQ(-EFAULT, copy(self, variant, PWTPU_CMD_COPY_FROM_DEV, bo,
				KERNEL_PTR, 0, 64));
	/* Readable but not writable: fine as a source, not as a target. */
	EXPECT_EQ(0, copy(self, variant, PWTPU_CMD_COPY_TO_DEV, bo,
			  (uintptr_t)ro, 0, 64));
	EXPECT_EQ(-EFAULT, copy(self, variant, PWTPU_CMD_COPY_FROM_DEV, bo,
				(uintptr_t)ro, 0, 64));
	/* Host range running off the end of the mapping. */
	EXPECT_EQ(-EFAULT, copy(self, variant, PWTPU_CMD_COPY_TO_DEV, bo,
				(uintptr_t)ro + 4000, 0, 200));
	munmap(ro, 4096);
}

TEST_HARNESS_MAIN
