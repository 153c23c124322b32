// SPDX-License-Identifier: GPL-2.0
/*
 * test_rm.c - the resource manager: islands, placement of shaped and
 * unshaped slices, load spreading, errors, removal and re-addition of
 * devices, and concurrent use. Placements are checked against the test's
 * own idea of the mesh (ref_coords, ref_linked), not the library's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "pathways/rm.h"

/* A mesh as the test sees it: extents, torus, row-major numbering. */
struct ref_mesh {
	unsigned int ndims, ext[3];
	bool torus;
};

static struct ref_mesh ref_mesh(unsigned int ndims, unsigned int a,
				unsigned int b, unsigned int c, bool torus)
{
	struct ref_mesh m = { ndims, { a, b, c }, torus };

	return m;
}

static unsigned int ref_ndev(const struct ref_mesh *m)
{
	unsigned int n = 1, i;

	for (i = 0; i < m->ndims; i++)
		n *= m->ext[i];
	return n;
}

static void ref_coords(const struct ref_mesh *m, unsigned int dev,
		       unsigned int *c)
{
	unsigned int i;

	for (i = m->ndims; i-- > 0;) {
		c[i] = dev % m->ext[i];
		dev /= m->ext[i];
	}
}

/* One step along exactly one axis, wrapping on a torus. */
static bool ref_linked(const struct ref_mesh *m, unsigned int a,
		       unsigned int b)
{
	unsigned int ca[3], cb[3], i, diff = 0;
	bool step = false;

	ref_coords(m, a, ca);
	ref_coords(m, b, cb);
	for (i = 0; i < m->ndims; i++) {
		unsigned int up = (ca[i] + 1) % m->ext[i];
		unsigned int down = (cb[i] + 1) % m->ext[i];

		if (ca[i] == cb[i])
			continue;
		diff++;
		if (m->torus)
			step = up == cb[i] || down == ca[i];
		else
			step = ca[i] + 1 == cb[i] || cb[i] + 1 == ca[i];
	}
	return diff == 1 && step;
}

static struct pw_rm_shape shape_of(const char *s)
{
	struct pw_rm_shape sh;

	if (pw_rm_shape_parse(&sh, s))
		abort();
	return sh;
}

/*
 * A placed slice is valid: distinct devices, none removed, and virtual
 * neighbours (one step in one virtual coordinate) physically linked.
 */
static bool slice_valid(struct pw_rm *rm, const struct ref_mesh *m,
			struct pw_rm_slice *s)
{
	unsigned int n = pw_rm_slice_size(s), v, w, i;

	for (v = 0; v < n; v++) {
		int dv = pw_rm_slice_device(s, v);
		unsigned int cv[3];

		if (dv < 0 || (unsigned int)dv >= ref_ndev(m) ||
		    !pw_rm_device_available(rm, (unsigned int)dv))
			return false;
		pw_rm_slice_coords(s, v, cv);
		for (w = 0; w < n; w++) {
			int dw = pw_rm_slice_device(s, w);
			unsigned int cw[3], diff = 0, d = 0;

			if (w != v && dw == dv)
				return false;
			pw_rm_slice_coords(s, w, cw);
			for (i = 0; i < 3; i++)
				if (cv[i] != cw[i]) {
					diff++;
					d = cv[i] > cw[i] ? cv[i] - cw[i]
							  : cw[i] - cv[i];
				}
			if (diff == 1 && d == 1 &&
			    !ref_linked(m, (unsigned int)dv, (unsigned int)dw))
				return false;
		}
	}
	return true;
}

static struct pw_rm *make_rm(const char *mesh)
{
	struct pw_rm_island isl;
	struct pw_rm *rm;

	if (pw_rm_island_parse(&isl, 0, mesh) || pw_rm_create(&rm, &isl))
		abort();
	return rm;
}

