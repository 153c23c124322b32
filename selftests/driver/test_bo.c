// SPDX-License-Identifier: GPL-2.0
/*
 * test_bo.c - buffer objects: lifecycle, zeroed memory, mmap and the
 * host copy commands see the same bytes, HBM accounting in whole pages,
 * and the mmap bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "drv_common.h"
#include "drv_ref.h"

static uint64_t page_size(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

static uint64_t pages_of(uint64_t bytes)
{
	return (bytes + page_size() - 1) / page_size() * page_size();
}

static uint64_t hbm_used(int fd)
{
	struct pwtpu_info info;

	if (pwtpu_info(fd, &info))
		return UINT64_MAX;
	return info.hbm_used;
}

static void fill_random(void *buf, size_t len, uint64_t seed)
{
	struct ref_rng r;
	unsigned char *p = buf;
	size_t i;

	ref_rng_seed(&r, seed);
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)ref_rng_u32(&r);
}

static bool all_zero(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

FIXTURE(bo) {
	struct drv d;
	uint64_t baseline;
};

FIXTURE_SETUP(bo)
{
	DRV_SETUP(&self->d, 0);
	self->baseline = hbm_used(self->d.fd);
	ASSERT_NE(UINT64_MAX, self->baseline);
}

FIXTURE_TEARDOWN(bo)
{
	drv_teardown(&self->d);
}

TEST_F(bo, create_map_copy_destroy)
{
	const size_t size = 10000;
	unsigned char *host = malloc(size), *back = malloc(size);
	struct pwtpu_bo bo;

	ASSERT_TRUE(host && back);
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, size, &bo));
	ASSERT_TRUE(all_zero(bo.map, size));

	/* Written through the mapping, read by the device copy. */
	fill_random(bo.map, size, 1);
	ASSERT_EQ(0, pwtpu_copy_from_dev(self->d.fd, bo.handle, 0, back,
					 size));
	EXPECT_EQ(0, memcmp(bo.map, back, size));

	/* Written by the device copy, read through the mapping. */
	fill_random(host, size, 2);
	memcpy(back, bo.map, size);
	ASSERT_EQ(0, pwtpu_copy_to_dev(self->d.fd, bo.handle, 100, host,
				       5000));
	EXPECT_EQ(0, memcmp((char *)bo.map + 100, host, 5000));
	EXPECT_EQ(0, memcmp(bo.map, back, 100));
	EXPECT_EQ(0, memcmp((char *)bo.map + 5100, back + 5100, size - 5100));

	EXPECT_EQ(0, pwtpu_bo_free(self->d.fd, &bo));
	EXPECT_EQ(-ENOENT, pwtpu_bo_destroy(self->d.fd, bo.handle));
	free(host);
	free(back);
}

TEST_F(bo, large_round_trip)
{
	const size_t size = 8u << 20;
	unsigned char *host = malloc(size), *back = malloc(size);
	struct pwtpu_bo bo;

	ASSERT_TRUE(host && back);
	if (self->d.info.hbm_total - self->baseline < size)
		DRV_SKIP("needs 8 MiB of free HBM");
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, size, &bo));
	fill_random(host, size, 3);
	ASSERT_EQ(0, pwtpu_copy_to_dev(self->d.fd, bo.handle, 0, host, size));
	memset(back, 0, size);
	ASSERT_EQ(0, pwtpu_copy_from_dev(self->d.fd, bo.handle, 0, back,
					 size));
	EXPECT_EQ(0, memcmp(host, back, size));
	EXPECT_EQ(0, memcmp(host, bo.map, size));
	EXPECT_EQ(0, pwtpu_bo_free(self->d.fd, &bo));
	free(host);
	free(back);
}

/* Memory given back and handed out again carries nothing over. */
TEST_F(bo, new_bo_is_zeroed)
{
	struct pwtpu_bo bo;
	int i;

	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 64 * 1024, &bo));
		EXPECT_TRUE(all_zero(bo.map, 64 * 1024)) {
			TH_LOG("round %d: new BO not zeroed", i);
		}
		memset(bo.map, 0xa5, 64 * 1024);
		ASSERT_EQ(0, pwtpu_bo_free(self->d.fd, &bo));
	}
}

