// Embedding bag (sum mode): out[i, j] = sum_b table[indices[i, b], j], table 10000x64 f32, indices 512x8 i32.
#map_idx = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @embedding_bag(%table: tensor<10000x64xf32>, %indices: tensor<512x8xi32> {ke.range = [0, 10000]}) -> tensor<512x64xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<512x64xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<512x64xf32>) -> tensor<512x64xf32>
    %out = linalg.generic {indexing_maps = [#map_idx, #map_out],
                           iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%indices : tensor<512x8xi32>) outs(%init : tensor<512x64xf32>) {
    ^bb0(%idx: i32, %acc: f32):
      %row = arith.index_cast %idx : i32 to index
      %col = linalg.index 1 : index
      %v = tensor.extract %table[%row, %col] : tensor<10000x64xf32>
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<512x64xf32>
    return %out : tensor<512x64xf32>
  }
}
