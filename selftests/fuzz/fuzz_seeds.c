// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_seeds.c - the first inputs of each harness, written by the
 * project's own encoders so that fuzzing starts from valid inputs (a
 * verifier the fuzzer must first learn a magic number for finds little):
 *
 *   fuzz_seeds DIR    writes DIR/<harness>/seed-<name>
 *
 * tools/fuzz seeds puts them into selftests/fuzz/corpus/; fuzzing grows
 * the corpus from there.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pathways/pathways.h>
#include <pathways/wire.h>
#include <pwtpu/pwprog.h>

#include "../../runtime/dcn/fnpayload.h"
#include "../../runtime/fn/fn.h"
#include "../../runtime/net/dpdk_frame.h"
#include "../net/net_common.h"

static const char *out_dir;

static void put(const char *harness, const char *name, const void *p,
		size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, harness);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/seed-%s", out_dir, harness, name);
	f = fopen(path, "w");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* A function's image (fuzz_verify) and payload (fuzz_fnpayload). */
static void put_fn(const char *name, struct pw_fn_builder *b)
{
	struct pw_wire_fn_desc d;
	struct pw_fn *fn;
	uint8_t *payload, *with_cut;
	uint32_t total;

	if (pw_fn_build(b, &fn)) {
		fprintf(stderr, "%s: %s\n", name, pw_last_error());
		exit(1);
	}
	put("verify", name, fn->image, fn->image_size);
	pw_fn_payload_desc(fn, &d);
	payload = pw_fn_payload_pack(&d, fn->image, fn->const_data, &total);
	with_cut = malloc(total + 1);
	if (!payload || !with_cut)
		exit(1);
	with_cut[0] = 0x7f;	/* the harness's first byte: how to cut */
	memcpy(with_cut + 1, payload, total);
	put("fnpayload", name, with_cut, total + 1);
	free(with_cut);
	free(payload);
	pw_fn_put(fn);
}

