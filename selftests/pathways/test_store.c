// SPDX-License-Identifier: GPL-2.0
/*
 * test_store.c - the object store and device memory, as the driver
 * counts it (sysfs hbm_used): a disconnecting client's buffers and work
 * are collected, a killed client's memory comes back, a chain of
 * computations over several times the HBM completes under back-pressure,
 * and requests that cannot be met fail with -E2BIG or -ENOMEM and say
 * why.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "pw_common.h"

#define MIB	(1024u * 1024u)

/*
 * Elements of a f32 shard larger than the runtime's cache of freed
 * buffer objects may keep (an eighth of HBM): freeing it gives the
 * memory back to the driver at once.
 */
static uint32_t uncached_elems(void)
{
	return (uint32_t)(pwt_hbm_total() / 8 / sizeof(float)) + 1024;
}

/*
 * A client with buffers of its own and a chain of slow computations, most
 * of them still waiting in the scheduler (window 1), disconnects: its
 * queued work is dropped, the rest completes, and every byte it held
 * goes back to the driver while another client keeps the runtime up.
 * Then the last client's disconnect returns the runtime's own cache too.
 */
TEST(disconnect_collects)
{
	struct pw_buffer *x, *y[3];
	struct pw_client *obs, *cl;
	struct pw_client_stats st;
	uint64_t before, base, used;
	struct pw_slice *s;
	uint32_t elems;
	struct pw_fn *fn;
	float *host;
	unsigned int i;

	PWT_NEED_DEVICES(2);
	before = pwt_hbm_settle();
	ASSERT_NE(UINT64_MAX, before);
	obs = pwt_connect("observer", 0);
	ASSERT_NE(NULL, obs);
	base = pwt_hbm_used();

	cl = pwt_connect("leaver", 0);
	ASSERT_NE(NULL, cl);
	elems = uncached_elems();
	host = calloc(2 * (size_t)elems, sizeof(float));
	ASSERT_NE(NULL, host);
	s = pwt_slice(cl, 2, NULL);
	ASSERT_NE(NULL, s);
	/* Slower than the host allocating the outputs, in every mode. */
	fn = pwt_slow_add_fn("slow", 1, elems, 200000000);
	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_set_sched_policy(cl, PW_SCHED_FIFO, 1));
	x = pwt_upload(cl, s, host, elems, false);
	ASSERT_NE(NULL, x);
	free(host);
	ASSERT_EQ(0, pw_call(cl, fn, s, &x, 1, &y[0], 1));
	for (i = 1; i < 3; i++) {
		ASSERT_EQ(0, pw_call(cl, fn, s, &y[i - 1], 1, &y[i], 1));
		pw_buffer_put(y[i - 1]);
	}
	pw_client_stats(cl, &st);
	/*
	 * x and three outputs of two shards; y[0] and y[1] go as soon as
	 * the calls reading them end.
	 */
	EXPECT_GE(4 * 2 * (uint64_t)elems * sizeof(float), st.hbm_bytes);
	EXPECT_LE(2 * 2 * (uint64_t)elems * sizeof(float), st.hbm_bytes);
	EXPECT_EQ(3u, st.submitted);
	/* Made at the call, or when the worker gets the plan: soon. */
	for (i = 0; i < 300; i++) {
		used = pwt_hbm_used();
		if (used >= base + st.hbm_bytes)
			break;
		pwt_sleep_ms(10);
	}
	EXPECT_LE(base + st.hbm_bytes, used);

	pw_disconnect(cl);
	/* Its function holds device memory (constants) until put. */
	pw_fn_put(fn);
	used = pwt_hbm_wait(base, 3000);
	EXPECT_EQ(base, used) {
		TH_LOG("HBM in use: %llu bytes before the client, %llu after it left",
		       (unsigned long long)base, (unsigned long long)used);
	}

	/* Small buffers freed now stay in the runtime's cache... */
	s = pwt_slice(obs, 1, NULL);
	ASSERT_NE(NULL, s);
	for (i = 0; i < 4; i++) {
		float v = (float)i;

		x = pwt_upload(obs, s, &v, 1, false);
		ASSERT_NE(NULL, x);
		ASSERT_EQ(0, pw_buffer_wait(x));
		pw_buffer_put(x);
	}
	/* ...which the last disconnect gives back with everything else. */
	pw_disconnect(obs);
	used = pwt_hbm_wait(before, 3000);
	EXPECT_EQ(before, used);
}

/*
 * A child process connects, fills HBM on every device and queues slow
 * work, then is killed: the driver reclaims what its files held, and a
 * client of this process works.
 */
