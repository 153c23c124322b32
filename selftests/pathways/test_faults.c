// SPDX-License-Identifier: GPL-2.0
/*
 * test_faults.c - libpathways over the live devices when allocation or
 * a device call fails (issue "Checks we can trust", fault injection):
 * a client's whole life with the in-process controller and worker
 * (connect, a slice, a function, a buffer up, a call, the result down, a
 * program run, disconnect) is lived again and again, with the Nth
 * allocation of the client's thread, or the Nth device call (ioctl,
 * mmap, io_uring_submit) of any thread, failing (selftests/lib/fault.h),
 * for N = 0, 1, 2... until a life completes without reaching the Nth.
 *
 * Every failure ends a call with a negative errno and a reason in
 * pw_last_error(), never a hang or a wrong value; disconnect frees
 * everything whatever failed; once a life ends, the devices' HBM is back
 * where it was (with the worker still running, for the sweeps where
 * another client keeps it) and no file is left open. The binary is
 * linked with LeakSanitizer (-fsanitize=leak): a test child that leaked fails.
 * Runs in the testbed with pwtpu.ko loaded.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pwtpu/pwtpu_dev.h>

#include "kselftest_harness.h"
#include "pw_common.h"
#include "../../runtime/dcn/wstore.h"
#include "../../runtime/fn/fn.h"
#include "../lib/fault.h"
#include "../lib/test_fn.h"

#define ELEMS		4
/* More than any life allocates or calls the devices: the sweep ends. */
#define MAX_STEPS	3000


/* A kind of fault: arm it after @n calls (-1: disarm), count its hits. */
struct fault {
	void (*arm)(long n);
	unsigned long (*failed)(void);
};

/* Whether @got is @in plus @k, shard by shard. */
static bool plus(const float *in, const float *got, unsigned int n, float k)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (got[i] != in[i] + k)
			return false;
	return true;
}

/*
 * A client's life on @ndev devices; @arm arms the fault just after
 * connecting or, with @at_connect, before. Everything is put and the
 * client disconnected with no fault armed.
 */
static struct fault_attempt life(struct pw_fn *fn, unsigned int ndev,
			   const struct fault *f, long n, bool at_connect)
{
	const uint32_t shape[1] = { ELEMS };
	float in[2 * ELEMS], out[2 * ELEMS];
	struct pw_connect_opts opts = { .name = "faults" };
	struct pw_buffer *x = NULL, *y = NULL, *arg = NULL, *z = NULL;
	struct pw_buffer *r = NULL;
	struct pw_program *prog = NULL;
	struct pw_client *cl = NULL;
	struct pw_slice *s = NULL;
	struct fault_attempt a = { 0 };
	struct pw_vset *vs;
	unsigned int i;

	for (i = 0; i < 2 * ELEMS; i++)
		in[i] = (float)(3 * i);
	if (at_connect)
		f->arm(n);
	FAULT_TRY(&a, "connect", pw_connect(&opts, &cl));
	if (!at_connect)
		f->arm(n);
	FAULT_TRY(&a, "virtual device set", pw_make_virtual_device_set(cl, &vs));
	FAULT_TRY(&a, "slice", pw_add_slice(vs, ndev, NULL, &s));
	FAULT_TRY(&a, "buffer from host",
	    pw_buffer_from_host(cl, s, PWTPU_DT_F32, 1, shape, in, false, &x));
	FAULT_TRY(&a, "call", pw_call(cl, fn, s, &x, 1, &y, 1));
	FAULT_TRY(&a, "buffer to host", pw_buffer_to_host(y, out, sizeof(out)));
	if (!a.ret && pwt_values_checked() && !plus(in, out, 2 * ELEMS, 1))
		a.wrong = true;
	FAULT_TRY(&a, "program begin", pw_program_begin(cl));
	FAULT_TRY(&a, "program arg",
	    pw_program_arg(cl, s, PWTPU_DT_F32, 1, shape, &arg));
	FAULT_TRY(&a, "program call", pw_call(cl, fn, s, &arg, 1, &z, 1));
	FAULT_TRY(&a, "program call 2", pw_call(cl, fn, s, &z, 1, &r, 1));
	FAULT_TRY(&a, "program end", pw_program_end(cl, &r, 1, &prog));
	pw_buffer_put(z);
	pw_buffer_put(r);
	r = NULL;
	FAULT_TRY(&a, "program run",
	    pw_program_run(prog, PW_DISPATCH_PARALLEL, &x, 1, &r, 1));
	FAULT_TRY(&a, "program result", pw_buffer_to_host(r, out, sizeof(out)));
	if (!a.ret && pwt_values_checked() && !plus(in, out, 2 * ELEMS, 2))
		a.wrong = true;
	a.failed = f->failed();
	f->arm(-1);
	pw_buffer_put(r);
	pw_buffer_put(arg);
	pw_buffer_put(y);
	pw_buffer_put(x);
	pw_program_free(prog);
	pw_disconnect(cl);
	return a;
}

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/*
 * The sweep: lives with a fault after 0, 1, 2... calls, until one runs
 * whole. Each must end well or with a clean error; after each, HBM and
 * the open files are as before. Returns the calls a whole life made.
 * With @keep, another client stays connected throughout, so that the
 * in-process controller and worker live on from life to life: what a
 * life leaves on the devices is then not freed by the worker's end, and
 * the HBM check sees it.
 */
