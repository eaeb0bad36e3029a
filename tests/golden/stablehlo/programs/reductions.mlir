module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x5xf32>, %arg1: tensor<3x4x5xi32>) -> (tensor<4x5xf32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}, tensor<3x4xf32> {jax.result_info = "result[3]"}, tensor<f32> {jax.result_info = "result[4]"}, tensor<3x5xi32> {jax.result_info = "result[5]"}, tensor<3x4xi32> {jax.result_info = "result[6]"}, tensor<3x4x5xf32> {jax.result_info = "result[7]"}, tensor<3x4xf32> {jax.result_info = "result[8]"}, tensor<4x5xi32> {jax.result_info = "result[9]"}, tensor<i32> {jax.result_info = "result[10]"}, tensor<3x5xi32> {jax.result_info = "result[11]"}, tensor<3x4x5xi32> {jax.result_info = "result[12]"}, tensor<4x5xi1> {jax.result_info = "result[13]"}, tensor<3xi1> {jax.result_info = "result[14]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<3x5xf32>
    %cst_1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.minimum across dimensions = [0, 2] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_2 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x4x5xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<3x4x5xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x4x5xf32>
    %6 = stablehlo.add %5, %4 : tensor<3x4x5xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_4) applies stablehlo.multiply across dimensions = [2] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<3x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%arg0 init: %cst_5) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<6.000000e+01> : tensor<f32>
    %9 = stablehlo.divide %8, %cst_6 : tensor<f32>
    %10 = call @argmax(%arg0) : (tensor<3x4x5xf32>) -> tensor<3x5xi32>
    %11 = call @argmin(%arg1) : (tensor<3x4x5xi32>) -> tensor<3x4xi32>
    %12 = call @cumsum(%arg0) : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %13 = stablehlo.reduce(%arg0 init: %cst_7) applies stablehlo.maximum across dimensions = [2] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<3x4xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %15 = stablehlo.maximum %14, %13 : tensor<3x4xf32>
    %16 = stablehlo.is_finite %15 : (tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %18 = stablehlo.select %16, %15, %17 : tensor<3x4xi1>, tensor<3x4xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<3x4xf32>) -> tensor<3x4x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<3x4x1xf32>) -> tensor<3x4x5xf32>
    %21 = stablehlo.subtract %arg0, %20 : tensor<3x4x5xf32>
    %22 = stablehlo.exponential %21 : tensor<3x4x5xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<3x4xf32>
    %24 = stablehlo.sign %23 : tensor<3x4xf32>
    %25 = stablehlo.abs %23 : tensor<3x4xf32>
    %26 = stablehlo.log %25 : tensor<3x4xf32>
    %27 = stablehlo.add %26, %18 : tensor<3x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %28 = stablehlo.reduce(%arg1 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<3x4x5xi32>, tensor<i32>) -> tensor<4x5xi32>
    %c_11 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %29 = stablehlo.reduce(%arg1 init: %c_11) applies stablehlo.maximum across dimensions = [0, 1, 2] : (tensor<3x4x5xi32>, tensor<i32>) -> tensor<i32>
    %c_12 = stablehlo.constant dense<1> : tensor<i32>
    %30 = stablehlo.reduce(%arg1 init: %c_12) applies stablehlo.multiply across dimensions = [1] : (tensor<3x4x5xi32>, tensor<i32>) -> tensor<3x5xi32>
    %31 = call @cumsum_1(%arg1) : (tensor<3x4x5xi32>) -> tensor<3x4x5xi32>
    %cst_13 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<3x4x5xf32>
    %33 = stablehlo.compare GT, %arg0, %32, FLOAT : (tensor<3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<3x4x5xi1>
    %c_14 = stablehlo.constant dense<false> : tensor<i1>
    %34 = stablehlo.reduce(%33 init: %c_14) applies stablehlo.or across dimensions = [0] : (tensor<3x4x5xi1>, tensor<i1>) -> tensor<4x5xi1>
    %c_15 = stablehlo.constant dense<-5> : tensor<i32>
    %35 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<3x4x5xi32>
    %36 = stablehlo.compare GT, %arg1, %35, SIGNED : (tensor<3x4x5xi32>, tensor<3x4x5xi32>) -> tensor<3x4x5xi1>
    %c_16 = stablehlo.constant dense<true> : tensor<i1>
    %37 = stablehlo.reduce(%36 init: %c_16) applies stablehlo.and across dimensions = [1, 2] : (tensor<3x4x5xi1>, tensor<i1>) -> tensor<3xi1>
    return %0, %1, %2, %7, %9, %10, %11, %12, %27, %28, %29, %30, %31, %34, %37 : tensor<4x5xf32>, tensor<3x5xf32>, tensor<4xf32>, tensor<3x4xf32>, tensor<f32>, tensor<3x5xi32>, tensor<3x4xi32>, tensor<3x4x5xf32>, tensor<3x4xf32>, tensor<4x5xi32>, tensor<i32>, tensor<3x5xi32>, tensor<3x4x5xi32>, tensor<4x5xi1>, tensor<3xi1>
  }
  func.func private @argmax(%arg0: tensor<3x4x5xf32>) -> tensor<3x5xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<3x4x5xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<3x4x5xf32>, tensor<3x4x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x5xf32>, tensor<3x5xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<3x5xi32>
  }
  func.func private @argmin(%arg0: tensor<3x4x5xi32>) -> tensor<3x4xi32> {
    %0 = stablehlo.iota dim = 2 : tensor<3x4x5xi32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %c), (%0 init: %c_0) across dimensions = [2] : (tensor<3x4x5xi32>, tensor<3x4x5xi32>, tensor<i32>, tensor<i32>) -> (tensor<3x4xi32>, tensor<3x4xi32>)
     reducer(%arg1: tensor<i32>, %arg3: tensor<i32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare LT, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<i32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<i32>, tensor<i32>
    }
    return %1#1 : tensor<3x4xi32>
  }
  func.func private @cumsum(%arg0: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
    return %0 : tensor<3x4x5xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1>, padding = dense<[[0, 0], [3, 0], [0, 0]]> : tensor<3x2xi64>, window_dilations = array<i64: 1, 1, 1>, window_dimensions = array<i64: 1, 4, 1>, window_strides = array<i64: 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<3x4x5xf32>
    return %1 : tensor<3x4x5xf32>
  }
  func.func private @cumsum_1(%arg0: tensor<3x4x5xi32>) -> tensor<3x4x5xi32> {
    %0 = call @cumsum_2(%arg0) : (tensor<3x4x5xi32>) -> tensor<3x4x5xi32>
    return %0 : tensor<3x4x5xi32>
  }
  func.func private @cumsum_2(%arg0: tensor<3x4x5xi32>) -> tensor<3x4x5xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [4, 0]]> : tensor<3x2xi64>, window_dilations = array<i64: 1, 1, 1>, window_dimensions = array<i64: 1, 1, 5>, window_strides = array<i64: 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<3x4x5xi32>, tensor<i32>) -> tensor<3x4x5xi32>
    return %1 : tensor<3x4x5xi32>
  }
}
