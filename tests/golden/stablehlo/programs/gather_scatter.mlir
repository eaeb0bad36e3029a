module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xf32>, %arg1: tensor<3xi32>, %arg2: tensor<3xi32>, %arg3: tensor<3x4xf32>, %arg4: tensor<6x2xi32>, %arg5: tensor<7x3xf32>, %arg6: tensor<7xi32>) -> (tensor<3x4xf32> {jax.result_info = "result[0]"}, tensor<3x2xf32> {jax.result_info = "result[1]"}, tensor<6x4xf32> {jax.result_info = "result[2]"}, tensor<6x4xf32> {jax.result_info = "result[3]"}, tensor<6x4xf32> {jax.result_info = "result[4]"}, tensor<6x4xf32> {jax.result_info = "result[5]"}, tensor<6x2xf32> {jax.result_info = "result[6]"}, tensor<4x3xf32> {jax.result_info = "result[7]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<3xi1>, tensor<3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<6x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %8 = stablehlo.compare LT, %arg1, %7, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<6> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %10 = stablehlo.add %arg1, %9 : tensor<3xi32>
    %11 = stablehlo.select %8, %10, %arg1 : tensor<3xi1>, tensor<3xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %14 = stablehlo.concatenate %12, %13, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %15 = "stablehlo.gather"(%arg0, %14) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<6x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %17 = stablehlo.compare LT, %arg1, %16, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_5 = stablehlo.constant dense<6> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %19 = stablehlo.add %arg1, %18 : tensor<3xi32>
    %20 = stablehlo.select %17, %19, %arg1 : tensor<3xi1>, tensor<3xi32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %22 = "stablehlo.scatter"(%arg0, %21, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %48 = stablehlo.add %arg7, %arg8 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %24 = stablehlo.compare LT, %arg2, %23, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_7 = stablehlo.constant dense<6> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %26 = stablehlo.add %arg2, %25 : tensor<3xi32>
    %27 = stablehlo.select %24, %26, %arg2 : tensor<3xi1>, tensor<3xi32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %29 = "stablehlo.scatter"(%arg0, %28, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      stablehlo.return %arg8 : tensor<f32>
    }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %31 = stablehlo.compare LT, %arg2, %30, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_9 = stablehlo.constant dense<6> : tensor<i32>
    %32 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %33 = stablehlo.add %arg2, %32 : tensor<3xi32>
    %34 = stablehlo.select %31, %33, %arg2 : tensor<3xi1>, tensor<3xi32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %36 = "stablehlo.scatter"(%arg0, %35, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %48 = stablehlo.maximum %arg7, %arg8 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %37 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %38 = stablehlo.compare LT, %arg1, %37, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_11 = stablehlo.constant dense<6> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %40 = stablehlo.add %arg1, %39 : tensor<3xi32>
    %41 = stablehlo.select %38, %40, %arg1 : tensor<3xi1>, tensor<3xi32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %43 = "stablehlo.scatter"(%arg0, %42, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %48 = stablehlo.multiply %arg7, %arg8 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
    %44 = call @take_along_axis(%arg0, %arg4) : (tensor<6x4xf32>, tensor<6x2xi32>) -> tensor<6x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %46 = stablehlo.broadcast_in_dim %arg6, dims = [0] : (tensor<7xi32>) -> tensor<7x1xi32>
    %47 = "stablehlo.scatter"(%45, %46, %arg5) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %48 = stablehlo.add %arg7, %arg8 : tensor<f32>
      stablehlo.return %48 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<7x1xi32>, tensor<7x3xf32>) -> tensor<4x3xf32>
    return %6, %15, %22, %29, %36, %43, %44, %47 : tensor<3x4xf32>, tensor<3x2xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x2xf32>, tensor<4x3xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<6x4xf32>, %arg1: tensor<6x2xi32>) -> tensor<6x2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6x2xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<6x2xi32>, tensor<6x2xi32>) -> tensor<6x2xi1>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6x2xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<6x2xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<6x2xi1>, tensor<6x2xi32>
    %5 = stablehlo.reshape %4 : (tensor<6x2xi32>) -> tensor<6x2x1xi32>
    %c_1 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6x2x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<6x2x1xi32>, tensor<6x2x1xi32>) -> tensor<6x2x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<6x2x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<6x2x1xi32>, tensor<6x2x1xi32>) -> tensor<6x2x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<6x2x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<6x2x1xi1>, tensor<i1>) -> tensor<6x2xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x4xf32>, tensor<6x2x1xi32>) -> tensor<6x2xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x2xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<6x2xi1>, tensor<6x2xf32>
    return %15 : tensor<6x2xf32>
  }
}
