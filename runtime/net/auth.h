/* SPDX-License-Identifier: GPL-2.0 */
/*
 * auth.h - the cluster key and the authentication trailer every control
 * datagram carries (include/pathways/wire.h, "Authentication"): HMAC-
 * SHA-512-256 from libsodium over the message and its send time.
 *
 * Functions return 0 or a negative errno; the ones that read files also
 * say why in @why (NUL-ended, at most @len bytes).
 */
#ifndef PW_RUNTIME_NET_AUTH_H
#define PW_RUNTIME_NET_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include <pathways/wire.h>

#define PW_AUTH_KEY_BYTES	32
/* Where a cluster's hosts keep the key unless told otherwise. */
#define PW_AUTH_KEY_FILE	"/etc/pathways/cluster.key"
/* The environment variable that names another file. */
#define PW_AUTH_KEY_ENV		"PATHWAYS_KEY_FILE"
/*
 * How far a datagram's send time may be from the receiver's clock: a
 * replay older than this is dropped as stale; a younger one is a
 * duplicate the reliable channel drops by its sequence number.
 */
#define PW_AUTH_WINDOW_NS	(30ull * 1000000000ull)

struct pw_auth_key {
	uint8_t bytes[PW_AUTH_KEY_BYTES];
};

/*
 * Read a key file: 64 hexadecimal digits and an optional newline, in a
 * regular file that belongs to this user (or root) and that no one else
 * may read or write. -ENOENT, -EACCES (another user's, or others may read
 * or write it: refused), -EINVAL (not a key), or another -errno of open().
 */
int pw_auth_key_load(struct pw_auth_key *key, const char *path, char *why,
		     size_t len);

/*
 * The key of this process's cluster role or client: from the file
 * PATHWAYS_KEY_FILE names (-ENOENT if it is missing), else from
 * PW_AUTH_KEY_FILE; -ENOKEY (with @why saying where to put one) when
 * neither is set up.
 */
int pw_auth_key_default(struct pw_auth_key *key, char *why, size_t len);

/* A new random key into a new file @path (mode 0600); -EEXIST if any. */
int pw_auth_key_create(const char *path, char *why, size_t len);

/* A random key, for nodes that never leave the process. */
void pw_auth_key_random(struct pw_auth_key *key);

/*
 * Append the trailer to the @len-byte message at @dgram, which has room
 * for PW_WIRE_AUTH_BYTES more; @sent_ns is CLOCK_REALTIME. Returns the
 * datagram's length.
 */
size_t pw_auth_seal(const struct pw_auth_key *key, uint8_t *dgram,
		    size_t len, uint64_t sent_ns);

enum pw_auth_verdict {
	PW_AUTH_OK,
	PW_AUTH_FORGED,	/* too short for a trailer, or the tag is wrong */
	PW_AUTH_STALE,	/* sent further than the window from @now_ns */
};

/*
 * Check the trailer of the @len-byte datagram at @dgram against @key and
 * the receiver's CLOCK_REALTIME @now_ns. On PW_AUTH_OK the message is its
 * first @len - PW_WIRE_AUTH_BYTES bytes.
 */
enum pw_auth_verdict pw_auth_open(const struct pw_auth_key *key,
				  const uint8_t *dgram, size_t len,
				  uint64_t now_ns, uint64_t window_ns);

/* CLOCK_REALTIME in ns: what pw_auth_seal() and pw_auth_open() take. */
uint64_t pw_auth_now_ns(void);

#endif /* PW_RUNTIME_NET_AUTH_H */
