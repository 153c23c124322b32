// SPDX-License-Identifier: GPL-2.0
/*
 * test_timing.c - the timing model against numbers worked out by hand
 * (see docs/firmware.md for the formulas), its monotonicity, and its
 * saturation on extreme inputs.
 *
 * Default spec: D = 128, 1050 MHz, HBM 1200000 MB/s (1.2 bytes/ns),
 * host link 16000 MB/s, 1024 lanes, 1000 ns per host transfer, 50 ns per
 * instruction. ceil(x) below rounds up to whole nanoseconds.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "fw_testprog.h"

#define F32	PWTPU_DT_F32
#define BF16	PWTPU_DT_BF16
#define I8	PWTPU_DT_I8

/* The model's time for instruction @i of @p, which need not verify. */
static u64 model(const struct pwfw_spec *spec, const struct tp *p, u32 i)
{
	struct pwfw_prog prog = {
		.tensors = p->t, .insns = p->in,
		.ntensors = p->nt, .ninsns = p->ni, .nbufs = p->nbufs,
	};

	return pwfw_model_insn_ns(spec, &prog, &p->in[i]);
}

static void matmul(struct tp *p, u32 dt, u32 m, u32 k, u32 n)
{
	u16 d = TP_T(p, dt == I8 ? PWTPU_DT_I32 : F32, m, n);
	u16 a = TP_T(p, dt, m, k), b = TP_T(p, dt, k, n);

	tp_op(p, PWTPU_OP_MATMUL, d, a, b, NO);
}

/*
 * f32 [128,128] x [128,128]: 1 x 1 tiles of (128 + 2 * 128) cycles =
 * 384 cycles = ceil(365.7) = 366 ns; 3 * 64 KiB = 196608 bytes =
 * ceil(163.84) = 164 ns; max + 50.
 */
static void mm_one_tile(struct tp *p)
{
	matmul(p, F32, 128, 128, 128);
}

/*
 * bf16 [256,512] x [512,384] -> f32: 4 x 3 tiles of (256 + 256) cycles
 * = 6144 cycles = ceil(5851.4) = 5852 ns; 256 KiB + 384 KiB + 384 KiB =
 * 1 MiB = ceil(873.8) = 874 ns; max + 50.
 */
static void mm_tiles(struct tp *p)
{
	matmul(p, BF16, 256, 512, 384);
}

/*
 * f32 [1,130] x [130,1]: K needs 2 tiles, N 1: 2 * (1 + 256) = 514
 * cycles = ceil(489.5) = 490 ns; 1044 bytes = 1 ns; max + 50.
 */
static void mm_ragged(struct tp *p)
{
	matmul(p, F32, 1, 130, 1);
}

/* i8 [128,128] x [128,128] -> i32: 384 cycles as f32; bytes are fewer. */
static void mm_int8(struct tp *p)
{
	matmul(p, I8, 128, 128, 128);
}

/* f32 add of [1024]: 1 pass = 1 ns; 12288 bytes = ceil(10.24) = 11. */
static void add_1k(struct tp *p)
{
	u16 d = TP_T(p, F32, 1024), a = TP_T(p, F32, 1024);

	tp_op(p, PWTPU_OP_ADD, d, a, TP_T(p, F32, 1024), NO);
}

/*
 * f32 exp of [1024,1024]: 1024 passes * 4 = 4096 cycles = 3901 ns;
 * 8 MiB = ceil(6990.5) = 6991 ns (memory bound). With 8 lanes:
 * 131072 * 4 cycles = ceil(499321.9) = 499322 ns (compute bound).
 */
static void exp_1m(struct tp *p)
{
	u16 d = TP_T(p, F32, 1024, 1024), a = TP_T(p, F32, 1024, 1024);

	tp_op(p, PWTPU_OP_EXP, d, a, NO, NO);
}

/*
 * With 8 lanes, add of [1024,1024]: 131072 cycles = ceil(124830.5) =
 * 124831 ns against 12 MiB = ceil(10485.8) = 10486 ns.
 */
