// SPDX-License-Identifier: GPL-2.0
/*
 * lsan_exit.c - linked only into a sanitized build (make SANITIZE=...,
 * with -Wl,--wrap=_exit). The kselftest harness ends each test's child
 * with _exit(), which skips LeakSanitizer's check at exit, so most of a
 * test's allocations would never be checked: every _exit() checks first,
 * and a child about to report a pass that leaked reports a failure
 * instead (the leak report is on its stderr).
 */
#include <sanitizer/lsan_interface.h>

void __real__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));

void __wrap__exit(int status)
{
	/* The harness reads a child's status as the step that failed. */
	if (status == 0 && __lsan_do_recoverable_leak_check())
		status = 1;
	__real__exit(status);
}
