/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_user.h - the user-space host of a firmware island: what a test or
 * a simulator passes as the @host cookie of pwfw_island_create(), and
 * the knobs tests use to observe and steer the platform.
 */
#ifndef PWFW_USER_H
#define PWFW_USER_H

#include <pthread.h>
#include <stddef.h>

#include "../pwfw_platform.h"

#define PWFW_USER_LOG_BYTES	16384
#define PWFW_USER_HOPS		256

/**
 * struct pwfw_user_hop - one pwfw_plat_trace_link() call
 * @from: sending device.
 * @to: receiving device.
 * @bytes: bytes of the transfer.
 * @model_ns: as traced.
 */
struct pwfw_user_hop {
	u32 from;
	u32 to;
	u64 bytes;
	u64 model_ns;
};

/**
 * struct pwfw_user_island - one island's lock, wait and records
 * @lock: pwfw_plat_lock().
 * @cond: pwfw_plat_wait() and pwfw_plat_wake_all(), on CLOCK_MONOTONIC.
 * @rec_lock: guards every field below.
 * @log_fn: when set, called with each log line (under @rec_lock).
 * @log_arg: its first argument.
 * @log: the log lines so far, each ended by '\n'; lines that do not fit
 *	are dropped but counted.
 * @log_len: characters in @log.
 * @log_lines: lines logged, dropped ones included.
 * @hops: the first PWFW_USER_HOPS traced link hops.
 * @nhops: hops traced, all of them.
 * @coll: pwfw_plat_trace_coll() calls per enum pwfw_coll_phase.
 */
struct pwfw_user_island {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_mutex_t rec_lock;
	void (*log_fn)(void *arg, const char *msg);
	void *log_arg;
	char log[PWFW_USER_LOG_BYTES];
	size_t log_len;
	unsigned int log_lines;
	struct pwfw_user_hop hops[PWFW_USER_HOPS];
	u64 nhops;
	u64 coll[4];
};

/* 0 or an errno value from pthreads. */
int pwfw_user_island_init(struct pwfw_user_island *ui);
void pwfw_user_island_destroy(struct pwfw_user_island *ui);

/* Copies the log so far into @buf (NUL ended); returns log_lines. */
unsigned int pwfw_user_island_log(struct pwfw_user_island *ui, char *buf,
				  size_t len);

/*
 * Tests of the link model: pwfw_plat_now_ns() returns @ns until
 * pwfw_user_clock_thaw(). Not for tests that also wait on peers.
 */
void pwfw_user_clock_freeze(u64 ns);
void pwfw_user_clock_thaw(void);

/*
 * Fault injection: after @ok more successful pwfw_plat_zalloc() calls,
 * every call fails; a negative @ok turns this off.
 */
void pwfw_user_zalloc_fail_after(long ok);

/* The best vector level this CPU (and OS) supports. */
enum pwfw_simd pwfw_user_simd_cpu(void);

/*
 * Cap pwfw_plat_simd() at @level (enum pwfw_simd), e.g. PWFW_SIMD_NONE
 * for the scalar reference; it never exceeds pwfw_user_simd_cpu(). A
 * negative @level removes the cap: then PWFW_SIMD in the environment
 * ("0" or "scalar", "sse2", "avx2") caps it, and unset means no cap.
 */
void pwfw_user_simd_cap(int level);

#endif /* PWFW_USER_H */
