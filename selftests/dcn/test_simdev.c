// SPDX-License-Identifier: GPL-2.0
/*
 * test_simdev.c - a worker's simulated devices (runtime/dcn/wdev_sim.c)
 * on the host: the same firmware as pwtpu.ko's devices, reached through
 * the same pw_wdev calls. Programs compute what their references say,
 * commands are refused with the module's errors, HBM is the module's
 * budget, and a gang's members meet across the devices' threads.
 * selftests/pathways/test_sim_equal.c compares them with the module's
 * devices in the guest.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pwtpu/pwprog.h>

#include "../../runtime/dcn/wdev.h"
#include "../../runtime/util/log.h"
#include "kselftest_harness.h"

#define N	256	/* f32 elements per buffer */

/* Wait for @n completions of @w into @done (at most 64): how many came. */
static int wait_done(struct pw_wdev *w, struct pw_wdev_done *done, int n)
{
	struct pollfd p = { .fd = w->efd, .events = POLLIN };
	int got = 0, r;

	while (got < n) {
		if (poll(&p, 1, 10000) != 1)
			break;
		r = pw_wdev_reap(w, done + got, (unsigned int)(n - got));
		if (r < 0)
			break;
		got += r;
	}
	return got;
}

/* dst (buffer 2) = a (0) <op> b (1), f32[N] each. */
static void *binary_image(enum pwtpu_op op, size_t *size)
{
	uint32_t shape = N;
	struct pwprog *p = pwprog_new(3);
	void *img = NULL;
	int a, b, d;

	if (!p)
		return NULL;
	a = pwprog_tensor(p, PWTPU_DT_F32, 1, &shape, 0, 0);
	b = pwprog_tensor(p, PWTPU_DT_F32, 1, &shape, 1, 0);
	d = pwprog_tensor(p, PWTPU_DT_F32, 1, &shape, 2, 0);
	if (a >= 0 && b >= 0 && d >= 0 && pwprog_binary(p, op, d, a, b) >= 0)
		img = pwprog_image(p, size);
	pwprog_free(p);
	return img;
}

/* dst (buffer 1) = a (0) all-reduced (sum) over the gang, f32[N]. */
static void *all_reduce_image(size_t *size)
{
	uint32_t shape = N;
	struct pwprog *p = pwprog_new(2);
	void *img = NULL;
	int a, d;

	if (!p)
		return NULL;
	a = pwprog_tensor(p, PWTPU_DT_F32, 1, &shape, 0, 0);
	d = pwprog_tensor(p, PWTPU_DT_F32, 1, &shape, 1, 0);
	if (a >= 0 && d >= 0 &&
	    pwprog_insn(p, PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_SUM, d, a,
			PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, NULL, 0) >= 0)
		img = pwprog_image(p, size);
	pwprog_free(p);
	return img;
}

static uint32_t load(struct __test_metadata *_metadata, struct pw_wdev *w,
		     unsigned int dev, void *img, size_t size)
{
	uint32_t h = 0;

	EXPECT_EQ(0, pw_wdev_prog_load(w, dev, img, size, &h));
	EXPECT_NE(0u, h);
	return h;
}

static struct pw_wdev_sim_cfg cfg(const char *str)
{
	struct pw_wdev_sim_cfg c;
	char err[160];
	bool sim;

	if (pw_wdev_parse(str, &c, &sim, err, sizeof(err)) || !sim)
		memset(&c, 0, sizeof(c));
	return c;
}

FIXTURE(simdev) {
	struct pw_wdev w;
	struct pwtpu_bo bo[4][3];
};

FIXTURE_SETUP(simdev)
{
	struct pw_wdev_sim_cfg c = cfg("sim:2x2,hbm_mib=1");
	unsigned int d, i;

	ASSERT_EQ(0, pw_wdev_open_sim(&self->w, &c));
	ASSERT_EQ(4u, self->w.ndev);
	for (d = 0; d < 4; d++)
		for (i = 0; i < 3; i++)
			ASSERT_EQ(0, pw_wdev_bo_alloc(&self->w, d, N * 4,
						      &self->bo[d][i]));
}

FIXTURE_TEARDOWN(simdev)
{
	pw_wdev_close(&self->w);
}

static void fill(struct pwtpu_bo *bo, float base)
{
	float *f = bo->map;
	unsigned int i;

	for (i = 0; i < N; i++)
		f[i] = base + (float)i;
}

