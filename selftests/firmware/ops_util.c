// SPDX-License-Identifier: GPL-2.0
/*
 * ops_util.c - shared helpers of the firmware op tests; see ops_util.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_util.h"

int ops_init(struct ops *o, size_t size)
{
	memset(o, 0, sizeof(*o));
	o->size = (size + 63) & ~(size_t)63;
	o->mem = aligned_alloc(64, o->size ? o->size : 64);
	o->p = pwprog_new(1);
	if (!o->mem || !o->p) {
		ops_fini(o);
		return -1;
	}
	return 0;
}

void ops_fini(struct ops *o)
{
	pwprog_free(o->p);
	free(o->mem);
	o->p = NULL;
	o->mem = NULL;
}

int ops_tensor_shape(struct ops *o, enum pwtpu_dtype dtype, uint32_t rank,
		     const uint32_t *shape)
{
	size_t bytes = pwfw_dtype_size(dtype);
	uint32_t k;
	int t;

	for (k = 0; k < rank; k++)
		bytes *= shape[k];
	if (o->used + bytes > o->size)
		return -ENOSPC;
	t = pwprog_tensor(o->p, dtype, rank, shape, 0, o->used);
	if (t < 0)
		return t;
	if (t >= OPS_MAX_TENSORS)
		return -ENOSPC;
	o->offset[t] = o->used;
	memset(o->mem + o->used, OPS_POISON, bytes);
	o->used = (o->used + bytes + 63) & ~(size_t)63;
	return t;
}

int ops_tensor(struct ops *o, enum pwtpu_dtype dtype, uint32_t rank, ...)
{
	uint32_t shape[PWTPU_MAX_RANK] = { 0 };
	va_list ap;
	uint32_t k;

	if (rank > PWTPU_MAX_RANK)
		return -EINVAL;
	va_start(ap, rank);
	for (k = 0; k < rank; k++)
		shape[k] = va_arg(ap, unsigned int);
	va_end(ap);
	return ops_tensor_shape(o, dtype, rank, shape);
}

void *ops_ptr(const struct ops *o, int t)
{
	return o->mem + o->offset[t];
}

int ops_run(struct ops *o)
{
	return ops_run_env(o, NULL);
}

int ops_run_env(struct ops *o, struct pwfw_exec_env *env)
{
	struct pwfw_spec spec;
	struct pwfw_buf buf = { .base = o->mem, .size = o->size };
	size_t size;
	void *img;
	int ret;

	pwfw_spec_default(&spec);
	if (o->array_dim)
		spec.array_dim = o->array_dim;
	img = pwprog_image(o->p, &size);
	if (!img)
		return -ENOMEM;
	ret = pwfw_verify(img, size, &spec, &o->prog, &o->verr);
	if (ret) {
		fprintf(stderr, "# verifier: %s (code %d)\n", o->verr.msg,
			o->verr.code);
		free(img);
		return OPS_VERIFY_FAILED;
	}
	ret = pwfw_exec(&o->prog, &buf, 1, env);
	free(img);
	return ret;
}

int ops_run_simd(struct ops *o, int simd)
{
	int ret;

	setenv("PWFW_SIMD", simd ? "1" : "0", 1);
	ret = ops_run(o);
	unsetenv("PWFW_SIMD");
	return ret;
}

uint32_t ops_rand(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

float ops_rand_float(uint32_t *state, float lo, float hi)
{
	return lo + (hi - lo) * (float)((ops_rand(state) >> 8) * 0x1p-24);
}

uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

float f32_from_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

float bf16_widen(uint16_t h)
{
	return f32_from_bits((uint32_t)h << 16);
}

int bf16_isnan(uint16_t h)
{
	return isnan(bf16_widen(h));
}

/* The value of bf16 pattern @h, reading the all-ones exponent as 2^128. */
static double bf16_value_unbounded(uint16_t h)
{
	if ((h & 0x7fff) == 0x7f80)
		return (h & 0x8000) ? -0x1p128 : 0x1p128;
	return bf16_widen(h);
}

