// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_matmul.c - `pwbench matmul`: the firmware's MATMUL on the host
 * CPU, each vector path the CPU has (scalar, sse2, avx2), next to
 * OpenBLAS's cblas_sgemm on one thread, on the same shape.
 *
 * The firmware runs through its user-space library exactly as the driver
 * runs it: a one-instruction program checked by pwfw_verify() and run by
 * pwfw_exec() (in bounded pieces, one FPU section each), with
 * pwfw_user_simd_cap() choosing the path. Every path's result is compared
 * bit for bit with the first path's (the scalar reference by default).
 *
 * Debian's OpenBLAS 0.3.21 has no bf16 or int8 GEMM (cblas.h declares
 * cblas_sbgemm but the library is built without it), so the bf16 and i8
 * rows are compared with cblas_sgemm on the same values as f32: the same
 * shape and arithmetic count, not the same data type.
 *
 * The runs of all paths are interleaved, one of each per round, so that
 * a busy machine slows them alike. Each run is timed in the calling
 * thread's CPU time (OpenBLAS runs there too with one thread), which time
 * spent descheduled does not inflate, and in wall time; the table shows
 * medians, GFLOP/s and ratios from the CPU time. (In a VM, time the host
 * takes the vCPU away still counts as CPU time.) A benchmark reports; it
 * only fails when a path's bits differ or a run fails.
 */
#include <cblas.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pwtpu/pwprog.h"
#include "../firmware/pwfw.h"
#include "../firmware/user/pwfw_user.h"

#include "pwbench.h"

enum mm_path { P_SCALAR, P_SSE2, P_AVX2, P_OPENBLAS, P_COUNT };

static const char *const path_names[P_COUNT] = {
	"scalar", "sse2", "avx2", "openblas",
};

static const enum pwfw_simd path_simd[P_OPENBLAS] = {
	PWFW_SIMD_NONE, PWFW_SIMD_SSE2, PWFW_SIMD_AVX2,
};

struct mm_opts {
	uint32_t m, k, n;
	uint32_t array_dim;	/* 0: the default spec's */
	unsigned int reps;
	bool dtypes[3];		/* f32, bf16, i8 */
	bool paths[P_COUNT];
};

static const enum pwtpu_dtype dtype_of[3] = {
	PWTPU_DT_F32, PWTPU_DT_BF16, PWTPU_DT_I8,
};

static const char *const dtype_names[3] = { "f32", "bf16", "i8" };

static void mm_usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench matmul [-m M] [-k K] [-n N] [-r REPS] [-t TYPES]\n"
		"                      [-p PATHS] [--array-dim D]\n"
		"  -m, -k, -n   the shape [M,K] x [K,N] (default 512 each)\n"
		"  -r REPS      timed runs of each path (default 10; one more,\n"
		"               untimed, first)\n"
		"  -t TYPES     of f32,bf16,i8 (default all)\n"
		"  -p PATHS     of scalar,sse2,avx2,openblas (default all the CPU\n"
		"               has; the first firmware path is the bit reference)\n"
		"  --array-dim D  the spec's systolic array size (default 128):\n"
		"               the K tile of the accumulation order\n");
}

/* Set @flags[i] for each name of @names found in comma list @s. */
static int parse_list(const char *s, const char *const *names,
		      unsigned int n, bool *flags)
{
	char buf[128], *tok, *save;
	unsigned int i;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	memset(flags, 0, n * sizeof(*flags));
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n && strcmp(tok, names[i]); i++)
			;
		if (i == n)
			return -EINVAL;
		flags[i] = true;
	}
	return 0;
}

