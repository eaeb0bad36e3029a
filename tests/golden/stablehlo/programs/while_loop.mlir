module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> (tensor<i32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}, tensor<i32> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_4 = %c, %iterArg_5 = %arg0) : tensor<f32>, tensor<i32>, tensor<4xf32>
    cond {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.reduce(%iterArg_5 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
      %4 = stablehlo.compare LT, %3, %iterArg, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg_4, %c_6 : tensor<i32>
      %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %5 = stablehlo.multiply %iterArg_5, %4 : tensor<4xf32>
      %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %7 = stablehlo.add %5, %6 : tensor<4xf32>
      stablehlo.return %iterArg, %3, %7 : tensor<f32>, tensor<i32>, tensor<4xf32>
    }
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1:3 = stablehlo.while(%iterArg = %c_1, %iterArg_4 = %c_0, %iterArg_5 = %arg0) : tensor<i32>, tensor<i32>, tensor<4xf32>
    cond {
      %c_6 = stablehlo.constant dense<5> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3:2 = func.call @closed_call(%iterArg_4, %iterArg_5) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.add %iterArg, %c_6 : tensor<i32>
      stablehlo.return %4, %3#0, %3#1 : tensor<i32>, tensor<i32>, tensor<4xf32>
    }
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %2:3 = stablehlo.while(%iterArg = %c_2, %iterArg_4 = %arg2, %iterArg_5 = %c_3) : tensor<i32>, tensor<i32>, tensor<i32>
    cond {
      %3 = stablehlo.compare LT, %iterArg, %iterArg_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_6 : tensor<i32>
      %4 = stablehlo.multiply %iterArg, %iterArg : tensor<i32>
      %5 = stablehlo.convert %4 : tensor<i32>
      %6 = stablehlo.add %iterArg_5, %5 : tensor<i32>
      stablehlo.return %3, %iterArg_4, %6 : tensor<i32>, tensor<i32>, tensor<i32>
    }
    return %0#1, %0#2, %1#2, %2#2 : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<4xf32>
    %3 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.add %2, %4 : tensor<4xf32>
    return %0, %5 : tensor<i32>, tensor<4xf32>
  }
}
