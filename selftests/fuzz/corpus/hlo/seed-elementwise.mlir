module @jit_ew {
  func.func public @main(%x: tensor<4xi32>, %f: tensor<2x2xf32>, %d: tensor<3xf64>) -> (tensor<4xi32>, tensor<2x2xf32>, tensor<3xf64>, tensor<2x2x2xbf16>, tensor<4xi1>) {
    %c = stablehlo.constant dense<[0, 1, 31, 33]> : tensor<4xi32>
    %0 = stablehlo.shift_left %x, %c : tensor<4xi32>
    %1 = stablehlo.shift_right_arithmetic %0, %c : tensor<4xi32>
    %2 = stablehlo.shift_right_logical %1, %c : tensor<4xi32>
    %3 = stablehlo.popcnt %2 : tensor<4xi32>
    %4 = stablehlo.count_leading_zeros %3 : tensor<4xi32>
    %5 = stablehlo.and %4, %x : tensor<4xi32>
    %6 = stablehlo.or %5, %c : tensor<4xi32>
    %7 = stablehlo.xor %6, %x : tensor<4xi32>
    %8 = stablehlo.not %7 : tensor<4xi32>
    %9 = stablehlo.power %8, %c : tensor<4xi32>
    %10 = stablehlo.remainder %9, %x : tensor<4xi32>
    %s = stablehlo.sine %f : tensor<2x2xf32>
    %k = stablehlo.cosine %s : tensor<2x2xf32>
    %t = chlo.tan %k : tensor<2x2xf32> -> tensor<2x2xf32>
    %a = stablehlo.atan2 %t, %f : tensor<2x2xf32>
    %r = stablehlo.round_nearest_even %a : tensor<2x2xf32>
    %q = stablehlo.reduce_precision %r, format = e5m2 : tensor<2x2xf32>
    %b = stablehlo.bitcast_convert %q : (tensor<2x2xf32>) -> tensor<2x2x2xbf16>
    %e = stablehlo.exponential_minus_one %d : tensor<3xf64>
    %l = stablehlo.log_plus_one %e : tensor<3xf64>
    %g = stablehlo.logistic %l : tensor<3xf64>
    %h = stablehlo.cbrt %g : tensor<3xf64>
    %w = stablehlo.sqrt %h : tensor<3xf64>
    %z = stablehlo.floor %w : tensor<3xf64>
    %p = stablehlo.compare NE, %x, %c, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %n = stablehlo.not %p : tensor<4xi1>
    return %10, %q, %z, %b, %n : tensor<4xi32>, tensor<2x2xf32>, tensor<3xf64>, tensor<2x2x2xbf16>, tensor<4xi1>
  }
}
