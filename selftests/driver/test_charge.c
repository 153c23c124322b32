// SPDX-License-Identifier: GPL-2.0
/*
 * test_charge.c - the kernel memory an open file pins is charged to its
 * process's memory cgroup (programs, BOs, a collective's scratch, which
 * is taken at submission) and bounded per file: at most
 * PWTPU_MAX_HANDLES programs, one more is refused with -EDQUOT. The CPU
 * time of queued commands is charged to the submitter's cgroup. Mounts
 * cgroup2 at /sys/fs/cgroup when it is not there (the testbed's guest).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"

#include "drv_common.h"
#include "drv_gang.h"

#define CGROOT	"/sys/fs/cgroup"
#define NO	PWTPU_NO_TENSOR

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static long long read_ll(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoll(buf) : -1;
}

/* A program of @ninsns instructions (a delay of 1 ns each). */
static void *delay_image(uint32_t ninsns, size_t *size)
{
	struct drv_prog dp;
	int err;
	uint32_t i;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 1);
	for (i = 0; i < ninsns; i++)
		drv_insn(&dp, PWTPU_OP_DELAY, 0, NO, NO, NO, NO, 2, 1, 0);
	return drv_prog_image(&dp, size, &err);
}

FIXTURE(charge) {
	struct drv d;
	char cg[128];
	pid_t child;
};

FIXTURE_SETUP(charge)
{
	char path[192];

	self->child = 0;
	self->cg[0] = '\0';
	DRV_SETUP(&self->d, 0);
	if (access(CGROOT "/cgroup.controllers", F_OK))
		ASSERT_EQ(0, mount("none", CGROOT, "cgroup2", 0, NULL))
			TH_LOG("mount cgroup2: %s", strerror(errno));
	ASSERT_EQ(0, write_file(CGROOT "/cgroup.subtree_control", "+memory"));
	snprintf(self->cg, sizeof(self->cg), CGROOT "/pwtpu-charge-%d",
		 (int)getpid());
	ASSERT_EQ(0, mkdir(self->cg, 0755));
	snprintf(path, sizeof(path), "%s/memory.current", self->cg);
	ASSERT_LE(0, read_ll(path));
}

FIXTURE_TEARDOWN(charge)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	if (self->cg[0])
		rmdir(self->cg);
	drv_teardown(&self->d);
}

enum what { PROGRAMS, BOS };

/*
 * A child joins the test's cgroup and makes @n objects of @bytes each;
 * returns how much memory.current grew while it held them.
 */
static long long charged(FIXTURE_DATA(charge) *self, enum what what,
			 unsigned int n, size_t bytes)
{
	char path[192], pid[16], c;
	long long before, after;
	int ready[2], go[2];

	snprintf(path, sizeof(path), "%s/memory.current", self->cg);
	if (pipe(ready) || pipe(go))
		return -1;
	self->child = fork();
	if (self->child < 0)
		return -1;
	if (self->child == 0) {
		char procs[192];
		size_t size;
		void *image = what == PROGRAMS ? delay_image(4095, &size) :
						 NULL;
		struct pwtpu_prog_load out;
		struct pwtpu_bo bo;
		unsigned int i;
		int fd;

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", self->cg);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (write_file(procs, pid))
			_exit(2);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		fd = pwtpu_open(self->d.index);
		if (fd < 0 || (what == PROGRAMS && (!image || size != bytes)))
			_exit(4);
		for (i = 0; i < n; i++)
			if (what == PROGRAMS ?
			    pwtpu_prog_load(fd, image, size, NULL, 0, &out) :
			    pwtpu_bo_create(fd, bytes, &bo))
				_exit(5);
		if (write(ready[1], "r", 1) != 1)
			_exit(6);
		for (;;)
			pause();
	}
	drv_sleep_ms(100);	/* it has joined: its own pages are counted */
	before = read_ll(path);
	if (write(go[1], "g", 1) != 1 || read(ready[0], &c, 1) != 1)
		return -1;
	after = read_ll(path);
	kill(self->child, SIGKILL);
	waitpid(self->child, NULL, 0);
	self->child = 0;
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	return after - before;
}

/* 256 programs of 128 KiB: 32 MiB of kernel memory, the cgroup's. */
TEST_F_TIMEOUT(charge, programs_are_charged_to_the_loaders_cgroup, 120)
{
	size_t image;
	void *img = delay_image(4095, &image);
	long long grew;

	ASSERT_NE(NULL, img);
	free(img);
	grew = charged(self, PROGRAMS, 256, image);

	TH_LOG("memory.current grew %lld KiB for %zu KiB of programs",
	       grew / 1024, 256 * image / 1024);
	EXPECT_LE((long long)(256 * image * 9 / 10), grew);
}

