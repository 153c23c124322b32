// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_round.c - the exact float ops: FLOOR, CEIL, ROUND_EVEN,
 * ROUND_AFZ, REDUCE_PRECISION and REM of floats. Run inside an FPU
 * section like every float kernel, but integer code: each works on the
 * bits of its dtype's own format (f16, bf16, f32, f64 alike), so the
 * results are exact by construction and the same on every CPU.
 *
 * A format is its exponent and fraction widths E and M (f16 5 and 10,
 * bf16 8 and 7, f32 8 and 23, f64 11 and 52); bits are held in a u64.
 * Semantics: include/uapi/pwtpu.h, docs/firmware-ops.md.
 */
#include "pwfw_fpu.h"

/**
 * struct pwfw_fmt_bits - a binary float format
 * @ebits: exponent bits E.
 * @mbits: fraction bits M.
 * @sign: the sign bit, 1 << (E + M).
 * @inf: the bits of +inf, the exponent field all ones.
 * @bias: the exponent bias, 2^(E - 1) - 1.
 */
struct pwfw_fmt_bits {
	u32 ebits;
	u32 mbits;
	u64 sign;
	u64 inf;
	s32 bias;
};

static __always_inline struct pwfw_fmt_bits pwfw_fmt_of(u32 ebits, u32 mbits)
{
	struct pwfw_fmt_bits f = {
		.ebits = ebits,
		.mbits = mbits,
		.sign = 1ULL << (ebits + mbits),
		.inf = ((1ULL << ebits) - 1) << mbits,
		.bias = (1 << (ebits - 1)) - 1,
	};

	return f;
}

static __always_inline u64 pwfw_quiet_bits(const struct pwfw_fmt_bits *f,
					   u64 u)
{
	return u | 1ULL << (f->mbits - 1);
}

/*
 * FLOOR, CEIL, ROUND_EVEN, ROUND_AFZ of the value with bits @u: the
 * fraction bits below the binary point are cleared, and one unit added
 * to the magnitude where the mode rounds it up (a carry into the
 * exponent field is the next binade, as it should be).
 */
static __always_inline u64 pwfw_round_int(u32 op,
					  const struct pwfw_fmt_bits *f, u64 u)
{
	u64 mag = u & (f->sign - 1), sign = u & f->sign;
	u64 one = (u64)f->bias << f->mbits, half_bits;
	s32 e = (s32)(mag >> f->mbits) - f->bias;
	u64 mask, frac, t, unit;
	bool neg = sign != 0;

	if (mag >= f->inf)
		return mag > f->inf ? pwfw_quiet_bits(f, u) : u;
	if (e >= (s32)f->mbits || !mag)
		return u;
	if (e < 0) {
		/* |x| < 1, subnormals included: +-0 or +-1. */
		half_bits = (u64)(f->bias - 1) << f->mbits;
		switch (op) {
		case PWTPU_OP_FLOOR:
			return neg ? sign | one : 0;
		case PWTPU_OP_CEIL:
			return neg ? sign : one;
		case PWTPU_OP_ROUND_EVEN:
			return sign | (e == -1 && mag != half_bits ? one : 0);
		default:
			return sign | (e == -1 ? one : 0);
		}
	}
	/* 1 <= |x| < 2^M: the low M - e bits are the fraction. */
	unit = 1ULL << (f->mbits - e);
	mask = unit - 1;
	frac = u & mask;
	if (!frac)
		return u;
	t = u & ~mask;
	switch (op) {
	case PWTPU_OP_FLOOR:
		return neg ? t + unit : t;
	case PWTPU_OP_CEIL:
		return neg ? t : t + unit;
	case PWTPU_OP_ROUND_EVEN:
		/* The bit at @unit is the integer part's last (odd for e = 0). */
		if (frac > unit / 2 || (frac == unit / 2 && (t & unit)))
			return t + unit;
		return t;
	default:
		return frac >= unit / 2 ? t + unit : t;
	}
}

/*
 * REDUCE_PRECISION to @eb exponent and @mb fraction bits, on @u's own
 * bits as StableHLO's reference defines it: round the fraction to @mb
 * bits, ties to even (by adding half a unit less one, plus the last kept
 * bit, then truncating); then past the reduced format's largest exponent
 * is +-inf, at or below its least (no subnormals) +-0. A NaN stays itself,
 * or becomes +inf when @mb is 0 (a format without NaN).
 */
static __always_inline u64 pwfw_reduce_precision(const struct pwfw_fmt_bits *f,
						 u64 u, u32 eb, u32 mb)
{
	u64 orig = u, last, ebias, rbias, xe;
	bool nan = (u & (f->sign - 1)) > f->inf;
	u32 sh;

	if (mb < f->mbits) {
		sh = f->mbits - mb;
		last = 1ULL << sh;
		u += (last >> 1) - 1 + ((u >> sh) & 1);
		u &= ~(last - 1);
	}
	if (eb < f->ebits) {
		ebias = (u64)f->bias;
		rbias = (1ULL << (eb - 1)) - 1;
		xe = u & f->inf;
		if (xe > (ebias + rbias) << f->mbits)
			u = (u & f->sign) | f->inf;
		if (xe <= (ebias - rbias) << f->mbits)
			u &= f->sign;
	}
	if (nan)
		return mb ? orig : f->inf;
	return u & (f->sign | (f->sign - 1));
}

