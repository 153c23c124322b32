// SPDX-License-Identifier: GPL-2.0
/*
 * fn_builder.c - the compiled-function builder (pathways.h, "Compiled
 * functions"): typed values with static shapes and the ops between them.
 *
 * Every call checks its operands as the verifier (firmware/pwfw_verify.c)
 * will check the instruction, so a mistake is reported by the call that
 * made it, in the caller's terms, rather than at device load. The first
 * failure sticks: later calls return it and pw_fn_build() reports it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_ir.h"
#include "../../firmware/pwfw.h"

/* A value's signature in a message: "f32[2,3]". */
#define SIG_STR_LEN	64

static const char *const op_names[PWTPU_OP_COUNT] = {
	[PWTPU_OP_MATMUL] = "MATMUL",
	[PWTPU_OP_ADD] = "ADD",
	[PWTPU_OP_SUB] = "SUB",
	[PWTPU_OP_MUL] = "MUL",
	[PWTPU_OP_DIV] = "DIV",
	[PWTPU_OP_MAX] = "MAX",
	[PWTPU_OP_MIN] = "MIN",
	[PWTPU_OP_NEG] = "NEG",
	[PWTPU_OP_ABS] = "ABS",
	[PWTPU_OP_EXP] = "EXP",
	[PWTPU_OP_LOG] = "LOG",
	[PWTPU_OP_TANH] = "TANH",
	[PWTPU_OP_RSQRT] = "RSQRT",
	[PWTPU_OP_COMPARE] = "COMPARE",
	[PWTPU_OP_SELECT] = "SELECT",
	[PWTPU_OP_CONVERT] = "CONVERT",
	[PWTPU_OP_BROADCAST] = "BROADCAST",
	[PWTPU_OP_RESHAPE] = "RESHAPE",
	[PWTPU_OP_TRANSPOSE] = "TRANSPOSE",
	[PWTPU_OP_SLICE] = "SLICE",
	[PWTPU_OP_REDUCE] = "REDUCE",
	[PWTPU_OP_LOOP] = "LOOP",
	[PWTPU_OP_DELAY] = "DELAY",
	[PWTPU_OP_ALL_REDUCE] = "ALL_REDUCE",
	[PWTPU_OP_ALL_GATHER] = "ALL_GATHER",
	[PWTPU_OP_REDUCE_SCATTER] = "REDUCE_SCATTER",
	[PWTPU_OP_COLLECTIVE_PERMUTE] = "COLLECTIVE_PERMUTE",
	[PWTPU_OP_SCATTER] = "SCATTER",
	[PWTPU_OP_GATHER] = "GATHER",
	[PWTPU_OP_AND] = "AND",
	[PWTPU_OP_OR] = "OR",
	[PWTPU_OP_XOR] = "XOR",
	[PWTPU_OP_NOT] = "NOT",
	[PWTPU_OP_SHL] = "SHL",
	[PWTPU_OP_SHR_LOGICAL] = "SHR_LOGICAL",
	[PWTPU_OP_SHR_ARITH] = "SHR_ARITH",
	[PWTPU_OP_POPCNT] = "POPCNT",
	[PWTPU_OP_CLZ] = "CLZ",
	[PWTPU_OP_FLOOR] = "FLOOR",
	[PWTPU_OP_CEIL] = "CEIL",
	[PWTPU_OP_ROUND_EVEN] = "ROUND_EVEN",
	[PWTPU_OP_ROUND_AFZ] = "ROUND_AFZ",
	[PWTPU_OP_SQRT] = "SQRT",
	[PWTPU_OP_CBRT] = "CBRT",
	[PWTPU_OP_SIN] = "SIN",
	[PWTPU_OP_COS] = "COS",
	[PWTPU_OP_TAN] = "TAN",
	[PWTPU_OP_LOG1P] = "LOG1P",
	[PWTPU_OP_EXPM1] = "EXPM1",
	[PWTPU_OP_LOGISTIC] = "LOGISTIC",
	[PWTPU_OP_ATAN2] = "ATAN2",
	[PWTPU_OP_POW] = "POW",
	[PWTPU_OP_REM] = "REM",
	[PWTPU_OP_BITCAST] = "BITCAST",
	[PWTPU_OP_REDUCE_PRECISION] = "REDUCE_PRECISION",
	[PWTPU_OP_WHILE] = "WHILE",
};

static const char *op_name(enum pwtpu_op op)
{
	if ((unsigned int)op < PWTPU_OP_COUNT && op_names[op])
		return op_names[op];
	return "?";
}

static const char *sig_str(const struct pw_sig *sig, char *buf)
{
	return pw_sig_format(sig, buf, SIG_STR_LEN);
}

/* Record the builder's first failure and make it the thread's message. */
static int __attribute__((format(printf, 3, 4)))
fn_fail(struct pw_fn_builder *b, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
	va_end(ap);
	b->err = err;
	return pw_fail(err, "%s", b->msg);
}

/* Entry of every call: a builder that has not failed yet. */
static int fn_check(struct pw_fn_builder *b, const char *call)
{
	if (!b)
		return pw_fail(-EINVAL, "%s: no builder", call);
	if (b->err)
		return pw_fail(b->err, "%s", b->msg);
	return 0;
}

/*
 * Copy value @x's signature into @sig, if @x exists and may be read
 * here: not made inside a loop that has ended.
 */
static int fn_get(struct pw_fn_builder *b, const char *call, pw_val x,
		  struct pw_sig *sig)
{
	int loop;

	if (x < 0 || (unsigned int)x >= b->nvals)
		return fn_fail(b, -EINVAL,
			       "%s: value %d does not exist (the builder has %u)",
			       call, x, b->nvals);
	loop = b->vals[x].loop;
	if (loop >= 0 && b->loops[loop].ended)
		return fn_fail(b, -EINVAL,
			       "%s: value %d was made inside a loop that has ended (pw_fn_while_end): carry it out in a loop variable",
			       call, x);
	*sig = b->vals[x].sig;
	return 0;
}

