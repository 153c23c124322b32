// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_transformer.c - Table 1's model (pwbench_transformer.h): one
 * training step of a decoder block as one compiled function.
 *
 * Forward, per device (s = 1 / sqrt(D), M the causal mask):
 *   E = X Emb;  [Q K Vv] = E Wqkv;  P = softmax(Q K^T s + M);  A = P Vv
 *   H1 = E + A Wo;  Z = tanh(H1 W1);  H2 = H1 + Z W2;  L = H2 Emb^T
 *   loss = -sum(Y log softmax(L)) / T
 * Backward by hand, in the reverse order; dWqkv's three column blocks
 * are put side by side by matmuls with constant selectors (the device
 * has no concatenation). Then SGD: W -= lr / n * sum over the slice.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pwbench_transformer.h"

#define T	PWP_TF_T
#define V	PWP_TF_V
#define D	PWP_TF_D
#define F	PWP_TF_F
#define MASKED	(-1e9f)

static const uint32_t tr[2] = { 1, 0 };

void pwp_tf_shape(enum pwp_tf_weight w, uint32_t shape[2])
{
	static const uint32_t shapes[PWP_TF_NWEIGHTS][2] = {
		[PWP_TF_EMB] = { V, D },
		[PWP_TF_QKV] = { D, 3 * D },
		[PWP_TF_O] = { D, D },
		[PWP_TF_W1] = { D, F },
		[PWP_TF_W2] = { F, D },
	};

	shape[0] = shapes[w][0];
	shape[1] = shapes[w][1];
}

size_t pwp_tf_elems(enum pwp_tf_weight w)
{
	uint32_t s[2];

	pwp_tf_shape(w, s);
	return (size_t)s[0] * s[1];
}

/* Shorthands over the builder; its errors stick until pw_fn_build(). */
struct tf {
	struct pw_fn_builder *b;
};

static pw_val mm(struct tf *t, pw_val x, pw_val y)
{
	return pw_fn_matmul(t->b, x, y);
}

static pw_val tp(struct tf *t, pw_val x)
{
	return pw_fn_transpose(t->b, x, tr);
}

static pw_val op(struct tf *t, enum pwtpu_op o, pw_val x, pw_val y)
{
	return pw_fn_binary(t->b, o, x, y);
}

static pw_val scale(struct tf *t, pw_val x, double k)
{
	return op(t, PWTPU_OP_MUL, x, pw_fn_scalar(t->b, PWTPU_DT_F32, k));
}

/* [rows, cols] -> reduce over the columns, as [rows, cols] again. */
static pw_val row_bcast(struct tf *t, enum pwtpu_reduce mode, pw_val x,
			uint32_t rows, uint32_t cols)
{
	const uint32_t col[2] = { rows, 1 }, full[2] = { rows, cols };
	pw_val r = pw_fn_reduce(t->b, mode, x, 2);

	return pw_fn_broadcast(t->b, pw_fn_reshape(t->b, r, 2, col), 2, full);
}

/* Row softmax of [rows, cols] @x; its log too when @logp. */
static pw_val softmax(struct tf *t, pw_val x, uint32_t rows, uint32_t cols,
		      pw_val *logp)
{
	pw_val sh = op(t, PWTPU_OP_SUB, x,
		       row_bcast(t, PWTPU_REDUCE_MAX, x, rows, cols));
	pw_val ex = pw_fn_unary(t->b, PWTPU_OP_EXP, sh);
	pw_val z = row_bcast(t, PWTPU_REDUCE_SUM, ex, rows, cols);

	if (logp)
		*logp = op(t, PWTPU_OP_SUB, sh,
			   pw_fn_unary(t->b, PWTPU_OP_LOG, z));
	return op(t, PWTPU_OP_DIV, ex, z);
}

/* Columns @k*D.. of [T, 3D] @x. */
static pw_val third(struct tf *t, pw_val x, unsigned int k)
{
	const uint32_t start[2] = { 0, k * D }, shape[2] = { T, D };

	return pw_fn_slice(t->b, x, start, shape);
}

