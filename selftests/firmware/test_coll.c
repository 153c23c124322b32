// SPDX-License-Identifier: GPL-2.0
/*
 * test_coll.c - every collective, dtype and reduction mode, on simulated
 * islands (one thread per device), against references in the order that
 * docs/collectives.md fixes: exact bits, for 2, 4, 6 and 8 devices, 1-D,
 * 2x4 and 2x2x2 meshes and tori of 1 to 3 dimensions (bidirectional
 * rings), the whole island and replica groups (neighbours and not),
 * element counts that do not divide evenly.
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
#define I8	PWTPU_DT_I8
#define I32	PWTPU_DT_I32

static const u32 reduce_dtypes[] = { F32, BF16, I32 };
static const u32 all_dtypes[] = { F32, BF16, I8, I32 };

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/**
 * struct group - one replica group of a layout
 * @m: members.
 * @ranks: their gang ranks, in group-rank order.
 */
struct group {
	u32 m;
	u32 ranks[SIM_MAX_DEV];
};

FIXTURE(layout) {
	struct sim sim;
	struct group groups[SIM_MAX_DEV];
	u32 ngroups;
	u32 of_rank[SIM_MAX_DEV];	/* group index of each gang rank */
	void *mem[SIM_MAX_DEV];
	u32 ncases;
};

/*
 * @mesh: the island; @n gang members on devices @devs in groups @group;
 * @ext: the mesh's extents when ALL_REDUCE runs per axis (the group is
 * the whole island of a torus or of two or more axes), else all 0.
 */
FIXTURE_VARIANT(layout) {
	const char *mesh;
	u32 ndev;
	u32 n;
	u32 devs[SIM_MAX_DEV];
	u32 group[SIM_MAX_DEV];
	u32 ext[3];
};

FIXTURE_VARIANT_ADD(layout, line2) {
	.mesh = "2", .ndev = 2, .n = 2, .devs = { 0, 1 },
};

FIXTURE_VARIANT_ADD(layout, line4) {
	.mesh = "4", .ndev = 4, .n = 4, .devs = { 0, 1, 2, 3 },
};

FIXTURE_VARIANT_ADD(layout, line8) {
	.mesh = "8", .ndev = 8, .n = 8, .devs = { 0, 1, 2, 3, 4, 5, 6, 7 },
};

/* Group ranks run against the devices: the ring follows the ranks. */
FIXTURE_VARIANT_ADD(layout, line8_shuffled) {
	.mesh = "8", .ndev = 8, .n = 8, .devs = { 3, 0, 6, 1, 7, 2, 5, 4 },
};

/* A whole 1-D torus: one bidirectional ring along the mesh. */
FIXTURE_VARIANT_ADD(layout, ring8_shuffled) {
	.mesh = "8t", .ndev = 8, .n = 8, .devs = { 3, 0, 6, 1, 7, 2, 5, 4 },
	.ext = { 8, 1, 1 },
};

FIXTURE_VARIANT_ADD(layout, ring2) {
	.mesh = "2t", .ndev = 2, .n = 2, .devs = { 1, 0 }, .ext = { 2, 1, 1 },
};

FIXTURE_VARIANT_ADD(layout, torus2x4) {
	.mesh = "2x4t", .ndev = 8, .n = 8, .devs = { 0, 1, 2, 3, 4, 5, 6, 7 },
	.ext = { 2, 4, 1 },
};

/* The per-axis order follows the mesh, whatever the ranks. */
FIXTURE_VARIANT_ADD(layout, torus2x4_shuffled) {
	.mesh = "2x4t", .ndev = 8, .n = 8, .devs = { 5, 2, 7, 0, 3, 6, 1, 4 },
	.ext = { 2, 4, 1 },
};

FIXTURE_VARIANT_ADD(layout, mesh2x4) {
	.mesh = "2x4", .ndev = 8, .n = 8, .devs = { 0, 1, 2, 3, 4, 5, 6, 7 },
	.ext = { 2, 4, 1 },
};

