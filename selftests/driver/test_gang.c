// SPDX-License-Identifier: GPL-2.0
/*
 * test_gang.c - what goes wrong around collectives, and that nothing
 * hangs: malformed gang descriptors (-EINVAL), bad pointers (-EFAULT),
 * collectives without a gang; a gang file is the only way into a gang
 * (the id alone meets nobody, -EBADF and -EINVAL for what is not one);
 * the inconsistent-order deadlock of two gangs fails with -ETIMEDOUT in
 * bounded time, with a kernel log line per gang that names its gang file
 * and never its id, while the consistent order of the same programs
 * succeeds; a member whose process never submits or is killed while its
 * part waits fails the others cleanly, and the devices work and HBM
 * comes back; a flood of timeouts is rate-limited in the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "drv_gang.h"
#include "drv_mesh.h"

#define BUF_BYTES	4096
#define SLACK_MS	30000
/* The timeout tests wait 1-3 gang timeouts: keep the harness's above. */
#define MAX_TIMEOUT_MS	10000
#define TEST_SECONDS	(4 * MAX_TIMEOUT_MS / 1000 + 2 * SLACK_MS / 1000)

FIXTURE(gang) {
	struct mesh m;
	int fd[MESH_MAX_DEVS];
	uint64_t hbm_base[MESH_MAX_DEVS];
	struct gang_member mem[16];
	uint32_t nmem;
	struct io_uring ring;
	bool have_ring;
	unsigned int timeout_ms;
};

FIXTURE_SETUP(gang)
{
	int64_t t;
	uint32_t i;
	int ret;

	for (i = 0; i < MESH_MAX_DEVS; i++)
		self->fd[i] = -1;
	ret = mesh_from_params(&self->m);
	if (ret == -ENOENT)
		DRV_SKIP("pwtpu.ko not loaded");
	ASSERT_EQ(0, ret);
	if (self->m.ndev < 2)
		DRV_SKIP("a gang needs two devices");
	t = gang_timeout_ms();
	if (t < 0)
		DRV_SKIP("no gang_timeout_ms parameter: no collectives");
	self->timeout_ms = (unsigned int)t;
	for (i = 0; i < self->m.ndev; i++) {
		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "hbm_used",
					     &self->hbm_base[i]));
		self->fd[i] = pwtpu_open(i);
		ASSERT_LE(0, self->fd[i]);
	}
	ASSERT_EQ(0, pwtpu_ring_init(&self->ring, 32, 0));
	self->have_ring = true;
}

