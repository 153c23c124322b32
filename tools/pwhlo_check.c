// SPDX-License-Identifier: GPL-2.0
/*
 * pwhlo_check.c - the StableHLO test suite's assertions on host buffers,
 * with the reference interpreter's rules:
 *
 *   expect_eq        integers and i1 exactly, floats by value (-0 == +0,
 *                    NaN equals nothing), complex both parts
 *   expect_close     floats within 0..3 ULP (complex: the larger of the
 *                    two parts'); refused on integers
 *   expect_almost_eq floats within 1e-3 (below); refused on integers,
 *                    which the interpreter has no rule for
 *   eq               integers and i1 exactly, floats within 1e-4
 *
 * Elements are decoded here, bit by bit, not through the compiler's half
 * types: f16 and bf16 become exact doubles, as f32 does.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pwhlo_check.h"

enum elem_class { EC_BOOL, EC_SINT, EC_UINT, EC_FLOAT };

/*
 * How one scalar part of an element is stored and read: @bytes in
 * memory, @bits of value (4 for i4, which takes a byte), @mant bits of
 * fraction for a float, and @parts scalars an element (complex: 2).
 * The table is this file's own, so that it needs nothing of the
 * runtime's (its unit test links it alone).
 */
struct elem_layout {
	const char *name;
	enum elem_class cls;
	unsigned int bytes;
	unsigned int bits;
	unsigned int mant;
	unsigned int parts;
};

/* One scalar: its bits (ints sign-extended to 64), a float's value. */
struct scalar {
	uint64_t u;
	double d;
};

static bool layout_of(enum pw_hlo_dtype dt, struct elem_layout *l)
{
	static const struct {
		enum pw_hlo_dtype dt;
		struct elem_layout l;
	} table[] = {
		{ PW_HLO_DT_I1, { "i1", EC_BOOL, 1, 8, 0, 1 } },
		{ PW_HLO_DT_I4, { "i4", EC_SINT, 1, 4, 0, 1 } },
		{ PW_HLO_DT_I8, { "i8", EC_SINT, 1, 8, 0, 1 } },
		{ PW_HLO_DT_I16, { "i16", EC_SINT, 2, 16, 0, 1 } },
		{ PW_HLO_DT_I32, { "i32", EC_SINT, 4, 32, 0, 1 } },
		{ PW_HLO_DT_I64, { "i64", EC_SINT, 8, 64, 0, 1 } },
		{ PW_HLO_DT_UI4, { "ui4", EC_UINT, 1, 4, 0, 1 } },
		{ PW_HLO_DT_UI8, { "ui8", EC_UINT, 1, 8, 0, 1 } },
		{ PW_HLO_DT_UI16, { "ui16", EC_UINT, 2, 16, 0, 1 } },
		{ PW_HLO_DT_UI32, { "ui32", EC_UINT, 4, 32, 0, 1 } },
		{ PW_HLO_DT_UI64, { "ui64", EC_UINT, 8, 64, 0, 1 } },
		{ PW_HLO_DT_F16, { "f16", EC_FLOAT, 2, 16, 10, 1 } },
		{ PW_HLO_DT_BF16, { "bf16", EC_FLOAT, 2, 16, 7, 1 } },
		{ PW_HLO_DT_F32, { "f32", EC_FLOAT, 4, 32, 23, 1 } },
		{ PW_HLO_DT_F64, { "f64", EC_FLOAT, 8, 64, 52, 1 } },
		{ PW_HLO_DT_C64, { "complex<f32>", EC_FLOAT, 4, 32, 23, 2 } },
		{ PW_HLO_DT_C128, { "complex<f64>", EC_FLOAT, 8, 64, 52, 2 } },
	};
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i].dt == dt) {
			*l = table[i].l;
			return true;
		}
	}
	return false;
}

const char *pwhlo_check_name(enum pw_hlo_check_kind kind)
{
	switch (kind) {
	case PW_HLO_CHECK_EXPECT_EQ: return "check.expect_eq";
	case PW_HLO_CHECK_EXPECT_CLOSE: return "check.expect_close";
	case PW_HLO_CHECK_EXPECT_ALMOST_EQ: return "check.expect_almost_eq";
	case PW_HLO_CHECK_EQ: return "check.eq";
	}
	return "check.?";
}

static uint64_t load_le(const uint8_t *p, unsigned int n)
{
	uint64_t u = 0;

	while (n--)
		u = u << 8 | p[n];
	return u;
}

static uint64_t sign_bit(const struct elem_layout *l)
{
	return 1ull << (l->bits - 1);
}

static uint64_t value_mask(const struct elem_layout *l)
{
	return l->bits == 64 ? UINT64_MAX : (1ull << l->bits) - 1;
}

static uint64_t exp_mask(const struct elem_layout *l)
{
	return value_mask(l) & ~sign_bit(l) & ~((1ull << l->mant) - 1);
}

static bool bits_nan(uint64_t u, const struct elem_layout *l)
{
	return (u & exp_mask(l)) == exp_mask(l) &&
	       (u & ((1ull << l->mant) - 1));
}

