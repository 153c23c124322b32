/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log.h - the log of pathwaysd's roles (controller, worker) wherever they
 * run (runtime/util/log.c).
 */
#ifndef PW_RUNTIME_UTIL_LOG_H
#define PW_RUNTIME_UTIL_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Where pw_log() writes from now on: a stream, or NULL for nowhere. */
void pw_log_to(FILE *f);
/* The same, unless pw_log_to() or pw_log_default() chose already. */
void pw_log_default(FILE *f);
/* One line (no newline in @fmt); standard output until pw_log_to(). */
void pw_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Whether the @n-th event of a kind is logged: the 1st, 2nd, 4th, 8th...,
 * so that a flood of them (a lying peer, a failing device) cannot fill
 * the log, and a rare one is always seen.
 */
static inline bool pw_log_due(uint64_t n)
{
	return n && !(n & (n - 1));
}

#endif /* PW_RUNTIME_UTIL_LOG_H */
