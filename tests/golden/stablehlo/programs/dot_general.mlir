module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>, %arg1: tensor<2x5x4x6xf32>, %arg2: tensor<2x3x4xf32>, %arg3: tensor<2x4x5xf32>, %arg4: tensor<3x4xi8>, %arg5: tensor<4x5xi8>) -> (tensor<2x3x6xf32> {jax.result_info = "result[0]"}, tensor<2x3x5xf32> {jax.result_info = "result[1]"}, tensor<2x6x2xf32> {jax.result_info = "result[2]"}, tensor<3x4x5xf32> {jax.result_info = "result[3]"}, tensor<3xf32> {jax.result_info = "result[4]"}, tensor<3x5xi32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2, 3] x [2, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4x5xf32>, tensor<2x5x4x6xf32>) -> tensor<2x3x6xf32>
    %1 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x4x2xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x4x2xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<5x4x2xf32>
    %5 = stablehlo.dot_general %arg1, %4, contracting_dims = [1, 2] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x4x6xf32>, tensor<5x4x2xf32>) -> tensor<2x6x2xf32>
    %6 = stablehlo.slice %arg2 [0:1, 0:3, 0:4] : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
    %8 = stablehlo.slice %arg3 [0:1, 0:1, 0:5] : (tensor<2x4x5xf32>) -> tensor<1x1x5xf32>
    %9 = stablehlo.reshape %8 : (tensor<1x1x5xf32>) -> tensor<5xf32>
    %10 = stablehlo.dot_general %7, %9, contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<5xf32>) -> tensor<3x4x5xf32>
    %11 = stablehlo.slice %arg2 [1:2, 0:3, 0:4] : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
    %12 = stablehlo.reshape %11 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
    %13 = stablehlo.slice %arg3 [1:2, 0:4, 0:1] : (tensor<2x4x5xf32>) -> tensor<1x4x1xf32>
    %14 = stablehlo.reshape %13 : (tensor<1x4x1xf32>) -> tensor<4xf32>
    %15 = stablehlo.dot_general %12, %14, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
    %16 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xi8>, tensor<4x5xi8>) -> tensor<3x5xi32>
    return %0, %1, %5, %10, %15, %16 : tensor<2x3x6xf32>, tensor<2x3x5xf32>, tensor<2x6x2xf32>, tensor<3x4x5xf32>, tensor<3xf32>, tensor<3x5xi32>
  }
}
