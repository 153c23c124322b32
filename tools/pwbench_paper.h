/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwbench_paper.h - `pwbench pathways`: the Pathways paper's section 5
 * micro-benchmarks on one host. What its parts share: options, the
 * computation every figure uses, and CSV files.
 */
#ifndef PWBENCH_PAPER_H
#define PWBENCH_PAPER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <pathways/pathways.h>

/* Computations of a Chained program and of one Fused function. */
#define PWP_CHAIN	128

/*
 * Figure 6: at most this many compute times per sweep, and the ratio
 * single/multi at which the single controller counts as at parity
 * (the paper's "matches"; on a noisy emulator, within 5%).
 */
#define PWP_MAX_DELAYS	16
#define PWP_PARITY	0.95

/* Figure 8: at most this many client processes at once. */
#define PWP_MAX_CLIENTS	8

/*
 * Table 2: the model's layers (so at most this many stages), and at
 * most this many micro-batches a step (a program's results).
 */
#define PWP_PIPE_LAYERS		16
#define PWP_PIPE_MAX_MICRO	16

/**
 * struct pwp_opts - options of `pwbench pathways`
 * @n: throughput: computations per repetition (a multiple of PWP_CHAIN);
 *	dispatch: timed runs per chain length and mode.
 * @reps: throughput: timed repetitions per mode and controller.
 * @interval_ms: clients: measured interval per configuration.
 * @multi: throughput: also run the multi-controller baseline.
 * @only_multi: throughput: only the baseline (on each host of a cluster).
 * @devices: throughput: the first this many devices (0: all).
 * @sim: throughput (with @only_multi): the baseline on @sim_hosts
 *	simulated hosts of this island ("sim:MESH,...", as pathwaysd's
 *	--devices takes it) instead of the module's devices; NULL: not.
 * @csv_dir: directory for one CSV file per figure, or NULL.
 * @delays_us: parity, clients: compute times per step, ascending.
 * @ndelays: how many (0: the part's own).
 * @clients: clients: how many client processes, in turn.
 * @nclients: how many counts (0: the part's own).
 * @stages: pipeline: the stage counts, in turn; @nstages how many.
 * @micro: pipeline: micro-batches per step.
 * @layer_us: pipeline: compute of one layer of a micro-batch.
 * @dcn: pipeline: the controller's address (NULL: in this process).
 */
struct pwp_opts {
	unsigned int n;
	unsigned int reps;
	unsigned int interval_ms;
	bool multi;
	bool only_multi;
	unsigned int devices;
	const char *sim;
	unsigned int sim_hosts;
	const char *csv_dir;
	unsigned int delays_us[PWP_MAX_DELAYS];
	unsigned int ndelays;
	unsigned int clients[PWP_MAX_DELAYS];
	unsigned int nclients;
	unsigned int stages[PWP_MAX_DELAYS];
	unsigned int nstages;
	unsigned int micro;
	unsigned int layer_us;
	const char *dcn;
};

/* Figures 5 to 9 and Table 2; each returns 0 or -errno. */
int pwp_throughput(const struct pwp_opts *o);
int pwp_parity(const struct pwp_opts *o);
int pwp_dispatch(const struct pwp_opts *o);
int pwp_clients(const struct pwp_opts *o);
int pwp_share(const struct pwp_opts *o);
int pwp_pipeline(const struct pwp_opts *o);
int pwp_train(const struct pwp_opts *o);
/* Devices of the module's island, 0 when it is not loaded. */
unsigned int pwp_island_size(void);

/*
 * The paper's unit of work over f32[1] per device, @steps times:
 *	x = all-reduce(max, x) + 1, then @delay_ns of compute
 * Max rather than sum keeps the value exact: after k steps on every
 * device it is k more than it was, which checks the whole run. The
 * delay (the device's DELAY op) stands for the computation's size.
 */
int pwp_step_fn(unsigned int steps, uint64_t delay_ns, struct pw_fn **fn);

/* Whether devices compute (timing=skip leaves results unspecified). */
bool pwp_devices_compute(void);

/* "name: message" on stderr, with pw_last_error(); returns @err. */
int pwp_fail(int err, const char *what);

/*
 * @name in the CSV directory, opened for writing with @header as its
 * first line; NULL (quietly) when there is no directory, or on failure
 * with a message (*@err = -errno).
 */
FILE *pwp_csv_open(const struct pwp_opts *o, const char *name,
		   const char *header, int *err);
/* Close; 0 or -errno of a failed write. NULL is ignored. */
int pwp_csv_close(FILE *f);

/* Count per second from @count things in @ns nanoseconds. */
static inline double pwp_rate(uint64_t count, uint64_t ns)
{
	return ns ? (double)count * 1e9 / (double)ns : 0.0;
}

/*
 * pathwaysd's controller and worker on 127.0.0.1 (pwbench_pathwaysd.c),
 * for clients in other processes: @address is the controller's.
 */
struct pwp_daemons {
	pid_t ctl;
	pid_t worker;
	char address[32];
	char log[64];
	char key[64];
};

/*
 * Start them, the controller with @ctl_args (NULL-terminated, or NULL)
 * after its own; they may still be registering when this returns.
 */
int pwp_daemons_start(struct pwp_daemons *d, const char *const *ctl_args);
/* SIGTERM both and reap them; 0 when both exited cleanly. @ok: so far. */
int pwp_daemons_stop(struct pwp_daemons *d, bool ok);
/*
 * Wait up to @ms for child @pid, then SIGKILL it and reap it: 0 when it
 * exited 0 in time, -ETIMEDOUT when it had to be killed, else -EIO.
 */
int pwp_reap(pid_t pid, unsigned int ms);

/*
 * Multi-controller baseline (pwbench_paper_multi.c): one process per
 * device, each submitting the same raw programs straight to its device,
 * or one per simulated host, driving its island.
 */
enum pwp_mode {
	PWP_OPBYOP,
	PWP_CHAINED,
	PWP_FUSED,
	PWP_NR_MODES,
};

extern const char *const pwp_mode_name[PWP_NR_MODES];

struct pwp_multi;
struct pw_wdev_sim_cfg;

/* Simulated hosts of one baseline, at most (the wire's hosts). */
#define PWP_MAX_SIM_HOSTS	512

/*
 * Where the baseline runs: with @sim NULL, on the module's first @ndev
 * devices, a process each; else on @hosts simulated hosts, a process
 * each driving an island of @sim. With @train (Table 1, on the module's
 * devices), each process trains the Transformer with that step
 * function instead: a step is a computation, submitted as Chained ones.
 */
struct pwp_multi_where {
	unsigned int ndev;
	const struct pw_wdev_sim_cfg *sim;
	unsigned int hosts;
	const struct pw_fn *train;
};

/*
 * Fork the processes (before any thread exists), each ready to run @n
 * computations per repetition, @delay_ns per step: 0, -E2BIG for too
 * many, or the first process's error in preparing.
 */
int pwp_multi_start(const struct pwp_multi_where *where, unsigned int n,
		    uint64_t delay_ns, struct pwp_multi **mc);
/*
 * One repetition of @mode on every process at once: *@ns from the start
 * signal to the last process done; *@ok false when a result is wrong.
 */
int pwp_multi_run(struct pwp_multi *mc, enum pwp_mode mode, uint64_t *ns,
		  bool *ok);
/* Tell every process to exit and reap them. NULL is ignored. */
void pwp_multi_stop(struct pwp_multi *mc);

#endif /* PWBENCH_PAPER_H */
