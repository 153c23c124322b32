/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_platform.h - what the firmware needs from its host. pwtpu.ko
 * implements it in driver/pwtpu_platform.c, the user-space library in
 * firmware/user/platform_user.c.
 */
#ifndef PWFW_PLATFORM_H
#define PWFW_PLATFORM_H

#include "pwfw_types.h"

/*
 * Float and vector code runs only between these two calls, in sections
 * bounded to about PWFW_FPU_CHUNK elements of work, never across a yield.
 */
#define PWFW_FPU_CHUNK	65536U
void pwfw_plat_fpu_begin(void);
void pwfw_plat_fpu_end(void);

/* Called between bounded chunks: lets the host reschedule. */
void pwfw_plat_yield(void);

/* Synthetic compute: spend @ns nanoseconds. */
void pwfw_plat_delay_ns(u64 ns);

/*
 * The widest vector unit the float kernels may use. Each level includes
 * the ones below it, and every level gives the same bits: the scalar code
 * is the reference the others are tested against (docs/firmware-ops.md).
 */
enum pwfw_simd {
	PWFW_SIMD_NONE,		/* scalar code only */
	PWFW_SIMD_SSE2,		/* 4-lane vectors: every x86-64 CPU */
	PWFW_SIMD_AVX2,		/* 8-lane vectors: CPU and OS support AVX2 */
};

enum pwfw_simd pwfw_plat_simd(void);

/*
 * The island's shared state (links, gang rendezvous) is guarded by one
 * lock per island; @host is the cookie given to pwfw_island_create().
 */
void pwfw_plat_lock(void *host);
void pwfw_plat_unlock(void *host);
/*
 * With the lock held: sleep until pwfw_plat_wake_all() or @deadline_ns
 * (pwfw_plat_now_ns() clock), and return with it held again; false when
 * the deadline passed.
 */
bool pwfw_plat_wait(void *host, u64 deadline_ns);
void pwfw_plat_wake_all(void *host);
/* A monotonic clock in nanoseconds. */
u64 pwfw_plat_now_ns(void);

void *pwfw_plat_zalloc(u64 bytes);
void pwfw_plat_free(void *p);

/*
 * A diagnostic line for the host's log (no newline needed). Users can
 * cause these (a gang that times out), so the host rate-limits them.
 */
void pwfw_plat_log(void *host, const char *msg);

/* Trace hooks: a transfer over one link, and a collective's phases. */
enum pwfw_coll_phase {
	PWFW_COLL_JOIN,		/* arrived at the rendezvous */
	PWFW_COLL_START,	/* every peer arrived, data moves */
	PWFW_COLL_STEP,		/* one step of the algorithm done */
	PWFW_COLL_DONE,		/* left the rendezvous (result in @arg) */
};

void pwfw_plat_trace_link(void *host, u32 from, u32 to, u64 bytes,
			  u64 model_ns);
void pwfw_plat_trace_coll(void *host, u32 dev, u64 gang_id, u32 seq,
			  u32 op, u32 phase, s32 arg);

#endif /* PWFW_PLATFORM_H */
