// C = A * B with bf16 1024x1024 inputs and an f32 result (products and sums
// in f32: linalg.matmul extends its inputs to the output's type).
module {
  func.func @matmul_bf16(%A: tensor<1024x1024xbf16>, %B: tensor<1024x1024xbf16>) -> tensor<1024x1024xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<1024x1024xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %C = linalg.matmul ins(%A, %B : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>)
                       outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %C : tensor<1024x1024xf32>
  }
}
