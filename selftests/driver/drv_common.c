// SPDX-License-Identifier: GPL-2.0
/*
 * drv_common.c - device-under-test plumbing shared by the driver selftests.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drv_common.h"

unsigned int drv_index(void)
{
	const char *s = getenv("PWTPU_TEST_DEV");

	return s ? (unsigned int)strtoul(s, NULL, 0) : 0;
}

int drv_setup(struct drv *d, unsigned int ring_entries)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->index = drv_index();
	d->fd = pwtpu_open(d->index);
	if (d->fd < 0)
		return d->fd;
	ret = pwtpu_info(d->fd, &d->info);
	if (ret)
		return ret;
	if (ring_entries) {
		ret = pwtpu_ring_init(&d->ring, ring_entries, 0);
		if (ret)
			return ret;
		d->have_ring = true;
	}
	return 0;
}

void drv_teardown(struct drv *d)
{
	if (d->have_ring)
		io_uring_queue_exit(&d->ring);
	d->have_ring = false;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int drv_cmd(struct drv *d, enum drv_path path, uint32_t cmd_op,
	    struct pwtpu_cmd *cmd, uint64_t *extra)
{
	if (extra)
		*extra = 0;
	if (path == DRV_IOCTL)
		return pwtpu_cmd_sync(d->fd, cmd_op, cmd);
	if (!d->have_ring)
		return -EBADF;
	return pwtpu_uring_run(&d->ring, d->fd, cmd_op, cmd, extra);
}

int drv_exec(struct drv *d, enum drv_path path, uint32_t prog,
	     const uint32_t *bos, uint32_t nbos)
{
	struct pwtpu_cmd cmd;

	pwtpu_cmd_exec(&cmd, prog, bos, nbos);
	return drv_cmd(d, path, PWTPU_CMD_EXEC, &cmd, NULL);
}

const char *drv_path_name(enum drv_path path)
{
	return path == DRV_IOCTL ? "ioctl" : "io_uring";
}

void drv_prog_init(struct drv_prog *dp, uint32_t nbufs)
{
	dp->p = pwprog_new(nbufs);
	dp->err = dp->p ? 0 : -ENOMEM;
}

void drv_prog_fini(struct drv_prog *dp)
{
	pwprog_free(dp->p);
	dp->p = NULL;
}

static int sticky(struct drv_prog *dp, int ret)
{
	if (ret < 0 && !dp->err)
		dp->err = ret;
	return ret;
}

int drv_tensor(struct drv_prog *dp, enum pwtpu_dtype dtype, uint32_t buf,
	       uint64_t offset, uint32_t rank, ...)
{
	uint32_t shape[PWTPU_MAX_RANK] = { 0 };
	va_list ap;
	uint32_t i;

	if (!dp->p || rank > PWTPU_MAX_RANK)
		return sticky(dp, -EINVAL);
	va_start(ap, rank);
	for (i = 0; i < rank; i++)
		shape[i] = va_arg(ap, unsigned int);
	va_end(ap);
	return sticky(dp, pwprog_tensor(dp->p, dtype, rank, shape, buf,
					offset));
}

int drv_insn(struct drv_prog *dp, enum pwtpu_op op, uint8_t mode, int dst,
	     int src0, int src1, int src2, uint32_t nargs, ...)
{
	uint32_t args[5] = { 0 };
	va_list ap;
	uint32_t i;

	if (!dp->p || nargs > 5)
		return sticky(dp, -EINVAL);
	va_start(ap, nargs);
	for (i = 0; i < nargs; i++)
		args[i] = va_arg(ap, unsigned int);
	va_end(ap);
	return sticky(dp, pwprog_insn(dp->p, op, mode, dst, src0, src1, src2,
				      args, nargs));
}

int drv_binary(struct drv_prog *dp, enum pwtpu_op op, int dst, int a, int b)
{
	return drv_insn(dp, op, 0, dst, a, b, PWTPU_NO_TENSOR, 0);
}

int drv_unary(struct drv_prog *dp, enum pwtpu_op op, int dst, int a)
{
	return drv_insn(dp, op, 0, dst, a, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
			0);
}

void *drv_prog_image(struct drv_prog *dp, size_t *size, int *err)
{
	void *image;

	*err = dp->err;
	if (*err)
		return NULL;
	image = pwprog_image(dp->p, size);
	if (!image)
		*err = -ENOMEM;
	return image;
}

int drv_prog_load(int fd, struct drv_prog *dp, uint32_t *handle,
		  struct pwtpu_prog_load *out, char *log, uint32_t log_size)
{
	struct pwtpu_prog_load res;
	size_t size;
	void *image;
	int ret;

	image = drv_prog_image(dp, &size, &ret);
	drv_prog_fini(dp);
	if (!image)
		return ret;
	ret = pwtpu_prog_load(fd, image, size, log, log_size, &res);
	free(image);
	if (handle)
		*handle = res.handle;
	if (out)
		*out = res;
	return ret;
}

uint64_t drv_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int drv_load_delay(int fd, uint32_t trips, uint32_t ns, uint32_t *prog)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 1);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, trips, 1);
	drv_insn(&dp, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, ns, 0);
	return drv_prog_load(fd, &dp, prog, NULL, NULL, 0);
}

int drv_load_matmul_loop(int fd, uint32_t trips, uint32_t *prog,
			 struct pwtpu_prog_load *out)
{
	const unsigned int n = DRV_MM_N;
	struct drv_prog dp;
	int a, b, m;

	drv_prog_init(&dp, 1);
	a = drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, n, n);
	b = drv_tensor(&dp, PWTPU_DT_F32, 0, 4 * n * n, 2, n, n);
	m = drv_tensor(&dp, PWTPU_DT_F32, 0, 8 * n * n, 2, n, n);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, trips, 1);
	drv_binary(&dp, PWTPU_OP_MATMUL, m, a, b);
	return drv_prog_load(fd, &dp, prog, out, NULL, 0);
}

pid_t drv_child_queueing(unsigned int index, unsigned int n, uint32_t trips,
			 uint32_t ns)
{
	int ready[2], fd;
	struct io_uring ring;
	struct pwtpu_cmd cmd;
	struct pwtpu_bo bo;
	uint32_t prog, i;
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid) {
		close(ready[1]);
		if (pid > 0 && read(ready[0], &c, 1) != 1) {
			waitpid(pid, NULL, 0);
			pid = -1;
		}
		close(ready[0]);
		return pid;
	}
	/* A test that dies (its timeout) must not leave it queueing. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		_exit(1);
	fd = pwtpu_open(index);
	if (fd < 0 || drv_load_delay(fd, trips, ns, &prog) ||
	    pwtpu_bo_create(fd, 4096, &bo) ||
	    pwtpu_ring_init(&ring, n < 8 ? 8 : n, 0))
		_exit(2);
	pwtpu_cmd_exec(&cmd, prog, &bo.handle, 1);
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (!sqe)
			_exit(3);
		pwtpu_prep_uring_cmd(sqe, fd, PWTPU_CMD_EXEC, &cmd);
	}
	if (io_uring_submit(&ring) != (int)n || write(ready[1], "r", 1) != 1)
		_exit(4);
	for (;;)
		pause();
}

bool drv_wait_queue_depth(unsigned int index, uint64_t want,
			  unsigned int timeout_ms)
{
	uint64_t deadline = drv_now_ns() + timeout_ms * 1000000ull, depth;

	do {
		if (!pwtpu_sysfs_u64(index, "queue_depth", &depth) &&
		    depth == want)
			return true;
		drv_sleep_ms(5);
	} while (drv_now_ns() < deadline);
	return false;
}

bool drv_child_gone(pid_t pid, unsigned int timeout_ms, int *status)
{
	uint64_t deadline = drv_now_ns() + timeout_ms * 1000000ull;

	do {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		drv_sleep_ms(10);
	} while (drv_now_ns() < deadline);
	return false;
}

void drv_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	nanosleep(&ts, NULL);
}

uint64_t drv_wait_hbm(unsigned int index, uint64_t want,
		      unsigned int timeout_ms)
{
	uint64_t deadline = drv_now_ns() + timeout_ms * 1000000ull;
	uint64_t used = UINT64_MAX;

	for (;;) {
		if (pwtpu_sysfs_u64(index, "hbm_used", &used) == 0 &&
		    used == want)
			return used;
		if (drv_now_ns() >= deadline)
			return used;
		drv_sleep_ms(10);
	}
}

int drv_load_add(int fd, uint32_t n, uint32_t *prog)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, n);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 4 * n, 1, n);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 8 * n, 1, n);
	drv_binary(&dp, PWTPU_OP_ADD, 2, 0, 1);
	return drv_prog_load(fd, &dp, prog, NULL, NULL, 0);
}

int drv_param_write(const char *name, unsigned int v)
{
	char path[128], buf[16];
	int fd, n, ret = 0;

	snprintf(path, sizeof(path), "/sys/module/pwtpu/parameters/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%u", v);
	if (write(fd, buf, (size_t)n) != n)
		ret = -errno;
	close(fd);
	return ret;
}
