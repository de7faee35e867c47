// GELU (tanh approximation) of f32 4096x1024: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).
#map_id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gelu(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> attributes {ke.kernel} {
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.044715 : f32
    %sqrt_2_over_pi = arith.constant 0.797884561 : f32
    %empty = tensor.empty() : tensor<4096x1024xf32>
    %out = linalg.generic {indexing_maps = [#map_id, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<4096x1024xf32>) outs(%empty : tensor<4096x1024xf32>) {
    ^bb0(%in: f32, %o: f32):
      %x2 = arith.mulf %in, %in : f32
      %x3 = arith.mulf %x2, %in : f32
      %cx3 = arith.mulf %c, %x3 : f32
      %inner = arith.addf %in, %cx3 : f32
      %arg = arith.mulf %sqrt_2_over_pi, %inner : f32
      %t = math.tanh %arg : f32
      %onept = arith.addf %one, %t : f32
      %hx = arith.mulf %half, %in : f32
      %y = arith.mulf %hx, %onept : f32
      linalg.yield %y : f32
    } -> tensor<4096x1024xf32>
    return %out : tensor<4096x1024xf32>
  }
}
