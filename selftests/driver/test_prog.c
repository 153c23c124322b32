// SPDX-License-Identifier: GPL-2.0
/*
 * test_prog.c - PROG_LOAD / PROG_UNLOAD, and every verifier error code as
 * the driver reports it: the ioctl fails with EINVAL and verr, err_insn
 * and the log say which rule was broken where.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "drv_common.h"

#define ANY_INSN	0xfffffffeU	/* the case does not pin err_insn */

/* Views into an image laid out as include/uapi/pwtpu.h says. */
static struct pwtpu_prog_header *hdr(void *img)
{
	return img;
}

static struct pwtpu_tensor *tensor(void *img, uint32_t i)
{
	return (struct pwtpu_tensor *)((char *)img + sizeof(*hdr(img))) + i;
}

static struct pwtpu_insn *insn(void *img, uint32_t i)
{
	return (struct pwtpu_insn *)tensor(img, hdr(img)->ntensors) + i;
}

/*
 * The base program every case breaks in one place: three f32[4] tensors
 * in buffer 0 at 0, 16, 32; insn 0: t2 = t0 + t1; insn 1: t2 = -t2.
 */
static void *base_image(size_t *size)
{
	struct drv_prog dp;
	int err;
	void *img;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 16, 1, 4);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 32, 1, 4);
	drv_binary(&dp, PWTPU_OP_ADD, 2, 0, 1);
	drv_unary(&dp, PWTPU_OP_NEG, 2, 2);
	img = drv_prog_image(&dp, size, &err);
	drv_prog_fini(&dp);
	return img;
}

static void *built(struct drv_prog *dp, size_t *size)
{
	int err;
	void *img = drv_prog_image(dp, size, &err);

	drv_prog_fini(dp);
	return img;
}

static void *mk_truncated(size_t *size)
{
	void *img = base_image(size);

	*size -= 1;
	return img;
}

static void *mk_trailing(size_t *size)
{
	void *img = base_image(size);
	void *big = img ? realloc(img, *size + 32) : NULL;

	if (!big) {
		free(img);
		return NULL;
	}
	memset((char *)big + *size, 0, 32);
	*size += 32;
	return big;
}

static void *mk_header_only(size_t *size)
{
	void *img = base_image(size);

	*size = sizeof(struct pwtpu_prog_header);
	return img;
}

static void *mk_magic(size_t *size)
{
	void *img = base_image(size);

	if (img)
		hdr(img)->magic ^= 1;
	return img;
}

static void *mk_version(size_t *size)
{
	void *img = base_image(size);

	if (img)
		hdr(img)->version = PWTPU_PROG_VERSION + 1;
	return img;
}

static void *mk_hdr_reserved(size_t *size)
{
	void *img = base_image(size);

	if (img)
		hdr(img)->reserved[2] = 1;
	return img;
}

static void *mk_hdr_flags(size_t *size)
{
	void *img = base_image(size);

	if (img)
		hdr(img)->flags = 1;
	return img;
}

static void *mk_tensor_flags(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 1)->flags = 0x8000;
	return img;
}

static void *mk_insn_flags(size_t *size)
{
	void *img = base_image(size);

	if (img)
		insn(img, 1)->flags = 1;
	return img;
}

static void *mk_unused_arg(size_t *size)
{
	void *img = base_image(size);

	if (img)
		insn(img, 1)->arg[4] = 7;
	return img;
}

static void *mk_unused_operand(size_t *size)
{
	void *img = base_image(size);

	if (img)
		insn(img, 1)->src[1] = 0;
	return img;
}

static void *mk_nbufs_limit(size_t *size)
{
	void *img = base_image(size);

	if (img)
		hdr(img)->nbufs = PWTPU_MAX_BUFS + 1;
	return img;
}

static void *mk_tensors_limit(size_t *size)
{
	struct drv_prog dp;
	uint32_t i;

	drv_prog_init(&dp, 1);
	for (i = 0; i < PWTPU_MAX_TENSORS + 1; i++)
		drv_tensor(&dp, PWTPU_DT_F32, 0, 4 * i, 1, 1);
	return built(&dp, size);
}

static void *mk_bad_dtype(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 0)->dtype = 13;
	return img;
}

static void *mk_op_dtype(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_I32, 0, 0, 1, 4);
	drv_tensor(&dp, PWTPU_DT_I32, 0, 16, 1, 4);
	drv_unary(&dp, PWTPU_OP_NEG, 1, 0);
	drv_unary(&dp, PWTPU_OP_EXP, 1, 0);	/* float only */
	return built(&dp, size);
}

