// Batched matmul, f32 8 x (256x256 * 256x256) via linalg.batch_matmul into a zero-filled accumulator.
module {
  func.func @batch_matmul(%A: tensor<8x256x256xf32>, %B: tensor<8x256x256xf32>) -> tensor<8x256x256xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<8x256x256xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %C = linalg.batch_matmul ins(%A, %B : tensor<8x256x256xf32>, tensor<8x256x256xf32>)
                             outs(%init : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    return %C : tensor<8x256x256xf32>
  }
}
