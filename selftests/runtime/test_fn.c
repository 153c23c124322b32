// SPDX-License-Identifier: GPL-2.0
/*
 * test_fn.c - the compiled-function builder (pw_fn_*): functions are
 * built, their images checked by the firmware's verifier and run by its
 * interpreter on host memory (one allocation per binding, laid out as
 * runtime/fn/fn.h says), and their results compared with references
 * computed here. Every builder error is checked for its errno, its
 * message, and its stickiness through pw_fn_build().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../firmware/pwfw.h"
#include "../../runtime/fn/fn.h"
#include "../lib/fn_exec.h"

#define VERIFY_FAILED	(-1000)
#define LAYOUT_WRONG	(-1001)

#define SHAPE(...)	((const uint32_t[]){ __VA_ARGS__ })

/* Tensors of the image, after its header. */
static const struct pwtpu_tensor *image_tensors(const struct pw_fn *fn,
						uint32_t *n)
{
	const struct pwtpu_prog_header *h = fn->image;

	*n = h->ntensors;
	return (const struct pwtpu_tensor *)(h + 1);
}

/* Instructions of the image with opcode @op. */
static unsigned int image_count_op(const struct pw_fn *fn, enum pwtpu_op op)
{
	const struct pwtpu_prog_header *h = fn->image;
	const struct pwtpu_insn *in;
	unsigned int i, n = 0;

	in = (const struct pwtpu_insn *)((const struct pwtpu_tensor *)(h + 1) +
					 h->ntensors);
	for (i = 0; i < h->ninsns; i++)
		n += in[i].op == op;
	return n;
}

/*
 * The layout fn.h promises: parameters and results at offset 0 of their
 * own binding, scratch and constants 64-byte aligned, bindings numbered
 * params, results, scratch, const.
 */
static int check_layout(const struct pw_fn *fn)
{
	const struct pwtpu_prog_header *h = fn->image;
	const struct pwtpu_tensor *t;
	unsigned int io = fn->nparams + fn->nresults, want = io;
	uint32_t i, n;

	want += fn->scratch_buf >= 0;
	want += fn->const_buf >= 0;
	if (h->nbufs != fn->nbufs || fn->nbufs != want)
		return -1;
	if (fn->scratch_buf >= 0 && fn->scratch_buf != (int)io)
		return -1;
	if (fn->const_buf >= 0 &&
	    fn->const_buf != (int)io + (fn->scratch_buf >= 0))
		return -1;
	t = image_tensors(fn, &n);
	for (i = 0; i < n; i++) {
		if (t[i].buf < io && t[i].offset)
			return -1;
		if (t[i].buf >= io && t[i].offset % 64)
			return -1;
	}
	return 0;
}

static int fn_verify(const struct pw_fn *fn, struct pwfw_prog *prog)
{
	int ret = test_fn_verify(fn, prog);

	if (ret)
		return VERIFY_FAILED;
	if (check_layout(fn)) {
		fprintf(stderr, "# image layout is not fn.h's\n");
		return LAYOUT_WRONG;
	}
	return 0;
}

/* Verify, check the layout, and run once (test_fn_exec()). */
static int fn_run(const struct pw_fn *fn, const void *const *in,
		  void *const *out)
{
	struct pwfw_prog prog;
	int ret = fn_verify(fn, &prog);

	return ret ? ret : test_fn_exec(fn, in, out);
}

/* A builder error: its errno, its message, and pw_fn_build() repeats both. */
#define EXPECT_FAIL(b, call, err, what) do {				\
	struct pw_fn *_fn = NULL;					\
	int _ret = (call);						\
									\
	ASSERT_EQ(err, _ret);						\
	ASSERT_NE(NULL, strstr(pw_last_error(), what))			\
		TH_LOG("message: %s", pw_last_error());			\
	ASSERT_EQ(err, pw_fn_build(b, &_fn));				\
	ASSERT_NULL(_fn);						\
	ASSERT_NE(NULL, strstr(pw_last_error(), what))			\
		TH_LOG("message: %s", pw_last_error());			\
} while (0)

TEST(scale_f32)
{
	float x[6] = { 1.5f, -2.25f, 0.0f, 3e10f, -7.125f, 1e-20f };
	float mul[6], add[6], div[6];
	struct pw_fn_builder *b = pw_fn_begin("scale");
	void *out[3] = { mul, add, div };
	const void *in[1] = { x };
	pw_val p, two, one;
	struct pw_fn *fn;
	int i;

	ASSERT_NE(NULL, b);
	p = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	ASSERT_EQ(0, p);
	two = pw_fn_scalar(b, PWTPU_DT_F32, 2.0);
	one = pw_fn_scalar(b, PWTPU_DT_F32, 1.0);
	ASSERT_EQ(0, pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_MUL, p, two)));
	ASSERT_EQ(0, pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, p, one)));
	ASSERT_EQ(0, pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_DIV, p, two)));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_STREQ("scale", pw_fn_name(fn));
	ASSERT_EQ(1U, pw_fn_num_params(fn));
	ASSERT_EQ(3U, pw_fn_num_results(fn));
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(x[i] * 2.0f, mul[i]);
		ASSERT_EQ(x[i] + 1.0f, add[i]);
		ASSERT_EQ(x[i] / 2.0f, div[i]);
	}
	/* Each scalar was broadcast by its own BROADCAST. */
	ASSERT_EQ(3U, image_count_op(fn, PWTPU_OP_BROADCAST));
	pw_fn_put(fn);
}

/* tanh(x @ w + bias): matmul, broadcast of a bias row, tanh. */
TEST(mlp)
{
	enum { M = 4, K = 8, N = 16 };
	float x[M * K], w[K * N], bias[N], y[M * N];
	struct pw_fn_builder *b = pw_fn_begin("mlp");
	const void *in[1] = { x };
	void *out[1] = { y };
	pw_val px, cw, cb, h, hb;
	struct pw_fn *fn;
	int i, j, k;

	for (i = 0; i < M * K; i++)
		x[i] = (float)((i * 7) % 11 - 5) / 8.0f;
	for (i = 0; i < K * N; i++)
		w[i] = (float)((i * 5) % 13 - 6) / 16.0f;
	for (i = 0; i < N; i++)
		bias[i] = (float)(i % 5 - 2) / 4.0f;
	px = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(M, K));
	cw = pw_fn_const(b, PWTPU_DT_F32, 2, SHAPE(K, N), w);
	cb = pw_fn_const(b, PWTPU_DT_F32, 1, SHAPE(N), bias);
	h = pw_fn_matmul(b, px, cw);
	hb = pw_fn_binary(b, PWTPU_OP_ADD, h,
			  pw_fn_broadcast(b, cb, 2, SHAPE(M, N)));
	ASSERT_EQ(0, pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_TANH, hb)));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(M * N * 4, (int)pw_sig_bytes(&fn->results[0]));
	ASSERT_LE(0, fn->const_buf);
	ASSERT_LE(0, fn->scratch_buf);
	ASSERT_LE((K * N + N) * 4, (int)fn->const_bytes);
	ASSERT_EQ(0, memcmp(fn->const_data, w, sizeof(w)));
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			double s = 0;

			for (k = 0; k < K; k++)
				s += (double)x[i * K + k] * w[k * N + j];
			ASSERT_GT(1e-5, fabs(tanh(s + bias[j]) - y[i * N + j]))
				TH_LOG("y[%d][%d] = %g, want %g", i, j,
				       y[i * N + j], tanh(s + bias[j]));
		}
	}
	pw_fn_put(fn);
}

TEST(scalar_broadcast)
{
	int32_t x[5] = { -3, 0, 4, 12, -100 }, sub[5], max[5], prod;
	int8_t xi8[2] = { 0, -1 }, sat[2];
	/* bf16 1, -2, 3 */
	uint16_t xbf[3] = { 0x3f80, 0xc000, 0x4040 }, bf[3];
	struct pw_fn_builder *b = pw_fn_begin("scalars");
	const void *in[3] = { x, xi8, xbf };
	void *out[5] = { sub, max, &prod, sat, bf };
	pw_val p, p8, pbf, ten;
	struct pw_fn *fn;
	int i;

	p = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(5));
	p8 = pw_fn_param(b, PWTPU_DT_I8, 1, SHAPE(2));
	pbf = pw_fn_param(b, PWTPU_DT_BF16, 1, SHAPE(3));
	ten = pw_fn_scalar(b, PWTPU_DT_I32, 10.9);	/* truncates */
	/* Scalar on the left, then on the right, then scalar by scalar. */
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_SUB, ten, p));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_MAX, p,
				     pw_fn_scalar(b, PWTPU_DT_I32, 0)));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_MUL,
				     pw_fn_scalar(b, PWTPU_DT_I32, 3), ten));
	/* 300 saturates to 127 in i8. */
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, p8,
				     pw_fn_scalar(b, PWTPU_DT_I8, 300)));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_MUL, pbf,
				     pw_fn_scalar(b, PWTPU_DT_BF16, 0.5)));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0U, fn->results[2].rank);
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(10 - x[i], sub[i]);
		ASSERT_EQ(x[i] > 0 ? x[i] : 0, max[i]);
	}
	ASSERT_EQ(30, prod);
	ASSERT_EQ(127, sat[0]);
	ASSERT_EQ(126, sat[1]);
	ASSERT_EQ(0x3f00, bf[0]);	/* 0.5 */
	ASSERT_EQ(0xbf80, bf[1]);	/* -1 */
	ASSERT_EQ(0x3fc0, bf[2]);	/* 1.5 */
	pw_fn_put(fn);
}

TEST(reduce)
{
	int32_t x[12], sum[3], max, min[4];
	struct pw_fn_builder *b = pw_fn_begin("reduce");
	void *out[3] = { sum, &max, min };
	const void *in[1] = { x };
	struct pw_fn *fn;
	pw_val p;
	int i, j;

	for (i = 0; i < 12; i++)
		x[i] = (i * 37) % 17 - 8;
	p = pw_fn_param(b, PWTPU_DT_I32, 2, SHAPE(3, 4));
	pw_fn_result(b, pw_fn_reduce(b, PWTPU_REDUCE_SUM, p, 0x2));
	pw_fn_result(b, pw_fn_reduce(b, PWTPU_REDUCE_MAX, p, 0x3));
	pw_fn_result(b, pw_fn_reduce(b, PWTPU_REDUCE_MIN, p, 0x1));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(1U, fn->results[0].rank);
	ASSERT_EQ(3U, fn->results[0].shape[0]);
	ASSERT_EQ(0U, fn->results[1].rank);
	ASSERT_EQ(4U, fn->results[2].shape[0]);
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (i = 0; i < 3; i++) {
		int32_t s = 0;

		for (j = 0; j < 4; j++)
			s += x[i * 4 + j];
		ASSERT_EQ(s, sum[i]);
	}
	for (j = 0; j < 4; j++) {
		int32_t m = x[j];

		for (i = 1; i < 3; i++)
			m = x[i * 4 + j] < m ? x[i * 4 + j] : m;
		ASSERT_EQ(m, min[j]);
	}
	for (i = 0, j = x[0]; i < 12; i++)
		j = x[i] > j ? x[i] : j;
	ASSERT_EQ(j, max);
	pw_fn_put(fn);
}

