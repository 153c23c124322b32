// SPDX-License-Identifier: GPL-2.0
/*
 * drv_mesh.c - the expected topology, from the mesh parameter's text and
 * the rules the UAPI states, and the link counters in sysfs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_mesh.h"

static const char *const dir_name[2] = { "minus", "plus" };

/* "8", "2x4", "2x2x2", "4x4t"; empty: one dimension of ndev. */
static int parse(struct mesh *m, const char *s)
{
	char *end;

	m->ndims = 0;
	if (!*s) {
		m->ndims = 1;
		m->shape[0] = m->ndev;
		return 0;
	}
	for (;;) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || !v || m->ndims == PWTPU_MESH_MAX_DIMS)
			return -EINVAL;
		m->shape[m->ndims++] = (uint32_t)v;
		s = end;
		if (*s == 'x') {
			s++;
			continue;
		}
		if (*s == 't') {
			m->torus = true;
			s++;
		}
		return *s ? -EINVAL : 0;
	}
}

int mesh_from_params(struct mesh *m)
{
	char text[64];
	uint64_t ndev;
	uint32_t k, n = 1;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = pwtpu_param_u64("ndev", &ndev);
	if (!ret)
		ret = pwtpu_param_str("mesh", text, sizeof(text));
	if (ret)
		return ret;
	if (!ndev || ndev > MESH_MAX_DEVS)
		return -ERANGE;
	m->ndev = (uint32_t)ndev;
	ret = parse(m, text);
	if (ret)
		return ret;
	for (k = 0; k < PWTPU_MESH_MAX_DIMS; k++) {
		if (k >= m->ndims)
			m->shape[k] = 1;
		n *= m->shape[k];
	}
	return n == m->ndev ? 0 : -EINVAL;
}

void mesh_coords(const struct mesh *m, uint32_t dev,
		 uint32_t c[PWTPU_MESH_MAX_DIMS])
{
	int k;

	memset(c, 0, sizeof(uint32_t) * PWTPU_MESH_MAX_DIMS);
	for (k = (int)m->ndims - 1; k >= 0; k--) {
		c[k] = dev % m->shape[k];
		dev /= m->shape[k];
	}
}

uint32_t mesh_index(const struct mesh *m,
		    const uint32_t c[PWTPU_MESH_MAX_DIMS])
{
	uint32_t k, i = 0;

	for (k = 0; k < m->ndims; k++)
		i = i * m->shape[k] + c[k];
	return i;
}

uint32_t mesh_neighbor(const struct mesh *m, uint32_t dev, uint32_t axis,
		       uint32_t dir)
{
	uint32_t c[PWTPU_MESH_MAX_DIMS], e;

	if (axis >= m->ndims || dev >= m->ndev)
		return PWTPU_NO_DEVICE;
	e = m->shape[axis];
	if (e < 2)
		return PWTPU_NO_DEVICE;
	mesh_coords(m, dev, c);
	if (dir == MESH_PLUS) {
		if (c[axis] + 1 < e)
			c[axis]++;
		else if (m->torus)
			c[axis] = 0;
		else
			return PWTPU_NO_DEVICE;
	} else {
		if (c[axis] > 0)
			c[axis]--;
		else if (m->torus)
			c[axis] = e - 1;
		else
			return PWTPU_NO_DEVICE;
	}
	return mesh_index(m, c);
}

void mesh_neighbors_text(const struct mesh *m, uint32_t dev, char *buf,
			 size_t len)
{
	uint32_t k, dir, nb;
	size_t n = 0;

	buf[0] = '\0';
	for (k = 0; k < m->ndims; k++)
		for (dir = 0; dir < 2; dir++) {
			nb = mesh_neighbor(m, dev, k, dir);
			if (nb == PWTPU_NO_DEVICE)
				n += (size_t)snprintf(buf + n, len - n, "%s-",
						      n ? " " : "");
			else
				n += (size_t)snprintf(buf + n, len - n, "%s%u",
						      n ? " " : "", nb);
			if (n >= len)
				return;
		}
}

int mesh_route(const struct mesh *m, uint32_t src, uint32_t dst,
	       struct mesh_hop *hops, int max)
{
	uint32_t c[PWTPU_MESH_MAX_DIMS], d[PWTPU_MESH_MAX_DIMS];
	uint32_t k, e, up, down, dir, steps, cur = src;
	int n = 0;

	mesh_coords(m, src, c);
	mesh_coords(m, dst, d);
	for (k = 0; k < m->ndims; k++) {
		e = m->shape[k];
		up = (d[k] + e - c[k]) % e;	/* hops going plus */
		down = (c[k] + e - d[k]) % e;	/* hops going minus */
		if (!m->torus) {
			dir = d[k] >= c[k] ? MESH_PLUS : MESH_MINUS;
			steps = d[k] >= c[k] ? d[k] - c[k] : c[k] - d[k];
		} else {
			dir = up <= down ? MESH_PLUS : MESH_MINUS;
			steps = up <= down ? up : down;
		}
		for (; steps; steps--) {
			uint32_t next = mesh_neighbor(m, cur, k, dir);

			if (n < max)
				hops[n] = (struct mesh_hop){ cur, k, dir,
							     next };
			n++;
			cur = next;
		}
	}
	return n;
}

int mesh_link_stat(uint32_t dev, uint32_t axis, uint32_t dir,
		   struct link_stat *st)
{
	static const char *const files[] = { "peer", "bytes", "transfers",
					     "busy_ns" };
	uint64_t *vals[] = { &st->peer, &st->bytes, &st->transfers,
			     &st->busy_ns };
	char attr[64];
	size_t i;
	int ret;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(attr, sizeof(attr), "link_%u_%s/%s", axis,
			 dir_name[dir & 1], files[i]);
		ret = pwtpu_sysfs_u64(dev, attr, vals[i]);
		if (ret == -ENOENT && i == 0)
			return 0;
		if (ret)
			return ret;
	}
	st->present = true;
	return 0;
}

int mesh_snapshot(const struct mesh *m, struct link_snapshot *s)
{
	uint32_t dev, k, dir;
	int ret;

	memset(s, 0, sizeof(*s));
	for (dev = 0; dev < m->ndev; dev++)
		for (k = 0; k < PWTPU_MESH_MAX_DIMS; k++)
			for (dir = 0; dir < 2; dir++) {
				ret = mesh_link_stat(dev, k, dir,
						     &s->l[dev][k][dir]);
				if (ret)
					return ret;
			}
	return 0;
}
