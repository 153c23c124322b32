// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_verify.c - libFuzzer harness: the input is a program image. The
 * verifier must refuse it cleanly or accept it, and an accepted program
 * is then executed by the user-space firmware over buffers filled from
 * the input, as the device would run it, as the only member of a gang on
 * a one-device island (so collectives whose groups fit one run too):
 * whatever the verifier lets through must run without a memory error or
 * undefined behaviour.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/pwfw.h"
#include "../../firmware/pwfw_island.h"
#include "../../firmware/user/pwfw_user.h"
#include "fuzz.h"
#include "fuzz_exec.h"

/* One device, made at the first input and kept: islands are not cheap. */
static struct pwfw_island *island(void)
{
	static struct pwfw_user_island ui;
	static struct pwfw_island *isl;
	struct pwfw_spec spec;
	struct pwfw_mesh mesh;
	char err[128];

	if (isl)
		return isl;
	pwfw_spec_default(&spec);
	if (pwfw_user_island_init(&ui) ||
	    pwfw_mesh_parse(&mesh, "1", 1, err, sizeof(err)))
		abort();
	isl = pwfw_island_create(&ui, &spec, &mesh, 1, 100000000ull);
	if (!isl)
		abort();
	return isl;
}

static void run(const struct pwfw_prog *prog, const uint8_t *data,
		size_t size)
{
	static uint64_t gang_id;
	struct pwfw_exec_env env;
	struct pwtpu_gang gang;
	int ret;

	if (!fuzz_prog_small(prog, prog->buf_bytes))
		return;
	memset(&gang, 0, sizeof(gang));
	gang.gang_id = ++gang_id;
	gang.ndevices = 1;
	gang.permute[0] = PWTPU_NO_RANK;
	memset(&env, 0, sizeof(env));
	env.isl = island();
	if (pwfw_gang_check(env.isl, 0, &gang))
		abort();
	env.gang = &gang;
	env.gang_scope = 1;
	/* Exactly what the program needs: ASan sees one byte past. */
	ret = fuzz_exec(prog, prog->buf_bytes, data, size, -1, NULL, 0, &env);
	/*
	 * Nothing may fail but a collective whose group needs more devices
	 * than one, the deadline, and a bounded loop out of trips.
	 */
	if (ret && !(ret == -PWFW_EINVAL && prog->ncoll) &&
	    ret != -PWFW_ETIME && !(ret == -PWFW_ELOOP && prog->nbounded))
		abort();
	/* ... which says which loop, a bounded one. */
	if (ret == -PWFW_ELOOP &&
	    (env.fault_insn >= prog->ninsns ||
	     prog->insns[env.fault_insn].op != PWTPU_OP_LOOP ||
	     prog->insns[env.fault_insn].mode != PWTPU_LOOP_BOUNDED))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;

	pwfw_spec_default(&spec);
	if (pwfw_verify(data, size, &spec, &prog, &err) == 0)
		run(&prog, data, size);
	else if (err.code == 0 || !err.msg[0] ||
		 !memchr(err.msg, 0, sizeof(err.msg)))
		abort();	/* a refusal always says why */
	return 0;
}
