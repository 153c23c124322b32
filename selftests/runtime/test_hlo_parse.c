// SPDX-License-Identifier: GPL-2.0
/*
 * test_hlo_parse.c - the StableHLO text reader (runtime/hlo/): each
 * pretty syntax read into the generic shape with the generic form's
 * attribute names, dense constants decoded to exact bytes, errors with
 * their exact "LINE:COL: ..." messages and errnos, every truncation of a
 * valid module refused without a crash, and every program of the corpus
 * (../shared/stablehlo/testdata) read, printed, read again and printed to
 * the same text.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../runtime/hlo/hlo.h"

#define CORPUS	"../shared/stablehlo/testdata"

static char errbuf[512];

static struct pw_hlo_module *parse(const char *text)
{
	struct pw_hlo_module *m = NULL;

	if (pw_hlo_parse(text, strlen(text), &m, errbuf, sizeof(errbuf)))
		fprintf(stderr, "# parse: %s\n", errbuf);
	return m;
}

/* The error of parsing @text, its message in errbuf. */
static int parse_err(const char *text)
{
	struct pw_hlo_module *m = NULL;
	int err = pw_hlo_parse(text, strlen(text), &m, errbuf, sizeof(errbuf));

	pw_hlo_free(m);
	return err;
}

/* Op @i of @main's body. */
static struct pw_hlo_op *main_op(struct pw_hlo_module *m, uint32_t i)
{
	struct pw_hlo_func *f = m ? pw_hlo_find_func(m, "main") : NULL;

	if (!f || !f->body.nblocks || i >= f->body.blocks[0].nops)
		return NULL;
	return f->body.blocks[0].ops[i];
}

/* A dense i64 array attribute equal to @v[0..n-1]. */
static bool i64s(const struct pw_hlo_attr *a, const int64_t *v, uint32_t n)
{
	return a && a->kind == PW_HLO_ATTR_DENSE_ARRAY &&
	       a->type->dtype == PW_HLO_DT_I64 && a->count == n &&
	       a->nbytes == n * 8u && (!n || !memcmp(a->bytes, v, n * 8u));
}

#define I64S(a, ...) i64s(a, (const int64_t[]){ __VA_ARGS__ }, \
			  sizeof((const int64_t[]){ __VA_ARGS__ }) / 8)

static bool is_enum(const struct pw_hlo_attr *a, const char *class,
		    const char *value)
{
	return a && a->kind == PW_HLO_ATTR_ENUM && a->enum_class &&
	       !strcmp(a->enum_class, class) && !strcmp(a->enum_value, value);
}

static bool is_int(const struct pw_hlo_attr *a, int64_t v, enum pw_hlo_dtype dt)
{
	return a && a->kind == PW_HLO_ATTR_INT && a->type &&
	       a->type->dtype == dt && a->neg == (v < 0) &&
	       a->u == (v < 0 ? -(uint64_t)v : (uint64_t)v);
}

static bool name_is(const struct pw_hlo_op *op, const char *name)
{
	return op && !strcmp(op->name, name);
}

#define MAIN(args, res, body) \
	"module {\n  func.func public @main(" args ") -> " res " {\n" body \
	"  }\n}\n"

TEST(elementwise_and_select)
{
	struct pw_hlo_module *m = parse(MAIN(
		"%a: tensor<2xf32>, %p: tensor<2xi1>", "tensor<2xf32>",
		"    %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
		"    %1 = stablehlo.convert %0 : (tensor<2xf32>) -> tensor<2xi32>\n"
		"    %2 = stablehlo.select %p, %a, %0 : tensor<2xi1>, tensor<2xf32>\n"
		"    %3 = chlo.next_after %2, %a : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>\n"
		"    return %3 : tensor<2xf32>\n"));
	struct pw_hlo_op *op;

	ASSERT_NE(NULL, m);
	op = main_op(m, 0);
	ASSERT_TRUE(name_is(op, "stablehlo.add"));
	EXPECT_EQ(2, op->noperands);
	EXPECT_EQ(1, op->nresults);
	EXPECT_STREQ("a", op->operands[1].name);
	EXPECT_EQ(PW_HLO_DT_F32, op->result_types[0]->dtype);
	EXPECT_EQ(PW_HLO_DT_F32, op->operand_types[1]->dtype);
	EXPECT_EQ(3, op->line);
	EXPECT_EQ(5, op->col);
	op = main_op(m, 1);
	EXPECT_EQ(PW_HLO_DT_I32, op->result_types[0]->dtype);
	op = main_op(m, 2);
	ASSERT_EQ(3, op->noperands);
	EXPECT_EQ(PW_HLO_DT_I1, op->operand_types[0]->dtype);
	EXPECT_EQ(PW_HLO_DT_F32, op->operand_types[2]->dtype);
	EXPECT_EQ(PW_HLO_DT_F32, op->result_types[0]->dtype);
	op = main_op(m, 3);
	EXPECT_TRUE(name_is(op, "chlo.next_after"));
	EXPECT_EQ(2, op->noperands);
	op = main_op(m, 4);
	EXPECT_TRUE(name_is(op, "func.return"));
	EXPECT_EQ(1, op->noperands);
	EXPECT_EQ(0, op->nresults);
	pw_hlo_free(m);
}

