// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_fn.c - what every harness that makes compiled functions asks of
 * them (fuzz_fn.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../../runtime/fn/fn.h"
#include "fuzz_exec.h"
#include "fuzz_fn.h"

/* What pw_fn_build() makes the device must take, and run. */
void fuzz_check_fn(const struct pw_fn *fn, const uint8_t *data, size_t size)
{
	u64 sizes[PWTPU_MAX_BUFS];
	struct pwfw_exec_env env;
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	unsigned int i;
	int ret;

	pwfw_spec_default(&spec);
	if (pwfw_verify(fn->image, fn->image_size, &spec, &prog, &err) ||
	    prog.nbufs != fn->nbufs)
		abort();
	for (i = 0; i < fn->nbufs; i++) {
		sizes[i] = pw_fn_binding_bytes(fn, i);
		if (!sizes[i] || prog.buf_bytes[i] > sizes[i])
			abort();
	}
	/* Collectives need a gang of the slice's size: not here. */
	if (fn->collectives || !fuzz_prog_small(&prog, sizes))
		return;
	memset(&env, 0, sizeof(env));
	ret = fuzz_exec(&prog, sizes, data, size, fn->const_buf,
			fn->const_buf >= 0 ? fn->const_data : NULL,
			fn->const_bytes, &env);
	/* A bounded loop may run out of trips: a defined error. */
	if (ret && ret != -PWFW_ETIME &&
	    !(ret == -PWFW_ELOOP && prog.nbounded))
		abort();
}

