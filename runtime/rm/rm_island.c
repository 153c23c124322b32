// SPDX-License-Identifier: GPL-2.0
/*
 * rm_island.c - describing an island: from a mesh string or from the
 * loaded module's sysfs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathways/rm.h"
#include "pwtpu/pwtpu_dev.h"

/* One decimal extent > 0 at *p; advances *p. */
static int parse_extent(const char **p, unsigned int *out)
{
	unsigned long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > PW_RM_MAX_DEVICES * 1024UL)
			return -EINVAL;
		s++;
	}
	if (v == 0)
		return -EINVAL;
	*p = s;
	*out = (unsigned int)v;
	return 0;
}

/* "AxBxC" up to the end or a 't'; *end gets where it stopped. */
static int parse_dims(struct pw_rm_shape *shape, const char *str,
		      const char **end)
{
	const char *p = str;
	int ret;

	memset(shape, 0, sizeof(*shape));
	for (;;) {
		if (shape->ndims == PW_RM_MAX_DIMS)
			return -EINVAL;
		ret = parse_extent(&p, &shape->extent[shape->ndims]);
		if (ret)
			return ret;
		shape->ndims++;
		if (*p != 'x')
			break;
		p++;
	}
	*end = p;
	return 0;
}

int pw_rm_shape_parse(struct pw_rm_shape *shape, const char *str)
{
	const char *end;
	int ret = parse_dims(shape, str, &end);

	return ret ? ret : (*end ? -EINVAL : 0);
}

unsigned int pw_rm_shape_size(const struct pw_rm_shape *shape)
{
	unsigned int n = 1, i;

	for (i = 0; i < shape->ndims; i++)
		n *= shape->extent[i];
	return n;
}

int pw_rm_island_parse(struct pw_rm_island *isl, unsigned int id,
		       const char *mesh)
{
	const char *end;
	unsigned int n, dev, i;
	int ret;

	memset(isl, 0, sizeof(*isl));
	ret = parse_dims(&isl->shape, mesh, &end);
	if (ret)
		return ret;
	if (*end == 't') {
		isl->torus = true;
		end++;
	}
	if (*end)
		return -EINVAL;
	n = pw_rm_shape_size(&isl->shape);
	if (n > PW_RM_MAX_DEVICES)
		return -E2BIG;
	isl->id = id;
	isl->ndevices = n;
	for (dev = 0; dev < n; dev++) {
		unsigned int rest = dev;

		/* Row major, last axis fastest, as the firmware numbers them. */
		for (i = isl->shape.ndims; i-- > 0;) {
			isl->coords[dev][i] = rest % isl->shape.extent[i];
			rest /= isl->shape.extent[i];
		}
		isl->available[dev] = true;
	}
	return 0;
}

int pw_rm_island_device_at(const struct pw_rm_island *isl,
			   const unsigned int coords[PW_RM_MAX_DIMS])
{
	unsigned int dev, i;

	for (dev = 0; dev < isl->ndevices; dev++) {
		for (i = 0; i < isl->shape.ndims; i++)
			if (isl->coords[dev][i] != coords[i])
				break;
		if (i == isl->shape.ndims)
			return (int)dev;
	}
	return -1;
}

/* <class_dir>/pwtpu<dev>/<attr>, whole, without the trailing newline. */
static int read_attr(const char *class_dir, unsigned int dev,
		     const char *attr, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	size_t got;

	snprintf(path, sizeof(path), "%s/pwtpu%u/%s", class_dir, dev, attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	got = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[got] = '\0';
	while (got && buf[got - 1] == '\n')
		buf[--got] = '\0';
	return 0;
}

/* "1,3" into @coords, exactly @ndims values inside @shape. */
static int parse_coords(const char *s, const struct pw_rm_shape *shape,
			unsigned int coords[PW_RM_MAX_DIMS])
{
	unsigned int i;

	for (i = 0; i < shape->ndims; i++) {
		char *end;
		unsigned long v;

		if (*s < '0' || *s > '9')
			return -EIO;
		v = strtoul(s, &end, 10);
		if (v >= shape->extent[i])
			return -EIO;
		coords[i] = (unsigned int)v;
		s = end;
		if (i + 1 < shape->ndims && *s++ != ',')
			return -EIO;
	}
	return *s ? -EIO : 0;
}

static int count_devices(const char *class_dir, unsigned int *n)
{
	DIR *d = opendir(class_dir);
	struct dirent *e;

	if (!d)
		return errno == ENOENT ? -ENOENT : -errno;
	*n = 0;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "pwtpu", 5))
			(*n)++;
	closedir(d);
	return *n ? 0 : -ENOENT;
}

int pw_rm_island_from_sysfs_dir(struct pw_rm_island *isl,
				const char *class_dir)
{
	char buf[64], island[32];
	unsigned int n = 0, dev;
	int ret;

	ret = count_devices(class_dir, &n);
	if (ret)
		return ret;
	ret = read_attr(class_dir, 0, "island", island, sizeof(island));
	if (!ret)
		ret = read_attr(class_dir, 0, "mesh_shape", buf, sizeof(buf));
	if (ret)
		return ret == -ENOENT ? -EIO : ret;
	ret = pw_rm_island_parse(isl, (unsigned int)strtoul(island, NULL, 10),
				 buf);
	if (ret)
		return ret == -E2BIG ? ret : -EIO;
	if (isl->ndevices != n)
		return -EIO;
	/* The driver's coordinates are the truth, not our numbering. */
	for (dev = 0; dev < n; dev++) {
		ret = read_attr(class_dir, dev, "mesh_coords", buf,
				sizeof(buf));
		if (ret)
			return ret == -ENOENT ? -EIO : ret;
		ret = parse_coords(buf, &isl->shape, isl->coords[dev]);
		if (ret)
			return ret;
	}
	return 0;
}

int pw_rm_island_from_sysfs(struct pw_rm_island *isl)
{
	return pw_rm_island_from_sysfs_dir(isl, PWTPU_SYSFS_CLASS);
}
