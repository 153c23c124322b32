// SPDX-License-Identifier: GPL-2.0
/*
 * pwprog_dispatch.c - the two programs dispatch latency is measured with,
 * locally (pwbench dispatch --local) and across hosts (pathwaysd's
 * workers): the same bytes on both paths, so the two compare.
 */
#include <pwtpu/pwprog.h>

void *pwprog_dispatch_image(bool add, size_t *size)
{
	static const uint32_t one[1] = { 1 };
	struct pwprog *p = pwprog_new(1);
	void *img;
	int a, b, c;

	if (!p)
		return NULL;
	a = pwprog_tensor(p, PWTPU_DT_F32, 1, one, 0, 0);
	if (add) {
		b = pwprog_tensor(p, PWTPU_DT_F32, 1, one, 0, 4);
		c = pwprog_tensor(p, PWTPU_DT_F32, 1, one, 0, 8);
		pwprog_binary(p, PWTPU_OP_ADD, c, a, b);
	}
	img = pwprog_image(p, size);
	pwprog_free(p);
	return img;
}
