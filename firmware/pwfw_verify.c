// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_verify.c - the program verifier: every rule of the program format
 * in include/uapi/pwtpu.h, checked once at load on untrusted input.
 *
 * What an accepted program guarantees the interpreter (pwfw_exec.c),
 * which relies on it and checks only that each bound buffer holds at
 * least prog->buf_bytes[b] bytes:
 *  - The image is exactly header + ntensors tensors + ninsns insns, with
 *    1 <= ntensors <= PWTPU_MAX_TENSORS, ninsns <= PWTPU_MAX_INSNS,
 *    nbufs <= PWTPU_MAX_BUFS; every flags and reserved field is 0.
 *  - Every tensor (used or not): known dtype; rank <= PWTPU_MAX_RANK;
 *    shape[k] >= 1 for k < rank and 0 after; at most PWTPU_MAX_ELEMS
 *    elements; buf < nbufs; offset a multiple of the element size;
 *    offset + bytes <= PWTPU_MAX_OFFSET and <= prog->buf_bytes[buf].
 *  - Every instruction: known op; mode valid for COMPARE, REDUCE (SUM,
 *    MAX, MIN), ALL_REDUCE and REDUCE_SCATTER (also PROD), SCATTER (SET..
 *    MAX), 0 otherwise;
 *    each operand the op uses is a tensor index < ntensors, each it does
 *    not use is PWTPU_NO_TENSOR; args it does not use are 0.
 *  - Dtypes and shapes follow the op's rules (see check_* below): e.g.
 *    MATMUL is rank 2 [M,K] x [K,N] -> [M,N], f32/bf16 -> f32 or
 *    i8 -> i32; EXP..RSQRT take f32, bf16 or f16; AND..CLZ integers;
 *    FLOOR..ATAN2 and REDUCE_PRECISION floats (f64 included); every
 *    other non-collective op takes any dtype; TRANSPOSE's arg[0..rank-1]
 *    is a permutation; SLICE's window lies inside its source; REDUCE's
 *    mask is non-zero with bits below the rank; BITCAST's narrow side
 *    has one more dimension, the ratio of the widths, than its wide
 *    side; REDUCE_PRECISION's arg[0] is >= 1.
 *  - Overlap: the result of ADD..RSQRT, AND..REM and REDUCE_PRECISION,
 *    and of SELECT with respect to b and c, is either byte-disjoint from
 *    an operand or exactly the same tensor; the result of every other op
 *    (and SELECT's a) is disjoint from all its operands. Operands may
 *    overlap each other.
 *  - Collectives: ALL_REDUCE and REDUCE_SCATTER take f32, bf16 or i32,
 *    ALL_GATHER and COLLECTIVE_PERMUTE also i8; dst has a's dtype;
 *    ALL_REDUCE and COLLECTIVE_PERMUTE keep a's shape;
 *    ALL_GATHER's dst (REDUCE_SCATTER's a) has the other's rank >= 1 and
 *    dimensions 1.., and dimension 0 a multiple of the other's; dst is
 *    disjoint from a. prog->ncoll counts them (statically).
 *  - SCATTER and GATHER: the dimension numbers in arg[0..1] satisfy
 *    every constraint of pwtpu.h's "Scatter and gather" (masks below
 *    their tensor's rank, index map and batching pairs distinct and in
 *    range, at most 4 index vector entries, the window tensor's shape
 *    from a's and b's), so that every window index stays inside a and
 *    every batch index inside b; b is of an integer dtype; a, c and dst
 *    share a dtype; SCATTER's dst has a's shape and is a exactly or
 *    disjoint from it, and is disjoint from b and c; GATHER's dst is
 *    disjoint from a and b. Index values are unchecked (any value runs:
 *    the interpreter clamps or skips).
 *  - LOOP: 1 <= trips <= PWTPU_MAX_TRIPS; mode COUNTED or BOUNDED; the
 *    body (the next arg[1] >= 1 insns) lies inside the program and inside
 *    the enclosing body; at most PWTPU_MAX_LOOP_DEPTH loops are open at
 *    any instruction. A bounded loop's body has a WHILE of its own depth
 *    (prog->nbounded counts bounded loops).
 *  - WHILE: its a is a rank-0 integer; it is in the body of a loop, and
 *    the innermost loop open there is bounded.
 *  - DELAY: at most PWTPU_MAX_DELAY_NS.
 *  - One execution runs prog->dyn_insns <= PWTPU_MAX_DYN_INSNS
 *    instructions and takes prog->modeled_ns <= PWTPU_MAX_PROG_NS; each
 *    instruction is at most PWTPU_MAX_INSN_WORK units of real work
 *    (pwfw_work_insn()) and the execution prog->work <= PWTPU_MAX_WORK.
 *  - prog->array_dim is the spec's (8..1024 for a parsed spec).
 *
 * The image must be 8-byte aligned (tensors hold a u64) and little endian
 * like the host. The verifier never recurses and keeps a small frame.
 */
#include "pwfw.h"
#include "pwfw_fmt.h"
#include "pwfw_tensor.h"

/* op_info.nargs: one arg per dimension of src[0]. */
#define ARGS_PER_DIM	0xff

/**
 * struct op_info - what an instruction's fields mean for one op
 * @name: for messages.
 * @nsrc: operands used: src[0..nsrc-1].
 * @dst: whether dst is used.
 * @nmodes: modes are 0..nmodes-1; 0 means mode must be 0.
 * @nargs: args used: arg[0..nargs-1], or ARGS_PER_DIM.
 */
struct op_info {
	const char *name;
	u8 nsrc;
	u8 dst;
	u8 nmodes;
	u8 nargs;
};

