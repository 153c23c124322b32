// SPDX-License-Identifier: GPL-2.0
/*
 * test_run.c - run a command and keep what it printed (test_run.h).
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "test_run.h"

int test_run(const char *cmd, char *out, size_t max)
{
	FILE *f = popen(cmd, "r");
	char rest[4096];
	size_t n = 0, r;

	out[0] = '\0';
	if (!f)
		return -1;
	while (n < max - 1 && (r = fread(out + n, 1, max - 1 - n, f)) > 0)
		n += r;
	out[n] = '\0';
	/* Read to the end: a command blocked on a full pipe never exits. */
	while (fread(rest, 1, sizeof(rest), f) > 0)
		;
	return pclose(f);
}

void test_build_path(char *path, size_t size, const char *rel)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
	/* build/selftests/DIR/test_NAME: two levels under build/ */
	snprintf(path, size, "%s/../../%s", dirname(self), rel);
}
