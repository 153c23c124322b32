// SPDX-License-Identifier: GPL-2.0
/*
 * drv_gang.c - members, collective programs and gang submission for the
 * collective tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "drv_gang.h"

uint64_t gang_random_id(void)
{
	uint64_t id = 0;

	while (!id)
		if (getrandom(&id, sizeof(id), 0) != sizeof(id))
			id = drv_now_ns() * 0x9e3779b97f4a7c15ull;
	return id;
}

int gang_file(uint64_t *serial)
{
	static int shared = -1;
	static uint64_t shared_serial;
	int fd;

	if (shared < 0) {
		fd = pwtpu_open(0);
		if (fd < 0)
			return fd;
		shared = pwtpu_gang_create(fd, &shared_serial);
		close(fd);
		if (shared < 0) {
			fprintf(stderr, "# gang_file: %s\n", strerror(-shared));
			return shared;
		}
	}
	if (serial)
		*serial = shared_serial;
	return shared;
}

void gang_fill(struct pwtpu_gang *g, uint64_t id, uint32_t n, uint32_t rank,
	       const uint32_t *devs, const uint32_t *groups,
	       const uint32_t *permute)
{
	uint32_t i;

	memset(g, 0, sizeof(*g));
	g->gang_id = id;
	g->gang_fd = gang_file(NULL);
	g->ndevices = n;
	g->rank = rank;
	for (i = 0; i < n; i++) {
		g->devices[i] = devs[i];
		g->group[i] = groups ? groups[i] : 0;
		g->permute[i] = permute ? permute[i] : PWTPU_NO_RANK;
	}
}

int gang_alloc(struct gang_member *m, uint64_t bytes)
{
	int ret = pwtpu_bo_alloc(m->fd, bytes, &m->in);

	if (ret)
		return ret;
	ret = pwtpu_bo_alloc(m->fd, bytes, &m->out);
	if (ret) {
		pwtpu_bo_free(m->fd, &m->in);
		return ret;
	}
	m->bufs[0] = m->in.handle;
	m->bufs[1] = m->out.handle;
	return 0;
}

void gang_free(struct gang_member *m)
{
	if (m->in.map)
		pwtpu_bo_free(m->fd, &m->in);
	if (m->out.map)
		pwtpu_bo_free(m->fd, &m->out);
}

int gang_load(int fd, enum pwtpu_op op, uint8_t mode, enum pwtpu_dtype dtype,
	      uint32_t src_rows, uint32_t dst_rows, uint32_t cols,
	      uint32_t *prog)
{
	struct drv_prog dp;
	int a, d;

	drv_prog_init(&dp, 2);
	a = drv_tensor(&dp, dtype, 0, 0, 2, src_rows, cols);
	d = drv_tensor(&dp, dtype, 1, 0, 2, dst_rows, cols);
	drv_insn(&dp, op, mode, d, a, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 0);
	return drv_prog_load(fd, &dp, prog, NULL, NULL, 0);
}

void gang_cmd(struct gang_member *m, struct pwtpu_cmd *cmd)
{
	pwtpu_cmd_exec(cmd, m->prog, m->bufs, 2);
	cmd->gang_ptr = (uintptr_t)&m->gang;
}

int gang_submit(struct io_uring *ring, struct gang_member *m, uint32_t n)
{
	struct pwtpu_cmd cmd;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		if (!sqe)
			return -EBUSY;
		gang_cmd(&m[i], &cmd);
		pwtpu_prep_uring_cmd(sqe, m[i].fd, PWTPU_CMD_EXEC, &cmd);
		sqe->user_data = i;
		m[i].res = 1;
	}
	ret = io_uring_submit(ring);
	return ret == (int)n ? 0 : ret < 0 ? ret : -EIO;
}

int gang_reap(struct io_uring *ring, struct gang_member *m, uint32_t n,
	      unsigned int timeout_ms)
{
	uint64_t deadline = drv_now_ns() + timeout_ms * 1000000ull;
	struct io_uring_cqe *cqe;
	uint32_t done;

	for (done = 0; done < n; done++) {
		uint64_t now = drv_now_ns(), left;
		struct __kernel_timespec ts;

		left = now < deadline ? deadline - now : 0;
		ts.tv_sec = (long long)(left / 1000000000ull);
		ts.tv_nsec = (long long)(left % 1000000000ull);
		if (io_uring_wait_cqe_timeout(ring, &cqe, &ts))
			return -ETIME;
		if (cqe->user_data < n) {
			m[cqe->user_data].res = cqe->res;
			m[cqe->user_data].end_ns = drv_now_ns();
		}
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

int gang_run(struct io_uring *ring, struct gang_member *m, uint32_t n,
	     unsigned int timeout_ms)
{
	int ret = gang_submit(ring, m, n);

	return ret ? ret : gang_reap(ring, m, n, timeout_ms);
}

int64_t gang_timeout_ms(void)
{
	uint64_t v;
	int ret = pwtpu_param_u64("gang_timeout_ms", &v);

	return ret ? ret : (int64_t)v;
}

bool gang_computes(void)
{
	char mode[32];

	return pwtpu_param_str("timing", mode, sizeof(mode)) ||
	       strcmp(mode, "skip");
}
