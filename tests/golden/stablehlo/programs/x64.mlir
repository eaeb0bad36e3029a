module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf64>, %arg1: tensor<6xi64>, %arg2: tensor<6xui64>) -> (tensor<6xf64> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<6xf64> {jax.result_info = "result[2]"}, tensor<6xi64> {jax.result_info = "result[3]"}, tensor<6xi64> {jax.result_info = "result[4]"}, tensor<6xui64> {jax.result_info = "result[5]"}, tensor<6xui64> {jax.result_info = "result[6]"}, tensor<6xf64> {jax.result_info = "result[7]"}, tensor<6xi64> {jax.result_info = "result[8]"}, tensor<f64> {jax.result_info = "result[9]"}, tensor<2x2xf64> {jax.result_info = "result[10]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<6xf64>
    %cst = stablehlo.constant dense<0.33333333333333331> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %2 = stablehlo.multiply %0, %1 : tensor<6xf64>
    %3 = stablehlo.convert %arg0 : (tensor<6xf64>) -> tensor<6xf32>
    %4 = stablehlo.convert %arg0 : (tensor<6xf64>) -> tensor<6xf32>
    %5 = stablehlo.convert %4 : (tensor<6xf32>) -> tensor<6xf64>
    %c = stablehlo.constant dense<3> : tensor<i64>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %7 = stablehlo.multiply %arg1, %6 : tensor<6xi64>
    %c_0 = stablehlo.constant dense<2> : tensor<i64>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %9 = stablehlo.shift_right_arithmetic %arg1, %8 : tensor<6xi64>
    %10 = stablehlo.add %7, %9 : tensor<6xi64>
    %c_1 = stablehlo.constant dense<7> : tensor<i64>
    %11 = call @floor_divide(%arg1, %c_1) : (tensor<6xi64>, tensor<i64>) -> tensor<6xi64>
    %c_2 = stablehlo.constant dense<40> : tensor<ui64>
    %12 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %13 = stablehlo.shift_right_logical %arg2, %12 : tensor<6xui64>
    %c_3 = stablehlo.constant dense<18446462603027742720> : tensor<ui64>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %15 = stablehlo.xor %arg2, %14 : tensor<6xui64>
    %16 = stablehlo.convert %arg1 : (tensor<6xi64>) -> tensor<6xf64>
    %17 = stablehlo.convert %arg0 : (tensor<6xf64>) -> tensor<6xi64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %18 = stablehlo.reduce(%arg0 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<6xf64>, tensor<f64>) -> tensor<f64>
    %19 = stablehlo.reshape %arg0 : (tensor<6xf64>) -> tensor<2x3xf64>
    %20 = stablehlo.reshape %arg0 : (tensor<6xf64>) -> tensor<3x2xf64>
    %21 = stablehlo.dot_general %19, %20, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
    return %2, %3, %5, %10, %11, %13, %15, %16, %17, %18, %21 : tensor<6xf64>, tensor<6xf32>, tensor<6xf64>, tensor<6xi64>, tensor<6xi64>, tensor<6xui64>, tensor<6xui64>, tensor<6xf64>, tensor<6xi64>, tensor<f64>, tensor<2x2xf64>
  }
  func.func private @floor_divide(%arg0: tensor<6xi64>, %arg1: tensor<i64>) -> tensor<6xi64> {
    %0 = stablehlo.convert %arg1 : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %2 = stablehlo.divide %arg0, %1 : tensor<6xi64>
    %3 = stablehlo.sign %arg0 : tensor<6xi64>
    %4 = stablehlo.sign %0 : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %6 = stablehlo.compare NE, %3, %5, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %7 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %8 = stablehlo.remainder %arg0, %7 : tensor<6xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %10 = stablehlo.compare NE, %8, %9, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %11 = stablehlo.and %6, %10 : tensor<6xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %13 = stablehlo.subtract %2, %12 : tensor<6xi64>
    %14 = call @_where(%11, %13, %2) : (tensor<6xi1>, tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>
    return %14 : tensor<6xi64>
  }
  func.func private @_where(%arg0: tensor<6xi1>, %arg1: tensor<6xi64>, %arg2: tensor<6xi64>) -> tensor<6xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<6xi1>, tensor<6xi64>
    return %0 : tensor<6xi64>
  }
}