static const struct op_info op_infos[PWTPU_OP_COUNT] = {
	[PWTPU_OP_MATMUL] = { "matmul", 2, 1, 0, 0 },
	[PWTPU_OP_ADD] = { "add", 2, 1, 0, 0 },
	[PWTPU_OP_SUB] = { "sub", 2, 1, 0, 0 },
	[PWTPU_OP_MUL] = { "mul", 2, 1, 0, 0 },
	[PWTPU_OP_DIV] = { "div", 2, 1, 0, 0 },
	[PWTPU_OP_MAX] = { "max", 2, 1, 0, 0 },
	[PWTPU_OP_MIN] = { "min", 2, 1, 0, 0 },
	[PWTPU_OP_NEG] = { "neg", 1, 1, 0, 0 },
	[PWTPU_OP_ABS] = { "abs", 1, 1, 0, 0 },
	[PWTPU_OP_EXP] = { "exp", 1, 1, 0, 0 },
	[PWTPU_OP_LOG] = { "log", 1, 1, 0, 0 },
	[PWTPU_OP_TANH] = { "tanh", 1, 1, 0, 0 },
	[PWTPU_OP_RSQRT] = { "rsqrt", 1, 1, 0, 0 },
	[PWTPU_OP_COMPARE] = { "compare", 2, 1, PWTPU_CMP_GE + 1, 0 },
	[PWTPU_OP_SELECT] = { "select", 3, 1, 0, 0 },
	[PWTPU_OP_CONVERT] = { "convert", 1, 1, 0, 0 },
	[PWTPU_OP_BROADCAST] = { "broadcast", 1, 1, 0, 0 },
	[PWTPU_OP_RESHAPE] = { "reshape", 1, 1, 0, 0 },
	[PWTPU_OP_TRANSPOSE] = { "transpose", 1, 1, 0, ARGS_PER_DIM },
	[PWTPU_OP_SLICE] = { "slice", 1, 1, 0, ARGS_PER_DIM },
	[PWTPU_OP_REDUCE] = { "reduce", 1, 1, PWTPU_REDUCE_MIN + 1, 1 },
	[PWTPU_OP_LOOP] = { "loop", 0, 0, PWTPU_LOOP_BOUNDED + 1, 2 },
	[PWTPU_OP_DELAY] = { "delay", 0, 0, 0, 2 },
	[PWTPU_OP_ALL_REDUCE] = { "all_reduce", 1, 1, PWTPU_REDUCE_PROD + 1, 0 },
	[PWTPU_OP_ALL_GATHER] = { "all_gather", 1, 1, 0, 0 },
	[PWTPU_OP_REDUCE_SCATTER] = { "reduce_scatter", 1, 1,
				      PWTPU_REDUCE_PROD + 1, 0 },
	[PWTPU_OP_COLLECTIVE_PERMUTE] = { "collective_permute", 1, 1, 0, 0 },
	[PWTPU_OP_SCATTER] = { "scatter", 3, 1, PWTPU_SCATTER_MAX + 1, 2 },
	[PWTPU_OP_GATHER] = { "gather", 2, 1, 0, 2 },
	[PWTPU_OP_AND] = { "and", 2, 1, 0, 0 },
	[PWTPU_OP_OR] = { "or", 2, 1, 0, 0 },
	[PWTPU_OP_XOR] = { "xor", 2, 1, 0, 0 },
	[PWTPU_OP_NOT] = { "not", 1, 1, 0, 0 },
	[PWTPU_OP_SHL] = { "shl", 2, 1, 0, 0 },
	[PWTPU_OP_SHR_LOGICAL] = { "shr_logical", 2, 1, 0, 0 },
	[PWTPU_OP_SHR_ARITH] = { "shr_arith", 2, 1, 0, 0 },
	[PWTPU_OP_POPCNT] = { "popcnt", 1, 1, 0, 0 },
	[PWTPU_OP_CLZ] = { "clz", 1, 1, 0, 0 },
	[PWTPU_OP_FLOOR] = { "floor", 1, 1, 0, 0 },
	[PWTPU_OP_CEIL] = { "ceil", 1, 1, 0, 0 },
	[PWTPU_OP_ROUND_EVEN] = { "round_even", 1, 1, 0, 0 },
	[PWTPU_OP_ROUND_AFZ] = { "round_afz", 1, 1, 0, 0 },
	[PWTPU_OP_SQRT] = { "sqrt", 1, 1, 0, 0 },
	[PWTPU_OP_CBRT] = { "cbrt", 1, 1, 0, 0 },
	[PWTPU_OP_SIN] = { "sin", 1, 1, 0, 0 },
	[PWTPU_OP_COS] = { "cos", 1, 1, 0, 0 },
	[PWTPU_OP_TAN] = { "tan", 1, 1, 0, 0 },
	[PWTPU_OP_LOG1P] = { "log1p", 1, 1, 0, 0 },
	[PWTPU_OP_EXPM1] = { "expm1", 1, 1, 0, 0 },
	[PWTPU_OP_LOGISTIC] = { "logistic", 1, 1, 0, 0 },
	[PWTPU_OP_ATAN2] = { "atan2", 2, 1, 0, 0 },
	[PWTPU_OP_POW] = { "pow", 2, 1, 0, 0 },
	[PWTPU_OP_REM] = { "rem", 2, 1, 0, 0 },
	[PWTPU_OP_BITCAST] = { "bitcast", 1, 1, 0, 0 },
	[PWTPU_OP_REDUCE_PRECISION] = { "reduce_precision", 1, 1, 0, 2 },
	[PWTPU_OP_WHILE] = { "while", 1, 0, 0, 0 },
};

static const char * const src_names[3] = { "a", "b", "c" };

/**
 * struct vctx - the verifier's state
 * @prog: the program being filled in.
 * @spec: for the timing model.
 * @err: the verdict.
 * @msg: cursor over @err->msg.
 * @idx: index of the instruction being checked.
 * @in: that instruction.
 * @dst: its result tensor, once its operands are checked.
 * @src: its operand tensors, once checked (0 when unused).
 */
struct vctx {
	struct pwfw_prog *prog;
	const struct pwfw_spec *spec;
	struct pwfw_verr *err;
	struct pwfw_fmt msg;
	u32 idx;
	const struct pwtpu_insn *in;
	const struct pwtpu_tensor *dst;
	const struct pwtpu_tensor *src[3];
};

/* Record a rejection and start its message; the caller appends why. */
static struct pwfw_fmt *reject(struct vctx *v, s32 code, u32 insn)
{
	v->err->code = code;
	v->err->insn = insn;
	pwfw_fmt_init(&v->msg, v->err->msg, sizeof(v->err->msg));
	return &v->msg;
}

static struct pwfw_fmt *reject_image(struct vctx *v, s32 code)
{
	return reject(v, code, PWTPU_VERR_NO_INSN);
}

static struct pwfw_fmt *reject_tensor(struct vctx *v, s32 code, u32 t)
{
	struct pwfw_fmt *f = reject(v, code, PWTPU_VERR_NO_INSN);

	pwfw_fmt_str(f, "tensor ");
	pwfw_fmt_u64(f, t);
	pwfw_fmt_str(f, ": ");
	return f;
}

/* "insn 3 (matmul): " */
static struct pwfw_fmt *reject_insn(struct vctx *v, s32 code)
{
	struct pwfw_fmt *f = reject(v, code, v->idx);
	u32 op = v->in->op;

	pwfw_fmt_str(f, "insn ");
	pwfw_fmt_u64(f, v->idx);
	pwfw_fmt_str(f, " (");
	if (op < PWTPU_OP_COUNT && op_infos[op].name) {
		pwfw_fmt_str(f, op_infos[op].name);
	} else {
		pwfw_fmt_str(f, "op ");
		pwfw_fmt_u64(f, op);
	}
	pwfw_fmt_str(f, "): ");
	return f;
}

static int fail_insn(struct vctx *v, s32 code, const char *why)
{
	pwfw_fmt_str(reject_insn(v, code), why);
	return -PWFW_EINVAL;
}

/* "<n1> is [4,5] but <n2> is [6,7]: <why>", or with dtypes (f32, bf16). */
static int fail_pair(struct vctx *v, s32 code, bool dtypes,
		     const char *n1, const struct pwtpu_tensor *t1,
		     const char *n2, const struct pwtpu_tensor *t2,
		     const char *why)
{
	struct pwfw_fmt *f = reject_insn(v, code);
	const struct pwtpu_tensor *t[2] = { t1, t2 };
	const char *n[2] = { n1, n2 };
	u32 k;

	for (k = 0; k < 2; k++) {
		pwfw_fmt_str(f, k ? " but " : "");
		pwfw_fmt_str(f, n[k]);
		pwfw_fmt_str(f, " is ");
		if (dtypes)
			pwfw_fmt_str(f, pwfw_dtype_name(t[k]->dtype));
		else
			pwfw_fmt_shape(f, t[k]);
	}
	pwfw_fmt_str(f, ": ");
	pwfw_fmt_str(f, why);
	return -PWFW_EINVAL;
}

static int fail_shapes(struct vctx *v, s32 code,
		       const char *n1, const struct pwtpu_tensor *t1,
		       const char *n2, const struct pwtpu_tensor *t2,
		       const char *why)
{
	return fail_pair(v, code, false, n1, t1, n2, t2, why);
}

static int fail_dtypes(struct vctx *v, s32 code,
		       const char *n1, const struct pwtpu_tensor *t1,
		       const char *n2, const struct pwtpu_tensor *t2,
		       const char *why)
{
	return fail_pair(v, code, true, n1, t1, n2, t2, why);
}

/* "<name> is i32: <why>" */
static int fail_dtype(struct vctx *v, const char *name,
		      const struct pwtpu_tensor *t, const char *why)
{
	struct pwfw_fmt *f = reject_insn(v, PWTPU_VERR_DTYPE);

	pwfw_fmt_str(f, name);
	pwfw_fmt_str(f, " is ");
	pwfw_fmt_str(f, pwfw_dtype_name(t->dtype));
	pwfw_fmt_str(f, ": ");
	pwfw_fmt_str(f, why);
	return -PWFW_EINVAL;
}

