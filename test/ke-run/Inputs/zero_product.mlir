// A product with a zero matrix: 537 MFLOP as written (a long reduction, so
// that even a slow harness's call overhead cannot hide it), none needed.
func.func @zero_product(%a: tensor<256x4096xf32>) -> tensor<256x256xf32> attributes {ke.kernel} {
  %z = arith.constant dense<0.0> : tensor<4096x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %z : tensor<256x4096xf32>, tensor<4096x256xf32>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
