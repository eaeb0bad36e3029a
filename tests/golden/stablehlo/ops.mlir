// ----- case abs_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.abs %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case abs_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.abs %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case abs_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.abs %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case abs_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.abs %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case abs_s8
func.func public @main(%arg0: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.abs %arg0 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case abs_s32
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.abs %arg0 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case abs_s64
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.abs %arg0 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case abs_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xf32> {
    %0 = stablehlo.abs %arg0 : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case abs_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xf64> {
    %0 = stablehlo.abs %arg0 : (tensor<8xcomplex<f64>>) -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case cbrt_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.cbrt %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case cbrt_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.cbrt %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case cbrt_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.cbrt %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case cbrt_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.cbrt %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case ceil_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.ceil %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case ceil_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.ceil %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case ceil_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.ceil %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case ceil_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.ceil %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case floor_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.floor %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case floor_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.floor %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case floor_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.floor %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case floor_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.floor %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case cosine_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.cosine %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case cosine_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.cosine %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case cosine_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.cosine %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case cosine_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.cosine %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case cosine_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.cosine %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case cosine_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.cosine %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case sine_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.sine %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case sine_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.sine %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case sine_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.sine %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case sine_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.sine %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case sine_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.sine %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case sine_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.sine %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case exponential_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.exponential %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case exponential_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.exponential %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case exponential_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case exponential_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.exponential %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case exponential_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.exponential %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case exponential_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.exponential %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case exponential_minus_one_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case exponential_minus_one_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case exponential_minus_one_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case exponential_minus_one_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case exponential_minus_one_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case exponential_minus_one_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case log_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.log %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case log_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.log %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case log_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.log %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case log_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.log %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case log_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.log %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case log_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.log %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case log_plus_one_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.log_plus_one %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case log_plus_one_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.log_plus_one %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case log_plus_one_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.log_plus_one %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case log_plus_one_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.log_plus_one %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case log_plus_one_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.log_plus_one %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case log_plus_one_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.log_plus_one %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case logistic_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.logistic %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case logistic_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.logistic %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case logistic_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.logistic %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case logistic_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.logistic %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case logistic_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.logistic %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case logistic_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.logistic %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case negate_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.negate %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case negate_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.negate %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case negate_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case negate_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.negate %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case negate_s8
func.func public @main(%arg0: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.negate %arg0 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case negate_s16
func.func public @main(%arg0: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.negate %arg0 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case negate_s32
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.negate %arg0 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case negate_s64
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.negate %arg0 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case negate_u8
func.func public @main(%arg0: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.negate %arg0 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case negate_u16
func.func public @main(%arg0: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.negate %arg0 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case negate_u32
func.func public @main(%arg0: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.negate %arg0 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case negate_u64
func.func public @main(%arg0: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.negate %arg0 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case negate_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.negate %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case negate_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.negate %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case not_s8
func.func public @main(%arg0: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.not %arg0 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case not_s16
func.func public @main(%arg0: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.not %arg0 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case not_s32
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.not %arg0 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case not_s64
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.not %arg0 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case not_u8
func.func public @main(%arg0: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.not %arg0 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case not_u16
func.func public @main(%arg0: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.not %arg0 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case not_u32
func.func public @main(%arg0: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.not %arg0 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case not_u64
func.func public @main(%arg0: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.not %arg0 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case not_pred
func.func public @main(%arg0: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.not %arg0 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case popcnt_s8
func.func public @main(%arg0: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case popcnt_s16
func.func public @main(%arg0: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case popcnt_s32
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case popcnt_s64
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case popcnt_u8
func.func public @main(%arg0: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case popcnt_u16
func.func public @main(%arg0: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case popcnt_u32
func.func public @main(%arg0: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case popcnt_u64
func.func public @main(%arg0: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.popcnt %arg0 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case count_leading_zeros_s8
func.func public @main(%arg0: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case count_leading_zeros_s16
func.func public @main(%arg0: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case count_leading_zeros_s32
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case count_leading_zeros_s64
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case count_leading_zeros_u8
func.func public @main(%arg0: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case count_leading_zeros_u16
func.func public @main(%arg0: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case count_leading_zeros_u32
func.func public @main(%arg0: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case count_leading_zeros_u64
func.func public @main(%arg0: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case round_nearest_afz_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.round_nearest_afz %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case round_nearest_afz_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.round_nearest_afz %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case round_nearest_afz_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.round_nearest_afz %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case round_nearest_afz_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.round_nearest_afz %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case round_nearest_even_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case round_nearest_even_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case round_nearest_even_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case round_nearest_even_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case rsqrt_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.rsqrt %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case rsqrt_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.rsqrt %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case rsqrt_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.rsqrt %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case rsqrt_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.rsqrt %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case rsqrt_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.rsqrt %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case rsqrt_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.rsqrt %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case sqrt_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.sqrt %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case sqrt_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.sqrt %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case sqrt_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.sqrt %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case sqrt_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.sqrt %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case sqrt_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.sqrt %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case sqrt_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.sqrt %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case sign_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.sign %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case sign_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.sign %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case sign_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.sign %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case sign_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.sign %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case sign_s8
func.func public @main(%arg0: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.sign %arg0 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case sign_s32
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.sign %arg0 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case sign_s64
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.sign %arg0 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case sign_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.sign %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case sign_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.sign %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case tan_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.tan %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case tan_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.tan %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case tan_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.tan %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case tan_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.tan %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case tan_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.tan %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case tan_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.tan %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case tanh_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.tanh %arg0 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case tanh_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.tanh %arg0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case tanh_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case tanh_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.tanh %arg0 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case tanh_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.tanh %arg0 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case tanh_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.tanh %arg0 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case is_finite_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xi1> {
    %0 = stablehlo.is_finite %arg0 : (tensor<8xf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case is_finite_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xi1> {
    %0 = stablehlo.is_finite %arg0 : (tensor<8xbf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case is_finite_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.is_finite %arg0 : (tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case is_finite_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xi1> {
    %0 = stablehlo.is_finite %arg0 : (tensor<8xf64>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case real_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xf32> {
    %0 = stablehlo.real %arg0 : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case imag_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xf32> {
    %0 = stablehlo.imag %arg0 : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case complex_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case real_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xf64> {
    %0 = stablehlo.real %arg0 : (tensor<8xcomplex<f64>>) -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case imag_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xf64> {
    %0 = stablehlo.imag %arg0 : (tensor<8xcomplex<f64>>) -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case complex_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case add_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case add_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case add_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case add_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case add_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case add_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case add_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case add_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case add_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case add_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case add_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case add_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case add_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>, %arg1: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case add_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>, %arg1: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case add_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case subtract_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case subtract_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case subtract_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case subtract_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case subtract_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case subtract_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case subtract_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case subtract_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case subtract_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case subtract_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case subtract_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case subtract_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case subtract_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>, %arg1: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case subtract_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>, %arg1: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case multiply_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case multiply_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case multiply_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case multiply_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case multiply_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case multiply_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case multiply_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case multiply_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case multiply_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case multiply_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case multiply_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case multiply_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case multiply_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>, %arg1: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case multiply_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>, %arg1: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case multiply_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case divide_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case divide_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case divide_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case divide_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case divide_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case divide_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case divide_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case divide_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case divide_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case divide_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case divide_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case divide_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case divide_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>, %arg1: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case divide_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>, %arg1: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case remainder_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case remainder_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case remainder_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case remainder_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case remainder_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case remainder_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case remainder_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case remainder_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case remainder_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case remainder_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case remainder_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case remainder_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case maximum_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case maximum_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case maximum_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case maximum_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case maximum_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case maximum_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case maximum_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case maximum_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case maximum_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case maximum_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case maximum_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case maximum_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case maximum_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case minimum_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case minimum_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case minimum_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case minimum_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case minimum_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case minimum_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case minimum_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case minimum_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case minimum_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case minimum_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case minimum_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case minimum_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case minimum_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case power_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case power_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case power_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case power_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case power_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case power_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case power_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case atan2_f16
func.func public @main(%arg0: tensor<8xf16>, %arg1: tensor<8xf16>) -> tensor<8xf16> {
    %0 = stablehlo.atan2 %arg0, %arg1 : tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case atan2_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.atan2 %arg0, %arg1 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case atan2_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.atan2 %arg0, %arg1 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case atan2_f64
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xf64> {
    %0 = stablehlo.atan2 %arg0, %arg1 : tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case and_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case and_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case and_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case and_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case and_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case and_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case and_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case and_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case and_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case or_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case or_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case or_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case or_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case or_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case or_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case or_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case or_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case or_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case xor_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case xor_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case xor_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case xor_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case xor_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case xor_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case xor_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case xor_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case xor_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case shift_left_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case shift_left_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case shift_left_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case shift_left_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case shift_left_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case shift_left_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case shift_left_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case shift_left_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case shift_right_arithmetic_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case shift_right_arithmetic_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case shift_right_arithmetic_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case shift_right_arithmetic_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case shift_right_arithmetic_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case shift_right_arithmetic_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case shift_right_arithmetic_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case shift_right_arithmetic_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case shift_right_logical_s8
func.func public @main(%arg0: tensor<8xi8>, %arg1: tensor<8xi8>) -> tensor<8xi8> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case shift_right_logical_s16
func.func public @main(%arg0: tensor<8xi16>, %arg1: tensor<8xi16>) -> tensor<8xi16> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case shift_right_logical_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case shift_right_logical_s64
func.func public @main(%arg0: tensor<8xi64>, %arg1: tensor<8xi64>) -> tensor<8xi64> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case shift_right_logical_u8
func.func public @main(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>) -> tensor<8xui8> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case shift_right_logical_u16
func.func public @main(%arg0: tensor<8xui16>, %arg1: tensor<8xui16>) -> tensor<8xui16> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xui16>
    return %0 : tensor<8xui16>
}

// ----- case shift_right_logical_u32
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xui32> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case shift_right_logical_u64
func.func public @main(%arg0: tensor<8xui64>, %arg1: tensor<8xui64>) -> tensor<8xui64> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case compare_EQ_f32_FLOAT
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_EQ_f32_TOTALORDER
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare EQ, %arg0, %arg1, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_EQ_s32_SIGNED
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi1> {
    %0 = stablehlo.compare EQ, %arg0, %arg1, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_EQ_u32_UNSIGNED
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xi1> {
    %0 = stablehlo.compare EQ, %arg0, %arg1, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_EQ_bf16_FLOAT
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xi1> {
    %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_EQ_pred_UNSIGNED
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.compare EQ, %arg0, %arg1, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_EQ_f64_FLOAT
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xi1> {
    %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_NE_f32_FLOAT
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_NE_f32_TOTALORDER
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare NE, %arg0, %arg1, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_NE_s32_SIGNED
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi1> {
    %0 = stablehlo.compare NE, %arg0, %arg1, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_NE_u32_UNSIGNED
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xi1> {
    %0 = stablehlo.compare NE, %arg0, %arg1, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_NE_bf16_FLOAT
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xi1> {
    %0 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_NE_pred_UNSIGNED
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.compare NE, %arg0, %arg1, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_NE_f64_FLOAT
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xi1> {
    %0 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LT_f32_FLOAT
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LT_f32_TOTALORDER
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LT, %arg0, %arg1, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LT_s32_SIGNED
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LT, %arg0, %arg1, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LT_u32_UNSIGNED
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LT, %arg0, %arg1, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LT_bf16_FLOAT
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xi1> {
    %0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LT_pred_UNSIGNED
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.compare LT, %arg0, %arg1, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LT_f64_FLOAT
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xi1> {
    %0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LE_f32_FLOAT
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LE_f32_TOTALORDER
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg1, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LE_s32_SIGNED
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg1, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LE_u32_UNSIGNED
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg1, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LE_bf16_FLOAT
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg1, FLOAT : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LE_pred_UNSIGNED
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg1, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_LE_f64_FLOAT
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg1, FLOAT : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GT_f32_FLOAT
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GT_f32_TOTALORDER
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GT, %arg0, %arg1, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GT_s32_SIGNED
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GT, %arg0, %arg1, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GT_u32_UNSIGNED
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GT, %arg0, %arg1, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GT_bf16_FLOAT
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xi1> {
    %0 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GT_pred_UNSIGNED
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.compare GT, %arg0, %arg1, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GT_f64_FLOAT
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xi1> {
    %0 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GE_f32_FLOAT
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GE_f32_TOTALORDER
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GE, %arg0, %arg1, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GE_s32_SIGNED
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GE, %arg0, %arg1, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GE_u32_UNSIGNED
func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> tensor<8xi1> {
    %0 = stablehlo.compare GE, %arg0, %arg1, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GE_bf16_FLOAT
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> tensor<8xi1> {
    %0 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GE_pred_UNSIGNED
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.compare GE, %arg0, %arg1, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case compare_GE_f64_FLOAT
func.func public @main(%arg0: tensor<8xf64>, %arg1: tensor<8xf64>) -> tensor<8xi1> {
    %0 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case convert_f32_f16
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf16> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case convert_f32_bf16
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xbf16> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case convert_f32_f64
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf64> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case convert_f32_s8
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi8> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case convert_f32_s32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case convert_f32_s64
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi64> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xi64>
    return %0 : tensor<8xi64>
}

// ----- case convert_f32_u8
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xui8> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xui8>
    return %0 : tensor<8xui8>
}

// ----- case convert_f32_u32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xui32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case convert_f32_pred
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case convert_f32_c64
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case convert_f32_f8e4m3fn
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf8E4M3FN> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
    return %0 : tensor<8xf8E4M3FN>
}

// ----- case convert_f32_f8e5m2
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf8E5M2> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xf8E5M2>
    return %0 : tensor<8xf8E5M2>
}

// ----- case convert_f32_s4
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi4> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xi4>
    return %0 : tensor<8xi4>
}

// ----- case convert_f32_u4
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xui4> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xui4>
    return %0 : tensor<8xui4>
}

// ----- case convert_f16_f32
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf16>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_bf16_f32
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xbf16>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_f64_f32
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf64>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_s8_f32
func.func public @main(%arg0: tensor<8xi8>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi8>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_s32_f32
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_s64_f32
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi64>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_u8_f32
func.func public @main(%arg0: tensor<8xui8>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xui8>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_u32_f32
func.func public @main(%arg0: tensor<8xui32>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xui32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_pred_f32
func.func public @main(%arg0: tensor<8xi1>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi1>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_f8e4m3fn_f32
func.func public @main(%arg0: tensor<8xf8E4M3FN>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_f8e5m2_f32
func.func public @main(%arg0: tensor<8xf8E5M2>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf8E5M2>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_s4_f32
func.func public @main(%arg0: tensor<8xi4>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi4>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_u4_f32
func.func public @main(%arg0: tensor<8xui4>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xui4>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_s32_s8
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi8> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi32>) -> tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case convert_s64_u32
func.func public @main(%arg0: tensor<8xi64>) -> tensor<8xui32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi64>) -> tensor<8xui32>
    return %0 : tensor<8xui32>
}

// ----- case convert_u8_s8
func.func public @main(%arg0: tensor<8xui8>) -> tensor<8xi8> {
    %0 = stablehlo.convert %arg0 : (tensor<8xui8>) -> tensor<8xi8>
    return %0 : tensor<8xi8>
}

// ----- case convert_c64_c128
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f64>> {
    %0 = stablehlo.convert %arg0 : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case convert_f64_bf16
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xbf16> {
    %0 = stablehlo.convert %arg0 : (tensor<8xf64>) -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case convert_s32_pred
func.func public @main(%arg0: tensor<8xi32>) -> tensor<8xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<8xi32>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case convert_c64_pred
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<8xcomplex<f32>>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case convert_c128_pred
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<8xcomplex<f64>>) -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case convert_c64_s32
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xi32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xcomplex<f32>>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case convert_c128_f32
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<8xcomplex<f64>>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case convert_c64_f64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xf64> {
    %0 = stablehlo.convert %arg0 : (tensor<8xcomplex<f32>>) -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case bitcast_convert_f32_s32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi32> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<8xf32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case bitcast_convert_f32_u8
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8x4xui8> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<8xf32>) -> tensor<8x4xui8>
    return %0 : tensor<8x4xui8>
}

// ----- case bitcast_convert_f64_u64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xui64> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<8xf64>) -> tensor<8xui64>
    return %0 : tensor<8xui64>
}

// ----- case bitcast_convert_bf16_s16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xi16> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<8xbf16>) -> tensor<8xi16>
    return %0 : tensor<8xi16>
}

// ----- case bitcast_convert_u8_f8e4m3fn
func.func public @main(%arg0: tensor<8xui8>) -> tensor<8xf8E4M3FN> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<8xui8>) -> tensor<8xf8E4M3FN>
    return %0 : tensor<8xf8E4M3FN>
}

// ----- case select_f32
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case clamp_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case select_s32
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi32>, %arg2: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case clamp_s32
func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>, %arg2: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : tensor<8xi32>
    return %0 : tensor<8xi32>
}

// ----- case select_bf16
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xbf16>, %arg2: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case clamp_bf16
func.func public @main(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>, %arg2: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case select_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>, %arg2: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case clamp_pred
func.func public @main(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>, %arg2: tensor<8xi1>) -> tensor<8xi1> {
    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case reduce_precision_f32_e5m10
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case reduce_precision_f32_e8m7
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.reduce_precision %arg0, format = e8m7 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case reduce_precision_f32_e4m3
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.reduce_precision %arg0, format = e4m3 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case reduce_precision_f32_e5m2
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.reduce_precision %arg0, format = e5m2 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case reduce_precision_f32_e1m0
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.reduce_precision %arg0, format = e1m0 : tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case reduce_precision_bf16_e5m10
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case reduce_precision_bf16_e8m7
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.reduce_precision %arg0, format = e8m7 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case reduce_precision_bf16_e4m3
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.reduce_precision %arg0, format = e4m3 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case reduce_precision_bf16_e5m2
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.reduce_precision %arg0, format = e5m2 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case reduce_precision_bf16_e1m0
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.reduce_precision %arg0, format = e1m0 : tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case broadcast_in_dim
func.func public @main(%arg0: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<2x4x3xf32>
    return %0 : tensor<2x4x3xf32>
}

// ----- case broadcast_in_dim_transposing
func.func public @main(%arg0: tensor<2x3xi32>) -> tensor<3x4x2xi32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 0] : (tensor<2x3xi32>) -> tensor<3x4x2xi32>
    return %0 : tensor<3x4x2xi32>
}

// ----- case broadcast
func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<4x2x3xf32> {
    %0 = stablehlo.broadcast %arg0, sizes = [4] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
    return %0 : tensor<4x2x3xf32>
}

// ----- case reshape
func.func public @main(%arg0: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
    %0 = stablehlo.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    return %0 : tensor<6x4xf32>
}

// ----- case transpose
func.func public @main(%arg0: tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16> {
    %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
    return %0 : tensor<4x2x3xbf16>
}

// ----- case reverse
func.func public @main(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0, 1] : tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
}

// ----- case concatenate
func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<4x3xf32>) -> tensor<6x3xf32> {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    return %0 : tensor<6x3xf32>
}

// ----- case slice_strided
func.func public @main(%arg0: tensor<6x8xf32>) -> tensor<3x2xf32> {
    %0 = stablehlo.slice %arg0 [0:6:2, 1:7:3] : (tensor<6x8xf32>) -> tensor<3x2xf32>
    return %0 : tensor<3x2xf32>
}

// ----- case iota_u8
func.func public @main() -> tensor<3x4xui8> {
    %0 = stablehlo.iota dim = 1 : tensor<3x4xui8>
    return %0 : tensor<3x4xui8>
}

// ----- case iota_f32
func.func public @main() -> tensor<5xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<5xf32>
    return %0 : tensor<5xf32>
}

// ----- case dynamic_slice
func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<2x3xf32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg2, sizes = [2, 3] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
}

// ----- case dynamic_update_slice
func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<i64>, %arg3: tensor<i64>) -> tensor<6x8xf32> {
    %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<6x8xf32>
    return %0 : tensor<6x8xf32>
}

// ----- case pad
func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<f32>) -> tensor<6x8xf32> {
    %0 = stablehlo.pad %arg0, %arg1, low = [1, -1], high = [0, 2], interior = [1, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<6x8xf32>
    return %0 : tensor<6x8xf32>
}

// ----- case tuple_get_tuple_element
func.func public @main(%arg0: tensor<2xf32>, %arg1: tensor<3xi32>) -> tensor<3xi32> {
    %0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<2xf32>, tensor<3xi32>>
    %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
    return %1 : tensor<3xi32>
}

// ----- case optimization_barrier
func.func public @main(%arg0: tensor<2xf32>, %arg1: tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>) {
    %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<2xf32>, tensor<3xi32>
    return %0#0, %0#1 : tensor<2xf32>, tensor<3xi32>
}

// ----- case constants
func.func public @main() -> (tensor<2x2xf32>, tensor<2xcomplex<f32>>, tensor<3xi1>, tensor<2xbf16>, tensor<2xui8>) {
    %0 = stablehlo.constant dense<[[1.500000e+00, -2.000000e+00], [0x7FC00000, 0xFF800000]]> : tensor<2x2xf32>
    %1 = stablehlo.constant dense<[(1.000000e+00,2.000000e+00), (-0.000000e+00,3.500000e+00)]> : tensor<2xcomplex<f32>>
    %2 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    %3 = stablehlo.constant dense<"0x803F0040"> : tensor<2xbf16>
    %4 = stablehlo.constant dense<255> : tensor<2xui8>
    return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<2xcomplex<f32>>, tensor<3xi1>, tensor<2xbf16>, tensor<2xui8>
}

// ----- case dot_general_f32_f32
func.func public @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    return %0 : tensor<2x3x5xf32>
}

// ----- case dot_general_f64_f64
func.func public @main(%arg0: tensor<2x3x4xf64>, %arg1: tensor<2x4x5xf64>) -> tensor<2x3x5xf64> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>
    return %0 : tensor<2x3x5xf64>
}

// ----- case dot_general_bf16_bf16
func.func public @main(%arg0: tensor<2x3x4xbf16>, %arg1: tensor<2x4x5xbf16>) -> tensor<2x3x5xbf16> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xbf16>, tensor<2x4x5xbf16>) -> tensor<2x3x5xbf16>
    return %0 : tensor<2x3x5xbf16>
}

// ----- case dot_general_s32_s32
func.func public @main(%arg0: tensor<2x3x4xi32>, %arg1: tensor<2x4x5xi32>) -> tensor<2x3x5xi32> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
    return %0 : tensor<2x3x5xi32>
}

// ----- case dot_general_s8_s32
func.func public @main(%arg0: tensor<2x3x4xi8>, %arg1: tensor<2x4x5xi8>) -> tensor<2x3x5xi32> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xi8>, tensor<2x4x5xi8>) -> tensor<2x3x5xi32>
    return %0 : tensor<2x3x5xi32>
}

// ----- case dot_general_c64_c64
func.func public @main(%arg0: tensor<2x3x4xcomplex<f32>>, %arg1: tensor<2x4x5xcomplex<f32>>) -> tensor<2x3x5xcomplex<f32>> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xcomplex<f32>>, tensor<2x4x5xcomplex<f32>>) -> tensor<2x3x5xcomplex<f32>>
    return %0 : tensor<2x3x5xcomplex<f32>>
}

// ----- case dot_general_f16_f32
func.func public @main(%arg0: tensor<2x3x4xf16>, %arg1: tensor<2x4x5xf16>) -> tensor<2x3x5xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf16>, tensor<2x4x5xf16>) -> tensor<2x3x5xf32>
    return %0 : tensor<2x3x5xf32>
}

// ----- case dot
func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<4xf32>) -> tensor<3xf32> {
    %0 = stablehlo.dot %arg0, %arg1 : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
}

// ----- case convolution
func.func public @main(%arg0: tensor<1x6x6x2xf32>, %arg1: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
    return %0 : tensor<1x3x3x4xf32>
}

// ----- case convolution_generic
func.func public @main(%arg0: tensor<2x4x5xf32>, %arg1: tensor<6x2x3xf32>) -> tensor<2x6x4xf32> {
    %0 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 2 : i64, lhs_dilation = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 2>, window_strides = array<i64: 2>}> : (tensor<2x4x5xf32>, tensor<6x2x3xf32>) -> tensor<2x6x4xf32>
    return %0 : tensor<2x6x4xf32>
}

// ----- case fft_FFT
func.func public @main(%arg0: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    return %0 : tensor<3x8xcomplex<f32>>
}

// ----- case fft_IFFT
func.func public @main(%arg0: tensor<4x4xcomplex<f64>>) -> tensor<4x4xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [4, 4] : (tensor<4x4xcomplex<f64>>) -> tensor<4x4xcomplex<f64>>
    return %0 : tensor<4x4xcomplex<f64>>
}

// ----- case fft_RFFT
func.func public @main(%arg0: tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [8] : (tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>>
    return %0 : tensor<2x5xcomplex<f32>>
}

// ----- case fft_IRFFT
func.func public @main(%arg0: tensor<2x5xcomplex<f32>>) -> tensor<2x8xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [8] : (tensor<2x5xcomplex<f32>>) -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
}

// ----- case reduce_applies
func.func public @main(%arg0: tensor<3x4xf32>) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
}

// ----- case reduce_argmax_variadic
func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [1] : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
      %1 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %a, %b : tensor<i1>, tensor<f32>
      %3 = stablehlo.select %1, %i, %j : tensor<i1>, tensor<i32>
      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
    }
    return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
}

// ----- case reduce_window_max
func.func public @main(%arg0: tensor<4x6xf32>) -> tensor<2x3xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
}

// ----- case select_and_scatter
func.func public @main(%arg0: tensor<4x4xf32>, %arg1: tensor<2x2xf32>) -> tensor<4x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %cst) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
}

// ----- case sort_two_keys
func.func public @main(%arg0: tensor<2x5xf32>, %arg1: tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
      %1 = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>)
    return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xi32>
}

// ----- case gather
func.func public @main(%arg0: tensor<5x4xf32>, %arg1: tensor<3x1xi32>) -> tensor<3x2xf32> {
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    return %0 : tensor<3x2xf32>
}

// ----- case scatter_add
func.func public @main(%arg0: tensor<5x4xf32>, %arg1: tensor<3x1xi32>, %arg2: tensor<3x4xf32>) -> tensor<5x4xf32> {
    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    return %0 : tensor<5x4xf32>
}

// ----- case map
func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> tensor<6xf32> {
    %0 = "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.multiply %a, %b : tensor<f32>
      %2 = stablehlo.add %1, %a : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    return %0 : tensor<6xf32>
}

// ----- case while_captures
func.func public @main(%arg0: tensor<i32>, %arg1: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0:2 = stablehlo.while(%i = %arg0, %x = %arg1) : tensor<i32>, tensor<3xf32>
    cond {
      %c5 = stablehlo.constant dense<5> : tensor<i32>
      %1 = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.add %i, %c : tensor<i32>
      %2 = stablehlo.add %x, %arg1 : tensor<3xf32>
      stablehlo.return %1, %2 : tensor<i32>, tensor<3xf32>
    }
    return %0#0, %0#1 : tensor<i32>, tensor<3xf32>
}

// ----- case if_captures
func.func public @main(%arg0: tensor<i1>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>) -> tensor<3xf32> {
    %0 = "stablehlo.if"(%arg0) ({
      %1 = stablehlo.add %arg1, %arg2 : tensor<3xf32>
      stablehlo.return %1 : tensor<3xf32>
    }, {
      %1 = stablehlo.sine %arg1 : tensor<3xf32>
      stablehlo.return %1 : tensor<3xf32>
    }) : (tensor<i1>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
}

// ----- case case_three_branches
func.func public @main(%arg0: tensor<i32>, %arg1: tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>) {
    %0:2 = "stablehlo.case"(%arg0) ({
      %c = stablehlo.constant dense<7> : tensor<i32>
      stablehlo.return %arg1, %c : tensor<3xf32>, tensor<i32>
    }, {
      %1 = stablehlo.negate %arg1 : tensor<3xf32>
      %c = stablehlo.constant dense<8> : tensor<i32>
      stablehlo.return %1, %c : tensor<3xf32>, tensor<i32>
    }, {
      %1 = stablehlo.exponential %arg1 : tensor<3xf32>
      %c = stablehlo.constant dense<9> : tensor<i32>
      stablehlo.return %1, %c : tensor<3xf32>, tensor<i32>
    }) : (tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
    return %0#0, %0#1 : tensor<3xf32>, tensor<i32>
}

// ----- case call_private_function
func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0:2 = call @twice(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %1 = func.call @twice_more(%0#1) : (tensor<4xf32>) -> tensor<4xf32>
    return %0#0, %1 : tensor<4xf32>, tensor<4xf32>
}
func.func private @twice(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    return %0, %arg0 : tensor<4xf32>, tensor<4xf32>
}
func.func private @twice_more(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
}

// ----- case composite
func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.composite "my.square" %arg0 {composite_attributes = {power = 2 : i64}, decomposition = @square} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
}
func.func private @square(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
}

// ----- case rng_bit_generator_THREE_FRY
func.func public @main(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>) {
    %0, %1 = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
    return %0, %1 : tensor<2xui64>, tensor<2x3xui32>
}

// ----- case rng_bit_generator_PHILOX
func.func public @main(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>) {
    %0, %1 = stablehlo.rng_bit_generator %arg0, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
    return %0, %1 : tensor<2xui64>, tensor<2x3xui32>
}

// ----- case batch_norm_inference
func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<3xf32>) -> tensor<2x3xf32> {
    %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
}

// ----- case batch_norm_training
func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
    %0:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
    return %0#0, %0#1, %0#2 : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
}

// ----- case replica_and_partition_id
func.func public @main() -> (tensor<ui32>, tensor<ui32>) {
    %0 = stablehlo.replica_id : tensor<ui32>
    %1 = stablehlo.partition_id : tensor<ui32>
    return %0, %1 : tensor<ui32>, tensor<ui32>
}

// ----- case all_reduce_one_device
func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
}

// ----- case generic_form_elementwise
func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xi1> {
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.compare"(%0, %arg1) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    "func.return"(%1) : (tensor<4xi1>) -> ()
}

// ----- case chlo_erf_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = chlo.erf %arg0 : tensor<8xf16> -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case chlo_erf_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = chlo.erf %arg0 : tensor<8xbf16> -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case chlo_erf_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.erf %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_erf_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.erf %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_erfc_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = chlo.erfc %arg0 : tensor<8xf16> -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case chlo_erfc_spread_f16
func.func public @main(%arg0: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.erfc %arg0 : tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_erfc_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = chlo.erfc %arg0 : tensor<8xbf16> -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case chlo_erfc_spread_bf16
func.func public @main(%arg0: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.erfc %arg0 : tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_erfc_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.erfc %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_erfc_spread_f32
func.func public @main(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.erfc %arg0 : tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_erfc_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.erfc %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_erfc_spread_f64
func.func public @main(%arg0: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.erfc %arg0 : tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_erf_inv_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = chlo.erf_inv %arg0 : tensor<8xf16> -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case chlo_erf_inv_spread_f16
func.func public @main(%arg0: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.erf_inv %arg0 : tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_erf_inv_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = chlo.erf_inv %arg0 : tensor<8xbf16> -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case chlo_erf_inv_spread_bf16
func.func public @main(%arg0: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.erf_inv %arg0 : tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_erf_inv_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.erf_inv %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_erf_inv_spread_f32
func.func public @main(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.erf_inv %arg0 : tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_erf_inv_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.erf_inv %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_erf_inv_spread_f64
func.func public @main(%arg0: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.erf_inv %arg0 : tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_lgamma_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = chlo.lgamma %arg0 : tensor<8xf16> -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case chlo_lgamma_spread_f16
func.func public @main(%arg0: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.lgamma %arg0 : tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_lgamma_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = chlo.lgamma %arg0 : tensor<8xbf16> -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case chlo_lgamma_spread_bf16
func.func public @main(%arg0: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.lgamma %arg0 : tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_lgamma_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.lgamma %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_lgamma_spread_f32
func.func public @main(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.lgamma %arg0 : tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_lgamma_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.lgamma %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_lgamma_spread_f64
func.func public @main(%arg0: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.lgamma %arg0 : tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_digamma_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = chlo.digamma %arg0 : tensor<8xf16> -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case chlo_digamma_spread_f16
func.func public @main(%arg0: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.digamma %arg0 : tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_digamma_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = chlo.digamma %arg0 : tensor<8xbf16> -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case chlo_digamma_spread_bf16
func.func public @main(%arg0: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.digamma %arg0 : tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_digamma_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.digamma %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_digamma_spread_f32
func.func public @main(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.digamma %arg0 : tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_digamma_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.digamma %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_digamma_spread_f64
func.func public @main(%arg0: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.digamma %arg0 : tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_bessel_i1e_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = chlo.bessel_i1e %arg0 : tensor<8xf16> -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case chlo_bessel_i1e_spread_f16
func.func public @main(%arg0: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.bessel_i1e %arg0 : tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_bessel_i1e_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = chlo.bessel_i1e %arg0 : tensor<8xbf16> -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case chlo_bessel_i1e_spread_bf16
func.func public @main(%arg0: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.bessel_i1e %arg0 : tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_bessel_i1e_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.bessel_i1e %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_bessel_i1e_spread_f32
func.func public @main(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.bessel_i1e %arg0 : tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_bessel_i1e_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.bessel_i1e %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_bessel_i1e_spread_f64
func.func public @main(%arg0: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.bessel_i1e %arg0 : tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_tan_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.tan %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_tan_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.tan %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_sinh_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.sinh %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_sinh_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.sinh %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_cosh_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.cosh %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_cosh_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.cosh %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_asin_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.asin %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_asin_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.asin %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_acos_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.acos %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_acos_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.acos %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_atan_f16
func.func public @main(%arg0: tensor<8xf16>) -> tensor<8xf16> {
    %0 = chlo.atan %arg0 : tensor<8xf16> -> tensor<8xf16>
    return %0 : tensor<8xf16>
}

// ----- case chlo_atan_bf16
func.func public @main(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = chlo.atan %arg0 : tensor<8xbf16> -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
}

// ----- case chlo_atan_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.atan %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_atan_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.atan %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_asinh_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.asinh %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_asinh_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.asinh %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_acosh_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.acosh %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_acosh_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.acosh %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_atanh_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.atanh %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_atanh_f64
func.func public @main(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = chlo.atanh %arg0 : tensor<8xf64> -> tensor<8xf64>
    return %0 : tensor<8xf64>
}

// ----- case chlo_tan_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.tan %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_tan_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.tan %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_sinh_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.sinh %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_sinh_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.sinh %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_cosh_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.cosh %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_cosh_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.cosh %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_asin_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.asin %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_asin_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.asin %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_acos_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.acos %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_acos_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.acos %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_asinh_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.asinh %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_asinh_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.asinh %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_acosh_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.acosh %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_acosh_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.acosh %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_atanh_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.atanh %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_atanh_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.atanh %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_atan_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.atan %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_atan_c128
func.func public @main(%arg0: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
    %0 = chlo.atan %arg0 : tensor<8xcomplex<f64>> -> tensor<8xcomplex<f64>>
    return %0 : tensor<8xcomplex<f64>>
}

// ----- case chlo_next_after_f16
func.func public @main(%arg0: tensor<64xf16>, %arg1: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.next_after %arg0, %arg1 : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_next_after_bf16
func.func public @main(%arg0: tensor<64xbf16>, %arg1: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.next_after %arg0, %arg1 : tensor<64xbf16>, tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_next_after_f32
func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.next_after %arg0, %arg1 : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_next_after_f64
func.func public @main(%arg0: tensor<64xf64>, %arg1: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.next_after %arg0, %arg1 : tensor<64xf64>, tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_next_after_edges_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.next_after %arg0, %arg1 : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_zeta_f16
func.func public @main(%arg0: tensor<64xf16>, %arg1: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.zeta %arg0, %arg1 : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_zeta_bf16
func.func public @main(%arg0: tensor<64xbf16>, %arg1: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.zeta %arg0, %arg1 : tensor<64xbf16>, tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_zeta_f32
func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.zeta %arg0, %arg1 : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_zeta_f64
func.func public @main(%arg0: tensor<64xf64>, %arg1: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.zeta %arg0, %arg1 : tensor<64xf64>, tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_zeta_edges_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.zeta %arg0, %arg1 : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_polygamma_f16
func.func public @main(%arg0: tensor<64xf16>, %arg1: tensor<64xf16>) -> tensor<64xf16> {
    %0 = chlo.polygamma %arg0, %arg1 : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16>
    return %0 : tensor<64xf16>
}

// ----- case chlo_polygamma_bf16
func.func public @main(%arg0: tensor<64xbf16>, %arg1: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = chlo.polygamma %arg0, %arg1 : tensor<64xbf16>, tensor<64xbf16> -> tensor<64xbf16>
    return %0 : tensor<64xbf16>
}

// ----- case chlo_polygamma_f32
func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>) -> tensor<64xf32> {
    %0 = chlo.polygamma %arg0, %arg1 : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
}

// ----- case chlo_polygamma_f64
func.func public @main(%arg0: tensor<64xf64>, %arg1: tensor<64xf64>) -> tensor<64xf64> {
    %0 = chlo.polygamma %arg0, %arg1 : tensor<64xf64>, tensor<64xf64> -> tensor<64xf64>
    return %0 : tensor<64xf64>
}

// ----- case chlo_polygamma_edges_f32
func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.polygamma %arg0, %arg1 : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case chlo_top_k
func.func public @main(%arg0: tensor<3x6xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
    %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<3x6xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
    return %values, %indices : tensor<3x2xf32>, tensor<3x2xi32>
}

// ----- case chlo_is_inf_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi1> {
    %0 = chlo.is_inf %arg0 : tensor<8xf32> -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case chlo_is_pos_inf_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi1> {
    %0 = chlo.is_pos_inf %arg0 : tensor<8xf32> -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case chlo_is_neg_inf_f32
func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xi1> {
    %0 = chlo.is_neg_inf %arg0 : tensor<8xf32> -> tensor<8xi1>
    return %0 : tensor<8xi1>
}

// ----- case chlo_conj_c64
func.func public @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
    %0 = chlo.conj %arg0 : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
    return %0 : tensor<8xcomplex<f32>>
}

// ----- case chlo_broadcast_add
func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
    %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
}

// ----- case chlo_broadcast_multiply_dims
func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
    %0 = chlo.broadcast_multiply %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
}

// ----- case chlo_broadcast_compare
func.func public @main(%arg0: tensor<2x3xi32>, %arg1: tensor<1x3xi32>) -> tensor<2x3xi1> {
    %0 = chlo.broadcast_compare %arg0, %arg1 {comparison_direction = #chlo<comparison_direction GE>} : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
    return %0 : tensor<2x3xi1>
}

// ----- case cholesky_lower
func.func public @main(%arg0: tensor<3x3xf32>) -> tensor<3x3xf32> {
    %0 = stablehlo.cholesky %arg0, lower = true : tensor<3x3xf32>
    return %0 : tensor<3x3xf32>
}

// ----- case triangular_solve
func.func public @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3x2xf32>) -> tensor<3x2xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    return %0 : tensor<3x2xf32>
}

// ----- case batch_norm_grad
func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
    %0:3 = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
    return %0#0, %0#1, %0#2 : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
}

// ----- case get_dimension_size
func.func public @main(%arg0: tensor<5x3xf32>) -> tensor<i32> {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
    return %0 : tensor<i32>
}

// ----- case clamp_scalar_bounds
func.func public @main(%arg0: tensor<f32>, %arg1: tensor<8xf32>, %arg2: tensor<f32>) -> tensor<8xf32> {
    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : (tensor<f32>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
}

// ----- case rng_bit_generator_DEFAULT
func.func public @main(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>) {
    %0, %1 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
    return %0, %1 : tensor<2xui64>, tensor<3xui64>
}

// ----- case all_gather_one_device
func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
}

// ----- case reduce_scatter_one_device
func.func public @main(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = "stablehlo.reduce_scatter"(%arg0) <{scatter_dimension = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
}

// ----- case all_to_all_one_device
func.func public @main(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, split_count = 1 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
}

// ----- case collective_permute_one_device
func.func public @main(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
}

// ----- case after_all_and_create_token
func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %t0 = stablehlo.create_token : !stablehlo.token
    %t1 = stablehlo.after_all %t0, %t0 : !stablehlo.token
    %0 = stablehlo.negate %arg0 : tensor<2xf32>
    return %0 : tensor<2xf32>
}

// ----- case dynamic_pad_constant
func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<5x9xf32> {
    %lo = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
    %hi = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
    %in = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %0 = stablehlo.dynamic_pad %arg0, %arg1, %lo, %hi, %in : (tensor<2x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x9xf32>
    return %0 : tensor<5x9xf32>
}

// ----- case dynamic_pad_negative
func.func public @main(%arg0: tensor<4x3xi32>, %arg1: tensor<i32>) -> tensor<3x5xi32> {
    %lo = stablehlo.constant dense<[-1, 1]> : tensor<2xi32>
    %hi = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
    %in = stablehlo.constant dense<0> : tensor<2xi32>
    %0 = stablehlo.dynamic_pad %arg0, %arg1, %lo, %hi, %in : (tensor<4x3xi32>, tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x5xi32>
    return %0 : tensor<3x5xi32>
}

// ----- case real_dynamic_slice_constant
func.func public @main(%arg0: tensor<3x4xf32>) -> tensor<2x2xf32> {
    %s = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
    %l = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
    %k = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %0 = stablehlo.real_dynamic_slice %arg0, %s, %l, %k : (tensor<3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
}

// ----- case dynamic_gather_constant
func.func public @main(%arg0: tensor<3x4x2xf32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32> {
    %sz = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
    %0 = "stablehlo.dynamic_gather"(%arg0, %arg1, %sz) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false} : (tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xf32>
    return %0 : tensor<2x3x2x2xf32>
}

// ----- case dynamic_conv_constant
func.func public @main(%arg0: tensor<1x5x4x2xf32>, %arg1: tensor<3x2x2x3xf32>) -> tensor<1x3x5x3xf32> {
    %p = stablehlo.constant dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>
    %0 = "stablehlo.dynamic_conv"(%arg0, %arg1, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, window_strides = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>} : (tensor<1x5x4x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi64>) -> tensor<1x3x5x3xf32>
    return %0 : tensor<1x3x5x3xf32>
}