TEST_F(simdev, a_program_computes_what_the_firmware_computes)
{
	struct pw_wdev_done done[2];
	uint32_t bos[3], prog;
	size_t size;
	void *img = binary_image(PWTPU_OP_MUL, &size);
	float *d;
	unsigned int i;

	ASSERT_NE(NULL, img);
	prog = load(_metadata, &self->w, 1, img, size);
	fill(&self->bo[1][0], 1.5f);
	fill(&self->bo[1][1], -0.25f);
	for (i = 0; i < 3; i++)
		bos[i] = self->bo[1][i].handle;
	ASSERT_EQ(0, pw_wdev_exec(&self->w, 1, prog, bos, 3, NULL, 7));
	ASSERT_EQ(0, pw_wdev_exec(&self->w, 1, 0, NULL, 0, NULL, 8));
	ASSERT_EQ(2, pw_wdev_flush(&self->w));
	ASSERT_EQ(2, wait_done(&self->w, done, 2));
	/* One device's commands end in the order they were queued. */
	EXPECT_EQ(7u, done[0].tag);
	EXPECT_EQ(0, done[0].res);
	EXPECT_EQ(8u, done[1].tag);
	EXPECT_EQ(0, done[1].res);
	d = self->bo[1][2].map;
	for (i = 0; i < N; i++)
		ASSERT_EQ((1.5f + (float)i) * (-0.25f + (float)i), d[i]);
	free(img);
}

TEST_F(simdev, commands_are_refused_as_the_module_refuses_them)
{
	struct pw_wdev_done done[8];
	uint32_t bos[3], dup[3], small[3], prog, gone;
	struct pwtpu_gang gang;
	struct pwtpu_bo tiny;
	size_t size;
	void *img = binary_image(PWTPU_OP_ADD, &size);
	unsigned int i, dev = 0;
	int res[8];

	ASSERT_NE(NULL, img);
	prog = load(_metadata, &self->w, dev, img, size);
	gone = load(_metadata, &self->w, dev, img, size);
	ASSERT_EQ(0, pw_wdev_prog_unload(&self->w, dev, gone));
	EXPECT_EQ(-ENOENT, pw_wdev_prog_unload(&self->w, dev, gone));
	ASSERT_EQ(0, pw_wdev_bo_create(&self->w, dev, 16, &tiny));
	for (i = 0; i < 3; i++)
		bos[i] = dup[i] = small[i] = self->bo[dev][i].handle;
	dup[2] = dup[0];
	small[2] = tiny.handle;
	pwtpu_gang_fill(&gang, self->w.gang_fd, 5, 4,
			(const unsigned int[]){ 0, 1, 2, 3 }, 0, false, 0);

	ASSERT_EQ(0, pw_wdev_exec(&self->w, dev, prog, bos, 2, NULL, 0));
	ASSERT_EQ(0, pw_wdev_exec(&self->w, dev, prog, dup, 3, NULL, 1));
	ASSERT_EQ(0, pw_wdev_exec(&self->w, dev, prog, small, 3, NULL, 2));
	ASSERT_EQ(0, pw_wdev_exec(&self->w, dev, gone, bos, 3, NULL, 3));
	ASSERT_EQ(0, pw_wdev_exec(&self->w, dev, prog, bos, 3, &gang, 4));
	bos[1] = 999;
	ASSERT_EQ(0, pw_wdev_exec(&self->w, dev, prog, bos, 3, NULL, 5));
	ASSERT_EQ(0, pw_wdev_copy_peer(&self->w, dev, tiny.handle, 8, 9, 1,
				       self->bo[1][0].handle, 0, 6));
	EXPECT_EQ(-EINVAL, pw_wdev_exec(&self->w, 4, prog, bos, 3, NULL, 9));
	ASSERT_EQ(7, pw_wdev_flush(&self->w));
	ASSERT_EQ(7, wait_done(&self->w, done, 7));
	for (i = 0; i < 7; i++)
		res[done[i].tag] = done[i].res;
	EXPECT_EQ(-EINVAL, res[0]);	/* two buffers for three bindings */
	EXPECT_EQ(-EINVAL, res[1]);	/* one buffer bound twice */
	EXPECT_EQ(-ERANGE, res[2]);	/* a buffer too small */
	EXPECT_EQ(-ENOENT, res[3]);	/* an unloaded program */
	EXPECT_EQ(-EINVAL, res[4]);	/* a gang without collectives */
	EXPECT_EQ(-ENOENT, res[5]);	/* no such buffer object */
	EXPECT_EQ(-EINVAL, res[6]);	/* a copy past its buffer's end */

	/* Images: the verifier's, and the module's bounds. */
	((uint8_t *)img)[0] ^= 0xff;
	EXPECT_EQ(-EINVAL, pw_wdev_prog_load(&self->w, dev, img, size, &gone));
	EXPECT_EQ(-EINVAL, pw_wdev_prog_load(&self->w, dev, img, 0, &gone));
	EXPECT_EQ(-E2BIG, pw_wdev_prog_load(&self->w, dev, img, 1 << 30,
					    &gone));
	EXPECT_EQ(-EINVAL, pw_wdev_prog_load(&self->w, 4, img, size, &gone));
	free(img);
}

