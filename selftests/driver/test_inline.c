// SPDX-License-Identifier: GPL-2.0
/*
 * test_inline.c - the fast path. A short command that finds its device
 * idle runs in the submitter's context (sysfs cmds_inline counts it);
 * a busy device, long work, a long model, a large copy, COPY_PEER, a gang
 * member, PWTPU_CMD_F_QUEUED and inline_us=0 send it to the device
 * thread. Inline and queued commands keep submission order, under load
 * and with a gang in between; a failing command in a batch completes
 * with its errno; IOPOLL rings work, and a polled and a sleeping waiter
 * on one device both complete.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "drv_common.h"
#include "drv_gang.h"

#define NO		PWTPU_NO_TENSOR
#define BIG_ADD		65600	/* f32 elements, past one 64 Ki piece of work */
#define STEPS		96	/* of the order test */

/* The rings here are sized so that this cannot fail. */
static struct io_uring_sqe *next_sqe(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		abort();
	return sqe;
}

static uint64_t inlined(unsigned int index)
{
	uint64_t n = UINT64_MAX;

	pwtpu_sysfs_u64(index, "cmds_inline", &n);
	return n;
}

/* A program that only waits @ns nanoseconds; binds one buffer. */
static int load_delay(int fd, uint32_t ns, uint32_t *prog)
{
	return drv_load_delay(fd, 1, ns, prog);
}

/*
 * @trips runs of a 1-element f32 add, in a LOOP: many cheap instructions,
 * little work. Its modelled time in *@modeled_ns.
 */
static int load_loop(int fd, uint32_t trips, uint32_t *prog,
		     uint64_t *modeled_ns)
{
	struct pwtpu_prog_load out;
	struct drv_prog dp;
	int a, b, c, ret;

	drv_prog_init(&dp, 1);
	a = drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 1);
	b = drv_tensor(&dp, PWTPU_DT_F32, 0, 4, 1, 1);
	c = drv_tensor(&dp, PWTPU_DT_F32, 0, 8, 1, 1);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, NO, NO, NO, NO, 2, trips, 1);
	drv_binary(&dp, PWTPU_OP_ADD, c, a, b);
	ret = drv_prog_load(fd, &dp, prog, &out, NULL, 0);
	*modeled_ns = out.modeled_ns;
	return ret;
}

/*
 * acc = acc * 3 + v, i32 at 0 (acc), 4 (three), 8 (v), 12 (scratch) of
 * one buffer: a run of them is a witness of the order of the writes of
 * v and the EXECs between them.
 */
static int load_step(int fd, uint32_t *prog)
{
	struct drv_prog dp;
	int acc, three, v, t;

	drv_prog_init(&dp, 1);
	acc = drv_tensor(&dp, PWTPU_DT_I32, 0, 0, 1, 1);
	three = drv_tensor(&dp, PWTPU_DT_I32, 0, 4, 1, 1);
	v = drv_tensor(&dp, PWTPU_DT_I32, 0, 8, 1, 1);
	t = drv_tensor(&dp, PWTPU_DT_I32, 0, 12, 1, 1);
	drv_binary(&dp, PWTPU_OP_MUL, t, acc, three);
	drv_binary(&dp, PWTPU_OP_ADD, acc, t, v);
	return drv_prog_load(fd, &dp, prog, NULL, NULL, 0);
}

static void copy_cmd(struct pwtpu_cmd *cmd, uint32_t bo, uint64_t offset,
		     void *host, uint64_t length)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->handle = bo;
	cmd->offset = offset;
	cmd->host_ptr = (uintptr_t)host;
	cmd->length = length;
}

FIXTURE(inl) {
	struct drv d;
	uint64_t inline_us;
	struct pwtpu_bo bo;	/* 1 MiB */
	uint32_t add1, add_big, delay_long, delay_short;
	void *host;		/* 256 KiB, page aligned */
};

FIXTURE_VARIANT(inl) {
	enum drv_path path;
};

