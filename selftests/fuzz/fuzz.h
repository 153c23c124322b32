/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what every harness needs: the libFuzzer entry point, and the
 * input copied into exactly its bytes, so that AddressSanitizer sees a
 * read one past them (libFuzzer's own buffer may be longer).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline uint8_t *fuzz_dup(const uint8_t *data, size_t size)
{
	uint8_t *p = malloc(size ? size : 1);

	if (!p)
		abort();
	memcpy(p, data, size);
	return p;
}

#endif /* FUZZ_H */