TEST_F(simdev, hbm_is_charged_in_whole_pages)
{
	struct pwtpu_bo bo[256];
	unsigned int n = 0;
	uint32_t old;
	int ret = 0;

	/* 1 MiB: 256 pages, one each for the fixture's 3 buffer objects. */
	EXPECT_EQ(-E2BIG, pw_wdev_bo_create(&self->w, 0, (1 << 20) + 1,
					    &bo[0]));
	EXPECT_EQ(-EINVAL, pw_wdev_bo_create(&self->w, 0, 0, &bo[0]));
	while (n < 256 && !(ret = pw_wdev_bo_create(&self->w, 0, 1, &bo[n])))
		n++;
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(256u - 3, n);
	/* Another device's HBM is its own. */
	EXPECT_EQ(0, pw_wdev_bo_create(&self->w, 1, 4096, &bo[255]));
	old = bo[0].handle;
	ASSERT_EQ(0, pw_wdev_bo_destroy(&self->w, 0, old));
	EXPECT_EQ(-ENOENT, pw_wdev_bo_destroy(&self->w, 0, old));
	EXPECT_EQ(0, pw_wdev_bo_create(&self->w, 0, 4096, &bo[0]));
	/* Handles are cyclic, as the module's: a stale one stays stale. */
	EXPECT_NE(old, bo[0].handle);
}

/* More commands than the queue holds: it is flushed, none is lost. */
TEST_F(simdev, a_full_queue_is_flushed_to_make_room)
{
	const unsigned int n = PW_WDEV_RING + PW_WDEV_RING / 2;
	struct pw_wdev_done done[64];
	unsigned int i, got = 0;
	uint64_t sum = 0;
	int r;

	for (i = 0; i < n; i++)
		ASSERT_EQ(0, pw_wdev_exec(&self->w, 2, 0, NULL, 0, NULL, i));
	EXPECT_EQ(0, pw_wdev_reserve(&self->w, PW_WDEV_RING));
	ASSERT_LE(0, pw_wdev_flush(&self->w));
	while (got < n) {
		r = wait_done(&self->w, done, 1);
		ASSERT_EQ(1, r);
		sum += done[0].tag;
		EXPECT_EQ(0, done[0].res);
		got++;
	}
	EXPECT_EQ((uint64_t)n * (n - 1) / 2, sum);
}

TEST_F(simdev, copy_peer_moves_a_range_to_another_device)
{
	struct pw_wdev_done done;
	uint8_t *src = self->bo[0][0].map, *dst = self->bo[3][1].map;
	unsigned int i;

	for (i = 0; i < N * 4; i++)
		src[i] = (uint8_t)i;
	ASSERT_EQ(0, pw_wdev_copy_peer(&self->w, 0, self->bo[0][0].handle, 100,
				       300, 3, self->bo[3][1].handle, 8, 1));
	ASSERT_EQ(1, pw_wdev_flush(&self->w));
	ASSERT_EQ(1, wait_done(&self->w, &done, 1));
	EXPECT_EQ(0, done.res);
	for (i = 0; i < N * 4; i++)
		ASSERT_EQ(i >= 8 && i < 308 ? (uint8_t)(i - 8 + 100) : 0,
			  dst[i]);
}

