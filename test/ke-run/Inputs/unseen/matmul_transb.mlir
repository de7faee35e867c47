// A * B^T with B given as NxK, transposed with linalg.transpose.
func.func @matmul_transb(%a: tensor<64x96xf32>, %b: tensor<80x96xf32>) -> tensor<64x80xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<96x80xf32>
  %bt = linalg.transpose ins(%b : tensor<80x96xf32>) outs(%et : tensor<96x80xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<64x80xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x80xf32>) -> tensor<64x80xf32>
  %r = linalg.matmul ins(%a, %bt : tensor<64x96xf32>, tensor<96x80xf32>) outs(%init : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}
