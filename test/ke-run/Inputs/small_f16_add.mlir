// Elementwise add of two f16 64x64 tensors.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @small_f16_add(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> attributes {ke.kernel} {
    %empty = tensor.empty() : tensor<64x64xf16>
    %out = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<64x64xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.addf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<64x64xf16>
    return %out : tensor<64x64xf16>
  }
}
