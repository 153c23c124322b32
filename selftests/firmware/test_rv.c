// SPDX-License-Identifier: GPL-2.0
/*
 * test_rv.c - the gang rendezvous, with one thread per device: members
 * meet and see each other; a differing signature fails them all with
 * -EINVAL; a missing member fails the others with -ETIMEDOUT and one log
 * line naming the gang and the devices; the inconsistent-order deadlock
 * of the Pathways paper fails instead of hanging, and the consistent
 * order succeeds; late members of a failed collective fail at once;
 * barriers; leave waits for working peers; entries never leak or pile
 * up (run under valgrind or ASan to see the frees).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"
#include "../../firmware/pwfw.h"
#include "../../firmware/pwfw_island.h"
#include "../../firmware/pwfw_platform.h"
#include "../../firmware/pwfw_rv.h"
#include "../../firmware/user/pwfw_user.h"

#define MS		1000000ULL
/* Past the harness's 30 s limit: a test that waits for it fails. */
#define LONG_TIMEOUT	(3600000 * MS)
#define MAX_THREADS	8

static struct pwfw_island *island_new(struct pwfw_user_island *ui,
				      const char *text, u32 ndev,
				      u64 timeout_ns)
{
	struct pwfw_spec spec;
	struct pwfw_mesh mesh;
	char err[96];

	if (pwfw_mesh_parse(&mesh, text, ndev, err, sizeof(err)) ||
	    pwfw_user_island_init(ui))
		return NULL;
	pwfw_spec_default(&spec);
	return pwfw_island_create(ui, &spec, &mesh, ndev, timeout_ns);
}

static void island_free(struct pwfw_user_island *ui, struct pwfw_island *isl)
{
	pwfw_island_destroy(isl);
	pwfw_user_island_destroy(ui);
}

static void sleep_ms(u64 ms)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ms / 1000),
		.tv_nsec = (long)(ms % 1000 * MS),
	};

	while (nanosleep(&ts, &ts))
		;
}

/* Until the island holds @n collectives (10 s at most). */
static bool await_count(struct pwfw_island *isl, u32 n)
{
	int i;

	for (i = 0; i < 10000; i++) {
		if (pwfw_rv_count(isl) == n)
			return true;
		sleep_ms(1);
	}
	return false;
}

/*
 * Every test's gangs share one id: scopes tell them apart, as gang files
 * do in the driver, and the log must never show the id.
 */
#define RV_GANG_ID	0x5eed5eed5eedULL
#define RV_GANG_HEX	"5eed5eed5eed"

/* Gang @gang (its scope) of RV_GANG_ID. */
static struct pwfw_coll_sig make_sig(u64 gang, u32 seq, u32 n)
{
	return (struct pwfw_coll_sig){
		.scope = gang, .gang_id = RV_GANG_ID, .layout = gang * 31 + n,
		.seq = seq,
		.group = 0, .n = n, .op = PWTPU_OP_ALL_REDUCE,
		.mode = PWTPU_REDUCE_SUM, .dtype = PWTPU_DT_F32,
		.src_elems = 16, .dst_elems = 16,
	};
}

/**
 * struct run - one member, run by one thread
 * @isl: the island.
 * @dev: its device.
 * @grank: its group rank.
 * @sig: what it brings.
 * @devs: devices of the group ranks for pwfw_rv_join_devs(), or NULL
 *	for plain pwfw_rv_join().
 * @barriers: barriers to pass after joining.
 * @hold_ms: pause before the barriers.
 * @src: an address the peers must see.
 * @dst: likewise.
 * @ret: what join returned.
 * @barrier_ret: the first failing barrier's result, or 0.
 * @seen: the members as pwfw_rv_member() showed them.
 */
struct run {
	struct pwfw_island *isl;
	u32 dev;
	u32 grank;
	struct pwfw_coll_sig sig;
	const u32 *devs;
	u32 barriers;
	u64 hold_ms;
	int src;
	int dst;
	int ret;
	int barrier_ret;
	struct pwfw_member seen[PWTPU_MAX_GANG];
};

static int join(struct run *r, struct pwfw_rv **rv)
{
	struct pwfw_member me = { .src = &r->src, .dst = &r->dst, .dev = 0 };

	/* The rendezvous takes the device from @dev, not from @me. */
	if (r->devs)
		return pwfw_rv_join_devs(r->isl, r->dev, &r->sig, r->grank,
					 &me, r->devs, rv);
	return pwfw_rv_join(r->isl, r->dev, &r->sig, r->grank, &me, rv);
}

