// SPDX-License-Identifier: GPL-2.0
/*
 * sched.c - the island's gang scheduler.
 *
 * Every batch of every client reaches the executors through one lock, in
 * one order, so each device queue sees the island's computations in the
 * same relative order: a gang's members can never wait for each other
 * across two devices (the deadlock the driver would otherwise break with
 * -ETIMEDOUT). Which batch goes next is the policy's choice: FIFO takes
 * them in arrival order; SHARE is stride scheduling over clients, each
 * batch advancing its client's pass by cost / weight, so that backlogged
 * clients get computations in proportion to their weights. A window bounds
 * the computations on the devices at once, which is what lets the policy
 * matter: the rest wait here, where the order is still open.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "../core/core.h"

/* Pass units of one computation at weight 1. */
#define PW_STRIDE	1000000ULL

void pw_sched_init(struct pw_sched *s)
{
	pthread_mutex_init(&s->lock, NULL);
	s->policy = PW_SCHED_FIFO;
	s->window = PW_SCHED_DEFAULT_WINDOW;
}

static void batch_take_lists(struct pw_batch *b, struct pw_item **head,
			     struct pw_item **tail, unsigned int n)
{
	unsigned int d;

	b->released = true;
	atomic_fetch_add(&b->client->active_batches, 1);
	for (d = 0; d < n; d++) {
		head[d] = b->head[d];
		tail[d] = b->tail[d];
		b->head[d] = NULL;
		b->tail[d] = NULL;
	}
}

/* Hand @b's commands to the executors (sched lock held). */
static void sched_release(struct pw_ctrl *ctrl, struct pw_batch *b)
{
	struct pw_item *head[PW_RM_MAX_DEVICES], *tail[PW_RM_MAX_DEVICES];
	unsigned int d, n = ctrl->isl.ndevices;

	/* Once pushed, the batch may end and go: take its lists first. */
	batch_take_lists(b, head, tail, n);
	for (d = 0; d < n; d++)
		if (head[d])
			pw_exec_push(&ctrl->exec[d], head[d], tail[d]);
}

/* The client whose head batch goes next, or NULL. */
static struct pw_client *sched_pick(struct pw_sched *s)
{
	struct pw_client *c, *best = NULL;

	for (c = s->clients; c; c = c->sched_next) {
		if (!best)
			best = c;
		else if (s->policy == PW_SCHED_SHARE ? c->pass < best->pass :
			 c->qhead->seq < best->qhead->seq)
			best = c;
	}
	return best;
}

static void sched_unlink_client(struct pw_sched *s, struct pw_client *c)
{
	struct pw_client **pp;

	for (pp = &s->clients; *pp; pp = &(*pp)->sched_next) {
		if (*pp == c) {
			*pp = c->sched_next;
			c->sched_next = NULL;
			return;
		}
	}
}

/* Release batches while the window has room (sched lock held). */
static void sched_pump(struct pw_ctrl *ctrl)
{
	struct pw_sched *s = &ctrl->sched;
	struct pw_client *c;
	struct pw_batch *b;

	while (s->inflight < s->window && (c = sched_pick(s))) {
		b = c->qhead;
		c->qhead = b->next;
		if (!c->qhead) {
			c->qtail = NULL;
			sched_unlink_client(s, c);
		}
		b->next = NULL;
		s->queued--;
		s->inflight += b->cost;
		s->active++;
		s->vtime = c->pass;
		c->pass += (b->cost ? b->cost : 1) * PW_STRIDE / c->weight;
		sched_release(ctrl, b);
	}
}

/*
 * Tests only: each member as its client gets to it, one device at a time
 * in an order of the client's own, like independent dispatchers would.
 */
static void sched_release_bypassed(struct pw_ctrl *ctrl, struct pw_batch *b)
{
	struct pw_item *head[PW_RM_MAX_DEVICES], *tail[PW_RM_MAX_DEVICES];
	unsigned int i, n = ctrl->isl.ndevices;
	bool down = b->client->index & 1;

	batch_take_lists(b, head, tail, n);
	for (i = 0; i < n; i++) {
		unsigned int d = down ? n - 1 - i : i;

		if (!head[d])
			continue;
		pw_exec_push(&ctrl->exec[d], head[d], tail[d]);
		usleep(2000);
	}
}