FIXTURE_VARIANT_ADD(inl, ioctl) {
	.path = DRV_IOCTL,
};

FIXTURE_VARIANT_ADD(inl, uring) {
	.path = DRV_URING,
};

FIXTURE_SETUP(inl)
{
	DRV_SETUP(&self->d, 64);
	ASSERT_EQ(0, pwtpu_param_u64("inline_us", &self->inline_us));
	ASSERT_EQ(20u, self->inline_us) TH_LOG("the tests expect the default");
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 1 << 20, &self->bo));
	ASSERT_EQ(0, drv_load_add(self->d.fd, 1, &self->add1));
	ASSERT_EQ(0, drv_load_add(self->d.fd, BIG_ADD, &self->add_big));
	ASSERT_EQ(0, load_delay(self->d.fd, 100000, &self->delay_long));
	ASSERT_EQ(0, load_delay(self->d.fd, 1000, &self->delay_short));
	self->host = mmap(NULL, 256 << 10, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	memset(self->host, 0x5a, 256 << 10);
}

FIXTURE_TEARDOWN(inl)
{
	drv_param_write("inline_us", (unsigned int)self->inline_us);
	munmap(self->host, 256 << 10);
	drv_teardown(&self->d);
}

/* Run one command through the variant's path: how many ran inline. */
static int ran_inline(struct __test_metadata *_metadata,
		      FIXTURE_DATA(inl) *self, enum drv_path path,
		      uint32_t op, struct pwtpu_cmd *cmd)
{
	uint64_t before = inlined(self->d.index);
	int ret = drv_cmd(&self->d, path, op, cmd, NULL);

	EXPECT_EQ(0, ret) TH_LOG("op %#x", op);
	return (int)(inlined(self->d.index) - before);
}

TEST_F(inl, short_commands_run_inline)
{
	enum drv_path path = variant->path;
	uint8_t *host = self->host;
	struct pwtpu_cmd cmd;
	float *out;

	memset(&cmd, 0, sizeof(cmd));
	EXPECT_EQ(1, ran_inline(_metadata, self, path, PWTPU_CMD_NOP, &cmd));

	/* 1.5 + 2.25, computed inline and read back through the BO. */
	out = self->bo.map;
	out[0] = 1.5f;
	out[1] = 2.25f;
	pwtpu_cmd_exec(&cmd, self->add1, &self->bo.handle, 1);
	EXPECT_EQ(1, ran_inline(_metadata, self, path, PWTPU_CMD_EXEC, &cmd));
	if (!skip_mode(&self->d))	/* skip: the model's time, no sums */
		EXPECT_EQ(3.75f, out[2]);
	pwtpu_cmd_exec(&cmd, self->delay_short, &self->bo.handle, 1);
	EXPECT_EQ(1, ran_inline(_metadata, self, path, PWTPU_CMD_EXEC, &cmd));

	/* Copies up to the limit, aligned or not, both ways, checked. */
	host[0] = 0x11;
	host[PWTPU_INLINE_COPY_MAX - 1] = 0x22;
	copy_cmd(&cmd, self->bo.handle, 4096, host, PWTPU_INLINE_COPY_MAX);
	EXPECT_EQ(1, ran_inline(_metadata, self, path, PWTPU_CMD_COPY_TO_DEV,
				&cmd));
	EXPECT_EQ(0x11, ((uint8_t *)self->bo.map)[4096]);
	EXPECT_EQ(0x22, ((uint8_t *)self->bo.map)[4096 +
						  PWTPU_INLINE_COPY_MAX - 1]);
	copy_cmd(&cmd, self->bo.handle, 4096, host + 100,
		 PWTPU_INLINE_COPY_MAX);
	EXPECT_EQ(1, ran_inline(_metadata, self, path,
				PWTPU_CMD_COPY_FROM_DEV, &cmd));
	EXPECT_EQ(0x11, host[100]);
	EXPECT_EQ(0x22, host[100 + PWTPU_INLINE_COPY_MAX - 1]);
}

