/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drv_mesh.h - what the mesh tests expect of the island, computed from
 * the module parameters alone (not from the driver or the firmware):
 * coordinates, neighbours, dimension-ordered routes; and the link
 * counters sysfs shows.
 */
#ifndef DRV_MESH_H
#define DRV_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "pwtpu/pwtpu_dev.h"

#define MESH_MINUS	0
#define MESH_PLUS	1
#define MESH_MAX_DEVS	PWTPU_MAX_GANG

/**
 * struct mesh - the island the parameters ask for
 * @ndev: devices.
 * @ndims: mesh dimensions.
 * @shape: extents; 1 past @ndims.
 * @torus: wraparound links.
 */
struct mesh {
	uint32_t ndev;
	uint32_t ndims;
	uint32_t shape[PWTPU_MESH_MAX_DIMS];
	bool torus;
};

/* ndev and mesh from /sys/module/pwtpu/parameters; 0 or -errno. */
int mesh_from_params(struct mesh *m);

/* Row-major coordinates, the last dimension fastest. */
void mesh_coords(const struct mesh *m, uint32_t dev,
		 uint32_t c[PWTPU_MESH_MAX_DIMS]);
uint32_t mesh_index(const struct mesh *m,
		    const uint32_t c[PWTPU_MESH_MAX_DIMS]);

/*
 * The device linked to @dev along @axis in direction @dir, or
 * PWTPU_NO_DEVICE: none past a mesh's edge, the far end on a torus, and
 * never along an axis of extent 1 or past ndims.
 */
uint32_t mesh_neighbor(const struct mesh *m, uint32_t dev, uint32_t axis,
		       uint32_t dir);

/* sysfs "neighbors" as the driver should print it: "- 5 0 2". */
void mesh_neighbors_text(const struct mesh *m, uint32_t dev, char *buf,
			 size_t len);

struct mesh_hop {
	uint32_t from;
	uint32_t axis;
	uint32_t dir;
	uint32_t to;
};

/*
 * The dimension-ordered route from @src to @dst: lowest axis first, on a
 * torus the shorter way round and plus on a tie. Returns the number of
 * hops written to @hops (room for @max), 0 when @src == @dst.
 */
int mesh_route(const struct mesh *m, uint32_t src, uint32_t dst,
	       struct mesh_hop *hops, int max);

/**
 * struct link_stat - sysfs link_<axis>_<dir>/ of one device
 * @present: the directory exists.
 * @peer: its peer file.
 * @bytes: bytes sent.
 * @transfers: hops sent.
 * @busy_ns: modelled busy time.
 */
struct link_stat {
	bool present;
	uint64_t peer;
	uint64_t bytes;
	uint64_t transfers;
	uint64_t busy_ns;
};

/* Read link_<axis>_<minus|plus>/ of device @dev (absent: !present). */
int mesh_link_stat(uint32_t dev, uint32_t axis, uint32_t dir,
		   struct link_stat *st);

/* Every link of every device: [dev][axis][dir]. */
struct link_snapshot {
	struct link_stat l[MESH_MAX_DEVS][PWTPU_MESH_MAX_DIMS][2];
};

int mesh_snapshot(const struct mesh *m, struct link_snapshot *s);

#endif /* DRV_MESH_H */
