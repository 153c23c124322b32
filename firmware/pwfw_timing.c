// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_timing.c - the timing model: how long each instruction and each
 * host copy takes on a device of a given spec. Integer nanoseconds only;
 * every step saturates at U64_MAX instead of wrapping. The formulas are
 * in docs/firmware.md, section "Timing model".
 */
#include "pwfw.h"
#include "pwfw_tensor.h"

/*
 * Cycles per vector-unit pass of exp, log, tanh, rsqrt and of SQRT..REM
 * (the math functions, and the loops of POW and REM).
 */
#define PWFW_TRANSCENDENTAL_CYCLES	4

/*
 * Real work per element of a math function: about as much as 16 adds
 * when computed in binary64 (f32, bf16, f16), and as 512 in double-double
 * (f64 EXP, LOG, TANH and CBRT..POW: 10 to 25 times longer); an f64 REM's
 * long division (up to 190 steps) is bounded like the latter. f64 RSQRT
 * is a square root and a division in binary64, like f32's.
 */
#define PWFW_WORK_MATH		16
#define PWFW_WORK_MATH_F64	512

#define U64_SAT	(~0ULL)

static u64 add_sat(u64 a, u64 b)
{
	return a + b < a ? U64_SAT : a + b;
}

static u64 mul_sat(u64 a, u64 b)
{
	if (a && b > U64_SAT / a)
		return U64_SAT;
	return a * b;
}

/* A spec from pwfw_spec_parse() has no zero rate; never divide by 0. */
static u64 div_ceil(u64 a, u64 b)
{
	if (!b)
		b = 1;
	return a / b + (a % b != 0);
}

static u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * ceil(x * 1000 / per_us), exact without a wider type: x = q * per_us + r
 * gives q * 1000 + ceil(r * 1000 / per_us), where only q * 1000 can
 * overflow (and saturates).
 */
static u64 per_us_to_ns(u64 x, u32 per_us)
{
	u64 d = per_us ? per_us : 1;

	return add_sat(mul_sat(x / d, 1000), div_ceil(x % d * 1000, d));
}

/* A clock of f MHz runs f cycles per microsecond. */
static u64 cycles_ns(const struct pwfw_spec *spec, u64 cycles)
{
	return per_us_to_ns(cycles, spec->clock_mhz);
}

/* 1 MB/s is 10^6 bytes per second: one byte per microsecond. */
static u64 transfer_ns(u64 bytes, u32 mbps)
{
	return per_us_to_ns(bytes, mbps);
}

static const struct pwtpu_tensor *operand(const struct pwfw_prog *prog,
					  u16 index)
{
	return index < prog->ntensors ? &prog->tensors[index] : NULL;
}

static u64 operand_bytes(const struct pwfw_prog *prog, u16 index)
{
	const struct pwtpu_tensor *t = operand(prog, index);

	return t ? pwfw_tensor_bytes(t) : 0;
}

static u64 operand_elems(const struct pwfw_prog *prog, u16 index)
{
	const struct pwtpu_tensor *t = operand(prog, index);

	return t ? pwfw_tensor_elems(t) : 0;
}

/* Bytes the instruction reads from and writes to HBM. */
static u64 insn_bytes(const struct pwfw_prog *prog,
		      const struct pwtpu_insn *insn)
{
	u64 dst = operand_bytes(prog, insn->dst);
	u64 bytes = dst;
	u32 k;

	/* A slice reads only its window, the size of its result. */
	if (insn->op == PWTPU_OP_SLICE)
		return add_sat(dst, dst);
	for (k = 0; k < 3; k++)
		bytes = add_sat(bytes, operand_bytes(prog, insn->src[k]));
	return bytes;
}

/*
 * Weight-stationary systolic array of D x D: for each (K tile, N tile)
 * the weights load (D cycles), then M rows stream through, then the
 * pipeline drains (D cycles).
 */
