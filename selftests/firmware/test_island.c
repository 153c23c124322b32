// SPDX-License-Identifier: GPL-2.0
/*
 * test_island.c - the island's mesh links: neighbours on meshes and tori
 * of 1 to 3 dimensions (extents 1 and 2 included), dimension-ordered
 * routing (every link of the path charged, no other), the per-link token
 * bucket with cut-through hops, counters and saturation. The clock is
 * frozen, so modelled times are exact. The rendezvous is in test_rv.c.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "../../firmware/pwfw.h"
#include "../../firmware/pwfw_island.h"
#include "../../firmware/user/pwfw_user.h"

#define NO	PWTPU_NO_DEVICE
#define MINUS	0
#define PLUS	1
#define MAX_DEV	64U
#define U64_SAT	(~0ULL)

/* An island on @text of @ndev devices; ici_mbps and ici_latency_ns set. */
static struct pwfw_island *island_new(struct pwfw_user_island *ui,
				      const char *text, u32 ndev, u32 mbps,
				      u32 latency)
{
	struct pwfw_spec spec;
	struct pwfw_mesh mesh;
	char err[96];

	if (pwfw_mesh_parse(&mesh, text, ndev, err, sizeof(err)) ||
	    pwfw_user_island_init(ui))
		return NULL;
	pwfw_spec_default(&spec);
	spec.ici_mbps = mbps;
	spec.ici_latency_ns = latency;
	return pwfw_island_create(ui, &spec, &mesh, ndev, 1000000000ULL);
}

static void island_free(struct pwfw_user_island *ui, struct pwfw_island *isl)
{
	pwfw_island_destroy(isl);
	pwfw_user_island_destroy(ui);
}

/* The reference topology, from coordinates and modular arithmetic. */
struct ref_mesh {
	u32 ndims;
	u32 shape[3];
	bool torus;
};

static u32 ref_ndev(const struct ref_mesh *m)
{
	u32 i, n = 1;

	for (i = 0; i < m->ndims; i++)
		n *= m->shape[i];
	return n;
}

static void ref_coords(const struct ref_mesh *m, u32 dev, u32 c[3])
{
	int i;

	for (i = (int)m->ndims - 1; i >= 0; i--) {
		c[i] = dev % m->shape[i];
		dev /= m->shape[i];
	}
}

static u32 ref_index(const struct ref_mesh *m, const u32 c[3])
{
	u32 i, dev = 0;

	for (i = 0; i < m->ndims; i++)
		dev = dev * m->shape[i] + c[i];
	return dev;
}

static u32 ref_neighbor(const struct ref_mesh *m, u32 dev, u32 axis, u32 dir)
{
	u32 c[3];
	long v, e;

	if (axis >= m->ndims || m->shape[axis] < 2)
		return NO;
	ref_coords(m, dev, c);
	e = m->shape[axis];
	v = (long)c[axis] + (dir == PLUS ? 1 : -1);
	if (v < 0 || v >= e) {
		if (!m->torus)
			return NO;
		v = (v + e) % e;
	}
	c[axis] = (u32)v;
	return ref_index(m, c);
}

struct ref_hop {
	u32 from;
	u32 axis;
	u32 dir;
	u32 to;
};

/* Lowest axis first; on a torus the shorter way, plus on a tie. */
static u32 ref_route(const struct ref_mesh *m, u32 src, u32 dst,
		     struct ref_hop *hops)
{
	u32 c[3], d[3], axis, n = 0;

	ref_coords(m, src, c);
	ref_coords(m, dst, d);
	for (axis = 0; axis < m->ndims; axis++) {
		u32 e = m->shape[axis];

		while (c[axis] != d[axis]) {
			u32 fwd = (d[axis] + e - c[axis]) % e;
			u32 dir;

			if (m->torus)
				dir = fwd <= e - fwd ? PLUS : MINUS;
			else
				dir = d[axis] > c[axis] ? PLUS : MINUS;
			hops[n].from = ref_index(m, c);
			hops[n].axis = axis;
			hops[n].dir = dir;
			c[axis] = (c[axis] + (dir == PLUS ? 1 : e - 1)) % e;
			hops[n].to = ref_index(m, c);
			n++;
		}
	}
	return n;
}

/* ceil(bytes * 1000 / mbps), for small byte counts. */
static u64 ref_send_ns(u64 bytes, u64 mbps)
{
	return (bytes * 1000 + mbps - 1) / mbps;
}

FIXTURE(topo) {
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct ref_mesh ref;
};

