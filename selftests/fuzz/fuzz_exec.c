// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_exec.c - running a verified program inside a fuzzer.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz_exec.h"

#define FUZZ_MAX_WALL_NS	200000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The watchdog the driver has, at the fuzzer's scale. */
static int stop_at_deadline(struct pwfw_exec_env *env)
{
	const uint64_t *deadline = env->owner;

	return now_ns() > *deadline ? -PWFW_ETIME : 0;
}

bool fuzz_prog_small(const struct pwfw_prog *prog, const u64 *sizes)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < prog->nbufs; i++)
		total += sizes[i];
	return total <= FUZZ_MAX_BUF_BYTES && prog->work <= FUZZ_MAX_WORK &&
	       prog->modeled_ns <= FUZZ_MAX_MODELED_NS;
}

static void fill(uint8_t *p, uint64_t n, const uint8_t *data, size_t size)
{
	uint64_t done = size < n ? size : n;

	memcpy(p, data, done);
	for (; done && done < n; done *= 2)
		memcpy(p + done, p, done < n - done ? done : n - done);
	if (!done)
		memset(p, 0, n);
}

int fuzz_exec(const struct pwfw_prog *prog, const u64 *sizes,
	      const uint8_t *data, size_t size, int const_buf,
	      const void *consts, uint64_t const_bytes,
	      struct pwfw_exec_env *env)
{
	struct pwfw_buf bufs[PWTPU_MAX_BUFS];
	uint64_t deadline;
	uint32_t i;
	int ret;

	for (i = 0; i < prog->nbufs; i++) {
		bufs[i].size = sizes[i];
		bufs[i].base = malloc(sizes[i] ? sizes[i] : 1);
		if (!bufs[i].base)
			abort();
		fill(bufs[i].base, sizes[i], data, size);
	}
	if (consts)
		memcpy(bufs[const_buf].base, consts, const_bytes);
	deadline = now_ns() + FUZZ_MAX_WALL_NS;
	env->stop = stop_at_deadline;
	env->owner = &deadline;
	env->compute = true;
	ret = pwfw_exec(prog, bufs, prog->nbufs, env);
	for (i = 0; i < prog->nbufs; i++)
		free(bufs[i].base);
	return ret;
}
