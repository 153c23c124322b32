module {
  func.func public @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %i: tensor<i64>, %x: tensor<1x8x8x2xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<i64> {
    %0:2 = stablehlo.while(%it = %i, %acc = %i) : tensor<i64>, tensor<i64>
     cond {
      %c = stablehlo.compare  LT, %it, %acc,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i64>
      %n = stablehlo.add %it, %one : tensor<i64>
      stablehlo.return %n, %acc : tensor<i64>, tensor<i64>
    }
    %1 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %2 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [2, 0]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x4x6x4xf32>
    %3:2 = stablehlo.reduce(%a init: %z), (%b init: %y) across dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x4xf32>, tensor<2x5xf32>)
     reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<f32>, %s: tensor<f32>)  {
      %4 = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %4, %r : tensor<f32>, tensor<f32>
    }
    %5 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %6 = stablehlo.compare  LT, %u, %v,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    }) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %7 = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[1, 0], [0, 0], [0, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 2, 1, 1>}> ({
    ^bb0(%l: tensor<f32>, %m: tensor<f32>):
      %8 = stablehlo.add %l, %m : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    return %0#1 : tensor<i64>
  }
}