FIXTURE_VARIANT(topo) {
	const char *text;
	u32 ndims;
	u32 shape[3];
	bool torus;
};

#define TOPO(name, t, dims, s0, s1, s2, tor) \
	FIXTURE_VARIANT_ADD(topo, name) { \
		.text = t, .ndims = dims, .shape = { s0, s1, s2 }, \
		.torus = tor, \
	}

TOPO(one, "1", 1, 1, 0, 0, false);
TOPO(one_torus, "1t", 1, 1, 0, 0, true);
TOPO(line, "8", 1, 8, 0, 0, false);
TOPO(ring, "8t", 1, 8, 0, 0, true);
TOPO(ring7, "7t", 1, 7, 0, 0, true);
TOPO(pair_torus, "2t", 1, 2, 0, 0, true);
TOPO(flat, "1x5", 2, 1, 5, 0, false);
TOPO(flat_torus, "1x5t", 2, 1, 5, 0, true);
TOPO(grid, "2x4", 2, 2, 4, 0, false);
TOPO(grid_torus, "2x4t", 2, 2, 4, 0, true);
TOPO(square_torus, "4x4t", 2, 4, 4, 0, true);
TOPO(cube, "2x2x2", 3, 2, 2, 2, false);
TOPO(cube_torus, "2x2x2t", 3, 2, 2, 2, true);
TOPO(box_torus, "2x3x4t", 3, 2, 3, 4, true);
TOPO(box_odd, "3x1x3", 3, 3, 1, 3, false);
TOPO(box_odd_torus, "3x1x2t", 3, 3, 1, 2, true);

FIXTURE_SETUP(topo)
{
	self->ref.ndims = variant->ndims;
	memcpy(self->ref.shape, variant->shape, sizeof(self->ref.shape));
	self->ref.torus = variant->torus;
	pwfw_user_clock_freeze(1000);
	self->isl = island_new(&self->ui, variant->text, ref_ndev(&self->ref),
			       1000, 100);
	ASSERT_NE(NULL, self->isl);
}

FIXTURE_TEARDOWN(topo)
{
	island_free(&self->ui, self->isl);
	pwfw_user_clock_thaw();
}

TEST_F(topo, neighbors_match_reference)
{
	u32 ndev = ref_ndev(&self->ref);
	u32 dev, axis, dir;

	ASSERT_EQ(ndev, pwfw_island_ndev(self->isl));
	for (dev = 0; dev < ndev; dev++)
		for (axis = 0; axis < 4; axis++)
			for (dir = 0; dir < 3; dir++)
				EXPECT_EQ(dir > PLUS ? NO :
					  ref_neighbor(&self->ref, dev, axis,
						       dir),
					  pwfw_island_neighbor(self->isl, dev,
							       axis, dir))
					TH_LOG("dev %u axis %u dir %u", dev,
					       axis, dir);
	EXPECT_EQ(NO, pwfw_island_neighbor(self->isl, ndev, 0, PLUS));
	EXPECT_EQ(NO, pwfw_island_neighbor(self->isl, NO, 0, MINUS));
}

/* Stats of every link, [dev][axis][dir]. */
static void all_stats(struct pwfw_island *isl, u32 ndev,
		      struct pwfw_link_stats s[MAX_DEV][3][2])
{
	u32 dev, axis, dir;

	for (dev = 0; dev < ndev; dev++)
		for (axis = 0; axis < 3; axis++)
			for (dir = 0; dir < 2; dir++)
				pwfw_island_link_stats(isl, dev, axis, dir,
						       &s[dev][axis][dir]);
}

/* How often @path leaves @dev along @axis in direction @dir. */
static u64 path_uses(const struct ref_hop *path, u32 n, u32 dev, u32 axis,
		     u32 dir)
{
	u64 used = 0;
	u32 h;

	for (h = 0; h < n; h++)
		used += path[h].from == dev && path[h].axis == axis &&
			path[h].dir == dir;
	return used;
}

/*
 * Every pair: the transfer charges exactly the links of the reference
 * path, traces its hops in order, and with idle links takes one latency
 * per hop plus one serialisation (cut-through).
 */