/* 32 MiB of BOs: charged to the creator's cgroup, not only to HBM. */
TEST_F_TIMEOUT(charge, bos_are_charged_to_the_creators_cgroup, 120)
{
	long long grew = charged(self, BOS, 32, 1 << 20);

	TH_LOG("memory.current grew %lld KiB for 32768 KiB of BOs",
	       grew / 1024);
	/* Per-CPU charge batches may leave a little uncounted yet. */
	EXPECT_LE((32ll << 20) * 9 / 10, grew);
}

/* REDUCE_SCATTER of f32 [SCR_ROWS, 1024] over 4 members: 4 MiB results. */
#define SCR_ROWS	4096
#define SCR_COLS	1024
#define SCR_DST		((long long)SCR_ROWS / 4 * SCR_COLS * 4)

/*
 * The scratch child: joins @cg, sets up rank 0 of a 4-member
 * REDUCE_SCATTER on device 0 (the peers never come), then for each byte
 * read from @go submits the EXEC, writes 's' to @out, and once it
 * completes writes its result to @out as an int. Writes 'r' once set up.
 */
static void scratch_child(const char *cg, int go, int out)
{
	static const uint32_t devs[4] = { 0, 1, 2, 3 };
	struct gang_member m;
	struct io_uring ring;
	char path[192], pid[16], c;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	memset(&m, 0, sizeof(m));
	m.fd = pwtpu_open(0);
	if (write_file(path, pid) || m.fd < 0 ||
	    pwtpu_bo_alloc(m.fd, SCR_DST * 4, &m.in) ||
	    pwtpu_bo_alloc(m.fd, SCR_DST, &m.out) ||
	    gang_load(m.fd, PWTPU_OP_REDUCE_SCATTER, PWTPU_REDUCE_SUM,
		      PWTPU_DT_F32, SCR_ROWS, SCR_ROWS / 4, SCR_COLS, &m.prog) ||
	    pwtpu_ring_init(&ring, 4, 0))
		_exit(2);
	m.bufs[0] = m.in.handle;
	m.bufs[1] = m.out.handle;
	if (write(out, "r", 1) != 1)
		_exit(3);
	while (read(go, &c, 1) == 1) {
		gang_fill(&m.gang, gang_random_id(), 4, 0, devs, NULL, NULL);
		m.res = 1;
		if (gang_submit(&ring, &m, 1) || write(out, "s", 1) != 1 ||
		    gang_reap(&ring, &m, 1, 60000) ||
		    write(out, &m.res, sizeof(m.res)) != sizeof(m.res))
			_exit(4);
	}
	_exit(0);
}

/*
 * A collective's scratch (here 8 MiB, twice a REDUCE_SCATTER's result) is
 * allocated when the EXEC is submitted and charged to the submitter's
 * cgroup: memory.current holds it while the EXEC waits for its peers and
 * gives it back after. Under a memory.max without room for it the EXEC
 * fails at once with -ENOMEM, and nobody is OOM-killed. Before, the device
 * thread allocated it, uncharged, and the EXEC waited and timed out.
 */
TEST_F_TIMEOUT(charge, collective_scratch_is_charged_at_submit, 120)
{
	char cur[192], max[192], text[32], c;
	long long before, during, after;
	int go[2], out[2], res;

	if (self->d.info.ndevices < 4)
		DRV_SKIP("a 4-member gang needs 4 devices");
	if (skip_mode(&self->d))
		DRV_SKIP("timing=skip: collectives compute nothing, need no scratch");
	snprintf(cur, sizeof(cur), "%s/memory.current", self->cg);
	snprintf(max, sizeof(max), "%s/memory.max", self->cg);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(out));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		close(go[1]);	/* its reads end when the test closes it */
		close(out[0]);
		scratch_child(self->cg, go[0], out[1]);
	}
	close(out[1]);
	ASSERT_EQ(1, read(out[0], &c, 1));

	before = read_ll(cur);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(1, read(out[0], &c, 1));	/* submitted: it waits */
	during = read_ll(cur);
	ASSERT_EQ((ssize_t)sizeof(res), read(out[0], &res, sizeof(res)));
	EXPECT_EQ(-ETIMEDOUT, res);
	after = read_ll(cur);
	TH_LOG("memory.current: %lld KiB, %lld KiB while waiting, %lld after",
	       before / 1024, during / 1024, after / 1024);
	EXPECT_LE(2 * SCR_DST * 9 / 10, during - before);
	EXPECT_GE(before + SCR_DST / 4, after);

	/* No room for the scratch: refused at submission. */
	snprintf(text, sizeof(text), "%lld", after + (1 << 20));
	ASSERT_EQ(0, write_file(max, text));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(1, read(out[0], &c, 1));
	ASSERT_EQ((ssize_t)sizeof(res), read(out[0], &res, sizeof(res)));
	EXPECT_EQ(-ENOMEM, res);
	close(go[1]);
	EXPECT_TRUE(drv_child_gone(self->child, 10000, &res));
	EXPECT_TRUE(WIFEXITED(res) && WEXITSTATUS(res) == 0)
		TH_LOG("the child was killed (OOM?) or failed: %#x", res);
	self->child = 0;
	close(go[0]);
	close(out[0]);
}

