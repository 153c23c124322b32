/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_kernels.h - the compute kernels that pwfw_exec.c calls.
 *
 * pwfw_exec.c is built without SSE and must never see a float type, so
 * every kernel takes plain pointers, element counts and UAPI enum values.
 * The pwfw_k_* kernels live in the pwfw_fpu_*.c files and may only run
 * between pwfw_plat_fpu_begin() and pwfw_plat_fpu_end(); the pwfw_l_*
 * data movement lives in pwfw_layout.c and needs no FPU section.
 *
 * All pointers are to dense row-major tensors that the verifier placed
 * inside their buffers; a destination may be a source exactly, never a
 * partial overlap. Semantics: docs/firmware-ops.md.
 */
#ifndef PWFW_KERNELS_H
#define PWFW_KERNELS_H

#include "pwfw.h"

/* dst[i] = a[i] <op> b[i], i < n; @op is PWTPU_OP_ADD..PWTPU_OP_MIN. */
void pwfw_k_binary(u32 op, u32 dtype, void *dst, const void *a,
		   const void *b, u32 n);

/* dst[i] = <op> a[i]; @op is PWTPU_OP_NEG or PWTPU_OP_ABS. */
void pwfw_k_unary(u32 op, u32 dtype, void *dst, const void *a, u32 n);

/* dst[i] = f(a[i]); @op is PWTPU_OP_EXP..PWTPU_OP_RSQRT; any float dtype. */
void pwfw_k_math(u32 op, u32 dtype, void *dst, const void *a, u32 n);

/*
 * The integer ops: dst[i] = a[i] <op> b[i] (@b unused, NULL, for NOT,
 * POPCNT and CLZ); @op is PWTPU_OP_AND..PWTPU_OP_CLZ, or PWTPU_OP_POW or
 * PWTPU_OP_REM of an integer @dtype.
 */
void pwfw_k_bits(u32 op, u32 dtype, void *dst, const void *a, const void *b,
		 u32 n);

/*
 * The exact float ops, on a float @dtype: @op is PWTPU_OP_FLOOR..
 * PWTPU_OP_ROUND_AFZ, PWTPU_OP_REDUCE_PRECISION (formats in @args[0]
 * and @args[1]) or PWTPU_OP_REM (of @b).
 */
void pwfw_k_round(u32 op, u32 dtype, void *dst, const void *a,
		  const void *b, const u32 *args, u32 n);

/*
 * The math functions on a float @dtype: @op is PWTPU_OP_SQRT..
 * PWTPU_OP_ATAN2 or PWTPU_OP_POW (@b for ATAN2 and POW, else unused).
 */
void pwfw_k_func(u32 op, u32 dtype, void *dst, const void *a, const void *b,
		 u32 n);

/* dst[i] (i8, 0 or 1) = a[i] <mode> b[i]; @mode is enum pwtpu_cmp. */
void pwfw_k_compare(u32 mode, u32 dtype, s8 *dst, const void *a,
		    const void *b, u32 n);

/* dst[i] = (dst_dtype)src[i]. */
void pwfw_k_convert(u32 dst_dtype, void *dst, u32 src_dtype,
		    const void *src, u32 n);

/**
 * struct pwfw_k_reduce - a reduction, split into kept and reduced axes
 * @mode: enum pwtpu_reduce.
 * @dtype: of source and destination.
 * @src: source tensor.
 * @dst: destination, one element per combination of kept indices.
 * @nkeep: kept axes, in source order.
 * @nred: reduced axes, in source order.
 * @keep_shape: extents of the kept axes.
 * @keep_stride: source strides of the kept axes, in elements.
 * @red_shape: extents of the reduced axes.
 * @red_stride: source strides of the reduced axes, in elements.
 * @red_count: product of @red_shape: elements folded into one output.
 *
 * Output o (row major over the kept axes) folds its @red_count source
 * elements in ascending row-major order of the reduced indices.
 */
struct pwfw_k_reduce {
	u32 mode;
	u32 dtype;
	const void *src;
	void *dst;
	u32 nkeep;
	u32 nred;
	u32 keep_shape[PWTPU_MAX_RANK];
	u64 keep_stride[PWTPU_MAX_RANK];
	u32 red_shape[PWTPU_MAX_RANK];
	u64 red_stride[PWTPU_MAX_RANK];
	u64 red_count;
};

/* Reduce outputs [@out0, @out0 + @nout) whole. */
void pwfw_k_reduce(const struct pwfw_k_reduce *r, u64 out0, u64 nout);