TEST_F(simdev, a_gang_meets_across_the_devices)
{
	struct pw_wdev_done done[4];
	const unsigned int devs[4] = { 0, 1, 2, 3 };
	struct pwtpu_gang gang[4];
	uint32_t prog[4], bos[4][2];
	size_t size;
	void *img = all_reduce_image(&size);
	unsigned int d, i;
	float *f;

	ASSERT_NE(NULL, img);
	/* Queued from the last device to the first: they wait for each other. */
	for (d = 4; d-- > 0;) {
		prog[d] = load(_metadata, &self->w, d, img, size);
		fill(&self->bo[d][0], (float)d);
		bos[d][0] = self->bo[d][0].handle;
		bos[d][1] = self->bo[d][1].handle;
		pwtpu_gang_fill(&gang[d], self->w.gang_fd, 11, 4, devs, d,
				false, 0);
		ASSERT_EQ(0, pw_wdev_exec(&self->w, d, prog[d], bos[d], 2,
					  &gang[d], d));
	}
	ASSERT_EQ(4, pw_wdev_flush(&self->w));
	ASSERT_EQ(4, wait_done(&self->w, done, 4));
	for (d = 0; d < 4; d++)
		EXPECT_EQ(0, done[d].res);
	for (d = 0; d < 4; d++) {
		f = self->bo[d][1].map;
		for (i = 0; i < N; i++)
			ASSERT_EQ(6.0f + 4.0f * (float)i, f[i]);
	}
	free(img);
}

/*
 * Skip timing runs no work (not a DELAY's, no arithmetic: the ADD's
 * result stays as it was) but holds the device for the modelled time:
 * what lets many simulated hosts share a machine.
 */
TEST(skip_timing_holds_the_device_for_the_modelled_time)
{
	struct pw_wdev_sim_cfg c = cfg("sim:1,timing=skip");
	const uint32_t ns[2] = { 3000000, 0 }, one = 1;
	struct pw_wdev_done done;
	struct pwprog *p = pwprog_new(1);
	struct pw_wdev w;
	struct pwtpu_bo bo;
	uint32_t prog;
	size_t size;
	int a, d;
	void *img;
	float *f;

	ASSERT_NE(NULL, p);
	a = pwprog_tensor(p, PWTPU_DT_F32, 1, &one, 0, 0);
	d = pwprog_tensor(p, PWTPU_DT_F32, 1, &one, 0, 4);
	ASSERT_LE(0, a);
	ASSERT_LE(0, d);
	ASSERT_LE(0, pwprog_insn(p, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, ns, 2));
	ASSERT_LE(0, pwprog_binary(p, PWTPU_OP_ADD, d, a, a));
	img = pwprog_image(p, &size);
	pwprog_free(p);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, pw_wdev_open_sim(&w, &c));
	prog = load(_metadata, &w, 0, img, size);
	ASSERT_EQ(0, pw_wdev_bo_alloc(&w, 0, 8, &bo));
	f = bo.map;
	f[0] = 1.0f;
	ASSERT_EQ(0, pw_wdev_exec(&w, 0, prog, &bo.handle, 1, NULL, 1));
	ASSERT_EQ(1, pw_wdev_flush(&w));
	ASSERT_EQ(1, wait_done(&w, &done, 1));
	EXPECT_EQ(0, done.res);
	EXPECT_LE(3000000u, done.exec_ns);
	EXPECT_EQ(0.0f, f[1]);
	pw_wdev_close(&w);
	free(img);
}

TEST(closing_with_commands_in_flight_leaves_nothing)
{
	struct pw_wdev_sim_cfg c = cfg("sim:2");
	struct pwtpu_bo bo[3];
	uint32_t bos[3], prog;
	struct pw_wdev w;
	size_t size;
	void *img = binary_image(PWTPU_OP_ADD, &size);
	unsigned int i;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, pw_wdev_open_sim(&w, &c));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, pw_wdev_bo_alloc(&w, 1, N * 4, &bo[i]));
		bos[i] = bo[i].handle;
	}
	prog = load(_metadata, &w, 1, img, size);
	/* The handles go first: the commands hold what they use. */
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, pw_wdev_exec(&w, 1, prog, bos, 3, NULL, i));
	ASSERT_EQ(100, pw_wdev_flush(&w));
	ASSERT_EQ(0, pw_wdev_prog_unload(&w, 1, prog));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pw_wdev_bo_destroy(&w, 1, bos[i]));
	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, pw_wdev_exec(&w, 0, 0, NULL, 0, NULL, 200 + i));
	/* What this checks, LeakSanitizer does (the sanitize section). */
	pw_wdev_close(&w);
	free(img);
}