/* Make room for one more item of @size bytes in *@arr. */
static int fn_grow(void **arr, unsigned int *cap, unsigned int count,
		   size_t size)
{
	unsigned int ncap;
	void *n;

	if (count < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	n = realloc(*arr, (size_t)ncap * size);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

/* @sig from a caller's @dtype, @rank and @shape; checked by fn_new_val(). */
static int fn_make_sig(struct pw_fn_builder *b, const char *call,
		       enum pwtpu_dtype dtype, unsigned int rank,
		       const uint32_t *shape, struct pw_sig *sig)
{
	if (rank > PW_MAX_RANK)
		return fn_fail(b, -EINVAL, "%s: rank %u is above %d", call,
			       rank, PW_MAX_RANK);
	if (rank && !shape)
		return fn_fail(b, -EINVAL, "%s: rank %u but no shape", call,
			       rank);
	memset(sig, 0, sizeof(*sig));
	sig->dtype = dtype;
	sig->rank = rank;
	if (rank)
		memcpy(sig->shape, shape, rank * sizeof(*shape));
	return 0;
}

/* What the verifier requires of every tensor, but its place. */
static int fn_check_sig(struct pw_fn_builder *b, const char *call,
			const struct pw_sig *sig)
{
	uint64_t elems = 1;
	uint32_t k;

	if (!pwtpu_dtype_name(sig->dtype))
		return fn_fail(b, -EINVAL, "%s: unknown dtype %u", call,
			       sig->dtype);
	for (k = 0; k < sig->rank; k++) {
		if (!sig->shape[k])
			return fn_fail(b, -EINVAL,
				       "%s: extent %u of dimension %u must be >= 1",
				       call, sig->shape[k], k);
		/* elems <= 2^26 before, extent < 2^32: no overflow. */
		elems *= sig->shape[k];
		if (elems > PWTPU_MAX_ELEMS)
			return fn_fail(b, -E2BIG,
				       "%s: more than %u elements", call,
				       PWTPU_MAX_ELEMS);
	}
	return 0;
}

/* A new value of @sig; its index or -errno. */
static int fn_new_val(struct pw_fn_builder *b, const char *call,
		      const struct pw_sig *sig, enum pw_fn_val_kind kind,
		      unsigned int index)
{
	struct pw_fn_val *v;
	int ret = fn_check_sig(b, call, sig);

	if (ret)
		return ret;
	if (b->nvals >= PW_FN_MAX_VALS)
		return fn_fail(b, -E2BIG,
			       "%s: more than %u values (a program holds %u tensors)",
			       call, PW_FN_MAX_VALS, PWTPU_MAX_TENSORS);
	if (fn_grow((void **)&b->vals, &b->vals_cap, b->nvals,
		    sizeof(*b->vals)))
		return fn_fail(b, -ENOMEM, "%s: out of memory", call);
	v = &b->vals[b->nvals];
	memset(v, 0, sizeof(*v));
	v->sig = *sig;
	v->kind = kind;
	v->index = index;
	v->loop = b->cur;
	return (int)b->nvals++;
}

/*
 * Append an op writing @dst (-1 for none); one run of the function
 * executes it as often as the loops open around it run (b->runs).
 */
static int fn_add_op(struct pw_fn_builder *b, const char *call,
		     enum pwtpu_op op, uint8_t mode, int dst, int s0, int s1,
		     int s2, const uint32_t *args, unsigned int nargs)
{
	struct pw_fn_op *o;

	/* runs <= 2^22 and dyn_insns <= 2^22 before: no overflow. */
	if (b->dyn_insns + b->runs > PWTPU_MAX_DYN_INSNS)
		return fn_fail(b, -E2BIG,
			       "%s: a run of the function executes more than the device's %u instructions (each as often as its loops run it)",
			       call, PWTPU_MAX_DYN_INSNS);
	if (fn_grow((void **)&b->ops, &b->ops_cap, b->nops, sizeof(*b->ops)))
		return fn_fail(b, -ENOMEM, "%s: out of memory", call);
	b->dyn_insns += b->runs;
	o = &b->ops[b->nops++];
	memset(o, 0, sizeof(*o));
	o->op = op;
	o->mode = mode;
	o->dst = dst;
	o->src[0] = s0;
	o->src[1] = s1;
	o->src[2] = s2;
	if (nargs)
		memcpy(o->args, args, nargs * sizeof(*args));
	return 0;
}

/*
 * The real work of an op writing @sig from @s0 (-1: none), counted as
 * the verifier counts it (pwfw_work_insn()): a MATMUL's multiply-adds, a
 * REDUCE's input elements, else the larger of the result's and the first
 * operand's elements times the op's cost per element (the math functions
 * cost more). Shapes are bounded: no product wraps.
 */
static uint64_t fn_op_work(struct pw_fn_builder *b, enum pwtpu_op op,
			   const struct pw_sig *sig, int s0, int s1)
{
	uint64_t d = pw_sig_elems(sig), a = s0 >= 0 ?
		     pw_sig_elems(&b->vals[s0].sig) : 0;
	const struct pw_sig *x, *y;

	switch (op) {
	case PWTPU_OP_MATMUL:
		x = &b->vals[s0].sig;
		y = &b->vals[s1].sig;
		return (uint64_t)x->shape[0] * x->shape[1] * y->shape[1];
	case PWTPU_OP_REDUCE:
		return a;
	default:
		return (d > a ? d : a) * pwfw_work_elem(op, sig->dtype);
	}
}

/*
 * Room for one more op of @work units a run, run as often as the loops
 * open around it run: 0, or the failure.
 */
static int fn_check_work(struct pw_fn_builder *b, const char *call,
			 uint64_t work)
{
	if (b->nops >= PW_FN_MAX_OPS)
		return fn_fail(b, -E2BIG,
			       "%s: more than %u ops (a program holds %u instructions)",
			       call, PW_FN_MAX_OPS, PWTPU_MAX_INSNS);
	if (work > PWTPU_MAX_INSN_WORK)
		return fn_fail(b, -E2BIG,
			       "%s: %llu units of work, more than the device's %llu for one instruction",
			       call, (unsigned long long)work,
			       (unsigned long long)PWTPU_MAX_INSN_WORK);
	/* work <= 2^32, runs <= 2^22: no product wraps. */
	if (work * b->runs > PWTPU_MAX_WORK - b->work)
		return fn_fail(b, -E2BIG,
			       "%s: the function's work passes the device's %llu units",
			       call, (unsigned long long)PWTPU_MAX_WORK);
	return 0;
}

/* The op just added does @work a run: count it. */
static void fn_count_work(struct pw_fn_builder *b, uint64_t work)
{
	b->ops[b->nops - 1].work = work;
	b->work += work * b->runs;
}

/* A new value of @sig written by a new op; the value or -errno. */
static int fn_new_op(struct pw_fn_builder *b, const char *call,
		     enum pwtpu_op op, uint8_t mode, const struct pw_sig *sig,
		     int s0, int s1, int s2, const uint32_t *args,
		     unsigned int nargs)
{
	uint64_t work;
	int v, ret;

	ret = fn_check_work(b, call, 0);
	if (ret)
		return ret;
	v = fn_new_val(b, call, sig, PW_FN_VAL_OP, b->nops);
	if (v < 0)
		return v;
	/*
	 * @sig is checked: at most 2^26 elements, a cost of at most 2^9,
	 * a MATMUL's 2^52 at most (2^26 * 2^26 over its two operands): no
	 * product wraps, nor does the total (at most 2^34 before).
	 */
	work = fn_op_work(b, op, sig, s0, s1);
	ret = fn_check_work(b, call, work);
	if (!ret)
		ret = fn_add_op(b, call, op, mode, v, s0, s1, s2, args, nargs);
	if (!ret)
		fn_count_work(b, work);
	return ret ? ret : v;
}

/* Parameters and results leave room for the scratch and const bindings. */
static int fn_check_bufs(struct pw_fn_builder *b, const char *call)
{
	unsigned int n = b->nparams + b->nresults + 1;

	if (n + PW_FN_EXTRA_BUFS > PWTPU_MAX_BUFS)
		return fn_fail(b, -E2BIG,
			       "%s: %u parameters and results, at most %u (%u bindings, %u kept for scratch and constants)",
			       call, n, PWTPU_MAX_BUFS - PW_FN_EXTRA_BUFS,
			       PWTPU_MAX_BUFS, PW_FN_EXTRA_BUFS);
	return 0;
}

/* MATMUL's float inputs (the result is f32). */
static bool is_mxu_float(uint32_t dtype)
{
	return dtype == PWTPU_DT_F32 || dtype == PWTPU_DT_BF16;
}

static bool is_float(uint32_t dtype)
{
	return is_mxu_float(dtype) || dtype == PWTPU_DT_F16 ||
	       dtype == PWTPU_DT_F64;
}

/* AND..CLZ: integers only. */
static bool is_int_op(enum pwtpu_op op)
{
	return op >= PWTPU_OP_AND && op <= PWTPU_OP_CLZ;
}

/*
 * EXP..RSQRT, FLOOR..ATAN2 and REDUCE_PRECISION: floats only (f64 too;
 * EXP..RSQRT since PWTPU_UAPI_VERSION 6).
 */
static bool is_float_op(enum pwtpu_op op)
{
	return (op >= PWTPU_OP_EXP && op <= PWTPU_OP_RSQRT) ||
	       (op >= PWTPU_OP_FLOOR && op <= PWTPU_OP_ATAN2) ||
	       op == PWTPU_OP_REDUCE_PRECISION;
}

/*
 * The dtype rules of the elementwise ops beyond ADD..MIN, as the
 * verifier checks them: 0, or the builder's failure.
 */
static int fn_check_op_dtype(struct pw_fn_builder *b, const char *call,
			     enum pwtpu_op op, const struct pw_sig *sig)
{
	char s[SIG_STR_LEN];

	if (is_int_op(op) && is_float(sig->dtype))
		return fn_fail(b, -EINVAL, "%s: %s is not an integer", call,
			       sig_str(sig, s));
	if (is_float_op(op) && !is_float(sig->dtype))
		return fn_fail(b, -EINVAL,
			       "%s: %s is not a float (f32, bf16, f16 or f64)",
			       call, sig_str(sig, s));
	return 0;
}

/* ALL_REDUCE and REDUCE_SCATTER reduce f32, bf16 or i32. */
static bool is_reducible(uint32_t dtype)
{
	return is_mxu_float(dtype) || dtype == PWTPU_DT_I32;
}

/* The other collectives move f32, bf16, i8 or i32. */
static bool is_collective_dtype(uint32_t dtype)
{
	return is_reducible(dtype) || dtype == PWTPU_DT_I8;
}

struct pw_fn_builder *pw_fn_begin(const char *name)
{
	struct pw_fn_builder *b = calloc(1, sizeof(*b));

	if (!b) {
		pw_fail(-ENOMEM, "pw_fn_begin: out of memory");
		return NULL;
	}
	snprintf(b->name, sizeof(b->name), "%s", name ? name : "fn");
	b->cur = -1;
	b->runs = 1;
	return b;
}

void pw_fn_builder_free(struct pw_fn_builder *b)
{
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->nloops; i++)
		free(b->loops[i].vars);
	free(b->loops);
	free(b->vals);
	free(b->ops);
	free(b->results);
	free(b->consts);
	free(b);
}

pw_val pw_fn_param(struct pw_fn_builder *b, enum pwtpu_dtype dtype,
		   unsigned int rank, const uint32_t *shape)
{
	const char *call = "pw_fn_param";
	struct pw_sig sig;
	int ret, v;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_check_bufs(b, call);
	if (!ret)
		ret = fn_make_sig(b, call, dtype, rank, shape, &sig);
	if (ret)
		return ret;
	v = fn_new_val(b, call, &sig, PW_FN_VAL_PARAM, b->nparams);
	if (v >= 0)
		b->nparams++;
	return v;
}

/* A constant of @sig whose elements are at @data. */
static pw_val fn_const(struct pw_fn_builder *b, const char *call,
		       const struct pw_sig *sig, const void *data)
{
	uint64_t bytes = pw_sig_bytes(sig);
	uint64_t offset, end, ncap;
	unsigned char *n;
	int v;

	v = fn_new_val(b, call, sig, PW_FN_VAL_CONST, 0);
	if (v < 0)
		return v;
	/* Packed like the scratch, so that every element is aligned. */
	offset = (b->const_bytes + PW_FN_ALIGN - 1) &
		 ~(uint64_t)(PW_FN_ALIGN - 1);
	end = offset + bytes;
	if (end > PWTPU_MAX_OFFSET)
		return fn_fail(b, -E2BIG,
			       "%s: constants take more than %llu bytes", call,
			       (unsigned long long)PWTPU_MAX_OFFSET);
	if (end > b->consts_cap) {
		ncap = b->consts_cap ? b->consts_cap : 256;
		while (ncap < end)
			ncap *= 2;
		n = realloc(b->consts, ncap);
		if (!n)
			return fn_fail(b, -ENOMEM, "%s: out of memory", call);
		b->consts = n;
		b->consts_cap = ncap;
	}
	memset(b->consts + b->const_bytes, 0, offset - b->const_bytes);
	memcpy(b->consts + offset, data, bytes);
	b->const_bytes = end;
	b->vals[v].const_offset = offset;
	return v;
}

pw_val pw_fn_const(struct pw_fn_builder *b, enum pwtpu_dtype dtype,
		   unsigned int rank, const uint32_t *shape, const void *data)
{
	const char *call = "pw_fn_const";
	struct pw_sig sig;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_make_sig(b, call, dtype, rank, shape, &sig);
	if (!ret && !data)
		ret = fn_fail(b, -EINVAL, "%s: no data", call);
	if (ret)
		return ret;
	return fn_const(b, call, &sig, data);
}

/*
 * @value rounded once, to nearest even, to the binary format of @ebits
 * exponent and @mbits fraction bits (bf16: 8, 7; f16: 5, 10), with
 * subnormals, overflowing to infinity: its bits, as the device's CONVERT
 * from f64 gives them. A NaN gives the format's positive quiet NaN.
 */
static uint64_t double_to_narrow(double value, int ebits, int mbits)
{
	int bias = (1 << (ebits - 1)) - 1, e;
	uint64_t inf = (((uint64_t)1 << ebits) - 1) << mbits;
	uint64_t sign = (uint64_t)(signbit(value) != 0) << (ebits + mbits);
	double a = fabs(value);

	if (isnan(value))
		return inf | (uint64_t)1 << (mbits - 1);
	if (a == 0)
		return sign;
	e = isinf(a) ? bias + 1 : ilogb(a);
	if (e > bias)
		return sign | inf;
	if (e < 1 - bias)
		e = 1 - bias;
	/*
	 * In ulps of the binade (of the least normal one for a subnormal):
	 * scaling by a power of two is exact and nearbyint() rounds to nearest
	 * even; a carry into the exponent field (or to inf) is what rounding
	 * up there means.
	 */
	return sign | (((uint64_t)(e + bias - 1) << mbits) +
		       (uint64_t)nearbyint(ldexp(a, mbits - e)));
}

/* Float to int truncates and saturates, NaN gives 0: like CONVERT. */
static int64_t double_to_int(double value, int64_t lo, int64_t hi)
{
	if (isnan(value))
		return 0;
	if (value <= (double)lo)
		return lo;
	if (value >= (double)hi)
		return hi;
	return (int64_t)value;
}

/* The same for u64: below 1 gives 0, 2^64 and above the maximum. */
static uint64_t double_to_u64(double value)
{
	if (isnan(value) || value < 1)
		return 0;
	if (value >= 0x1p64)
		return UINT64_MAX;
	return (uint64_t)value;
}

pw_val pw_fn_scalar(struct pw_fn_builder *b, enum pwtpu_dtype dtype,
		    double value)
{
	const char *call = "pw_fn_scalar";
	struct pw_sig sig = { .dtype = dtype };
	union {
		float f32;
		double f64;
		uint16_t u16;
		int8_t i8;
		int16_t i16;
		int32_t i32;
		int64_t i64;
		uint8_t u8;
		uint32_t u32;
		uint64_t u64;
	} data;
	int ret = fn_check(b, call);

	if (ret)
		return ret;
	switch (dtype) {
	case PWTPU_DT_F32:
		data.f32 = (float)value;
		break;
	case PWTPU_DT_F64:
		data.f64 = value;
		break;
	case PWTPU_DT_BF16:
		data.u16 = (uint16_t)double_to_narrow(value, 8, 7);
		break;
	case PWTPU_DT_F16:
		data.u16 = (uint16_t)double_to_narrow(value, 5, 10);
		break;
	case PWTPU_DT_I8:
		data.i8 = (int8_t)double_to_int(value, INT8_MIN, INT8_MAX);
		break;
	case PWTPU_DT_I16:
		data.i16 = (int16_t)double_to_int(value, INT16_MIN, INT16_MAX);
		break;
	case PWTPU_DT_I32:
		data.i32 = (int32_t)double_to_int(value, INT32_MIN, INT32_MAX);
		break;
	case PWTPU_DT_I64:
		data.i64 = double_to_int(value, INT64_MIN, INT64_MAX);
		break;
	case PWTPU_DT_U8:
		data.u8 = (uint8_t)double_to_int(value, 0, UINT8_MAX);
		break;
	case PWTPU_DT_U16:
		data.u16 = (uint16_t)double_to_int(value, 0, UINT16_MAX);
		break;
	case PWTPU_DT_U32:
		data.u32 = (uint32_t)double_to_int(value, 0, UINT32_MAX);
		break;
	case PWTPU_DT_U64:
		data.u64 = double_to_u64(value);
		break;
	default:
		return fn_fail(b, -EINVAL, "%s: unknown dtype %u", call,
			       (unsigned int)dtype);
	}
	return fn_const(b, call, &sig, &data);
}

/* Broadcast value @x to @shape's extents (dtype kept); the new value. */
static pw_val fn_broadcast_to(struct pw_fn_builder *b, const char *call,
			      pw_val x, const struct pw_sig *shape)
{
	struct pw_sig sig = *shape;

	sig.dtype = b->vals[x].sig.dtype;
	return fn_new_op(b, call, PWTPU_OP_BROADCAST, 0, &sig, x, -1, -1,
			 NULL, 0);
}

/*
 * Operands of an elementwise op: the same dtype and shape, after a
 * rank-0 operand is broadcast to the other's shape.
 */
static int fn_match(struct pw_fn_builder *b, const char *call, pw_val *x,
		    pw_val *y)
{
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN];
	struct pw_sig sx, sy;
	int ret;

	ret = fn_get(b, call, *x, &sx);
	if (!ret)
		ret = fn_get(b, call, *y, &sy);
	if (ret)
		return ret;
	if (sx.dtype != sy.dtype)
		return fn_fail(b, -EINVAL, "%s: %s and %s differ in dtype",
			       call, sig_str(&sx, s1), sig_str(&sy, s2));
	if (!sx.rank && sy.rank)
		ret = *x = fn_broadcast_to(b, call, *x, &sy);
	else if (sx.rank && !sy.rank)
		ret = *y = fn_broadcast_to(b, call, *y, &sx);
	else if (!pw_sig_equal(&sx, &sy))
		ret = fn_fail(b, -EINVAL, "%s: %s and %s differ", call,
			      sig_str(&sx, s1), sig_str(&sy, s2));
	return ret < 0 ? ret : 0;
}