TEST_F(topo, every_pair_routes_dimension_ordered)
{
	static struct pwfw_link_stats before[MAX_DEV][3][2];
	static struct pwfw_link_stats after[MAX_DEV][3][2];
	u32 ndev = ref_ndev(&self->ref);
	struct ref_hop path[3 * MAX_DEV];
	u64 now = 1000, bytes = 100, used;
	u32 src, dst, dev, axis, dir, h, n;

	ASSERT_LE(ndev, MAX_DEV);
	for (src = 0; src < ndev; src++) {
		for (dst = 0; dst < ndev; dst++) {
			n = ref_route(&self->ref, src, dst, path);
			all_stats(self->isl, ndev, before);
			self->ui.nhops = 0;
			bytes++;
			/* Far past every earlier hop: all links idle. */
			now += 1000000;
			pwfw_user_clock_freeze(now);
			EXPECT_EQ(n ? n * 100 + ref_send_ns(bytes, 1000) : 0,
				  pwfw_island_transfer(self->isl, src, dst,
						       bytes))
				TH_LOG("%u -> %u", src, dst);
			all_stats(self->isl, ndev, after);
			for (dev = 0; dev < ndev; dev++) {
				for (axis = 0; axis < 3; axis++) {
					for (dir = 0; dir < 2; dir++) {
						used = path_uses(path, n, dev,
								 axis, dir);
						EXPECT_EQ(before[dev][axis][dir].transfers + used,
							  after[dev][axis][dir].transfers);
						EXPECT_EQ(before[dev][axis][dir].bytes + used * bytes,
							  after[dev][axis][dir].bytes);
					}
				}
			}
			ASSERT_EQ(n, self->ui.nhops);
			for (h = 0; h < n; h++) {
				EXPECT_EQ(path[h].from, self->ui.hops[h].from);
				EXPECT_EQ(path[h].to, self->ui.hops[h].to);
				EXPECT_EQ(bytes, self->ui.hops[h].bytes);
			}
		}
	}
}

/* Hand-checked cases, independent of the reference code above. */
TEST(neighbors_by_hand)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;

	isl = island_new(&ui, "8", 8, 1000, 0);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(NO, pwfw_island_neighbor(isl, 0, 0, MINUS));
	EXPECT_EQ(1U, pwfw_island_neighbor(isl, 0, 0, PLUS));
	EXPECT_EQ(6U, pwfw_island_neighbor(isl, 7, 0, MINUS));
	EXPECT_EQ(NO, pwfw_island_neighbor(isl, 7, 0, PLUS));
	EXPECT_EQ(NO, pwfw_island_neighbor(isl, 3, 1, PLUS));
	island_free(&ui, isl);

	isl = island_new(&ui, "8t", 8, 1000, 0);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(7U, pwfw_island_neighbor(isl, 0, 0, MINUS));
	EXPECT_EQ(0U, pwfw_island_neighbor(isl, 7, 0, PLUS));
	island_free(&ui, isl);

	/* Extent 2 on a torus: one peer, reached by two links. */
	isl = island_new(&ui, "2t", 2, 1000, 0);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(1U, pwfw_island_neighbor(isl, 0, 0, MINUS));
	EXPECT_EQ(1U, pwfw_island_neighbor(isl, 0, 0, PLUS));
	EXPECT_EQ(0U, pwfw_island_neighbor(isl, 1, 0, MINUS));
	EXPECT_EQ(0U, pwfw_island_neighbor(isl, 1, 0, PLUS));
	island_free(&ui, isl);

	/* Device 5 of 2x4 is (1,1). */
	isl = island_new(&ui, "2x4", 8, 1000, 0);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(1U, pwfw_island_neighbor(isl, 5, 0, MINUS));
	EXPECT_EQ(NO, pwfw_island_neighbor(isl, 5, 0, PLUS));
	EXPECT_EQ(4U, pwfw_island_neighbor(isl, 5, 1, MINUS));
	EXPECT_EQ(6U, pwfw_island_neighbor(isl, 5, 1, PLUS));
	island_free(&ui, isl);

	/* Device 0 of 2x3x4t: strides 12, 4, 1. */
	isl = island_new(&ui, "2x3x4t", 24, 1000, 0);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(12U, pwfw_island_neighbor(isl, 0, 0, MINUS));
	EXPECT_EQ(12U, pwfw_island_neighbor(isl, 0, 0, PLUS));
	EXPECT_EQ(8U, pwfw_island_neighbor(isl, 0, 1, MINUS));
	EXPECT_EQ(4U, pwfw_island_neighbor(isl, 0, 1, PLUS));
	EXPECT_EQ(3U, pwfw_island_neighbor(isl, 0, 2, MINUS));
	EXPECT_EQ(1U, pwfw_island_neighbor(isl, 0, 2, PLUS));
	island_free(&ui, isl);

	/* An axis of extent 1 has no links, even on a torus. */
	isl = island_new(&ui, "1x5t", 5, 1000, 0);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(NO, pwfw_island_neighbor(isl, 2, 0, MINUS));
	EXPECT_EQ(NO, pwfw_island_neighbor(isl, 2, 0, PLUS));
	EXPECT_EQ(4U, pwfw_island_neighbor(isl, 0, 1, MINUS));
	island_free(&ui, isl);
}