static long sweep(struct __test_metadata *_metadata, const struct fault *f,
		  bool at_connect, bool keep, unsigned int *errors)
{
	struct pw_connect_opts opts = { .name = "keeper" };
	unsigned int ndev = pwt_sysfs_devices() >= 2 ? 2 : 1;
	struct pw_client *keeper = NULL;
	struct fault_attempt a;
	struct pw_fn *fn;
	unsigned int fds;
	uint64_t hbm;
	long n;

	if (keep && pw_connect(&opts, &keeper))
		return -1;
	hbm = pwt_hbm_settle();
	fds = open_fds();
	fn = test_fn_add_one("plus1", ELEMS, 0);
	if (!fn) {
		pw_disconnect(keeper);
		return -1;
	}
	a = life(fn, ndev, f, -1, at_connect);
	EXPECT_EQ(0, a.ret) TH_LOG("%s: %s", a.step, a.why);
	for (n = 0; n < MAX_STEPS; n++) {
		a = life(fn, ndev, f, n, at_connect);
		EXPECT_FALSE(a.wrong) TH_LOG("a wrong value after %ld", n);
		/* A destroy that failed is tried again a heartbeat later. */
		EXPECT_EQ(hbm, pwt_hbm_wait(hbm, 3000))
			TH_LOG("HBM after %ld", n);
		EXPECT_EQ(fds, open_fds()) TH_LOG("files after %ld", n);
		if (!a.failed) {
			EXPECT_EQ(0, a.ret) TH_LOG("%s: %s", a.step, a.why);
			break;
		}
		if (!a.ret)
			continue;	/* handled within, or retried */
		(*errors)++;
		EXPECT_GT(0, a.ret) TH_LOG("after %ld: %s", n, a.step);
		EXPECT_NE('\0', a.why[0])
			TH_LOG("after %ld: %s: no reason given", n, a.step);
	}
	pw_fn_put(fn);
	pw_disconnect(keeper);
	EXPECT_LT(n, MAX_STEPS);
	return n;
}

static const struct fault alloc_fault = {
	.arm = fault_fail_after, .failed = fault_failed,
};
static const struct fault dev_fault = {
	.arm = fault_dev_fail_after, .failed = fault_dev_failed,
};

FIXTURE(faults) {
	int unused;
};

FIXTURE_SETUP(faults)
{
}

FIXTURE_TEARDOWN(faults)
{
}

TEST_F_TIMEOUT(faults, every_allocation_failure_is_a_clean_error, 900)
{
	unsigned int errors = 0;
	long calls;

	PWT_NEED_DEVICES(1);
	/* The first connect makes the in-process controller and worker. */
	calls = sweep(_metadata, &alloc_fault, true, false, &errors);
	TH_LOG("connecting: %ld allocations; %u failures ended in an error",
	       calls, errors);
	errors = 0;
	calls = sweep(_metadata, &alloc_fault, false, true, &errors);
	TH_LOG("after connect: %ld allocations; %u failures ended in an error",
	       calls, errors);
	EXPECT_LT(5u, errors);
}