static void *mk_rank(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 2)->rank = PWTPU_MAX_RANK + 1;
	return img;
}

static void *mk_zero_extent(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 0)->shape[0] = 0;
	return img;
}

static void *mk_extent_past_rank(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 1)->shape[2] = 1;
	return img;
}

static void *mk_too_many_elems(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_I8, 0, 0, 2, 1u << 14, (PWTPU_MAX_ELEMS >> 14) + 1);
	return built(&dp, size);
}

static void *mk_buf_index(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 1)->buf = 1;
	return img;
}

static void *mk_misaligned(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 1)->offset = 18;
	return img;
}

static void *mk_past_max_offset(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 0)->offset = PWTPU_MAX_OFFSET - 8;
	return img;
}

static void *mk_bad_op(size_t *size)
{
	void *img = base_image(size);

	if (img)
		insn(img, 1)->op = PWTPU_OP_COUNT;
	return img;
}

static void *mk_op_zero(size_t *size)
{
	void *img = base_image(size);

	if (img)
		insn(img, 0)->op = 0;
	return img;
}

static void *mk_bad_mode(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	drv_tensor(&dp, PWTPU_DT_I8, 0, 16, 1, 4);
	drv_insn(&dp, PWTPU_OP_COMPARE, PWTPU_CMP_GE, 1, 0, 0,
		 PWTPU_NO_TENSOR, 0);
	drv_insn(&dp, PWTPU_OP_COMPARE, PWTPU_CMP_GE + 1, 1, 0, 0,
		 PWTPU_NO_TENSOR, 0);
	return built(&dp, size);
}

static void *mk_operand_range(size_t *size)
{
	void *img = base_image(size);

	if (img)
		insn(img, 1)->src[0] = 3;
	return img;
}

static void *mk_operand_missing(size_t *size)
{
	void *img = base_image(size);

	if (img)
		insn(img, 0)->src[1] = PWTPU_NO_TENSOR;
	return img;
}

static void *mk_shape_mismatch(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 1)->shape[0] = 3;
	return img;
}

static void *mk_dtype_mismatch(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 1)->dtype = PWTPU_DT_I32;
	return img;
}

static void *mk_matmul_k(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 2, 3);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 64, 2, 4, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 128, 2, 2, 2);
	drv_binary(&dp, PWTPU_OP_MATMUL, 2, 0, 1);
	return built(&dp, size);
}

static void *mk_bad_perm(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 3, 3);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 64, 2, 3, 3);
	drv_insn(&dp, PWTPU_OP_TRANSPOSE, 0, 1, 0, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, 2, 0, 0);
	return built(&dp, size);
}

static void *mk_bad_axis(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 3, 4);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 64, 1, 3);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 128, 1, 3);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, 1, 0,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 1, 2);
	drv_insn(&dp, PWTPU_OP_REDUCE, PWTPU_REDUCE_SUM, 2, 0,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 1, 2 | 4);
	return built(&dp, size);
}

static void *mk_bad_window(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 4, 4);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 64, 2, 2, 2);
	drv_insn(&dp, PWTPU_OP_SLICE, 0, 1, 0, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, 2, 2, 2);
	drv_insn(&dp, PWTPU_OP_SLICE, 0, 1, 0, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, 2, 1, 3);
	return built(&dp, size);
}

static void *mk_overlap(size_t *size)
{
	void *img = base_image(size);

	if (img)
		tensor(img, 2)->offset = 8;	/* into t0 [0,16) and t1 */
	return img;
}

static void *mk_matmul_in_place(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 2, 2, 2);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 64, 2, 2, 2);
	drv_binary(&dp, PWTPU_OP_MATMUL, 0, 0, 1);
	return built(&dp, size);
}

/* LOOP of @trips over @body following insns, then @after ADDs. */
static void *loop_prog(size_t *size, uint32_t trips, uint32_t body,
		       uint32_t nadd)
{
	struct drv_prog dp;
	uint32_t i;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	drv_binary(&dp, PWTPU_OP_ADD, 0, 0, 0);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, trips, body);
	for (i = 0; i < nadd; i++)
		drv_binary(&dp, PWTPU_OP_ADD, 0, 0, 0);
	return built(&dp, size);
}

static void *mk_loop_zero(size_t *size)
{
	return loop_prog(size, 0, 1, 1);
}

