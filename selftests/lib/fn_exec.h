/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fn_exec.h - a compiled function's image verified by the firmware's
 * verifier and run by its interpreter on host memory, one allocation per
 * binding laid out as runtime/fn/fn.h says: the device without a device,
 * for tests of what makes functions (the builder, the StableHLO
 * lowering).
 */
#ifndef PW_SELFTESTS_FN_EXEC_H
#define PW_SELFTESTS_FN_EXEC_H

#include "../../firmware/pwfw.h"
#include "../../runtime/fn/fn.h"

/* Bytes a parameter or result binding is filled with before a run. */
#define TEST_FN_POISON	0xa5

/* 0, or -EINVAL with the verifier's message on stderr. */
int test_fn_verify(const struct pw_fn *fn, struct pwfw_prog *prog);
/*
 * Verify and run @fn once: parameter i from @in[i], result r copied to
 * @out[r] (pw_sig_bytes() of it). 0, a verifier failure (-EINVAL), or
 * pwfw_exec()'s error.
 */
int test_fn_exec(const struct pw_fn *fn, const void *const *in,
		 void *const *out);

#endif /* PW_SELFTESTS_FN_EXEC_H */
