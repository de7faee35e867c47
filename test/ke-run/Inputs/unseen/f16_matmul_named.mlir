// Named linalg.matmul with f16 inputs and an f32 accumulator (implicit extf).
func.func @f16_matmul_named(%a: tensor<32x64xf16>, %b: tensor<64x40xf16>) -> tensor<32x40xf32> attributes {ke.kernel, ke.atol = 1.0e-2 : f64, ke.rtol = 1.0e-2 : f64} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x40xf32>) -> tensor<32x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x40xf16>) outs(%init : tensor<32x40xf32>) -> tensor<32x40xf32>
  return %r : tensor<32x40xf32>
}