static u64 matmul_cycles(const struct pwfw_spec *spec,
			 const struct pwfw_prog *prog,
			 const struct pwtpu_insn *insn)
{
	const struct pwtpu_tensor *a = operand(prog, insn->src[0]);
	const struct pwtpu_tensor *b = operand(prog, insn->src[1]);
	u64 d = spec->array_dim;
	u64 tiles;

	if (!a || !b || a->rank != 2 || b->rank != 2)
		return 0;
	tiles = mul_sat(div_ceil(a->shape[1], d), div_ceil(b->shape[1], d));
	return mul_sat(tiles, add_sat(a->shape[0], 2 * d));
}

/*
 * Vector lanes are 32 bits wide: an element of 8 bytes (f64, i64, u64)
 * takes two, a narrower one takes one. What counts is the widest element
 * the instruction reads or writes (COMPARE's f64 operands, not its i8
 * result).
 */
static u64 lanes_per_elem(const struct pwfw_prog *prog,
			  const struct pwtpu_insn *insn)
{
	const struct pwtpu_tensor *t = operand(prog, insn->dst);
	u32 size = t ? pwfw_dtype_size(t->dtype) : 0;
	u32 k;

	for (k = 0; k < 3; k++) {
		t = operand(prog, insn->src[k]);
		if (t && pwfw_dtype_size(t->dtype) > size)
			size = pwfw_dtype_size(t->dtype);
	}
	return size > 4 ? size / 4 : 1;
}

static u64 vector_cycles(const struct pwfw_spec *spec,
			 const struct pwfw_prog *prog,
			 const struct pwtpu_insn *insn)
{
	/* A reduction works through its input, the others their result. */
	u16 t = insn->op == PWTPU_OP_REDUCE ? insn->src[0] : insn->dst;
	u64 lanes = mul_sat(operand_elems(prog, t),
			    lanes_per_elem(prog, insn));
	u64 passes = div_ceil(lanes, spec->vector_lanes);

	switch (insn->op) {
	case PWTPU_OP_EXP:
	case PWTPU_OP_LOG:
	case PWTPU_OP_TANH:
	case PWTPU_OP_RSQRT:
	case PWTPU_OP_SQRT ... PWTPU_OP_REM:
		return mul_sat(passes, PWFW_TRANSCENDENTAL_CYCLES);
	default:
		return passes;
	}
}

/*
 * SCATTER: the copy of a into dst (none when dst is a), the indices, the
 * updates read, and each target read (but for SET) and written, with a
 * vector pass per update for a combiner. GATHER: the indices, and each
 * result element read from a and written.
 */
static u64 gather_scatter_ns(const struct pwfw_spec *spec,
			     const struct pwfw_prog *prog,
			     const struct pwtpu_insn *insn)
{
	const struct pwtpu_tensor *a = operand(prog, insn->src[0]);
	const struct pwtpu_tensor *d = operand(prog, insn->dst);
	u64 b = operand_bytes(prog, insn->src[1]);
	u64 c = operand_bytes(prog, insn->src[2]);
	u64 bytes, compute = 0, lanes;

	if (insn->op == PWTPU_OP_GATHER) {
		bytes = mul_sat(operand_bytes(prog, insn->dst), 2);
		return transfer_ns(add_sat(b, bytes), spec->hbm_mbps);
	}
	bytes = add_sat(b, mul_sat(c, insn->mode == PWTPU_SCATTER_SET ? 2 : 3));
	if (a && d && !pwfw_tensor_same(a, d))
		bytes = add_sat(bytes, add_sat(pwfw_tensor_bytes(a),
					       pwfw_tensor_bytes(d)));
	if (insn->mode != PWTPU_SCATTER_SET) {
		lanes = mul_sat(operand_elems(prog, insn->src[2]),
				lanes_per_elem(prog, insn));
		compute = cycles_ns(spec, div_ceil(lanes, spec->vector_lanes));
	}
	return max_u64(compute, transfer_ns(bytes, spec->hbm_mbps));
}

