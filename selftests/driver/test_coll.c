// SPDX-License-Identifier: GPL-2.0
/*
 * test_coll.c - collectives through the driver, one process holding the
 * devices: every collective, dtype and reduction against the reference
 * in coll_ref.c, over 2, 4 and all devices and over two interleaved
 * replica groups of one gang; members that disagree (dtype, shape, op,
 * reduction, gang layout, a group the shapes do not fit) all fail with
 * -EINVAL and leave their results untouched.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "coll_ref.h"
#include "drv_gang.h"
#include "drv_mesh.h"

#define BUF_BYTES	(64u * 1024)
#define FILL		0xa5	/* what a result starts as */
/* Beyond the gang timeout, how long a collective may take to be reaped. */
#define SLACK_MS	30000

enum config {
	CFG_PAIR,	/* devices 0, 1 */
	CFG_FOUR,	/* devices 0..3 */
	CFG_ALL,	/* every device, in reverse order */
	CFG_SPLIT,	/* every device, two interleaved groups */
};

/**
 * struct layout - a gang: who its members are
 * @n: members.
 * @devs: device of each gang rank.
 * @groups: group id of each.
 * @permute: COLLECTIVE_PERMUTE target (gang rank) of each.
 */
struct layout {
	uint32_t n;
	uint32_t devs[MESH_MAX_DEVS];
	uint32_t groups[MESH_MAX_DEVS];
	uint32_t permute[MESH_MAX_DEVS];
};

/* Gang ranks of @r's group, in rank order; returns the group's size. */
static uint32_t group_of(const struct layout *l, uint32_t r, uint32_t *ranks)
{
	uint32_t i, n = 0;

	for (i = 0; i < l->n; i++)
		if (l->groups[i] == l->groups[r])
			ranks[n++] = i;
	return n;
}

/*
 * @cfg on an island of @ndev: false if it does not have enough devices.
 * Permutations shift by one group rank; in FOUR and SPLIT the last of a
 * group sends nowhere, so its successor (group rank 0) gets zeros.
 */
static bool make_layout(enum config cfg, uint32_t ndev, struct layout *l)
{
	uint32_t ranks[MESH_MAX_DEVS], r, q, g;
	bool partial = cfg == CFG_FOUR || cfg == CFG_SPLIT;

	memset(l, 0, sizeof(*l));
	l->n = cfg == CFG_PAIR ? 2 : cfg == CFG_FOUR ? 4 : ndev;
	if (l->n < 2 || l->n > ndev || (cfg == CFG_SPLIT && l->n < 4))
		return false;
	for (r = 0; r < l->n; r++) {
		l->devs[r] = cfg == CFG_ALL ? l->n - 1 - r : r;
		l->groups[r] = cfg != CFG_SPLIT ? 0 : r % 2 ? 3 : 7;
	}
	for (r = 0; r < l->n; r++) {
		g = group_of(l, r, ranks);
		for (q = 0; ranks[q] != r; q++)
			;
		l->permute[r] = partial && q == g - 1 ? PWTPU_NO_RANK :
				ranks[(q + 1) % g];
	}
	return true;
}

FIXTURE(coll) {
	struct mesh m;
	struct layout l;
	int fd[MESH_MAX_DEVS];
	struct gang_member mem[MESH_MAX_DEVS];
	struct io_uring ring;
	bool have_ring;
	unsigned int wait_ms;
	struct ref_rng rng;
};

FIXTURE_VARIANT(coll) {
	enum config cfg;
};

FIXTURE_VARIANT_ADD(coll, pair) {
	.cfg = CFG_PAIR,
};

FIXTURE_VARIANT_ADD(coll, four) {
	.cfg = CFG_FOUR,
};

FIXTURE_VARIANT_ADD(coll, all) {
	.cfg = CFG_ALL,
};

FIXTURE_VARIANT_ADD(coll, split) {
	.cfg = CFG_SPLIT,
};