/* The hops of one transfer, as traced. */
static void expect_path(struct __test_metadata *_metadata,
			struct pwfw_user_island *ui, const u32 *devs, u32 n)
{
	u32 h;

	ASSERT_EQ(n - 1, ui->nhops);
	for (h = 0; h + 1 < n; h++) {
		EXPECT_EQ(devs[h], ui->hops[h].from);
		EXPECT_EQ(devs[h + 1], ui->hops[h].to);
	}
	ui->nhops = 0;
}

TEST(routes_by_hand)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct pwfw_link_stats s;

	pwfw_user_clock_freeze(0);
	isl = island_new(&ui, "8t", 8, 1000, 10);
	ASSERT_NE(NULL, isl);
	/* 5 ahead or 3 behind: behind. */
	pwfw_island_transfer(isl, 0, 5, 1);
	expect_path(_metadata, &ui, (const u32[]){ 0, 7, 6, 5 }, 4);
	/* 4 either way: plus. */
	pwfw_island_transfer(isl, 0, 4, 1);
	expect_path(_metadata, &ui, (const u32[]){ 0, 1, 2, 3, 4 }, 5);
	island_free(&ui, isl);

	isl = island_new(&ui, "2x4t", 8, 1000, 10);
	ASSERT_NE(NULL, isl);
	/* (0,0) -> (1,3): axis 0 first, then one hop back round axis 1. */
	pwfw_island_transfer(isl, 0, 7, 1);
	expect_path(_metadata, &ui, (const u32[]){ 0, 4, 7 }, 3);
	island_free(&ui, isl);

	isl = island_new(&ui, "2x4", 8, 1000, 10);
	ASSERT_NE(NULL, isl);
	pwfw_island_transfer(isl, 7, 0, 1);
	expect_path(_metadata, &ui, (const u32[]){ 7, 3, 2, 1, 0 }, 5);
	island_free(&ui, isl);

	/* Extent 2 torus, a tie both ways: the plus link, from either end. */
	isl = island_new(&ui, "2t", 2, 1000, 10);
	ASSERT_NE(NULL, isl);
	pwfw_island_transfer(isl, 1, 0, 7);
	pwfw_island_link_stats(isl, 1, 0, PLUS, &s);
	EXPECT_EQ(7U, s.bytes);
	pwfw_island_link_stats(isl, 1, 0, MINUS, &s);
	EXPECT_EQ(0U, s.bytes);
	island_free(&ui, isl);
	pwfw_user_clock_thaw();
}

/*
 * Token bucket: 1000 MB/s (one byte per ns), 100 ns per hop, 10000-byte
 * transfers (10000 ns each). The clock stands still unless moved.
 */
FIXTURE(bucket) {
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
};

FIXTURE_SETUP(bucket)
{
	pwfw_user_clock_freeze(5000);
	self->isl = island_new(&self->ui, "4", 4, 1000, 100);
	ASSERT_NE(NULL, self->isl);
}

FIXTURE_TEARDOWN(bucket)
{
	island_free(&self->ui, self->isl);
	pwfw_user_clock_thaw();
}

TEST_F(bucket, back_to_back_transfers_queue_on_one_link)
{
	struct pwfw_link_stats s;

	EXPECT_EQ(10100U, pwfw_island_transfer(self->isl, 0, 1, 10000));
	EXPECT_EQ(20100U, pwfw_island_transfer(self->isl, 0, 1, 10000));
	EXPECT_EQ(30100U, pwfw_island_transfer(self->isl, 0, 1, 10000));
	pwfw_island_link_stats(self->isl, 0, 0, PLUS, &s);
	EXPECT_EQ(30000U, s.bytes);
	EXPECT_EQ(3U, s.transfers);
	EXPECT_EQ(30000U, s.busy_ns);
	/* Once the link has drained, no queue. */
	pwfw_user_clock_freeze(5000 + 30000);
	EXPECT_EQ(10100U, pwfw_island_transfer(self->isl, 0, 1, 10000));
	/* Part way through a send, the rest of it. */
	pwfw_user_clock_freeze(5000 + 30000 + 4000);
	EXPECT_EQ(6000U + 10100U, pwfw_island_transfer(self->isl, 0, 1, 10000));
}