FIXTURE_VARIANT_ADD(layout, mesh2x2x2) {
	.mesh = "2x2x2", .ndev = 8, .n = 8,
	.devs = { 0, 1, 2, 3, 4, 5, 6, 7 }, .ext = { 2, 2, 2 },
};

FIXTURE_VARIANT_ADD(layout, torus2x2x2) {
	.mesh = "2x2x2t", .ndev = 8, .n = 8,
	.devs = { 0, 1, 2, 3, 4, 5, 6, 7 }, .ext = { 2, 2, 2 },
};

/* A ring of 3: uneven chunks of uneven halves. */
FIXTURE_VARIANT_ADD(layout, torus3x2) {
	.mesh = "3x2t", .ndev = 6, .n = 6, .devs = { 0, 1, 2, 3, 4, 5 },
	.ext = { 3, 2, 1 },
};

/* Half the island: one ring, not per axis. */
FIXTURE_VARIANT_ADD(layout, torus2x4_row) {
	.mesh = "2x4t", .ndev = 8, .n = 4, .devs = { 4, 5, 6, 7 },
};

/* Two groups of 4 in a gang of 8: the rows, neighbours in a ring. */
FIXTURE_VARIANT_ADD(layout, two_rows) {
	.mesh = "2x4t", .ndev = 8, .n = 8, .devs = { 0, 1, 2, 3, 4, 5, 6, 7 },
	.group = { 0, 0, 0, 0, 1, 1, 1, 1 },
};

/* Two groups of 4 whose members are not neighbours. */
FIXTURE_VARIANT_ADD(layout, two_strided) {
	.mesh = "8", .ndev = 8, .n = 8, .devs = { 0, 1, 2, 3, 4, 5, 6, 7 },
	.group = { 7, 3, 7, 3, 7, 3, 7, 3 },
};

/* Four pairs along the first axis of a cube. */
FIXTURE_VARIANT_ADD(layout, cube_pairs) {
	.mesh = "2x2x2", .ndev = 8, .n = 8,
	.devs = { 0, 1, 2, 3, 4, 5, 6, 7 }, .group = { 0, 1, 2, 3, 0, 1, 2, 3 },
};

/* Three scattered devices of eight. */
FIXTURE_VARIANT_ADD(layout, three_of_eight) {
	.mesh = "8", .ndev = 8, .n = 3, .devs = { 6, 1, 4 },
};

/* One member: collectives degenerate to copies. */
FIXTURE_VARIANT_ADD(layout, single) {
	.mesh = "4", .ndev = 4, .n = 1, .devs = { 2 },
};

FIXTURE_SETUP(layout)
{
	u32 r, g;

	ASSERT_EQ(0, sim_init(&self->sim, variant->mesh, variant->ndev,
			      5000));
	self->ngroups = 0;
	for (r = 0; r < variant->n; r++) {
		for (g = 0; g < self->ngroups; g++)
			if (variant->group[self->groups[g].ranks[0]] ==
			    variant->group[r])
				break;
		if (g == self->ngroups)
			self->groups[self->ngroups++].m = 0;
		self->groups[g].ranks[self->groups[g].m++] = r;
		self->of_rank[r] = g;
	}
	/* One program serves every group: they are of one size. */
	for (g = 1; g < self->ngroups; g++)
		ASSERT_EQ(self->groups[0].m, self->groups[g].m);
	self->ncases = 0;
	for (r = 0; r < SIM_MAX_DEV; r++)
		self->mem[r] = NULL;
}

FIXTURE_TEARDOWN(layout)
{
	u32 r;

	for (r = 0; r < SIM_MAX_DEV; r++)
		free(self->mem[r]);
	sim_fini(&self->sim);
}

