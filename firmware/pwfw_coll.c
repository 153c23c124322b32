// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_coll.c - collectives over the island's mesh links: ALL_REDUCE,
 * ALL_GATHER, REDUCE_SCATTER and COLLECTIVE_PERMUTE, run by every member
 * of a replica group at once, each in its own device's thread.
 *
 * Integer only (built with -mno-sse in the kernel): reductions go to
 * pwfw_k_binary() inside bounded FPU sections.
 *
 * All device memory is in one address space, so a member "receives" by
 * reading a peer's buffer directly. The members move in lock-step: each
 * step reads only what its peers finished writing before the previous
 * pwfw_rv_barrier(), and writes only what no peer reads in the same
 * step. Each member charges the link traffic of its own sends to the
 * island (pwfw_island_transfer_at() routes it over the links) on a model
 * clock: a step starts when the previous step's last byte arrived at any
 * member, and its sends queue behind earlier traffic on their links. The
 * clock's advance over the collective is its modelled time, added to
 * env->link_ns.
 *
 * ALL_REDUCE is a ring reduce-scatter followed by a ring all-gather, per
 * mesh axis when the group is the whole island on a mesh of two or more
 * axes longer than 1, or on a torus (reduce-scatter along each axis in
 * turn on the shrinking chunk, all-gather back in reverse), else one
 * ring over the group in group-rank order. On a torus the per-axis rings
 * are bidirectional: the first half of dst goes round them forward, over
 * the plus links, the second half backward, over the minus links, in the
 * same steps. ALL_GATHER and REDUCE_SCATTER are the two ring halves of
 * the group's ring, COLLECTIVE_PERMUTE one step; they run in one
 * direction. The reduction order is fixed: docs/collectives.md.
 */
#include "pwfw_coll.h"
#include "pwfw_kernels.h"
#include "pwfw_platform.h"
#include "pwfw_rv.h"

#define COLL_U64_MAX	(~0ULL)
#define COLL_NO_AXIS	PWTPU_MESH_MAX_DIMS

/**
 * struct coll_peer - what a member shows its peers during a collective
 * @src: its operand.
 * @dst: its result.
 * @scratch: REDUCE_SCATTER: two slots of partial blocks, or NULL.
 * @step_end: model time its send of an even or odd step arrived.
 *
 * The rendezvous carries one pointer per member for this: the member's
 * pwfw_member.src points here.
 */
struct coll_peer {
	const u8 *src;
	u8 *dst;
	u8 *scratch;
	u64 step_end[2];
};

/**
 * struct coll_ctx - one member running one collective
 * @c: the collective.
 * @isl: its island.
 * @rv: the rendezvous, once joined.
 * @me: what the peers see of this member.
 * @esize: bytes per element.
 * @steps: steps done so far.
 * @clock: model time the next step may start.
 * @own_scratch: me.scratch was allocated here, not the host's.
 */
struct coll_ctx {
	const struct pwfw_coll *c;
	struct pwfw_island *isl;
	struct pwfw_rv *rv;
	struct coll_peer me;
	u32 esize;
	u32 steps;
	u64 clock;
	bool own_scratch;
};

/**
 * struct coll_ring - this member's ring for one phase
 * @m: members, >= 2.
 * @pos: this member's position, 0..m-1.
 * @back: the ring runs backward: from position p to p - 1.
 * @prev: group rank of the member it receives from: at position pos - 1
 *	(mod m), or pos + 1 backward.
 * @next_dev: device of the member it sends to: at position pos + 1, or
 *	pos - 1 backward.
 */
struct coll_ring {
	u32 m;
	u32 pos;
	bool back;
	u32 prev;
	u32 next_dev;
	u32 link_axis;
};

static u64 coll_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

static u64 coll_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

static const struct coll_peer *coll_peer_of(const struct coll_ctx *x,
					    u32 grank)
{
	return pwfw_rv_member(x->rv, grank)->src;
}

/* Chunk @i of @len elements cut in @m: ceil-sized, the last ones short. */
static void coll_chunk(u64 len, u32 m, u32 i, u64 *start, u64 *count)
{
	u64 size = len / m + (len % m != 0);
	u64 s = coll_min((u64)i * size, len);

	*start = s;
	*count = coll_min(s + size, len) - s;
}

