/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pw_common.h - what the runtime's guest selftests share: connecting with
 * a message on failure, small compiled functions, moving float arrays in
 * and out, and the driver's own view of the devices (HBM in use, links,
 * timing mode) read from sysfs, independently of the library.
 */
#ifndef PW_COMMON_H
#define PW_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include <pathways/pathways.h>

/* A test that needs no more than this many devices' worth of arrays. */
#define PWT_MAX_DEVICES		PW_RM_MAX_DEVICES

/*
 * Connect to the embedded controller with @name and @weight (0: 1).
 * NULL with the library's message on stderr when that fails.
 */
struct pw_client *pwt_connect(const char *name, unsigned int weight);

/* A virtual device set with one slice of @n devices of @shape (or NULL). */
struct pw_slice *pwt_slice(struct pw_client *c, unsigned int n,
			      const char *shape);

/*
 * Functions over a f32 shard of @elems elements (rank 1). NULL with the
 * builder's message on stderr when the build fails.
 */
/* y = x <op> k (ADD, SUB, MUL, DIV). */
struct pw_fn *pwt_scalar_fn(const char *name, enum pwtpu_op op, double k,
			    uint32_t elems);
/* y = x + k, after a synthetic compute of @delay_ns. */
struct pw_fn *pwt_slow_add_fn(const char *name, double k, uint32_t elems,
			      uint64_t delay_ns);
/* y = all_reduce_sum(x) + k, over the slice it is called on. */
struct pw_fn *pwt_allreduce_add_fn(const char *name, double k,
				   uint32_t elems);

/*
 * A f32 buffer on @slice of shards of @elems elements from @data (one
 * shard per device, one after another; with @replicate a single shard
 * every device gets). NULL with the message on stderr on failure.
 */
struct pw_buffer *pwt_upload(struct pw_client *c, struct pw_slice *slice,
			     const float *data, uint32_t elems,
			     bool replicate);
/* All @n floats of @buf into @out: 0 or -errno (message on stderr). */
int pwt_fetch(struct pw_buffer *buf, float *out, size_t n);

/*
 * Whether computed values can be checked: not under timing=skip, where
 * the devices skip the arithmetic (and peer copies move no data).
 */
bool pwt_values_checked(void);

/* Devices the driver has, from sysfs; 0 when the module is not loaded. */
unsigned int pwt_sysfs_devices(void);

/* Sum of sysfs hbm_used over every device; UINT64_MAX if unreadable. */
uint64_t pwt_hbm_used(void);
/* Bytes sent on every mesh link of every device (sysfs link_N_DIR). */
uint64_t pwt_link_bytes(void);
/*
 * Poll pwt_hbm_used() until it equals @want or @timeout_ms pass (the
 * driver frees a buffer only once the last command using it is done);
 * returns the last value read.
 */
uint64_t pwt_hbm_wait(uint64_t want, unsigned int timeout_ms);
/*
 * Wait for the devices' HBM use to stop changing (what earlier tests'
 * processes left being freed) and return it: the baseline of a test.
 */
uint64_t pwt_hbm_settle(void);
/* HBM of one device (sysfs hbm_total of device 0). */
uint64_t pwt_hbm_total(void);

/*
 * Whether the driver says devices @a and @b are linked: @b is among
 * @a's sysfs neighbors.
 */
bool pwt_linked(unsigned int a, unsigned int b);

/*
 * In a test body (the harness's macros): SKIP unless the module is loaded
 * with at least @min devices.
 */
#define PWT_NEED_DEVICES(min) do {					\
	unsigned int __n = pwt_sysfs_devices();				\
	if (!__n)							\
		SKIP(return, "no pwtpu devices: pwtpu.ko not loaded");	\
	if (__n < (min))						\
		SKIP(return, "%u devices, the test needs %u", __n,	\
		     (unsigned int)(min));				\
} while (0)

uint64_t pwt_now_ns(void);
void pwt_sleep_ms(unsigned int ms);

struct pw_remote;

/* build/tools/pathwaysd, found from the running test binary's path. */
void pwt_pathwaysd_path(char *path, size_t size);
/*
 * pathwaysd with @args (NULL-terminated, args[0] its path), its standard
 * output to /dev/null: the pid, or -errno. pwt_daemon_stop() SIGTERMs
 * and reaps it.
 */
int pwt_daemon_start(const char *const *args);
void pwt_daemon_stop(int pid);
/*
 * A one-host cluster on loopback: pathwaysd's controller at 127.0.0.1:
 * @port and this host's worker at @port + 1 (data plane over TCP), the
 * controller with the options @ctl_extra too (NULL-terminated; NULL:
 * none). Their pids in *@ctl and *@worker (0 when not started); 0 or
 * -errno.
 */
int pwt_cluster_start(unsigned int port, const char *const *ctl_extra,
		      int *ctl, int *worker);

/*
 * As a client of @controller (NULL: in-process): @runs runs of y =
 * all_reduce_sum(x) over a slice of @ndev devices the controller
 * places, @in_flight at a time, x = @base on every shard; the last y
 * is checked. 0, or -errno with what failed in @why.
 */
int pwt_allreduce_runs(const char *controller, unsigned int ndev, float base,
		       unsigned int runs, unsigned int in_flight, char *why,
		       size_t why_len);

#endif /* PW_COMMON_H */