/* [D, 3D] placing a [.., D] block at columns @k*D.. when multiplied. */
static pw_val selector(struct tf *t, unsigned int k)
{
	static float sel[3][D * 3 * D];
	const uint32_t shape[2] = { D, 3 * D };
	unsigned int i;

	memset(sel[k], 0, sizeof(sel[k]));
	for (i = 0; i < D; i++)
		sel[k][i * 3 * D + k * D + i] = 1.0f;
	return pw_fn_const(t->b, PWTPU_DT_F32, 2, shape, sel[k]);
}

static pw_val causal_mask(struct tf *t)
{
	static float m[T * T];
	const uint32_t shape[2] = { T, T };
	unsigned int i, j;

	for (i = 0; i < T; i++)
		for (j = 0; j < T; j++)
			m[i * T + j] = j > i ? MASKED : 0.0f;
	return pw_fn_const(t->b, PWTPU_DT_F32, 2, shape, m);
}

int pwp_tf_step_fn(unsigned int ndev, struct pw_fn **fn)
{
	const uint32_t sx[2] = { T, V };
	const double s = 1.0 / sqrt(D);
	struct tf t = { pw_fn_begin("transformer_step") };
	pw_val w[PWP_TF_NWEIGHTS], g[PWP_TF_NWEIGHTS];
	pw_val x, y, e, qkv, q, k, vv, p, a, h1, z, h2, lg, pr, logp, loss;
	pw_val dlg, dh2, dz, du, dh1, da, dp, dvv, ds, dq, dk, dqkv, de;
	unsigned int i;

	if (!ndev)
		return -EINVAL;
	for (i = 0; i < PWP_TF_NWEIGHTS; i++) {
		uint32_t shape[2];

		pwp_tf_shape(i, shape);
		w[i] = pw_fn_param(t.b, PWTPU_DT_F32, 2, shape);
	}
	x = pw_fn_param(t.b, PWTPU_DT_F32, 2, sx);
	y = pw_fn_param(t.b, PWTPU_DT_F32, 2, sx);

	/* Forward. */
	e = mm(&t, x, w[PWP_TF_EMB]);
	qkv = mm(&t, e, w[PWP_TF_QKV]);
	q = third(&t, qkv, 0);
	k = third(&t, qkv, 1);
	vv = third(&t, qkv, 2);
	p = softmax(&t, op(&t, PWTPU_OP_ADD, scale(&t, mm(&t, q, tp(&t, k)), s),
			   causal_mask(&t)), T, T, NULL);
	a = mm(&t, p, vv);
	h1 = op(&t, PWTPU_OP_ADD, e, mm(&t, a, w[PWP_TF_O]));
	z = pw_fn_unary(t.b, PWTPU_OP_TANH, mm(&t, h1, w[PWP_TF_W1]));
	h2 = op(&t, PWTPU_OP_ADD, h1, mm(&t, z, w[PWP_TF_W2]));
	lg = mm(&t, h2, tp(&t, w[PWP_TF_EMB]));
	pr = softmax(&t, lg, T, V, &logp);
	loss = pw_fn_reduce(t.b, PWTPU_REDUCE_SUM, op(&t, PWTPU_OP_MUL, y, logp),
			    3);
	loss = scale(&t, loss, -1.0 / T);

	/* Backward. */
	dlg = scale(&t, op(&t, PWTPU_OP_SUB, pr, y), 1.0 / T);
	g[PWP_TF_EMB] = mm(&t, tp(&t, dlg), h2);
	dh2 = mm(&t, dlg, w[PWP_TF_EMB]);
	g[PWP_TF_W2] = mm(&t, tp(&t, z), dh2);
	dz = mm(&t, dh2, tp(&t, w[PWP_TF_W2]));
	du = op(&t, PWTPU_OP_MUL, dz,
		op(&t, PWTPU_OP_SUB, pw_fn_scalar(t.b, PWTPU_DT_F32, 1.0),
		   op(&t, PWTPU_OP_MUL, z, z)));
	g[PWP_TF_W1] = mm(&t, tp(&t, h1), du);
	dh1 = op(&t, PWTPU_OP_ADD, dh2, mm(&t, du, tp(&t, w[PWP_TF_W1])));
	g[PWP_TF_O] = mm(&t, tp(&t, a), dh1);
	da = mm(&t, dh1, tp(&t, w[PWP_TF_O]));
	dp = mm(&t, da, tp(&t, vv));
	dvv = mm(&t, tp(&t, p), da);
	ds = op(&t, PWTPU_OP_MUL, p,
		op(&t, PWTPU_OP_SUB, dp,
		   row_bcast(&t, PWTPU_REDUCE_SUM, op(&t, PWTPU_OP_MUL, dp, p),
			     T, T)));
	dq = scale(&t, mm(&t, ds, k), s);
	dk = scale(&t, mm(&t, tp(&t, ds), q), s);
	dqkv = op(&t, PWTPU_OP_ADD,
		  op(&t, PWTPU_OP_ADD, mm(&t, dq, selector(&t, 0)),
		     mm(&t, dk, selector(&t, 1))),
		  mm(&t, dvv, selector(&t, 2)));
	g[PWP_TF_QKV] = mm(&t, tp(&t, e), dqkv);
	de = op(&t, PWTPU_OP_ADD, dh1, mm(&t, dqkv, tp(&t, w[PWP_TF_QKV])));
	g[PWP_TF_EMB] = op(&t, PWTPU_OP_ADD, g[PWP_TF_EMB],
			   mm(&t, tp(&t, x), de));

	/* SGD with the slice's mean gradient; the slice's mean loss. */
	for (i = 0; i < PWP_TF_NWEIGHTS; i++)
		pw_fn_result(t.b, op(&t, PWTPU_OP_SUB, w[i],
				     scale(&t, pw_fn_all_reduce(t.b,
						PWTPU_REDUCE_SUM, g[i]),
					   PWP_TF_LR / ndev)));
	pw_fn_result(t.b, scale(&t, pw_fn_all_reduce(t.b, PWTPU_REDUCE_SUM,
						     loss), 1.0 / ndev));
	return pw_fn_build(t.b, fn);
}