FIXTURE_TEARDOWN(gang)
{
	uint32_t i;

	for (i = 0; i < self->nmem; i++)
		gang_free(&self->mem[i]);
	if (self->have_ring)
		io_uring_queue_exit(&self->ring);
	for (i = 0; i < MESH_MAX_DEVS; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
}

/* A member on device @dev with buffers and "out = all_reduce(sum, in)". */
static void add_member(struct __test_metadata *_metadata,
		       FIXTURE_DATA(gang) *self, uint32_t dev)
{
	struct gang_member *m = &self->mem[self->nmem];
	uint32_t i;

	ASSERT_LT(self->nmem, 16u);
	memset(m, 0, sizeof(*m));
	m->dev = dev;
	m->fd = self->fd[dev];
	ASSERT_EQ(0, gang_alloc(m, BUF_BYTES));
	self->nmem++;
	ASSERT_EQ(0, gang_load(m->fd, PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_SUM,
			       PWTPU_DT_I32, 4, 4, 3, &m->prog));
	for (i = 0; i < 12; i++)
		((int32_t *)m->in.map)[i] = (int32_t)(dev + 1);
	memset(m->out.map, 0, BUF_BYTES);
}

/*
 * Every element of @m's result is @want (or, in timing=skip, whatever it
 * is: results are unspecified there).
 */
static bool result_is(const struct gang_member *m, int32_t want)
{
	uint32_t i;

	if (!gang_computes())
		return true;
	for (i = 0; i < 12; i++)
		if (((const int32_t *)m->out.map)[i] != want)
			return false;
	return true;
}

/* One EXEC through both paths: the same errno from each. */
static void expect_exec(struct __test_metadata *_metadata,
			FIXTURE_DATA(gang) *self, struct gang_member *m,
			uint64_t gang_ptr, int want, const char *what)
{
	struct pwtpu_cmd cmd;

	gang_cmd(m, &cmd);
	cmd.gang_ptr = gang_ptr;
	EXPECT_EQ(want, pwtpu_cmd_sync(m->fd, PWTPU_CMD_EXEC, &cmd))
		TH_LOG("ioctl: %s", what);
	gang_cmd(m, &cmd);
	cmd.gang_ptr = gang_ptr;
	EXPECT_EQ(want, pwtpu_uring_run(&self->ring, m->fd, PWTPU_CMD_EXEC,
					&cmd, NULL))
		TH_LOG("io_uring: %s", what);
}

enum malformed {
	BAD_ID_ZERO,
	BAD_NO_MEMBERS,
	BAD_TOO_MANY,
	BAD_RANK,
	BAD_FLAGS,
	BAD_NOT_GANG_FILE,
	BAD_NOT_MY_DEVICE,
	BAD_DEVICE_RANGE,
	BAD_DEVICE_TWICE,
	BAD_DEVICE_TAIL,
	BAD_GROUP_TAIL,
	BAD_PERMUTE_TAIL,
	BAD_PERMUTE_OTHER_GROUP,
	BAD_PERMUTE_RANGE,
	BAD_PERMUTE_TWICE,
	BAD_PERMUTE_ZEROS,
	NR_MALFORMED,
};

static const char *const malformed_name[NR_MALFORMED] = {
	"gang_id 0", "no members", "more than PWTPU_MAX_GANG members",
	"rank not below ndevices", "flags", "gang_fd not a gang file",
	"devices[rank] is another device", "device outside the island",
	"a device twice", "devices[] past ndevices", "group[] past ndevices",
	"permute[] past ndevices", "permute into another group",
	"permute to a rank outside the gang", "two members send to one",
	"permute left all zero (two members send to rank 0)",
};

/*
 * Rank 0 of a well-formed gang {0, 1} (with @ndev devices), broken;
 * @not_gang is an open file that is not a gang file.
 */
static void malformed(struct pwtpu_gang *g, enum malformed how, uint32_t ndev,
		      int not_gang)
{
	static const uint32_t devs[2] = { 0, 1 };

	gang_fill(g, gang_random_id(), 2, 0, devs, NULL, NULL);
	switch (how) {
	case BAD_ID_ZERO:
		g->gang_id = 0;
		break;
	case BAD_NO_MEMBERS:
		g->ndevices = 0;
		break;
	case BAD_TOO_MANY:
		g->ndevices = PWTPU_MAX_GANG + 1;
		break;
	case BAD_RANK:
		g->rank = 2;
		break;
	case BAD_FLAGS:
		g->flags = 1;
		break;
	case BAD_NOT_GANG_FILE:
		g->gang_fd = not_gang;
		break;
	case BAD_NOT_MY_DEVICE:
		g->devices[0] = 1;
		g->devices[1] = 0;
		break;
	case BAD_DEVICE_RANGE:
		g->devices[1] = ndev;
		break;
	case BAD_DEVICE_TWICE:
		g->devices[1] = 0;
		break;
	case BAD_DEVICE_TAIL:
		g->devices[2] = 1;
		break;
	case BAD_GROUP_TAIL:
		g->group[2] = 1;
		break;
	case BAD_PERMUTE_TAIL:
		g->permute[2] = 1;
		break;
	case BAD_PERMUTE_OTHER_GROUP:
		g->group[1] = 1;
		g->permute[0] = 1;
		break;
	case BAD_PERMUTE_RANGE:
		g->permute[0] = 2;
		break;
	case BAD_PERMUTE_TWICE:
		g->permute[0] = 1;
		g->permute[1] = 1;
		break;
	case BAD_PERMUTE_ZEROS:
	default:
		g->permute[0] = 0;
		g->permute[1] = 0;
		break;
	}
}

TEST_F(gang, malformed_descriptor)
{
	struct gang_member *m;
	int how;

	add_member(_metadata, self, 0);
	m = &self->mem[0];
	for (how = 0; how < NR_MALFORMED; how++) {
		malformed(&m->gang, how, self->m.ndev, m->fd);
		expect_exec(_metadata, self, m, (uintptr_t)&m->gang, -EINVAL,
			    malformed_name[how]);
	}
	EXPECT_TRUE(result_is(m, 0));
}

TEST_F(gang, bad_gang_pointer)
{
	static const uint32_t pair[2] = { 0, 1 };
	const long page = sysconf(_SC_PAGESIZE);
	struct gang_member *m;
	char *map;

	add_member(_metadata, self, 0);
	m = &self->mem[0];
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(map + page, page));
	/* A well-formed gang whose end runs into the unmapped page. */
	gang_fill(&m->gang, gang_random_id(), 2, 0, pair, NULL, NULL);
	memcpy(map + page - 64, &m->gang, 64);
	expect_exec(_metadata, self, m, (uintptr_t)(map + page - 64), -EFAULT,
		    "gang runs past the mapping");
	expect_exec(_metadata, self, m, (uintptr_t)(map + page), -EFAULT,
		    "gang in an unmapped page");
	expect_exec(_metadata, self, m, 8, -EFAULT, "gang at address 8");
	expect_exec(_metadata, self, m, ~0ull - 4095, -EFAULT,
		    "gang at a kernel address");
	munmap(map, page);
	EXPECT_TRUE(result_is(m, 0));
}