TEST_F_TIMEOUT(faults, every_device_call_failure_is_a_clean_error, 900)
{
	unsigned int errors = 0;
	long calls;

	PWT_NEED_DEVICES(1);
	calls = sweep(_metadata, &dev_fault, true, false, &errors);
	TH_LOG("%ld device calls in a life, the worker's start included; %u failures ended in an error",
	       calls, errors);
	EXPECT_LT(5u, errors);
	/*
	 * With a keeper the worker lives on: a failed destroy (BO_DESTROY,
	 * PROG_UNLOAD) must be tried again, not hold its HBM until exit.
	 */
	errors = 0;
	calls = sweep(_metadata, &dev_fault, false, true, &errors);
	TH_LOG("after connect, with a keeper: %ld device calls; %u failures ended in an error",
	       calls, errors);
	EXPECT_LT(5u, errors);
}

/* @fn, shipped to @s as a client ships it (FUNCTION parts), as @id. */
static int ship(struct pw_wstore *s, struct pw_fn *fn, uint32_t client,
		uint32_t id, struct pw_wfn **out)
{
	struct pw_wire_function w = { .fn_id = id, .client = client };
	struct pw_wire_fn_desc d;
	uint8_t *bytes;
	int ret = 0;

	pw_fn_payload_desc(fn, &d);
	bytes = pw_fn_payload_pack(&d, fn->image, fn->const_data, &w.total);
	if (!bytes)
		return -ENOMEM;
	for (w.offset = 0; w.offset < w.total && ret >= 0;
	     w.offset += w.nbytes) {
		w.nbytes = (uint16_t)(w.total - w.offset < PW_WIRE_FN_CHUNK ?
				      w.total - w.offset : PW_WIRE_FN_CHUNK);
		memcpy(w.data, bytes + w.offset, w.nbytes);
		ret = pw_wfn_add(s, &w);
	}
	free(bytes);
	*out = pw_wfn_find(s, client, id);
	return ret < 0 ? ret : *out ? 0 : -ENOENT;
}

/*
 * The worker's store keeps a destroy that failed and tries it again
 * (runtime/dcn/wstore.c): a buffer object's, whose HBM stays taken
 * until then, and a program's, which is gone after. Straight on a
 * worker's devices (runtime/dcn/wdev.h), so that the one call failing is
 * the destroy.
 */
TEST_F_TIMEOUT(faults, a_failed_destroy_is_tried_again, 60)
{
	const uint64_t mib = 1 << 20;
	struct pw_wdev dev;
	struct pw_wstore s;
	struct pw_wbuf *b;
	struct pw_wfn *f;
	struct pw_fn *fn;
	uint32_t prog;
	uint64_t hbm;

	PWT_NEED_DEVICES(1);
	ASSERT_EQ(0, pw_wdev_open(&dev, 1));
	pw_wstore_init(&s, &dev, NULL);
	hbm = pwt_hbm_settle();

	ASSERT_EQ(0, pw_wbuf_create(&s, 1, 1, 0, mib, &b));
	EXPECT_EQ(hbm + mib, pwt_hbm_used());
	fault_dev_fail_after(0);
	pw_wbuf_release(&s, b);
	EXPECT_EQ(1ul, fault_dev_failed());
	fault_dev_fail_after(-1);
	EXPECT_EQ(1u, s.nundone);
	EXPECT_EQ(hbm + mib, pwt_hbm_used());
	EXPECT_EQ(0u, pw_wstore_retry(&s));
	EXPECT_EQ(hbm, pwt_hbm_wait(hbm, 3000));

	fn = test_fn_add_one("plus1", ELEMS, 0);
	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, ship(&s, fn, 1, 7, &f));
	ASSERT_EQ(0, pw_wfn_load(&s, f, 0));
	prog = f->prog[0];
	ASSERT_NE(0u, prog);
	/* The program is unloaded first: that is the call that fails. */
	fault_dev_fail_after(0);
	pw_wstore_drop_fns(&s, 1);
	EXPECT_EQ(1ul, fault_dev_failed());
	fault_dev_fail_after(-1);
	EXPECT_EQ(1u, s.nundone);
	EXPECT_EQ(0u, pw_wstore_retry(&s));
	EXPECT_EQ(-ENOENT, pw_wdev_prog_unload(&dev, 0, prog));
	EXPECT_EQ(0u, s.vanished);
	EXPECT_EQ(hbm, pwt_hbm_wait(hbm, 3000));

	pw_fn_put(fn);
	pw_wstore_fini(&s);
	pw_wdev_close(&dev);
}

TEST_HARNESS_MAIN
