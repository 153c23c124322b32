// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim_equal.c - simulated devices (PATHWAYS_DEVICES=sim:..., the
 * firmware in the worker's process: runtime/dcn/wdev_sim.c) give what
 * the module's devices give. Each example runs twice, on the loaded
 * island and on a simulated island of the same mesh, HBM and timing,
 * and prints the same bytes: values, losses and placements. So does
 * pwhlo over the StableHLO test suite's programs, none of which may
 * fail or be an error on either.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pwtpu/pwtpu_dev.h>

#include "../lib/test_run.h"
#include "kselftest_harness.h"
#include "pw_common.h"

#define OUT_MAX	65536
/* pwhlo -q: a line for each program that is not PASS, ~1000 of them. */
#define HLO_OUT_MAX	(1 << 20)

/* "sim:MESH,hbm_mib=N,timing=MODE" for the loaded island; 0 or -1. */
static int same_island(char *buf, size_t len, char *timing, size_t tlen)
{
	char mesh[32];
	uint64_t hbm;

	if (pwtpu_sysfs_str(0, "mesh_shape", mesh, sizeof(mesh)) < 0 ||
	    pwtpu_sysfs_u64(0, "hbm_total", &hbm) ||
	    pwtpu_sysfs_str(0, "timing_mode", timing, tlen) < 0)
		return -1;
	mesh[strcspn(mesh, "\n")] = '\0';
	timing[strcspn(timing, "\n")] = '\0';
	snprintf(buf, len, "sim:%s,hbm_mib=%llu,timing=%s", mesh,
		 (unsigned long long)(hbm >> 20), timing);
	return 0;
}

/*
 * @rel (under build/) with @args, on the module's devices and on the
 * same island simulated: both exit 0 and print the same bytes.
 */
static void same_output(struct __test_metadata *_metadata, const char *rel,
			const char *args, char *kernel_out, char *sim_out,
			size_t max)
{
	char exe[PATH_MAX], cmd[3 * PATH_MAX];
	char devices[96], timing[16];
	int rk, rs;

	ASSERT_EQ(0, same_island(devices, sizeof(devices), timing,
				 sizeof(timing)));
	if (!strcmp(timing, "skip"))
		SKIP(return, "timing skip: results are unspecified");
	test_build_path(exe, sizeof(exe), rel);
	ASSERT_EQ(0, access(exe, X_OK));

	snprintf(cmd, sizeof(cmd), "env -u PATHWAYS_DEVICES %s %s 2>&1", exe,
		 args);
	rk = test_run(cmd, kernel_out, max);
	snprintf(cmd, sizeof(cmd), "PATHWAYS_DEVICES=%s %s %s 2>&1", devices,
		 exe, args);
	rs = test_run(cmd, sim_out, max);
	TH_LOG("%s on %s", rel, devices);
	EXPECT_EQ(0, rk) TH_LOG("the module's devices: %s", kernel_out);
	EXPECT_EQ(0, rs) TH_LOG("simulated devices: %s", sim_out);
	EXPECT_NE(0, kernel_out[0]);
	EXPECT_STREQ(kernel_out, sim_out);
}

static void example(struct __test_metadata *_metadata, const char *name)
{
	static char kernel_out[OUT_MAX], sim_out[OUT_MAX];
	char rel[64];

	PWT_NEED_DEVICES(4);
	snprintf(rel, sizeof(rel), "examples/%s", name);
	same_output(_metadata, rel, "", kernel_out, sim_out, OUT_MAX);
}

FIXTURE(sim) {
	int unused;
};

FIXTURE_SETUP(sim)
{
}

FIXTURE_TEARDOWN(sim)
{
}

/* Each example runs twice, on TCG: minutes, not the default 30 s. */
TEST_F_TIMEOUT(sim, fig2_prints_the_same, 300)
{
	example(_metadata, "fig2");
}

TEST_F_TIMEOUT(sim, mlp_trains_to_the_same_losses, 600)
{
	example(_metadata, "mlp");
}

TEST_F_TIMEOUT(sim, pipeline_gives_the_same_result, 600)
{
	example(_metadata, "pipeline");
}

/*
 * The StableHLO corpus beside the checkout, on one device of each: the
 * same outcome for every program, none failed, none an error.
 */
TEST_F_TIMEOUT(sim, pwhlo_gives_the_same_outcomes, 900)
{
	static char kernel_out[HLO_OUT_MAX], sim_out[HLO_OUT_MAX];
	char corpus[PATH_MAX], args[PATH_MAX + 16];
	const char *sum;

	PWT_NEED_DEVICES(1);
	test_build_path(corpus, sizeof(corpus),
			"../../shared/stablehlo/testdata");
	if (access(corpus, R_OK))
		SKIP(return, "no StableHLO corpus beside the checkout");
	snprintf(args, sizeof(args), "run -q %s", corpus);
	same_output(_metadata, "tools/pwhlo", args, kernel_out, sim_out,
		    HLO_OUT_MAX);
	EXPECT_NE(NULL, strstr(kernel_out, " passed, 0 failed, "));
	EXPECT_NE(NULL, strstr(kernel_out, " unsupported, 0 errors"));
	sum = strstr(kernel_out, " passed, ");
	while (sum && sum > kernel_out && sum[-1] != '\n')
		sum--;
	TH_LOG("%s", sum ? sum : kernel_out);
}

TEST_HARNESS_MAIN
