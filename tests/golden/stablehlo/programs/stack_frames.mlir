module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<4x8xf32>, %arg4: tensor<4x8xf32>, %arg5: tensor<5x4x8xf32>, %arg6: tensor<f32>) -> (tensor<8x8xf32> {jax.result_info = "result[0][0]"}, tensor<8x8xf32> {jax.result_info = "result[0][1]"}, tensor<8x8xf32> {jax.result_info = "result[0][2]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<5xf32> {jax.result_info = "result[2]"}, tensor<8x8xf32> {jax.result_info = "result[3]"}, tensor<8x8xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.tanh %0 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %3 = stablehlo.subtract %2, %1 : tensor<4x8xf32>
    %4 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %5 = stablehlo.tanh %4 : tensor<4x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<4x8xf32>
    %8 = stablehlo.dot_general %5, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %9 = stablehlo.tanh %8 : tensor<4x8xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %11 = stablehlo.subtract %10, %9 : tensor<4x8xf32>
    %12 = stablehlo.subtract %9, %arg4 : tensor<4x8xf32>
    %13 = stablehlo.multiply %12, %12 : tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %15 = stablehlo.multiply %14, %12 : tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%13 init: %cst_3) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_4 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %17 = stablehlo.divide %16, %cst_4 : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %18 = stablehlo.divide %cst_5, %cst_6 : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %20 = stablehlo.multiply %19, %15 : tensor<4x8xf32>
    %21 = stablehlo.multiply %20, %11 : tensor<4x8xf32>
    %22 = stablehlo.multiply %21, %9 : tensor<4x8xf32>
    %23 = stablehlo.add %21, %22 : tensor<4x8xf32>
    %24 = stablehlo.dot_general %23, %5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %25 = stablehlo.transpose %24, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %26 = stablehlo.dot_general %23, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %27 = stablehlo.multiply %26, %7 : tensor<4x8xf32>
    %28 = stablehlo.multiply %27, %5 : tensor<4x8xf32>
    %29 = stablehlo.add %27, %28 : tensor<4x8xf32>
    %30 = stablehlo.dot_general %29, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %31 = stablehlo.transpose %30, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %32 = stablehlo.dot_general %29, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %33 = stablehlo.multiply %32, %3 : tensor<4x8xf32>
    %34 = stablehlo.multiply %33, %1 : tensor<4x8xf32>
    %35 = stablehlo.add %33, %34 : tensor<4x8xf32>
    %36 = stablehlo.dot_general %35, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %37 = stablehlo.transpose %36, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %38 = stablehlo.broadcast_in_dim %arg3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %39 = stablehlo.slice %arg4 [0:1, 0:8] : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %40 = stablehlo.dot_general %38, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x8xf32>, tensor<8x8xf32>) -> tensor<4x1x8xf32>
    %41 = stablehlo.tanh %40 : tensor<4x1x8xf32>
    %42 = stablehlo.dot_general %41, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x8xf32>, tensor<8x8xf32>) -> tensor<4x1x8xf32>
    %43 = stablehlo.tanh %42 : tensor<4x1x8xf32>
    %44 = stablehlo.dot_general %43, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x8xf32>, tensor<8x8xf32>) -> tensor<4x1x8xf32>
    %45 = stablehlo.tanh %44 : tensor<4x1x8xf32>
    %46 = stablehlo.broadcast_in_dim %39, dims = [1, 2] : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<4x1x8xf32>
    %48 = stablehlo.subtract %45, %47 : tensor<4x1x8xf32>
    %49 = stablehlo.multiply %48, %48 : tensor<4x1x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_7) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x1x8xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_8 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %52 = stablehlo.divide %50, %51 : tensor<4xf32>
    %cst_9 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %54 = stablehlo.multiply %53, %37 : tensor<8x8xf32>
    %55 = stablehlo.subtract %arg0, %54 : tensor<8x8xf32>
    %cst_10 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %57 = stablehlo.multiply %56, %31 : tensor<8x8xf32>
    %58 = stablehlo.subtract %arg1, %57 : tensor<8x8xf32>
    %cst_11 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %60 = stablehlo.multiply %59, %25 : tensor<8x8xf32>
    %61 = stablehlo.subtract %arg2, %60 : tensor<8x8xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %63:5 = stablehlo.while(%iterArg = %arg5, %iterArg_16 = %arg0, %iterArg_17 = %c, %iterArg_18 = %cst_12, %iterArg_19 = %62) : tensor<5x4x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>, tensor<5xf32>
    cond {
      %c_20 = stablehlo.constant dense<5> : tensor<i32>
      %68 = stablehlo.compare LT, %iterArg_17, %c_20, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %68 : tensor<i1>
    } do {
      %68 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_17) : (tensor<5x4x8xf32>, tensor<i32>) -> tensor<4x8xf32>
      %69:2 = func.call @closed_call(%iterArg_16, %iterArg_18, %68) : (tensor<8x8xf32>, tensor<f32>, tensor<4x8xf32>) -> (tensor<f32>, tensor<f32>)
      %70 = func.call @dynamic_update_index_in_dim(%iterArg_19, %69#1, %iterArg_17) : (tensor<5xf32>, tensor<f32>, tensor<i32>) -> tensor<5xf32>
      %c_20 = stablehlo.constant dense<1> : tensor<i32>
      %71 = stablehlo.add %iterArg_17, %c_20 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_16, %71, %69#0, %70 : tensor<5x4x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>, tensor<5xf32>
    }
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.compare GT, %arg6, %cst_14, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %65 = stablehlo.convert %64 : (tensor<i1>) -> tensor<i32>
    %66 = "stablehlo.case"(%65) ({
      %68 = stablehlo.dot_general %arg1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      %69 = stablehlo.tanh %68 : tensor<8x8xf32>
      stablehlo.return %69 : tensor<8x8xf32>
    }, {
      %68 = stablehlo.sine %arg1 : tensor<8x8xf32>
      %cst_16 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %69 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %70 = stablehlo.multiply %68, %69 : tensor<8x8xf32>
      stablehlo.return %70 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %67:2 = stablehlo.while(%iterArg = %c_15, %iterArg_16 = %arg2) : tensor<i32>, tensor<8x8xf32>
    cond {
      %c_17 = stablehlo.constant dense<3> : tensor<i32>
      %68 = stablehlo.compare LT, %iterArg, %c_17, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %68 : tensor<i1>
    } do {
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %68 = stablehlo.add %iterArg, %c_17 : tensor<i32>
      %69 = stablehlo.dot_general %iterArg_16, %iterArg_16, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      %70 = stablehlo.tanh %69 : tensor<8x8xf32>
      stablehlo.return %68, %70 : tensor<i32>, tensor<8x8xf32>
    }
    return %55, %58, %61, %52, %63#4, %66, %67#1 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<4xf32>, tensor<5xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<5x4x8xf32>, %arg1: tensor<i32>) -> tensor<4x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 8] : (tensor<5x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func private @closed_call(%arg0: tensor<8x8xf32>, %arg1: tensor<f32>, %arg2: tensor<4x8xf32>) -> (tensor<f32>, tensor<f32>) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.tanh %0 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %3 = stablehlo.add %arg1, %2 : tensor<f32>
    return %3, %3 : tensor<f32>, tensor<f32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<5xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<5xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<5xf32>, tensor<1xf32>, tensor<i32>) -> tensor<5xf32>
    return %1 : tensor<5xf32>
  }
}
