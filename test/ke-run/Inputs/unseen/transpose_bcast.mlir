// transpose(x) + broadcast(bias) along rows.
func.func @transpose_bcast(%x: tensor<96x40xf32>, %bias: tensor<96xf32>) -> tensor<40x96xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<40x96xf32>
  %t = linalg.transpose ins(%x : tensor<96x40xf32>) outs(%e : tensor<40x96xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<40x96xf32>
  %b = linalg.broadcast ins(%bias : tensor<96xf32>) outs(%e2 : tensor<40x96xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<40x96xf32>
  %r = linalg.add ins(%t, %b : tensor<40x96xf32>, tensor<40x96xf32>) outs(%e3 : tensor<40x96xf32>) -> tensor<40x96xf32>
  return %r : tensor<40x96xf32>
}