TEST(keyword_forms)
{
	struct pw_hlo_module *m = parse(MAIN(
		"%a: tensor<2x3xf32>, %i: tensor<i64>", "tensor<f32>",
		"    %0 = stablehlo.compare  GT, %a, %a,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>\n"
		"    %1 = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i64>) -> tensor<2x3xi64>\n"
		"    %2 = stablehlo.slice %a [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>\n"
		"    %3 = stablehlo.iota dim = 1 : tensor<2x3xi32>\n"
		"    %4 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
		"    %5 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n"
		"    %6 = stablehlo.pad %a, %c, low = [0, 1], high = [2, 0], interior = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x6xf32>\n"
		"    %7 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>\n"
		"    %8 = stablehlo.reduce_precision %a, format = e5m10 : tensor<2x3xf32>\n"
		"    %9 = stablehlo.reverse %a, dims = [0] : tensor<2x3xf32>\n"
		"    %10:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui32>)\n"
		"    %11 = stablehlo.compare  EQ, %i, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
		"    %12, %13 = chlo.top_k(%a, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)\n"
		"    %14 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i1>>) -> tensor<i1>\n"
		"    return %c : tensor<f32>\n"));
	struct pw_hlo_op *op;

	ASSERT_NE(NULL, m);
	op = main_op(m, 0);
	ASSERT_TRUE(name_is(op, "stablehlo.compare"));
	EXPECT_TRUE(is_enum(pw_hlo_op_attr(op, "comparison_direction"),
			    "comparison_direction", "GT"));
	EXPECT_TRUE(is_enum(pw_hlo_op_attr(op, "compare_type"),
			    "comparison_type", "FLOAT"));
	EXPECT_EQ(PW_HLO_DT_I1, op->result_types[0]->dtype);
	op = main_op(m, 1);
	EXPECT_TRUE(i64s(pw_hlo_op_attr(op, "broadcast_dimensions"), NULL, 0));
	op = main_op(m, 2);
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "start_indices"), 0, 1));
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "limit_indices"), 2, 3));
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "strides"), 1, 2));
	op = main_op(m, 3);
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "iota_dimension"), 1,
			   PW_HLO_DT_I64));
	EXPECT_EQ(0, op->noperands);
	op = main_op(m, 4);
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "permutation"), 1, 0));
	op = main_op(m, 5);
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "dimension"), 0, PW_HLO_DT_I64));
	EXPECT_EQ(2, op->noperands);
	op = main_op(m, 6);
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "edge_padding_low"), 0, 1));
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "edge_padding_high"), 2, 0));
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "interior_padding"), 1, 1));
	EXPECT_STREQ("c", op->operands[1].name);
	op = main_op(m, 7);
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "slice_sizes"), 1, 2));
	EXPECT_EQ(3, op->noperands);
	op = main_op(m, 8);
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "exponent_bits"), 5,
			   PW_HLO_DT_I32));
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "mantissa_bits"), 10,
			   PW_HLO_DT_I32));
	op = main_op(m, 9);
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "dimensions"), 0));
	op = main_op(m, 10);
	EXPECT_TRUE(is_enum(pw_hlo_op_attr(op, "rng_algorithm"),
			    "rng_algorithm", "THREE_FRY"));
	EXPECT_EQ(2, op->nresults);
	EXPECT_EQ(1, op->ngroups);
	EXPECT_EQ(PW_HLO_DT_UI32, op->result_types[1]->dtype);
	op = main_op(m, 11);
	EXPECT_EQ(NULL, pw_hlo_op_attr(op, "compare_type"));
	op = main_op(m, 12);
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "k"), 2, PW_HLO_DT_I64));
	EXPECT_EQ(2, op->ngroups);
	EXPECT_EQ(2, op->nresults);
	EXPECT_STREQ("13", op->groups[1].name);
	op = main_op(m, 13);
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "index"), 1, PW_HLO_DT_I32));
	EXPECT_EQ(PW_HLO_TYPE_TUPLE, op->operand_types[0]->kind);
	pw_hlo_free(m);
}

