// SPDX-License-Identifier: GPL-2.0
/*
 * test_mesh.c - the island's topology and its links: sysfs neighbors,
 * INFO and the link directories agree with the mesh parameter; a
 * COPY_PEER between any two devices moves the data and is counted on
 * exactly the links of its dimension-ordered route; every COPY_PEER
 * errno; the ioctl and io_uring paths give the same answers.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kselftest_harness.h"

#include "drv_common.h"
#include "drv_mesh.h"

#define BO_SIZE		(64u * 1024)
#define COPY_LEN	3000u	/* not a multiple of anything */
#define SRC_OFF		64
#define DST_OFF		4100

FIXTURE(mesh) {
	struct mesh m;
	int fd[MESH_MAX_DEVS];
	struct pwtpu_bo bo[MESH_MAX_DEVS];
	struct io_uring ring;
	bool have_ring;
};

FIXTURE_VARIANT(mesh) {
	enum drv_path path;
};

FIXTURE_VARIANT_ADD(mesh, ioctl) {
	.path = DRV_IOCTL,
};

FIXTURE_VARIANT_ADD(mesh, uring) {
	.path = DRV_URING,
};

FIXTURE_SETUP(mesh)
{
	uint32_t i;
	int ret;

	for (i = 0; i < MESH_MAX_DEVS; i++)
		self->fd[i] = -1;
	ret = mesh_from_params(&self->m);
	if (ret == -ENOENT)
		DRV_SKIP("pwtpu.ko not loaded");
	ASSERT_EQ(0, ret) TH_LOG("cannot read ndev/mesh parameters");
	for (i = 0; i < self->m.ndev; i++) {
		self->fd[i] = pwtpu_open(i);
		ASSERT_LE(0, self->fd[i]);
		ASSERT_EQ(0, pwtpu_bo_alloc(self->fd[i], BO_SIZE,
					    &self->bo[i]));
	}
	ASSERT_EQ(0, pwtpu_ring_init(&self->ring, 8, 0));
	self->have_ring = true;
}

FIXTURE_TEARDOWN(mesh)
{
	uint32_t i;

	if (self->have_ring)
		io_uring_queue_exit(&self->ring);
	for (i = 0; i < MESH_MAX_DEVS; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
}

/* One command on @fd through @path. */
static int run(FIXTURE_DATA(mesh) *self, enum drv_path path, int fd,
	       uint32_t op, struct pwtpu_cmd *cmd)
{
	if (path == DRV_IOCTL)
		return pwtpu_cmd_sync(fd, op, cmd);
	return pwtpu_uring_run(&self->ring, fd, op, cmd, NULL);
}

static void copy_cmd(struct pwtpu_cmd *cmd, uint32_t handle, uint64_t off,
		     int peer_fd, uint32_t peer_handle, uint64_t peer_off,
		     uint64_t len)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->handle = handle;
	cmd->offset = off;
	cmd->peer_fd = peer_fd;
	cmd->peer_handle = peer_handle;
	cmd->peer_offset = peer_off;
	cmd->length = len;
}

/* The link directories of @dev, by name. */
static int count_link_dirs(uint32_t dev)
{
	char path[128];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), PWTPU_SYSFS_CLASS "/pwtpu%u", dev);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "link_", 5);
	closedir(d);
	return n;
}

TEST_F(mesh, neighbors_info_and_link_dirs)
{
	const struct mesh *m = &self->m;
	uint32_t dev, k, dir;

	for (dev = 0; dev < m->ndev; dev++) {
		char want[128], got[128];
		struct pwtpu_info in;
		int links = 0;

		mesh_neighbors_text(m, dev, want, sizeof(want));
		ASSERT_EQ(0, pwtpu_sysfs_str(dev, "neighbors", got,
					     sizeof(got)));
		EXPECT_STREQ(want, got) TH_LOG("pwtpu%u", dev);

		ASSERT_EQ(0, pwtpu_info(self->fd[dev], &in));
		for (k = 0; k < PWTPU_MESH_MAX_DIMS; k++)
			for (dir = 0; dir < 2; dir++) {
				uint32_t nb = mesh_neighbor(m, dev, k, dir);
				struct link_stat st;

				EXPECT_EQ(nb, in.neighbors[k][dir])
					TH_LOG("pwtpu%u axis %u dir %u", dev,
					       k, dir);
				ASSERT_EQ(0, mesh_link_stat(dev, k, dir, &st));
				EXPECT_EQ(nb != PWTPU_NO_DEVICE, st.present)
					TH_LOG("pwtpu%u link_%u_%s", dev, k,
					       dir ? "plus" : "minus");
				if (st.present) {
					EXPECT_EQ(nb, st.peer);
					links++;
				}
			}
		EXPECT_EQ(0u, in.reserved0);
		/* No link directory beyond those. */
		EXPECT_EQ(links, count_link_dirs(dev));
	}
}