static void *member_thread(void *arg)
{
	struct run *r = arg;
	struct pwfw_rv *rv;
	u32 i;

	r->ret = join(r, &rv);
	if (r->ret)
		return NULL;
	for (i = 0; i < r->sig.n; i++)
		r->seen[i] = *pwfw_rv_member(rv, i);
	sleep_ms(r->hold_ms);
	for (i = 0; i < r->barriers && !r->barrier_ret; i++)
		r->barrier_ret = pwfw_rv_barrier(rv, r->grank);
	pwfw_rv_leave(rv, r->grank);
	return NULL;
}

static void start(pthread_t *t, struct run *r)
{
	if (pthread_create(t, NULL, member_thread, r))
		abort();
}

/* The log line that starts with @prefix, copied into @line, or false. */
static bool log_line(struct pwfw_user_island *ui, const char *prefix,
		     char *line, size_t len)
{
	static char log[PWFW_USER_LOG_BYTES];
	char *p, *end;

	pwfw_user_island_log(ui, log, sizeof(log));
	for (p = log; *p; p = end + 1) {
		end = strchr(p, '\n');
		if (!end)
			return false;
		if (!strncmp(p, prefix, strlen(prefix))) {
			snprintf(line, len, "%.*s", (int)(end - p), p);
			return true;
		}
	}
	return false;
}

/* Whether the log line that starts with @prefix contains @text. */
static bool line_says(struct pwfw_user_island *ui, const char *prefix,
		      const char *text)
{
	char line[512];

	if (!log_line(ui, prefix, line, sizeof(line)))
		return false;
	fprintf(stderr, "# %s\n", line);
	return strstr(line, text);
}

static u32 log_lines(struct pwfw_user_island *ui)
{
	char none[1];

	return pwfw_user_island_log(ui, none, sizeof(none));
}

FIXTURE(meet) {
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run runs[MAX_THREADS];
	pthread_t threads[MAX_THREADS];
};

FIXTURE_VARIANT(meet) {
	u32 n;
	bool devs;	/* join with the group's devices */
};

FIXTURE_VARIANT_ADD(meet, alone) { .n = 1 };
FIXTURE_VARIANT_ADD(meet, two) { .n = 2 };
FIXTURE_VARIANT_ADD(meet, four) { .n = 4 };
FIXTURE_VARIANT_ADD(meet, eight) { .n = 8 };
FIXTURE_VARIANT_ADD(meet, eight_with_devs) { .n = 8, .devs = true };

FIXTURE_SETUP(meet)
{
	self->isl = island_new(&self->ui, "2x4t", 8, LONG_TIMEOUT);
	ASSERT_NE(NULL, self->isl);
}

FIXTURE_TEARDOWN(meet)
{
	island_free(&self->ui, self->isl);
}

/*
 * n threads meet 20 times (collectives 0..19 of one gang), with ranks
 * on devices in reverse order: each sees every member's buffers and
 * device, passes 3 barriers, and leaves; nothing stays behind.
 */
TEST_F(meet, members_see_each_other)
{
	static const u32 devs[8] = { 7, 6, 5, 4, 3, 2, 1, 0 };
	u32 n = variant->n, seq, i, j;

	for (seq = 0; seq < 20; seq++) {
		for (i = 0; i < n; i++) {
			self->runs[i] = (struct run){
				.isl = self->isl, .dev = 7 - i, .grank = i,
				.sig = make_sig(0x1234, seq, n),
				.devs = variant->devs ? devs : NULL,
				.barriers = 3,
			};
			start(&self->threads[i], &self->runs[i]);
		}
		for (i = 0; i < n; i++)
			pthread_join(self->threads[i], NULL);
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, self->runs[i].ret);
			EXPECT_EQ(0, self->runs[i].barrier_ret);
			for (j = 0; j < n; j++) {
				EXPECT_EQ(7 - j, self->runs[i].seen[j].dev);
				EXPECT_EQ(&self->runs[j].src,
					  self->runs[i].seen[j].src);
				EXPECT_EQ(&self->runs[j].dst,
					  self->runs[i].seen[j].dst);
			}
		}
		ASSERT_EQ(0U, pwfw_rv_count(self->isl));
	}
	EXPECT_EQ(20U * n, self->ui.coll[PWFW_COLL_JOIN]);
	EXPECT_EQ(20U * n, self->ui.coll[PWFW_COLL_START]);
	EXPECT_EQ(20U * n, self->ui.coll[PWFW_COLL_DONE]);
	EXPECT_EQ(0U, log_lines(&self->ui));
}