TEST(calls_and_custom_call)
{
	struct pw_hlo_module *m = parse(
		"module @jit_f attributes {mhlo.num_partitions = 1 : i32} {\n"
		"  func.func public @main() -> (tensor<2xf32> {jax.result_info = \"\"}) {\n"
		"    %0:2 = call @inputs() : () -> (tensor<2xf32>, tensor<2xf32>)\n"
		"    stablehlo.custom_call @check.expect_close(%0#0, %0#1) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
		"    return %0#1 : tensor<2xf32>\n"
		"  }\n"
		"  func.func private @inputs() -> (tensor<2xf32>, tensor<2xf32>) {\n"
		"    %cst = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
		"    return %cst, %cst : tensor<2xf32>, tensor<2xf32>\n"
		"  }\n"
		"}\n");
	const struct pw_hlo_attr *a;
	struct pw_hlo_func *f;
	struct pw_hlo_op *op;

	ASSERT_NE(NULL, m);
	EXPECT_STREQ("jit_f", m->name);
	ASSERT_EQ(2, m->nfuncs);
	f = pw_hlo_find_func(m, "main");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("public", f->visibility);
	ASSERT_EQ(1, f->nresults);
	ASSERT_EQ(1, f->nresult_attrs[0]);
	EXPECT_STREQ("jax.result_info", f->result_attrs[0][0].name);
	EXPECT_STREQ("private", pw_hlo_find_func(m, "inputs")->visibility);
	EXPECT_EQ(NULL, pw_hlo_find_func(m, "nothing"));
	op = main_op(m, 0);
	ASSERT_TRUE(name_is(op, "func.call"));
	a = pw_hlo_op_attr(op, "callee");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(PW_HLO_ATTR_SYMBOL, a->kind);
	EXPECT_STREQ("inputs", a->text);
	EXPECT_EQ(2, op->nresults);
	op = main_op(m, 1);
	ASSERT_TRUE(name_is(op, "stablehlo.custom_call"));
	a = pw_hlo_op_attr(op, "call_target_name");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(PW_HLO_ATTR_STRING, a->kind);
	EXPECT_STREQ("check.expect_close", a->text);
	a = pw_hlo_op_attr(op, "has_side_effect");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(PW_HLO_ATTR_BOOL, a->kind);
	EXPECT_TRUE(a->b);
	EXPECT_EQ(0, op->operands[0].index);
	EXPECT_EQ(1, op->operands[1].index);
	EXPECT_STREQ("0", op->operands[1].name);
	EXPECT_EQ(0, op->nresults);
	pw_hlo_free(m);
}

TEST(reduce_forms)
{
	struct pw_hlo_module *m = parse(MAIN(
		"%a: tensor<2x3xf32>, %b: tensor<2x3xi32>, %z: tensor<f32>, %y: tensor<i32>",
		"tensor<2xf32>",
		"    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
		"    %1:2 = stablehlo.reduce(%a init: %z), (%b init: %y) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)\n"
		"     reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<i32>, %s: tensor<i32>)  {\n"
		"      %2 = stablehlo.maximum %p, %q : tensor<f32>\n"
		"      %3 = stablehlo.maximum %r, %s : tensor<i32>\n"
		"      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>\n"
		"    }\n"
		"    return %0 : tensor<2xf32>\n"));
	struct pw_hlo_block *blk;
	struct pw_hlo_op *op;

	ASSERT_NE(NULL, m);
	op = main_op(m, 0);
	ASSERT_TRUE(name_is(op, "stablehlo.reduce"));
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "dimensions"), 1));
	ASSERT_EQ(1, op->nregions);
	ASSERT_EQ(1, op->regions[0].nblocks);
	blk = &op->regions[0].blocks[0];
	ASSERT_EQ(2, blk->nargs);
	EXPECT_EQ(0, blk->args[0].type->rank);
	EXPECT_EQ(PW_HLO_DT_F32, blk->args[0].type->dtype);
	ASSERT_EQ(2, blk->nops);
	EXPECT_TRUE(name_is(blk->ops[0], "stablehlo.add"));
	EXPECT_STREQ(blk->args[0].name, blk->ops[0]->operands[0].name);
	EXPECT_STREQ(blk->args[1].name, blk->ops[0]->operands[1].name);
	EXPECT_TRUE(name_is(blk->ops[1], "stablehlo.return"));
	EXPECT_STREQ(blk->ops[0]->groups[0].name,
		     blk->ops[1]->operands[0].name);
	op = main_op(m, 1);
	ASSERT_EQ(4, op->noperands);
	EXPECT_STREQ("a", op->operands[0].name);
	EXPECT_STREQ("b", op->operands[1].name);
	EXPECT_STREQ("z", op->operands[2].name);
	EXPECT_STREQ("y", op->operands[3].name);
	ASSERT_EQ(1, op->nregions);
	blk = &op->regions[0].blocks[0];
	ASSERT_EQ(4, blk->nargs);
	/* All the first of each pair, then the seconds. */
	EXPECT_STREQ("p", blk->args[0].name);
	EXPECT_STREQ("r", blk->args[1].name);
	EXPECT_STREQ("q", blk->args[2].name);
	EXPECT_STREQ("s", blk->args[3].name);
	EXPECT_EQ(PW_HLO_DT_I32, blk->args[1].type->dtype);
	EXPECT_EQ(3, blk->nops);
	pw_hlo_free(m);
}