static void __attribute__((noreturn)) hog(int ready_fd)
{
	uint32_t elems = 2 * MIB;	/* 8 MiB shards */
	struct pw_buffer *x, *y;
	struct pw_slice *s;
	struct pw_client *cl;
	struct pw_fn *fn;
	float *host;
	unsigned int i;
	char c = 'r';

	/*
	 * Dies with the test: a test the harness times out must not leave
	 * the island claimed for every test after it.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		_exit(1);
	/* The helpers say what failed on stderr. */
	cl = pwt_connect("hog", 0);
	host = calloc(elems, sizeof(float));
	if (!cl || !host)
		_exit(1);
	s = pwt_slice(cl, (unsigned int)pw_num_devices(cl), NULL);
	fn = pwt_slow_add_fn("slow", 1, elems, 100000000);
	if (!s || !fn)
		_exit(1);
	/* 3 x 8 MiB; the calls add their scratch (8 MiB) and outputs. */
	for (i = 0; i < 2; i++)
		if (!pwt_upload(cl, s, host, elems, true))
			_exit(1);
	x = pwt_upload(cl, s, host, elems, true);
	if (!x)
		_exit(1);
	for (i = 0; i < 3; i++) {
		if (pw_call(cl, fn, s, &x, 1, &y, 1)) {
			fprintf(stderr, "# hog: call %u: %s\n", i,
				pw_last_error());
			_exit(1);
		}
		x = y;
	}
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

TEST(killed_client_memory_returns)
{
	uint64_t base, used;
	struct pw_slice *s;
	struct pw_buffer *x, *y;
	struct pw_client *cl;
	struct pw_fn *fn;
	float v[PWT_MAX_DEVICES], got[PWT_MAX_DEVICES];
	unsigned int n, i;
	int pipefd[2], status;
	pid_t pid;
	char c;

	PWT_NEED_DEVICES(1);
	/* Fork before connecting: the runtime's threads do not fork. */
	base = pwt_hbm_settle();
	ASSERT_NE(UINT64_MAX, base);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pipefd[0]);
		hog(pipefd[1]);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		TH_LOG("the child failed to set up");
	}
	close(pipefd[0]);
	used = pwt_hbm_used();
	/* At least the three 8 MiB buffers on every device. */
	EXPECT_LE(base + 3 * 8ull * MIB * pwt_sysfs_devices(), used);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	used = pwt_hbm_wait(base, 5000);
	EXPECT_EQ(base, used) {
		TH_LOG("HBM in use: %llu bytes before, %llu after the kill",
		       (unsigned long long)base, (unsigned long long)used);
	}

	cl = pwt_connect("survivor", 0);
	ASSERT_NE(NULL, cl);
	n = (unsigned int)pw_num_devices(cl);
	s = pwt_slice(cl, n, NULL);
	fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, 1);
	ASSERT_NE(NULL, s);
	ASSERT_NE(NULL, fn);
	for (i = 0; i < n; i++)
		v[i] = (float)(10 * i);
	x = pwt_upload(cl, s, v, 1, false);
	ASSERT_NE(NULL, x);
	ASSERT_EQ(0, pw_call(cl, fn, s, &x, 1, &y, 1));
	ASSERT_EQ(0, pwt_fetch(y, got, n));
	for (i = 0; pwt_values_checked() && i < n; i++) {
		EXPECT_EQ(v[i] + 1, got[i]);
	}
	pw_fn_put(fn);
	pw_disconnect(cl);
}

/*
 * y[i+1] = y[i] + 1 for 40 steps, 8 MiB per buffer on one device of
 * 64 MiB: five times its HBM in all. Each input is put right after the
 * call that reads it, so memory frees as the device goes; the calls wait
 * for it rather than fail.
 */
#define CHAIN	40