/* Figure @key of @cg's cpu.stat (usage_usec, nr_throttled...); -1 if none. */
static long long cpu_stat(const char *cg, const char *key)
{
	char path[192], line[64], name[32];
	long long value = -1, v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.stat", cg);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %lld", name, &v) == 2 &&
		    !strcmp(name, key)) {
			value = v;
			break;
		}
	fclose(f);
	return value;
}

/*
 * The CPU child: joins @cg, loads a program of real work (@trips f32
 * 128x128 matmuls), writes 'r', and on 'g' runs it once through @path,
 * queued (never inline), then writes its exec time in ns (or -errno)
 * as a long long and waits to be killed.
 */
static void cpu_child(const char *cg, enum drv_path path, uint32_t trips,
		      int go, int out)
{
	long long exec_ns;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	char procs[192], pid[16], c;
	uint64_t extra;
	uint32_t prog;
	struct drv d;
	int ret;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (write_file(procs, pid) || drv_setup(&d, 4))
		_exit(2);
	if (drv_load_matmul_loop(d.fd, trips, &prog, NULL) ||
	    pwtpu_bo_create(d.fd, DRV_MM_BYTES, &bo) ||
	    write(out, "r", 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	pwtpu_cmd_exec(&cmd, prog, &bo.handle, 1);
	cmd.flags = PWTPU_CMD_F_QUEUED;
	ret = drv_cmd(&d, path, PWTPU_CMD_EXEC, &cmd, &extra);
	if (ret)
		exec_ns = ret;
	else if (path == DRV_IOCTL)
		exec_ns = (long long)(cmd.end_ns - cmd.start_ns);
	else
		exec_ns = (long long)(extra >> 32);
	if (write(out, &exec_ns, sizeof(exec_ns)) != sizeof(exec_ns))
		_exit(4);
	for (;;)
		pause();
}

/*
 * A queued command's CPU time is its submitter's: the child's cgroup's
 * cpu.stat usage_usec grows by at least half the command's exec time
 * (real work, nearly all of it CPU). Before, the device's kernel thread
 * ran every queued command and the cgroup saw none of it.
 */
static void queued_work_is_charged(struct __test_metadata *_metadata,
				   FIXTURE_DATA(charge) *self,
				   enum drv_path path)
{
	long long before, after, exec_ns = 0;
	int go[2], out[2];
	char c;

	if (skip_mode(&self->d))
		DRV_SKIP("timing=skip computes nothing: no real work to charge");
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(out));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child)
		cpu_child(self->cg, path, 16, go[0], out[1]);
	ASSERT_EQ(1, read(out[0], &c, 1)) TH_LOG("the child failed to set up");
	before = cpu_stat(self->cg, "usage_usec");
	ASSERT_LE(0, before);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ((ssize_t)sizeof(exec_ns),
		  read(out[0], &exec_ns, sizeof(exec_ns)));
	after = cpu_stat(self->cg, "usage_usec");
	ASSERT_LT(0, exec_ns) TH_LOG("the EXEC failed: %lld", exec_ns);
	TH_LOG("%s: exec %lld us; the cgroup's usage_usec grew %lld us",
	       drv_path_name(path), exec_ns / 1000, after - before);
	EXPECT_LE(exec_ns / 1000 / 2, after - before);
	close(go[0]);
	close(go[1]);
	close(out[0]);
	close(out[1]);
}

TEST_F_TIMEOUT(charge, queued_uring_work_is_charged_to_the_submitter, 120)
{
	queued_work_is_charged(_metadata, self, DRV_URING);
}

TEST_F_TIMEOUT(charge, queued_ioctl_work_is_charged_to_the_submitter, 120)
{
	queued_work_is_charged(_metadata, self, DRV_IOCTL);
}

