// SPDX-License-Identifier: GPL-2.0
/*
 * test_info.c - PWTPU_IOCTL_INFO and the sysfs attributes describe the
 * island the module parameters asked for, and the counters count.
 */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "drv_common.h"

/* The module parameters, read back from /sys/module/pwtpu/parameters. */
struct params {
	uint64_t ndev;
	uint64_t hbm_mib;
	char mesh[64];
	char spec[512];
	char timing[32];
	uint32_t ndims;
	uint32_t shape[PWTPU_MESH_MAX_DIMS];
	bool torus;
};

/* "8", "2x4", "2x2x2", "4x4t"; empty means one dimension of ndev. */
static int parse_mesh(struct params *p)
{
	const char *s = p->mesh;
	char *end;

	p->ndims = 0;
	p->torus = false;
	if (!*s) {
		p->ndims = 1;
		p->shape[0] = (uint32_t)p->ndev;
		return 0;
	}
	for (;;) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || p->ndims == PWTPU_MESH_MAX_DIMS)
			return -EINVAL;
		p->shape[p->ndims++] = (uint32_t)v;
		s = end;
		if (*s == 'x') {
			s++;
			continue;
		}
		if (*s == 't') {
			p->torus = true;
			s++;
		}
		return *s ? -EINVAL : 0;
	}
}

static int read_params(struct params *p)
{
	int ret;

	memset(p, 0, sizeof(*p));
	ret = pwtpu_param_u64("ndev", &p->ndev);
	if (!ret)
		ret = pwtpu_param_u64("hbm_mib", &p->hbm_mib);
	if (!ret)
		ret = pwtpu_param_str("mesh", p->mesh, sizeof(p->mesh));
	if (!ret)
		ret = pwtpu_param_str("spec", p->spec, sizeof(p->spec));
	if (!ret)
		ret = pwtpu_param_str("timing", p->timing, sizeof(p->timing));
	return ret ? ret : parse_mesh(p);
}

/* Value of @key in a "k=v,k=v" list, or -1 if absent. */
static int64_t kv_get(const char *list, const char *key)
{
	size_t klen = strlen(key);
	const char *s = list;

	while (s && *s) {
		if (!strncmp(s, key, klen) && s[klen] == '=')
			return strtoll(s + klen + 1, NULL, 0);
		s = strchr(s, ',');
		if (s)
			s++;
	}
	return -1;
}

/* Coordinates of @index: the last dimension varies fastest. */
static void coords_of(const struct params *p, uint32_t index,
		      uint32_t coords[PWTPU_MESH_MAX_DIMS])
{
	int k;

	memset(coords, 0, sizeof(uint32_t) * PWTPU_MESH_MAX_DIMS);
	for (k = (int)p->ndims - 1; k >= 0; k--) {
		coords[k] = index % p->shape[k];
		index /= p->shape[k];
	}
}

FIXTURE(info) {
	struct drv d;
	struct params p;
};

FIXTURE_SETUP(info)
{
	DRV_SETUP(&self->d, 8);
	ASSERT_EQ(0, read_params(&self->p)) {
		TH_LOG("cannot read or parse " PWTPU_SYSFS_PARAMS);
	}
}

FIXTURE_TEARDOWN(info)
{
	drv_teardown(&self->d);
}

TEST_F(info, version_and_limits)
{
	const struct pwtpu_info *in = &self->d.info;
	size_t i;

	EXPECT_EQ((uint32_t)PWTPU_UAPI_VERSION, in->uapi_version);
	EXPECT_EQ(self->d.index, in->index);
	EXPECT_EQ((uint32_t)PWTPU_MAX_BUFS, in->max_bufs);
	EXPECT_EQ((uint32_t)PWTPU_MAX_TENSORS, in->max_tensors);
	EXPECT_EQ((uint32_t)PWTPU_MAX_INSNS, in->max_insns);
	EXPECT_EQ(0u, in->reserved0);
	for (i = 0; i < sizeof(in->reserved) / sizeof(in->reserved[0]); i++) {
		EXPECT_EQ(0ull, in->reserved[i]);
	}
}

