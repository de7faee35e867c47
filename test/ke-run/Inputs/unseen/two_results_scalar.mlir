// Scalar f32 argument; returns (alpha * x + y, x - y).
func.func @two_results_scalar(%alpha: f32, %x: tensor<48x32xf32>, %y: tensor<48x32xf32>) -> (tensor<48x32xf32>, tensor<48x32xf32>) attributes {ke.kernel} {
  %e = tensor.empty() : tensor<48x32xf32>
  %a = linalg.fill ins(%alpha : f32) outs(%e : tensor<48x32xf32>) -> tensor<48x32xf32>
  %ax = arith.mulf %a, %x : tensor<48x32xf32>
  %r0 = arith.addf %ax, %y : tensor<48x32xf32>
  %r1 = arith.subf %x, %y : tensor<48x32xf32>
  return %r0, %r1 : tensor<48x32xf32>, tensor<48x32xf32>
}