pw_val pw_fn_binary(struct pw_fn_builder *b, enum pwtpu_op op, pw_val x,
		    pw_val y)
{
	struct pw_sig sig;
	char call[48];
	int ret;

	snprintf(call, sizeof(call), "pw_fn_binary(%s)", op_name(op));
	ret = fn_check(b, call);
	if (ret)
		return ret;
	if ((op < PWTPU_OP_ADD || op > PWTPU_OP_MIN) &&
	    op != PWTPU_OP_AND && op != PWTPU_OP_OR && op != PWTPU_OP_XOR &&
	    (op < PWTPU_OP_SHL || op > PWTPU_OP_SHR_ARITH) &&
	    (op < PWTPU_OP_ATAN2 || op > PWTPU_OP_REM))
		return fn_fail(b, -EINVAL,
			       "%s: op %d is not ADD, SUB, MUL, DIV, MAX, MIN, AND, OR, XOR, SHL, SHR_LOGICAL, SHR_ARITH, ATAN2, POW or REM",
			       call, (int)op);
	ret = fn_match(b, call, &x, &y);
	if (ret)
		return ret;
	/* A copy: adding the result may move b->vals. */
	sig = b->vals[x].sig;
	ret = fn_check_op_dtype(b, call, op, &sig);
	if (ret)
		return ret;
	return fn_new_op(b, call, op, 0, &sig, x, y, -1, NULL, 0);
}