static bool timing_skip(void)
{
	char mode[16] = "";

	pwtpu_param_str("timing", mode, sizeof(mode));
	return !strcmp(mode, "skip");
}

/* Bytes of the pattern copy (@src, @dst) puts at each position. */
static uint8_t pattern(uint32_t src, uint32_t dst, uint32_t i)
{
	return (uint8_t)(i * 7 + src * 31 + dst * 17 + 1);
}

/*
 * One link's counters from @b to @a across the copy @src -> @dst: one
 * transfer of COPY_LEN bytes and some busy time if it is on the route,
 * nothing otherwise.
 */
static void check_link(struct __test_metadata *_metadata, uint32_t src,
		       uint32_t dst, uint32_t dev, uint32_t axis, uint32_t dir,
		       bool on_route, const struct link_stat *b,
		       const struct link_stat *a)
{
	const uint64_t bytes = on_route ? COPY_LEN : 0, hops = on_route;

	EXPECT_EQ(bytes, a->bytes - b->bytes)
		TH_LOG("copy %u -> %u: bytes of link_%u_%s of pwtpu%u", src,
		       dst, axis, dir ? "plus" : "minus", dev);
	EXPECT_EQ(hops, a->transfers - b->transfers)
		TH_LOG("copy %u -> %u: transfers of link_%u_%s of pwtpu%u",
		       src, dst, axis, dir ? "plus" : "minus", dev);
	if (on_route) {
		EXPECT_LT(b->busy_ns, a->busy_ns);
	} else {
		EXPECT_EQ(b->busy_ns, a->busy_ns);
	}
}

/*
 * Copy COPY_LEN bytes from @src's BO to @dst_fd's BO @dst_bo (device
 * @dst) and check the data and that exactly the route's links counted
 * it: one transfer of COPY_LEN bytes and some busy time on each hop.
 */
static void copy_and_check(struct __test_metadata *_metadata,
			   FIXTURE_DATA(mesh) *self, enum drv_path path,
			   uint32_t src, uint32_t dst, int dst_fd,
			   struct pwtpu_bo *dst_bo)
{
	static struct link_snapshot before, after;
	const struct mesh *m = &self->m;
	bool on_route[MESH_MAX_DEVS][PWTPU_MESH_MAX_DIMS][2];
	struct mesh_hop hops[3 * MESH_MAX_DEVS];
	uint8_t *s = self->bo[src].map, *d = dst_bo->map;
	struct pwtpu_cmd cmd;
	uint32_t i, dev, k, dir;
	bool moved;
	int nhops;

	for (i = 0; i < COPY_LEN; i++)
		s[SRC_OFF + i] = pattern(src, dst, i);
	memset(d, 0, BO_SIZE);
	memset(on_route, 0, sizeof(on_route));
	nhops = mesh_route(m, src, dst, hops, 3 * MESH_MAX_DEVS);
	for (i = 0; i < (uint32_t)nhops; i++)
		on_route[hops[i].from][hops[i].axis][hops[i].dir] = true;

	ASSERT_EQ(0, mesh_snapshot(m, &before));
	copy_cmd(&cmd, self->bo[src].handle, SRC_OFF, dst_fd,
		 dst_bo->handle, DST_OFF, COPY_LEN);
	ASSERT_EQ(0, run(self, path, self->fd[src],
			 PWTPU_CMD_COPY_PEER, &cmd))
		TH_LOG("copy %u -> %u", src, dst);
	ASSERT_EQ(0, mesh_snapshot(m, &after));

