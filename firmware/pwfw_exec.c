// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_exec.c - the interpreter: runs a verified program over bound
 * buffers (the device's scalar core).
 *
 * Integer only (built with -mno-sse in the kernel). It walks the
 * instructions, resolves tensors to addresses and hands the arithmetic to
 * the kernels of pwfw_kernels.h in bounded pieces: each float piece runs
 * inside one pwfw_plat_fpu_begin()/pwfw_plat_fpu_end() section of about
 * PWFW_FPU_CHUNK elements (multiply-adds for a matmul), and
 * pwfw_x_yield() runs between pieces, never inside a section: it lets
 * others run and asks the host whether to stop (env->stop).
 *
 * Everything about the program itself was checked by pwfw_verify(); the
 * interpreter checks only the binding of buffers and, for a program with
 * collectives, the gang. Collectives (pwfw_coll.c) meet the other
 * members of this device's replica group; they are numbered in the
 * order this execution runs them, loops unrolled, from 0.
 *
 * In skip timing mode (env->compute false) only the collectives run, to
 * meet their peers and charge the links; everything else, DELAY
 * included, is left to the timing model. A WHILE then never leaves its
 * loop (its predicate was not computed): bounded loops run all their
 * trips, as the model counts them.
 *
 * A bounded loop (mode PWTPU_LOOP_BOUNDED) is left by a WHILE of its
 * body whose predicate is zero; when its trips all end without one, the
 * execution stops with -PWFW_ELOOP. For a program with bounded loops and
 * a spec in env, the modelled time of the instructions that ran is added
 * up as they run (env->model_ns).
 */
#include "pwfw_coll.h"
#include "pwfw_gather_scatter.h"
#include "pwfw_kernels.h"
#include "pwfw_platform.h"
#include "pwfw_tensor.h"

#define PWFW_CHUNK		PWFW_FPU_CHUNK
#define PWFW_DEFAULT_ARRAY_DIM	128
#define PWFW_MXU_COLS		16	/* column blocks: whole SIMD blocks */
#define PWFW_MXU_ROWS		24	/* rows per piece, when they fit */
/* MATMULs of this many multiply-adds get a pack: its allocation is noise. */
#define PWFW_MXU_PACK_WORK	(16 * PWFW_CHUNK)
/* With a pack, pieces go in groups of rows with about this much of a. */
#define PWFW_MXU_GROUP_BYTES	(256 * 1024)

/**
 * struct pwfw_x - one execution
 * @prog: the verified program.
 * @bufs: its bound buffers, at least prog->buf_bytes[] each.
 * @env: the island, gang and mode; NULL when the program has no
 *	collectives and the caller gave none.
 * @compute: whether arithmetic and data movement run.
 * @seq: collectives run so far.
 * @grp: this member's replica group, when the program has collectives.
 * @insns: instructions run so far (a safe point every 64).
 * @mxu_pack: NULL, or the MATMUL scratch of the AVX2 path
 *	(PWFW_MXU_PACK_BYTES of the program's tile), allocated by the first
 *	large enough MATMUL and freed when the execution ends.
 * @mxu_runs: MATMULs that ran with @mxu_pack: the next one's pack_id.
 * @spec: the spec to model the time of what runs with, or NULL when the
 *	program's static modeled_ns is the execution's (no bounded loop).
 * @model_ns: with @spec, the modelled time of the instructions run so far.
 */
struct pwfw_x {
	const struct pwfw_prog *prog;
	const struct pwfw_buf *bufs;
	struct pwfw_exec_env *env;
	bool compute;
	u32 seq;
	struct pwfw_group grp;
	u64 insns;
	void *mxu_pack;
	u64 mxu_runs;
	const struct pwfw_spec *spec;
	u64 model_ns;
};

/*
 * A safe point: let others run, then ask the host whether to go on.
 * True once the execution is to stop (env->stopped says why).
 */
static bool pwfw_x_yield(const struct pwfw_x *x)
{
	struct pwfw_exec_env *env = x->env;

	pwfw_plat_yield();
	if (env && env->stop && !env->stopped)
		env->stopped = env->stop(env);
	return env && env->stopped;
}

static const struct pwtpu_tensor *pwfw_x_tensor(const struct pwfw_x *x,
						u16 t)
{
	return &x->prog->tensors[t];
}

/* Address of tensor @t's first element; NULL for an unused operand. */
static u8 *pwfw_x_ptr(const struct pwfw_x *x, u16 t)
{
	const struct pwtpu_tensor *td;

	if (t == PWTPU_NO_TENSOR)
		return NULL;
	td = pwfw_x_tensor(x, t);
	return (u8 *)x->bufs[td->buf].base + td->offset;
}

static u64 pwfw_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

static u64 pwfw_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* @p advanced by @i elements of @size bytes, or NULL. */
static u8 *pwfw_at(u8 *p, u64 i, u32 size)
{
	return p ? p + i * size : NULL;
}

/* An elementwise op's kernel, on @c elements from each pointer. */
static void pwfw_x_kernel(const struct pwtpu_insn *in, u32 ddt, u32 adt,
			  void *dc, void *ac, void *bc, void *cc, u32 dsz,
			  u32 c)
{
	bool is_int = !pwfw_dtype_is_float(ddt);

	switch (in->op) {
	case PWTPU_OP_NEG:
	case PWTPU_OP_ABS:
		pwfw_k_unary(in->op, ddt, dc, ac, c);
		break;
	case PWTPU_OP_EXP:
	case PWTPU_OP_LOG:
	case PWTPU_OP_TANH:
	case PWTPU_OP_RSQRT:
		pwfw_k_math(in->op, ddt, dc, ac, c);
		break;
	case PWTPU_OP_COMPARE:
		pwfw_k_compare(in->mode, adt, dc, ac, bc, c);
		break;
	case PWTPU_OP_CONVERT:
		pwfw_k_convert(ddt, dc, adt, ac, c);
		break;
	case PWTPU_OP_SELECT:
		pwfw_l_select(dsz, dc, ac, bc, cc, c);
		break;
	case PWTPU_OP_AND ... PWTPU_OP_CLZ:
		pwfw_k_bits(in->op, ddt, dc, ac, bc, c);
		break;
	case PWTPU_OP_FLOOR ... PWTPU_OP_ROUND_AFZ:
	case PWTPU_OP_REDUCE_PRECISION:
		pwfw_k_round(in->op, ddt, dc, ac, bc, in->arg, c);
		break;
	case PWTPU_OP_SQRT ... PWTPU_OP_ATAN2:
		pwfw_k_func(in->op, ddt, dc, ac, bc, c);
		break;
	case PWTPU_OP_POW:
		if (is_int)
			pwfw_k_bits(in->op, ddt, dc, ac, bc, c);
		else
			pwfw_k_func(in->op, ddt, dc, ac, bc, c);
		break;
	case PWTPU_OP_REM:
		if (is_int)
			pwfw_k_bits(in->op, ddt, dc, ac, bc, c);
		else
			pwfw_k_round(in->op, ddt, dc, ac, bc, in->arg, c);
		break;
	default:
		pwfw_k_binary(in->op, ddt, dc, ac, bc, c);
		break;
	}
}

/*
 * ADD..RSQRT, COMPARE, SELECT, CONVERT, AND..REM, REDUCE_PRECISION:
 * element i depends on i only.
 */
static void pwfw_x_elementwise(const struct pwfw_x *x,
			       const struct pwtpu_insn *in)
{
	const struct pwtpu_tensor *d = pwfw_x_tensor(x, in->dst);
	const struct pwtpu_tensor *a = pwfw_x_tensor(x, in->src[0]);
	u32 dsz = pwfw_dtype_size(d->dtype), asz = pwfw_dtype_size(a->dtype);
	/* SELECT's b and c are like dst; other ops' b is like a. */
	u32 bsz = in->op == PWTPU_OP_SELECT ? dsz : asz;
	bool fpu = in->op != PWTPU_OP_SELECT;
	u8 *dp = pwfw_x_ptr(x, in->dst), *ap = pwfw_x_ptr(x, in->src[0]);
	u8 *bp = pwfw_x_ptr(x, in->src[1]), *cp = pwfw_x_ptr(x, in->src[2]);
	/* The math functions cost more per element: smaller pieces. */
	u32 chunk = PWFW_CHUNK / pwfw_work_elem(in->op, d->dtype);
	u64 n = pwfw_tensor_elems(d), i;
	void *dc, *ac, *bc, *cc;
	u32 c;

	for (i = 0; i < n; i += c) {
		c = (u32)pwfw_min(n - i, chunk);
		dc = pwfw_at(dp, i, dsz);
		ac = pwfw_at(ap, i, asz);
		bc = pwfw_at(bp, i, bsz);
		cc = pwfw_at(cp, i, dsz);
		if (fpu)
			pwfw_plat_fpu_begin();
		pwfw_x_kernel(in, d->dtype, a->dtype, dc, ac, bc, cc, dsz, c);
		if (fpu)
			pwfw_plat_fpu_end();
		if (pwfw_x_yield(x))
			return;
	}
}

/*
 * RESHAPE, TRANSPOSE, BROADCAST, SLICE, BITCAST: integer moves, no FPU
 * section. RESHAPE and BITCAST copy dst's bytes, which are a's.
 */
static void pwfw_x_layout(const struct pwfw_x *x, const struct pwtpu_insn *in)
{
	const struct pwtpu_tensor *d = pwfw_x_tensor(x, in->dst);
	const struct pwtpu_tensor *a = pwfw_x_tensor(x, in->src[0]);
	u8 *dp = pwfw_x_ptr(x, in->dst), *ap = pwfw_x_ptr(x, in->src[0]);
	u32 esize = pwfw_dtype_size(d->dtype);
	u64 n = pwfw_tensor_elems(d), i, c;
	struct pwfw_l_gather g;

	switch (in->op) {
	case PWTPU_OP_TRANSPOSE:
		pwfw_l_init_transpose(&g, dp, d, ap, a, in->arg);
		break;
	case PWTPU_OP_BROADCAST:
		pwfw_l_init_broadcast(&g, dp, d, ap, a);
		break;
	case PWTPU_OP_SLICE:
		pwfw_l_init_slice(&g, dp, d, ap, a, in->arg);
		break;
	default:
		break;
	}
	for (i = 0; i < n; i += c) {
		c = pwfw_min(n - i, PWFW_CHUNK);
		if (in->op == PWTPU_OP_RESHAPE || in->op == PWTPU_OP_BITCAST)
			pwfw_l_copy(dp + i * esize, ap + i * esize, c * esize);
		else
			pwfw_l_gather(&g, i, c);
		if (pwfw_x_yield(x))
			return;
	}
}

static void pwfw_x_reduce(const struct pwfw_x *x, const struct pwtpu_insn *in)
{
	const struct pwtpu_tensor *a = pwfw_x_tensor(x, in->src[0]);
	u64 nout = pwfw_tensor_elems(pwfw_x_tensor(x, in->dst));
	struct pwfw_k_reduce r = {
		.mode = in->mode,
		.dtype = a->dtype,
		.src = pwfw_x_ptr(x, in->src[0]),
		.dst = pwfw_x_ptr(x, in->dst),
		.red_count = 1,
	};
	u64 stride[PWTPU_MAX_RANK], o, j, c, acc = 0;
	u32 k;

	pwfw_l_strides(a, stride);
	for (k = 0; k < a->rank; k++) {
		if (in->arg[0] & (1U << k)) {
			r.red_shape[r.nred] = a->shape[k];
			r.red_stride[r.nred++] = stride[k];
			r.red_count *= a->shape[k];
		} else {
			r.keep_shape[r.nkeep] = a->shape[k];
			r.keep_stride[r.nkeep++] = stride[k];
		}
	}
	if (r.red_count <= PWFW_CHUNK) {
		/* Whole outputs, as many as fit in one piece. */
		for (o = 0; o < nout; o += c) {
			c = pwfw_min(nout - o, PWFW_CHUNK / r.red_count);
			pwfw_plat_fpu_begin();
			pwfw_k_reduce(&r, o, c);
			pwfw_plat_fpu_end();
			if (pwfw_x_yield(x))
				return;
		}
		return;
	}
	/* One output in pieces; the u64 accumulator is opaque here. */
	for (o = 0; o < nout; o++) {
		for (j = 0; j < r.red_count; j += c) {
			c = pwfw_min(r.red_count - j, PWFW_CHUNK);
			pwfw_plat_fpu_begin();
			pwfw_k_reduce_part(&r, o, j, c, &acc);
			if (j + c == r.red_count)
				pwfw_k_reduce_store(&r, o, acc);
			pwfw_plat_fpu_end();
			if (pwfw_x_yield(x))
				return;
		}
	}
}

/* One piece in its FPU section, then a safe point: true to stop. */
static bool pwfw_x_matmul_piece(const struct pwfw_x *x,
				const struct pwfw_k_matmul *mm, u32 m0,
				u32 rows, u32 n0, u32 cols, u32 kt0, u32 kts,
				u32 simd)
{
	u32 ktiles = (u32)(((u64)mm->k + mm->tile - 1) / mm->tile);

	pwfw_plat_fpu_begin();
	pwfw_k_matmul(mm, m0, pwfw_min(m0 + rows, mm->m), n0,
		      pwfw_min(n0 + cols, mm->n), kt0,
		      pwfw_min(kt0 + kts, ktiles), simd);
	pwfw_plat_fpu_end();
	return pwfw_x_yield(x);
}

/*
 * A piece is a block of rows x columns x K tiles of at most about
 * PWFW_CHUNK multiply-adds: whole rows when PWFW_MXU_ROWS rows fit, else
 * that many rows over fewer K tiles, else one K tile of a block of
 * columns (whole 16-column blocks) of those rows, or of fewer rows when
 * even one column block is too much. Several rows per piece let the
 * vector paths reuse each loaded piece of b (pwfw_fpu_mxu_avx2.c).
 *
 * Pieces go row block by row block, each over all columns and tiles; with
 * the AVX2 path's pack, in groups of row blocks that hold about
 * PWFW_MXU_GROUP_BYTES of a (which then stays in the cache), the row
 * blocks of a group innermost, so that they follow each other on the
 * same columns and tiles and share one packed copy of b. Each output still
 * sees its K tiles in ascending order, and the result does not depend on
 * the blocking (see pwfw_k_matmul()).
 */
static void pwfw_x_matmul(struct pwfw_x *x, const struct pwtpu_insn *in)
{
	const struct pwtpu_tensor *a = pwfw_x_tensor(x, in->src[0]);
	const struct pwtpu_tensor *b = pwfw_x_tensor(x, in->src[1]);
	struct pwfw_k_matmul mm = {
		.dtype = a->dtype,
		.m = a->shape[0],
		.k = a->shape[1],
		.n = b->shape[1],
		.tile = x->prog->array_dim ? x->prog->array_dim :
					     PWFW_DEFAULT_ARRAY_DIM,
		.a = pwfw_x_ptr(x, in->src[0]),
		.b = pwfw_x_ptr(x, in->src[1]),
		.dst = pwfw_x_ptr(x, in->dst),
	};
	u32 ktiles = (u32)(((u64)mm.k + mm.tile - 1) / mm.tile);
	u32 rows = pwfw_min(mm.m, PWFW_MXU_ROWS), cols = mm.n, kts = ktiles;
	u64 row = (u64)mm.n * mm.k, ktile_rows = (u64)rows * mm.n * mm.tile;
	u32 simd = pwfw_plat_simd();
	u32 group, g0, m0, n0, kt0;
	u64 groups;

	/*
	 * The AVX2 path copies b's columns once per piece for its rows when
	 * it has scratch; without (none allocated yet, or no memory), it
	 * reads them in place. Either way the bits are the same.
	 */
	if (simd >= PWFW_SIMD_AVX2 && !x->mxu_pack &&
	    (u64)mm.m * row >= PWFW_MXU_PACK_WORK)
		x->mxu_pack = pwfw_plat_zalloc(PWFW_MXU_PACK_BYTES(mm.tile));
	mm.pack = x->mxu_pack;
	mm.pack_id = ++x->mxu_runs;

	if (rows * row <= PWFW_CHUNK) {
		rows = (u32)(PWFW_CHUNK / row);
	} else if (ktile_rows <= PWFW_CHUNK) {
		kts = (u32)(PWFW_CHUNK / ktile_rows);
	} else {
		kts = 1;
		cols = (PWFW_CHUNK / mm.tile / rows) & ~(PWFW_MXU_COLS - 1);
		if (!cols) {
			/* At least 4 rows: array_dim is at most 1024. */
			cols = PWFW_MXU_COLS;
			rows = PWFW_CHUNK / mm.tile / cols;
		}
	}
	group = rows;
	if (mm.pack) {
		groups = PWFW_MXU_GROUP_BYTES /
			 ((u64)mm.k * pwfw_dtype_size(mm.dtype) * rows);
		group = (u32)pwfw_min(pwfw_max(groups, 1) * rows, mm.m);
	}
	for (g0 = 0; g0 < mm.m; g0 += group) {
		for (n0 = 0; n0 < mm.n; n0 += cols) {
			for (kt0 = 0; kt0 < ktiles; kt0 += kts) {
				for (m0 = g0; m0 < pwfw_min(g0 + group, mm.m);
				     m0 += rows) {
					if (pwfw_x_matmul_piece(x, &mm, m0,
								rows, n0,
								cols, kt0,
								kts, simd))
						return;
				}
			}
		}
	}
}

/*
 * SCATTER: dst = a (unless dst is a), then c's elements combined in, in
 * order; GATHER: dst's elements. Pieces of PWFW_CHUNK elements, in an
 * FPU section only where a SCATTER combines floats.
 */
static void pwfw_x_gather_scatter(const struct pwfw_x *x,
				  const struct pwtpu_insn *in)
{
	const struct pwtpu_tensor *d = pwfw_x_tensor(x, in->dst);
	const struct pwtpu_tensor *a = pwfw_x_tensor(x, in->src[0]);
	const struct pwtpu_tensor *b = pwfw_x_tensor(x, in->src[1]);
	const struct pwtpu_tensor *c = NULL;
	u8 *dp = pwfw_x_ptr(x, in->dst), *ap = pwfw_x_ptr(x, in->src[0]);
	u32 esize = pwfw_dtype_size(d->dtype);
	struct pwfw_gs g;
	u64 n, i, cnt;
	bool fpu;

	if (in->op == PWTPU_OP_SCATTER)
		c = pwfw_x_tensor(x, in->src[2]);
	pwfw_gs_init(&g, in, a, b, c, d, ap, pwfw_x_ptr(x, in->src[1]),
		     pwfw_x_ptr(x, in->src[2]), dp);
	n = pwfw_tensor_elems(d);
	for (i = 0; c && dp != ap && i < n; i += cnt) {
		cnt = pwfw_min(n - i, PWFW_CHUNK);
		pwfw_l_copy(dp + i * esize, ap + i * esize, cnt * esize);
		if (pwfw_x_yield(x))
			return;
	}
	n = pwfw_tensor_elems(c ? c : d);
	fpu = pwfw_gs_fpu(&g);
	for (i = 0; i < n; i += cnt) {
		cnt = pwfw_min(n - i, PWFW_CHUNK);
		if (fpu)
			pwfw_plat_fpu_begin();
		pwfw_gs_run(&g, i, cnt);
		if (fpu)
			pwfw_plat_fpu_end();
		if (pwfw_x_yield(x))
			return;
	}
}

static int pwfw_x_coll(struct pwfw_x *x, const struct pwtpu_insn *in)
{
	const struct pwtpu_tensor *d = pwfw_x_tensor(x, in->dst);
	const struct pwtpu_tensor *a = pwfw_x_tensor(x, in->src[0]);
	struct pwfw_coll c = {
		.env = x->env,
		.grp = &x->grp,
		.seq = x->seq++,
		.op = in->op,
		.mode = in->mode,
		.dtype = d->dtype,
		.src = pwfw_x_ptr(x, in->src[0]),
		.dst = pwfw_x_ptr(x, in->dst),
		.src_elems = pwfw_tensor_elems(a),
		.dst_elems = pwfw_tensor_elems(d),
		.shapes = pwfw_shapes_digest(a, d),
	};

	return pwfw_coll_run(&c);
}

/* A DELAY, in pieces of at most 10 ms with a safe point after each. */
static void pwfw_x_delay(const struct pwfw_x *x, u64 ns)
{
	const u64 piece = 10000000;
	u64 n;

	for (; ns; ns -= n) {
		n = pwfw_min(ns, piece);
		pwfw_plat_delay_ns(n);
		if (ns > n && pwfw_x_yield(x))
			return;
	}
}

static int pwfw_x_insn(struct pwfw_x *x, const struct pwtpu_insn *in)
{
	if (in->op >= PWTPU_OP_ALL_REDUCE &&
	    in->op <= PWTPU_OP_COLLECTIVE_PERMUTE)
		return pwfw_x_coll(x, in);
	if (!x->compute)
		return 0;
	switch (in->op) {
	case PWTPU_OP_MATMUL:
		pwfw_x_matmul(x, in);
		break;
	case PWTPU_OP_REDUCE:
		pwfw_x_reduce(x, in);
		break;
	case PWTPU_OP_RESHAPE:
	case PWTPU_OP_TRANSPOSE:
	case PWTPU_OP_BROADCAST:
	case PWTPU_OP_SLICE:
	case PWTPU_OP_BITCAST:
		pwfw_x_layout(x, in);
		break;
	case PWTPU_OP_DELAY:
		pwfw_x_delay(x, in->arg[0] | (u64)in->arg[1] << 32);
		break;
	case PWTPU_OP_SCATTER:
	case PWTPU_OP_GATHER:
		pwfw_x_gather_scatter(x, in);
		break;
	default:
		pwfw_x_elementwise(x, in);
		break;
	}
	return 0;
}

/**
 * struct pwfw_x_loop - a loop being run
 * @first: index of the body's first instruction (the LOOP is the one
 *	before).
 * @end: one past the body's last instruction.
 * @left: trips still to start after the current one.
 * @bounded: a bounded loop: a WHILE leaves it, running out is a fault.
 */
struct pwfw_x_loop {
	u32 first;
	u32 end;
	u32 left;
	bool bounded;
};

/*
 * WHILE's predicate: a rank-0 integer (the verifier checked), non-zero
 * when any of its bytes is, whatever its width and signedness.
 */
static bool pwfw_x_nonzero(const struct pwfw_x *x, u16 t)
{
	const u8 *p = pwfw_x_ptr(x, t);
	u32 size = pwfw_dtype_size(pwfw_x_tensor(x, t)->dtype), k;

	for (k = 0; k < size; k++)
		if (p[k])
			return true;
	return false;
}

/* A bounded loop, LOOP instruction @insn, ran out of trips. */
static int pwfw_x_fault(struct pwfw_x *x, u32 insn)
{
	if (x->env)
		x->env->fault_insn = insn;
	return -PWFW_ELOOP;
}

/* Between instructions: stopped inside one, or at the next safe point. */
static int pwfw_x_safe_point(struct pwfw_x *x)
{
	struct pwfw_exec_env *env = x->env;

	if (env && env->stop &&
	    (env->stopped || (++x->insns % 64 == 0 && pwfw_x_yield(x))))
		return env->stopped;
	return 0;
}

/* A program with collectives needs an island and a well-formed gang. */
static int pwfw_x_env(struct pwfw_x *x)
{
	struct pwfw_exec_env *env = x->env;

	if (!x->prog->ncoll)
		return 0;
	if (!env || !env->isl || !env->gang ||
	    pwfw_gang_check(env->isl, env->dev, env->gang))
		return -PWFW_EINVAL;
	pwfw_gang_group(env->gang, &x->grp);
	return 0;
}

/* The instructions, in order and loops, until the end or an error. */
static int pwfw_x_run(struct pwfw_x *x)
{
	const struct pwfw_prog *prog = x->prog;
	struct pwfw_x_loop loops[PWTPU_MAX_LOOP_DEPTH], *top;
	const struct pwtpu_insn *in;
	u32 pc = 0, depth = 0;
	int ret;

	for (;;) {
		if (depth) {
			top = &loops[depth - 1];
			/* A bounded loop whose trips ended: no WHILE left it. */
			if (pc == top->end && !top->left && top->bounded &&
			    x->compute)
				return pwfw_x_fault(x, top->first - 1);
			if (pc == top->end) {
				/* Next trip, or leave (to an outer end?). */
				if (top->left) {
					top->left--;
					pc = top->first;
				} else {
					depth--;
				}
				continue;
			}
		}
		if (pc >= prog->ninsns)
			break;
		in = &prog->insns[pc++];
		if (x->spec)
			x->model_ns += pwfw_model_insn_ns(x->spec, prog, in);
		if (in->op == PWTPU_OP_WHILE) {
			/* The verifier put it in a bounded loop's body. */
			if (!depth || !loops[depth - 1].bounded)
				return -PWFW_EINVAL;
			if (x->compute && !pwfw_x_nonzero(x, in->src[0]))
				pc = loops[--depth].end;
			ret = pwfw_x_safe_point(x);
			if (ret)
				return ret;
			continue;
		}
		if (in->op != PWTPU_OP_LOOP) {
			ret = pwfw_x_insn(x, in);
			if (!ret)
				ret = pwfw_x_safe_point(x);
			if (ret)
				return ret;
			continue;
		}
		/* The verifier bounds trips, body and depth; stay safe anyway. */
		if (!in->arg[0] || !in->arg[1] ||
		    depth == PWTPU_MAX_LOOP_DEPTH)
			return -PWFW_EINVAL;
		loops[depth++] = (struct pwfw_x_loop){
			.first = pc,
			.end = pc + in->arg[1],
			.left = in->arg[0] - 1,
			.bounded = in->mode == PWTPU_LOOP_BOUNDED,
		};
	}
	return 0;
}

int pwfw_exec(const struct pwfw_prog *prog, const struct pwfw_buf *bufs,
	      u32 nbufs, struct pwfw_exec_env *env)
{
	struct pwfw_x x;
	u32 i;
	int ret;

	/*
	 * Field by field: the group (PWTPU_MAX_GANG members) is filled only
	 * for a program with collectives, and zeroing it for every other
	 * execution is most of what a short one costs.
	 */
	x.prog = prog;
	x.bufs = bufs;
	x.env = env;
	x.compute = !env || env->compute;
	x.seq = 0;
	x.insns = 0;
	x.mxu_pack = NULL;
	x.mxu_runs = 0;
	x.spec = env && prog->nbounded ? env->spec : NULL;
	x.model_ns = 0;

	if (env) {
		env->link_ns = 0;
		env->model_ns = prog->modeled_ns;
		env->fault_insn = PWTPU_VERR_NO_INSN;
		env->stopped = 0;
	}
	if (nbufs != prog->nbufs)
		return -PWFW_EINVAL;
	for (i = 0; i < nbufs; i++)
		if (bufs[i].size < prog->buf_bytes[i])
			return -PWFW_ERANGE;
	ret = pwfw_x_env(&x);
	if (ret)
		return ret;
	ret = pwfw_x_run(&x);
	pwfw_plat_free(x.mxu_pack);
	if (x.spec)
		env->model_ns = x.model_ns;
	return ret;
}