TEST_F(inl, long_or_large_commands_are_queued)
{
	enum drv_path path = variant->path;
	struct pwtpu_cmd cmd;
	uint64_t before;
	struct pwtpu_bo peer_bo;
	uint64_t loop_ns;
	uint32_t loop;
	int peer_fd;

	/* Work past one firmware piece, though modelled at well under 20 us. */
	pwtpu_cmd_exec(&cmd, self->add_big, &self->bo.handle, 1);
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_EXEC, &cmd));
	/*
	 * Past PWTPU_INLINE_MAX_INSNS instructions run, though modelled
	 * within inline_us and little work: a spec may price instructions
	 * at nothing, so the count bounds an inline command too.
	 */
	ASSERT_EQ(0, load_loop(self->d.fd, 300, &loop, &loop_ns));
	ASSERT_GE(20000u, loop_ns) TH_LOG("the loop must fit inline_us");
	pwtpu_cmd_exec(&cmd, loop, &self->bo.handle, 1);
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_EXEC, &cmd));
	ASSERT_EQ(0, load_loop(self->d.fd, PWTPU_INLINE_MAX_INSNS / 2, &loop,
			       &loop_ns));
	pwtpu_cmd_exec(&cmd, loop, &self->bo.handle, 1);
	EXPECT_EQ(1, ran_inline(_metadata, self, path, PWTPU_CMD_EXEC, &cmd));
	/* Modelled past inline_us, though no work. */
	pwtpu_cmd_exec(&cmd, self->delay_long, &self->bo.handle, 1);
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_EXEC, &cmd));
	/* A byte past the copy limit. */
	copy_cmd(&cmd, self->bo.handle, 0, self->host,
		 PWTPU_INLINE_COPY_MAX + 1);
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_COPY_TO_DEV,
				&cmd));
	/* Asked for. */
	memset(&cmd, 0, sizeof(cmd));
	cmd.flags = PWTPU_CMD_F_QUEUED;
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_NOP, &cmd));
	pwtpu_cmd_exec(&cmd, self->add1, &self->bo.handle, 1);
	cmd.flags = PWTPU_CMD_F_QUEUED;
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_EXEC, &cmd));
	/* COPY_PEER waits for the island's links: never inline. */
	peer_fd = pwtpu_open(self->d.index);
	ASSERT_LE(0, peer_fd);
	ASSERT_EQ(0, pwtpu_bo_create(peer_fd, 4096, &peer_bo));
	memset(&cmd, 0, sizeof(cmd));
	cmd.handle = self->bo.handle;
	cmd.length = 64;
	cmd.peer_fd = peer_fd;
	cmd.peer_handle = peer_bo.handle;
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_COPY_PEER,
				&cmd));
	close(peer_fd);
	/* Switched off. */
	ASSERT_EQ(0, drv_param_write("inline_us", 0));
	memset(&cmd, 0, sizeof(cmd));
	EXPECT_EQ(0, ran_inline(_metadata, self, path, PWTPU_CMD_NOP, &cmd));
	ASSERT_EQ(0, drv_param_write("inline_us", 20));
	/* And back: the device is idle again after all of them. */
	before = inlined(self->d.index);
	EXPECT_EQ(1, ran_inline(_metadata, self, path, PWTPU_CMD_NOP, &cmd));
	EXPECT_EQ(before + 1, inlined(self->d.index));
}

/*
 * Behind a 50 ms command another file's NOP finds the device busy: it
 * waits its turn on the queue rather than overtaking.
 */
