/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ops_util.h - what the firmware op tests share: host memory bound as
 * buffer 0, a program built in it with pwprog, one run through
 * pwfw_verify() and pwfw_exec(), and float helpers for references that
 * do not reuse the firmware's code.
 */
#ifndef OPS_UTIL_H
#define OPS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "pwtpu/pwprog.h"
#include "../../firmware/pwfw.h"

#define OPS_MAX_TENSORS	64
#define OPS_POISON	0xa5	/* fills fresh tensors: unwritten shows */
#define OPS_VERIFY_FAILED	(-1000)

/**
 * struct ops - a program under test and the memory it runs on
 * @p: the builder; tensors live in binding 0.
 * @mem: binding 0, 64-byte aligned.
 * @size: bytes at @mem.
 * @used: bytes handed out to tensors.
 * @offset: each tensor's offset in @mem.
 * @array_dim: spec array_dim for the run, 0 for the default spec's.
 * @prog: the verified program of the last run.
 * @verr: the verifier's verdict of the last run.
 */
struct ops {
	struct pwprog *p;
	unsigned char *mem;
	size_t size;
	size_t used;
	uint64_t offset[OPS_MAX_TENSORS];
	uint32_t array_dim;
	struct pwfw_prog prog;
	struct pwfw_verr verr;
};

/* 0, or -1 when out of memory. */
int ops_init(struct ops *o, size_t size);
void ops_fini(struct ops *o);

/* A poisoned tensor of @rank unsigned int extents; index or -errno. */
int ops_tensor(struct ops *o, enum pwtpu_dtype dtype, uint32_t rank, ...);
/* Same, extents from an array. */
int ops_tensor_shape(struct ops *o, enum pwtpu_dtype dtype, uint32_t rank,
		     const uint32_t *shape);
void *ops_ptr(const struct ops *o, int t);

/*
 * Verify the program (printing the verifier's message if it fails) and
 * run it once on @mem: pwfw_exec()'s result, or OPS_VERIFY_FAILED.
 */
int ops_run(struct ops *o);
/*
 * The same with @env for pwfw_exec() (NULL: none); an env->spec of NULL
 * is left NULL. o->prog's counts stay valid after, not its pointers.
 */
int ops_run_env(struct ops *o, struct pwfw_exec_env *env);

/* Run once with the SIMD paths on, once off; restores the default. */
int ops_run_simd(struct ops *o, int simd);

/* Deterministic pseudo-random numbers (xorshift32; seed != 0). */
uint32_t ops_rand(uint32_t *state);
/* Uniform in [lo, hi). */
float ops_rand_float(uint32_t *state, float lo, float hi);

uint32_t f32_bits(float f);
float f32_from_bits(uint32_t u);
float bf16_widen(uint16_t h);
/*
 * f32 -> bf16, round to nearest even, written independently of the
 * firmware: pick the nearer of the two neighbours by exact double
 * arithmetic. A NaN maps to some NaN.
 */
uint16_t ref_bf16(float f);
int bf16_isnan(uint16_t h);

/* Distance in ulps between two non-NaN floats (+0 and -0 are 0 apart). */
uint32_t ulp_diff(float a, float b);
/* Same for bf16 bit patterns. */
uint32_t ulp_diff_bf16(uint16_t a, uint16_t b);

/* Same bits, or both NaN. */
int f32_same(float a, float b);
int bf16_same(uint16_t a, uint16_t b);

/*
 * Binary floating-point formats by their field widths (f16: 5 and 10
 * bits, bf16: 8 and 7, f32: 8 and 23, f64: 11 and 52), for references
 * independent of the firmware's integer rounding: the value of a bit
 * pattern, exactly, in long double (inf and NaN as such), and the
 * pattern nearest to an exact value, found by bisection over the
 * patterns and a comparison of the distances to the two neighbours in
 * long double arithmetic; ties to the even pattern, and past the largest
 * finite value by half an ulp to inf. A NaN gives the positive quiet NaN.
 */
long double fmt_value(uint64_t bits, int ebits, int mbits);
uint64_t fmt_round(long double x, int ebits, int mbits);
int fmt_isnan(uint64_t bits, int ebits, int mbits);

#define F16_E	5
#define F16_M	10
static inline long double f16_value(uint16_t h)
{
	return fmt_value(h, F16_E, F16_M);
}

static inline uint16_t ref_f16(long double x)
{
	return (uint16_t)fmt_round(x, F16_E, F16_M);
}

static inline int f16_isnan(uint16_t h)
{
	return fmt_isnan(h, F16_E, F16_M);
}

/* Same bits, or both NaN. */
int f16_same(uint16_t a, uint16_t b);
int f64_same(double a, double b);
uint64_t f64_bits(double d);
double f64_from_bits(uint64_t u);

#endif /* OPS_UTIL_H */
