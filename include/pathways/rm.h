/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rm.h - the Pathways resource manager (runtime/rm/): islands of physical
 * devices, clients' virtual device sets, slices placed on blocks of the
 * island's mesh, devices removed and added while the system runs.
 *
 * Functions return 0 (or a value >= 0) on success and a negative errno on
 * failure. Every function on a struct pw_rm and its vsets and slices is
 * thread-safe: one mutex per manager.
 */
#ifndef PATHWAYS_RM_H
#define PATHWAYS_RM_H

#include <stdbool.h>
#include <stddef.h>

#define PW_RM_MAX_DIMS		3	/* PWTPU_MESH_MAX_DIMS */
#define PW_RM_MAX_DEVICES	64	/* the module's ndev limit */

/**
 * struct pw_rm_shape - a mesh shape
 * @ndims: dimensions, 1..PW_RM_MAX_DIMS.
 * @extent: extent of each dimension; entries past @ndims are unused.
 */
struct pw_rm_shape {
	unsigned int ndims;
	unsigned int extent[PW_RM_MAX_DIMS];
};

/**
 * struct pw_rm_island - the devices of one island and how they are linked
 * @id: island number (sysfs `island`).
 * @ndevices: devices, indexed 0..ndevices-1 as /dev/pwtpuN.
 * @shape: the island's mesh.
 * @torus: links wrap around on every axis.
 * @coords: each device's mesh coordinates.
 * @available: whether each device takes new placements.
 */
struct pw_rm_island {
	unsigned int id;
	unsigned int ndevices;
	struct pw_rm_shape shape;
	bool torus;
	unsigned int coords[PW_RM_MAX_DEVICES][PW_RM_MAX_DIMS];
	bool available[PW_RM_MAX_DEVICES];
};

/* Parse "4", "2x4", "2x2x2": 0 or -EINVAL (zero extent, > 3 dims, junk). */
int pw_rm_shape_parse(struct pw_rm_shape *shape, const char *str);
unsigned int pw_rm_shape_size(const struct pw_rm_shape *shape);

/*
 * Island @id from a mesh string as the module takes it ("2x4", "4x4t",
 * "2x2x2"): devices numbered row major (last axis fastest), all available.
 * -EINVAL for a malformed string, -E2BIG past PW_RM_MAX_DEVICES.
 */
int pw_rm_island_parse(struct pw_rm_island *isl, unsigned int id,
		       const char *mesh);
/*
 * The island of the loaded module, from /sys/class/pwtpu/pwtpuN/{island,
 * mesh_shape,mesh_coords}; -ENOENT when the module is not loaded, -EIO
 * when the attributes disagree. The _dir form reads another class
 * directory (tests give it a fake one).
 */
int pw_rm_island_from_sysfs(struct pw_rm_island *isl);
int pw_rm_island_from_sysfs_dir(struct pw_rm_island *isl,
				const char *class_dir);
/* Device at @coords, or -1. Coordinates past the shape's ndims ignored. */
int pw_rm_island_device_at(const struct pw_rm_island *isl,
			   const unsigned int coords[PW_RM_MAX_DIMS]);

struct pw_rm;
struct pw_rm_vset;
struct pw_rm_slice;

/* A manager of a copy of @isl (its availability included). */
int pw_rm_create(struct pw_rm **rm, const struct pw_rm_island *isl);
/* Frees the manager and every vset and slice still in it. */
void pw_rm_destroy(struct pw_rm *rm);

/* A client's virtual device set. */
int pw_rm_vset_create(struct pw_rm *rm, struct pw_rm_vset **vset);
/* Releases the set's slices (and their load) and frees it. */
void pw_rm_vset_destroy(struct pw_rm_vset *vset);
/* Message of the set's last failed pw_rm_add_slice, "" if none. */
const char *pw_rm_vset_error(const struct pw_rm_vset *vset);

/*
 * Place a slice of @n virtual devices on @n distinct available devices.
 * With @shape (NULL: any n devices, neighbours preferred) the devices form
 * a block of that shape on the mesh, its axes along island axes
 * (consecutive, wrapping on a torus), so that virtual neighbours (row major
 * in @shape) are physical neighbours. Among valid placements the one with
 * the least load (slices already on its devices, summed) wins; ties go to
 * the lowest index of virtual device 0.
 * Errors: -EINVAL (n == 0, n != product of @shape, more dims than the
 * island, a zero extent), -E2BIG (n > island devices), -ENOSPC (no such
 * block of available devices); the message is in pw_rm_vset_error().
 */
int pw_rm_add_slice(struct pw_rm_vset *vset, unsigned int n,
		    const struct pw_rm_shape *shape,
		    struct pw_rm_slice **slice);
/* Gives the slice's devices their load back and frees it. */
void pw_rm_release_slice(struct pw_rm_slice *slice);

unsigned int pw_rm_slice_size(const struct pw_rm_slice *slice);
/* The slice's virtual shape (1-D of n when placed without a shape). */
struct pw_rm_shape pw_rm_slice_shape(const struct pw_rm_slice *slice);
/* Physical device of virtual device @v, or -EINVAL. */
int pw_rm_slice_device(const struct pw_rm_slice *slice, unsigned int v);
/* Coordinates of virtual device @v in the slice's shape, row major. */
int pw_rm_slice_coords(const struct pw_rm_slice *slice, unsigned int v,
		       unsigned int coords[PW_RM_MAX_DIMS]);
/*
 * False once a device of the slice was removed; *failed_dev (may be NULL)
 * gets the first such device. Stays false after the device is re-added.
 */
bool pw_rm_slice_ok(const struct pw_rm_slice *slice, int *failed_dev);

/*
 * Take device @dev out of placement: returns how many slices it failed
 * (>= 0), -EINVAL for no such device, -EALREADY if already removed.
 */
int pw_rm_remove_device(struct pw_rm *rm, unsigned int dev);
/* Make @dev available again: 0, -EINVAL, -EALREADY if available. */
int pw_rm_add_device(struct pw_rm *rm, unsigned int dev);
/* Slices placed on @dev now (its load), or -EINVAL. */
int pw_rm_device_load(struct pw_rm *rm, unsigned int dev);
bool pw_rm_device_available(struct pw_rm *rm, unsigned int dev);

#endif /* PATHWAYS_RM_H */
