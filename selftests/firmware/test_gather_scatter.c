// SPDX-License-Identifier: GPL-2.0
/*
 * test_gather_scatter.c - SCATTER and GATHER against a naive reference
 * written here from StableHLO's definitions (the spec's "scatter" and
 * "gather" sections, in their terms: lists of dimension numbers, full
 * start, batching and window indices), with XLA's out-of-bounds rule for
 * scatter (a window not wholly inside the operand is skipped) and the
 * spec's clamp for gather. The device's encoding is made from the lists
 * here only to build the instruction.
 *
 * The layouts are the conformance corpus's, the spec's example (shrunk
 * to rank 4), and thousands of random valid ones: every dtype, every
 * index dtype, every combiner, indices in range, negative, past the end
 * and huge. Results must match bit for bit (floats: or both NaN).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ops_util.h"

#define R	PWTPU_MAX_RANK

/**
 * struct gs - one SCATTER or GATHER in StableHLO's terms
 * @scatter: SCATTER (else GATHER).
 * @mode: enum pwtpu_scatter.
 * @dtype: operand, updates and result.
 * @idtype: indices.
 * @ar: operand rank; @as its shape.
 * @br: indices rank; @bs its shape.
 * @wr: rank of the updates (SCATTER) or result (GATHER); @ws its shape.
 * @nwin: update_window_dims / offset_dims, @win.
 * @nins: inserted_window_dims / collapsed_slice_dims, @ins.
 * @nbat: batching pairs: operand dims @abat, indices dims @bbat.
 * @nmap: scatter_dims_to_operand_dims / start_index_map, @map.
 * @ivd: index_vector_dim.
 */
struct gs {
	bool scatter;
	uint32_t mode, dtype, idtype;
	uint32_t ar, as[R];
	uint32_t br, bs[R];
	uint32_t wr, ws[R];
	uint32_t nwin, win[R];
	uint32_t nins, ins[R];
	uint32_t nbat, abat[R], bbat[R];
	uint32_t nmap, map[R];
	uint32_t ivd;
};

static const uint32_t all_dtypes[] = {
	PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8, PWTPU_DT_I32, PWTPU_DT_F16,
	PWTPU_DT_F64, PWTPU_DT_I16, PWTPU_DT_I64, PWTPU_DT_U8, PWTPU_DT_U16,
	PWTPU_DT_U32, PWTPU_DT_U64,
};

static const uint32_t index_dtypes[] = {
	PWTPU_DT_I8, PWTPU_DT_I16, PWTPU_DT_I32, PWTPU_DT_I64,
	PWTPU_DT_U8, PWTPU_DT_U16, PWTPU_DT_U32, PWTPU_DT_U64,
};

#define N_DTYPES	(sizeof(all_dtypes) / sizeof(all_dtypes[0]))
#define N_IDTYPES	(sizeof(index_dtypes) / sizeof(index_dtypes[0]))

static bool has(const uint32_t *list, uint32_t n, uint32_t d)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (list[i] == d)
			return true;
	return false;
}

static uint64_t count(uint32_t rank, const uint32_t *shape)
{
	uint64_t n = 1;
	uint32_t k;

	for (k = 0; k < rank; k++)
		n *= shape[k];
	return n;
}

static uint64_t lin(uint32_t rank, const uint32_t *shape, const int64_t *idx)
{
	uint64_t l = 0;
	uint32_t k;

	for (k = 0; k < rank; k++)
		l = l * shape[k] + (uint64_t)idx[k];
	return l;
}

static void unlin(uint32_t rank, const uint32_t *shape, uint64_t l,
		  int64_t *idx)
{
	uint32_t k;

	for (k = rank; k-- > 0;) {
		idx[k] = (int64_t)(l % shape[k]);
		l /= shape[k];
	}
}

static bool is_float(uint32_t dt)
{
	return dt == PWTPU_DT_F32 || dt == PWTPU_DT_BF16 ||
	       dt == PWTPU_DT_F16 || dt == PWTPU_DT_F64;
}

static bool is_signed(uint32_t dt)
{
	return dt == PWTPU_DT_I8 || dt == PWTPU_DT_I16 ||
	       dt == PWTPU_DT_I32 || dt == PWTPU_DT_I64;
}

/* Integer element @i as a wide value: signed, or unsigned (saturated). */
static int64_t index_value(uint32_t dt, const uint8_t *p, uint64_t i)
{
	uint64_t u = 0;

	switch (pwfw_dtype_size(dt)) {
	case 1:
		if (is_signed(dt))
			return (int8_t)p[i];
		return p[i];
	case 2:
		if (is_signed(dt))
			return ((const int16_t *)p)[i];
		return ((const uint16_t *)p)[i];
	case 4:
		if (is_signed(dt))
			return ((const int32_t *)p)[i];
		return ((const uint32_t *)p)[i];
	default:
		u = ((const uint64_t *)p)[i];
		/* Past INT64_MAX is past every extent here: keep it so. */
		if (!is_signed(dt) && u > INT64_MAX)
			return INT64_MAX;
		return (int64_t)u;
	}
}

/* ---- The combiners, one element, by the dtype's arithmetic. ---- */