int pwp_tf_args(struct pw_client *cl, struct pw_slice *slice,
		float *const w[PWP_TF_NWEIGHTS], const float *x, const float *y,
		struct pw_buffer **in)
{
	const uint32_t sx[2] = { T, V };
	unsigned int k;
	int ret = 0;

	memset(in, 0, (PWP_TF_NWEIGHTS + 2) * sizeof(*in));
	for (k = 0; k < PWP_TF_NWEIGHTS && !ret; k++) {
		uint32_t shape[2];

		pwp_tf_shape(k, shape);
		ret = pw_buffer_from_host(cl, slice, PWTPU_DT_F32, 2, shape,
					  w[k], true, &in[k]);
	}
	if (!ret)
		ret = pw_buffer_from_host(cl, slice, PWTPU_DT_F32, 2, sx, x,
					  false, &in[PWP_TF_X]);
	if (!ret)
		ret = pw_buffer_from_host(cl, slice, PWTPU_DT_F32, 2, sx, y,
					  false, &in[PWP_TF_Y]);
	return ret;
}

/* A fixed, portable pseudo-random sequence in [-1, 1). */
static float rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

void pwp_tf_init_weights(unsigned int seed, float *const w[PWP_TF_NWEIGHTS])
{
	unsigned int k;
	size_t i;

	for (k = 0; k < PWP_TF_NWEIGHTS; k++) {
		uint32_t shape[2];
		float amp;

		pwp_tf_shape(k, shape);
		/* About unit activations: 1 / sqrt(fan-in), and more for Emb. */
		amp = k == PWP_TF_EMB ? 1.0f : 1.0f / sqrtf((float)shape[0]);
		for (i = 0; i < pwp_tf_elems(k); i++)
			w[k][i] = amp * rnd(&seed);
	}
}

void pwp_tf_data(unsigned int dev, float *x, float *y)
{
	const unsigned int step = 3, start = (dev * 7 + 1) % V;
	unsigned int i;

	memset(x, 0, T * V * sizeof(*x));
	memset(y, 0, T * V * sizeof(*y));
	for (i = 0; i < T; i++) {
		x[i * V + (start + i * step) % V] = 1.0f;
		y[i * V + (start + (i + 1) * step) % V] = 1.0f;
	}
}

