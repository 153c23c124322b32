/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wdev.h - a worker's devices for PLAN commands (runtime/dcn/wdev.c):
 * every device of the island open, one io_uring (SQE128 + CQE32) with an
 * eventfd the worker's loop polls next to its transport.
 *
 * Function ids name programs every worker loads at start, the fixed set
 * the DCN dispatch measurement needs (docs/dcn.md); compiled functions
 * shipped by clients come with remote programs.
 */
#ifndef PW_RUNTIME_DCN_WDEV_H
#define PW_RUNTIME_DCN_WDEV_H

#include <stdint.h>

#include <liburing.h>
#include <pathways/wire.h>

enum pw_wdev_fn {
	PW_WDEV_FN_EMPTY = 1,	/* a program with no instructions */
	PW_WDEV_FN_ADD = 2,	/* c = a + b over f32[1] */
	PW_WDEV_NFN,
};

/**
 * struct pw_wdev - the worker's devices
 * @ndev: devices open.
 * @fd: each device's file.
 * @prog: each device's program handle per function id.
 * @bo: each device's buffer object the functions bind.
 * @ring: one ring for all of them.
 * @efd: eventfd signalled on every completion.
 * @inflight: commands on the ring.
 */
struct pw_wdev {
	unsigned int ndev;
	int fd[PW_WIRE_MAX_DEVICES];
	uint32_t prog[PW_WIRE_MAX_DEVICES][PW_WDEV_NFN];
	uint32_t bo[PW_WIRE_MAX_DEVICES];
	struct io_uring ring;
	int efd;
	unsigned int inflight;
};

/* A finished command: its tag and what the device said. */
struct pw_wdev_done {
	uint64_t tag;
	int res;
	uint32_t queue_ns;
	uint32_t exec_ns;
};

int pw_wdev_open(struct pw_wdev *w, unsigned int ndev);
void pw_wdev_close(struct pw_wdev *w);
/*
 * Submit @cmd (EXEC of a known function, or NOP) with @tag: 0, -EINVAL for
 * an op, device or function this worker does not have, -EBUSY when the
 * ring is full.
 */
int pw_wdev_submit(struct pw_wdev *w, const struct pw_wire_plan_cmd *cmd,
		   uint64_t tag);
/* Up to @max finished commands, without waiting: their count. */
int pw_wdev_reap(struct pw_wdev *w, struct pw_wdev_done *done,
		 unsigned int max);

#endif /* PW_RUNTIME_DCN_WDEV_H */
