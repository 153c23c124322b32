module @lower {
  func.func public @main(%x: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<2x2xf32>, tensor<3x2xi1>) {
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    %1 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
    %2 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %4 = stablehlo.compare GT, %2, %3, FLOAT : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xi1>
    %5 = call @twice(%0) : (tensor<3xf32>) -> tensor<3xf32>
    stablehlo.custom_call @check.expect_close(%5, %0) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    return %5, %1, %4 : tensor<3xf32>, tensor<2x2xf32>, tensor<3x2xi1>
  }
  func.func private @twice(%y: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.add %y, %y : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