static int verify_header(struct vctx *v, const void *image, u64 size)
{
	const struct pwtpu_prog_header *h = image;
	struct pwfw_fmt *f;
	u64 want;

	if (!image || size < sizeof(*h)) {
		f = reject_image(v, PWTPU_VERR_TRUNCATED);
		pwfw_fmt_str(f, "image of ");
		pwfw_fmt_u64(f, image ? size : 0);
		pwfw_fmt_str(f, " bytes is shorter than the 32-byte header");
		return -PWFW_EINVAL;
	}
	if (h->magic != PWTPU_PROG_MAGIC) {
		pwfw_fmt_str(reject_image(v, PWTPU_VERR_MAGIC),
			     "bad magic, not a pwtpu program");
		return -PWFW_EINVAL;
	}
	if (h->version != PWTPU_PROG_VERSION) {
		f = reject_image(v, PWTPU_VERR_VERSION);
		pwfw_fmt_str(f, "program version ");
		pwfw_fmt_u64(f, h->version);
		pwfw_fmt_str(f, " is not supported (only 1)");
		return -PWFW_EINVAL;
	}
	if (h->flags || h->reserved[0] || h->reserved[1] || h->reserved[2]) {
		pwfw_fmt_str(reject_image(v, PWTPU_VERR_RESERVED),
			     "header flags and reserved fields must be 0");
		return -PWFW_EINVAL;
	}
	if (!h->ntensors || h->ntensors > PWTPU_MAX_TENSORS ||
	    h->ninsns > PWTPU_MAX_INSNS || h->nbufs > PWTPU_MAX_BUFS) {
		f = reject_image(v, PWTPU_VERR_LIMIT);
		pwfw_fmt_str(f, "header has ");
		pwfw_fmt_u64(f, h->ntensors);
		pwfw_fmt_str(f, " tensors, ");
		pwfw_fmt_u64(f, h->ninsns);
		pwfw_fmt_str(f, " insns, ");
		pwfw_fmt_u64(f, h->nbufs);
		pwfw_fmt_str(f, " bufs; limits are 1..1024, 0..4096, 0..16");
		return -PWFW_EINVAL;
	}
	/* Bounded counts: no overflow. */
	want = sizeof(*h) + (u64)h->ntensors * sizeof(struct pwtpu_tensor) +
	       (u64)h->ninsns * sizeof(struct pwtpu_insn);
	if (size != want) {
		f = reject_image(v, PWTPU_VERR_TRUNCATED);
		pwfw_fmt_str(f, "image is ");
		pwfw_fmt_u64(f, size);
		pwfw_fmt_str(f, " bytes but its header makes it ");
		pwfw_fmt_u64(f, want);
		return -PWFW_EINVAL;
	}
	v->prog->tensors = (const struct pwtpu_tensor *)(h + 1);
	v->prog->insns = (const struct pwtpu_insn *)
			 (v->prog->tensors + h->ntensors);
	v->prog->ntensors = h->ntensors;
	v->prog->ninsns = h->ninsns;
	v->prog->nbufs = h->nbufs;
	return 0;
}

static int verify_tensor(struct vctx *v, u32 i)
{
	const struct pwtpu_tensor *t = &v->prog->tensors[i];
	u32 size = pwfw_dtype_size(t->dtype);
	struct pwfw_fmt *f;
	u64 elems = 1, end;
	u32 k;

	if (t->flags) {
		pwfw_fmt_str(reject_tensor(v, PWTPU_VERR_RESERVED, i),
			     "flags must be 0");
		return -PWFW_EINVAL;
	}
	if (!size) {
		f = reject_tensor(v, PWTPU_VERR_DTYPE, i);
		pwfw_fmt_str(f, "unknown dtype ");
		pwfw_fmt_u64(f, t->dtype);
		return -PWFW_EINVAL;
	}
	if (t->rank > PWTPU_MAX_RANK) {
		f = reject_tensor(v, PWTPU_VERR_SHAPE, i);
		pwfw_fmt_str(f, "rank ");
		pwfw_fmt_u64(f, t->rank);
		pwfw_fmt_str(f, " is above 4");
		return -PWFW_EINVAL;
	}
	for (k = 0; k < PWTPU_MAX_RANK; k++) {
		if (k < t->rank ? !t->shape[k] : t->shape[k]) {
			f = reject_tensor(v, PWTPU_VERR_SHAPE, i);
			pwfw_fmt_str(f, "shape[");
			pwfw_fmt_u64(f, k);
			pwfw_fmt_str(f, "] is ");
			pwfw_fmt_u64(f, t->shape[k]);
			pwfw_fmt_str(f, k < t->rank ?
				     ", extents must be >= 1" :
				     ", must be 0 past the rank");
			return -PWFW_EINVAL;
		}
		/* elems <= 2^26 before, extent < 2^32: no overflow. */
		if (k < t->rank)
			elems *= t->shape[k];
		if (elems > PWTPU_MAX_ELEMS) {
			f = reject_tensor(v, PWTPU_VERR_SHAPE, i);
			pwfw_fmt_str(f, "more than 67108864 elements");
			return -PWFW_EINVAL;
		}
	}
	if (t->buf >= v->prog->nbufs) {
		f = reject_tensor(v, PWTPU_VERR_BUFFER, i);
		pwfw_fmt_str(f, "buf ");
		pwfw_fmt_u64(f, t->buf);
		pwfw_fmt_str(f, " but the program binds ");
		pwfw_fmt_u64(f, v->prog->nbufs);
		return -PWFW_EINVAL;
	}
	if (t->offset % size) {
		f = reject_tensor(v, PWTPU_VERR_BUFFER, i);
		pwfw_fmt_str(f, "offset ");
		pwfw_fmt_u64(f, t->offset);
		pwfw_fmt_str(f, " is not a multiple of ");
		pwfw_fmt_u64(f, size);
		return -PWFW_EINVAL;
	}
	/* bytes <= 2^28: compare without forming offset + bytes first. */
	if (t->offset > PWTPU_MAX_OFFSET - elems * size) {
		f = reject_tensor(v, PWTPU_VERR_BUFFER, i);
		pwfw_fmt_str(f, "offset ");
		pwfw_fmt_u64(f, t->offset);
		pwfw_fmt_str(f, " + ");
		pwfw_fmt_u64(f, elems * size);
		pwfw_fmt_str(f, " bytes ends past 2^32");
		return -PWFW_EINVAL;
	}
	end = t->offset + elems * size;
	if (end > v->prog->buf_bytes[t->buf])
		v->prog->buf_bytes[t->buf] = end;
	return 0;
}

/* Operand @index for slot @name: present and in range. */
static int check_operand(struct vctx *v, const char *name, u16 index,
			 const struct pwtpu_tensor **t)
{
	struct pwfw_fmt *f;

	if (index == PWTPU_NO_TENSOR) {
		f = reject_insn(v, PWTPU_VERR_OPERAND);
		pwfw_fmt_str(f, name);
		pwfw_fmt_str(f, " is missing");
		return -PWFW_EINVAL;
	}
	if (index >= v->prog->ntensors) {
		f = reject_insn(v, PWTPU_VERR_OPERAND);
		pwfw_fmt_str(f, name);
		pwfw_fmt_str(f, " is tensor ");
		pwfw_fmt_u64(f, index);
		pwfw_fmt_str(f, " but the program has ");
		pwfw_fmt_u64(f, v->prog->ntensors);
		return -PWFW_EINVAL;
	}
	*t = &v->prog->tensors[index];
	return 0;
}

static int check_unused_operand(struct vctx *v, const char *name, u16 index)
{
	struct pwfw_fmt *f;

	if (index == PWTPU_NO_TENSOR)
		return 0;
	f = reject_insn(v, PWTPU_VERR_RESERVED);
	pwfw_fmt_str(f, name);
	pwfw_fmt_str(f, " is unused and must be 0xffff");
	return -PWFW_EINVAL;
}