/* out[r][c] = sum_k a[r][k] b[k][c] (b transposed: b[c][k]). */
static void host_mm(const double *a, const double *b, bool bt, double *out,
		    unsigned int rows, unsigned int inner, unsigned int cols)
{
	unsigned int r, c, k;

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			double sum = 0;

			for (k = 0; k < inner; k++)
				sum += a[r * inner + k] *
				       (bt ? b[c * inner + k] : b[k * cols + c]);
			out[r * cols + c] = sum;
		}
}

static double *widen(const float *f, size_t n)
{
	double *d = malloc(n * sizeof(*d));
	size_t i;

	for (i = 0; d && i < n; i++)
		d[i] = f[i];
	return d;
}

/* Softmax of each row of [rows, cols] @x in place; the log into @logp. */
static void host_softmax(double *x, unsigned int rows, unsigned int cols,
			 double *logp)
{
	unsigned int r, c;

	for (r = 0; r < rows; r++) {
		double *row = x + (size_t)r * cols, m = row[0], z = 0;

		for (c = 1; c < cols; c++)
			m = row[c] > m ? row[c] : m;
		for (c = 0; c < cols; c++)
			z += exp(row[c] - m);
		for (c = 0; c < cols; c++) {
			if (logp)
				logp[r * cols + c] = row[c] - m - log(z);
			row[c] = exp(row[c] - m) / z;
		}
	}
}

double pwp_tf_host_loss(const float *const w[PWP_TF_NWEIGHTS],
			const float *x, const float *y)
{
	double *wd[PWP_TF_NWEIGHTS], *xd = widen(x, T * V);
	static double e[T * D], qkv[T * 3 * D], q[T * D], k[T * D], vv[T * D];
	static double s[T * T], a[T * D], h1[T * D], z[T * F], h2[T * D];
	static double lg[T * V], logp[T * V], tmp[T * F];
	double loss = 0;
	unsigned int i, j;
	bool ok = xd;

	for (i = 0; i < PWP_TF_NWEIGHTS; i++) {
		wd[i] = widen(w[i], pwp_tf_elems(i));
		ok = ok && wd[i];
	}
	if (!ok) {
		loss = NAN;
		goto out;
	}
	host_mm(xd, wd[PWP_TF_EMB], false, e, T, V, D);
	host_mm(e, wd[PWP_TF_QKV], false, qkv, T, D, 3 * D);
	for (i = 0; i < T; i++)
		for (j = 0; j < D; j++) {
			q[i * D + j] = qkv[i * 3 * D + j];
			k[i * D + j] = qkv[i * 3 * D + D + j];
			vv[i * D + j] = qkv[i * 3 * D + 2 * D + j];
		}
	host_mm(q, k, true, s, T, D, T);
	for (i = 0; i < T; i++)
		for (j = 0; j < T; j++)
			s[i * T + j] = s[i * T + j] / sqrt(D) +
				       (j > i ? MASKED : 0.0);
	host_softmax(s, T, T, NULL);
	host_mm(s, vv, false, a, T, T, D);
	host_mm(a, wd[PWP_TF_O], false, h1, T, D, D);
	for (i = 0; i < T * D; i++)
		h1[i] += e[i];
	host_mm(h1, wd[PWP_TF_W1], false, z, T, D, F);
	for (i = 0; i < T * F; i++)
		z[i] = tanh(z[i]);
	host_mm(z, wd[PWP_TF_W2], false, tmp, T, F, D);
	for (i = 0; i < T * D; i++)
		h2[i] = h1[i] + tmp[i];
	host_mm(h2, wd[PWP_TF_EMB], true, lg, T, D, V);
	host_softmax(lg, T, V, logp);
	for (i = 0; i < T * V; i++)
		loss -= y[i] * logp[i];
	loss /= T;
out:
	free(xd);
	for (i = 0; i < PWP_TF_NWEIGHTS; i++)
		free(wd[i]);
	return loss;
}