TEST_F(info, matches_module_params)
{
	const struct pwtpu_info *in = &self->d.info;
	const struct params *p = &self->p;
	uint32_t coords[PWTPU_MESH_MAX_DIMS];
	uint32_t k;

	EXPECT_EQ(p->ndev, in->ndevices);
	EXPECT_EQ(p->hbm_mib << 20, in->hbm_total);
	EXPECT_STREQ(p->timing, pwtpu_timing_name(in->timing_mode));
	ASSERT_EQ(p->ndims, in->mesh_ndims);
	EXPECT_EQ(p->torus, !!(in->mesh_flags & PWTPU_MESH_TORUS));
	EXPECT_EQ(0u, in->mesh_flags & ~PWTPU_MESH_TORUS);
	coords_of(p, in->index, coords);
	for (k = 0; k < PWTPU_MESH_MAX_DIMS; k++) {
		EXPECT_EQ(k < p->ndims ? p->shape[k] : 0, in->mesh_shape[k]);
		EXPECT_EQ(coords[k], in->mesh_coords[k]);
	}
}

TEST_F(info, spec_matches_param_and_sysfs)
{
	const struct pwtpu_info *in = &self->d.info;
	static const char *const keys[] = {
		"array_dim", "clock_mhz", "hbm_mbps", "host_mbps", "ici_mbps",
		"vector_lanes", "host_latency_ns", "insn_overhead_ns",
	};
	char spec[512];
	size_t i;

	ASSERT_EQ(0, pwtpu_sysfs_str(self->d.index, "spec", spec,
				     sizeof(spec)));
	EXPECT_EQ(in->array_dim, kv_get(spec, "array_dim"));
	EXPECT_EQ(in->clock_mhz, kv_get(spec, "clock_mhz"));
	EXPECT_EQ(in->hbm_mbps, kv_get(spec, "hbm_mbps"));
	EXPECT_EQ(in->host_mbps, kv_get(spec, "host_mbps"));
	EXPECT_EQ(in->ici_mbps, kv_get(spec, "ici_mbps"));
	/* Every key set on the command line shows its value. */
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int64_t want = kv_get(self->p.spec, keys[i]);

		EXPECT_LE(0, kv_get(spec, keys[i])) {
			TH_LOG("canonical spec '%s' lacks %s", spec, keys[i]);
		}
		if (want >= 0) {
			EXPECT_EQ(want, kv_get(spec, keys[i])) {
				TH_LOG("spec param '%s', sysfs '%s'",
				       self->p.spec, spec);
			}
		}
	}
}

TEST_F(info, sysfs_matches_info_on_every_device)
{
	uint32_t i, k;

	for (i = 0; i < self->d.info.ndevices; i++) {
		char want[64], got[64];
		struct pwtpu_info in;
		uint64_t v;
		int fd = pwtpu_open(i);
		int n = 0;

		ASSERT_LE(0, fd) TH_LOG("open /dev/pwtpu%u: %d", i, fd);
		ASSERT_EQ(0, pwtpu_info(fd, &in));
		close(fd);
		EXPECT_EQ(i, in.index);
		EXPECT_EQ(self->d.info.island, in.island);

		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "index", &v));
		EXPECT_EQ(i, v);
		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "island", &v));
		EXPECT_EQ(in.island, v);
		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "hbm_total", &v));
		EXPECT_EQ(in.hbm_total, v);
		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "hbm_used", &v));
		EXPECT_EQ(in.hbm_used, v);
		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "cmds_completed", &v));
		EXPECT_EQ(in.cmds_completed, v);
		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "busy_ns", &v));
		EXPECT_LE(in.busy_ns, v);
		ASSERT_EQ(0, pwtpu_sysfs_u64(i, "queue_depth", &v));
		EXPECT_EQ(0ul, v);

		ASSERT_EQ(0, pwtpu_sysfs_str(i, "timing_mode", got,
					     sizeof(got)));
		EXPECT_STREQ(pwtpu_timing_name(in.timing_mode), got);

		for (k = 0; k < in.mesh_ndims; k++)
			n += snprintf(want + n, sizeof(want) - (size_t)n,
				      k ? "x%u" : "%u", in.mesh_shape[k]);
		ASSERT_EQ(0, pwtpu_sysfs_str(i, "mesh_shape", got,
					     sizeof(got)));
		/* A torus may be shown with the 't' of the mesh parameter. */
		if ((in.mesh_flags & PWTPU_MESH_TORUS) &&
		    got[0] && got[strlen(got) - 1] == 't')
			got[strlen(got) - 1] = '\0';
		EXPECT_STREQ(want, got);

		for (n = 0, k = 0; k < in.mesh_ndims; k++)
			n += snprintf(want + n, sizeof(want) - (size_t)n,
				      k ? ",%u" : "%u", in.mesh_coords[k]);
		ASSERT_EQ(0, pwtpu_sysfs_str(i, "mesh_coords", got,
					     sizeof(got)));
		EXPECT_STREQ(want, got);
	}
}

