// SPDX-License-Identifier: GPL-2.0
/*
 * test_coll_gang.c - collectives when things are not as they should be,
 * and what they cost: malformed gangs, executions without a gang, skip
 * mode, members that disagree or never come, two gangs enqueued in
 * inconsistent orders, link counters and modelled time of whole-torus
 * all-reduces (both ways round), collectives in loops, and running out
 * of memory.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "coll_ref.h"
#include "coll_sim.h"

#define F32	PWTPU_DT_F32
#define BF16	PWTPU_DT_BF16
#define I32	PWTPU_DT_I32
#define AR	PWTPU_OP_ALL_REDUCE
#define AG	PWTPU_OP_ALL_GATHER
#define RS	PWTPU_OP_REDUCE_SCATTER

static const u32 iota[SIM_MAX_DEV] = { 0, 1, 2, 3, 4, 5, 6, 7 };

/* Every byte of @p is @c. */
static bool all_bytes(const void *p, u8 c, size_t n)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != c)
			return false;
	return true;
}

/* ---- pwfw_gang_check ---- */

/* 4 members on devices 0..3 in groups {0,0,1,1}, 0 <-> 1 and 2 -> 3. */
static void good_gang(struct pwtpu_gang *g)
{
	static const u32 group[] = { 0, 0, 1, 1 };
	static const u32 permute[] = { 1, 0, 3, PWTPU_NO_RANK };

	sim_gang(g, 42, 4, iota, group, permute);
	g->rank = 1;
}

FIXTURE(gang) {
	struct sim sim;
};

FIXTURE_VARIANT(gang) {
	int what;	/* which field breaks */
};

enum {
	G_ID_ZERO, G_FLAGS, G_NO_DEVICES, G_TOO_MANY, G_RANK,
	G_NOT_MINE, G_OUTSIDE, G_REPEATED, G_PERMUTE_RANGE, G_PERMUTE_GROUP,
	G_PERMUTE_TWICE, G_TAIL_DEVICE, G_TAIL_GROUP, G_TAIL_PERMUTE,
};

FIXTURE_VARIANT_ADD(gang, id_zero) { .what = G_ID_ZERO };
FIXTURE_VARIANT_ADD(gang, flags) { .what = G_FLAGS };
FIXTURE_VARIANT_ADD(gang, no_devices) { .what = G_NO_DEVICES };
FIXTURE_VARIANT_ADD(gang, too_many) { .what = G_TOO_MANY };
FIXTURE_VARIANT_ADD(gang, rank_past_end) { .what = G_RANK };
FIXTURE_VARIANT_ADD(gang, rank_not_this_device) { .what = G_NOT_MINE };
FIXTURE_VARIANT_ADD(gang, device_outside) { .what = G_OUTSIDE };
FIXTURE_VARIANT_ADD(gang, device_repeated) { .what = G_REPEATED };
FIXTURE_VARIANT_ADD(gang, permute_past_end) { .what = G_PERMUTE_RANGE };
FIXTURE_VARIANT_ADD(gang, permute_other_group) { .what = G_PERMUTE_GROUP };
FIXTURE_VARIANT_ADD(gang, permute_same_target) { .what = G_PERMUTE_TWICE };
FIXTURE_VARIANT_ADD(gang, tail_device) { .what = G_TAIL_DEVICE };
FIXTURE_VARIANT_ADD(gang, tail_group) { .what = G_TAIL_GROUP };
FIXTURE_VARIANT_ADD(gang, tail_permute) { .what = G_TAIL_PERMUTE };

FIXTURE_SETUP(gang)
{
	ASSERT_EQ(0, sim_init(&self->sim, "2x4t", 8, 1000));
}

FIXTURE_TEARDOWN(gang)
{
	sim_fini(&self->sim);
}

