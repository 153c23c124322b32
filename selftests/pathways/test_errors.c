// SPDX-License-Identifier: GPL-2.0
/*
 * test_errors.c - failures the API promises: a device taken out of
 * service mid-run fails the work and slices on it (and only those), and
 * bad arguments are refused with the right errno and a message naming
 * what was wrong, leaving the client usable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "pw_common.h"

#define QUEUED	6	/* slow calls queued on each slice */

/* @fn (y = x + 1) on every device of @s gives the right values. */
static void check_plus1(struct __test_metadata *_metadata,
			struct pw_client *cl, struct pw_fn *fn,
			struct pw_slice *s)
{
	float w[PWT_MAX_DEVICES], out[PWT_MAX_DEVICES];
	unsigned int n = pw_slice_size(s), i;
	struct pw_buffer *x, *y;

	for (i = 0; i < n; i++)
		w[i] = (float)(5 * i);
	x = pwt_upload(cl, s, w, 1, false);
	ASSERT_NE(NULL, x);
	ASSERT_EQ(0, pw_call(cl, fn, s, &x, 1, &y, 1)) {
		TH_LOG("%s", pw_last_error());
	}
	ASSERT_EQ(0, pwt_fetch(y, out, n));
	for (i = 0; pwt_values_checked() && i < n; i++) {
		EXPECT_EQ(w[i] + 1, out[i]);
	}
	pw_buffer_put(x);
	pw_buffer_put(y);
}

/*
 * Work queued on two disjoint slices; a device of slice A is removed:
 * new work on A fails -ENODEV naming the device (also after the device
 * is back: the slice stays failed), what was queued on A either
 * completed or failed -ENODEV, and B's work completes correctly. Once
 * the device is back, a new slice on it works.
 */
TEST(device_removed_mid_run)
{
	struct pw_buffer *xa, *xb, *ya[QUEUED], *yb[QUEUED], *y;
	struct pw_slice *a, *b, *again;
	float v[2] = { 1, 2 }, got[2];
	struct pw_client *cl;
	struct pw_fn *fn;
	unsigned int i, j, nodev = 0;
	char want[32];
	int dev, ret;

	PWT_NEED_DEVICES(4);
	cl = pwt_connect("removal", 0);
	ASSERT_NE(NULL, cl);
	a = pwt_slice(cl, 2, NULL);
	b = pwt_slice(cl, 2, NULL);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			ASSERT_NE(pw_slice_device(a, i),
				  pw_slice_device(b, j));
		}
	}
	fn = pwt_slow_add_fn("slow_plus1", 1, 1, 20000000);
	ASSERT_NE(NULL, fn);
	xa = pwt_upload(cl, a, v, 1, false);
	xb = pwt_upload(cl, b, v, 1, false);
	ASSERT_NE(NULL, xa);
	ASSERT_NE(NULL, xb);
	for (i = 0; i < QUEUED; i++) {
		ASSERT_EQ(0, pw_call(cl, fn, a, i ? &ya[i - 1] : &xa, 1,
				     &ya[i], 1));
		ASSERT_EQ(0, pw_call(cl, fn, b, i ? &yb[i - 1] : &xb, 1,
				     &yb[i], 1));
	}

	dev = pw_slice_device(a, 1);
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, pw_remove_device(cl, (unsigned int)dev));
	EXPECT_EQ(-EALREADY, pw_remove_device(cl, (unsigned int)dev));
	snprintf(want, sizeof(want), "device %d", dev);
	EXPECT_EQ(-ENODEV, pw_call(cl, fn, a, &xa, 1, &y, 1));
	EXPECT_NE(NULL, strstr(pw_last_error(), want)) {
		TH_LOG("message \"%s\" does not name %s", pw_last_error(),
		       want);
	}
	EXPECT_EQ(-ENODEV, pw_buffer_from_host(cl, a, PWTPU_DT_F32, 1,
					       (const uint32_t[]){ 1 }, v,
					       false, &y));
	EXPECT_NE(NULL, strstr(pw_last_error(), want));

	for (i = 0; i < QUEUED; i++) {
		ret = pw_buffer_wait(ya[i]);
		/* Once a call failed, the rest of the chain fails too. */
		if (ret || nodev) {
			EXPECT_EQ(-ENODEV, ret) {
				TH_LOG("slice A, call %u: %s", i,
				       pw_last_error());
			}
		}
		nodev += ret == -ENODEV;
	}
	ASSERT_EQ(0, pwt_fetch(yb[QUEUED - 1], got, 2));
	if (pwt_values_checked()) {
		EXPECT_EQ(v[0] + QUEUED, got[0]);
		EXPECT_EQ(v[1] + QUEUED, got[1]);
	}
	TH_LOG("%u of slice A's %u queued calls failed -ENODEV", nodev,
	       QUEUED);

	ASSERT_EQ(0, pw_add_device(cl, (unsigned int)dev));
	EXPECT_EQ(-EALREADY, pw_add_device(cl, (unsigned int)dev));
	EXPECT_EQ(-ENODEV, pw_call(cl, fn, a, &xa, 1, &y, 1));
	/* Every device again: the slice is sure to use the one re-added. */
	again = pwt_slice(cl, (unsigned int)pw_num_devices(cl), NULL);
	ASSERT_NE(NULL, again);
	check_plus1(_metadata, cl, fn, again);
	EXPECT_EQ(-EINVAL, pw_remove_device(cl, 1000));
	pw_fn_put(fn);
	pw_disconnect(cl);
}

