// C = A * B for f32 1024x1024 matrices, its author allowing TF32 tensor
// cores (ke.precision): inputs rounded to 10 mantissa bits, f32 sums,
// checked with TF32's tolerance. Compare with PyTorch at allow_tf32.
module {
  func.func @matmul_tf32(%A: tensor<1024x1024xf32>, %B: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> attributes {ke.kernel, ke.precision = "tf32"} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<1024x1024xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %C = linalg.matmul ins(%A, %B : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                       outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %C : tensor<1024x1024xf32>
  }
}
