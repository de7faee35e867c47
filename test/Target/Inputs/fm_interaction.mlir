// A factorization machine's pairwise interaction: a rank-3 input reduced
// over its middle axis (fields), the sums squared, the sums of squares
// subtracted, and the difference reduced over the last axis (embedding).
#in = affine_map<(b, f, d) -> (b, f, d)>
#row = affine_map<(b, f, d) -> (b, d)>
#bd = affine_map<(b, d) -> (b, d)>
#b = affine_map<(b, d) -> (b)>
func.func @fm_interaction(%x: tensor<512x26x64xf32>) -> tensor<512xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e2 = tensor.empty() : tensor<512x64xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<512x64xf32>) -> tensor<512x64xf32>
  %sums:2 = linalg.generic {indexing_maps = [#in, #row, #row],
                            iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<512x26x64xf32>) outs(%acc2, %acc2 : tensor<512x64xf32>, tensor<512x64xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32):
    %s1 = arith.addf %s, %v : f32
    %v2 = arith.mulf %v, %v : f32
    %q1 = arith.addf %q, %v2 : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<512x64xf32>, tensor<512x64xf32>)
  %e1 = tensor.empty() : tensor<512xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %r = linalg.generic {indexing_maps = [#bd, #bd, #b], iterator_types = ["parallel", "reduction"]}
      ins(%sums#0, %sums#1 : tensor<512x64xf32>, tensor<512x64xf32>) outs(%acc1 : tensor<512xf32>) {
  ^bb0(%s: f32, %q: f32, %o: f32):
    %s2 = arith.mulf %s, %s : f32
    %t = arith.subf %s2, %q : f32
    %h = arith.mulf %t, %half : f32
    %o1 = arith.addf %o, %h : f32
    linalg.yield %o1 : f32
  } -> tensor<512xf32>
  return %r : tensor<512xf32>
}