TEST(back_pressure_chain)
{
	const uint32_t elems = 2 * MIB;
	struct pw_buffer *y, *next;
	struct pw_slice *s;
	struct pw_client *cl;
	struct pw_fn *fn;
	float *host, *got;
	unsigned int i, bad = 0, first_bad = 0;

	PWT_NEED_DEVICES(1);
	ASSERT_GE(5 * pwt_hbm_total(), (uint64_t)CHAIN * elems * sizeof(float))
	{
		TH_LOG("HBM of %llu bytes is too large for this test",
		       (unsigned long long)pwt_hbm_total());
	}
	cl = pwt_connect("chain", 0);
	ASSERT_NE(NULL, cl);
	s = pwt_slice(cl, 1, NULL);
	fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, elems);
	host = malloc(elems * sizeof(float));
	got = malloc(elems * sizeof(float));
	ASSERT_NE(NULL, s);
	ASSERT_NE(NULL, fn);
	ASSERT_NE(NULL, host);
	ASSERT_NE(NULL, got);
	for (i = 0; i < elems; i++)
		host[i] = (float)(i % 100000);
	y = pwt_upload(cl, s, host, elems, false);
	ASSERT_NE(NULL, y);
	for (i = 0; i < CHAIN; i++) {
		ASSERT_EQ(0, pw_call(cl, fn, s, &y, 1, &next, 1)) {
			TH_LOG("step %u: %s", i, pw_last_error());
		}
		pw_buffer_put(y);
		y = next;
	}
	ASSERT_EQ(0, pwt_fetch(y, got, elems));
	for (i = 0; pwt_values_checked() && i < elems; i++) {
		if (got[i] != host[i] + CHAIN && !bad++)
			first_bad = i;
	}
	EXPECT_EQ(0u, bad) {
		TH_LOG("element %u: %g, want %g", first_bad, got[first_bad],
		       host[first_bad] + CHAIN);
	}
	free(host);
	free(got);
	pw_fn_put(fn);
	pw_disconnect(cl);
}

/* A buffer larger than a device's HBM can never be made: -E2BIG. */
TEST(larger_than_hbm_is_e2big)
{
	const uint32_t one = 1;
	struct pw_buffer *buf, *x;
	struct pw_fn_builder *b;
	struct pw_slice *s;
	struct pw_client *cl;
	struct pw_fn *fn;
	uint32_t big;
	float *host, v = 1;

	PWT_NEED_DEVICES(1);
	big = (uint32_t)(pwt_hbm_total() / sizeof(float)) + 1024;
	cl = pwt_connect("big", 0);
	ASSERT_NE(NULL, cl);
	s = pwt_slice(cl, 1, NULL);
	ASSERT_NE(NULL, s);
	/* Never touched: the allocation fails before the copy. */
	host = calloc(big, sizeof(float));
	ASSERT_NE(NULL, host);
	EXPECT_EQ(-E2BIG, pw_buffer_from_host(cl, s, PWTPU_DT_F32, 1, &big,
					       host, false, &buf));
	EXPECT_NE(NULL, strstr(pw_last_error(), "HBM")) {
		TH_LOG("message: \"%s\"", pw_last_error());
	}
	free(host);

	/* A call whose output is that large fails the same way. */
	b = pw_fn_begin("broadcast_big");
	pw_fn_result(b, pw_fn_broadcast(b, pw_fn_param(b, PWTPU_DT_F32, 1,
						       &one), 1, &big));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) {
		TH_LOG("%s", pw_last_error());
	}
	x = pwt_upload(cl, s, &v, 1, false);
	ASSERT_NE(NULL, x);
	EXPECT_EQ(-E2BIG, pw_call(cl, fn, s, &x, 1, &buf, 1)) {
		TH_LOG("%s", pw_last_error());
	}
	/* The client goes on working. */
	ASSERT_EQ(0, pw_buffer_wait(x));
	pw_fn_put(fn);
	pw_disconnect(cl);
}

/*
 * Fill the HBM of @s's device with buffers this client keeps in @bufs
 * (room for @max): 8 MiB ones until they no longer fit, then halves down
 * to a page, so that no page is left. Returns how many were made;
 * *@err gets the failure that ended the 8 MiB ones.
 */
static unsigned int fill_hbm(struct pw_client *cl, struct pw_slice *s,
			     const float *host, struct pw_buffer **bufs,
			     unsigned int max, int *err, char *msg,
			     size_t msg_size)
{
	uint32_t elems = 2 * MIB;
	unsigned int made = 0;
	int ret;

	*err = 0;
	for (; elems >= 1024; elems /= 2) {
		while (made < max) {
			ret = pw_buffer_from_host(cl, s, PWTPU_DT_F32, 1,
						  &elems, host, false,
						  &bufs[made]);
			if (ret)
				break;
			made++;
		}
		if (!*err) {
			*err = ret;
			snprintf(msg, msg_size, "%s", pw_last_error());
		}
	}
	return made;
}

/*
 * A client keeps every buffer it makes on one device until HBM is full;
 * with nothing in flight that could free memory the next buffer, and the
 * next call's output, fail with -ENOMEM and say so, instead of waiting
 * forever. Putting a buffer makes room again.
 */
