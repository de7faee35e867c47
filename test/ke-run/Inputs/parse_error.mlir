func.func @broken(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.kernel} {
  %0 = arith.addf %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