static void *mk_loop_trips(size_t *size)
{
	return loop_prog(size, PWTPU_MAX_TRIPS + 1, 1, 1);
}

static void *mk_loop_past_end(size_t *size)
{
	return loop_prog(size, 2, 3, 2);
}

static void *mk_loop_outside_parent(size_t *size)
{
	struct drv_prog dp;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, 2, 2);
	drv_binary(&dp, PWTPU_OP_ADD, 0, 0, 0);
	/* Insn 2: its body (3, 4) ends past the outer body (1, 2). */
	drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, 2, 2);
	drv_binary(&dp, PWTPU_OP_ADD, 0, 0, 0);
	drv_binary(&dp, PWTPU_OP_ADD, 0, 0, 0);
	return built(&dp, size);
}

static void *mk_loop_too_deep(size_t *size)
{
	struct drv_prog dp;
	uint32_t d;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	for (d = 0; d <= PWTPU_MAX_LOOP_DEPTH; d++)
		drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR,
			 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
			 2, 2, PWTPU_MAX_LOOP_DEPTH + 1 - d);
	drv_binary(&dp, PWTPU_OP_ADD, 0, 0, 0);
	return built(&dp, size);
}

static void *mk_bound_time(size_t *size)
{
	struct drv_prog dp;
	const uint32_t trips = (uint32_t)(PWTPU_MAX_PROG_NS /
					  PWTPU_MAX_DELAY_NS) + 1;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 4);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, trips, 1);
	drv_insn(&dp, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2,
		 (uint32_t)PWTPU_MAX_DELAY_NS, 0);
	return built(&dp, size);
}

static void *mk_bound_insns(size_t *size)
{
	const uint32_t body = PWTPU_MAX_DYN_INSNS / PWTPU_MAX_TRIPS + 1;

	return loop_prog(size, PWTPU_MAX_TRIPS, body, body);
}

FIXTURE(verr) {
	struct drv d;
};

FIXTURE_VARIANT(verr) {
	void *(*make)(size_t *size);
	int32_t verr;
	uint32_t insn;
};

#define VERR_CASE(name, code, at)				\
	FIXTURE_VARIANT_ADD(verr, name) {			\
		.make = mk_##name, .verr = (code), .insn = (at),	\
	}

VERR_CASE(truncated, PWTPU_VERR_TRUNCATED, PWTPU_VERR_NO_INSN);
VERR_CASE(trailing, PWTPU_VERR_TRUNCATED, PWTPU_VERR_NO_INSN);
VERR_CASE(header_only, PWTPU_VERR_TRUNCATED, PWTPU_VERR_NO_INSN);
VERR_CASE(magic, PWTPU_VERR_MAGIC, PWTPU_VERR_NO_INSN);
VERR_CASE(version, PWTPU_VERR_VERSION, PWTPU_VERR_NO_INSN);
VERR_CASE(hdr_reserved, PWTPU_VERR_RESERVED, PWTPU_VERR_NO_INSN);
VERR_CASE(hdr_flags, PWTPU_VERR_RESERVED, PWTPU_VERR_NO_INSN);
VERR_CASE(tensor_flags, PWTPU_VERR_RESERVED, PWTPU_VERR_NO_INSN);
VERR_CASE(insn_flags, PWTPU_VERR_RESERVED, 1);
VERR_CASE(unused_arg, PWTPU_VERR_RESERVED, 1);
VERR_CASE(unused_operand, PWTPU_VERR_RESERVED, 1);
VERR_CASE(nbufs_limit, PWTPU_VERR_LIMIT, PWTPU_VERR_NO_INSN);
VERR_CASE(tensors_limit, PWTPU_VERR_LIMIT, PWTPU_VERR_NO_INSN);
VERR_CASE(bad_dtype, PWTPU_VERR_DTYPE, PWTPU_VERR_NO_INSN);
VERR_CASE(op_dtype, PWTPU_VERR_DTYPE, 1);
VERR_CASE(rank, PWTPU_VERR_SHAPE, PWTPU_VERR_NO_INSN);
VERR_CASE(zero_extent, PWTPU_VERR_SHAPE, PWTPU_VERR_NO_INSN);
VERR_CASE(extent_past_rank, PWTPU_VERR_SHAPE, PWTPU_VERR_NO_INSN);
VERR_CASE(too_many_elems, PWTPU_VERR_SHAPE, PWTPU_VERR_NO_INSN);
VERR_CASE(buf_index, PWTPU_VERR_BUFFER, PWTPU_VERR_NO_INSN);
VERR_CASE(misaligned, PWTPU_VERR_BUFFER, PWTPU_VERR_NO_INSN);
VERR_CASE(past_max_offset, PWTPU_VERR_BUFFER, PWTPU_VERR_NO_INSN);
VERR_CASE(bad_op, PWTPU_VERR_OPCODE, 1);
VERR_CASE(op_zero, PWTPU_VERR_OPCODE, 0);
VERR_CASE(bad_mode, PWTPU_VERR_OPCODE, 1);
VERR_CASE(operand_range, PWTPU_VERR_OPERAND, 1);
VERR_CASE(operand_missing, PWTPU_VERR_OPERAND, 0);
VERR_CASE(shape_mismatch, PWTPU_VERR_MISMATCH, 0);
VERR_CASE(dtype_mismatch, PWTPU_VERR_MISMATCH, 0);
VERR_CASE(matmul_k, PWTPU_VERR_MISMATCH, 0);
VERR_CASE(bad_perm, PWTPU_VERR_ARG, 0);
VERR_CASE(bad_axis, PWTPU_VERR_ARG, 1);
VERR_CASE(bad_window, PWTPU_VERR_ARG, 1);
VERR_CASE(overlap, PWTPU_VERR_OVERLAP, 0);
VERR_CASE(matmul_in_place, PWTPU_VERR_OVERLAP, 0);
VERR_CASE(loop_zero, PWTPU_VERR_LOOP, 1);
VERR_CASE(loop_trips, PWTPU_VERR_LOOP, 1);
VERR_CASE(loop_past_end, PWTPU_VERR_LOOP, 1);
VERR_CASE(loop_outside_parent, PWTPU_VERR_LOOP, 2);
VERR_CASE(loop_too_deep, PWTPU_VERR_LOOP, PWTPU_MAX_LOOP_DEPTH);
VERR_CASE(bound_time, PWTPU_VERR_BOUND, ANY_INSN);
VERR_CASE(bound_insns, PWTPU_VERR_BOUND, ANY_INSN);

