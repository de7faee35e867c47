// Another module holding the kernel's matmul: in a function of another name,
// next to other ops, and a matmul of other sizes that must stay as it is.
func.func @layer(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %x: tensor<8xf32>) -> (tensor<256x256xf32>, tensor<8xf32>) attributes {ke.kernel} {
  %y = arith.mulf %x, %x : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %m, %y : tensor<256x256xf32>, tensor<8xf32>
}
func.func @other_sizes(%a: tensor<16x256xf32>, %b: tensor<256x256xf32>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<16x256xf32>, tensor<256x256xf32>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %m : tensor<16x256xf32>
}