TEST_F(bo, handles_are_distinct)
{
	struct pwtpu_bo bo[16];
	int i, j;

	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &bo[i]));
	}
	for (i = 0; i < 16; i++)
		for (j = 0; j < i; j++) {
			EXPECT_NE(bo[i].handle, bo[j].handle);
			EXPECT_NE(bo[i].mmap_offset, bo[j].mmap_offset);
		}
	for (i = 0; i < 16; i++) {
		EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo[i].handle));
	}
}

/* HBM is charged in whole pages, on create, and given back on destroy. */
TEST_F(bo, hbm_accounting_in_pages)
{
	const uint64_t pg = page_size();
	const uint64_t sizes[] = { 1, pg - 1, pg, pg + 1, 3 * pg - 1, 100000 };
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	struct pwtpu_bo bo[6];
	uint64_t want = self->baseline, v;
	size_t i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, sizes[i], &bo[i]));
		want += pages_of(sizes[i]);
		EXPECT_EQ(want, hbm_used(self->d.fd)) {
			TH_LOG("after a BO of %llu bytes",
			       (unsigned long long)sizes[i]);
		}
		ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "hbm_used", &v));
		EXPECT_EQ(want, v);
	}
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo[i].handle));
		want -= pages_of(sizes[i]);
		EXPECT_EQ(want, hbm_used(self->d.fd));
	}
	EXPECT_EQ(self->baseline, hbm_used(self->d.fd));
}

/* A mapping outlives its handle; HBM comes back when both are gone. */
TEST_F(bo, mapping_outlives_destroy)
{
	struct pwtpu_bo bo;

	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 3 * page_size(), &bo));
	memset(bo.map, 0x5a, bo.size);
	ASSERT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo.handle));
	/* No SIGBUS, same bytes. */
	EXPECT_EQ(0x5a, ((unsigned char *)bo.map)[bo.size - 1]);
	((unsigned char *)bo.map)[0] = 1;
	EXPECT_EQ(-ENOENT, pwtpu_copy_to_dev(self->d.fd, bo.handle, 0, "x", 1));
	ASSERT_EQ(0, munmap(bo.map, bo.size));
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       5000));
}

TEST_F(bo, two_mappings_share_pages)
{
	struct pwtpu_bo bo;
	unsigned char *second;

	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 2 * page_size(), &bo));
	second = mmap(NULL, bo.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      self->d.fd, (off_t)bo.mmap_offset);
	ASSERT_NE(MAP_FAILED, second);
	fill_random(bo.map, bo.size, 4);
	EXPECT_EQ(0, memcmp(bo.map, second, bo.size));
	second[5] ^= 0xff;
	EXPECT_EQ(second[5], ((unsigned char *)bo.map)[5]);
	munmap(second, bo.size);
	EXPECT_EQ(0, pwtpu_bo_free(self->d.fd, &bo));
}

/* Closing the file destroys every BO it owns. */
TEST_F(bo, close_frees_all)
{
	struct pwtpu_bo bo;
	int fd = pwtpu_open(self->d.index);
	int i;

	ASSERT_LE(0, fd);
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, pwtpu_bo_create(fd, 5 * page_size(), &bo));
	}
	/* One of them also mapped, and unmapped before the close. */
	ASSERT_EQ(0, pwtpu_bo_map(fd, &bo));
	munmap(bo.map, bo.size);
	EXPECT_EQ(self->baseline + 40 * page_size(), hbm_used(self->d.fd));
	close(fd);
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       5000));
}

TEST_F(bo, whole_hbm_then_enospc)
{
	const uint64_t total = self->d.info.hbm_total;
	struct pwtpu_bo big, small;

	if (self->baseline)
		DRV_SKIP("device HBM not idle (%llu bytes used)",
		     (unsigned long long)self->baseline);
	EXPECT_EQ(-E2BIG, pwtpu_bo_create(self->d.fd, total + 1, &big));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, total, &big));
	EXPECT_EQ(total, hbm_used(self->d.fd));
	EXPECT_EQ(-ENOSPC, pwtpu_bo_create(self->d.fd, 1, &small));
	ASSERT_EQ(0, pwtpu_bo_destroy(self->d.fd, big.handle));

	/* Two halves fit, a third page does not. */
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, total / 2, &big));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, total - total / 2, &small));
	EXPECT_EQ(-ENOSPC, pwtpu_bo_create(self->d.fd, page_size(), &small));
	EXPECT_EQ(-E2BIG, pwtpu_bo_create(self->d.fd, UINT64_MAX, &small));
}