TEST(while_dot_conv)
{
	struct pw_hlo_module *m = parse(MAIN(
		"%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %i: tensor<i64>",
		"tensor<i64>",
		"    %0:2 = stablehlo.while(%it = %i, %acc = %i) : tensor<i64>, tensor<i64>\n"
		"     cond {\n"
		"      %c = stablehlo.compare  LT, %it, %acc,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
		"      stablehlo.return %c : tensor<i1>\n"
		"    } do {\n"
		"      stablehlo.return %it, %acc : tensor<i64>, tensor<i64>\n"
		"    }\n"
		"    %1 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\n"
		"    %2 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [2, 0]], rhs_dilate = [1, 2], reverse = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x4x6x4xf32>\n"
		"    return %0#1 : tensor<i64>\n"));
	const struct pw_hlo_attr *dn, *a;
	struct pw_hlo_op *op;
	int r;

	ASSERT_NE(NULL, m);
	op = main_op(m, 0);
	ASSERT_TRUE(name_is(op, "stablehlo.while"));
	ASSERT_EQ(2, op->nregions);
	EXPECT_EQ(2, op->noperands);
	EXPECT_EQ(2, op->nresults);
	for (r = 0; r < 2; r++) {
		ASSERT_EQ(1, op->regions[r].nblocks);
		ASSERT_EQ(2, op->regions[r].blocks[0].nargs);
		EXPECT_STREQ("it", op->regions[r].blocks[0].args[0].name);
		EXPECT_STREQ("acc", op->regions[r].blocks[0].args[1].name);
	}
	EXPECT_EQ(2, op->regions[0].blocks[0].nops);
	op = main_op(m, 1);
	dn = pw_hlo_op_attr(op, "dot_dimension_numbers");
	ASSERT_NE(NULL, dn);
	EXPECT_EQ(PW_HLO_ATTR_STRUCT, dn->kind);
	EXPECT_STREQ("stablehlo.dot", dn->text);
	ASSERT_EQ(4, dn->n);
	a = pw_hlo_attr_field(dn, "lhs_contracting_dimensions");
	ASSERT_NE(NULL, a);
	ASSERT_EQ(1, a->n);
	EXPECT_EQ(2, a->elems[0]->u);
	a = pw_hlo_attr_field(dn, "rhs_contracting_dimensions");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(1, a->elems[0]->u);
	a = pw_hlo_op_attr(op, "precision_config");
	ASSERT_NE(NULL, a);
	ASSERT_EQ(2, a->n);
	EXPECT_TRUE(is_enum(a->elems[1], "precision", "HIGHEST"));
	op = main_op(m, 2);
	dn = pw_hlo_op_attr(op, "dimension_numbers");
	ASSERT_NE(NULL, dn);
	EXPECT_STREQ("stablehlo.conv", dn->text);
	EXPECT_EQ(0, pw_hlo_attr_field(dn, "input_batch_dimension")->u);
	EXPECT_EQ(3, pw_hlo_attr_field(dn, "input_feature_dimension")->u);
	EXPECT_EQ(2, pw_hlo_attr_field(dn,
			"kernel_input_feature_dimension")->u);
	EXPECT_EQ(3, pw_hlo_attr_field(dn,
			"kernel_output_feature_dimension")->u);
	a = pw_hlo_attr_field(dn, "output_spatial_dimensions");
	ASSERT_EQ(2, a->n);
	EXPECT_EQ(1, a->elems[0]->u);
	EXPECT_EQ(2, a->elems[1]->u);
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "window_strides"), 2, 1));
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "rhs_dilation"), 1, 2));
	a = pw_hlo_op_attr(op, "padding");
	ASSERT_NE(NULL, a);
	ASSERT_EQ(PW_HLO_ATTR_DENSE, a->kind);
	ASSERT_EQ(2, a->type->rank);
	EXPECT_EQ(2, a->type->dims[0]);
	ASSERT_EQ(32, a->nbytes);
	EXPECT_EQ(0, memcmp(a->bytes, (const int64_t[]){ 1, 1, 2, 0 }, 32));
	a = pw_hlo_op_attr(op, "window_reversal");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(PW_HLO_DT_I1, a->type->dtype);
	ASSERT_EQ(2, a->nbytes);
	EXPECT_EQ(0, a->bytes[0]);
	EXPECT_EQ(1, a->bytes[1]);
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "feature_group_count"), 1,
			   PW_HLO_DT_I64));
	pw_hlo_free(m);
}

