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

/* Whether the SIMD paths may be used (both paths give identical bits). */
bool pwfw_plat_simd(void);

#endif /* PWFW_PLATFORM_H */
