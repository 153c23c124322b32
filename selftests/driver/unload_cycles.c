// SPDX-License-Identifier: GPL-2.0
/*
 * unload_cycles.c - pwtpu.ko loads and unloads cleanly around what users
 * leave behind: an open device file, a mapped buffer object and a gang
 * file each keep the module in (delete_module, with O_NONBLOCK as rmmod
 * calls it, fails with EWOULDBLOCK) until they are gone, and a killed
 * process with work queued on every device lets the module go once its
 * files are released. Several cycles, so that a
 * leak or a stale pointer from one load shows in the next (the debug
 * kernel's KASAN, lockdep and kmemleak watch). It loads and unloads
 * pwtpu.ko itself: run it with the module not loaded, as root.
 *
 *   PWTPU_KO=driver/pwtpu.ko PWTPU_PARAMS="ndev=4" unload_cycles
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "drv_common.h"

#define CYCLES		3
#define QUEUED		32
/* The killed process's queue is cancelled, not run: this is plenty. */
#define GONE_MS		30000

static int load(void)
{
	const char *ko = getenv("PWTPU_KO"), *params = getenv("PWTPU_PARAMS");
	int fd, ret;

	if (!ko)
		return -EINVAL;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0) ? -errno : 0;
	close(fd);
	return ret;
}

static int unload(void)
{
	return syscall(SYS_delete_module, "pwtpu", O_NONBLOCK) ? -errno : 0;
}

/* Unload, retrying while the last references drain: 0 or -errno. */
static int unload_within(unsigned int ms)
{
	uint64_t deadline = drv_now_ns() + ms * 1000000ull;
	int ret;

	while ((ret = unload()) == -EWOULDBLOCK) {
		if (drv_now_ns() > deadline)
			break;
		drv_sleep_ms(20);
	}
	return ret;
}

static bool loaded(void)
{
	return access("/sys/module/pwtpu", F_OK) == 0;
}

FIXTURE(cycle) {
	int unused;
};

FIXTURE_SETUP(cycle)
{
	if (!getenv("PWTPU_KO"))
		DRV_SKIP("PWTPU_KO names no module to load");
	if (loaded())
		DRV_SKIP("pwtpu.ko is already loaded: this test loads it");
	ASSERT_EQ(0, load());
}

FIXTURE_TEARDOWN(cycle)
{
	if (loaded())
		unload_within(GONE_MS);
}

TEST_F(cycle, an_open_file_keeps_the_module)
{
	int fd = pwtpu_open(0);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-EWOULDBLOCK, unload());
	close(fd);
	EXPECT_EQ(0, unload_within(GONE_MS));
	EXPECT_FALSE(loaded());
}

TEST_F(cycle, a_mapped_buffer_keeps_the_module)
{
	struct pwtpu_bo bo;
	int fd = pwtpu_open(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pwtpu_bo_alloc(fd, 1 << 20, &bo));
	memset(bo.map, 0x5a, 1 << 20);
	close(fd);
	/* The mapping holds the file, and so the module. */
	EXPECT_EQ(-EWOULDBLOCK, unload());
	EXPECT_EQ(0x5a, ((volatile unsigned char *)bo.map)[4096]);
	munmap(bo.map, bo.size);
	EXPECT_EQ(0, unload_within(GONE_MS));
}

TEST_F(cycle, a_gang_file_keeps_the_module)
{
	int fd = pwtpu_open(0), gang;

	ASSERT_LE(0, fd);
	gang = pwtpu_gang_create(fd, NULL);
	ASSERT_LE(0, gang);
	close(fd);
	EXPECT_EQ(-EWOULDBLOCK, unload());
	close(gang);
	EXPECT_EQ(0, unload_within(GONE_MS));
}

/*
 * Each cycle: a process per device queues QUEUED long EXECs and is
 * killed with them queued; once they are reaped the module unloads, and
 * loads again for the next cycle.
 */
TEST_F_TIMEOUT(cycle, unload_after_killed_processes_with_queued_work, 300)
{
	unsigned int idx[PWTPU_MAX_GANG], ndev, d, c;
	pid_t child[PWTPU_MAX_GANG];
	int status, n;

	for (c = 0; c < CYCLES; c++) {
		if (c)
			ASSERT_EQ(0, load()) TH_LOG("cycle %u", c);
		n = pwtpu_list_devices(idx, PWTPU_MAX_GANG);
		ASSERT_LT(0, n);
		ndev = n < PWTPU_MAX_GANG ? (unsigned int)n : PWTPU_MAX_GANG;
		for (d = 0; d < ndev; d++) {
			child[d] = drv_child_queueing(idx[d], QUEUED, 4,
						      50000000);
			ASSERT_LT(0, child[d]) TH_LOG("device %u", d);
		}
		EXPECT_EQ(-EWOULDBLOCK, unload());
		for (d = 0; d < ndev; d++)
			kill(child[d], SIGKILL);
		for (d = 0; d < ndev; d++)
			EXPECT_TRUE(drv_child_gone(child[d], GONE_MS, &status))
				TH_LOG("cycle %u: device %u's process", c, d);
		EXPECT_EQ(0, unload_within(GONE_MS)) TH_LOG("cycle %u", c);
		ASSERT_FALSE(loaded());
	}
}

TEST_HARNESS_MAIN
