module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x4x4x2xf32>, %arg1: tensor<3x3x2x3xf32>, %arg2: tensor<2x4x6x6xf32>, %arg3: tensor<6x2x3x3xf32>) -> (tensor<1x8x8x3xf32> {jax.result_info = "result[0]"}, tensor<2x4x6x6xf32> {jax.result_info = "result[1]"}, tensor<6x2x3x3xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x8x8x3xf32>
    %1 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x6x6xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x3x3xf32>
    %2 = stablehlo.tanh %1 : tensor<2x6x3x3xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x6x3x3xf32>
    %4 = stablehlo.subtract %3, %2 : tensor<2x6x3x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%2 init: %cst_0) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<2x6x3x3xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x6x3x3xf32>
    %7 = stablehlo.multiply %6, %4 : tensor<2x6x3x3xf32>
    %8 = stablehlo.multiply %7, %2 : tensor<2x6x3x3xf32>
    %9 = stablehlo.add %7, %8 : tensor<2x6x3x3xf32>
    %10 = stablehlo.convolution(%arg2, %9) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[f, b, 0, 1], window = {stride = [1, 1], pad = [[1, 0], [1, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x6x6xf32>, tensor<2x6x3x3xf32>) -> tensor<6x2x3x3xf32>
    %11 = stablehlo.reshape %arg3 : (tensor<6x2x3x3xf32>) -> tensor<2x3x2x3x3xf32>
    %12 = stablehlo.transpose %11, dims = [1, 0, 2, 3, 4] : (tensor<2x3x2x3x3xf32>) -> tensor<3x2x2x3x3xf32>
    %13 = stablehlo.reshape %12 : (tensor<3x2x2x3x3xf32>) -> tensor<3x4x3x3xf32>
    %14 = stablehlo.reverse %13, dims = [2, 3] : tensor<3x4x3x3xf32>
    %15 = stablehlo.convolution(%9, %14) dim_numbers = [b, f, 0, 1]x[i, o, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x6x3x3xf32>, tensor<3x4x3x3xf32>) -> tensor<2x4x6x6xf32>
    return %0, %15, %10 : tensor<1x8x8x3xf32>, tensor<2x4x6x6xf32>, tensor<6x2x3x3xf32>
  }
}