TEST_F(gang, good_passes_broken_fails)
{
	struct pwtpu_gang g;
	u32 dev = 1;

	good_gang(&g);
	ASSERT_EQ(0, pwfw_gang_check(self->sim.isl, dev, &g));
	switch (variant->what) {
	case G_ID_ZERO:
		g.gang_id = 0;
		break;
	case G_FLAGS:
		g.flags = 1;
		break;
	case G_NO_DEVICES:
		g.ndevices = 0;
		g.rank = 0;
		break;
	case G_TOO_MANY:
		g.ndevices = PWTPU_MAX_GANG + 1;
		break;
	case G_RANK:
		g.rank = 4;
		break;
	case G_NOT_MINE:
		dev = 2;
		break;
	case G_OUTSIDE:
		g.devices[3] = 8;
		break;
	case G_REPEATED:
		g.devices[3] = 0;
		break;
	case G_PERMUTE_RANGE:
		g.permute[3] = 4;
		break;
	case G_PERMUTE_GROUP:
		g.permute[3] = 1;
		break;
	case G_PERMUTE_TWICE:
		g.permute[2] = 0;
		g.group[2] = 0;
		g.group[3] = 0;
		break;
	case G_TAIL_DEVICE:
		g.devices[4] = 4;
		break;
	case G_TAIL_GROUP:
		g.group[PWTPU_MAX_GANG - 1] = 1;
		break;
	default:
		g.permute[4] = PWTPU_NO_RANK;
		break;
	}
	EXPECT_EQ(-PWFW_EINVAL, pwfw_gang_check(self->sim.isl, dev, &g));
}

TEST(gang_check_edges)
{
	struct pwtpu_gang g;
	struct sim sim;

	ASSERT_EQ(0, sim_init(&sim, "8", 8, 1000));
	good_gang(&g);
	EXPECT_EQ(-PWFW_EINVAL, pwfw_gang_check(NULL, 1, &g));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_gang_check(sim.isl, 1, NULL));
	/* Sending to oneself is a permutation too; so is nobody sending. */
	g.permute[2] = 2;
	g.permute[3] = PWTPU_NO_RANK;
	EXPECT_EQ(0, pwfw_gang_check(sim.isl, 1, &g));
	/* A whole island, any order, every id but 0. */
	sim_gang(&g, ~0ULL, 8, (const u32[]){ 7, 6, 5, 4, 3, 2, 1, 0 },
		 NULL, NULL);
	g.rank = 7;
	EXPECT_EQ(0, pwfw_gang_check(sim.isl, 0, &g));
	sim_fini(&sim);
}

/* ---- one collective over a few members ---- */

FIXTURE(run) {
	struct sim sim;
	struct sim_prog sp[2];
	void *mem[SIM_MAX_DEV][SIM_MAX_EXECS];
	struct sim_exec x[SIM_MAX_DEV][SIM_MAX_EXECS];
};

FIXTURE_SETUP(run)
{
	memset(self->mem, 0, sizeof(self->mem));
	memset(self->x, 0, sizeof(self->x));
	memset(self->sp, 0, sizeof(self->sp));
}

FIXTURE_TEARDOWN(run)
{
	u32 i, j;

	for (i = 0; i < SIM_MAX_DEV; i++)
		for (j = 0; j < SIM_MAX_EXECS; j++)
			free(self->mem[i][j]);
	sim_prog_free(&self->sp[0]);
	sim_prog_free(&self->sp[1]);
	if (self->sim.isl)
		sim_fini(&self->sim);
}

/* Exec @j of thread @t: program @sp, gang @g as rank @rank, fresh data. */
static void *setup_exec(struct _test_data_run *self, u32 t, u32 j,
			const struct sim_prog *sp,
			const struct pwtpu_gang *g, u32 rank)
{
	void *m = malloc(sp->bytes);

	if (!m)
		return NULL;
	free(self->mem[t][j]);
	self->mem[t][j] = m;
	sim_exec_init(&self->x[t][j], &self->sim, sp, m, g, rank);
	ref_fill((u8 *)m + sp->a_off, sp->prog.tensors[0].dtype,
		 PWTPU_REDUCE_SUM, t * 16 + j + 1, sp->a_elems);
	return m;
}

