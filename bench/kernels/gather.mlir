// Embedding lookup: out[i, j] = table[indices[i], j] with table 10000x128 f32 and 4096 i32 indices.
#map_row = affine_map<(d0, d1) -> (d0)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather(%table: tensor<10000x128xf32>, %indices: tensor<4096xi32> {ke.range = [0, 10000]}) -> tensor<4096x128xf32> attributes {ke.kernel} {
    %empty = tensor.empty() : tensor<4096x128xf32>
    %out = linalg.generic {indexing_maps = [#map_row, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%indices : tensor<4096xi32>) outs(%empty : tensor<4096x128xf32>) {
    ^bb0(%idx: i32, %o: f32):
      %row = arith.index_cast %idx : i32 to index
      %col = linalg.index 1 : index
      %v = tensor.extract %table[%row, %col] : tensor<10000x128xf32>
      linalg.yield %v : f32
    } -> tensor<4096x128xf32>
    return %out : tensor<4096x128xf32>
  }
}