TEST(parse)
{
	struct pw_rm_island isl;
	struct pw_rm_shape sh;
	static const char *const bad[] = { "", "0x4", "2x", "2x2x2x2", "4y",
					   "x4", "2xt", "4tt" };
	unsigned int c[3] = { 1, 2, 0 }, i;

	ASSERT_EQ(0, pw_rm_island_parse(&isl, 3, "2x4t"));
	EXPECT_EQ(3U, isl.id);
	EXPECT_EQ(8U, isl.ndevices);
	EXPECT_EQ(2U, isl.shape.ndims);
	EXPECT_TRUE(isl.torus);
	EXPECT_EQ(1U, isl.coords[5][0]);
	EXPECT_EQ(1U, isl.coords[5][1]);
	EXPECT_EQ(0U, isl.coords[3][0]);
	EXPECT_EQ(3U, isl.coords[3][1]);
	EXPECT_EQ(6, pw_rm_island_device_at(&isl, c));
	ASSERT_EQ(0, pw_rm_island_parse(&isl, 0, "2x2x2"));
	EXPECT_FALSE(isl.torus);
	EXPECT_EQ(1U, isl.coords[6][0]);
	EXPECT_EQ(1U, isl.coords[6][1]);
	EXPECT_EQ(0U, isl.coords[6][2]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *mesh = bad[i];

		EXPECT_EQ(-EINVAL, pw_rm_island_parse(&isl, 0, mesh)) {
			TH_LOG("mesh '%s'", mesh ? mesh : "?");
		}
	}
	EXPECT_EQ(-E2BIG, pw_rm_island_parse(&isl, 0, "8x9"));
	EXPECT_EQ(0, pw_rm_shape_parse(&sh, "2x2"));
	EXPECT_EQ(4U, pw_rm_shape_size(&sh));
	EXPECT_EQ(-EINVAL, pw_rm_shape_parse(&sh, "2x2t"));
}

/* Each island and shape: fill it with slices, all valid, loads counted. */
TEST(placements_are_linked_blocks)
{
	static const struct {
		const char *mesh, *shape;
		struct ref_mesh m;
	} cases[] = {
		{ "8", "4", { 1, { 8 }, false } },
		{ "8t", "3", { 1, { 8 }, true } },
		{ "2x4", "2x2", { 2, { 2, 4 }, false } },
		{ "2x4", "4", { 2, { 2, 4 }, false } },
		{ "2x4", "4x2", { 2, { 2, 4 }, false } },
		{ "2x4t", "2x2", { 2, { 2, 4 }, true } },
		{ "2x4t", "2x3", { 2, { 2, 4 }, true } },
		{ "4x4t", "2x2", { 2, { 4, 4 }, true } },
		{ "4x4t", "3x2", { 2, { 4, 4 }, true } },
		{ "4x4", "4x4", { 2, { 4, 4 }, false } },
		{ "2x2x2", "2x2", { 3, { 2, 2, 2 }, false } },
		{ "2x2x2", "2x2x2", { 3, { 2, 2, 2 }, false } },
		{ "2x2x2", "2", { 3, { 2, 2, 2 }, false } },
		{ "2x2x2t", "2x2", { 3, { 2, 2, 2 }, true } },
	};
	unsigned int c, k, dev;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct ref_mesh *m = &cases[c].m;
		struct pw_rm_shape sh = shape_of(cases[c].shape);
		unsigned int n = pw_rm_shape_size(&sh), expect[64] = { 0 };
		struct pw_rm *rm = make_rm(cases[c].mesh);
		struct pw_rm_vset *vs;

		ASSERT_EQ(0, pw_rm_vset_create(rm, &vs));
		for (k = 0; k < 6; k++) {
			struct pw_rm_slice *s;
			unsigned int v;

			ASSERT_EQ(0, pw_rm_add_slice(vs, n, &sh, &s))
				TH_LOG("%s on %s: %s", cases[c].shape,
				       cases[c].mesh, pw_rm_vset_error(vs));
			EXPECT_TRUE(slice_valid(rm, m, s))
				TH_LOG("%s on %s, slice %u", cases[c].shape,
				       cases[c].mesh, k);
			for (v = 0; v < n; v++)
				expect[pw_rm_slice_device(s, v)]++;
		}
		for (dev = 0; dev < ref_ndev(m); dev++)
			EXPECT_EQ((int)expect[dev], pw_rm_device_load(rm, dev));
		pw_rm_destroy(rm);
	}
}

