// SPDX-License-Identifier: GPL-2.0
/*
 * wk_cookie.c - the cookies a worker's data-plane targets are written
 * with (a DCN_RECV's, a client upload's): 32 random bits from the kernel,
 * never two alike at once. A write lands by its cookie alone (RDMA WRITE
 * WITH IMM tells the target nothing else), so any node that can reach the
 * worker's data plane could otherwise end another transfer with a forged
 * write; now it has to guess among 2^32. A write whose cookie no transfer
 * has is counted and logged, never taken.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "../util/log.h"
#include "roles.h"

static bool cookie_live(const struct pw_worker *w, uint32_t cookie)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_RECV; i++)
		if (w->recv[i].used && w->recv[i].cookie == cookie)
			return true;
	for (i = 0; i < PW_WK_MAX_HXFER; i++)
		if (w->hx[i].used && w->hx[i].upload &&
		    w->hx[i].cookie == cookie)
			return true;
	return false;
}

uint32_t pw_wk_cookie_new(struct pw_worker *w)
{
	uint32_t cookie;

	do {
		if (!w->ncookies) {
			/* Up to 256 bytes never come short (getrandom(2)). */
			if (getrandom(w->cookies, sizeof(w->cookies), 0) !=
			    (ssize_t)sizeof(w->cookies)) {
				pw_log("worker %u: getrandom: %s: cookies from the clock",
				       w->reg.host_id, strerror(errno));
				for (unsigned int i = 0; i < PW_WK_COOKIE_POOL; i++)
					w->cookies[i] = (uint32_t)((pw_now_ns() + i) *
						0x9e3779b97f4a7c15ull >> 32);
			}
			w->ncookies = PW_WK_COOKIE_POOL;
		}
		cookie = w->cookies[--w->ncookies];
	} while (!cookie || cookie_live(w, cookie));
	return cookie;
}

struct pw_wk_xfer *pw_wk_recv_of(struct pw_worker *w, uint32_t cookie)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_RECV; i++)
		if (w->recv[i].used && w->recv[i].cookie == cookie)
			return &w->recv[i];
	return NULL;
}

void pw_wk_stray_landing(struct pw_worker *w, const struct pw_dp_event *ev)
{
	w->stray_landings++;
	/* Each power of two: a flood shows without flooding the log. */
	if (w->stray_landings & (w->stray_landings - 1))
		return;
	pw_log("worker %u: %llu writes landed that no transfer waits for (last: cookie %#x, %llu bytes): late writes of cancelled runs, or forged",
	       w->reg.host_id, (unsigned long long)w->stray_landings,
	       ev->cookie, (unsigned long long)ev->len);
}
