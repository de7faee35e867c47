// long_sum.mlir's rows without their last term: wrong by up to 1.
func.func @long_sum(%x: tensor<64x65536xf32>) -> tensor<64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %head = tensor.extract_slice %x[0, 0] [64, 65535] [1, 1] : tensor<64x65536xf32> to tensor<64x65535xf32>
  %r = linalg.reduce ins(%head : tensor<64x65535xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}