/* Two replica groups of one gang meet separately. */
/*
 * A member that reaches a barrier after its peer timed out in it gets the
 * same -ETIMEDOUT, not success: no member of a collective may succeed
 * where another failed (it would read the failed peer's buffers after it
 * left).
 */
TEST(a_late_barrier_sees_the_timeout)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run runs[2];
	pthread_t t[2];
	u32 i;

	isl = island_new(&ui, "2", 2, 200000000ULL);	/* 200 ms */
	ASSERT_NE(NULL, isl);
	for (i = 0; i < 2; i++) {
		runs[i] = (struct run){
			.isl = isl, .dev = i, .grank = i,
			.sig = make_sig(0x51, 0, 2), .barriers = 1,
			.hold_ms = i ? 600 : 0,
		};
		start(&t[i], &runs[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, runs[i].ret);
		EXPECT_EQ(-PWFW_ETIMEDOUT, runs[i].barrier_ret) {
			TH_LOG("rank %u", i);
		}
	}
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

TEST(groups_meet_apart)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run runs[4];
	pthread_t t[4];
	u32 i, j;

	isl = island_new(&ui, "4", 4, LONG_TIMEOUT);
	ASSERT_NE(NULL, isl);
	/* Devices 0 and 2 are group 5, devices 1 and 3 group 6. */
	for (i = 0; i < 4; i++) {
		runs[i] = (struct run){
			.isl = isl, .dev = i, .grank = i / 2,
			.sig = make_sig(0x77, 0, 2), .barriers = 1,
		};
		runs[i].sig.group = i % 2 ? 6 : 5;
		start(&t[i], &runs[i]);
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, runs[i].ret);
		for (j = 0; j < 2; j++)
			EXPECT_EQ(i % 2 + 2 * j, runs[i].seen[j].dev);
	}
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

FIXTURE(mismatch) {
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
};

FIXTURE_VARIANT(mismatch) {
	u32 field;	/* which field member 1 changes */
};

enum { F_LAYOUT, F_N, F_OP, F_MODE, F_DTYPE, F_SRC, F_DST };

FIXTURE_VARIANT_ADD(mismatch, layout) { .field = F_LAYOUT };
FIXTURE_VARIANT_ADD(mismatch, count) { .field = F_N };
FIXTURE_VARIANT_ADD(mismatch, op) { .field = F_OP };
FIXTURE_VARIANT_ADD(mismatch, mode) { .field = F_MODE };
FIXTURE_VARIANT_ADD(mismatch, dtype) { .field = F_DTYPE };
FIXTURE_VARIANT_ADD(mismatch, src_shape) { .field = F_SRC };
FIXTURE_VARIANT_ADD(mismatch, dst_shape) { .field = F_DST };

FIXTURE_SETUP(mismatch)
{
	self->isl = island_new(&self->ui, "4", 4, LONG_TIMEOUT);
	ASSERT_NE(NULL, self->isl);
}

FIXTURE_TEARDOWN(mismatch)
{
	island_free(&self->ui, self->isl);
}

/* Whoever comes first, all three fail with -EINVAL, without waiting. */
TEST_F(mismatch, every_member_fails_with_einval)
{
	struct run runs[3];
	pthread_t t[3];
	u32 i;

	for (i = 0; i < 3; i++) {
		runs[i] = (struct run){
			.isl = self->isl, .dev = i, .grank = i,
			.sig = make_sig(0x99, 0, 3), .barriers = 1,
		};
	}
	switch (variant->field) {
	case F_LAYOUT:
		runs[1].sig.layout++;
		break;
	case F_N:
		runs[1].sig.n = 4;
		break;
	case F_OP:
		runs[1].sig.op = PWTPU_OP_ALL_GATHER;
		break;
	case F_MODE:
		runs[1].sig.mode = PWTPU_REDUCE_MAX;
		break;
	case F_DTYPE:
		runs[1].sig.dtype = PWTPU_DT_I32;
		break;
	case F_SRC:
		runs[1].sig.src_elems++;
		break;
	case F_DST:
		runs[1].sig.dst_elems--;
		break;
	}
	for (i = 0; i < 3; i++)
		start(&t[i], &runs[i]);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-PWFW_EINVAL, runs[i].ret) TH_LOG("member %u", i);
	/* At most the poisoned entry is kept, for ranks that never came. */
	EXPECT_GE(1U, pwfw_rv_count(self->isl));
	EXPECT_EQ(0U, self->ui.coll[PWFW_COLL_START]);
	EXPECT_EQ(3U, self->ui.coll[PWFW_COLL_DONE]);
}

