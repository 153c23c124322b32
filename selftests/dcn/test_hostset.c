// SPDX-License-Identifier: GPL-2.0
/*
 * test_hostset.c - sets of hosts (runtime/dcn/hostset.h): members at the
 * edges of their words and of the cluster, iteration across empty words,
 * and the layout PROGRAM_ACK carries.
 */
#include <limits.h>

#include "../../runtime/dcn/hostset.h"
#include "kselftest_harness.h"

/* What pw_hostset_next() gives when no member is left. */
#define NONE	((unsigned int)PW_WIRE_MAX_HOSTS)

TEST(members_at_word_edges_and_the_last_host)
{
	static const unsigned int in[] = { 0, 63, 64, 127, 320, 510, 511 };
	struct pw_hostset s;
	unsigned int i, h, n = 0;

	pw_hostset_clear(&s);
	EXPECT_TRUE(pw_hostset_empty(&s));
	EXPECT_EQ(NONE, pw_hostset_next(&s, 0));
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		pw_hostset_add(&s, in[i]);
	EXPECT_FALSE(pw_hostset_empty(&s));
	EXPECT_EQ(7u, pw_hostset_count(&s));
	/* Ascending, each once, across the empty words 2..4. */
	pw_hostset_for_each(h, &s) {
		ASSERT_GT(7u, n);
		EXPECT_EQ(in[n], h);
		n++;
	}
	EXPECT_EQ(7u, n);
	EXPECT_EQ(320u, pw_hostset_next(&s, 128));
	EXPECT_EQ(511u, pw_hostset_next(&s, 511));
	EXPECT_EQ(NONE, pw_hostset_next(&s, 512));
	EXPECT_EQ(NONE, pw_hostset_next(&s, UINT_MAX));
	/* No host past the cluster is a member. */
	EXPECT_TRUE(pw_hostset_has(&s, 511));
	EXPECT_FALSE(pw_hostset_has(&s, 512));
	EXPECT_FALSE(pw_hostset_has(&s, UINT_MAX));
	EXPECT_FALSE(pw_hostset_has(&s, 65));
	pw_hostset_del(&s, 64);
	pw_hostset_del(&s, 65);	/* not a member: nothing changes */
	EXPECT_FALSE(pw_hostset_has(&s, 64));
	EXPECT_TRUE(pw_hostset_has(&s, 63));
	EXPECT_EQ(6u, pw_hostset_count(&s));
}

TEST(union_and_intersection)
{
	struct pw_hostset a, b;

	pw_hostset_clear(&a);
	pw_hostset_clear(&b);
	pw_hostset_add(&a, 1);
	pw_hostset_add(&a, 200);
	pw_hostset_add(&b, 201);
	EXPECT_FALSE(pw_hostset_intersects(&a, &b));
	pw_hostset_add(&b, 200);
	EXPECT_TRUE(pw_hostset_intersects(&a, &b));
	pw_hostset_or(&a, &b);		/* 1 200 201 */
	EXPECT_EQ(3u, pw_hostset_count(&a));
	EXPECT_EQ(201u, pw_hostset_next(&a, 201));
}

/* Host h is bit h % 64 of word h / 64, as PROGRAM_ACK carries it. */
TEST(the_layout_is_the_wires)
{
	struct pw_hostset s;

	pw_hostset_clear(&s);
	pw_hostset_add(&s, 65);
	pw_hostset_add(&s, 511);
	EXPECT_EQ(0ull, s.w[0]);
	EXPECT_EQ(2ull, s.w[1]);
	EXPECT_EQ(1ull << 63, s.w[PW_WIRE_HOST_WORDS - 1]);
}

TEST_HARNESS_MAIN
