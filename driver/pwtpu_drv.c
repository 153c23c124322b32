// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_drv.c - module parameters, the island, and /dev/pwtpuN.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "pwtpu.h"
#include "pwtpu_compat.h"

static unsigned int ndev = 8;
module_param(ndev, uint, 0444);
MODULE_PARM_DESC(ndev, "number of devices in the island (1-64, default 8)");

static unsigned int hbm_mib = 64;
module_param(hbm_mib, uint, 0444);
MODULE_PARM_DESC(hbm_mib, "HBM per device in MiB (1-4096, default 64)");

static unsigned int island;
module_param(island, uint, 0444);
MODULE_PARM_DESC(island, "island id reported by the devices (default 0)");

static char *mesh = "";
module_param(mesh, charp, 0444);
MODULE_PARM_DESC(mesh, "mesh shape: 8, 2x4, 2x2x2, 4x4t (torus); default 1-D of ndev");

static char *spec = "";
module_param(spec, charp, 0444);
MODULE_PARM_DESC(spec, "device spec overrides: key=value,... (array_dim, clock_mhz, hbm_mbps, host_mbps, ici_mbps, ici_latency_ns, vector_lanes, host_latency_ns, insn_overhead_ns)");

static char *timing = "native";
module_param(timing, charp, 0444);
MODULE_PARM_DESC(timing, "timing mode: native, modeled or skip (default native)");

static unsigned int gang_timeout_ms = 2000;
module_param(gang_timeout_ms, uint, 0444);
MODULE_PARM_DESC(gang_timeout_ms, "a collective whose peers do not all arrive in this time fails with -ETIMEDOUT (10-600000, default 2000)");

static unsigned int poll_us;
module_param(poll_us, uint, 0444);
MODULE_PARM_DESC(poll_us, "a file's runner polls for its next queued command this long before sleeping (0-1000 us, default 0)");

/*
 * Read at each command's start, so a test (or an operator) may change it
 * while the module is loaded; the range is checked at load (the kernel
 * logs "invalid for parameter" and the load fails) and on every write to
 * sysfs (which fails with -EINVAL).
 */
static int watchdog_ms_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 100, 3600000);
}

static const struct kernel_param_ops watchdog_ms_ops = {
	.set = watchdog_ms_set,
	.get = param_get_uint,
};

unsigned int pwtpu_watchdog_ms = 30000;
module_param_cb(watchdog_ms, &watchdog_ms_ops, &pwtpu_watchdog_ms, 0644);
MODULE_PARM_DESC(watchdog_ms, "a command still running this long past twice its modelled time is aborted with -ETIME (100-3600000, default 30000; writable)");

static int inline_us_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 1000);
}

static const struct kernel_param_ops inline_us_ops = {
	.set = inline_us_set,
	.get = param_get_uint,
};

/* Read as each command is submitted: writable like watchdog_ms. */
unsigned int pwtpu_inline_us = 20;
module_param_cb(inline_us, &inline_us_ops, &pwtpu_inline_us, 0644);
MODULE_PARM_DESC(inline_us, "a short command (modelled time at most this, little real work, no collectives) that finds its device idle runs in the submitter's context; 0 never (0-1000, default 20; writable)");

static unsigned int max_inflight = 1024;
module_param(max_inflight, uint, 0444);
MODULE_PARM_DESC(max_inflight, "commands one open file may have queued or running; more are refused with -EBUSY (1-65536, default 1024)");

struct pwtpu_island pwtpu_isl;

static dev_t pwtpu_devt;
static struct class *pwtpu_class;

const struct file_operations pwtpu_fops = {
	.owner = THIS_MODULE,
	.open = pwtpu_open,
	.release = pwtpu_release,
	.unlocked_ioctl = pwtpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = pwtpu_mmap,
	.uring_cmd = pwtpu_uring_cmd,
	.uring_cmd_iopoll = pwtpu_uring_iopoll,
	.llseek = noop_llseek,
};

static const char * const pwtpu_timing_names[] = {
	[PWTPU_TIMING_NATIVE] = "native",
	[PWTPU_TIMING_MODELED] = "modeled",
	[PWTPU_TIMING_SKIP] = "skip",
};

const char *pwtpu_timing_name(u32 mode)
{
	return mode < ARRAY_SIZE(pwtpu_timing_names) ?
		pwtpu_timing_names[mode] : "unknown";
}