/*
 * Gang 0x1234 of 4 on devices 0..3: devices 0 and 1 come; device 2 is
 * stuck in gang file 22136 (which began later); device 3 does nothing.
 */
FIXTURE(missing) {
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
};

FIXTURE_VARIANT(missing) {
	bool devs;
	const char *tail;	/* the log line after "waited N ms" */
};

FIXTURE_VARIANT_ADD(missing, with_devs) {
	.devs = true,
	.tail = " ms for ranks 2,3 (devices 2,3); device 2 is waiting in "
		"gang file 22136 collective 0 (all-gather, group 0), device 3 is "
		"not waiting in any collective",
};

/* Without the group's devices: what every other device waits in. */
FIXTURE_VARIANT_ADD(missing, without_devs) {
	.devs = false,
	.tail = " ms for ranks 2,3; device 2 is waiting in gang file 22136 "
		"collective 0 (all-gather, group 0)",
};

FIXTURE_SETUP(missing)
{
	self->isl = island_new(&self->ui, "4", 4, 1000 * MS);
	ASSERT_NE(NULL, self->isl);
}

FIXTURE_TEARDOWN(missing)
{
	island_free(&self->ui, self->isl);
}

TEST_F(missing, members_time_out_with_one_log_line)
{
	static const u32 devs[4] = { 0, 1, 2, 3 };
	const char *head = "gang file 4660 collective 0 (all-reduce, group 0): "
		"devices 0,1 (ranks 0,1 of 4) waited ";
	struct run runs[3];
	pthread_t t[3];
	char line[512];
	const char *p;
	u32 i;

	for (i = 0; i < 2; i++) {
		runs[i] = (struct run){
			.isl = self->isl, .dev = i, .grank = i,
			.sig = make_sig(0x1234, 0, 4),
			.devs = variant->devs ? devs : NULL,
		};
		start(&t[i], &runs[i]);
	}
	ASSERT_TRUE(await_count(self->isl, 1));
	runs[2] = (struct run){
		.isl = self->isl, .dev = 2, .grank = 0,
		.sig = make_sig(0x5678, 0, 2),
	};
	runs[2].sig.op = PWTPU_OP_ALL_GATHER;
	start(&t[2], &runs[2]);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-PWFW_ETIMEDOUT, runs[i].ret);

	/* One line per collective that timed out. */
	EXPECT_EQ(2U, log_lines(&self->ui));
	ASSERT_TRUE(log_line(&self->ui, "gang file 4660 ", line, sizeof(line)));
	TH_LOG("%s", line);
	ASSERT_EQ(0, strncmp(line, head, strlen(head)));
	p = line + strlen(head);
	ASSERT_TRUE(*p >= '0' && *p <= '9');
	while (*p >= '0' && *p <= '9')
		p++;
	EXPECT_STREQ(variant->tail, p);
	ASSERT_TRUE(log_line(&self->ui, "gang file 22136 ", line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, "device 2 (rank 0 of 2) waited "));
	/* Kept, poisoned, for the ranks that never came. */
	EXPECT_EQ(2U, pwfw_rv_count(self->isl));
}

/*
 * A member that comes after its collective timed out fails at once with
 * the same error: no second wait, no second log line. When the last rank
 * has come, the entry is gone.
 */
TEST(late_member_fails_at_once)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run r;

	isl = island_new(&ui, "4", 4, 100 * MS);
	ASSERT_NE(NULL, isl);
	r = (struct run){ .isl = isl, .dev = 0, .grank = 0,
			  .sig = make_sig(0xabc, 3, 3) };
	member_thread(&r);
	EXPECT_EQ(-PWFW_ETIMEDOUT, r.ret);
	EXPECT_EQ(1U, log_lines(&ui));
	EXPECT_EQ(1U, pwfw_rv_count(isl));

	/* Another signature is still refused for what it is. */
	r = (struct run){ .isl = isl, .dev = 1, .grank = 1,
			  .sig = make_sig(0xabc, 3, 3) };
	r.sig.dtype = PWTPU_DT_BF16;
	member_thread(&r);
	EXPECT_EQ(-PWFW_EINVAL, r.ret);

	r.sig = make_sig(0xabc, 3, 3);
	member_thread(&r);
	EXPECT_EQ(-PWFW_ETIMEDOUT, r.ret);
	EXPECT_EQ(1U, pwfw_rv_count(isl));
	r.dev = 2;
	r.grank = 2;
	member_thread(&r);
	EXPECT_EQ(-PWFW_ETIMEDOUT, r.ret);
	EXPECT_EQ(1U, log_lines(&ui));
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

