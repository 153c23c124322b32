/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault.h - allocation failures on demand, for tests of error paths
 * (selftests/lib/fault.c). A binary that links fault.o with FAULT_LDFLAGS
 * (selftests/selftests.mk) has every malloc(), calloc() and realloc() of
 * its own objects and of the static libraries it links (libpathways,
 * libpwprog, libpwtpu) pass through here; the C library's own calls and
 * shared libraries' do not.
 *
 * Like the firmware's pwfw_user_zalloc_fail_after(), but per thread: a
 * test arms the thread that calls the library, so a controller or worker
 * serving it from another thread is not disturbed.
 *
 * Device calls (ioctl() and mmap() of a /dev/pwtpu* file, and
 * io_uring_submit() of a ring of device commands, from the same
 * objects: every way libpwtpu and the worker reach the devices) fail on
 * demand too, in every thread: the in-process worker makes them.
 */
#ifndef PW_SELFTESTS_LIB_FAULT_H
#define PW_SELFTESTS_LIB_FAULT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * On the calling thread, @n more allocations succeed and the next one
 * fails (NULL, errno ENOMEM), once: like the kernel's fail-nth, a
 * failure the code must recover from, not a memory that never comes
 * back. -1: none fails.
 */
void fault_fail_after(long n);
/* Allocations that failed on this thread since fault_fail_after(). */
unsigned long fault_failed(void);

/*
 * In the process, @n more device calls succeed and the next one fails
 * (-1 with errno EIO; io_uring_submit() returns -EIO), once; -1: none
 * fails.
 */
void fault_dev_fail_after(long n);
/* Device calls that failed since fault_dev_fail_after(). */
unsigned long fault_dev_failed(void);

/*
 * What one life of a test under a fault came to: the first call that
 * failed (@step), its errno (@ret) and pw_last_error() then (@why); a
 * value that came back wrong; the calls the fault refused.
 */
struct fault_attempt {
	int ret;
	const char *step;
	char why[256];
	bool wrong;
	unsigned long failed;
};

/* libpathways' own setter of pw_last_error() (runtime/util/error.c). */
int pw_fail(int err, const char *fmt, ...);

/*
 * Make @call (named @name) unless an earlier one failed; note a failure
 * and its reason. The reason is cleared first, so that an old one cannot
 * stand for a call that gave none.
 */
#define FAULT_TRY(a, name, call)					\
	do {								\
		if (!(a)->ret)						\
			pw_fail(0, "%s", "");				\
		if (!(a)->ret && ((a)->ret = (call))) {			\
			(a)->step = name;				\
			snprintf((a)->why, sizeof((a)->why), "%s",	\
				 pw_last_error());			\
		}							\
	} while (0)

#endif /* PW_SELFTESTS_LIB_FAULT_H */
