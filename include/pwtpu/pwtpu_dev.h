/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtpu_dev.h - thin user-space helpers around /dev/pwtpuN (lib/pwtpu_dev.c,
 * lib/pwtpu_uring.c, lib/pwtpu_sysfs.c).
 *
 * Every helper is one system call's worth of work with the boilerplate
 * taken out; nothing is cached and nothing is hidden, so tests can still
 * see the driver's exact errno. Functions return 0 (or a value >= 0) on
 * success and a negative errno on failure; errno itself is not relied on.
 */
#ifndef PWTPU_PWTPU_DEV_H
#define PWTPU_PWTPU_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <liburing.h>

#include "../uapi/pwtpu.h"

#define PWTPU_DEV_PATH		"/dev/pwtpu"
#define PWTPU_SYSFS_CLASS	"/sys/class/pwtpu"
#define PWTPU_SYSFS_PARAMS	"/sys/module/pwtpu/parameters"

/* Open /dev/pwtpu<index> read-write, close-on-exec: fd or -errno. */
int pwtpu_open(unsigned int index);

int pwtpu_info(int fd, struct pwtpu_info *info);

/**
 * struct pwtpu_bo - a buffer object and, once mapped, its mapping
 * @handle: handle in the open file that created it.
 * @size: bytes asked for.
 * @mmap_offset: the driver's mmap offset for it.
 * @map: the mapping of all @size bytes, or NULL.
 */
struct pwtpu_bo {
	uint32_t handle;
	uint64_t size;
	uint64_t mmap_offset;
	void *map;
};

/* BO_CREATE of @size bytes into @bo (not mapped). */
int pwtpu_bo_create(int fd, uint64_t size, struct pwtpu_bo *bo);
int pwtpu_bo_destroy(int fd, uint32_t handle);
/* mmap() the whole BO shared read-write into bo->map. */
int pwtpu_bo_map(int fd, struct pwtpu_bo *bo);
/* Create and map; on failure nothing is left behind. */
int pwtpu_bo_alloc(int fd, uint64_t size, struct pwtpu_bo *bo);
/* Unmap (if mapped) and destroy; returns the destroy result. */
int pwtpu_bo_free(int fd, struct pwtpu_bo *bo);

/*
 * PROG_LOAD of @size bytes at @image. @log (may be NULL when @log_size is
 * 0) receives the verifier's message. @out is filled with everything the
 * driver returned (handle, verr, err_insn, modeled_ns) on success and on
 * failure alike.
 */
int pwtpu_prog_load(int fd, const void *image, size_t size, char *log,
		    uint32_t log_size, struct pwtpu_prog_load *out);
int pwtpu_prog_unload(int fd, uint32_t handle);

/* A device command through the synchronous ioctl path (fills times). */
int pwtpu_cmd_sync(int fd, uint32_t cmd_op, struct pwtpu_cmd *cmd);
int pwtpu_exec_sync(int fd, uint32_t prog, const uint32_t *bos,
		    uint32_t nbos);
int pwtpu_copy_to_dev(int fd, uint32_t bo, uint64_t offset,
		      const void *src, uint64_t length);
int pwtpu_copy_from_dev(int fd, uint32_t bo, uint64_t offset, void *dst,
			uint64_t length);

/* Fill a pwtpu_cmd for EXEC of @prog over @nbos handles at @bos. */
void pwtpu_cmd_exec(struct pwtpu_cmd *cmd, uint32_t prog,
		    const uint32_t *bos, uint32_t nbos);

/*
 * PWTPU_IOCTL_GANG_CREATE on device file @fd: the new gang file's
 * descriptor (close-on-exec), or -errno. Its serial, the name kernel log
 * lines give it, goes to *@serial unless that is NULL.
 */
int pwtpu_gang_create(int fd, uint64_t *serial);

/*
 * Fill @g for member @rank of gang @id of gang file @gang_fd over island
 * devices @devs[@n], one replica group; with @permute, rank r sends to
 * (r + @shift) mod n.
 */
void pwtpu_gang_fill(struct pwtpu_gang *g, int gang_fd, uint64_t id,
		     unsigned int n, const unsigned int *devs,
		     unsigned int rank, bool permute, int shift);

/*
 * Prepare @sqe (non-NULL, from a ring with IORING_SETUP_SQE128) as an
 * IORING_OP_URING_CMD carrying @cmd (NULL: all zero) for @fd. liburing 2.3 has no helper
 * for this: every field not set here is zeroed, including __pad1 and the
 * whole 80-byte command area, so stale ring contents never leak into a
 * command.
 */