TEST(transpose_slice)
{
	int32_t x[24], t[24], s[8];
	struct pw_fn_builder *b = pw_fn_begin("layout");
	const void *in[1] = { x };
	void *out[2] = { t, s };
	struct pw_fn *fn;
	int i, j, k;
	pw_val p;

	for (i = 0; i < 24; i++)
		x[i] = i * 3 + 1;
	p = pw_fn_param(b, PWTPU_DT_I32, 3, SHAPE(2, 3, 4));
	/* t[k][i][j] = x[i][j][k] */
	pw_fn_result(b, pw_fn_transpose(b, p, SHAPE(2, 0, 1)));
	pw_fn_result(b, pw_fn_slice(b, p, SHAPE(0, 1, 1), SHAPE(2, 2, 2)));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(4U, fn->results[0].shape[0]);
	ASSERT_EQ(2U, fn->results[0].shape[1]);
	ASSERT_EQ(3U, fn->results[0].shape[2]);
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			for (k = 0; k < 4; k++)
				ASSERT_EQ(x[(i * 3 + j) * 4 + k],
					  t[(k * 2 + i) * 3 + j]);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 2; k++)
				ASSERT_EQ(x[(i * 3 + j + 1) * 4 + k + 1],
					  s[(i * 2 + j) * 2 + k]);
	pw_fn_put(fn);
}

/* relu by compare and select, a reshape, and a convert to i32. */
TEST(compare_select_convert)
{
	float x[6] = { -1.5f, 2.75f, 0.0f, -0.0f, 100.9f, -3e9f }, relu[6];
	float r[6];
	int32_t cv[6];
	int8_t gt[6];
	struct pw_fn_builder *b = pw_fn_begin("relu");
	void *out[4] = { relu, r, cv, gt };
	const void *in[1] = { x };
	pw_val p, zero, pos;
	struct pw_fn *fn;
	int i;

	p = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(6));
	zero = pw_fn_scalar(b, PWTPU_DT_F32, 0);
	pos = pw_fn_compare(b, PWTPU_CMP_GT, p, zero);
	pw_fn_result(b, pw_fn_select(b, pos, p, zero));
	pw_fn_result(b, pw_fn_reshape(b, p, 2, SHAPE(2, 3)));
	pw_fn_result(b, pw_fn_convert(b, p, PWTPU_DT_I32));
	pw_fn_result(b, pos);
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ((uint32_t)PWTPU_DT_I8, fn->results[3].dtype);
	ASSERT_EQ(2U, fn->results[1].rank);
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(x[i] > 0 ? x[i] : 0.0f, relu[i]);
		ASSERT_EQ(x[i], r[i]);
		ASSERT_EQ(x[i] > 0, gt[i]);
	}
	ASSERT_EQ(-1, cv[0]);
	ASSERT_EQ(100, cv[4]);
	ASSERT_EQ(INT32_MIN, cv[5]);
	pw_fn_put(fn);
}

/* Results that cannot be written in place are copied. */
TEST(result_copies)
{
	int32_t x[4] = { 5, -6, 7, 0 }, c[2] = { 11, 22 };
	int32_t rx[4], rc[2], n1[4], n2[4];
	struct pw_fn_builder *b = pw_fn_begin("copies");
	void *out[4] = { rx, rc, n1, n2 };
	const void *in[1] = { x };
	struct pw_fn *fn;
	pw_val p, neg;
	int i;

	p = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(4));
	neg = pw_fn_unary(b, PWTPU_OP_NEG, p);
	ASSERT_EQ(0, pw_fn_result(b, p));
	ASSERT_EQ(0, pw_fn_result(b, pw_fn_const(b, PWTPU_DT_I32, 1, SHAPE(2),
						 c)));
	ASSERT_EQ(0, pw_fn_result(b, neg));
	ASSERT_EQ(0, pw_fn_result(b, neg));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(4U, fn->nresults);
	/* The parameter, the constant and neg's second time. */
	ASSERT_EQ(3U, image_count_op(fn, PWTPU_OP_RESHAPE));
	/* neg wrote its first result in place: nothing in scratch. */
	ASSERT_EQ(-1, fn->scratch_buf);
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(x[i], rx[i]);
		ASSERT_EQ(-x[i], n1[i]);
		ASSERT_EQ(-x[i], n2[i]);
	}
	ASSERT_EQ(11, rc[0]);
	ASSERT_EQ(22, rc[1]);
	pw_fn_put(fn);
}

TEST(bindings)
{
	struct pw_fn_builder *b = pw_fn_begin(NULL);
	struct pwfw_prog prog;
	struct pw_fn *fn;
	pw_val p, q;

	/* No intermediates, no constants: params and results only. */
	p = pw_fn_param(b, PWTPU_DT_F32, 0, NULL);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, p, p));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_STREQ("fn", pw_fn_name(fn));
	ASSERT_EQ(2U, fn->nbufs);
	ASSERT_EQ(-1, fn->scratch_buf);
	ASSERT_EQ(-1, fn->const_buf);
	ASSERT_EQ(0U, fn->scratch_bytes);
	ASSERT_EQ(0U, fn->const_bytes);
	ASSERT_NULL(fn->const_data);
	ASSERT_EQ(0, fn_verify(fn, &prog));
	pw_fn_put(fn);

	/* Constants but no scratch: const right after the results. */
	b = pw_fn_begin("c");
	p = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	q = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_MUL, p, q));
	pw_fn_result(b, pw_fn_const(b, PWTPU_DT_F32, 1, SHAPE(3),
				    (const float[]){ 1, 2, 3 }));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_EQ(5U, fn->nbufs);
	ASSERT_EQ(-1, fn->scratch_buf);
	ASSERT_EQ(4, fn->const_buf);
	ASSERT_EQ(0, fn_verify(fn, &prog));
	pw_fn_put(fn);

	/* Both: scratch, then const; several intermediates packed. */
	b = pw_fn_begin("sc");
	p = pw_fn_param(b, PWTPU_DT_I8, 1, SHAPE(3));
	q = pw_fn_binary(b, PWTPU_OP_ADD, p, pw_fn_scalar(b, PWTPU_DT_I8, 1));
	q = pw_fn_binary(b, PWTPU_OP_MUL, q, q);
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_NEG, q));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_EQ(4U, fn->nbufs);
	ASSERT_EQ(2, fn->scratch_buf);
	ASSERT_EQ(3, fn->const_buf);
	/* broadcast, add, mul: three 64-byte aligned slots. */
	ASSERT_EQ(2U * 64 + 3, fn->scratch_bytes);
	ASSERT_EQ(0, fn_verify(fn, &prog));
	ASSERT_EQ(prog.buf_bytes[2], fn->scratch_bytes);
	ASSERT_EQ(prog.buf_bytes[3], fn->const_bytes);
	pw_fn_put(fn);
}

TEST(fn_fields)
{
	char name[100];
	struct pw_fn *f1, *f2;
	struct pw_fn_builder *b;
	unsigned int d;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	b = pw_fn_begin(name);
	pw_fn_result(b, pw_fn_scalar(b, PWTPU_DT_F32, 1));
	ASSERT_EQ(0, pw_fn_build(b, &f1));
	b = pw_fn_begin("second");
	pw_fn_result(b, pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(7)));
	ASSERT_EQ(0, pw_fn_build(b, &f2));
	ASSERT_EQ(63U, strlen(pw_fn_name(f1)));
	ASSERT_NE(f1->id, f2->id);
	ASSERT_NE(0U, f1->id);
	ASSERT_EQ(1, atomic_load(&f1->refs));
	ASSERT_FALSE(f1->collectives);
	ASSERT_FALSE(f1->has_permute);
	ASSERT_EQ(0U, f1->group_size);
	ASSERT_NULL(f1->owner);
	for (d = 0; d < PW_RM_MAX_DEVICES; d++)
		ASSERT_FALSE(f1->dev[d].loaded);
	ASSERT_EQ(0U, f1->nparams);
	ASSERT_EQ(1U, f2->nparams);
	ASSERT_EQ((uint32_t)PWTPU_DT_I32, f2->params[0].dtype);
	ASSERT_EQ(7U, f2->params[0].shape[0]);
	ASSERT_TRUE(pw_sig_equal(&f2->params[0], &f2->results[0]));
	ASSERT_EQ(0, pthread_mutex_lock(&f2->lock));
	ASSERT_EQ(0, pthread_mutex_unlock(&f2->lock));
	ASSERT_EQ(f2, pw_fn_get(f2));
	ASSERT_EQ(2, atomic_load(&f2->refs));
	pw_fn_put(f2);
	ASSERT_EQ(1, atomic_load(&f2->refs));
	pw_fn_put(f2);
	pw_fn_put(f1);
	pw_fn_put(NULL);
}

TEST(sig_format)
{
	struct pw_sig a = { PWTPU_DT_F32, 2, { 2, 3 } };
	struct pw_sig s = { PWTPU_DT_I32, 0, { 0 } };
	struct pw_sig c = { PWTPU_DT_BF16, 4, { 1, 2, 3, 4 } };
	char buf[32];

	ASSERT_STREQ("f32[2,3]", pw_sig_format(&a, buf, sizeof(buf)));
	ASSERT_STREQ("i32[]", pw_sig_format(&s, buf, sizeof(buf)));
	ASSERT_STREQ("bf16[1,2,3,4]", pw_sig_format(&c, buf, sizeof(buf)));
	ASSERT_STREQ("bf16[1,", pw_sig_format(&c, buf, 8));
	ASSERT_EQ(24U, pw_sig_bytes(&a));
	ASSERT_EQ(4U, pw_sig_bytes(&s));
	ASSERT_EQ(48U, pw_sig_bytes(&c));
	ASSERT_FALSE(pw_sig_equal(&a, &s));
	ASSERT_TRUE(pw_sig_equal(&a, &a));
}

