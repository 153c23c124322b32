// SPDX-License-Identifier: GPL-2.0
/*
 * test_key.c - a cluster key for tests that run DCN nodes. The file is
 * made before main() runs, in the test binary's first process, and
 * removed when that process exits: the harness's children end with
 * _exit(), which would skip the removal had one of them made it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_key.h"

static char key_path[256];
static int key_error = -ENOKEY;

static void remove_key(void)
{
	unlink(key_path);
}

__attribute__((constructor)) static void make_key(void)
{
	const char *tmp = getenv("TMPDIR");
	char why[256];

	snprintf(key_path, sizeof(key_path), "%s/pw-test-key.%d",
		 tmp && *tmp ? tmp : "/tmp", (int)getpid());
	unlink(key_path);
	key_error = pw_auth_key_create(key_path, why, sizeof(why));
	if (key_error) {
		fprintf(stderr, "# %s\n", why);
		return;
	}
	atexit(remove_key);
	/* Clients this process connects, daemons it starts: the same key. */
	setenv(PW_AUTH_KEY_ENV, key_path, 1);
}

int test_cluster_key(struct pw_auth_key *key)
{
	char why[256];
	int ret = key_error;

	if (!ret)
		ret = pw_auth_key_load(key, key_path, why, sizeof(why));
	if (ret)
		fprintf(stderr, "# the test cluster key: %s\n",
			ret == key_error ? "not made" : why);
	return ret;
}
