// A kernel with a 1 GiB temporary: its input broadcast to 16384 rows, then
// summed back. Under a memory limit below that, the allocation fails.
#in = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @big_temporary(%x: tensor<16384xf32>) -> tensor<16384xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<16384x16384xf32>
  %wide = linalg.generic {indexing_maps = [#in, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16384xf32>) outs(%e : tensor<16384x16384xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %v, %two : f32
    linalg.yield %w : f32
  } -> tensor<16384x16384xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16384xf32>) -> tensor<16384xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%wide : tensor<16384x16384xf32>) outs(%acc : tensor<16384xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<16384xf32>
  return %sum : tensor<16384xf32>
}