/* Only a block that wraps around is left: a torus takes it, a mesh not. */
TEST(torus_wraparound)
{
	struct ref_mesh m = ref_mesh(2, 4, 4, 0, true);
	struct pw_rm_shape sh = shape_of("2x2");
	static const unsigned int corners[] = { 15, 12, 3, 0 };
	const char *meshes[] = { "4x4t", "4x4" };
	unsigned int i, dev;

	for (i = 0; i < 2; i++) {
		struct pw_rm *rm = make_rm(meshes[i]);
		struct pw_rm_vset *vs;
		struct pw_rm_slice *s;
		unsigned int v;

		for (dev = 0; dev < 16; dev++)
			if (dev != 0 && dev != 3 && dev != 12 && dev != 15)
				ASSERT_EQ(0, pw_rm_remove_device(rm, dev));
		ASSERT_EQ(0, pw_rm_vset_create(rm, &vs));
		if (i == 1) {
			EXPECT_EQ(-ENOSPC, pw_rm_add_slice(vs, 4, &sh, &s));
			pw_rm_destroy(rm);
			continue;
		}
		ASSERT_EQ(0, pw_rm_add_slice(vs, 4, &sh, &s));
		EXPECT_TRUE(slice_valid(rm, &m, s));
		/* Only from (3,3): right to (3,0), down to (0,3), (0,0). */
		for (v = 0; v < 4; v++)
			EXPECT_EQ((int)corners[v], pw_rm_slice_device(s, v));
		pw_rm_destroy(rm);
	}
	{
		/* 1-D: devices 3 and 0 are linked only around the ring. */
		struct pw_rm *rm = make_rm("4t");
		struct pw_rm_vset *vs;
		struct pw_rm_slice *s;
		struct pw_rm_shape two = shape_of("2");

		ASSERT_EQ(0, pw_rm_remove_device(rm, 1));
		ASSERT_EQ(0, pw_rm_remove_device(rm, 2));
		ASSERT_EQ(0, pw_rm_vset_create(rm, &vs));
		ASSERT_EQ(0, pw_rm_add_slice(vs, 2, &two, &s));
		EXPECT_EQ(3, pw_rm_slice_device(s, 0));
		EXPECT_EQ(0, pw_rm_slice_device(s, 1));
		pw_rm_destroy(rm);
	}
}

static void expect_devices(struct __test_metadata *_metadata,
			   struct pw_rm_slice *s, const unsigned int *devs,
			   unsigned int n)
{
	unsigned int v;

	ASSERT_EQ(n, pw_rm_slice_size(s));
	for (v = 0; v < n; v++)
		EXPECT_EQ((int)devs[v], pw_rm_slice_device(s, v))
			TH_LOG("virtual device %u", v);
}

TEST(load_spreading)
{
	static const unsigned int a[] = { 0, 1, 4, 5 }, b[] = { 2, 3, 6, 7 },
				  pair[] = { 2, 6 };
	struct pw_rm_shape sq = shape_of("2x2"), two = shape_of("2");
	struct pw_rm *rm = make_rm("2x4");
	struct pw_rm_vset *v1, *v2;
	struct pw_rm_slice *s1, *s2, *s3, *s4;
	unsigned int dev;

	ASSERT_EQ(0, pw_rm_vset_create(rm, &v1));
	ASSERT_EQ(0, pw_rm_vset_create(rm, &v2));
	ASSERT_EQ(0, pw_rm_add_slice(v1, 4, &sq, &s1));
	expect_devices(_metadata, s1, a, 4);
	/* Another client's 2x2 goes to the other, empty, half. */
	ASSERT_EQ(0, pw_rm_add_slice(v2, 4, &sq, &s2));
	expect_devices(_metadata, s2, b, 4);
	/* All equally loaded now: the tie goes to device 0. */
	ASSERT_EQ(0, pw_rm_add_slice(v2, 4, &sq, &s3));
	expect_devices(_metadata, s3, a, 4);
	/*
	 * Left half carries 2, right half 1: the first right-half pair from
	 * the lowest device, island axis 0 tried before axis 1.
	 */
	ASSERT_EQ(0, pw_rm_add_slice(v1, 2, &two, &s4));
	expect_devices(_metadata, s4, pair, 2);
	EXPECT_EQ(2, pw_rm_device_load(rm, 0));
	EXPECT_EQ(2, pw_rm_device_load(rm, 2));
	EXPECT_EQ(1, pw_rm_device_load(rm, 7));

	/* Release gives load back; destroying a vset releases its slices. */
	pw_rm_release_slice(s3);
	EXPECT_EQ(1, pw_rm_device_load(rm, 0));
	pw_rm_vset_destroy(v1);
	for (dev = 0; dev < 8; dev++)
		EXPECT_EQ(dev == 2 || dev == 3 || dev == 6 || dev == 7,
			  pw_rm_device_load(rm, dev));
	pw_rm_vset_destroy(v2);
	for (dev = 0; dev < 8; dev++)
		EXPECT_EQ(0, pw_rm_device_load(rm, dev));
	pw_rm_destroy(rm);
}

