// x + 1, and a reference file variant in add_one_ref_*.mlir.
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.kernel} {
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %0 = arith.addf %x, %c : tensor<256xf32>
  return %0 : tensor<256xf32>
}