/* One device's program: its collectives in its queue's order. */
struct queue {
	struct pwfw_island *isl;
	u32 dev;
	u64 gangs[2];
	int ret[2];
};

static void *queue_thread(void *arg)
{
	struct queue *q = arg;
	struct run r;
	u32 i;

	for (i = 0; i < 2; i++) {
		/* In both gangs device 0 is rank 0 and device 1 rank 1. */
		r = (struct run){ .isl = q->isl, .dev = q->dev,
				  .grank = q->dev, .barriers = 1,
				  .sig = make_sig(q->gangs[i], 0, 2) };
		member_thread(&r);
		q->ret[i] = r.ret ? r.ret : r.barrier_ret;
	}
	return NULL;
}

/* The result of @gang on the device of @q. */
static int result_of(const struct queue *q, u64 gang)
{
	return q->gangs[0] == gang ? q->ret[0] : q->ret[1];
}

/*
 * What keys a gang is its scope and its id: rank 0 and rank 1 that differ
 * in either one meet nobody and both time out, each with its own line,
 * which names its scope and not the id.
 */
TEST(scope_and_id_both_tell_gangs_apart)
{
	static char log[PWFW_USER_LOG_BYTES];
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	pthread_t t[2];
	struct run r[2];
	u32 differ, i;

	for (differ = 0; differ < 2; differ++) {
		isl = island_new(&ui, "4", 4, 100 * MS);
		ASSERT_NE(NULL, isl);
		for (i = 0; i < 2; i++) {
			r[i] = (struct run){ .isl = isl, .dev = i, .grank = i,
					     .sig = make_sig(7, 0, 2) };
			if (differ == 0)
				r[i].sig.scope += i;
			else
				r[i].sig.gang_id += i;
			start(&t[i], &r[i]);
		}
		for (i = 0; i < 2; i++) {
			pthread_join(t[i], NULL);
			EXPECT_EQ(-PWFW_ETIMEDOUT, r[i].ret)
				TH_LOG("%s differ: rank %u met",
				       differ ? "ids" : "scopes", i);
		}
		EXPECT_EQ(2U, log_lines(&ui));
		if (differ == 0) {
			EXPECT_TRUE(line_says(&ui, "gang file 7 ",
					      "device 0 (rank 0 of 2)"));
			EXPECT_TRUE(line_says(&ui, "gang file 8 ",
					      "device 1 (rank 1 of 2)"));
		}
		pwfw_user_island_log(&ui, log, sizeof(log));
		EXPECT_EQ(NULL, strstr(log, RV_GANG_HEX));
		island_free(&ui, isl);
	}
}

/*
 * The deadlock of the paper's section 2: device 0 runs gang X then Y,
 * device 1 runs Y then X. Neither can complete its first collective;
 * the timeout breaks the cycle: at least one gang fails, every gang
 * ends the same way on both devices, and a log line names both gangs.
 * The same programs in one consistent order all succeed.
 */
TEST(inconsistent_order_fails_consistent_order_succeeds)
{
	const u64 x = 0x1111, y = 0x2222, x2 = 0x3333, y2 = 0x4444;
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct queue q[2];
	pthread_t t[2];
	u32 i, failed = 0;

	isl = island_new(&ui, "2", 2, 500 * MS);
	ASSERT_NE(NULL, isl);
	q[0] = (struct queue){ .isl = isl, .dev = 0, .gangs = { x, y } };
	q[1] = (struct queue){ .isl = isl, .dev = 1, .gangs = { y, x } };
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, queue_thread, &q[i]));
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	EXPECT_EQ(result_of(&q[0], x), result_of(&q[1], x));
	EXPECT_EQ(result_of(&q[0], y), result_of(&q[1], y));
	for (i = 0; i < 2; i++) {
		EXPECT_TRUE(!q[0].ret[i] || q[0].ret[i] == -PWFW_ETIMEDOUT);
		failed += !!q[0].ret[i];
	}
	EXPECT_LE(1U, failed);
	/*
	 * The first collective to time out names the other one, which its
	 * missing member waits in. (Lines may be logged out of order.)
	 */
	ASSERT_LE(1U, log_lines(&ui));
	EXPECT_TRUE(line_says(&ui, "gang file 4369 ",
			      "device 1 is waiting in gang file 8738 ") ||
		    line_says(&ui, "gang file 8738 ",
			      "device 0 is waiting in gang file 4369 "));

	/* Fresh gang ids, as every run draws: the consistent order. */
	q[0] = (struct queue){ .isl = isl, .dev = 0, .gangs = { x2, y2 } };
	q[1] = (struct queue){ .isl = isl, .dev = 1, .gangs = { x2, y2 } };
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, queue_thread, &q[i]));
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, q[i].ret[0]);
		EXPECT_EQ(0, q[i].ret[1]);
	}
	island_free(&ui, isl);
}