	/* timing=skip spends the link time but moves no data. */
	moved = !timing_skip();
	for (i = 0; i < BO_SIZE; i++) {
		uint8_t want = moved && i >= DST_OFF &&
			       i < DST_OFF + COPY_LEN ?
			       pattern(src, dst, i - DST_OFF) : 0;

		if (d[i] != want) {
			EXPECT_EQ(want, d[i])
				TH_LOG("copy %u -> %u: byte %u", src, dst, i);
			break;
		}
	}
	for (dev = 0; dev < m->ndev; dev++)
		for (k = 0; k < PWTPU_MESH_MAX_DIMS; k++)
			for (dir = 0; dir < 2; dir++)
				check_link(_metadata, src, dst, dev, k, dir,
					   on_route[dev][k][dir],
					   &before.l[dev][k][dir],
					   &after.l[dev][k][dir]);
}

/*
 * Every ordered pair, neighbours or not, the same device included; each
 * reads every link's counters twice, slow on the debug kernel.
 */
TEST_F_TIMEOUT(mesh, copy_peer_every_pair, 300)
{
	uint32_t src, dst;

	for (src = 0; src < self->m.ndev; src++)
		for (dst = 0; dst < self->m.ndev; dst++) {
			struct pwtpu_bo tmp;

			if (src != dst) {
				copy_and_check(_metadata, self, variant->path,
					       src, dst, self->fd[dst],
					       &self->bo[dst]);
				continue;
			}
			/* Same file, another BO: no link is crossed. */
			ASSERT_EQ(0, pwtpu_bo_alloc(self->fd[src], BO_SIZE,
						    &tmp));
			copy_and_check(_metadata, self, variant->path, src,
				       dst, self->fd[src], &tmp);
			ASSERT_EQ(0, pwtpu_bo_free(self->fd[src], &tmp));
		}
}

/* The destination may be another open file of the same device. */
TEST_F(mesh, copy_peer_second_file_same_device)
{
	uint32_t last = self->m.ndev - 1;
	struct pwtpu_bo bo;
	int fd2 = pwtpu_open(last);

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, pwtpu_bo_alloc(fd2, BO_SIZE, &bo));
	copy_and_check(_metadata, self, variant->path, last, last, fd2, &bo);
	if (last)
		copy_and_check(_metadata, self, variant->path, 0, last, fd2,
			       &bo);
	ASSERT_EQ(0, pwtpu_bo_free(fd2, &bo));
	close(fd2);
}

/* Each rejected copy: its errno, no data moved, no link charged. */
TEST_F(mesh, copy_peer_errors)
{
	const uint32_t src = 0, dst = self->m.ndev - 1;
	static struct link_snapshot before, after;
	const uint32_t sh = self->bo[src].handle;
	const int dfd = self->fd[dst];
	int closed_fd, null_fd, empty_src, empty_dst;
	struct pwtpu_bo dbo;
	struct pwtpu_cmd cmd;
	uint32_t i, dh;
	uint8_t *d;

	/* Its own destination: with one device, dst is src's device. */
	ASSERT_EQ(0, pwtpu_bo_alloc(dfd, BO_SIZE, &dbo));
	dh = dbo.handle;
	d = dbo.map;
	memset(self->bo[src].map, 0x5a, BO_SIZE);
	memset(d, 0, BO_SIZE);
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, null_fd);
	/* Files of the right devices that own no BO at all. */
	empty_src = pwtpu_open(src);
	empty_dst = pwtpu_open(dst);
	ASSERT_LE(0, empty_src);
	ASSERT_LE(0, empty_dst);
	/* Last, so that no open() takes its number again. */
	closed_fd = dup(dfd);
	ASSERT_LE(0, closed_fd);
	close(closed_fd);
	ASSERT_EQ(0, mesh_snapshot(&self->m, &before));

