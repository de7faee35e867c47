// Row sum of a f32 2048x2048 matrix -> 2048 (linalg.reduce over dim 1).
module {
  func.func @reduction(%x: tensor<2048x2048xf32>) -> tensor<2048xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<2048xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2048xf32>) -> tensor<2048xf32>
    %sum = linalg.reduce ins(%x : tensor<2048x2048xf32>) outs(%init : tensor<2048xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %sum : tensor<2048xf32>
  }
}
