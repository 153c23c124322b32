/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drv_gang.h - collectives through the driver for the tests: members of
 * a gang (device, buffers, program, gang descriptor), collective
 * programs, and submitting all members' EXECs on one ring and reaping
 * them with a deadline, so a test never hangs on a collective.
 */
#ifndef DRV_GANG_H
#define DRV_GANG_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_common.h"

/**
 * struct gang_member - one member's EXEC
 * @dev: its island device.
 * @fd: an open file of @dev (not owned).
 * @in: operand BO (owned once gang_alloc() succeeded), mapped.
 * @out: result BO, mapped.
 * @prog: program handle in @fd.
 * @bufs: @in and @out, the EXEC's bindings.
 * @gang: its gang descriptor (rank = its gang rank).
 * @res: completion result, or 1 while not completed.
 * @end_ns: when its completion was reaped.
 */
struct gang_member {
	uint32_t dev;
	int fd;
	struct pwtpu_bo in;
	struct pwtpu_bo out;
	uint32_t prog;
	uint32_t bufs[2];
	struct pwtpu_gang gang;
	int res;
	uint64_t end_ns;
};

/* A random non-zero gang id. */
uint64_t gang_random_id(void);

/*
 * The test process's gang file, created on first use (from device 0) and
 * inherited by its children: the fd, or -errno. Its serial goes to
 * *@serial unless that is NULL.
 */
int gang_file(uint64_t *serial);

/*
 * Fill @g for gang rank @rank of @n members on @devs, in gang_file();
 * @groups NULL puts everyone in group 0, @permute NULL sends nothing
 * (PWTPU_NO_RANK).
 */
void gang_fill(struct pwtpu_gang *g, uint64_t id, uint32_t n, uint32_t rank,
	       const uint32_t *devs, const uint32_t *groups,
	       const uint32_t *permute);

/* Create and map @bytes of in and out BOs for @m on m->fd. */
int gang_alloc(struct gang_member *m, uint64_t bytes);
void gang_free(struct gang_member *m);

/*
 * Load "dst = op(src)": src [src_rows, cols] at 0 in binding 0, dst
 * [dst_rows, cols] at 0 in binding 1, both @dtype.
 */
int gang_load(int fd, enum pwtpu_op op, uint8_t mode, enum pwtpu_dtype dtype,
	      uint32_t src_rows, uint32_t dst_rows, uint32_t cols,
	      uint32_t *prog);

/* The EXEC of @m (its program over in/out, with its gang). */
void gang_cmd(struct gang_member *m, struct pwtpu_cmd *cmd);

/* Queue the EXECs of @m[0..n) on @ring in that order and submit. */
int gang_submit(struct io_uring *ring, struct gang_member *m, uint32_t n);
/*
 * Reap @n completions into @m[i].res (user_data is the index), waiting
 * at most @timeout_ms in all: 0, or -ETIME with the missing ones at 1.
 */
int gang_reap(struct io_uring *ring, struct gang_member *m, uint32_t n,
	      unsigned int timeout_ms);
int gang_run(struct io_uring *ring, struct gang_member *m, uint32_t n,
	     unsigned int timeout_ms);

/*
 * Whether collectives compute: false in timing=skip, where they meet and
 * spend the modelled time but leave their results unspecified.
 */
bool gang_computes(void);

/* The module's gang_timeout_ms, or -errno (no such parameter). */
int64_t gang_timeout_ms(void);

#endif /* DRV_GANG_H */
