module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16x32xf32>, %arg7: tensor<32x16xf32>, %arg8: tensor<16x16xf32>, %arg9: tensor<16x48xf32>, %arg10: tensor<2x8x16xf32>) -> (tensor<2x8x16xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg10 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_0 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %5 = stablehlo.subtract %arg10, %4 : tensor<2x8x16xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<2x8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_2 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<2x8x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %12 = stablehlo.subtract %arg10, %11 : tensor<2x8x16xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<2x8x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<2x8x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<2x8x16xf32>
    %18 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<2x8x16xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %23 = stablehlo.add %20, %22 : tensor<2x8x16xf32>
    %24 = stablehlo.dot_general %23, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16xf32>, tensor<16x48xf32>) -> tensor<2x8x48xf32>
    %25 = stablehlo.slice %24 [0:2, 0:8, 0:16] : (tensor<2x8x48xf32>) -> tensor<2x8x16xf32>
    %26 = stablehlo.slice %24 [0:2, 0:8, 16:32] : (tensor<2x8x48xf32>) -> tensor<2x8x16xf32>
    %27 = stablehlo.slice %24 [0:2, 0:8, 32:48] : (tensor<2x8x48xf32>) -> tensor<2x8x16xf32>
    %28 = stablehlo.reshape %25 : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
    %29 = stablehlo.transpose %28, dims = [0, 2, 1, 3] : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %30 = stablehlo.reshape %26 : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
    %31 = stablehlo.transpose %30, dims = [0, 2, 1, 3] : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %32 = stablehlo.reshape %27 : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
    %33 = stablehlo.transpose %32, dims = [0, 2, 1, 3] : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %34 = stablehlo.dot_general %29, %31, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %cst_4 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %36 = stablehlo.divide %34, %35 : tensor<2x2x8x8xf32>
    %37 = stablehlo.iota dim = 0 : tensor<8xi32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %39 = stablehlo.iota dim = 0 : tensor<8xi32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [1] : (tensor<8xi32>) -> tensor<1x8xi32>
    %41 = stablehlo.broadcast_in_dim %38, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x8xi32>
    %42 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<8x8xi32>
    %43 = stablehlo.compare GE, %41, %42, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %44 = call @_where(%43, %36, %cst_5) : (tensor<8x8xi1>, tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8x8xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %45 = stablehlo.reduce(%44 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x2x8xf32>
    %47 = stablehlo.maximum %46, %45 : tensor<2x2x8xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %50 = stablehlo.subtract %44, %49 : tensor<2x2x8x8xf32>
    %51 = stablehlo.exponential %50 : tensor<2x2x8x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %55 = stablehlo.divide %51, %54 : tensor<2x2x8x8xf32>
    %56 = stablehlo.dot_general %55, %33, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %57 = stablehlo.transpose %56, dims = [0, 2, 1, 3] : (tensor<2x2x8x8xf32>) -> tensor<2x8x2x8xf32>
    %58 = stablehlo.reshape %57 : (tensor<2x8x2x8xf32>) -> tensor<2x8x16xf32>
    %59 = stablehlo.dot_general %58, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
    %60 = stablehlo.add %arg10, %59 : tensor<2x8x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %61 = stablehlo.reduce(%60 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_10 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %64 = stablehlo.divide %62, %63 : tensor<2x8x1xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %66 = stablehlo.subtract %60, %65 : tensor<2x8x16xf32>
    %67 = stablehlo.multiply %66, %66 : tensor<2x8x16xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.reduce(%67 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_12 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %71 = stablehlo.divide %69, %70 : tensor<2x8x1xf32>
    %72 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %73 = stablehlo.subtract %60, %72 : tensor<2x8x16xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %75 = stablehlo.add %71, %74 : tensor<2x8x1xf32>
    %76 = stablehlo.rsqrt %75 : tensor<2x8x1xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %78 = stablehlo.multiply %73, %77 : tensor<2x8x16xf32>
    %79 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1, 2] : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %81 = stablehlo.multiply %78, %80 : tensor<2x8x16xf32>
    %82 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %84 = stablehlo.add %81, %83 : tensor<2x8x16xf32>
    %85 = stablehlo.dot_general %84, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
    %86 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %88 = stablehlo.add %85, %87 : tensor<2x8x32xf32>
    %cst_14 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %90 = stablehlo.multiply %89, %88 : tensor<2x8x32xf32>
    %91 = stablehlo.negate %88 : tensor<2x8x32xf32>
    %cst_15 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %93 = stablehlo.multiply %91, %92 : tensor<2x8x32xf32>
    %94 = chlo.erfc %93 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %95 = stablehlo.multiply %90, %94 : tensor<2x8x32xf32>
    %96 = stablehlo.dot_general %95, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
    %97 = stablehlo.add %60, %96 : tensor<2x8x16xf32>
    %98 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %99 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2] : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %100 = stablehlo.add %97, %99 : tensor<2x8x16xf32>
    return %100 : tensor<2x8x16xf32>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<2x2x8x8xf32>, %arg2: tensor<f32>) -> tensor<2x2x8x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<2x2x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    return %3 : tensor<2x2x8x8xf32>
  }
}
