// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_sysfs.c - read pwtpu's sysfs attributes and module parameters.
 * These work without opening a device, so tools can show a busy device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int parse_u64(const char *s, uint64_t *val)
{
	char *end;

	errno = 0;
	*val = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -EINVAL;
	return 0;
}

int pwtpu_sysfs_str(unsigned int index, const char *attr, char *buf,
		    size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), PWTPU_SYSFS_CLASS "/pwtpu%u/%s", index,
		 attr);
	return read_file(path, buf, len);
}

int pwtpu_sysfs_u64(unsigned int index, const char *attr, uint64_t *val)
{
	char buf[64];
	int ret = pwtpu_sysfs_str(index, attr, buf, sizeof(buf));

	return ret ? ret : parse_u64(buf, val);
}

int pwtpu_param_str(const char *name, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), PWTPU_SYSFS_PARAMS "/%s", name);
	return read_file(path, buf, len);
}

int pwtpu_param_u64(const char *name, uint64_t *val)
{
	char buf[64];
	int ret = pwtpu_param_str(name, buf, sizeof(buf));

	return ret ? ret : parse_u64(buf, val);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

int pwtpu_list_devices(unsigned int *idx, unsigned int max)
{
	DIR *dir = opendir(PWTPU_SYSFS_CLASS);
	struct dirent *de;
	unsigned int n = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		unsigned int i;
		char tail;

		if (sscanf(de->d_name, "pwtpu%u%c", &i, &tail) != 1)
			continue;
		if (n < max)
			idx[n] = i;
		n++;
	}
	closedir(dir);
	if (max)
		qsort(idx, n < max ? n : max, sizeof(*idx), cmp_uint);
	return (int)n;
}

const char *pwtpu_timing_name(uint32_t mode)
{
	switch (mode) {
	case PWTPU_TIMING_NATIVE:
		return "native";
	case PWTPU_TIMING_MODELED:
		return "modeled";
	case PWTPU_TIMING_SKIP:
		return "skip";
	}
	return "?";
}