TEST_F(inl, a_busy_device_queues_short_commands)
{
	struct pwtpu_cmd cmd, nop = { 0 };
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	uint64_t before, t0;
	uint32_t delay;
	int fd = pwtpu_open(self->d.index);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pwtpu_ring_init(&ring, 4, 0));
	ASSERT_EQ(0, load_delay(self->d.fd, 50000000, &delay));
	pwtpu_cmd_exec(&cmd, delay, &self->bo.handle, 1);
	t0 = drv_now_ns();
	pwtpu_prep_uring_cmd(next_sqe(&ring), self->d.fd,
			     PWTPU_CMD_EXEC, &cmd);
	ASSERT_EQ(1, io_uring_submit(&ring));
	ASSERT_TRUE(drv_wait_queue_depth(self->d.index, 0, 5000));
	before = inlined(self->d.index);
	if (variant->path == DRV_IOCTL) {
		EXPECT_EQ(0, pwtpu_cmd_sync(fd, PWTPU_CMD_NOP, &nop));
	} else {
		pwtpu_prep_uring_cmd(next_sqe(&ring), fd,
				     PWTPU_CMD_NOP, &nop);
		ASSERT_EQ(1, io_uring_submit(&ring));
		/* The first completion is the delay's. */
		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		EXPECT_EQ(0, cqe->res);
		io_uring_cqe_seen(&ring, cqe);
		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		EXPECT_EQ(0, cqe->res);
		io_uring_cqe_seen(&ring, cqe);
	}
	EXPECT_LE(t0 + 50000000ull, drv_now_ns());
	EXPECT_EQ(before, inlined(self->d.index));
	if (variant->path == DRV_IOCTL) {
		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		EXPECT_EQ(0, cqe->res);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	close(fd);
}

TEST_F(inl, inline_us_range)
{
	EXPECT_EQ(-EINVAL, drv_param_write("inline_us", 1001));
	EXPECT_EQ(0, drv_param_write("inline_us", 1000));
	EXPECT_EQ(0, drv_param_write("inline_us", 0));
	EXPECT_EQ(0, drv_param_write("inline_us", 20));
}

/*
 * One batch on one ring: a NOP, an EXEC with a handle the file does not
 * own, a short copy from a bad address, and another NOP. The bad ones
 * complete with their errno, the others succeed, and the device still
 * runs inline afterwards.
 */
TEST(a_failing_command_in_a_batch_completes_with_its_errno)
{
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd[4];
	const uint32_t ops[4] = {
		PWTPU_CMD_NOP, PWTPU_CMD_EXEC, PWTPU_CMD_COPY_TO_DEV,
		PWTPU_CMD_NOP,
	};
	struct pwtpu_bo bo;
	struct drv d;
	int res[4], i;
	uint64_t before;
	uint32_t bad = 0xfffff;

	DRV_SETUP(&d, 8);
	ASSERT_EQ(0, pwtpu_bo_alloc(d.fd, 4096, &bo));
	memset(cmd, 0, sizeof(cmd));
	pwtpu_cmd_exec(&cmd[1], 12345, &bad, 1);
	copy_cmd(&cmd[2], bo.handle, 0, (void *)16, 64);
	for (i = 0; i < 4; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&d.ring);

		ASSERT_NE(NULL, sqe);
		pwtpu_prep_uring_cmd(sqe, d.fd, ops[i], &cmd[i]);
		sqe->user_data = (uint64_t)i;
		res[i] = 1;
	}
	before = inlined(d.index);
	ASSERT_EQ(4, io_uring_submit(&d.ring));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&d.ring, &cqe));
		ASSERT_GT(4u, cqe->user_data);
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(&d.ring, cqe);
	}
	EXPECT_EQ(0, res[0]);
	EXPECT_EQ(-ENOENT, res[1]);
	EXPECT_EQ(-EFAULT, res[2]);
	EXPECT_EQ(0, res[3]);
	EXPECT_EQ(before + 2, inlined(d.index));
	pwtpu_bo_free(d.fd, &bo);
	drv_teardown(&d);
}

/* A child hammering the device with NOPs while the order test runs. */
static pid_t start_load(unsigned int index)
{
	pid_t pid = fork();
	struct pwtpu_cmd nop = { 0 };
	int fd;

	if (pid)
		return pid;
	fd = pwtpu_open(index);
	if (fd < 0)
		_exit(1);
	for (;;)
		if (pwtpu_cmd_sync(fd, PWTPU_CMD_NOP, &nop))
			_exit(2);
}