static void add_1m(struct tp *p)
{
	u16 d = TP_T(p, F32, 1024, 1024), a = TP_T(p, F32, 1024, 1024);

	tp_op(p, PWTPU_OP_ADD, d, a, TP_T(p, F32, 1024, 1024), NO);
}

/*
 * f64 takes two 32-bit lanes per element: with 8 lanes, add of
 * [1024,1024] is 262144 cycles = ceil(249660.9) = 249661 ns against
 * 24 MiB = ceil(20971.5) = 20972 ns. An i16 add is as add_1m (one lane,
 * fewer bytes).
 */
static void add_1m_f64(struct tp *p)
{
	u16 d = TP_T(p, PWTPU_DT_F64, 1024, 1024);
	u16 a = TP_T(p, PWTPU_DT_F64, 1024, 1024);

	tp_op(p, PWTPU_OP_ADD, d, a, TP_T(p, PWTPU_DT_F64, 1024, 1024), NO);
}

static void add_1m_i16(struct tp *p)
{
	u16 d = TP_T(p, PWTPU_DT_I16, 1024, 1024);
	u16 a = TP_T(p, PWTPU_DT_I16, 1024, 1024);

	tp_op(p, PWTPU_OP_ADD, d, a, TP_T(p, PWTPU_DT_I16, 1024, 1024), NO);
}

/* COMPARE of u64 operands into i8: the operands' width counts. */
static void compare_1m_u64(struct tp *p)
{
	u16 d = TP_T(p, I8, 1024, 1024);
	u16 a = TP_T(p, PWTPU_DT_U64, 1024, 1024);

	tp_op(p, PWTPU_OP_COMPARE, d, a, TP_T(p, PWTPU_DT_U64, 1024, 1024),
	      NO);
}

/* REDUCE of i64 [1024,1024] with 8 lanes: as add_1m_f64. */
static void reduce_1m_i64(struct tp *p)
{
	u16 d = TP_T(p, PWTPU_DT_I64, 1024);
	u16 a = TP_T(p, PWTPU_DT_I64, 1024, 1024);

	tp_op(p, PWTPU_OP_REDUCE, d, a, NO, NO)->arg[0] = 1;
}

/* Convert i64 [1024] to f16: 8192 + 2048 bytes = ceil(8.53) = 9 ns. */
static void convert_1k_i64(struct tp *p)
{
	u16 d = TP_T(p, PWTPU_DT_F16, 1024);
	u16 a = TP_T(p, PWTPU_DT_I64, 1024);

	tp_op(p, PWTPU_OP_CONVERT, d, a, NO, NO);
}

/* A reduction works through its input: as add_1m with 8 lanes. */
static void reduce_1m(struct tp *p)
{
	u16 d = TP_T(p, F32, 1024), a = TP_T(p, F32, 1024, 1024);

	tp_op(p, PWTPU_OP_REDUCE, d, a, NO, NO)->arg[0] = 1;
}

/* Select of [1024]: 1024 + 3 * 4096 bytes = ceil(11.1) = 12 ns. */
static void select_1k(struct tp *p)
{
	u16 d = TP_T(p, F32, 1024), a = TP_T(p, I8, 1024);
	u16 b = TP_T(p, F32, 1024), c = TP_T(p, F32, 1024);

	tp_op(p, PWTPU_OP_SELECT, d, a, b, c);
}

/* Transpose of f32 [512,512]: 2 MiB moved = ceil(1747.6) = 1748 ns. */
static void transpose_512(struct tp *p)
{
	u16 d = TP_T(p, F32, 512, 512), a = TP_T(p, F32, 512, 512);

	tp_op(p, PWTPU_OP_TRANSPOSE, d, a, NO, NO)->arg[0] = 1;
}

/*
 * A slice reads only its window: 2 * 400 bytes = 1 ns; at 1 MB/s (one
 * byte per microsecond) 800000 ns.
 */