/* Position @pos - @back on a ring of @m (@back <= 2 * m). */
static u32 coll_back(u32 pos, u32 m, u32 back)
{
	return (pos + 2 * m - back) % m;
}

/*
 * The position @k members upstream of this one: @k steps against the
 * ring's direction (pos - k forward, pos + k backward), @k <= 2 * m.
 */
static u32 coll_up(const struct coll_ring *rg, u32 k)
{
	return rg->back ? (rg->pos + k) % rg->m : coll_back(rg->pos, rg->m, k);
}

static void coll_copy(void *dst, const void *src, u64 bytes)
{
	u64 i, c;

	for (i = 0; i < bytes; i += c) {
		c = coll_min(bytes - i, PWFW_FPU_CHUNK * 4ULL);
		pwfw_l_copy((u8 *)dst + i, (const u8 *)src + i, c);
		pwfw_plat_yield();
	}
}

static void coll_zero(void *dst, u64 bytes)
{
	u64 i, c;

	for (i = 0; i < bytes; i += c) {
		c = coll_min(bytes - i, PWFW_FPU_CHUNK * 4ULL);
		__builtin_memset((u8 *)dst + i, 0, c);
		pwfw_plat_yield();
	}
}

/* out[i] = acc[i] <mode> own[i], @out either @own exactly or disjoint. */
static void coll_reduce(const struct coll_ctx *x, u8 *out, const u8 *acc,
			const u8 *own, u64 n)
{
	static const u8 ops[] = {
		[PWTPU_REDUCE_SUM] = PWTPU_OP_ADD,
		[PWTPU_REDUCE_MAX] = PWTPU_OP_MAX,
		[PWTPU_REDUCE_MIN] = PWTPU_OP_MIN,
		[PWTPU_REDUCE_PROD] = PWTPU_OP_MUL,
	};
	u64 i, off;
	u32 c;

	for (i = 0; i < n; i += c) {
		c = (u32)coll_min(n - i, PWFW_FPU_CHUNK);
		off = i * x->esize;
		pwfw_plat_fpu_begin();
		pwfw_k_binary(ops[x->c->mode], x->c->dtype, out + off,
			      acc + off, own + off, c);
		pwfw_plat_fpu_end();
		pwfw_plat_yield();
	}
}

/* Charge @bytes from this member's device to @to; modelled ns. */
/* Charge a send starting at the step's clock; the model time it arrives. */
static u64 coll_send(const struct coll_ctx *x, u32 to, u64 bytes)
{
	u32 from = x->c->env->dev;

	if (!bytes || to == from)
		return x->clock;
	return pwfw_island_transfer_at(x->isl, from, to, bytes, x->clock);
}

/* A ring step's send: over the ring's own link when it has one. */
static u64 coll_ring_send(const struct coll_ctx *x, const struct coll_ring *rg,
			  u64 bytes)
{
	if (rg->link_axis == COLL_NO_AXIS || !bytes)
		return coll_send(x, rg->next_dev, bytes);
	return pwfw_island_send_at(x->isl, x->c->env->dev, rg->link_axis,
				   rg->back ? 0 : 1, bytes, x->clock);
}

/*
 * End a step whose own send arrives at @end: wait for every member, then
 * start the next step when the last send arrived. A peer writes the same
 * slot of step_end again only two steps on, after this member's next
 * barrier.
 */
static int coll_step_done(struct coll_ctx *x, u64 end)
{
	const struct pwfw_group *g = x->c->grp;
	struct pwfw_exec_env *env = x->c->env;
	u32 slot = x->steps & 1, r;
	u64 last = x->clock, t;
	int ret;

	x->me.step_end[slot] = end;
	ret = pwfw_rv_barrier(x->rv, g->grank);
	if (ret)
		return ret;
	for (r = 0; r < g->n; r++) {
		t = coll_peer_of(x, r)->step_end[slot];
		last = t > last ? t : last;
	}
	x->clock = last;
	x->steps++;
	pwfw_plat_trace_coll(pwfw_island_host(env->isl), env->dev,
			     env->gang->gang_id, x->c->seq, x->c->op,
			     PWFW_COLL_STEP, (s32)x->steps);
	return 0;
}

