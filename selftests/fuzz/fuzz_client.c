// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_client.c - libFuzzer harness for the client API's entry points
 * that take user data. The input is a script: its first byte picks
 *   - the compiled-function builder (pw_fn_*): a sequence of calls with
 *     arguments from the input, some of them nonsense (unknown dtypes and
 *     ops, stale values, huge extents), loops among them (begun, tested
 *     and ended in any order, values of ended loops read on). Every call
 *     must fail cleanly or
 *     succeed; a function pw_fn_build() accepts must be one the device's
 *     verifier accepts, whose bindings are no bigger than the buffers the
 *     runtime gives it, and which then runs over exactly those buffers.
 *   - the resource manager's strings and placements: an island mesh
 *     string, slice shape strings, and slices placed and released.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/pathways.h>
#include <pathways/rm.h>

#include "../../firmware/pwfw.h"
#include "../../runtime/fn/fn.h"
#include "fuzz.h"
#include "fuzz_fn.h"

#define MAX_VALS	64
#define MAX_ELEMS	4096	/* a constant's elements taken from the input */
#define MAX_VARS	4	/* a loop's variables */
#define MAX_LOOPS	(PWTPU_MAX_LOOP_DEPTH + 2)	/* some past the depth */

struct script {
	const uint8_t *p;
	size_t left;
};

static uint8_t next(struct script *s)
{
	if (!s->left)
		return 0;
	s->left--;
	return *s->p++;
}

static uint32_t next32(struct script *s)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 8 | next(s);
	return v;
}

/* Mostly small extents; now and then anything at all. */
static uint32_t extent(struct script *s)
{
	uint8_t b = next(s);

	return b < 0xf0 ? b % 9 : next32(s);
}

static unsigned int shape(struct script *s, uint32_t sh[PW_MAX_RANK])
{
	unsigned int rank = next(s) % (PW_MAX_RANK + 2), i;

	for (i = 0; i < PW_MAX_RANK; i++)
		sh[i] = i < rank ? extent(s) : 0;
	return rank;
}

/* dtypes 1..12 (PWTPU_DT_F32..PWTPU_DT_U64) are real; 0 and 13 are not. */
static enum pwtpu_dtype dtype(struct script *s)
{
	return (enum pwtpu_dtype)(next(s) % (PWTPU_DT_U64 + 2));
}

/* A value made earlier, or now and then one never made. */
static pw_val value(struct script *s, const pw_val *vals, unsigned int n)
{
	uint8_t b = next(s);

	if (b >= 0xf8)
		return (pw_val)(b - 0xfc);	/* -4..3, likely stale */
	return n ? vals[b % n] : 0;
}

static pw_val constant(struct pw_fn_builder *b, struct script *s)
{
	static uint8_t data[MAX_ELEMS * 8];	/* 8: the widest dtype */
	enum pwtpu_dtype dt = dtype(s);
	uint32_t sh[PW_MAX_RANK];
	unsigned int rank = shape(s, sh), i;
	uint64_t elems = 1;

	for (i = 0; i < rank && i < PW_MAX_RANK; i++)
		elems *= sh[i];
	/* @data must hold what the shape says: skip the ones it cannot. */
	if (rank > PW_MAX_RANK || elems > MAX_ELEMS)
		return pw_fn_scalar(b, dt, (double)(int8_t)next(s));
	for (i = 0; i < sizeof(data); i++)
		data[i] = next(s);
	return pw_fn_const(b, dt, rank, sh, data);
}

/* A list of dimension numbers: mostly short and small, now and then not. */
static void dims(struct script *s, unsigned int *n, uint32_t *list)
{
	unsigned int i;

	*n = next(s) % (PW_MAX_RANK + 2);
	for (i = 0; i < PW_MAX_RANK; i++)
		list[i] = next(s) % (PW_MAX_RANK + 2);
}

static pw_val scatter(struct pw_fn_builder *b, struct script *s,
		      const pw_val *v, unsigned int n)
{
	struct pw_fn_scatter_dims d;
	pw_val x, i, u;
	unsigned int nb;

	x = value(s, v, n);
	i = value(s, v, n);
	u = value(s, v, n);
	dims(s, &d.n_update_window_dims, d.update_window_dims);
	dims(s, &d.n_inserted_window_dims, d.inserted_window_dims);
	dims(s, &d.n_batching_dims, d.input_batching_dims);
	dims(s, &nb, d.scatter_indices_batching_dims);
	dims(s, &d.n_scatter_dims_to_operand_dims,
	     d.scatter_dims_to_operand_dims);
	d.index_vector_dim = next(s) % (PW_MAX_RANK + 2);
	return pw_fn_scatter(b, (enum pwtpu_scatter)(next(s) % 6), x, i, u,
			     &d);
}