TEST(sig_format_new_dtypes)
{
	static const struct {
		enum pwtpu_dtype dt;
		const char *text;
		uint64_t bytes;
	} want[] = {
		{ PWTPU_DT_F16, "f16[2,3]", 12 },
		{ PWTPU_DT_F64, "f64[2,3]", 48 },
		{ PWTPU_DT_I16, "i16[2,3]", 12 },
		{ PWTPU_DT_I64, "i64[2,3]", 48 },
		{ PWTPU_DT_U8, "u8[2,3]", 6 },
		{ PWTPU_DT_U16, "u16[2,3]", 12 },
		{ PWTPU_DT_U32, "u32[2,3]", 24 },
		{ PWTPU_DT_U64, "u64[2,3]", 48 },
	};
	struct pw_sig sig;
	char buf[32];
	unsigned int i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ASSERT_EQ(0, pw_sig_make(&sig, want[i].dt, 2, SHAPE(2, 3)));
		ASSERT_STREQ(want[i].text, pw_sig_format(&sig, buf,
							 sizeof(buf)));
		ASSERT_EQ(want[i].bytes, pw_sig_bytes(&sig));
	}
	/* A shard is one device tensor: 2^26 elements of 8 bytes fit. */
	ASSERT_EQ(0, pw_sig_make(&sig, PWTPU_DT_F64, 2,
				 SHAPE(1 << 13, 1 << 13)));
	ASSERT_EQ(-EINVAL, pw_sig_make(&sig, PWTPU_DT_U64, 2,
				       SHAPE(1 << 13, 1 << 14)));
	ASSERT_EQ(0, pw_sig_make(&sig, PWTPU_DT_I32, 2,
				 SHAPE(1 << 13, 1 << 13)));
	ASSERT_EQ(-EINVAL, pw_sig_make(&sig, PWTPU_DT_I32, 3,
				       SHAPE(2, 1 << 13, 1 << 13)));
	ASSERT_EQ(-EINVAL, pw_sig_make(&sig, (enum pwtpu_dtype)13, 0, NULL));
}

/*
 * pw_fn_scalar for every dtype: floats rounded once from the double
 * (f16 and bf16 directly, not through f32), integers truncated and
 * saturated, exact for every integer a double holds.
 */
TEST(scalar_every_dtype)
{
	static const struct {
		enum pwtpu_dtype dt;
		double value;
		uint64_t bits;
	} want[] = {
		{ PWTPU_DT_F64, 0.1, 0x3fb999999999999aULL },
		{ PWTPU_DT_F32, 0.1, 0x3dcccccd },
		{ PWTPU_DT_F16, 1.0 + 0x1p-11 + 0x1p-40, 0x3c01 },
		{ PWTPU_DT_F16, 1.0 + 0x1p-11, 0x3c00 },
		{ PWTPU_DT_F16, 65520.0, 0x7c00 },
		{ PWTPU_DT_F16, 65519.0, 0x7bff },
		{ PWTPU_DT_F16, -0.0, 0x8000 },
		{ PWTPU_DT_F16, 0x1p-24, 0x0001 },
		{ PWTPU_DT_F16, 0x1p-25, 0x0000 },
		{ PWTPU_DT_F16, NAN, 0x7e00 },
		{ PWTPU_DT_BF16, 1.0 + 0x1p-8 + 0x1p-40, 0x3f81 },
		{ PWTPU_DT_BF16, -INFINITY, 0xff80 },
		{ PWTPU_DT_I64, 0x1p53, 9007199254740992ULL },
		{ PWTPU_DT_I64, 0x1p62 + 0x1p10, 0x4000000000000400ULL },
		{ PWTPU_DT_I64, -0x1p63, 0x8000000000000000ULL },
		{ PWTPU_DT_I64, 1e19, 0x7fffffffffffffffULL },
		{ PWTPU_DT_I64, -2.9, (uint64_t)-2 },
		{ PWTPU_DT_U64, 0x1p64 - 2048, 18446744073709549568ULL },
		{ PWTPU_DT_U64, 1e20, UINT64_MAX },
		{ PWTPU_DT_U64, -5.0, 0 },
		{ PWTPU_DT_U64, NAN, 0 },
		{ PWTPU_DT_U32, 4294967295.0, 0xffffffffULL },
		{ PWTPU_DT_U16, 65535.9, 65535 },
		{ PWTPU_DT_I16, -40000.0, 0x8000 },
		{ PWTPU_DT_U8, 300.0, 255 },
		{ PWTPU_DT_U8, -1.0, 0 },
		{ PWTPU_DT_U8, 200.7, 200 },
		{ PWTPU_DT_I8, -3.5, 0xfd },
	};
	const unsigned int n = sizeof(want) / sizeof(want[0]);
	unsigned int i, first;

	for (first = 0; first < n; first += 12) {
		struct pw_fn_builder *b = pw_fn_begin("scalars");
		uint64_t out[12] = { 0 };
		void *outp[12];
		struct pw_fn *fn;

		for (i = first; i < n && i < first + 12; i++) {
			outp[i - first] = &out[i - first];
			ASSERT_EQ(0, pw_fn_result(b, pw_fn_scalar(b, want[i].dt,
							want[i].value)));
		}
		ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
		ASSERT_EQ(0, fn_run(fn, NULL, outp));
		for (i = first; i < n && i < first + 12; i++)
			EXPECT_EQ(want[i].bits, out[i - first])
				TH_LOG("%s of %a", pwtpu_dtype_name(want[i].dt),
				       want[i].value);
		pw_fn_put(fn);
	}
}

/* The new dtypes through the builder, the verifier and the device. */
TEST(new_dtypes_run)
{
	int64_t x[4] = { INT64_MAX, -3, 1LL << 40, 0 }, sq[4];
	uint8_t y[4] = { 200, 100, 0, 255 }, div0[4], ysum;
	uint16_t h[3] = { 0x0000, 0x3c00, 0xbc00 }, hexp[3], dh[2];
	double d[2] = { 1.0 + 0x1p-11 + 0x1p-40, 65520.0 };
	uint64_t du[2];
	int8_t gt[4];
	struct pw_fn_builder *b = pw_fn_begin("dtypes");
	const void *in[4] = { x, y, h, d };
	void *out[7] = { sq, div0, gt, &ysum, hexp, dh, du };
	pw_val px, py, ph, pd;
	struct pw_fn *fn;
	int i;

	px = pw_fn_param(b, PWTPU_DT_I64, 1, SHAPE(4));
	py = pw_fn_param(b, PWTPU_DT_U8, 1, SHAPE(4));
	ph = pw_fn_param(b, PWTPU_DT_F16, 1, SHAPE(3));
	pd = pw_fn_param(b, PWTPU_DT_F64, 1, SHAPE(2));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD,
				     pw_fn_binary(b, PWTPU_OP_MUL, px, px),
				     pw_fn_scalar(b, PWTPU_DT_I64, 1)));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_DIV, py,
				     pw_fn_scalar(b, PWTPU_DT_U8, 0)));
	pw_fn_result(b, pw_fn_compare(b, PWTPU_CMP_GT, py,
				      pw_fn_scalar(b, PWTPU_DT_U8, 100)));
	pw_fn_result(b, pw_fn_reduce(b, PWTPU_REDUCE_SUM, py, 1));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_EXP, ph));
	pw_fn_result(b, pw_fn_convert(b, pd, PWTPU_DT_F16));
	pw_fn_result(b, pw_fn_convert(b, pd, PWTPU_DT_U64));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, fn_run(fn, in, out));
	EXPECT_EQ(2, sq[0]);		/* (2^63 - 1)^2 + 1 wraps to 2 */
	EXPECT_EQ(10, sq[1]);
	EXPECT_EQ(1, sq[2]);		/* 2^80 + 1 wraps to 1 */
	EXPECT_EQ(1, sq[3]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(255, div0[i]);	/* x / 0: the maximum */
	EXPECT_EQ(1, gt[0]);		/* 200 > 100 unsigned */
	EXPECT_EQ(0, gt[1]);
	EXPECT_EQ(1, gt[3]);
	EXPECT_EQ((uint8_t)(200 + 100 + 255), ysum);
	EXPECT_EQ(0x3c00, hexp[0]);	/* e^0 */
	EXPECT_EQ(0x4170, hexp[1]);	/* e = 2.71875 in f16 */
	EXPECT_EQ(0x35e3, hexp[2]);	/* 1/e = 0.36792 in f16 */
	EXPECT_EQ(0x3c01, dh[0]);
	EXPECT_EQ(0x7c00, dh[1]);
	EXPECT_EQ(1U, du[0]);
	EXPECT_EQ(65520U, du[1]);
	pw_fn_put(fn);
}

TEST(err_new_dtypes)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");
	pw_val x = pw_fn_param(b, PWTPU_DT_I64, 1, SHAPE(2));

	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_EXP, x), -EINVAL,
		    "pw_fn_unary(EXP): i64[2] is not a float (f32, bf16, f16 or f64)");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_U32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_LOG, x), -EINVAL,
		    "pw_fn_unary(LOG): u32[3] is not a float (f32, bf16, f16 or f64)");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_F64, 2, SHAPE(2, 2));
	EXPECT_FAIL(b, pw_fn_matmul(b, x, x), -EINVAL,
		    "pw_fn_matmul: f64[2,2] is not f32, bf16 or i8");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_F16, 2, SHAPE(2, 2));
	EXPECT_FAIL(b, pw_fn_matmul(b, x, x), -EINVAL,
		    "f16[2,2] is not f32, bf16 or i8");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_I64, 1, SHAPE(4));
	EXPECT_FAIL(b, pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, x), -EINVAL,
		    "pw_fn_all_reduce: i64[4] is not f32, bf16 or i32");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_F16, 1, SHAPE(4));
	EXPECT_FAIL(b, pw_fn_all_gather(b, x, 2), -EINVAL,
		    "pw_fn_all_gather: f16[4] is not f32, bf16, i8 or i32");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_U8, 1, SHAPE(4));
	EXPECT_FAIL(b, pw_fn_permute(b, x, 1), -EINVAL,
		    "pw_fn_permute: u8[4] is not f32, bf16, i8 or i32");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_U16, 1, SHAPE(4));
	EXPECT_FAIL(b, pw_fn_reduce_scatter(b, PWTPU_REDUCE_MAX, x, 2),
		    -EINVAL, "u16[4] is not f32, bf16 or i32");
	b = pw_fn_begin("bad");
	x = pw_fn_param(b, PWTPU_DT_I16, 1, SHAPE(4));
	EXPECT_FAIL(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				    pw_fn_scalar(b, PWTPU_DT_U16, 1)),
		    -EINVAL, "i16[4] and u16[] differ in dtype");
}

