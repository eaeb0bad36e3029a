module @jit__pair attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<4x4xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, tensor<4x4xf32> {jax.result_info = "result[1]", mhlo.layout_mode = "{0,1}", sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x4xf32>
    return %1, %3 : tensor<4x4xf32>, tensor<4x4xf32>
  }
}
