// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_fn.c - pw_fn_from_stablehlo() (pathways.h): a compiled function
 * from a StableHLO module's text, as JAX prints it.
 */
#include <errno.h>
#include <stdio.h>

#include "../fn/fn.h"
#include "hlo_lower.h"

/* What a read or a lowering says, with where it happened. */
#define HLO_MSG_LEN	512

static int fn_from_module(struct pw_hlo_module *mod, const char *entry,
			  struct pw_fn **fn, char *msg)
{
	struct pw_hlo_lowered low;
	int ret;

	ret = pw_hlo_lower(mod, entry, false, &low, msg, HLO_MSG_LEN);
	pw_hlo_free(mod);
	if (ret)
		return pw_fail(ret, "%s", msg);
	*fn = low.fn;
	low.fn = NULL;
	pw_hlo_lowered_free(&low);
	return 0;
}

int pw_fn_from_stablehlo(const char *text, size_t len, const char *entry,
			 struct pw_fn **fn)
{
	struct pw_hlo_module *mod;
	char msg[HLO_MSG_LEN];
	int ret;

	if (!text || !fn)
		return pw_fail(-EINVAL, "pw_fn_from_stablehlo: no text or no function pointer");
	ret = pw_hlo_parse(text, len, &mod, msg, sizeof(msg));
	if (ret)
		return pw_fail(ret, "%s", msg);
	return fn_from_module(mod, entry, fn, msg);
}

int pw_fn_from_stablehlo_file(const char *path, const char *entry,
			      struct pw_fn **fn)
{
	struct pw_hlo_module *mod;
	char msg[HLO_MSG_LEN];
	int ret;

	if (!path || !fn)
		return pw_fail(-EINVAL, "pw_fn_from_stablehlo_file: no path or no function pointer");
	ret = pw_hlo_parse_file(path, &mod, msg, sizeof(msg));
	if (ret)
		return pw_fail(ret, "%s", msg);
	ret = fn_from_module(mod, entry, fn, msg);
	if (ret)
		pw_fail(ret, "%s:%s", path, msg);
	return ret;
}
