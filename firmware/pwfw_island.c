// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_island.c - what the devices of one island share: the mesh links.
 *
 * Every device has one outgoing link per mesh axis and direction (minus,
 * plus) where the mesh has a neighbour there. A transfer is routed one
 * axis after the other, lowest first (on a torus the shorter way round,
 * plus on a tie), and each hop is charged to its link: a link sends one
 * transfer at a time at ici_mbps and is busy until busy_until; a hop
 * starts when its data arrives and the link is free, and the next hop
 * may start ici_latency_ns after it (cut-through). Integer nanoseconds,
 * saturating, never wrapping. docs/collectives.md, "Links and routing".
 *
 * The link state is guarded by the island lock (pwfw_plat_lock); the
 * topology never changes after creation and is read without it. The
 * rendezvous of collectives is in pwfw_rv.c.
 */
#include "pwfw.h"
#include "pwfw_island.h"
#include "pwfw_platform.h"
#include "pwfw_rv.h"

#define DIR_MINUS	0U
#define DIR_PLUS	1U
#define LINKS_PER_DEV	(PWTPU_MESH_MAX_DIMS * 2)
#define U64_SAT		(~0ULL)

/**
 * struct pwfw_link - one direction of one link, kept by its sender
 * @busy_until: pwfw_plat_now_ns() time its last accepted hop is sent.
 * @stats: counters.
 */
struct pwfw_link {
	u64 busy_until;
	struct pwfw_link_stats stats;
};

/**
 * struct pwfw_island - the island
 * @host: cookie for the pwfw_plat_* calls.
 * @spec: link bandwidth and latency.
 * @mesh: topology.
 * @ndev: devices, the product of the mesh's extents.
 * @stride: index distance between neighbours along each axis.
 * @rv: collectives in progress (pwfw_rv.c).
 * @links: [@ndev][axis][dir]; links the mesh does not have stay zero.
 */
struct pwfw_island {
	void *host;
	struct pwfw_spec spec;
	struct pwfw_mesh mesh;
	u32 ndev;
	u32 stride[PWTPU_MESH_MAX_DIMS];
	struct pwfw_rv_table *rv;
	struct pwfw_link *links;
};

static u64 add_sat(u64 a, u64 b)
{
	return a + b < a ? U64_SAT : a + b;
}

static u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * ceil(bytes * 1000 / mbps): 1 MB/s moves one byte per microsecond.
 * Exact without a wider type: bytes = q * mbps + r gives
 * q * 1000 + ceil(r * 1000 / mbps), where only q * 1000 can overflow.
 */
static u64 send_ns(u64 bytes, u32 mbps)
{
	u64 d = mbps ? mbps : 1;
	u64 q = bytes / d;
	u64 r = bytes % d * 1000;

	if (q > U64_SAT / 1000)
		return U64_SAT;
	return add_sat(q * 1000, r / d + (r % d != 0));
}

/* A mesh of 1..3 non-zero extents whose product is @ndev. */
static bool mesh_fits(const struct pwfw_mesh *mesh, u32 ndev)
{
	u64 devices = 1;
	u32 i;

	if (!mesh->ndims || mesh->ndims > PWTPU_MESH_MAX_DIMS)
		return false;
	for (i = 0; i < mesh->ndims; i++) {
		if (!mesh->shape[i])
			return false;
		devices *= mesh->shape[i];
		if (devices > ndev)
			return false;
	}
	return ndev && devices == ndev;
}

struct pwfw_island *pwfw_island_create(void *host,
				       const struct pwfw_spec *spec,
				       const struct pwfw_mesh *mesh, u32 ndev,
				       u64 gang_timeout_ns)
{
	struct pwfw_island *isl;
	u32 i, stride = 1;

	if (!spec || !mesh || !mesh_fits(mesh, ndev))
		return NULL;
	isl = pwfw_plat_zalloc(sizeof(*isl));
	if (!isl)
		return NULL;
	isl->links = pwfw_plat_zalloc((u64)ndev * LINKS_PER_DEV *
				      sizeof(*isl->links));
	if (!isl->links)
		goto err_island;
	isl->rv = pwfw_rv_table_create(host, ndev, gang_timeout_ns);
	if (!isl->rv)
		goto err_links;
	isl->host = host;
	isl->spec = *spec;
	isl->mesh = *mesh;
	isl->ndev = ndev;
	/* Row major, the last axis fastest (pwfw_mesh_coords()). */
	for (i = mesh->ndims; i-- > 0;) {
		isl->stride[i] = stride;
		stride *= mesh->shape[i];
	}
	return isl;

err_links:
	pwfw_plat_free(isl->links);
err_island:
	pwfw_plat_free(isl);
	return NULL;
}

void pwfw_island_destroy(struct pwfw_island *isl)
{
	if (!isl)
		return;
	pwfw_rv_table_destroy(isl->rv);
	pwfw_plat_free(isl->links);
	pwfw_plat_free(isl);
}

u32 pwfw_island_ndev(const struct pwfw_island *isl)
{
	return isl->ndev;
}

void *pwfw_island_host(const struct pwfw_island *isl)
{
	return isl->host;
}

struct pwfw_rv_table *pwfw_island_rv(struct pwfw_island *isl)
{
	return isl->rv;
}

/* @dev's coordinate along @axis. */
static u32 coord(const struct pwfw_island *isl, u32 dev, u32 axis)
{
	return dev / isl->stride[axis] % isl->mesh.shape[axis];
}

