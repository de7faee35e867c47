func.func @dyn(%x: tensor<?x4xf32>) -> tensor<?x4xf32> attributes {ke.kernel} {
  %0 = arith.addf %x, %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