static void slice_small(struct tp *p)
{
	u16 d = TP_T(p, F32, 10, 10), a = TP_T(p, F32, 1024, 1024);

	tp_op(p, PWTPU_OP_SLICE, d, a, NO, NO);
}

/* Broadcast [1] to f32 [1024,1024]: 4 + 4 MiB = ceil(3495.3) = 3496. */
static void broadcast_1m(struct tp *p)
{
	u16 d = TP_T(p, F32, 1024, 1024), a = TP_T(p, F32, 1);

	tp_op(p, PWTPU_OP_BROADCAST, d, a, NO, NO);
}

/* Convert f32 [1024] to bf16: 4096 + 2048 bytes = ceil(5.12) = 6 ns. */
static void convert_1k(struct tp *p)
{
	u16 d = TP_T(p, BF16, 1024), a = TP_T(p, F32, 1024);

	tp_op(p, PWTPU_OP_CONVERT, d, a, NO, NO);
}

static void delay_12345(struct tp *p)
{
	tp_delay(p, 12345);
}

/* A loop costs its own issue only; the verifier counts its body. */
/*
 * The UAPI 5 ops: SIN costs like EXP (4 cycles a pass), SHL like ADD,
 * REM 4 cycles a pass on integers too, f64 POW two lanes of 4 cycles
 * (1048576 cycles at 1050 MHz = ceil(998643.8) ns); BITCAST moves its
 * 8 MiB only.
 */
static void new_op_1m(struct tp *p, u32 op, u32 dt, bool binary)
{
	u16 d = TP_T(p, dt, 1024, 1024), a = TP_T(p, dt, 1024, 1024);

	tp_op(p, op, d, a, binary ? TP_T(p, dt, 1024, 1024) : NO, NO);
}

static void sin_1m(struct tp *p)
{
	new_op_1m(p, PWTPU_OP_SIN, F32, false);
}

static void shl_1m(struct tp *p)
{
	new_op_1m(p, PWTPU_OP_SHL, PWTPU_DT_I32, true);
}

static void rem_1m_i32(struct tp *p)
{
	new_op_1m(p, PWTPU_OP_REM, PWTPU_DT_I32, true);
}

static void pow_1m_f64(struct tp *p)
{
	new_op_1m(p, PWTPU_OP_POW, PWTPU_DT_F64, true);
}

static void bitcast_1m(struct tp *p)
{
	u16 d = TP_T(p, PWTPU_DT_I32, 1024, 1024), a = TP_T(p, F32, 1024, 1024);

	tp_op(p, PWTPU_OP_BITCAST, d, a, NO, NO);
}

static void loop_big(struct tp *p)
{
	tp_loop(p, PWTPU_MAX_TRIPS, 1);
	tp_delay(p, 1000);
}

/* A WHILE tests one scalar: the issue overhead, whatever the memory. */
static void while_u64(struct tp *p)
{
	tp_op(p, PWTPU_OP_WHILE, NO, TP_SCALAR(p, PWTPU_DT_U64), NO, NO);
}

static void loop_bounded(struct tp *p)
{
	tp_loop(p, PWTPU_MAX_TRIPS, 1)->mode = PWTPU_LOOP_BOUNDED;
	while_u64(p);
}

FIXTURE(by_hand) {
	struct tp *p;
};

FIXTURE_VARIANT(by_hand) {
	void (*build)(struct tp *p);
	u32 lanes;	/* vector_lanes, 0 for the default */
	u32 hbm;	/* hbm_mbps, 0 for the default */
	u64 ns;
};

#define HAND(name, fn, l, h, want) \
	FIXTURE_VARIANT_ADD(by_hand, name) { \
		.build = fn, .lanes = l, .hbm = h, .ns = want, \
	}