TEST(delay)
{
	struct pw_fn_builder *b = pw_fn_begin("delay");
	int32_t x[2] = { 1, 2 }, y[2];
	const void *in[1] = { x };
	void *out[1] = { y };
	struct pw_fn *fn;

	ASSERT_EQ(0, pw_fn_delay(b, 1000));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_ABS,
				    pw_fn_param(b, PWTPU_DT_I32, 1,
						SHAPE(2))));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_EQ(1U, image_count_op(fn, PWTPU_OP_DELAY));
	ASSERT_EQ(0, fn_run(fn, in, out));
	ASSERT_EQ(1, y[0]);
	ASSERT_EQ(2, y[1]);
	pw_fn_put(fn);

	b = pw_fn_begin("long");
	EXPECT_FAIL(b, pw_fn_delay(b, 2000000000ULL), -EINVAL, "above");
}

/* Collectives need a gang: their images are only verified here. */
TEST(collectives)
{
	struct pw_fn_builder *b = pw_fn_begin("coll");
	struct pwfw_prog prog;
	struct pw_fn *fn;
	pw_val p, g;

	p = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	g = pw_fn_all_gather(b, p, 4);
	ASSERT_LE(0, g);
	pw_fn_result(b, g);
	pw_fn_result(b, pw_fn_reduce_scatter(b, PWTPU_REDUCE_SUM, g, 4));
	pw_fn_result(b, pw_fn_all_reduce(b, PWTPU_REDUCE_PROD, p));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_TRUE(fn->collectives);
	ASSERT_EQ(4U, fn->group_size);
	ASSERT_FALSE(fn->has_permute);
	ASSERT_EQ(8U, fn->results[0].shape[0]);
	ASSERT_EQ(3U, fn->results[0].shape[1]);
	ASSERT_EQ(2U, fn->results[1].shape[0]);
	ASSERT_EQ(0, fn_verify(fn, &prog));
	ASSERT_EQ(3U, prog.ncoll);
	pw_fn_put(fn);

	/* all_reduce alone: any slice size. */
	b = pw_fn_begin("ar");
	p = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(5));
	pw_fn_result(b, pw_fn_all_reduce(b, PWTPU_REDUCE_MAX, p));
	ASSERT_EQ(0, pw_fn_build(b, &fn));
	ASSERT_TRUE(fn->collectives);
	ASSERT_EQ(0U, fn->group_size);
	ASSERT_EQ(0, fn_verify(fn, &prog));
	pw_fn_put(fn);

	/* The same shift twice is one shift. */
	b = pw_fn_begin("ring");
	p = pw_fn_param(b, PWTPU_DT_I8, 1, SHAPE(16));
	p = pw_fn_permute(b, p, -1);
	pw_fn_result(b, pw_fn_permute(b, p, -1));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_TRUE(fn->collectives);
	ASSERT_TRUE(fn->has_permute);
	ASSERT_EQ(-1, fn->permute_shift);
	ASSERT_EQ(0U, fn->group_size);
	ASSERT_EQ(0, fn_verify(fn, &prog));
	ASSERT_EQ(2U, prog.ncoll);
	pw_fn_put(fn);
}

TEST(err_null_builder)
{
	struct pw_fn *fn = (struct pw_fn *)&fn;

	ASSERT_EQ(-EINVAL, pw_fn_param(NULL, PWTPU_DT_F32, 0, NULL));
	ASSERT_NE(NULL, strstr(pw_last_error(), "no builder"));
	ASSERT_EQ(-EINVAL, pw_fn_scalar(NULL, PWTPU_DT_F32, 1));
	ASSERT_EQ(-EINVAL, pw_fn_binary(NULL, PWTPU_OP_ADD, 0, 0));
	ASSERT_EQ(-EINVAL, pw_fn_delay(NULL, 1));
	ASSERT_EQ(-EINVAL, pw_fn_result(NULL, 0));
	ASSERT_EQ(-EINVAL, pw_fn_build(NULL, &fn));
	ASSERT_NE(NULL, strstr(pw_last_error(), "no builder"));
}

TEST(err_shapes_differ)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	pw_val y = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(3, 2));

	EXPECT_FAIL(b, pw_fn_binary(b, PWTPU_OP_ADD, x, y), -EINVAL,
		    "pw_fn_binary(ADD): f32[2,3] and f32[3,2] differ");
}

TEST(err_dtypes_differ)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	pw_val y = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(3));

	EXPECT_FAIL(b, pw_fn_binary(b, PWTPU_OP_SUB, x, y), -EINVAL,
		    "f32[3] and i32[3] differ in dtype");
}

TEST(err_exp_i32)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");
	pw_val x = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(4));

	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_EXP, x), -EINVAL,
		    "pw_fn_unary(EXP): i32[4] is not a float (f32, bf16, f16 or f64)");
}

TEST(err_rank)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");

	EXPECT_FAIL(b, pw_fn_param(b, PWTPU_DT_F32, 5, SHAPE(1, 1, 1, 1, 1)),
		    -EINVAL, "rank 5 is above 4");
}

TEST(err_zero_extent)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");

	EXPECT_FAIL(b, pw_fn_const(b, PWTPU_DT_F32, 2, SHAPE(2, 0), "x"),
		    -EINVAL, "extent 0 of dimension 1");
}

TEST(err_too_many_elements)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(1 << 13, 1 << 13));

	ASSERT_LE(0, x);
	EXPECT_FAIL(b, pw_fn_broadcast(b, x, 3, SHAPE(2, 1 << 13, 1 << 13)),
		    -E2BIG, "more than 67108864 elements");
}

TEST(err_bad_dtype)
{
	struct pw_fn_builder *b = pw_fn_begin("bad");

	EXPECT_FAIL(b, pw_fn_param(b, (enum pwtpu_dtype)13, 0, NULL), -EINVAL,
		    "unknown dtype 13");
}

TEST(err_too_many_bindings)
{
	struct pw_fn_builder *b = pw_fn_begin("wide");
	pw_val x = -1;
	int i;

	for (i = 0; i < PWTPU_MAX_BUFS - 2; i++) {
		x = pw_fn_param(b, PWTPU_DT_F32, 0, NULL);
		ASSERT_EQ(i, x);
	}
	EXPECT_FAIL(b, pw_fn_result(b, x), -E2BIG,
		    "15 parameters and results, at most 14");
}

TEST(err_too_many_values)
{
	struct pw_fn_builder *b = pw_fn_begin("long");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 0, NULL);
	int i;

	for (i = 1; i < PWTPU_MAX_TENSORS; i++)
		ASSERT_EQ(i, pw_fn_unary(b, PWTPU_OP_NEG, x));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_NEG, x), -E2BIG,
		    "more than 1024 values");
}

TEST(err_sticky)
{
	struct pw_fn_builder *b = pw_fn_begin("sticky");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(2));
	pw_val y = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	char first[256];

	ASSERT_EQ(-EINVAL, pw_fn_binary(b, PWTPU_OP_MUL, x, y));
	snprintf(first, sizeof(first), "%s", pw_last_error());
	ASSERT_NE(NULL, strstr(first, "pw_fn_binary(MUL)"));
	/* Valid calls now fail the same way, with the first message. */
	ASSERT_EQ(-EINVAL, pw_fn_param(b, PWTPU_DT_F32, 0, NULL));
	ASSERT_STREQ(first, pw_last_error());
	ASSERT_EQ(-EINVAL, pw_fn_unary(b, PWTPU_OP_NEG, x));
	ASSERT_EQ(-EINVAL, pw_fn_result(b, x));
	ASSERT_EQ(-EINVAL, pw_fn_delay(b, 1));
	/* A failed value passed on fails without a new message. */
	ASSERT_EQ(-EINVAL, pw_fn_unary(b, PWTPU_OP_NEG, -EINVAL));
	ASSERT_STREQ(first, pw_last_error());
	EXPECT_FAIL(b, pw_fn_scalar(b, PWTPU_DT_F32, 1), -EINVAL, first);
}

TEST(err_no_results)
{
	struct pw_fn_builder *b = pw_fn_begin("void");
	struct pw_fn *fn = (struct pw_fn *)&fn;

	ASSERT_EQ(0, pw_fn_param(b, PWTPU_DT_F32, 0, NULL));
	ASSERT_EQ(-EINVAL, pw_fn_build(b, &fn));
	ASSERT_NULL(fn);
	ASSERT_STREQ("pw_fn_build(void): the function has no results",
		     pw_last_error());
}

TEST(err_permute_shifts)
{
	struct pw_fn_builder *b = pw_fn_begin("perm");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));

	x = pw_fn_permute(b, x, 1);
	ASSERT_LE(0, x);
	EXPECT_FAIL(b, pw_fn_permute(b, x, 2), -EINVAL,
		    "shift 2 but the function already permutes by 1");
}

TEST(err_group_sizes)
{
	struct pw_fn_builder *b = pw_fn_begin("groups");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));

	x = pw_fn_all_gather(b, x, 4);
	ASSERT_LE(0, x);
	EXPECT_FAIL(b, pw_fn_reduce_scatter(b, PWTPU_REDUCE_SUM, x, 2),
		    -EINVAL,
		    "group size 2 but the function already requires 4");
}

TEST(err_collective_operands)
{
	struct pw_fn_builder *b = pw_fn_begin("c");
	pw_val x = pw_fn_param(b, PWTPU_DT_I8, 1, SHAPE(4));

	EXPECT_FAIL(b, pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, x), -EINVAL,
		    "i8[4] is not f32, bf16 or i32");
	b = pw_fn_begin("c");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(6));
	EXPECT_FAIL(b, pw_fn_reduce_scatter(b, PWTPU_REDUCE_SUM, x, 4),
		    -EINVAL, "f32[6] does not split in 4");
	b = pw_fn_begin("c");
	x = pw_fn_scalar(b, PWTPU_DT_F32, 1);
	EXPECT_FAIL(b, pw_fn_all_gather(b, x, 2), -EINVAL, "rank 0");
	b = pw_fn_begin("c");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(6));
	EXPECT_FAIL(b, pw_fn_all_gather(b, x, 0), -EINVAL,
		    "group size 0 is not 1..64");
	b = pw_fn_begin("c");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(6));
	EXPECT_FAIL(b, pw_fn_all_reduce(b, (enum pwtpu_reduce)7, x), -EINVAL,
		    "unknown reduction 7");
}

TEST(err_matmul)
{
	struct pw_fn_builder *b = pw_fn_begin("mm");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	pw_val y = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));

	EXPECT_FAIL(b, pw_fn_matmul(b, x, y), -EINVAL,
		    "inner dimensions of f32[2,3] and f32[2,3] differ");
	b = pw_fn_begin("mm");
	x = pw_fn_param(b, PWTPU_DT_I32, 2, SHAPE(2, 2));
	EXPECT_FAIL(b, pw_fn_matmul(b, x, x), -EINVAL,
		    "i32[2,2] is not f32, bf16 or i8");
	b = pw_fn_begin("mm");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(2));
	EXPECT_FAIL(b, pw_fn_matmul(b, x, x), -EINVAL, "must be rank 2");
}

