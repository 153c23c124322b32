/* SPDX-License-Identifier: GPL-2.0 */
/*
 * claim.h - one process drives this host's island (runtime/util/claim.c).
 *
 * An island's devices are ordered by one gang scheduler; two processes
 * that each ran their own over the same devices would enqueue their
 * collectives in orders nobody reconciles, and end in the driver's gang
 * timeout. So the worker that drives the island (pathwaysd's, or the
 * one a client with no address runs in its process) claims it first: an
 * exclusive flock(2) on the island's first device node, held until it
 * is released, dropped by the kernel when the process dies. Clients of other processes share an
 * island by connecting to a pathwaysd that holds it.
 */
#ifndef PW_RUNTIME_UTIL_CLAIM_H
#define PW_RUNTIME_UTIL_CLAIM_H

/*
 * Claim the island for this process's worker. 0, -ENOENT when no device
 * exists, or -EBUSY when another process holds it, or a worker of this
 * one does: two schedulers would order the same devices.
 * pw_last_error() names the holder and what to do instead.
 */
int pw_island_claim(void);
/* Drop the claim: the island is free. */
void pw_island_release(void);

#endif /* PW_RUNTIME_UTIL_CLAIM_H */
