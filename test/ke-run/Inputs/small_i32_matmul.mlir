// i32 16x16x16 matmul into a zero-filled accumulator (inputs in [-8, 8), so no overflow).
module {
  func.func @small_i32_matmul(%A: tensor<16x16xi32> {ke.range = [-8, 8]}, %B: tensor<16x16xi32> {ke.range = [-8, 8]}) -> tensor<16x16xi32> attributes {ke.kernel} {
    %zero = arith.constant 0 : i32
    %empty = tensor.empty() : tensor<16x16xi32>
    %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<16x16xi32>) -> tensor<16x16xi32>
    %C = linalg.matmul ins(%A, %B : tensor<16x16xi32>, tensor<16x16xi32>)
                       outs(%init : tensor<16x16xi32>) -> tensor<16x16xi32>
    return %C : tensor<16x16xi32>
  }
}
