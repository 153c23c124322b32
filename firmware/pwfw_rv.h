/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_rv.h - the island's table of collectives in progress, inside the
 * firmware: pwfw_island.c owns one, pwfw_rv.c implements it and the
 * rendezvous calls of pwfw_island.h. See docs/collectives.md,
 * "Rendezvous and deadlock detection".
 */
#ifndef PWFW_RV_H
#define PWFW_RV_H

#include "pwfw_island.h"

/*
 * Poisoned collectives that nobody is inside any more are kept, so that
 * their late members fail at once, for twice the gang timeout; at most
 * this many, the oldest dropped first.
 */
#define PWFW_RV_KEEP	64U

struct pwfw_rv_table;

struct pwfw_rv_table *pwfw_rv_table_create(void *host, u32 ndev,
					   u64 timeout_ns);
/* Frees the table and every collective left in it. */
void pwfw_rv_table_destroy(struct pwfw_rv_table *tab);

/* The island's table (pwfw_island.c). */
struct pwfw_rv_table *pwfw_island_rv(struct pwfw_island *isl);

/*
 * pwfw_rv_join() with @devs, the island device of each of the sig->n
 * group ranks (or NULL): a timeout's log line then names the devices
 * that did not come and says what each of them is doing.
 * devs[grank] must be @dev.
 */
int pwfw_rv_join_devs(struct pwfw_island *isl, u32 dev,
		      const struct pwfw_coll_sig *sig, u32 grank,
		      const struct pwfw_member *me, const u32 *devs,
		      struct pwfw_rv **rv);

/* Collectives in the table, live or kept: for tests and debugfs. */
u32 pwfw_rv_count(struct pwfw_island *isl);

#endif /* PWFW_RV_H */