/*
 * The magnitude @a (finite, not 0) as @m * 2^@e with @m's leading one at
 * bit M: subnormals are normalised.
 */
static __always_inline void pwfw_unpack(const struct pwfw_fmt_bits *f, u64 a,
					u64 *m, s32 *e)
{
	u64 ef = a >> f->mbits, frac = a & ((1ULL << f->mbits) - 1);
	s32 s;

	if (ef) {
		*m = frac | 1ULL << f->mbits;
		*e = (s32)ef - f->bias - (s32)f->mbits;
		return;
	}
	s = (s32)f->mbits - (63 - __builtin_clzll(frac));
	*m = frac << s;
	*e = 1 - f->bias - (s32)f->mbits - s;
}

/*
 * REM of floats: C fmod, exact. |x| = mx 2^ex and |y| = my 2^ey with
 * ex >= ey; the remainder of mx 2^(ex - ey) by my is found by long
 * division in steps that keep every partial remainder shifted left below
 * 2^64, and is exact in the format at 2^ey (fmod's result always is).
 */
static __always_inline u64 pwfw_fmod_bits(const struct pwfw_fmt_bits *f,
					  u64 x, u64 y)
{
	u64 ax = x & (f->sign - 1), ay = y & (f->sign - 1);
	u32 step = 63 - f->mbits, s;
	u64 mx, my, r;
	s32 ex, ey, d;

	if (ax > f->inf)
		return pwfw_quiet_bits(f, x);
	if (ay > f->inf)
		return pwfw_quiet_bits(f, y);
	/* The invalid cases give the default NaN, as SSE's arithmetic does. */
	if (ax == f->inf || !ay)
		return pwfw_quiet_bits(f, f->sign | f->inf);
	if (ay == f->inf || ax < ay)
		return x;
	if (ax == ay)
		return x & f->sign;
	pwfw_unpack(f, ax, &mx, &ex);
	pwfw_unpack(f, ay, &my, &ey);
	r = mx % my;
	for (d = ex - ey; d > 0; d -= s) {
		s = (u32)d < step ? (u32)d : step;
		r = (r << s) % my;
	}
	return pwfw_fp_round(!!(x & f->sign), ey, r, f->ebits, f->mbits);
}

static __always_inline u64 pwfw_round_one(u32 op,
					  const struct pwfw_fmt_bits *f,
					  u64 a, u64 b, const u32 *args)
{
	switch (op) {
	case PWTPU_OP_REDUCE_PRECISION:
		return pwfw_reduce_precision(f, a, args[0], args[1]);
	case PWTPU_OP_REM:
		return pwfw_fmod_bits(f, a, b);
	default:
		return pwfw_round_int(op, f, a);
	}
}

/* Elements of @size bytes: the format's bits, zero extended. */
static __always_inline u64 pwfw_load_bits(u32 size, const void *p, u32 i)
{
	switch (size) {
	case 2:
		return ((const u16 *)p)[i];
	case 4:
		return ((const u32 *)p)[i];
	default:
		return ((const u64 *)p)[i];
	}
}

static __always_inline void pwfw_store_bits(u32 size, void *p, u32 i, u64 v)
{
	switch (size) {
	case 2:
		((u16 *)p)[i] = (u16)v;
		break;
	case 4:
		((u32 *)p)[i] = (u32)v;
		break;
	default:
		((u64 *)p)[i] = v;
		break;
	}
}

static __always_inline void pwfw_round_loop(u32 op, u32 size, u32 ebits,
					    u32 mbits, void *d, const void *a,
					    const void *b, const u32 *args,
					    u32 n)
{
	struct pwfw_fmt_bits f = pwfw_fmt_of(ebits, mbits);
	u32 i;

	for (i = 0; i < n; i++)
		pwfw_store_bits(size, d, i,
				pwfw_round_one(op, &f,
					       pwfw_load_bits(size, a, i),
					       b ? pwfw_load_bits(size, b, i) :
						   0,
					       args));
}

void pwfw_k_round(u32 op, u32 dtype, void *dst, const void *a,
		  const void *b, const u32 *args, u32 n)
{
	switch (dtype) {
	case PWTPU_DT_F32:
		pwfw_round_loop(op, 4, 8, 23, dst, a, b, args, n);
		break;
	case PWTPU_DT_BF16:
		pwfw_round_loop(op, 2, 8, 7, dst, a, b, args, n);
		break;
	case PWTPU_DT_F16:
		pwfw_round_loop(op, 2, 5, 10, dst, a, b, args, n);
		break;
	case PWTPU_DT_F64:
		pwfw_round_loop(op, 8, 11, 52, dst, a, b, args, n);
		break;
	}
}