/* Without a shape: least loaded, then linked to those already chosen. */
TEST(unshaped)
{
	struct ref_mesh m = ref_mesh(2, 2, 4, 0, false);
	struct pw_rm *rm = make_rm("2x4");
	struct pw_rm_vset *vs;
	struct pw_rm_slice *s, *t;
	unsigned int v, w;

	ASSERT_EQ(0, pw_rm_vset_create(rm, &vs));
	ASSERT_EQ(0, pw_rm_remove_device(rm, 1));
	ASSERT_EQ(0, pw_rm_add_slice(vs, 3, NULL, &s));
	for (v = 1; v < 3; v++) {
		bool linked = false;

		for (w = 0; w < v; w++)
			linked |= ref_linked(&m, pw_rm_slice_device(s, v),
					     pw_rm_slice_device(s, w));
		EXPECT_TRUE(linked) TH_LOG("virtual device %u", v);
		EXPECT_NE(1, pw_rm_slice_device(s, v));
	}
	EXPECT_EQ(1U, pw_rm_slice_shape(s).ndims);
	EXPECT_EQ(3U, pw_rm_slice_shape(s).extent[0]);
	/* The next one avoids the three loaded devices. */
	ASSERT_EQ(0, pw_rm_add_slice(vs, 4, NULL, &t));
	for (v = 0; v < 4; v++) {
		int d = pw_rm_slice_device(t, v);

		EXPECT_EQ(1, pw_rm_device_load(rm, d));
		EXPECT_NE(1, d);
	}
	pw_rm_destroy(rm);
}

TEST(impossible_requests)
{
	struct pw_rm *rm = make_rm("2x4");
	struct pw_rm_vset *vs;
	struct pw_rm_slice *s = NULL;
	struct pw_rm_shape sh;

	ASSERT_EQ(0, pw_rm_vset_create(rm, &vs));
	EXPECT_STREQ("", pw_rm_vset_error(vs));
	sh = shape_of("2x2x2");
	EXPECT_EQ(-EINVAL, pw_rm_add_slice(vs, 8, &sh, &s));
	sh = shape_of("2x2");
	sh.extent[1] = 0;
	EXPECT_EQ(-EINVAL, pw_rm_add_slice(vs, 0, &sh, &s));
	sh.extent[1] = 2;
	EXPECT_EQ(-EINVAL, pw_rm_add_slice(vs, 3, &sh, &s));
	EXPECT_EQ(-EINVAL, pw_rm_add_slice(vs, 0, NULL, &s));
	EXPECT_EQ(-E2BIG, pw_rm_add_slice(vs, 9, NULL, &s));
	EXPECT_EQ(-E2BIG, pw_rm_add_slice(vs, 1000, NULL, &s));
	sh = shape_of("9");
	EXPECT_EQ(-E2BIG, pw_rm_add_slice(vs, 9, &sh, &s));
	EXPECT_STREQ("9 devices asked for on island 0 of 8",
		     pw_rm_vset_error(vs));
	sh = shape_of("3x3");
	EXPECT_EQ(-E2BIG, pw_rm_add_slice(vs, 9, &sh, &s));
	sh = shape_of("1x3x1");
	EXPECT_EQ(-EINVAL, pw_rm_add_slice(vs, 3, &sh, &s));
	sh = shape_of("3x2");
	EXPECT_EQ(0, pw_rm_add_slice(vs, 6, &sh, &s)) /* as 2x3 */
		TH_LOG("%s", pw_rm_vset_error(vs));
	EXPECT_STREQ("", pw_rm_vset_error(vs));
	sh = shape_of("8");
	EXPECT_EQ(-ENOSPC, pw_rm_add_slice(vs, 8, &sh, &s));
	EXPECT_STREQ("no 8 block of available devices on island 0 (2x4): no devices removed",
		     pw_rm_vset_error(vs));
	ASSERT_EQ(0, pw_rm_remove_device(rm, 1) >= 0 ? 0 : -1);
	ASSERT_EQ(0, pw_rm_remove_device(rm, 6) >= 0 ? 0 : -1);
	sh = shape_of("2x2");
	EXPECT_EQ(-ENOSPC, pw_rm_add_slice(vs, 4, &sh, &s));
	EXPECT_STREQ("no 2x2 block of available devices on island 0 (2x4): devices 1,6 removed",
		     pw_rm_vset_error(vs));
	EXPECT_EQ(0, pw_rm_add_slice(vs, 6, NULL, &s));
	EXPECT_EQ(-ENOSPC, pw_rm_add_slice(vs, 7, NULL, &s));
	pw_rm_destroy(rm);
}