/* Expect @call to return @err with @needle in pw_last_error(). */
#define EXPECT_FAIL(err, needle, call) do {				\
	int __ret = (call);						\
	EXPECT_EQ(err, __ret) {						\
		TH_LOG("%s: %s", #call, pw_last_error());		\
	}								\
	EXPECT_NE(NULL, strstr(pw_last_error(), needle)) {		\
		TH_LOG("%s: message \"%s\" lacks \"%s\"", #call,	\
		       pw_last_error(), needle);			\
	}								\
} while (0)

TEST(connect_errors)
{
	struct pw_connect_opts opts = { .address = "tcp://controller:1" };
	struct pw_client *cl = NULL;

	PWT_NEED_DEVICES(1);
	EXPECT_FAIL(-EINVAL, "", pw_connect(NULL, NULL));
	/* An address: a controller's, "a.b.c.d:port". */
	EXPECT_FAIL(-EINVAL, "tcp://controller:1", pw_connect(&opts, &cl));
	EXPECT_EQ(NULL, cl);
	opts.address = NULL;
	opts.weight = 1001;
	EXPECT_FAIL(-EINVAL, "weight", pw_connect(&opts, &cl));
	EXPECT_EQ(NULL, cl);
	/* NULL is ignored. */
	pw_disconnect(NULL);
	pw_buffer_put(NULL);
	pw_fn_put(NULL);
	pw_program_free(NULL);
}

