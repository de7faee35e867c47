// The same signature, a different result: must be caught under qemu.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @vadd(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
