// A kernel that calls a helper function of the same file.
func.func private @scale(%t: tensor<256xf32>) -> tensor<256xf32> {
  %c = arith.constant dense<2.0> : tensor<256xf32>
  %0 = arith.mulf %t, %c : tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.kernel} {
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %s = func.call @scale(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %h = arith.constant dense<0.5> : tensor<256xf32>
  %u = arith.mulf %s, %h : tensor<256xf32>
  %0 = arith.addf %u, %c : tensor<256xf32>
  return %0 : tensor<256xf32>
}
