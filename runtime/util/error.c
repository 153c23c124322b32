// SPDX-License-Identifier: GPL-2.0
/*
 * error.c - the thread-local message behind pw_last_error(): a failing
 * call records why, in words, next to the errno it returns.
 */
#include <stdarg.h>
#include <stdio.h>

#include "../fn/fn.h"

static _Thread_local char pw_error_msg[256];

int pw_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pw_error_msg, sizeof(pw_error_msg), fmt, ap);
	va_end(ap);
	return err;
}

const char *pw_last_error(void)
{
	return pw_error_msg;
}
