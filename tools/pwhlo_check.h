/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwhlo_check.h - the StableHLO test suite's assertions (@check.expect_eq,
 * @check.expect_close, @check.expect_almost_eq, @check.eq) evaluated on
 * the host, with the reference interpreter's rules, over two buffers a
 * program computed (pwhlo_check.c; tools/pwhlo.c runs the programs).
 */
#ifndef PWHLO_CHECK_H
#define PWHLO_CHECK_H

#include <stddef.h>

#include "../runtime/hlo/hlo_lower.h"

/* @check.expect_close: the ULP difference allowed, inclusive. */
#define PWHLO_MAX_ULP		3
/* The tolerances of @check.expect_almost_eq and of @check.eq on floats. */
#define PWHLO_ALMOST_EQ_TOL	1e-3
#define PWHLO_EQ_TOL		1e-4

/*
 * Check @kind over @count elements of @dt at @actual and @expected, laid
 * out as dense constants are (hlo.h: i1 and i4 one byte each, complex
 * real then imaginary, little-endian). 1 when it holds; 0 when it does
 * not, with "check.NAME: element I: A (actual) vs E (expected)..." in
 * @msg naming the first element that differs; a negative errno when the
 * check cannot apply to @dt (-EINVAL: expect_close on integers, as the
 * reference interpreter refuses it; -EOPNOTSUPP: a dtype with no
 * layout), with why in @msg.
 */
int pwhlo_check_eval(enum pw_hlo_check_kind kind, enum pw_hlo_dtype dt,
		     const void *actual, const void *expected, size_t count,
		     char *msg, size_t msglen);

/* "check.expect_close" and so on. */
const char *pwhlo_check_name(enum pw_hlo_check_kind kind);

#endif /* PWHLO_CHECK_H */
