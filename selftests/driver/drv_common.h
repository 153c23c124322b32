/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drv_common.h - what every driver selftest needs: the device under test
 * (open, INFO, a SQE128/CQE32 ring), one command through either path, a
 * sticky-error front end to the program builder, and waiting for HBM
 * accounting to settle.
 */
#ifndef DRV_COMMON_H
#define DRV_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "pwtpu/pwprog.h"
#include "pwtpu/pwtpu_dev.h"

/* How a device command reaches the driver. */
enum drv_path {
	DRV_IOCTL,
	DRV_URING,
};

struct drv {
	unsigned int index;
	int fd;
	struct pwtpu_info info;
	struct io_uring ring;
	bool have_ring;
};

/* Device under test: $PWTPU_TEST_DEV, else 0. */
unsigned int drv_index(void);

/*
 * Open the device under test, read INFO, set up a ring of @ring_entries
 * (none if 0). Returns 0 or -errno; -ENOENT means "no such device", which
 * a test reports as SKIP (see DRV_SETUP).
 */
int drv_setup(struct drv *d, unsigned int ring_entries);
void drv_teardown(struct drv *d);

/*
 * SKIP usable in FIXTURE_SETUP too. The 6.1 harness still runs the test
 * body after a setup that did SKIP(return), so end the test's process
 * instead: exit status 255 is how a test child reports a skip.
 */
#define DRV_SKIP(fmt, ...) SKIP(_exit(255), fmt, ##__VA_ARGS__)

#define DRV_SETUP(d, entries) do {					\
	int __ret = drv_setup((d), (entries));				\
	if (__ret == -ENOENT)						\
		DRV_SKIP("no /dev/pwtpu%u: pwtpu.ko not loaded",	\
			 drv_index());					\
	ASSERT_EQ(0, __ret);						\
} while (0)

/* timing=skip: the device spends the time but results are unspecified. */
static inline bool skip_mode(const struct drv *d)
{
	return d->info.timing_mode == PWTPU_TIMING_SKIP;
}

/* One command through @path: 0 or -errno; @extra gets the CQE32 word. */
int drv_cmd(struct drv *d, enum drv_path path, uint32_t cmd_op,
	    struct pwtpu_cmd *cmd, uint64_t *extra);
int drv_exec(struct drv *d, enum drv_path path, uint32_t prog,
	     const uint32_t *bos, uint32_t nbos);
const char *drv_path_name(enum drv_path path);

/*
 * Builder front end: the first error sticks in @err and makes
 * drv_prog_load() fail with it, so a test builds a whole program and
 * checks once.
 */
struct drv_prog {
	struct pwprog *p;
	int err;
};

void drv_prog_init(struct drv_prog *dp, uint32_t nbufs);
void drv_prog_fini(struct drv_prog *dp);
/* A tensor of @rank extents given as unsigned int varargs. */
int drv_tensor(struct drv_prog *dp, enum pwtpu_dtype dtype, uint32_t buf,
	       uint64_t offset, uint32_t rank, ...);
/* An instruction with @nargs unsigned int varargs as args. */
int drv_insn(struct drv_prog *dp, enum pwtpu_op op, uint8_t mode, int dst,
	     int src0, int src1, int src2, uint32_t nargs, ...);
int drv_binary(struct drv_prog *dp, enum pwtpu_op op, int dst, int a, int b);
int drv_unary(struct drv_prog *dp, enum pwtpu_op op, int dst, int a);
/* The image (malloc'd) or NULL with -errno in *err. */
void *drv_prog_image(struct drv_prog *dp, size_t *size, int *err);
/*
 * Build, load on @fd and free the builder. Returns 0 or -errno; @out
 * (may be NULL) gets the driver's answer, @log (may be NULL) its message.
 */
int drv_prog_load(int fd, struct drv_prog *dp, uint32_t *handle,
		  struct pwtpu_prog_load *out, char *log, uint32_t log_size);

/* c[n] = a[n] + b[n], f32 at byte offsets 0, 4n and 8n of one buffer. */
int drv_load_add(int fd, uint32_t n, uint32_t *prog);

/*
 * Poll sysfs hbm_used of device @index until it equals @want or
 * @timeout_ms pass; returns the last value read.
 */
uint64_t drv_wait_hbm(unsigned int index, uint64_t want,
		      unsigned int timeout_ms);

/* Write @v to the writable module parameter @name: 0 or -errno. */
int drv_param_write(const char *name, unsigned int v);

uint64_t drv_now_ns(void);
void drv_sleep_ms(unsigned int ms);

/* @trips x DELAY(@ns) on @fd, binding one buffer of at least 4 bytes. */
int drv_load_delay(int fd, uint32_t trips, uint32_t ns, uint32_t *prog);

/*
 * Real work: @trips x an f32 DRV_MM_N x DRV_MM_N matmul, binding one
 * buffer of DRV_MM_BYTES; @out (may be NULL) gets the driver's answer.
 */
#define DRV_MM_N	128
#define DRV_MM_BYTES	(12 * DRV_MM_N * DRV_MM_N)
int drv_load_matmul_loop(int fd, uint32_t trips, uint32_t *prog,
			 struct pwtpu_prog_load *out);

/*
 * Poll sysfs queue_depth of device @index until it equals @want (or
 * @timeout_ms pass): true if it did.
 */
bool drv_wait_queue_depth(unsigned int index, uint64_t want,
			  unsigned int timeout_ms);

/*
 * Fork a child that opens device @index, queues @n EXECs of @trips x
 * DELAY(@ns) through io_uring (not waiting for them) and then pauses
 * until killed. Returns its pid once it has queued them, or -1 (the
 * child exited).
 */
pid_t drv_child_queueing(unsigned int index, unsigned int n, uint32_t trips,
			 uint32_t ns);

/* Reap child @pid within @timeout_ms (its status in *@status). */
bool drv_child_gone(pid_t pid, unsigned int timeout_ms, int *status);

#endif /* DRV_COMMON_H */
