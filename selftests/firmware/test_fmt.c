// SPDX-License-Identifier: GPL-2.0
/*
 * test_fmt.c - the firmware's string builder: numbers at their limits,
 * and truncation that always leaves a NUL-ended prefix.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../firmware/pwfw_fmt.h"

TEST(numbers)
{
	static const u64 uvals[] = { 0, 9, 10, 4294967295ULL, ~0ULL };
	static const s64 svals[] = { 0, -1, 42, INT64_MAX, INT64_MIN };
	char buf[64], want[64];
	struct pwfw_fmt f;
	u32 i;

	for (i = 0; i < 5; i++) {
		pwfw_fmt_init(&f, buf, sizeof(buf));
		pwfw_fmt_u64(&f, uvals[i]);
		snprintf(want, sizeof(want), "%" PRIu64, (uint64_t)uvals[i]);
		EXPECT_STREQ(want, buf);
		EXPECT_EQ(strlen(want), f.len);

		pwfw_fmt_init(&f, buf, sizeof(buf));
		pwfw_fmt_s64(&f, svals[i]);
		snprintf(want, sizeof(want), "%" PRId64, (int64_t)svals[i]);
		EXPECT_STREQ(want, buf);
	}
}

TEST(pieces)
{
	char buf[64];
	struct pwfw_fmt f;

	pwfw_fmt_init(&f, buf, sizeof(buf));
	pwfw_fmt_str(&f, "insn ");
	pwfw_fmt_u64(&f, 3);
	pwfw_fmt_char(&f, ':');
	pwfw_fmt_strn(&f, "abcdef", 3);
	pwfw_fmt_strn(&f, "xy", 10);
	EXPECT_STREQ("insn 3:abcxy", buf);
	EXPECT_EQ(12U, f.len);
}

/* Every buffer size from 0 up keeps a NUL-ended prefix of the text. */
TEST(truncation)
{
	const char *text = "value 18446744073709551615 end";
	char buf[40];
	struct pwfw_fmt f;
	u32 size;

	for (size = 0; size < sizeof(buf); size++) {
		memset(buf, 'X', sizeof(buf));
		pwfw_fmt_init(&f, buf, size);
		pwfw_fmt_str(&f, "value ");
		pwfw_fmt_u64(&f, ~0ULL);
		pwfw_fmt_str(&f, " end");
		if (!size) {
			EXPECT_EQ('X', buf[0]);
			continue;
		}
		EXPECT_EQ(size - 1 < strlen(text) ? size - 1 : strlen(text),
			  strlen(buf));
		EXPECT_EQ(0, strncmp(text, buf, strlen(buf)));
		EXPECT_EQ(strlen(buf), f.len);
		/* Nothing past the NUL is touched. */
		if (size < sizeof(buf) - 1)
			EXPECT_EQ('X', buf[size]);
	}
}

TEST(null_buffer)
{
	struct pwfw_fmt f;

	pwfw_fmt_init(&f, NULL, 16);
	pwfw_fmt_str(&f, "ignored");
	pwfw_fmt_u64(&f, 7);
	EXPECT_EQ(0U, f.len);
}

TEST_HARNESS_MAIN