static int64_t int_get(uint32_t dt, const uint8_t *p)
{
	return index_value(dt == PWTPU_DT_U64 ? PWTPU_DT_I64 : dt, p, 0);
}

static void int_put(uint32_t dt, uint8_t *p, uint64_t v)
{
	memcpy(p, &v, pwfw_dtype_size(dt));	/* little endian: low bytes */
}

static double fl_get(uint32_t dt, const uint8_t *p)
{
	uint16_t h;
	float f;
	double d;

	switch (dt) {
	case PWTPU_DT_F32:
		memcpy(&f, p, 4);
		return f;
	case PWTPU_DT_BF16:
		memcpy(&h, p, 2);
		return bf16_widen(h);
	case PWTPU_DT_F16:
		memcpy(&h, p, 2);
		return (double)f16_value(h);
	default:
		memcpy(&d, p, 8);
		return d;
	}
}

/* The exact (or f32/f64 IEEE) value @x stored in @dt, rounded once. */
static void fl_put(uint32_t dt, uint8_t *p, double x, float x32)
{
	uint16_t h;

	switch (dt) {
	case PWTPU_DT_F32:
		memcpy(p, &x32, 4);
		break;
	case PWTPU_DT_BF16:
		h = (uint16_t)fmt_round(x, 8, 7);
		memcpy(p, &h, 2);
		break;
	case PWTPU_DT_F16:
		h = ref_f16(x);
		memcpy(p, &h, 2);
		break;
	default:
		memcpy(p, &x, 8);
		break;
	}
}

/* max/min with NaN first and -0 below +0. */
static double ref_minmax(bool max, double x, double y)
{
	if (isnan(x) || isnan(y))
		return NAN;
	if (x == y)
		return (signbit(x) != 0) == max ? y : x;
	return (x > y) == max ? x : y;
}

static void ref_combine(uint32_t mode, uint32_t dt, uint8_t *d,
			const uint8_t *u)
{
	uint32_t size = pwfw_dtype_size(dt);
	double x, y, r;
	float x32, y32, r32;
	int64_t a, b;

	if (mode == PWTPU_SCATTER_SET) {
		memcpy(d, u, size);
		return;
	}
	if (!is_float(dt)) {
		a = int_get(dt, d);
		b = int_get(dt, u);
		switch (mode) {
		case PWTPU_SCATTER_ADD:
			int_put(dt, d, (uint64_t)a + (uint64_t)b);
			break;
		case PWTPU_SCATTER_MUL:
			int_put(dt, d, (uint64_t)a * (uint64_t)b);
			break;
		default:
			if (!is_signed(dt) && size < 8) {
				/* int_get zero extended them: order holds. */
			} else if (!is_signed(dt)) {
				a ^= INT64_MIN;	/* unsigned order */
				b ^= INT64_MIN;
			}
			if ((mode == PWTPU_SCATTER_MAX) == (b > a))
				memcpy(d, u, size);
		}
		return;
	}
	x = fl_get(dt, d);
	y = fl_get(dt, u);
	x32 = (float)x;	/* exact for f32, unused otherwise */
	y32 = (float)y;
	switch (mode) {
	case PWTPU_SCATTER_ADD:
		r = x + y;	/* exact for bf16 and f16 */
		r32 = x32 + y32;
		break;
	case PWTPU_SCATTER_MUL:
		r = x * y;
		r32 = x32 * y32;
		break;
	default:
		r = ref_minmax(mode == PWTPU_SCATTER_MAX, x, y);
		r32 = dt == PWTPU_DT_F32 ?
		      (float)ref_minmax(mode == PWTPU_SCATTER_MAX, x32, y32) : 0;
		break;
	}
	fl_put(dt, d, r, r32);
}

/* ---- The reference: the spec's formulas, element by element. ---- */

/*
 * Start index vector of batch index @bi (the indices' dims but ivd):
 * entry j into @start.
 */
static void ref_start(const struct gs *g, const uint8_t *ind,
		      const int64_t *bi, int64_t *start)
{
	int64_t idx[R];
	uint32_t k, e = 0, j;

	for (j = 0; j < g->nmap; j++) {
		for (k = 0, e = 0; k < g->br; k++)
			idx[k] = k == g->ivd ? (int64_t)j : bi[e++];
		start[j] = index_value(g->idtype, ind,
				       lin(g->br, g->bs, idx));
	}
}

/* The window extent of operand dim @d (1 on inserted and batching). */
static int64_t window_size(const struct gs *g, uint32_t d)
{
	uint32_t k, wi = 0;

	for (k = 0; k < g->ar; k++) {
		if (has(g->ins, g->nins, k) || has(g->abat, g->nbat, k))
			continue;
		if (k == d)
			return g->ws[g->win[wi]];
		wi++;
	}
	return 1;
}

/*
 * Operand index of window-tensor element @wi; false when a scatter's
 * window is not inside the operand. Gather clamps.
 */
