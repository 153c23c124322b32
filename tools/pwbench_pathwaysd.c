// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_pathwaysd.c - pathwaysd's controller and this host's worker,
 * started on the loopback for a benchmark whose clients are separate
 * processes (a process's own controller is reachable only from inside
 * it). The daemon is the pathwaysd beside pwbench; the cluster key is
 * PATHWAYS_KEY_FILE's (the testbed sets it), else a new one that lives
 * as long as the daemons. Their output goes to a log file, removed when
 * they stop cleanly.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pwbench_paper.h"

/* Below the kernel's ephemeral ports (32768 on), apart per process. */
#define PORT_BASE	10000
#define PORT_TRIES	100
#define MAX_ARGS	40
/* How long a daemon told to stop may take to print its counters and go. */
#define STOP_MS		10000

static bool port_free(int type, unsigned int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, type, 0);
	bool ok;

	if (fd < 0)
		return false;
	ok = !bind(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	return ok;
}

/*
 * Three ports in a row: the controller's, the worker's, and its data
 * plane's (pathwaysd's default: the worker's + 1).
 */
static int pick_ports(unsigned int *first)
{
	unsigned int i, p;

	for (i = 0; i < PORT_TRIES; i++) {
		p = PORT_BASE + ((unsigned int)getpid() * 3 + i * 3) % 20000;
		if (port_free(SOCK_DGRAM, p) && port_free(SOCK_DGRAM, p + 1) &&
		    port_free(SOCK_STREAM, p + 2)) {
			*first = p;
			return 0;
		}
	}
	fprintf(stderr, "pwbench: no three free ports on 127.0.0.1\n");
	return -EADDRINUSE;
}

/* pathwaysd in pwbench's own directory. */
static int daemon_path(char *path, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0)
		return -errno;
	self[n] = '\0';
	snprintf(path, size, "%s/pathwaysd", dirname(self));
	if (access(path, X_OK)) {
		fprintf(stderr, "pwbench: no %s (run 'make user')\n", path);
		return -ENOENT;
	}
	return 0;
}

static pid_t spawn(const char *path, char *const *argv, int log_fd)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	/* A daemon must not outlive pwbench: its worker holds the island. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() == 1)
		_exit(127);
	dup2(log_fd, STDOUT_FILENO);
	dup2(log_fd, STDERR_FILENO);
	execv(path, argv);
	_exit(127);
}

int pwp_reap(pid_t pid, unsigned int ms)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	unsigned int waited;
	int status;
	pid_t got = 0;

	for (waited = 0; waited <= ms; waited += 10) {
		got = waitpid(pid, &status, WNOHANG);
		if (got)
			break;
		nanosleep(&tick, NULL);
	}
	if (!got) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -ETIMEDOUT;
	}
	if (got != pid)
		return -ECHILD;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* Run @argv to its end; 0 when it exited 0. */
static int run(const char *path, char *const *argv, int log_fd)
{
	int status;
	pid_t pid = spawn(path, argv, log_fd);

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -ECHILD;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

static int own_key(struct pwp_daemons *d, const char *path, int log_fd)
{
	char *argv[] = { "pathwaysd", "--gen-key", d->key, NULL };
	int fd;

	snprintf(d->key, sizeof(d->key), "/tmp/pwbench-key.XXXXXX");
	fd = mkstemp(d->key);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(d->key);	/* --gen-key makes it, mode 0600 */
	if (run(path, argv, log_fd)) {
		d->key[0] = '\0';
		return -EIO;
	}
	return setenv("PATHWAYS_KEY_FILE", d->key, 1) ? -errno : 0;
}

int pwp_daemons_start(struct pwp_daemons *d, const char *const *ctl_args)
{
	char path[PATH_MAX], ctl[32], wk[32], *argv[MAX_ARGS];
	char *wargv[] = { "pathwaysd", "--role", "worker", "--listen", wk,
			  "--controller", ctl, "--host-id", "0", "--data", "tcp",
			  NULL };
	unsigned int port, n = 0;
	int fd, ret;

	memset(d, 0, sizeof(*d));
	ret = daemon_path(path, sizeof(path));
	if (!ret)
		ret = pick_ports(&port);
	if (ret)
		return ret;
	snprintf(d->log, sizeof(d->log), "/tmp/pwbench-pathwaysd.XXXXXX");
	fd = mkostemp(d->log, O_CLOEXEC);	/* only stdout and stderr */
	if (fd < 0)
		return -errno;
	if (!getenv("PATHWAYS_KEY_FILE")) {
		ret = own_key(d, path, fd);
		if (ret) {
			fprintf(stderr, "pwbench: no cluster key (see %s)\n",
				d->log);
			close(fd);
			return ret;
		}
	}
	snprintf(ctl, sizeof(ctl), "127.0.0.1:%u", port);
	snprintf(wk, sizeof(wk), "127.0.0.1:%u", port + 1);
	snprintf(d->address, sizeof(d->address), "%s", ctl);
	/* A TCG guest's busy worker can miss 1 s of heartbeats. */
	argv[n++] = "pathwaysd";
	argv[n++] = "--role";
	argv[n++] = "controller";
	argv[n++] = "--listen";
	argv[n++] = ctl;
	argv[n++] = "--down-ms";
	argv[n++] = "10000";
	for (; ctl_args && *ctl_args; ctl_args++) {
		if (n == MAX_ARGS - 1) {
			fprintf(stderr, "pwbench: more than %d arguments for pathwaysd\n",
				MAX_ARGS - 1);
			close(fd);
			unlink(d->log);
			return -E2BIG;
		}
		argv[n++] = (char *)*ctl_args;
	}
	argv[n] = NULL;
	d->ctl = spawn(path, argv, fd);
	d->worker = d->ctl > 0 ? spawn(path, wargv, fd) : -1;
	close(fd);
	if (d->ctl < 0 || d->worker < 0) {
		pwp_daemons_stop(d, false);
		return -ECHILD;
	}
	return 0;
}

static int reap(pid_t pid)
{
	if (pid <= 0)
		return 0;
	kill(pid, SIGTERM);
	return pwp_reap(pid, STOP_MS);
}

int pwp_daemons_stop(struct pwp_daemons *d, bool ok)
{
	int ret = reap(d->worker), cret = reap(d->ctl);

	d->worker = d->ctl = 0;
	if (!ret)
		ret = cret;
	if (ok && ret)
		fprintf(stderr, "pwbench: pathwaysd did not stop cleanly\n");
	if (d->log[0] && (!ok || ret))
		fprintf(stderr, "pwbench: pathwaysd's output: %s\n", d->log);
	else if (d->log[0])
		unlink(d->log);
	if (d->key[0]) {
		unlink(d->key);
		unsetenv("PATHWAYS_KEY_FILE");
	}
	memset(d, 0, sizeof(*d));
	return ret;
}