/* Write *@v to the step's v and run it, each at random forced queued. */
static void queue_step(struct drv *d, struct pwtpu_bo *bo, uint32_t step,
		       int32_t *v)
{
	struct pwtpu_cmd cmd;

	copy_cmd(&cmd, bo->handle, 8, v, 4);
	cmd.flags = rand() % 2 ? PWTPU_CMD_F_QUEUED : 0;
	pwtpu_prep_uring_cmd(next_sqe(&d->ring), d->fd,
			     PWTPU_CMD_COPY_TO_DEV, &cmd);
	pwtpu_cmd_exec(&cmd, step, &bo->handle, 1);
	cmd.flags = rand() % 2 ? PWTPU_CMD_F_QUEUED : 0;
	pwtpu_prep_uring_cmd(next_sqe(&d->ring), d->fd,
			     PWTPU_CMD_EXEC, &cmd);
}

/* Both members of a new two-device gang, in rank order. */
static void queue_gang(struct drv *d, struct gang_member *m,
		       const uint32_t *devs)
{
	uint64_t id = gang_random_id();
	struct pwtpu_cmd cmd;
	unsigned int r;

	for (r = 0; r < 2; r++) {
		gang_fill(&m[r].gang, id, 2, r, devs, NULL, NULL);
		gang_cmd(&m[r], &cmd);
		pwtpu_prep_uring_cmd(next_sqe(&d->ring), m[r].fd,
				     PWTPU_CMD_EXEC, &cmd);
	}
}

/*
 * STEPS writes of a value and EXECs of acc = acc * 3 + v on one ring,
 * in batches, each command at random inline-eligible or forced to the
 * queue, with a 1 ms command now and then and a two-member gang (the
 * other member on another device) in between, while another process
 * hammers the device with NOPs: acc comes out as the order says.
 */
TEST(inline_and_queued_keep_submission_order)
{
	struct gang_member m[2];
	struct io_uring_cqe *cqe;
	uint32_t step, delay, devs[2], *acc_bo;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	int32_t v[STEPS];
	uint32_t want;
	unsigned int i, n, reaped, gangs, round;
	uint64_t before;
	struct drv d;
	pid_t load;

	DRV_SETUP(&d, 1024);
	if (skip_mode(&d))
		DRV_SKIP("timing=skip computes nothing");
	if (d.info.ndevices < 2)
		DRV_SKIP("the gang needs two devices");
	srand(7);
	ASSERT_EQ(0, pwtpu_bo_alloc(d.fd, 4096, &bo));
	ASSERT_EQ(0, load_step(d.fd, &step));
	ASSERT_EQ(0, load_delay(d.fd, 1000000, &delay));
	acc_bo = bo.map;
	acc_bo[0] = 0;
	acc_bo[1] = 3;

	/* The gang: a sum over two devices, this one and the next. */
	devs[0] = d.index;
	devs[1] = (d.index + 1) % d.info.ndevices;
	memset(m, 0, sizeof(m));
	for (i = 0; i < 2; i++) {
		m[i].dev = devs[i];
		m[i].fd = i ? pwtpu_open(devs[1]) : d.fd;
		ASSERT_LE(0, m[i].fd);
		ASSERT_EQ(0, gang_alloc(&m[i], 4096));
		ASSERT_EQ(0, gang_load(m[i].fd, PWTPU_OP_ALL_REDUCE,
				       PWTPU_REDUCE_SUM, PWTPU_DT_F32, 1, 1,
				       4, &m[i].prog));
	}

	/* Round 0 alone (some commands must run inline), 1 under load. */
	for (round = 0; round < 2; round++) {
		load = round ? start_load(d.index) : 0;
		ASSERT_LE(0, load);
		acc_bo[0] = 0;
		want = 0;
		n = reaped = gangs = 0;
		before = inlined(d.index);
		for (i = 0; i < STEPS; i++) {
			v[i] = rand() % 1000;
			want = want * 3 + (uint32_t)v[i];
			queue_step(&d, &bo, step, &v[i]);
			n += 2;
			if (i % 16 == 5) {
				pwtpu_cmd_exec(&cmd, delay, &bo.handle, 1);
				pwtpu_prep_uring_cmd(next_sqe(&d.ring),
						     d.fd, PWTPU_CMD_EXEC,
						     &cmd);
				n++;
			}
			if (i % 32 == 17) {
				queue_gang(&d, m, devs);
				n += 2;
				gangs++;
			}
			/* Batches of 8 steps, reaped before the next. */
			if (i % 8 == 7 || i == STEPS - 1) {
				ASSERT_LT(0, io_uring_submit(&d.ring));
				while (reaped < n) {
					ASSERT_EQ(0, io_uring_wait_cqe(&d.ring,
								       &cqe));
					EXPECT_EQ(0, cqe->res);
					io_uring_cqe_seen(&d.ring, cqe);
					reaped++;
				}
			}
		}
		if (load) {
			kill(load, SIGKILL);
			waitpid(load, NULL, 0);
		} else {
			EXPECT_LT(before, inlined(d.index));
		}
		EXPECT_EQ(want, acc_bo[0]) TH_LOG("round %u", round);
		EXPECT_EQ(3u, gangs);
	}
	for (i = 0; i < 2; i++) {
		gang_free(&m[i]);
		if (i)
			close(m[i].fd);
	}
	pwtpu_bo_free(d.fd, &bo);
	drv_teardown(&d);
}