static pw_val gather(struct pw_fn_builder *b, struct script *s,
		     const pw_val *v, unsigned int n)
{
	struct pw_fn_gather_dims d;
	unsigned int nb, k;
	pw_val x, i;

	x = value(s, v, n);
	i = value(s, v, n);
	dims(s, &d.n_offset_dims, d.offset_dims);
	dims(s, &d.n_collapsed_slice_dims, d.collapsed_slice_dims);
	dims(s, &d.n_batching_dims, d.operand_batching_dims);
	dims(s, &nb, d.start_indices_batching_dims);
	dims(s, &d.n_start_index_map, d.start_index_map);
	d.index_vector_dim = next(s) % (PW_MAX_RANK + 2);
	for (k = 0; k < PW_MAX_RANK; k++)
		d.slice_sizes[k] = extent(s);
	return pw_fn_gather(b, x, i, &d);
}

/**
 * struct made - what a script has made so far
 * @vals: the last MAX_VALS values made, the operands to pick from.
 * @n: values made in all.
 * @depth: loops the script began and has not ended (as far as it knows:
 *	a call that failed did not open or close one).
 * @nvars: each open loop's variables, @vars them.
 */
struct made {
	pw_val vals[MAX_VALS];
	unsigned int n;
	unsigned int depth;
	unsigned int nvars[MAX_LOOPS];
	pw_val vars[MAX_LOOPS][MAX_VARS];
};

static void add_val(struct made *m, pw_val v)
{
	if (v >= 0)
		m->vals[m->n++ % MAX_VALS] = v;
}

/* Trips: mostly a few or PW_FN_TRIPS_AUTO, now and then anything. */
static uint32_t trips(struct script *s)
{
	uint8_t b = next(s);

	return b < 0xf0 ? b : next32(s);
}

/* pw_fn_while_begin() of up to MAX_VARS values, its variables made. */
static void while_begin(struct pw_fn_builder *b, struct script *s,
			struct made *m)
{
	unsigned int n = next(s) % (MAX_VARS + 1), i, avail;
	pw_val init[MAX_VARS], vars[MAX_VARS];

	avail = m->n < MAX_VALS ? m->n : MAX_VALS;
	for (i = 0; i < n; i++)
		init[i] = value(s, m->vals, avail);
	if (pw_fn_while_begin(b, n, init, vars, trips(s)))
		return;
	for (i = 0; i < n; i++)
		add_val(m, vars[i]);
	if (m->depth < MAX_LOOPS) {
		m->nvars[m->depth] = n;
		memcpy(m->vars[m->depth], vars, n * sizeof(*vars));
	}
	m->depth++;
}

/* pw_fn_while_end() with next values from the script. */
static void while_end(struct pw_fn_builder *b, struct script *s,
		      struct made *m)
{
	unsigned int n = MAX_VARS, i, avail;
	pw_val nx[MAX_VARS];

	avail = m->n < MAX_VALS ? m->n : MAX_VALS;
	if (m->depth && m->depth <= MAX_LOOPS)
		n = m->nvars[m->depth - 1];
	for (i = 0; i < MAX_VARS; i++)
		nx[i] = i < n ? value(s, m->vals, avail) : -1;
	if (!pw_fn_while_end(b, nx) && m->depth)
		m->depth--;
}

static pw_val step(struct pw_fn_builder *b, struct script *s,
		   struct made *m)
{
	uint32_t sh[PW_MAX_RANK], st[PW_MAX_RANK];
	const pw_val *v = m->vals;
	unsigned int rank, n = m->n < MAX_VALS ? m->n : MAX_VALS;
	pw_val x, y;