FIXTURE_SETUP(verr)
{
	DRV_SETUP(&self->d, 0);
}

FIXTURE_TEARDOWN(verr)
{
	drv_teardown(&self->d);
}

TEST_F(verr, rejected_with_reason)
{
	struct pwtpu_prog_load res;
	char log[512];
	size_t size;
	void *img = variant->make(&size);

	ASSERT_NE(NULL, img);
	memset(log, 0x7f, sizeof(log));
	EXPECT_EQ(-EINVAL, pwtpu_prog_load(self->d.fd, img, size, log,
					   sizeof(log), &res));
	ASSERT_NE(NULL, memchr(log, '\0', sizeof(log)));
	EXPECT_LT(0ul, strlen(log));
	EXPECT_EQ(variant->verr, res.verr) {
		TH_LOG("verr %d insn %d: %s", res.verr, (int)res.err_insn, log);
	}
	if (variant->insn != ANY_INSN) {
		EXPECT_EQ(variant->insn, res.err_insn) {
			TH_LOG("verr %d insn %d: %s", res.verr,
			       (int)res.err_insn, log);
		}
	}

	/* Same verdict without a log buffer. */
	EXPECT_EQ(-EINVAL, pwtpu_prog_load(self->d.fd, img, size, NULL, 0,
					   &res));
	EXPECT_EQ(variant->verr, res.verr);
	free(img);
}

FIXTURE(prog) {
	struct drv d;
};

FIXTURE_SETUP(prog)
{
	DRV_SETUP(&self->d, 0);
}

FIXTURE_TEARDOWN(prog)
{
	drv_teardown(&self->d);
}

TEST_F(prog, load_exec_unload)
{
	struct pwtpu_prog_load res;
	struct pwtpu_bo bo;
	float *f;
	size_t size;
	void *img = base_image(&size);
	char log[256] = "";
	int i;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, pwtpu_prog_load(self->d.fd, img, size, log, sizeof(log),
				     &res));
	EXPECT_EQ(PWTPU_VERR_OK, res.verr);
	EXPECT_LT(0ull, res.modeled_ns);
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 48, &bo));
	f = bo.map;
	for (i = 0; i < 4; i++) {
		f[i] = (float)i;
		f[4 + i] = 10.0f * (float)i;
	}
	ASSERT_EQ(0, pwtpu_exec_sync(self->d.fd, res.handle, &bo.handle, 1));
	/* timing=skip spends the time but skips the arithmetic. */
	if (!skip_mode(&self->d)) {
		for (i = 0; i < 4; i++) {
			EXPECT_EQ(-11.0f * (float)i, f[8 + i]);
		}
	}
	EXPECT_EQ(0, pwtpu_prog_unload(self->d.fd, res.handle));
	EXPECT_EQ(-ENOENT, pwtpu_prog_unload(self->d.fd, res.handle));
	EXPECT_EQ(-ENOENT, pwtpu_exec_sync(self->d.fd, res.handle, &bo.handle,
					   1));
	pwtpu_bo_free(self->d.fd, &bo);
	free(img);
}