/* Open every device and give each member its buffers. */
static void open_members(struct __test_metadata *_metadata, struct mesh *m,
			 const struct layout *l, int *fd,
			 struct gang_member *mem, unsigned int *wait_ms)
{
	int64_t timeout;
	uint32_t i;
	int ret;

	for (i = 0; i < MESH_MAX_DEVS; i++)
		fd[i] = -1;
	ret = mesh_from_params(m);
	if (ret == -ENOENT)
		DRV_SKIP("pwtpu.ko not loaded");
	ASSERT_EQ(0, ret);
	timeout = gang_timeout_ms();
	if (timeout < 0)
		DRV_SKIP("no gang_timeout_ms parameter: no collectives");
	*wait_ms = (unsigned int)timeout + SLACK_MS;
	for (i = 0; i < m->ndev; i++) {
		fd[i] = pwtpu_open(i);
		ASSERT_LE(0, fd[i]);
	}
	for (i = 0; i < l->n; i++) {
		memset(&mem[i], 0, sizeof(mem[i]));
		mem[i].dev = l->devs[i];
		mem[i].fd = fd[l->devs[i]];
		ASSERT_EQ(0, gang_alloc(&mem[i], BUF_BYTES));
	}
}

FIXTURE_SETUP(coll)
{
	struct mesh m;

	if (mesh_from_params(&m) == 0 &&
	    !make_layout(variant->cfg, m.ndev, &self->l))
		DRV_SKIP("%u devices are too few for this gang", m.ndev);
	open_members(_metadata, &self->m, &self->l, self->fd, self->mem,
		     &self->wait_ms);
	ASSERT_EQ(0, pwtpu_ring_init(&self->ring, 2 * MESH_MAX_DEVS, 0));
	self->have_ring = true;
	ref_rng_seed(&self->rng, 0xc011 + variant->cfg);
}

