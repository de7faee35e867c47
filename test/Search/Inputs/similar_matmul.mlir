// The same matmul + relu on fewer rows: a "similar kernel" for warm starts.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mm(%a: tensor<128x64xf32>, %b: tensor<64x256xf32>) -> tensor<128x256xf32> attributes {ke.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %z : f32
    linalg.yield %y : f32
  } -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}