TEST(err_layout_ops)
{
	struct pw_fn_builder *b = pw_fn_begin("l");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));

	EXPECT_FAIL(b, pw_fn_transpose(b, x, SHAPE(1, 1)), -EINVAL,
		    "not a permutation");
	b = pw_fn_begin("l");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	EXPECT_FAIL(b, pw_fn_slice(b, x, SHAPE(1, 1), SHAPE(1, 3)), -EINVAL,
		    "window 1+3 of dimension 1");
	b = pw_fn_begin("l");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	EXPECT_FAIL(b, pw_fn_reshape(b, x, 1, SHAPE(5)), -EINVAL,
		    "f32[2,3] and f32[5] have different element counts");
	b = pw_fn_begin("l");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	EXPECT_FAIL(b, pw_fn_broadcast(b, x, 2, SHAPE(2, 4)), -EINVAL,
		    "f32[2,3] does not broadcast to f32[2,4]");
	b = pw_fn_begin("l");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	EXPECT_FAIL(b, pw_fn_reduce(b, PWTPU_REDUCE_SUM, x, 0x4), -EINVAL,
		    "axes 0x4");
	b = pw_fn_begin("l");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(2, 3));
	EXPECT_FAIL(b, pw_fn_reduce(b, PWTPU_REDUCE_PROD, x, 0x1), -EINVAL,
		    "PROD is for collectives");
}

/*
 * Scatter and gather through the builder: rows added in at i32 indices
 * with the implicit index vector dimension (index_vector_dim = rank),
 * repeated rows adding up in order; rows gathered by u8 indices, clamped;
 * and a batching gather (take along an axis) with a clamp.
 */
TEST(scatter_gather)
{
	const float x[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	const float u[9] = { 1, 1, 1, 10, 20, 30, 100, 100, 100 };
	const int32_t idx[3] = { 1, 3, 1 };
	const uint8_t rows[2] = { 2, 200 };
	const int64_t along[4] = { 2, -1, 5, 0 };
	float sc[12], ga[6], tk[4];
	const void *in[5] = { x, idx, u, rows, along };
	void *out[3] = { sc, ga, tk };
	struct pw_fn_builder *b = pw_fn_begin("scatter_gather");
	struct pw_fn_scatter_dims sd = {
		.n_update_window_dims = 1, .update_window_dims = { 1 },
		.n_inserted_window_dims = 1, .inserted_window_dims = { 0 },
		.n_scatter_dims_to_operand_dims = 1,
		.scatter_dims_to_operand_dims = { 0 },
		.index_vector_dim = 1,
	};
	struct pw_fn_gather_dims gd = {
		.n_offset_dims = 1, .offset_dims = { 1 },
		.n_collapsed_slice_dims = 1, .collapsed_slice_dims = { 0 },
		.n_start_index_map = 1, .start_index_map = { 0 },
		.index_vector_dim = 1, .slice_sizes = { 1, 3 },
	};
	/* result[i] = x[i, along[i]]: batching pair (0, 0). */
	struct pw_fn_gather_dims td = {
		.n_collapsed_slice_dims = 1, .collapsed_slice_dims = { 1 },
		.n_batching_dims = 1, .operand_batching_dims = { 0 },
		.start_indices_batching_dims = { 0 },
		.n_start_index_map = 1, .start_index_map = { 1 },
		.index_vector_dim = 1, .slice_sizes = { 1, 1 },
	};
	const float want_sc[12] = { 1, 2, 3, 105, 106, 107, 7, 8, 9,
				    20, 31, 42 };
	const float want_ga[6] = { 7, 8, 9, 10, 11, 12 };
	const float want_tk[4] = { 3, 4, 9, 10 };
	pw_val p, i, v, r, a;
	struct pw_fn *fn;

	p = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(4, 3));
	i = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(3));
	v = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(3, 3));
	r = pw_fn_param(b, PWTPU_DT_U8, 1, SHAPE(2));
	a = pw_fn_param(b, PWTPU_DT_I64, 1, SHAPE(4));
	pw_fn_result(b, pw_fn_scatter(b, PWTPU_SCATTER_ADD, p, i, v, &sd));
	pw_fn_result(b, pw_fn_gather(b, p, r, &gd));
	pw_fn_result(b, pw_fn_gather(b, pw_fn_reshape(b, p, 2, SHAPE(4, 3)),
				     a, &td));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(2U, fn->results[1].rank);
	ASSERT_EQ(2U, fn->results[1].shape[0]);
	ASSERT_EQ(3U, fn->results[1].shape[1]);
	ASSERT_EQ(1U, fn->results[2].rank);
	ASSERT_EQ(4U, fn->results[2].shape[0]);
	ASSERT_EQ(1U, image_count_op(fn, PWTPU_OP_SCATTER));
	ASSERT_EQ(2U, image_count_op(fn, PWTPU_OP_GATHER));
	ASSERT_EQ(0, fn_run(fn, in, out));
	EXPECT_EQ(0, memcmp(want_sc, sc, sizeof(sc)));
	EXPECT_EQ(0, memcmp(want_ga, ga, sizeof(ga)));
	EXPECT_EQ(0, memcmp(want_tk, tk, sizeof(tk)));
	pw_fn_put(fn);
}

/* A fresh builder with x f32[4,3], i i32[3,1], u f32[3,3] and j f16[3]. */
static struct pw_fn_builder *gs_builder(pw_val *v)
{
	struct pw_fn_builder *b = pw_fn_begin("gs");

	v[0] = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(4, 3));
	v[1] = pw_fn_param(b, PWTPU_DT_I32, 2, SHAPE(3, 1));
	v[2] = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(3, 3));
	v[3] = pw_fn_param(b, PWTPU_DT_F16, 1, SHAPE(3));
	return b;
}

/* Free a builder that is not to be built (pw_fn_build() frees it). */
static void drop(struct pw_fn_builder *b)
{
	struct pw_fn *fn = NULL;

	if (pw_fn_build(b, &fn) == 0)
		pw_fn_put(fn);
}

/* Rows of x at i: valid until a test breaks one field. */
static const struct pw_fn_scatter_dims rows_sd = {
	.n_update_window_dims = 1, .update_window_dims = { 1 },
	.n_inserted_window_dims = 1, .inserted_window_dims = { 0 },
	.n_scatter_dims_to_operand_dims = 1,
	.scatter_dims_to_operand_dims = { 0 },
	.index_vector_dim = 1,
};

static const struct pw_fn_gather_dims rows_gd = {
	.n_offset_dims = 1, .offset_dims = { 1 },
	.n_collapsed_slice_dims = 1, .collapsed_slice_dims = { 0 },
	.n_start_index_map = 1, .start_index_map = { 0 },
	.index_vector_dim = 1, .slice_sizes = { 1, 3 },
};

TEST(err_scatter)
{
	struct pw_fn_scatter_dims d;
	struct pw_fn_builder *b;
	pw_val v[4];

	b = gs_builder(v);
	ASSERT_LE(0, pw_fn_scatter(b, PWTPU_SCATTER_SET, v[0], v[1], v[2],
				   &rows_sd)) TH_LOG("%s", pw_last_error());
	drop(b);

	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 5, v[0], v[1], v[2], &rows_sd),
		    -EINVAL, "pw_fn_scatter: mode 5 is not SET, ADD, MUL, MIN or MAX");
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], NULL), -EINVAL,
		    "no dimension numbers");
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[3], v[2], &rows_sd),
		    -EINVAL, "the indices f16[3] are not of an integer dtype");
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[3], &rows_sd),
		    -EINVAL,
		    "the updates f16[3] and the operand f32[4,3] differ in dtype");
	d = rows_sd;
	d.n_update_window_dims = 2;
	d.update_window_dims[1] = 0;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "update_window_dims [1, 0] is not sorted");
	d = rows_sd;
	d.update_window_dims[0] = 2;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "update_window_dims [2] names dimension 2, past the rank 2 of the window tensor");
	d = rows_sd;
	d.n_inserted_window_dims = 5;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "inserted_window_dims has 5 entries, more than 4");
	d = rows_sd;
	d.n_batching_dims = 1;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "inserted_window_dims and input_batching_dims share dimension 0");
	d = rows_sd;
	d.n_inserted_window_dims = 0;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "the operand f32[4,3] has rank 2, not 1 update_window_dims + 0 inserted_window_dims + 0 input_batching_dims");
	d = rows_sd;
	d.index_vector_dim = 3;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "index_vector_dim 3 is past the rank of the indices i32[3,1]");
	d = rows_sd;
	d.n_scatter_dims_to_operand_dims = 2;
	d.scatter_dims_to_operand_dims[1] = 1;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "scatter_dims_to_operand_dims has 2 entries but the indices i32[3,1] have index vectors of 1");
	d = rows_sd;
	d.index_vector_dim = 2;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &d), -EINVAL,
		    "the updates f32[3,3] have rank 2, not 3");
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[0], &rows_sd),
		    -EINVAL,
		    "scatter dimension 0 of the updates f32[4,3] is not dimension 0 of the indices i32[3,1]");
	b = gs_builder(v);
	v[2] = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(3, 4));
	EXPECT_FAIL(b, pw_fn_scatter(b, 0, v[0], v[1], v[2], &rows_sd),
		    -EINVAL,
		    "window dimension 1 of the updates f32[3,4] is larger than dimension 1 of the operand f32[4,3]");
}

