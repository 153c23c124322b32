// SPDX-License-Identifier: GPL-2.0
/*
 * test_auth.c - the cluster key and the datagrams' authentication
 * (runtime/net/auth.c): the trailer holds for the right key and time
 * only; key files others could read, or that hold no key, are refused
 * with a message that says why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../../runtime/net/auth.h"

#define SEC 1000000000ull

static void fill(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + 1);
}

TEST(a_sealed_datagram_opens_with_its_key_and_time_only)
{
	uint8_t d[PW_WIRE_MAX_DGRAM + PW_WIRE_AUTH_BYTES], copy[sizeof(d)];
	struct pw_auth_key key, other;
	uint64_t now = pw_auth_now_ns();
	size_t len, i;

	pw_auth_key_random(&key);
	pw_auth_key_random(&other);
	ASSERT_NE(0, memcmp(&key, &other, sizeof(key)));
	fill(d, PW_WIRE_MAX_DGRAM);
	len = pw_auth_seal(&key, d, PW_WIRE_MAX_DGRAM, now);
	ASSERT_EQ((size_t)(PW_WIRE_MAX_DGRAM + PW_WIRE_AUTH_BYTES), len);
	EXPECT_EQ((int)PW_AUTH_OK, (int)pw_auth_open(&key, d, len, now, SEC));
	EXPECT_EQ((int)PW_AUTH_FORGED, (int)pw_auth_open(&other, d, len, now, SEC));
	/* Any byte of the message, the send time or the tag. */
	for (i = 0; i < len; i += i < PW_WIRE_MAX_DGRAM ? 97 : 1) {
		memcpy(copy, d, len);
		copy[i] ^= 0x10;
		EXPECT_EQ((int)PW_AUTH_FORGED, (int)pw_auth_open(&key, copy, len, now,
						       SEC)) TH_LOG("byte %zu", i);
	}
	EXPECT_EQ((int)PW_AUTH_FORGED, (int)pw_auth_open(&key, d, len - 1, now, SEC));
	EXPECT_EQ((int)PW_AUTH_FORGED, (int)pw_auth_open(&key, d, PW_WIRE_AUTH_BYTES,
					       now, SEC));
	EXPECT_EQ((int)PW_AUTH_FORGED, (int)pw_auth_open(&key, d, 0, now, SEC));
	/* Authentic but out of the window, either way. */
	EXPECT_EQ((int)PW_AUTH_STALE, (int)pw_auth_open(&key, d, len, now + 2 * SEC,
					      SEC));
	EXPECT_EQ((int)PW_AUTH_STALE, (int)pw_auth_open(&key, d, len, now - 2 * SEC,
					      SEC));
	EXPECT_EQ((int)PW_AUTH_OK, (int)pw_auth_open(&key, d, len, now + SEC, SEC));
}

FIXTURE(keyfile) {
	char dir[64];
	char path[128];
	char why[256];
};

FIXTURE_SETUP(keyfile)
{
	strcpy(self->dir, "/tmp/pw-authXXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/cluster.key", self->dir);
	self->why[0] = 0;
}

FIXTURE_TEARDOWN(keyfile)
{
	unlink(self->path);
	rmdir(self->dir);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	chmod(path, mode);
}

TEST_F(keyfile, a_new_key_is_private_and_loads)
{
	struct pw_auth_key a, b;
	struct stat st;

	ASSERT_EQ(0, pw_auth_key_create(self->path, self->why,
					sizeof(self->why))) TH_LOG("%s", self->why);
	ASSERT_EQ(0, stat(self->path, &st));
	EXPECT_EQ(0600u, st.st_mode & 07777);
	EXPECT_EQ((off_t)65, st.st_size);	/* 64 hex digits and a newline */
	ASSERT_EQ(0, pw_auth_key_load(&a, self->path, self->why,
				      sizeof(self->why))) TH_LOG("%s", self->why);
	ASSERT_EQ(0, pw_auth_key_load(&b, self->path, self->why,
				      sizeof(self->why)));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	/* Never over an existing file. */
	EXPECT_EQ(-EEXIST, pw_auth_key_create(self->path, self->why,
					      sizeof(self->why)));
}