static int pwtpu_parse_params(struct pwtpu_island *isl)
{
	char err[128], shape[32];
	int i;

	if (ndev < 1 || ndev > PWTPU_MAX_DEVICES) {
		pr_err("ndev=%u: must be 1..%u\n", ndev, PWTPU_MAX_DEVICES);
		return -EINVAL;
	}
	if (hbm_mib < 1 || hbm_mib > PWTPU_MAX_HBM_MIB) {
		pr_err("hbm_mib=%u: must be 1..%u\n", hbm_mib, PWTPU_MAX_HBM_MIB);
		return -EINVAL;
	}
	if (gang_timeout_ms < 10 || gang_timeout_ms > 600000) {
		pr_err("gang_timeout_ms=%u: must be 10..600000\n",
		       gang_timeout_ms);
		return -EINVAL;
	}
	if (poll_us > 1000) {
		pr_err("poll_us=%u: must be 0..1000\n", poll_us);
		return -EINVAL;
	}
	if (max_inflight < 1 || max_inflight > 65536) {
		pr_err("max_inflight=%u: must be 1..65536\n", max_inflight);
		return -EINVAL;
	}
	i = match_string(pwtpu_timing_names, ARRAY_SIZE(pwtpu_timing_names),
			 timing);
	if (i < 0) {
		pr_err("timing=%s: must be native, modeled or skip\n", timing);
		return -EINVAL;
	}
	isl->timing = i;
	isl->ndev = ndev;
	isl->island = island;
	isl->poll_us = poll_us;
	isl->max_inflight = max_inflight;
	isl->gang_timeout_ns = (u64)gang_timeout_ms * NSEC_PER_MSEC;
	isl->hbm_bytes = (u64)hbm_mib << 20;

	if (pwfw_spec_parse(&isl->spec, spec, err, sizeof(err))) {
		pr_err("spec=%s: %s\n", spec, err);
		return -EINVAL;
	}
	if (!*mesh)
		snprintf(shape, sizeof(shape), "%u", ndev);
	else
		strscpy(shape, mesh, sizeof(shape));
	if (pwfw_mesh_parse(&isl->mesh, shape, ndev, err, sizeof(err))) {
		pr_err("mesh=%s: %s\n", mesh, err);
		return -EINVAL;
	}
	return 0;
}

static void pwtpu_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct pwtpu_dev, dev));
}

static int pwtpu_dev_add(struct pwtpu_island *isl, u32 index)
{
	struct pwtpu_dev *pdev;
	int ret;

	pdev = kzalloc(sizeof(*pdev), GFP_KERNEL);
	if (!pdev)
		return -ENOMEM;
	pdev->isl = isl;
	pdev->index = index;
	pwfw_mesh_coords(&isl->mesh, index, pdev->coords);
	spin_lock_init(&pdev->qlock);
	INIT_LIST_HEAD(&pdev->queue);

	device_initialize(&pdev->dev);
	pdev->dev.class = pwtpu_class;
	pdev->dev.devt = MKDEV(MAJOR(pwtpu_devt), index);
	pwtpu_sysfs_groups(pdev);
	pdev->dev.groups = pdev->groups;
	pdev->dev.release = pwtpu_dev_release;
	dev_set_drvdata(&pdev->dev, pdev);
	ret = dev_set_name(&pdev->dev, "pwtpu%u", index);
	if (ret)
		goto err_put;

	cdev_init(&pdev->cdev, &pwtpu_fops);
	pdev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&pdev->cdev, &pdev->dev);
	if (ret)
		goto err_put;

	isl->devs[index] = pdev;
	return 0;

err_put:
	put_device(&pdev->dev);
	return ret;
}

/*
 * The module is unloaded only once every file is released, and a file is
 * released only once its commands have ended: no queue holds a job.
 */
static void pwtpu_remove_all(struct pwtpu_island *isl)
{
	u32 i;

	for (i = 0; i < isl->ndev; i++) {
		if (!isl->devs[i])
			continue;
		WARN_ON_ONCE(!list_empty(&isl->devs[i]->queue));
		cdev_device_del(&isl->devs[i]->cdev, &isl->devs[i]->dev);
		put_device(&isl->devs[i]->dev);
		isl->devs[i] = NULL;
	}
}

static int __init pwtpu_init(void)
{
	struct pwtpu_island *isl = &pwtpu_isl;
	char buf[64];
	u32 i;
	int ret;

	ret = pwtpu_parse_params(isl);
	if (ret)
		return ret;

	mutex_init(&isl->fw_lock);
	init_waitqueue_head(&isl->fw_wait);
	isl->fw = pwfw_island_create(isl, &isl->spec, &isl->mesh, isl->ndev,
				     isl->gang_timeout_ns);
	if (!isl->fw)
		return -ENOMEM;

	ret = alloc_chrdev_region(&pwtpu_devt, 0, isl->ndev, "pwtpu");
	if (ret)
		goto err_island;

	pwtpu_class = pwtpu_class_create("pwtpu");
	if (IS_ERR(pwtpu_class)) {
		ret = PTR_ERR(pwtpu_class);
		goto err_region;
	}

	for (i = 0; i < isl->ndev; i++) {
		ret = pwtpu_dev_add(isl, i);
		if (ret)
			goto err_devs;
	}

	pwfw_mesh_format(&isl->mesh, buf, sizeof(buf));
	pr_info("island %u: %u devices, mesh %s, %u MiB HBM each, timing %s\n",
		isl->island, isl->ndev, buf, hbm_mib,
		pwtpu_timing_name(isl->timing));
	return 0;

err_devs:
	pwtpu_remove_all(isl);
	class_destroy(pwtpu_class);
err_region:
	unregister_chrdev_region(pwtpu_devt, isl->ndev);
err_island:
	pwfw_island_destroy(isl->fw);
	return ret;
}

static void __exit pwtpu_exit(void)
{
	pwtpu_remove_all(&pwtpu_isl);
	class_destroy(pwtpu_class);
	unregister_chrdev_region(pwtpu_devt, pwtpu_isl.ndev);
	pwfw_island_destroy(pwtpu_isl.fw);
}

module_init(pwtpu_init);
module_exit(pwtpu_exit);

MODULE_DESCRIPTION("pwtpu: emulated systolic-array TPU devices driven through io_uring");
MODULE_LICENSE("GPL");
