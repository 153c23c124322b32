/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_fn.h - a compiled function made from fuzzed input (the builder's
 * calls, a StableHLO module) must be one the device's verifier accepts,
 * whose bindings are no bigger than the buffers the runtime gives it,
 * and which then runs over exactly those buffers (fuzz_fn.c). Aborts
 * otherwise.
 */
#ifndef FUZZ_FN_H
#define FUZZ_FN_H

#include <stddef.h>
#include <stdint.h>

#include <pathways/pathways.h>

/* @data, @size: what the bindings are filled with. */
void fuzz_check_fn(const struct pw_fn *fn, const uint8_t *data, size_t size);

#endif /* FUZZ_FN_H */
