// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_dev.c - /dev/pwtpuN control ioctls and the synchronous command
 * path, one system call per helper, the driver's errno passed through.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

static int ioctl_errno(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

int pwtpu_open(unsigned int index)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), PWTPU_DEV_PATH "%u", index);
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int pwtpu_info(int fd, struct pwtpu_info *info)
{
	memset(info, 0, sizeof(*info));
	return ioctl_errno(fd, PWTPU_IOCTL_INFO, info);
}

int pwtpu_bo_create(int fd, uint64_t size, struct pwtpu_bo *bo)
{
	struct pwtpu_bo_create arg = { .size = size };
	int ret;

	memset(bo, 0, sizeof(*bo));
	ret = ioctl_errno(fd, PWTPU_IOCTL_BO_CREATE, &arg);
	if (ret)
		return ret;
	bo->handle = arg.handle;
	bo->size = size;
	bo->mmap_offset = arg.mmap_offset;
	return 0;
}

int pwtpu_bo_destroy(int fd, uint32_t handle)
{
	struct pwtpu_handle_arg arg = { .handle = handle };

	return ioctl_errno(fd, PWTPU_IOCTL_BO_DESTROY, &arg);
}

int pwtpu_bo_map(int fd, struct pwtpu_bo *bo)
{
	void *p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)bo->mmap_offset);

	if (p == MAP_FAILED)
		return -errno;
	bo->map = p;
	return 0;
}

int pwtpu_bo_alloc(int fd, uint64_t size, struct pwtpu_bo *bo)
{
	int ret = pwtpu_bo_create(fd, size, bo);

	if (ret)
		return ret;
	ret = pwtpu_bo_map(fd, bo);
	if (ret)
		pwtpu_bo_destroy(fd, bo->handle);
	return ret;
}

int pwtpu_bo_free(int fd, struct pwtpu_bo *bo)
{
	if (bo->map)
		munmap(bo->map, bo->size);
	bo->map = NULL;
	return pwtpu_bo_destroy(fd, bo->handle);
}

int pwtpu_prog_load(int fd, const void *image, size_t size, char *log,
		    uint32_t log_size, struct pwtpu_prog_load *out)
{
	memset(out, 0, sizeof(*out));
	out->prog_ptr = (uintptr_t)image;
	out->prog_size = (uint32_t)size;
	out->log_ptr = (uintptr_t)log;
	out->log_size = log ? log_size : 0;
	if (size > UINT32_MAX)
		return -E2BIG;
	return ioctl_errno(fd, PWTPU_IOCTL_PROG_LOAD, out);
}

int pwtpu_prog_unload(int fd, uint32_t handle)
{
	struct pwtpu_handle_arg arg = { .handle = handle };

	return ioctl_errno(fd, PWTPU_IOCTL_PROG_UNLOAD, &arg);
}

int pwtpu_cmd_sync(int fd, uint32_t cmd_op, struct pwtpu_cmd *cmd)
{
	return ioctl_errno(fd, cmd_op, cmd);
}

void pwtpu_cmd_exec(struct pwtpu_cmd *cmd, uint32_t prog,
		    const uint32_t *bos, uint32_t nbos)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->handle = prog;
	cmd->nbufs = nbos;
	cmd->bufs_ptr = (uintptr_t)bos;
}

int pwtpu_gang_create(int fd, uint64_t *serial)
{
	struct pwtpu_gang_create arg = { 0 };
	int gang_fd = ioctl(fd, PWTPU_IOCTL_GANG_CREATE, &arg);

	if (gang_fd < 0)
		return -errno;
	if (serial)
		*serial = arg.serial;
	return gang_fd;
}

void pwtpu_gang_fill(struct pwtpu_gang *g, int gang_fd, uint64_t id,
		     unsigned int n, const unsigned int *devs,
		     unsigned int rank, bool permute, int shift)
{
	unsigned int r;

	memset(g, 0, sizeof(*g));
	g->gang_id = id;
	g->gang_fd = gang_fd;
	g->ndevices = n;
	g->rank = rank;
	for (r = 0; r < n; r++) {
		g->devices[r] = devs[r];
		g->group[r] = 0;
		g->permute[r] = permute ?
			(unsigned int)(((int)r + shift % (int)n + (int)n) %
				       (int)n) : PWTPU_NO_RANK;
	}
}

int pwtpu_exec_sync(int fd, uint32_t prog, const uint32_t *bos,
		    uint32_t nbos)
{
	struct pwtpu_cmd cmd;

	pwtpu_cmd_exec(&cmd, prog, bos, nbos);
	return pwtpu_cmd_sync(fd, PWTPU_CMD_EXEC, &cmd);
}

static int copy_sync(int fd, uint32_t cmd_op, uint32_t bo, uint64_t offset,
		     uintptr_t host, uint64_t length)
{
	struct pwtpu_cmd cmd = {
		.handle = bo,
		.host_ptr = host,
		.offset = offset,
		.length = length,
	};

	return pwtpu_cmd_sync(fd, cmd_op, &cmd);
}

int pwtpu_copy_to_dev(int fd, uint32_t bo, uint64_t offset,
		      const void *src, uint64_t length)
{
	return copy_sync(fd, PWTPU_CMD_COPY_TO_DEV, bo, offset,
			 (uintptr_t)src, length);
}

int pwtpu_copy_from_dev(int fd, uint32_t bo, uint64_t offset, void *dst,
			uint64_t length)
{
	return copy_sync(fd, PWTPU_CMD_COPY_FROM_DEV, bo, offset,
			 (uintptr_t)dst, length);
}