pw_val pw_fn_unary(struct pw_fn_builder *b, enum pwtpu_op op, pw_val x)
{
	char call[48];
	struct pw_sig sig;
	int ret;

	snprintf(call, sizeof(call), "pw_fn_unary(%s)", op_name(op));
	ret = fn_check(b, call);
	if (ret)
		return ret;
	if ((op < PWTPU_OP_NEG || op > PWTPU_OP_RSQRT) &&
	    op != PWTPU_OP_NOT && op != PWTPU_OP_POPCNT &&
	    op != PWTPU_OP_CLZ &&
	    (op < PWTPU_OP_FLOOR || op > PWTPU_OP_LOGISTIC))
		return fn_fail(b, -EINVAL,
			       "%s: op %d is not NEG, ABS, EXP, LOG, TANH, RSQRT, NOT, POPCNT, CLZ or FLOOR..LOGISTIC",
			       call, (int)op);
	ret = fn_get(b, call, x, &sig);
	if (!ret)
		ret = fn_check_op_dtype(b, call, op, &sig);
	if (ret)
		return ret;
	return fn_new_op(b, call, op, 0, &sig, x, -1, -1, NULL, 0);
}

pw_val pw_fn_bitcast(struct pw_fn_builder *b, pw_val x,
		     enum pwtpu_dtype dtype)
{
	const char *call = "pw_fn_bitcast";
	char s[SIG_STR_LEN];
	uint32_t from, to, ratio;
	struct pw_sig sig;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sig);
	if (ret)
		return ret;
	from = pwtpu_dtype_size(sig.dtype);
	to = pwtpu_dtype_size(dtype);
	if (!to)
		return fn_fail(b, -EINVAL, "%s: unknown dtype %u", call,
			       (unsigned int)dtype);
	sig_str(&sig, s);
	if (to > from) {
		/* The last dimension goes into each wide element. */
		ratio = to / from;
		if (!sig.rank || sig.shape[sig.rank - 1] != ratio)
			return fn_fail(b, -EINVAL,
				       "%s: %s to %s needs a last dimension of %u",
				       call, s, pwtpu_dtype_name(dtype), ratio);
		sig.shape[--sig.rank] = 0;
	} else if (to < from) {
		ratio = from / to;
		if (sig.rank == PW_MAX_RANK)
			return fn_fail(b, -EINVAL,
				       "%s: %s to %s needs a dimension more than rank %d",
				       call, s, pwtpu_dtype_name(dtype),
				       PW_MAX_RANK);
		sig.shape[sig.rank++] = ratio;
	}
	sig.dtype = dtype;
	return fn_new_op(b, call, PWTPU_OP_BITCAST, 0, &sig, x, -1, -1, NULL,
			 0);
}

pw_val pw_fn_reduce_precision(struct pw_fn_builder *b, pw_val x,
			      uint32_t exponent_bits, uint32_t mantissa_bits)
{
	const char *call = "pw_fn_reduce_precision";
	uint32_t args[2] = { exponent_bits, mantissa_bits };
	struct pw_sig sig;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sig);
	if (!ret)
		ret = fn_check_op_dtype(b, call, PWTPU_OP_REDUCE_PRECISION,
					&sig);
	if (ret)
		return ret;
	if (!exponent_bits)
		return fn_fail(b, -EINVAL, "%s: exponent bits must be >= 1",
			       call);
	return fn_new_op(b, call, PWTPU_OP_REDUCE_PRECISION, 0, &sig, x, -1,
			 -1, args, 2);
}

pw_val pw_fn_matmul(struct pw_fn_builder *b, pw_val x, pw_val y)
{
	const char *call = "pw_fn_matmul";
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN];
	struct pw_sig sx, sy, sig = { 0 };
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sx);
	if (!ret)
		ret = fn_get(b, call, y, &sy);
	if (ret)
		return ret;
	sig_str(&sx, s1);
	sig_str(&sy, s2);
	if (sx.dtype != sy.dtype)
		return fn_fail(b, -EINVAL, "%s: %s and %s differ in dtype",
			       call, s1, s2);
	if (sx.dtype == PWTPU_DT_I8)
		sig.dtype = PWTPU_DT_I32;
	else if (is_mxu_float(sx.dtype))
		sig.dtype = PWTPU_DT_F32;
	else
		return fn_fail(b, -EINVAL,
			       "%s: %s is not f32, bf16 or i8", call, s1);
	if (sx.rank != 2 || sy.rank != 2)
		return fn_fail(b, -EINVAL, "%s: %s and %s must be rank 2",
			       call, s1, s2);
	if (sx.shape[1] != sy.shape[0])
		return fn_fail(b, -EINVAL,
			       "%s: inner dimensions of %s and %s differ", call,
			       s1, s2);
	sig.rank = 2;
	sig.shape[0] = sx.shape[0];
	sig.shape[1] = sy.shape[1];
	return fn_new_op(b, call, PWTPU_OP_MATMUL, 0, &sig, x, y, -1, NULL,
			 0);
}

pw_val pw_fn_compare(struct pw_fn_builder *b, enum pwtpu_cmp cmp, pw_val x,
		     pw_val y)
{
	const char *call = "pw_fn_compare";
	struct pw_sig sig;
	int ret;

	ret = fn_check(b, call);
	if (ret)
		return ret;
	if ((unsigned int)cmp > PWTPU_CMP_GE)
		return fn_fail(b, -EINVAL, "%s: unknown comparison %d", call,
			       (int)cmp);
	ret = fn_match(b, call, &x, &y);
	if (ret)
		return ret;
	sig = b->vals[x].sig;
	sig.dtype = PWTPU_DT_I8;
	return fn_new_op(b, call, PWTPU_OP_COMPARE, (uint8_t)cmp, &sig, x, y,
			 -1, NULL, 0);
}

pw_val pw_fn_select(struct pw_fn_builder *b, pw_val pred, pw_val x,
		    pw_val y)
{
	const char *call = "pw_fn_select";
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN];
	pw_val v[3] = { pred, x, y };
	struct pw_sig sig[3];
	int k, shaped = -1, ret;

	ret = fn_check(b, call);
	for (k = 0; !ret && k < 3; k++)
		ret = fn_get(b, call, v[k], &sig[k]);
	if (ret)
		return ret;
	if (sig[0].dtype != PWTPU_DT_I8)
		return fn_fail(b, -EINVAL, "%s: predicate %s is not i8", call,
			       sig_str(&sig[0], s1));
	if (sig[1].dtype != sig[2].dtype)
		return fn_fail(b, -EINVAL, "%s: %s and %s differ in dtype",
			       call, sig_str(&sig[1], s1),
			       sig_str(&sig[2], s2));
	/* Rank-0 operands take the shape of the first ranked one. */
	for (k = 0; k < 3 && shaped < 0; k++)
		if (sig[k].rank)
			shaped = k;
	for (k = 0; shaped >= 0 && k < 3; k++) {
		if (!sig[k].rank) {
			v[k] = fn_broadcast_to(b, call, v[k], &sig[shaped]);
			if (v[k] < 0)
				return v[k];
		} else if (sig[k].rank != sig[shaped].rank ||
			   memcmp(sig[k].shape, sig[shaped].shape,
				  sizeof(sig[k].shape))) {
			return fn_fail(b, -EINVAL,
				       "%s: %s and %s differ in shape", call,
				       sig_str(&sig[shaped], s1),
				       sig_str(&sig[k], s2));
		}
	}
	sig[1] = b->vals[v[1]].sig;
	return fn_new_op(b, call, PWTPU_OP_SELECT, 0, &sig[1], v[0], v[1],
			 v[2], NULL, 0);
}

pw_val pw_fn_convert(struct pw_fn_builder *b, pw_val x,
		     enum pwtpu_dtype dtype)
{
	const char *call = "pw_fn_convert";
	struct pw_sig sig;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sig);
	if (ret)
		return ret;
	sig.dtype = dtype;
	return fn_new_op(b, call, PWTPU_OP_CONVERT, 0, &sig, x, -1, -1, NULL,
			 0);
}