static const void *dst_of(struct _test_data_run *self, u32 t, u32 j,
			  const struct sim_prog *sp)
{
	return (const u8 *)self->mem[t][j] + sp->d_off;
}

/* i32 sums are exact whatever the order: a reference for any layout. */
static void expect_i32_sums(struct __test_metadata *_metadata,
			    struct _test_data_run *self, u32 n, u32 j,
			    const struct sim_prog *sp)
{
	u32 t, r, sum;
	u64 e;

	for (t = 0; t < n; t++) {
		for (e = 0; e < sp->d_elems; e++) {
			sum = 0;
			for (r = 0; r < n; r++)
				sum += ref_load((u8 *)self->mem[r][j] +
						sp->a_off, I32, e);
			ASSERT_EQ(sum, ref_load(dst_of(self, t, j, sp), I32, e))
				TH_LOG("device %u element %llu", t,
				       (unsigned long long)e);
		}
	}
}

TEST_F(run, env_is_required)
{
	struct pwtpu_gang g;
	struct pwfw_buf buf;
	struct sim_exec *x = &self->x[0][0];

	ASSERT_EQ(0, sim_init(&self->sim, "2", 2, 1000));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], AR, 0, F32, 1,
				   (const u32[]){ 4 }, 1, (const u32[]){ 4 }));
	sim_gang(&g, sim_gang_id(), 2, iota, NULL, NULL);
	ASSERT_NE(NULL, setup_exec(self, 0, 0, &self->sp[0], &g, 0));
	buf.base = x->mem;
	buf.size = x->size;
	EXPECT_EQ(-PWFW_EINVAL, pwfw_exec(x->prog, &buf, 1, NULL));
	x->env.gang = NULL;
	EXPECT_EQ(-PWFW_EINVAL, pwfw_exec(x->prog, &buf, 1, &x->env));
	x->env.gang = &x->gang;
	x->env.isl = NULL;
	EXPECT_EQ(-PWFW_EINVAL, pwfw_exec(x->prog, &buf, 1, &x->env));
	x->env.isl = self->sim.isl;
	x->gang.rank = 1;	/* devices[1] is not device 0 */
	EXPECT_EQ(-PWFW_EINVAL, pwfw_exec(x->prog, &buf, 1, &x->env));
	EXPECT_TRUE(all_bytes(dst_of(self, 0, 0, &self->sp[0]), SIM_POISON,
			      16));
}

/* Without collectives an env is optional, and no link time is spent. */
TEST_F(run, no_collectives_no_gang)
{
	struct pwfw_exec_env env = { .compute = true, .link_ns = 12345 };
	struct sim_prog *sp = &self->sp[0];
	struct pwfw_buf buf;
	struct tp *p;
	s32 *v;
	u16 a, d;

	p = calloc(1, sizeof(*p));
	ASSERT_NE(NULL, p);
	sp->tp = p;
	tp_reset(p, 1);
	a = TP_T(p, I32, 4);
	d = TP_T(p, I32, 4);
	tp_op(p, PWTPU_OP_ADD, d, a, a, NO);
	ASSERT_EQ(0, sim_prog_verify(sp));
	EXPECT_EQ(0U, sp->prog.ncoll);
	v = calloc(1, sp->bytes);
	ASSERT_NE(NULL, v);
	self->mem[0][0] = v;
	v[0] = 21;
	buf.base = v;
	buf.size = sp->bytes;
	EXPECT_EQ(0, pwfw_exec(&sp->prog, &buf, 1, &env));
	EXPECT_EQ(0ULL, env.link_ns);
	EXPECT_EQ(42, v[p->t[d].offset / 4]);
	/* Skip mode computes nothing. */
	env.compute = false;
	v[0] = 1;
	EXPECT_EQ(0, pwfw_exec(&sp->prog, &buf, 1, &env));
	EXPECT_EQ(42, v[p->t[d].offset / 4]);
}