/**
 * struct stepper - a member that checks the barrier's guarantee
 * @run: its membership.
 * @values: one slot per rank, shared.
 * @steps: barriers to go through.
 * @bad: the steps at which it saw a peer not at the same step.
 */
struct stepper {
	struct run run;
	_Atomic u32 *values;
	u32 steps;
	u32 bad;
};

static void *stepper_thread(void *arg)
{
	struct stepper *s = arg;
	struct run *r = &s->run;
	struct pwfw_rv *rv;
	u32 k, j;

	r->ret = join(r, &rv);
	if (r->ret)
		return NULL;
	for (k = 1; k <= s->steps && !r->barrier_ret; k++) {
		atomic_store(&s->values[r->grank], k);
		r->barrier_ret = pwfw_rv_barrier(rv, r->grank);
		/* Everyone wrote k before anyone passed; nobody writes k+1 yet. */
		for (j = 0; j < r->sig.n; j++)
			s->bad += atomic_load(&s->values[j]) != k;
		if (!r->barrier_ret)
			r->barrier_ret = pwfw_rv_barrier(rv, r->grank);
	}
	pwfw_rv_leave(rv, r->grank);
	return NULL;
}

TEST(barrier_holds_everyone_at_each_step)
{
	static _Atomic u32 values[4];
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct stepper s[4];
	pthread_t t[4];
	u32 i;

	isl = island_new(&ui, "2x2", 4, LONG_TIMEOUT);
	ASSERT_NE(NULL, isl);
	for (i = 0; i < 4; i++) {
		s[i] = (struct stepper){
			.run = { .isl = isl, .dev = i, .grank = i,
				 .sig = make_sig(0xbee, 0, 4) },
			.values = values, .steps = 200,
		};
		ASSERT_EQ(0, pthread_create(&t[i], NULL, stepper_thread, &s[i]));
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, s[i].run.ret);
		EXPECT_EQ(0, s[i].run.barrier_ret);
		EXPECT_EQ(0U, s[i].bad);
	}
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

/* A member that never reaches the barrier: the others time out. */
TEST(barrier_times_out_for_a_slow_member)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run runs[2];
	pthread_t t[2];
	char line[512];
	u32 i;

	isl = island_new(&ui, "2", 2, 200 * MS);
	ASSERT_NE(NULL, isl);
	for (i = 0; i < 2; i++) {
		runs[i] = (struct run){ .isl = isl, .dev = i, .grank = i,
					.sig = make_sig(0x51, 4, 2),
					.barriers = 2 };
	}
	runs[1].hold_ms = 600;
	for (i = 0; i < 2; i++)
		start(&t[i], &runs[i]);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, runs[i].ret);
		EXPECT_EQ(-PWFW_ETIMEDOUT, runs[i].barrier_ret);
	}
	EXPECT_EQ(1U, log_lines(&ui));
	ASSERT_TRUE(log_line(&ui, "gang file 81 collective 4 (all-reduce, group 0) "
			     "step 1: device 0 waited ", line, sizeof(line)));
	TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(line, " ms for rank 1; device 1 (rank 1) is at "
			       "step 0"));
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

