// SPDX-License-Identifier: GPL-2.0
/*
 * claim.c - the island belongs to one process (claim.h). The lock is an
 * flock(2) on a file description of our own, so closing other
 * descriptors of the same device never drops it (as fcntl locks would),
 * and a child that inherits the descriptor across fork() does not
 * inherit the claim: it must claim for itself, and is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <pwtpu/pwtpu_dev.h>

#include "../fn/fn.h"
#include "claim.h"

static pthread_mutex_t claim_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t claim_once = PTHREAD_ONCE_INIT;
static int claim_fd = -1;
static bool claimed;

/* A forked child holds no claim, whatever descriptors it inherited. */
static void claim_atfork_child(void)
{
	if (claim_fd >= 0)
		close(claim_fd);
	claim_fd = -1;
	claimed = false;
	pthread_mutex_init(&claim_lock, NULL);
}

/* No claim is half made across a fork. */
static void claim_atfork_prepare(void)
{
	pthread_mutex_lock(&claim_lock);
}

static void claim_atfork_parent(void)
{
	pthread_mutex_unlock(&claim_lock);
}

static void claim_init(void)
{
	pthread_atfork(claim_atfork_prepare, claim_atfork_parent,
		       claim_atfork_child);
}

/* The pid holding an flock on @st's inode, from /proc/locks; 0 if none. */
static long lock_holder(const struct stat *st)
{
	char line[256];
	long pid = 0;
	FILE *f = fopen("/proc/locks", "re");

	if (!f)
		return 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long ino;
		long p;

		/* "1: FLOCK  ADVISORY  WRITE 123 00:05:17 0 EOF"; waiters have "->". */
		if (strstr(line, "->") || !strstr(line, "FLOCK"))
			continue;
		if (sscanf(line, "%*s FLOCK %*s %*s %ld %x:%x:%lu", &p, &maj,
			   &min, &ino) == 4 && maj == major(st->st_dev) &&
		    min == minor(st->st_dev) && ino == st->st_ino)
			pid = p;
	}
	fclose(f);
	return pid;
}

static int refuse(unsigned int dev, const char *path, int fd)
{
	char comm[64] = "?", island[32] = "?", file[64];
	struct stat st;
	long pid = 0;
	FILE *f;

	if (!fstat(fd, &st))
		pid = lock_holder(&st);
	if (pid > 0) {
		snprintf(file, sizeof(file), "/proc/%ld/comm", pid);
		f = fopen(file, "re");
		if (f) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
	}
	if (pwtpu_sysfs_str(dev, "island", island, sizeof(island)) < 0)
		snprintf(island, sizeof(island), "?");
	island[strcspn(island, "\n")] = '\0';
	if (pid > 0)
		return pw_fail(-EBUSY, "island %s (%s) is in use by process %ld (%s): one process drives an island; to share it, run pathwaysd on this host and connect to it",
			       island, path, pid, comm);
	return pw_fail(-EBUSY, "island %s (%s) is in use by another process: one process drives an island; to share it, run pathwaysd on this host and connect to it",
		       island, path);
}

int pw_island_claim(void)
{
	unsigned int devs[PWTPU_MAX_GANG];
	char path[64];
	int fd, n, ret = 0;

	pthread_once(&claim_once, claim_init);
	pthread_mutex_lock(&claim_lock);
	if (claimed) {
		ret = pw_fail(-EBUSY, "this process drives the island already (its worker): one worker per island");
		goto out;
	}
	/* The lowest index: every process locks the same node. */
	n = pwtpu_list_devices(devs, PWTPU_MAX_GANG);
	if (n <= 0) {
		ret = pw_fail(-ENOENT, "no pwtpu devices: is pwtpu.ko loaded?");
		goto out;
	}
	snprintf(path, sizeof(path), PWTPU_DEV_PATH "%u", devs[0]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = pw_fail(-errno, "claiming the island: %s: %s", path,
			      strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? refuse(devs[0], path, fd) :
		      pw_fail(-errno, "claiming the island: flock %s: %s",
			      path, strerror(errno));
		close(fd);
		goto out;
	}
	claim_fd = fd;
	claimed = true;
out:
	pthread_mutex_unlock(&claim_lock);
	return ret;
}

void pw_island_release(void)
{
	pthread_mutex_lock(&claim_lock);
	if (claimed) {
		close(claim_fd);
		claim_fd = -1;
		claimed = false;
	}
	pthread_mutex_unlock(&claim_lock);
}
