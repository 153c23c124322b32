// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_sysfs.c - /sys/class/pwtpu/pwtpuN/: what a device is and does.
 */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "pwtpu.h"

static struct pwtpu_dev *to_pwtpu(struct device *dev)
{
	return container_of(dev, struct pwtpu_dev, dev);
}

#define PWTPU_ATTR_U64(name, expr)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct pwtpu_dev *pdev = to_pwtpu(dev);				\
									\
	return sysfs_emit(buf, "%llu\n", (unsigned long long)(expr));	\
}									\
static DEVICE_ATTR_RO(name)

PWTPU_ATTR_U64(index, pdev->index);
PWTPU_ATTR_U64(island, pdev->isl->island);
PWTPU_ATTR_U64(hbm_total, pdev->isl->hbm_bytes);
PWTPU_ATTR_U64(hbm_used, atomic64_read(&pdev->hbm_used));
PWTPU_ATTR_U64(cmds_completed, READ_ONCE(pdev->cmds_completed));
PWTPU_ATTR_U64(cmds_cancelled, atomic64_read(&pdev->cmds_cancelled));
PWTPU_ATTR_U64(cmds_aborted, READ_ONCE(pdev->cmds_aborted));
PWTPU_ATTR_U64(cmds_inline, READ_ONCE(pdev->cmds_inline));
PWTPU_ATTR_U64(busy_ns, READ_ONCE(pdev->busy_ns));
PWTPU_ATTR_U64(queue_depth, READ_ONCE(pdev->queued));

static ssize_t mesh_shape_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	char shape[32];

	pwfw_mesh_format(&to_pwtpu(dev)->isl->mesh, shape, sizeof(shape));
	return sysfs_emit(buf, "%s\n", shape);
}
static DEVICE_ATTR_RO(mesh_shape);

static ssize_t mesh_coords_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct pwtpu_dev *pdev = to_pwtpu(dev);
	u32 i, n = pdev->isl->mesh.ndims;
	int len = 0;

	for (i = 0; i < n; i++)
		len += sysfs_emit_at(buf, len, "%s%u", i ? "," : "",
				     pdev->coords[i]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(mesh_coords);

static ssize_t spec_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	char spec[256];

	pwfw_spec_format(&to_pwtpu(dev)->isl->spec, spec, sizeof(spec));
	return sysfs_emit(buf, "%s\n", spec);
}
static DEVICE_ATTR_RO(spec);

static ssize_t timing_mode_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  pwtpu_timing_name(to_pwtpu(dev)->isl->timing));
}
static DEVICE_ATTR_RO(timing_mode);

/* Neighbours per axis, minus then plus; "-" where there is no link. */
static ssize_t neighbors_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct pwtpu_dev *pdev = to_pwtpu(dev);
	struct pwtpu_island *isl = pdev->isl;
	u32 axis, dir, peer;
	int len = 0;

	for (axis = 0; axis < isl->mesh.ndims; axis++) {
		for (dir = 0; dir < 2; dir++) {
			peer = pwfw_island_neighbor(isl->fw, pdev->index, axis,
						    dir);
			if (peer == PWTPU_NO_DEVICE)
				len += sysfs_emit_at(buf, len, "%s-",
						     len ? " " : "");
			else
				len += sysfs_emit_at(buf, len, "%s%u",
						     len ? " " : "", peer);
		}
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(neighbors);

static struct attribute *pwtpu_dev_attrs[] = {
	&dev_attr_index.attr,
	&dev_attr_island.attr,
	&dev_attr_mesh_shape.attr,
	&dev_attr_mesh_coords.attr,
	&dev_attr_hbm_total.attr,
	&dev_attr_hbm_used.attr,
	&dev_attr_cmds_completed.attr,
	&dev_attr_cmds_cancelled.attr,
	&dev_attr_cmds_aborted.attr,
	&dev_attr_cmds_inline.attr,
	&dev_attr_busy_ns.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_spec.attr,
	&dev_attr_timing_mode.attr,
	&dev_attr_neighbors.attr,
	NULL,
};

static const struct attribute_group pwtpu_dev_group = {
	.attrs = pwtpu_dev_attrs,
};

/*
 * link_<axis>_<minus|plus>/{peer,bytes,transfers,busy_ns}: traffic this
 * device sent on one link. Each device gets a group for each link it
 * has, so a directory exists exactly where a link does.
 */
static const char * const pwtpu_link_files[PWTPU_LINK_FIELDS] = {
	"peer", "bytes", "transfers", "busy_ns",
};

static ssize_t pwtpu_link_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct pwtpu_link_attr *la = container_of(attr, struct pwtpu_link_attr,
						  attr);
	struct pwtpu_dev *pdev = to_pwtpu(dev);
	struct pwfw_link_stats st;
	u64 val;

	pwfw_island_link_stats(pdev->isl->fw, pdev->index, la->axis, la->dir,
			       &st);
	switch (la->field) {
	case 0:
		val = pwfw_island_neighbor(pdev->isl->fw, pdev->index,
					   la->axis, la->dir);
		break;
	case 1:
		val = st.bytes;
		break;
	case 2:
		val = st.transfers;
		break;
	default:
		val = st.busy_ns;
		break;
	}
	return sysfs_emit(buf, "%llu\n", val);
}

static void pwtpu_link_group(struct pwtpu_link_sysfs *ls, u32 axis, u32 dir)
{
	u32 f;

	for (f = 0; f < PWTPU_LINK_FIELDS; f++) {
		struct pwtpu_link_attr *la = &ls->attrs[f];

		sysfs_attr_init(&la->attr.attr);
		la->attr.attr.name = pwtpu_link_files[f];
		la->attr.attr.mode = 0444;
		la->attr.show = pwtpu_link_show;
		la->axis = axis;
		la->dir = dir;
		la->field = f;
		ls->ptrs[f] = &la->attr.attr;
	}
	ls->ptrs[PWTPU_LINK_FIELDS] = NULL;
	snprintf(ls->name, sizeof(ls->name), "link_%u_%s", axis,
		 dir ? "plus" : "minus");
	ls->group.name = ls->name;
	ls->group.attrs = ls->ptrs;
}

/* Fill pdev->groups before the device is added. */
void pwtpu_sysfs_groups(struct pwtpu_dev *pdev)
{
	u32 axis, dir, n = 0;

	pdev->groups[n++] = &pwtpu_dev_group;
	for (axis = 0; axis < PWTPU_MESH_MAX_DIMS; axis++) {
		for (dir = 0; dir < 2; dir++) {
			struct pwtpu_link_sysfs *ls = &pdev->links[axis][dir];

			if (pwfw_island_neighbor(pdev->isl->fw, pdev->index,
						 axis, dir) == PWTPU_NO_DEVICE)
				continue;
			pwtpu_link_group(ls, axis, dir);
			pdev->groups[n++] = &ls->group;
		}
	}
	pdev->groups[n] = NULL;
}