pw_val pw_fn_broadcast(struct pw_fn_builder *b, pw_val x, unsigned int rank,
		       const uint32_t *shape)
{
	const char *call = "pw_fn_broadcast";
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN];
	struct pw_sig sx, sig;
	unsigned int k, lead;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sx);
	if (!ret)
		ret = fn_make_sig(b, call, sx.dtype, rank, shape, &sig);
	if (!ret)
		ret = fn_check_sig(b, call, &sig);
	if (ret)
		return ret;
	if (sx.rank > rank)
		return fn_fail(b, -EINVAL,
			       "%s: %s has a higher rank than %s", call,
			       sig_str(&sx, s1), sig_str(&sig, s2));
	/* Numpy style: x's dimensions align with the last ones. */
	lead = rank - sx.rank;
	for (k = 0; k < sx.rank; k++)
		if (sx.shape[k] != 1 && sx.shape[k] != sig.shape[lead + k])
			return fn_fail(b, -EINVAL,
				       "%s: %s does not broadcast to %s (extent %u of dimension %u is neither 1 nor %u)",
				       call, sig_str(&sx, s1),
				       sig_str(&sig, s2), sx.shape[k], k,
				       sig.shape[lead + k]);
	return fn_new_op(b, call, PWTPU_OP_BROADCAST, 0, &sig, x, -1, -1,
			 NULL, 0);
}

pw_val pw_fn_reshape(struct pw_fn_builder *b, pw_val x, unsigned int rank,
		     const uint32_t *shape)
{
	const char *call = "pw_fn_reshape";
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN];
	struct pw_sig sx, sig;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sx);
	if (!ret)
		ret = fn_make_sig(b, call, sx.dtype, rank, shape, &sig);
	if (!ret)
		ret = fn_check_sig(b, call, &sig);
	if (ret)
		return ret;
	if (pw_sig_elems(&sx) != pw_sig_elems(&sig))
		return fn_fail(b, -EINVAL,
			       "%s: %s and %s have different element counts",
			       call, sig_str(&sx, s1), sig_str(&sig, s2));
	return fn_new_op(b, call, PWTPU_OP_RESHAPE, 0, &sig, x, -1, -1, NULL,
			 0);
}

pw_val pw_fn_transpose(struct pw_fn_builder *b, pw_val x,
		       const uint32_t *perm)
{
	const char *call = "pw_fn_transpose";
	char s[SIG_STR_LEN];
	struct pw_sig sx, sig;
	uint32_t k, seen = 0;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sx);
	if (ret)
		return ret;
	if (sx.rank && !perm)
		return fn_fail(b, -EINVAL, "%s: no permutation", call);
	sig = sx;
	for (k = 0; k < sx.rank; k++) {
		if (perm[k] >= sx.rank || seen & (1U << perm[k]))
			return fn_fail(b, -EINVAL,
				       "%s: perm is not a permutation of the %u dimensions of %s",
				       call, sx.rank, sig_str(&sx, s));
		seen |= 1U << perm[k];
		sig.shape[k] = sx.shape[perm[k]];
	}
	return fn_new_op(b, call, PWTPU_OP_TRANSPOSE, 0, &sig, x, -1, -1,
			 perm, sx.rank);
}

pw_val pw_fn_slice(struct pw_fn_builder *b, pw_val x, const uint32_t *start,
		   const uint32_t *shape)
{
	const char *call = "pw_fn_slice";
	char s[SIG_STR_LEN];
	struct pw_sig sx, sig;
	uint32_t k;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sx);
	if (ret)
		return ret;
	if (sx.rank && (!start || !shape))
		return fn_fail(b, -EINVAL, "%s: no start or shape", call);
	sig = sx;
	for (k = 0; k < sx.rank; k++) {
		/* u64: start + extent cannot wrap. */
		if (!shape[k] || (uint64_t)start[k] + shape[k] > sx.shape[k])
			return fn_fail(b, -EINVAL,
				       "%s: window %u+%u of dimension %u is empty or past %s",
				       call, start[k], shape[k], k,
				       sig_str(&sx, s));
		sig.shape[k] = shape[k];
	}
	return fn_new_op(b, call, PWTPU_OP_SLICE, 0, &sig, x, -1, -1, start,
			 sx.rank);
}

pw_val pw_fn_reduce(struct pw_fn_builder *b, enum pwtpu_reduce mode,
		    pw_val x, uint32_t axes)
{
	const char *call = "pw_fn_reduce";
	char s[SIG_STR_LEN];
	struct pw_sig sx, sig;
	uint32_t k;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sx);
	if (ret)
		return ret;
	if ((unsigned int)mode > PWTPU_REDUCE_MIN)
		return fn_fail(b, -EINVAL,
			       "%s: mode %d is not SUM, MAX or MIN (PROD is for collectives)",
			       call, (int)mode);
	if (!axes || axes >> sx.rank)
		return fn_fail(b, -EINVAL,
			       "%s: axes 0x%x must be non-zero with bits below the rank of %s",
			       call, axes, sig_str(&sx, s));
	memset(&sig, 0, sizeof(sig));
	sig.dtype = sx.dtype;
	for (k = 0; k < sx.rank; k++)
		if (!(axes & (1U << k)))
			sig.shape[sig.rank++] = sx.shape[k];
	return fn_new_op(b, call, PWTPU_OP_REDUCE, (uint8_t)mode, &sig, x, -1,
			 -1, &axes, 1);
}

/* The slice size the collectives' shapes require: one per function. */
static int fn_set_group(struct pw_fn_builder *b, const char *call,
			unsigned int n)
{
	if (!n || n > PWTPU_MAX_GANG)
		return fn_fail(b, -EINVAL, "%s: group size %u is not 1..%u",
			       call, n, PWTPU_MAX_GANG);
	if (b->group_size && b->group_size != n)
		return fn_fail(b, -EINVAL,
			       "%s: group size %u but the function already requires %u",
			       call, n, b->group_size);
	b->group_size = n;
	return 0;
}

int pw_fn_builder_sig(const struct pw_fn_builder *b, pw_val v,
		      struct pw_sig *sig)
{
	if (!b || v < 0 || (unsigned int)v >= b->nvals)
		return -EINVAL;
	*sig = b->vals[v].sig;
	return 0;
}

int pw_fn_builder_require_group(struct pw_fn_builder *b, unsigned int n)
{
	const char *call = "pw_fn_builder_require_group";
	int ret = fn_check(b, call);

	return ret ? ret : fn_set_group(b, call, n);
}

/* Operand @x of a collective reducing with *@mode (NULL: not reducing). */
static int fn_collective_operand(struct pw_fn_builder *b, const char *call,
				 const enum pwtpu_reduce *mode, pw_val x,
				 struct pw_sig *sig)
{
	char s[SIG_STR_LEN];
	int ret = fn_check(b, call);

	if (!ret)
		ret = fn_get(b, call, x, sig);
	if (ret)
		return ret;
	if (!mode) {
		if (!is_collective_dtype(sig->dtype))
			return fn_fail(b, -EINVAL,
				       "%s: %s is not f32, bf16, i8 or i32",
				       call, sig_str(sig, s));
		return 0;
	}
	if ((unsigned int)*mode > PWTPU_REDUCE_PROD)
		return fn_fail(b, -EINVAL, "%s: unknown reduction %d", call,
			       (int)*mode);
	if (!is_reducible(sig->dtype))
		return fn_fail(b, -EINVAL, "%s: %s is not f32, bf16 or i32",
			       call, sig_str(sig, s));
	return 0;
}

/* A collective's result; marks the function as needing a gang. */
static pw_val fn_collective(struct pw_fn_builder *b, const char *call,
			    enum pwtpu_op op, uint8_t mode,
			    const struct pw_sig *sig, pw_val x)
{
	int v = fn_new_op(b, call, op, mode, sig, x, -1, -1, NULL, 0);

	if (v >= 0)
		b->collectives = true;
	return v;
}

pw_val pw_fn_all_reduce(struct pw_fn_builder *b, enum pwtpu_reduce mode,
			pw_val x)
{
	const char *call = "pw_fn_all_reduce";
	struct pw_sig sig;
	int ret = fn_collective_operand(b, call, &mode, x, &sig);

	if (ret)
		return ret;
	return fn_collective(b, call, PWTPU_OP_ALL_REDUCE, (uint8_t)mode, &sig,
			     x);
}

pw_val pw_fn_all_gather(struct pw_fn_builder *b, pw_val x, unsigned int n)
{
	const char *call = "pw_fn_all_gather";
	char s[SIG_STR_LEN];
	struct pw_sig sig;
	uint64_t rows;
	int ret = fn_collective_operand(b, call, NULL, x, &sig);

	if (ret)
		return ret;
	if (!sig.rank)
		return fn_fail(b, -EINVAL, "%s: %s has rank 0", call,
			       sig_str(&sig, s));
	/* The group size is checked first: rows cannot wrap then. */
	ret = fn_set_group(b, call, n);
	if (ret)
		return ret;
	rows = (uint64_t)n * sig.shape[0];
	if (rows > PWTPU_MAX_ELEMS)
		return fn_fail(b, -E2BIG, "%s: more than %u elements", call,
			       PWTPU_MAX_ELEMS);
	sig.shape[0] = (uint32_t)rows;
	return fn_collective(b, call, PWTPU_OP_ALL_GATHER, 0, &sig, x);
}