TEST_F(bo, mmap_bounds)
{
	const uint64_t pg = page_size();
	struct pwtpu_bo bo, gone;
	void *p;

	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, pg + 1, &bo));
	/* The whole BO (two pages) maps. */
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, self->d.fd,
		 (off_t)bo.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, 2 * pg);

	/* One page past the end. */
	p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, self->d.fd,
		 (off_t)bo.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* Starting past the end. */
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, self->d.fd,
		 (off_t)(bo.mmap_offset + 2 * pg));
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* An offset no BO has, and the offset of a destroyed BO. */
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, self->d.fd,
		 (off_t)(0x7654ull << 32));
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, pg, &gone));
	ASSERT_EQ(0, pwtpu_bo_destroy(self->d.fd, gone.handle));
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, self->d.fd,
		 (off_t)gone.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo.handle));
}

/* Closing the file leaves a mapping usable; HBM returns at munmap. */
TEST_F(bo, mapping_outlives_close)
{
	struct pwtpu_bo bo;
	unsigned char *p;
	int fd = pwtpu_open(self->d.index);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pwtpu_bo_alloc(fd, 2 * page_size(), &bo));
	p = bo.map;
	memset(p, 0x3c, bo.size);
	close(fd);
	EXPECT_EQ(0x3c, p[bo.size - 1]);
	p[0] = 0;
	EXPECT_EQ(self->baseline + 2 * page_size(), hbm_used(self->d.fd));
	ASSERT_EQ(0, munmap(bo.map, bo.size));
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       5000));
}

/*
 * A forked child inherits the mapping (one more reference on the BO) and
 * writes through it; the parent sees the write, and after the child
 * exits and the parent unmaps and destroys, HBM is back.
 */
TEST_F(bo, mapping_shared_with_fork)
{
	struct pwtpu_bo bo;
	int status;
	pid_t pid;

	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, page_size(), &bo));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		((unsigned char *)bo.map)[7] = 0x77;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0x77, ((unsigned char *)bo.map)[7]);
	EXPECT_EQ(0, pwtpu_bo_free(self->d.fd, &bo));
	EXPECT_EQ(self->baseline, drv_wait_hbm(self->d.index, self->baseline,
					       5000));
}

/* A mapping cannot be grown past its BO with mremap(). */
TEST_F(bo, mremap_cannot_grow)
{
	struct pwtpu_bo bo;
	void *p;

	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, page_size(), &bo));
	p = mremap(bo.map, page_size(), 4 * page_size(), MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, p);
	if (p != MAP_FAILED) {
		munmap(p, 4 * page_size());
		bo.map = NULL;
	}
	EXPECT_EQ(0, pwtpu_bo_free(self->d.fd, &bo));
}

/* Host copies of a large part of HBM work both ways. */
TEST_F_TIMEOUT(bo, copy_half_hbm, 120)
{
	const uint64_t size = self->d.info.hbm_total / 2;
	unsigned char *host = malloc(size), *back = malloc(size);
	struct pwtpu_bo bo;

	ASSERT_TRUE(host && back);
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, size, &bo));
	fill_random(host, size, 5);
	ASSERT_EQ(0, pwtpu_copy_to_dev(self->d.fd, bo.handle, 0, host, size));
	ASSERT_EQ(0, pwtpu_copy_from_dev(self->d.fd, bo.handle, 0, back,
					 size));
	EXPECT_EQ(0, memcmp(host, back, size));
	EXPECT_EQ(0, pwtpu_bo_destroy(self->d.fd, bo.handle));
	free(host);
	free(back);
}

TEST_HARNESS_MAIN
