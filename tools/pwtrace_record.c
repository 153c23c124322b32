// SPDX-License-Identifier: GPL-2.0
/*
 * pwtrace_record.c - `pwtrace --record -- CMD`: the same steps a person
 * would type into tracefs, around one command:
 *
 *   echo mono > trace_clock           timestamps = the driver's clock
 *   echo > trace                      start empty
 *   echo 1 > events/pwtpu/enable
 *   CMD
 *   echo 0 > events/pwtpu/enable
 *   cat trace | pwtrace > OUT.json
 *
 * and the trace clock is put back afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pwtrace.h"

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

static const char *tracefs(void)
{
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(*tracefs_dirs); i++) {
		snprintf(path, sizeof(path), "%s/events/pwtpu",
			 tracefs_dirs[i]);
		if (!access(path, F_OK))
			return tracefs_dirs[i];
	}
	return NULL;
}

static int put(const char *dir, const char *file, const char *val, int flags)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/* The selected clock of trace_clock ("[local] global ..."), or "". */
static void current_clock(const char *dir, char *buf, size_t len)
{
	char path[256], all[512] = "", *open_br, *close_br;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/trace_clock", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(all, sizeof(all), f)) {
		open_br = strchr(all, '[');
		close_br = open_br ? strchr(open_br, ']') : NULL;
		if (close_br && (size_t)(close_br - open_br) < len) {
			*close_br = '\0';
			snprintf(buf, len, "%s", open_br + 1);
		}
	}
	fclose(f);
}

static int run(char **cmd)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(cmd[0], cmd);
		fprintf(stderr, "pwtrace: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int convert_trace(const char *dir, const char *out)
{
	struct pwtrace_conv c;
	char path[256];
	uint64_t bad = 0;
	FILE *in, *o;
	int ret;

	snprintf(path, sizeof(path), "%s/trace", dir);
	in = fopen(path, "r");
	if (!in)
		return -errno;
	pwtrace_conv_init(&c, 0);
	ret = pwtrace_read(in, &c, 0, &bad);
	fclose(in);
	if (!ret) {
		o = fopen(out, "w");
		if (!o) {
			ret = -errno;
		} else {
			ret = pwtrace_write_json(o, &c);
			if (fclose(o) && !ret)
				ret = -EIO;
		}
	}
	if (!ret)
		fprintf(stderr, "pwtrace: %s: %zu events on %zu tracks from "
			"%llu pwtpu records\n", out, c.nevents, c.ntracks,
			(unsigned long long)c.records);
	pwtrace_conv_free(&c);
	return ret;
}

int pwtrace_record(char **cmd, const char *out, unsigned int buffer_kb)
{
	const char *dir = tracefs();
	char clock[32], kb[32];
	int ret, status;

	if (!dir) {
		fprintf(stderr, "pwtrace: no pwtpu events in tracefs (is "
			"pwtpu.ko loaded, tracefs mounted, are you root?)\n");
		return 2;
	}
	current_clock(dir, clock, sizeof(clock));
	ret = put(dir, "trace_clock", "mono", 0);
	if (!ret && buffer_kb) {
		snprintf(kb, sizeof(kb), "%u", buffer_kb);
		ret = put(dir, "buffer_size_kb", kb, 0);
	}
	if (!ret)
		ret = put(dir, "trace", "", O_TRUNC);
	if (!ret)
		ret = put(dir, "events/pwtpu/enable", "1", 0);
	if (ret) {
		fprintf(stderr, "pwtrace: cannot set up tracing in %s: %s\n",
			dir, strerror(-ret));
		return 2;
	}
	status = run(cmd);
	put(dir, "events/pwtpu/enable", "0", 0);
	ret = convert_trace(dir, out);
	if (clock[0])
		put(dir, "trace_clock", clock, 0);
	if (status < 0 || ret) {
		fprintf(stderr, "pwtrace: %s\n",
			strerror(status < 0 ? -status : -ret));
		return 1;
	}
	return status;
}