uint16_t ref_bf16(float f)
{
	uint16_t down, up;
	double dd, du;

	if (isnan(f))
		return 0x7fc0;
	if (isinf(f))
		return (uint16_t)(f32_bits(f) >> 16);
	/* Truncation goes toward zero; the other neighbour is one up. */
	down = (uint16_t)(f32_bits(f) >> 16);
	up = (uint16_t)(down + 1);
	dd = fabs((double)f - bf16_value_unbounded(down));
	du = fabs(bf16_value_unbounded(up) - (double)f);
	if (dd < du)
		return down;
	if (du < dd)
		return up;
	return (down & 1) ? up : down;
}

/* Floats as integers in the order of their values. */
static int64_t f32_ordered(float f)
{
	uint32_t u = f32_bits(f);

	return (u & 0x80000000U) ? -(int64_t)(u & 0x7fffffffU) : (int64_t)u;
}

uint32_t ulp_diff(float a, float b)
{
	int64_t d = f32_ordered(a) - f32_ordered(b);

	return (uint32_t)(d < 0 ? -d : d);
}

uint32_t ulp_diff_bf16(uint16_t a, uint16_t b)
{
	return ulp_diff(bf16_widen(a), bf16_widen(b)) >> 16;
}

int f32_same(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return f32_bits(a) == f32_bits(b);
}

int bf16_same(uint16_t a, uint16_t b)
{
	if (bf16_isnan(a) || bf16_isnan(b))
		return bf16_isnan(a) && bf16_isnan(b);
	return a == b;
}

long double fmt_value(uint64_t bits, int ebits, int mbits)
{
	uint64_t frac = bits & ((1ULL << mbits) - 1);
	int bias = (1 << (ebits - 1)) - 1;
	int e = (int)(bits >> mbits) & ((1 << ebits) - 1);
	int neg = (int)(bits >> (ebits + mbits)) & 1;
	long double v;

	if (e == (1 << ebits) - 1)
		v = frac ? NAN : INFINITY;
	else if (!e)
		v = ldexpl((long double)frac, 1 - bias - mbits);
	else
		v = ldexpl((long double)(frac | 1ULL << mbits),
			   e - bias - mbits);
	return neg ? -v : v;
}

int fmt_isnan(uint64_t bits, int ebits, int mbits)
{
	uint64_t mag = bits & ((1ULL << (ebits + mbits)) - 1);

	return mag > ((1ULL << ebits) - 1) << mbits;
}

/* Positive pattern @p, the infinity pattern read as the next binade. */
static long double fmt_value_unbounded(uint64_t p, int ebits, int mbits)
{
	uint64_t inf = ((1ULL << ebits) - 1) << mbits;
	int bias = (1 << (ebits - 1)) - 1;

	if (p >= inf)
		return ldexpl(1.0L, bias + 1);
	return fmt_value(p, ebits, mbits);
}

uint64_t fmt_round(long double x, int ebits, int mbits)
{
	uint64_t inf = ((1ULL << ebits) - 1) << mbits;
	uint64_t sign = (uint64_t)(signbit(x) != 0) << (ebits + mbits);
	uint64_t lo = 0, hi = inf, mid, down, up;
	long double a = fabsl(x), dd, du;

	if (isnan(x))
		return inf | 1ULL << (mbits - 1);
	if (a >= fmt_value_unbounded(inf, ebits, mbits))
		return sign | inf;
	/* The largest pattern whose value is at most a: in [lo, hi). */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (fmt_value(mid, ebits, mbits) <= a)
			lo = mid;
		else
			hi = mid;
	}
	down = lo;
	up = lo + 1;
	dd = a - fmt_value(down, ebits, mbits);
	du = fmt_value_unbounded(up, ebits, mbits) - a;
	if (dd < du)
		return sign | down;
	if (du < dd)
		return sign | up;
	return sign | ((down & 1) ? up : down);
}

int f16_same(uint16_t a, uint16_t b)
{
	if (f16_isnan(a) || f16_isnan(b))
		return f16_isnan(a) && f16_isnan(b);
	return a == b;
}

uint64_t f64_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

double f64_from_bits(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

int f64_same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return f64_bits(a) == f64_bits(b);
}
