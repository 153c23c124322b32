/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwbench_mc.h - one process of the multi-controller baseline
 * (pwbench_paper_multi.c) and the devices it drives: a device of the
 * module's island through its own io_uring (pwbench_mc_kernel.c), or a
 * simulated host's whole island through pw_wdev (pwbench_mc_sim.c), the
 * device pathwaysd's simulated workers run; or, for Table 1, a device of
 * the module's island training the Transformer (pwbench_mc_train.c).
 */
#ifndef PWBENCH_MC_H
#define PWBENCH_MC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../runtime/dcn/wdev.h"

#include "pwbench_paper.h"

/* Computations in flight per process; each holds one gang id. */
#define MC_SLOTS	(2 * PWP_CHAIN)

/* Binding 0: x at 0, the constant 1 at 4, the all-reduce result at 8. */
#define MC_OFF_X	0
#define MC_OFF_ONE	4
#define MC_OFF_T	8
#define MC_BO_BYTES	16

struct mc_child;

/*
 * A backend: @queue puts one computation (gang id @id, slot @slot) on
 * every device the process drives and says how many commands that was;
 * @submit hands the queued commands over; @reap reports finished ones
 * through mc_child_done(), waiting for one when @wait, and returns how
 * many or -errno.
 */
struct mc_backend {
	const char *what;
	int (*prepare)(struct mc_child *c);
	int (*queue)(struct mc_child *c, bool fused, unsigned int slot,
		     uint64_t id);
	int (*submit)(struct mc_child *c, unsigned int queued);
	int (*reap)(struct mc_child *c, bool wait);
	/* x := 0 and the constant := 1 on every device. */
	void (*reset)(struct mc_child *c);
	/* Whether x is @want on every device. */
	bool (*check)(struct mc_child *c, float want);
	void (*close)(struct mc_child *c);
};

/**
 * struct mc_child - one process of the baseline
 * @index: the device (kernel) or the host (simulated) it stands for.
 * @ndev: kernel: the gang's devices, one process each; simulated: the
 *	host's devices, all driven by this process.
 * @n: computations per repetition.
 * @delay_ns: compute per step.
 * @gang_fd: kernel: the gang file every process inherited.
 * @sim: simulated: the host's island.
 * @train: Table 1: the training step, a compiled function.
 * @priv: the backend's state.
 * @pending: commands still running of each slot's computation.
 */
struct mc_child {
	const struct mc_backend *be;
	unsigned int index;
	unsigned int ndev;
	unsigned int n;
	uint64_t delay_ns;
	int gang_fd;
	struct pw_wdev_sim_cfg sim;
	const struct pw_fn *train;
	void *priv;
	bool devices_compute;
	uint64_t seq;
	unsigned int inflight;
	unsigned int next_slot;
	int err;
	uint8_t pending[MC_SLOTS];
};

extern const struct mc_backend mc_kernel_backend;
extern const struct mc_backend mc_sim_backend;
extern const struct mc_backend mc_train_backend;

/* A command of @slot's computation finished with @res. */
void mc_child_done(struct mc_child *c, unsigned int slot, int res);

struct io_uring;
/*
 * The module's devices' backends (pwbench_mc_kernel.c): submit @queued
 * commands of @ring (-EIO if it took fewer); reap one completion into
 * mc_child_done(), waiting for it when @wait (0 when none was ready).
 */
int mc_ring_submit(struct io_uring *ring, unsigned int queued);
int mc_ring_reap(struct mc_child *c, struct io_uring *ring, bool wait);

/*
 * The image of a program of @steps steps of x = all-reduce(max, x) + 1
 * (then DELAY @delay_ns), in binding 0 as above: malloc'd, or NULL.
 */
void *mc_step_image(unsigned int steps, uint64_t delay_ns, size_t *size);

#endif /* PWBENCH_MC_H */