u32 pwfw_island_neighbor(const struct pwfw_island *isl, u32 dev, u32 axis,
			 u32 dir)
{
	u32 extent, stride, c;

	if (dev >= isl->ndev || axis >= isl->mesh.ndims || dir > DIR_PLUS)
		return PWTPU_NO_DEVICE;
	extent = isl->mesh.shape[axis];
	stride = isl->stride[axis];
	c = coord(isl, dev, axis);
	/* An axis of extent 1 has no links, not even to itself. */
	if (extent < 2)
		return PWTPU_NO_DEVICE;
	if (dir == DIR_PLUS) {
		if (c + 1 < extent)
			return dev + stride;
		return isl->mesh.torus ? dev - c * stride : PWTPU_NO_DEVICE;
	}
	if (c)
		return dev - stride;
	return isl->mesh.torus ? dev + (extent - 1) * stride : PWTPU_NO_DEVICE;
}

static struct pwfw_link *link_of(struct pwfw_island *isl, u32 dev, u32 axis,
				 u32 dir)
{
	return &isl->links[(u64)dev * LINKS_PER_DEV + axis * 2 + dir];
}

void pwfw_island_link_stats(struct pwfw_island *isl, u32 dev, u32 axis,
			    u32 dir, struct pwfw_link_stats *out)
{
	*out = (struct pwfw_link_stats){ 0 };
	if (pwfw_island_neighbor(isl, dev, axis, dir) == PWTPU_NO_DEVICE)
		return;
	pwfw_plat_lock(isl->host);
	*out = link_of(isl, dev, axis, dir)->stats;
	pwfw_plat_unlock(isl->host);
}

/*
 * Hops along @axis from @from's coordinate to @to's, and their direction:
 * straight on a mesh; on a torus the shorter way round, plus on a tie.
 */
static u32 route_axis(const struct pwfw_island *isl, u32 from, u32 to,
		      u32 axis, u32 *dir)
{
	u32 extent = isl->mesh.shape[axis];
	u32 c = coord(isl, from, axis);
	u32 d = coord(isl, to, axis);
	u32 plus, minus;

	plus = d >= c ? d - c : extent - (c - d);
	minus = c >= d ? c - d : extent - (d - c);
	if (!isl->mesh.torus) {
		*dir = d >= c ? DIR_PLUS : DIR_MINUS;
		return d >= c ? plus : minus;
	}
	*dir = plus <= minus ? DIR_PLUS : DIR_MINUS;
	return plus <= minus ? plus : minus;
}

/*
 * One hop of @bytes from @cur along @axis/@dir, the data there at @at:
 * queue behind the link's earlier traffic, count it, trace it. Returns
 * when the next hop may start (cut-through); *@end gets the arrival of
 * the last byte. With the island lock held.
 */
static u64 charge_hop(struct pwfw_island *isl, u32 cur, u32 axis, u32 dir,
		      u64 bytes, u64 at, u64 origin, u64 *end)
{
	struct pwfw_link *link = link_of(isl, cur, axis, dir);
	u64 send = send_ns(bytes, isl->spec.ici_mbps);
	u64 start = max_u64(at, link->busy_until);

	link->busy_until = add_sat(start, send);
	link->stats.bytes = add_sat(link->stats.bytes, bytes);
	link->stats.transfers = add_sat(link->stats.transfers, 1);
	link->stats.busy_ns = add_sat(link->stats.busy_ns, send);
	at = add_sat(start, isl->spec.ici_latency_ns);
	*end = add_sat(at, send);
	/* The trace hook must not take the island lock. */
	pwfw_plat_trace_link(isl->host, cur,
			     pwfw_island_neighbor(isl, cur, axis, dir), bytes,
			     *end - origin);
	return at;
}

u64 pwfw_island_transfer_at(struct pwfw_island *isl, u32 src, u32 dst,
			    u64 bytes, u64 start_ns)
{
	u64 at = start_ns, end = start_ns;
	u32 cur = src, axis, dir, hops;

	if (src == dst || src >= isl->ndev || dst >= isl->ndev)
		return start_ns;
	pwfw_plat_lock(isl->host);
	for (axis = 0; axis < isl->mesh.ndims; axis++) {
		for (hops = route_axis(isl, cur, dst, axis, &dir); hops; hops--) {
			at = charge_hop(isl, cur, axis, dir, bytes, at,
					start_ns, &end);
			cur = pwfw_island_neighbor(isl, cur, axis, dir);
		}
	}
	pwfw_plat_unlock(isl->host);
	return end;
}

u64 pwfw_island_send_at(struct pwfw_island *isl, u32 dev, u32 axis,
			u32 dir, u64 bytes, u64 start_ns)
{
	u64 end = start_ns;

	if (dev >= isl->ndev || axis >= isl->mesh.ndims || dir > 1 ||
	    pwfw_island_neighbor(isl, dev, axis, dir) == PWTPU_NO_DEVICE)
		return start_ns;
	pwfw_plat_lock(isl->host);
	charge_hop(isl, dev, axis, dir, bytes, start_ns, start_ns, &end);
	pwfw_plat_unlock(isl->host);
	return end;
}

u64 pwfw_island_transfer(struct pwfw_island *isl, u32 src, u32 dst,
			 u64 bytes)
{
	u64 now = pwfw_plat_now_ns();

	return pwfw_island_transfer_at(isl, src, dst, bytes, now) - now;
}
