// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim_equal.c - simulated devices (PATHWAYS_DEVICES=sim:..., the
 * firmware in the worker's process: runtime/dcn/wdev_sim.c) give what
 * the module's devices give. Each example runs twice, on the loaded
 * island and on a simulated island of the same mesh, HBM and timing,
 * and prints the same bytes: values, losses and placements.
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

static void example(struct __test_metadata *_metadata, const char *name)
{
	static char kernel_out[OUT_MAX], sim_out[OUT_MAX];
	char exe[PATH_MAX], rel[64], cmd[2 * PATH_MAX];
	char devices[96], timing[16];
	int rk, rs;

	PWT_NEED_DEVICES(4);
	ASSERT_EQ(0, same_island(devices, sizeof(devices), timing,
				 sizeof(timing)));
	if (!strcmp(timing, "skip"))
		SKIP(return, "timing skip: results are unspecified");
	snprintf(rel, sizeof(rel), "examples/%s", name);
	test_build_path(exe, sizeof(exe), rel);
	ASSERT_EQ(0, access(exe, X_OK));

	snprintf(cmd, sizeof(cmd), "env -u PATHWAYS_DEVICES %s 2>&1", exe);
	rk = test_run(cmd, kernel_out, sizeof(kernel_out));
	snprintf(cmd, sizeof(cmd), "PATHWAYS_DEVICES=%s %s 2>&1", devices,
		 exe);
	rs = test_run(cmd, sim_out, sizeof(sim_out));
	TH_LOG("%s on %s", name, devices);
	EXPECT_EQ(0, rk) TH_LOG("the module's devices: %s", kernel_out);
	EXPECT_EQ(0, rs) TH_LOG("simulated devices: %s", sim_out);
	EXPECT_NE(0, kernel_out[0]);
	EXPECT_STREQ(kernel_out, sim_out);
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

TEST_HARNESS_MAIN