static void fn_seeds(void)
{
	const uint32_t s44[] = { 4, 4 }, s48[] = { 4, 8 }, s84[] = { 8, 4 };
	const uint32_t s4[] = { 4 }, s322[] = { 3, 2, 2 }, perm[] = { 1, 0 };
	const uint32_t st[] = { 1, 2 }, sh[] = { 2, 2 };
	const float k[4] = { 1, -2, 0.5f, 3 };
	struct pw_fn_builder *b;
	pw_val x, y, z;

	b = pw_fn_begin("elementwise");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, s44);
	y = pw_fn_param(b, PWTPU_DT_F32, 2, s44);
	z = pw_fn_binary(b, PWTPU_OP_ADD, x, y);
	z = pw_fn_unary(b, PWTPU_OP_TANH, z);
	z = pw_fn_binary(b, PWTPU_OP_DIV, z, pw_fn_scalar(b, PWTPU_DT_F32, 3));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_RSQRT, z));
	put_fn("elementwise", b);

	b = pw_fn_begin("matmul");
	x = pw_fn_param(b, PWTPU_DT_BF16, 2, s48);
	y = pw_fn_param(b, PWTPU_DT_BF16, 2, s84);
	pw_fn_result(b, pw_fn_matmul(b, x, y));
	put_fn("matmul_bf16", b);

	b = pw_fn_begin("matmul_i8");
	x = pw_fn_param(b, PWTPU_DT_I8, 2, s48);
	y = pw_fn_param(b, PWTPU_DT_I8, 2, s84);
	z = pw_fn_matmul(b, x, y);
	pw_fn_result(b, pw_fn_reduce(b, PWTPU_REDUCE_MAX, z, 1));
	put_fn("matmul_i8", b);

	b = pw_fn_begin("select");
	x = pw_fn_param(b, PWTPU_DT_I32, 1, s4);
	y = pw_fn_const(b, PWTPU_DT_F32, 1, s4, k);
	z = pw_fn_compare(b, PWTPU_CMP_LT, pw_fn_convert(b, x, PWTPU_DT_F32),
			  y);
	pw_fn_result(b, pw_fn_select(b, z, y, pw_fn_unary(b, PWTPU_OP_EXP,
							  y)));
	put_fn("select_const", b);

	b = pw_fn_begin("shapes");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, s44);
	y = pw_fn_transpose(b, pw_fn_reshape(b, pw_fn_slice(b, x, st, sh),
					     2, sh), perm);
	z = pw_fn_broadcast(b, pw_fn_reshape(b, x, 1, (uint32_t[]){ 16 }),
			    1, (uint32_t[]){ 16 });
	pw_fn_result(b, y);
	pw_fn_result(b, pw_fn_broadcast(b, y, 3, s322));
	pw_fn_result(b, pw_fn_reduce(b, PWTPU_REDUCE_SUM, z, 1));
	put_fn("shapes", b);

	b = pw_fn_begin("collectives");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, s4);
	y = pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, x);
	y = pw_fn_all_gather(b, y, 2);
	pw_fn_result(b, pw_fn_reduce_scatter(b, PWTPU_REDUCE_MAX, y, 2));
	pw_fn_result(b, pw_fn_permute(b, x, 1));
	put_fn("collectives", b);

	b = pw_fn_begin("dtypes");
	x = pw_fn_param(b, PWTPU_DT_I64, 1, s4);
	y = pw_fn_param(b, PWTPU_DT_F16, 1, s4);
	z = pw_fn_binary(b, PWTPU_OP_DIV, x, pw_fn_scalar(b, PWTPU_DT_I64, -1));
	pw_fn_result(b, pw_fn_reduce(b, PWTPU_REDUCE_MIN, z, 1));
	z = pw_fn_convert(b, pw_fn_unary(b, PWTPU_OP_TANH, y), PWTPU_DT_F64);
	pw_fn_result(b, pw_fn_compare(b, PWTPU_CMP_LE, z,
				      pw_fn_convert(b, x, PWTPU_DT_F64)));
	pw_fn_result(b, pw_fn_convert(b, z, PWTPU_DT_U8));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_MAX,
				     pw_fn_param(b, PWTPU_DT_U32, 1, s4),
				     pw_fn_convert(b, x, PWTPU_DT_U32)));
	put_fn("dtypes", b);

	b = pw_fn_begin("scatter_gather");
	{
		struct pw_fn_scatter_dims sd = {
			.n_update_window_dims = 1, .update_window_dims = { 1 },
			.n_inserted_window_dims = 1,
			.inserted_window_dims = { 0 },
			.n_scatter_dims_to_operand_dims = 1,
			.scatter_dims_to_operand_dims = { 0 },
			.index_vector_dim = 1,
		};
		struct pw_fn_gather_dims gd = {
			.n_offset_dims = 1, .offset_dims = { 1 },
			.n_batching_dims = 1, .operand_batching_dims = { 0 },
			.start_indices_batching_dims = { 0 },
			.n_start_index_map = 1, .start_index_map = { 1 },
			.index_vector_dim = 1, .slice_sizes = { 1, 2 },
		};

		x = pw_fn_param(b, PWTPU_DT_F32, 2, s44);
		y = pw_fn_param(b, PWTPU_DT_I64, 2, (uint32_t[]){ 4, 1 });
		z = pw_fn_scatter(b, PWTPU_SCATTER_ADD, x, y, x, &sd);
		pw_fn_result(b, z);
		pw_fn_result(b, pw_fn_gather(b, z, y, &gd));
	}
	put_fn("scatter_gather", b);

	b = pw_fn_begin("delay");
	x = pw_fn_param(b, PWTPU_DT_F32, 1, s4);
	pw_fn_delay(b, 1000);
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_NEG, x));
	put_fn("delay", b);

	b = pw_fn_begin("bits");
	x = pw_fn_param(b, PWTPU_DT_I32, 1, s4);
	y = pw_fn_param(b, PWTPU_DT_I32, 1, s4);
	z = pw_fn_binary(b, PWTPU_OP_SHL, x, y);
	z = pw_fn_binary(b, PWTPU_OP_XOR, z, pw_fn_unary(b, PWTPU_OP_NOT, x));
	z = pw_fn_binary(b, PWTPU_OP_SHR_ARITH, z, y);
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_POPCNT, z));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_POW, x, y));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_REM, x, y));
	pw_fn_result(b, pw_fn_bitcast(b, pw_fn_unary(b, PWTPU_OP_CLZ, y),
				      PWTPU_DT_F32));
	put_fn("bits", b);

	b = pw_fn_begin("math");
	x = pw_fn_param(b, PWTPU_DT_F32, 2, s44);
	y = pw_fn_param(b, PWTPU_DT_F16, 1, s4);
	z = pw_fn_binary(b, PWTPU_OP_ATAN2, pw_fn_unary(b, PWTPU_OP_SIN, x),
			 pw_fn_unary(b, PWTPU_OP_FLOOR, x));
	z = pw_fn_binary(b, PWTPU_OP_POW, z, pw_fn_scalar(b, PWTPU_DT_F32, 2.5));
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_REM, z, x));
	pw_fn_result(b, pw_fn_reduce_precision(b, pw_fn_unary(b,
					PWTPU_OP_LOGISTIC, y), 4, 3));
	put_fn("math", b);

	b = pw_fn_begin("math_f64");
	x = pw_fn_param(b, PWTPU_DT_F64, 1, s4);
	z = pw_fn_unary(b, PWTPU_OP_TAN, pw_fn_unary(b, PWTPU_OP_CBRT, x));
	z = pw_fn_binary(b, PWTPU_OP_POW, pw_fn_unary(b, PWTPU_OP_EXPM1, z),
			 pw_fn_unary(b, PWTPU_OP_LOG1P, x));
	pw_fn_result(b, pw_fn_unary(b, PWTPU_OP_ROUND_AFZ, z));
	pw_fn_result(b, pw_fn_bitcast(b, x, PWTPU_DT_U16));
	put_fn("math_f64", b);

	/* Loops: x doubled while below 100, a counter in a loop inside. */
	b = pw_fn_begin("while");
	{
		pw_val init[2], v[2], next[2], w, c;

		init[0] = pw_fn_param(b, PWTPU_DT_F32, 1, s4);
		init[1] = pw_fn_scalar(b, PWTPU_DT_I32, 0);
		pw_fn_while_begin(b, 2, init, v, 64);
		pw_fn_while_test(b, pw_fn_compare(b, PWTPU_CMP_LT,
						  pw_fn_reduce(b, PWTPU_REDUCE_MAX,
							       v[0], 1),
						  pw_fn_scalar(b, PWTPU_DT_F32,
							       100)));
		next[0] = pw_fn_binary(b, PWTPU_OP_MUL, v[0],
				       pw_fn_scalar(b, PWTPU_DT_F32, 2));
		pw_fn_while_begin(b, 1, &v[1], &w, PW_FN_TRIPS_AUTO);
		c = pw_fn_compare(b, PWTPU_CMP_LT, w,
				  pw_fn_scalar(b, PWTPU_DT_I32, 3));
		pw_fn_while_test(b, c);
		w = pw_fn_binary(b, PWTPU_OP_ADD, w,
				 pw_fn_scalar(b, PWTPU_DT_I32, 1));
		pw_fn_while_end(b, &w);
		next[1] = v[1];
		pw_fn_while_end(b, next);
		pw_fn_result(b, v[0]);
		pw_fn_result(b, v[1]);
	}
	put_fn("while", b);
}

