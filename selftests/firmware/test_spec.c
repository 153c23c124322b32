// SPDX-License-Identifier: GPL-2.0
/*
 * test_spec.c - device specs: defaults, parsing of good and bad strings,
 * and the canonical text form.
 */
#include <stddef.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../firmware/pwfw.h"

#define DEFAULT_TEXT "array_dim=128,clock_mhz=1050,hbm_mbps=1200000," \
	"host_mbps=16000,ici_mbps=45000,vector_lanes=1024," \
	"host_latency_ns=1000,insn_overhead_ns=50,ici_latency_ns=1000"

/* A spec no parse produces, to see whether a failed parse wrote it. */
static void poison(struct pwfw_spec *s)
{
	memset(s, 0xa5, sizeof(*s));
}

TEST(defaults)
{
	struct pwfw_spec s;

	pwfw_spec_default(&s);
	EXPECT_EQ(128U, s.array_dim);
	EXPECT_EQ(1050U, s.clock_mhz);
	EXPECT_EQ(1200000U, s.hbm_mbps);
	EXPECT_EQ(16000U, s.host_mbps);
	EXPECT_EQ(45000U, s.ici_mbps);
	EXPECT_EQ(1024U, s.vector_lanes);
	EXPECT_EQ(1000U, s.host_latency_ns);
	EXPECT_EQ(50U, s.insn_overhead_ns);
	EXPECT_EQ(1000U, s.ici_latency_ns);
}

TEST(empty_means_defaults)
{
	struct pwfw_spec s, d;
	char err[80];

	pwfw_spec_default(&d);
	poison(&s);
	ASSERT_EQ(0, pwfw_spec_parse(&s, "", err, sizeof(err)));
	EXPECT_EQ(0, memcmp(&d, &s, sizeof(s)));
	poison(&s);
	ASSERT_EQ(0, pwfw_spec_parse(&s, NULL, err, sizeof(err)));
	EXPECT_EQ(0, memcmp(&d, &s, sizeof(s)));
}

TEST(parse_over_defaults)
{
	struct pwfw_spec s, want;
	char err[80];

	pwfw_spec_default(&want);
	want.array_dim = 256;
	want.clock_mhz = 940;
	want.insn_overhead_ns = 0;
	poison(&s);
	ASSERT_EQ(0, pwfw_spec_parse(&s,
		"insn_overhead_ns=0,array_dim=256,clock_mhz=0000940",
		err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, memcmp(&want, &s, sizeof(s)));
}

TEST(every_key_and_its_limits)
{
	static const struct {
		const char *text;
		size_t field;
		u32 value;
	} good[] = {
		{ "array_dim=8", offsetof(struct pwfw_spec, array_dim), 8 },
		{ "array_dim=1024", offsetof(struct pwfw_spec, array_dim),
		  1024 },
		{ "clock_mhz=1", offsetof(struct pwfw_spec, clock_mhz), 1 },
		{ "hbm_mbps=4294967295", offsetof(struct pwfw_spec, hbm_mbps),
		  4294967295U },
		{ "host_mbps=7", offsetof(struct pwfw_spec, host_mbps), 7 },
		{ "ici_mbps=9", offsetof(struct pwfw_spec, ici_mbps), 9 },
		{ "vector_lanes=1", offsetof(struct pwfw_spec, vector_lanes),
		  1 },
		{ "host_latency_ns=0",
		  offsetof(struct pwfw_spec, host_latency_ns), 0 },
		{ "insn_overhead_ns=4294967295",
		  offsetof(struct pwfw_spec, insn_overhead_ns), 4294967295U },
		{ "ici_latency_ns=0",
		  offsetof(struct pwfw_spec, ici_latency_ns), 0 },
		{ "ici_latency_ns=4294967295",
		  offsetof(struct pwfw_spec, ici_latency_ns), 4294967295U },
	};
	struct pwfw_spec s, want;
	char err[80];
	u32 i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		pwfw_spec_default(&want);
		memcpy((char *)&want + good[i].field, &good[i].value, 4);
		ASSERT_EQ(0, pwfw_spec_parse(&s, good[i].text, err,
					     sizeof(err)))
			TH_LOG("%s: %s", good[i].text, err);
		/* The named field holds the value, the others the defaults. */
		EXPECT_EQ(0, memcmp(&want, &s, sizeof(s)))
			TH_LOG("%s", good[i].text);
	}
}

TEST(format_defaults)
{
	struct pwfw_spec s;
	char buf[256];

	pwfw_spec_default(&s);
	EXPECT_EQ(strlen(DEFAULT_TEXT),
		  pwfw_spec_format(&s, buf, sizeof(buf)));
	EXPECT_STREQ(DEFAULT_TEXT, buf);
}