TEST_F(gang, gang_pointer_where_it_does_not_belong)
{
	static const uint32_t devs[2] = { 0, 1 };
	struct gang_member *m;
	struct pwtpu_cmd cmd;

	add_member(_metadata, self, 0);
	m = &self->mem[0];
	gang_fill(&m->gang, gang_random_id(), 2, 0, devs, NULL, NULL);
	/* A collective without a gang. */
	expect_exec(_metadata, self, m, 0, -EINVAL, "collective, no gang");

	memset(&cmd, 0, sizeof(cmd));
	cmd.gang_ptr = (uintptr_t)&m->gang;
	EXPECT_EQ(-EINVAL, pwtpu_cmd_sync(m->fd, PWTPU_CMD_NOP, &cmd));
	EXPECT_EQ(-EINVAL, pwtpu_uring_run(&self->ring, m->fd, PWTPU_CMD_NOP,
					   &cmd, NULL));
	cmd.handle = m->in.handle;
	cmd.host_ptr = (uintptr_t)m->out.map;
	cmd.length = 16;
	EXPECT_EQ(-EINVAL, pwtpu_cmd_sync(m->fd, PWTPU_CMD_COPY_TO_DEV, &cmd));
}

/*
 * UAPI: gang_ptr is "the address of a struct pwtpu_gang when the program
 * has collectives, else 0", and unused fields must be zero.
 */
TEST_F(gang, gang_on_exec_without_collectives)
{
	static const uint32_t devs[2] = { 0, 1 };
	struct gang_member *m;
	struct pwtpu_cmd cmd;
	struct drv_prog dp;
	uint32_t plain;

	add_member(_metadata, self, 0);
	m = &self->mem[0];
	gang_fill(&m->gang, gang_random_id(), 2, 0, devs, NULL, NULL);
	drv_prog_init(&dp, 2);
	drv_tensor(&dp, PWTPU_DT_I32, 0, 0, 1, 12);
	drv_tensor(&dp, PWTPU_DT_I32, 1, 0, 1, 12);
	drv_unary(&dp, PWTPU_OP_NEG, 1, 0);
	ASSERT_EQ(0, drv_prog_load(m->fd, &dp, &plain, NULL, NULL, 0));
	pwtpu_cmd_exec(&cmd, plain, m->bufs, 2);
	cmd.gang_ptr = (uintptr_t)&m->gang;
	EXPECT_EQ(-EINVAL, pwtpu_cmd_sync(m->fd, PWTPU_CMD_EXEC, &cmd));
	EXPECT_EQ(-EINVAL, pwtpu_uring_run(&self->ring, m->fd, PWTPU_CMD_EXEC,
					   &cmd, NULL));
	cmd.gang_ptr = 0;
	EXPECT_EQ(0, pwtpu_cmd_sync(m->fd, PWTPU_CMD_EXEC, &cmd));
}

