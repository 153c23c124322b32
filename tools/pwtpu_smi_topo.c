// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_smi_topo.c - `pwtpu-smi --topo`: the island's mesh as text, and
 * the traffic each device has sent on each of its links.
 *
 * Everything comes from sysfs: mesh_shape, each device's mesh_coords and
 * neighbors, and link_<axis>_<minus|plus>/{peer,bytes,transfers,busy_ns}.
 * A line is drawn between two devices only where sysfs says they are
 * linked, so the picture shows what the driver built, not what the shape
 * implies. 2-D: rows along axis 0, columns along axis 1; 3-D: one such
 * grid per position on axis 0 (a plane); 1-D: one row. A wraparound
 * (torus) link is marked '~' at both ends of its row or column.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pwtpu/pwtpu_dev.h"

#include "pwtpu_smi.h"

#define NDIRS	2

struct topo_link {
	bool present;
	uint32_t peer;
	uint64_t bytes;
	uint64_t transfers;
	uint64_t busy_ns;
};

struct topo_dev {
	unsigned int index;
	uint32_t coords[PWTPU_MESH_MAX_DIMS];
	uint32_t nb[PWTPU_MESH_MAX_DIMS][NDIRS];
	struct topo_link link[PWTPU_MESH_MAX_DIMS][NDIRS];
};

struct topo {
	char shape_text[64];
	uint32_t ndims;
	uint32_t shape[PWTPU_MESH_MAX_DIMS];
	bool torus;
	int ndev;
	struct topo_dev *dev;
	int width;		/* of a device cell, "[12]" */
};

static const char *const dir_name[NDIRS] = { "minus", "plus" };

/* "2x4t" into extents and the torus flag. */
static int parse_shape(struct topo *t)
{
	const char *s = t->shape_text;
	char *end;

	t->ndims = 0;
	while (t->ndims < PWTPU_MESH_MAX_DIMS) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || !v)
			return -EINVAL;
		t->shape[t->ndims++] = (uint32_t)v;
		s = end;
		if (*s != 'x')
			break;
		s++;
	}
	t->torus = *s == 't';
	return *s && strcmp(s, "t") ? -EINVAL : 0;
}

/* "1,3" */
static int parse_coords(const char *s, uint32_t *coords, uint32_t ndims)
{
	uint32_t k;
	char *end;

	for (k = 0; k < ndims; k++) {
		coords[k] = (uint32_t)strtoul(s, &end, 10);
		if (end == s || (k + 1 < ndims && *end != ','))
			return -EINVAL;
		s = end + 1;
	}
	return 0;
}

/* "- 5 0 2": minus and plus neighbour per axis, '-' for none. */
static int parse_neighbors(const char *s, struct topo_dev *d, uint32_t ndims)
{
	uint32_t k, dir;
	char *end;

	for (k = 0; k < ndims; k++)
		for (dir = 0; dir < NDIRS; dir++) {
			while (*s == ' ')
				s++;
			if (*s == '-') {
				d->nb[k][dir] = PWTPU_NO_DEVICE;
				s++;
				continue;
			}
			d->nb[k][dir] = (uint32_t)strtoul(s, &end, 10);
			if (end == s)
				return -EINVAL;
			s = end;
		}
	return 0;
}

static void read_link(unsigned int index, uint32_t axis, uint32_t dir,
		      struct topo_link *l)
{
	char attr[64];
	uint64_t v;

	memset(l, 0, sizeof(*l));
	snprintf(attr, sizeof(attr), "link_%u_%s/peer", axis, dir_name[dir]);
	if (pwtpu_sysfs_u64(index, attr, &v))
		return;
	l->present = true;
	l->peer = (uint32_t)v;
	snprintf(attr, sizeof(attr), "link_%u_%s/bytes", axis, dir_name[dir]);
	pwtpu_sysfs_u64(index, attr, &l->bytes);
	snprintf(attr, sizeof(attr), "link_%u_%s/transfers", axis,
		 dir_name[dir]);
	pwtpu_sysfs_u64(index, attr, &l->transfers);
	snprintf(attr, sizeof(attr), "link_%u_%s/busy_ns", axis,
		 dir_name[dir]);
	pwtpu_sysfs_u64(index, attr, &l->busy_ns);
}

