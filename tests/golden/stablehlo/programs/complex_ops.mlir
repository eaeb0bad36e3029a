module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<3x4xcomplex<f32>>) -> (tensor<3x4xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<3x4xf32> {jax.result_info = "result[3]"}, tensor<3x4xf32> {jax.result_info = "result[4]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<3x4xf32> {jax.result_info = "result[8]"}, tensor<3x4xf32> {jax.result_info = "result[9]"}, tensor<3x3xcomplex<f32>> {jax.result_info = "result[10]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<3x4xcomplex<f32>>
    %1 = stablehlo.multiply %0, %arg2 : tensor<3x4xcomplex<f32>>
    %2 = stablehlo.divide %0, %arg2 : tensor<3x4xcomplex<f32>>
    %3 = stablehlo.real %arg2 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %4 = stablehlo.imag %arg2 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %5 = stablehlo.negate %4 : tensor<3x4xf32>
    %6 = stablehlo.complex %3, %5 : tensor<3x4xcomplex<f32>>
    %7 = stablehlo.abs %arg2 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %8 = call @angle(%arg2) : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %9 = stablehlo.exponential %arg2 : tensor<3x4xcomplex<f32>>
    %10 = stablehlo.log %arg2 : tensor<3x4xcomplex<f32>>
    %11 = stablehlo.sqrt %arg2 : tensor<3x4xcomplex<f32>>
    %12 = stablehlo.multiply %arg2, %arg2 : tensor<3x4xcomplex<f32>>
    %13 = stablehlo.real %12 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %14 = stablehlo.imag %arg2 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %15 = stablehlo.reshape %arg2 : (tensor<3x4xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
    %16 = stablehlo.dot_general %0, %15, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xcomplex<f32>>, tensor<4x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>>
    return %1, %2, %6, %7, %8, %9, %10, %11, %13, %14, %16 : tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x3xcomplex<f32>>
  }
  func.func private @angle(%arg0: tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32> {
    %0 = stablehlo.real %arg0 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %1 = stablehlo.imag %arg0 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
    %2 = stablehlo.atan2 %1, %0 : tensor<3x4xf32>
    return %2 : tensor<3x4xf32>
  }
}