#define EXPECT_COPY(err, what) do {					\
	EXPECT_EQ(err, run(self, variant->path, self->fd[src], \
			   PWTPU_CMD_COPY_PEER, &cmd)) TH_LOG("%s", what); \
} while (0)

	copy_cmd(&cmd, sh, 0, closed_fd, dh, 0, 16);
	EXPECT_COPY(-EBADF, "peer_fd not open");
	copy_cmd(&cmd, sh, 0, -1, dh, 0, 16);
	EXPECT_COPY(-EBADF, "peer_fd -1");
	copy_cmd(&cmd, sh, 0, null_fd, dh, 0, 16);
	EXPECT_COPY(-EINVAL, "peer_fd is /dev/null");
	copy_cmd(&cmd, sh, 0, empty_dst, dh, 0, 16);
	EXPECT_COPY(-ENOENT, "peer_handle of another file of that device");
	copy_cmd(&cmd, sh, 0, dfd, dh + 1000, 0, 16);
	EXPECT_COPY(-ENOENT, "peer_handle never made");
	copy_cmd(&cmd, sh + 1000, 0, dfd, dh, 0, 16);
	EXPECT_COPY(-ENOENT, "handle never made");
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, 16);
	EXPECT_EQ(-ENOENT, run(self, variant->path, empty_src,
			       PWTPU_CMD_COPY_PEER, &cmd))
		TH_LOG("handle of another file of that device");
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, 0);
	EXPECT_COPY(-EINVAL, "length 0");
	copy_cmd(&cmd, sh, BO_SIZE - 8, dfd, dh, 0, 16);
	EXPECT_COPY(-EINVAL, "source range past its BO");
	copy_cmd(&cmd, sh, 0, dfd, dh, BO_SIZE - 8, 16);
	EXPECT_COPY(-EINVAL, "destination range past its BO");
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, BO_SIZE + 1);
	EXPECT_COPY(-EINVAL, "longer than both BOs");
	copy_cmd(&cmd, sh, UINT64_MAX - 7, dfd, dh, 0, 16);
	EXPECT_COPY(-EINVAL, "source offset wraps");
	copy_cmd(&cmd, sh, 0, dfd, dh, UINT64_MAX - 7, 16);
	EXPECT_COPY(-EINVAL, "destination offset wraps");
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, 16);
	cmd.flags = ~PWTPU_CMD_F_ALL;
	EXPECT_COPY(-EINVAL, "unknown flags");
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, 16);
	cmd.bufs_ptr = (uintptr_t)&sh;
	EXPECT_COPY(-EINVAL, "bufs_ptr");
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, 16);
	cmd.host_ptr = (uintptr_t)d;
	EXPECT_COPY(-EINVAL, "host_ptr");
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, 16);
	cmd.gang_ptr = (uintptr_t)&cmd;
	EXPECT_COPY(-EINVAL, "gang_ptr");
#undef EXPECT_COPY

	ASSERT_EQ(0, mesh_snapshot(&self->m, &after));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)))
		TH_LOG("a rejected copy was charged to a link");
	for (i = 0; i < BO_SIZE && !d[i]; i++)
		;
	EXPECT_EQ(BO_SIZE, i) TH_LOG("a rejected copy wrote byte %u", i);
	/* ... and a good one still works. */
	copy_cmd(&cmd, sh, 0, dfd, dh, 0, 16);
	EXPECT_EQ(0, run(self, variant->path, self->fd[src],
			 PWTPU_CMD_COPY_PEER, &cmd));
	EXPECT_EQ(timing_skip() ? 0 : 0x5a, d[15]);
	EXPECT_EQ(0, pwtpu_bo_free(dfd, &dbo));
	close(null_fd);
	close(empty_src);
	close(empty_dst);
}

/*
 * The destination's file is closed while a copy into it is in flight:
 * the copy completes, and the destination's HBM comes back afterwards.
 */
TEST_F(mesh, copy_peer_destination_closed_in_flight)
{
	const uint32_t dst = self->m.ndev - 1;
	const uint64_t len = 4 << 20;
	struct pwtpu_bo sbo, dbo;
	struct io_uring_cqe *cqe;
	struct pwtpu_cmd cmd;
	uint64_t base;
	int dfd;

	if (variant->path != DRV_URING)
		DRV_SKIP("needs a command in flight: io_uring only");
	ASSERT_EQ(0, pwtpu_sysfs_u64(dst, "hbm_used", &base));
	dfd = pwtpu_open(dst);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, pwtpu_bo_create(self->fd[0], len, &sbo));
	ASSERT_EQ(0, pwtpu_bo_create(dfd, len, &dbo));
	copy_cmd(&cmd, sbo.handle, 0, dfd, dbo.handle, 0, len);
	pwtpu_prep_uring_cmd(io_uring_get_sqe(&self->ring), self->fd[0],
			     PWTPU_CMD_COPY_PEER, &cmd);
	ASSERT_EQ(1, io_uring_submit(&self->ring));
	close(dfd);
	ASSERT_EQ(0, io_uring_wait_cqe(&self->ring, &cqe));
	EXPECT_EQ(0, cqe->res);
	io_uring_cqe_seen(&self->ring, cqe);
	EXPECT_EQ(0, pwtpu_bo_destroy(self->fd[0], sbo.handle));
	EXPECT_EQ(base, drv_wait_hbm(dst, base, 5000));
}

TEST_HARNESS_MAIN
