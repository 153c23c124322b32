// SPDX-License-Identifier: GPL-2.0
/*
 * slots.c - tables of slots that grow (slots.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "slots.h"

int pw_slot_take(void **tab, unsigned int *n, size_t size, unsigned int max)
{
	unsigned int i, grown;
	char *t = *tab;

	for (i = 0; i < *n; i++)
		if (!*(const bool *)(t + (size_t)i * size))
			return (int)i;
	if (*n >= max)
		return -ENOSPC;
	grown = *n ? 2 * *n : 16;
	if (grown > max)
		grown = max;
	t = realloc(t, (size_t)grown * size);
	if (!t)
		return -ENOMEM;
	memset(t + (size_t)*n * size, 0, (size_t)(grown - *n) * size);
	*tab = t;
	i = *n;
	*n = grown;
	return (int)i;
}

unsigned int pw_slots_used(const void *tab, unsigned int n, size_t size)
{
	const char *t = tab;
	unsigned int i, used = 0;

	for (i = 0; i < n; i++)
		used += *(const bool *)(t + (size_t)i * size);
	return used;
}
