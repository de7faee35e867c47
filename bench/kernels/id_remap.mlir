// ID remap lookup: out[i] = table[ids[i]] with 65536 i32 ids in [0, 4096) and a 4096-entry i32 table.
#map_1d = affine_map<(d0) -> (d0)>
module {
  func.func @id_remap(%ids: tensor<65536xi32> {ke.range = [0, 4096]}, %table: tensor<4096xi32>) -> tensor<65536xi32> attributes {ke.kernel} {
    %empty = tensor.empty() : tensor<65536xi32>
    %out = linalg.generic {indexing_maps = [#map_1d, #map_1d],
                           iterator_types = ["parallel"]}
        ins(%ids : tensor<65536xi32>) outs(%empty : tensor<65536xi32>) {
    ^bb0(%id: i32, %o: i32):
      %i = arith.index_cast %id : i32 to index
      %v = tensor.extract %table[%i] : tensor<4096xi32>
      linalg.yield %v : i32
    } -> tensor<65536xi32>
    return %out : tensor<65536xi32>
  }
}