static int read_topo(struct topo *t, const unsigned int *idx, int n)
{
	char buf[128];
	uint32_t k, dir;
	int i, ret;

	ret = pwtpu_sysfs_str(idx[0], "mesh_shape", t->shape_text,
			      sizeof(t->shape_text));
	if (ret || parse_shape(t))
		return ret ? ret : -EINVAL;
	t->ndev = n;
	t->dev = calloc((size_t)n, sizeof(*t->dev));
	if (!t->dev)
		return -ENOMEM;
	snprintf(buf, sizeof(buf), "[%u]", idx[n - 1]);
	t->width = (int)strlen(buf);
	for (i = 0; i < n; i++) {
		struct topo_dev *d = &t->dev[i];

		d->index = idx[i];
		ret = pwtpu_sysfs_str(d->index, "mesh_coords", buf,
				      sizeof(buf));
		if (!ret)
			ret = parse_coords(buf, d->coords, t->ndims);
		if (!ret)
			ret = pwtpu_sysfs_str(d->index, "neighbors", buf,
					      sizeof(buf));
		if (!ret)
			ret = parse_neighbors(buf, d, t->ndims);
		if (ret) {
			fprintf(stderr, "pwtpu-smi: pwtpu%u: cannot read its "
				"mesh_coords or neighbors: %s\n", d->index,
				strerror(ret == -EINVAL ? EINVAL : -ret));
			return ret;
		}
		for (k = 0; k < t->ndims; k++)
			for (dir = 0; dir < NDIRS; dir++)
				read_link(d->index, k, dir, &d->link[k][dir]);
	}
	return 0;
}

/* The device at @coords, or NULL. */
static const struct topo_dev *at(const struct topo *t, const uint32_t *coords)
{
	int i;

	for (i = 0; i < t->ndev; i++)
		if (!memcmp(t->dev[i].coords, coords,
			    sizeof(uint32_t) * t->ndims))
			return &t->dev[i];
	return NULL;
}

static bool linked(const struct topo_dev *a, const struct topo_dev *b,
		   uint32_t axis)
{
	return a && b && a->nb[axis][1] == b->index;
}

static void cell(const struct topo *t, const struct topo_dev *d)
{
	char buf[32];

	if (d)
		snprintf(buf, sizeof(buf), "[%u]", d->index);
	else
		snprintf(buf, sizeof(buf), "?");
	printf("%*s", t->width, buf);
}

/* Columns from the line's start to the centre of column @c. */
static int centre(const struct topo *t, uint32_t c)
{
	return 5 + (int)c * (t->width + 5) + t->width / 2;
}

/*
 * One line with @mark under each column whose device in row @from links
 * (plus direction of @raxis) to the one in row @to: '|' between
 * neighbouring rows, '~' for a wraparound.
 */
static void column_marks(const struct topo *t, uint32_t raxis,
			 uint32_t caxis, const uint32_t *base, uint32_t from,
			 uint32_t to, char mark)
{
	uint32_t p[PWTPU_MESH_MAX_DIMS], q[PWTPU_MESH_MAX_DIMS], c;
	int col = 0;

	memcpy(p, base, sizeof(p));
	memcpy(q, base, sizeof(q));
	p[raxis] = from;
	q[raxis] = to;
	for (c = 0; c < t->shape[caxis]; c++) {
		p[caxis] = q[caxis] = c;
		if (!linked(at(t, p), at(t, q), raxis))
			continue;
		printf("%*s%c", centre(t, c) - col, "", mark);
		col = centre(t, c) + 1;
	}
	if (col || mark == '|')
		printf("\n");
}