/* Skip mode: the members meet and charge the links; nothing is written. */
TEST_F(run, skip_mode_charges_links_only)
{
	struct pwfw_link_stats st;
	struct pwtpu_gang g;
	u64 bytes = 0;
	u32 t, k, dir;

	ASSERT_EQ(0, sim_init(&self->sim, "4t", 4, 5000));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], AR, 0, F32, 1,
				   (const u32[]){ 1000 }, 1,
				   (const u32[]){ 1000 }));
	sim_gang(&g, sim_gang_id(), 4, iota, NULL, NULL);
	for (t = 0; t < 4; t++) {
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &g, t));
		self->x[t][0].env.compute = false;
	}
	ASSERT_EQ(0, sim_run(self->x, 4));
	for (t = 0; t < 4; t++) {
		EXPECT_EQ(0, self->x[t][0].ret);
		EXPECT_TRUE(all_bytes(dst_of(self, t, 0, &self->sp[0]),
				      SIM_POISON, 4000));
		EXPECT_LT(0ULL, self->x[t][0].env.link_ns);
		EXPECT_EQ(self->x[0][0].env.link_ns,
			  self->x[t][0].env.link_ns);
		for (k = 0; k < 3; k++)
			for (dir = 0; dir < 2; dir++) {
				pwfw_island_link_stats(self->sim.isl, t, k,
						       dir, &st);
				bytes += st.bytes;
			}
	}
	/* A ring all-reduce sends 2 (n - 1) chunks of n / 4 per member. */
	EXPECT_EQ(4ULL * 2 * 3 * 250 * 4, bytes);
}

/*
 * A step lasts as long as its slowest member's send: when one member of
 * two sends and the other does not, both spent the sender's time.
 */
TEST_F(run, step_time_is_the_slowest_send)
{
	struct pwtpu_gang g;
	u32 t;

	ASSERT_EQ(0, sim_init(&self->sim, "4", 4, 5000));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], PWTPU_OP_COLLECTIVE_PERMUTE,
				   0, F32, 1, (const u32[]){ 100 }, 1,
				   (const u32[]){ 100 }));
	/* Device 0 sends three hops to device 3, which sends nothing. */
	sim_gang(&g, sim_gang_id(), 2, (const u32[]){ 0, 3 }, NULL,
		 (const u32[]){ 1, PWTPU_NO_RANK });
	for (t = 0; t < 2; t++)
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &g, t));
	ASSERT_EQ(0, sim_run(self->x, 2));
	ASSERT_EQ(0, self->x[0][0].ret);
	ASSERT_EQ(0, self->x[1][0].ret);
	EXPECT_LT(0ULL, self->x[1][0].env.link_ns);
	EXPECT_EQ(self->x[0][0].env.link_ns, self->x[1][0].env.link_ns);
	EXPECT_EQ(0, memcmp(dst_of(self, 1, 0, &self->sp[0]),
			    (u8 *)self->mem[0][0] + self->sp[0].a_off, 400));
	EXPECT_TRUE(all_bytes(dst_of(self, 0, 0, &self->sp[0]), 0, 400));
}

