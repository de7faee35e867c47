// A reference that disagrees with add_one by 1e-3 everywhere.
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> {
  %c = arith.constant dense<1.001> : tensor<256xf32>
  %0 = arith.addf %x, %c : tensor<256xf32>
  return %0 : tensor<256xf32>
}
