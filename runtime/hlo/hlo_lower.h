/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hlo_lower.h - a StableHLO module's @main lowered to a compiled function
 * (internal to libpathways and its tools; docs/stablehlo.md).
 *
 * pw_fn_from_stablehlo() (pathways.h) is this with no checks. The
 * StableHLO test suite's programs assert their results with custom calls
 * (@check.expect_eq, @check.expect_close, @check.expect_almost_eq,
 * @check.eq); with @keep_checks, each check's operands become results of
 * the function after @main's own, so that a runner (tools/pwhlo.c) can
 * evaluate them on the host with the reference interpreter's rules.
 */
#ifndef PW_HLO_LOWER_H
#define PW_HLO_LOWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pathways/pathways.h>

#include "hlo.h"

enum pw_hlo_check_kind {
	PW_HLO_CHECK_EXPECT_EQ,		/* exact; floats by value */
	PW_HLO_CHECK_EXPECT_CLOSE,	/* floats within 0..3 ULP */
	PW_HLO_CHECK_EXPECT_ALMOST_EQ,	/* floats within 1e-3 */
	PW_HLO_CHECK_EQ,		/* ints exact, floats within 1e-4 */
};

/**
 * struct pw_hlo_check - one assertion of the module
 * @kind: which custom call.
 * @actual: result number (of the function) of its first operand.
 * @expected: result number of its second operand.
 * @line: where the call is in the source.
 */
struct pw_hlo_check {
	enum pw_hlo_check_kind kind;
	unsigned int actual;
	unsigned int expected;
	uint32_t line;
};

/**
 * struct pw_hlo_lowered - @main as a compiled function
 * @fn: the function; its parameters are @main's, in order.
 * @nmain: the function's first results: @main's, in order, but for the
 *	i1 a @check.eq gives, which the function does not compute (the
 *	check's outcome stands for it).
 * @dtypes: each result's StableHLO element type (i1 is one byte, 0 or
 *	1, on the device); pw_fn_num_results(@fn) of them.
 * @checks: the module's assertions, in program order; @nchecks of them.
 */
struct pw_hlo_lowered {
	struct pw_fn *fn;
	unsigned int nmain;
	enum pw_hlo_dtype *dtypes;
	struct pw_hlo_check *checks;
	unsigned int nchecks;
};

/*
 * Lower @entry (NULL: "main") of @mod. 0, or a negative errno with
 * "LINE:COL: what" in @err: -EOPNOTSUPP names the op, attribute, dtype
 * or shape that is not supported yet; -EINVAL a module that is not valid
 * StableHLO (an undefined value, operands of the wrong types); -E2BIG a
 * limit of the device's programs. On failure *@out is zeroed (freeing it
 * is harmless).
 */
int pw_hlo_lower(const struct pw_hlo_module *mod, const char *entry,
		 bool keep_checks, struct pw_hlo_lowered *out, char *err,
		 size_t errlen);
/* Free what pw_hlo_lower() made (its function too); NULL is ignored. */
void pw_hlo_lowered_free(struct pw_hlo_lowered *l);

/* The device's dtype for a StableHLO one, or 0 when it has none. */
enum pwtpu_dtype pw_hlo_device_dtype(enum pw_hlo_dtype dt);

#endif /* PW_HLO_LOWER_H */
