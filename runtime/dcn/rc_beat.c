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
 * a measurement's way. It also wakes when datagrams come (a run's DONE
 * the program has not waited for yet) and, once no call has come for
 * RC_BEAT_BUSY_NS, reads and acknowledges them, so the controller does
 * not send them again and pw_remote_stats() counts the run soon after
 * it ended.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "roles.h"

/* The thread looks this often, and acts after a tick without calls. */
#define RC_BEAT_TICK_NS		(PW_RC_HEARTBEAT_MS * 1000000ull / 4)
/* Input came while a call holds the node: look again this much later. */
#define RC_BEAT_BUSY_NS		10000000L

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

/*
 * Until @tick passes or the client's transport has datagrams: whether it
 * has (a polled transport without a descriptor only sleeps).
 */
static bool wait_input(struct pw_remote *r, const struct timespec *tick)
{
	struct pollfd pfd = { .fd = pw_transport_poll_fd(r->node.t),
			      .events = POLLIN };

	if (pfd.fd < 0) {
		nanosleep(tick, NULL);
		return false;
	}
	return ppoll(&pfd, 1, tick, NULL) > 0;
}

static void *beat_main(void *arg)
{
	struct timespec tick = { .tv_nsec = (long)RC_BEAT_TICK_NS };
	const struct timespec busy = { .tv_nsec = RC_BEAT_BUSY_NS };
	struct pw_remote *r = arg;
	uint_fast64_t seen = atomic_load(&r->uses), now_uses;
	bool input;

	while (!atomic_load(&r->beat_stop)) {
		input = wait_input(r, &tick);
		/*
		 * Messages wait behind a full window and acks came: send
		 * them now, whatever the client does (it may be waiting on
		 * another client's work, with this one's runs unsent).
		 */
		if (input && !pthread_mutex_trylock(&r->lock)) {
			bool backlog = r->ctl && pw_node_queued(r->ctl);

			if (backlog)
				pw_node_step(&r->node, 0);
			pthread_mutex_unlock(&r->lock);
			if (backlog)
				continue;
		}
		/*
		 * Calls came meanwhile: the client is busy and reads what
		 * comes itself; look again once it has been quiet a while.
		 */
		now_uses = atomic_load(&r->uses);
		if (now_uses != seen) {
			seen = now_uses;
			if (input)
				nanosleep(&busy, NULL);
			continue;
		}
		/* A call holds the node: it reads what came, or we do later. */
		if (pthread_mutex_trylock(&r->lock)) {
			if (input)
				nanosleep(&busy, NULL);
			continue;
		}
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