TEST(generic_form)
{
	struct pw_hlo_module *m = parse(MAIN(
		"%a: tensor<3xi64>, %i: tensor<1x1xi32>", "tensor<1xi64>",
		"    %0 = \"stablehlo.gather\"(%a, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<3xi64>, tensor<1x1xi32>) -> tensor<1xi64>\n"
		"    %1 = \"stablehlo.sort\"(%0) <{dimension = 0 : i64}> ({\n"
		"    ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
		"      %2 = stablehlo.compare  LT, %x, %y,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
		"      stablehlo.return %2 : tensor<i1>\n"
		"    }) {mhlo.sharding = \"{replicated}\"} : (tensor<1xi64>) -> tensor<1xi64>\n"
		"    %3 = \"my.unknown\"(%1) {x = unit} : (tensor<1xi64>) -> tensor<1xi64>\n"
		"    return %1 : tensor<1xi64>\n"));
	const struct pw_hlo_attr *a, *f;
	struct pw_hlo_op *op;

	ASSERT_NE(NULL, m);
	op = main_op(m, 0);
	ASSERT_TRUE(name_is(op, "stablehlo.gather"));
	a = pw_hlo_op_attr(op, "dimension_numbers");
	ASSERT_NE(NULL, a);
	EXPECT_STREQ("stablehlo.gather", a->text);
	f = pw_hlo_attr_field(a, "index_vector_dim");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(1, f->u);
	EXPECT_EQ(NULL, f->type);
	EXPECT_TRUE(I64S(pw_hlo_op_attr(op, "slice_sizes"), 1));
	op = main_op(m, 1);
	ASSERT_TRUE(name_is(op, "stablehlo.sort"));
	EXPECT_TRUE(is_int(pw_hlo_op_attr(op, "dimension"), 0, PW_HLO_DT_I64));
	ASSERT_EQ(1, op->nregions);
	EXPECT_STREQ("bb0", op->regions[0].blocks[0].label);
	EXPECT_EQ(2, op->regions[0].blocks[0].nargs);
	a = pw_hlo_op_attr(op, "mhlo.sharding");
	ASSERT_NE(NULL, a);
	EXPECT_STREQ("{replicated}", a->text);
	op = main_op(m, 2);
	ASSERT_TRUE(name_is(op, "my.unknown"));
	EXPECT_EQ(PW_HLO_ATTR_UNIT, pw_hlo_op_attr(op, "x")->kind);
	pw_hlo_free(m);
}

/* The bytes of the constant in `%c = stablehlo.constant @lit : @type`. */
static const struct pw_hlo_attr *constant(struct pw_hlo_module **m,
					  const char *lit, const char *type)
{
	static char text[4096];
	struct pw_hlo_op *op;

	snprintf(text, sizeof(text), MAIN("", "%s",
		 "    %%c = stablehlo.constant %s : %s\n"
		 "    return %%c : %s\n"), type, lit, type, type);
	*m = parse(text);
	op = main_op(*m, 0);
	return op ? pw_hlo_op_attr(op, "value") : NULL;
}

#define EXPECT_BYTES(a, ...) do { \
	static const uint8_t want_[] = { __VA_ARGS__ }; \
	ASSERT_NE(NULL, a); \
	ASSERT_EQ(sizeof(want_), (a)->nbytes); \
	EXPECT_EQ(0, memcmp((a)->bytes, want_, sizeof(want_))); \
} while (0)

