// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_bits.c - the integer ops: AND, OR, XOR, NOT, the shifts,
 * POPCNT, CLZ, and POW and REM of integers. Integer code, run inside an
 * FPU section like the other elementwise kernels.
 *
 * Each element is loaded extended to 64 bits (sign extended for the
 * signed dtypes, zero extended for the unsigned ones) and the dtype's low
 * n bits of the result are stored; what depends on the width (the shift
 * counts, the bits shifted in, the counts of bits) is computed on exactly
 * those n bits. Semantics: include/uapi/pwtpu.h, docs/firmware-ops.md.
 */
#include "pwfw_fpu.h"

/* The number of one bits of @v, without the CPU's POPCNT (or libgcc). */
static __always_inline u32 pwfw_popcount64(u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (u32)((v * 0x0101010101010101ULL) >> 56);
}

/*
 * a^b by repeated squaring, wrapping. On a signed dtype a negative b gives
 * 0 unless |a| is 1, whose powers are taken at |b| (1, or -1 for an odd b).
 */
static __always_inline u64 pwfw_ipow(bool sgn, u64 a, u64 b)
{
	u64 r = 1;

	if (sgn && (s64)b < 0) {
		if (a != 1 && a != ~0ULL)
			return 0;
		b = -b;
	}
	while (b) {
		if (b & 1)
			r *= a;
		a *= a;
		b >>= 1;
	}
	return r;
}

/*
 * a % b with the sign of a, as a - (a / b) * b under DIV's rules: a % 0
 * is a, and a % -1 is 0 (MIN % -1 too).
 */
static __always_inline u64 pwfw_irem(bool sgn, u64 a, u64 b)
{
	if (!b)
		return a;
	if (!sgn)
		return a % b;
	if (b == ~0ULL)
		return 0;
	return (u64)((s64)a % (s64)b);
}

/*
 * One element: @a and @b extended as the dtype is, @bits its width, @sgn
 * its signedness; the result's low @bits bits are what counts.
 */
static __always_inline u64 pwfw_bits_op(u32 op, u32 bits, bool sgn, u64 a,
					u64 b)
{
	u64 mask = ~0ULL >> (64 - bits);
	/* The count is b's n bits read as unsigned. */
	u64 count = b & mask;

	switch (op) {
	case PWTPU_OP_AND:
		return a & b;
	case PWTPU_OP_OR:
		return a | b;
	case PWTPU_OP_XOR:
		return a ^ b;
	case PWTPU_OP_NOT:
		return ~a;
	case PWTPU_OP_SHL:
		return count >= bits ? 0 : a << count;
	case PWTPU_OP_SHR_LOGICAL:
		return count >= bits ? 0 : (a & mask) >> count;
	case PWTPU_OP_SHR_ARITH:
		/* a's n bits as two's complement, whatever the dtype's sign. */
		a = (u64)((s64)(a << (64 - bits)) >> (64 - bits));
		return (u64)((s64)a >> (count >= bits ? bits - 1 : count));
	case PWTPU_OP_POPCNT:
		return pwfw_popcount64(a & mask);
	case PWTPU_OP_CLZ:
		a &= mask;
		return a ? (u64)__builtin_clzll(a) - (64 - bits) : bits;
	case PWTPU_OP_POW:
		return pwfw_ipow(sgn, a, b);
	default:
		return pwfw_irem(sgn, a, b);
	}
}

/* One dtype, a constant once inlined: its own loop. */
static __always_inline void pwfw_bits_loop(u32 op, u32 dtype, void *d,
					   const void *a, const void *b, u32 n)
{
	u32 bits = pwtpu_dtype_size(dtype) * 8;
	bool sgn = pwfw_int_signed(dtype);
	u32 i;

	for (i = 0; i < n; i++)
		pwfw_int_store(dtype, d, i,
			       pwfw_bits_op(op, bits, sgn,
					    pwfw_int_load(dtype, a, i),
					    b ? pwfw_int_load(dtype, b, i) : 0));
}

void pwfw_k_bits(u32 op, u32 dtype, void *dst, const void *a, const void *b,
		 u32 n)
{
	switch (dtype) {
	case PWTPU_DT_I8:
		pwfw_bits_loop(op, PWTPU_DT_I8, dst, a, b, n);
		break;
	case PWTPU_DT_I16:
		pwfw_bits_loop(op, PWTPU_DT_I16, dst, a, b, n);
		break;
	case PWTPU_DT_I32:
		pwfw_bits_loop(op, PWTPU_DT_I32, dst, a, b, n);
		break;
	case PWTPU_DT_I64:
		pwfw_bits_loop(op, PWTPU_DT_I64, dst, a, b, n);
		break;
	case PWTPU_DT_U8:
		pwfw_bits_loop(op, PWTPU_DT_U8, dst, a, b, n);
		break;
	case PWTPU_DT_U16:
		pwfw_bits_loop(op, PWTPU_DT_U16, dst, a, b, n);
		break;
	case PWTPU_DT_U32:
		pwfw_bits_loop(op, PWTPU_DT_U32, dst, a, b, n);
		break;
	case PWTPU_DT_U64:
		pwfw_bits_loop(op, PWTPU_DT_U64, dst, a, b, n);
		break;
	}
}