static int parse_dim(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x = strtoul(s, &end, 10);

	if (end == s || *end || !x || x > (1UL << 26))
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

static int mm_parse(int argc, char **argv, struct mm_opts *o)
{
	static const struct option longopts[] = {
		{ "array-dim", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint32_t reps = 0;
	int c, ret = 0;

	memset(o, 0, sizeof(*o));
	o->m = o->k = o->n = 512;
	o->reps = 10;
	memset(o->dtypes, 1, sizeof(o->dtypes));
	memset(o->paths, 1, sizeof(o->paths));
	optind = 1;
	while (!ret && (c = getopt_long(argc, argv, "m:k:n:r:t:p:h", longopts,
					NULL)) != -1) {
		switch (c) {
		case 'm':
			ret = parse_dim(optarg, &o->m);
			break;
		case 'k':
			ret = parse_dim(optarg, &o->k);
			break;
		case 'n':
			ret = parse_dim(optarg, &o->n);
			break;
		case 'r':
			ret = parse_dim(optarg, &reps);
			o->reps = reps;
			break;
		case 'D':
			ret = parse_dim(optarg, &o->array_dim);
			break;
		case 't':
			ret = parse_list(optarg, dtype_names, 3, o->dtypes);
			break;
		case 'p':
			ret = parse_list(optarg, path_names, P_COUNT, o->paths);
			break;
		case 'h':
			mm_usage(stdout);
			exit(0);
		default:
			mm_usage(stderr);
			return -EINVAL;
		}
	}
	if (ret || optind != argc) {
		fprintf(stderr, "pwbench matmul: bad arguments\n");
		mm_usage(stderr);
		return -EINVAL;
	}
	return 0;
}

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* f32 -> bf16, round to nearest even (inputs here are finite). */
static uint16_t to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

static float from_bf16(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/**
 * struct mm_case - one dtype's buffers and program
 * @dt: the input dtype.
 * @mem: binding 0: a, b, dst, 64-byte aligned each.
 * @a: a in @mem.
 * @b: b in @mem.
 * @dst: dst in @mem.
 * @dst_bytes: bytes of dst.
 * @ref: the reference path's dst.
 * @fa: a as f32, for OpenBLAS.
 * @fb: b as f32.
 * @fc: OpenBLAS's result.
 * @buf: @mem as the firmware's binding.
 * @prog: the verified program.
 * @img: its image (the program points into it).
 */
struct mm_case {
	enum pwtpu_dtype dt;
	unsigned char *mem;
	void *a, *b, *dst;
	size_t dst_bytes;
	void *ref;
	float *fa, *fb, *fc;
	struct pwfw_buf buf;
	struct pwfw_prog prog;
	void *img;
};

static size_t align64(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

static void mm_case_free(struct mm_case *c)
{
	free(c->mem);
	free(c->ref);
	free(c->fa);
	free(c->fb);
	free(c->fc);
	free(c->img);
}

static int mm_case_init(struct mm_case *c, const struct mm_opts *o,
			enum pwtpu_dtype dt)
{
	size_t esize = dt == PWTPU_DT_F32 ? 4 : dt == PWTPU_DT_BF16 ? 2 : 1;
	size_t na = (size_t)o->m * o->k, nb = (size_t)o->k * o->n;
	size_t oa = 0, ob = align64(na * esize), od, size, i;
	uint32_t sa[2] = { o->m, o->k }, sb[2] = { o->k, o->n };
	uint32_t sd[2] = { o->m, o->n }, seed = 2024;
	struct pwfw_spec spec;
	struct pwfw_verr err;
	struct pwprog *p;
	int ta, tb, td;
	size_t isize;

	memset(c, 0, sizeof(*c));
	c->dt = dt;
	od = ob + align64(nb * esize);
	c->dst_bytes = (size_t)o->m * o->n * 4;
	size = od + align64(c->dst_bytes);
	c->mem = aligned_alloc(64, size);
	c->ref = malloc(c->dst_bytes);
	c->fa = malloc(na * sizeof(float));
	c->fb = malloc(nb * sizeof(float));
	c->fc = malloc((size_t)o->m * o->n * sizeof(float));
	if (!c->mem || !c->ref || !c->fa || !c->fb || !c->fc)
		return -ENOMEM;
	c->a = c->mem + oa;
	c->b = c->mem + ob;
	c->dst = c->mem + od;
	c->buf.base = c->mem;
	c->buf.size = size;
	for (i = 0; i < na + nb; i++) {
		float *f = i < na ? &c->fa[i] : &c->fb[i - na];
		void *v = i < na ? c->a : c->b;
		size_t j = i < na ? i : i - na;
		float x = (float)((xorshift(&seed) >> 8) * 0x1p-23) - 1.0f;

		if (dt == PWTPU_DT_F32) {
			((float *)v)[j] = x;
			*f = x;
		} else if (dt == PWTPU_DT_BF16) {
			((uint16_t *)v)[j] = to_bf16(x);
			*f = from_bf16(((uint16_t *)v)[j]);
		} else {
			((int8_t *)v)[j] = (int8_t)xorshift(&seed);
			*f = ((int8_t *)v)[j];
		}
	}

	p = pwprog_new(1);
	if (!p)
		return -ENOMEM;
	ta = pwprog_tensor(p, dt, 2, sa, 0, oa);
	tb = pwprog_tensor(p, dt, 2, sb, 0, ob);
	td = pwprog_tensor(p, dt == PWTPU_DT_I8 ? PWTPU_DT_I32 : PWTPU_DT_F32,
			   2, sd, 0, od);
	if (ta < 0 || tb < 0 || td < 0 ||
	    pwprog_binary(p, PWTPU_OP_MATMUL, td, ta, tb) < 0) {
		pwprog_free(p);
		return -EINVAL;
	}
	c->img = pwprog_image(p, &isize);
	pwprog_free(p);
	if (!c->img)
		return -ENOMEM;
	pwfw_spec_default(&spec);
	if (o->array_dim)
		spec.array_dim = o->array_dim;
	if (pwfw_verify(c->img, isize, &spec, &c->prog, &err)) {
		fprintf(stderr, "pwbench matmul: verifier: %s\n", err.msg);
		return -EINVAL;
	}
	return 0;
}

/* This thread's CPU time in ns: what the run cost, not what waited. */
static uint64_t cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * One timed run of @path: its thread CPU time in @cpu and wall time in
 * @wall (both at least 1 ns). 0, or -EIO when the firmware failed.
 */
static int mm_run(struct mm_case *c, const struct mm_opts *o,
		  enum mm_path path, uint64_t *cpu, uint64_t *wall)
{
	uint64_t c0, w0;
	int ret = 0;

	if (path != P_OPENBLAS) {
		pwfw_user_simd_cap(path_simd[path]);
		memset(c->dst, 0xa5, c->dst_bytes);
	}
	w0 = pwbench_now_ns();
	c0 = cpu_now_ns();
	if (path == P_OPENBLAS)
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
			    (int)o->m, (int)o->n, (int)o->k, 1.0f, c->fa,
			    (int)o->k, c->fb, (int)o->n, 0.0f, c->fc,
			    (int)o->n);
	else
		ret = pwfw_exec(&c->prog, &c->buf, 1, NULL);
	*cpu = cpu_now_ns() - c0;
	*wall = pwbench_now_ns() - w0;
	*cpu += !*cpu;
	*wall += !*wall;
	pwfw_user_simd_cap(-1);
	if (ret) {
		fprintf(stderr, "pwbench matmul: pwfw_exec: %d\n", ret);
		return -EIO;
	}
	return 0;
}

/* Returns 0, 1 when a path's bits differ from the reference, or -errno. */
static int mm_dtype(const struct mm_opts *o, unsigned int d,
		    const bool *paths)
{
	double flops = 2.0 * o->m * o->n * o->k, blas = 0;
	uint64_t *cpu[P_COUNT] = { NULL }, *wall[P_COUNT] = { NULL };
	bool same[P_COUNT] = { false }, have_ref = false;
	struct pwbench_summary sc[P_COUNT], sw[P_COUNT];
	unsigned int r, p;
	struct mm_case c;
	int ret, bad = 0;

	ret = mm_case_init(&c, o, dtype_of[d]);
	for (p = 0; !ret && p < P_COUNT; p++) {
		if (!paths[p])
			continue;
		cpu[p] = calloc(o->reps, sizeof(uint64_t));
		wall[p] = calloc(o->reps, sizeof(uint64_t));
		if (!cpu[p] || !wall[p])
			ret = -ENOMEM;
	}
	/* An untimed run each, which also checks the bits; then rounds. */
	for (r = 0; !ret && r <= o->reps; r++) {
		for (p = 0; !ret && p < P_COUNT; p++) {
			uint64_t tc, tw;

			if (!paths[p])
				continue;
			ret = mm_run(&c, o, p, &tc, &tw);
			if (ret)
				break;
			if (r) {
				cpu[p][r - 1] = tc;
				wall[p][r - 1] = tw;
				continue;
			}
			if (p == P_OPENBLAS)
				continue;
			if (!have_ref) {
				memcpy(c.ref, c.dst, c.dst_bytes);
				have_ref = true;
			}
			same[p] = !memcmp(c.ref, c.dst, c.dst_bytes);
		}
	}
	for (p = 0; !ret && p < P_COUNT; p++) {
		if (!paths[p])
			continue;
		ret = pwbench_summarize(cpu[p], o->reps, &sc[p]);
		if (!ret)
			ret = pwbench_summarize(wall[p], o->reps, &sw[p]);
	}
	if (!ret && paths[P_OPENBLAS])
		blas = flops / (double)sc[P_OPENBLAS].p50;
	for (p = 0; !ret && p < P_COUNT; p++) {
		double g = flops / (double)sc[p].p50;

		if (!paths[p])
			continue;
		printf("%-5s %-9s %9.3f %9.3f %9.3f %9.2f ", dtype_names[d],
		       path_names[p], sc[p].p50 / 1e6, sc[p].min / 1e6,
		       sw[p].p50 / 1e6, g);
		if (blas > 0)
			printf("%7.3f  ", g / blas);
		else
			printf("%7s  ", "-");
		if (p == P_OPENBLAS)
			printf("%s\n", d ? "sgemm, same values as f32" :
					   "sgemm");
		else
			printf("%s\n", same[p] ? "same bits" : "BITS DIFFER");
		if (p != P_OPENBLAS && !same[p])
			bad = 1;
	}
	for (p = 0; p < P_COUNT; p++) {
		free(cpu[p]);
		free(wall[p]);
	}
	mm_case_free(&c);
	return ret ? ret : bad;
}

int pwbench_matmul_main(int argc, char **argv)
{
	bool paths[P_COUNT];
	enum pwfw_simd cpu = pwfw_user_simd_cpu();
	struct mm_opts o;
	char machine[128];
	unsigned int d, p;
	int ret, bad = 0;

	if (mm_parse(argc, argv, &o))
		return 2;
	memcpy(paths, o.paths, sizeof(paths));
	for (p = 0; p < P_OPENBLAS; p++) {
		if (paths[p] && path_simd[p] > cpu) {
			printf("# %s: not on this CPU, skipped\n",
			       path_names[p]);
			paths[p] = false;
		}
	}
	openblas_set_num_threads(1);
	pwbench_machine(machine, sizeof(machine));
	printf("# pwbench matmul: [%u,%u] x [%u,%u], array_dim %u, %u runs "
	       "per path, interleaved\n", o.m, o.k, o.k, o.n,
	       o.array_dim ? o.array_dim : 128, o.reps);
	printf("# %s; %s, 1 thread\n", machine, openblas_get_config());
	printf("# cpu: the thread's CPU time, median and min; wall: median; "
	       "GFLOP/s = 2*M*N*K / cpu median\n# (i8: integer ops); "
	       "ratio: to OpenBLAS sgemm's GFLOP/s\n");
	printf("%-5s %-9s %9s %9s %9s %9s %7s  %s\n", "dtype", "path",
	       "cpu ms", "min ms", "wall ms", "GFLOP/s", "ratio", "note");
	for (d = 0; d < 3; d++) {
		if (!o.dtypes[d])
			continue;
		ret = mm_dtype(&o, d, paths);
		if (ret < 0) {
			fprintf(stderr, "pwbench matmul: %s: %s\n",
				dtype_names[d], strerror(-ret));
			return 1;
		}
		bad |= ret;
	}
	return bad;
}
