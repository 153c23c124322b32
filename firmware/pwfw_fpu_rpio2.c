// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_rpio2.c - argument reduction for SIN, COS and TAN: any finite
 * double x is x = q pi/2 + r, |r| <= pi/4, with r to about 106 bits
 * however large x is (Payne and Hanek's method: only the bits of 2/pi
 * that matter for x's exponent are multiplied, in integer arithmetic).
 * Runs only inside an FPU section.
 */
#include "pwfw_fpu_dd.h"

/*
 * The fraction of 2/pi, 64 bits a word, the first word holding the bits
 * just below the binary point: 1280 bits, enough for every double (the
 * window starts at most 15 words in and is 5 words long). Computed from
 * pi by Machin's formula in exact integer arithmetic.
 */
static const u64 pwfw_2opi[20] = {
	0xa2f9836e4e441529ULL, 0xfc2757d1f534ddc0ULL, 0xdb6295993c439041ULL,
	0xfe5163abdebbc561ULL, 0xb7246e3a424dd2e0ULL, 0x06492eea09d1921cULL,
	0xfe1deb1cb129a73eULL, 0xe88235f52ebb4484ULL, 0xe99c7026b45f7e41ULL,
	0x3991d639835339f4ULL, 0x9c845f8bbdf9283bULL, 0x1ff897ffde05980fULL,
	0xef2f118b5a0a6d1fULL, 0x6d367ecf27cb09b7ULL, 0x4f463f669e5fea2dULL,
	0x7527bac7ebe5f17bULL, 0x3d0739f78a5292eaULL, 0x6bfb5fb11f8d5d08ULL,
	0x56033046fc7b6babULL, 0xf0cfbc209af4361dULL,
};

/* pi/2 to 107 bits, as the bits of two doubles. */
static const struct pwfw_dd_bits pwfw_pio2_rp = { 0x3ff921fb54442d18ULL,
						  0x3c91a62633145c07ULL };

#define PWFW_RP_WORDS	5		/* words of 2/pi multiplied */
#define PWFW_RP_PWORDS	(PWFW_RP_WORDS + 1)	/* of the product */

/* a * b: the low 64 bits returned, the high ones in *@hi. */
static inline u64 pwfw_mul64(u64 a, u64 b, u64 *hi)
{
	u64 a0 = (u32)a, a1 = a >> 32, b0 = (u32)b, b1 = b >> 32;
	u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	u64 mid = (p00 >> 32) + (u32)p01 + (u32)p10;

	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return mid << 32 | (u32)p00;
}

/* Word @k of the product counted from its low end (0 past the top). */
static inline u64 pwfw_pword(const u64 *p, u32 k)
{
	return k < PWFW_RP_PWORDS ? p[PWFW_RP_PWORDS - 1 - k] : 0;
}

/* Bits [@pos, @pos + 64) of the product. */
static u64 pwfw_pbits(const u64 *p, u32 pos)
{
	u32 w = pos / 64, off = pos % 64;

	if (!off)
		return pwfw_pword(p, w);
	return pwfw_pword(p, w) >> off | pwfw_pword(p, w + 1) << (64 - off);
}

/*
 * The 192-bit fraction f[0..2] (f[0] the top word; f < 1/2) as a
 * double-double: its leading 106 bits.
 */
static struct pwfw_dd pwfw_frac_dd(const u64 *f)
{
	u64 n0 = f[0], n1 = f[1], n2 = f[2], hi, lo;
	s32 lz = 0, s;

	while (!n0 && lz < 128) {
		n0 = n1;
		n1 = n2;
		n2 = 0;
		lz += 64;
	}
	if (!n0)
		return pwfw_dd_make(0.0, 0.0);
	s = __builtin_clzll(n0);
	if (s) {
		n0 = n0 << s | n1 >> (64 - s);
		n1 = n1 << s | n2 >> (64 - s);
	}
	lz += s;
	/* n0 n1 now has its top bit set: 53 bits, then 53 more. */
	hi = n0 >> 11;
	lo = (n0 & 0x7ff) << 42 | n1 >> 22;
	return pwfw_dd_fast_sum((double)(s64)hi * pwfw_dd_pow2(-53 - lz),
				(double)(s64)lo * pwfw_dd_pow2(-106 - lz));
}

u32 pwfw_rem_pio2(double x, struct pwfw_dd *r)
{
	u64 u = pwfw_f64_bits(x), m, p[PWFW_RP_PWORDS], f[3], lo, hi;
	u64 carry = 0;
	s32 e = (s32)((u >> 52) & 0x7ff) - 1075;
	u32 j0 = e > 2 ? (u32)(e - 2) / 64 : 0, sh, q, k;
	bool neg = false;

	/* |x| >= pi/4 is normal: x = m 2^e, m 53 bits. */
	m = (u & ((1ULL << 52) - 1)) | 1ULL << 52;
	/*
	 * Words before j0 give multiples of 4 (whole turns): skipped. The
	 * product of m and the next 5 words is x 2/pi modulo 4, to 2^-202.
	 */
	for (k = PWFW_RP_WORDS; k-- > 0;) {
		lo = pwfw_mul64(m, pwfw_2opi[j0 + k], &hi);
		p[k + 1] = lo + carry;
		carry = hi + (p[k + 1] < lo);
	}
	p[0] = carry;
	/* The product's low @sh bits are the fraction (255 <= sh <= 373). */
	sh = 64 * (j0 + PWFW_RP_WORDS) - (u32)e;
	q = (u32)pwfw_pbits(p, sh) & 3;
	f[0] = pwfw_pbits(p, sh - 64);
	f[1] = pwfw_pbits(p, sh - 128);
	f[2] = pwfw_pbits(p, sh - 192);
	/* Past half a quadrant: the next quadrant, less 1 - f. */
	if (f[0] >> 63) {
		f[2] = -f[2];
		f[1] = ~f[1] + !f[2];
		f[0] = ~f[0] + (!f[2] && !f[1]);
		q++;
		neg = true;
	}
	*r = pwfw_dd_mul(pwfw_frac_dd(f), pwfw_dd_c(&pwfw_pio2_rp));
	if (x < 0)
		neg = !neg;
	if (neg)
		*r = pwfw_dd_neg(*r);
	return (x < 0 ? -q : q) & 3;
}