static inline void pwtpu_prep_uring_cmd(struct io_uring_sqe *sqe, int fd,
					uint32_t cmd_op,
					const struct pwtpu_cmd *cmd)
{
	unsigned char *area = (unsigned char *)sqe +
			      offsetof(struct io_uring_sqe, cmd);

	memset(sqe, 0, offsetof(struct io_uring_sqe, cmd));
	memset(area, 0, sizeof(*cmd));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = cmd_op;
	sqe->__pad1 = 0;
	if (cmd)
		memcpy(area, cmd, sizeof(*cmd));
}

/* io_uring_queue_init() with IORING_SETUP_SQE128 | CQE32 | @extra_flags. */
int pwtpu_ring_init(struct io_uring *ring, unsigned int entries,
		    unsigned int extra_flags);

/*
 * A ring for one thread, set up for the fast path: pwtpu_ring_init()
 * with @extra_flags and, unless they ask for SQPOLL (which has its own
 * thread), IORING_SETUP_SINGLE_ISSUER and, without IOPOLL,
 * DEFER_TASKRUN (completions' task work runs only when this thread
 * enters the ring: no IPI, no interruption) and COOP_TASKRUN. The
 * device files @fds[0..@nfds) become fixed files 0..@nfds-1 (see
 * pwtpu_prep_uring_cmd_fixed()) and the ring's own fd is registered, so
 * that neither is looked up per call. Only the calling thread may enter
 * the ring (others get -EEXIST). With IORING_SETUP_R_DISABLED in
 * @extra_flags the ring belongs to no thread yet: the one that will use
 * it calls pwtpu_ring_enable() first. 0 or -errno, the ring torn down.
 */
int pwtpu_ring_init_owned(struct io_uring *ring, unsigned int entries,
			  unsigned int extra_flags, const int *fds,
			  unsigned int nfds);

/*
 * Make a ring set up with IORING_SETUP_R_DISABLED the calling thread's:
 * enable it and register its fd for this thread. 0 or -errno.
 */
int pwtpu_ring_enable(struct io_uring *ring);

/* pwtpu_prep_uring_cmd() for fixed file @index of the ring. */
static inline void pwtpu_prep_uring_cmd_fixed(struct io_uring_sqe *sqe,
					      unsigned int index,
					      uint32_t cmd_op,
					      const struct pwtpu_cmd *cmd)
{
	pwtpu_prep_uring_cmd(sqe, (int)index, cmd_op, cmd);
	sqe->flags |= IOSQE_FIXED_FILE;
}

/*
 * Run the task work of completions on a DEFER_TASKRUN ring so that its
 * CQEs can be peeked: a system call there, nothing elsewhere. 0 or
 * -errno.
 */
int pwtpu_ring_get_events(struct io_uring *ring);

/*
 * Submit one command on @ring and wait for its completion: returns
 * cqe->res (0 or -errno) and stores cqe->big_cqe[0] in *@extra (may be
 * NULL). A failure of io_uring itself is returned as its -errno as well.
 */
int pwtpu_uring_run(struct io_uring *ring, int fd, uint32_t cmd_op,
		    const struct pwtpu_cmd *cmd, uint64_t *extra);

/*
 * sysfs. Attribute values are read whole, trailing newline removed.
 * pwtpu_sysfs_* read /sys/class/pwtpu/pwtpu<index>/<attr>; pwtpu_param_*
 * read /sys/module/pwtpu/parameters/<name>.
 */
int pwtpu_sysfs_str(unsigned int index, const char *attr, char *buf,
		    size_t len);
int pwtpu_sysfs_u64(unsigned int index, const char *attr, uint64_t *val);
int pwtpu_param_str(const char *name, char *buf, size_t len);
int pwtpu_param_u64(const char *name, uint64_t *val);
/*
 * Indices of the devices in /sys/class/pwtpu, ascending, into @idx (room
 * for @max). Returns how many exist (may exceed @max), or -errno (-ENOENT
 * when the module is not loaded).
 */
int pwtpu_list_devices(unsigned int *idx, unsigned int max);

/* Name of an enum pwtpu_timing_mode as sysfs writes it, "?" if unknown. */
const char *pwtpu_timing_name(uint32_t mode);

#endif /* PWTPU_PWTPU_DEV_H */