/* Members that disagree all fail with EINVAL; nobody's dst is touched. */
TEST_F(run, disagreement_fails_everyone)
{
	static const struct {
		u32 op, dtype, len;
	} odd[] = {
		{ AR, F32, 12 },	/* shape */
		{ AR, BF16, 13 },	/* dtype */
		{ RS, F32, 13 },	/* op (RS of [13] onto [13]: n = 1) */
	};
	struct pwtpu_gang g;
	u32 i, t;

	ASSERT_EQ(0, sim_init(&self->sim, "2x2t", 4, 5000));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], AR, 0, F32, 1,
				   (const u32[]){ 13 }, 1,
				   (const u32[]){ 13 }));
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		sim_prog_free(&self->sp[1]);
		ASSERT_EQ(0, sim_prog_coll(&self->sp[1], odd[i].op, 0,
					   odd[i].dtype, 1, &odd[i].len, 1,
					   &odd[i].len));
		sim_gang(&g, sim_gang_id(), 4, iota, NULL, NULL);
		for (t = 0; t < 4; t++)
			ASSERT_NE(NULL, setup_exec(self, t, 0,
						   &self->sp[t == 2], &g, t));
		ASSERT_EQ(0, sim_run(self->x, 4));
		for (t = 0; t < 4; t++) {
			const struct sim_prog *sp = &self->sp[t == 2];

			EXPECT_EQ(-PWFW_EINVAL, self->x[t][0].ret)
				TH_LOG("case %u device %u", i, t);
			EXPECT_TRUE(all_bytes(dst_of(self, t, 0, sp),
					      SIM_POISON,
					      sp->d_elems * sp->esize));
		}
	}
}

/* A group whose size does not fit the shapes: all fail alike. */
TEST_F(run, group_size_must_fit)
{
	struct pwtpu_gang g;
	u32 t;

	ASSERT_EQ(0, sim_init(&self->sim, "4", 4, 5000));
	/* dst twice a: a group of 2, not 4. */
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], AG, 0, I32, 1,
				   (const u32[]){ 3 }, 1, (const u32[]){ 6 }));
	sim_gang(&g, sim_gang_id(), 4, iota, NULL, NULL);
	for (t = 0; t < 4; t++)
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &g, t));
	ASSERT_EQ(0, sim_run(self->x, 4));
	for (t = 0; t < 4; t++) {
		EXPECT_EQ(-PWFW_EINVAL, self->x[t][0].ret);
		EXPECT_TRUE(all_bytes(dst_of(self, t, 0, &self->sp[0]),
				      SIM_POISON, 24));
	}
	/* The same program in two groups of 2 is right. */
	sim_gang(&g, sim_gang_id(), 4, iota, (const u32[]){ 0, 1, 0, 1 },
		 NULL);
	for (t = 0; t < 4; t++)
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &g, t));
	ASSERT_EQ(0, sim_run(self->x, 4));
	for (t = 0; t < 4; t++) {
		ASSERT_EQ(0, self->x[t][0].ret);
		/* Group of t: t and t ^ 2, in device order. */
		EXPECT_EQ(0, memcmp(dst_of(self, t, 0, &self->sp[0]),
				    (u8 *)self->mem[t & 1][0] +
				    self->sp[0].a_off, 12));
		EXPECT_EQ(0, memcmp((const u8 *)dst_of(self, t, 0,
						       &self->sp[0]) + 12,
				    (u8 *)self->mem[(t & 1) + 2][0] +
				    self->sp[0].a_off, 12));
	}
}

/*
 * The verifier tells the host how much scratch the collectives need, so
 * that it can allocate (and account) it at submission: twice the largest
 * REDUCE_SCATTER result, nothing for the other collectives.
 */
TEST_F(run, verifier_records_the_scratch)
{
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], RS, 0, F32, 2,
				   (const u32[]){ 64, 3 }, 2,
				   (const u32[]){ 16, 3 }));
	EXPECT_EQ(2ULL * 16 * 3 * 4, self->sp[0].prog.coll_scratch);
	ASSERT_EQ(0, sim_prog_coll(&self->sp[1], AR, 0, I32, 1,
				   (const u32[]){ 8 }, 1, (const u32[]){ 8 }));
	EXPECT_EQ(0ULL, self->sp[1].prog.coll_scratch);
}