/* Fields every op shares: op, flags, mode, operand slots, unused args. */
static int check_fields(struct vctx *v)
{
	const struct pwtpu_insn *in = v->in;
	const struct op_info *info;
	struct pwfw_fmt *f;
	u32 k, nargs;
	int ret;

	if (!in->op || in->op >= PWTPU_OP_COUNT || !op_infos[in->op].name)
		return fail_insn(v, PWTPU_VERR_OPCODE, "unknown op");
	info = &op_infos[in->op];
	if (in->flags)
		return fail_insn(v, PWTPU_VERR_RESERVED, "flags must be 0");
	if (!info->nmodes && in->mode)
		return fail_insn(v, PWTPU_VERR_RESERVED,
				 "mode is unused and must be 0");
	if (in->mode >= info->nmodes && info->nmodes) {
		f = reject_insn(v, PWTPU_VERR_OPCODE);
		pwfw_fmt_str(f, "unknown mode ");
		pwfw_fmt_u64(f, in->mode);
		return -PWFW_EINVAL;
	}
	v->dst = NULL;
	if (info->dst)
		ret = check_operand(v, "dst", in->dst, &v->dst);
	else
		ret = check_unused_operand(v, "dst", in->dst);
	if (ret)
		return ret;
	for (k = 0; k < 3; k++) {
		v->src[k] = NULL;
		if (k < info->nsrc)
			ret = check_operand(v, src_names[k], in->src[k],
					    &v->src[k]);
		else
			ret = check_unused_operand(v, src_names[k],
						   in->src[k]);
		if (ret)
			return ret;
	}
	nargs = info->nargs == ARGS_PER_DIM ? v->src[0]->rank : info->nargs;
	for (k = nargs; k < 5; k++) {
		if (in->arg[k]) {
			f = reject_insn(v, PWTPU_VERR_RESERVED);
			pwfw_fmt_str(f, "arg[");
			pwfw_fmt_u64(f, k);
			pwfw_fmt_str(f, "] is unused and must be 0");
			return -PWFW_EINVAL;
		}
	}
	return 0;
}

/* A result byte-disjoint from @t, or (if @exact_ok) exactly @t. */
static int check_overlap(struct vctx *v, const char *name,
			 const struct pwtpu_tensor *t, bool exact_ok)
{
	if (!pwfw_tensor_overlap(v->dst, t))
		return 0;
	if (exact_ok && pwfw_tensor_same(v->dst, t))
		return 0;
	return fail_shapes(v, PWTPU_VERR_OVERLAP, "dst", v->dst, name, t,
			   exact_ok ?
			   "they overlap without being the same tensor" :
			   "they overlap");
}

/* A result disjoint from every operand. */
static int check_disjoint(struct vctx *v)
{
	u32 k;
	int ret;

	for (k = 0; k < 3; k++) {
		if (!v->src[k])
			continue;
		ret = check_overlap(v, src_names[k], v->src[k], 0);
		if (ret)
			return ret;
	}
	return 0;
}

/* The dtypes an elementwise op takes: a's is checked, the others match it. */
static int check_op_dtype(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0];
	u32 op = v->in->op;

	if (op >= PWTPU_OP_AND && op <= PWTPU_OP_CLZ &&
	    pwfw_dtype_is_float(a->dtype))
		return fail_dtype(v, "a", a, "this op takes integers only");
	/* EXP..RSQRT of f64 came with PWTPU_UAPI_VERSION 6. */
	if (((op >= PWTPU_OP_EXP && op <= PWTPU_OP_RSQRT) ||
	     (op >= PWTPU_OP_FLOOR && op <= PWTPU_OP_ATAN2) ||
	     op == PWTPU_OP_REDUCE_PRECISION) &&
	    !pwfw_dtype_is_float(a->dtype))
		return fail_dtype(v, "a", a,
				  "this op takes floats only (f32, bf16, f16 or f64)");
	return 0;
}

/*
 * ADD..RSQRT, AND..REM, REDUCE_PRECISION: every operand like dst; exact
 * aliasing allowed.
 */
static int check_elementwise(struct vctx *v)
{
	u32 k;
	int ret = check_op_dtype(v);

	if (ret)
		return ret;
	for (k = 0; k < 3 && v->src[k]; k++) {
		if (v->src[k]->dtype != v->dst->dtype)
			return fail_dtypes(v, PWTPU_VERR_MISMATCH, "dst",
					   v->dst, src_names[k], v->src[k],
					   "dtypes differ");
		if (!pwfw_shape_equal(v->src[k], v->dst))
			return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst",
					   v->dst, src_names[k], v->src[k],
					   "shapes differ");
		ret = check_overlap(v, src_names[k], v->src[k], 1);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * BITCAST: a's bytes as dst's dtype. Elements of one width keep the
 * shape; otherwise the narrow side has one more, last, dimension, of the
 * ratio of the widths.
 */
static int check_bitcast(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *d = v->dst;
	u32 asz = pwfw_dtype_size(a->dtype), dsz = pwfw_dtype_size(d->dtype);
	const struct pwtpu_tensor *wide = dsz > asz ? d : a;
	const struct pwtpu_tensor *narrow = dsz > asz ? a : d;
	u32 ratio = dsz > asz ? dsz / asz : asz / dsz, k;
	struct pwfw_fmt *f;

	if (asz == dsz) {
		if (!pwfw_shape_equal(d, a))
			return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d,
					   "a", a, "shapes differ");
		return check_disjoint(v);
	}
	for (k = 0; k < wide->rank; k++)
		if (narrow->shape[k] != wide->shape[k])
			break;
	if (narrow->rank != wide->rank + 1 || k < wide->rank ||
	    narrow->shape[wide->rank] != ratio) {
		/* "dst is [2] but a is [2,3]: ... a's shape must be dst's and 8" */
		f = reject_insn(v, PWTPU_VERR_MISMATCH);
		pwfw_fmt_str(f, "dst is ");
		pwfw_fmt_str(f, pwfw_dtype_name(d->dtype));
		pwfw_fmt_shape(f, d);
		pwfw_fmt_str(f, " but a is ");
		pwfw_fmt_str(f, pwfw_dtype_name(a->dtype));
		pwfw_fmt_shape(f, a);
		pwfw_fmt_str(f, narrow == a ? ": a's shape must be dst's" :
			     ": dst's shape must be a's");
		pwfw_fmt_str(f, " and a last dimension of ");
		pwfw_fmt_u64(f, ratio);
		return -PWFW_EINVAL;
	}
	return check_disjoint(v);
}

/* REDUCE_PRECISION: a format of at least one exponent bit. */
static int check_reduce_precision(struct vctx *v)
{
	if (!v->in->arg[0])
		return fail_insn(v, PWTPU_VERR_ARG,
				 "exponent bits arg[0] must be >= 1");
	return check_elementwise(v);
}

static int check_compare(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *b = v->src[1];

	if (a->dtype != b->dtype)
		return fail_dtypes(v, PWTPU_VERR_MISMATCH, "a", a, "b", b,
				   "dtypes differ");
	if (!pwfw_shape_equal(a, b))
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "a", a, "b", b,
				   "shapes differ");
	if (v->dst->dtype != PWTPU_DT_I8)
		return fail_dtype(v, "dst", v->dst, "compare writes i8");
	if (!pwfw_shape_equal(v->dst, a))
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", v->dst,
				   "a", a, "shapes differ");
	return check_disjoint(v);
}