TEST(err_gather)
{
	struct pw_fn_gather_dims d;
	struct pw_fn_builder *b;
	pw_val v[4], big, bi;

	b = gs_builder(v);
	ASSERT_LE(0, pw_fn_gather(b, v[0], v[1], &rows_gd))
		TH_LOG("%s", pw_last_error());
	drop(b);

	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], NULL), -EINVAL,
		    "pw_fn_gather: no dimension numbers");
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[3], &rows_gd), -EINVAL,
		    "the indices f16[3] are not of an integer dtype");
	d = rows_gd;
	d.slice_sizes[1] = 4;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EINVAL,
		    "slice_sizes [1, 4] is larger than the operand f32[4,3] in dimension 1");
	d = rows_gd;
	d.slice_sizes[0] = 2;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EINVAL,
		    "slice_sizes [2, 3] is 2 in dimension 0, a collapsed or batching one (at most 1)");
	d = rows_gd;
	d.slice_sizes[0] = 0;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EOPNOTSUPP,
		    "slice_sizes [0, 3]: empty slices are not supported");
	d = rows_gd;
	d.start_index_map[0] = 2;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EINVAL,
		    "start_index_map [2] names dimension 2, past the rank 2 of the operand");
	d = rows_gd;
	d.n_collapsed_slice_dims = 2;
	d.collapsed_slice_dims[1] = 0;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EINVAL,
		    "collapsed_slice_dims [0, 0] repeats 0");
	/* Batching: x's dim 0 (4) against i's dim 0 (3). */
	d = rows_gd;
	d.n_collapsed_slice_dims = 0;
	d.n_batching_dims = 1;
	d.operand_batching_dims[0] = 0;
	d.start_indices_batching_dims[0] = 0;
	d.start_index_map[0] = 1;
	d.slice_sizes[1] = 1;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EINVAL,
		    "batching dimension 0 of the operand f32[4,3] and 0 of the indices i32[3,1] differ in extent");
	d.start_indices_batching_dims[0] = 1;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EINVAL,
		    "start_indices_batching_dims [1] holds index_vector_dim 1");
	d = rows_gd;
	d.start_index_map[0] = 0;
	d.n_batching_dims = 1;
	d.n_collapsed_slice_dims = 0;
	d.operand_batching_dims[0] = 0;
	b = gs_builder(v);
	EXPECT_FAIL(b, pw_fn_gather(b, v[0], v[1], &d), -EINVAL,
		    "start_index_map and operand_batching_dims share dimension 0");
	/* A result of rank 5: 2 offset dims and indices [2,2,2,2,1]. */
	b = gs_builder(v);
	big = pw_fn_param(b, PWTPU_DT_F32, 3, SHAPE(4, 3, 2));
	bi = pw_fn_param(b, PWTPU_DT_I32, 4, SHAPE(2, 2, 2, 1));
	d = rows_gd;
	d.n_offset_dims = 2;
	d.offset_dims[1] = 2;
	d.index_vector_dim = 3;
	EXPECT_FAIL(b, pw_fn_gather(b, big, bi, &d), -EOPNOTSUPP,
		    "the result would have rank 5, above the device's 4");
}

TEST(err_select_and_values)
{
	struct pw_fn_builder *b = pw_fn_begin("s");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));

	EXPECT_FAIL(b, pw_fn_select(b, x, x, x), -EINVAL,
		    "predicate f32[3] is not i8");
	b = pw_fn_begin("s");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_NEG, 99), -EINVAL,
		    "value 99 does not exist");
	b = pw_fn_begin("s");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_binary(b, PWTPU_OP_NEG, x, x), -EINVAL,
		    "is not ADD, SUB, MUL, DIV, MAX, MIN, AND");
	b = pw_fn_begin("s");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_convert(b, x, (enum pwtpu_dtype)0), -EINVAL,
		    "unknown dtype 0");
}

/*
 * The elementwise ops of UAPI 5 through pw_fn_binary and pw_fn_unary: a
 * function of each kind builds, verifies and runs to the values worked
 * out here, a scalar operand broadcast like ADD's.
 */
TEST(new_elementwise_ops)
{
	struct pw_fn_builder *b = pw_fn_begin("ew");
	const int32_t xi[4] = { 12, -1, 255, INT32_MIN };
	const int32_t si[4] = { 2, 31, 32, -1 };
	const float xf[4] = { -2.5f, 0.25f, 2.5f, 100.0f };
	const double xd[4] = { 8.0, -27.0, 1e-300, 2.0 };
	const void *in[2] = { xf, xd };
	int32_t and_[4], shl[4], shra[4], pop[4], clz[4], not_[4];
	float flo[4], rne[4], afz[4], rem[4];
	double cbrt_[4], pw[4];
	void *out[12] = { and_, shl, shra, pop, clz, not_, flo, rne, afz, rem,
			  cbrt_, pw };
	pw_val i, sh, f, d, v;
	struct pw_fn *fn;
	int k;

	i = pw_fn_const(b, PWTPU_DT_I32, 1, SHAPE(4), xi);
	f = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));
	d = pw_fn_param(b, PWTPU_DT_F64, 1, SHAPE(4));
	sh = pw_fn_const(b, PWTPU_DT_I32, 1, SHAPE(4), si);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_AND, i,
				     pw_fn_scalar(b, PWTPU_DT_I32, 10)));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_SHL, i, sh));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_SHR_ARITH, i, sh));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_POPCNT, i));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_CLZ, i));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_NOT, i));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_FLOOR, f));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_ROUND_EVEN, f));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_ROUND_AFZ, f));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_REM, f,
				     pw_fn_scalar(b, PWTPU_DT_F32, 0.75)));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_CBRT, d));
	v = pw_fn_binary(b, PWTPU_OP_POW, d, pw_fn_scalar(b, PWTPU_DT_F64, 3));
	ASSERT_LE(0, pw_fn_result(b, v)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (k = 0; k < 4; k++) {
		EXPECT_EQ(xi[k] & 10, and_[k]);
		EXPECT_EQ(__builtin_popcount((uint32_t)xi[k]), pop[k]);
		EXPECT_EQ(~xi[k], not_[k]);
		EXPECT_EQ(floorf(xf[k]), flo[k]);
		EXPECT_EQ(rintf(xf[k]), rne[k]);
		EXPECT_EQ(roundf(xf[k]), afz[k]);
		EXPECT_EQ(fmodf(xf[k], 0.75f), rem[k]);
		EXPECT_EQ((double)cbrtl(xd[k]), cbrt_[k]);
	}
	/* 12 << 2; -1 << 31; 255 << 32 (past the width); MIN << huge. */
	EXPECT_EQ(48, shl[0]);
	EXPECT_EQ(INT32_MIN, shl[1]);
	EXPECT_EQ(0, shl[2]);
	EXPECT_EQ(0, shl[3]);
	EXPECT_EQ(3, shra[0]);
	EXPECT_EQ(-1, shra[1]);
	EXPECT_EQ(0, shra[2]);
	EXPECT_EQ(-1, shra[3]);
	EXPECT_EQ(28, clz[0]);
	EXPECT_EQ(0, clz[1]);
	EXPECT_EQ(24, clz[2]);
	EXPECT_EQ(0, clz[3]);
	EXPECT_EQ(512.0, pw[0]);
	EXPECT_EQ(-19683.0, pw[1]);
	EXPECT_EQ(0.0, pw[2]);
	EXPECT_EQ(8.0, pw[3]);
	pw_fn_put(fn);
}

/*
 * pw_fn_bitcast: the same width keeps the shape, a wider dtype takes the
 * last dimension, a narrower one adds it; little endian.
 */
TEST(bitcast)
{
	struct pw_fn_builder *b = pw_fn_begin("bc");
	const float x[4] = { 1.0f, -2.0f, 0.5f, 0.0f };
	const void *in[1] = { x };
	uint32_t same[4];
	double wide[2];
	uint16_t narrow[8];
	void *out[3] = { same, wide, narrow };
	struct pw_fn *fn;
	pw_val p, v;
	int k;

	p = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));
	pw_fn_result(b, pw_fn_bitcast(b, p, PWTPU_DT_U32));
	v = pw_fn_reshape(b, p, 2, SHAPE(2, 2));
	pw_fn_result(b, pw_fn_bitcast(b, v, PWTPU_DT_F64));
	/* u16[4,2]: its reshape to [8] checks the count. */
	v = pw_fn_bitcast(b, p, PWTPU_DT_U16);
	pw_fn_result(b, pw_fn_reshape(b, v, 1, SHAPE(8)));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, fn_run(fn, in, out));
	for (k = 0; k < 4; k++) {
		uint32_t u;

		memcpy(&u, &x[k], 4);
		EXPECT_EQ(u, same[k]);
		EXPECT_EQ((uint16_t)u, narrow[2 * k]);
		EXPECT_EQ((uint16_t)(u >> 16), narrow[2 * k + 1]);
	}
	EXPECT_EQ(0, memcmp(wide, x, sizeof(wide)));
	pw_fn_put(fn);

	b = pw_fn_begin("bc");
	p = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_bitcast(b, p, PWTPU_DT_I64), -EINVAL,
		    "f32[3] to i64 needs a last dimension of 2");
	b = pw_fn_begin("bc");
	p = pw_fn_param(b, PWTPU_DT_F64, 4, SHAPE(1, 1, 1, 2));
	EXPECT_FAIL(b, pw_fn_bitcast(b, p, PWTPU_DT_I8), -EINVAL,
		    "needs a dimension more than rank 4");
	b = pw_fn_begin("bc");
	p = pw_fn_param(b, PWTPU_DT_F64, 1, SHAPE(1));
	EXPECT_FAIL(b, pw_fn_bitcast(b, p, (enum pwtpu_dtype)13), -EINVAL,
		    "unknown dtype 13");
}

/* pw_fn_reduce_precision: bf16's format on f32, and its refusals. */
TEST(reduce_precision)
{
	struct pw_fn_builder *b = pw_fn_begin("rp");
	const float x[3] = { 1.00048828125f, 3.4e38f, 1e-39f };
	const void *in[1] = { x };
	float y[3];
	void *out[1] = { y };
	struct pw_fn *fn;
	pw_val p;

	p = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	pw_fn_result(b, pw_fn_reduce_precision(b, p, 5, 10));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, fn_run(fn, in, out));
	/* 1 + 2^-11 is a tie in 10 fraction bits: to even, 1. */
	EXPECT_EQ(1.0f, y[0]);
	EXPECT_EQ(INFINITY, y[1]);
	EXPECT_EQ(0.0f, y[2]);
	pw_fn_put(fn);

	b = pw_fn_begin("rp");
	p = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_reduce_precision(b, p, 0, 3), -EINVAL,
		    "exponent bits must be >= 1");
	b = pw_fn_begin("rp");
	p = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_reduce_precision(b, p, 5, 10), -EINVAL,
		    "i32[3] is not a float (f32, bf16, f16 or f64)");
}

/*
 * The device's bounds on real work, as its verifier counts it: one f64
 * SIN of 2^24 elements (512 units each) or a [4096,4096] x [4096,4096]
 * MATMUL is past 2^32 units for one instruction; seventeen f32 EXPs of
 * 2^26 elements pass 2^34 for the function.
 */
TEST(err_work)
{
	struct pw_fn_builder *b = pw_fn_begin("w");
	pw_val x = pw_fn_param(b, PWTPU_DT_F64, 1, SHAPE(1U << 24));
	int k;

	EXPECT_LE(0, pw_fn_unary(b, PWTPU_OP_SQRT, x));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_SIN, x), -E2BIG,
		    "pw_fn_unary(SIN): 8589934592 units of work, more than the device's 4294967296 for one instruction");
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, SHAPE(4096, 4096));
	EXPECT_FAIL(b, pw_fn_matmul(b, x, x), -E2BIG, "units of work");
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(1U << 26));
	for (k = 0; k < 16; k++)
		ASSERT_LE(0, pw_fn_unary(b, PWTPU_OP_EXP, x));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_EXP, x), -E2BIG,
		    "the function's work passes the device's 17179869184 units");
}

