// SPDX-License-Identifier: GPL-2.0
/*
 * auth.c - the cluster key and the authentication trailer of control
 * datagrams (libsodium's crypto_auth: HMAC-SHA-512-256).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"

_Static_assert(PW_AUTH_KEY_BYTES == crypto_auth_KEYBYTES, "key size");
_Static_assert(PW_WIRE_AUTH_BYTES == 8 + crypto_auth_BYTES, "trailer size");

/* libsodium wants this once before anything else; it is idempotent. */
static void sodium_ready(void)
{
	if (sodium_init() < 0)
		abort();	/* no entropy source: nothing is safe */
}

static int say(char *why, size_t len, int err, const char *fmt,
	       const char *path)
{
	snprintf(why, len, fmt, path);
	return err;
}

int pw_auth_key_load(struct pw_auth_key *key, const char *path, char *why,
		     size_t len)
{
	char text[PW_AUTH_KEY_BYTES * 2 + 2];
	struct stat st;
	size_t bin_len;
	ssize_t n;
	int fd, ret;

	sodium_ready();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, len, "cluster key %s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return say(why, len, -EINVAL,
			   "cluster key %s: not a regular file", path);
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		close(fd);
		snprintf(why, len,
			 "cluster key %s: belongs to uid %u, neither this user nor root: refused",
			 path, (unsigned int)st.st_uid);
		return -EACCES;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		snprintf(why, len,
			 "cluster key %s: others may read it (mode %04o): refused; chmod 600 it",
			 path, (unsigned int)(st.st_mode & 07777));
		return -EACCES;
	}
	n = read(fd, text, sizeof(text));
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret) {
		snprintf(why, len, "cluster key %s: %s", path, strerror(-ret));
		return ret;
	}
	if (n == PW_AUTH_KEY_BYTES * 2 + 1 && text[n - 1] == '\n')
		n--;
	if (n != PW_AUTH_KEY_BYTES * 2 ||
	    sodium_hex2bin(key->bytes, sizeof(key->bytes), text, (size_t)n,
			   NULL, &bin_len, NULL) || bin_len != sizeof(key->bytes))
		ret = say(why, len, -EINVAL,
			  "cluster key %s: not 64 hexadecimal digits (make one with pathwaysd --gen-key FILE)",
			  path);
	sodium_memzero(text, sizeof(text));
	if (ret)
		sodium_memzero(key, sizeof(*key));
	return ret;
}

int pw_auth_key_default(struct pw_auth_key *key, char *why, size_t len)
{
	const char *path = getenv(PW_AUTH_KEY_ENV);
	int ret;

	if (path && *path)
		return pw_auth_key_load(key, path, why, len);
	ret = pw_auth_key_load(key, PW_AUTH_KEY_FILE, why, len);
	if (ret == -ENOENT)
		ret = say(why, len, -ENOKEY,
			  "no cluster key: every node of a cluster needs the same one, in %s or in the file PATHWAYS_KEY_FILE names (pathwaysd --gen-key FILE makes one)",
			  PW_AUTH_KEY_FILE);
	return ret;
}

int pw_auth_key_create(const char *path, char *why, size_t len)
{
	char text[PW_AUTH_KEY_BYTES * 2 + 2];
	struct pw_auth_key key;
	int fd, ret = 0;

	pw_auth_key_random(&key);
	sodium_bin2hex(text, sizeof(text) - 1, key.bytes, sizeof(key.bytes));
	strcat(text, "\n");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, len, "cluster key %s: %s", path, strerror(errno));
	} else {
		if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
			ret = say(why, len, -EIO,
				  "cluster key %s: short write", path);
		if (close(fd) && !ret)
			ret = say(why, len, -EIO, "cluster key %s: close failed",
				  path);
		if (ret)
			unlink(path);
	}
	sodium_memzero(text, sizeof(text));
	sodium_memzero(&key, sizeof(key));
	return ret;
}

void pw_auth_key_random(struct pw_auth_key *key)
{
	sodium_ready();
	crypto_auth_keygen(key->bytes);
}

size_t pw_auth_seal(const struct pw_auth_key *key, uint8_t *dgram,
		    size_t len, uint64_t sent_ns)
{
	uint64_t le = htole64(sent_ns);

	memcpy(dgram + len, &le, sizeof(le));
	crypto_auth(dgram + len + sizeof(le), dgram, len + sizeof(le),
		    key->bytes);
	return len + PW_WIRE_AUTH_BYTES;
}

enum pw_auth_verdict pw_auth_open(const struct pw_auth_key *key,
				  const uint8_t *dgram, size_t len,
				  uint64_t now_ns, uint64_t window_ns)
{
	uint64_t sent_ns;
	size_t signed_len;

	if (len <= PW_WIRE_AUTH_BYTES)
		return PW_AUTH_FORGED;
	signed_len = len - crypto_auth_BYTES;
	if (crypto_auth_verify(dgram + signed_len, dgram, signed_len,
			       key->bytes))
		return PW_AUTH_FORGED;
	memcpy(&sent_ns, dgram + signed_len - sizeof(sent_ns),
	       sizeof(sent_ns));
	sent_ns = le64toh(sent_ns);
	if ((sent_ns > now_ns ? sent_ns - now_ns : now_ns - sent_ns) >
	    window_ns)
		return PW_AUTH_STALE;
	return PW_AUTH_OK;
}

uint64_t pw_auth_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
