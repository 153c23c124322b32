// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_mesh.c - island topology: "8", "2x4", "2x2x2", "4x4t" ('t' for a
 * torus), device coordinates, and the text form back.
 */
#include "pwfw.h"
#include "pwfw_fmt.h"

static void fmt_mesh_error(struct pwfw_fmt *f, const char *str,
			   const char *what)
{
	pwfw_fmt_str(f, "mesh '");
	pwfw_fmt_strn(f, str, 32);
	pwfw_fmt_str(f, "': ");
	pwfw_fmt_str(f, what);
}

int pwfw_mesh_parse(struct pwfw_mesh *mesh, const char *str, u32 ndevices,
		    char *err, u32 errlen)
{
	struct pwfw_mesh m = { 0 };
	struct pwfw_fmt f;
	const char *p = str;
	u64 devices = 1;

	pwfw_fmt_init(&f, err, errlen);
	if (!str || !*str) {
		pwfw_fmt_str(&f, "mesh is empty");
		return -PWFW_EINVAL;
	}
	for (;;) {
		u64 extent = 0;

		if (*p < '0' || *p > '9') {
			fmt_mesh_error(&f, str, "expected a number at '");
			pwfw_fmt_strn(&f, p, 8);
			pwfw_fmt_char(&f, '\'');
			return -PWFW_EINVAL;
		}
		/* Past 2^32 the value only needs to stay past it. */
		for (; *p >= '0' && *p <= '9'; p++)
			if (extent <= 0xffffffffU)
				extent = extent * 10 + (u64)(*p - '0');
		if (!extent || extent > 0xffffffffU) {
			fmt_mesh_error(&f, str, "extents must be 1..4294967295");
			return -PWFW_EINVAL;
		}
		if (m.ndims == PWTPU_MESH_MAX_DIMS) {
			fmt_mesh_error(&f, str, "more than 3 dimensions");
			return -PWFW_EINVAL;
		}
		m.shape[m.ndims++] = (u32)extent;
		/* At most three factors below 2^32: saturate, never wrap. */
		if (devices <= 0xffffffffU)
			devices *= extent;
		if (*p == 'x') {
			p++;
			continue;
		}
		if (*p == 't') {
			m.torus = 1;
			p++;
		}
		if (*p) {
			fmt_mesh_error(&f, str, "unexpected '");
			pwfw_fmt_strn(&f, p, 8);
			pwfw_fmt_str(&f, "' (the form is 2x4 or 2x4t)");
			return -PWFW_EINVAL;
		}
		break;
	}
	if (devices != ndevices) {
		pwfw_fmt_str(&f, "mesh ");
		pwfw_fmt_strn(&f, str, 32);
		pwfw_fmt_str(&f, " has ");
		if (devices > 0xffffffffU)
			pwfw_fmt_str(&f, "more than 4294967295");
		else
			pwfw_fmt_u64(&f, devices);
		pwfw_fmt_str(&f, " devices, module has ");
		pwfw_fmt_u64(&f, ndevices);
		return -PWFW_EINVAL;
	}
	*mesh = m;
	return 0;
}

void pwfw_mesh_coords(const struct pwfw_mesh *mesh, u32 index,
		      u32 coords[PWTPU_MESH_MAX_DIMS])
{
	u32 ndims = mesh->ndims;
	u32 i;

	if (ndims > PWTPU_MESH_MAX_DIMS)
		ndims = PWTPU_MESH_MAX_DIMS;
	for (i = ndims; i < PWTPU_MESH_MAX_DIMS; i++)
		coords[i] = 0;
	/* Row major: the last dimension varies fastest. */
	for (i = ndims; i-- > 0;) {
		u32 extent = mesh->shape[i];

		coords[i] = extent ? index % extent : 0;
		index = extent ? index / extent : 0;
	}
}

u32 pwfw_mesh_format(const struct pwfw_mesh *mesh, char *buf, u32 len)
{
	struct pwfw_fmt f;
	u32 i;

	pwfw_fmt_init(&f, buf, len);
	for (i = 0; i < mesh->ndims && i < PWTPU_MESH_MAX_DIMS; i++) {
		if (i)
			pwfw_fmt_char(&f, 'x');
		pwfw_fmt_u64(&f, mesh->shape[i]);
	}
	if (mesh->torus)
		pwfw_fmt_char(&f, 't');
	return f.len;
}
