// A reference off add_one by 1e-2 everywhere whose author allows TF32: f32
// results are checked with TF32's tolerance (atol 5e-2, rtol 1e-2).
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.precision = "tf32"} {
  %c = arith.constant dense<1.01> : tensor<256xf32>
  %0 = arith.addf %x, %c : tensor<256xf32>
  return %0 : tensor<256xf32>
}
