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
PWTPU_ATTR_U64(cmds_completed, atomic64_read(&pdev->cmds_completed));
PWTPU_ATTR_U64(busy_ns, atomic64_read(&pdev->busy_ns));
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

static struct attribute *pwtpu_dev_attrs[] = {
	&dev_attr_index.attr,
	&dev_attr_island.attr,
	&dev_attr_mesh_shape.attr,
	&dev_attr_mesh_coords.attr,
	&dev_attr_hbm_total.attr,
	&dev_attr_hbm_used.attr,
	&dev_attr_cmds_completed.attr,
	&dev_attr_busy_ns.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_spec.attr,
	&dev_attr_timing_mode.attr,
	NULL,
};

static const struct attribute_group pwtpu_dev_group = {
	.attrs = pwtpu_dev_attrs,
};

const struct attribute_group *pwtpu_dev_groups[] = {
	&pwtpu_dev_group,
	NULL,
};
