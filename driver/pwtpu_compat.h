/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtpu_compat.h - the only place that knows kernel APIs moved, by
 * feature tests rather than version numbers. The module is built for
 * Debian 12's 6.1 and checked against its 6.12 headers (the style
 * tests); 6.3 to 6.6 are not supported.
 *
 * - class_create() lost its owner argument in 6.4 (a macro before).
 * - <linux/io_uring/cmd.h> is new in 6.7; where it exists, so do what
 *   6.3 and 6.4 changed: vm_flags is read-only (vm_flags_set()) and
 *   io_uring_cmd holds the SQE rather than its command area.
 */
#ifndef PWTPU_COMPAT_H
#define PWTPU_COMPAT_H

#include <linux/device.h>
#include <linux/mm.h>

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

static inline void pwtpu_vm_flags_set(struct vm_area_struct *vma,
				      vm_flags_t flags)
{
#ifdef PWTPU_HAVE_IO_URING_CMD_H
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/* The SQE's 80-byte command area. */
static inline const void *pwtpu_uring_cmd_area(const struct io_uring_cmd *c)
{
#ifdef PWTPU_HAVE_IO_URING_CMD_H
	return c->sqe->cmd;
#else
	return c->cmd;
#endif
}

#endif /* PWTPU_COMPAT_H */
