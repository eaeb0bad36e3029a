module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<4xi32>) -> (tensor<2x3xi32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<2x3xui32> {jax.result_info = "result[2]"}, tensor<2x3x4xui8> {jax.result_info = "result[3]"}, tensor<2x3xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3x4xui8>
    %1 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
    %2 = stablehlo.bitcast_convert %arg1 : (tensor<4xi32>) -> tensor<4xf32>
    %3 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xui32>
    %c = stablehlo.constant dense<23> : tensor<ui32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<2x3xui32>
    %5 = stablehlo.shift_right_logical %3, %4 : tensor<2x3xui32>
    %6 = stablehlo.reverse %0, dims = [0] : tensor<2x3x4xui8>
    %7 = stablehlo.bitcast_convert %6 : (tensor<2x3x4xui8>) -> tensor<2x3xf32>
    return %1, %2, %5, %0, %7 : tensor<2x3xi32>, tensor<4xf32>, tensor<2x3xui32>, tensor<2x3x4xui8>, tensor<2x3xf32>
  }
}