TEST_F(keyfile, a_key_others_may_read_is_refused)
{
	struct pw_auth_key k;

	ASSERT_EQ(0, pw_auth_key_create(self->path, self->why,
					sizeof(self->why)));
	ASSERT_EQ(0, chmod(self->path, 0644));
	EXPECT_EQ(-EACCES, pw_auth_key_load(&k, self->path, self->why,
					    sizeof(self->why)));
	EXPECT_NE(NULL, strstr(self->why, "others may read it")) TH_LOG("%s", self->why);
	EXPECT_NE(NULL, strstr(self->why, "0644")) TH_LOG("%s", self->why);
	ASSERT_EQ(0, chmod(self->path, 0620));
	EXPECT_EQ(-EACCES, pw_auth_key_load(&k, self->path, self->why,
					    sizeof(self->why)));
	ASSERT_EQ(0, chmod(self->path, 0400));
	EXPECT_EQ(0, pw_auth_key_load(&k, self->path, self->why,
				      sizeof(self->why))) TH_LOG("%s", self->why);
}

TEST_F(keyfile, what_is_not_a_key_is_refused)
{
	static const char *const bad[] = {
		"",
		"0123",
		/* 63 and 65 digits */
		"000000000000000000000000000000000000000000000000000000000000000\n",
		"00000000000000000000000000000000000000000000000000000000000000000\n",
		/* 64 characters, one not hexadecimal */
		"000000000000000000000000000000000000000000000000000000000000000g\n",
		/* a key, then more */
		"0000000000000000000000000000000000000000000000000000000000000000\nx",
	};
	struct pw_auth_key k;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unlink(self->path);
		write_file(self->path, bad[i], 0600);
		EXPECT_EQ(-EINVAL, pw_auth_key_load(&k, self->path, self->why,
						    sizeof(self->why)))
			TH_LOG("case %u", i);
		EXPECT_NE(NULL, strstr(self->why, "not 64 hexadecimal digits"))
			TH_LOG("%s", self->why);
	}
	unlink(self->path);
	write_file(self->path,
		   "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF",
		   0600);
	EXPECT_EQ(0, pw_auth_key_load(&k, self->path, self->why,
				      sizeof(self->why))) TH_LOG("%s", self->why);
	EXPECT_EQ(0x11, k.bytes[1]);
	EXPECT_EQ(0xff, k.bytes[31]);
	/* A directory, a missing file. */
	EXPECT_EQ(-EINVAL, pw_auth_key_load(&k, self->dir, self->why,
					    sizeof(self->why)));
	unlink(self->path);
	EXPECT_EQ(-ENOENT, pw_auth_key_load(&k, self->path, self->why,
					    sizeof(self->why)));
	EXPECT_NE(NULL, strstr(self->why, self->path)) TH_LOG("%s", self->why);
}

TEST_F(keyfile, the_environment_names_the_key_else_none_is_found)
{
	struct pw_auth_key k, want;
	struct stat st;

	ASSERT_EQ(0, pw_auth_key_create(self->path, self->why,
					sizeof(self->why)));
	ASSERT_EQ(0, pw_auth_key_load(&want, self->path, self->why,
				      sizeof(self->why)));
	ASSERT_EQ(0, setenv(PW_AUTH_KEY_ENV, self->path, 1));
	ASSERT_EQ(0, pw_auth_key_default(&k, self->why, sizeof(self->why)))
		TH_LOG("%s", self->why);
	EXPECT_EQ(0, memcmp(&k, &want, sizeof(k)));
	unsetenv(PW_AUTH_KEY_ENV);
	if (stat(PW_AUTH_KEY_FILE, &st) == 0)
		SKIP(return, "this host has " PW_AUTH_KEY_FILE);
	EXPECT_EQ(-ENOKEY, pw_auth_key_default(&k, self->why,
					       sizeof(self->why)));
	EXPECT_NE(NULL, strstr(self->why, "no cluster key")) TH_LOG("%s", self->why);
}

TEST_HARNESS_MAIN
