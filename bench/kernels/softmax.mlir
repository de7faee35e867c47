// Numerically stable row softmax of a f32 512x1024 matrix: exp(x - max_row) / sum_row(exp(x - max_row)).
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @softmax(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> attributes {ke.kernel} {
    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    // Row max.
    %max_empty = tensor.empty() : tensor<512xf32>
    %max_init = linalg.fill ins(%neg_inf : f32) outs(%max_empty : tensor<512xf32>) -> tensor<512xf32>
    %max = linalg.generic {indexing_maps = [#map_id, #map_row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<512x1024xf32>) outs(%max_init : tensor<512xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<512xf32>
    // exp(x - max).
    %exp_empty = tensor.empty() : tensor<512x1024xf32>
    %exp = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%x, %max : tensor<512x1024xf32>, tensor<512xf32>) outs(%exp_empty : tensor<512x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    } -> tensor<512x1024xf32>
    // Row sum.
    %sum_empty = tensor.empty() : tensor<512xf32>
    %sum_init = linalg.fill ins(%zero : f32) outs(%sum_empty : tensor<512xf32>) -> tensor<512xf32>
    %sum = linalg.generic {indexing_maps = [#map_id, #map_row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%exp : tensor<512x1024xf32>) outs(%sum_init : tensor<512xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    } -> tensor<512xf32>
    // Normalize.
    %out_empty = tensor.empty() : tensor<512x1024xf32>
    %out = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%exp, %sum : tensor<512x1024xf32>, tensor<512xf32>) outs(%out_empty : tensor<512x1024xf32>) {
    ^bb0(%e: f32, %s: f32, %o: f32):
      %q = arith.divf %e, %s : f32
      linalg.yield %q : f32
    } -> tensor<512x1024xf32>
    return %out : tensor<512x1024xf32>
  }
}
