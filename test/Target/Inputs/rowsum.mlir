func.func @rowsum(%x: tensor<64x512xf32>) -> tensor<64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce ins(%x : tensor<64x512xf32>) outs(%init : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<64xf32>
}