/* A member that never comes: the others time out, and say so. */
TEST_F(run, missing_member_times_out)
{
	char log[PWFW_USER_LOG_BYTES];
	struct pwtpu_gang g;
	u32 t;

	ASSERT_EQ(0, sim_init(&self->sim, "4", 4, 200));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], AR, 0, I32, 1,
				   (const u32[]){ 8 }, 1, (const u32[]){ 8 }));
	sim_gang(&g, 0xabcdef, 4, iota, NULL, NULL);
	for (t = 0; t < 3; t++)
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &g, t));
	ASSERT_EQ(0, sim_run(self->x, 3));
	for (t = 0; t < 3; t++) {
		EXPECT_EQ(-PWFW_ETIMEDOUT, self->x[t][0].ret);
		EXPECT_TRUE(all_bytes(dst_of(self, t, 0, &self->sp[0]),
				      SIM_POISON, 32));
	}
	EXPECT_LT(0U, pwfw_user_island_log(&self->sim.ui, log, sizeof(log)));
	/* The simulator runs every gang in scope 0; the id stays unsaid. */
	EXPECT_NE(NULL, strstr(log, "gang file 0 collective 0"))
		TH_LOG("log: %s", log);
	EXPECT_EQ(NULL, strstr(log, "abcdef")) TH_LOG("log: %s", log);
}

/*
 * Two gangs over the same two devices, enqueued A then B on device 0
 * and B then A on device 1: each device waits for the other. The gang
 * met first times out for both its members; its timeout frees one
 * device, which may still meet the other gang in time, so that one
 * either succeeds or times out, alike for both members. The same
 * programs in one order succeed.
 */
TEST_F(run, inconsistent_order_times_out)
{
	struct pwtpu_gang ga, gb;
	int a_ret, b_ret;
	u32 t, j;

	ASSERT_EQ(0, sim_init(&self->sim, "2", 2, 200));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], AR, 0, I32, 1,
				   (const u32[]){ 8 }, 1, (const u32[]){ 8 }));
	sim_gang(&ga, sim_gang_id(), 2, iota, NULL, NULL);
	sim_gang(&gb, sim_gang_id(), 2, iota, NULL, NULL);
	for (t = 0; t < 2; t++) {
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0],
					   t ? &gb : &ga, t));
		ASSERT_NE(NULL, setup_exec(self, t, 1, &self->sp[0],
					   t ? &ga : &gb, t));
	}
	ASSERT_EQ(0, sim_run(self->x, 2));
	/* Gang A is exec 0 of device 0 and exec 1 of device 1. */
	a_ret = self->x[0][0].ret;
	b_ret = self->x[1][0].ret;
	EXPECT_EQ(a_ret, self->x[1][1].ret);
	EXPECT_EQ(b_ret, self->x[0][1].ret);
	EXPECT_TRUE(a_ret == -PWFW_ETIMEDOUT || b_ret == -PWFW_ETIMEDOUT)
		TH_LOG("A %d, B %d", a_ret, b_ret);
	EXPECT_TRUE(!a_ret || a_ret == -PWFW_ETIMEDOUT);
	EXPECT_TRUE(!b_ret || b_ret == -PWFW_ETIMEDOUT);

	/* Fresh gangs (the failed ones stay failed), one order. */
	sim_gang(&ga, sim_gang_id(), 2, iota, NULL, NULL);
	sim_gang(&gb, sim_gang_id(), 2, iota, NULL, NULL);
	for (t = 0; t < 2; t++) {
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &ga, t));
		ASSERT_NE(NULL, setup_exec(self, t, 1, &self->sp[0], &gb, t));
	}
	ASSERT_EQ(0, sim_run(self->x, 2));
	for (t = 0; t < 2; t++)
		for (j = 0; j < 2; j++)
			ASSERT_EQ(0, self->x[t][j].ret);
	expect_i32_sums(_metadata, self, 2, 0, &self->sp[0]);
	expect_i32_sums(_metadata, self, 2, 1, &self->sp[0]);
}

/* Time a link is busy sending @bytes: docs/collectives.md's model. */
static u64 busy_ns(const struct sim *sim, u64 bytes)
{
	u64 mbps = sim->spec.ici_mbps;

	return (bytes * 1000 + mbps - 1) / mbps;
}

