module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<4xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<16x4xf32>, %arg4: tensor<5x8xf32>, %arg5: tensor<5x4xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]['b1']"}, tensor<4xf32> {jax.result_info = "result[1]['b2']"}, tensor<8x16xf32> {jax.result_info = "result[1]['w1']"}, tensor<16x4xf32> {jax.result_info = "result[1]['w2']"}) {
    %0 = stablehlo.dot_general %arg4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<5x16xf32>
    %3 = stablehlo.add %0, %2 : tensor<5x16xf32>
    %4 = call @relu(%3) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<5x16xf32>, tensor<5x16xf32>) -> tensor<5x16xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %8 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x16xf32>, tensor<16x4xf32>) -> tensor<5x4xf32>
    %9 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<5x4xf32>
    %11 = stablehlo.add %8, %10 : tensor<5x4xf32>
    %12 = stablehlo.tanh %11 : tensor<5x4xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %14 = stablehlo.subtract %13, %12 : tensor<5x4xf32>
    %15 = stablehlo.subtract %12, %arg5 : tensor<5x4xf32>
    %16 = stablehlo.multiply %15, %15 : tensor<5x4xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %18 = stablehlo.multiply %17, %15 : tensor<5x4xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%16 init: %cst_3) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_4 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %20 = stablehlo.divide %19, %cst_4 : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %21 = stablehlo.divide %cst_5, %cst_6 : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %23 = stablehlo.multiply %22, %18 : tensor<5x4xf32>
    %24 = stablehlo.multiply %23, %14 : tensor<5x4xf32>
    %25 = stablehlo.multiply %24, %12 : tensor<5x4xf32>
    %26 = stablehlo.add %24, %25 : tensor<5x4xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>
    %28 = stablehlo.reshape %27 : (tensor<4xf32>) -> tensor<1x4xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<4xf32>
    %30 = stablehlo.dot_general %26, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x4xf32>, tensor<5x16xf32>) -> tensor<4x16xf32>
    %31 = stablehlo.transpose %30, dims = [1, 0] : (tensor<4x16xf32>) -> tensor<16x4xf32>
    %32 = stablehlo.dot_general %26, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<5x4xf32>, tensor<16x4xf32>) -> tensor<5x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %34 = stablehlo.select %6, %32, %33 : tensor<5x16xi1>, tensor<5x16xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.reduce(%34 init: %cst_10) applies stablehlo.add across dimensions = [0] : (tensor<5x16xf32>, tensor<f32>) -> tensor<16xf32>
    %36 = stablehlo.reshape %35 : (tensor<16xf32>) -> tensor<1x16xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.reduce(%36 init: %cst_11) applies stablehlo.add across dimensions = [0] : (tensor<1x16xf32>, tensor<f32>) -> tensor<16xf32>
    %38 = stablehlo.dot_general %34, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x16xf32>, tensor<5x8xf32>) -> tensor<16x8xf32>
    %39 = stablehlo.transpose %38, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    return %20, %37, %29, %39, %31 : tensor<f32>, tensor<16xf32>, tensor<4xf32>, tensor<8x16xf32>, tensor<16x4xf32>
  }
  func.func private @relu(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<5x16xf32>
    return %1 : tensor<5x16xf32>
  }
}
