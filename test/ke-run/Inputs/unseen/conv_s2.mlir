// NCHW/FCHW convolution, 3x3, stride 2, no padding: 2x8x33x33 -> 2x16x16x16.
func.func @conv_s2(%x: tensor<2x8x33x33xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x16x16xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x8x33x33xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  return %r : tensor<2x16x16x16xf32>
}