static bool ref_index(const struct gs *g, const uint8_t *ind,
		      const int64_t *wi, int64_t *oi)
{
	int64_t bi[R], start[R], full[R] = { 0 }, size;
	uint32_t k, nb = 0, w = 0, j, d;

	for (k = 0; k < g->wr; k++)
		if (!has(g->win, g->nwin, k))
			bi[nb++] = wi[k];
	ref_start(g, ind, bi, start);
	for (j = 0; j < g->nmap; j++) {
		d = g->map[j];
		size = window_size(g, d);
		if (g->scatter) {
			if (start[j] < 0 || start[j] > (int64_t)g->as[d] - size)
				return false;
		} else if (start[j] < 0) {
			start[j] = 0;
		} else if (start[j] > (int64_t)g->as[d] - size) {
			start[j] = (int64_t)g->as[d] - size;
		}
		full[d] += start[j];
	}
	for (j = 0; j < g->nbat; j++)
		full[g->abat[j]] += bi[g->bbat[j] - (g->bbat[j] < g->ivd ? 0 : 1)];
	for (d = 0; d < g->ar; d++) {
		if (has(g->ins, g->nins, d) || has(g->abat, g->nbat, d))
			continue;
		full[d] += wi[g->win[w++]];
	}
	memcpy(oi, full, sizeof(full));
	return true;
}

static void ref_run(const struct gs *g, const uint8_t *a, const uint8_t *ind,
		    const uint8_t *w, uint8_t *out)
{
	uint32_t size = pwfw_dtype_size(g->dtype);
	uint64_t nw = count(g->wr, g->ws), i;
	int64_t wi[R], oi[R];

	if (g->scatter)
		memcpy(out, a, count(g->ar, g->as) * size);
	for (i = 0; i < nw; i++) {
		unlin(g->wr, g->ws, i, wi);
		if (!ref_index(g, ind, wi, oi))
			continue;
		if (g->scatter)
			ref_combine(g->mode, g->dtype,
				    out + lin(g->ar, g->as, oi) * size,
				    w + i * size);
		else
			memcpy(out + i * size, a + lin(g->ar, g->as, oi) * size,
			       size);
	}
}

/* ---- The device ---- */

static uint32_t mask(const uint32_t *list, uint32_t n)
{
	uint32_t m = 0, i;

	for (i = 0; i < n; i++)
		m |= 1U << list[i];
	return m;
}

static void encode(const struct gs *g, uint32_t *args)
{
	uint32_t i;

	args[0] = PWTPU_GS_ARG0(mask(g->win, g->nwin), mask(g->ins, g->nins),
				mask(g->abat, g->nbat), g->ivd);
	args[1] = 0;
	/* The pairs in the order of their operand dims, as B's bits go. */
	for (i = 0; i < g->nbat; i++) {
		uint32_t rank = 0, j;

		for (j = 0; j < g->nbat; j++)
			rank += g->abat[j] < g->abat[i];
		args[1] |= PWTPU_GS_PAIR(rank, g->bbat[i]);
	}
	for (i = 0; i < g->nmap; i++)
		args[1] |= PWTPU_GS_MAP(i, g->map[i]);
}

static uint32_t state = 12345;

static uint32_t rnd(uint32_t n)
{
	return ops_rand(&state) % n;
}

/* A value for a combiner to work on: small, exact, now and then special. */
static void fill_value(uint32_t dt, uint8_t *p)
{
	static const double special[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN,
					  1e30, -3.5 };
	uint32_t size = pwfw_dtype_size(dt), k;
	double x;

	if (!is_float(dt)) {
		for (k = 0; k < size; k++)
			p[k] = (uint8_t)ops_rand(&state);
		if (rnd(2))	/* small ones, which meet more often */
			int_put(dt, p, (uint64_t)(int64_t)((int)rnd(9) - 4));
		return;
	}
	x = rnd(16) ? ((int)rnd(401) - 200) / 8.0 : special[rnd(7)];
	fl_put(dt, p, x, (float)x);
}

/* An index: in range mostly, else just out, negative, or huge. */
static void fill_index(uint32_t dt, uint8_t *p, uint32_t extent)
{
	static const uint64_t wild[] = { 0x8000000000000000ULL, ~0ULL,
					 0x7fffffffffffffffULL, 0x80000000ULL,
					 0xffffffffULL, 0x8000ULL, 0xffffULL,
					 0x80ULL, 0xffULL, 0x100000001ULL };
	uint64_t v;

	switch (rnd(8)) {
	case 0:
		v = wild[rnd(10)];
		break;
	case 1:
		v = (uint64_t)-(int64_t)(1 + rnd(3));
		break;
	case 2:
		v = extent + rnd(3);
		break;
	default:
		v = rnd(extent);
		break;
	}
	int_put(dt, p, v);
}

/*
 * Run @g on the device with random contents and compare with the
 * reference; @in_place runs a SCATTER with dst = a. Returns the number of
 * wrong elements, or -1 when the program did not verify and run.
 */
