// SPDX-License-Identifier: GPL-2.0
/*
 * test_race.c - handle operations racing with commands on one open file:
 * threads execute, copy and submit through io_uring while others destroy
 * and recreate the buffers and programs they name. Every call must end
 * with success or the errno of a vanished handle, never anything else;
 * afterwards the device works and HBM is back (run-in-guest.sh then
 * checks the kernel log).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kselftest_harness.h"

#include "drv_common.h"

#define SLOTS		8
#define ROUNDS		400

struct shared {
	int fd;
	_Atomic uint32_t bo[SLOTS];	/* handles, swapped under the users */
	_Atomic uint32_t prog;
	_Atomic bool stop;
	_Atomic int unexpected;		/* first errno that is not allowed */
};

static void check(struct shared *sh, int ret)
{
	int none = 0;

	if (ret && ret != -ENOENT)
		atomic_compare_exchange_strong(&sh->unexpected, &none, ret);
}

/* Exec and copy on whatever the slots name right now, synchronously. */
static void *sync_user(void *arg)
{
	struct shared *sh = arg;
	float host[12] = { 1, 2, 3, 4 };
	unsigned int i = 0;

	while (!atomic_load(&sh->stop)) {
		uint32_t bo = atomic_load(&sh->bo[i++ % SLOTS]);

		check(sh, pwtpu_exec_sync(sh->fd, atomic_load(&sh->prog), &bo,
					  1));
		check(sh, pwtpu_copy_to_dev(sh->fd, bo, 0, host,
					    sizeof(host)));
		check(sh, pwtpu_copy_from_dev(sh->fd, bo, 0, host,
					      sizeof(host)));
	}
	return NULL;
}

/* The same through io_uring, 8 commands in flight at a time. */
static void *uring_user(void *arg)
{
	struct shared *sh = arg;
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd[8];
	struct io_uring ring;
	uint32_t bos[8];
	unsigned int i = 0;
	int k;

	if (pwtpu_ring_init(&ring, 16, 0)) {
		check(sh, -EIO);
		return NULL;
	}
	while (!atomic_load(&sh->stop)) {
		for (k = 0; k < 8; k++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				abort();	/* 16 entries, 8 used */
			bos[k] = atomic_load(&sh->bo[i++ % SLOTS]);
			pwtpu_cmd_exec(&cmd[k], atomic_load(&sh->prog),
				       &bos[k], 1);
			pwtpu_prep_uring_cmd(sqe, sh->fd, PWTPU_CMD_EXEC,
					     &cmd[k]);
		}
		if (io_uring_submit(&ring) != 8) {
			check(sh, -EIO);
			break;
		}
		for (k = 0; k < 8; k++) {
			if (io_uring_wait_cqe(&ring, &cqe)) {
				check(sh, -EIO);
				break;
			}
			check(sh, cqe->res);
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	io_uring_queue_exit(&ring);
	return NULL;
}

FIXTURE(race) {
	struct drv d;
	struct shared sh;
	uint64_t baseline;
};

FIXTURE_SETUP(race)
{
	struct pwtpu_bo bo;
	uint32_t prog;
	int i;

	DRV_SETUP(&self->d, 0);
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "hbm_used",
				     &self->baseline));
	self->sh.fd = self->d.fd;
	for (i = 0; i < SLOTS; i++) {
		ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 48, &bo));
		atomic_store(&self->sh.bo[i], bo.handle);
	}
	ASSERT_EQ(0, drv_load_add(self->d.fd, 4, &prog));
	atomic_store(&self->sh.prog, prog);
}

FIXTURE_TEARDOWN(race)
{
	drv_teardown(&self->d);
}

/*
 * Replace buffers and the program under three threads that use them;
 * then every handle still named is valid and nothing else leaked.
 */
TEST_F_TIMEOUT(race, destroy_while_in_use, 120)
{
	struct shared *sh = &self->sh;
	pthread_t users[3];
	struct pwtpu_bo bo;
	uint32_t old, prog;
	int i;

	ASSERT_EQ(0, pthread_create(&users[0], NULL, sync_user, sh));
	ASSERT_EQ(0, pthread_create(&users[1], NULL, sync_user, sh));
	ASSERT_EQ(0, pthread_create(&users[2], NULL, uring_user, sh));
	for (i = 0; i < ROUNDS; i++) {
		ASSERT_EQ(0, pwtpu_bo_create(sh->fd, 48, &bo));
		old = atomic_exchange(&sh->bo[i % SLOTS], bo.handle);
		ASSERT_EQ(0, pwtpu_bo_destroy(sh->fd, old));
		if (i % 16 == 0) {
			ASSERT_EQ(0, drv_load_add(sh->fd, 4, &prog));
			old = atomic_exchange(&sh->prog, prog);
			ASSERT_EQ(0, pwtpu_prog_unload(sh->fd, old));
		}
	}
	atomic_store(&sh->stop, true);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, pthread_join(users[i], NULL));
	}
	EXPECT_EQ(0, atomic_load(&sh->unexpected));

	/* What the slots name now is alive; after destroying it, HBM is back. */
	for (i = 0; i < SLOTS; i++) {
		uint32_t h = atomic_load(&sh->bo[i]);

		EXPECT_EQ(0, pwtpu_exec_sync(sh->fd, atomic_load(&sh->prog), &h,
					     1));
		EXPECT_EQ(0, pwtpu_bo_destroy(sh->fd, h));
	}
	EXPECT_EQ(0, pwtpu_prog_unload(sh->fd, atomic_load(&sh->prog)));
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       10000));
}

/* Many threads opening, using and closing the same device at once. */
static void *open_close_user(void *arg)
{
	unsigned int index = *(unsigned int *)arg;
	struct pwtpu_bo bo;
	uintptr_t failures = 0;
	uint32_t prog;
	int i;

	for (i = 0; i < 50; i++) {
		int fd = pwtpu_open(index);

		if (fd < 0) {
			failures++;
			continue;
		}
		if (pwtpu_bo_alloc(fd, 48, &bo) || drv_load_add(fd, 4, &prog) ||
		    pwtpu_exec_sync(fd, prog, &bo.handle, 1))
			failures++;
		/* Leave everything to the close, mapping included. */
		close(fd);
		munmap(bo.map, bo.size);
	}
	return (void *)failures;
}

TEST_F_TIMEOUT(race, open_close_storm, 120)
{
	pthread_t users[4];
	void *failures;
	int i;

	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_create(&users[i], NULL, open_close_user,
					    &self->d.index));
	}
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_join(users[i], &failures));
		EXPECT_EQ(NULL, failures);
	}
	/* The fixture's own BOs (SLOTS x one page) are all that is left. */
	EXPECT_EQ(self->baseline + SLOTS * (uint64_t)sysconf(_SC_PAGESIZE),
		  drv_wait_hbm(self->d.index, self->baseline + SLOTS *
			       (uint64_t)sysconf(_SC_PAGESIZE), 10000));
}

TEST_HARNESS_MAIN
