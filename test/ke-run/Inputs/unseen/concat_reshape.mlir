// concat along dim 1, collapse to 1-D, scale, expand to 3-D.
func.func @concat_reshape(%a: tensor<8x16xf32>, %b: tensor<8x48xf32>) -> tensor<4x2x64xf32> attributes {ke.kernel} {
  %c = tensor.concat dim(1) %a, %b : (tensor<8x16xf32>, tensor<8x48xf32>) -> tensor<8x64xf32>
  %flat = tensor.collapse_shape %c [[0, 1]] : tensor<8x64xf32> into tensor<512xf32>
  %two = arith.constant dense<2.0> : tensor<512xf32>
  %s = arith.mulf %flat, %two : tensor<512xf32>
  %r = tensor.expand_shape %s [[0, 1, 2]] output_shape [4, 2, 64] : tensor<512xf32> into tensor<4x2x64xf32>
  return %r : tensor<4x2x64xf32>
}