/* Row @r of a grid: '---' between linked devices, '~' if it wraps. */
static void row(const struct topo *t, int raxis, uint32_t caxis,
		const uint32_t *base, uint32_t r)
{
	uint32_t p[PWTPU_MESH_MAX_DIMS], q[PWTPU_MESH_MAX_DIMS], c;
	uint32_t cols = t->shape[caxis];
	bool wraps;

	memcpy(p, base, sizeof(p));
	memcpy(q, base, sizeof(q));
	if (raxis >= 0)
		p[raxis] = q[raxis] = r;
	p[caxis] = cols - 1;
	q[caxis] = 0;
	wraps = linked(at(t, p), at(t, q), caxis);
	printf("  %c  ", wraps ? '~' : ' ');
	for (c = 0; c < cols; c++) {
		p[caxis] = c;
		q[caxis] = c + 1;
		cell(t, at(t, p));
		if (c + 1 < cols)
			printf(" %s ", linked(at(t, p), at(t, q), caxis) ?
			       "---" : "   ");
	}
	printf(wraps ? "  ~\n" : "\n");
}

/*
 * A 2-D grid: rows along @raxis (one row if @raxis < 0), columns along
 * @caxis, the other coordinates as in @base.
 */
static void draw_grid(const struct topo *t, int raxis, uint32_t caxis,
		      const uint32_t *base)
{
	uint32_t rows = raxis < 0 ? 1 : t->shape[raxis], r;

	if (raxis >= 0)
		column_marks(t, (uint32_t)raxis, caxis, base, rows - 1, 0,
			     '~');
	for (r = 0; r < rows; r++) {
		row(t, raxis, caxis, base, r);
		if (raxis >= 0 && r + 1 < rows)
			column_marks(t, (uint32_t)raxis, caxis, base, r,
				     r + 1, '|');
	}
	if (raxis >= 0)
		column_marks(t, (uint32_t)raxis, caxis, base, rows - 1, 0,
			     '~');
}

/* Devices of plane @k linked along axis 0 to the same place in @k2. */
static int plane_links(const struct topo *t, uint32_t k, uint32_t k2)
{
	uint32_t want[PWTPU_MESH_MAX_DIMS];
	int i, n = 0;

	for (i = 0; i < t->ndev; i++) {
		const struct topo_dev *d = &t->dev[i];

		if (d->coords[0] != k)
			continue;
		memcpy(want, d->coords, sizeof(want));
		want[0] = k2;
		n += linked(d, at(t, want), 0);
	}
	return n;
}

static void draw(const struct topo *t)
{
	uint32_t base[PWTPU_MESH_MAX_DIMS] = { 0 };
	uint32_t k, per_plane;

	printf("pwtpu: %d device%s, mesh %s%s\n", t->ndev,
	       t->ndev == 1 ? "" : "s", t->shape_text,
	       t->torus ? " (torus: '~' marks a wraparound link)" : "");
	if (t->ndims == 1) {
		printf("axis 0 runs left to right\n\n");
		draw_grid(t, -1, 0, base);
		return;
	}
	if (t->ndims == 2) {
		printf("axis 0 runs top to bottom, axis 1 left to right\n\n");
		draw_grid(t, 0, 1, base);
		return;
	}
	per_plane = t->shape[1] * t->shape[2];
	printf("one plane per axis-0 position; in a plane axis 1 runs top to "
	       "bottom, axis 2 left to right\n");
	for (k = 0; k < t->shape[0]; k++) {
		base[0] = k;
		printf("\nplane %u (axis 0 = %u):\n", k, k);
		draw_grid(t, 1, 2, base);
		if (k + 1 < t->shape[0])
			printf("  axis 0: %d of %u devices linked to plane "
			       "%u\n", plane_links(t, k, k + 1), per_plane,
			       k + 1);
		else if (t->shape[0] > 1 && plane_links(t, k, 0))
			printf("  axis 0: ~ %d of %u devices wrap around to "
			       "plane 0\n", plane_links(t, k, 0), per_plane);
	}
}