/* An i32 all-reduce of @elems over the whole island @mesh of @ndev. */
static void whole_island_all_reduce(struct __test_metadata *_metadata,
				    struct _test_data_run *self,
				    const char *mesh, u32 ndev, u32 elems)
{
	struct pwtpu_gang g;
	u32 t;

	ASSERT_EQ(0, sim_init(&self->sim, mesh, ndev, 5000));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], AR, 0, I32, 1,
				   (const u32[]){ elems }, 1,
				   (const u32[]){ elems }));
	sim_gang(&g, sim_gang_id(), ndev, iota, NULL, NULL);
	for (t = 0; t < ndev; t++)
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &g, t));
	ASSERT_EQ(0, sim_run(self->x, ndev));
	for (t = 0; t < ndev; t++) {
		ASSERT_EQ(0, self->x[t][0].ret);
		EXPECT_EQ(self->x[0][0].env.link_ns,
			  self->x[t][0].env.link_ns);
	}
	expect_i32_sums(_metadata, self, ndev, 0, &self->sp[0]);
}

/*
 * A 2x4 torus all-reduce runs along both axes, bidirectionally: 72000
 * i32 are cut in two halves of 144000 bytes; each is reduce-scattered in
 * halves of 72000 bytes along axis 0, then in quarters of those, 18000
 * bytes, along axis 1 (3 steps), and gathered back; the first half goes
 * over the plus links, the second over the minus links. Along axis 0
 * (extent 2) the route to the one peer is the plus link either way, so
 * both halves queue on it.
 */
TEST_F(run, torus_all_reduce_uses_both_axes_both_ways)
{
	const u64 big = 72000, small = 18000;
	struct pwfw_link_stats st;
	u64 want[2][2] = { { 2 * big, 2 * big }, { 6 * small, 6 * small } };
	u64 lat, both_ways, one_way;
	u32 t, k, dir;

	whole_island_all_reduce(_metadata, self, "2x4t", 8, 72000);
	for (t = 0; t < 8; t++)
		for (k = 0; k < 2; k++)
			for (dir = 0; dir < 2; dir++) {
				pwfw_island_link_stats(self->sim.isl, t, k,
						       dir, &st);
				EXPECT_EQ(want[k][dir], st.bytes)
					TH_LOG("device %u axis %u dir %u", t,
					       k, dir);
			}
	/*
	 * Axis 0 (extent 2, two links to the same peer): 72000 bytes each
	 * way at once. Axis 1: 18000 bytes each way at once. One way round,
	 * the steps would send twice as much over one link.
	 */
	lat = self->sim.spec.ici_latency_ns;
	both_ways = 2 * (lat + busy_ns(&self->sim, big)) +
		    6 * (lat + busy_ns(&self->sim, small));
	one_way = 2 * (lat + busy_ns(&self->sim, 2 * big)) +
		  6 * (lat + busy_ns(&self->sim, 2 * small));
	EXPECT_EQ(both_ways, self->x[0][0].env.link_ns);
	EXPECT_GT(one_way, both_ways);
	TH_LOG("2x4t all-reduce of %llu bytes: %llu ns, one way round %llu ns",
	       (unsigned long long)(4 * big),
	       (unsigned long long)self->x[0][0].env.link_ns,
	       (unsigned long long)one_way);
}

/*
 * A whole 1-D torus is one ring along its axis, bidirectional: 4000 i32
 * in halves of 2000, chunks of 500 (2000 bytes), 6 steps each way.
 */
TEST_F(run, ring_all_reduce_goes_both_ways)
{
	struct pwfw_link_stats st;
	u32 t, dir;

	whole_island_all_reduce(_metadata, self, "4t", 4, 4000);
	for (t = 0; t < 4; t++)
		for (dir = 0; dir < 2; dir++) {
			pwfw_island_link_stats(self->sim.isl, t, 0, dir, &st);
			EXPECT_EQ(6ULL * 2000, st.bytes)
				TH_LOG("device %u dir %u", t, dir);
		}
	EXPECT_EQ(6 * (self->sim.spec.ici_latency_ns +
		       busy_ns(&self->sim, 2000)),
		  self->x[0][0].env.link_ns);
}

