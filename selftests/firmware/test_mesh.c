// SPDX-License-Identifier: GPL-2.0
/*
 * test_mesh.c - island topologies: parsing good and bad strings, device
 * coordinates, and the text form.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "../../firmware/pwfw.h"

FIXTURE(good) {
	struct pwfw_mesh m;
};

FIXTURE_VARIANT(good) {
	const char *text;
	u32 ndevices;
	u32 ndims;
	u32 shape[3];
	bool torus;
};

#define GOOD(name, t, n, dims, s0, s1, s2, tor) \
	FIXTURE_VARIANT_ADD(good, name) { \
		.text = t, .ndevices = n, .ndims = dims, \
		.shape = { s0, s1, s2 }, .torus = tor, \
	}

GOOD(line, "8", 8, 1, 8, 0, 0, false);
GOOD(one, "1", 1, 1, 1, 0, 0, false);
GOOD(ring, "8t", 8, 1, 8, 0, 0, true);
GOOD(grid, "2x4", 8, 2, 2, 4, 0, false);
GOOD(torus2d, "4x4t", 16, 2, 4, 4, 0, true);
GOOD(cube, "2x2x2", 8, 3, 2, 2, 2, false);
GOOD(torus3d, "2x3x4t", 24, 3, 2, 3, 4, true);
GOOD(ones, "1x1x1", 1, 3, 1, 1, 1, false);
GOOD(leading_zero, "02x04", 8, 2, 2, 4, 0, false);

FIXTURE_SETUP(good)
{
	memset(&self->m, 0xa5, sizeof(self->m));
}

FIXTURE_TEARDOWN(good)
{
}

TEST_F(good, parsed)
{
	char err[96] = "";

	ASSERT_EQ(0, pwfw_mesh_parse(&self->m, variant->text,
				     variant->ndevices, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(variant->ndims, self->m.ndims);
	EXPECT_EQ(variant->shape[0], self->m.shape[0]);
	EXPECT_EQ(variant->shape[1], self->m.shape[1]);
	EXPECT_EQ(variant->shape[2], self->m.shape[2]);
	EXPECT_EQ(variant->torus, self->m.torus);
}

FIXTURE(bad) {
	struct pwfw_mesh m;
};

FIXTURE_VARIANT(bad) {
	const char *text;
	u32 ndevices;
	const char *msg;
};

#define BAD(name, t, n, m) \
	FIXTURE_VARIANT_ADD(bad, name) { .text = t, .ndevices = n, .msg = m }

BAD(count, "2x3", 8, "mesh 2x3 has 6 devices, module has 8");
BAD(count_torus, "4x4t", 8, "mesh 4x4t has 16 devices, module has 8");
BAD(count_none, "1", 0, "has 1 devices, module has 0");
BAD(empty, "", 8, "mesh is empty");
BAD(null, NULL, 8, "mesh is empty");
BAD(leading_x, "x8", 8, "expected a number at 'x8'");
BAD(trailing_x, "2x4x", 8, "expected a number at ''");
BAD(double_x, "2xx4", 8, "expected a number at 'x4'");
BAD(zero, "0x8", 8, "extents must be 1..4294967295");
BAD(zero_last, "8x0", 8, "extents must be 1..4294967295");
BAD(extent_overflow, "4294967296", 0, "extents must be 1..4294967295");
BAD(four_dims, "2x2x2x1", 8, "more than 3 dimensions");
BAD(torus_twice, "4x4tt", 16, "unexpected 't'");
BAD(torus_middle, "4tx4", 16, "unexpected 'x4'");
BAD(upper_x, "2X4", 8, "unexpected 'X4'");
BAD(space, "2 x4", 8, "unexpected ' x4'");
BAD(trailing_space, "8 ", 8, "unexpected ' '");
BAD(sign, "-8", 8, "expected a number");
BAD(only_t, "t", 8, "expected a number at 't'");
BAD(huge_product, "65536x65536x65536", 8, "more than 4294967295 devices");
/* 2^32 devices would wrap to 0 in u32 arithmetic. */
BAD(product_wraps, "65536x65536", 0, "mesh 65536x65536 has more than 4294967295 devices, module has 0");

FIXTURE_SETUP(bad)
{
	memset(&self->m, 0xa5, sizeof(self->m));
}

FIXTURE_TEARDOWN(bad)
{
}

TEST_F(bad, rejected_with_message)
{
	struct pwfw_mesh before = self->m;
	char err[96];

	memset(err, 0, sizeof(err));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_mesh_parse(&self->m, variant->text,
						variant->ndevices, err,
						sizeof(err)));
	EXPECT_NE(NULL, strstr(err, variant->msg))
		TH_LOG("'%s' not in '%s'", variant->msg, err);
	EXPECT_EQ(0, memcmp(&before, &self->m, sizeof(before)));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_mesh_parse(&self->m, variant->text,
						variant->ndevices, NULL, 0));
}

/* Row major, last dimension fastest: the nested loops' order. */
TEST(coords_row_major)
{
	struct pwfw_mesh m;
	u32 c[3], i, j, k, index = 0;

	ASSERT_EQ(0, pwfw_mesh_parse(&m, "2x3x4t", 24, NULL, 0));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			for (k = 0; k < 4; k++) {
				pwfw_mesh_coords(&m, index++, c);
				EXPECT_EQ(i, c[0]);
				EXPECT_EQ(j, c[1]);
				EXPECT_EQ(k, c[2]);
			}
}

TEST(coords_unused_dims_zero)
{
	struct pwfw_mesh m;
	u32 c[3], i;

	ASSERT_EQ(0, pwfw_mesh_parse(&m, "8", 8, NULL, 0));
	for (i = 0; i < 8; i++) {
		memset(c, 0xa5, sizeof(c));
		pwfw_mesh_coords(&m, i, c);
		EXPECT_EQ(i, c[0]);
		EXPECT_EQ(0U, c[1]);
		EXPECT_EQ(0U, c[2]);
	}
	ASSERT_EQ(0, pwfw_mesh_parse(&m, "2x4", 8, NULL, 0));
	memset(c, 0xa5, sizeof(c));
	pwfw_mesh_coords(&m, 7, c);
	EXPECT_EQ(1U, c[0]);
	EXPECT_EQ(3U, c[1]);
	EXPECT_EQ(0U, c[2]);
}

TEST(format_round_trip)
{
	static const char *const texts[] = {
		"8", "8t", "2x4", "4x4t", "2x2x2", "2x3x4t", "1x1x1",
	};
	struct pwfw_mesh m;
	char buf[32];
	u32 i, n;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		n = 1;
		for (const char *p = texts[i]; *p; p++)
			if (*p >= '0' && *p <= '9')
				n *= (u32)(*p - '0');
		ASSERT_EQ(0, pwfw_mesh_parse(&m, texts[i], n, NULL, 0));
		EXPECT_EQ(strlen(texts[i]),
			  pwfw_mesh_format(&m, buf, sizeof(buf)));
		EXPECT_STREQ(texts[i], buf);
	}
}

TEST(format_truncates)
{
	struct pwfw_mesh m;
	char buf[8];

	ASSERT_EQ(0, pwfw_mesh_parse(&m, "2x2x2t", 8, NULL, 0));
	memset(buf, 'X', sizeof(buf));
	EXPECT_EQ(3U, pwfw_mesh_format(&m, buf, 4));
	EXPECT_STREQ("2x2", buf);
	EXPECT_EQ('X', buf[4]);
}

TEST_HARNESS_MAIN
