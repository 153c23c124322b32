/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_run.h - run a command the way a user would, for tests that check
 * what a program prints (test_run.c).
 */
#ifndef PW_SELFTESTS_TEST_RUN_H
#define PW_SELFTESTS_TEST_RUN_H

#include <stddef.h>

/*
 * Run @cmd with the shell; what it prints (the first @max - 1 bytes, both
 * streams if @cmd says 2>&1; the rest is read and dropped) into @out, NUL
 * ended. Its wait status, or -1 when it could not be started.
 */
int test_run(const char *cmd, char *out, size_t max);
/* @rel under this test binary's build tree: build/REL. */
void test_build_path(char *path, size_t size, const char *rel);

#endif /* PW_SELFTESTS_TEST_RUN_H */