TEST(constants_float)
{
	const struct pw_hlo_attr *a;
	struct pw_hlo_module *m;

	/* f32 list: 1.5, -0.0, hex NaN, 1e-45 (denormal), 0.1 */
	a = constant(&m, "dense<[1.5, -0.000000e+00, 0x7FC00000, 1.0e-45, "
		     "1.000000e-01]>", "tensor<5xf32>");
	EXPECT_BYTES(a, 0x00, 0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0x80,
		     0x00, 0x00, 0xC0, 0x7F, 0x01, 0x00, 0x00, 0x00,
		     0xCD, 0xCC, 0xCC, 0x3D);
	EXPECT_FALSE(a->splat);
	EXPECT_EQ(5, a->count);
	pw_hlo_free(m);
	/* f32 hex: the bytes as written */
	a = constant(&m, "dense<\"0x0000803F000000C0\">", "tensor<2xf32>");
	EXPECT_BYTES(a, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0);
	pw_hlo_free(m);
	/* a hex splat: one element for four */
	a = constant(&m, "dense<\"0x0000803F\">", "tensor<2x2xf32>");
	EXPECT_BYTES(a, 0x00, 0x00, 0x80, 0x3F);
	EXPECT_TRUE(a->splat);
	EXPECT_EQ(4, a->count);
	pw_hlo_free(m);
	/*
	 * bf16, to nearest even: 1.0, 3.140625 exact, 1.00390625 (a tie,
	 * down to 1.0), 1.01171875 (a tie, up to 1.015625), -inf, 1e-40
	 * (1.09 of the subnormal unit 2^-133: 0x0001), 3.3895e38 (the
	 * largest, 0x7F7F)
	 */
	a = constant(&m, "dense<[1.0, 3.140625, 1.00390625, 1.01171875, "
		     "-inf, 1.0e-40, 3.3895e+38]>", "tensor<7xbf16>");
	EXPECT_BYTES(a, 0x80, 0x3F, 0x49, 0x40, 0x80, 0x3F, 0x82, 0x3F,
		     0x80, 0xFF, 0x01, 0x00, 0x7F, 0x7F);
	pw_hlo_free(m);
	/*
	 * f16: 65504 (largest), 65520 (a tie above it: inf), 5.96e-8
	 * (smallest subnormal), 2.98e-8 (a tie below it: 0), 0.1, hex NaN
	 */
	a = constant(&m, "dense<[65504.0, 65520.0, 5.9604644775390625e-08, "
		     "2.98023223876953125e-08, 0.1, 0x7E00]>",
		     "tensor<6xf16>");
	EXPECT_BYTES(a, 0xFF, 0x7B, 0x00, 0x7C, 0x01, 0x00, 0x00, 0x00,
		     0x66, 0x2E, 0x00, 0x7E);
	pw_hlo_free(m);
	/* f64 splat */
	a = constant(&m, "dense<-2.5>", "tensor<3xf64>");
	EXPECT_BYTES(a, 0, 0, 0, 0, 0, 0, 0x04, 0xC0);
	EXPECT_TRUE(a->splat);
	pw_hlo_free(m);
	/* complex<f32>: (real, imaginary) */
	a = constant(&m, "dense<[(1.0, -2.0), (0.0, 0.5)]>",
		     "tensor<2xcomplex<f32>>");
	EXPECT_BYTES(a, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0,
		     0, 0, 0, 0, 0x00, 0x00, 0x00, 0x3F);
	EXPECT_EQ(PW_HLO_DT_C64, a->type->dtype);
	pw_hlo_free(m);
}

TEST(constants_int)
{
	const struct pw_hlo_attr *a;
	struct pw_hlo_module *m;

	a = constant(&m, "dense<[[true, false], [false, true]]>",
		     "tensor<2x2xi1>");
	EXPECT_BYTES(a, 1, 0, 0, 1);
	pw_hlo_free(m);
	a = constant(&m, "dense<true>", "tensor<3xi1>");
	EXPECT_BYTES(a, 1);
	EXPECT_TRUE(a->splat);
	pw_hlo_free(m);
	a = constant(&m, "dense<\"0x000101\">", "tensor<3xi1>");
	EXPECT_BYTES(a, 0, 1, 1);
	pw_hlo_free(m);
	a = constant(&m, "dense<[-1, 9223372036854775807, -9223372036854775808]>",
		     "tensor<3xi64>");
	EXPECT_BYTES(a, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F,
		     0, 0, 0, 0, 0, 0, 0, 0x80);
	pw_hlo_free(m);
	a = constant(&m, "dense<[0, 255, 7]>", "tensor<3xui8>");
	EXPECT_BYTES(a, 0, 255, 7);
	pw_hlo_free(m);
	a = constant(&m, "dense<[-128, 255]>", "tensor<2xi8>");
	EXPECT_BYTES(a, 0x80, 0xFF);
	pw_hlo_free(m);
	a = constant(&m, "dense<[1, 65535]>", "tensor<2xui16>");
	EXPECT_BYTES(a, 1, 0, 0xFF, 0xFF);
	pw_hlo_free(m);
	a = constant(&m, "dense<>", "tensor<0xi32>");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(0, a->nbytes);
	EXPECT_EQ(0, a->count);
	pw_hlo_free(m);
	/* An element type the runtime does not know: kept by name. */
	a = constant(&m, "dense<1.0>", "tensor<2xf8E4M3FN>");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(PW_HLO_DT_OTHER, a->type->dtype);
	EXPECT_STREQ("f8E4M3FN", a->type->name);
	EXPECT_EQ(NULL, a->bytes);
	pw_hlo_free(m);
}

/* @text must fail with @err and exactly @msg. */
#define EXPECT_ERROR(err, msg, text) do { \
	EXPECT_EQ(err, parse_err(text)); \
	EXPECT_STREQ(msg, errbuf); \
} while (0)