pw_val pw_fn_reduce_scatter(struct pw_fn_builder *b, enum pwtpu_reduce mode,
			    pw_val x, unsigned int n)
{
	const char *call = "pw_fn_reduce_scatter";
	char s[SIG_STR_LEN];
	struct pw_sig sig;
	int ret = fn_collective_operand(b, call, &mode, x, &sig);

	if (ret)
		return ret;
	if (!sig.rank)
		return fn_fail(b, -EINVAL, "%s: %s has rank 0", call,
			       sig_str(&sig, s));
	ret = fn_set_group(b, call, n);
	if (ret)
		return ret;
	if (sig.shape[0] % n)
		return fn_fail(b, -EINVAL,
			       "%s: dimension 0 of %s does not split in %u",
			       call, sig_str(&sig, s), n);
	sig.shape[0] /= n;
	return fn_collective(b, call, PWTPU_OP_REDUCE_SCATTER, (uint8_t)mode,
			     &sig, x);
}

pw_val pw_fn_permute(struct pw_fn_builder *b, pw_val x, int shift)
{
	const char *call = "pw_fn_permute";
	struct pw_sig sig;
	int v, ret = fn_collective_operand(b, call, NULL, x, &sig);

	if (ret)
		return ret;
	/* The gang carries one permutation per execution. */
	if (b->has_permute && b->permute_shift != shift)
		return fn_fail(b, -EINVAL,
			       "%s: shift %d but the function already permutes by %d (one shift per function)",
			       call, shift, b->permute_shift);
	v = fn_collective(b, call, PWTPU_OP_COLLECTIVE_PERMUTE, 0, &sig, x);
	if (v >= 0) {
		b->has_permute = true;
		b->permute_shift = shift;
	}
	return v;
}

int pw_fn_delay(struct pw_fn_builder *b, uint64_t ns)
{
	const char *call = "pw_fn_delay";
	uint32_t args[2] = { (uint32_t)ns, (uint32_t)(ns >> 32) };
	int ret = fn_check(b, call);

	if (ret)
		return ret;
	if (ns > PWTPU_MAX_DELAY_NS)
		return fn_fail(b, -EINVAL,
			       "%s: %llu ns is above the limit of %llu", call,
			       (unsigned long long)ns,
			       (unsigned long long)PWTPU_MAX_DELAY_NS);
	/*
	 * The rest of the program adds to this: a lower bound only. ns <=
	 * 2^30 and runs <= 2^22: no product wraps.
	 */
	if (ns * b->runs > PWTPU_MAX_PROG_NS - b->delay_ns)
		return fn_fail(b, -E2BIG,
			       "%s: delays add up to more than %llu ns per run",
			       call, (unsigned long long)PWTPU_MAX_PROG_NS);
	if (b->nops >= PW_FN_MAX_OPS)
		return fn_fail(b, -E2BIG,
			       "%s: more than %u ops (a program holds %u instructions)",
			       call, PW_FN_MAX_OPS, PWTPU_MAX_INSNS);
	ret = fn_add_op(b, call, PWTPU_OP_DELAY, 0, -1, -1, -1, -1, args, 2);
	if (!ret)
		b->delay_ns += ns * b->runs;
	return ret;
}

int pw_fn_result(struct pw_fn_builder *b, pw_val x)
{
	const char *call = "pw_fn_result";
	struct pw_sig sig;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, x, &sig);
	if (!ret)
		ret = fn_check_bufs(b, call);
	if (ret)
		return ret;
	if (b->vals[x].loop >= 0)
		return fn_fail(b, -EINVAL,
			       "%s: value %d is made inside a loop: a result is a value made outside every loop (a loop variable is, once its loop ends)",
			       call, x);
	if (fn_grow((void **)&b->results, &b->results_cap, b->nresults,
		    sizeof(*b->results)))
		return fn_fail(b, -ENOMEM, "%s: out of memory", call);
	b->results[b->nresults++] = x;
	return 0;
}

/* Scatter and gather: dimension numbers as StableHLO lists them. */

/* A list of dimensions in a message: "[0, 2]". */
#define DIMS_STR_LEN	64

static const char *dims_str(const uint32_t *list, unsigned int n, char *buf)
{
	size_t used = 1;
	unsigned int i;

	buf[0] = '[';
	buf[1] = '\0';
	/* At most 4 entries of 10 digits: 2 + 4 * 12 < DIMS_STR_LEN. */
	for (i = 0; i < n && i < PW_MAX_RANK; i++)
		used += (size_t)snprintf(buf + used, DIMS_STR_LEN - used,
					 "%s%u", i ? ", " : "", list[i]);
	snprintf(buf + used, DIMS_STR_LEN - used, "]");
	return buf;
}

/*
 * A list @name of @n dimensions, each below @rank (the rank of @of),
 * distinct and, if @sorted, ascending: its mask, or -errno.
 */
static int fn_dims(struct pw_fn_builder *b, const char *call,
		   const char *name, const uint32_t *list, unsigned int n,
		   uint32_t rank, const char *of, bool sorted)
{
	char s[DIMS_STR_LEN];
	uint32_t mask = 0;
	unsigned int i;

	if (n > PW_MAX_RANK)
		return fn_fail(b, -EINVAL, "%s: %s has %u entries, more than %d",
			       call, name, n, PW_MAX_RANK);
	for (i = 0; i < n; i++) {
		if (list[i] >= rank)
			return fn_fail(b, -EINVAL,
				       "%s: %s %s names dimension %u, past the rank %u of %s",
				       call, name, dims_str(list, n, s), list[i],
				       rank, of);
		if (mask >> list[i] & 1)
			return fn_fail(b, -EINVAL, "%s: %s %s repeats %u", call,
				       name, dims_str(list, n, s), list[i]);
		if (sorted && i && list[i] < list[i - 1])
			return fn_fail(b, -EINVAL, "%s: %s %s is not sorted",
				       call, name, dims_str(list, n, s));
		mask |= 1U << list[i];
	}
	return (int)mask;
}

/**
 * struct gs_dims - scatter's or gather's dimension numbers, one shape
 * @win: update_window_dims / offset_dims.
 * @ins: inserted_window_dims / collapsed_slice_dims.
 * @abat: input_batching_dims / operand_batching_dims.
 * @ibat: scatter_indices_batching_dims / start_indices_batching_dims.
 * @map: scatter_dims_to_operand_dims / start_index_map.
 * @ivd: index_vector_dim.
 * @names: the caller's names of the five lists, in that order.
 */
struct gs_dims {
	unsigned int nwin, nins, nbat, nmap;
	const uint32_t *win, *ins, *abat, *ibat, *map;
	uint32_t ivd;
	const char *names[5];
};

/*
 * Every constraint StableHLO puts on the dimension numbers but the window
 * tensor's shape (operand @sa, indices @si, window tensor rank @wrank);
 * the instruction's args into @args. 0 or -errno.
 */
static int fn_gs_dims(struct pw_fn_builder *b, const char *call,
		      const struct gs_dims *d, const struct pw_sig *sa,
		      const struct pw_sig *si, uint32_t wrank, uint32_t *args)
{
	int wmask, imask, bmask, smask, mmask;
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN], l[DIMS_STR_LEN];
	uint32_t n, k, i;

	wmask = fn_dims(b, call, d->names[0], d->win, d->nwin, wrank,
			"the window tensor", true);
	if (wmask < 0)
		return wmask;
	imask = fn_dims(b, call, d->names[1], d->ins, d->nins, sa->rank,
			"the operand", true);
	if (imask < 0)
		return imask;
	bmask = fn_dims(b, call, d->names[2], d->abat, d->nbat, sa->rank,
			"the operand", true);
	if (bmask < 0)
		return bmask;
	smask = fn_dims(b, call, d->names[3], d->ibat, d->nbat, si->rank,
			"the indices", false);
	if (smask < 0)
		return smask;
	mmask = fn_dims(b, call, d->names[4], d->map, d->nmap, sa->rank,
			"the operand", false);
	if (mmask < 0)
		return mmask;
	if (imask & bmask)
		return fn_fail(b, -EINVAL, "%s: %s and %s share dimension %d",
			       call, d->names[1], d->names[2],
			       __builtin_ctz((unsigned int)(imask & bmask)));
	if (mmask & bmask)
		return fn_fail(b, -EINVAL, "%s: %s and %s share dimension %d",
			       call, d->names[4], d->names[2],
			       __builtin_ctz((unsigned int)(mmask & bmask)));
	if (d->nwin + d->nins + d->nbat != sa->rank)
		return fn_fail(b, -EINVAL,
			       "%s: the operand %s has rank %u, not %u %s + %u %s + %u %s",
			       call, sig_str(sa, s1), sa->rank, d->nwin,
			       d->names[0], d->nins, d->names[1], d->nbat,
			       d->names[2]);
	if (d->ivd > si->rank)
		return fn_fail(b, -EINVAL,
			       "%s: index_vector_dim %u is past the rank of the indices %s",
			       call, d->ivd, sig_str(si, s1));
	if (smask >> d->ivd & 1)
		return fn_fail(b, -EINVAL,
			       "%s: %s %s holds index_vector_dim %u", call,
			       d->names[3], dims_str(d->ibat, d->nbat, l),
			       d->ivd);
	n = d->ivd < si->rank ? si->shape[d->ivd] : 1;
	if (d->nmap != n)
		return fn_fail(b, -EINVAL,
			       "%s: %s has %u entries but the indices %s have index vectors of %u",
			       call, d->names[4], d->nmap, sig_str(si, s1), n);
	for (i = 0, k = 0; k < sa->rank; k++) {
		if (!(bmask >> k & 1))
			continue;
		/* The pairs in the order of the (sorted) operand dims. */
		if (sa->shape[k] != si->shape[d->ibat[i]])
			return fn_fail(b, -EINVAL,
				       "%s: batching dimension %u of the operand %s and %u of the indices %s differ in extent",
				       call, k, sig_str(sa, s1), d->ibat[i],
				       sig_str(si, s2));
		args[1] |= PWTPU_GS_PAIR(i, d->ibat[i]);
		i++;
	}
	for (i = 0; i < n; i++)
		args[1] |= PWTPU_GS_MAP(i, d->map[i]);
	args[0] = PWTPU_GS_ARG0(wmask, imask, bmask, d->ivd);
	return 0;
}

