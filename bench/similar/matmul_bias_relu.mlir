// relu(A * B + bias) for f32 384x512x512 matmul (a "similar kernel" of
// bench/kernels/matmul_bias_relu.mlir for bench/warm_start.sh), bias (512) broadcast along rows.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @matmul_bias_relu(%A: tensor<384x512xf32>, %B: tensor<512x512xf32>, %bias: tensor<512xf32>) -> tensor<384x512xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<384x512xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<384x512xf32>) -> tensor<384x512xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<384x512xf32>, tensor<512x512xf32>)
                        outs(%init : tensor<384x512xf32>) -> tensor<384x512xf32>
    // Bias add: bias[j] broadcast along rows.
    %e1 = tensor.empty() : tensor<384x512xf32>
    %biased = linalg.generic {indexing_maps = [#map_id, #map_col, #map_id],
                              iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<384x512xf32>, tensor<512xf32>)
        outs(%e1 : tensor<384x512xf32>) {
    ^bb0(%x: f32, %b: f32, %out: f32):
      %s = arith.addf %x, %b : f32
      linalg.yield %s : f32
    } -> tensor<384x512xf32>
    // ReLU: max(x, 0).
    %e2 = tensor.empty() : tensor<384x512xf32>
    %relu = linalg.generic {indexing_maps = [#map_id, #map_id],
                            iterator_types = ["parallel", "parallel"]}
        ins(%biased : tensor<384x512xf32>)
        outs(%e2 : tensor<384x512xf32>) {
    ^bb0(%x: f32, %out: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    } -> tensor<384x512xf32>
    return %relu : tensor<384x512xf32>
  }
}