/* A member that left early: the barrier fails at once, not at timeout. */
TEST(barrier_fails_when_a_member_left)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run runs[2];
	pthread_t t[2];
	char line[512];
	u32 i;

	isl = island_new(&ui, "2", 2, LONG_TIMEOUT);
	ASSERT_NE(NULL, isl);
	for (i = 0; i < 2; i++) {
		runs[i] = (struct run){ .isl = isl, .dev = i, .grank = i,
					.sig = make_sig(0x52, 0, 2),
					.barriers = i ? 0 : 1 };
	}
	for (i = 0; i < 2; i++)
		start(&t[i], &runs[i]);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	EXPECT_EQ(-PWFW_ETIMEDOUT, runs[0].barrier_ret);
	EXPECT_EQ(0, runs[1].barrier_ret);
	ASSERT_TRUE(log_line(&ui, "gang file 82 ", line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, "device 1 (rank 1) left at step 0"))
		TH_LOG("%s", line);
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

struct leaver {
	struct run run;
	atomic_int *peer_done;
	int seen;
};

/* Rank 0 leaves at once; rank 1 works a while, then says it is done. */
static void *leaver_thread(void *arg)
{
	struct leaver *l = arg;
	struct run *r = &l->run;
	struct pwfw_rv *rv;

	r->ret = join(r, &rv);
	if (r->ret)
		return NULL;
	if (r->grank) {
		sleep_ms(50);
		atomic_store(l->peer_done, 1);
	}
	pwfw_rv_leave(rv, r->grank);
	l->seen = atomic_load(l->peer_done);
	return NULL;
}

/* A peer may still read this member's buffers until it leaves too. */
TEST(leave_waits_for_working_peers)
{
	static atomic_int peer_done;
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct leaver l[2];
	pthread_t t[2];
	u32 i;

	isl = island_new(&ui, "2", 2, LONG_TIMEOUT);
	ASSERT_NE(NULL, isl);
	for (i = 0; i < 2; i++) {
		l[i] = (struct leaver){
			.run = { .isl = isl, .dev = i, .grank = i,
				 .sig = make_sig(0x53, 0, 2) },
			.peer_done = &peer_done,
		};
		ASSERT_EQ(0, pthread_create(&t[i], NULL, leaver_thread, &l[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	EXPECT_EQ(0, l[0].run.ret);
	EXPECT_EQ(1, l[0].seen);
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

TEST(bad_arguments_are_refused)
{
	struct pwfw_coll_sig sig = make_sig(0x60, 0, 2);
	struct pwfw_member me = { 0 };
	const u32 devs[2] = { 1, 0 };
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct pwfw_rv *rv;

	isl = island_new(&ui, "4", 4, LONG_TIMEOUT);
	ASSERT_NE(NULL, isl);
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(isl, 4, &sig, 0, &me, &rv));
	EXPECT_EQ(NULL, rv);
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(isl, 0, &sig, 2, &me, &rv));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(isl, 0, NULL, 0, &me, &rv));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(isl, 0, &sig, 0, NULL, &rv));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(isl, 0, &sig, 0, &me, NULL));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(NULL, 0, &sig, 0, &me, &rv));
	/* devs[grank] must be the joining device. */
	EXPECT_EQ(-PWFW_EINVAL,
		  pwfw_rv_join_devs(isl, 0, &sig, 0, &me, devs, &rv));
	sig.n = 0;
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(isl, 0, &sig, 0, &me, &rv));
	sig.n = PWTPU_MAX_GANG + 1;
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_join(isl, 0, &sig, 0, &me, &rv));
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	EXPECT_EQ(0U, ui.coll[PWFW_COLL_JOIN]);

	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_barrier(NULL, 0));
	pwfw_rv_leave(NULL, 0);
	EXPECT_EQ(NULL, pwfw_rv_member(NULL, 0));

	/* A collective of one: no waiting; ranks past n are refused. */
	sig = make_sig(0x61, 0, 1);
	ASSERT_EQ(0, pwfw_rv_join(isl, 3, &sig, 0, &me, &rv));
	EXPECT_EQ(3U, pwfw_rv_member(rv, 0)->dev);
	EXPECT_EQ(NULL, pwfw_rv_member(rv, 1));
	EXPECT_EQ(-PWFW_EINVAL, pwfw_rv_barrier(rv, 1));
	EXPECT_EQ(0, pwfw_rv_barrier(rv, 0));
	pwfw_rv_leave(rv, 1);
	EXPECT_EQ(1U, pwfw_rv_count(isl));
	pwfw_rv_leave(rv, 0);
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	EXPECT_EQ(0U, log_lines(&ui));
	island_free(&ui, isl);
}

