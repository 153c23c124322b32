/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_compiler.h - what the kernel's compiler_types.h gives the firmware
 * in pwtpu.ko, for the user-space build of its FPU files (pwfw_fpu.h
 * includes it; they include no libc header). The UAPI <linux/stddef.h>
 * defines __always_inline as a plain inline for its own headers; the AVX2
 * micro-kernels need the real one, since their row count must be a
 * constant.
 */
#ifndef PWFW_COMPILER_H
#define PWFW_COMPILER_H

#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))

#endif /* PWFW_COMPILER_H */