static int check_select(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0];
	u32 k;
	int ret;

	if (a->dtype != PWTPU_DT_I8)
		return fail_dtype(v, "a", a, "the predicate must be i8");
	if (!pwfw_shape_equal(v->dst, a))
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", v->dst,
				   "a", a, "shapes differ");
	ret = check_overlap(v, "a", a, 0);
	if (ret)
		return ret;
	for (k = 1; k < 3; k++) {
		if (v->src[k]->dtype != v->dst->dtype)
			return fail_dtypes(v, PWTPU_VERR_MISMATCH, "dst",
					   v->dst, src_names[k], v->src[k],
					   "dtypes differ");
		if (!pwfw_shape_equal(v->src[k], a))
			return fail_shapes(v, PWTPU_VERR_MISMATCH,
					   src_names[k], v->src[k], "a", a,
					   "shapes differ");
		ret = check_overlap(v, src_names[k], v->src[k], 1);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_matmul(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *b = v->src[1];
	struct pwfw_fmt *f;
	u32 want;

	switch (a->dtype) {
	case PWTPU_DT_F32:
	case PWTPU_DT_BF16:
		want = PWTPU_DT_F32;
		break;
	case PWTPU_DT_I8:
		want = PWTPU_DT_I32;
		break;
	default:
		return fail_dtype(v, "a", a, "matmul takes f32, bf16 or i8");
	}
	if (b->dtype != a->dtype)
		return fail_dtypes(v, PWTPU_VERR_MISMATCH, "a", a, "b", b,
				   "dtypes differ");
	if (v->dst->dtype != want) {
		f = reject_insn(v, PWTPU_VERR_MISMATCH);
		pwfw_fmt_str(f, "dst is ");
		pwfw_fmt_str(f, pwfw_dtype_name(v->dst->dtype));
		pwfw_fmt_str(f, " but a matmul of ");
		pwfw_fmt_str(f, pwfw_dtype_name(a->dtype));
		pwfw_fmt_str(f, " gives ");
		pwfw_fmt_str(f, pwfw_dtype_name(want));
		return -PWFW_EINVAL;
	}
	if (a->rank != 2 || b->rank != 2 || v->dst->rank != 2)
		return fail_insn(v, PWTPU_VERR_SHAPE,
				 "a, b and dst must all have rank 2");
	if (a->shape[1] != b->shape[0])
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "a", a, "b", b,
				   "inner dimensions differ");
	if (v->dst->shape[0] != a->shape[0] ||
	    v->dst->shape[1] != b->shape[1]) {
		/* "dst is [5,7] but a [4,5] x b [5,7] gives [4,7]" */
		f = reject_insn(v, PWTPU_VERR_MISMATCH);
		pwfw_fmt_str(f, "dst is ");
		pwfw_fmt_shape(f, v->dst);
		pwfw_fmt_str(f, " but a ");
		pwfw_fmt_shape(f, a);
		pwfw_fmt_str(f, " x b ");
		pwfw_fmt_shape(f, b);
		pwfw_fmt_str(f, " gives [");
		pwfw_fmt_u64(f, a->shape[0]);
		pwfw_fmt_char(f, ',');
		pwfw_fmt_u64(f, b->shape[1]);
		pwfw_fmt_char(f, ']');
		return -PWFW_EINVAL;
	}
	return check_disjoint(v);
}

static int check_same_dtype(struct vctx *v)
{
	if (v->dst->dtype == v->src[0]->dtype)
		return 0;
	return fail_dtypes(v, PWTPU_VERR_MISMATCH, "dst", v->dst, "a",
			   v->src[0], "dtypes differ");
}

static int check_convert(struct vctx *v)
{
	if (!pwfw_shape_equal(v->dst, v->src[0]))
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", v->dst, "a",
				   v->src[0], "shapes differ");
	return check_disjoint(v);
}

static int check_broadcast(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *d = v->dst;
	u32 k, lead;
	int ret = check_same_dtype(v);

	if (ret)
		return ret;
	if (a->rank > d->rank)
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d, "a", a,
				   "a has the higher rank");
	/* Right aligned: a's dimension k is dst's dimension lead + k. */
	lead = d->rank - a->rank;
	for (k = 0; k < a->rank; k++)
		if (a->shape[k] != 1 && a->shape[k] != d->shape[lead + k])
			return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d,
					   "a", a,
					   "a's extents must be 1 or dst's");
	return check_disjoint(v);
}

static int check_reshape(struct vctx *v)
{
	int ret = check_same_dtype(v);

	if (ret)
		return ret;
	if (pwfw_tensor_elems(v->dst) != pwfw_tensor_elems(v->src[0]))
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", v->dst, "a",
				   v->src[0], "element counts differ");
	return check_disjoint(v);
}

static int check_transpose(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *d = v->dst;
	const u32 *perm = v->in->arg;
	u32 k, seen = 0;
	int ret = check_same_dtype(v);

	if (ret)
		return ret;
	if (d->rank != a->rank)
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d, "a", a,
				   "ranks differ");
	for (k = 0; k < a->rank; k++) {
		if (perm[k] >= a->rank || seen & (1U << perm[k]))
			return fail_insn(v, PWTPU_VERR_ARG,
					 "arg[0..rank-1] is not a permutation");
		seen |= 1U << perm[k];
	}
	for (k = 0; k < a->rank; k++)
		if (d->shape[k] != a->shape[perm[k]])
			return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d,
					   "a", a,
					   "want dst.shape[k] = a.shape[arg[k]]");
	return check_disjoint(v);
}

static int check_slice(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *d = v->dst;
	struct pwfw_fmt *f;
	u32 k;
	int ret = check_same_dtype(v);

	if (ret)
		return ret;
	if (d->rank != a->rank)
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d, "a", a,
				   "ranks differ");
	for (k = 0; k < a->rank; k++) {
		/* u64: start + extent cannot wrap. */
		if ((u64)v->in->arg[k] + d->shape[k] > a->shape[k]) {
			f = reject_insn(v, PWTPU_VERR_ARG);
			pwfw_fmt_str(f, "window ");
			pwfw_fmt_u64(f, v->in->arg[k]);
			pwfw_fmt_str(f, "+");
			pwfw_fmt_u64(f, d->shape[k]);
			pwfw_fmt_str(f, " of dimension ");
			pwfw_fmt_u64(f, k);
			pwfw_fmt_str(f, " is past a's extent ");
			pwfw_fmt_u64(f, a->shape[k]);
			return -PWFW_EINVAL;
		}
	}
	return check_disjoint(v);
}

static int check_reduce(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *d = v->dst;
	u32 mask = v->in->arg[0];
	u32 k, kept = 0;
	int ret;

	if (!mask || mask >> a->rank)
		return fail_insn(v, PWTPU_VERR_ARG,
				 "axis mask arg[0] must be non-zero with bits below a's rank");
	ret = check_same_dtype(v);
	if (ret)
		return ret;
	/* dst's dimensions are a's kept ones, in order. */
	for (k = 0; k < a->rank; k++) {
		if (mask & (1U << k))
			continue;
		if (kept >= d->rank || d->shape[kept] != a->shape[k])
			break;
		kept++;
	}
	if (k < a->rank || kept != d->rank)
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d, "a", a,
				   "want a's shape without the reduced axes");
	return check_disjoint(v);
}

static bool is_collective(u32 op)
{
	return op >= PWTPU_OP_ALL_REDUCE && op <= PWTPU_OP_COLLECTIVE_PERMUTE;
}

/*
 * dst and a of ALL_GATHER (@big is dst) or REDUCE_SCATTER (@big is a):
 * same rank >= 1, dimensions 1.. equal, the big one's dimension 0 a
 * multiple of the small one's. Which multiple is the gang's group size,
 * known only at exec.
 */
static int check_blocks(struct vctx *v, const char *big_name,
			const struct pwtpu_tensor *big, const char *small_name,
			const struct pwtpu_tensor *small)
{
	u32 k;

	if (!big->rank || !small->rank)
		return fail_insn(v, PWTPU_VERR_SHAPE,
				 "a and dst must have rank >= 1");
	if (big->rank != small->rank)
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", v->dst, "a",
				   v->src[0], "ranks differ");
	for (k = 1; k < big->rank; k++)
		if (big->shape[k] != small->shape[k])
			return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst",
					   v->dst, "a", v->src[0],
					   "dimensions past the first differ");
	if (big->shape[0] % small->shape[0]) {
		struct pwfw_fmt *f = reject_insn(v, PWTPU_VERR_MISMATCH);

		pwfw_fmt_str(f, big_name);
		pwfw_fmt_str(f, ".shape[0] ");
		pwfw_fmt_u64(f, big->shape[0]);
		pwfw_fmt_str(f, " is not a multiple of ");
		pwfw_fmt_str(f, small_name);
		pwfw_fmt_str(f, ".shape[0] ");
		pwfw_fmt_u64(f, small->shape[0]);
		return -PWFW_EINVAL;
	}
	return 0;
}

