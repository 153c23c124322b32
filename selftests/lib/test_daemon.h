/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_daemon.h - pathwaysd processes for host tests of whole clusters
 * on loopback (test_daemon.c).
 */
#ifndef PW_SELFTESTS_TEST_DAEMON_H
#define PW_SELFTESTS_TEST_DAEMON_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Start this tree's pathwaysd with @args (NULL-ended, at most 22), its
 * output and errors to the file @log. Its pid, or -1. It gets SIGTERM
 * when the calling process ends, teardown or not.
 */
pid_t test_daemon_start(const char *const *args, const char *log);
/* Whether a line of the file @log holds @what. */
bool test_log_has(const char *log, const char *what);
/*
 * Stop @pid (SIGTERM, then wait). Whether its @log is free of sanitizer
 * reports (a sanitized tree's daemons write them there at exit).
 */
bool test_daemon_stop(pid_t pid, const char *log);

#endif /* PW_SELFTESTS_TEST_DAEMON_H */