static void skip_long_timeouts(struct __test_metadata *_metadata,
			       FIXTURE_DATA(gang) *self)
{
	if (self->timeout_ms > MAX_TIMEOUT_MS)
		DRV_SKIP("gang_timeout_ms=%u: over %u ms the test would "
			 "outlast the harness", self->timeout_ms,
			 MAX_TIMEOUT_MS);
}

/*
 * GANG_CREATE: a close-on-exec file with a fresh nonzero serial; flags,
 * reserved and the output serial must be zero on input; a gang file is
 * not a device.
 */
TEST_F(gang, gang_create)
{
	struct pwtpu_gang_create arg;
	struct pwtpu_info info;
	uint64_t s1 = 0, s2 = 0;
	int a, b;

	a = pwtpu_gang_create(self->fd[0], &s1);
	b = pwtpu_gang_create(self->fd[1], &s2);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	EXPECT_NE(0u, s1);
	EXPECT_NE(0u, s2);
	EXPECT_NE(s1, s2);
	EXPECT_EQ(FD_CLOEXEC, fcntl(a, F_GETFD) & FD_CLOEXEC);

	memset(&arg, 0, sizeof(arg));
	arg.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], PWTPU_IOCTL_GANG_CREATE, &arg));
	EXPECT_EQ(EINVAL, errno);
	arg.flags = 0;
	arg.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], PWTPU_IOCTL_GANG_CREATE, &arg));
	EXPECT_EQ(EINVAL, errno);
	arg.reserved = 0;
	arg.serial = s1;
	EXPECT_EQ(-1, ioctl(self->fd[0], PWTPU_IOCTL_GANG_CREATE, &arg));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd[0], PWTPU_IOCTL_GANG_CREATE, (void *)8));
	EXPECT_EQ(EFAULT, errno);

	EXPECT_EQ(-1, ioctl(a, PWTPU_IOCTL_INFO, &info));
	EXPECT_EQ(ENOTTY, errno);
	close(a);
	close(b);
}

/* gang_fd must be an open gang file: -EBADF, or -EINVAL for another file. */
TEST_F(gang, gang_fd_must_be_a_gang_file)
{
	static const uint32_t devs[2] = { 0, 1 };
	struct gang_member *m;
	int p[2], closed;

	add_member(_metadata, self, 0);
	m = &self->mem[0];
	gang_fill(&m->gang, gang_random_id(), 2, 0, devs, NULL, NULL);
	m->gang.gang_fd = -1;
	expect_exec(_metadata, self, m, (uintptr_t)&m->gang, -EBADF,
		    "gang_fd -1");
	closed = pwtpu_gang_create(self->fd[0], NULL);
	ASSERT_LE(0, closed);
	close(closed);
	m->gang.gang_fd = closed;
	expect_exec(_metadata, self, m, (uintptr_t)&m->gang, -EBADF,
		    "a closed gang file");
	ASSERT_EQ(0, pipe(p));
	m->gang.gang_fd = p[0];
	expect_exec(_metadata, self, m, (uintptr_t)&m->gang, -EINVAL,
		    "a pipe");
	close(p[0]);
	close(p[1]);
	EXPECT_TRUE(result_is(m, 0));
}

/*
 * The gang file is the capability, not the id: a "rank 1" with the very
 * id and descriptor of rank 0's gang, but in another gang file (what an
 * intruder who learnt the id has), meets nobody. Both time out, and the
 * intruder's result never receives rank 0's data. With rank 1 in rank
 * 0's file, the gang meets; and once submitted, a gang file may be
 * closed without harm to the command.
 */
