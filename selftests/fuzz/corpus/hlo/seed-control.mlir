module @jit_control {
  func.func public @main(%n: tensor<i32>, %p: tensor<i1>, %x: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>, tensor<2xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%i = %c0, %s = %c0, %v = %x) : tensor<i32>, tensor<i32>, tensor<2xf32>
     cond {
      %lt = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %f:3 = stablehlo.while(%a = %c0, %b = %c1, %k = %i) : tensor<i32>, tensor<i32>, tensor<i32>
       cond {
        %gt = stablehlo.compare  GT, %k, %c0,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %gt : tensor<i1>
      } do {
        %ab = stablehlo.add %a, %b : tensor<i32>
        %k1 = stablehlo.subtract %k, %c1 : tensor<i32>
        stablehlo.return %b, %ab, %k1 : tensor<i32>, tensor<i32>, tensor<i32>
      }
      %w = "stablehlo.if"(%p) ({
        %d = stablehlo.add %v, %v : tensor<2xf32>
        stablehlo.return %d : tensor<2xf32>
      }, {
        %e = stablehlo.negate %v : tensor<2xf32>
        stablehlo.return %e : tensor<2xf32>
      }) : (tensor<i1>) -> tensor<2xf32>
      %s1 = stablehlo.add %s, %f#0 : tensor<i32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %i1, %s1, %w : tensor<i32>, tensor<i32>, tensor<2xf32>
    }
    %1 = "stablehlo.case"(%n) ({
      %a = stablehlo.negate %x : tensor<2xf32>
      stablehlo.return %a : tensor<2xf32>
    }, {
      stablehlo.return %x : tensor<2xf32>
    }) : (tensor<i32>) -> tensor<2xf32>
    return %0#1, %0#2, %1 : tensor<i32>, tensor<2xf32>, tensor<2xf32>
  }
}
