/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rm_internal.h - placement search shared by rm.c and rm_place.c. The
 * search is pure: it sees the island (availability included) and the
 * load per device, and changes neither.
 */
#ifndef PW_RM_INTERNAL_H
#define PW_RM_INTERNAL_H

#include <stdbool.h>

#include "pathways/rm.h"

/* Whether devices @a and @b share a mesh link. */
bool rm_linked(const struct pw_rm_island *isl, unsigned int a,
	       unsigned int b);

/*
 * Least-loaded block of @shape made of available devices; @devs[v] gets
 * the device of virtual device v (row major in @shape). 0 or -ENOSPC.
 */
int rm_place_block(const struct pw_rm_island *isl, const unsigned int *load,
		   const struct pw_rm_shape *shape, unsigned int *devs);

/* Any @n available devices, least loaded first, neighbours preferred. */
int rm_place_any(const struct pw_rm_island *isl, const unsigned int *load,
		 unsigned int n, unsigned int *devs);

#endif /* PW_RM_INTERNAL_H */
