// Hand-written candidates for vadd: the same computation written as two
// ops, and a wrong one (the product is missing).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @split(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {ke.strategy = "two elementwise ops"} {
  %e = tensor.empty() : tensor<16x64xf32>
  %s = linalg.add ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.mul ins(%s, %a : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}
func.func @wrong(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {ke.strategy = "forgets the product"} {
  %e = tensor.empty() : tensor<16x64xf32>
  %s = linalg.add ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %s : tensor<16x64xf32>
}