/* Whether cgroup2 offers controller @name (the debug kernel has no cpu). */
static bool has_controller(const char *name)
{
	char list[256] = "", *tok, *save;
	int fd = open(CGROOT "/cgroup.controllers", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n <= 0)
		return false;
	list[n] = '\0';
	for (tok = strtok_r(list, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, name))
			return true;
	return false;
}

/*
 * A queued command runs under its submitter's CPU share, and holds the
 * device meanwhile: the watchdog bounds a host copy too. A child whose
 * cgroup may use 1 ms of CPU a second (cpu.max 1000 1000000) copies
 * 48 MiB to the device. With watchdog_ms at 100, the copy has at most
 * two quotas before its deadline, each overrun by at most a tick (which
 * the next period pays back): some 10 ms of CPU, too little for 48 MiB.
 * Past the deadline, the copy's next 1 MiB check stops it with -ETIME.
 * This leans on CFS bandwidth control stopping a task inside the kernel
 * at its next cond_resched(), as Linux 6.1 (the testbed's) does; a
 * kernel that throttles only on the way back to user space would let
 * the copy run through.
 * (A 16 MiB copy under a 100 ms period once finished on its second
 * quota.) Before, a copy had no watchdog.
 */
TEST_F_TIMEOUT(charge, a_throttled_copy_is_stopped_by_the_watchdog, 120)
{
	const size_t bytes = 48 << 20;
	struct timespec t0, t1;
	char path[192];
	uint64_t watchdog;
	int out[2], res = 1;

	if (!has_controller("cpu"))
		DRV_SKIP("no cpu controller in this kernel (CONFIG_CFS_BANDWIDTH)");
	ASSERT_EQ(0, write_file(CGROOT "/cgroup.subtree_control", "+cpu"));
	snprintf(path, sizeof(path), "%s/cpu.max", self->cg);
	ASSERT_EQ(0, write_file(path, "1000 1000000"));
	ASSERT_EQ(0, pwtpu_param_u64("watchdog_ms", &watchdog));
	ASSERT_EQ(0, pipe(out));
	ASSERT_EQ(0, drv_param_write("watchdog_ms", 100));
	self->child = fork();
	if (!self->child) {
		char procs[192], pid[16];
		struct pwtpu_bo bo;
		void *src = malloc(bytes);
		int fd;

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", self->cg);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		fd = pwtpu_open(self->d.index);
		if (!src || fd < 0 || pwtpu_bo_create(fd, bytes, &bo))
			_exit(2);
		memset(src, 7, bytes);	/* faulted in before the throttle */
		if (write_file(procs, pid))
			_exit(3);
		res = pwtpu_copy_to_dev(fd, bo.handle, 0, src, bytes);
		_exit(write(out[1], &res, sizeof(res)) == sizeof(res) ? 0 : 4);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ((ssize_t)sizeof(res), read(out[0], &res, sizeof(res)));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_EQ(0, drv_param_write("watchdog_ms", (unsigned int)watchdog));
	TH_LOG("the copy ended after %lld ms: the cgroup used %lld us of CPU, throttled %lld times for %lld us",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000 +
	       (t1.tv_nsec - t0.tv_nsec) / 1000000,
	       cpu_stat(self->cg, "usage_usec"),
	       cpu_stat(self->cg, "nr_throttled"),
	       cpu_stat(self->cg, "throttled_usec"));
	EXPECT_EQ(-ETIME, res);
	close(out[0]);
	close(out[1]);
}

/* One file holds at most PWTPU_MAX_HANDLES programs: -EDQUOT past it. */
TEST_F_TIMEOUT(charge, a_file_holds_at_most_max_handles_programs, 300)
{
	uint32_t first = 0, h;
	size_t size;
	void *image = delay_image(1, &size);
	unsigned int i;
	int fd = pwtpu_open(self->d.index), ret = 0;
	struct pwtpu_prog_load out;

	ASSERT_NE(NULL, image);
	ASSERT_LE(0, fd);
	for (i = 0; i < PWTPU_MAX_HANDLES && !ret; i++) {
		ret = pwtpu_prog_load(fd, image, size, NULL, 0, &out);
		if (!i)
			first = out.handle;
	}
	ASSERT_EQ(0, ret) TH_LOG("load %u failed", i);
	EXPECT_EQ(-EDQUOT, pwtpu_prog_load(fd, image, size, NULL, 0, &out));
	/* One unloaded: room for one more. */
	ASSERT_EQ(0, pwtpu_prog_unload(fd, first));
	EXPECT_EQ(0, pwtpu_prog_load(fd, image, size, NULL, 0, &out));
	h = out.handle;
	EXPECT_NE(0u, h);
	close(fd);
	free(image);
}

TEST_HARNESS_MAIN
