// relu(A * B + bias) with bf16 512x512 inputs, an f32 bias (512, broadcast
// along rows) and an f32 result: the matmul extends its inputs to f32
// (products and sums in f32), the epilogue runs in f32.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @matmul_bias_relu_bf16(%A: tensor<512x512xbf16>, %B: tensor<512x512xbf16>, %bias: tensor<512xf32>) -> tensor<512x512xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<512x512xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<512x512xf32>) -> tensor<512x512xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<512x512xbf16>, tensor<512x512xbf16>)
                        outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
    %e1 = tensor.empty() : tensor<512x512xf32>
    %relu = linalg.generic {indexing_maps = [#map_id, #map_col, #map_id],
                            iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<512x512xf32>, tensor<512xf32>)
        outs(%e1 : tensor<512x512xf32>) {
    ^bb0(%x: f32, %b: f32, %out: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<512x512xf32>
    return %relu : tensor<512x512xf32>
  }
}
