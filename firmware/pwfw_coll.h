/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_coll.h - collectives inside the firmware: what the interpreter
 * (pwfw_exec.c) needs from the gang helpers (pwfw_gang.c) and the
 * algorithms (pwfw_coll.c). Algorithms and reduction order:
 * docs/collectives.md.
 */
#ifndef PWFW_COLL_H
#define PWFW_COLL_H

#include "pwfw_island.h"

/**
 * struct pwfw_group - one member's replica group within its gang
 * @id: the group id (struct pwtpu_gang.group).
 * @n: members in the group, 1..PWTPU_MAX_GANG.
 * @grank: this member's group rank: its place among the group's members
 *	in gang-rank order.
 * @send_to: COLLECTIVE_PERMUTE: the group rank this member sends to, or
 *	PWTPU_NO_RANK.
 * @recv_from: the group rank that sends to this member, or PWTPU_NO_RANK.
 * @layout: digest of the gang's members, groups and permutation: equal
 *	for every member of the gang (struct pwfw_coll_sig.layout).
 * @devs: island device of each group rank.
 */
struct pwfw_group {
	u32 id;
	u32 n;
	u32 grank;
	u32 send_to;
	u32 recv_from;
	u64 layout;
	u32 devs[PWTPU_MAX_GANG];
};

/* This member's group of a gang that pwfw_gang_check() accepted. */
void pwfw_gang_group(const struct pwtpu_gang *gang, struct pwfw_group *g);
/* Digest of a collective's operand and result shapes, for its signature. */
u64 pwfw_shapes_digest(const struct pwtpu_tensor *a,
		       const struct pwtpu_tensor *d);

/**
 * struct pwfw_coll - one collective instruction, as run by one member
 * @env: the execution: island, device, gang, compute; link_ns grows by
 *	the collective's modelled link time.
 * @grp: this member's group.
 * @seq: the collective's number in the execution, from 0.
 * @op: PWTPU_OP_ALL_REDUCE .. PWTPU_OP_COLLECTIVE_PERMUTE.
 * @mode: enum pwtpu_reduce of a reduction, else 0.
 * @dtype: of @src and @dst.
 * @src: this member's operand a.
 * @dst: this member's result, disjoint from @src.
 * @src_elems: elements of @src.
 * @dst_elems: elements of @dst.
 */
struct pwfw_coll {
	struct pwfw_exec_env *env;
	const struct pwfw_group *grp;
	u32 seq;
	u32 op;
	u32 mode;
	u32 dtype;
	const void *src;
	void *dst;
	u64 src_elems;
	u64 dst_elems;
	u64 shapes;
};

/*
 * Meet the group and run the collective. 0; -PWFW_EINVAL when the
 * members disagree or the group size does not fit the shapes (dst is
 * untouched then); -PWFW_ETIMEDOUT when a member does not arrive;
 * -PWFW_ENOMEM when scratch memory cannot be had (the peers fail with
 * -PWFW_EINVAL).
 */
int pwfw_coll_run(const struct pwfw_coll *c);

#endif /* PWFW_COLL_H */