/* A verified collective: count it, and the scratch a REDUCE_SCATTER needs. */
static void count_collective(struct vctx *v)
{
	u64 scratch;

	v->prog->ncoll++;
	if (v->in->op != PWTPU_OP_REDUCE_SCATTER)
		return;
	/* Two blocks of dst at most (pwfw_coll.c); tensors are < 2^62 B. */
	scratch = 2 * pwfw_tensor_bytes(v->dst);
	if (scratch > v->prog->coll_scratch)
		v->prog->coll_scratch = scratch;
}

/*
 * ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, COLLECTIVE_PERMUTE. dst never
 * overlaps a: peers read a (and dst) while this device writes dst.
 */
static int check_collective(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *d = v->dst;
	u32 op = v->in->op;
	int ret;

	if ((op == PWTPU_OP_ALL_REDUCE || op == PWTPU_OP_REDUCE_SCATTER) &&
	    a->dtype != PWTPU_DT_F32 && a->dtype != PWTPU_DT_BF16 &&
	    a->dtype != PWTPU_DT_I32)
		return fail_dtype(v, "a", a,
				  "reductions take f32, bf16 or i32");
	if (a->dtype != PWTPU_DT_F32 && a->dtype != PWTPU_DT_BF16 &&
	    a->dtype != PWTPU_DT_I8 && a->dtype != PWTPU_DT_I32)
		return fail_dtype(v, "a", a,
				  "collectives take f32, bf16, i8 or i32");
	ret = check_same_dtype(v);
	if (ret)
		return ret;
	switch (op) {
	case PWTPU_OP_ALL_GATHER:
		ret = check_blocks(v, "dst", d, "a", a);
		break;
	case PWTPU_OP_REDUCE_SCATTER:
		ret = check_blocks(v, "a", a, "dst", d);
		break;
	default:
		if (!pwfw_shape_equal(d, a))
			ret = fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", d,
					  "a", a, "shapes differ");
		break;
	}
	if (ret)
		return ret;
	return check_disjoint(v);
}

/* Set bits of a 4-bit dimension mask. */
static u32 dims_in(u32 mask)
{
	return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1);
}

/* "<what> <value> <why>" with code @code. */
static int fail_dim(struct vctx *v, s32 code, const char *what, u64 value,
		    const char *why)
{
	struct pwfw_fmt *f = reject_insn(v, code);

	pwfw_fmt_str(f, what);
	pwfw_fmt_char(f, ' ');
	pwfw_fmt_u64(f, value);
	pwfw_fmt_char(f, ' ');
	pwfw_fmt_str(f, why);
	return -PWFW_EINVAL;
}

/* "M[1] = 3 is ..." for entry @i of the list @list. */
static int fail_entry(struct vctx *v, const char *list, u32 i, u32 d,
		      const char *why)
{
	struct pwfw_fmt *f = reject_insn(v, PWTPU_VERR_ARG);

	pwfw_fmt_str(f, list);
	pwfw_fmt_char(f, '[');
	pwfw_fmt_u64(f, i);
	pwfw_fmt_str(f, "] = ");
	pwfw_fmt_u64(f, d);
	pwfw_fmt_char(f, ' ');
	pwfw_fmt_str(f, why);
	return -PWFW_EINVAL;
}

/*
 * The index map M (arg[1] bits 16-23) of SCATTER and GATHER: @n distinct
 * dimensions of a, none batching, the fields past them 0.
 */
static int check_gs_map(struct vctx *v, u32 n, u32 bmask)
{
	u32 arg1 = v->in->arg[1], j, d, seen = 0;

	if ((arg1 >> 16) >> (2 * n))
		return fail_dim(v, PWTPU_VERR_RESERVED,
				"arg[1] bits 16-23 hold entries past the index vector's",
				n, "and those must be 0");
	for (j = 0; j < n; j++) {
		d = PWTPU_GS_MAP_DIM(arg1, j);
		if (d >= v->src[0]->rank)
			return fail_entry(v, "index map M", j, d,
					  "is not a dimension of a");
		if (bmask & 1U << d)
			return fail_entry(v, "index map M", j, d,
					  "is a batching dimension");
		if (seen & 1U << d)
			return fail_entry(v, "index map M", j, d, "repeats");
		seen |= 1U << d;
	}
	return 0;
}

/*
 * The batching pairs S (arg[1] bits 0-7): one dimension of b per bit of
 * @bmask, distinct, not @vd, of the extent of the dimension of a it
 * pairs with; the fields past them 0.
 */
static int check_gs_pairs(struct vctx *v, u32 bmask, u32 vd)
{
	const struct pwtpu_tensor *a = v->src[0], *b = v->src[1];
	u32 arg1 = v->in->arg[1], nb = dims_in(bmask), i = 0, k, e, seen = 0;
	struct pwfw_fmt *f;

	if ((arg1 & 0xff) >> (2 * nb))
		return fail_dim(v, PWTPU_VERR_RESERVED,
				"arg[1] bits 0-7 hold pairs past the batching mask's",
				nb, "and those must be 0");
	for (k = 0; k < a->rank; k++) {
		if (!(bmask & 1U << k))
			continue;
		e = PWTPU_GS_PAIR_DIM(arg1, i);
		if (e >= b->rank)
			return fail_entry(v, "batching pair S", i, e,
					  "is not a dimension of b");
		if (e == vd)
			return fail_entry(v, "batching pair S", i, e,
					  "is the index vector dimension");
		if (seen & 1U << e)
			return fail_entry(v, "batching pair S", i, e,
					  "repeats");
		seen |= 1U << e;
		if (b->shape[e] != a->shape[k]) {
			f = reject_insn(v, PWTPU_VERR_MISMATCH);
			pwfw_fmt_str(f, "a is ");
			pwfw_fmt_shape(f, a);
			pwfw_fmt_str(f, " but b is ");
			pwfw_fmt_shape(f, b);
			pwfw_fmt_str(f, ": batching dimension ");
			pwfw_fmt_u64(f, k);
			pwfw_fmt_str(f, " of a and its pair ");
			pwfw_fmt_u64(f, e);
			pwfw_fmt_str(f, " of b differ in extent");
			return -PWFW_EINVAL;
		}
		i++;
	}
	return 0;
}

/*
 * @w's shape (SCATTER's c, GATHER's dst): its batch dimensions are b's
 * but @vd, in order; its window dimensions (@wmask) take a's dimensions
 * outside @amask in order, at most their extents.
 */
static int check_gs_shape(struct vctx *v, const char *wname,
			  const struct pwtpu_tensor *w, u32 wmask, u32 amask,
			  u32 vd)
{
	const struct pwtpu_tensor *a = v->src[0], *b = v->src[1];
	u32 nbatch = b->rank - (vd < b->rank), k, e = 0, d = 0;

	if (w->rank != dims_in(wmask) + nbatch)
		return fail_shapes(v, PWTPU_VERR_MISMATCH, wname, w, "b", b,
				   "want one dimension per window dimension and per dimension of b but V");
	for (k = 0; k < w->rank; k++) {
		if (wmask & 1U << k) {
			while (amask & 1U << d)
				d++;
			if (w->shape[k] > a->shape[d])
				return fail_shapes(v, PWTPU_VERR_MISMATCH,
						   wname, w, "a", a,
						   "a window extent is past a's");
			d++;
			continue;
		}
		if (e == vd)
			e++;
		if (w->shape[k] != b->shape[e])
			return fail_shapes(v, PWTPU_VERR_MISMATCH, wname, w,
					   "b", b,
					   "batch dimensions must have b's extents, V left out");
		e++;
	}
	return 0;
}

