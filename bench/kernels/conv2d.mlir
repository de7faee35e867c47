// 2-D convolution, f32 NHWC input 1x56x56x64 with HWCF filter 3x3x64x64, stride 1, no padding -> 1x54x54x64.
module {
  func.func @conv2d(%input: tensor<1x56x56x64xf32>, %filter: tensor<3x3x64x64xf32>) -> tensor<1x54x54x64xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<1x54x54x64xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
    %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%input, %filter : tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>)
        outs(%init : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
    return %out : tensor<1x54x54x64xf32>
  }
}