FIXTURE_TEARDOWN(coll)
{
	uint32_t i;

	if (self->have_ring)
		io_uring_queue_exit(&self->ring);
	for (i = 0; i < MESH_MAX_DEVS; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
}

/**
 * struct coll_case - one collective to run and check
 * @op: the collective.
 * @mode: its reduction, for ALL_REDUCE and REDUCE_SCATTER.
 * @dtype: element type.
 * @rows: rows of a block: ALL_GATHER's operand, REDUCE_SCATTER's result,
 *	both for the others.
 * @cols: columns.
 */
struct coll_case {
	enum pwtpu_op op;
	uint8_t mode;
	enum pwtpu_dtype dtype;
	uint32_t rows;
	uint32_t cols;
};

static const char *op_name(enum pwtpu_op op)
{
	switch (op) {
	case PWTPU_OP_ALL_REDUCE:
		return "all_reduce";
	case PWTPU_OP_ALL_GATHER:
		return "all_gather";
	case PWTPU_OP_REDUCE_SCATTER:
		return "reduce_scatter";
	default:
		return "collective_permute";
	}
}

/* Operand and result rows of a member in a group of @g. */
static void case_rows(const struct coll_case *c, uint32_t g, uint32_t *src,
		      uint32_t *dst)
{
	*src = c->op == PWTPU_OP_REDUCE_SCATTER ? g * c->rows : c->rows;
	*dst = c->op == PWTPU_OP_ALL_GATHER ? g * c->rows : c->rows;
}

/*
 * The result member @r must hold, from every member's input values
 * @in[member][i]: the UAPI's definition of each collective.
 */
static void expect(const struct coll_case *c, const struct layout *l,
		   uint32_t r, int64_t *const *in, int64_t *want)
{
	uint32_t ranks[MESH_MAX_DEVS], g = group_of(l, r, ranks), q, k, s;
	uint64_t block = (uint64_t)c->rows * c->cols, i;
	uint32_t from = PWTPU_NO_RANK;

	for (q = 0; ranks[q] != r; q++)
		;
	switch (c->op) {
	case PWTPU_OP_ALL_REDUCE:
	case PWTPU_OP_REDUCE_SCATTER:
		/* REDUCE_SCATTER: block q of the reduction. */
		s = c->op == PWTPU_OP_REDUCE_SCATTER ? q : 0;
		for (i = 0; i < block; i++) {
			want[i] = in[ranks[0]][s * block + i];
			for (k = 1; k < g; k++)
				want[i] = cref_reduce(c->dtype, c->mode,
						      want[i],
						      in[ranks[k]][s * block +
								   i]);
		}
		break;
	case PWTPU_OP_ALL_GATHER:
		for (k = 0; k < g; k++)
			for (i = 0; i < block; i++)
				want[k * block + i] = in[ranks[k]][i];
		break;
	default:
		for (k = 0; k < l->n; k++)
			if (l->permute[k] == r)
				from = k;
		for (i = 0; i < block; i++)
			want[i] = from == PWTPU_NO_RANK ? 0 : in[from][i];
		break;
	}
}

/* Load, fill, run and check one collective over the fixture's gang. */
static void run_case(struct __test_metadata *_metadata,
		     FIXTURE_DATA(coll) *self, const struct coll_case *c)
{
	const struct layout *l = &self->l;
	const size_t es = cref_esize(c->dtype);
	int64_t *in[MESH_MAX_DEVS] = { NULL }, *want;
	uint32_t ranks[MESH_MAX_DEVS], r, src_rows, dst_rows;
	uint64_t id = gang_random_id(), i, n_src, n_dst;
	uint8_t *expect_bytes;
	int ret;

	want = calloc(BUF_BYTES / 2, sizeof(*want));
	expect_bytes = malloc(BUF_BYTES);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, expect_bytes);
	for (r = 0; r < l->n; r++) {
		struct gang_member *m = &self->mem[r];

		case_rows(c, group_of(l, r, ranks), &src_rows, &dst_rows);
		n_src = (uint64_t)src_rows * c->cols;
		ASSERT_LE(n_src * es, BUF_BYTES);
		ASSERT_LE((uint64_t)dst_rows * c->cols * es, BUF_BYTES);
		ret = gang_load(m->fd, c->op, c->mode, c->dtype, src_rows,
				dst_rows, c->cols, &m->prog);
		ASSERT_EQ(0, ret) TH_LOG("load %s %s", op_name(c->op),
					 cref_dtype_name(c->dtype));
		in[r] = calloc(n_src, sizeof(int64_t));
		ASSERT_NE(NULL, in[r]);
		for (i = 0; i < n_src; i++) {
			in[r][i] = cref_value(&self->rng, c->dtype, c->op,
					      c->mode);
			cref_put(c->dtype, m->in.map, i, in[r][i]);
		}
		memset(m->out.map, FILL, BUF_BYTES);
		gang_fill(&m->gang, id, l->n, r, l->devs, l->groups,
			  l->permute);
	}
	ASSERT_EQ(0, gang_run(&self->ring, self->mem, l->n, self->wait_ms));
	for (r = 0; r < l->n; r++) {
		const uint8_t *got = self->mem[r].out.map;

		EXPECT_EQ(0, self->mem[r].res)
			TH_LOG("%s %s %s %ux%u: rank %u (pwtpu%u)",
			       op_name(c->op), cref_dtype_name(c->dtype),
			       cref_mode_name(c->mode), c->rows, c->cols, r,
			       l->devs[r]);
		EXPECT_EQ(0, pwtpu_prog_unload(self->mem[r].fd,
					       self->mem[r].prog));
		if (!gang_computes())
			continue;
		case_rows(c, group_of(l, r, ranks), &src_rows, &dst_rows);
		n_dst = (uint64_t)dst_rows * c->cols;
		expect(c, l, r, in, want);
		memset(expect_bytes, FILL, BUF_BYTES);
		for (i = 0; i < n_dst; i++)
			cref_put(c->dtype, expect_bytes, i, want[i]);
		for (i = 0; i < BUF_BYTES && got[i] == expect_bytes[i]; i++)
			;
		EXPECT_EQ(BUF_BYTES, i)
			TH_LOG("%s %s %s %ux%u: rank %u (pwtpu%u) element "
			       "%" PRIu64 " of %" PRIu64 " wrong (reference "
			       "%" PRId64 ")", op_name(c->op),
			       cref_dtype_name(c->dtype),
			       cref_mode_name(c->mode), c->rows, c->cols, r,
			       l->devs[r], i / es, n_dst,
			       i / es < n_dst ? want[i / es] : 0);
	}
	for (r = 0; r < l->n; r++)
		free(in[r]);
	free(want);
	free(expect_bytes);
}

