// Elementwise add of two i8 128-element tensors (inputs in [-8, 8), so no overflow).
#map_id = affine_map<(d0) -> (d0)>
module {
  func.func @small_i8_add(%a: tensor<128xi8> {ke.range = [-8, 8]}, %b: tensor<128xi8> {ke.range = [-8, 8]}) -> tensor<128xi8> attributes {ke.kernel} {
    %empty = tensor.empty() : tensor<128xi8>
    %out = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id],
                           iterator_types = ["parallel"]}
        ins(%a, %b : tensor<128xi8>, tensor<128xi8>) outs(%empty : tensor<128xi8>) {
    ^bb0(%x: i8, %y: i8, %o: i8):
      %r = arith.addi %x, %y : i8
      linalg.yield %r : i8
    } -> tensor<128xi8>
    return %out : tensor<128xi8>
  }
}
