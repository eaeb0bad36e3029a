module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> (tensor<3x4xf32> {jax.result_info = "result[0]"}, tensor<6x8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<11x8xf32> {jax.result_info = "result[3]"}, tensor<8x8xf32> {jax.result_info = "result[4]"}, tensor<6x8xf32> {jax.result_info = "result[5]"}, tensor<8x6xf32> {jax.result_info = "result[6]"}, tensor<4x2x6xf32> {jax.result_info = "result[7]"}, tensor<3x2xf32> {jax.result_info = "result[8]"}, tensor<3x8x2xf32> {jax.result_info = "result[9]"}, tensor<2x3xi32> {jax.result_info = "result[10]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %1 = stablehlo.add %arg2, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg2 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %arg3, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %4 = stablehlo.add %arg3, %c_2 : tensor<i32>
    %5 = stablehlo.select %3, %4, %arg3 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [3, 4] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %arg2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %8 = stablehlo.add %arg2, %c_4 : tensor<i32>
    %9 = stablehlo.select %7, %8, %arg2 : tensor<i1>, tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.compare LT, %arg3, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_6 = stablehlo.constant dense<8> : tensor<i32>
    %11 = stablehlo.add %arg3, %c_6 : tensor<i32>
    %12 = stablehlo.select %10, %11, %arg3 : tensor<i1>, tensor<i32>
    %13 = stablehlo.dynamic_update_slice %arg0, %arg1, %9, %12 : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.compare LT, %arg2, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_8 = stablehlo.constant dense<6> : tensor<i32>
    %15 = stablehlo.add %arg2, %c_8 : tensor<i32>
    %16 = stablehlo.select %14, %15, %arg2 : tensor<i1>, tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %17 = stablehlo.compare LT, %c_9, %c_10, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %c_12 = stablehlo.constant dense<8> : tensor<i32>
    %18 = stablehlo.add %c_11, %c_12 : tensor<i32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.select %17, %18, %c_13 : tensor<i1>, tensor<i32>
    %20 = stablehlo.dynamic_slice %arg0, %16, %19, sizes = [1, 8] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
    %21 = stablehlo.reshape %20 : (tensor<1x8xf32>) -> tensor<8xf32>
    %cst = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %22 = stablehlo.pad %arg0, %cst, low = [1, -2], high = [-1, 2], interior = [1, 0] : (tensor<6x8xf32>, tensor<f32>) -> tensor<11x8xf32>
    %23 = stablehlo.slice %arg0 [0:2, 0:8] : (tensor<6x8xf32>) -> tensor<2x8xf32>
    %cst_14 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<2x8xf32>
    %26 = stablehlo.concatenate %arg0, %25, dim = 0 : (tensor<6x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
    %27 = stablehlo.reverse %arg0, dims = [0, 1] : tensor<6x8xf32>
    %28 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<6x8xf32>) -> tensor<8x6xf32>
    %29 = stablehlo.reshape %arg0 : (tensor<6x8xf32>) -> tensor<4x2x6xf32>
    %30 = stablehlo.slice %arg0 [0:6:2, 1:7:3] : (tensor<6x8xf32>) -> tensor<3x2xf32>
    %31 = stablehlo.slice %arg0 [0:1, 0:8] : (tensor<6x8xf32>) -> tensor<1x8xf32>
    %32 = stablehlo.reshape %31 : (tensor<1x8xf32>) -> tensor<8xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [1] : (tensor<8xf32>) -> tensor<3x8x2xf32>
    %34 = stablehlo.iota dim = 1 : tensor<2x3xi32>
    %35 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %36 = stablehlo.add %34, %35 : tensor<2x3xi32>
    return %6, %13, %21, %22, %26, %27, %28, %29, %30, %33, %36 : tensor<3x4xf32>, tensor<6x8xf32>, tensor<8xf32>, tensor<11x8xf32>, tensor<8x8xf32>, tensor<6x8xf32>, tensor<8x6xf32>, tensor<4x2x6xf32>, tensor<3x2xf32>, tensor<3x8x2xf32>, tensor<2x3xi32>
  }
}