	/*
	 * 19 is a result, as before scatter (20), gather (21), reduce_precision
	 * (22), bitcast (23) and the loops (24..26) came.
	 */
	switch (next(s) % 27) {
	case 0:
		rank = shape(s, sh);
		return pw_fn_param(b, dtype(s), rank, sh);
	case 1:
		return constant(b, s);
	case 2:
		return pw_fn_scalar(b, dtype(s), (double)(int16_t)next32(s) / 8);
	case 3:
		/* Every opcode, and a few past the last. */
		x = value(s, v, n);
		return pw_fn_binary(b, (enum pwtpu_op)(next(s) %
						      (PWTPU_OP_COUNT + 2)),
				    x, value(s, v, n));
	case 4:
		x = value(s, v, n);
		return pw_fn_unary(b, (enum pwtpu_op)(next(s) %
						     (PWTPU_OP_COUNT + 2)), x);
	case 5:
		x = value(s, v, n);
		return pw_fn_matmul(b, x, value(s, v, n));
	case 6:
		x = value(s, v, n);
		y = value(s, v, n);
		return pw_fn_compare(b, (enum pwtpu_cmp)(next(s) % 7), x, y);
	case 7:
		x = value(s, v, n);
		y = value(s, v, n);
		return pw_fn_select(b, x, y, value(s, v, n));
	case 8:
		x = value(s, v, n);
		return pw_fn_convert(b, x, dtype(s));
	case 9:
		x = value(s, v, n);
		rank = shape(s, sh);
		return pw_fn_broadcast(b, x, rank, sh);
	case 10:
		x = value(s, v, n);
		rank = shape(s, sh);
		return pw_fn_reshape(b, x, rank, sh);
	case 11:
		x = value(s, v, n);
		shape(s, sh);
		return pw_fn_transpose(b, x, sh);
	case 12:
		x = value(s, v, n);
		shape(s, st);
		shape(s, sh);
		return pw_fn_slice(b, x, st, sh);
	case 13:
		x = value(s, v, n);
		return pw_fn_reduce(b, (enum pwtpu_reduce)(next(s) % 5), x,
				    next(s));
	case 14:
		x = value(s, v, n);
		return pw_fn_all_reduce(b, (enum pwtpu_reduce)(next(s) % 5), x);
	case 15:
		x = value(s, v, n);
		return pw_fn_all_gather(b, x, next(s) % 10);
	case 16:
		x = value(s, v, n);
		return pw_fn_reduce_scatter(b, (enum pwtpu_reduce)(next(s) % 5),
					    x, next(s) % 10);
	case 17:
		x = value(s, v, n);
		return pw_fn_permute(b, x, (int8_t)next(s));
	case 18:
		return pw_fn_delay(b, next(s) * 1000ull);
	case 20:
		return scatter(b, s, v, n);
	case 21:
		return gather(b, s, v, n);
	case 22:
		x = value(s, v, n);
		return pw_fn_reduce_precision(b, x, next(s) % 40, next(s) % 60);
	case 23:
		x = value(s, v, n);
		return pw_fn_bitcast(b, x, dtype(s));
	case 24:
		while_begin(b, s, m);
		return -1;
	case 25:
		pw_fn_while_test(b, value(s, v, n));
		return -1;
	case 26:
		while_end(b, s, m);
		return -1;
	default:
		return pw_fn_result(b, value(s, v, n));
	}
}

static void build(struct script *s, const uint8_t *data, size_t size)
{
	struct pw_fn_builder *b = pw_fn_begin("fuzz");
	static struct made m;
	struct pw_fn *fn;

	if (!b)
		abort();
	memset(&m, 0, sizeof(m));
	while (s->left)
		add_val(&m, step(b, s, &m));
	/* Loops left open end on their own variables (or fail: no test). */
	while (m.depth && m.depth <= MAX_LOOPS &&
	       !pw_fn_while_end(b, m.vars[m.depth - 1]))
		m.depth--;
	if (pw_fn_build(b, &fn) == 0) {
		fuzz_check_fn(fn, data, size);
		pw_fn_put(fn);
	} else if (!pw_last_error()[0]) {
		abort();	/* a refusal names what was wrong */
	}
}

/* A NUL-ended string of at most 31 bytes from the script. */
static void string(struct script *s, char out[32])
{
	size_t n = next(s) % 32, i;

	for (i = 0; i < n; i++)
		out[i] = (char)next(s);
	out[n] = 0;
}

static void place(struct script *s)
{
	struct pw_rm_slice *slices[8] = { 0 };
	struct pw_rm_island isl;
	struct pw_rm_shape sh;
	struct pw_rm_vset *vset;
	struct pw_rm *rm;
	char str[32];
	int i;

	string(s, str);
	if (pw_rm_island_parse(&isl, 0, str))
		return;
	if (isl.ndevices == 0 || isl.ndevices > PW_RM_MAX_DEVICES ||
	    pw_rm_create(&rm, &isl))
		abort();
	if (pw_rm_vset_create(rm, &vset))
		abort();
	for (i = 0; s->left && i < 8; i++) {
		string(s, str);
		if (pw_rm_shape_parse(&sh, str) == 0)
			pw_rm_add_slice(vset, pw_rm_shape_size(&sh), &sh,
					&slices[i]);
		else
			pw_rm_add_slice(vset, next(s), NULL, &slices[i]);
		if (next(s) & 1) {
			pw_rm_remove_device(rm, next(s) % 70);
			pw_rm_add_device(rm, next(s) % 70);
		}
	}
	for (i = 0; i < 8; i++)
		if (slices[i] && (next(s) & 1))
			pw_rm_release_slice(slices[i]);
	pw_rm_vset_destroy(vset);
	pw_rm_destroy(rm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script s = { data, size };

	if (!size)
		return 0;
	if (next(&s) < 0xe0)
		build(&s, data, size);
	else
		place(&s);
	return 0;
}