/* A pwtpu ring (SQE128, CQE32) set up with IORING_SETUP_IOPOLL. */
static int iopoll_ring(struct io_uring *ring, unsigned int entries)
{
	return pwtpu_ring_init(ring, entries, IORING_SETUP_IOPOLL);
}

/*
 * IOPOLL: a short command completes inline, a queued one by the device
 * thread; results and the CQE32 word are there either way. A polled
 * ring without SQE128 and CQE32 is refused like any other.
 */
TEST(iopoll_ring_runs_inline_and_queued_commands)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring, bad;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	struct io_uring_sqe *sqe;
	uint64_t extra, before;
	uint32_t add, delay;
	struct drv d;
	float *f;
	int i;

	DRV_SETUP(&d, 0);
	ASSERT_EQ(0, iopoll_ring(&ring, 16));
	ASSERT_EQ(0, pwtpu_bo_alloc(d.fd, 4096, &bo));
	ASSERT_EQ(0, drv_load_add(d.fd, 1, &add));
	ASSERT_EQ(0, load_delay(d.fd, 50000000, &delay));
	f = bo.map;
	f[0] = 2.0f;
	f[1] = 0.5f;
	pwtpu_cmd_exec(&cmd, add, &bo.handle, 1);
	before = inlined(d.index);
	EXPECT_EQ(0, pwtpu_uring_run(&ring, d.fd, PWTPU_CMD_EXEC, &cmd,
				     &extra));
	EXPECT_EQ(before + 1, inlined(d.index));
	if (!skip_mode(&d))
		EXPECT_EQ(2.5f, f[2]);

	/*
	 * 50 ms at the head, long past the slowest kernel's issue of the
	 * eight NOPs behind it: they are queued, then polled.
	 */
	pwtpu_cmd_exec(&cmd, delay, &bo.handle, 1);
	pwtpu_prep_uring_cmd(next_sqe(&ring), d.fd, PWTPU_CMD_EXEC,
			     &cmd);
	memset(&cmd, 0, sizeof(cmd));
	for (i = 0; i < 8; i++) {
		sqe = next_sqe(&ring);
		pwtpu_prep_uring_cmd(sqe, d.fd, PWTPU_CMD_NOP, &cmd);
		sqe->user_data = (uint64_t)i + 1;
	}
	before = inlined(d.index);
	ASSERT_EQ(9, io_uring_submit(&ring));
	for (i = 0; i < 9; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		EXPECT_EQ(0, cqe->res);
		/* The delay's own time is in its CQE32 word. */
		if (cqe->user_data == 0)
			EXPECT_LE(45000000u,
				  PWTPU_CQE_EXEC_NS(cqe->big_cqe[0]));
		io_uring_cqe_seen(&ring, cqe);
	}
	/* None of them ran inline: the device was busy with the delay. */
	EXPECT_EQ(before, inlined(d.index));
	io_uring_queue_exit(&ring);

	ASSERT_EQ(0, io_uring_queue_init(4, &bad, IORING_SETUP_IOPOLL));
	memset(&cmd, 0, sizeof(cmd));
	EXPECT_EQ(-EINVAL, pwtpu_uring_run(&bad, d.fd, PWTPU_CMD_NOP, &cmd,
					   NULL));
	io_uring_queue_exit(&bad);
	pwtpu_bo_free(d.fd, &bo);
	drv_teardown(&d);
}

