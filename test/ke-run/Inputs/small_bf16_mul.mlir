// Elementwise multiply of two bf16 32x32 tensors.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @small_bf16_mul(%a: tensor<32x32xbf16>, %b: tensor<32x32xbf16>) -> tensor<32x32xbf16> attributes {ke.kernel} {
    %empty = tensor.empty() : tensor<32x32xbf16>
    %out = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<32x32xbf16>, tensor<32x32xbf16>) outs(%empty : tensor<32x32xbf16>) {
    ^bb0(%x: bf16, %y: bf16, %o: bf16):
      %r = arith.mulf %x, %y : bf16
      linalg.yield %r : bf16
    } -> tensor<32x32xbf16>
    return %out : tensor<32x32xbf16>
  }
}
