// SPDX-License-Identifier: GPL-2.0
/*
 * hlo_lower_ops.c - which StableHLO ops the lowering knows, and the
 * handler of each. An op not here is "not supported yet", by name.
 */
#include <string.h>

#include "hlo_lower_impl.h"

static const struct hlo_op_entry ops[] = {
	{ "stablehlo.constant", hlo_lower_constant, 0 },
	{ "stablehlo.iota", hlo_lower_iota, 0 },
	{ "stablehlo.add", hlo_lower_binary, HLO_ADD },
	{ "stablehlo.subtract", hlo_lower_binary, HLO_SUB },
	{ "stablehlo.multiply", hlo_lower_binary, HLO_MUL },
	{ "stablehlo.divide", hlo_lower_binary, HLO_DIV },
	{ "stablehlo.maximum", hlo_lower_binary, HLO_MAX },
	{ "stablehlo.minimum", hlo_lower_binary, HLO_MIN },
	{ "stablehlo.and", hlo_lower_binary, HLO_AND },
	{ "stablehlo.or", hlo_lower_binary, HLO_OR },
	{ "stablehlo.xor", hlo_lower_binary, HLO_XOR },
	{ "stablehlo.negate", hlo_lower_unary, HLO_NEG },
	{ "stablehlo.abs", hlo_lower_unary, HLO_ABS },
	{ "stablehlo.exponential", hlo_lower_unary, HLO_EXP },
	{ "stablehlo.log", hlo_lower_unary, HLO_LOG },
	{ "stablehlo.tanh", hlo_lower_unary, HLO_TANH },
	{ "stablehlo.rsqrt", hlo_lower_unary, HLO_RSQRT },
	{ "stablehlo.not", hlo_lower_unary, HLO_NOT },
	{ "stablehlo.compare", hlo_lower_compare, 0 },
	{ "stablehlo.select", hlo_lower_select, 0 },
	{ "stablehlo.convert", hlo_lower_convert, 0 },
	{ "stablehlo.clamp", hlo_lower_clamp, 0 },
	{ "stablehlo.sign", hlo_lower_sign, 0 },
	{ "stablehlo.is_finite", hlo_lower_is_finite, 0 },
	{ "stablehlo.remainder", hlo_lower_device_binary, PWTPU_OP_REM },
	{ "stablehlo.shift_left", hlo_lower_device_binary, PWTPU_OP_SHL },
	{ "stablehlo.shift_right_logical", hlo_lower_device_binary,
	  PWTPU_OP_SHR_LOGICAL },
	{ "stablehlo.shift_right_arithmetic", hlo_lower_device_binary,
	  PWTPU_OP_SHR_ARITH },
	{ "stablehlo.atan2", hlo_lower_device_binary, PWTPU_OP_ATAN2 },
	{ "stablehlo.power", hlo_lower_device_binary, PWTPU_OP_POW },
	{ "stablehlo.popcnt", hlo_lower_device_unary, PWTPU_OP_POPCNT },
	{ "stablehlo.count_leading_zeros", hlo_lower_device_unary,
	  PWTPU_OP_CLZ },
	{ "stablehlo.floor", hlo_lower_device_unary, PWTPU_OP_FLOOR },
	{ "stablehlo.ceil", hlo_lower_device_unary, PWTPU_OP_CEIL },
	{ "stablehlo.round_nearest_even", hlo_lower_device_unary,
	  PWTPU_OP_ROUND_EVEN },
	{ "stablehlo.round_nearest_afz", hlo_lower_device_unary,
	  PWTPU_OP_ROUND_AFZ },
	{ "stablehlo.sqrt", hlo_lower_device_unary, PWTPU_OP_SQRT },
	{ "stablehlo.cbrt", hlo_lower_device_unary, PWTPU_OP_CBRT },
	{ "stablehlo.sine", hlo_lower_device_unary, PWTPU_OP_SIN },
	{ "stablehlo.cosine", hlo_lower_device_unary, PWTPU_OP_COS },
	{ "stablehlo.tan", hlo_lower_device_unary, PWTPU_OP_TAN },
	{ "chlo.tan", hlo_lower_device_unary, PWTPU_OP_TAN },
	{ "stablehlo.log_plus_one", hlo_lower_device_unary, PWTPU_OP_LOG1P },
	{ "stablehlo.exponential_minus_one", hlo_lower_device_unary,
	  PWTPU_OP_EXPM1 },
	{ "stablehlo.logistic", hlo_lower_device_unary, PWTPU_OP_LOGISTIC },
	{ "stablehlo.bitcast_convert", hlo_lower_bitcast_convert, 0 },
	{ "stablehlo.reduce_precision", hlo_lower_reduce_precision, 0 },
	{ "stablehlo.broadcast_in_dim", hlo_lower_broadcast_in_dim, 0 },
	{ "stablehlo.broadcast", hlo_lower_broadcast, 0 },
	{ "stablehlo.reshape", hlo_lower_reshape, 0 },
	{ "stablehlo.transpose", hlo_lower_transpose, 0 },
	{ "stablehlo.slice", hlo_lower_slice, 0 },
	{ "stablehlo.concatenate", hlo_lower_concatenate, 0 },
	{ "stablehlo.pad", hlo_lower_pad, 0 },
	{ "stablehlo.reverse", hlo_lower_reverse, 0 },
	{ "stablehlo.dynamic_slice", hlo_lower_dynamic_slice, 0 },
	{ "stablehlo.dynamic_update_slice", hlo_lower_dynamic_update_slice, 0 },
	{ "stablehlo.optimization_barrier", hlo_lower_identity, 0 },
	{ "stablehlo.reduce", hlo_lower_reduce, 0 },
	{ "stablehlo.reduce_window", hlo_lower_reduce_window, 0 },
	{ "stablehlo.sort", hlo_lower_sort, 0 },
	{ "chlo.top_k", hlo_lower_top_k, 0 },
	{ "stablehlo.select_and_scatter", hlo_lower_select_and_scatter, 0 },
	{ "stablehlo.dot_general", hlo_lower_dot, 0 },
	{ "stablehlo.dot", hlo_lower_dot, 0 },
	{ "stablehlo.convolution", hlo_lower_convolution, 0 },
	{ "stablehlo.all_reduce", hlo_lower_all_reduce, 0 },
	{ "stablehlo.scatter", hlo_lower_scatter, 0 },
	{ "stablehlo.gather", hlo_lower_gather, 0 },
	{ "stablehlo.while", hlo_lower_while, 0 },
	{ "stablehlo.case", hlo_lower_case, 0 },
	{ "stablehlo.if", hlo_lower_case, 1 },
};

const struct hlo_op_entry *hlo_find_op(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(ops[i].name, name))
			return &ops[i];
	return NULL;
}