/* A rank that is already there: the newcomer is refused, alone. */
TEST(duplicate_rank_is_refused)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run first, dup;
	pthread_t t;

	isl = island_new(&ui, "2", 2, 300 * MS);
	ASSERT_NE(NULL, isl);
	first = (struct run){ .isl = isl, .dev = 0, .grank = 0,
			      .sig = make_sig(0x62, 0, 2) };
	start(&t, &first);
	ASSERT_TRUE(await_count(isl, 1));
	dup = (struct run){ .isl = isl, .dev = 1, .grank = 0,
			    .sig = make_sig(0x62, 0, 2) };
	member_thread(&dup);
	EXPECT_EQ(-PWFW_EINVAL, dup.ret);
	pthread_join(t, NULL);
	EXPECT_EQ(-PWFW_ETIMEDOUT, first.ret);
	island_free(&ui, isl);
}

TEST(out_of_memory_is_enomem)
{
	struct pwfw_coll_sig sig = make_sig(0x63, 0, 2);
	struct pwfw_member me = { 0 };
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct pwfw_rv *rv;

	isl = island_new(&ui, "2", 2, LONG_TIMEOUT);
	ASSERT_NE(NULL, isl);
	pwfw_user_zalloc_fail_after(0);
	EXPECT_EQ(-PWFW_ENOMEM, pwfw_rv_join(isl, 0, &sig, 0, &me, &rv));
	pwfw_user_zalloc_fail_after(-1);
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	EXPECT_EQ(1U, ui.coll[PWFW_COLL_DONE]);
	island_free(&ui, isl);
}

/* Kept entries go after twice the timeout, at the next join. */
TEST(kept_entries_expire)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run r;

	isl = island_new(&ui, "2", 2, 50 * MS);
	ASSERT_NE(NULL, isl);
	r = (struct run){ .isl = isl, .dev = 0, .grank = 0,
			  .sig = make_sig(0x70, 0, 2) };
	member_thread(&r);
	EXPECT_EQ(-PWFW_ETIMEDOUT, r.ret);
	EXPECT_EQ(1U, pwfw_rv_count(isl));
	sleep_ms(150);
	r = (struct run){ .isl = isl, .dev = 1, .grank = 0,
			  .sig = make_sig(0x71, 0, 1) };
	member_thread(&r);
	EXPECT_EQ(0, r.ret);
	EXPECT_EQ(0U, pwfw_rv_count(isl));
	island_free(&ui, isl);
}

/* However many collectives fail, at most PWFW_RV_KEEP are kept. */
TEST(kept_entries_are_bounded_oldest_first)
{
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct run r;
	u32 seq, count;

	/*
	 * A clock frozen near 0, far behind the real one: every wait's
	 * deadline has passed for the condition variable, so each lone
	 * member fails at once, while the entries' ages (a few ns) stay far
	 * below twice the timeout.
	 */
	isl = island_new(&ui, "2", 2, 1000 * MS);
	ASSERT_NE(NULL, isl);
	for (seq = 0; seq < 3 * PWFW_RV_KEEP; seq++) {
		pwfw_user_clock_freeze(seq + 1);
		r = (struct run){ .isl = isl, .dev = 0, .grank = 0,
				  .sig = make_sig(0x80, seq, 2) };
		member_thread(&r);
		ASSERT_EQ(-PWFW_ETIMEDOUT, r.ret);
	}
	count = pwfw_rv_count(isl);
	EXPECT_LE(count, PWFW_RV_KEEP + 1);
	EXPECT_GE(count, PWFW_RV_KEEP);
	EXPECT_EQ(3 * PWFW_RV_KEEP, log_lines(&ui));

	/* The newest is kept: its late member fails without a new line. */
	r = (struct run){ .isl = isl, .dev = 1, .grank = 1,
			  .sig = make_sig(0x80, 3 * PWFW_RV_KEEP - 1, 2) };
	member_thread(&r);
	EXPECT_EQ(-PWFW_ETIMEDOUT, r.ret);
	EXPECT_EQ(3 * PWFW_RV_KEEP, log_lines(&ui));
	/* The oldest is gone: its late member waits (0 ns) and logs. */
	r.sig = make_sig(0x80, 0, 2);
	member_thread(&r);
	EXPECT_EQ(-PWFW_ETIMEDOUT, r.ret);
	EXPECT_EQ(3 * PWFW_RV_KEEP + 1, log_lines(&ui));
	pwfw_user_clock_thaw();
	island_free(&ui, isl);
}

TEST_HARNESS_MAIN