static int check_gs(struct __test_metadata *_metadata, const struct gs *g,
		    bool in_place)
{
	uint32_t size = pwfw_dtype_size(g->dtype), isize;
	uint64_t na = count(g->ar, g->as), nb = count(g->br, g->bs);
	uint64_t nw = count(g->wr, g->ws), nout, i;
	uint8_t *a, *ind, *w, *ref, *out;
	int ta, tb, tw, td, bad = 0;
	uint32_t args[2], j;
	struct ops o;

	isize = pwfw_dtype_size(g->idtype);
	nout = g->scatter ? na : nw;
	if (ops_init(&o, (na * 2 + nw) * size + nb * isize + 512))
		return -1;
	ta = ops_tensor_shape(&o, g->dtype, g->ar, g->as);
	tb = ops_tensor_shape(&o, g->idtype, g->br, g->bs);
	tw = g->scatter ? ops_tensor_shape(&o, g->dtype, g->wr, g->ws) : -1;
	td = g->scatter ? (in_place ? ta : ops_tensor_shape(&o, g->dtype,
							    g->ar, g->as)) :
			  ops_tensor_shape(&o, g->dtype, g->wr, g->ws);
	if (ta < 0 || tb < 0 || td < 0 || (g->scatter && tw < 0))
		return -1;
	encode(g, args);
	if (pwprog_insn(o.p, g->scatter ? PWTPU_OP_SCATTER : PWTPU_OP_GATHER,
			(uint8_t)g->mode, td, ta, tb,
			g->scatter ? tw : PWTPU_NO_TENSOR, args, 2) < 0)
		return -1;
	a = ops_ptr(&o, ta);
	ind = ops_ptr(&o, tb);
	w = g->scatter ? ops_ptr(&o, tw) : NULL;
	for (i = 0; i < na; i++)
		fill_value(g->dtype, a + i * size);
	for (i = 0; i < nw && w; i++)
		fill_value(g->dtype, w + i * size);
	/* Each entry of an index vector against its own operand extent. */
	for (i = 0; i < nb; i++) {
		int64_t idx[R];

		unlin(g->br, g->bs, i, idx);
		j = g->ivd < g->br ? (uint32_t)idx[g->ivd] : 0;
		fill_index(g->idtype, ind + i * isize, g->as[g->map[j]]);
	}
	ref = malloc(nout * size);
	if (!ref)
		return -1;
	ref_run(g, a, ind, w, ref);
	if (ops_run(&o)) {
		free(ref);
		ops_fini(&o);
		return -1;
	}
	out = ops_ptr(&o, td);
	for (i = 0; i < nout; i++) {
		const uint8_t *x = out + i * size, *y = ref + i * size;

		if (!memcmp(x, y, size))
			continue;
		if (g->dtype == PWTPU_DT_F32 || g->dtype == PWTPU_DT_F64 ||
		    g->dtype == PWTPU_DT_BF16 || g->dtype == PWTPU_DT_F16) {
			if (isnan(fl_get(g->dtype, x)) &&
			    isnan(fl_get(g->dtype, y)))
				continue;
		}
		if (bad++ < 3)
			TH_LOG("element %llu differs (%s %s mode %u)",
			       (unsigned long long)i,
			       pwtpu_dtype_name(g->dtype),
			       pwtpu_dtype_name(g->idtype), g->mode);
	}
	free(ref);
	ops_fini(&o);
	return bad;
}

/* ---- Random valid layouts ---- */