TEST_F(bucket, disjoint_links_do_not_queue)
{
	struct pwfw_link_stats s;

	EXPECT_EQ(10100U, pwfw_island_transfer(self->isl, 0, 1, 10000));
	EXPECT_EQ(10100U, pwfw_island_transfer(self->isl, 2, 3, 10000));
	/* The other direction of the same cable is its own link. */
	EXPECT_EQ(10100U, pwfw_island_transfer(self->isl, 1, 0, 10000));
	EXPECT_EQ(10100U, pwfw_island_transfer(self->isl, 3, 2, 10000));
	pwfw_island_link_stats(self->isl, 1, 0, MINUS, &s);
	EXPECT_EQ(1U, s.transfers);
	pwfw_island_link_stats(self->isl, 1, 0, PLUS, &s);
	EXPECT_EQ(0U, s.transfers);
}

TEST_F(bucket, hops_cut_through_and_wait_for_busy_links)
{
	struct pwfw_link_stats s;

	/* Three idle hops: starts at 0, 100, 200; last byte at 10300. */
	EXPECT_EQ(10300U, pwfw_island_transfer(self->isl, 0, 3, 10000));
	/* Link 1+ is busy from 100 to 10100: start there, end 20200. */
	EXPECT_EQ(20200U, pwfw_island_transfer(self->isl, 1, 2, 10000));
	/* Link 2+ is busy until 10200. */
	EXPECT_EQ(20300U, pwfw_island_transfer(self->isl, 2, 3, 10000));
	/*
	 * 0+ is free at 10000, data reaches 1 at 10100; 1+ is busy until
	 * 20100 (the second transfer): start there, reach 2 at 20200 when
	 * 2+ frees up; the last byte is at 3 at 20200 + 100 + 10000.
	 */
	EXPECT_EQ(30300U, pwfw_island_transfer(self->isl, 0, 3, 10000));
	pwfw_island_link_stats(self->isl, 1, 0, PLUS, &s);
	EXPECT_EQ(3U, s.transfers);
	EXPECT_EQ(30000U, s.busy_ns);
}

TEST_F(bucket, a_later_hop_waits_for_its_link)
{
	EXPECT_EQ(10100U, pwfw_island_transfer(self->isl, 1, 2, 10000));
	/* 0+ at 0, arrives at 1 at 100, 1+ busy until 10000. */
	EXPECT_EQ(10000U + 100U + 10000U,
		  pwfw_island_transfer(self->isl, 0, 2, 10000));
}

/*
 * A sender that names its link: on "4" (no wraparound) device 0 has no
 * minus link, so nothing is charged; its plus link queues like a route.
 * On an extent-2 torus both links reach the same peer and are separate.
 */
TEST_F(bucket, send_on_a_named_link)
{
	struct pwfw_user_island ui;
	struct pwfw_link_stats s;
	struct pwfw_island *t2;

	EXPECT_EQ(777U, pwfw_island_send_at(self->isl, 0, 0, MINUS, 10000,
					    777));
	EXPECT_EQ(777U, pwfw_island_send_at(self->isl, 0, 1, PLUS, 10000,
					    777));
	EXPECT_EQ(777U, pwfw_island_send_at(self->isl, 9, 0, PLUS, 10000,
					    777));
	EXPECT_EQ(0U, self->ui.nhops);
	EXPECT_EQ(5000U + 10100U,
		  pwfw_island_send_at(self->isl, 0, 0, PLUS, 10000, 5000));
	EXPECT_EQ(5000U + 20100U,
		  pwfw_island_send_at(self->isl, 0, 0, PLUS, 10000, 5000));

	t2 = island_new(&ui, "2t", 2, 1000, 100);
	ASSERT_NE(NULL, t2);
	EXPECT_EQ(10100U, pwfw_island_send_at(t2, 0, 0, PLUS, 10000, 0));
	EXPECT_EQ(10100U, pwfw_island_send_at(t2, 0, 0, MINUS, 10000, 0));
	pwfw_island_link_stats(t2, 0, 0, MINUS, &s);
	EXPECT_EQ(10000U, s.bytes);
	pwfw_island_link_stats(t2, 0, 0, PLUS, &s);
	EXPECT_EQ(10000U, s.bytes);
	island_free(&ui, t2);
}