TEST_F_TIMEOUT(gang, the_id_alone_joins_nothing, TEST_SECONDS)
{
	static const uint32_t devs[2] = { 0, 1 };
	struct gang_member *m = self->mem;
	uint64_t id = gang_random_id();
	int intruder, file;

	skip_long_timeouts(_metadata, self);
	add_member(_metadata, self, 0);
	add_member(_metadata, self, 1);
	intruder = pwtpu_gang_create(self->fd[1], NULL);
	ASSERT_LE(0, intruder);
	gang_fill(&m[0].gang, id, 2, 0, devs, NULL, NULL);
	gang_fill(&m[1].gang, id, 2, 1, devs, NULL, NULL);
	m[1].gang.gang_fd = intruder;
	ASSERT_EQ(0, gang_run(&self->ring, m, 2, self->timeout_ms + SLACK_MS));
	EXPECT_EQ(-ETIMEDOUT, m[0].res);
	EXPECT_EQ(-ETIMEDOUT, m[1].res) TH_LOG("the intruder met the gang");
	EXPECT_TRUE(result_is(&m[1], 0))
		TH_LOG("the intruder received the gang's data");
	close(intruder);

	/* One file for both, closed as soon as the EXECs are submitted. */
	file = pwtpu_gang_create(self->fd[0], NULL);
	ASSERT_LE(0, file);
	id = gang_random_id();
	gang_fill(&m[0].gang, id, 2, 0, devs, NULL, NULL);
	gang_fill(&m[1].gang, id, 2, 1, devs, NULL, NULL);
	m[0].gang.gang_fd = file;
	m[1].gang.gang_fd = file;
	ASSERT_EQ(0, gang_submit(&self->ring, m, 2));
	close(file);
	ASSERT_EQ(0, gang_reap(&self->ring, m, 2,
			       self->timeout_ms + SLACK_MS));
	EXPECT_EQ(0, m[0].res);
	EXPECT_EQ(0, m[1].res);
	EXPECT_TRUE(result_is(&m[0], 3));
	EXPECT_TRUE(result_is(&m[1], 3));
}