static void shuffle(uint32_t *v, uint32_t n)
{
	uint32_t i, j, t;

	for (i = n; i > 1; i--) {
		j = rnd(i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/*
 * A random valid layout of rank <= 4 everywhere, or false to try again.
 * Window extents are at most the operand's; a scatter's often smaller.
 */
static bool random_gs(struct gs *g, bool scatter)
{
	uint32_t dims[R], rest[R] = { 0 }, nrest = 0, nwin_a, nbd, maxbd;
	uint32_t wpos[R], bdims[R], nfree, k, j, e;
	bool implicit;

	memset(g, 0, sizeof(*g));
	g->scatter = scatter;
	g->ar = 1 + rnd(4);
	for (k = 0; k < g->ar; k++) {
		g->as[k] = 1 + rnd(5);
		dims[k] = k;
	}
	shuffle(dims, g->ar);
	g->nbat = rnd(g->ar);
	/* Sorted, as StableHLO writes them. */
	for (k = 0, j = 0; k < g->ar; k++) {
		if (has(dims, g->nbat, k))
			g->abat[j++] = k;
		else
			rest[nrest++] = k;
	}
	g->nins = rnd(nrest + 1);
	memcpy(dims, rest, sizeof(rest));
	shuffle(dims, nrest);
	for (k = 0, j = 0; k < nrest; k++)
		if (k < g->nins)
			wpos[j++] = dims[k];
	for (k = 0, j = 0; k < g->ar; k++)
		if (has(wpos, g->nins, k))
			g->ins[j++] = k;
	nwin_a = g->ar - g->nbat - g->nins;
	g->nmap = 1 + rnd(nrest);
	memcpy(dims, rest, sizeof(rest));
	shuffle(dims, nrest);
	memcpy(g->map, dims, sizeof(g->map));

	implicit = g->nmap == 1 && rnd(2);
	maxbd = R - nwin_a < (implicit ? R : R - 1) ?
		R - nwin_a : (implicit ? R : R - 1);
	if (g->nbat > maxbd)
		return false;
	nbd = g->nbat + rnd(maxbd - g->nbat + 1);
	g->br = nbd + !implicit;
	g->ivd = implicit ? g->br : rnd(g->br);
	for (k = 0; k < g->br; k++)
		g->bs[k] = k == g->ivd ? g->nmap : 1 + rnd(3);
	/* Batching pairs on distinct index dims but ivd, any order. */
	for (k = 0, nfree = 0; k < g->br; k++)
		if (k != g->ivd)
			bdims[nfree++] = k;
	shuffle(bdims, nfree);
	for (k = 0; k < g->nbat; k++) {
		g->bbat[k] = bdims[k];
		g->bs[bdims[k]] = g->as[g->abat[k]];
	}
	/* The window tensor: window dims at random places. */
	g->wr = nwin_a + nbd;
	for (k = 0; k < g->wr; k++)
		dims[k] = k;
	shuffle(dims, g->wr);
	for (k = 0, j = 0; k < g->wr; k++)
		if (k < nwin_a)
			wpos[j++] = dims[k];
	for (k = 0, j = 0; k < g->wr; k++)
		if (has(wpos, nwin_a, k))
			g->win[j++] = k;
	g->nwin = nwin_a;
	for (k = 0, j = 0, e = 0; k < g->wr; k++) {
		if (has(g->win, g->nwin, k)) {
			while (has(g->ins, g->nins, j) ||
			       has(g->abat, g->nbat, j))
				j++;
			g->ws[k] = 1 + rnd(g->as[j]);
			j++;
			continue;
		}
		if (e == g->ivd)
			e++;
		g->ws[k] = g->bs[e++];
	}
	return true;
}

static void random_runs(struct __test_metadata *_metadata, bool scatter,
			uint32_t runs)
{
	uint32_t r, tried = 0;
	struct gs g;
	int bad;

	for (r = 0; r < runs; tried++) {
		if (!random_gs(&g, scatter))
			continue;
		g.dtype = all_dtypes[r % N_DTYPES];
		g.idtype = index_dtypes[(r / N_DTYPES) % N_IDTYPES];
		g.mode = scatter ? (r / 7) % 5 : 0;
		bad = check_gs(_metadata, &g, scatter && r % 3 == 0);
		EXPECT_EQ(0, bad)
			TH_LOG("run %u: ar %u br %u wr %u ivd %u nmap %u nbat %u",
			       r, g.ar, g.br, g.wr, g.ivd, g.nmap, g.nbat);
		r++;
	}
	EXPECT_LT(tried, runs * 4);
}

TEST(scatter_random_layouts)
{
	random_runs(_metadata, true, 4000);
}

TEST(gather_random_layouts)
{
	random_runs(_metadata, false, 3000);
}

/* ---- The corpus's layouts, every combiner, several dtypes ---- */

/*
 * Each corpus form (update_window_dims, inserted_window_dims,
 * scatter_dims_to_operand_dims, index_vector_dim) with shapes like the
 * corpus's programs.
 */
static const struct gs corpus[] = {
	/* uwd [0,1], iwd [1], sdod [1]: i64[1] indices, ivd 0 */
	{ .ar = 3, .as = { 5, 6, 7 }, .br = 1, .bs = { 1 }, .wr = 2,
	  .ws = { 5, 7 }, .nwin = 2, .win = { 0, 1 }, .nins = 1,
	  .ins = { 1 }, .nmap = 1, .map = { 1 }, .ivd = 0 },
	/* uwd [0,1], iwd [0], sdod [0] */
	{ .ar = 3, .as = { 4, 2, 3 }, .br = 1, .bs = { 1 }, .wr = 2,
	  .ws = { 2, 3 }, .nwin = 2, .win = { 0, 1 }, .nins = 1,
	  .ins = { 0 }, .nmap = 1, .map = { 0 }, .ivd = 0 },
	/* iwd [0], sdod [0], ivd 1: indices [N,1], updates [N] */
	{ .ar = 1, .as = { 125 }, .br = 2, .bs = { 10, 1 }, .wr = 1,
	  .ws = { 10 }, .nins = 1, .ins = { 0 }, .nmap = 1,
	  .map = { 0 }, .ivd = 1 },
	/* uwd [0], iwd [1,2], sdod [1,2]: indices [2] */
	{ .ar = 3, .as = { 3, 5, 40 }, .br = 1, .bs = { 2 }, .wr = 1,
	  .ws = { 3 }, .nwin = 1, .win = { 0 }, .nins = 2,
	  .ins = { 1, 2 }, .nmap = 2, .map = { 1, 2 }, .ivd = 0 },
	/* uwd [0], iwd [1], sdod [1] */
	{ .ar = 2, .as = { 4, 3 }, .br = 1, .bs = { 1 }, .wr = 1,
	  .ws = { 4 }, .nwin = 1, .win = { 0 }, .nins = 1, .ins = { 1 },
	  .nmap = 1, .map = { 1 }, .ivd = 0 },
	/* uwd [1], iwd [0,1], sdod [0,1], ivd 1: indices [N,2] */
	{ .ar = 3, .as = { 4, 2, 3 }, .br = 2, .bs = { 5, 2 }, .wr = 2,
	  .ws = { 5, 3 }, .nwin = 1, .win = { 1 }, .nins = 2,
	  .ins = { 0, 1 }, .nmap = 2, .map = { 0, 1 }, .ivd = 1 },
	/* uwd [0], iwd [0], sdod [0] */
	{ .ar = 2, .as = { 3, 5 }, .br = 1, .bs = { 1 }, .wr = 1,
	  .ws = { 5 }, .nwin = 1, .win = { 0 }, .nins = 1, .ins = { 0 },
	  .nmap = 1, .map = { 0 }, .ivd = 0 },
	/* uwd [0,1], iwd [1,3], sdod [1,3] */
	{ .ar = 4, .as = { 4, 2, 3, 5 }, .br = 1, .bs = { 2 }, .wr = 2,
	  .ws = { 4, 3 }, .nwin = 2, .win = { 0, 1 }, .nins = 2,
	  .ins = { 1, 3 }, .nmap = 2, .map = { 1, 3 }, .ivd = 0 },
	/* uwd [0], iwd [1,2], sdod [1,2], ivd 2: indices [1,1,2]? [3,1,2] */
	{ .ar = 3, .as = { 3, 5, 4 }, .br = 3, .bs = { 1, 3, 2 }, .wr = 3,
	  .ws = { 3, 1, 3 }, .nwin = 1, .win = { 0 }, .nins = 2,
	  .ins = { 1, 2 }, .nmap = 2, .map = { 1, 2 }, .ivd = 2 },
	/* uwd [0,1], iwd [2], sdod [2], ivd 1 */
	{ .ar = 3, .as = { 2, 3, 5 }, .br = 2, .bs = { 4, 1 }, .wr = 3,
	  .ws = { 2, 3, 4 }, .nwin = 2, .win = { 0, 1 }, .nins = 1,
	  .ins = { 2 }, .nmap = 1, .map = { 2 }, .ivd = 1 },
	/* uwd [0], iwd [0,2], sdod [0,2] */
	{ .ar = 3, .as = { 3, 4, 5 }, .br = 1, .bs = { 2 }, .wr = 1,
	  .ws = { 4 }, .nwin = 1, .win = { 0 }, .nins = 2,
	  .ins = { 0, 2 }, .nmap = 2, .map = { 0, 2 }, .ivd = 0 },
	/* uwd [0,3], iwd [1], sdod [1], ivd 2: [5,6,7] at [2,2,1] */
	{ .ar = 3, .as = { 5, 6, 7 }, .br = 3, .bs = { 2, 2, 1 }, .wr = 4,
	  .ws = { 5, 2, 2, 7 }, .nwin = 2, .win = { 0, 3 }, .nins = 1,
	  .ins = { 1 }, .nmap = 1, .map = { 1 }, .ivd = 2 },
	/* iwd [0], sdod [0], ivd 0 (default): scalar updates */
	{ .ar = 1, .as = { 3 }, .br = 1, .bs = { 1 }, .wr = 0,
	  .nins = 1, .ins = { 0 }, .nmap = 1, .map = { 0 }, .ivd = 0 },
	/* uwd [0], iwd [1], sdod [1], ivd 2 */
	{ .ar = 2, .as = { 5, 6 }, .br = 3, .bs = { 2, 2, 1 }, .wr = 3,
	  .ws = { 5, 2, 2 }, .nwin = 1, .win = { 0 }, .nins = 1,
	  .ins = { 1 }, .nmap = 1, .map = { 1 }, .ivd = 2 },
	/* uwd [0,2], iwd [1], sdod [1], ivd 1 */
	{ .ar = 3, .as = { 3, 5, 4 }, .br = 2, .bs = { 2, 1 }, .wr = 3,
	  .ws = { 3, 2, 4 }, .nwin = 2, .win = { 0, 2 }, .nins = 1,
	  .ins = { 1 }, .nmap = 1, .map = { 1 }, .ivd = 1 },
	/* The spec's example (batching), without its trailing dim of 2. */
	{ .ar = 3, .as = { 2, 3, 4 }, .br = 4, .bs = { 2, 2, 3, 2 },
	  .wr = 4, .ws = { 2, 2, 3, 2 }, .nwin = 1, .win = { 3 },
	  .nins = 1, .ins = { 1 }, .nbat = 1, .abat = { 0 },
	  .bbat = { 1 }, .nmap = 2, .map = { 2, 1 }, .ivd = 3 },
};

TEST(corpus_layouts)
{
	static const uint32_t dts[] = { PWTPU_DT_F32, PWTPU_DT_BF16,
					PWTPU_DT_F16, PWTPU_DT_F64,
					PWTPU_DT_I8, PWTPU_DT_U8,
					PWTPU_DT_I64, PWTPU_DT_U64 };
	uint32_t c, m, d, rep;
	struct gs g;

	for (c = 0; c < sizeof(corpus) / sizeof(corpus[0]); c++) {
		for (m = 0; m < 5; m++) {
			for (d = 0; d < 8; d++) {
				for (rep = 0; rep < 3; rep++) {
					g = corpus[c];
					g.scatter = true;
					g.mode = m;
					g.dtype = dts[d];
					g.idtype = index_dtypes[(c + rep) %
								N_IDTYPES];
					EXPECT_EQ(0, check_gs(_metadata, &g,
							      false))
						TH_LOG("corpus layout %u", c);
				}
			}
		}
	}
}

/* The same layouts read as gathers (the updates are the result). */
TEST(corpus_layouts_gather)
{
	uint32_t c, d;
	struct gs g;

	for (c = 0; c < sizeof(corpus) / sizeof(corpus[0]); c++) {
		for (d = 0; d < N_DTYPES; d++) {
			g = corpus[c];
			g.dtype = all_dtypes[d];
			g.idtype = index_dtypes[(c + d) % N_IDTYPES];
			EXPECT_EQ(0, check_gs(_metadata, &g, false))
				TH_LOG("corpus layout %u", c);
		}
	}
}

/* ---- Hand-worked cases ---- */

/* A 1-d scatter of scalars into @n f32s: iwd [0], sdod [0], ivd 1. */
static int scatter_1d(struct __test_metadata *_metadata, uint32_t mode,
		      uint32_t idtype, const void *indices, uint32_t nidx,
		      const float *upd, float *data, uint32_t n)
{
	uint32_t isz = pwfw_dtype_size(idtype);
	uint32_t args[2] = {
		PWTPU_GS_ARG0(0, 1, 0, 1), PWTPU_GS_MAP(0, 0),
	};
	int ta, tb, tc, td;
	struct ops o;

	if (ops_init(&o, 4096))
		return -1;
	ta = ops_tensor(&o, PWTPU_DT_F32, 1, n);
	tb = ops_tensor(&o, idtype, 2, nidx, 1);
	tc = ops_tensor(&o, PWTPU_DT_F32, 1, nidx);
	td = ops_tensor(&o, PWTPU_DT_F32, 1, n);
	if (pwprog_insn(o.p, PWTPU_OP_SCATTER, (uint8_t)mode, td, ta, tb, tc,
			args, 2) < 0)
		return -1;
	memcpy(ops_ptr(&o, ta), data, n * 4);
	memcpy(ops_ptr(&o, tb), indices, nidx * isz);
	memcpy(ops_ptr(&o, tc), upd, nidx * 4);
	ASSERT_EQ(0, ops_run(&o));
	memcpy(data, ops_ptr(&o, td), n * 4);
	ops_fini(&o);
	return 0;
}

/* Repeated indices: row-major order decides, bit for bit. */
TEST(repeated_indices_in_order)
{
	const int32_t same[4] = { 1, 1, 1, 1 };
	const float upd[4] = { 1e8f, 1.0f, -1e8f, 1.0f };
	float data[3];

	/* ((0 + 1e8) + 1) - 1e8 + 1: the 1 vanishes, then returns. */
	memset(data, 0, sizeof(data));
	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_ADD, PWTPU_DT_I32,
				same, 4, upd, data, 3));
	EXPECT_EQ(1.0f, data[1]);
	EXPECT_EQ(0.0f, data[0]);
	/* SET: the last update wins. */
	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_SET, PWTPU_DT_I32,
				same, 4, upd, data, 3));
	EXPECT_EQ(1.0f, data[1]);
	data[1] = 2;
	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_MUL, PWTPU_DT_I32,
				same, 2, upd, data, 3));
	EXPECT_EQ(2e8f, data[1]);
	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_MIN, PWTPU_DT_I32,
				same, 3, upd, data, 3));
	EXPECT_EQ(-1e8f, data[1]);
	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_MAX, PWTPU_DT_I32,
				same, 4, upd, data, 3));
	EXPECT_EQ(1e8f, data[1]);
}