static const enum pwtpu_dtype dtypes[] = {
	PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I32,
};

static const uint8_t modes[] = {
	PWTPU_REDUCE_SUM, PWTPU_REDUCE_MAX, PWTPU_REDUCE_MIN,
	PWTPU_REDUCE_PROD,
};

/* Block shapes: one element, a few, and many in chunks that do not divide. */
static const uint32_t shapes[][2] = { { 1, 1 }, { 4, 3 }, { 257, 3 } };

static void run_all(struct __test_metadata *_metadata,
		    FIXTURE_DATA(coll) *self, enum pwtpu_op op, bool reduce)
{
	const size_t nmodes = reduce ? sizeof(modes) / sizeof(modes[0]) : 1;
	const size_t nshapes = sizeof(shapes) / sizeof(shapes[0]);
	size_t d, k, s;

	for (d = 0; d < sizeof(dtypes) / sizeof(dtypes[0]); d++)
		for (k = 0; k < nmodes; k++)
			for (s = 0; s < nshapes; s++) {
				struct coll_case c = {
					.op = op,
					.mode = reduce ? modes[k] : 0,
					.dtype = dtypes[d],
					.rows = shapes[s][0],
					.cols = shapes[s][1],
				};

				run_case(_metadata, self, &c);
			}
}

TEST_F(coll, all_reduce)
{
	struct coll_case c = {
		.op = PWTPU_OP_ALL_REDUCE, .mode = PWTPU_REDUCE_SUM,
		.dtype = PWTPU_DT_F32, .rows = 1031, .cols = 3,
	};

	run_all(_metadata, self, PWTPU_OP_ALL_REDUCE, true);
	/* A prime number of elements, cut unevenly by every ring. */
	run_case(_metadata, self, &c);
}

TEST_F(coll, all_gather)
{
	run_all(_metadata, self, PWTPU_OP_ALL_GATHER, false);
}

TEST_F(coll, reduce_scatter)
{
	run_all(_metadata, self, PWTPU_OP_REDUCE_SCATTER, true);
}

TEST_F(coll, collective_permute)
{
	run_all(_metadata, self, PWTPU_OP_COLLECTIVE_PERMUTE, false);
}

/* Two collectives in one program meet as collectives 0 and 1. */
TEST_F(coll, two_in_one_program)
{
	const struct layout *l = &self->l;
	uint32_t ranks[MESH_MAX_DEVS], r, g, i;
	uint64_t id = gang_random_id();

	for (r = 0; r < l->n; r++) {
		struct gang_member *m = &self->mem[r];
		struct drv_prog dp;
		int a, s, t;
		int32_t *x = m->in.map;

		/* t = all_reduce(max, a); s = all_reduce(sum, t). */
		drv_prog_init(&dp, 2);
		a = drv_tensor(&dp, PWTPU_DT_I32, 0, 0, 1, 5);
		t = drv_tensor(&dp, PWTPU_DT_I32, 1, 64, 1, 5);
		s = drv_tensor(&dp, PWTPU_DT_I32, 1, 0, 1, 5);
		drv_insn(&dp, PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_MAX, t, a,
			 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 0);
		drv_insn(&dp, PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_SUM, s, t,
			 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 0);
		ASSERT_EQ(0, drv_prog_load(m->fd, &dp, &m->prog, NULL, NULL,
					   0));
		for (i = 0; i < 5; i++)
			x[i] = (int32_t)(r * 10 + i);
		gang_fill(&m->gang, id, l->n, r, l->devs, l->groups,
			  l->permute);
	}
	ASSERT_EQ(0, gang_run(&self->ring, self->mem, l->n, self->wait_ms));
	for (r = 0; r < l->n; r++) {
		const int32_t *y = self->mem[r].out.map;

		g = group_of(l, r, ranks);
		EXPECT_EQ(0, self->mem[r].res);
		/* The group's max is its last rank's, g times over. */
		for (i = 0; i < 5 && gang_computes(); i++)
			EXPECT_EQ((int32_t)(g * (ranks[g - 1] * 10 + i)), y[i])
				TH_LOG("rank %u element %u", r, i);
		EXPECT_EQ(0, pwtpu_prog_unload(self->mem[r].fd,
					       self->mem[r].prog));
	}
}

