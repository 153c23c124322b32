/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_fn.h - the function the runtime's tests compute with most: x + 1
 * over f32, a step whose every result says how many ran (test_fn.c).
 */
#ifndef PW_SELFTESTS_TEST_FN_H
#define PW_SELFTESTS_TEST_FN_H

#include <stdint.h>

#include <pathways/pathways.h>

/*
 * @name: y = x + 1 over f32[@elems], after computing for @delay_ns (0:
 * at once; in pieces of at most 1 s, as a program models them). NULL
 * when the builder refused it (pw_last_error() says why).
 */
struct pw_fn *test_fn_add_one(const char *name, unsigned int elems,
			      uint64_t delay_ns);

#endif /* PW_SELFTESTS_TEST_FN_H */
