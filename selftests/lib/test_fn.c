// SPDX-License-Identifier: GPL-2.0
/*
 * test_fn.c - x + 1 for the runtime's tests (test_fn.h).
 */
#include "test_fn.h"

#define DELAY_PIECE_NS	1000000000ull

struct pw_fn *test_fn_add_one(const char *name, unsigned int elems,
			      uint64_t delay_ns)
{
	const uint32_t shape[1] = { elems };
	struct pw_fn_builder *b = pw_fn_begin(name);
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, shape);
	struct pw_fn *fn = NULL;
	uint64_t piece;

	for (; delay_ns; delay_ns -= piece) {
		piece = delay_ns < DELAY_PIECE_NS ? delay_ns : DELAY_PIECE_NS;
		pw_fn_delay(b, piece);
	}
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1.0)));
	return pw_fn_build(b, &fn) ? NULL : fn;
}
