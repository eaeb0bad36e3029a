module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xcomplex<f32>>, %arg2: tensor<4x5xcomplex<f32>>) -> (tensor<4x8xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<4x8xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<4x5xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<4x8xf32> {jax.result_info = "result[3]"}, tensor<4x8xcomplex<f32>> {jax.result_info = "result[4]"}) {
    %0 = call @fft(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %1 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<4x8xcomplex<f32>>) -> tensor<8x4xcomplex<f32>>
    %2 = call @fft_0(%1) : (tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>>
    %3 = stablehlo.transpose %2, dims = [1, 0] : (tensor<8x4xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %4 = call @fft_1(%arg0) : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = call @_pad(%arg2, %c) : (tensor<4x5xcomplex<f32>>, tensor<i32>) -> tensor<4x5xcomplex<f32>>
    %6 = call @fft_2(%5) : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
    %7 = call @fft_3(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    return %0, %3, %4, %6, %7 : tensor<4x8xcomplex<f32>>, tensor<4x8xcomplex<f32>>, tensor<4x5xcomplex<f32>>, tensor<4x8xf32>, tensor<4x8xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    return %0 : tensor<4x8xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [4] : (tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>>
    return %0 : tensor<8x4xcomplex<f32>>
  }
  func.func private @fft_1(%arg0: tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
    return %0 : tensor<4x5xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<4x5xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<4x5xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4x5xcomplex<f32>>
    return %1 : tensor<4x5xcomplex<f32>>
  }
  func.func private @fft_2(%arg0: tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [8] : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @fft_3(%arg0: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [4, 8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    return %0 : tensor<4x8xcomplex<f32>>
  }
}