/* The indices: of an integer dtype. */
static int fn_gs_indices(struct pw_fn_builder *b, const char *call,
			 const struct pw_sig *si)
{
	char s[SIG_STR_LEN];

	if (si->dtype == PWTPU_DT_F32 || si->dtype == PWTPU_DT_BF16 ||
	    si->dtype == PWTPU_DT_F16 || si->dtype == PWTPU_DT_F64)
		return fn_fail(b, -EINVAL,
			       "%s: the indices %s are not of an integer dtype",
			       call, sig_str(si, s));
	return 0;
}

pw_val pw_fn_scatter(struct pw_fn_builder *b, enum pwtpu_scatter mode,
		     pw_val operand, pw_val indices, pw_val updates,
		     const struct pw_fn_scatter_dims *dims)
{
	const char *call = "pw_fn_scatter";
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN], s3[SIG_STR_LEN];
	struct pw_sig sa, si, su;
	uint32_t args[2] = { 0, 0 }, k, e, da, want;
	struct gs_dims d;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, operand, &sa);
	if (!ret)
		ret = fn_get(b, call, indices, &si);
	if (!ret)
		ret = fn_get(b, call, updates, &su);
	if (ret)
		return ret;
	if ((unsigned int)mode > PWTPU_SCATTER_MAX)
		return fn_fail(b, -EINVAL,
			       "%s: mode %d is not SET, ADD, MUL, MIN or MAX",
			       call, (int)mode);
	if (!dims)
		return fn_fail(b, -EINVAL, "%s: no dimension numbers", call);
	if (su.dtype != sa.dtype)
		return fn_fail(b, -EINVAL,
			       "%s: the updates %s and the operand %s differ in dtype",
			       call, sig_str(&su, s1), sig_str(&sa, s2));
	ret = fn_gs_indices(b, call, &si);
	if (ret)
		return ret;
	d = (struct gs_dims){
		.nwin = dims->n_update_window_dims,
		.win = dims->update_window_dims,
		.nins = dims->n_inserted_window_dims,
		.ins = dims->inserted_window_dims,
		.nbat = dims->n_batching_dims,
		.abat = dims->input_batching_dims,
		.ibat = dims->scatter_indices_batching_dims,
		.nmap = dims->n_scatter_dims_to_operand_dims,
		.map = dims->scatter_dims_to_operand_dims,
		.ivd = dims->index_vector_dim,
		.names = { "update_window_dims", "inserted_window_dims",
			   "input_batching_dims",
			   "scatter_indices_batching_dims",
			   "scatter_dims_to_operand_dims" },
	};
	ret = fn_gs_dims(b, call, &d, &sa, &si, su.rank, args);
	if (ret)
		return ret;
	/*
	 * The updates: update_window_dims take the operand's other
	 * dimensions in order (at most their extents), the rest the
	 * indices' but index_vector_dim, in order.
	 */
	want = d.nwin + si.rank - (d.ivd < si.rank);
	if (su.rank != want)
		return fn_fail(b, -EINVAL,
			       "%s: the updates %s have rank %u, not %u (update_window_dims and the dimensions of the indices %s but index_vector_dim)",
			       call, sig_str(&su, s1), su.rank, want,
			       sig_str(&si, s2));
	for (k = 0, e = 0, da = 0; k < su.rank; k++) {
		if (args[0] >> k & 1) {
			while (PWTPU_GS_INSERTED(args[0]) >> da & 1 ||
			       PWTPU_GS_BATCHING(args[0]) >> da & 1)
				da++;
			if (su.shape[k] > sa.shape[da])
				return fn_fail(b, -EINVAL,
					       "%s: window dimension %u of the updates %s is larger than dimension %u of the operand %s",
					       call, k, sig_str(&su, s1), da,
					       sig_str(&sa, s2));
			da++;
			continue;
		}
		if (e == d.ivd)
			e++;
		if (su.shape[k] != si.shape[e])
			return fn_fail(b, -EINVAL,
				       "%s: scatter dimension %u of the updates %s is not dimension %u of the indices %s",
				       call, k, sig_str(&su, s1), e,
				       sig_str(&si, s3));
		e++;
	}
	return fn_new_op(b, call, PWTPU_OP_SCATTER, (uint8_t)mode, &sa,
			 operand, indices, updates, args, 2);
}

pw_val pw_fn_gather(struct pw_fn_builder *b, pw_val operand, pw_val indices,
		    const struct pw_fn_gather_dims *dims)
{
	const char *call = "pw_fn_gather";
	uint32_t args[2] = { 0, 0 }, k, e, da, rank, outside;
	char s[SIG_STR_LEN], l[DIMS_STR_LEN];
	struct pw_sig sa, si, sig = { 0 };
	struct gs_dims d;
	int ret;

	ret = fn_check(b, call);
	if (!ret)
		ret = fn_get(b, call, operand, &sa);
	if (!ret)
		ret = fn_get(b, call, indices, &si);
	if (ret)
		return ret;
	if (!dims)
		return fn_fail(b, -EINVAL, "%s: no dimension numbers", call);
	ret = fn_gs_indices(b, call, &si);
	if (ret)
		return ret;
	/* The result's rank first: offset_dims are checked against it. */
	rank = dims->n_offset_dims + si.rank -
	       (dims->index_vector_dim < si.rank);
	if (dims->n_offset_dims <= PW_MAX_RANK &&
	    dims->index_vector_dim <= si.rank && rank > PW_MAX_RANK)
		return fn_fail(b, -EOPNOTSUPP,
			       "%s: the result would have rank %u, above the device's %d",
			       call, rank, PW_MAX_RANK);
	d = (struct gs_dims){
		.nwin = dims->n_offset_dims,
		.win = dims->offset_dims,
		.nins = dims->n_collapsed_slice_dims,
		.ins = dims->collapsed_slice_dims,
		.nbat = dims->n_batching_dims,
		.abat = dims->operand_batching_dims,
		.ibat = dims->start_indices_batching_dims,
		.nmap = dims->n_start_index_map,
		.map = dims->start_index_map,
		.ivd = dims->index_vector_dim,
		.names = { "offset_dims", "collapsed_slice_dims",
			   "operand_batching_dims",
			   "start_indices_batching_dims", "start_index_map" },
	};
	ret = fn_gs_dims(b, call, &d, &sa, &si, rank, args);
	if (ret)
		return ret;
	outside = PWTPU_GS_INSERTED(args[0]) | PWTPU_GS_BATCHING(args[0]);
	for (k = 0; k < sa.rank; k++) {
		if (dims->slice_sizes[k] > sa.shape[k])
			return fn_fail(b, -EINVAL,
				       "%s: slice_sizes %s is larger than the operand %s in dimension %u",
				       call, dims_str(dims->slice_sizes,
						      sa.rank, l),
				       sig_str(&sa, s), k);
		if (outside >> k & 1 && dims->slice_sizes[k] > 1)
			return fn_fail(b, -EINVAL,
				       "%s: slice_sizes %s is %u in dimension %u, a collapsed or batching one (at most 1)",
				       call, dims_str(dims->slice_sizes,
						      sa.rank, l),
				       dims->slice_sizes[k], k);
		if (!dims->slice_sizes[k])
			return fn_fail(b, -EOPNOTSUPP,
				       "%s: slice_sizes %s: empty slices are not supported",
				       call, dims_str(dims->slice_sizes,
						      sa.rank, l));
	}
	/* Result: offset dims from slice_sizes, the rest from the indices. */
	sig.dtype = sa.dtype;
	sig.rank = rank;
	for (k = 0, e = 0, da = 0; k < rank; k++) {
		if (args[0] >> k & 1) {
			while (outside >> da & 1)
				da++;
			sig.shape[k] = dims->slice_sizes[da++];
			continue;
		}
		if (e == d.ivd)
			e++;
		sig.shape[k] = si.shape[e++];
	}
	return fn_new_op(b, call, PWTPU_OP_GATHER, 0, &sig, operand, indices,
			 -1, args, 2);
}