u64 pwfw_model_insn_ns(const struct pwfw_spec *spec,
		       const struct pwfw_prog *prog,
		       const struct pwtpu_insn *insn)
{
	u64 compute = 0;
	u64 ns;

	switch (insn->op) {
	case PWTPU_OP_LOOP:
	case PWTPU_OP_WHILE:
		/*
		 * A LOOP's body is counted, trip by trip, by the verifier
		 * (a bounded one's at all its trips); a WHILE tests a scalar.
		 */
		return spec->insn_overhead_ns;
	case PWTPU_OP_DELAY:
		ns = insn->arg[0] | (u64)insn->arg[1] << 32;
		return add_sat(ns, spec->insn_overhead_ns);
	case PWTPU_OP_MATMUL:
		compute = cycles_ns(spec, matmul_cycles(spec, prog, insn));
		break;
	case PWTPU_OP_ADD ... PWTPU_OP_SELECT:
	case PWTPU_OP_REDUCE:
	case PWTPU_OP_AND ... PWTPU_OP_REM:
	case PWTPU_OP_REDUCE_PRECISION:
		compute = cycles_ns(spec, vector_cycles(spec, prog, insn));
		break;
	case PWTPU_OP_CONVERT ... PWTPU_OP_SLICE:
	case PWTPU_OP_BITCAST:
		/* Layout ops only move memory. */
		break;
	case PWTPU_OP_SCATTER:
	case PWTPU_OP_GATHER:
		return add_sat(gather_scatter_ns(spec, prog, insn),
			       spec->insn_overhead_ns);
	default:
		return spec->insn_overhead_ns;
	}
	ns = max_u64(compute, transfer_ns(insn_bytes(prog, insn),
					  spec->hbm_mbps));
	return add_sat(ns, spec->insn_overhead_ns);
}

u32 pwfw_work_elem(u32 op, u32 dtype)
{
	bool is_float = pwfw_dtype_is_float(dtype);
	u32 math = dtype == PWTPU_DT_F64 ? PWFW_WORK_MATH_F64 : PWFW_WORK_MATH;

	switch (op) {
	case PWTPU_OP_RSQRT:
		return PWFW_WORK_MATH;
	case PWTPU_OP_EXP:
	case PWTPU_OP_LOG:
	case PWTPU_OP_TANH:
	case PWTPU_OP_CBRT ... PWTPU_OP_ATAN2:
		return math;
	case PWTPU_OP_POW:
		/* Integers: at most 64 squarings. */
		return is_float ? math : PWFW_WORK_MATH;
	case PWTPU_OP_REM:
		return is_float ? math : 1;
	default:
		return 1;
	}
}

u64 pwfw_work_insn(const struct pwfw_prog *prog,
		   const struct pwtpu_insn *insn)
{
	const struct pwtpu_tensor *a = operand(prog, insn->src[0]);
	const struct pwtpu_tensor *b = operand(prog, insn->src[1]);
	const struct pwtpu_tensor *d = operand(prog, insn->dst);

	switch (insn->op) {
	case PWTPU_OP_LOOP:
	case PWTPU_OP_WHILE:
	case PWTPU_OP_DELAY:
		return 0;	/* bounded by trips and by time */
	case PWTPU_OP_MATMUL:
		if (!a || !b || a->rank != 2 || b->rank != 2)
			return 0;
		return mul_sat(mul_sat(a->shape[0], a->shape[1]),
			       b->shape[1]);
	case PWTPU_OP_EXP:
	case PWTPU_OP_LOG:
	case PWTPU_OP_TANH:
	case PWTPU_OP_RSQRT:
	case PWTPU_OP_POW:
	case PWTPU_OP_CBRT ... PWTPU_OP_ATAN2:
	case PWTPU_OP_REM:
		if (!d)
			return 0;
		return mul_sat(pwfw_tensor_elems(d),
			       pwfw_work_elem(insn->op, d->dtype));
	case PWTPU_OP_REDUCE:
		return operand_elems(prog, insn->src[0]);
	case PWTPU_OP_SCATTER:
		/* The copy of a, then each update. */
		return add_sat(operand_elems(prog, insn->dst),
			       operand_elems(prog, insn->src[2]));
	case PWTPU_OP_GATHER:
		return operand_elems(prog, insn->dst);
	default:
		/* Elementwise, layout, collectives: what they write or send. */
		return max_u64(operand_elems(prog, insn->dst),
			       operand_elems(prog, insn->src[0]));
	}
}

u64 pwfw_model_copy_ns(const struct pwfw_spec *spec, u64 bytes)
{
	return add_sat(spec->host_latency_ns,
		       transfer_ns(bytes, spec->host_mbps));
}