/* The device's dtype rules, as the calls that break them report them. */
TEST(err_new_ops_dtypes)
{
	struct pw_fn_builder *b = pw_fn_begin("d");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3)), v;
	struct pw_fn *fn;

	EXPECT_FAIL(b, pw_fn_binary(b, PWTPU_OP_SHL, x, x), -EINVAL,
		    "pw_fn_binary(SHL): f32[3] is not an integer");
	b = pw_fn_begin("d");
	x = pw_fn_param(b, PWTPU_DT_F64, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_POPCNT, x), -EINVAL,
		    "pw_fn_unary(POPCNT): f64[3] is not an integer");
	b = pw_fn_begin("d");
	x = pw_fn_param(b, PWTPU_DT_U8, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_SIN, x), -EINVAL,
		    "pw_fn_unary(SIN): u8[3] is not a float");
	b = pw_fn_begin("d");
	x = pw_fn_param(b, PWTPU_DT_I64, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_binary(b, PWTPU_OP_ATAN2, x, x), -EINVAL,
		    "pw_fn_binary(ATAN2): i64[3] is not a float");
	b = pw_fn_begin("d");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_BITCAST, x), -EINVAL,
		    "is not NEG, ABS, EXP, LOG, TANH, RSQRT, NOT, POPCNT, CLZ or FLOOR..LOGISTIC");
	b = pw_fn_begin("d");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(3));
	EXPECT_FAIL(b, pw_fn_binary(b, PWTPU_OP_SQRT, x, x), -EINVAL,
		    "op 43 is not ADD");
	/* POW and REM take integers, and f64 has every float op. */
	b = pw_fn_begin("d");
	x = pw_fn_param(b, PWTPU_DT_U16, 1, SHAPE(3));
	EXPECT_LE(0, pw_fn_binary(b, PWTPU_OP_POW, x, x));
	EXPECT_LE(0, pw_fn_binary(b, PWTPU_OP_REM, x, x));
	x = pw_fn_param(b, PWTPU_DT_F64, 1, SHAPE(3));
	EXPECT_LE(0, pw_fn_unary(b, PWTPU_OP_TAN, x));
	v = pw_fn_unary(b, PWTPU_OP_LOGISTIC, x);
	EXPECT_LE(0, pw_fn_result(b, v));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	pw_fn_put(fn);
}

/* Loops: pw_fn_while_begin(), pw_fn_while_test(), pw_fn_while_end(). */

/* The image's instructions. */
static const struct pwtpu_insn *image_insns(const struct pw_fn *fn,
					    uint32_t *n)
{
	const struct pwtpu_prog_header *h = fn->image;

	*n = h->ninsns;
	return (const struct pwtpu_insn *)((const struct pwtpu_tensor *)(h + 1) +
					   h->ntensors);
}

/*
 * i = 0, s = v; while (i < n) { i = i + 1; s = s * 2; }: results i and
 * s, for n (a parameter) of 0, 1 and 5; @trips bounds the loop.
 */
static struct pw_fn *doubling(uint32_t trips)
{
	struct pw_fn_builder *b = pw_fn_begin("doubling");
	pw_val n, v, init[2], var[2], next[2];
	struct pw_fn *fn = NULL;

	n = pw_fn_param(b, PWTPU_DT_I32, 0, NULL);
	v = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));
	init[0] = pw_fn_scalar(b, PWTPU_DT_I32, 0);
	init[1] = v;
	pw_fn_while_begin(b, 2, init, var, trips);
	pw_fn_while_test(b, pw_fn_compare(b, PWTPU_CMP_LT, var[0], n));
	next[0] = pw_fn_binary(b, PWTPU_OP_ADD, var[0],
			       pw_fn_scalar(b, PWTPU_DT_I32, 1));
	next[1] = pw_fn_binary(b, PWTPU_OP_MUL, var[1],
			       pw_fn_scalar(b, PWTPU_DT_F32, 2));
	pw_fn_while_end(b, next);
	pw_fn_result(b, var[0]);
	pw_fn_result(b, var[1]);
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "# %s\n", pw_last_error());
	return fn;
}

TEST(while_doubling)
{
	const float v[4] = { 1, -0.5f, 3, 0 };
	static const int32_t ns[] = { 0, 1, 5, -3 };
	struct pw_fn *fn = doubling(10);
	const void *in[2];
	float s[4];
	void *out[2];
	int32_t i, n;
	unsigned int k, j;

	ASSERT_NE(NULL, fn);
	ASSERT_EQ(1U, image_count_op(fn, PWTPU_OP_LOOP));
	ASSERT_EQ(1U, image_count_op(fn, PWTPU_OP_WHILE));
	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		n = ns[k];
		in[0] = &n;
		in[1] = v;
		out[0] = &i;
		out[1] = s;
		ASSERT_EQ(0, fn_run(fn, in, out)) TH_LOG("n = %d", n);
		EXPECT_EQ(n > 0 ? n : 0, i);
		for (j = 0; j < 4; j++)
			EXPECT_EQ(v[j] * (float)(1 << (n > 0 ? n : 0)), s[j])
				TH_LOG("n = %d, element %u", n, j);
	}
	/* Ten trips at most: 9 bodies, the tenth trip's test leaving... */
	n = 9;
	ASSERT_EQ(0, fn_run(fn, in, out));
	EXPECT_EQ(9, i);
	/* ... and 10 run out: the device's fault, not a wrong result. */
	n = 10;
	EXPECT_EQ(-ELOOP, fn_run(fn, in, out));
	pw_fn_put(fn);
}

/*
 * PW_FN_TRIPS_AUTO: as many trips as a run allows. The image verifies,
 * and one more trip of the body would pass the device's instructions.
 */
TEST(while_auto_trips)
{
	struct pw_fn *fn = doubling(PW_FN_TRIPS_AUTO);
	const struct pwtpu_insn *in;
	struct pwfw_prog prog;
	uint32_t n, k, trips = 0, body = 0;
	const void *args[2];
	float v[4] = { 1, 2, 3, 4 }, s[4];
	int32_t cnt = 1000, i;
	void *out[2] = { &i, s };

	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, fn_verify(fn, &prog));
	in = image_insns(fn, &n);
	for (k = 0; k < n; k++) {
		if (in[k].op != PWTPU_OP_LOOP)
			continue;
		EXPECT_EQ(PWTPU_LOOP_BOUNDED, in[k].mode);
		trips = in[k].arg[0];
		body = in[k].arg[1];
	}
	ASSERT_LT(1000U, trips);
	EXPECT_GE((uint64_t)PWTPU_MAX_DYN_INSNS, prog.dyn_insns);
	EXPECT_LT((uint64_t)PWTPU_MAX_DYN_INSNS, prog.dyn_insns + body)
		TH_LOG("%u trips of %u insns", trips, body);
	args[0] = &cnt;
	args[1] = v;
	ASSERT_EQ(0, fn_run(fn, args, out));
	EXPECT_EQ(1000, i);
	pw_fn_put(fn);
}

/*
 * The next values are one parallel assignment: (a, b, c, k) becomes
 * (b, c, a, k - 1), a rotation, while k; a variable may stay itself.
 */
TEST(while_rotates)
{
	const int32_t a[2] = { 1, 2 }, bb[2] = { 3, 4 }, c[2] = { 5, 6 };
	struct pw_fn_builder *b = pw_fn_begin("rotate");
	pw_val init[5], var[5], next[5];
	int32_t ra[2], rb[2], rc[2], rk, rz;
	void *out[5] = { ra, rb, rc, &rk, &rz };
	const void *in[3] = { a, bb, c };
	struct pw_fn *fn;

	init[0] = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(2));
	init[1] = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(2));
	init[2] = pw_fn_param(b, PWTPU_DT_I32, 1, SHAPE(2));
	init[3] = pw_fn_scalar(b, PWTPU_DT_U8, 4);
	init[4] = pw_fn_scalar(b, PWTPU_DT_I32, 9);
	ASSERT_EQ(0, pw_fn_while_begin(b, 5, init, var, 8));
	ASSERT_EQ(0, pw_fn_while_test(b, var[3]));
	next[0] = var[1];
	next[1] = var[2];
	next[2] = var[0];
	next[3] = pw_fn_binary(b, PWTPU_OP_SUB, var[3],
			       pw_fn_scalar(b, PWTPU_DT_U8, 1));
	next[4] = var[4];
	ASSERT_EQ(0, pw_fn_while_end(b, next));
	ASSERT_EQ(0, pw_fn_result(b, var[0]));
	ASSERT_EQ(0, pw_fn_result(b, var[1]));
	ASSERT_EQ(0, pw_fn_result(b, var[2]));
	ASSERT_EQ(0, pw_fn_result(b, pw_fn_convert(b, var[3], PWTPU_DT_I32)));
	ASSERT_EQ(0, pw_fn_result(b, var[4]));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, fn_run(fn, in, out));
	/* Four rotations: one turn and one more. */
	EXPECT_EQ(3, ra[0]);
	EXPECT_EQ(4, ra[1]);
	EXPECT_EQ(5, rb[0]);
	EXPECT_EQ(6, rb[1]);
	EXPECT_EQ(1, rc[0]);
	EXPECT_EQ(2, rc[1]);
	EXPECT_EQ(0, rk);
	EXPECT_EQ(9, rz);
	pw_fn_put(fn);
}

/*
 * Nested loops: for i in 0..m-1, for j in 0..i-1: t += i; the inner
 * loop's variables start from the outer's, and carry t out. t =
 * sum(i * i) for i < m.
 */
