// LayerNorm over the last dim of f32 512x1024: (x - mean) / sqrt(var + 1e-5) * gamma + beta.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
#map_col = affine_map<(d0, d1) -> (d1)>
#map_1d = affine_map<(d0) -> (d0)>
module {
  func.func @layernorm(%x: tensor<512x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<512x1024xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 1024.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    // Row sum -> mean.
    %sum_empty = tensor.empty() : tensor<512xf32>
    %sum_init = linalg.fill ins(%zero : f32) outs(%sum_empty : tensor<512xf32>) -> tensor<512xf32>
    %sum = linalg.generic {indexing_maps = [#map_id, #map_row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<512x1024xf32>) outs(%sum_init : tensor<512xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    } -> tensor<512xf32>
    %mean_empty = tensor.empty() : tensor<512xf32>
    %mean = linalg.generic {indexing_maps = [#map_1d, #map_1d],
                            iterator_types = ["parallel"]}
        ins(%sum : tensor<512xf32>) outs(%mean_empty : tensor<512xf32>) {
    ^bb0(%s: f32, %o: f32):
      %m = arith.divf %s, %n : f32
      linalg.yield %m : f32
    } -> tensor<512xf32>
    // Sum of squared deviations -> variance.
    %sq_empty = tensor.empty() : tensor<512xf32>
    %sq_init = linalg.fill ins(%zero : f32) outs(%sq_empty : tensor<512xf32>) -> tensor<512xf32>
    %sqsum = linalg.generic {indexing_maps = [#map_id, #map_row, #map_row],
                             iterator_types = ["parallel", "reduction"]}
        ins(%x, %mean : tensor<512x1024xf32>, tensor<512xf32>) outs(%sq_init : tensor<512xf32>) {
    ^bb0(%in: f32, %m: f32, %acc: f32):
      %d = arith.subf %in, %m : f32
      %d2 = arith.mulf %d, %d : f32
      %s = arith.addf %d2, %acc : f32
      linalg.yield %s : f32
    } -> tensor<512xf32>
    %var_empty = tensor.empty() : tensor<512xf32>
    %var = linalg.generic {indexing_maps = [#map_1d, #map_1d],
                           iterator_types = ["parallel"]}
        ins(%sqsum : tensor<512xf32>) outs(%var_empty : tensor<512xf32>) {
    ^bb0(%s: f32, %o: f32):
      %v = arith.divf %s, %n : f32
      linalg.yield %v : f32
    } -> tensor<512xf32>
    // Normalize, scale, shift.
    %out_empty = tensor.empty() : tensor<512x1024xf32>
    %out = linalg.generic {indexing_maps = [#map_id, #map_row, #map_row, #map_col, #map_col, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean, %var, %gamma, %beta : tensor<512x1024xf32>, tensor<512xf32>, tensor<512xf32>, tensor<1024xf32>, tensor<1024xf32>)
        outs(%out_empty : tensor<512x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %v: f32, %g: f32, %b: f32, %o: f32):
      %d = arith.subf %in, %m : f32
      %ve = arith.addf %v, %eps : f32
      %r = math.rsqrt %ve : f32
      %nrm = arith.mulf %d, %r : f32
      %sc = arith.mulf %nrm, %g : f32
      %y = arith.addf %sc, %b : f32
      linalg.yield %y : f32
    } -> tensor<512x1024xf32>
    return %out : tensor<512x1024xf32>
  }
}