TEST(remove_and_add)
{
	struct ref_mesh m = ref_mesh(2, 2, 4, 0, false);
	struct pw_rm_shape sq = shape_of("2x2"), two = shape_of("2");
	struct pw_rm *rm = make_rm("2x4");
	struct pw_rm_vset *vs;
	struct pw_rm_slice *s[6], *t;
	unsigned int i, v, using5 = 0;
	int failed;

	ASSERT_EQ(0, pw_rm_vset_create(rm, &vs));
	for (i = 0; i < 6; i++)
		ASSERT_EQ(0, pw_rm_add_slice(vs, i < 3 ? 4 : 2,
					     i < 3 ? &sq : &two, &s[i]));
	for (i = 0; i < 6; i++)
		for (v = 0; v < pw_rm_slice_size(s[i]); v++)
			using5 += pw_rm_slice_device(s[i], v) == 5;
	ASSERT_LT(0U, using5);
	EXPECT_EQ((int)using5, pw_rm_remove_device(rm, 5));
	EXPECT_EQ(-EALREADY, pw_rm_remove_device(rm, 5));
	EXPECT_EQ(-EINVAL, pw_rm_remove_device(rm, 8));
	for (i = 0; i < 6; i++) {
		bool uses5 = false;

		for (v = 0; v < pw_rm_slice_size(s[i]); v++)
			uses5 |= pw_rm_slice_device(s[i], v) == 5;
		failed = 99;
		EXPECT_EQ(!uses5, pw_rm_slice_ok(s[i], &failed));
		EXPECT_EQ(uses5 ? 5 : -1, failed);
	}
	/* New placements avoid 5, whatever its load. */
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, pw_rm_add_slice(vs, 4, &sq, &t));
		EXPECT_TRUE(slice_valid(rm, &m, t));
	}
	ASSERT_EQ(0, pw_rm_add_slice(vs, 7, NULL, &t));
	EXPECT_EQ(-ENOSPC, pw_rm_add_slice(vs, 8, NULL, &t));
	/* Re-adding makes 5 placeable again; failed slices stay failed. */
	ASSERT_EQ(0, pw_rm_add_device(rm, 5));
	EXPECT_EQ(-EALREADY, pw_rm_add_device(rm, 5));
	ASSERT_EQ(0, pw_rm_add_slice(vs, 8, NULL, &t));
	for (i = 0; i < 6; i++) {
		bool uses5 = false;

		for (v = 0; v < pw_rm_slice_size(s[i]); v++)
			uses5 |= pw_rm_slice_device(s[i], v) == 5;
		EXPECT_EQ(!uses5, pw_rm_slice_ok(s[i], NULL));
	}
	EXPECT_TRUE(pw_rm_slice_ok(t, NULL));
	pw_rm_destroy(rm);
}

static int write_attr(const char *dir, unsigned int dev, const char *attr,
		      const char *val)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/pwtpu%u", dir, dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/pwtpu%u/%s", dir, dev, attr);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", val);
	return fclose(f);
}