HAND(matmul_one_tile, mm_one_tile, 0, 0, 366 + 50);
/* 1000 MB/s: 196608 bytes take 196608 ns, now memory bound. */
HAND(matmul_slow_hbm, mm_one_tile, 0, 1000, 196608 + 50);
HAND(matmul_tiles, mm_tiles, 0, 0, 5852 + 50);
HAND(matmul_ragged, mm_ragged, 0, 0, 490 + 50);
/* 16 KiB + 16 KiB + 64 KiB at 100 MB/s = 983040 ns. */
HAND(matmul_int8_slow_hbm, mm_int8, 0, 100, 983040 + 50);
HAND(add_1k, add_1k, 0, 0, 11 + 50);
HAND(exp_memory_bound, exp_1m, 0, 0, 6991 + 50);
HAND(exp_compute_bound, exp_1m, 8, 0, 499322 + 50);
HAND(add_compute_bound, add_1m, 8, 0, 124831 + 50);
HAND(reduce_compute_bound, reduce_1m, 8, 0, 124831 + 50);
HAND(add_f64_two_lanes, add_1m_f64, 8, 0, 249661 + 50);
HAND(add_f64_memory_bound, add_1m_f64, 0, 0, 20972 + 50);
HAND(add_i16_one_lane, add_1m_i16, 8, 0, 124831 + 50);
HAND(compare_u64_two_lanes, compare_1m_u64, 8, 0, 249661 + 50);
HAND(reduce_i64_two_lanes, reduce_1m_i64, 8, 0, 249661 + 50);
HAND(convert_i64_f16, convert_1k_i64, 0, 0, 9 + 50);
HAND(select_1k, select_1k, 0, 0, 12 + 50);
HAND(transpose, transpose_512, 0, 0, 1748 + 50);
HAND(slice, slice_small, 0, 0, 1 + 50);
HAND(slice_slow_hbm, slice_small, 0, 1, 800000 + 50);
HAND(broadcast, broadcast_1m, 0, 0, 3496 + 50);
HAND(convert, convert_1k, 0, 0, 6 + 50);
HAND(delay, delay_12345, 0, 0, 12345 + 50);
HAND(loop, loop_big, 0, 0, 50);
HAND(loop_bounded, loop_bounded, 0, 0, 50);
HAND(while, while_u64, 0, 0, 50);
HAND(while_slow_hbm, while_u64, 0, 1, 50);
HAND(sin_compute_bound, sin_1m, 8, 0, 499322 + 50);
HAND(shl_compute_bound, shl_1m, 8, 0, 124831 + 50);
HAND(rem_i32_compute_bound, rem_1m_i32, 8, 0, 499322 + 50);
HAND(pow_f64_two_lanes, pow_1m_f64, 8, 0, 998644 + 50);
HAND(bitcast_memory_only, bitcast_1m, 8, 0, 6991 + 50);

FIXTURE_SETUP(by_hand)
{
	self->p = calloc(1, sizeof(*self->p));
	ASSERT_NE(NULL, self->p);
	tp_reset(self->p, 1);
}

FIXTURE_TEARDOWN(by_hand)
{
	free(self->p);
}

TEST_F(by_hand, insn_ns)
{
	struct pwfw_spec spec;

	pwfw_spec_default(&spec);
	if (variant->lanes)
		spec.vector_lanes = variant->lanes;
	if (variant->hbm)
		spec.hbm_mbps = variant->hbm;
	variant->build(self->p);
	EXPECT_EQ(variant->ns, model(&spec, self->p, 0));
}

/*
 * Real work of the UAPI 5 ops per element: 16 for the f32, bf16 and f16
 * math and integer POW, 512 for f64 math and f64 REM, 1 for the rest
 * (BITCAST: the larger of its two element counts).
 */