/*
 * Disagreeing members. Each variant gives up to three members their own
 * collective; all of them must fail with -EINVAL and leave dst alone.
 */
struct member_prog {
	enum pwtpu_op op;
	uint8_t mode;
	enum pwtpu_dtype dtype;
	uint32_t src_rows;
	uint32_t dst_rows;
	uint32_t cols;
};

FIXTURE(mismatch) {
	struct mesh m;
	struct layout l;
	int fd[MESH_MAX_DEVS];
	struct gang_member mem[MESH_MAX_DEVS];
	struct io_uring ring;
	bool have_ring;
	unsigned int wait_ms;
};

FIXTURE_VARIANT(mismatch) {
	uint32_t n;
	struct member_prog p[3];
	bool permute_differs;
};

#define AR(dt, r, c) { PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_SUM, dt, r, r, c }
#define F32 PWTPU_DT_F32

FIXTURE_VARIANT_ADD(mismatch, dtype) {
	.n = 2, .p = { AR(F32, 4, 3), AR(PWTPU_DT_I32, 4, 3) },
};

FIXTURE_VARIANT_ADD(mismatch, bf16_vs_f32) {
	.n = 2, .p = { AR(PWTPU_DT_BF16, 4, 3), AR(F32, 4, 3) },
};

FIXTURE_VARIANT_ADD(mismatch, element_count) {
	.n = 2, .p = { AR(F32, 4, 3), AR(F32, 4, 4) },
};

/* The same element count in another shape. */
FIXTURE_VARIANT_ADD(mismatch, shape) {
	.n = 2, .p = { AR(F32, 4, 3), AR(F32, 3, 4) },
};

FIXTURE_VARIANT_ADD(mismatch, op) {
	.n = 2, .p = {
		AR(F32, 4, 3),
		{ PWTPU_OP_ALL_GATHER, 0, F32, 4, 8, 3 },
	},
};

FIXTURE_VARIANT_ADD(mismatch, reduction) {
	.n = 2, .p = {
		AR(F32, 4, 3),
		{ PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_MAX, F32, 4, 4, 3 },
	},
};

FIXTURE_VARIANT_ADD(mismatch, one_of_three) {
	.n = 3, .p = { AR(F32, 4, 3), AR(F32, 4, 3), AR(PWTPU_DT_I32, 4, 3) },
};

FIXTURE_VARIANT_ADD(mismatch, gang_layout) {
	.n = 2, .p = { AR(F32, 4, 3), AR(F32, 4, 3) },
	.permute_differs = true,
};

/* The members agree, but a group of 2 does not fit 3 blocks. */
FIXTURE_VARIANT_ADD(mismatch, gather_group_does_not_fit) {
	.n = 2, .p = {
		{ PWTPU_OP_ALL_GATHER, 0, F32, 4, 12, 3 },
		{ PWTPU_OP_ALL_GATHER, 0, F32, 4, 12, 3 },
	},
};