static void human_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%" PRIu64 " B", b);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
}

static void traffic(const struct topo *t)
{
	uint32_t k, dir;
	bool any = false;
	int i;

	for (i = 0; i < t->ndev; i++)
		for (k = 0; k < t->ndims; k++)
			for (dir = 0; dir < NDIRS; dir++) {
				const struct topo_link *l =
					&t->dev[i].link[k][dir];
				char from[16], to[16], b[32], link[16];

				if (!l->present || !l->bytes)
					continue;
				if (!any)
					printf("\nlink traffic (sent, since "
					       "load):\n%-8s    %-8s %-6s %12s "
					       "%10s %12s\n", "FROM", "TO",
					       "LINK", "BYTES", "TRANSFERS",
					       "BUSY us");
				any = true;
				snprintf(from, sizeof(from), "pwtpu%u",
					 t->dev[i].index);
				snprintf(to, sizeof(to), "pwtpu%u", l->peer);
				snprintf(link, sizeof(link), "%u%c", k,
					 dir ? '+' : '-');
				human_bytes(b, sizeof(b), l->bytes);
				printf("%-8s -> %-8s %-6s %12s %10" PRIu64
				       " %12.1f\n", from, to, link, b,
				       l->transfers,
				       (double)l->busy_ns / 1000.0);
			}
	if (!any)
		printf("\nlink traffic: none since load\n");
}

static void json_nb(uint32_t v)
{
	if (v == PWTPU_NO_DEVICE)
		printf("null");
	else
		printf("%u", v);
}

static void print_json(const struct topo *t)
{
	uint32_t k, dir;
	int i;

	printf("{\"mesh\": \"%s\", \"shape\": [", t->shape_text);
	for (k = 0; k < t->ndims; k++)
		printf("%s%u", k ? ", " : "", t->shape[k]);
	printf("], \"torus\": %s, \"devices\": [", t->torus ? "true" : "false");
	for (i = 0; i < t->ndev; i++) {
		const struct topo_dev *d = &t->dev[i];
		const char *sep = "";

		printf("%s\n  {\"index\": %u, \"coords\": [", i ? "," : "",
		       d->index);
		for (k = 0; k < t->ndims; k++)
			printf("%s%u", k ? ", " : "", d->coords[k]);
		printf("], \"neighbors\": [");
		for (k = 0; k < t->ndims; k++) {
			printf("%s[", k ? ", " : "");
			json_nb(d->nb[k][0]);
			printf(", ");
			json_nb(d->nb[k][1]);
			printf("]");
		}
		printf("], \"links\": [");
		for (k = 0; k < t->ndims; k++)
			for (dir = 0; dir < NDIRS; dir++) {
				const struct topo_link *l = &d->link[k][dir];

				if (!l->present)
					continue;
				printf("%s{\"axis\": %u, \"dir\": \"%s\", "
				       "\"peer\": %u, \"bytes\": %" PRIu64
				       ", \"transfers\": %" PRIu64
				       ", \"busy_ns\": %" PRIu64 "}", sep, k,
				       dir_name[dir], l->peer, l->bytes,
				       l->transfers, l->busy_ns);
				sep = ", ";
			}
		printf("]}");
	}
	printf("\n]}\n");
}

int smi_topo(const unsigned int *idx, int n, bool json)
{
	struct topo t;
	int ret;

	memset(&t, 0, sizeof(t));
	ret = read_topo(&t, idx, n);
	if (!ret) {
		if (json) {
			print_json(&t);
		} else {
			draw(&t);
			traffic(&t);
		}
	}
	free(t.dev);
	return ret ? 1 : 0;
}
