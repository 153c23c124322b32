// SPDX-License-Identifier: GPL-2.0
/*
 * wdev.c - a worker's devices: the calls its runs and object store make,
 * checked here once and carried out by the backend (wdev.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/rm.h>

#include "wdev.h"

int pw_wdev_parse(const char *str, struct pw_wdev_sim_cfg *cfg, bool *sim,
		  char *err, size_t len)
{
	static const char *const timings[] = { "native", "modeled", "skip" };
	struct pw_rm_island isl;
	char buf[384], *opt, *save = NULL, *end;
	unsigned long long mib;
	unsigned int t;

	memset(cfg, 0, sizeof(*cfg));
	*sim = false;
	if (!strcmp(str, "kernel"))
		return 0;
	if (strncmp(str, "sim:", 4) || strlen(str) >= sizeof(buf)) {
		snprintf(err, len, "'%s': want kernel or sim:MESH[,hbm_mib=N][,timing=native|modeled|skip][,trace=FILE]",
			 str);
		return -EINVAL;
	}
	strcpy(buf, str + 4);
	opt = strtok_r(buf, ",", &save);
	if (!opt || strlen(opt) >= sizeof(cfg->mesh) ||
	    pw_rm_island_parse(&isl, 0, opt) ||
	    isl.ndevices > PW_WIRE_MAX_DEVICES) {
		snprintf(err, len, "'%s': the mesh is not one of up to %u devices (\"4\", \"2x2\", \"2x2x2t\")",
			 str, PW_WIRE_MAX_DEVICES);
		return -EINVAL;
	}
	strcpy(cfg->mesh, opt);
	cfg->ndev = isl.ndevices;
	cfg->hbm_bytes = 64ull << 20;
	cfg->timing = PWTPU_TIMING_NATIVE;
	while ((opt = strtok_r(NULL, ",", &save))) {
		if (!strncmp(opt, "hbm_mib=", 8)) {
			errno = 0;
			mib = strtoull(opt + 8, &end, 10);
			if (errno || *end || !mib || mib > 4096) {
				snprintf(err, len, "'%s': hbm_mib must be 1..4096",
					 opt);
				return -EINVAL;
			}
			cfg->hbm_bytes = mib << 20;
			continue;
		}
		if (!strncmp(opt, "trace=", 6)) {
			if (!opt[6] || strlen(opt + 6) >= sizeof(cfg->trace)) {
				snprintf(err, len, "'%s': trace wants a file name of 1..%zu characters",
					 opt, sizeof(cfg->trace) - 1);
				return -EINVAL;
			}
			strcpy(cfg->trace, opt + 6);
			continue;
		}
		for (t = 0; t < 3; t++)
			if (!strncmp(opt, "timing=", 7) &&
			    !strcmp(opt + 7, timings[t]))
				break;
		if (t == 3) {
			snprintf(err, len, "'%s': want hbm_mib=N, timing=native|modeled|skip or trace=FILE",
				 opt);
			return -EINVAL;
		}
		cfg->timing = t;
	}
	*sim = true;
	return 0;
}

void pw_wdev_close(struct pw_wdev *w)
{
	w->ops->close(w);
}

int pw_wdev_exec(struct pw_wdev *w, unsigned int dev, uint32_t prog,
		 const uint32_t *bos, unsigned int nbos,
		 const struct pwtpu_gang *gang, uint64_t tag)
{
	if (dev >= w->ndev)
		return -EINVAL;
	return w->ops->exec(w, dev, prog, bos, nbos, gang, tag);
}

int pw_wdev_copy_peer(struct pw_wdev *w, unsigned int dev, uint32_t bo,
		      uint64_t offset, uint64_t length, unsigned int peer_dev,
		      uint32_t peer_bo, uint64_t peer_offset, uint64_t tag)
{
	if (dev >= w->ndev || peer_dev >= w->ndev)
		return -EINVAL;
	return w->ops->copy_peer(w, dev, bo, offset, length, peer_dev, peer_bo,
				 peer_offset, tag);
}

int pw_wdev_reserve(struct pw_wdev *w, unsigned int n)
{
	return w->ops->reserve(w, n);
}

int pw_wdev_flush(struct pw_wdev *w)
{
	return w->ops->flush(w);
}

int pw_wdev_reap(struct pw_wdev *w, struct pw_wdev_done *done,
		 unsigned int max)
{
	return w->ops->reap(w, done, max);
}

int pw_wdev_bo_create(struct pw_wdev *w, unsigned int dev, uint64_t bytes,
		      struct pwtpu_bo *bo)
{
	if (dev >= w->ndev)
		return -EINVAL;
	return w->ops->bo_create(w, dev, bytes, bo);
}

int pw_wdev_bo_map(struct pw_wdev *w, unsigned int dev, struct pwtpu_bo *bo)
{
	if (dev >= w->ndev)
		return -EINVAL;
	return w->ops->bo_map(w, dev, bo);
}

void pw_wdev_bo_unmap(struct pw_wdev *w, struct pwtpu_bo *bo)
{
	if (bo->map)
		w->ops->bo_unmap(w, bo);
	bo->map = NULL;
}

int pw_wdev_bo_destroy(struct pw_wdev *w, unsigned int dev, uint32_t handle)
{
	if (dev >= w->ndev)
		return -EINVAL;
	return w->ops->bo_destroy(w, dev, handle);
}

int pw_wdev_bo_alloc(struct pw_wdev *w, unsigned int dev, uint64_t bytes,
		     struct pwtpu_bo *bo)
{
	int ret = pw_wdev_bo_create(w, dev, bytes, bo);

	if (ret)
		return ret;
	ret = pw_wdev_bo_map(w, dev, bo);
	if (ret)
		pw_wdev_bo_destroy(w, dev, bo->handle);
	return ret;
}

int pw_wdev_prog_load(struct pw_wdev *w, unsigned int dev, const void *image,
		      size_t size, uint32_t *handle)
{
	if (dev >= w->ndev)
		return -EINVAL;
	return w->ops->prog_load(w, dev, image, size, handle);
}

int pw_wdev_prog_unload(struct pw_wdev *w, unsigned int dev, uint32_t handle)
{
	if (dev >= w->ndev)
		return -EINVAL;
	return w->ops->prog_unload(w, dev, handle);
}