FIXTURE_VARIANT_ADD(mismatch, scatter_group_does_not_fit) {
	.n = 2, .p = {
		{ PWTPU_OP_REDUCE_SCATTER, PWTPU_REDUCE_SUM, F32, 3, 1, 3 },
		{ PWTPU_OP_REDUCE_SCATTER, PWTPU_REDUCE_SUM, F32, 3, 1, 3 },
	},
};

FIXTURE_SETUP(mismatch)
{
	struct mesh m;
	uint32_t r;

	memset(&self->l, 0, sizeof(self->l));
	self->l.n = variant->n;
	if (mesh_from_params(&m) == 0 && m.ndev < variant->n)
		DRV_SKIP("needs %u devices", variant->n);
	for (r = 0; r < variant->n; r++) {
		self->l.devs[r] = r;
		self->l.permute[r] = PWTPU_NO_RANK;
	}
	open_members(_metadata, &self->m, &self->l, self->fd, self->mem,
		     &self->wait_ms);
	ASSERT_EQ(0, pwtpu_ring_init(&self->ring, 2 * MESH_MAX_DEVS, 0));
	self->have_ring = true;
}

FIXTURE_TEARDOWN(mismatch)
{
	uint32_t i;

	if (self->have_ring)
		io_uring_queue_exit(&self->ring);
	for (i = 0; i < MESH_MAX_DEVS; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
}

TEST_F(mismatch, all_members_fail)
{
	uint64_t id = gang_random_id();
	uint32_t r, i;

	for (r = 0; r < variant->n; r++) {
		const struct member_prog *p = &variant->p[r];
		struct gang_member *m = &self->mem[r];

		ASSERT_EQ(0, gang_load(m->fd, p->op, p->mode, p->dtype,
				       p->src_rows, p->dst_rows, p->cols,
				       &m->prog));
		memset(m->in.map, 0, BUF_BYTES);
		memset(m->out.map, FILL, BUF_BYTES);
		gang_fill(&m->gang, id, variant->n, r, self->l.devs,
			  self->l.groups, self->l.permute);
	}
	/* Rank 1 thinks rank 0 sends it something; rank 0 does not. */
	if (variant->permute_differs)
		self->mem[1].gang.permute[0] = 1;
	ASSERT_EQ(0, gang_run(&self->ring, self->mem, variant->n,
			      self->wait_ms));
	for (r = 0; r < variant->n; r++) {
		const uint8_t *out = self->mem[r].out.map;

		EXPECT_EQ(-EINVAL, self->mem[r].res) TH_LOG("rank %u", r);
		for (i = 0; i < BUF_BYTES && out[i] == FILL; i++)
			;
		EXPECT_EQ(BUF_BYTES, i) TH_LOG("rank %u wrote its result", r);
	}
	/* The same devices then agree and succeed. */
	id = gang_random_id();
	for (r = 0; r < variant->n; r++) {
		struct gang_member *m = &self->mem[r];

		EXPECT_EQ(0, pwtpu_prog_unload(m->fd, m->prog));
		ASSERT_EQ(0, gang_load(m->fd, PWTPU_OP_ALL_REDUCE,
				       PWTPU_REDUCE_SUM, PWTPU_DT_I32, 4, 4, 3,
				       &m->prog));
		for (i = 0; i < 12; i++)
			((int32_t *)m->in.map)[i] = (int32_t)(r + 1);
		gang_fill(&m->gang, id, variant->n, r, self->l.devs,
			  self->l.groups, self->l.permute);
	}
	ASSERT_EQ(0, gang_run(&self->ring, self->mem, variant->n,
			      self->wait_ms));
	for (r = 0; r < variant->n; r++) {
		EXPECT_EQ(0, self->mem[r].res);
		if (gang_computes()) {
			EXPECT_EQ((int32_t)(variant->n * (variant->n + 1) / 2),
				  ((int32_t *)self->mem[r].out.map)[11]);
		}
	}
}

TEST_HARNESS_MAIN
