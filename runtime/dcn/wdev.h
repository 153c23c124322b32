/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wdev.h - a worker's devices, for PLAN commands and the object store:
 * commands queued and flushed in batches, completions reaped without
 * blocking when an eventfd the worker's loop polls says so, and the
 * devices' programs and buffer objects. Behind it a backend: the
 * module's devices through one io_uring (runtime/dcn/wdev_kernel.c), or
 * simulated ones, the same firmware in this process (wdev_sim.c).
 *
 * Programs and buffers come from the worker's object store
 * (runtime/dcn/wstore.h): clients ship compiled functions.
 */
#ifndef PW_RUNTIME_DCN_WDEV_H
#define PW_RUNTIME_DCN_WDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pathways/wire.h>
#include <pwtpu/pwtpu_dev.h>

/* Commands queued between two flushes, at most (the kernel's ring). */
#define PW_WDEV_RING	1024

struct pw_wdev;

/* A finished command: its tag and what the device said. */
struct pw_wdev_done {
	uint64_t tag;
	int res;
	uint32_t queue_ns;
	uint32_t exec_ns;
};

/*
 * A backend: the devices' semantics are the device's own (the firmware
 * run by pwtpu.ko); a backend only carries commands and objects to them.
 * Called through the pw_wdev_*() below, which check the device numbers.
 */
struct pw_wdev_ops {
	const char *name;
	void (*close)(struct pw_wdev *w);
	int (*exec)(struct pw_wdev *w, unsigned int dev, uint32_t prog,
		    const uint32_t *bos, unsigned int nbos,
		    const struct pwtpu_gang *gang, uint64_t tag);
	int (*copy_peer)(struct pw_wdev *w, unsigned int dev, uint32_t bo,
			 uint64_t offset, uint64_t length,
			 unsigned int peer_dev, uint32_t peer_bo,
			 uint64_t peer_offset, uint64_t tag);
	int (*reserve)(struct pw_wdev *w, unsigned int n);
	int (*flush)(struct pw_wdev *w);
	int (*reap)(struct pw_wdev *w, struct pw_wdev_done *done,
		    unsigned int max);
	int (*bo_create)(struct pw_wdev *w, unsigned int dev, uint64_t bytes,
			 struct pwtpu_bo *bo);
	int (*bo_map)(struct pw_wdev *w, unsigned int dev, struct pwtpu_bo *bo);
	void (*bo_unmap)(struct pw_wdev *w, struct pwtpu_bo *bo);
	int (*bo_destroy)(struct pw_wdev *w, unsigned int dev, uint32_t handle);
	int (*prog_load)(struct pw_wdev *w, unsigned int dev, const void *image,
			 size_t size, uint32_t *handle);
	int (*prog_unload)(struct pw_wdev *w, unsigned int dev,
			   uint32_t handle);
};

/**
 * struct pw_wdev - the worker's devices
 * @ops: the backend.
 * @be: the backend's own state.
 * @ndev: devices open, numbered from 0.
 * @efd: an eventfd signalled on every completion, for the worker's loop.
 * @gang_fd: the gang file every gang of this worker meets in: no other
 *	process can join them.
 */
struct pw_wdev {
	const struct pw_wdev_ops *ops;
	void *be;
	unsigned int ndev;
	int efd;
	int gang_fd;
};

/**
 * struct pw_wdev_sim_cfg - simulated devices (runtime/dcn/wdev_sim.c)
 * @ndev: devices, 1..PW_WIRE_MAX_DEVICES.
 * @mesh: their shape, as the module's mesh parameter takes it ("4",
 *	"2x2", "2x2x2t").
 * @hbm_bytes: each device's HBM.
 * @timing: enum pwtpu_timing_mode.
 * @trace: when not empty, a file the devices append their commands'
 *	pwtpu_submit, pwtpu_start and pwtpu_complete events to, in the
 *	text the module's tracepoints print (tools/pwtrace reads both).
 */
struct pw_wdev_sim_cfg {
	unsigned int ndev;
	char mesh[16];
	uint64_t hbm_bytes;
	uint32_t timing;
	char trace[256];
};

/*
 * Open @ndev devices of the module's island (the kernel backend,
 * runtime/dcn/wdev_kernel.c): 0, -EINVAL for 0 or more than
 * PW_WIRE_MAX_DEVICES, -EBUSY for an island another process drives
 * (pw_last_error() says which), or what opening them said.
 */