TEST_F(info, device_nodes_match_ndev)
{
	unsigned int idx[256];
	glob_t g;
	int n;

	n = pwtpu_list_devices(idx, 256);
	EXPECT_EQ(self->p.ndev, (uint64_t)n);
	ASSERT_EQ(0, glob(PWTPU_DEV_PATH "[0-9]*", 0, NULL, &g));
	EXPECT_EQ(self->p.ndev, g.gl_pathc);
	globfree(&g);
	/* One past the last device does not exist. */
	EXPECT_EQ(-ENOENT, pwtpu_open((unsigned int)self->p.ndev));
}

/* Each completed command counts once, whichever path it took. */
TEST_F(info, cmds_completed_counts)
{
	struct pwtpu_cmd cmd;
	struct pwtpu_info a, b;
	uint64_t v;

	ASSERT_EQ(0, pwtpu_info(self->d.fd, &a));
	memset(&cmd, 0, sizeof(cmd));
	ASSERT_EQ(0, drv_cmd(&self->d, DRV_IOCTL, PWTPU_CMD_NOP, &cmd, NULL));
	memset(&cmd, 0, sizeof(cmd));
	ASSERT_EQ(0, drv_cmd(&self->d, DRV_URING, PWTPU_CMD_NOP, &cmd, NULL));
	ASSERT_EQ(0, pwtpu_info(self->d.fd, &b));
	EXPECT_EQ(a.cmds_completed + 2, b.cmds_completed);
	EXPECT_LE(a.busy_ns, b.busy_ns);
	ASSERT_EQ(0, pwtpu_sysfs_u64(self->d.index, "cmds_completed", &v));
	EXPECT_EQ(b.cmds_completed, v);
}

/* A 2 ms delay program makes the device busy for at least 2 ms. */
TEST_F(info, busy_ns_counts_delay)
{
	const uint32_t delay_ns = 2000000;
	struct pwtpu_info a, b;
	struct pwtpu_bo bo;
	struct drv_prog dp;
	uint32_t prog;

	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4096, &bo));
	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 1);
	drv_insn(&dp, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, delay_ns, 0);
	ASSERT_EQ(0, drv_prog_load(self->d.fd, &dp, &prog, NULL, NULL, 0));
	ASSERT_EQ(0, pwtpu_info(self->d.fd, &a));
	ASSERT_EQ(0, drv_exec(&self->d, DRV_IOCTL, prog, &bo.handle, 1));
	ASSERT_EQ(0, pwtpu_info(self->d.fd, &b));
	EXPECT_LE(a.busy_ns + delay_ns, b.busy_ns);
	EXPECT_EQ(a.cmds_completed + 1, b.cmds_completed);
}

TEST_HARNESS_MAIN
