// Row sums of 65536 terms of mixed sign: summed in f32 in loop order, the
// reference's own rounding reaches 8e-4 (eight times the f32 tolerance).
func.func @long_sum(%x: tensor<64x65536xf32>) -> tensor<64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%x : tensor<64x65536xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}
