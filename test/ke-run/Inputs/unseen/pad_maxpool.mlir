// tensor.pad with -inf, then 3x3 stride-2 max pooling in NHWC.
func.func @pad_maxpool(%x: tensor<2x32x32x8xf32>) -> tensor<2x16x16x8xf32> attributes {ke.kernel} {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<2x32x32x8xf32> to tensor<2x34x34x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x16x16x8xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %win : tensor<2x34x34x8xf32>, tensor<3x3xf32>) outs(%init : tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xf32>
  return %r : tensor<2x16x16x8xf32>
}
