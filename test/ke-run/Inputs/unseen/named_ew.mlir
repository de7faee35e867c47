// exp(max(a*b, c) + a) with named elementwise linalg ops.
func.func @named_ew(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<64x128xf32>
  %m = linalg.mul ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %x = linalg.max ins(%m, %c : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %s = linalg.add ins(%x, %a : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.exp ins(%s : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
