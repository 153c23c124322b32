/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types for the firmware, which is built both into pwtpu.ko and into a
 * user-space library: it includes nothing but the UAPI types and the
 * compiler's freestanding headers.
 */
#ifndef PWFW_TYPES_H
#define PWFW_TYPES_H

#include <linux/types.h>

#ifndef __KERNEL__
#include <stdbool.h>
#include <stddef.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;
#endif

#endif /* PWFW_TYPES_H */