static bool bits_finite(uint64_t u, const struct elem_layout *l)
{
	return (u & exp_mask(l)) != exp_mask(l);
}

/* The exact value of float bits @u (every format here fits a double). */
static double float_value(uint64_t u, const struct elem_layout *l)
{
	uint64_t frac = u & ((1ull << l->mant) - 1);
	uint64_t e = (u & exp_mask(l)) >> l->mant;
	int bias = (int)(exp_mask(l) >> l->mant) >> 1;
	double v;

	if (l->bits == 64) {
		memcpy(&v, &u, sizeof(v));
		return v;
	}
	if (e == exp_mask(l) >> l->mant)
		v = frac ? NAN : INFINITY;
	else if (e == 0)	/* subnormal or zero */
		v = ldexp((double)frac, 1 - bias - (int)l->mant);
	else
		v = ldexp((double)(frac | 1ull << l->mant),
			  (int)e - bias - (int)l->mant);
	return u & sign_bit(l) ? -v : v;
}

static struct scalar load_scalar(const uint8_t *p, const struct elem_layout *l)
{
	struct scalar s = { load_le(p, l->bytes), 0 };

	switch (l->cls) {
	case EC_BOOL:
		break;
	case EC_UINT:
		s.u &= value_mask(l);
		break;
	case EC_SINT:
		s.u &= value_mask(l);
		if (s.u & sign_bit(l))
			s.u |= ~value_mask(l);
		break;
	case EC_FLOAT:
		s.d = float_value(s.u, l);
		break;
	}
	return s;
}

/*
 * ULPs between float bits @a and @b: the distance of their magnitudes'
 * bit patterns, summed across zero; 0 between two NaNs, and as far as
 * can be between anything else that is not finite and not identical.
 */
static uint64_t ulp_distance(uint64_t a, uint64_t b,
			     const struct elem_layout *l)
{
	uint64_t ma = a & ~sign_bit(l), mb = b & ~sign_bit(l);

	if (a == b)
		return 0;
	if (bits_finite(a, l) && bits_finite(b, l)) {
		if ((a ^ b) & sign_bit(l))
			return ma + mb;
		return ma > mb ? ma - mb : mb - ma;
	}
	if (bits_nan(a, l) && bits_nan(b, l))
		return 0;
	return UINT64_MAX;
}

/*
 * Almost equal within @tol: equal values are; a NaN only to a NaN; an
 * infinity to nothing it is not equal to; otherwise both finite (zero
 * included) with the same sign and at most @tol apart.
 */
static bool almost_equal(double f, double g, double tol)
{
	if (f == g)
		return true;
	if (isnan(f) || isnan(g))
		return isnan(f) && isnan(g);
	if (isinf(f) || isinf(g))
		return false;
	if (!!signbit(f) != !!signbit(g))
		return false;
	return fabs(f - g) <= tol;
}

/*
 * Whether the decimal @d reads back as float bits @u, the way the
 * StableHLO reader reads a literal: to the nearest value, ties to even.
 * The midpoints between neighbours of 16- and 32-bit formats are exact
 * in a double.
 */
static bool reads_back(double d, uint64_t u, const struct elem_layout *l)
{
	uint64_t mag = u & ~sign_bit(l);
	double v, below, above, lo, hi;

	if (l->bits == 64 || !bits_finite(u, l))
		return d == float_value(u, l) &&
		       !!signbit(d) == !!(u & sign_bit(l));
	if (!!signbit(d) != !!(u & sign_bit(l)))
		return false;
	d = fabs(d);
	v = float_value(mag, l);
	if (d == v)
		return true;
	if (!mag)
		return false;
	below = float_value(mag - 1, l);
	above = bits_finite(mag + 1, l) ? float_value(mag + 1, l) :
		v + (v - below);
	lo = (below + v) / 2;
	hi = (v + above) / 2;
	if (d > lo && d < hi)
		return true;
	return (d == lo || d == hi) && !(mag & 1);
}