struct sleeper {
	struct io_uring ring;
	int res[4];
	int done;
};

/* Wait (sleeping in io_uring_enter) for the four completions. */
static void *sleep_for_completions(void *arg)
{
	struct sleeper *s = arg;
	struct io_uring_cqe *cqe;

	for (s->done = 0; s->done < 4; s->done++) {
		if (io_uring_wait_cqe(&s->ring, &cqe))
			break;
		s->res[s->done] = cqe->res;
		io_uring_cqe_seen(&s->ring, cqe);
	}
	return NULL;
}

/*
 * Two waiters on one device behind a 20 ms command: a thread sleeping on
 * an ordinary ring and this thread polling an IOPOLL ring, four NOPs
 * each, all queued. Both get all their completions.
 */
TEST(a_polled_and_a_sleeping_waiter_both_complete)
{
	struct io_uring_cqe *cqe;
	struct io_uring polled;
	struct sleeper s;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	pthread_t thread;
	uint32_t delay;
	struct drv d;
	int i;

	DRV_SETUP(&d, 0);
	ASSERT_EQ(0, pwtpu_bo_alloc(d.fd, 4096, &bo));
	ASSERT_EQ(0, load_delay(d.fd, 20000000, &delay));
	ASSERT_EQ(0, iopoll_ring(&polled, 8));
	ASSERT_EQ(0, pwtpu_ring_init(&s.ring, 8, 0));

	pwtpu_cmd_exec(&cmd, delay, &bo.handle, 1);
	pwtpu_prep_uring_cmd(next_sqe(&s.ring), d.fd, PWTPU_CMD_EXEC,
			     &cmd);
	ASSERT_EQ(1, io_uring_submit(&s.ring));
	ASSERT_TRUE(drv_wait_queue_depth(d.index, 0, 5000));
	memset(&cmd, 0, sizeof(cmd));
	for (i = 0; i < 3; i++)
		pwtpu_prep_uring_cmd(next_sqe(&s.ring), d.fd,
				     PWTPU_CMD_NOP, &cmd);
	for (i = 0; i < 4; i++)
		pwtpu_prep_uring_cmd(next_sqe(&polled), d.fd,
				     PWTPU_CMD_NOP, &cmd);
	ASSERT_EQ(3, io_uring_submit(&s.ring));
	ASSERT_EQ(4, io_uring_submit(&polled));
	ASSERT_EQ(0, pthread_create(&thread, NULL, sleep_for_completions, &s));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&polled, &cqe));
		EXPECT_EQ(0, cqe->res);
		io_uring_cqe_seen(&polled, cqe);
	}
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(4, s.done);
	for (i = 0; i < s.done; i++)
		EXPECT_EQ(0, s.res[i]);
	io_uring_queue_exit(&polled);
	io_uring_queue_exit(&s.ring);
	pwtpu_bo_free(d.fd, &bo);
	drv_teardown(&d);
}

TEST_HARNESS_MAIN