/*
 * Reduce output @out in pieces, for outputs too large for one FPU section:
 * fold reduced elements [@j0, @j0 + @nj) into the opaque accumulator @acc
 * (@j0 == 0 starts it), then pwfw_k_reduce_store() writes it to dst.
 */
void pwfw_k_reduce_part(const struct pwfw_k_reduce *r, u64 out, u64 j0,
			u64 nj, u64 *acc);
void pwfw_k_reduce_store(const struct pwfw_k_reduce *r, u64 out, u64 acc);

/**
 * struct pwfw_k_matmul - dst[m, n] = sum over k of a[m, k] * b[k, n]
 * @dtype: of a and b: f32 or bf16 (dst f32), i8 (dst i32).
 * @m: rows of a and dst.
 * @k: columns of a, rows of b.
 * @n: columns of b and dst.
 * @tile: systolic array dimension: K is summed in tiles of this size.
 * @a: left operand.
 * @b: right operand.
 * @dst: result; it also holds the accumulators between K blocks.
 * @pack: NULL, or PWFW_MXU_PACK_BYTES(@tile) bytes of scratch: the AVX2
 *	path copies (and widens) a K tile of 16 columns of b into it, and 6
 *	rows of a. The copy of b serves all the rows of a piece, and later
 *	pieces of the same MATMUL that need the same columns.
 * @pack_id: with @pack: non-zero, and different for each MATMUL that uses
 *	@pack (b may change between them).
 */
struct pwfw_k_matmul {
	u32 dtype;
	u32 m;
	u32 k;
	u32 n;
	u32 tile;
	const void *a;
	const void *b;
	void *dst;
	void *pack;
	u64 pack_id;
};

/*
 * Per k of a tile: 16 columns of b and 6 rows of a, 4 bytes each; and a
 * record of which b is packed.
 */
#define PWFW_MXU_PACK_BYTES(tile)	((u64)(tile) * (16 + 6) * 4 + 64)

/*
 * Compute rows [@m0, @m1) x columns [@n0, @n1) of dst over K tiles
 * [@kt0, @kt1). @kt0 == 0 starts the accumulators at +0; otherwise they
 * continue from dst. @simd is the enum pwfw_simd level to use (from
 * pwfw_plat_simd()). Results do not depend on how a product is split into
 * blocks, nor on @simd.
 */
void pwfw_k_matmul(const struct pwfw_k_matmul *mm, u32 m0, u32 m1,
		   u32 n0, u32 n1, u32 kt0, u32 kt1, u32 simd);

/**
 * struct pwfw_l_gather - a strided copy into a dense destination
 * @esize: bytes per element: 1, 2, 4 or 8.
 * @rank: axes of the destination, 0..PWTPU_MAX_RANK.
 * @shape: destination extents.
 * @stride: source stride of each destination axis, in elements (0 for
 *	a broadcast axis).
 * @src: source element of destination index (0, ..., 0).
 * @dst: destination, dense row major.
 */
struct pwfw_l_gather {
	u32 esize;
	u32 rank;
	u32 shape[PWTPU_MAX_RANK];
	u64 stride[PWTPU_MAX_RANK];
	const u8 *src;
	u8 *dst;
};

void pwfw_l_init_transpose(struct pwfw_l_gather *g, void *dst,
			   const struct pwtpu_tensor *dt, const void *src,
			   const struct pwtpu_tensor *st, const u32 *perm);
void pwfw_l_init_broadcast(struct pwfw_l_gather *g, void *dst,
			   const struct pwtpu_tensor *dt, const void *src,
			   const struct pwtpu_tensor *st);
void pwfw_l_init_slice(struct pwfw_l_gather *g, void *dst,
		       const struct pwtpu_tensor *dt, const void *src,
		       const struct pwtpu_tensor *st, const u32 *start);

/* Destination elements [@e0, @e0 + @n) of a gather. */
void pwfw_l_gather(const struct pwfw_l_gather *g, u64 e0, u64 n);

/* Copy @n bytes; @dst and @src are equal or disjoint (reshape). */
void pwfw_l_copy(void *dst, const void *src, u64 n);

/* dst[i] = pred[i] ? b[i] : c[i], elements of @esize bytes. */
void pwfw_l_select(u32 esize, void *dst, const s8 *pred, const void *b,
		   const void *c, u64 n);

/* Row-major strides of @t in elements. */
void pwfw_l_strides(const struct pwtpu_tensor *t, u64 stride[PWTPU_MAX_RANK]);

#endif /* PWFW_KERNELS_H */