/*
 * Reduce-scatter step @s (0..m-2) over the segment [@off, @off + @len)
 * of dst: the member at position p folds chunk p - 2 - s (backward:
 * p + 2 + s), taking the partial its predecessor made of it in step
 * s - 1 (its source in step 0) and adding its own value on the right.
 * After step m - 2 position p holds chunk p, reduced in the order p + 1,
 * p + 2, ..., p (backward: p - 1, p - 2, ..., p). @first: the own values
 * are still in src (the first phase), else in dst. Returns the model
 * time this member's send arrives; the caller ends the step.
 */
static u64 coll_rs_work(struct coll_ctx *x, const struct coll_ring *rg,
			u64 off, u64 len, u32 s, bool first)
{
	const struct coll_peer *pp = coll_peer_of(x, rg->prev);
	const u8 *acc, *own;
	u64 c0, cn, o;

	coll_chunk(len, rg->m, coll_up(rg, 2 + s), &c0, &cn);
	if (x->c->env->compute && cn) {
		o = (off + c0) * x->esize;
		acc = (first && !s ? pp->src : pp->dst) + o;
		own = (first ? x->me.src : x->me.dst) + o;
		coll_reduce(x, x->me.dst + o, acc, own, cn);
	}
	/* The successor folds chunk p - 1 - s (p + 1 + s) from this member. */
	coll_chunk(len, rg->m, coll_up(rg, 1 + s), &c0, &cn);
	return coll_ring_send(x, rg, cn * x->esize);
}

/*
 * All-gather step @t (0..m-2) over the segment: position p copies chunk
 * p - 1 - t (backward: p + 1 + t) from its predecessor, who got it in
 * step t - 1 or owns it. @first (ALL_GATHER): a member's own chunk is
 * its src, not yet in dst. Returns the model time its send arrives.
 */
static u64 coll_ag_work(struct coll_ctx *x, const struct coll_ring *rg,
			u64 off, u64 len, u32 t, bool first)
{
	const struct coll_peer *pp = coll_peer_of(x, rg->prev);
	u64 c0, cn, o;

	coll_chunk(len, rg->m, coll_up(rg, 1 + t), &c0, &cn);
	if (x->c->env->compute && cn) {
		o = (off + c0) * x->esize;
		coll_copy(x->me.dst + o, first && !t ? pp->src : pp->dst + o,
			  cn * x->esize);
	}
	coll_chunk(len, rg->m, coll_up(rg, t), &c0, &cn);
	return coll_ring_send(x, rg, cn * x->esize);
}

/* The ring of the whole group in group-rank order. */
static void coll_group_ring(const struct coll_ctx *x, struct coll_ring *rg)
{
	const struct pwfw_group *g = x->c->grp;

	rg->m = g->n;
	rg->pos = g->grank;
	rg->back = false;
	rg->link_axis = COLL_NO_AXIS;
	rg->prev = coll_back(g->grank, g->n, 1);
	rg->next_dev = g->devs[(g->grank + 1) % g->n];
}

/**
 * struct coll_axes - the island's mesh, as the per-axis all-reduce sees it
 * @n: axes longer than 1.
 * @torus: their links wrap around.
 * @axis: those axes, ascending.
 * @extent: extent of each mesh dimension.
 * @stride: device index step of each dimension (row major).
 */
struct coll_axes {
	u32 n;
	bool torus;
	u32 axis[PWTPU_MESH_MAX_DIMS];
	u32 extent[PWTPU_MESH_MAX_DIMS];
	u32 stride[PWTPU_MESH_MAX_DIMS];
};

/*
 * The mesh's extents, walked along the links from device 0: the device
 * index is row major in them. It is a torus when device 0, at coordinate
 * 0 of every axis, has minus links. False when the extents do not
 * explain the island.
 */
