
module @jit_main attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2xi1> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<2xi1>
    %1 = call @expected() : () -> tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%0, %1) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()
    return %0 : tensor<2xi1>
  }
  func.func private @inputs() -> (tensor<2xi1> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<true> : tensor<2xi1>
    return %c : tensor<2xi1>
  }
  func.func private @expected() -> (tensor<2xi1> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<true> : tensor<2xi1>
    return %c : tensor<2xi1>
  }
}
