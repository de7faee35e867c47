// Column sum of a f32 2048x2048 matrix (reduce over rows) -> 2048.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @column_reduction(%x: tensor<2048x2048xf32>) -> tensor<2048xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<2048xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2048xf32>) -> tensor<2048xf32>
    %sum = linalg.generic {indexing_maps = [#map_id, #map_col],
                           iterator_types = ["reduction", "parallel"]}
        ins(%x : tensor<2048x2048xf32>) outs(%init : tensor<2048xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    } -> tensor<2048xf32>
    return %sum : tensor<2048xf32>
  }
}