/*
 * The dimension numbers of SCATTER (@w is c) and GATHER (@w is dst):
 * pwtpu.h, "Scatter and gather".
 */
static int check_gs_dims(struct vctx *v, const char *wname,
			 const struct pwtpu_tensor *w)
{
	const struct pwtpu_tensor *a = v->src[0], *b = v->src[1];
	u32 arg0 = v->in->arg[0], arg1 = v->in->arg[1];
	u32 wmask = PWTPU_GS_WINDOW(arg0), imask = PWTPU_GS_INSERTED(arg0);
	u32 bmask = PWTPU_GS_BATCHING(arg0), vd = PWTPU_GS_VECTOR_DIM(arg0);
	u32 n;
	int ret;

	if ((arg0 & ~PWTPU_GS_ARG0_BITS) || (arg1 & ~PWTPU_GS_ARG1_BITS))
		return fail_insn(v, PWTPU_VERR_RESERVED,
				 "arg[0] or arg[1] sets bits no dimension number uses");
	if (pwfw_dtype_is_float(b->dtype))
		return fail_dtype(v, "b", b, "indices must be integers");
	if (wmask >> w->rank)
		return fail_dim(v, PWTPU_VERR_ARG, "window mask", wmask,
				"names a dimension past the rank of the window tensor");
	if ((imask | bmask) >> a->rank)
		return fail_dim(v, PWTPU_VERR_ARG,
				"inserted and batching masks together",
				imask | bmask, "name a dimension past a's rank");
	if (imask & bmask)
		return fail_dim(v, PWTPU_VERR_ARG, "dimension mask",
				imask & bmask,
				"is both inserted (collapsed) and batching");
	if (dims_in(wmask) + dims_in(imask) + dims_in(bmask) != a->rank)
		return fail_dim(v, PWTPU_VERR_ARG, "a's rank", a->rank,
				"is not the count of window, inserted and batching dimensions");
	if (vd > b->rank)
		return fail_dim(v, PWTPU_VERR_ARG,
				"index vector dimension V", vd,
				"is past b's rank");
	n = vd < b->rank ? b->shape[vd] : 1;
	if (n > a->rank - dims_in(bmask))
		return fail_dim(v, PWTPU_VERR_ARG, "the index vector has", n,
				"entries, more than a has dimensions outside the batching ones");
	ret = check_gs_map(v, n, bmask);
	if (!ret)
		ret = check_gs_pairs(v, bmask, vd);
	if (!ret)
		ret = check_gs_shape(v, wname, w, wmask, imask | bmask, vd);
	return ret;
}

/* dst = a with c scattered in at b; dst may be a exactly. */
static int check_scatter(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0], *c = v->src[2];
	int ret;

	ret = check_same_dtype(v);
	if (ret)
		return ret;
	if (c->dtype != a->dtype)
		return fail_dtypes(v, PWTPU_VERR_MISMATCH, "a", a, "c", c,
				   "dtypes differ");
	if (!pwfw_shape_equal(v->dst, a))
		return fail_shapes(v, PWTPU_VERR_MISMATCH, "dst", v->dst, "a",
				   a, "shapes differ");
	ret = check_gs_dims(v, "c", c);
	if (!ret)
		ret = check_overlap(v, "a", a, 1);
	if (!ret)
		ret = check_overlap(v, "b", v->src[1], 0);
	if (!ret)
		ret = check_overlap(v, "c", c, 0);
	return ret;
}

/* dst = the slices of a at b. */
static int check_gather(struct vctx *v)
{
	int ret = check_same_dtype(v);

	if (!ret)
		ret = check_gs_dims(v, "dst", v->dst);
	if (!ret)
		ret = check_disjoint(v);
	return ret;
}

static int check_delay(struct vctx *v)
{
	u64 ns = v->in->arg[0] | (u64)v->in->arg[1] << 32;
	struct pwfw_fmt *f;

	if (ns <= PWTPU_MAX_DELAY_NS)
		return 0;
	f = reject_insn(v, PWTPU_VERR_LIMIT);
	pwfw_fmt_u64(f, ns);
	pwfw_fmt_str(f, " ns is above the limit of 1000000000");
	return -PWFW_EINVAL;
}

/* A loop's own fields; where its body lies is checked by the caller. */
static int check_loop(struct vctx *v)
{
	u32 trips = v->in->arg[0];

	if (!trips || trips > PWTPU_MAX_TRIPS)
		return fail_insn(v, PWTPU_VERR_LOOP,
				 "trip count arg[0] must be 1..1048576");
	if (!v->in->arg[1])
		return fail_insn(v, PWTPU_VERR_LOOP,
				 "body length arg[1] must be >= 1");
	return 0;
}

/* WHILE's predicate; where it may be is checked by the caller. */
static int check_while(struct vctx *v)
{
	const struct pwtpu_tensor *a = v->src[0];
	struct pwfw_fmt *f;

	if (a->rank) {
		f = reject_insn(v, PWTPU_VERR_SHAPE);
		pwfw_fmt_str(f, "a is ");
		pwfw_fmt_shape(f, a);
		pwfw_fmt_str(f, ": the predicate must be a scalar (rank 0)");
		return -PWFW_EINVAL;
	}
	if (pwfw_dtype_is_float(a->dtype))
		return fail_dtype(v, "a", a,
				  "the predicate must be an integer (the i8 predicate, or any other)");
	return 0;
}

/* Every rule of one instruction that does not depend on its position. */
static int verify_insn(struct vctx *v)
{
	int ret = check_fields(v);

	if (ret)
		return ret;
	switch (v->in->op) {
	case PWTPU_OP_MATMUL:
		return check_matmul(v);
	case PWTPU_OP_COMPARE:
		return check_compare(v);
	case PWTPU_OP_SELECT:
		return check_select(v);
	case PWTPU_OP_CONVERT:
		return check_convert(v);
	case PWTPU_OP_BROADCAST:
		return check_broadcast(v);
	case PWTPU_OP_RESHAPE:
		return check_reshape(v);
	case PWTPU_OP_TRANSPOSE:
		return check_transpose(v);
	case PWTPU_OP_SLICE:
		return check_slice(v);
	case PWTPU_OP_REDUCE:
		return check_reduce(v);
	case PWTPU_OP_LOOP:
		return check_loop(v);
	case PWTPU_OP_DELAY:
		return check_delay(v);
	case PWTPU_OP_ALL_REDUCE ... PWTPU_OP_COLLECTIVE_PERMUTE:
		return check_collective(v);
	case PWTPU_OP_SCATTER:
		return check_scatter(v);
	case PWTPU_OP_GATHER:
		return check_gather(v);
	case PWTPU_OP_BITCAST:
		return check_bitcast(v);
	case PWTPU_OP_REDUCE_PRECISION:
		return check_reduce_precision(v);
	case PWTPU_OP_WHILE:
		return check_while(v);
	default:
		return check_elementwise(v);
	}
}

/**
 * struct loop_nest - the loops open at the current instruction
 * @depth: how many.
 * @loop: index of each one's LOOP instruction, innermost last.
 * @last: index of the last body instruction of each, innermost last.
 * @bounded: each one is a bounded loop.
 * @left: a WHILE of its own depth can leave it.
 * @runs: how often one execution runs an instruction at each depth;
 *	@runs[0] is 1, @runs[d + 1] is @runs[d] times loop d's trips.
 */
struct loop_nest {
	u32 depth;
	u32 loop[PWTPU_MAX_LOOP_DEPTH];
	u32 last[PWTPU_MAX_LOOP_DEPTH];
	bool bounded[PWTPU_MAX_LOOP_DEPTH];
	bool left[PWTPU_MAX_LOOP_DEPTH];
	u64 runs[PWTPU_MAX_LOOP_DEPTH + 1];
};

