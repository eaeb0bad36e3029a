"builtin.module"() <{sym_name = "jit_fn"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<4xf32>, tensor<f32>, tensor<i32>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<4xf32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9:3 = "stablehlo.while"(%arg3, %8, %arg2) ({
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<i32>, %arg22: tensor<4xf32>):
      %35 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %36 = "stablehlo.reduce"(%arg22, %35) <{dimensions = array<i64: 0>}> ({
      ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
        %38 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%38) : (tensor<f32>) -> ()
      }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
      %37 = "stablehlo.compare"(%36, %arg20) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%37) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<i32>, %arg19: tensor<4xf32>):
      %27 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %28 = "stablehlo.add"(%arg18, %27) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %29 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
      %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
      %31 = "stablehlo.multiply"(%arg19, %30) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %32 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
      %34 = "stablehlo.add"(%31, %33) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%arg17, %28, %34) : (tensor<f32>, tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<f32>, tensor<i32>, tensor<4xf32>) -> (tensor<f32>, tensor<i32>, tensor<4xf32>)
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12:3 = "stablehlo.while"(%11, %10, %arg2) ({
    ^bb0(%arg14: tensor<i32>, %arg15: tensor<i32>, %arg16: tensor<4xf32>):
      %25 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %26 = "stablehlo.compare"(%arg14, %25) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%26) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg11: tensor<i32>, %arg12: tensor<i32>, %arg13: tensor<4xf32>):
      %22:2 = "func.call"(%arg12, %arg13) <{callee = @closed_call}> : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
      %23 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %24 = "stablehlo.add"(%arg11, %23) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%24, %22#0, %22#1) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<i32>, tensor<4xf32>)
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15:3 = "stablehlo.while"(%13, %arg4, %14) ({
    ^bb0(%arg8: tensor<i32>, %arg9: tensor<i32>, %arg10: tensor<i32>):
      %21 = "stablehlo.compare"(%arg8, %arg9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%21) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<i32>):
      %16 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %17 = "stablehlo.add"(%arg5, %16) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %18 = "stablehlo.multiply"(%arg5, %arg5) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %19 = "stablehlo.convert"(%18) : (tensor<i32>) -> tensor<i32>
      %20 = "stablehlo.add"(%arg7, %19) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%17, %arg6, %20) : (tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
    "func.return"(%9#1, %9#2, %12#2, %15#2) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>), res_attrs = [{}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<4xf32>):
    %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.add"(%arg0, %0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %4 = "stablehlo.multiply"(%arg1, %3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %5 = "stablehlo.convert"(%arg0) : (tensor<i32>) -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %7 = "stablehlo.add"(%4, %6) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%1, %7) : (tensor<i32>, tensor<4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
