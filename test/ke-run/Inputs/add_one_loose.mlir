// add_one claiming a tolerance wide enough for add_one_ref_off: ke-run takes
// the tolerance from the reference, so the claim changes nothing.
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.kernel, ke.atol = 1.0e-2 : f64} {
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %0 = arith.addf %x, %c : tensor<256xf32>
  return %0 : tensor<256xf32>
}