/* The whole kernel log (the guest tests run as root). */
static char *kernel_log(void)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf;
	int n;

	if (size <= 0)
		return NULL;
	buf = calloc(1, (size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3, buf, size);		/* SYSLOG_ACTION_READ_ALL */
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* How many times the kernel log has @want. */
static unsigned int log_count(const char *want)
{
	char *log = kernel_log(), *at;
	unsigned int n = 0;

	for (at = log; at && (at = strstr(at, want)); at++)
		n++;
	free(log);
	return n;
}

/* Lines "pwtpu: gang file <serial> collective ..." in the log. */
static unsigned int logged_gang(uint64_t serial)
{
	char want[64];

	snprintf(want, sizeof(want), "pwtpu: gang file %" PRIu64 " collective",
		 serial);
	return log_count(want);
}

/* Whether the log names gang id @id, in hex or decimal: it must not. */
static bool logged_id(uint64_t id)
{
	char hex[32], dec[32];

	snprintf(hex, sizeof(hex), "%" PRIx64, id);
	snprintf(dec, sizeof(dec), "%" PRIu64, id);
	return log_count(hex) || log_count(dec);
}

/*
 * Device 0 queues gang A then B, device 1 queues B then A: each waits
 * for a part queued behind the other's. The gang that waited longest
 * fails with -ETIMEDOUT on both devices, no sooner than the timeout; the
 * other may then meet and succeed (or fail too, if both timed out
 * together), but a gang never half succeeds, and it all ends in bounded
 * time with a log line per failed gang. Another device works meanwhile;
 * then the same programs queued in one order succeed.
 */
TEST_F_TIMEOUT(gang, inconsistent_order_times_out, TEST_SECONDS)
{
	static const uint32_t devs[2] = { 0, 1 };
	uint64_t id[2] = { gang_random_id(), gang_random_id() }, t0;
	struct gang_member *m = self->mem;
	/* Parts of gang A (id[0]) and of gang B (id[1]) in m[]. */
	static const uint32_t part[2][2] = { { 0, 3 }, { 1, 2 } };
	uint64_t serial[2];
	struct pwtpu_cmd nop;
	struct io_uring other;
	int failed = 0, file_b;
	uint32_t g, k;

	skip_long_timeouts(_metadata, self);
	/* B in a gang file of its own, so that the log tells them apart. */
	ASSERT_LE(0, gang_file(&serial[0]));
	file_b = pwtpu_gang_create(self->fd[0], &serial[1]);
	ASSERT_LE(0, file_b);
	/* Submission order: dev0 A, dev0 B, dev1 B, dev1 A. */
	add_member(_metadata, self, 0);
	add_member(_metadata, self, 0);
	add_member(_metadata, self, 1);
	add_member(_metadata, self, 1);
	gang_fill(&m[0].gang, id[0], 2, 0, devs, NULL, NULL);
	gang_fill(&m[1].gang, id[1], 2, 0, devs, NULL, NULL);
	gang_fill(&m[2].gang, id[1], 2, 1, devs, NULL, NULL);
	gang_fill(&m[3].gang, id[0], 2, 1, devs, NULL, NULL);
	m[1].gang.gang_fd = file_b;
	m[2].gang.gang_fd = file_b;
	t0 = drv_now_ns();
	ASSERT_EQ(0, gang_submit(&self->ring, m, 4));
	if (self->m.ndev > 2) {
		ASSERT_EQ(0, pwtpu_ring_init(&other, 4, 0));
		memset(&nop, 0, sizeof(nop));
		EXPECT_EQ(0, pwtpu_uring_run(&other, self->fd[2],
					     PWTPU_CMD_NOP, &nop, NULL))
			TH_LOG("device 2 is stuck behind the deadlock");
		io_uring_queue_exit(&other);
	}
	ASSERT_EQ(0, gang_reap(&self->ring, m, 4,
			       2 * self->timeout_ms + SLACK_MS))
		TH_LOG("the deadlock did not end within 2 x gang_timeout_ms"
		       " + %u ms", SLACK_MS);
	for (g = 0; g < 2; g++) {
		const struct gang_member *x = &m[part[g][0]];
		const struct gang_member *y = &m[part[g][1]];

		EXPECT_EQ(x->res, y->res) TH_LOG("gang %c half succeeded",
						 'A' + g);
		for (k = 0; k < 2; k++) {
			const struct gang_member *p = &m[part[g][k]];

			if (p->res) {
				EXPECT_EQ(-ETIMEDOUT, p->res);
				EXPECT_TRUE(result_is(p, 0));
				EXPECT_LE(t0 + self->timeout_ms * 1000000ull,
					  p->end_ns)
					TH_LOG("gang %c failed before "
					       "gang_timeout_ms", 'A' + g);
			} else {
				EXPECT_TRUE(result_is(p, 3));
			}
		}
		if (x->res) {
			failed++;
			EXPECT_LE(1u, logged_gang(serial[g]))
				TH_LOG("no log line for gang %c (gang file %"
				       PRIu64 ")", 'A' + g, serial[g]);
		}
		EXPECT_FALSE(logged_id(id[g]))
			TH_LOG("the log names gang %c's id", 'A' + g);
	}
	EXPECT_LE(1, failed) TH_LOG("the deadlock went unnoticed");
	close(file_b);

	/* The same programs, both devices in the order A, B. */
	id[0] = gang_random_id();
	id[1] = gang_random_id();
	gang_fill(&m[0].gang, id[0], 2, 0, devs, NULL, NULL);
	gang_fill(&m[1].gang, id[1], 2, 0, devs, NULL, NULL);
	gang_fill(&m[2].gang, id[0], 2, 1, devs, NULL, NULL);
	gang_fill(&m[3].gang, id[1], 2, 1, devs, NULL, NULL);
	for (k = 0; k < 4; k++)
		memset(m[k].out.map, 0, BUF_BYTES);
	ASSERT_EQ(0, gang_run(&self->ring, m, 4, self->timeout_ms + SLACK_MS));
	for (k = 0; k < 4; k++) {
		EXPECT_EQ(0, m[k].res) TH_LOG("part %u", k);
		EXPECT_TRUE(result_is(&m[k], 3));
	}
}

/* Devices of the gangs below: 0 and 2 are the test's, 1 the child's. */
static uint32_t kill_gang(const struct mesh *m, uint32_t *devs)
{
	uint32_t n = m->ndev >= 3 ? 3 : 2, i;

	for (i = 0; i < n; i++)
		devs[i] = i;
	return n;
}

/*
 * After a member's process went away: a gang over the same devices,
 * all held here, succeeds, and every device's HBM is back at its
 * baseline once this process lets go.
 */
static void devices_recover(struct __test_metadata *_metadata,
			    FIXTURE_DATA(gang) *self, uint32_t n,
			    const uint32_t *devs)
{
	uint64_t id = gang_random_id();
	struct gang_member *m = &self->mem[self->nmem];
	int32_t want = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		add_member(_metadata, self, devs[i]);
		gang_fill(&m[i].gang, id, n, i, devs, NULL, NULL);
		want += (int32_t)devs[i] + 1;
	}
	ASSERT_EQ(0, gang_run(&self->ring, m, n, self->timeout_ms + SLACK_MS));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, m[i].res) TH_LOG("rank %u", i);
		EXPECT_TRUE(result_is(&m[i], want));
	}
	for (i = 0; i < self->nmem; i++)
		gang_free(&self->mem[i]);
	self->nmem = 0;
	for (i = 0; i < self->m.ndev; i++) {
		close(self->fd[i]);
		self->fd[i] = -1;
		EXPECT_EQ(self->hbm_base[i],
			  drv_wait_hbm(i, self->hbm_base[i], 10000))
			TH_LOG("pwtpu%u HBM not back at its baseline", i);
	}
}

