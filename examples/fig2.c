// SPDX-License-Identifier: GPL-2.0
/*
 * fig2.c - the Pathways paper's Figure 2: three compiled functions, each
 * on its own 2-device slice, traced into one program
 *
 *	f(v) = (b(a(v)), a(c(a(v))))   a: x*2, b: x+1, c: x/2
 *
 * which for v = [1 2] prints "(3 5) (2 4)". The program has one node per
 * sharded computation: Arg, a, b, c, a, Result. The functions come in as
 * JAX hands them over, StableHLO text (pw_fn_from_stablehlo()).
 *
 * Usage: fig2 [-v] [--connect IP:PORT]
 *   -v         also print the program's representation
 *   --connect  run on a pathwaysd cluster (also PATHWAYS_CONTROLLER)
 *              instead of this process's own runtime
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <pathways/pathways.h>

/*
 * The three functions as JAX gives them to its runtime: StableHLO text,
 * as jax.jit(a).lower(jnp.zeros(1, jnp.float32)).as_text() prints it
 * for def a(x): return x * 2 (and b, c), one element per device.
 */
#define JAX_SCALAR_FN(name, op, k)					\
	"module @jit_" name " attributes {mhlo.num_partitions = 1 : i32, "	\
	"mhlo.num_replicas = 1 : i32} {\n"				\
	"  func.func public @main(%arg0: tensor<1xf32>) -> "		\
	"(tensor<1xf32> {jax.result_info = \"\"}) {\n"			\
	"    %cst = stablehlo.constant dense<" k "> : tensor<f32>\n"	\
	"    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : "	\
	"(tensor<f32>) -> tensor<1xf32>\n"				\
	"    %1 = stablehlo." op " %arg0, %0 : tensor<1xf32>\n"		\
	"    return %1 : tensor<1xf32>\n"					\
	"  }\n"								\
	"}\n"

static struct pw_fn *jax_fn(const char *name, const char *text)
{
	struct pw_fn *fn = NULL;

	if (pw_fn_from_stablehlo(text, strlen(text), NULL, &fn))
		fprintf(stderr, "fig2: %s: %s\n", name, pw_last_error());
	return fn;
}

static int fail(const char *what)
{
	fprintf(stderr, "fig2: %s: %s\n", what, pw_last_error());
	return 1;
}

int main(int argc, char **argv)
{
	const uint32_t shard[1] = { 1 };
	const float v[2] = { 1, 2 };
	struct pw_slice *sa, *sb, *sc;
	struct pw_buffer *arg, *t1, *t2, *t3, *r[2], *in, *out[2];
	struct pw_fn *a, *b, *c;
	struct pw_program *prog;
	struct pw_client *cl;
	struct pw_vset *vs;
	float o0[2], o1[2];
	struct pw_connect_opts opts = { .name = "fig2" };
	bool verbose = false;
	char repr[1024];
	int i, ret = 1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--connect") && i + 1 < argc) {
			opts.address = argv[++i];
		} else {
			fprintf(stderr, "usage: fig2 [-v] [--connect IP:PORT]\n");
			return 2;
		}
	}
	if (pw_connect(&opts, &cl))
		return fail("connect");
	a = jax_fn("a", JAX_SCALAR_FN("a", "multiply", "2.000000e+00"));
	b = jax_fn("b", JAX_SCALAR_FN("b", "add", "1.000000e+00"));
	c = jax_fn("c", JAX_SCALAR_FN("c", "divide", "2.000000e+00"));
	if (!a || !b || !c)
		goto out;
	if (pw_make_virtual_device_set(cl, &vs) ||
	    pw_add_slice(vs, 2, "2", &sa) || pw_add_slice(vs, 2, "2", &sb) ||
	    pw_add_slice(vs, 2, "2", &sc)) {
		fail("slices");
		goto out;
	}

	if (pw_program_begin(cl) ||
	    pw_program_arg(cl, sa, PWTPU_DT_F32, 1, shard, &arg) ||
	    pw_call(cl, a, sa, &arg, 1, &t1, 1) ||
	    pw_call(cl, b, sb, &t1, 1, &r[0], 1) ||
	    pw_call(cl, c, sc, &t1, 1, &t2, 1) ||
	    pw_call(cl, a, sa, &t2, 1, &t3, 1) ||
	    pw_program_end(cl, (struct pw_buffer *[]){ r[0], t3 }, 2, &prog)) {
		fail("tracing");
		goto out;
	}
	pw_buffer_put(arg);
	pw_buffer_put(t1);
	pw_buffer_put(t2);
	pw_buffer_put(t3);
	pw_buffer_put(r[0]);
	if (verbose) {
		pw_program_format(prog, repr, sizeof(repr));
		printf("%u nodes:\n%s", pw_program_num_nodes(prog), repr);
	}

	if (pw_buffer_from_host(cl, sa, PWTPU_DT_F32, 1, shard, v, false,
				&in) ||
	    pw_program_run(prog, PW_DISPATCH_PARALLEL, &in, 1, out, 2) ||
	    pw_buffer_to_host(out[0], o0, sizeof(o0)) ||
	    pw_buffer_to_host(out[1], o1, sizeof(o1))) {
		fail("run");
		goto out;
	}
	printf("(%g %g) (%g %g)\n", o0[0], o0[1], o1[0], o1[1]);
	ret = 0;
out:
	pw_fn_put(a);
	pw_fn_put(b);
	pw_fn_put(c);
	/* Disconnecting collects the buffers, program and slices. */
	pw_disconnect(cl);
	return ret;
}