/* LOOPs, which the builder never makes, by the image builder. */
static void loop_seeds(void)
{
	const uint32_t s8[] = { 8 }, trips[2] = { 3, 2 }, bounded[2] = { 9, 3 };
	struct pwprog *p = pwprog_new(1);
	int a, c, d;
	void *img;
	size_t n;

	a = pwprog_tensor(p, PWTPU_DT_F32, 1, s8, 0, 0);
	c = pwprog_tensor(p, PWTPU_DT_F32, 1, s8, 0, 32);
	d = pwprog_tensor(p, PWTPU_DT_F32, 1, s8, 0, 64);
	pwprog_insn(p, PWTPU_OP_LOOP, 0, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		    PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, trips, 2);
	pwprog_binary(p, PWTPU_OP_ADD, d, a, c);
	pwprog_binary(p, PWTPU_OP_MUL, a, d, c);
	img = pwprog_image(p, &n);
	put("verify", "loop", img, n);
	free(img);
	pwprog_free(p);

	/* A bounded loop: d += c until a (i32 scalar) is 0, a -= 1. */
	p = pwprog_new(1);
	a = pwprog_tensor(p, PWTPU_DT_I32, 0, NULL, 0, 0);
	c = pwprog_tensor(p, PWTPU_DT_I32, 0, NULL, 0, 8);
	d = pwprog_tensor(p, PWTPU_DT_I32, 0, NULL, 0, 16);
	pwprog_insn(p, PWTPU_OP_LOOP, PWTPU_LOOP_BOUNDED, PWTPU_NO_TENSOR,
		    PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
		    bounded, 2);
	pwprog_insn(p, PWTPU_OP_WHILE, 0, PWTPU_NO_TENSOR, a,
		    PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, NULL, 0);
	pwprog_binary(p, PWTPU_OP_ADD, d, d, c);
	pwprog_binary(p, PWTPU_OP_SUB, a, a, c);
	img = pwprog_image(p, &n);
	put("verify", "bounded", img, n);
	free(img);
	pwprog_free(p);
	img = pwprog_dispatch_image(true, &n);
	put("verify", "dispatch_add", img, n);
	free(img);
	img = pwprog_dispatch_image(false, &n);
	put("verify", "dispatch_empty", img, n);
	free(img);
}