static bool coll_mesh_axes(struct pwfw_island *isl, struct coll_axes *ax)
{
	u32 ndev = pwfw_island_ndev(isl), k, d, next;
	u64 total = 1;
	int j;

	ax->n = 0;
	ax->torus = true;
	for (k = 0; k < PWTPU_MESH_MAX_DIMS; k++) {
		ax->extent[k] = 1;
		for (d = 0; ax->extent[k] < ndev; d = next) {
			next = pwfw_island_neighbor(isl, d, k, 1);
			if (next == PWTPU_NO_DEVICE || !next || next == d)
				break;
			ax->extent[k]++;
		}
		total *= ax->extent[k];
		if (ax->extent[k] < 2)
			continue;
		ax->axis[ax->n++] = k;
		if (pwfw_island_neighbor(isl, 0, k, 0) == PWTPU_NO_DEVICE)
			ax->torus = false;
	}
	for (j = PWTPU_MESH_MAX_DIMS - 1, d = 1; j >= 0; j--) {
		ax->stride[j] = d;
		d *= ax->extent[j];
	}
	return total == ndev;
}

/* Group rank of device @dev; the group is the whole island. */
static u32 coll_grank_of(const struct pwfw_group *g, u32 dev)
{
	u32 r;

	for (r = 0; r < g->n && g->devs[r] != dev; r++)
		;
	return r;
}

/*
 * This member's ring along mesh dimension @k: towards plus, or towards
 * minus when @back (over the minus links on a torus).
 */
static void coll_axis_ring(const struct coll_ctx *x,
			   const struct coll_axes *ax, u32 k, bool back,
			   struct coll_ring *rg)
{
	u32 dev = x->c->env->dev, stride = ax->stride[k];
	u32 base;

	rg->m = ax->extent[k];
	rg->pos = dev / stride % rg->m;
	rg->back = back;
	/* On a torus the successor is a neighbour: send on the ring's link. */
	rg->link_axis = ax->torus ? k : COLL_NO_AXIS;
	base = dev - rg->pos * stride;
	rg->prev = coll_grank_of(x->c->grp, base + coll_up(rg, 1) * stride);
	rg->next_dev = base + coll_up(rg, rg->m - 1) * stride;
}

/**
 * struct coll_half - one half of an all-reduce's dst and its rings
 * @rings: the ring of each phase.
 * @off: segment each phase works on, in elements of dst: its start...
 * @len: ...and length; phase i + 1 works on the chunk this member owns
 *	after phase i.
 */
struct coll_half {
	struct coll_ring rings[PWTPU_MESH_MAX_DIMS];
	u64 off[PWTPU_MESH_MAX_DIMS + 1];
	u64 len[PWTPU_MESH_MAX_DIMS + 1];
};

/*
 * The rings ALL_REDUCE runs, returning how many phases run one after the
 * other: one per mesh axis longer than 1 when the group is the island on
 * two or more such axes or on a torus, else the group's ring. *@nh:
 * halves of dst, each with its own rings: 2 on a torus (the second
 * half's rings run backward), else 1.
 */
static u32 coll_allreduce_rings(const struct coll_ctx *x,
				struct coll_half hv[2], u32 *nh)
{
	struct coll_axes ax;
	u32 h, i;

	*nh = 1;
	if (x->c->grp->n == pwfw_island_ndev(x->isl) &&
	    coll_mesh_axes(x->isl, &ax) &&
	    (ax.n >= 2 || (ax.n == 1 && ax.torus))) {
		*nh = ax.torus ? 2 : 1;
		for (h = 0; h < *nh; h++)
			for (i = 0; i < ax.n; i++)
				coll_axis_ring(x, &ax, ax.axis[i], h == 1,
					       &hv[h].rings[i]);
		return ax.n;
	}
	coll_group_ring(x, &hv[0].rings[0]);
	return 1;
}

/*
 * Both halves take their step @s of phase @i in one step of the
 * collective: their sends start at the step's clock, on disjoint links
 * when the halves run in opposite directions.
 */
static int coll_ar_step(struct coll_ctx *x, struct coll_half *hv, u32 nh,
			u32 i, u32 s, bool gather)
{
	u64 end = x->clock;
	u32 h;

	for (h = 0; h < nh; h++)
		end = coll_max(end, gather ?
			       coll_ag_work(x, &hv[h].rings[i], hv[h].off[i],
					    hv[h].len[i], s, false) :
			       coll_rs_work(x, &hv[h].rings[i], hv[h].off[i],
					    hv[h].len[i], s, !i));
	return coll_step_done(x, end);
}

