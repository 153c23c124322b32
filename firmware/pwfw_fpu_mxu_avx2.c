// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fpu_mxu_avx2.c - MATMUL with 8-lane AVX2 vectors. The only file
 * built with -mavx2 (never -mfma): pwfw_k_matmul() calls it when
 * pwfw_plat_simd() says the CPU and OS have AVX2, inside an FPU section.
 *
 * The order of operations per output is the one in pwfw_fpu_mxu.c, and
 * each output is one vector lane that runs it alone:
 *
 *	f32, bf16: for k in the tile, ascending: p = p + a[m, k] * b[k, n],
 *	one vmulps and one vaddps, each rounded to f32 like the scalar
 *	path's product and sum (bf16 is widened exactly first); then
 *	acc = acc + p with one vaddps, from acc = +0 in the first tile.
 *	i8: vpmaddwd adds the exact products of k and k + 1 (|a b| <= 2^14,
 *	their sum fits easily) and p, acc wrap in 32 bits: the scalar
 *	path's sums mod 2^32, since wrapping addition is associative.
 *
 * So the results are the scalar path's bits. Only the blocking is new: a
 * micro-block keeps 6 rows x 16 columns of tile sums in 12 vector
 * registers, so each k loads two vectors of b and six scalars of a for 96
 * products. Blocks go column block by column block, rows inside, so that
 * a tile of b's 16 columns serves every row of the piece. Given scratch
 * (@mm->pack, which pwfw_exec.c allocates for large products), that tile
 * is first copied into it, contiguous (b's rows are often a power of two
 * apart, which makes them collide in the L1 cache), bf16 widened to f32
 * and i8 paired for vpmaddwd on the way; for f32 only when more than one
 * row block will read it. The 6 rows of a bf16 or i8 micro-block are
 * packed too, widened with vectors rather than one scalar at a time: then
 * bf16 runs the f32 micro-kernel, and i8 reads each a pair as one word.
 * Without scratch, each k is widened in the registers.
 *
 * A row's last, partial column block is computed over the 16 columns that
 * end at its last column: it overlaps the block before it, whose lanes are
 * recomputed but not stored (they may hold this tile's sums already). A b
 * narrower than 16 columns is left to the other paths.
 *
 * GCC vector extensions, no <immintrin.h>; the widening and vpmaddwd are
 * x86 builtins of GCC (pwfw_fpu_avx2.h).
 */
#include "pwfw_fpu_avx2.h"

#define PWFW_AVX2_MR	6	/* rows of a micro-block */
#define PWFW_AVX2_NR	16	/* columns of a micro-block: two vectors */

/**
 * struct pwfw_avx2_blk - one micro-block over one K tile
 * @a: a[m, k0], the block's first row at the tile's first k.
 * @b: the tile's 16 columns of b: b[k0, n] in b itself, or packed.
 * @dst: dst[m, n].
 * @lda: a's row stride, in elements.
 * @ldb: from row k to row k + 1 of @b, in elements (16 when packed).
 * @ldd: dst's row stride, in elements.
 * @kn: k in the tile.
 * @first: the first K tile: the accumulators start at +0, not from dst.
 * @skip: leading columns an earlier block did: only [@skip, 16) are
 *	stored.
 */
struct pwfw_avx2_blk {
	const void *a;
	const void *b;
	void *dst;
	u64 lda;
	u64 ldb;
	u64 ldd;
	u32 kn;
	bool first;
	u32 skip;
};

static inline v8sf pwfw_v8sf_load(const void *p)
{
	v8sf v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void pwfw_v8sf_store(void *p, v8sf v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/* Eight bf16 widened exactly to f32: the bits, 16 places up. */
static inline v8sf pwfw_avx2_bf16x8(const u16 *p)
{
	v8hi h;

	__builtin_memcpy(&h, p, sizeof(h));
	return (v8sf)((v8su)pwfw_avx2_zext_u16(h) << 16);
}

/*
 * Rows k and k + 1 of 16 i8 columns, as pairs (b[k, n], b[k + 1, n]) of
 * 16-bit lanes for vpmaddwd: columns 0..7 in @lo, 8..15 in @hi. @y is
 * NULL for a single last k: its row is 0.
 */
static inline void pwfw_avx2_i8_pairs(const s8 *x, const s8 *y, v16hi *lo,
				      v16hi *hi)
{
	v16qi r0, r1 = { 0 };

	__builtin_memcpy(&r0, x, sizeof(r0));
	if (y)
		__builtin_memcpy(&r1, y, sizeof(r1));
	*lo = pwfw_avx2_sext_s8(pwfw_avx2_unpacklo_s8(r0, r1));
	*hi = pwfw_avx2_sext_s8(pwfw_avx2_unpackhi_s8(r0, r1));
}

/*
 * The pair (a[k], a[k + 1]) as two 16-bit lanes, in every 32-bit lane;
 * (a[k], 0) for a single last k.
 */
static __always_inline v16hi pwfw_avx2_i8_apair(const s8 *a, bool pair)
{
	u32 w = (u16)(s16)a[0];
	v8su v = { 0 };

	if (pair)
		w |= (u32)(u16)(s16)a[1] << 16;
	return (v16hi)(v + w);
}

/*
 * Pack the tile's 16 columns of b from @b (row stride @ldb) into @pack:
 * f32 and bf16 as f32 rows of 16; i8 as the vpmaddwd pairs of rows k,
 * k + 1 (a single last row paired with 0), lo then hi.
 */
static void pwfw_avx2_pack_b(u32 dtype, void *pack, const void *b, u64 ldb,
			     u32 kn)
{
	const float *f = b;
	const u16 *h = b;
	const s8 *c = b;
	float *out = pack;
	v16hi lo, hi;
	u32 k;

	for (k = 0; dtype == PWTPU_DT_F32 && k < kn; k++, f += ldb) {
		pwfw_v8sf_store(out + 16 * k, pwfw_v8sf_load(f));
		pwfw_v8sf_store(out + 16 * k + 8, pwfw_v8sf_load(f + 8));
	}
	for (k = 0; dtype == PWTPU_DT_BF16 && k < kn; k++, h += ldb) {
		pwfw_v8sf_store(out + 16 * k, pwfw_avx2_bf16x8(h));
		pwfw_v8sf_store(out + 16 * k + 8, pwfw_avx2_bf16x8(h + 8));
	}
	/* The pack may be less aligned than a vector: stored as bytes. */
	for (k = 0; dtype == PWTPU_DT_I8 && k < kn; k += 2, c += 2 * ldb) {
		pwfw_avx2_i8_pairs(c, k + 1 < kn ? c + ldb : NULL, &lo, &hi);
		__builtin_memcpy(out + 8 * k, &lo, sizeof(lo));
		__builtin_memcpy(out + 8 * k + 8, &hi, sizeof(hi));
	}
}

/**
 * struct pwfw_avx2_packed - which b the pack holds, after its a
 * @pack_id: the MATMUL's (struct pwfw_k_matmul), 0: nothing.
 * @b: the tile's first row at the block's first column.
 * @kn: k in the tile.
 */
struct pwfw_avx2_packed {
	u64 pack_id;
	const void *b;
	u32 kn;
};

/*
 * Pack @kn rows of 16 columns of b from @b, unless the pack holds them
 * already: pieces of one MATMUL often follow each other on the same
 * columns and tile (pwfw_exec.c), and b does not change within one.
 */
static void pwfw_avx2_pack_b_once(const struct pwfw_k_matmul *mm,
				  const void *b, u32 kn)
{
	struct pwfw_avx2_packed *held = (void *)((u8 *)mm->pack +
				(u64)mm->tile * (PWFW_AVX2_NR + PWFW_AVX2_MR) * 4);

	if (held->pack_id == mm->pack_id && held->b == b && held->kn == kn)
		return;
	pwfw_avx2_pack_b(mm->dtype, mm->pack, b, mm->n, kn);
	held->pack_id = mm->pack_id;
	held->b = b;
	held->kn = kn;
}

/* Elements from one row of packed a to the next: i8 rows are of pairs. */
static inline u32 pwfw_avx2_a_stride(u32 dtype, u32 kn)
{
	return dtype == PWTPU_DT_BF16 ? kn : (kn + 1) & ~1U;
}

/*
 * Pack @mr rows of a bf16 or i8 a (row stride @lda) over @kn k into
 * @pack, rows pwfw_avx2_a_stride() elements apart: bf16 widened to f32;
 * i8 sign-extended to 16 bits, so that k and k + 1 are one 32-bit
 * vpmaddwd pair (a single last k paired with 0).
 */
static void pwfw_avx2_pack_a(u32 dtype, void *pack, const void *a, u64 lda,
			     u32 mr, u32 kn)
{
	u32 stride = pwfw_avx2_a_stride(dtype, kn), r, k;
	const u16 *h;
	const s8 *c;
	v16qi q;
	float *f;
	s16 *w;

	for (r = 0; r < mr; r++) {
		if (dtype == PWTPU_DT_BF16) {
			h = (const u16 *)a + r * lda;
			f = (float *)pack + r * stride;
			for (k = 0; k + 8 <= kn; k += 8)
				pwfw_v8sf_store(f + k, pwfw_avx2_bf16x8(h + k));
			for (; k < kn; k++)
				f[k] = pwfw_bf16_to_f32(h[k]);
			continue;
		}
		c = (const s8 *)a + r * lda;
		w = (s16 *)pack + r * stride;
		for (k = 0; k + 16 <= kn; k += 16) {
			v16hi x;

			__builtin_memcpy(&q, c + k, sizeof(q));
			x = pwfw_avx2_sext_s8(q);
			__builtin_memcpy(w + k, &x, sizeof(x));
		}
		for (; k < stride; k++)
			w[k] = k < kn ? c[k] : 0;
	}
}

/*
 * Store @v0, @v1 (16 lanes of 32 bits) at @d from lane @skip on: the
 * tail of a row whose last block overlaps the one before.
 */
static void pwfw_avx2_store_tail(u32 *d, v8sf v0, v8sf v1, u32 skip)
{
	u32 t[PWFW_AVX2_NR];

	__builtin_memcpy(t, &v0, sizeof(v0));
	__builtin_memcpy(t + 8, &v1, sizeof(v1));
	for (; skip < PWFW_AVX2_NR; skip++)
		d[skip] = t[skip];
}

/*
 * Row @r of a micro-block: acc = acc + p (f32 sums, or wrapping 32-bit
 * ones for @i32: added unsigned, since a signed overflow is undefined),
 * acc from dst or +0 in the first tile, stored.
 */
static __always_inline void pwfw_avx2_out(const struct pwfw_avx2_blk *bk,
					  u32 r, const v8sf p[2],
					  const bool i32)
{
	u32 *d = (u32 *)bk->dst + r * bk->ldd;
	v8sf acc0 = { 0 }, acc1 = { 0 };

	if (!bk->first) {
		acc0 = pwfw_v8sf_load(d);
		acc1 = pwfw_v8sf_load(d + 8);
	}
	if (i32) {
		acc0 = (v8sf)((v8su)acc0 + (v8su)p[0]);
		acc1 = (v8sf)((v8su)acc1 + (v8su)p[1]);
	} else {
		acc0 = acc0 + p[0];
		acc1 = acc1 + p[1];
	}
	if (bk->skip) {
		pwfw_avx2_store_tail(d, acc0, acc1, bk->skip);
		return;
	}
	pwfw_v8sf_store(d, acc0);
	pwfw_v8sf_store(d + 8, acc1);
}

static __always_inline void pwfw_avx2_out_rows(const struct pwfw_avx2_blk *bk,
					       const v8sf p[][2], const u32 mr,
					       const bool i32)
{
	pwfw_avx2_out(bk, 0, p[0], i32);
	if (mr > 1)
		pwfw_avx2_out(bk, 1, p[1], i32);
	if (mr > 2)
		pwfw_avx2_out(bk, 2, p[2], i32);
	if (mr > 3)
		pwfw_avx2_out(bk, 3, p[3], i32);
	if (mr > 4)
		pwfw_avx2_out(bk, 4, p[4], i32);
	if (mr > 5)
		pwfw_avx2_out(bk, 5, p[5], i32);
}

/* Element @i of a (f32, or bf16 widened), as the scalar path reads it. */
static __always_inline float pwfw_avx2_a(const void *a, u64 i,
					 const bool bf16)
{
	if (bf16)
		return pwfw_bf16_to_f32(((const u16 *)a)[i]);
	return ((const float *)a)[i];
}

/* One row of a float micro-block, one k: p = p + a * b in each lane. */
static __always_inline void pwfw_avx2_mac(v8sf p[2], float a, v8sf b0,
					  v8sf b1)
{
	p[0] = p[0] + a * b0;
	p[1] = p[1] + a * b1;
}

/*
 * A float micro-block of @mr rows. @mr, @a_bf16 (a is bf16) and @b_bf16
 * (b is bf16 in b itself, not packed to f32) are constants after
 * inlining: the statements of absent rows vanish and p lives in 2 * @mr
 * registers.
 */
static __always_inline void pwfw_avx2_float(const struct pwfw_avx2_blk *bk,
					    const u32 mr, const bool a_bf16,
					    const bool b_bf16)
{
	const void *a = bk->a;
	const u8 *b = bk->b;
	u64 lda = bk->lda, ldb = bk->ldb * (b_bf16 ? 2 : 4);
	v8sf p[PWFW_AVX2_MR][2], b0, b1, zero = { 0 };
	u32 k, r;

	for (r = 0; r < PWFW_AVX2_MR; r++) {
		p[r][0] = zero;
		p[r][1] = zero;
	}
	for (k = 0; k < bk->kn; k++, b += ldb) {
		if (b_bf16) {
			b0 = pwfw_avx2_bf16x8((const u16 *)b);
			b1 = pwfw_avx2_bf16x8((const u16 *)b + 8);
		} else {
			b0 = pwfw_v8sf_load(b);
			b1 = pwfw_v8sf_load(b + 32);
		}
		pwfw_avx2_mac(p[0], pwfw_avx2_a(a, k, a_bf16), b0, b1);
		if (mr > 1)
			pwfw_avx2_mac(p[1], pwfw_avx2_a(a, lda + k, a_bf16),
				      b0, b1);
		if (mr > 2)
			pwfw_avx2_mac(p[2], pwfw_avx2_a(a, 2 * lda + k,
							a_bf16), b0, b1);
		if (mr > 3)
			pwfw_avx2_mac(p[3], pwfw_avx2_a(a, 3 * lda + k,
							a_bf16), b0, b1);
		if (mr > 4)
			pwfw_avx2_mac(p[4], pwfw_avx2_a(a, 4 * lda + k,
							a_bf16), b0, b1);
		if (mr > 5)
			pwfw_avx2_mac(p[5], pwfw_avx2_a(a, 5 * lda + k,
							a_bf16), b0, b1);
	}
	pwfw_avx2_out_rows(bk, p, mr, false);
}

/*
 * One row of an i8 micro-block, two k: p = p + (a0 * b0 + a1 * b1) in
 * each 32-bit lane, exact products and a wrapping sum.
 */
static __always_inline void pwfw_avx2_mac_i8(v8si p[2], v16hi a, v16hi lo,
					     v16hi hi)
{
	p[0] = p[0] + pwfw_avx2_maddwd(a, lo);
	p[1] = p[1] + pwfw_avx2_maddwd(a, hi);
}

/*
 * a's pair (k, k + 1) of the row @r rows after @a, in every 32-bit lane:
 * from the pack (16-bit lanes, @lda of them a row), or built from a.
 */
static __always_inline v16hi pwfw_avx2_i8_arow(const void *a, u64 lda,
					       u32 r, const bool packed,
					       const bool pair)
{
	v8su v = { 0 };
	u32 w;

	if (!packed)
		return pwfw_avx2_i8_apair((const s8 *)a + r * lda, pair);
	__builtin_memcpy(&w, (const s16 *)a + r * lda, sizeof(w));
	return (v16hi)(v + w);
}

/*
 * Rows k and k + 1 (@pair) or k alone of an i8 micro-block: a and b from
 * the pack (@packed; a single last k is paired with 0 there) or from the
 * matrices.
 */
static __always_inline void pwfw_avx2_i8_step(v8si p[][2], const void *a,
					      u64 lda, const void *b, u64 ldb,
					      const u32 mr, const bool packed,
					      const bool pair)
{
	const s8 *c = b;
	v16hi lo, hi;

	if (packed) {
		__builtin_memcpy(&lo, b, sizeof(lo));
		__builtin_memcpy(&hi, (const v16hi *)b + 1, sizeof(hi));
	} else {
		pwfw_avx2_i8_pairs(c, pair ? c + ldb : NULL, &lo, &hi);
	}
	pwfw_avx2_mac_i8(p[0], pwfw_avx2_i8_arow(a, lda, 0, packed, pair),
			 lo, hi);
	if (mr > 1)
		pwfw_avx2_mac_i8(p[1], pwfw_avx2_i8_arow(a, lda, 1, packed,
							 pair), lo, hi);
	if (mr > 2)
		pwfw_avx2_mac_i8(p[2], pwfw_avx2_i8_arow(a, lda, 2, packed,
							 pair), lo, hi);
	if (mr > 3)
		pwfw_avx2_mac_i8(p[3], pwfw_avx2_i8_arow(a, lda, 3, packed,
							 pair), lo, hi);
	if (mr > 4)
		pwfw_avx2_mac_i8(p[4], pwfw_avx2_i8_arow(a, lda, 4, packed,
							 pair), lo, hi);
	if (mr > 5)
		pwfw_avx2_mac_i8(p[5], pwfw_avx2_i8_arow(a, lda, 5, packed,
							 pair), lo, hi);
}

/* An i8 micro-block of @mr rows, a and b packed or not (constants). */
static __always_inline void pwfw_avx2_i8(const struct pwfw_avx2_blk *bk,
					 const u32 mr, const bool packed)
{
	const u8 *a = bk->a, *b = bk->b;
	/* One step: two k of a and b, as packed or in the matrices. */
	u64 astep = packed ? 2 * sizeof(s16) : 2;
	u64 bstep = packed ? 2 * sizeof(v16hi) : 2 * bk->ldb;
	v8si p[PWFW_AVX2_MR][2], zero = { 0 };
	v8sf f[PWFW_AVX2_MR][2];
	u32 k, r;

	for (r = 0; r < PWFW_AVX2_MR; r++) {
		p[r][0] = zero;
		p[r][1] = zero;
	}
	for (k = 0; k + 1 < bk->kn; k += 2, a += astep, b += bstep)
		pwfw_avx2_i8_step(p, a, bk->lda, b, bk->ldb, mr, packed, true);
	if (k < bk->kn)
		pwfw_avx2_i8_step(p, a, bk->lda, b, bk->ldb, mr, packed, false);
	for (r = 0; r < PWFW_AVX2_MR; r++) {
		f[r][0] = (v8sf)p[r][0];
		f[r][1] = (v8sf)p[r][1];
	}
	pwfw_avx2_out_rows(bk, f, mr, true);
}

enum pwfw_avx2_kind {
	PWFW_AVX2_F32,		/* f32 (or bf16 packed to f32), any ldb */
	PWFW_AVX2_BF16,		/* bf16, b itself */
	PWFW_AVX2_I8,		/* i8, b itself */
	PWFW_AVX2_I8_PACKED,	/* i8, a and b packed to pairs */
};

static __always_inline void pwfw_avx2_rows(const struct pwfw_avx2_blk *bk,
					   u32 kind, const u32 mr)
{
	switch (kind) {
	case PWFW_AVX2_F32:
		pwfw_avx2_float(bk, mr, false, false);
		break;
	case PWFW_AVX2_BF16:
		pwfw_avx2_float(bk, mr, true, true);
		break;
	case PWFW_AVX2_I8:
		pwfw_avx2_i8(bk, mr, false);
		break;
	default:
		pwfw_avx2_i8(bk, mr, true);
		break;
	}
}

/* One instance per kind and row count. */
static void pwfw_avx2_block(const struct pwfw_avx2_blk *bk, u32 kind,
			    u32 mr)
{
	switch (mr) {
	case 6:
		pwfw_avx2_rows(bk, kind, 6);
		break;
	case 5:
		pwfw_avx2_rows(bk, kind, 5);
		break;
	case 4:
		pwfw_avx2_rows(bk, kind, 4);
		break;
	case 3:
		pwfw_avx2_rows(bk, kind, 3);
		break;
	case 2:
		pwfw_avx2_rows(bk, kind, 2);
		break;
	default:
		pwfw_avx2_rows(bk, kind, 1);
		break;
	}
}

bool pwfw_mm_avx2(const struct pwfw_k_matmul *mm, u32 m0, u32 m1, u32 n0,
		  u32 n1, u32 kt0, u32 kt1)
{
	u32 esize = mm->dtype == PWTPU_DT_F32 ? 4 :
		    mm->dtype == PWTPU_DT_BF16 ? 2 : 1;
	struct pwfw_avx2_blk bk = { .ldd = mm->n };
	bool pack_b, pack_a;
	u32 kt, n, nb, m, mr, kind;
	const u8 *a, *b;
	u8 *apack;
	u64 k0;

	if (mm->n < PWFW_AVX2_NR)
		return false;
	/* The pack: the tile of b's 16 columns, 6 rows of a, the record. */
	apack = mm->pack ? (u8 *)mm->pack + (u64)mm->tile * PWFW_AVX2_NR * 4 :
			   NULL;
	/*
	 * f32: b is packed when more than one row block reuses it, a never
	 * (it is read as it is). bf16, i8: both, when there is scratch: the
	 * pack widens them once, with vectors.
	 */
	if (mm->dtype == PWTPU_DT_F32) {
		pack_b = mm->pack && m1 - m0 > PWFW_AVX2_MR;
		pack_a = false;
		kind = PWFW_AVX2_F32;
	} else {
		pack_b = mm->pack;
		pack_a = mm->pack;
		if (mm->dtype == PWTPU_DT_BF16)
			kind = pack_a ? PWFW_AVX2_F32 : PWFW_AVX2_BF16;
		else
			kind = pack_a ? PWFW_AVX2_I8_PACKED : PWFW_AVX2_I8;
	}
	for (kt = kt0; kt < kt1; kt++) {
		k0 = (u64)kt * mm->tile;
		bk.kn = mm->k - k0 < mm->tile ? (u32)(mm->k - k0) : mm->tile;
		bk.first = kt == 0;
		for (n = n0; n < n1; n += PWFW_AVX2_NR) {
			nb = n + PWFW_AVX2_NR <= n1 ? n : n1 - PWFW_AVX2_NR;
			bk.skip = n - nb;
			b = (const u8 *)mm->b + (k0 * mm->n + nb) * esize;
			bk.b = b;
			bk.ldb = mm->n;
			if (pack_b) {
				pwfw_avx2_pack_b_once(mm, b, bk.kn);
				bk.b = mm->pack;
				bk.ldb = PWFW_AVX2_NR;
			}
			for (m = m0; m < m1; m += mr) {
				mr = m1 - m < PWFW_AVX2_MR ? m1 - m :
							     PWFW_AVX2_MR;
				a = (const u8 *)mm->a +
				    ((u64)m * mm->k + k0) * esize;
				bk.a = a;
				bk.lda = mm->k;
				if (pack_a) {
					pwfw_avx2_pack_a(mm->dtype, apack, a,
							 mm->k, mr, bk.kn);
					bk.a = apack;
					bk.lda = pwfw_avx2_a_stride(mm->dtype,
								    bk.kn);
				}
				bk.dst = (u8 *)mm->dst +
					 ((u64)m * mm->n + nb) * 4;
				pwfw_avx2_block(&bk, kind, mr);
			}
		}
	}
	return true;
}
