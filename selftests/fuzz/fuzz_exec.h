/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_exec.h - running a verified program inside a fuzzer (fuzz_exec.c):
 * what one input may cost, and buffers of exactly the bytes asked for,
 * filled from the input, so that AddressSanitizer sees one byte past.
 */
#ifndef FUZZ_EXEC_H
#define FUZZ_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../firmware/pwfw.h"

/* An input is a millisecond, not a day: bigger programs are not run. */
#define FUZZ_MAX_BUF_BYTES	(1u << 20)	/* all bindings together */
#define FUZZ_MAX_WORK		(1ull << 18)	/* pwfw_work_insn() units */
#define FUZZ_MAX_MODELED_NS	1000000ull	/* DELAY sleeps for real */

/* Whether @prog over bindings of @sizes is small enough to run. */
bool fuzz_prog_small(const struct pwfw_prog *prog, const u64 *sizes);

/*
 * Bindings of @sizes[0..@prog->nbufs), each holding the bytes of @data
 * over and over (NaNs, overflows and all), run in @env (zeroed or set up
 * by the caller) under a 200 ms deadline, then freed. @consts, when not
 * NULL, is copied to the start of binding @const_buf first. Returns what
 * pwfw_exec() did.
 */
int fuzz_exec(const struct pwfw_prog *prog, const u64 *sizes,
	      const uint8_t *data, size_t size, int const_buf,
	      const void *consts, uint64_t const_bytes,
	      struct pwfw_exec_env *env);

#endif /* FUZZ_EXEC_H */