TEST_F(prog, many_loads_distinct_handles)
{
	struct pwtpu_prog_load res[32];
	size_t size;
	void *img = base_image(&size);
	int i, j;

	ASSERT_NE(NULL, img);
	for (i = 0; i < 32; i++) {
		ASSERT_EQ(0, pwtpu_prog_load(self->d.fd, img, size, NULL, 0,
					     &res[i]));
	}
	for (i = 0; i < 32; i++)
		for (j = 0; j < i; j++) {
			EXPECT_NE(res[i].handle, res[j].handle);
		}
	for (i = 0; i < 32; i++) {
		EXPECT_EQ(0, pwtpu_prog_unload(self->d.fd, res[i].handle));
	}
	free(img);
}

/* The driver keeps its own copy: changing the image later changes nothing. */
TEST_F(prog, image_copied_at_load)
{
	struct pwtpu_prog_load res;
	struct pwtpu_bo bo;
	size_t size;
	void *img = base_image(&size);
	float *f;

	ASSERT_NE(NULL, img);
	if (skip_mode(&self->d))
		DRV_SKIP("timing=skip: results are unspecified");
	ASSERT_EQ(0, pwtpu_prog_load(self->d.fd, img, size, NULL, 0, &res));
	memset(img, 0xff, size);
	ASSERT_EQ(0, pwtpu_bo_alloc(self->d.fd, 48, &bo));
	f = bo.map;
	f[0] = 1.0f;
	f[4] = 2.0f;
	ASSERT_EQ(0, pwtpu_exec_sync(self->d.fd, res.handle, &bo.handle, 1));
	EXPECT_EQ(-3.0f, f[8]);
	pwtpu_bo_free(self->d.fd, &bo);
	free(img);
}

/* A delay's modelled time is at least the delay. */
TEST_F(prog, modeled_ns_covers_delay)
{
	struct drv_prog dp;
	struct pwtpu_prog_load res;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 1);
	drv_insn(&dp, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, 3, 1);
	drv_insn(&dp, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, 2, 1000000, 0);
	ASSERT_EQ(0, drv_prog_load(self->d.fd, &dp, NULL, &res, NULL, 0));
	EXPECT_LE(3000000ull, res.modeled_ns);
	EXPECT_EQ(0, pwtpu_prog_unload(self->d.fd, res.handle));
}

/* A short log buffer gets a NUL-ended prefix and nothing past its end. */
TEST_F(prog, log_truncated_to_log_size)
{
	struct pwtpu_prog_load res;
	char log[64];
	size_t size;
	void *img = mk_magic(&size);

	ASSERT_NE(NULL, img);
	memset(log, 'Z', sizeof(log));
	EXPECT_EQ(-EINVAL, pwtpu_prog_load(self->d.fd, img, size, log, 8,
					   &res));
	EXPECT_EQ(PWTPU_VERR_MAGIC, res.verr);
	EXPECT_GE(7ul, strnlen(log, 8));
	EXPECT_EQ('Z', log[8]);
	EXPECT_EQ('Z', log[63]);
	free(img);
}

/* An empty program (no instructions) loads and runs. */
TEST_F(prog, empty_program)
{
	struct drv_prog dp;
	struct pwtpu_bo bo;
	uint32_t handle;

	drv_prog_init(&dp, 1);
	drv_tensor(&dp, PWTPU_DT_F32, 0, 0, 1, 1);
	ASSERT_EQ(0, drv_prog_load(self->d.fd, &dp, &handle, NULL, NULL, 0));
	ASSERT_EQ(0, pwtpu_bo_create(self->d.fd, 4, &bo));
	EXPECT_EQ(0, pwtpu_exec_sync(self->d.fd, handle, &bo.handle, 1));
	EXPECT_EQ(0, pwtpu_prog_unload(self->d.fd, handle));
}

TEST_HARNESS_MAIN