/*
 * Collectives are numbered as they run: three trips of a loop meet three
 * unrolled copies on the other devices. x += all_reduce(x), three times.
 */
TEST_F(run, loops_number_collectives)
{
	struct sim_prog *sp = &self->sp[0];
	s32 x[3][4], y[4], got;
	struct pwtpu_gang g;
	u32 t, trip, e, k;
	struct tp *p;
	u16 a, d;

	ASSERT_EQ(0, sim_init(&self->sim, "3", 3, 5000));
	for (k = 0; k < 2; k++) {
		p = calloc(1, sizeof(*p));
		ASSERT_NE(NULL, p);
		self->sp[k].tp = p;
		tp_reset(p, 1);
		a = TP_T(p, I32, 4);
		d = TP_T(p, I32, 4);
		if (!k)
			tp_loop(p, 3, 2);
		for (trip = 0; trip < (k ? 3U : 1U); trip++) {
			tp_op(p, AR, d, a, NO, NO);
			tp_op(p, PWTPU_OP_ADD, a, a, d, NO);
		}
		ASSERT_EQ(0, sim_prog_verify(&self->sp[k]));
		EXPECT_EQ(k ? 3U : 1U, self->sp[k].prog.ncoll);
		self->sp[k].a_off = p->t[a].offset;
		self->sp[k].d_off = p->t[d].offset;
		self->sp[k].a_elems = 4;
		self->sp[k].d_elems = 4;
	}
	sim_gang(&g, sim_gang_id(), 3, iota, NULL, NULL);
	for (t = 0; t < 3; t++) {
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[t != 0], &g,
					   t));
		memcpy(x[t], (u8 *)self->mem[t][0] + sp->a_off, sizeof(x[t]));
	}
	ASSERT_EQ(0, sim_run(self->x, 3));
	for (trip = 0; trip < 3; trip++) {
		for (e = 0; e < 4; e++) {
			y[e] = 0;
			for (t = 0; t < 3; t++)
				y[e] = (s32)((u32)y[e] + (u32)x[t][e]);
		}
		for (t = 0; t < 3; t++)
			for (e = 0; e < 4; e++)
				x[t][e] = (s32)((u32)x[t][e] + (u32)y[e]);
	}
	for (t = 0; t < 3; t++) {
		ASSERT_EQ(0, self->x[t][0].ret);
		for (e = 0; e < 4; e++) {
			memcpy(&got, (u8 *)self->mem[t][0] + sp->a_off + 4 * e,
			       4);
			EXPECT_EQ(x[t][e], got) TH_LOG("device %u elem %u", t,
						       e);
		}
	}
}

/* Out of memory for the scratch of a reduce-scatter: all fail, no hang. */
TEST_F(run, out_of_memory_fails_everyone)
{
	struct pwtpu_gang g;
	u32 t;

	ASSERT_EQ(0, sim_init(&self->sim, "4", 4, 5000));
	ASSERT_EQ(0, sim_prog_coll(&self->sp[0], RS, 0, F32, 1,
				   (const u32[]){ 8 }, 1, (const u32[]){ 2 }));
	sim_gang(&g, sim_gang_id(), 4, iota, NULL, NULL);
	for (t = 0; t < 4; t++)
		ASSERT_NE(NULL, setup_exec(self, t, 0, &self->sp[0], &g, t));
	pwfw_user_zalloc_fail_after(0);
	ASSERT_EQ(0, sim_run(self->x, 4));
	pwfw_user_zalloc_fail_after(-1);
	for (t = 0; t < 4; t++) {
		EXPECT_EQ(-PWFW_ENOMEM, self->x[t][0].ret);
		EXPECT_TRUE(all_bytes(dst_of(self, t, 0, &self->sp[0]),
				      SIM_POISON, 8));
	}
}

TEST_HARNESS_MAIN