/*
 * Closing cancels what is queued and stops what runs, as a dying owner
 * does on the module's devices: twenty commands of a second's DELAY each
 * would hold the close for 20 s.
 */
TEST(closing_cancels_queued_and_running_commands)
{
	struct pw_wdev_sim_cfg c = cfg("sim:1");
	const uint32_t ns[2] = { 1000000000, 0 }, one = 1;
	struct pwprog *p = pwprog_new(1);
	unsigned int cancelled = 0, stopped = 0;
	FILE *log = tmpfile();
	char line[160] = "";
	struct pw_wdev w;
	struct pwtpu_bo bo;
	uint32_t prog;
	size_t size;
	void *img;
	int i;

	ASSERT_NE(NULL, log);
	ASSERT_NE(NULL, p);
	ASSERT_LE(0, pwprog_tensor(p, PWTPU_DT_F32, 1, &one, 0, 0));
	ASSERT_LE(0, pwprog_insn(p, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
				 PWTPU_NO_TENSOR, ns, 2));
	img = pwprog_image(p, &size);
	pwprog_free(p);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, pw_wdev_open_sim(&w, &c));
	prog = load(_metadata, &w, 0, img, size);
	ASSERT_EQ(0, pw_wdev_bo_create(&w, 0, 4, &bo));
	for (i = 0; i < 20; i++)
		ASSERT_EQ(0, pw_wdev_exec(&w, 0, prog, &bo.handle, 1, NULL, i));
	ASSERT_EQ(20, pw_wdev_flush(&w));
	usleep(50000);	/* the first has started */
	pw_log_to(log);
	pw_wdev_close(&w);
	pw_log_to(NULL);
	/*
	 * Each takes 1 s: none ran to its end. The first was running (one
	 * stopped midway) unless the runner had not begun it within 50 ms.
	 */
	rewind(log);
	while (fgets(line, sizeof(line), log) &&
	       sscanf(line, "simulated devices closed: %u queued commands cancelled, %u running stopped",
		      &cancelled, &stopped) != 2)
		;
	EXPECT_EQ(20u, cancelled + stopped) TH_LOG("log: %s", line);
	EXPECT_GE(1u, stopped);
	fclose(log);
	free(img);
}

TEST(devices_are_named_or_refused_with_a_reason)
{
	static const char *const bad[] = {
		"", "gpu", "sim", "sim:", "sim:0", "sim:9x8", "sim:2x2,hbm_mib=0",
		"sim:2x2,hbm_mib=4097", "sim:2x2,hbm_mib=1x", "sim:2x2,timing=fast",
		"sim:2x2,color=red", "sim:2x2x2x2", "sim:2x2,trace=",
	};
	struct pw_wdev_sim_cfg c;
	char err[160];
	unsigned int i;
	bool sim;

	ASSERT_EQ(0, pw_wdev_parse("kernel", &c, &sim, err, sizeof(err)));
	EXPECT_FALSE(sim);
	ASSERT_EQ(0, pw_wdev_parse("sim:2x2x2t,hbm_mib=8,timing=skip", &c,
				   &sim, err, sizeof(err)));
	EXPECT_TRUE(sim);
	EXPECT_EQ(8u, c.ndev);
	EXPECT_STREQ("2x2x2t", c.mesh);
	EXPECT_EQ(8ull << 20, c.hbm_bytes);
	EXPECT_EQ((uint32_t)PWTPU_TIMING_SKIP, c.timing);
	EXPECT_STREQ("", c.trace);
	ASSERT_EQ(0, pw_wdev_parse("sim:4,trace=/nonexistent/dir/t", &c,
				   &sim, err, sizeof(err)));
	EXPECT_STREQ("/nonexistent/dir/t", c.trace);
	/* A trace file that cannot be made: the devices are not opened. */
	EXPECT_EQ(-ENOENT, pw_wdev_open_sim(&(struct pw_wdev){ 0 }, &c));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(-EINVAL, pw_wdev_parse(bad[i], &c, &sim, err,
						 sizeof(err)));
		EXPECT_NE(0, err[0]);
		TH_LOG("'%s': %s", bad[i], err);
	}
	/* A configuration past the wire's limits is refused as well. */
	c.ndev = 0;
	EXPECT_EQ(-EINVAL, pw_wdev_open_sim(&(struct pw_wdev){ 0 }, &c));
}

TEST_HARNESS_MAIN
