module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2x6x6xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<2x2x6x6xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %28 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %28 : tensor<f32>
    }) : (tensor<2x2x6x6xf32>, tensor<f32>) -> tensor<2x2x3x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.reduce_window"(%arg0, %2) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %28 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %28 : tensor<f32>
    }) : (tensor<2x2x6x6xf32>, tensor<f32>) -> tensor<2x2x6x6xf32>
    %cst_1 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x2x6x6xf32>
    %5 = stablehlo.divide %3, %4 : tensor<2x2x6x6xf32>
    %6 = stablehlo.multiply %1, %1 : tensor<2x2x3x3xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x2x3x3xf32>
    %8 = stablehlo.multiply %7, %1 : tensor<2x2x3x3xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_3) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<2x2x3x3xf32>, tensor<f32>) -> tensor<f32>
    %10 = stablehlo.multiply %5, %arg0 : tensor<2x2x6x6xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_4) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<2x2x6x6xf32>, tensor<f32>) -> tensor<f32>
    %12 = stablehlo.add %9, %11 : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x6x6xf32>
    %14 = stablehlo.multiply %5, %13 : tensor<2x2x6x6xf32>
    %15 = stablehlo.multiply %13, %arg0 : tensor<2x2x6x6xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x2x3x3xf32>
    %17 = stablehlo.multiply %16, %8 : tensor<2x2x3x3xf32>
    %cst_7 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x2x6x6xf32>
    %19 = stablehlo.divide %15, %18 : tensor<2x2x6x6xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.pad %19, %cst_8, low = [0, 0, 1, 1], high = [0, 0, 1, 1], interior = [0, 0, 0, 0] : (tensor<2x2x6x6xf32>, tensor<f32>) -> tensor<2x2x8x8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<f32>
    %22 = "stablehlo.reduce_window"(%20, %21) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %28 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %28 : tensor<f32>
    }) : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x6x6xf32>
    %23 = stablehlo.add %14, %22 : tensor<2x2x6x6xf32>
    %cst_10 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %24 = stablehlo.pad %arg0, %cst_10, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x2x6x6xf32>, tensor<f32>) -> tensor<2x2x6x6xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = "stablehlo.select_and_scatter"(%24, %17, %cst_11) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %28 = stablehlo.compare GE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %28 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %28 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %28 : tensor<f32>
    }) : (tensor<2x2x6x6xf32>, tensor<2x2x3x3xf32>, tensor<f32>) -> tensor<2x2x6x6xf32>
    %26 = stablehlo.slice %25 [0:2, 0:2, 0:6, 0:6] : (tensor<2x2x6x6xf32>) -> tensor<2x2x6x6xf32>
    %27 = stablehlo.add %23, %26 : tensor<2x2x6x6xf32>
    return %12, %27 : tensor<f32>, tensor<2x2x6x6xf32>
  }
}
