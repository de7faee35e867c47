// Elementwise logical and of two i1 64-element tensors.
#map_id = affine_map<(d0) -> (d0)>
module {
  func.func @small_i1_and(%a: tensor<64xi1>, %b: tensor<64xi1>) -> tensor<64xi1> attributes {ke.kernel} {
    %empty = tensor.empty() : tensor<64xi1>
    %out = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id],
                           iterator_types = ["parallel"]}
        ins(%a, %b : tensor<64xi1>, tensor<64xi1>) outs(%empty : tensor<64xi1>) {
    ^bb0(%x: i1, %y: i1, %o: i1):
      %r = arith.andi %x, %y : i1
      linalg.yield %r : i1
    } -> tensor<64xi1>
    return %out : tensor<64xi1>
  }
}