/* Member @r's a, in its memory. */
static const void *src_of(struct _test_data_layout *self,
			  const struct sim_prog *sp, u32 r)
{
	return (const u8 *)self->mem[r] + sp->a_off;
}

/*
 * Permutation of a layout: within each group, member i sends to member
 * i + 1, the last to nobody (so the first receives zeros).
 */
static void make_permute(struct _test_data_layout *self, u32 *permute)
{
	u32 g, i;

	for (g = 0; g < self->ngroups; g++) {
		const struct group *gr = &self->groups[g];

		for (i = 0; i < gr->m; i++)
			permute[gr->ranks[i]] = i + 1 < gr->m ?
						gr->ranks[i + 1] :
						PWTPU_NO_RANK;
	}
}

/*
 * The per-axis grid of a mesh of extents @ext: its axes longer than 1,
 * ascending, with their row-major strides.
 */
static void mesh_grid(const u32 *ext, struct ref_grid *g)
{
	u32 stride[3], k, s = 1;

	for (k = 3; k-- > 0;) {
		stride[k] = s;
		s *= ext[k];
	}
	g->naxes = 0;
	for (k = 0; k < 3; k++) {
		if (ext[k] < 2)
			continue;
		g->extent[g->naxes] = ext[k];
		g->stride[g->naxes++] = stride[k];
	}
}

/* The expected dst of gang rank @r, element @e. */
static u32 expect_elem(struct _test_data_layout *self,
		       const FIXTURE_VARIANT(layout) *variant,
		       const struct sim_prog *sp, u32 op, u32 mode, u32 dtype,
		       u32 r, u64 e)
{
	const struct group *gr = &self->groups[self->of_rank[r]];
	const void *in[REF_MAX_MEMBERS];
	struct ref_grid grid = { 1, { gr->m }, { 1 }, 0 };
	u32 i, gpos = 0;

	for (i = 0; i < gr->m; i++) {
		in[i] = src_of(self, sp, gr->ranks[i]);
		if (gr->ranks[i] == r)
			gpos = i;
	}
	switch (op) {
	case PWTPU_OP_ALL_REDUCE:
		if (variant->ext[0]) {
			/* Per mesh axis, members indexed by device. */
			mesh_grid(variant->ext, &grid);
			/* On a torus the rings run both ways. */
			grid.bidir = !!strchr(variant->mesh, 't');
			for (i = 0; i < variant->n; i++)
				in[variant->devs[i]] = src_of(self, sp, i);
		}
		return ref_reduce(&grid, in, dtype, mode, sp->d_elems, e);
	case PWTPU_OP_REDUCE_SCATTER:
		return ref_reduce(&grid, in, dtype, mode, sp->a_elems,
				  gpos * sp->d_elems + e);
	case PWTPU_OP_ALL_GATHER:
		return ref_load(in[e / sp->a_elems], dtype, e % sp->a_elems);
	default:
		return gpos ? ref_load(in[gpos - 1], dtype, e) : 0;
	}
}

/*
 * Run @op over the layout with a of @arank/@ashape and dst of
 * @drank/@dshape; check every member's result bit for bit.
 */
