// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu-matmul: run one matmul on a device and check every element.
 *
 *   pwtpu-matmul [-d DEV] [-m M] [-k K] [-n N] [-t f32|bf16|i8] [-s SEED]
 *
 * The inputs go to HBM with COPY_TO_DEV over io_uring, the program runs
 * with EXEC, the result comes back with COPY_FROM_DEV. The check is exact:
 * the reference below follows the MXU's documented accumulation order
 * (docs/firmware-ops.md), so any difference is a device bug. Exit status
 * 0 when every element matches.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pwtpu/pwprog.h"
#include "pwtpu/pwtpu_dev.h"

struct mm_args {
	unsigned int dev;
	uint32_t m, k, n;
	enum pwtpu_dtype in;
	unsigned int seed;
};

static uint32_t dtype_size(enum pwtpu_dtype dt)
{
	return dt == PWTPU_DT_F32 || dt == PWTPU_DT_I32 ? 4 :
	       dt == PWTPU_DT_BF16 ? 2 : 1;
}

static float bf16_to_f32(uint16_t v)
{
	uint32_t bits = (uint32_t)v << 16;
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* Small values keep bf16/f32 products exact enough to be interesting. */
static void fill_inputs(void *buf, uint64_t elems, enum pwtpu_dtype dt)
{
	for (uint64_t i = 0; i < elems; i++) {
		int v = rand() % 17 - 8;
		float f = (float)v / 4.0f;

		if (dt == PWTPU_DT_F32) {
			((float *)buf)[i] = f;
		} else if (dt == PWTPU_DT_BF16) {
			uint32_t bits;

			memcpy(&bits, &f, sizeof(bits));
			((uint16_t *)buf)[i] = (uint16_t)(bits >> 16);
		} else {
			((int8_t *)buf)[i] = (int8_t)(rand() % 256 - 128);
		}
	}
}

static float elem_f32(const void *buf, uint64_t i, enum pwtpu_dtype dt)
{
	return dt == PWTPU_DT_F32 ? ((const float *)buf)[i] :
	       bf16_to_f32(((const uint16_t *)buf)[i]);
}

/* K in tiles of the array dimension; products summed per tile, in order. */
static void reference(const struct mm_args *a, uint32_t dim, const void *x,
		      const void *y, void *out)
{
	for (uint32_t i = 0; i < a->m; i++) {
		for (uint32_t j = 0; j < a->n; j++) {
			float acc = 0.0f;
			uint32_t iacc = 0;

			for (uint32_t k0 = 0; k0 < a->k; k0 += dim) {
				uint32_t kend = k0 + dim < a->k ? k0 + dim : a->k;
				float part = 0.0f;

				for (uint32_t k = k0; k < kend; k++) {
					uint64_t xi = (uint64_t)i * a->k + k;
					uint64_t yi = (uint64_t)k * a->n + j;

					if (a->in == PWTPU_DT_I8) {
						iacc += (uint32_t)((int32_t)((const int8_t *)x)[xi] *
								   ((const int8_t *)y)[yi]);
					} else {
						float p = elem_f32(x, xi, a->in) *
							  elem_f32(y, yi, a->in);
						part += p;
					}
				}
				acc += part;
			}
			if (a->in == PWTPU_DT_I8)
				((int32_t *)out)[(uint64_t)i * a->n + j] = (int32_t)iacc;
			else
				((float *)out)[(uint64_t)i * a->n + j] = acc;
		}
	}
}

static int build_program(const struct mm_args *a, void **image, size_t *size)
{
	enum pwtpu_dtype out = a->in == PWTPU_DT_I8 ? PWTPU_DT_I32 : PWTPU_DT_F32;
	uint32_t sx[2] = { a->m, a->k }, sy[2] = { a->k, a->n };
	uint32_t sz[2] = { a->m, a->n };
	struct pwprog *p = pwprog_new(3);
	int tx, ty, tz, ret = -ENOMEM;

	if (!p)
		return -ENOMEM;
	tx = pwprog_tensor(p, a->in, 2, sx, 0, 0);
	ty = pwprog_tensor(p, a->in, 2, sy, 1, 0);
	tz = pwprog_tensor(p, out, 2, sz, 2, 0);
	if (tx < 0 || ty < 0 || tz < 0 ||
	    pwprog_binary(p, PWTPU_OP_MATMUL, tz, tx, ty) < 0) {
		ret = -EINVAL;
		goto out;
	}
	*image = pwprog_image(p, size);
	ret = *image ? 0 : -ENOMEM;
out:
	pwprog_free(p);
	return ret;
}

static int parse_args(int argc, char **argv, struct mm_args *a)
{
	int c;

	*a = (struct mm_args){ .m = 256, .k = 384, .n = 128,
			       .in = PWTPU_DT_F32, .seed = 1 };
	while ((c = getopt(argc, argv, "d:m:k:n:t:s:h")) != -1) {
		switch (c) {
		case 'd': a->dev = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'm': a->m = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'k': a->k = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'n': a->n = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 's': a->seed = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't':
			if (!strcmp(optarg, "f32"))
				a->in = PWTPU_DT_F32;
			else if (!strcmp(optarg, "bf16"))
				a->in = PWTPU_DT_BF16;
			else if (!strcmp(optarg, "i8"))
				a->in = PWTPU_DT_I8;
			else
				return -1;
			break;
		default:
			return -1;
		}
	}
	return a->m && a->k && a->n ? 0 : -1;
}

static const char *dt_name(enum pwtpu_dtype dt)
{
	return dt == PWTPU_DT_F32 ? "f32" : dt == PWTPU_DT_BF16 ? "bf16" : "i8";
}

int main(int argc, char **argv)
{
	struct pwtpu_prog_load load;
	struct pwtpu_bo bx, by, bz;
	struct pwtpu_info info;
	struct io_uring ring;
	struct mm_args a;
	uint64_t extra = 0;
	uint64_t nx, ny, nz, bad = 0;
	void *image, *x, *y, *z, *ref;
	char log[256] = "";
	size_t size;
	int fd, ret;

	if (parse_args(argc, argv, &a)) {
		fprintf(stderr, "usage: pwtpu-matmul [-d DEV] [-m M] [-k K] [-n N] [-t f32|bf16|i8] [-s SEED]\n");
		return 2;
	}
	srand(a.seed);
	nx = (uint64_t)a.m * a.k;
	ny = (uint64_t)a.k * a.n;
	nz = (uint64_t)a.m * a.n;
	x = malloc(nx * dtype_size(a.in));
	y = malloc(ny * dtype_size(a.in));
	z = calloc(nz, 4);
	ref = calloc(nz, 4);
	if (!x || !y || !z || !ref) {
		fprintf(stderr, "pwtpu-matmul: out of memory\n");
		return 1;
	}
	fill_inputs(x, nx, a.in);
	fill_inputs(y, ny, a.in);

	fd = pwtpu_open(a.dev);
	if (fd < 0 || pwtpu_info(fd, &info)) {
		fprintf(stderr, "pwtpu-matmul: /dev/pwtpu%u: %s\n", a.dev,
			strerror(fd < 0 ? -fd : errno));
		return 1;
	}
	ret = build_program(&a, &image, &size);
	if (!ret)
		ret = pwtpu_prog_load(fd, image, size, log, sizeof(log), &load);
	if (ret) {
		fprintf(stderr, "pwtpu-matmul: program load: %s: %s\n",
			strerror(-ret), log);
		return 1;
	}
	ret = pwtpu_bo_create(fd, nx * dtype_size(a.in), &bx) ?:
	      pwtpu_bo_create(fd, ny * dtype_size(a.in), &by) ?:
	      pwtpu_bo_create(fd, nz * 4, &bz) ?:
	      pwtpu_ring_init(&ring, 8, 0);
	if (ret) {
		fprintf(stderr, "pwtpu-matmul: setup: %s\n", strerror(-ret));
		return 1;
	}

	struct pwtpu_cmd cx = { .handle = bx.handle, .host_ptr = (uintptr_t)x,
				.length = bx.size };
	struct pwtpu_cmd cy = { .handle = by.handle, .host_ptr = (uintptr_t)y,
				.length = by.size };
	struct pwtpu_cmd cz = { .handle = bz.handle, .host_ptr = (uintptr_t)z,
				.length = bz.size };
	struct pwtpu_cmd ce;
	uint32_t bos[3] = { bx.handle, by.handle, bz.handle };

	pwtpu_cmd_exec(&ce, load.handle, bos, 3);
	ret = pwtpu_uring_run(&ring, fd, PWTPU_CMD_COPY_TO_DEV, &cx, NULL) ?:
	      pwtpu_uring_run(&ring, fd, PWTPU_CMD_COPY_TO_DEV, &cy, NULL) ?:
	      pwtpu_uring_run(&ring, fd, PWTPU_CMD_EXEC, &ce, &extra) ?:
	      pwtpu_uring_run(&ring, fd, PWTPU_CMD_COPY_FROM_DEV, &cz, NULL);
	if (ret) {
		fprintf(stderr, "pwtpu-matmul: command failed: %s\n",
			strerror(-ret));
		return 1;
	}

	reference(&a, info.array_dim, x, y, ref);
	for (uint64_t i = 0; i < nz; i++)
		bad += memcmp((char *)z + 4 * i, (char *)ref + 4 * i, 4) != 0;

	printf("matmul [%u,%u]x[%u,%u] %s on pwtpu%u (array %ux%u): %s, %" PRIu64
	       "/%" PRIu64 " elements match the reference bit for bit\n",
	       a.m, a.k, a.k, a.n, dt_name(a.in), a.dev, info.array_dim,
	       info.array_dim, bad ? "FAILED" : "ok", nz - bad, nz);
	printf("device time %u us (modelled %llu us, timing %s)\n",
	       PWTPU_CQE_EXEC_NS(extra) / 1000,
	       (unsigned long long)load.modeled_ns / 1000,
	       pwtpu_timing_name(info.timing_mode));

	io_uring_queue_exit(&ring);
	pwtpu_bo_destroy(fd, bx.handle);
	pwtpu_bo_destroy(fd, by.handle);
	pwtpu_bo_destroy(fd, bz.handle);
	pwtpu_prog_unload(fd, load.handle);
	free(image);
	free(x);
	free(y);
	free(z);
	free(ref);
	return bad ? 1 : 0;
}
