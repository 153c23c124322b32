// SPDX-License-Identifier: GPL-2.0
/*
 * rm_place.c - where a slice goes: blocks of a requested mesh shape, or
 * any devices, least loaded first.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "rm_internal.h"

bool rm_linked(const struct pw_rm_island *isl, unsigned int a,
	       unsigned int b)
{
	unsigned int i, differing = 0;
	bool one_step = false;

	for (i = 0; i < isl->shape.ndims; i++) {
		unsigned int x = isl->coords[a][i], y = isl->coords[b][i];
		unsigned int d = x > y ? x - y : y - x;
		unsigned int extent = isl->shape.extent[i];

		if (!d)
			continue;
		differing++;
		one_step = d == 1 || (isl->torus && d == extent - 1);
	}
	return differing == 1 && one_step;
}

/* Row-major position of coordinates in the island's shape. */
static unsigned int grid_pos(const struct pw_rm_shape *shape,
			     const unsigned int *coords)
{
	unsigned int pos = 0, i;

	for (i = 0; i < shape->ndims; i++)
		pos = pos * shape->extent[i] + coords[i];
	return pos;
}

/*
 * The devices of the block at @start with requested axis j along island
 * axis @axes[j]; false if it does not fit or uses an unavailable device.
 */
static bool block_at(const struct pw_rm_island *isl, const int *grid,
		     const struct pw_rm_shape *shape, const unsigned int *axes,
		     unsigned int start, unsigned int *devs)
{
	unsigned int n = pw_rm_shape_size(shape), v, j;

	for (j = 0; j < shape->ndims; j++) {
		unsigned int extent = isl->shape.extent[axes[j]];

		if (shape->extent[j] > extent)
			return false;
		if (!isl->torus &&
		    isl->coords[start][axes[j]] + shape->extent[j] > extent)
			return false;
	}
	for (v = 0; v < n; v++) {
		unsigned int c[PW_RM_MAX_DIMS], rest = v;
		int dev;

		memcpy(c, isl->coords[start], sizeof(c));
		/* Virtual coordinates row major: last axis fastest. */
		for (j = shape->ndims; j-- > 0;) {
			unsigned int a = axes[j];

			c[a] = (c[a] + rest % shape->extent[j]) %
			       isl->shape.extent[a];
			rest /= shape->extent[j];
		}
		dev = grid[grid_pos(&isl->shape, c)];
		if (dev < 0 || !isl->available[dev])
			return false;
		devs[v] = (unsigned int)dev;
	}
	return true;
}

/* Next injective map of requested axes to island axes, in lex order. */
static bool next_axes(unsigned int *axes, unsigned int k, unsigned int d)
{
	for (;;) {
		unsigned int i = k, j, l;
		bool distinct = true;

		while (i-- > 0) {
			if (++axes[i] < d)
				break;
			axes[i] = 0;
		}
		if (i == UINT_MAX)
			return false;
		for (j = 0; j < k && distinct; j++)
			for (l = j + 1; l < k; l++)
				if (axes[j] == axes[l])
					distinct = false;
		if (distinct)
			return true;
	}
}

int rm_place_block(const struct pw_rm_island *isl, const unsigned int *load,
		   const struct pw_rm_shape *shape, unsigned int *devs)
{
	int grid[PW_RM_MAX_DEVICES];
	unsigned int n = pw_rm_shape_size(shape), cand[PW_RM_MAX_DEVICES];
	unsigned long best = ULONG_MAX;
	unsigned int start, i;

	for (i = 0; i < PW_RM_MAX_DEVICES; i++)
		grid[i] = -1;
	for (i = 0; i < isl->ndevices; i++)
		grid[grid_pos(&isl->shape, isl->coords[i])] = (int)i;

	for (start = 0; start < isl->ndevices; start++) {
		unsigned int axes[PW_RM_MAX_DIMS] = { 0 };

		/* Start from the first injective map (0, 1, ...). */
		for (i = 0; i < shape->ndims; i++)
			axes[i] = i;
		do {
			unsigned long score = 0;

			if (!block_at(isl, grid, shape, axes, start, cand))
				continue;
			for (i = 0; i < n; i++)
				score += load[cand[i]];
			/* Strictly less: ties keep the earlier start. */
			if (score < best) {
				best = score;
				memcpy(devs, cand, n * sizeof(*devs));
			}
		} while (next_axes(axes, shape->ndims, isl->shape.ndims));
	}
	return best == ULONG_MAX ? -ENOSPC : 0;
}

int rm_place_any(const struct pw_rm_island *isl, const unsigned int *load,
		 unsigned int n, unsigned int *devs)
{
	bool taken[PW_RM_MAX_DEVICES] = { false };
	unsigned int k, dev, i;

	for (k = 0; k < n; k++) {
		int best = -1;
		unsigned int best_load = 0;
		bool best_adj = false;

		for (dev = 0; dev < isl->ndevices; dev++) {
			bool adj = false;

			if (taken[dev] || !isl->available[dev])
				continue;
			for (i = 0; i < k && !adj; i++)
				adj = rm_linked(isl, dev, devs[i]);
			/* Least loaded, then linked to the set, then lowest. */
			if (best < 0 || load[dev] < best_load ||
			    (load[dev] == best_load && adj && !best_adj)) {
				best = (int)dev;
				best_load = load[dev];
				best_adj = adj;
			}
		}
		if (best < 0)
			return -ENOSPC;
		taken[best] = true;
		devs[k] = (unsigned int)best;
	}
	return 0;
}