/* Negative and huge indices are skipped, never wrapped or clamped. */
TEST(scatter_wild_indices_skipped)
{
	const int64_t i64[6] = { -1, INT64_MIN, 3, INT64_MAX, 2, 0 };
	const uint64_t u64[6] = { ~0ULL, 1ULL << 63, 3, 1ULL << 32, 2, 0 };
	const int8_t i8[6] = { -1, -128, 3, 127, 2, 0 };
	const float upd[6] = { 10, 20, 30, 40, 50, 60 };
	float data[3] = { 1, 2, 3 };

	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_ADD, PWTPU_DT_I64,
				i64, 6, upd, data, 3));
	EXPECT_EQ(61.0f, data[0]);
	EXPECT_EQ(2.0f, data[1]);
	EXPECT_EQ(53.0f, data[2]);
	data[0] = 1;
	data[1] = 2;
	data[2] = 3;
	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_ADD, PWTPU_DT_U64,
				u64, 6, upd, data, 3));
	EXPECT_EQ(61.0f, data[0]);
	EXPECT_EQ(53.0f, data[2]);
	data[0] = 1;
	data[2] = 3;
	ASSERT_EQ(0, scatter_1d(_metadata, PWTPU_SCATTER_SET, PWTPU_DT_I8,
				i8, 6, upd, data, 3));
	EXPECT_EQ(60.0f, data[0]);
	EXPECT_EQ(2.0f, data[1]);
	EXPECT_EQ(50.0f, data[2]);
}

