/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_island.h - what the devices of one island share: the mesh links
 * (routing, bandwidth model, counters) and the rendezvous where the
 * members of a gang meet for each collective. Hosts create one island;
 * collectives (pwfw_coll.c) use the rendezvous API below.
 */
#ifndef PWFW_ISLAND_H
#define PWFW_ISLAND_H

#include "pwfw.h"

/**
 * struct pwfw_link_stats - one direction of one link, as seen by its
 * sending device
 * @bytes: bytes sent.
 * @transfers: transfers (hops) sent.
 * @busy_ns: modelled time the link spent sending.
 */
struct pwfw_link_stats {
	u64 bytes;
	u64 transfers;
	u64 busy_ns;
};

/*
 * An island of @ndev devices on @mesh with the link model of @spec.
 * Collectives whose peers do not all arrive within @gang_timeout_ns fail.
 * @host comes back in every pwfw_plat_* call about this island. NULL when
 * out of memory.
 */
struct pwfw_island *pwfw_island_create(void *host,
				       const struct pwfw_spec *spec,
				       const struct pwfw_mesh *mesh, u32 ndev,
				       u64 gang_timeout_ns);
void pwfw_island_destroy(struct pwfw_island *isl);
u32 pwfw_island_ndev(const struct pwfw_island *isl);
/* The @host cookie, for the platform's trace hooks. */
void *pwfw_island_host(const struct pwfw_island *isl);

/* Device linked to @dev along @axis, @dir 0 minus 1 plus; or PWTPU_NO_DEVICE. */
u32 pwfw_island_neighbor(const struct pwfw_island *isl, u32 dev, u32 axis,
			 u32 dir);
/* Counters of the link leaving @dev along @axis in direction @dir. */
void pwfw_island_link_stats(struct pwfw_island *isl, u32 dev, u32 axis,
			    u32 dir, struct pwfw_link_stats *out);

/*
 * Move @bytes from device @src to @dst: dimension-ordered routing (lowest
 * axis first; on a torus the shorter way round, plus on a tie), each hop
 * charged to its link's token bucket (bandwidth ici_mbps, ici_latency_ns
 * per hop, cut-through) and counters. Returns the modelled nanoseconds
 * from now until the last byte arrives; 0 when @src == @dst.
 */
u64 pwfw_island_transfer(struct pwfw_island *isl, u32 src, u32 dst,
			 u64 bytes);
/*
 * The same with the data ready at @start_ns on the model's clock (which
 * may run ahead of pwfw_plat_now_ns() when the host is faster than the
 * model, or in skip mode): returns the model time the last byte arrives,
 * @start_ns when @src == @dst. Collectives chain their steps with it.
 */
u64 pwfw_island_transfer_at(struct pwfw_island *isl, u32 src, u32 dst,
			    u64 bytes, u64 start_ns);
/*
 * One hop over a given link: @dev's link along @axis in direction @dir (0
 * minus, 1 plus), for a sender that chooses its link (on an extent-2
 * torus both links reach the same peer). Returns the arrival time like
 * pwfw_island_transfer_at(); @start_ns when there is no such link.
 */
u64 pwfw_island_send_at(struct pwfw_island *isl, u32 dev, u32 axis,
			u32 dir, u64 bytes, u64 start_ns);

/**
 * struct pwfw_coll_sig - what all members of one collective agree on
 * @scope: the gang's scope (struct pwfw_exec_env); logs name only it.
 * @gang_id: the gang within @scope.
 * @layout: digest of the gang's devices, groups and permutation.
 * @seq: the collective's number in the execution (0, 1, ...).
 * @group: replica group id.
 * @n: members in the group.
 * @op: enum pwtpu_op.
 * @mode: enum pwtpu_reduce for reductions, else 0.
 * @dtype: element type.
 * @src_elems: elements of each member's source.
 * @dst_elems: elements of each member's result.
 * @shapes: digest of the source and result shapes.
 */
struct pwfw_coll_sig {
	u64 scope;
	u64 gang_id;
	u64 layout;
	u32 seq;
	u32 group;
	u32 n;
	u32 op;
	u32 mode;
	u32 dtype;
	u64 src_elems;
	u64 dst_elems;
	u64 shapes;
};

/**
 * struct pwfw_member - one member's side of a collective
 * @src: its source tensor.
 * @dst: its result tensor.
 * @dev: its device.
 */
struct pwfw_member {
	const void *src;
	void *dst;
	u32 dev;
};

struct pwfw_rv;

/*
 * Arrive at collective @sig as group rank @grank of device @dev, and wait
 * for the other n - 1 members (until the island's gang timeout). Returns
 * 0 with *@rv, -PWFW_ETIMEDOUT (a log line names the gang, who waited
 * and who did not come, and what those were doing), or -PWFW_EINVAL when
 * the members' signatures differ (all of them fail).
 */
int pwfw_rv_join(struct pwfw_island *isl, u32 dev,
		 const struct pwfw_coll_sig *sig, u32 grank,
		 const struct pwfw_member *me, struct pwfw_rv **rv);
const struct pwfw_member *pwfw_rv_member(const struct pwfw_rv *rv,
					 u32 grank);
/* Wait until every member finished the current step; -PWFW_ETIMEDOUT. */
int pwfw_rv_barrier(struct pwfw_rv *rv, u32 grank);
/*
 * Done with the collective: waits until no other member still works in
 * it (each one is bounded: a step, or a barrier's gang timeout), so no
 * peer reads a buffer whose command has completed; the last member out
 * frees it. Every successful join is
 * followed by exactly one leave, also after a failed barrier.
 */
void pwfw_rv_leave(struct pwfw_rv *rv, u32 grank);

#endif /* PWFW_ISLAND_H */
