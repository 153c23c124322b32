/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwprog.h - build pwtpu program images in user space (lib/pwprog.c).
 *
 * A builder collects tensors and instructions and lays them out as the
 * image described in include/uapi/pwtpu.h. It does not verify: the
 * verifier (firmware, or the driver at load) is the one judge.
 */
#ifndef PWTPU_PWPROG_H
#define PWTPU_PWPROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../uapi/pwtpu.h"

struct pwprog;

/* A builder for a program with @nbufs buffer bindings; NULL on ENOMEM. */
struct pwprog *pwprog_new(uint32_t nbufs);
void pwprog_free(struct pwprog *p);

/*
 * Add a tensor; returns its index (>= 0) or -errno. @shape has @rank
 * entries (may be NULL for rank 0).
 */
int pwprog_tensor(struct pwprog *p, enum pwtpu_dtype dtype, uint32_t rank,
		  const uint32_t *shape, uint32_t buf, uint64_t offset);

/*
 * Add an instruction; returns its index or -errno. Unused operands are
 * PWTPU_NO_TENSOR; @args may be NULL when @nargs is 0 (nargs <= 5).
 */
int pwprog_insn(struct pwprog *p, enum pwtpu_op op, uint8_t mode, int dst,
		int src0, int src1, int src2, const uint32_t *args,
		uint32_t nargs);

/* Shorthands for the common shapes of instruction. */
int pwprog_unary(struct pwprog *p, enum pwtpu_op op, int dst, int a);
int pwprog_binary(struct pwprog *p, enum pwtpu_op op, int dst, int a, int b);

/*
 * The image: a malloc'd buffer of *size bytes the caller frees, or NULL
 * on ENOMEM. The builder stays usable.
 */
void *pwprog_image(const struct pwprog *p, size_t *size);

/*
 * The dispatch measurement's programs (lib/pwprog_dispatch.c), over one
 * buffer of at least 12 bytes: with @add, f32 [8] = [0] + [4]; without,
 * no instruction at all. A malloc'd image of *size bytes, or NULL.
 */
void *pwprog_dispatch_image(bool add, size_t *size);

#endif /* PWTPU_PWPROG_H */
