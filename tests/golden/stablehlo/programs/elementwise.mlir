module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf32>, %arg1: tensor<12xf32>, %arg2: tensor<12xi32>, %arg3: tensor<12xi32>, %arg4: tensor<12xi32>) -> (tensor<12xf32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}, tensor<12xf32> {jax.result_info = "result[2]"}, tensor<12xf32> {jax.result_info = "result[3]"}, tensor<12xf32> {jax.result_info = "result[4]"}, tensor<12xf32> {jax.result_info = "result[5]"}, tensor<12xf32> {jax.result_info = "result[6]"}, tensor<12xf32> {jax.result_info = "result[7]"}, tensor<12xf32> {jax.result_info = "result[8]"}, tensor<12xf32> {jax.result_info = "result[9]"}, tensor<12xf32> {jax.result_info = "result[10]"}, tensor<12xf32> {jax.result_info = "result[11]"}, tensor<12xf32> {jax.result_info = "result[12]"}, tensor<12xf32> {jax.result_info = "result[13]"}, tensor<12xf32> {jax.result_info = "result[14]"}, tensor<12xf32> {jax.result_info = "result[15]"}, tensor<12xf32> {jax.result_info = "result[16]"}, tensor<12xf32> {jax.result_info = "result[17]"}, tensor<12xf32> {jax.result_info = "result[18]"}, tensor<12xf32> {jax.result_info = "result[19]"}, tensor<12xf32> {jax.result_info = "result[20]"}, tensor<12xf32> {jax.result_info = "result[21]"}, tensor<12xf32> {jax.result_info = "result[22]"}, tensor<12xf32> {jax.result_info = "result[23]"}, tensor<12xf32> {jax.result_info = "result[24]"}, tensor<12xf32> {jax.result_info = "result[25]"}, tensor<12xf32> {jax.result_info = "result[26]"}, tensor<12xf32> {jax.result_info = "result[27]"}, tensor<12xf32> {jax.result_info = "result[28]"}, tensor<12xi1> {jax.result_info = "result[29]"}, tensor<12xi1> {jax.result_info = "result[30]"}, tensor<12xi1> {jax.result_info = "result[31]"}, tensor<12xi1> {jax.result_info = "result[32]"}, tensor<12xi1> {jax.result_info = "result[33]"}, tensor<12xi1> {jax.result_info = "result[34]"}, tensor<12xi1> {jax.result_info = "result[35]"}, tensor<12xf32> {jax.result_info = "result[36]"}, tensor<12xf32> {jax.result_info = "result[37]"}, tensor<12xi32> {jax.result_info = "result[38]"}, tensor<12xi32> {jax.result_info = "result[39]"}, tensor<12xi32> {jax.result_info = "result[40]"}, tensor<12xi32> {jax.result_info = "result[41]"}, tensor<12xi32> {jax.result_info = "result[42]"}, tensor<12xi32> {jax.result_info = "result[43]"}, tensor<12xi32> {jax.result_info = "result[44]"}, tensor<12xi32> {jax.result_info = "result[45]"}, tensor<12xi32> {jax.result_info = "result[46]"}, tensor<12xi32> {jax.result_info = "result[47]"}, tensor<12xi32> {jax.result_info = "result[48]"}, tensor<12xi32> {jax.result_info = "result[49]"}, tensor<12xi32> {jax.result_info = "result[50]"}, tensor<12xi32> {jax.result_info = "result[51]"}, tensor<12xi32> {jax.result_info = "result[52]"}, tensor<12xi32> {jax.result_info = "result[53]"}, tensor<12xi32> {jax.result_info = "result[54]"}, tensor<12xi32> {jax.result_info = "result[55]"}, tensor<12xi32> {jax.result_info = "result[56]"}, tensor<12xf32> {jax.result_info = "result[57]"}, tensor<12xui8> {jax.result_info = "result[58]"}, tensor<12xbf16> {jax.result_info = "result[59]"}, tensor<12xf16> {jax.result_info = "result[60]"}, tensor<12xf32> {jax.result_info = "result[61]"}, tensor<12xf32> {jax.result_info = "result[62]"}, tensor<12xui8> {jax.result_info = "result[63]"}) {
    %0 = stablehlo.abs %arg0 : tensor<12xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %2 = stablehlo.add %0, %1 : tensor<12xf32>
    %3 = stablehlo.exponential %arg0 : tensor<12xf32>
    %4 = stablehlo.log %2 : tensor<12xf32>
    %5 = stablehlo.sine %arg0 : tensor<12xf32>
    %6 = stablehlo.cosine %arg0 : tensor<12xf32>
    %7 = stablehlo.tan %arg0 : tensor<12xf32>
    %8 = stablehlo.sqrt %2 : tensor<12xf32>
    %9 = stablehlo.rsqrt %2 : tensor<12xf32>
    %10 = stablehlo.cbrt %arg0 : tensor<12xf32>
    %11 = stablehlo.tanh %arg0 : tensor<12xf32>
    %12 = stablehlo.negate %arg0 : tensor<12xf32>
    %13 = stablehlo.exponential %12 : tensor<12xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %15 = stablehlo.add %14, %13 : tensor<12xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %17 = stablehlo.divide %16, %15 : tensor<12xf32>
    %18 = stablehlo.abs %arg0 : tensor<12xf32>
    %19 = stablehlo.sign %arg0 : tensor<12xf32>
    %20 = stablehlo.floor %arg0 : tensor<12xf32>
    %21 = stablehlo.ceil %arg0 : tensor<12xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %23 = stablehlo.multiply %arg0, %22 : tensor<12xf32>
    %24 = call @round(%23) : (tensor<12xf32>) -> tensor<12xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %26 = stablehlo.multiply %arg0, %25 : tensor<12xf32>
    %27 = stablehlo.round_nearest_afz %26 : tensor<12xf32>
    %28 = stablehlo.exponential_minus_one %arg0 : tensor<12xf32>
    %29 = stablehlo.log_plus_one %2 : tensor<12xf32>
    %30 = chlo.erf %arg0 : tensor<12xf32> -> tensor<12xf32>
    %31 = stablehlo.tanh %arg0 : tensor<12xf32>
    %32 = chlo.erf_inv %31 : tensor<12xf32> -> tensor<12xf32>
    %33 = chlo.lgamma %2 : tensor<12xf32> -> tensor<12xf32>
    %34 = chlo.digamma %2 : tensor<12xf32> -> tensor<12xf32>
    %35 = stablehlo.atan2 %arg0, %arg1 : tensor<12xf32>
    %36 = stablehlo.power %2, %arg1 : tensor<12xf32>
    %37 = stablehlo.remainder %arg0, %arg1 : tensor<12xf32>
    %38 = stablehlo.maximum %arg0, %arg1 : tensor<12xf32>
    %39 = stablehlo.minimum %arg0, %arg1 : tensor<12xf32>
    %40 = stablehlo.divide %arg0, %arg1 : tensor<12xf32>
    %41 = stablehlo.negate %arg0 : tensor<12xf32>
    %42 = stablehlo.slice %arg0 [0:1] : (tensor<12xf32>) -> tensor<1xf32>
    %43 = stablehlo.reshape %42 : (tensor<1xf32>) -> tensor<f32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %45 = stablehlo.subtract %arg0, %44 : tensor<12xf32>
    %46 = stablehlo.divide %arg0, %45 : tensor<12xf32>
    %47 = stablehlo.is_finite %46 : (tensor<12xf32>) -> tensor<12xi1>
    %48 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %49 = stablehlo.compare LE, %arg0, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %50 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %51 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %52 = stablehlo.compare GT, %arg2, %arg3, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %53 = stablehlo.compare GE, %arg2, %arg3, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %54 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %56 = stablehlo.multiply %arg1, %55 : tensor<12xf32>
    %57 = call @_where(%54, %arg0, %56) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_5 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %58 = call @clip(%arg0, %cst_5, %cst_6) : (tensor<12xf32>, tensor<f32>, tensor<f32>) -> tensor<12xf32>
    %c = stablehlo.constant dense<-3> : tensor<i32>
    %c_7 = stablehlo.constant dense<3> : tensor<i32>
    %59 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %60 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %61 = stablehlo.clamp %59, %arg2, %60 : tensor<12xi32>
    %62 = stablehlo.add %arg2, %arg3 : tensor<12xi32>
    %63 = stablehlo.multiply %arg2, %arg3 : tensor<12xi32>
    %64 = stablehlo.subtract %arg2, %arg3 : tensor<12xi32>
    %65 = stablehlo.divide %arg2, %arg3 : tensor<12xi32>
    %66 = stablehlo.remainder %arg2, %arg3 : tensor<12xi32>
    %67 = call @floor_divide(%arg2, %arg3) : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %68 = call @remainder(%arg2, %arg3) : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %69 = stablehlo.shift_left %arg2, %arg4 : tensor<12xi32>
    %70 = stablehlo.shift_right_logical %arg2, %arg4 : tensor<12xi32>
    %71 = stablehlo.shift_right_arithmetic %arg2, %arg4 : tensor<12xi32>
    %72 = stablehlo.and %arg2, %arg3 : tensor<12xi32>
    %73 = stablehlo.or %arg2, %arg3 : tensor<12xi32>
    %74 = stablehlo.xor %arg2, %arg3 : tensor<12xi32>
    %75 = stablehlo.not %arg2 : tensor<12xi32>
    %76 = stablehlo.popcnt %arg2 : tensor<12xi32>
    %77 = stablehlo.count_leading_zeros %arg2 : tensor<12xi32>
    %78 = stablehlo.maximum %arg2, %arg3 : tensor<12xi32>
    %79 = stablehlo.convert %arg0 : (tensor<12xf32>) -> tensor<12xi32>
    %80 = stablehlo.convert %arg2 : (tensor<12xi32>) -> tensor<12xf32>
    %cst_8 = stablehlo.constant dense<4.000000e+01> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %82 = stablehlo.multiply %2, %81 : tensor<12xf32>
    %83 = stablehlo.convert %82 : (tensor<12xf32>) -> tensor<12xui8>
    %84 = stablehlo.convert %arg0 : (tensor<12xf32>) -> tensor<12xbf16>
    %85 = stablehlo.convert %arg0 : (tensor<12xf32>) -> tensor<12xf16>
    %86 = stablehlo.convert %arg0 : (tensor<12xf32>) -> tensor<12xbf16>
    %87 = stablehlo.convert %86 : (tensor<12xbf16>) -> tensor<12xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %88 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %89 = stablehlo.compare GT, %arg2, %88, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %90 = stablehlo.convert %89 : (tensor<12xi1>) -> tensor<12xf32>
    %91 = stablehlo.convert %arg2 : (tensor<12xi32>) -> tensor<12xui8>
    return %3, %4, %5, %6, %7, %8, %9, %10, %11, %17, %18, %19, %20, %21, %24, %27, %28, %29, %30, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %47, %48, %49, %50, %51, %52, %53, %57, %58, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %83, %84, %85, %87, %90, %91 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xf32>, tensor<12xf32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xf32>, tensor<12xui8>, tensor<12xbf16>, tensor<12xf16>, tensor<12xf32>, tensor<12xf32>, tensor<12xui8>
  }
  func.func private @round(%arg0: tensor<12xf32>) -> tensor<12xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<12xf32>
    return %0 : tensor<12xf32>
  }
  func.func private @_where(%arg0: tensor<12xi1>, %arg1: tensor<12xf32>, %arg2: tensor<12xf32>) -> tensor<12xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12xi1>, tensor<12xf32>
    return %0 : tensor<12xf32>
  }
  func.func private @clip(%arg0: tensor<12xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<12xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<12xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<12xf32>
    return %5 : tensor<12xf32>
  }
  func.func private @floor_divide(%arg0: tensor<12xi32>, %arg1: tensor<12xi32>) -> tensor<12xi32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<12xi32>
    %1 = stablehlo.sign %arg0 : tensor<12xi32>
    %2 = stablehlo.sign %arg1 : tensor<12xi32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<12xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %7 = stablehlo.and %3, %6 : tensor<12xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %9 = stablehlo.subtract %0, %8 : tensor<12xi32>
    %10 = call @_where_0(%7, %9, %0) : (tensor<12xi1>, tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    return %10 : tensor<12xi32>
  }
  func.func private @_where_0(%arg0: tensor<12xi1>, %arg1: tensor<12xi32>, %arg2: tensor<12xi32>) -> tensor<12xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12xi1>, tensor<12xi32>
    return %0 : tensor<12xi32>
  }
  func.func private @remainder(%arg0: tensor<12xi32>, %arg1: tensor<12xi32>) -> tensor<12xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %1 = stablehlo.compare EQ, %arg1, %0, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %3 = call @_where_0(%1, %2, %arg1) : (tensor<12xi1>, tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<12xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<12xi1>, tensor<12xi1>) -> tensor<12xi1>
    %12 = stablehlo.and %11, %6 : tensor<12xi1>
    %13 = stablehlo.add %4, %3 : tensor<12xi32>
    %14 = stablehlo.select %12, %13, %4 : tensor<12xi1>, tensor<12xi32>
    return %14 : tensor<12xi32>
  }
}
