module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>, %arg1: tensor<3x4xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x4xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
    %1 = stablehlo.sine %0 : tensor<3x4xf32>
    %2 = stablehlo.cosine %arg1 : tensor<3x4xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<3x4xf32>
    %4 = stablehlo.dot_general %3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
    %5 = stablehlo.sine %4 : tensor<3x4xf32>
    %6 = stablehlo.cosine %3 : tensor<3x4xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<3x4xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<3x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %11 = stablehlo.multiply %10, %7 : tensor<3x4xf32>
    %12:3 = stablehlo.optimization_barrier %arg0, %3, %11 : tensor<4x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
    %13 = stablehlo.dot_general %12#1, %12#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
    %14 = stablehlo.sine %13 : tensor<3x4xf32>
    %15 = stablehlo.cosine %13 : tensor<3x4xf32>
    %16 = stablehlo.cosine %12#1 : tensor<3x4xf32>
    %17 = stablehlo.sine %12#1 : tensor<3x4xf32>
    %18 = stablehlo.multiply %14, %12#2 : tensor<3x4xf32>
    %19 = stablehlo.multiply %12#2, %16 : tensor<3x4xf32>
    %20 = stablehlo.negate %18 : tensor<3x4xf32>
    %21 = stablehlo.multiply %20, %17 : tensor<3x4xf32>
    %22 = stablehlo.multiply %19, %15 : tensor<3x4xf32>
    %23 = stablehlo.dot_general %22, %12#1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
    %24 = stablehlo.transpose %23, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %25 = stablehlo.dot_general %22, %12#0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
    %26 = stablehlo.add %21, %25 : tensor<3x4xf32>
    %27:3 = stablehlo.optimization_barrier %arg0, %arg1, %26 : tensor<4x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
    %28 = stablehlo.dot_general %27#1, %27#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
    %29 = stablehlo.cosine %28 : tensor<3x4xf32>
    %30 = stablehlo.cosine %27#1 : tensor<3x4xf32>
    %31 = stablehlo.multiply %27#2, %30 : tensor<3x4xf32>
    %32 = stablehlo.multiply %31, %29 : tensor<3x4xf32>
    %33 = stablehlo.dot_general %32, %27#1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
    %34 = stablehlo.transpose %33, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %35 = stablehlo.add %24, %34 : tensor<4x4xf32>
    return %9, %35 : tensor<f32>, tensor<4x4xf32>
  }
}