TEST(errors)
{
	EXPECT_ERROR(-EINVAL, "2:35: expected '>' closing the tensor type, "
		     "found ')'",
		     "module {\n  func.func @main(%a: tensor<2xf32) {\n"
		     "    return\n  }\n}\n");
	EXPECT_ERROR(-EINVAL, "3:35: hex data of 3 bytes for 2 elements of 4 "
		     "bytes: expected 8, or 4 for a splat",
		     MAIN("", "tensor<2xf32>",
			  "    %c = stablehlo.constant dense<\"0x000080\"> : "
			  "tensor<2xf32>\n    return %c : tensor<2xf32>\n"));
	EXPECT_ERROR(-EINVAL, "5:1: expected func.func or '}' closing the "
		     "module, found end of input",
		     "module {\n  func.func @main() {\n    return\n  }\n");
	EXPECT_ERROR(-EINVAL, "3:10: unknown op 'stablehlo.frobnicate' in "
		     "pretty form (no custom syntax is known for it; the "
		     "generic form \"stablehlo.frobnicate\"(...) is read for "
		     "any op)",
		     MAIN("%a: tensor<f32>", "tensor<f32>",
			  "    %0 = stablehlo.frobnicate %a : tensor<f32>\n"
			  "    return %0 : tensor<f32>\n"));
	EXPECT_ERROR(-EINVAL, "3:31: expected ':' before the op's types, "
		     "found '%3'",
		     MAIN("%a: tensor<f32>", "tensor<f32>",
			  "    %0 = stablehlo.add %a, %a %3 : tensor<f32>\n"
			  "    return %0 : tensor<f32>\n"));
	EXPECT_ERROR(-EINVAL, "3:39: expected an integer in range for ui8, "
		     "found '256'",
		     MAIN("", "tensor<2xui8>",
			  "    %c = stablehlo.constant dense<[1, 256]> : "
			  "tensor<2xui8>\n    return %c : tensor<2xui8>\n"));
	EXPECT_ERROR(-EINVAL, "3:39: expected an integer for i32, found "
		     "'1.5'",
		     MAIN("", "tensor<2xi32>",
			  "    %c = stablehlo.constant dense<[1, 1.5]> : "
			  "tensor<2xi32>\n    return %c : tensor<2xi32>\n"));
	EXPECT_ERROR(-EINVAL, "3:3: stablehlo.add has 2 operands and 1 "
		     "operand types",
		     "module {\n  func.func @main(%a: tensor<f32>) {\n"
		     "  %0 = \"stablehlo.add\"(%a, %a) : (tensor<f32>) -> "
		     "tensor<f32>\n  }\n}\n");
	EXPECT_ERROR(-EINVAL, "1:33: attribute 'a' given twice",
		     "module attributes {a = 1 : i32, a = 2 : i32} {\n}\n");
	EXPECT_ERROR(-EINVAL, "1:24: expected an attribute value, found '}'",
		     "module attributes {a = } {}");
	EXPECT_ERROR(-EINVAL, "3:1: expected an op, found end of input",
		     "module {\n func.func @main() {\n");
}

TEST(error_positions)
{
	/* An unterminated string: a token that is not one. */
	EXPECT_ERROR(-EINVAL, "1:24: expected an attribute value, found '\"' "
		     "(an unterminated string)",
		     "module attributes {a = \"abc\n} {}");
	EXPECT_ERROR(-EINVAL, "2:1: expected func.func, found 'garbage'",
		     "// a comment\ngarbage");
}

TEST(nesting_limit)
{
	char text[2048];
	size_t n;
	int i;

	/* [[[...]]] deeper than the limit */
	n = (size_t)snprintf(text, sizeof(text), "module attributes {a = ");
	for (i = 0; i < 100; i++)
		text[n++] = '[';
	for (i = 0; i < 100; i++)
		text[n++] = ']';
	snprintf(text + n, sizeof(text) - n, "} {}");
	EXPECT_EQ(-E2BIG, parse_err(text));
	EXPECT_STREQ("1:88: nested deeper than 64", errbuf);
	/* at the limit it reads */
	n = (size_t)snprintf(text, sizeof(text), "module attributes {a = ");
	for (i = 0; i < 60; i++)
		text[n++] = '[';
	for (i = 0; i < 60; i++)
		text[n++] = ']';
	snprintf(text + n, sizeof(text) - n, "} {}");
	EXPECT_EQ(0, parse_err(text));
}

