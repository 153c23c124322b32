// SPDX-License-Identifier: GPL-2.0
/*
 * test_layout.c - RESHAPE, TRANSPOSE, BROADCAST and SLICE for 1-, 2- and
 * 4-byte dtypes. The reference walks destination multi-indices and maps
 * each to its source element by the op's definition; results must match
 * exactly.
 */
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

static const enum pwtpu_dtype dtypes[] = {
	PWTPU_DT_I8, PWTPU_DT_BF16, PWTPU_DT_F32,
};

struct shape {
	uint32_t rank;
	uint32_t d[PWTPU_MAX_RANK];
};

static uint64_t count(const struct shape *s)
{
	uint64_t n = 1;
	uint32_t k;

	for (k = 0; k < s->rank; k++)
		n *= s->d[k];
	return n;
}

/* Row-major linear index of @idx in @s. */
static uint64_t linear(const struct shape *s, const uint32_t *idx)
{
	uint64_t l = 0;
	uint32_t k;

	for (k = 0; k < s->rank; k++)
		l = l * s->d[k] + idx[k];
	return l;
}

/* Multi-index of linear index @l in @s. */
static void unlinear(const struct shape *s, uint64_t l, uint32_t *idx)
{
	uint32_t k;

	for (k = s->rank; k-- > 0;) {
		idx[k] = (uint32_t)(l % s->d[k]);
		l /= s->d[k];
	}
}

/* Source multi-index of destination multi-index @di, per op. */
typedef void (*map_fn)(const struct shape *dst, const struct shape *src,
		       const uint32_t *arg, const uint32_t *di, uint32_t *si);

static void map_transpose(const struct shape *dst, const struct shape *src,
			  const uint32_t *perm, const uint32_t *di,
			  uint32_t *si)
{
	uint32_t k;

	(void)src;
	for (k = 0; k < dst->rank; k++)
		si[perm[k]] = di[k];
}

static void map_broadcast(const struct shape *dst, const struct shape *src,
			  const uint32_t *arg, const uint32_t *di,
			  uint32_t *si)
{
	uint32_t lead = dst->rank - src->rank, k;

	(void)arg;
	for (k = 0; k < src->rank; k++)
		si[k] = src->d[k] == 1 ? 0 : di[lead + k];
}

static void map_slice(const struct shape *dst, const struct shape *src,
		      const uint32_t *start, const uint32_t *di, uint32_t *si)
{
	uint32_t k;

	(void)src;
	for (k = 0; k < dst->rank; k++)
		si[k] = start[k] + di[k];
}

static void map_reshape(const struct shape *dst, const struct shape *src,
			const uint32_t *arg, const uint32_t *di, uint32_t *si)
{
	(void)arg;
	unlinear(src, linear(dst, di), si);
}

/*
 * Run @op from a random source of @src to @dst for each dtype and compare
 * with @map; returns the number of wrong elements (-1: setup failed).
 */
static int check_op(enum pwtpu_op op, const struct shape *src,
		    const struct shape *dst, const uint32_t *arg,
		    uint32_t nargs, map_fn map)
{
	uint64_t ns = count(src), nd = count(dst), i;
	uint32_t di[PWTPU_MAX_RANK], si[PWTPU_MAX_RANK], k, seed = 31;
	int bad = 0;

	for (k = 0; k < 3; k++) {
		uint32_t sz = pwfw_dtype_size(dtypes[k]);
		unsigned char *a, *d;
		struct ops o;
		int ta, td;

		if (ops_init(&o, (ns + nd) * sz + 256))
			return -1;
		ta = ops_tensor_shape(&o, dtypes[k], src->rank, src->d);
		td = ops_tensor_shape(&o, dtypes[k], dst->rank, dst->d);
		if (ta < 0 || td < 0 ||
		    pwprog_insn(o.p, op, 0, td, ta, PWTPU_NO_TENSOR,
				PWTPU_NO_TENSOR, arg, nargs) < 0)
			return -1;
		a = ops_ptr(&o, ta);
		d = ops_ptr(&o, td);
		for (i = 0; i < ns * sz; i++)
			a[i] = (unsigned char)ops_rand(&seed);
		if (ops_run(&o))
			return -1;
		for (i = 0; i < nd; i++) {
			unlinear(dst, i, di);
			memset(si, 0, sizeof(si));
			map(dst, src, arg, di, si);
			if (memcmp(d + i * sz, a + linear(src, si) * sz, sz))
				bad++;
		}
		ops_fini(&o);
	}
	return bad;
}

