// linalg.elementwise: sub then a unary negf, with a transposed-input map.
func.func @elementwise_op(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>) -> tensor<32x48xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<32x48xf32>
  %d = linalg.elementwise kind=#linalg.elementwise_kind<sub>
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>]
      ins(%a, %b : tensor<32x48xf32>, tensor<48x32xf32>) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %n = linalg.elementwise kind=#linalg.elementwise_kind<negf>
      ins(%d : tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %n : tensor<32x48xf32>
}
