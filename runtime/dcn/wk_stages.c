// SPDX-License-Identifier: GPL-2.0
/*
 * wk_stages.c - where a worker's part of a run spends its time, from
 * PLAN in to DONE out (struct pw_wk_stages): four stamps per run, logged
 * as medians and 99th percentiles when the worker ends, so that a DCN
 * dispatch's worker residence can be taken apart on the host that
 * measured it.
 */
#include <stdlib.h>
#include <string.h>

#include "../util/log.h"
#include "roles.h"

void pw_wk_stages_add(struct pw_worker *w, const struct pw_wk_run *r,
		      uint64_t now)
{
	const uint64_t t[PW_WK_NSTAGES + 1] = {
		r->done.worker_recv_ns, r->submit_ns, r->submitted_ns,
		r->reaped_ns, now,
	};
	struct pw_wk_stages *s = &w->stages;
	unsigned int i, k = s->runs % PW_WK_STAGE_SAMPLES;

	/* Runs with nothing submitted (data only, failed early) say nothing. */
	for (i = 0; i < PW_WK_NSTAGES; i++)
		if (!t[i] || t[i + 1] < t[i])
			return;
	for (i = 0; i < PW_WK_NSTAGES; i++) {
		uint64_t d = t[i + 1] - t[i];

		s->ns[i][k] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
	}
	s->runs++;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void pw_wk_stages_log(const struct pw_worker *w)
{
	static const char *const name[PW_WK_NSTAGES] = {
		"plan in to submit", "submit", "submitted to reaped",
		"reaped to DONE out",
	};
	const struct pw_wk_stages *s = &w->stages;
	unsigned int n = s->runs < PW_WK_STAGE_SAMPLES ?
			 (unsigned int)s->runs : PW_WK_STAGE_SAMPLES;
	uint32_t v[PW_WK_STAGE_SAMPLES];
	unsigned int i;

	if (!n)
		return;
	for (i = 0; i < PW_WK_NSTAGES; i++) {
		memcpy(v, s->ns[i], n * sizeof(v[0]));
		qsort(v, n, sizeof(v[0]), cmp_u32);
		pw_log("worker %u: at exit: %s: p50 %.1f us, p99 %.1f us (last %u of %llu runs)",
		       w->reg.host_id, name[i], v[n / 2] / 1e3,
		       v[n * 99 / 100] / 1e3, n, (unsigned long long)s->runs);
	}
}
