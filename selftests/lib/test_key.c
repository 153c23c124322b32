// SPDX-License-Identifier: GPL-2.0
/*
 * test_key.c - a cluster key for tests that run DCN nodes, in a file
 * removed when the process exits.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_key.h"

static char key_path[256];
static pid_t key_owner;
static pthread_mutex_t key_lock = PTHREAD_MUTEX_INITIALIZER;

/* Only the process that made it removes it (harness children exit too). */
static void remove_key(void)
{
	if (getpid() == key_owner)
		unlink(key_path);
}

int test_cluster_key(struct pw_auth_key *key)
{
	char why[256];
	int ret = 0;

	pthread_mutex_lock(&key_lock);
	if (!key_path[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(key_path, sizeof(key_path), "%s/pw-test-key.%d",
			 tmp && *tmp ? tmp : "/tmp", (int)getpid());
		unlink(key_path);
		ret = pw_auth_key_create(key_path, why, sizeof(why));
		if (ret) {
			fprintf(stderr, "# %s\n", why);
			key_path[0] = 0;
		} else {
			key_owner = getpid();
			atexit(remove_key);
			setenv(PW_AUTH_KEY_ENV, key_path, 1);
		}
	}
	if (!ret)
		ret = pw_auth_key_load(key, key_path, why, sizeof(why));
	if (ret)
		fprintf(stderr, "# %s\n", why);
	pthread_mutex_unlock(&key_lock);
	return ret;
}