TEST(bad_arguments)
{
	const uint32_t one = 1, two = 2;
	struct pw_buffer *x, *x3, *y, *out[2] = { NULL, NULL };
	struct pw_client *cl;
	struct pw_slice *s, *s4;
	struct pw_vset *vs;
	struct pw_fn *fn;
	float v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, got[8];
	int n;

	PWT_NEED_DEVICES(2);
	cl = pwt_connect("careless", 0);
	ASSERT_NE(NULL, cl);
	n = pw_num_devices(cl);
	ASSERT_EQ((int)pwt_sysfs_devices(), n);
	EXPECT_EQ(-EINVAL, pw_num_devices(NULL));
	s = pwt_slice(cl, 2, NULL);
	ASSERT_NE(NULL, s);
	fn = pwt_scalar_fn("plus1x2", PWTPU_OP_ADD, 1, 2);
	ASSERT_NE(NULL, fn);
	x = pwt_upload(cl, s, v, 2, false);
	x3 = pwt_upload(cl, s, v, 3, false);
	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, x3);

	/* NULL arguments. */
	EXPECT_FAIL(-EINVAL, "NULL", pw_make_virtual_device_set(NULL, &vs));
	EXPECT_FAIL(-EINVAL, "NULL", pw_add_slice(NULL, 1, NULL, &s4));
	EXPECT_FAIL(-EINVAL, "NULL", pw_call(NULL, fn, s, &x, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "NULL", pw_call(cl, NULL, s, &x, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "NULL", pw_call(cl, fn, NULL, &x, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "NULL", pw_call(cl, fn, s, NULL, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "NULL", pw_call(cl, fn, s, &x, 1, NULL, 1));
	EXPECT_FAIL(-EINVAL, "NULL",
		    pw_call(cl, fn, s, (struct pw_buffer *[]){ NULL }, 1, &y,
			    1));
	EXPECT_FAIL(-EINVAL, "NULL",
		    pw_buffer_from_host(cl, s, PWTPU_DT_F32, 1, &two, NULL,
					false, &y));
	EXPECT_FAIL(-EINVAL, "NULL",
		    pw_buffer_from_host(NULL, s, PWTPU_DT_F32, 1, &two, v,
					false, &y));
	EXPECT_FAIL(-EINVAL, "", pw_buffer_wait(NULL));
	EXPECT_FAIL(-EINVAL, "NULL", pw_buffer_to_host(NULL, got, 8));
	EXPECT_FAIL(-EINVAL, "NULL", pw_buffer_to_host(x, NULL, 16));
	EXPECT_FAIL(-EINVAL, "NULL",
		    pw_program_run(NULL, PW_DISPATCH_PARALLEL, &x, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "", pw_program_begin(NULL));
	EXPECT_FAIL(-EINVAL, "", pw_remove_device(NULL, 0));
	EXPECT_FAIL(-EINVAL, "", pw_set_sched_policy(NULL, PW_SCHED_FIFO, 0));
	EXPECT_FAIL(-EINVAL, "", pw_set_weight(NULL, 1));

	/* Slices the island cannot hold. */
	ASSERT_EQ(0, pw_make_virtual_device_set(cl, &vs));
	EXPECT_FAIL(-EINVAL, "\"2x\"", pw_add_slice(vs, 4, "2x", &s4));
	EXPECT_EQ(-EINVAL, pw_add_slice(vs, 3, "2x2", &s4));
	EXPECT_EQ(-EINVAL, pw_add_slice(vs, 0, NULL, &s4));
	EXPECT_EQ(-E2BIG, pw_add_slice(vs, (unsigned int)n + 1, NULL, &s4));

	/* Arity and shapes. */
	EXPECT_FAIL(-EINVAL, "takes 1 inputs",
		    pw_call(cl, fn, s, (struct pw_buffer *[]){ x, x }, 2, &y,
			    1));
	EXPECT_FAIL(-EINVAL, "takes 1 inputs", pw_call(cl, fn, s, &x, 1, out,
						       2));
	EXPECT_FAIL(-EINVAL, "input 0 is 2 shards of f32[3]",
		    pw_call(cl, fn, s, &x3, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "f32[2]", pw_call(cl, fn, s, &x3, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "rank",
		    pw_buffer_from_host(cl, s, PWTPU_DT_F32, PW_MAX_RANK + 1,
					(const uint32_t[8]){ 1 }, v, false,
					&y));
	EXPECT_FAIL(-EINVAL, "dtype",
		    pw_buffer_from_host(cl, s, (enum pwtpu_dtype)99, 1, &one,
					v, false, &y));

	/* Host copies of the wrong size. */
	EXPECT_FAIL(-EINVAL, "not 12", pw_buffer_to_host(x, got, 12));
	EXPECT_FAIL(-EINVAL, "16", pw_buffer_to_host(x, got, 32));
	ASSERT_EQ(0, pw_buffer_to_host(x, got, 16));
	EXPECT_EQ(0, memcmp(v, got, 16));

	/* Weights and policies. */
	EXPECT_FAIL(-EINVAL, "weight", pw_set_weight(cl, 0));
	EXPECT_FAIL(-EINVAL, "weight", pw_set_weight(cl, 1001));
	EXPECT_EQ(0, pw_set_weight(cl, 1000));
	EXPECT_FAIL(-EINVAL, "policy",
		    pw_set_sched_policy(cl, (enum pw_sched_policy)7, 0));
	EXPECT_EQ(0, pw_set_sched_policy(cl, PW_SCHED_SHARE, 0));
	EXPECT_EQ(0, pw_set_sched_policy(cl, PW_SCHED_FIFO, 8));

	/* The client still works. */
	ASSERT_EQ(0, pw_call(cl, fn, s, &x, 1, &y, 1));
	ASSERT_EQ(0, pwt_fetch(y, got, 4));
	if (pwt_values_checked()) {
		EXPECT_EQ(2.0f, got[0]);
	}
	pw_fn_put(fn);
	pw_disconnect(cl);
}

TEST(program_errors)
{
	const uint32_t one = 1, two = 2;
	struct pw_buffer *arg, *t, *y, *in, *wrong, *res;
	struct pw_program *prog = NULL;
	struct pw_client *cl, *other;
	struct pw_slice *s;
	struct pw_fn *fn;
	float v[4] = { 1, 2, 3, 4 }, got[4];

	PWT_NEED_DEVICES(2);
	cl = pwt_connect("tracer", 0);
	other = pwt_connect("other", 0);
	ASSERT_NE(NULL, cl);
	ASSERT_NE(NULL, other);
	s = pwt_slice(cl, 2, NULL);
	ASSERT_NE(NULL, s);
	fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, 1);
	ASSERT_NE(NULL, fn);

	EXPECT_FAIL(-EINVAL, "without pw_program_begin",
		    pw_program_end(cl, NULL, 0, &prog));
	EXPECT_FAIL(-EINVAL, "outside",
		    pw_program_arg(cl, s, PWTPU_DT_F32, 1, &one, &arg));

	ASSERT_EQ(0, pw_program_begin(cl));
	EXPECT_FAIL(-EBUSY, "already", pw_program_begin(cl));
	/* Tracing is per client. */
	ASSERT_EQ(0, pw_program_begin(other));
	ASSERT_EQ(0, pw_program_arg(cl, s, PWTPU_DT_F32, 1, &one, &arg));
	ASSERT_EQ(0, pw_call(cl, fn, s, &arg, 1, &t, 1));
	/* A traced value has no data, in the block or after it. */
	EXPECT_FAIL(-EINVAL, "traced", pw_buffer_wait(t));
	EXPECT_FAIL(-EINVAL, "traced", pw_buffer_to_host(t, got, 8));
	/* Wrong shape inside the trace: f32[2] into a f32[1] parameter. */
	ASSERT_EQ(0, pw_program_arg(cl, s, PWTPU_DT_F32, 1, &two, &wrong));
	EXPECT_FAIL(-EINVAL, "f32[2]", pw_call(cl, fn, s, &wrong, 1, &y, 1));
	EXPECT_FAIL(-EINVAL, "result 0",
		    pw_program_end(other, &t, 1, &prog));
	ASSERT_EQ(0, pw_program_end(cl, &t, 1, &prog));
	EXPECT_FAIL(-EINVAL, "traced", pw_buffer_to_host(t, got, 8));
	/* ...nor is it an input outside its program. */
	EXPECT_FAIL(-EINVAL, "traced", pw_call(cl, fn, s, &t, 1, &y, 1));
	pw_buffer_put(t);
	pw_buffer_put(arg);
	pw_buffer_put(wrong);
	/* Two arguments were traced: arg (f32[1]) and wrong (f32[2]). */

	in = pwt_upload(cl, s, v, 1, false);
	ASSERT_NE(NULL, in);
	y = pwt_upload(cl, s, v, 2, false);
	ASSERT_NE(NULL, y);
	EXPECT_FAIL(-EINVAL, "takes 2 arguments",
		    pw_program_run(prog, PW_DISPATCH_PARALLEL, &in, 1, &res,
				   1));
	EXPECT_FAIL(-EINVAL, "argument 0 is 2 shards of f32[2]",
		    pw_program_run(prog, PW_DISPATCH_PARALLEL,
				   (struct pw_buffer *[]){ y, y }, 2, &res, 1));
	EXPECT_FAIL(-EINVAL, "NULL",
		    pw_program_run(prog, PW_DISPATCH_PARALLEL,
				   (struct pw_buffer *[]){ in, NULL }, 2, &res,
				   1));
	EXPECT_FAIL(-EINVAL, "dispatch",
		    pw_program_run(prog, (enum pw_dispatch)5,
				   (struct pw_buffer *[]){ in, y }, 2, &res,
				   1));
	ASSERT_EQ(0, pw_program_run(prog, PW_DISPATCH_SEQUENTIAL,
				    (struct pw_buffer *[]){ in, y }, 2, &res,
				    1)) {
		TH_LOG("%s", pw_last_error());
	}
	ASSERT_EQ(0, pwt_fetch(res, got, 2));
	if (pwt_values_checked()) {
		EXPECT_EQ(2.0f, got[0]);
		EXPECT_EQ(3.0f, got[1]);
	}
	pw_program_free(prog);
	pw_fn_put(fn);
	pw_disconnect(other);
	pw_disconnect(cl);
}


/*
 * A function outlives the controller that loaded it: after the last
 * client disconnects and a new one connects, the function is loaded
 * afresh (a new controller may sit at the old one's address; handles of
 * the old devices' files must never be reused).
 */
TEST(function_outlives_its_controller)
{
	const float v[2] = { 1, 2 };
	struct pw_client *cl;
	struct pw_slice *s;
	struct pw_buffer *x, *y;
	struct pw_fn *fn;
	float got[2];
	int round;

	PWT_NEED_DEVICES(2);
	fn = pwt_scalar_fn("plus5", PWTPU_OP_ADD, 5, 1);
	ASSERT_NE(NULL, fn);
	for (round = 0; round < 3; round++) {
		cl = pwt_connect("again", 0);
		ASSERT_NE(NULL, cl);
		s = pwt_slice(cl, 2, NULL);
		ASSERT_NE(NULL, s);
		x = pwt_upload(cl, s, v, 1, false);
		ASSERT_NE(NULL, x);
		ASSERT_EQ(0, pw_call(cl, fn, s, &x, 1, &y, 1)) {
			TH_LOG("round %d: %s", round, pw_last_error());
		}
		ASSERT_EQ(0, pwt_fetch(y, got, 2));
		if (pwt_values_checked()) {
			EXPECT_EQ(6.0f, got[0]);
			EXPECT_EQ(7.0f, got[1]);
		}
		pw_disconnect(cl);	/* the last client: the controller goes */
	}
	pw_fn_put(fn);
}

/* A client computes on its own buffers; another client's are refused. */
TEST(other_clients_buffers_are_refused)
{
	const float v[2] = { 1, 2 };
	struct pw_client *a, *b;
	struct pw_slice *sa, *sb;
	struct pw_buffer *xa, *y, *arg;
	struct pw_program *prog;
	struct pw_fn *fn;
	const uint32_t one = 1;

	PWT_NEED_DEVICES(2);
	a = pwt_connect("owner", 0);
	b = pwt_connect("borrower", 0);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	sa = pwt_slice(a, 2, NULL);
	sb = pwt_slice(b, 2, NULL);
	fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, 1);
	ASSERT_NE(NULL, fn);
	xa = pwt_upload(a, sa, v, 1, false);
	ASSERT_NE(NULL, xa);
	EXPECT_FAIL(-EINVAL, "belongs to client \"owner\"",
		    pw_call(b, fn, sb, &xa, 1, &y, 1));
	/* Nor can a program capture it. */
	ASSERT_EQ(0, pw_program_begin(b));
	EXPECT_FAIL(-EINVAL, "client \"owner\"",
		    pw_call(b, fn, sb, &xa, 1, &y, 1));
	ASSERT_EQ(0, pw_program_arg(b, sb, PWTPU_DT_F32, 1, &one, &arg));
	ASSERT_EQ(0, pw_call(b, fn, sb, &arg, 1, &y, 1));
	ASSERT_EQ(0, pw_program_end(b, &y, 1, &prog));
	EXPECT_FAIL(-EINVAL, "belongs to client \"owner\"",
		    pw_program_run(prog, PW_DISPATCH_PARALLEL, &xa, 1, &y, 1));
	/* A's disconnect cannot pull anything from under B. */
	pw_disconnect(a);
	pw_fn_put(fn);
	pw_disconnect(b);
}

/* A traced value of a freed program is refused, never followed. */
TEST(traced_value_of_a_freed_program)
{
	struct pw_buffer *arg, *y, *z;
	struct pw_program *prog;
	struct pw_client *cl;
	struct pw_slice *s;
	struct pw_fn *fn;
	const uint32_t one = 1;

	PWT_NEED_DEVICES(2);
	cl = pwt_connect("forgetful", 0);
	ASSERT_NE(NULL, cl);
	s = pwt_slice(cl, 2, NULL);
	fn = pwt_scalar_fn("plus1", PWTPU_OP_ADD, 1, 1);
	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, pw_program_begin(cl));
	ASSERT_EQ(0, pw_program_arg(cl, s, PWTPU_DT_F32, 1, &one, &arg));
	ASSERT_EQ(0, pw_call(cl, fn, s, &arg, 1, &y, 1));
	ASSERT_EQ(0, pw_program_end(cl, &y, 1, &prog));
	pw_program_free(prog);
	/* A new program, perhaps at the same address. */
	ASSERT_EQ(0, pw_program_begin(cl));
	EXPECT_FAIL(-EINVAL, "another program", pw_call(cl, fn, s, &y, 1, &z, 1));
	ASSERT_EQ(0, pw_program_end(cl, NULL, 0, &prog));
	pw_program_free(prog);
	pw_buffer_put(arg);
	pw_buffer_put(y);
	pw_fn_put(fn);
	pw_disconnect(cl);
}

TEST_HARNESS_MAIN