/* The shortest decimal that reads back as float bits @u. */
static void format_float(char *buf, size_t len, uint64_t u,
			 const struct elem_layout *l)
{
	double v = float_value(u, l);
	int prec;

	if (isnan(v)) {
		snprintf(buf, len, "%snan", u & sign_bit(l) ? "-" : "");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (reads_back(strtod(buf, NULL), u, l))
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

static void format_scalar(char *buf, size_t len, struct scalar s,
			  const struct elem_layout *l)
{
	switch (l->cls) {
	case EC_BOOL:
		if (s.u <= 1)
			snprintf(buf, len, "%s", s.u ? "true" : "false");
		else	/* not a bool the device should make: show it */
			snprintf(buf, len, "%" PRIu64 " (not 0 or 1)", s.u);
		break;
	case EC_SINT:
		snprintf(buf, len, "%" PRId64, (int64_t)s.u);
		break;
	case EC_UINT:
		snprintf(buf, len, "%" PRIu64, s.u);
		break;
	case EC_FLOAT:
		format_float(buf, len, s.u, l);
		break;
	}
}

static void format_elem(char *buf, size_t len, const struct scalar *s,
			const struct elem_layout *l)
{
	char re[64], im[64];

	format_scalar(re, sizeof(re), s[0], l);
	if (l->parts == 1) {
		snprintf(buf, len, "%s", re);
		return;
	}
	format_scalar(im, sizeof(im), s[1], l);
	snprintf(buf, len, "(%s, %s)", re, im);
}

/*
 * Whether one element (@parts scalars) passes @kind; *@ulp gets the
 * ULP distance for expect_close, *@diff the largest part's distance
 * for a tolerance (NAN when a part has none).
 */
static bool elem_passes(enum pw_hlo_check_kind kind, const struct scalar *a,
			const struct scalar *e, const struct elem_layout *l,
			uint64_t *ulp, double *diff)
{
	bool ok = true;
	unsigned int p;

	*ulp = 0;
	*diff = 0;
	for (p = 0; p < l->parts; p++) {
		if (l->cls != EC_FLOAT) {
			ok &= a[p].u == e[p].u;
			continue;
		}
		switch (kind) {
		case PW_HLO_CHECK_EXPECT_EQ:
			ok &= a[p].d == e[p].d;
			break;
		case PW_HLO_CHECK_EXPECT_CLOSE: {
			uint64_t u = ulp_distance(a[p].u, e[p].u, l);

			if (u > *ulp)
				*ulp = u;
			ok &= u <= PWHLO_MAX_ULP;
			break;
		}
		case PW_HLO_CHECK_EXPECT_ALMOST_EQ:
		case PW_HLO_CHECK_EQ: {
			double tol = kind == PW_HLO_CHECK_EQ ? PWHLO_EQ_TOL :
				     PWHLO_ALMOST_EQ_TOL;
			double d = fabs(a[p].d - e[p].d);

			ok &= almost_equal(a[p].d, e[p].d, tol);
			if (!isnan(*diff) && (isnan(d) || d > *diff))
				*diff = d;
			break;
		}
		}
	}
	return ok;
}

/* The failure message of element @i. */
static void describe(char *msg, size_t msglen, enum pw_hlo_check_kind kind,
		     size_t i, const struct scalar *a, const struct scalar *e,
		     const struct elem_layout *l, uint64_t ulp, double diff)
{
	char av[160], ev[160], why[96] = "";

	format_elem(av, sizeof(av), a, l);
	format_elem(ev, sizeof(ev), e, l);
	if (l->cls == EC_FLOAT && kind == PW_HLO_CHECK_EXPECT_CLOSE) {
		if (ulp == UINT64_MAX)
			snprintf(why, sizeof(why), ", not both finite");
		else
			snprintf(why, sizeof(why), ", %" PRIu64 " ULP (at most %d)",
				 ulp, PWHLO_MAX_ULP);
	} else if (l->cls == EC_FLOAT && kind != PW_HLO_CHECK_EXPECT_EQ &&
		   isfinite(diff)) {
		double tol = kind == PW_HLO_CHECK_EQ ? PWHLO_EQ_TOL :
			     PWHLO_ALMOST_EQ_TOL;

		if (diff > tol)
			snprintf(why, sizeof(why), ", %.3g apart (tolerance %g)",
				 diff, tol);
		else	/* close, but on either side of zero */
			snprintf(why, sizeof(why), ", signs differ");
	}
	snprintf(msg, msglen, "%s: element %zu: %s (actual) vs %s (expected)%s",
		 pwhlo_check_name(kind), i, av, ev, why);
}

int pwhlo_check_eval(enum pw_hlo_check_kind kind, enum pw_hlo_dtype dt,
		     const void *actual, const void *expected, size_t count,
		     char *msg, size_t msglen)
{
	const uint8_t *pa = actual, *pe = expected;
	struct scalar a[2], e[2];
	struct elem_layout l;
	size_t i, step;
	unsigned int p;
	uint64_t ulp;
	double diff;

	if (msglen)
		msg[0] = '\0';
	if (!layout_of(dt, &l)) {
		snprintf(msg, msglen, "%s: no element type it can read (%d)",
			 pwhlo_check_name(kind), (int)dt);
		return -EOPNOTSUPP;
	}
	if (l.cls != EC_FLOAT && (kind == PW_HLO_CHECK_EXPECT_CLOSE ||
				  kind == PW_HLO_CHECK_EXPECT_ALMOST_EQ)) {
		snprintf(msg, msglen, "%s: %s is not a floating-point type",
			 pwhlo_check_name(kind), l.name);
		return -EINVAL;
	}
	step = (size_t)l.bytes * l.parts;
	for (i = 0; i < count; i++) {
		for (p = 0; p < l.parts; p++) {
			a[p] = load_scalar(pa + i * step + p * l.bytes, &l);
			e[p] = load_scalar(pe + i * step + p * l.bytes, &l);
		}
		if (!elem_passes(kind, a, e, &l, &ulp, &diff)) {
			describe(msg, msglen, kind, i, a, e, &l, ulp, diff);
			return 0;
		}
	}
	return 1;
}
