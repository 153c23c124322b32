/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slots.h - tables of slots that grow as they fill (runtime/util/slots.c),
 * for the controller's and workers' programs, runs and slices: no fixed
 * table limits a cluster, only the caller's own bound per client.
 */
#ifndef PW_RUNTIME_UTIL_SLOTS_H
#define PW_RUNTIME_UTIL_SLOTS_H

#include <stddef.h>

/*
 * The index of a free slot of the table *@tab of *@n slots of @size bytes
 * each, whose first member is a bool "used" (false: free); the table
 * doubles (new slots zeroed) when none is free, up to @max slots.
 * -ENOMEM, or -ENOSPC at @max. Growing moves the table: pointers into it
 * are stale afterwards, indices are not.
 */
int pw_slot_take(void **tab, unsigned int *n, size_t size, unsigned int max);
/* How many of the @n slots of @size bytes at @tab are used. */
unsigned int pw_slots_used(const void *tab, unsigned int n, size_t size);

#endif /* PW_RUNTIME_UTIL_SLOTS_H */
