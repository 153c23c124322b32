/* SPDX-License-Identifier: GPL-2.0 */
/*
 * claim.h - one process drives this host's island (runtime/util/claim.c).
 *
 * An island's devices are ordered by one gang scheduler; two processes
 * that each ran their own over the same devices would enqueue their
 * collectives in orders nobody reconciles, and end in the driver's gang
 * timeout. So the process that drives the island (the embedded runtime,
 * or pathwaysd's worker) claims it first: an exclusive flock(2) on the
 * island's first device node, held until the last release, dropped by
 * the kernel when the process dies. Clients of other processes share an
 * island by connecting to a pathwaysd that holds it.
 */
#ifndef PW_RUNTIME_UTIL_CLAIM_H
#define PW_RUNTIME_UTIL_CLAIM_H

/* Which runtime of the process drives the island. */
enum pw_island_driver {
	PW_ISLAND_EMBEDDED = 1,	/* pathways.h's own, in process */
	PW_ISLAND_WORKER,	/* pathwaysd's worker (in process or not) */
};

/*
 * Claim the island for this process and its @driver (claims of one
 * driver nest). 0, -ENOENT when no device exists, or -EBUSY when another
 * process holds it, or the other driver of this one: two schedulers
 * would order the same devices. pw_last_error() names the holder and
 * what to do instead.
 */
int pw_island_claim(enum pw_island_driver driver);
/* Drop one claim; the last one unlocks the island. */
void pw_island_release(void);

#endif /* PW_RUNTIME_UTIL_CLAIM_H */