int pw_wdev_open(struct pw_wdev *w, unsigned int ndev);
/*
 * The devices a worker drives, as its user names them: "kernel" (the
 * module's island), or "sim:MESH[,hbm_mib=N][,timing=MODE][,trace=FILE]",
 * simulated (64 MiB, native timing and no trace unless said). 0 with
 * @cfg filled and @sim set for simulated devices; -EINVAL with a message in @err naming what
 * was wrong.
 */
int pw_wdev_parse(const char *str, struct pw_wdev_sim_cfg *cfg, bool *sim,
		  char *err, size_t len);
/*
 * Open simulated devices: the firmware's island in this process, the
 * same device as the module's. 0, -EINVAL for a configuration out of
 * range or a mesh that does not hold @cfg->ndev devices, -ENOMEM, or a
 * thread's error.
 */
int pw_wdev_open_sim(struct pw_wdev *w, const struct pw_wdev_sim_cfg *cfg);
void pw_wdev_close(struct pw_wdev *w);
/*
 * Queue an EXEC of program @prog binding @bos[@nbos] on device @dev, or a
 * NOP when @prog is 0, with @tag: 0, -EINVAL for a device this worker
 * does not have (or, simulated, more than PWTPU_MAX_BUFS buffers),
 * -EBUSY when the ring is full, -ENOMEM (simulated). Queued commands go to the
 * devices at the next pw_wdev_flush() (one system call for all of them);
 * the device reads @bos then, so it must stay as it is until that call.
 */
int pw_wdev_exec(struct pw_wdev *w, unsigned int dev, uint32_t prog,
		 const uint32_t *bos, unsigned int nbos,
		 const struct pwtpu_gang *gang, uint64_t tag);
/*
 * Queue a COPY_PEER on @dev: @length bytes at @offset of its buffer
 * object @bo to @peer_offset of @peer_dev's @peer_bo, over the mesh
 * links; errors as pw_wdev_exec().
 */
int pw_wdev_copy_peer(struct pw_wdev *w, unsigned int dev, uint32_t bo,
		      uint64_t offset, uint64_t length, unsigned int peer_dev,
		      uint32_t peer_bo, uint64_t peer_offset, uint64_t tag);
/* Room for @n commands on the ring (flushing if need be): 0, -EBUSY, -EIO. */
int pw_wdev_reserve(struct pw_wdev *w, unsigned int n);
/*
 * Submit what is queued: commands submitted, or -errno. When submission
 * fails, the commands it could not hand the devices finish with that
 * error at the next pw_wdev_reap() (the eventfd is signalled); until
 * then, new commands fail so too.
 */
int pw_wdev_flush(struct pw_wdev *w);
/* Up to @max finished commands, without waiting: their count. */
int pw_wdev_reap(struct pw_wdev *w, struct pw_wdev_done *done,
		 unsigned int max);

/*
 * Device objects, as the device's ioctls make them: 0 or -errno (-EINVAL
 * for a device this worker does not have). A buffer object of @bytes on
 * @dev, not mapped; mapped (bo->map) too, for pw_wdev_bo_alloc(), which
 * leaves nothing behind on failure. Unmapping a BO not mapped does
 * nothing.
 */
int pw_wdev_bo_create(struct pw_wdev *w, unsigned int dev, uint64_t bytes,
		      struct pwtpu_bo *bo);
int pw_wdev_bo_map(struct pw_wdev *w, unsigned int dev, struct pwtpu_bo *bo);
void pw_wdev_bo_unmap(struct pw_wdev *w, struct pwtpu_bo *bo);
int pw_wdev_bo_alloc(struct pw_wdev *w, unsigned int dev, uint64_t bytes,
		     struct pwtpu_bo *bo);
int pw_wdev_bo_destroy(struct pw_wdev *w, unsigned int dev, uint32_t handle);
/* A program image verified and loaded on @dev, its handle in @handle. */
int pw_wdev_prog_load(struct pw_wdev *w, unsigned int dev, const void *image,
		      size_t size, uint32_t *handle);
int pw_wdev_prog_unload(struct pw_wdev *w, unsigned int dev, uint32_t handle);

#endif /* PW_RUNTIME_DCN_WDEV_H */
