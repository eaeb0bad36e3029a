module @jit__one attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"}) -> (tensor<4x4xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[1,4]<=[4]}"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
}
