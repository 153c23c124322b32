// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - where the roles' log lines go (runtime/util/log.h): pathwaysd's
 * standard output by default; nowhere for the roles a client runs inside
 * its own process, unless PATHWAYS_LOG asks (runtime/dcn/local.c), since
 * a library must not write into its user's output.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>

#include "log.h"

static _Atomic(FILE *) pw_log_file;
static atomic_bool pw_log_set_once;

void pw_log_to(FILE *f)
{
	atomic_store(&pw_log_file, f);
	atomic_store(&pw_log_set_once, true);
}

void pw_log_default(FILE *f)
{
	bool was = false;
	FILE *none = NULL;

	/* Only where nothing chose before (pathwaysd's stdout stays). */
	if (atomic_compare_exchange_strong(&pw_log_set_once, &was, true))
		atomic_compare_exchange_strong(&pw_log_file, &none, f);
}

void pw_log(const char *fmt, ...)
{
	FILE *f = atomic_load(&pw_log_set_once) ? atomic_load(&pw_log_file) :
		  stdout;
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	/* One call per line, so lines of two threads do not mix. */
	flockfile(f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
	funlockfile(f);
	va_end(ap);
}
