// 1 / x: +Inf at +0, -Inf at -0.
func.func @reciprocal(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.kernel} {
  %one = arith.constant dense<1.0> : tensor<256xf32>
  %0 = arith.divf %one, %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}