/* Loops: pw_fn_while_begin(), pw_fn_while_test(), pw_fn_while_end(). */

/* @dst, a value made before, = @src: a copy (RESHAPE to its own shape). */
static int fn_copy_into(struct pw_fn_builder *b, const char *call, int dst,
			int src)
{
	uint64_t work = pw_sig_elems(&b->vals[dst].sig);
	int ret = fn_check_work(b, call, work);

	if (!ret)
		ret = fn_add_op(b, call, PWTPU_OP_RESHAPE, 0, dst, src, -1, -1,
				NULL, 0);
	if (!ret)
		fn_count_work(b, work);
	return ret;
}

/* A new value, a copy of @src (readable, of @sig); the value or -errno. */
static int fn_copy_new(struct pw_fn_builder *b, const char *call, int src,
		       const struct pw_sig *sig)
{
	int v, ret = fn_check_work(b, call, 0);

	if (ret)
		return ret;
	v = fn_new_val(b, call, sig, PW_FN_VAL_OP, b->nops);
	if (v < 0)
		return v;
	ret = fn_copy_into(b, call, v, src);
	return ret ? ret : v;
}

int pw_fn_while_begin(struct pw_fn_builder *b, unsigned int n,
		      const pw_val *init, pw_val *vars, uint32_t trips)
{
	const char *call = "pw_fn_while_begin";
	struct pw_fn_loop *l;
	uint32_t args[2] = { trips, 0 };
	struct pw_sig sig;
	uint64_t runs;
	unsigned int i;
	int *own, v, ret = fn_check(b, call);

	if (ret)
		return ret;
	if (n && (!init || !vars))
		return fn_fail(b, -EINVAL, "%s: %u variables but no init or vars",
			       call, n);
	if (n > PW_FN_MAX_VALS)
		return fn_fail(b, -E2BIG,
			       "%s: %u variables, more than %u values", call, n,
			       PW_FN_MAX_VALS);
	if (trips > PWTPU_MAX_TRIPS)
		return fn_fail(b, -EINVAL,
			       "%s: %u trips, more than the device's %u (PW_FN_TRIPS_AUTO: as many as fit)",
			       call, trips, PWTPU_MAX_TRIPS);
	if (b->depth >= PWTPU_MAX_LOOP_DEPTH)
		return fn_fail(b, -E2BIG,
			       "%s: loops nest deeper than the device's %d",
			       call, PWTPU_MAX_LOOP_DEPTH);
	runs = b->runs * (trips ? trips : 1);
	/* runs <= 2^22 * 2^20: no overflow. */
	if (runs > PWTPU_MAX_DYN_INSNS)
		return fn_fail(b, -E2BIG,
			       "%s: %u trips in loops that run %llu times: its body would run more than the device's %u instructions",
			       call, trips, (unsigned long long)b->runs,
			       PWTPU_MAX_DYN_INSNS);
	for (i = 0; i < n; i++) {
		ret = fn_get(b, call, init[i], &sig);
		if (ret)
			return ret;
	}
	own = malloc((n ? n : 1) * sizeof(*own));
	if (!own || fn_grow((void **)&b->loops, &b->loops_cap, b->nloops,
			    sizeof(*b->loops))) {
		free(own);
		return fn_fail(b, -ENOMEM, "%s: out of memory", call);
	}
	/* The variables live around the loop, first written before it. */
	for (i = 0; i < n; i++) {
		sig = b->vals[init[i]].sig;
		v = fn_copy_new(b, call, init[i], &sig);
		if (v < 0) {
			free(own);
			return v;
		}
		own[i] = vars[i] = v;
	}
	ret = fn_check_work(b, call, 0);
	if (!ret)
		ret = fn_add_op(b, call, PWTPU_OP_LOOP, PWTPU_LOOP_BOUNDED, -1,
				-1, -1, -1, args, 2);
	if (ret) {
		free(own);
		return ret;
	}
	l = &b->loops[b->nloops];
	memset(l, 0, sizeof(*l));
	l->op = b->nops - 1;
	l->parent = b->cur;
	l->nvars = n;
	l->vars = own;
	l->outer_runs = b->runs;
	b->cur = (int)b->nloops++;
	b->depth++;
	b->runs = runs;
	if (!trips)
		b->auto_loops++;
	return 0;
}

int pw_fn_while_test(struct pw_fn_builder *b, pw_val pred)
{
	const char *call = "pw_fn_while_test";
	char s[SIG_STR_LEN];
	struct pw_sig sig;
	int ret = fn_check(b, call);

	if (ret)
		return ret;
	if (b->cur < 0)
		return fn_fail(b, -EINVAL,
			       "%s: no loop is open (pw_fn_while_begin)", call);
	ret = fn_get(b, call, pred, &sig);
	if (ret)
		return ret;
	if (sig.rank)
		return fn_fail(b, -EINVAL,
			       "%s: the predicate %s is not a scalar (rank 0)",
			       call, sig_str(&sig, s));
	if (is_float(sig.dtype))
		return fn_fail(b, -EINVAL,
			       "%s: the predicate %s is not an integer (an i8 predicate, or another)",
			       call, sig_str(&sig, s));
	ret = fn_check_work(b, call, 0);
	if (!ret)
		ret = fn_add_op(b, call, PWTPU_OP_WHILE, 0, -1, pred, -1, -1,
				NULL, 0);
	if (!ret)
		b->loops[b->cur].tests++;
	return ret;
}

/* @x is variable j of loop @l, j != @i. */
static bool fn_other_var(const struct pw_fn_loop *l, unsigned int i, int x)
{
	unsigned int j;

	for (j = 0; j < l->nvars; j++)
		if (j != i && l->vars[j] == x)
			return true;
	return false;
}

int pw_fn_while_end(struct pw_fn_builder *b, const pw_val *next)
{
	const char *call = "pw_fn_while_end";
	char s1[SIG_STR_LEN], s2[SIG_STR_LEN];
	struct pw_fn_loop *l;
	struct pw_sig sig;
	unsigned int i;
	int *src, ret = fn_check(b, call);

	if (ret)
		return ret;
	if (b->cur < 0)
		return fn_fail(b, -EINVAL,
			       "%s: no loop is open (pw_fn_while_begin)", call);
	l = &b->loops[b->cur];
	if (!l->tests)
		return fn_fail(b, -EINVAL,
			       "%s: the loop has no pw_fn_while_test(): it could never end",
			       call);
	if (l->nvars && !next)
		return fn_fail(b, -EINVAL, "%s: no next values", call);
	for (i = 0; i < l->nvars; i++) {
		ret = fn_get(b, call, next[i], &sig);
		if (ret)
			return ret;
		if (!pw_sig_equal(&sig, &b->vals[l->vars[i]].sig))
			return fn_fail(b, -EINVAL,
				       "%s: next[%u] is %s but variable %u is %s",
				       call, i, sig_str(&sig, s1), i,
				       sig_str(&b->vals[l->vars[i]].sig, s2));
	}
	src = malloc((l->nvars ? l->nvars : 1) * sizeof(*src));
	if (!src)
		return fn_fail(b, -ENOMEM, "%s: out of memory", call);
	/*
	 * One parallel assignment: a next value that is another variable
	 * of this loop is copied aside first, before that variable is
	 * overwritten. Every other value has storage of its own.
	 */
	for (i = 0; i < l->nvars && !ret; i++) {
		src[i] = next[i];
		if (fn_other_var(l, i, next[i])) {
			sig = b->vals[next[i]].sig;
			src[i] = fn_copy_new(b, call, next[i], &sig);
			ret = src[i] < 0 ? src[i] : 0;
		}
	}
	for (i = 0; i < l->nvars && !ret; i++)
		if (src[i] != l->vars[i])
			ret = fn_copy_into(b, call, l->vars[i], src[i]);
	free(src);
	if (ret)
		return ret;
	b->ops[l->op].args[1] = b->nops - l->op - 1;
	l->ended = true;
	b->runs = l->outer_runs;
	b->cur = l->parent;
	b->depth--;
	return 0;
}
