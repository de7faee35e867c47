// RMSNorm over the last dim of f32 512x1024: x / sqrt(mean(x^2) + 1e-6) * gamma.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
#map_col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @rmsnorm(%x: tensor<512x1024xf32>, %gamma: tensor<1024xf32>) -> tensor<512x1024xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 1024.0 : f32
    %eps = arith.constant 1.0e-06 : f32
    // Row sum of squares.
    %ss_empty = tensor.empty() : tensor<512xf32>
    %ss_init = linalg.fill ins(%zero : f32) outs(%ss_empty : tensor<512xf32>) -> tensor<512xf32>
    %ss = linalg.generic {indexing_maps = [#map_id, #map_row],
                          iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<512x1024xf32>) outs(%ss_init : tensor<512xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %sq = arith.mulf %in, %in : f32
      %s = arith.addf %sq, %acc : f32
      linalg.yield %s : f32
    } -> tensor<512xf32>
    // Normalize and scale.
    %out_empty = tensor.empty() : tensor<512x1024xf32>
    %out = linalg.generic {indexing_maps = [#map_id, #map_row, #map_col, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%x, %ss, %gamma : tensor<512x1024xf32>, tensor<512xf32>, tensor<1024xf32>)
        outs(%out_empty : tensor<512x1024xf32>) {
    ^bb0(%in: f32, %s: f32, %g: f32, %o: f32):
      %ms = arith.divf %s, %n : f32
      %mse = arith.addf %ms, %eps : f32
      %r = math.rsqrt %mse : f32
      %nrm = arith.mulf %in, %r : f32
      %y = arith.mulf %nrm, %g : f32
      linalg.yield %y : f32
    } -> tensor<512x1024xf32>
    return %out : tensor<512x1024xf32>
  }
}