/* Open the loop at v->idx, already checked by check_loop(). */
static int enter_loop(struct vctx *v, struct loop_nest *nest)
{
	u64 last = (u64)v->idx + v->in->arg[1];
	u64 runs = nest->runs[nest->depth] * v->in->arg[0];
	struct pwfw_fmt *f;

	if (last >= v->prog->ninsns) {
		f = reject_insn(v, PWTPU_VERR_LOOP);
		pwfw_fmt_str(f, "body ends at insn ");
		pwfw_fmt_u64(f, last);
		pwfw_fmt_str(f, ", past the program's last insn ");
		pwfw_fmt_u64(f, v->prog->ninsns - 1);
		return -PWFW_EINVAL;
	}
	if (nest->depth && last > nest->last[nest->depth - 1]) {
		f = reject_insn(v, PWTPU_VERR_LOOP);
		pwfw_fmt_str(f, "body ends at insn ");
		pwfw_fmt_u64(f, last);
		pwfw_fmt_str(f, ", past the enclosing body's end at insn ");
		pwfw_fmt_u64(f, nest->last[nest->depth - 1]);
		return -PWFW_EINVAL;
	}
	if (nest->depth == PWTPU_MAX_LOOP_DEPTH)
		return fail_insn(v, PWTPU_VERR_LOOP,
				 "loops nest deeper than 4");
	/*
	 * The body's first instruction runs @runs times: past the limit,
	 * the program is over it (runs <= 2^22 * 2^20: no overflow).
	 */
	if (runs > PWTPU_MAX_DYN_INSNS) {
		f = reject_insn(v, PWTPU_VERR_BOUND);
		pwfw_fmt_str(f, "its body runs ");
		pwfw_fmt_u64(f, runs);
		pwfw_fmt_str(f, " times, above the limit of 4194304 insns");
		return -PWFW_EINVAL;
	}
	nest->loop[nest->depth] = v->idx;
	nest->last[nest->depth] = (u32)last;
	nest->bounded[nest->depth] = v->in->mode == PWTPU_LOOP_BOUNDED;
	nest->left[nest->depth] = false;
	nest->runs[++nest->depth] = runs;
	if (v->in->mode == PWTPU_LOOP_BOUNDED)
		v->prog->nbounded++;
	return 0;
}

/*
 * Close the innermost loop, whose body ended: a bounded one must have a
 * WHILE of its own to leave it by (it is refused at its LOOP).
 */
static int leave_loop(struct vctx *v, struct loop_nest *nest)
{
	u32 d = --nest->depth;

	if (!nest->bounded[d] || nest->left[d])
		return 0;
	v->idx = nest->loop[d];
	v->in = &v->prog->insns[v->idx];
	return fail_insn(v, PWTPU_VERR_LOOP,
			 "a bounded loop (mode 1) needs a while in its own body to end: it has none");
}

/* A WHILE leaves the innermost loop, which must be bounded. */
static int check_while_place(struct vctx *v, struct loop_nest *nest)
{
	if (!nest->depth)
		return fail_insn(v, PWTPU_VERR_LOOP,
				 "a while must be in the body of a bounded loop (mode 1): it is outside every loop");
	if (!nest->bounded[nest->depth - 1])
		return fail_insn(v, PWTPU_VERR_LOOP,
				 "a while leaves the innermost loop, which must be bounded (mode 1): it is counted (mode 0)");
	nest->left[nest->depth - 1] = true;
	return 0;
}

/*
 * Real work: @work per run of the current instruction, @runs runs. Both
 * limits hold whatever the timing model says.
 */
static int count_work(struct vctx *v, u64 work, u64 runs)
{
	struct pwfw_prog *prog = v->prog;
	struct pwfw_fmt *f;

	if (work > PWTPU_MAX_INSN_WORK) {
		f = reject_insn(v, PWTPU_VERR_BOUND);
		pwfw_fmt_str(f, "one run is ");
		pwfw_fmt_u64(f, work);
		pwfw_fmt_str(f, " units of work, above the limit of ");
		pwfw_fmt_u64(f, PWTPU_MAX_INSN_WORK);
		return -PWFW_EINVAL;
	}
	/* work <= 2^32, runs <= 2^22, prog->work <= 2^34: no overflow. */
	if (work * runs > PWTPU_MAX_WORK - prog->work) {
		f = reject_insn(v, PWTPU_VERR_BOUND);
		pwfw_fmt_str(f, "the program's work passes the limit of ");
		pwfw_fmt_u64(f, PWTPU_MAX_WORK);
		pwfw_fmt_str(f, " units (this insn: ");
		pwfw_fmt_u64(f, runs);
		pwfw_fmt_str(f, " x ");
		pwfw_fmt_u64(f, work);
		pwfw_fmt_str(f, ")");
		return -PWFW_EINVAL;
	}
	prog->work += work * runs;
	return 0;
}

/* Add @runs executions of the current instruction to the totals. */
static int count_insn(struct vctx *v, u64 runs)
{
	u64 ns = pwfw_model_insn_ns(v->spec, v->prog, v->in);
	struct pwfw_prog *prog = v->prog;
	struct pwfw_fmt *f;

	/* runs <= 2^22, dyn_insns <= 2^22 before: no overflow. */
	prog->dyn_insns += runs;
	if (prog->dyn_insns > PWTPU_MAX_DYN_INSNS) {
		f = reject_insn(v, PWTPU_VERR_BOUND);
		pwfw_fmt_str(f, "the program runs more than 4194304 insns");
		return -PWFW_EINVAL;
	}
	/* ns and modeled_ns <= 10^10 < 2^34 before the sums: no overflow. */
	if (ns > PWTPU_MAX_PROG_NS ||
	    ns * runs > PWTPU_MAX_PROG_NS - prog->modeled_ns) {
		f = reject_insn(v, PWTPU_VERR_BOUND);
		pwfw_fmt_str(f, "modelled time passes the 10 s limit (this insn: ");
		pwfw_fmt_u64(f, runs);
		pwfw_fmt_str(f, " x ");
		pwfw_fmt_u64(f, ns);
		pwfw_fmt_str(f, " ns)");
		return -PWFW_EINVAL;
	}
	prog->modeled_ns += ns * runs;
	return count_work(v, pwfw_work_insn(prog, v->in), runs);
}

static int verify_insns(struct vctx *v)
{
	struct loop_nest nest = { .depth = 0, .runs = { 1 } };
	u64 runs;
	u32 i;
	int ret;

	for (i = 0; i < v->prog->ninsns; i++) {
		while (nest.depth && nest.last[nest.depth - 1] < i) {
			ret = leave_loop(v, &nest);
			if (ret)
				return ret;
		}
		v->idx = i;
		v->in = &v->prog->insns[i];
		/* The instruction itself runs as often as its loop's body. */
		runs = nest.runs[nest.depth];
		ret = verify_insn(v);
		if (!ret && is_collective(v->in->op))
			count_collective(v);
		if (!ret && v->in->op == PWTPU_OP_LOOP)
			ret = enter_loop(v, &nest);
		if (!ret && v->in->op == PWTPU_OP_WHILE)
			ret = check_while_place(v, &nest);
		if (!ret)
			ret = count_insn(v, runs);
		if (ret)
			return ret;
	}
	while (nest.depth) {
		ret = leave_loop(v, &nest);
		if (ret)
			return ret;
	}
	return 0;
}

int pwfw_verify(const void *image, u64 size, const struct pwfw_spec *spec,
		struct pwfw_prog *prog, struct pwfw_verr *err)
{
	struct vctx v = { .prog = prog, .spec = spec, .err = err };
	u32 i;
	int ret;

	*prog = (struct pwfw_prog){ 0 };
	err->code = PWTPU_VERR_OK;
	err->insn = PWTPU_VERR_NO_INSN;
	err->msg[0] = '\0';

	/* The interpreter tiles MATMUL like the spec's array. */
	prog->array_dim = spec->array_dim;
	ret = verify_header(&v, image, size);
	for (i = 0; !ret && i < prog->ntensors; i++)
		ret = verify_tensor(&v, i);
	if (!ret)
		ret = verify_insns(&v);
	if (ret)
		*prog = (struct pwfw_prog){ 0 };
	return ret;
}
