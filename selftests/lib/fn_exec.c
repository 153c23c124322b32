// SPDX-License-Identifier: GPL-2.0
/*
 * fn_exec.c - compiled functions run on the firmware in this process
 * (fn_exec.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_exec.h"

int test_fn_verify(const struct pw_fn *fn, struct pwfw_prog *prog)
{
	struct pwfw_verr verr;
	struct pwfw_spec spec;

	pwfw_spec_default(&spec);
	if (pwfw_verify(fn->image, fn->image_size, &spec, prog, &verr)) {
		fprintf(stderr, "# verifier: %s (code %d)\n", verr.msg,
			verr.code);
		return -EINVAL;
	}
	return 0;
}

int test_fn_exec(const struct pw_fn *fn, const void *const *in,
		 void *const *out)
{
	struct pwfw_buf bufs[PWTPU_MAX_BUFS] = { { 0 } };
	struct pwfw_prog prog;
	unsigned int b, r;
	size_t size;
	int ret = test_fn_verify(fn, &prog);

	if (ret)
		return ret;
	for (b = 0; b < fn->nbufs; b++) {
		size = pw_fn_binding_bytes(fn, b);
		bufs[b].base = aligned_alloc(64, (size + 63) & ~(size_t)63);
		bufs[b].size = size;
		if (!bufs[b].base) {
			ret = -ENOMEM;
			goto out;
		}
		memset(bufs[b].base, TEST_FN_POISON, size);
		if (b < fn->nparams)
			memcpy(bufs[b].base, in[b], size);
		else if ((int)b == fn->const_buf)
			memcpy(bufs[b].base, fn->const_data, size);
	}
	ret = pwfw_exec(&prog, bufs, fn->nbufs, NULL);
	for (r = 0; !ret && r < fn->nresults; r++)
		memcpy(out[r], bufs[fn->nparams + r].base,
		       pw_sig_bytes(&fn->results[r]));
out:
	for (b = 0; b < fn->nbufs; b++)
		free(bufs[b].base);
	return ret;
}
