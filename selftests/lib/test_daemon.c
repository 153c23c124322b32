// SPDX-License-Identifier: GPL-2.0
/*
 * test_daemon.c - pathwaysd processes for host tests (test_daemon.h).
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_daemon.h"
#include "test_run.h"

#define MAX_ARGS	22

pid_t test_daemon_start(const char *const *args, const char *log)
{
	char exe[PATH_MAX];
	const char *argv[MAX_ARGS + 2];
	unsigned int i;
	pid_t pid, parent;

	test_build_path(exe, sizeof(exe), "tools/pathwaysd");
	argv[0] = exe;
	for (i = 0; args[i]; i++) {
		if (i == MAX_ARGS)
			return -1;
		argv[i + 1] = args[i];
	}
	argv[i + 1] = NULL;
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		/*
		 * A test that fails before its teardown (which the harness
		 * then skips) must not leave daemons holding CPU and ports.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(125);
		if (!freopen(log, "w", stdout) || dup2(1, 2) < 0)
			_exit(126);
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

bool test_log_has(const char *log, const char *what)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(log, "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, what);
	if (f)
		fclose(f);
	return found;
}

bool test_daemon_stop(pid_t pid, const char *log)
{
	if (pid <= 0)
		return true;
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	return !test_log_has(log, "Sanitizer") &&
	       !test_log_has(log, "runtime error:");
}