static void wire_seeds(void)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m;
	uint64_t rng = 1;
	unsigned int type;
	int len;

	for (type = 1; type < PW_WIRE_NTYPES; type++) {
		net_gen_msg(&m, type, &rng);
		len = pw_wire_encode(&m, buf, sizeof(buf));
		if (len < 0) {
			fprintf(stderr, "type %u: %d\n", type, len);
			exit(1);
		}
		put("wire", pw_wire_type_name(type), buf, (size_t)len);
	}
}

static void frame_seeds(void)
{
	static const uint8_t mac_a[PW_ETH_ALEN] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t mac_b[PW_ETH_ALEN] = { 2, 0, 0, 0, 0, 2 };
	uint8_t f[PW_FRAME_UDP_HDRS + PW_WIRE_MAX_DGRAM];
	struct pw_frame_udp a = {
		.src_ip = htonl(0x0a000002), .dst_ip = htonl(0x0a000001),
		.src_port = htons(7001), .dst_port = htons(7000),
		.ip_id = htons(1),
	};
	struct pw_wire_msg m;
	uint64_t rng = 2;
	size_t n;
	int len;

	memcpy(a.dst_mac, mac_a, PW_ETH_ALEN);
	memcpy(a.src_mac, mac_b, PW_ETH_ALEN);
	net_gen_msg(&m, PW_WIRE_RUN, &rng);
	len = pw_wire_encode(&m, f + PW_FRAME_UDP_HDRS,
			     sizeof(f) - PW_FRAME_UDP_HDRS);
	n = pw_frame_udp_build(f, &a, (size_t)len);
	put("frame", "udp_run", f, n);
	f[PW_FRAME_UDP_HDRS - 2] = f[PW_FRAME_UDP_HDRS - 1] = 0;
	put("frame", "udp_no_csum", f, n);
	n = pw_frame_arp_build(f, PW_ARP_REQUEST, mac_b, a.src_ip, mac_a,
			       a.dst_ip);
	put("frame", "arp_request", f, n);
	n = pw_frame_arp_build(f, PW_ARP_REPLY, mac_b, a.src_ip, mac_a,
			       a.dst_ip);
	put("frame", "arp_reply", f, n);
}

