// SPDX-License-Identifier: GPL-2.0
/*
 * pwtrace_json.c - write the Chrome trace event format ("JSON Object
 * Format": {"traceEvents": [...]}) that Perfetto and chrome://tracing
 * read. Times are microseconds there; they are printed from integer
 * nanoseconds with three decimals, so nothing is lost or rounded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "pwtrace.h"

/* @ns as microseconds, "12.345". */
static void us(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03u", ns / 1000,
		 (unsigned int)(ns % 1000));
}

int pwtrace_format_event(char *buf, size_t len, const struct pwtrace_event *ev)
{
	char ts[32], dur[32], extra[64] = "";
	int n;

	us(ts, sizeof(ts), ev->ts_ns);
	if (ev->ph == 'X') {
		us(dur, sizeof(dur), ev->dur_ns);
		snprintf(extra, sizeof(extra), ",\"dur\":%s", dur);
	} else if (ev->ph == 'i') {
		snprintf(extra, sizeof(extra), ",\"s\":\"t\"");
	}
	n = snprintf(buf, len,
		     "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"%c\",\"pid\":%u,"
		     "\"tid\":%u,\"ts\":%s%s,\"args\":{%s}}", ev->name, ev->cat,
		     ev->ph, ev->pid, ev->tid, ts, extra, ev->args);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* Name every island once and every track, in order of first use. */
static void write_metadata(FILE *f, const struct pwtrace_conv *c,
			   const char **sep)
{
	size_t i, j;

	for (i = 0; i < c->ntracks; i++) {
		const struct pwtrace_track *t = &c->tracks[i];

		for (j = 0; j < i && c->tracks[j].pid != t->pid; j++)
			;
		if (j == i) {
			fprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\","
				"\"pid\":%u,\"args\":{\"name\":\"island %u\"}}",
				*sep, t->pid, t->pid);
			*sep = ",\n";
		}
		fprintf(f, "%s{\"name\":\"thread_name\",\"ph\":\"M\","
			"\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
			*sep, t->pid, t->tid, t->name);
		fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\","
			"\"pid\":%u,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
			t->pid, t->tid, t->tid);
	}
}

int pwtrace_write_json(FILE *f, const struct pwtrace_conv *c)
{
	const char *sep = "\n";
	char line[512];
	size_t i;

	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	write_metadata(f, c, &sep);
	for (i = 0; i < c->nevents; i++) {
		if (pwtrace_format_event(line, sizeof(line), &c->events[i]))
			return -EIO;
		fprintf(f, "%s%s", sep, line);
		sep = ",\n";
	}
	fprintf(f, "\n]}\n");
	return ferror(f) ? -EIO : 0;
}
