// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_rv.c - the rendezvous: where the members of a gang meet for each
 * collective, and how a collective that cannot complete fails instead of
 * hanging. docs/collectives.md, "Rendezvous and deadlock detection".
 *
 * The island keeps a list of collectives in progress, keyed by (gang,
 * seq, group). The first member to arrive creates the entry with its
 * signature; the others must bring the same one. The entry fails
 * ("poisoned", for all its members, present and future) when:
 *  - a member's signature differs: -EINVAL;
 *  - not all members arrived within the gang timeout of the first one,
 *    or a barrier waited a gang timeout, or waits for a member that has
 *    already left: -ETIMEDOUT, with one log line saying who waited for
 *    whom and what the missing devices are doing.
 *
 * Lifetime: a member is "inside" from its arrival until it gets out of
 * join (failed) or of leave. pwfw_rv_leave() returns only when no member
 * is still working (after a failure, peers may be mid-step, reading this
 * member's buffers). The last member out frees the entry, unless it is
 * poisoned and some ranks never came: it is then kept, so that they fail
 * at once, until they have all come, for twice the gang timeout, or until
 * more than PWFW_RV_KEEP such entries exist (the oldest goes first).
 * Every join sweeps the kept ones, so the list stays bounded by the
 * members inside plus PWFW_RV_KEEP.
 *
 * Everything here is guarded by the island lock; allocation and freeing,
 * the log and the trace hooks run outside it.
 */
#include "pwfw.h"
#include "pwfw_fmt.h"
#include "pwfw_island.h"
#include "pwfw_platform.h"
#include "pwfw_rv.h"

#define U64_SAT		(~0ULL)
#define NS_PER_MS	1000000ULL
/* Long enough for 64 members' devices and ranks, short for a stack. */
#define RV_MSG_LEN	384
/* Other devices a timeout line describes at most. */
#define RV_MSG_DEVS	8

enum slot_state {
	SLOT_EMPTY,	/* this rank has not come */
	SLOT_IN,	/* arrived, in join, barriers or the algorithm */
	SLOT_LEAVING,	/* in pwfw_rv_leave(), waiting for the others */
	SLOT_OUT,	/* done with the entry, or failed */
};

/**
 * struct rv_slot - one group rank of a collective
 * @member: its buffers and device.
 * @step: barriers it entered.
 * @state: enum slot_state.
 */
struct rv_slot {
	struct pwfw_member member;
	u32 step;
	u32 state;
};

/**
 * struct pwfw_rv - one collective in progress
 * @next: in the island's list.
 * @tab: the island's table.
 * @sig: the first member's signature; n slots follow.
 * @created_ns: when the first member arrived.
 * @idle_ns: when the last member got out of a poisoned entry.
 * @status: 0, or the error every member gets.
 * @came: ranks that arrived, in time or not.
 * @inside: members in state SLOT_IN or SLOT_LEAVING.
 * @logged: the failure's log line is written.
 * @has_devs: @devs is filled.
 * @devs: island device of each rank, if a member said.
 * @slot: one per group rank.
 */
struct pwfw_rv {
	struct pwfw_rv *next;
	struct pwfw_rv_table *tab;
	struct pwfw_coll_sig sig;
	u64 created_ns;
	u64 idle_ns;
	s32 status;
	u32 came;
	u32 inside;
	bool logged;
	bool has_devs;
	u32 devs[PWTPU_MAX_GANG];
	struct rv_slot slot[];
};

/**
 * struct rv_dev - what one device is blocked in, for the diagnostics
 * @rv: the collective, or NULL.
 * @barrier: in a barrier rather than in join.
 */
struct rv_dev {
	const struct pwfw_rv *rv;
	bool barrier;
};

/**
 * struct pwfw_rv_table - the island's collectives in progress
 * @host: cookie for the pwfw_plat_* calls.
 * @ndev: devices in the island.
 * @timeout_ns: the gang timeout.
 * @head: the entries, newest first.
 * @count: entries in the list.
 * @dev: one per device.
 */
struct pwfw_rv_table {
	void *host;
	u32 ndev;
	u64 timeout_ns;
	struct pwfw_rv *head;
	u32 count;
	struct rv_dev dev[];
};

static u64 add_sat(u64 a, u64 b)
{
	return a + b < a ? U64_SAT : a + b;
}

struct pwfw_rv_table *pwfw_rv_table_create(void *host, u32 ndev,
					   u64 timeout_ns)
{
	struct pwfw_rv_table *tab;

	tab = pwfw_plat_zalloc(sizeof(*tab) + (u64)ndev * sizeof(tab->dev[0]));
	if (!tab)
		return NULL;
	tab->host = host;
	tab->ndev = ndev;
	tab->timeout_ns = timeout_ns;
	return tab;
}

void pwfw_rv_table_destroy(struct pwfw_rv_table *tab)
{
	struct pwfw_rv *rv;

	if (!tab)
		return;
	/* The host destroys the island only when no device can be inside. */
	while (tab->head) {
		rv = tab->head;
		tab->head = rv->next;
		pwfw_plat_free(rv);
	}
	pwfw_plat_free(tab);
}

u32 pwfw_rv_count(struct pwfw_island *isl)
{
	struct pwfw_rv_table *tab = pwfw_island_rv(isl);
	u32 n;

	pwfw_plat_lock(tab->host);
	n = tab->count;
	pwfw_plat_unlock(tab->host);
	return n;
}

static bool same_key(const struct pwfw_coll_sig *a,
		     const struct pwfw_coll_sig *b)
{
	return a->scope == b->scope && a->gang_id == b->gang_id &&
	       a->seq == b->seq &&
	       a->group == b->group;
}

static bool same_sig(const struct pwfw_coll_sig *a,
		     const struct pwfw_coll_sig *b)
{
	return same_key(a, b) && a->layout == b->layout && a->n == b->n &&
	       a->op == b->op && a->mode == b->mode && a->dtype == b->dtype &&
	       a->src_elems == b->src_elems && a->dst_elems == b->dst_elems &&
	       a->shapes == b->shapes;
}

static struct pwfw_rv *rv_find(struct pwfw_rv_table *tab,
			       const struct pwfw_coll_sig *sig)
{
	struct pwfw_rv *rv;

	for (rv = tab->head; rv; rv = rv->next)
		if (same_key(&rv->sig, sig))
			return rv;
	return NULL;
}

static void rv_unlink(struct pwfw_rv_table *tab, struct pwfw_rv *rv)
{
	struct pwfw_rv **p;

	for (p = &tab->head; *p; p = &(*p)->next) {
		if (*p == rv) {
			*p = rv->next;
			tab->count--;
			return;
		}
	}
}

/* Out of the list onto @dead, to be freed once the lock is released. */
static void to_free(struct pwfw_rv *rv, struct pwfw_rv **dead)
{
	rv_unlink(rv->tab, rv);
	rv->next = *dead;
	*dead = rv;
}

/* Poisoned with nobody inside: kept only for the ranks still to come. */
static bool rv_kept(const struct pwfw_rv *rv)
{
	return rv->status && !rv->inside;
}

/* Drop kept entries that are old or too many, onto @dead. */
static void rv_sweep(struct pwfw_rv_table *tab, u64 now,
		     struct pwfw_rv **dead)
{
	u64 keep_ns = add_sat(tab->timeout_ns, tab->timeout_ns);
	struct pwfw_rv *rv, *next, *oldest;
	u32 kept = 0;

	for (rv = tab->head; rv; rv = next) {
		next = rv->next;
		if (!rv_kept(rv))
			continue;
		if (now - rv->idle_ns >= keep_ns)
			to_free(rv, dead);
		else
			kept++;
	}
	for (; kept > PWFW_RV_KEEP; kept--) {
		oldest = NULL;
		for (rv = tab->head; rv; rv = rv->next)
			if (rv_kept(rv) &&
			    (!oldest || rv->idle_ns <= oldest->idle_ns))
				oldest = rv;
		to_free(oldest, dead);
	}
}

static void free_list(struct pwfw_rv *rv)
{
	struct pwfw_rv *next;

	for (; rv; rv = next) {
		next = rv->next;
		pwfw_plat_free(rv);
	}
}

/*
 * Member @grank is done with @rv for good. The last one out frees it
 * (onto @dead), unless it is poisoned and ranks are still to come.
 */
static void rv_get_out(struct pwfw_rv *rv, u32 grank, u64 now,
		       struct pwfw_rv **dead)
{
	struct rv_slot *s = &rv->slot[grank];

	if (s->state == SLOT_IN || s->state == SLOT_LEAVING) {
		rv->inside--;
		/* Peers in leave or a barrier wait for this change. */
		pwfw_plat_wake_all(rv->tab->host);
	}
	s->state = SLOT_OUT;
	if (rv->inside)
		return;
	if (rv->status && rv->came < rv->sig.n)
		rv->idle_ns = now;
	else
		to_free(rv, dead);
}

static void set_waiting(struct pwfw_rv *rv, u32 dev, bool barrier)
{
	rv->tab->dev[dev].rv = rv;
	rv->tab->dev[dev].barrier = barrier;
}

static void clear_waiting(struct pwfw_rv *rv, u32 dev)
{
	if (rv->tab->dev[dev].rv == rv)
		rv->tab->dev[dev].rv = NULL;
}

static void rv_poison(struct pwfw_rv *rv, s32 err)
{
	if (!rv->status)
		rv->status = err;
	pwfw_plat_wake_all(rv->tab->host);
}

/* Ranks of @rv in @state, as a bit mask (at most 64 ranks). */
static u64 ranks_in(const struct pwfw_rv *rv, u32 state)
{
	u64 mask = 0;
	u32 i;

	for (i = 0; i < rv->sig.n; i++)
		if (rv->slot[i].state == state)
			mask |= 1ULL << i;
	return mask;
}

static u32 rank_dev(const struct pwfw_rv *rv, u32 grank)
{
	if (rv->slot[grank].state != SLOT_EMPTY)
		return rv->slot[grank].member.dev;
	return rv->devs[grank];
}

static const char *op_name(u32 op)
{
	switch (op) {
	case PWTPU_OP_ALL_REDUCE:
		return "all-reduce";
	case PWTPU_OP_ALL_GATHER:
		return "all-gather";
	case PWTPU_OP_REDUCE_SCATTER:
		return "reduce-scatter";
	case PWTPU_OP_COLLECTIVE_PERMUTE:
		return "collective-permute";
	default:
		return "collective";
	}
}

/*
 * "gang file 3 collective 0 (all-reduce, group 0)": the scope only, since
 * the log is not the gang's own (its id is nobody else's business).
 */
static void fmt_coll(struct pwfw_fmt *f, const struct pwfw_rv *rv)
{
	pwfw_fmt_str(f, "gang file ");
	pwfw_fmt_u64(f, rv->sig.scope);
	pwfw_fmt_str(f, " collective ");
	pwfw_fmt_u64(f, rv->sig.seq);
	pwfw_fmt_str(f, " (");
	pwfw_fmt_str(f, op_name(rv->sig.op));
	pwfw_fmt_str(f, ", group ");
	pwfw_fmt_u64(f, rv->sig.group);
	pwfw_fmt_char(f, ')');
}

/* The ranks in @mask as "rank 2" or "ranks 2,3", or their devices. */
static void fmt_set(struct pwfw_fmt *f, const struct pwfw_rv *rv, u64 mask,
		    bool devices)
{
	u32 i, n = 0;

	pwfw_fmt_str(f, devices ? "device" : "rank");
	pwfw_fmt_str(f, mask & (mask - 1) ? "s " : " ");
	for (i = 0; i < rv->sig.n; i++) {
		if (!(mask >> i & 1))
			continue;
		if (n++)
			pwfw_fmt_char(f, ',');
		pwfw_fmt_u64(f, devices ? rank_dev(rv, i) : i);
	}
}

/* "device 2 is waiting in gang file 4 collective 0 (all-gather, ...)" */
static void fmt_doing(struct pwfw_fmt *f, const struct pwfw_rv_table *tab,
		      u32 dev)
{
	const struct rv_dev *d = &tab->dev[dev];

	pwfw_fmt_str(f, "device ");
	pwfw_fmt_u64(f, dev);
	if (!d->rv) {
		pwfw_fmt_str(f, " is not waiting in any collective");
		return;
	}
	pwfw_fmt_str(f, d->barrier ? " is at a barrier of " :
			 " is waiting in ");
	fmt_coll(f, d->rv);
}

/*
 * What the devices that did not come are doing: those of the missing
 * ranks when the members said which they are, else every device that
 * waits in another collective.
 */
static void fmt_missing(struct pwfw_fmt *f, const struct pwfw_rv *rv)
{
	const struct pwfw_rv_table *tab = rv->tab;
	u32 i, dev, n = 0, more = 0;
	u32 count = rv->has_devs ? rv->sig.n : tab->ndev;

	for (i = 0; i < count; i++) {
		if (rv->has_devs) {
			if (rv->slot[i].state != SLOT_EMPTY)
				continue;
			dev = rv->devs[i];
		} else {
			dev = i;
			if (!tab->dev[dev].rv || tab->dev[dev].rv == rv)
				continue;
		}
		if (n == RV_MSG_DEVS) {
			more++;
			continue;
		}
		pwfw_fmt_str(f, n++ ? ", " : "; ");
		fmt_doing(f, tab, dev);
	}
	if (more) {
		pwfw_fmt_str(f, ", and ");
		pwfw_fmt_u64(f, more);
		pwfw_fmt_str(f, " more");
	}
	if (!n)
		pwfw_fmt_str(f, "; no other device is waiting in a collective");
}

/*
 * "gang file 3 collective 0 (all-reduce, group 0): devices 0,1 (ranks
 * 0,1 of 4) waited 2000 ms for ranks 2,3 (devices 2,3); device 2 is
 * waiting in gang file 4 collective 0 (all-gather, group 0), device 3 is
 * not waiting in any collective"
 */
static void fmt_join_timeout(struct pwfw_fmt *f, const struct pwfw_rv *rv,
			     u64 now)
{
	u64 here = ranks_in(rv, SLOT_IN);
	u64 missing = ranks_in(rv, SLOT_EMPTY);

	fmt_coll(f, rv);
	pwfw_fmt_str(f, ": ");
	fmt_set(f, rv, here, true);
	pwfw_fmt_str(f, " (");
	fmt_set(f, rv, here, false);
	pwfw_fmt_str(f, " of ");
	pwfw_fmt_u64(f, rv->sig.n);
	pwfw_fmt_str(f, ") waited ");
	pwfw_fmt_u64(f, (now - rv->created_ns) / NS_PER_MS);
	pwfw_fmt_str(f, " ms for ");
	fmt_set(f, rv, missing, false);
	if (rv->has_devs) {
		pwfw_fmt_str(f, " (");
		fmt_set(f, rv, missing, true);
		pwfw_fmt_char(f, ')');
	}
	fmt_missing(f, rv);
}

/*
 * "gang file 3 collective 0 (all-reduce, group 0) step 3: devices 0,1
 * waited 2000 ms for ranks 2,3; device 2 (rank 2) is at step 2, device 3
 * (rank 3) left at step 2"
 */
static void fmt_barrier_timeout(struct pwfw_fmt *f, const struct pwfw_rv *rv,
				u64 late, u32 step, u64 waited_ns)
{
	u64 ready = ~late & (~0ULL >> (64 - rv->sig.n));
	u32 i, n = 0;

	fmt_coll(f, rv);
	pwfw_fmt_str(f, " step ");
	pwfw_fmt_u64(f, step);
	pwfw_fmt_str(f, ": ");
	fmt_set(f, rv, ready, true);
	pwfw_fmt_str(f, " waited ");
	pwfw_fmt_u64(f, waited_ns / NS_PER_MS);
	pwfw_fmt_str(f, " ms for ");
	fmt_set(f, rv, late, false);
	for (i = 0; i < rv->sig.n && n < RV_MSG_DEVS; i++) {
		const struct rv_slot *s = &rv->slot[i];

		if (!(late >> i & 1))
			continue;
		pwfw_fmt_str(f, n++ ? ", device " : "; device ");
		pwfw_fmt_u64(f, s->member.dev);
		pwfw_fmt_str(f, " (rank ");
		pwfw_fmt_u64(f, i);
		pwfw_fmt_str(f, s->state == SLOT_IN ? ") is at step " :
			     ") left at step ");
		pwfw_fmt_u64(f, s->step);
	}
}

static struct pwfw_rv *rv_alloc(const struct pwfw_coll_sig *sig)
{
	struct pwfw_rv *rv;

	rv = pwfw_plat_zalloc(sizeof(*rv) + (u64)sig->n * sizeof(rv->slot[0]));
	if (rv)
		rv->sig = *sig;
	return rv;
}

static void rv_insert(struct pwfw_rv_table *tab, struct pwfw_rv *rv, u64 now)
{
	rv->tab = tab;
	rv->created_ns = now;
	rv->next = tab->head;
	tab->head = rv;
	tab->count++;
}

/*
 * Take rank @grank's slot. 0 when it is taken and the entry is good;
 * otherwise the member fails at once: the entry's error when it is
 * poisoned (a late arrival), -EINVAL for a signature that differs (which
 * poisons a good entry that still waits for ranks) or a rank already
 * taken.
 */
static int rv_arrive(struct pwfw_rv *rv, u32 dev,
		     const struct pwfw_coll_sig *sig, u32 grank,
		     const struct pwfw_member *me, const u32 *devs,
		     struct pwfw_rv **dead)
{
	struct rv_slot *s;
	u32 i;

	/*
	 * Equal signatures have equal n: only then is @grank in range. Once
	 * every rank came, a stranger (a reused gang id) fails alone.
	 */
	if (!same_sig(&rv->sig, sig)) {
		if (rv->came < rv->sig.n)
			rv_poison(rv, -PWFW_EINVAL);
		return -PWFW_EINVAL;
	}
	s = &rv->slot[grank];
	if (s->state != SLOT_EMPTY)
		return -PWFW_EINVAL;
	s->member = *me;
	s->member.dev = dev;
	rv->came++;
	if (devs && !rv->has_devs) {
		rv->has_devs = true;
		for (i = 0; i < rv->sig.n; i++)
			rv->devs[i] = devs[i];
	}
	if (rv->status) {
		s->state = SLOT_OUT;
		if (!rv->inside && rv->came == rv->sig.n)
			to_free(rv, dead);
		return rv->status;
	}
	s->state = SLOT_IN;
	rv->inside++;
	if (rv->came == rv->sig.n)
		pwfw_plat_wake_all(rv->tab->host);
	return 0;
}

/* Wait for the other members until the entry's deadline. */
static int rv_wait_all(struct pwfw_rv *rv, u32 dev, struct pwfw_fmt *msg)
{
	struct pwfw_rv_table *tab = rv->tab;
	u64 deadline = add_sat(rv->created_ns, tab->timeout_ns);
	bool expired = false;

	set_waiting(rv, dev, false);
	while (!rv->status && rv->came < rv->sig.n) {
		if (expired) {
			rv_poison(rv, -PWFW_ETIMEDOUT);
			rv->logged = true;
			fmt_join_timeout(msg, rv, pwfw_plat_now_ns());
			break;
		}
		expired = !pwfw_plat_wait(tab->host, deadline);
	}
	clear_waiting(rv, dev);
	return rv->status;
}

int pwfw_rv_join_devs(struct pwfw_island *isl, u32 dev,
		      const struct pwfw_coll_sig *sig, u32 grank,
		      const struct pwfw_member *me, const u32 *devs,
		      struct pwfw_rv **out)
{
	struct pwfw_rv *rv, *fresh = NULL, *dead = NULL;
	struct pwfw_rv_table *tab;
	char text[RV_MSG_LEN];
	struct pwfw_fmt msg;
	int ret;

	if (!out)
		return -PWFW_EINVAL;
	*out = NULL;
	if (!isl || !sig || !me)
		return -PWFW_EINVAL;
	tab = pwfw_island_rv(isl);
	if (dev >= tab->ndev || !sig->n || sig->n > PWTPU_MAX_GANG ||
	    grank >= sig->n || (devs && devs[grank] != dev))
		return -PWFW_EINVAL;
	pwfw_fmt_init(&msg, text, sizeof(text));
	pwfw_plat_trace_coll(tab->host, dev, sig->gang_id, sig->seq, sig->op,
			     PWFW_COLL_JOIN, 0);

	pwfw_plat_lock(tab->host);
	rv_sweep(tab, pwfw_plat_now_ns(), &dead);
	rv = rv_find(tab, sig);
	if (!rv) {
		/* Allocate outside the lock, then look again. */
		pwfw_plat_unlock(tab->host);
		fresh = rv_alloc(sig);
		pwfw_plat_lock(tab->host);
		rv = rv_find(tab, sig);
		if (!rv && fresh) {
			rv = fresh;
			fresh = NULL;
			rv_insert(tab, rv, pwfw_plat_now_ns());
		}
	}
	if (!rv) {
		ret = -PWFW_ENOMEM;
	} else {
		ret = rv_arrive(rv, dev, sig, grank, me, devs, &dead);
		if (!ret) {
			ret = rv_wait_all(rv, dev, &msg);
			if (ret)
				rv_get_out(rv, grank, pwfw_plat_now_ns(),
					   &dead);
			else
				*out = rv;
		}
	}
	pwfw_plat_unlock(tab->host);

	free_list(dead);
	if (fresh)
		pwfw_plat_free(fresh);
	if (msg.len)
		pwfw_plat_log(tab->host, text);
	pwfw_plat_trace_coll(tab->host, dev, sig->gang_id, sig->seq, sig->op,
			     ret ? PWFW_COLL_DONE : PWFW_COLL_START, ret);
	return ret;
}

int pwfw_rv_join(struct pwfw_island *isl, u32 dev,
		 const struct pwfw_coll_sig *sig, u32 grank,
		 const struct pwfw_member *me, struct pwfw_rv **rv)
{
	return pwfw_rv_join_devs(isl, dev, sig, grank, me, NULL, rv);
}

const struct pwfw_member *pwfw_rv_member(const struct pwfw_rv *rv,
					 u32 grank)
{
	/* Written before the join completed, constant since. */
	if (!rv || grank >= rv->sig.n)
		return NULL;
	return &rv->slot[grank].member;
}

/* Ranks that have not yet entered barrier @step. */
static u64 ranks_before(const struct pwfw_rv *rv, u32 step)
{
	u64 mask = 0;
	u32 i;

	for (i = 0; i < rv->sig.n; i++)
		if (rv->slot[i].step < step)
			mask |= 1ULL << i;
	return mask;
}

int pwfw_rv_barrier(struct pwfw_rv *rv, u32 grank)
{
	struct pwfw_rv_table *tab;
	struct rv_slot *s;
	char text[RV_MSG_LEN];
	struct pwfw_fmt msg;
	u64 start, deadline, late, gone;
	bool expired = false;
	u32 step;
	int ret;

	if (!rv || grank >= rv->sig.n)
		return -PWFW_EINVAL;
	tab = rv->tab;
	s = &rv->slot[grank];
	pwfw_fmt_init(&msg, text, sizeof(text));

	pwfw_plat_lock(tab->host);
	if (s->state != SLOT_IN) {
		pwfw_plat_unlock(tab->host);
		return -PWFW_EINVAL;
	}
	step = ++s->step;
	pwfw_plat_wake_all(tab->host);
	start = pwfw_plat_now_ns();
	deadline = add_sat(start, tab->timeout_ns);
	set_waiting(rv, s->member.dev, true);
	for (;;) {
		/* Once all reached the step it passed, for all of them. */
		late = ranks_before(rv, step);
		/* A failure is final: every member sees it, early or late. */
		ret = rv->status;
		if (ret || !late)
			break;
		/* A member that left before this step will never reach it. */
		gone = late & ~ranks_in(rv, SLOT_IN);
		if (gone || expired) {
			rv_poison(rv, -PWFW_ETIMEDOUT);
			if (!rv->logged) {
				rv->logged = true;
				fmt_barrier_timeout(&msg, rv, late, step,
						    pwfw_plat_now_ns() - start);
			}
			ret = rv->status;
			break;
		}
		expired = !pwfw_plat_wait(tab->host, deadline);
	}
	clear_waiting(rv, s->member.dev);
	pwfw_plat_unlock(tab->host);

	if (msg.len)
		pwfw_plat_log(tab->host, text);
	return ret;
}

void pwfw_rv_leave(struct pwfw_rv *rv, u32 grank)
{
	struct pwfw_rv *dead = NULL;
	struct pwfw_rv_table *tab;
	struct pwfw_coll_sig sig;
	struct rv_slot *s;
	u32 dev;
	s32 status;

	if (!rv || grank >= rv->sig.n)
		return;
	tab = rv->tab;
	s = &rv->slot[grank];
	sig = rv->sig;

	pwfw_plat_lock(tab->host);
	if (s->state != SLOT_IN) {
		pwfw_plat_unlock(tab->host);
		return;
	}
	dev = s->member.dev;
	s->state = SLOT_LEAVING;
	pwfw_plat_wake_all(tab->host);
	/*
	 * A member still working may read this one's buffers (and its
	 * control block, on its stack): wait until every member is leaving
	 * too. That always comes: a member inside either works (bounded) or
	 * waits in a barrier (bounded by the gang timeout), then leaves.
	 */
	while (ranks_in(rv, SLOT_IN))
		pwfw_plat_wait(tab->host,
			       add_sat(pwfw_plat_now_ns(), tab->timeout_ns));
	status = rv->status;
	rv_get_out(rv, grank, pwfw_plat_now_ns(), &dead);
	pwfw_plat_unlock(tab->host);

	free_list(dead);
	pwfw_plat_trace_coll(tab->host, dev, sig.gang_id, sig.seq, sig.op,
			     PWFW_COLL_DONE, status);
}
