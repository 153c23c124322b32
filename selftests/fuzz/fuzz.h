/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - the libFuzzer entry point every harness defines. libFuzzer
 * hands each input over in a heap copy of exactly its bytes, so that
 * AddressSanitizer sees a read one past it.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* FUZZ_H */
