// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_gang.c - the gang of an EXEC: checking the descriptor that comes
 * from user space, and finding this member's replica group in it.
 *
 * A gang has ndevices members, gang ranks 0..ndevices-1. Members with
 * the same group id form a replica group; a member's group rank is its
 * place among them in gang-rank order. permute[] holds gang ranks.
 */
#include "pwfw_coll.h"

#define FNV64_OFFSET	0xcbf29ce484222325ULL
#define FNV64_PRIME	0x100000001b3ULL

static bool gang_tail_is_zero(const struct pwtpu_gang *gang)
{
	u32 i;

	for (i = gang->ndevices; i < PWTPU_MAX_GANG; i++)
		if (gang->devices[i] || gang->group[i] || gang->permute[i])
			return false;
	return true;
}

/* Member @i's device is in the island and no earlier member's. */
static bool gang_device_ok(const struct pwtpu_gang *gang, u32 ndev, u32 i)
{
	u32 j;

	if (gang->devices[i] >= ndev)
		return false;
	for (j = 0; j < i; j++)
		if (gang->devices[j] == gang->devices[i])
			return false;
	return true;
}

/* Member @i sends to nobody, or to a member of its group no one else does. */
static bool gang_permute_ok(const struct pwtpu_gang *gang, u32 i)
{
	u32 t = gang->permute[i], j;

	if (t == PWTPU_NO_RANK)
		return true;
	if (t >= gang->ndevices || gang->group[t] != gang->group[i])
		return false;
	for (j = 0; j < i; j++)
		if (gang->permute[j] == t)
			return false;
	return true;
}

int pwfw_gang_check(const struct pwfw_island *isl, u32 dev,
		    const struct pwtpu_gang *gang)
{
	u32 ndev, i;

	if (!isl || !gang)
		return -PWFW_EINVAL;
	ndev = pwfw_island_ndev(isl);
	if (!gang->gang_id || gang->flags)
		return -PWFW_EINVAL;
	if (!gang->ndevices || gang->ndevices > PWTPU_MAX_GANG ||
	    gang->rank >= gang->ndevices || gang->devices[gang->rank] != dev)
		return -PWFW_EINVAL;
	if (!gang_tail_is_zero(gang))
		return -PWFW_EINVAL;
	for (i = 0; i < gang->ndevices; i++)
		if (!gang_device_ok(gang, ndev, i) ||
		    !gang_permute_ok(gang, i))
			return -PWFW_EINVAL;
	return 0;
}

static u64 fnv1a_u32(u64 h, u32 v)
{
	u32 k;

	for (k = 0; k < 4; k++) {
		h ^= (v >> (8 * k)) & 0xff;
		h *= FNV64_PRIME;
	}
	return h;
}

/* What every member must agree on, whatever its own rank. */
static u64 gang_layout(const struct pwtpu_gang *gang)
{
	u64 h = fnv1a_u32(FNV64_OFFSET, gang->ndevices);
	u32 i;

	for (i = 0; i < gang->ndevices; i++) {
		h = fnv1a_u32(h, gang->devices[i]);
		h = fnv1a_u32(h, gang->group[i]);
		h = fnv1a_u32(h, gang->permute[i]);
	}
	return h;
}

u64 pwfw_shapes_digest(const struct pwtpu_tensor *a,
		       const struct pwtpu_tensor *d)
{
	u64 h = FNV64_OFFSET;
	u32 i;

	for (i = 0; i < PWTPU_MAX_RANK; i++) {
		h = fnv1a_u32(h, a->shape[i]);
		h = fnv1a_u32(h, d->shape[i]);
	}
	return h;
}

/* Group rank of gang rank @r: members of its group before it. */
static u32 gang_group_rank(const struct pwtpu_gang *gang, u32 r)
{
	u32 i, n = 0;

	for (i = 0; i < r; i++)
		n += gang->group[i] == gang->group[r];
	return n;
}

void pwfw_gang_group(const struct pwtpu_gang *gang, struct pwfw_group *g)
{
	u32 me = gang->rank, i;

	g->id = gang->group[me];
	g->n = 0;
	g->grank = gang_group_rank(gang, me);
	g->send_to = PWTPU_NO_RANK;
	g->recv_from = PWTPU_NO_RANK;
	g->layout = gang_layout(gang);
	for (i = 0; i < gang->ndevices; i++) {
		if (gang->group[i] != g->id)
			continue;
		g->devs[g->n++] = gang->devices[i];
		if (gang->permute[i] == me)
			g->recv_from = gang_group_rank(gang, i);
	}
	if (gang->permute[me] != PWTPU_NO_RANK)
		g->send_to = gang_group_rank(gang, gang->permute[me]);
}