/* The child: hold device 1 and a buffer on it, say so, and wait. */
static void child_holds_device(int ready)
{
	struct pwtpu_bo bo;
	int fd;

	/* Never outlive the test, whatever happens to it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = pwtpu_open(1);
	if (fd < 0 || pwtpu_bo_alloc(fd, 1 << 20, &bo))
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

TEST_F_TIMEOUT(gang, member_never_submits, TEST_SECONDS)
{
	uint32_t devs[3], n = kill_gang(&self->m, devs), i;
	uint64_t id = gang_random_id(), held, serial;
	struct gang_member *m = self->mem;
	int pipefd[2], status;
	pid_t pid;
	char c;

	skip_long_timeouts(_metadata, self);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		child_holds_device(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	ASSERT_EQ(0, pwtpu_sysfs_u64(1, "hbm_used", &held));
	EXPECT_LT(self->hbm_base[1], held);

	/* Ranks 0 and 2 (if any) submit; rank 1, the child's, never. */
	for (i = 0; i < n; i += 2) {
		add_member(_metadata, self, devs[i]);
		gang_fill(&m[self->nmem - 1].gang, id, n, i, devs, NULL, NULL);
	}
	ASSERT_EQ(0, gang_run(&self->ring, m, self->nmem,
			      self->timeout_ms + SLACK_MS));
	for (i = 0; i < self->nmem; i++)
		EXPECT_EQ(-ETIMEDOUT, m[i].res) TH_LOG("part %u", i);
	ASSERT_LE(0, gang_file(&serial));
	EXPECT_LE(1u, logged_gang(serial));
	EXPECT_FALSE(logged_id(id));

	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(self->hbm_base[1], drv_wait_hbm(1, self->hbm_base[1], 10000));
	devices_recover(_metadata, self, n, devs);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* The child: rank 1 of gang @id on device 1, submitted, then waits. */
static void child_submits(int ready, uint64_t id, uint32_t n,
			  const uint32_t *devs)
{
	struct gang_member m;
	struct io_uring ring;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	memset(&m, 0, sizeof(m));
	m.dev = 1;
	m.fd = pwtpu_open(1);
	if (m.fd < 0 || gang_alloc(&m, BUF_BYTES) ||
	    gang_load(m.fd, PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_SUM,
		      PWTPU_DT_I32, 4, 4, 3, &m.prog) ||
	    pwtpu_ring_init(&ring, 4, 0))
		_exit(1);
	gang_fill(&m.gang, id, n, 1, devs, NULL, NULL);
	if (gang_submit(&ring, &m, 1) || write(ready, "s", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/*
 * Rank 0 (here) and rank 1 (a child) wait for rank 2, which never comes;
 * the child is killed while its part waits. Rank 0 fails with
 * -ETIMEDOUT, the child's exit is not held up past the timeout, and the
 * devices recover.
 */
TEST_F_TIMEOUT(gang, member_killed_while_waiting, TEST_SECONDS)
{
	uint32_t devs[3], n = kill_gang(&self->m, devs);
	uint64_t id = gang_random_id(), t0, serial;
	struct gang_member *m = self->mem;
	int pipefd[2], status;
	pid_t pid;
	char c;

	skip_long_timeouts(_metadata, self);
	if (n < 3)
		DRV_SKIP("needs three devices");
	add_member(_metadata, self, 0);
	gang_fill(&m[0].gang, id, n, 0, devs, NULL, NULL);
	ASSERT_EQ(0, gang_submit(&self->ring, m, 1));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		child_submits(pipefd[1], id, n, devs);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	t0 = drv_now_ns();
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_GE(t0 + (self->timeout_ms + SLACK_MS) * 1000000ull,
		  drv_now_ns()) TH_LOG("the killed member's exit took longer "
				       "than gang_timeout_ms + %u ms",
				       SLACK_MS);
	ASSERT_EQ(0, gang_reap(&self->ring, m, 1,
			       self->timeout_ms + SLACK_MS));
	EXPECT_EQ(-ETIMEDOUT, m[0].res);
	EXPECT_TRUE(result_is(&m[0], 0));
	ASSERT_LE(0, gang_file(&serial));
	EXPECT_LE(1u, logged_gang(serial));
	EXPECT_FALSE(logged_id(id));
	EXPECT_EQ(self->hbm_base[1], drv_wait_hbm(1, self->hbm_base[1], 10000));
	devices_recover(_metadata, self, n, devs);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* The kernel's printk_ratelimited(): this many lines per 5 s, no more. */
#define LOG_BURST		10
#define LOG_INTERVAL_MS		5000
#define FLOOD_LINES		12

/*
 * Any user can make the driver log, by a gang that times out: those lines
 * are rate-limited. FLOOD_LINES lone members (their partners never come)
 * on up to FLOOD_LINES devices time out within one interval; at most
 * LOG_BURST of their lines reach the log.
 */
TEST_F_TIMEOUT(gang, timeout_lines_are_rate_limited, TEST_SECONDS)
{
	uint32_t used = self->m.ndev < FLOOD_LINES ? self->m.ndev : FLOOD_LINES;
	uint32_t per_dev = (FLOOD_LINES + used - 1) / used, i, d;
	struct gang_member *m = self->mem;
	uint32_t devs[2];
	uint64_t serial;
	int file;

	skip_long_timeouts(_metadata, self);
	if ((per_dev - 1) * self->timeout_ms >= LOG_INTERVAL_MS / 2)
		DRV_SKIP("%u devices and gang_timeout_ms=%u: the timeouts "
			 "would not fall in one interval", self->m.ndev,
			 self->timeout_ms);
	ASSERT_LE(used * per_dev, 16u);
	file = pwtpu_gang_create(self->fd[0], &serial);
	ASSERT_LE(0, file);
	/* Let the earlier tests' interval run out: ours starts afresh. */
	usleep((LOG_INTERVAL_MS + 500) * 1000);
	for (i = 0; i < per_dev; i++) {
		for (d = 0; d < used; d++) {
			devs[0] = d;
			devs[1] = (d + 1) % used;
			add_member(_metadata, self, d);
			gang_fill(&m[self->nmem - 1].gang, gang_random_id(), 2,
				  0, devs, NULL, NULL);
			m[self->nmem - 1].gang.gang_fd = file;
		}
	}
	ASSERT_EQ(0, gang_run(&self->ring, m, self->nmem,
			      per_dev * self->timeout_ms + SLACK_MS));
	for (i = 0; i < self->nmem; i++)
		EXPECT_EQ(-ETIMEDOUT, m[i].res) TH_LOG("member %u", i);
	EXPECT_LE(1u, logged_gang(serial));
	EXPECT_GE((unsigned int)LOG_BURST, logged_gang(serial))
		TH_LOG("%u timeouts within %u ms left %u log lines",
		       self->nmem, LOG_INTERVAL_MS, logged_gang(serial));
	close(file);
}

TEST_HARNESS_MAIN
