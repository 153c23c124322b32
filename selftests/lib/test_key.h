/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_key.h - a cluster key for tests that run DCN nodes (test_key.c).
 */
#ifndef PW_SELFTESTS_TEST_KEY_H
#define PW_SELFTESTS_TEST_KEY_H

#include "../../runtime/net/auth.h"

/*
 * This test binary's cluster key: made at its start into a new file (mode
 * 0600) that PATHWAYS_KEY_FILE then names, so that clients it connects and
 * daemons it starts find the same key. 0 or -errno.
 */
int test_cluster_key(struct pw_auth_key *key);

#endif /* PW_SELFTESTS_TEST_KEY_H */