void pw_sched_submit(struct pw_ctrl *ctrl, struct pw_batch *b)
{
	struct pw_sched *s = &ctrl->sched;
	struct pw_client *c = b->client;

	if (!b->nitems) {
		pw_batch_put(b);
		return;
	}
	atomic_fetch_add(&c->submitted, b->cost);
	if (c->bypass) {
		pthread_mutex_lock(&s->lock);
		s->inflight += b->cost;
		s->active++;
		pthread_mutex_unlock(&s->lock);
		sched_release_bypassed(ctrl, b);
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (atomic_load(&c->closing)) {
		/* Lowered while another thread disconnected the client. */
		pthread_mutex_unlock(&s->lock);
		atomic_fetch_add(&c->cancelled, b->cost);
		pw_batch_fail(ctrl, b, -ECANCELED);
		return;
	}
	b->seq = s->seq++;
	b->next = NULL;
	if (c->qtail) {
		c->qtail->next = b;
	} else {
		c->qhead = b;
		/* A client coming back does not bank the time it was idle. */
		if (c->pass < s->vtime)
			c->pass = s->vtime;
		c->sched_next = s->clients;
		s->clients = c;
	}
	c->qtail = b;
	s->queued++;
	sched_pump(ctrl);
	pthread_mutex_unlock(&s->lock);
}

void pw_sched_batch_end(struct pw_ctrl *ctrl, struct pw_batch *b)
{
	struct pw_sched *s = &ctrl->sched;

	pthread_mutex_lock(&s->lock);
	s->inflight -= b->cost;
	s->active--;
	sched_pump(ctrl);
	pthread_mutex_unlock(&s->lock);
	if (atomic_fetch_sub(&b->client->active_batches, 1) == 1)
		pw_ctrl_broadcast(ctrl);
}

void pw_sched_cancel(struct pw_ctrl *ctrl, struct pw_client *c)
{
	struct pw_sched *s = &ctrl->sched;
	struct pw_batch *b, *next;

	pthread_mutex_lock(&s->lock);
	b = c->qhead;
	c->qhead = NULL;
	c->qtail = NULL;
	sched_unlink_client(s, c);
	for (next = b; next; next = next->next)
		s->queued--;
	pthread_mutex_unlock(&s->lock);
	for (; b; b = next) {
		next = b->next;
		atomic_fetch_add(&c->cancelled, b->cost);
		pw_batch_fail(ctrl, b, -ECANCELED);
	}
}

int pw_set_sched_policy(struct pw_client *c, enum pw_sched_policy policy,
			unsigned int window)
{
	struct pw_sched *s;

	if (!c)
		return pw_fail(-EINVAL, "pw_set_sched_policy: no client");
	if (c->remote_state)
		return pw_cr_set_policy(c, policy, window);
	if (policy != PW_SCHED_FIFO && policy != PW_SCHED_SHARE)
		return pw_fail(-EINVAL, "unknown scheduling policy %d", policy);
	s = &c->ctrl->sched;
	pthread_mutex_lock(&s->lock);
	s->policy = policy;
	if (window)
		s->window = window;
	sched_pump(c->ctrl);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int pw_set_weight(struct pw_client *c, unsigned int weight)
{
	if (!c)
		return pw_fail(-EINVAL, "pw_set_weight: no client");
	if (c->remote_state)
		return pw_cr_set_weight(c, weight);
	if (weight < 1 || weight > 1000)
		return pw_fail(-EINVAL, "weight %u: must be 1..1000", weight);
	pthread_mutex_lock(&c->ctrl->sched.lock);
	c->weight = weight;
	pthread_mutex_unlock(&c->ctrl->sched.lock);
	return 0;
}

void pw_debug_bypass_gang_order(struct pw_client *c, bool bypass)
{
	if (c)
		c->bypass = bypass;
}