TEST_F(bucket, zero_bytes_and_same_device)
{
	struct pwfw_link_stats s;

	EXPECT_EQ(0U, pwfw_island_transfer(self->isl, 2, 2, 10000));
	EXPECT_EQ(0U, pwfw_island_transfer(self->isl, 0, 4, 10000));
	EXPECT_EQ(0U, pwfw_island_transfer(self->isl, 4, 0, 10000));
	EXPECT_EQ(0U, self->ui.nhops);
	/* Nothing to send still pays each hop's latency. */
	EXPECT_EQ(300U, pwfw_island_transfer(self->isl, 0, 3, 0));
	pwfw_island_link_stats(self->isl, 1, 0, PLUS, &s);
	EXPECT_EQ(0U, s.bytes);
	EXPECT_EQ(1U, s.transfers);
	EXPECT_EQ(0U, s.busy_ns);
	/* A link the mesh does not have reads as zeros. */
	pwfw_island_link_stats(self->isl, 3, 0, PLUS, &s);
	EXPECT_EQ(0U, s.transfers);
	pwfw_island_link_stats(self->isl, 0, 1, PLUS, &s);
	EXPECT_EQ(0U, s.transfers);
}

TEST(rates_round_up_and_latency_may_be_zero)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;

	pwfw_user_clock_freeze(0);
	isl = island_new(&ui, "4", 4, 3, 0);
	ASSERT_NE(NULL, isl);
	/* 10 bytes at 3 bytes/us: 3333.3 ns, rounded up. */
	EXPECT_EQ(3334U, pwfw_island_transfer(isl, 0, 3, 10));
	island_free(&ui, isl);
	pwfw_user_clock_thaw();
}

TEST(times_and_counters_saturate)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct pwfw_link_stats s;

	pwfw_user_clock_freeze(5);
	isl = island_new(&ui, "2", 2, 1, 4000000000U);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(U64_SAT - 5, pwfw_island_transfer(isl, 0, 1, U64_SAT));
	EXPECT_EQ(U64_SAT - 5, pwfw_island_transfer(isl, 0, 1, U64_SAT));
	pwfw_island_link_stats(isl, 0, 0, PLUS, &s);
	EXPECT_EQ(U64_SAT, s.bytes);
	EXPECT_EQ(U64_SAT, s.busy_ns);
	EXPECT_EQ(2U, s.transfers);
	/* 2^63 bytes at 1 MB/s is far past 2^64 ns. */
	EXPECT_EQ(U64_SAT - 5, pwfw_island_transfer(isl, 1, 0, 1ULL << 63));
	island_free(&ui, isl);
	pwfw_user_clock_thaw();
}

TEST(create_refuses_bad_meshes_and_survives_no_memory)
{
	struct pwfw_mesh mesh = { .ndims = 2, .shape = { 2, 4 } };
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct pwfw_spec spec;
	long ok;

	pwfw_spec_default(&spec);
	ASSERT_EQ(0, pwfw_user_island_init(&ui));
	EXPECT_EQ(NULL, pwfw_island_create(&ui, &spec, &mesh, 9, 1));
	EXPECT_EQ(NULL, pwfw_island_create(&ui, &spec, &mesh, 0, 1));
	mesh.ndims = 0;
	EXPECT_EQ(NULL, pwfw_island_create(&ui, &spec, &mesh, 1, 1));
	mesh.ndims = 4;
	EXPECT_EQ(NULL, pwfw_island_create(&ui, &spec, &mesh, 8, 1));
	mesh = (struct pwfw_mesh){ .ndims = 2, .shape = { 0, 4 } };
	EXPECT_EQ(NULL, pwfw_island_create(&ui, &spec, &mesh, 0, 1));
	/* 65536 x 65536 is not 0 devices. */
	mesh = (struct pwfw_mesh){ .ndims = 2, .shape = { 65536, 65536 } };
	EXPECT_EQ(NULL, pwfw_island_create(&ui, &spec, &mesh, 0, 1));

	/* Each allocation failing in turn: NULL, and nothing leaks. */
	mesh = (struct pwfw_mesh){ .ndims = 2, .shape = { 2, 4 } };
	for (ok = 0; ok < 16; ok++) {
		pwfw_user_zalloc_fail_after(ok);
		isl = pwfw_island_create(&ui, &spec, &mesh, 8, 1);
		pwfw_user_zalloc_fail_after(-1);
		if (isl)
			break;
	}
	ASSERT_NE(NULL, isl);
	EXPECT_LT(0, ok);
	EXPECT_EQ(8U, pwfw_island_ndev(isl));
	island_free(&ui, isl);
}

TEST_HARNESS_MAIN