/* Scripts of fuzz_client.c: see step() there for what each byte means. */
static void client_seeds(void)
{
	static const uint8_t add[] = {
		0x00, 0, 2, 4, 4, 1, 0, 2, 4, 4, 1,	/* 2 x param f32[4,4] */
		3, 0, 2, 1, 4, 2, 11, 19, 3,	/* add, tanh, result */
	};
	static const uint8_t matmul[] = {
		0x00, 0, 2, 4, 8, 3, 0, 2, 8, 4, 3,	/* i8[4,8], i8[8,4] */
		5, 0, 1, 13, 2, 0, 1, 19, 3,	/* matmul, reduce, result */
	};
	static const uint8_t shapes[] = {
		0x00, 0, 2, 2, 4, 2, 8, 0, 1,	/* bf16[2,4], convert */
		10, 1, 2, 4, 2, 11, 2, 2, 1, 0,	/* reshape, transpose */
		12, 3, 2, 0, 1, 2, 2, 2,	/* slice */
		9, 4, 3, 3, 2, 2, 19, 5,	/* broadcast, result */
	};
	static const uint8_t coll[] = {
		0x00, 0, 1, 4, 1, 14, 0, 0,	/* f32[4], all_reduce */
		15, 1, 2, 16, 2, 1, 2, 17, 0, 1,	/* gather, scatter, perm */
		18, 5, 19, 3, 19, 4,		/* delay, results */
	};
	static const uint8_t dtypes[] = {
		0x00, 0, 1, 4, 8, 0, 1, 4, 5,	/* i64[4], f16[4] */
		3, 0, 5, 0, 4, 1, 10,		/* div, exp */
		8, 3, 6, 6, 4, 4, 4,		/* convert to f64, compare */
		13, 2, 1, 1, 8, 0, 11,		/* reduce max, to u32 */
		19, 5, 19, 6, 19, 7,		/* results */
	};
	static const uint8_t scatter[] = {
		0x00, 0, 2, 4, 3, 1, 0, 2, 3, 1, 4,	/* f32[4,3], i32[3,1] */
		0, 2, 3, 3, 1,				/* f32[3,3] */
		20, 0, 1, 2,				/* scatter x at i of u */
		1, 1, 0, 0, 0, 1, 0, 0, 0, 0,		/* window [1], ins [0] */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0,		/* no batching */
		1, 0, 0, 0, 0, 1, 1,			/* map [0], ivd 1, ADD */
		21, 3, 1,				/* gather rows at i */
		1, 1, 0, 0, 0, 1, 0, 0, 0, 0,		/* offset [1], coll. [0] */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 0, 0, 0, 0, 1, 1, 3, 0, 0,		/* map [0], ivd 1, [1,3] */
		19, 3, 19, 4,				/* results */
	};
	static const uint8_t bits[] = {
		0x00, 0, 1, 4, 4, 0, 1, 4, 4,	/* 2 x param i32[4] */
		3, 0, 34, 1, 4, 2, 37,		/* shl, popcnt */
		3, 3, 36, 1, 4, 4, 33,		/* shr_arith, not */
		3, 0, 52, 1, 3, 0, 53, 1,	/* pow, rem */
		19, 5, 19, 6, 19, 7,		/* results */
	};
	static const uint8_t math[] = {
		0x00, 0, 1, 4, 1, 0, 1, 4, 6,	/* f32[4], f64[4] */
		4, 0, 45, 4, 1, 47, 3, 2, 51, 0,	/* sin, tan, atan2 */
		3, 1, 52, 1, 4, 1, 50,		/* pow, logistic (f64) */
		22, 0, 5, 10, 23, 1, 8,		/* e5m10, bitcast to i64 */
		19, 4, 19, 6, 19, 7, 19, 8,	/* results */
	};
	static const uint8_t loop[] = {
		0x00, 0, 0, 4,			/* param i32 */
		2, 4, 0, 0, 0, 8,		/* scalar i32 1 */
		2, 4, 0, 0, 0, 80,		/* scalar i32 10 */
		24, 1, 0, 50,			/* loop of x, 50 trips */
		6, 3, 2, 2, 25, 4,		/* while x < 10 */
		3, 3, 2, 1, 26, 5,		/* x + 1, end */
		19, 3,				/* result */
	};
	static const uint8_t place[] = {
		0xe0, 3, '2', 'x', '4',		/* island 2x4 */
		3, '2', 'x', '2', 0,		/* slice 2x2 */
		1, '4', 1, 3, 3,		/* slice 4, remove/add dev 3 */
		0, 5, 0, 1, 1,			/* any 5, release */
	};

	put("client", "add", add, sizeof(add));
	put("client", "matmul", matmul, sizeof(matmul));
	put("client", "shapes", shapes, sizeof(shapes));
	put("client", "collectives", coll, sizeof(coll));
	put("client", "dtypes", dtypes, sizeof(dtypes));
	put("client", "scatter_gather", scatter, sizeof(scatter));
	put("client", "bits", bits, sizeof(bits));
	put("client", "math", math, sizeof(math));
	put("client", "while", loop, sizeof(loop));
	put("client", "place", place, sizeof(place));
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	if (mkdir(out_dir, 0755) && errno != EEXIST) {
		perror(out_dir);
		return 1;
	}
	fn_seeds();
	loop_seeds();
	wire_seeds();
	frame_seeds();
	client_seeds();
	return 0;
}
