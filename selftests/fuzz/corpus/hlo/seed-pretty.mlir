module @m attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%a: tensor<2x3xf32>, %i: tensor<i64>, %p: tensor<2x3xi1>) -> (tensor<2xf32> {jax.result_info = ""}) {
    %c = stablehlo.constant dense<[[1.5, -2.0, 0x7FC00000], [inf, 0.1, 3]]> : tensor<2x3xf32>
    %0 = stablehlo.compare  GT, %a, %c,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %1 = stablehlo.select %0, %a, %c : tensor<2x3xi1>, tensor<2x3xf32>
    %2 = stablehlo.slice %1 [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %3 = stablehlo.iota dim = 1 : tensor<2x3xi32>
    %4 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %5 = stablehlo.pad %a, %z, low = [0, 1], high = [2, 0], interior = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x6xf32>
    %6 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>
    %7 = stablehlo.reduce_precision %a, format = e5m10 : tensor<2x3xf32>
    %8 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %9 = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i64>) -> tensor<2x3xi64>
    %10 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %11, %12 = chlo.top_k(%a, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
    %13 = chlo.lgamma %a : tensor<2x3xf32> -> tensor<2x3xf32>
    %14 = stablehlo.convert %3 : (tensor<2x3xi32>) -> tensor<2x3xbf16>
    stablehlo.custom_call @check.expect_close(%10, %10) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    return %10 : tensor<2xf32>
  }
}
