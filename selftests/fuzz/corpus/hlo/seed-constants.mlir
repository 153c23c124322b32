module {
  func.func private @c() -> (tensor<2xbf16>, tensor<3xi1>, tensor<2xcomplex<f32>>, tensor<2xui8>, tensor<3xf16>) {
    %a = stablehlo.constant dense<[1.00390625, -3.5]> : tensor<2xbf16>
    %b = stablehlo.constant dense<"0x000101"> : tensor<3xi1>
    %c = stablehlo.constant dense<[(1.0, -2.0), (0.0, 0.5)]> : tensor<2xcomplex<f32>>
    %d = stablehlo.constant dense<[0, 255]> : tensor<2xui8>
    %e = stablehlo.constant dense<"0x003C"> : tensor<3xf16>
    %f = "stablehlo.constant"() <{value = dense<-1> : tensor<i64>}> : () -> tensor<i64>
    %g = stablehlo.constant dense<true> : tensor<4xi1>
    return %a, %b, %c, %d, %e : tensor<2xbf16>, tensor<3xi1>, tensor<2xcomplex<f32>>, tensor<2xui8>, tensor<3xf16>
  }
  func.func public @main() -> !stablehlo.token {
    %0:5 = call @c() : () -> (tensor<2xbf16>, tensor<3xi1>, tensor<2xcomplex<f32>>, tensor<2xui8>, tensor<3xf16>)
    %t = stablehlo.create_token : !stablehlo.token
    %g = "stablehlo.triangular_solve"(%0#4, %0#4) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
    return %t : !stablehlo.token
  }
}