static int coll_all_reduce(struct coll_ctx *x)
{
	struct coll_half hv[2];
	u32 nh, nr = coll_allreduce_rings(x, hv, &nh), h, i, s;
	struct coll_ring *rg;
	int ret;

	for (h = 0; h < nh; h++)
		coll_chunk(x->c->dst_elems, nh, h, &hv[h].off[0],
			   &hv[h].len[0]);
	for (i = 0; i < nr; i++) {
		for (s = 0; s + 1 < hv[0].rings[i].m; s++) {
			ret = coll_ar_step(x, hv, nh, i, s, false);
			if (ret)
				return ret;
		}
		/* The next phase works on the chunk this member owns. */
		for (h = 0; h < nh; h++) {
			rg = &hv[h].rings[i];
			coll_chunk(hv[h].len[i], rg->m, rg->pos,
				   &hv[h].off[i + 1], &hv[h].len[i + 1]);
			hv[h].off[i + 1] += hv[h].off[i];
		}
	}
	while (i--) {
		for (s = 0; s + 1 < hv[0].rings[i].m; s++) {
			ret = coll_ar_step(x, hv, nh, i, s, true);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int coll_all_gather(struct coll_ctx *x)
{
	u64 block = x->c->src_elems * x->esize;
	struct coll_ring rg;
	u32 t;
	int ret;

	coll_group_ring(x, &rg);
	/* No peer reads this member's own block from its dst. */
	if (x->c->env->compute)
		coll_copy(x->me.dst + rg.pos * block, x->me.src, block);
	for (t = 0; t + 1 < rg.m; t++) {
		ret = coll_step_done(x, coll_ag_work(x, &rg, 0,
						     x->c->dst_elems, t, true));
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Scratch slots of one block each that REDUCE_SCATTER's partials pass
 * through: step s writes slot s % 2 and reads the predecessor's other
 * slot; the last step writes dst. 0, 1 or 2.
 */
static u32 coll_rs_slots(u32 n)
{
	return n < 3 ? 0 : n == 3 ? 1 : 2;
}

/*
 * The reduce-scatter half of a ring over blocks of dst's size: step s
 * folds block p - 2 - s, so that after n - 1 steps position p holds
 * block p, reduced in the order p + 1, ..., p like ALL_REDUCE's.
 */
static int coll_reduce_scatter(struct coll_ctx *x)
{
	u64 block = x->c->dst_elems * x->esize, o;
	const struct coll_peer *pp;
	struct coll_ring rg;
	const u8 *acc;
	u8 *out;
	u32 s;
	int ret;

	coll_group_ring(x, &rg);
	if (rg.m == 1) {
		if (x->c->env->compute)
			coll_copy(x->me.dst, x->me.src, block);
		return 0;
	}
	pp = coll_peer_of(x, rg.prev);
	for (s = 0; s + 1 < rg.m; s++) {
		if (x->c->env->compute && block) {
			o = coll_back(rg.pos, rg.m, 2 + s) * block;
			acc = s ? pp->scratch + ((s - 1) & 1) * block :
				  pp->src + o;
			out = s + 2 == rg.m ? x->me.dst :
			      x->me.scratch + (s & 1) * block;
			coll_reduce(x, out, acc, x->me.src + o,
				    x->c->dst_elems);
		}
		ret = coll_step_done(x, coll_ring_send(x, &rg, block));
		if (ret)
			return ret;
	}
	return 0;
}

static int coll_permute(struct coll_ctx *x)
{
	const struct pwfw_group *g = x->c->grp;
	u64 bytes = x->c->dst_elems * x->esize;
	u64 end = x->clock;

	if (x->c->env->compute && g->recv_from != PWTPU_NO_RANK)
		coll_copy(x->me.dst, coll_peer_of(x, g->recv_from)->src,
			  bytes);
	else if (x->c->env->compute)
		coll_zero(x->me.dst, bytes);
	if (g->send_to != PWTPU_NO_RANK)
		end = coll_send(x, g->devs[g->send_to], bytes);
	return coll_step_done(x, end);
}

/* Whether the group size fits the shapes, the same verdict everywhere. */
static bool coll_fits(const struct pwfw_coll *c)
{
	switch (c->op) {
	case PWTPU_OP_ALL_GATHER:
		return c->dst_elems == (u64)c->grp->n * c->src_elems;
	case PWTPU_OP_REDUCE_SCATTER:
		return c->src_elems == (u64)c->grp->n * c->dst_elems;
	default:
		return c->src_elems == c->dst_elems;
	}
}

static int coll_algorithm(struct coll_ctx *x)
{
	switch (x->c->op) {
	case PWTPU_OP_ALL_REDUCE:
		if (x->c->grp->n == 1) {
			if (x->c->env->compute)
				coll_copy(x->me.dst, x->me.src,
					  x->c->dst_elems * x->esize);
			return 0;
		}
		return coll_all_reduce(x);
	case PWTPU_OP_ALL_GATHER:
		return coll_all_gather(x);
	case PWTPU_OP_REDUCE_SCATTER:
		return coll_reduce_scatter(x);
	default:
		return coll_permute(x);
	}
}

/*
 * REDUCE_SCATTER's scratch, zeroed: the host's (env->scratch) when it
 * gave enough, else its own. False when it is needed and not to be had.
 */
static bool coll_alloc(struct coll_ctx *x)
{
	const struct pwfw_coll *c = x->c;
	struct pwfw_exec_env *env = c->env;
	u64 bytes;

	if (c->op != PWTPU_OP_REDUCE_SCATTER || !env->compute)
		return true;
	bytes = coll_rs_slots(c->grp->n) * c->dst_elems * x->esize;
	if (!bytes)
		return true;
	if (env->scratch && bytes <= env->scratch_bytes) {
		x->me.scratch = env->scratch;
		coll_zero(x->me.scratch, bytes);
		return true;
	}
	x->me.scratch = pwfw_plat_zalloc(bytes);
	x->own_scratch = true;
	return x->me.scratch;
}

/*
 * Agree on when the collective starts: the model clock of its last
 * member to arrive, so every member reports the same modelled time.
 */
static int coll_start(struct coll_ctx *x)
{
	const struct pwfw_group *g = x->c->grp;
	u64 t;
	u32 r;
	int ret;

	x->me.step_end[1] = pwfw_plat_now_ns();
	ret = pwfw_rv_barrier(x->rv, g->grank);
	if (ret)
		return ret;
	x->clock = 0;
	for (r = 0; r < g->n; r++) {
		t = coll_peer_of(x, r)->step_end[1];
		x->clock = t > x->clock ? t : x->clock;
	}
	return 0;
}

int pwfw_coll_run(const struct pwfw_coll *c)
{
	struct coll_ctx x = {
		.c = c,
		.isl = c->env->isl,
		.me = { .src = c->src, .dst = c->dst },
		.esize = pwfw_dtype_size(c->dtype),
	};
	struct pwfw_coll_sig sig = {
		.scope = c->env->gang_scope,
		.gang_id = c->env->gang->gang_id,
		.layout = c->grp->layout,
		.seq = c->seq,
		.group = c->grp->id,
		.n = c->grp->n,
		.op = c->op,
		.mode = c->mode,
		.dtype = c->dtype,
		.src_elems = c->src_elems,
		.dst_elems = c->dst_elems,
		.shapes = c->shapes,
	};
	struct pwfw_member me = { .src = &x.me, .dst = c->dst,
				  .dev = c->env->dev };
	bool nomem = !coll_alloc(&x);
	u64 start;
	int ret;

	/* Out of memory: a signature no one else has fails every member. */
	if (nomem)
		sig.op = 0;
	ret = pwfw_rv_join_devs(x.isl, c->env->dev, &sig, c->grp->grank, &me,
				c->grp->devs, &x.rv);
	if (nomem) {
		if (!ret)
			pwfw_rv_leave(x.rv, c->grp->grank);
		return -PWFW_ENOMEM;
	}
	if (ret)
		goto out;
	ret = coll_start(&x);
	start = x.clock;
	if (!ret)
		ret = coll_fits(c) ? coll_algorithm(&x) : -PWFW_EINVAL;
	c->env->link_ns = x.clock - start > COLL_U64_MAX - c->env->link_ns ?
			  COLL_U64_MAX : c->env->link_ns + (x.clock - start);
	/*
	 * The last step ended with a barrier; peers may still read x.me's
	 * step times, but leaving waits until every member leaves.
	 */
	pwfw_rv_leave(x.rv, c->grp->grank);
out:
	if (x.own_scratch)
		pwfw_plat_free(x.me.scratch);
	return ret;
}
