// Elementwise exp(a) + b on f32 16x16 tensors (math.exp then arith.addf in one generic body).
#map_id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @small_f32_scalar_mix(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {ke.kernel} {
    %empty = tensor.empty() : tensor<16x16xf32>
    %out = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%empty : tensor<16x16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %e = math.exp %x : f32
      %r = arith.addf %e, %y : f32
      linalg.yield %r : f32
    } -> tensor<16x16xf32>
    return %out : tensor<16x16xf32>
  }
}