/*
 * A window partly outside the operand is skipped whole: f32[6], windows
 * of 3 (uwd [1], no inserted dims, sdod [0], ivd 1) at 3 (fits, last
 * element 5), 4 (one past: skipped) and -1 (skipped).
 */
TEST(scatter_partial_window_skipped)
{
	const int32_t idx[3] = { 3, 4, -1 };
	uint32_t args[2] = { PWTPU_GS_ARG0(2, 0, 0, 1), PWTPU_GS_MAP(0, 0) };
	const float want[6] = { 0, 0, 0, 1, 1, 1 };
	int ta, tb, tc, td;
	struct ops o;
	float *c;
	int k;

	ASSERT_EQ(0, ops_init(&o, 4096));
	ta = ops_tensor(&o, PWTPU_DT_F32, 1, 6);
	tb = ops_tensor(&o, PWTPU_DT_I32, 2, 3, 1);
	tc = ops_tensor(&o, PWTPU_DT_F32, 2, 3, 3);
	td = ops_tensor(&o, PWTPU_DT_F32, 1, 6);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_SCATTER, PWTPU_SCATTER_ADD, td,
				 ta, tb, tc, args, 2));
	memset(ops_ptr(&o, ta), 0, 24);
	memcpy(ops_ptr(&o, tb), idx, sizeof(idx));
	c = ops_ptr(&o, tc);
	for (k = 0; k < 9; k++)
		c[k] = 1;
	ASSERT_EQ(0, ops_run(&o));
	EXPECT_EQ(0, memcmp(want, ops_ptr(&o, td), sizeof(want)));
	ops_fini(&o);
}

