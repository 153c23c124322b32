// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - allocation failures on demand (fault.h), by the linker's
 * --wrap: our objects' calls of malloc() come to __wrap_malloc(), which
 * calls the real one (__real_malloc()) unless the thread's budget is
 * spent.
 */
#include <errno.h>
#include <stddef.h>

#include "fault.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static _Thread_local long budget = -1;
static _Thread_local unsigned long failed;

void fault_fail_after(long n)
{
	budget = n;
	failed = 0;
}

unsigned long fault_failed(void)
{
	return failed;
}

/* Whether this allocation is to fail. */
static int spend(void)
{
	if (budget < 0)
		return 0;
	if (budget > 0) {
		budget--;
		return 0;
	}
	failed++;
	errno = ENOMEM;
	return 1;
}

void *__wrap_malloc(size_t size)
{
	return spend() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return spend() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return spend() ? NULL : __real_realloc(p, size);
}
