/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtpu_compat.h - the only place that knows kernel APIs moved. Feature
 * tests, not version numbers: class_create() lost its owner argument in
 * 6.4 (it was a macro before), uring_cmd moved to its own header in 6.7.
 */
#ifndef PWTPU_COMPAT_H
#define PWTPU_COMPAT_H

#include <linux/device.h>

#ifdef class_create
#define pwtpu_class_create(name)	class_create(THIS_MODULE, name)
#else
#define pwtpu_class_create(name)	class_create(name)
#endif

/* sparse lacks __has_include; on the kernels it checks here, 6.1, fine. */
#ifdef __has_include
#if __has_include("linux/io_uring/cmd.h")
#define PWTPU_HAVE_IO_URING_CMD_H
#endif
#endif

#ifdef PWTPU_HAVE_IO_URING_CMD_H
#include <linux/io_uring/cmd.h>
#else
#include <linux/io_uring.h>
#endif

#endif /* PWTPU_COMPAT_H */