static void run_case(struct __test_metadata *_metadata,
		     struct _test_data_layout *self,
		     const FIXTURE_VARIANT(layout) *variant, u32 op,
		     u32 mode, u32 dtype, u32 arank, const u32 *ashape,
		     u32 drank, const u32 *dshape)
{
	static struct sim_exec x[SIM_MAX_DEV][SIM_MAX_EXECS];
	u32 permute[SIM_MAX_DEV], r, want, got;
	struct pwtpu_gang gang;
	struct sim_prog sp;
	u64 e, bad = 0;

	ASSERT_EQ(0, sim_prog_coll(&sp, op, mode, dtype, arank, ashape,
				   drank, dshape));
	make_permute(self, permute);
	sim_gang(&gang, sim_gang_id(), variant->n, variant->devs,
		 variant->group, permute);
	memset(x, 0, sizeof(x));
	for (r = 0; r < variant->n; r++) {
		free(self->mem[r]);
		self->mem[r] = malloc(sp.bytes);
		ASSERT_NE(NULL, self->mem[r]);
		sim_exec_init(&x[r][0], &self->sim, &sp, self->mem[r], &gang,
			      r);
		ref_fill((u8 *)self->mem[r] + sp.a_off, dtype, mode,
			 self->ncases * 131 + r * 7 + 1, sp.a_elems);
	}
	self->ncases++;
	ASSERT_EQ(0, sim_run(x, variant->n));
	for (r = 0; r < variant->n; r++) {
		ASSERT_EQ(0, x[r][0].ret) TH_LOG("op %u rank %u", op, r);
		for (e = 0; e < sp.d_elems; e++) {
			want = expect_elem(self, variant, &sp, op, mode, dtype,
					   r, e);
			got = ref_load((u8 *)self->mem[r] + sp.d_off, dtype, e);
			if (want != got && !bad++)
				TH_LOG("op %u mode %u dtype %u: rank %u elem %llu is %#x, want %#x",
				       op, mode, dtype, r,
				       (unsigned long long)e, got, want);
		}
	}
	EXPECT_EQ(0ULL, bad);
	sim_prog_free(&sp);
}

TEST_F(layout, all_reduce)
{
	static const u32 lens[] = { 1, 3, 13, 130 };
	u32 i, d, mode;

	for (d = 0; d < ARRAY_LEN(reduce_dtypes); d++) {
		for (mode = 0; mode <= PWTPU_REDUCE_PROD; mode++) {
			for (i = 0; i < ARRAY_LEN(lens); i++)
				run_case(_metadata, self, variant,
					 PWTPU_OP_ALL_REDUCE, mode,
					 reduce_dtypes[d], 1, &lens[i], 1,
					 &lens[i]);
			run_case(_metadata, self, variant,
				 PWTPU_OP_ALL_REDUCE, mode, reduce_dtypes[d],
				 2, (const u32[]){ 5, 7 }, 2,
				 (const u32[]){ 5, 7 });
		}
	}
}

TEST_F(layout, reduce_scatter)
{
	u32 m = self->groups[0].m, d, mode, rows;

	for (d = 0; d < ARRAY_LEN(reduce_dtypes); d++)
		for (mode = 0; mode <= PWTPU_REDUCE_PROD; mode++)
			for (rows = 1; rows <= 2; rows++)
				run_case(_metadata, self, variant,
					 PWTPU_OP_REDUCE_SCATTER, mode,
					 reduce_dtypes[d], 2,
					 (const u32[]){ m * rows, 3 }, 2,
					 (const u32[]){ rows, 3 });
}

TEST_F(layout, all_gather)
{
	u32 m = self->groups[0].m, d, rows;

	for (d = 0; d < ARRAY_LEN(all_dtypes); d++)
		for (rows = 1; rows <= 3; rows += 2)
			run_case(_metadata, self, variant,
				 PWTPU_OP_ALL_GATHER, 0, all_dtypes[d], 2,
				 (const u32[]){ rows, 2 }, 2,
				 (const u32[]){ m * rows, 2 });
}

TEST_F(layout, collective_permute)
{
	u32 d;

	for (d = 0; d < ARRAY_LEN(all_dtypes); d++) {
		run_case(_metadata, self, variant,
			 PWTPU_OP_COLLECTIVE_PERMUTE, 0, all_dtypes[d], 1,
			 (const u32[]){ 5 }, 1, (const u32[]){ 5 });
		run_case(_metadata, self, variant,
			 PWTPU_OP_COLLECTIVE_PERMUTE, 0, all_dtypes[d], 2,
			 (const u32[]){ 2, 3 }, 2, (const u32[]){ 2, 3 });
	}
}

TEST_HARNESS_MAIN
