// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_hlo.c - libFuzzer harness: the input is StableHLO text for
 * pw_hlo_parse(), which must read nothing past it and either refuse it
 * with a negative errno and a "LINE:COL: " message, or give a module. A
 * module, printed, must read again, and print to the same text. Its
 * @main, lowered (runtime/hlo/hlo_lower*.c), must be refused with an
 * errno the lowering names and a message, or be a function the device
 * takes and runs (fuzz_fn.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/hlo/hlo_lower.h"
#include "fuzz.h"
#include "fuzz_fn.h"

static void lower(const struct pw_hlo_module *m, const uint8_t *data,
		  size_t size)
{
	struct pw_hlo_lowered low;
	char err[256];
	int ret;

	ret = pw_hlo_lower(m, NULL, true, &low, err, sizeof(err));
	if (ret) {
		if ((ret != -EINVAL && ret != -EOPNOTSUPP && ret != -E2BIG &&
		     ret != -ENOMEM) || low.fn || !err[0])
			abort();
		return;
	}
	if (!low.fn || low.nmain > pw_fn_num_results(low.fn))
		abort();
	fuzz_check_fn(low.fn, data, size);
	pw_hlo_lowered_free(&low);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pw_hlo_module *m = NULL, *m2 = NULL;
	char err[256], *a, *b;
	size_t la, lb;
	int ret;

	ret = pw_hlo_parse((const char *)data, size, &m, err, sizeof(err));
	if (ret) {
		if ((ret != -EINVAL && ret != -E2BIG && ret != -ENOMEM) || m ||
		    !err[0] || !strchr(err, ':'))
			abort();
		return 0;
	}
	lower(m, data, size);
	a = pw_hlo_print(m, &la);
	if (!a)
		abort();
	if (pw_hlo_parse(a, la, &m2, err, sizeof(err)))
		abort();
	b = pw_hlo_print(m2, &lb);
	if (!b || la != lb || memcmp(a, b, la))
		abort();
	free(a);
	free(b);
	pw_hlo_free(m);
	pw_hlo_free(m2);
	return 0;
}
