// SPDX-License-Identifier: GPL-2.0
/*
 * test_pwprog.c - the program builder: the image it lays out field by
 * field, what it refuses (what the format cannot represent), and that
 * errors from earlier calls pass through later ones.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

TEST(image_layout)
{
	static const uint32_t shape[3] = { 2, 3, 4 };
	static const uint32_t args[2] = { 0x11223344, 7 };
	const struct pwtpu_prog_header *h;
	const struct pwtpu_tensor *t;
	const struct pwtpu_insn *in;
	struct pwprog *p = pwprog_new(2);
	size_t size;
	void *img;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pwprog_tensor(p, PWTPU_DT_BF16, 3, shape, 1, 4096));
	ASSERT_EQ(1, pwprog_tensor(p, PWTPU_DT_I8, 0, NULL, 0, 3));
	ASSERT_EQ(0, pwprog_insn(p, PWTPU_OP_REDUCE, PWTPU_REDUCE_MAX, 1, 0,
				 PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, args, 2));
	ASSERT_EQ(1, pwprog_binary(p, PWTPU_OP_ADD, 1, 1, 1));
	ASSERT_EQ(2, pwprog_unary(p, PWTPU_OP_NEG, 0, 0));

	img = pwprog_image(p, &size);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(sizeof(*h) + 2 * sizeof(*t) + 3 * sizeof(*in), size);
	ASSERT_EQ(0ULL, (uintptr_t)img % 8);
	h = img;
	EXPECT_EQ(PWTPU_PROG_MAGIC, h->magic);
	EXPECT_EQ(PWTPU_PROG_VERSION, h->version);
	EXPECT_EQ(0, h->flags);
	EXPECT_EQ(2U, h->ntensors);
	EXPECT_EQ(3U, h->ninsns);
	EXPECT_EQ(2U, h->nbufs);
	EXPECT_EQ(0U, h->reserved[0] | h->reserved[1] | h->reserved[2]);

	t = (const void *)(h + 1);
	EXPECT_EQ(PWTPU_DT_BF16, t[0].dtype);
	EXPECT_EQ(3, t[0].rank);
	EXPECT_EQ(0, t[0].flags);
	EXPECT_EQ(1U, t[0].buf);
	EXPECT_EQ(4096ULL, t[0].offset);
	EXPECT_EQ(2U, t[0].shape[0]);
	EXPECT_EQ(3U, t[0].shape[1]);
	EXPECT_EQ(4U, t[0].shape[2]);
	EXPECT_EQ(0U, t[0].shape[3]);
	EXPECT_EQ(0, t[1].rank);
	EXPECT_EQ(0U, t[1].shape[0]);
	EXPECT_EQ(3ULL, t[1].offset);

	in = (const void *)(t + 2);
	EXPECT_EQ(PWTPU_OP_REDUCE, in[0].op);
	EXPECT_EQ(PWTPU_REDUCE_MAX, in[0].mode);
	EXPECT_EQ(0, in[0].flags);
	EXPECT_EQ(1, in[0].dst);
	EXPECT_EQ(0, in[0].src[0]);
	EXPECT_EQ(PWTPU_NO_TENSOR, in[0].src[1]);
	EXPECT_EQ(PWTPU_NO_TENSOR, in[0].src[2]);
	EXPECT_EQ(0x11223344U, in[0].arg[0]);
	EXPECT_EQ(7U, in[0].arg[1]);
	EXPECT_EQ(0U, in[0].arg[2] | in[0].arg[3] | in[0].arg[4]);
	EXPECT_EQ(PWTPU_OP_ADD, in[1].op);
	EXPECT_EQ(1, in[1].src[1]);
	EXPECT_EQ(PWTPU_NO_TENSOR, in[1].src[2]);
	EXPECT_EQ(PWTPU_NO_TENSOR, in[2].src[1]);
	free(img);

	/* The builder stays usable after an image. */
	ASSERT_EQ(3, pwprog_unary(p, PWTPU_OP_ABS, 0, 0));
	img = pwprog_image(p, &size);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(4U, ((const struct pwtpu_prog_header *)img)->ninsns);
	free(img);
	pwprog_free(p);
}

