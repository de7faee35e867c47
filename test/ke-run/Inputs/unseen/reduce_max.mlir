// Row max with linalg.reduce and arith.maxnumf.
func.func @reduce_max(%x: tensor<128x256xf32>) -> tensor<128xf32> attributes {ke.kernel} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<128xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %r = linalg.reduce ins(%x : tensor<128x256xf32>) outs(%init : tensor<128xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<128xf32>
}