TEST(work_of_new_ops)
{
	static const struct {
		u32 op, dt;
		u64 per;
	} cases[] = {
		{ PWTPU_OP_SIN, F32, 16 }, { PWTPU_OP_SIN, PWTPU_DT_F64, 512 },
		{ PWTPU_OP_CBRT, BF16, 16 }, { PWTPU_OP_ATAN2, PWTPU_DT_F16, 16 },
		{ PWTPU_OP_POW, PWTPU_DT_I32, 16 },
		{ PWTPU_OP_POW, PWTPU_DT_F64, 512 },
		{ PWTPU_OP_REM, PWTPU_DT_I32, 1 }, { PWTPU_OP_REM, F32, 16 },
		{ PWTPU_OP_REM, PWTPU_DT_F64, 512 },
		{ PWTPU_OP_SQRT, PWTPU_DT_F64, 1 }, { PWTPU_OP_FLOOR, F32, 1 },
		{ PWTPU_OP_SHL, PWTPU_DT_U64, 1 },
		{ PWTPU_OP_REDUCE_PRECISION, PWTPU_DT_F64, 1 },
	};
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_prog prog;
	struct pwfw_verr err;
	struct pwtpu_insn *in;
	u32 i;

	ASSERT_NE(NULL, p);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u32 op = cases[i].op, dt = cases[i].dt;
		bool unary = op != PWTPU_OP_POW && op != PWTPU_OP_REM &&
			     op != PWTPU_OP_ATAN2 && op != PWTPU_OP_SHL;

		tp_reset(p, 1);
		in = tp_op(p, op, TP_T(p, dt, 1000), TP_T(p, dt, 1000),
			   unary ? NO : TP_T(p, dt, 1000), NO);
		if (op == PWTPU_OP_REDUCE_PRECISION)
			in->arg[0] = 5;
		ASSERT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(1000 * cases[i].per, prog.work)
			TH_LOG("op %u dtype %u", op, dt);
		EXPECT_EQ(cases[i].per, pwfw_work_elem(op, dt));
	}
	tp_reset(p, 1);
	tp_op(p, PWTPU_OP_BITCAST, TP_T(p, PWTPU_DT_F64, 2),
	      TP_T(p, F32, 2, 2), NO, NO);
	ASSERT_EQ(0, tp_verify(p, &prog, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(4ULL, prog.work);
	free(p);
}

TEST(copy_by_hand)
{
	struct pwfw_spec spec;

	pwfw_spec_default(&spec);
	EXPECT_EQ(1000ULL, pwfw_model_copy_ns(&spec, 0));
	/* 1 byte at 16000 MB/s is 0.0625 ns: a whole one. */
	EXPECT_EQ(1001ULL, pwfw_model_copy_ns(&spec, 1));
	EXPECT_EQ(2000ULL, pwfw_model_copy_ns(&spec, 16000));
	EXPECT_EQ(1000ULL + 65536, pwfw_model_copy_ns(&spec, 1 << 20));
	spec.host_latency_ns = 0;
	spec.host_mbps = 1;
	EXPECT_EQ(5000ULL, pwfw_model_copy_ns(&spec, 5));
}

/* Bigger never gets faster: matmul in M, K and N, across tile edges. */
TEST(matmul_monotonic)
{
	static const u32 sizes[] = { 1, 2, 127, 128, 129, 255, 256, 300, 512 };
	const u32 n = sizeof(sizes) / sizeof(sizes[0]);
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_spec spec;
	u32 i, axis;

	ASSERT_NE(NULL, p);
	pwfw_spec_default(&spec);
	for (axis = 0; axis < 3; axis++) {
		u64 last = 0;

		for (i = 0; i < n; i++) {
			u32 dims[3] = { 64, 64, 64 };
			u64 ns;

			dims[axis] = sizes[i];
			tp_reset(p, 1);
			matmul(p, F32, dims[0], dims[1], dims[2]);
			ns = model(&spec, p, 0);
			EXPECT_LE(last, ns) TH_LOG("axis %u size %u", axis,
						   sizes[i]);
			last = ns;
		}
	}
	free(p);
}

/* Faster parts never make an instruction slower. */
TEST(faster_spec_never_slower)
{
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_spec base, fast;
	u32 i, field;

	ASSERT_NE(NULL, p);
	tp_reset(p, 1);
	mm_tiles(p);
	exp_1m(p);
	add_1k(p);
	transpose_512(p);
	pwfw_spec_default(&base);
	for (field = 0; field < 3; field++) {
		fast = base;
		if (field == 0)
			fast.clock_mhz *= 2;
		else if (field == 1)
			fast.hbm_mbps *= 2;
		else
			fast.vector_lanes *= 2;
		for (i = 0; i < p->ni; i++)
			EXPECT_GE(model(&base, p, i), model(&fast, p, i))
				TH_LOG("field %u insn %u", field, i);
	}
	/* Doubling every rate halves the variable part, roughly. */
	fast = base;
	fast.clock_mhz *= 2;
	fast.hbm_mbps *= 2;
	fast.vector_lanes *= 2;
	EXPECT_EQ((5852ULL + 1) / 2 + 50, model(&fast, p, 0));
	free(p);
}

TEST(vector_monotonic)
{
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_spec spec;
	u64 last = 0, ns;
	u32 n;

	ASSERT_NE(NULL, p);
	pwfw_spec_default(&spec);
	spec.vector_lanes = 16;
	for (n = 1; n <= 70000; n = n * 3 + 1) {
		u16 d, a;

		tp_reset(p, 1);
		d = TP_T(p, F32, n);
		a = TP_T(p, F32, n);
		tp_op(p, PWTPU_OP_TANH, d, a, NO, NO);
		ns = model(&spec, p, 0);
		EXPECT_LE(last, ns) TH_LOG("%u elements", n);
		last = ns;
	}
	free(p);
}

TEST(copy_monotonic)
{
	struct pwfw_spec spec, fast;
	u64 bytes, last = 0;

	pwfw_spec_default(&spec);
	fast = spec;
	fast.host_mbps *= 4;
	for (bytes = 0; bytes < (1ULL << 40); bytes = bytes * 5 + 3) {
		EXPECT_LE(last, pwfw_model_copy_ns(&spec, bytes));
		EXPECT_GE(pwfw_model_copy_ns(&spec, bytes),
			  pwfw_model_copy_ns(&fast, bytes));
		last = pwfw_model_copy_ns(&spec, bytes);
	}
}

/* Extreme inputs saturate at U64_MAX instead of wrapping to small. */
TEST(saturates)
{
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_spec spec;

	ASSERT_NE(NULL, p);
	pwfw_spec_default(&spec);
	/* Exact where the answer fits: ceil((2^64 - 1) / 16) is 2^60. */
	EXPECT_EQ((1ULL << 60) + 1000, pwfw_model_copy_ns(&spec, ~0ULL));
	spec.host_mbps = 1;
	spec.host_latency_ns = 0xffffffffU;
	EXPECT_EQ(~0ULL, pwfw_model_copy_ns(&spec, ~0ULL / 1000 + 1));
	spec.host_latency_ns = 0;
	EXPECT_EQ(~0ULL / 1000 * 1000, pwfw_model_copy_ns(&spec, ~0ULL / 1000));

	/* An unverified delay past any limit. */
	tp_reset(p, 1);
	tp_delay(p, ~0ULL - 10);
	EXPECT_EQ(~0ULL, model(&spec, p, 0));

	/* The slowest spec on the largest matmul still orders correctly. */
	spec.clock_mhz = 1;
	spec.hbm_mbps = 1;
	spec.array_dim = 8;
	tp_reset(p, 1);
	matmul(p, F32, 8192, 8192, 8192);
	matmul(p, F32, 4096, 8192, 8192);
	EXPECT_LT(model(&spec, p, 1), model(&spec, p, 0));
	free(p);
}

/* A spec with zero rates (never from pwfw_spec_parse) does not trap. */
TEST(zero_rates_do_not_trap)
{
	struct tp *p = calloc(1, sizeof(*p));
	struct pwfw_spec spec;

	ASSERT_NE(NULL, p);
	memset(&spec, 0, sizeof(spec));
	tp_reset(p, 1);
	mm_tiles(p);
	add_1k(p);
	EXPECT_LT(0ULL, model(&spec, p, 0));
	EXPECT_LT(0ULL, model(&spec, p, 1));
	EXPECT_EQ(1000ULL, pwfw_model_copy_ns(&spec, 1));
	free(p);
}

TEST_HARNESS_MAIN