TEST(full_hbm_with_nothing_in_flight_is_enomem)
{
	const uint32_t elems = 2 * MIB;
	struct pw_buffer *bufs[64], *buf, *x, *y;
	struct pw_slice *s;
	struct pw_client *cl;
	unsigned int made, i;
	uint64_t used;
	struct pw_fn *fn;
	char msg[256];
	float *host;
	int ret;

	PWT_NEED_DEVICES(1);
	cl = pwt_connect("hoarder", 0);
	ASSERT_NE(NULL, cl);
	s = pwt_slice(cl, 1, NULL);
	ASSERT_NE(NULL, s);
	host = calloc(elems, sizeof(float));
	ASSERT_NE(NULL, host);
	/* A function already loaded: its call needs only an output page. */
	fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, 1);
	ASSERT_NE(NULL, fn);
	x = pwt_upload(cl, s, host, 1, false);
	ASSERT_NE(NULL, x);
	ASSERT_EQ(0, pw_call(cl, fn, s, &x, 1, &y, 1));
	ASSERT_EQ(0, pw_buffer_wait(y));

	made = fill_hbm(cl, s, host, bufs, 64, &ret, msg, sizeof(msg));
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_NE(NULL, strstr(msg, "full")) {
		TH_LOG("message: \"%s\"", msg);
	}
	ASSERT_LE(1u, made);
	ASSERT_GT(64u, made);
	for (i = 0; i < made; i++) {
		ASSERT_EQ(0, pw_buffer_wait(bufs[i]));
	}

	/* The output is made when the worker gets the plan: the wait says. */
	ASSERT_EQ(0, pw_call(cl, fn, s, &x, 1, &y, 1));
	ret = pw_buffer_wait(y);
	pw_buffer_put(y);
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_NE(NULL, strstr(pw_last_error(), "HBM")) {
		TH_LOG("pw_call: \"%s\"", pw_last_error());
	}

	/* Room again once the driver has the first (8 MiB) buffer back. */
	used = pwt_hbm_used();
	pw_buffer_put(bufs[0]);
	pwt_hbm_wait(used - elems * sizeof(float), 2000);
	ASSERT_EQ(0, pw_buffer_from_host(cl, s, PWTPU_DT_F32, 1, &elems, host,
					 false, &buf)) {
		TH_LOG("after freeing one: %s", pw_last_error());
	}
	ASSERT_EQ(0, pw_buffer_wait(buf));
	free(host);
	pw_fn_put(fn);
	pw_disconnect(cl);
}

/*
 * Once a buffer's value is final nothing of the runtime uses it: putting
 * the last handle frees its memory at once, so the next allocation on a
 * full device gets it (the runtime must not find "nothing in flight that
 * could free memory" while it still holds the buffer itself).
 */
/*
 * Nearly 30 large copies under TCG: 17 s on an idle 2-core host, past the
 * harness's default 30 s guard when the host is busy. The guard is for
 * hangs, not speed.
 */
FIXTURE(reuse) {
};

FIXTURE_SETUP(reuse)
{
}

FIXTURE_TEARDOWN(reuse)
{
}

TEST_F_TIMEOUT(reuse, put_after_wait_frees_at_once, 120)
{
	const uint32_t elems = 2 * MIB;
	struct pw_buffer *bufs[64], *buf;
	unsigned int made, round;
	struct pw_slice *s;
	struct pw_client *cl;
	char msg[256];
	float *host;
	int ret;

	PWT_NEED_DEVICES(1);
	cl = pwt_connect("reuser", 0);
	ASSERT_NE(NULL, cl);
	s = pwt_slice(cl, 1, NULL);
	ASSERT_NE(NULL, s);
	host = calloc(elems, sizeof(float));
	ASSERT_NE(NULL, host);
	made = fill_hbm(cl, s, host, bufs, 64, &ret, msg, sizeof(msg));
	ASSERT_LE(1u, made);
	ASSERT_EQ(0, pw_buffer_wait(bufs[made - 1]));
	/* bufs[0] is 8 MiB; each round replaces it by a new one. */
	buf = bufs[0];
	for (round = 0; round < 20; round++) {
		ASSERT_EQ(0, pw_buffer_wait(buf));
		pw_buffer_put(buf);
		ASSERT_EQ(0, pw_buffer_from_host(cl, s, PWTPU_DT_F32, 1,
						 &elems, host, false, &buf)) {
			TH_LOG("round %u: %s", round, pw_last_error());
		}
	}
	free(host);
	pw_disconnect(cl);
}

TEST_HARNESS_MAIN