/* A fake class directory: 4 devices of a 2x2t island 2, numbered oddly. */
TEST(sysfs)
{
	static const char *const coords[] = { "1,1", "0,0", "1,0", "0,1" };
	char dir[] = "/tmp/test_rm.XXXXXX", cmd[64];
	struct pw_rm_island isl;
	unsigned int dev;
	int ret;

	ASSERT_NE(NULL, mkdtemp(dir));
	for (dev = 0; dev < 4; dev++) {
		ASSERT_EQ(0, write_attr(dir, dev, "island", "2"));
		ASSERT_EQ(0, write_attr(dir, dev, "mesh_shape", "2x2t"));
		ASSERT_EQ(0, write_attr(dir, dev, "mesh_coords", coords[dev]));
	}
	ASSERT_EQ(0, pw_rm_island_from_sysfs_dir(&isl, dir));
	EXPECT_EQ(2U, isl.id);
	EXPECT_EQ(4U, isl.ndevices);
	EXPECT_TRUE(isl.torus);
	EXPECT_EQ(1U, isl.coords[0][0]);
	EXPECT_EQ(1U, isl.coords[0][1]);
	EXPECT_EQ(0U, isl.coords[3][0]);
	EXPECT_EQ(1U, isl.coords[3][1]);
	ASSERT_EQ(0, write_attr(dir, 2, "mesh_coords", "2,0"));
	EXPECT_EQ(-EIO, pw_rm_island_from_sysfs_dir(&isl, dir));
	ASSERT_EQ(0, write_attr(dir, 4, "island", "2"));
	EXPECT_EQ(-EIO, pw_rm_island_from_sysfs_dir(&isl, dir));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(0, system(cmd));
	EXPECT_EQ(-ENOENT, pw_rm_island_from_sysfs_dir(&isl, dir));

	/* The real one: there when the module is loaded, -ENOENT when not. */
	ret = pw_rm_island_from_sysfs(&isl);
	EXPECT_EQ(access("/sys/class/pwtpu/pwtpu0", F_OK) ? -ENOENT : 0, ret);
}

/* Concurrency: placers and releasers against a remover/adder. */
struct smoke {
	struct pw_rm *rm;
	struct ref_mesh m;
	unsigned int seed;
	int bad;
	struct pw_rm_vset *vs;
	struct pw_rm_slice *live[8];
	unsigned int nlive;
};

static void *placer(void *arg)
{
	struct smoke *sm = arg;
	struct pw_rm_shape sq = shape_of("2x2");
	unsigned int i;

	for (i = 0; i < 3000; i++) {
		unsigned int pick = (unsigned int)rand_r(&sm->seed) % 8;
		struct pw_rm_slice *s;
		int ret;

		if (sm->nlive == 8 || (sm->nlive && pick < 3)) {
			pw_rm_release_slice(sm->live[--sm->nlive]);
			continue;
		}
		ret = pick < 6 ? pw_rm_add_slice(sm->vs, 4, &sq, &s)
			       : pw_rm_add_slice(sm->vs, 3, NULL, &s);
		if (ret == -ENOSPC)
			continue;
		if (ret) {
			sm->bad++;
			continue;
		}
		sm->live[sm->nlive++] = s;
	}
	return NULL;
}

static void *remover(void *arg)
{
	struct smoke *sm = arg;
	unsigned int i;

	for (i = 0; i < 3000; i++) {
		unsigned int dev = (unsigned int)rand_r(&sm->seed) % 16;
		int ret = pw_rm_remove_device(sm->rm, dev);

		if (ret == -EALREADY)
			ret = pw_rm_add_device(sm->rm, dev);
		if (ret < 0)
			sm->bad++;
	}
	return NULL;
}

TEST(concurrent_smoke)
{
	struct pw_rm *rm = make_rm("4x4t");
	struct smoke sm[4];
	pthread_t th[4];
	unsigned int i, k, v, dev, expect[16] = { 0 };

	for (i = 0; i < 4; i++) {
		memset(&sm[i], 0, sizeof(sm[i]));
		sm[i].rm = rm;
		sm[i].m = ref_mesh(2, 4, 4, 0, true);
		sm[i].seed = i + 1;
		ASSERT_EQ(0, pw_rm_vset_create(rm, &sm[i].vs));
	}
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL,
					    i == 3 ? remover : placer, &sm[i]));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_join(th[i], NULL));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, sm[i].bad);
		for (k = 0; k < sm[i].nlive; k++) {
			struct pw_rm_slice *s = sm[i].live[k];

			for (v = 0; v < pw_rm_slice_size(s); v++)
				expect[pw_rm_slice_device(s, v)]++;
		}
	}
	for (dev = 0; dev < 16; dev++)
		EXPECT_EQ((int)expect[dev], pw_rm_device_load(rm, dev));
	for (i = 0; i < 4; i++)
		pw_rm_vset_destroy(sm[i].vs);
	for (dev = 0; dev < 16; dev++)
		EXPECT_EQ(0, pw_rm_device_load(rm, dev));
	pw_rm_destroy(rm);
}

TEST_HARNESS_MAIN