TEST(while_nested)
{
	struct pw_fn_builder *b = pw_fn_begin("nested");
	pw_val m, one, oi[2], ov[2], on[2], ii[2], iv[2], in_[2];
	static const int32_t ms[] = { 0, 1, 2, 5 };
	struct pw_fn *fn;
	int32_t mm, t, want;
	const void *in[1] = { &mm };
	void *out[1] = { &t };
	unsigned int k;

	m = pw_fn_param(b, PWTPU_DT_I32, 0, NULL);
	one = pw_fn_scalar(b, PWTPU_DT_I32, 1);
	oi[0] = pw_fn_scalar(b, PWTPU_DT_I32, 0);	/* i */
	oi[1] = pw_fn_scalar(b, PWTPU_DT_I32, 0);	/* t */
	ASSERT_EQ(0, pw_fn_while_begin(b, 2, oi, ov, PW_FN_TRIPS_AUTO));
	ASSERT_EQ(0, pw_fn_while_test(b, pw_fn_compare(b, PWTPU_CMP_LT,
							 ov[0], m)));
	ii[0] = pw_fn_scalar(b, PWTPU_DT_I32, 0);	/* j */
	ii[1] = ov[1];
	ASSERT_EQ(0, pw_fn_while_begin(b, 2, ii, iv, PW_FN_TRIPS_AUTO));
	ASSERT_EQ(0, pw_fn_while_test(b, pw_fn_compare(b, PWTPU_CMP_LT,
							 iv[0], ov[0])));
	in_[0] = pw_fn_binary(b, PWTPU_OP_ADD, iv[0], one);
	in_[1] = pw_fn_binary(b, PWTPU_OP_ADD, iv[1], ov[0]);
	ASSERT_EQ(0, pw_fn_while_end(b, in_));
	on[0] = pw_fn_binary(b, PWTPU_OP_ADD, ov[0], one);
	on[1] = iv[1];
	ASSERT_EQ(0, pw_fn_while_end(b, on));
	ASSERT_EQ(0, pw_fn_result(b, ov[1]));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(2U, image_count_op(fn, PWTPU_OP_WHILE));
	for (k = 0; k < sizeof(ms) / sizeof(ms[0]); k++) {
		mm = ms[k];
		want = (mm - 1) * mm * (2 * mm - 1) / 6;
		ASSERT_EQ(0, fn_run(fn, in, out));
		EXPECT_EQ(want, t) TH_LOG("m = %d", mm);
	}
	pw_fn_put(fn);
}

/* Loops nest PWTPU_MAX_LOOP_DEPTH deep; a test leaves the innermost. */
TEST(while_deepest)
{
	struct pw_fn_builder *b = pw_fn_begin("deep");
	pw_val init, var[PWTPU_MAX_LOOP_DEPTH], nx;
	struct pw_fn *fn;
	int32_t r;
	void *out[1] = { &r };
	int d;

	init = pw_fn_scalar(b, PWTPU_DT_I32, 0);
	for (d = 0; d < PWTPU_MAX_LOOP_DEPTH; d++) {
		ASSERT_EQ(0, pw_fn_while_begin(b, 1, d ? &var[d - 1] : &init,
					       &var[d], 4));
		ASSERT_EQ(0, pw_fn_while_test(b, pw_fn_compare(b,
				PWTPU_CMP_LT, var[d],
				pw_fn_scalar(b, PWTPU_DT_I32, 2 * (d + 1)))));
	}
	EXPECT_FAIL(b, pw_fn_while_begin(b, 1, &var[3], &nx, 4), -E2BIG,
		    "pw_fn_while_begin: loops nest deeper than the device's 4");

	b = pw_fn_begin("deep");
	init = pw_fn_scalar(b, PWTPU_DT_I32, 0);
	for (d = 0; d < PWTPU_MAX_LOOP_DEPTH; d++) {
		ASSERT_EQ(0, pw_fn_while_begin(b, 1, d ? &var[d - 1] : &init,
					       &var[d], 16));
		ASSERT_EQ(0, pw_fn_while_test(b, pw_fn_compare(b,
				PWTPU_CMP_LT, var[d],
				pw_fn_scalar(b, PWTPU_DT_I32, 2 * (d + 1)))));
	}
	/* The innermost adds 1 until 8; each outer takes it as it is. */
	for (d = PWTPU_MAX_LOOP_DEPTH - 1; d >= 0; d--) {
		nx = d == PWTPU_MAX_LOOP_DEPTH - 1 ?
		     pw_fn_binary(b, PWTPU_OP_ADD, var[d],
				  pw_fn_scalar(b, PWTPU_DT_I32, 1)) :
		     var[d + 1];
		ASSERT_EQ(0, pw_fn_while_end(b, &nx));
	}
	ASSERT_EQ(0, pw_fn_result(b, var[0]));
	ASSERT_EQ(0, pw_fn_build(b, &fn)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, fn_run(fn, NULL, out));
	EXPECT_EQ(8, r);
	pw_fn_put(fn);
}

/* Misuse of the loop calls: each refused with its errno and message. */
TEST(err_while)
{
	struct pw_fn_builder *b;
	struct pw_fn *fn;
	pw_val x, v[2], y, f;

	b = pw_fn_begin("w");
	x = pw_fn_scalar(b, PWTPU_DT_I32, 1);
	EXPECT_FAIL(b, pw_fn_while_test(b, x), -EINVAL,
		    "pw_fn_while_test: no loop is open (pw_fn_while_begin)");
	b = pw_fn_begin("w");
	EXPECT_FAIL(b, pw_fn_while_end(b, NULL), -EINVAL,
		    "pw_fn_while_end: no loop is open");
	b = pw_fn_begin("w");
	x = pw_fn_scalar(b, PWTPU_DT_I32, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	EXPECT_FAIL(b, pw_fn_while_end(b, v), -EINVAL,
		    "pw_fn_while_end: the loop has no pw_fn_while_test(): it could never end");
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_I8, 1, SHAPE(3));
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	EXPECT_FAIL(b, pw_fn_while_test(b, v[0]), -EINVAL,
		    "pw_fn_while_test: the predicate i8[3] is not a scalar (rank 0)");
	b = pw_fn_begin("w");
	x = pw_fn_scalar(b, PWTPU_DT_F32, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	EXPECT_FAIL(b, pw_fn_while_test(b, v[0]), -EINVAL,
		    "the predicate f32[] is not an integer");
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	ASSERT_EQ(0, pw_fn_while_test(b, y));
	f = pw_fn_slice(b, v[0], SHAPE(0), SHAPE(3));
	EXPECT_FAIL(b, pw_fn_while_end(b, &f), -EINVAL,
		    "pw_fn_while_end: next[0] is f32[3] but variable 0 is f32[4]");
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	ASSERT_EQ(0, pw_fn_while_test(b, y));
	f = pw_fn_convert(b, v[0], PWTPU_DT_F64);
	EXPECT_FAIL(b, pw_fn_while_end(b, &f), -EINVAL,
		    "next[0] is f64[4] but variable 0 is f32[4]");
	/* A value of an ended loop: not after it, not as a result. */
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	ASSERT_EQ(0, pw_fn_while_test(b, y));
	f = pw_fn_unary(b, PWTPU_OP_NEG, v[0]);
	ASSERT_EQ(0, pw_fn_while_end(b, &f));
	ASSERT_LE(0, pw_fn_unary(b, PWTPU_OP_NEG, v[0]));
	ASSERT_LE(0, pw_fn_unary(b, PWTPU_OP_NEG, x));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_NEG, f), -EINVAL,
		    "pw_fn_unary(NEG): value 3 was made inside a loop that has ended (pw_fn_while_end): carry it out in a loop variable");
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(4));
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	ASSERT_EQ(0, pw_fn_while_test(b, y));
	f = pw_fn_unary(b, PWTPU_OP_NEG, v[0]);
	EXPECT_FAIL(b, pw_fn_result(b, f), -EINVAL,
		    "pw_fn_result: value 3 is made inside a loop");
	/* An inner loop's value, in the outer loop after it. */
	b = pw_fn_begin("w");
	x = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	ASSERT_EQ(0, pw_fn_while_test(b, v[0]));
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &v[0], &v[1], 4));
	ASSERT_EQ(0, pw_fn_while_test(b, v[1]));
	f = pw_fn_unary(b, PWTPU_OP_NEG, v[1]);
	ASSERT_EQ(0, pw_fn_while_end(b, &f));
	EXPECT_FAIL(b, pw_fn_while_end(b, &f), -EINVAL,
		    "was made inside a loop that has ended");
	/* Open at the end. */
	b = pw_fn_begin("w");
	x = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &x, v, 4));
	ASSERT_EQ(0, pw_fn_while_test(b, v[0]));
	ASSERT_EQ(0, pw_fn_result(b, v[0]));
	fn = NULL;
	EXPECT_EQ(-EINVAL, pw_fn_build(b, &fn));
	EXPECT_NULL(fn);
	EXPECT_NE(NULL, strstr(pw_last_error(),
			       "pw_fn_build(w): 1 loops of pw_fn_while_begin() are not ended"))
		TH_LOG("%s", pw_last_error());
	/* Arguments. */
	b = pw_fn_begin("w");
	EXPECT_FAIL(b, pw_fn_while_begin(b, 2, NULL, v, 4), -EINVAL,
		    "pw_fn_while_begin: 2 variables but no init or vars");
	b = pw_fn_begin("w");
	x = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	EXPECT_FAIL(b, pw_fn_while_begin(b, 1, &x, v, PWTPU_MAX_TRIPS + 1),
		    -EINVAL, "1048577 trips, more than the device's 1048576");
	b = pw_fn_begin("w");
	x = -7;
	EXPECT_FAIL(b, pw_fn_while_begin(b, 1, &x, v, 4), -EINVAL,
		    "pw_fn_while_begin: value -7 does not exist");
}

/* The device's bounds count each op as often as its loops run it. */
TEST(err_while_bounds)
{
	struct pw_fn_builder *b;
	pw_val x, v[2], y;
	int k;

	/*
	 * The init's copy and the LOOP, then 2^20 trips of the test and 3
	 * ops: two past 2^22 instructions.
	 */
	b = pw_fn_begin("w");
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &y, v, PWTPU_MAX_TRIPS));
	ASSERT_EQ(0, pw_fn_while_test(b, v[0]));
	for (k = 0; k < 2; k++)
		ASSERT_LE(0, pw_fn_unary(b, PWTPU_OP_NEG, v[0]));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_NEG, v[0]), -E2BIG,
		    "pw_fn_unary(NEG): a run of the function executes more than the device's 4194304 instructions");
	/* Loops inside loops multiply. */
	b = pw_fn_begin("w");
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &y, v, 4096));
	EXPECT_FAIL(b, pw_fn_while_begin(b, 1, &v[0], &v[1], 2048), -E2BIG,
		    "2048 trips in loops that run 4096 times");
	/* Work: 2^16 trips of 2^19 elements is 2^35 units. */
	b = pw_fn_begin("w");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, SHAPE(1U << 19));
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &y, v, 1U << 16));
	ASSERT_EQ(0, pw_fn_while_test(b, v[0]));
	EXPECT_FAIL(b, pw_fn_unary(b, PWTPU_OP_NEG, x), -E2BIG,
		    "the function's work passes the device's 17179869184 units");
	/* Delays: 2^20 trips of 10 us pass 10 s. */
	b = pw_fn_begin("w");
	y = pw_fn_scalar(b, PWTPU_DT_I8, 1);
	ASSERT_EQ(0, pw_fn_while_begin(b, 1, &y, v, PWTPU_MAX_TRIPS));
	EXPECT_FAIL(b, pw_fn_delay(b, 10000), -E2BIG,
		    "delays add up to more than 10000000000 ns per run");
}

TEST_HARNESS_MAIN
