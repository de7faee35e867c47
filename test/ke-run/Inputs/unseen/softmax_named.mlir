// The named linalg.softmax op over the last dimension.
func.func @softmax_named(%x: tensor<16x64x128xf32>) -> tensor<16x64x128xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<16x64x128xf32>
  %r = linalg.softmax dimension(2) ins(%x : tensor<16x64x128xf32>) outs(%e : tensor<16x64x128xf32>) -> tensor<16x64x128xf32>
  return %r : tensor<16x64x128xf32>
}
