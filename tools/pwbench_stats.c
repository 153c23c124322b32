// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_stats.c - the clock and order statistics pwbench reports.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pwbench.h"

uint64_t pwbench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Nearest-rank percentile of sorted @v: the smallest value with at least
 * @pct percent of the samples at or below it.
 */
static uint64_t rank(const uint64_t *v, size_t n, unsigned int pct)
{
	size_t r = (n * pct + 99) / 100;

	return v[r ? r - 1 : 0];
}

int pwbench_summarize(const uint64_t *v, size_t n, struct pwbench_summary *s)
{
	uint64_t *sorted;
	double sum = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (i = 0; i < n; i++)
		sum += (double)sorted[i];
	s->min = sorted[0];
	s->p50 = rank(sorted, n, 50);
	s->p99 = rank(sorted, n, 99);
	s->max = sorted[n - 1];
	s->mean = sum / (double)n;
	free(sorted);
	return 0;
}