/* Every permutation of rank 1..4 over a shape with distinct extents. */
TEST(transpose_every_permutation)
{
	static const uint32_t ext[] = { 2, 3, 4, 5 };
	uint32_t rank, code, ncodes, k, nperm;

	for (rank = 1; rank <= 4; rank++) {
		/* Each code's base-rank digits are a candidate arg[]. */
		for (ncodes = 1, k = 0; k < rank; k++)
			ncodes *= rank;
		nperm = 0;
		for (code = 0; code < ncodes; code++) {
			struct shape src = { .rank = rank }, dst = { .rank = rank };
			uint32_t perm[PWTPU_MAX_RANK], seen = 0, c = code;

			for (k = 0; k < rank; k++, c /= rank) {
				perm[k] = c % rank;
				seen |= 1U << perm[k];
			}
			if (seen != (1U << rank) - 1)
				continue;
			for (k = 0; k < rank; k++) {
				src.d[k] = ext[k];
				dst.d[k] = ext[perm[k]];
			}
			nperm++;
			EXPECT_EQ(0, check_op(PWTPU_OP_TRANSPOSE, &src, &dst,
					      perm, rank, map_transpose))
				TH_LOG("rank %u perm code %u", rank, code);
		}
		EXPECT_EQ(rank == 4 ? 24U : rank == 3 ? 6U : rank, nperm);
	}
}

/* Larger than one chunk, so the gather restarts mid-row. */
TEST(transpose_many_chunks)
{
	struct shape src = { 2, { 301, 307 } }, dst = { 2, { 307, 301 } };
	uint32_t perm[2] = { 1, 0 };

	EXPECT_EQ(0, check_op(PWTPU_OP_TRANSPOSE, &src, &dst, perm, 2,
			      map_transpose));
}

TEST(broadcast)
{
	static const struct {
		struct shape src, dst;
	} cases[] = {
		{ { 0, { 0 } }, { 2, { 3, 2 } } },		/* scalar */
		{ { 1, { 3 } }, { 2, { 2, 3 } } },		/* new lead axis */
		{ { 1, { 1 } }, { 2, { 4, 5 } } },
		{ { 2, { 4, 1 } }, { 2, { 4, 5 } } },		/* column */
		{ { 3, { 2, 1, 3 } }, { 4, { 4, 2, 5, 3 } } },
		{ { 2, { 1, 7 } }, { 3, { 3, 1, 7 } } },
		{ { 2, { 2, 3 } }, { 2, { 2, 3 } } },		/* identity */
		{ { 1, { 300 } }, { 2, { 300, 300 } } },	/* > 1 chunk */
	};
	uint32_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		EXPECT_EQ(0, check_op(PWTPU_OP_BROADCAST, &cases[i].src,
				      &cases[i].dst, NULL, 0, map_broadcast))
			TH_LOG("case %u", i);
}

TEST(slice)
{
	static const struct {
		struct shape src, dst;
		uint32_t start[PWTPU_MAX_RANK];
	} cases[] = {
		{ { 1, { 10 } }, { 1, { 4 } }, { 3 } },
		{ { 2, { 5, 6 } }, { 2, { 5, 6 } }, { 0, 0 } },
		{ { 2, { 5, 6 } }, { 2, { 1, 1 } }, { 4, 5 } },
		{ { 3, { 5, 6, 7 } }, { 3, { 3, 2, 4 } }, { 1, 2, 3 } },
		{ { 4, { 3, 4, 5, 6 } }, { 4, { 2, 1, 3, 4 } }, { 1, 3, 0, 2 } },
		{ { 2, { 400, 400 } }, { 2, { 300, 299 } }, { 50, 101 } },
	};
	uint32_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		EXPECT_EQ(0, check_op(PWTPU_OP_SLICE, &cases[i].src,
				      &cases[i].dst, cases[i].start,
				      cases[i].src.rank, map_slice))
			TH_LOG("case %u", i);
}

TEST(reshape)
{
	struct shape a = { 3, { 2, 3, 4 } }, b = { 2, { 4, 6 } },
		s = { 0, { 0 } }, one = { 4, { 1, 1, 1, 1 } },
		big = { 1, { 200000 } }, big2 = { 2, { 400, 500 } };

	EXPECT_EQ(0, check_op(PWTPU_OP_RESHAPE, &a, &b, NULL, 0, map_reshape));
	EXPECT_EQ(0, check_op(PWTPU_OP_RESHAPE, &s, &one, NULL, 0,
			      map_reshape));
	EXPECT_EQ(0, check_op(PWTPU_OP_RESHAPE, &big, &big2, NULL, 0,
			      map_reshape));
}

TEST_HARNESS_MAIN