/* complex<> inside complex<> is nesting too: bounded, not a crash. */
TEST(nested_complex_is_bounded)
{
	static char text[8192];
	size_t n;
	int i;

	n = (size_t)snprintf(text, sizeof(text),
			     "func.func @main(%%a: tensor<");
	for (i = 0; i < 500; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "complex<");
	n += (size_t)snprintf(text + n, sizeof(text) - n, "f32");
	for (i = 0; i < 500; i++)
		text[n++] = '>';
	snprintf(text + n, sizeof(text) - n, ">) { }");
	EXPECT_EQ(-E2BIG, parse_err(text));
	EXPECT_NE(NULL, strstr(errbuf, "nested deeper than 64")) TH_LOG("%s", errbuf);
}

/* Names longer than any buffer of the printer print whole. */
TEST(long_names_print_whole)
{
	static char text[2048], name[301];
	struct pw_hlo_module *m, *m2;
	char *a, *b;
	size_t la, lb;

	memset(name, 'v', 300);
	snprintf(text, sizeof(text),
		 "func.func @main(%%%s: tensor<f32>) -> tensor<f32> {\n"
		 "  %%%s_x = stablehlo.add %%%s, %%%s : tensor<f32>\n"
		 "  return %%%s_x : tensor<f32>\n}\n",
		 name, name, name, name, name);
	m = parse(text);
	ASSERT_NE(NULL, m);
	a = pw_hlo_print(m, &la);
	ASSERT_NE(NULL, a);
	EXPECT_NE(NULL, strstr(a, name));
	m2 = parse(a);
	ASSERT_NE(NULL, m2);
	b = pw_hlo_print(m2, &lb);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(la, lb);
	EXPECT_EQ(0, memcmp(a, b, la));
	free(a);
	free(b);
	pw_hlo_free(m);
	pw_hlo_free(m2);
}

TEST(truncated_input)
{
	static const char text[] =
		"module @m {\n"
		"  func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
		"    %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
		"    %0 = stablehlo.add %a, %c : tensor<2xf32>\n"
		"    %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>\n"
		"    return %0 : tensor<2xf32>\n"
		"  }\n"
		"}\n";
	size_t len = strlen(text), n;
	struct pw_hlo_module *m;
	char *copy;

	/*
	 * Each prefix in a heap copy of its own size, so that ASan sees an
	 * overread. The empty one is an empty module, as in MLIR.
	 */
	for (n = 1; n < len - 1; n++) {
		copy = malloc(n ? n : 1);
		ASSERT_NE(NULL, copy);
		memcpy(copy, text, n);
		m = NULL;
		EXPECT_EQ(-EINVAL, pw_hlo_parse(copy, n, &m, errbuf,
						 sizeof(errbuf)));
		EXPECT_EQ(NULL, m);
		free(copy);
	}
	EXPECT_EQ(0, pw_hlo_parse(text, len - 1, &m, errbuf, sizeof(errbuf)));
	pw_hlo_free(m);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Every program: read, print, read, print the same; each has @main. */
TEST(corpus_fixed_point)
{
	unsigned int files = 0, good = 0;
	struct dirent *de;
	DIR *d = opendir(CORPUS);

	if (!d)
		SKIP(return, "no corpus at %s", CORPUS);
	while ((de = readdir(d))) {
		struct pw_hlo_module *m = NULL, *m2 = NULL;
		char path[512], *a = NULL, *b = NULL, *text;
		size_t n = strlen(de->d_name), la = 0, lb = 0, len;

		if (n < 5 || strcmp(de->d_name + n - 5, ".mlir"))
			continue;
		files++;
		snprintf(path, sizeof(path), "%s/%s", CORPUS, de->d_name);
		text = read_all(path, &len);
		if (!text) {
			fprintf(stderr, "# %s: unreadable\n", path);
			continue;
		}
		if (pw_hlo_parse(text, len, &m, errbuf, sizeof(errbuf))) {
			fprintf(stderr, "# %s:%s\n", path, errbuf);
		} else if (!pw_hlo_find_func(m, "main")) {
			fprintf(stderr, "# %s: no @main\n", path);
		} else if (!(a = pw_hlo_print(m, &la)) ||
			   pw_hlo_parse(a, la, &m2, errbuf, sizeof(errbuf))) {
			fprintf(stderr, "# %s: printed, read again: %s\n",
				path, errbuf);
		} else if (!(b = pw_hlo_print(m2, &lb)) || la != lb ||
			   memcmp(a, b, la)) {
			fprintf(stderr, "# %s: printed twice, not the same\n",
				path);
		} else {
			good++;
		}
		free(a);
		free(b);
		free(text);
		pw_hlo_free(m);
		pw_hlo_free(m2);
	}
	closedir(d);
	fprintf(stderr, "# %u of %u programs read and printed back\n", good,
		files);
	EXPECT_LT(0, files);
	EXPECT_EQ(files, good);
}

TEST_HARNESS_MAIN