TEST(format_round_trip)
{
	struct pwfw_spec s = {
		.array_dim = 1024, .clock_mhz = 4294967295U, .hbm_mbps = 1,
		.host_mbps = 2, .ici_mbps = 3, .vector_lanes = 4,
		.host_latency_ns = 0, .insn_overhead_ns = 5,
		.ici_latency_ns = 6,
	}, back;
	char buf[256], err[80];

	pwfw_spec_format(&s, buf, sizeof(buf));
	ASSERT_EQ(0, pwfw_spec_parse(&back, buf, err, sizeof(err)))
		TH_LOG("%s: %s", buf, err);
	EXPECT_EQ(0, memcmp(&s, &back, sizeof(s)));
}

TEST(format_truncates)
{
	struct pwfw_spec s;
	char buf[12];

	pwfw_spec_default(&s);
	memset(buf, 'X', sizeof(buf));
	EXPECT_EQ(9U, pwfw_spec_format(&s, buf, 10));
	EXPECT_STREQ("array_dim", buf);
	EXPECT_EQ('X', buf[10]);
	EXPECT_EQ(0U, pwfw_spec_format(&s, NULL, 0));
}

FIXTURE(bad) {
	struct pwfw_spec s;
};

FIXTURE_VARIANT(bad) {
	const char *text;
	const char *msg;	/* the message names what is wrong */
};

#define BAD(name, t, m) \
	FIXTURE_VARIANT_ADD(bad, name) { .text = t, .msg = m }

BAD(unknown_key, "foo=1", "unknown spec key 'foo'");
BAD(key_case, "Array_dim=128", "'Array_dim'");
BAD(key_prefix, "array=128", "'array'");
BAD(key_longer, "array_dims=128", "'array_dims'");
BAD(no_value, "array_dim", "'array_dim' is not key=value");
BAD(empty_value, "array_dim=", "array_dim has an empty value");
BAD(empty_key, "=5", "unknown spec key ''");
BAD(not_decimal, "clock_mhz=12a", "clock_mhz=12a is not a decimal");
BAD(hex, "clock_mhz=0x10", "0x10 is not a decimal");
BAD(negative, "clock_mhz=-5", "-5 is not a decimal");
BAD(plus, "clock_mhz=+5", "+5 is not a decimal");
BAD(space_before, " clock_mhz=5", "unknown spec key ' clock_mhz'");
BAD(space_after, "clock_mhz=5 ", "is not a decimal");
BAD(zero_rate, "hbm_mbps=0", "hbm_mbps=0 is outside 1..4294967295");
BAD(zero_clock, "clock_mhz=0", "clock_mhz=0 is outside");
BAD(zero_lanes, "vector_lanes=0", "vector_lanes=0 is outside");
BAD(zero_host, "host_mbps=0", "host_mbps=0");
BAD(zero_ici, "ici_mbps=0", "ici_mbps=0");
BAD(overflow, "hbm_mbps=4294967296", "4294967296 is outside");
BAD(overflow_long, "ici_mbps=99999999999999999999999999", "is outside");
BAD(overflow_then_junk, "ici_mbps=99999999999999999999x", "not a decimal");
BAD(array_small, "array_dim=7", "array_dim=7 is outside 8..1024");
BAD(array_large, "array_dim=1025", "array_dim=1025 is outside 8..1024");
BAD(array_zero, "array_dim=0", "outside 8..1024");
BAD(ici_latency_overflow, "ici_latency_ns=4294967296", "4294967296 is outside");
BAD(ici_latency_negative, "ici_latency_ns=-1", "not a decimal");
BAD(twice, "clock_mhz=1,array_dim=8,clock_mhz=2", "clock_mhz is given twice");
BAD(trailing_comma, "clock_mhz=1,", "ends with ','");
BAD(leading_comma, ",clock_mhz=1", "empty item");
BAD(double_comma, "clock_mhz=1,,array_dim=8", "empty item");
BAD(second_bad, "clock_mhz=1,array_dim=9999", "array_dim=9999");
BAD(two_equals, "clock_mhz=1=2", "not a decimal");

FIXTURE_SETUP(bad)
{
	memset(&self->s, 0xa5, sizeof(self->s));
}

FIXTURE_TEARDOWN(bad)
{
}

TEST_F(bad, rejected_with_message)
{
	struct pwfw_spec before = self->s;
	char err[96];

	memset(err, 0, sizeof(err));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_spec_parse(&self->s, variant->text, err,
						sizeof(err)));
	EXPECT_NE(NULL, strstr(err, variant->msg))
		TH_LOG("'%s' not in '%s'", variant->msg, err);
	/* A failed parse leaves the caller's spec alone. */
	EXPECT_EQ(0, memcmp(&before, &self->s, sizeof(before)));
	/* No message buffer is fine too. */
	EXPECT_EQ(-PWFW_EINVAL, pwfw_spec_parse(&self->s, variant->text, NULL,
						0));
}

TEST_HARNESS_MAIN
