// SPDX-License-Identifier: GPL-2.0
/*
 * rc_beat.c - a remote client stays alive whatever its program does
 * between calls. The controller gives up on a client that is silent, or
 * that leaves its messages unacknowledged, for the client timeout; a
 * client computing on its own for longer than that still holds work and
 * objects. So a thread of the client, while no call of its own is using
 * the node, steps it (acknowledging what came) and sends HEARTBEAT every
 * PW_RC_HEARTBEAT_MS; calls that wait send them too. The node is the
 * caller's while it holds the client's lock: the thread only tries it,
 * and only once the client has been idle a while, so it never stands in
 * a measurement's way.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "roles.h"

/* The thread looks this often, and acts after a tick without calls. */
#define RC_BEAT_TICK_NS		(PW_RC_HEARTBEAT_MS * 1000000ull / 4)

void pw_rc_lock(struct pw_remote *r)
{
	pthread_mutex_lock(&r->lock);
}

void pw_rc_unlock(struct pw_remote *r)
{
	/* A count, not a clock read: this is on every send and wait. */
	atomic_fetch_add_explicit(&r->uses, 1, memory_order_relaxed);
	pthread_mutex_unlock(&r->lock);
}

void pw_rc_keepalive(struct pw_remote *r, uint64_t now)
{
	struct pw_wire_msg m;

	if (!r->ctl || now - r->last_sent_ns < PW_RC_HEARTBEAT_MS * 1000000ull)
		return;
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_HEARTBEAT;
	m.body.heartbeat.time_ns = now;
	/* A full window means no acks: the controller's timeout decides. */
	if (!pw_node_send(&r->node, r->ctl, &m, now))
		r->last_sent_ns = now;
}

static void *beat_main(void *arg)
{
	struct timespec tick = { .tv_nsec = (long)RC_BEAT_TICK_NS };
	struct pw_remote *r = arg;
	uint_fast64_t seen = atomic_load(&r->uses), now_uses;

	while (!atomic_load(&r->beat_stop)) {
		nanosleep(&tick, NULL);
		/* Calls came during the last tick: the client is not idle. */
		now_uses = atomic_load(&r->uses);
		if (now_uses != seen) {
			seen = now_uses;
			continue;
		}
		if (pthread_mutex_trylock(&r->lock))
			continue;
		pw_node_step(&r->node, 0);
		pw_rc_keepalive(r, pw_now_ns());
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

int pw_rc_beat_start(struct pw_remote *r)
{
	int ret;

	atomic_store(&r->beat_stop, false);
	ret = pthread_create(&r->beat, NULL, beat_main, r);
	if (ret)
		return -ret;
	r->beating = true;
	return 0;
}

void pw_rc_beat_stop(struct pw_remote *r)
{
	if (!r->beating)
		return;
	atomic_store(&r->beat_stop, true);
	pthread_join(r->beat, NULL);
	r->beating = false;
}