TEST(refuses_what_the_format_cannot_hold)
{
	static const uint32_t shape[5] = { 1, 1, 1, 1, 1 };
	static const uint32_t args[6] = { 0 };
	struct pwprog *p = pwprog_new(1);

	ASSERT_NE(NULL, p);
	EXPECT_EQ(-EINVAL, pwprog_tensor(p, PWTPU_DT_F32, 5, shape, 0, 0));
	EXPECT_EQ(-EINVAL, pwprog_tensor(p, PWTPU_DT_F32, 2, NULL, 0, 0));
	EXPECT_EQ(-EINVAL, pwprog_tensor(p, 0x100, 0, NULL, 0, 0));
	EXPECT_EQ(-EINVAL, pwprog_insn(p, PWTPU_OP_ADD, 0, 0, 0, 0,
				       PWTPU_NO_TENSOR, args, 6));
	EXPECT_EQ(-EINVAL, pwprog_insn(p, PWTPU_OP_ADD, 0, 0, 0, 0,
				       PWTPU_NO_TENSOR, NULL, 1));
	EXPECT_EQ(-EINVAL, pwprog_binary(p, PWTPU_OP_ADD, 0x10000, 0, 0));
	/* Nothing was added by the refusals. */
	EXPECT_EQ(0, pwprog_tensor(p, PWTPU_DT_F32, 0, NULL, 0, 0));
	EXPECT_EQ(0, pwprog_unary(p, PWTPU_OP_NEG, 0, 0));
	pwprog_free(p);
}

/* The verifier judges the rest: the builder writes a bad program as is. */
TEST(does_not_verify)
{
	static const uint32_t shape[1] = { 4 };
	struct pwprog *p = pwprog_new(0);
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	size_t size;
	void *img;

	ASSERT_NE(NULL, p);
	/* Binding 3 of a program with none. */
	ASSERT_EQ(0, pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 3, 0));
	img = pwprog_image(p, &size);
	ASSERT_NE(NULL, img);
	pwfw_spec_default(&spec);
	EXPECT_EQ(-EINVAL, pwfw_verify(img, size, &spec, &prog, &err));
	EXPECT_EQ(PWTPU_VERR_BUFFER, err.code);
	free(img);
	pwprog_free(p);
}

TEST(errors_pass_through)
{
	struct pwprog *p = pwprog_new(1);
	int bad;

	ASSERT_NE(NULL, p);
	bad = pwprog_tensor(p, PWTPU_DT_F32, 9, NULL, 0, 0);
	ASSERT_EQ(-EINVAL, bad);
	EXPECT_EQ(-EINVAL, pwprog_unary(p, PWTPU_OP_NEG, bad, 0));
	EXPECT_EQ(-ENOMEM, pwprog_binary(p, PWTPU_OP_ADD, 0, 0, -ENOMEM));
	pwprog_free(p);
	pwprog_free(NULL);
}

TEST(many_tensors_and_insns)
{
	struct pwprog *p = pwprog_new(1);
	size_t size;
	void *img;
	int i;

	ASSERT_NE(NULL, p);
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(i, pwprog_tensor(p, PWTPU_DT_I32, 0, NULL, 0, 4 * i));
		ASSERT_EQ(i, pwprog_unary(p, PWTPU_OP_NEG, i, i));
	}
	img = pwprog_image(p, &size);
	ASSERT_NE(NULL, img);
	EXPECT_EQ((uint64_t)(32 + 1000 * (32 + 32)), size);
	EXPECT_EQ(999 * 4U,
		  ((const struct pwtpu_tensor *)((char *)img + 32))[999].offset);
	free(img);
	pwprog_free(p);
}

TEST_HARNESS_MAIN
