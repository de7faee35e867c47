// Dot product into a 0-d tensor<f32> with linalg.dot.
func.func @dot_0d(%x: tensor<512xf32>, %y: tensor<512xf32>) -> tensor<f32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.dot ins(%x, %y : tensor<512xf32>, tensor<512xf32>) outs(%init : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