/*
 * Gather clamps each start so the slice fits: f32[6] = 0..5, slices of
 * 3 (offset_dims [1], sdod [0], ivd 1) at -5, 4, 2, u64-style huge.
 */
TEST(gather_clamps)
{
	const int64_t idx[4] = { -5, 4, 2, INT64_MAX };
	const uint64_t uidx[2] = { ~0ULL, 1 };
	uint32_t args[2] = { PWTPU_GS_ARG0(2, 0, 0, 1), PWTPU_GS_MAP(0, 0) };
	const float want[12] = { 0, 1, 2, 3, 4, 5, 2, 3, 4, 3, 4, 5 };
	const float uwant[6] = { 3, 4, 5, 1, 2, 3 };
	int ta, tb, td, tub, tud;
	struct ops o;
	float *a;
	int k;

	ASSERT_EQ(0, ops_init(&o, 4096));
	ta = ops_tensor(&o, PWTPU_DT_F32, 1, 6);
	tb = ops_tensor(&o, PWTPU_DT_I64, 2, 4, 1);
	td = ops_tensor(&o, PWTPU_DT_F32, 2, 4, 3);
	tub = ops_tensor(&o, PWTPU_DT_U64, 2, 2, 1);
	tud = ops_tensor(&o, PWTPU_DT_F32, 2, 2, 3);
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_GATHER, 0, td, ta, tb,
				 PWTPU_NO_TENSOR, args, 2));
	ASSERT_LE(0, pwprog_insn(o.p, PWTPU_OP_GATHER, 0, tud, ta, tub,
				 PWTPU_NO_TENSOR, args, 2));
	a = ops_ptr(&o, ta);
	for (k = 0; k < 6; k++)
		a[k] = (float)k;
	memcpy(ops_ptr(&o, tb), idx, sizeof(idx));
	memcpy(ops_ptr(&o, tub), uidx, sizeof(uidx));
	ASSERT_EQ(0, ops_run(&o));
	EXPECT_EQ(0, memcmp(want, ops_ptr(&o, td), sizeof(want)));
	EXPECT_EQ(0, memcmp(uwant, ops_ptr(&o, tud), sizeof(uwant)));
	ops_fini(&o);
}

/*
 * More updates than one piece (65536 elements), all onto 7 places, with
 * windows along the last dimension: order and the index cache must
 * survive the pieces. Also in place.
 */
TEST(scatter_many_pieces)
{
	struct gs g = {
		.scatter = true, .mode = PWTPU_SCATTER_ADD,
		.dtype = PWTPU_DT_F32, .idtype = PWTPU_DT_I32,
		.ar = 2, .as = { 7, 33 }, .br = 2, .bs = { 2100, 1 },
		.wr = 2, .ws = { 2100, 33 }, .nwin = 1, .win = { 1 },
		.nins = 1, .ins = { 0 }, .nmap = 1, .map = { 0 }, .ivd = 1,
	};

	EXPECT_EQ(0, check_gs(_metadata, &g, false));
	g.mode = PWTPU_SCATTER_SET;
	g.dtype = PWTPU_DT_U16;
	EXPECT_EQ(0, check_gs(_metadata, &g, true));
	g.mode = PWTPU_SCATTER_MAX;
	g.dtype = PWTPU_DT_BF16;
	EXPECT_EQ(0, check_gs(_metadata, &g, true));
}

TEST(gather_many_pieces)
{
	struct gs g = {
		.dtype = PWTPU_DT_I16, .idtype = PWTPU_DT_U8,
		.ar = 2, .as = { 9, 40 }, .br = 2, .bs = { 3000, 1 },
		.wr = 2, .ws = { 3000, 30 }, .nwin = 1, .win = { 1 },
		.nins = 1, .ins = { 0 }, .nmap = 1, .map = { 0 }, .ivd = 1,
	};

	EXPECT_EQ(0, check_gs(_metadata, &g, false));
}

TEST_HARNESS_MAIN
