// Embedding bags (sum of table rows picked by indices), the bag loop in
// the middle (i64 indices) and innermost (per-sample weights).
#bag_middle = affine_map<(d0, d1, d2) -> (d0, d1)>
#out_middle = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_middle(%table: tensor<300x48xf32>, %indices: tensor<40x5xi64> {ke.range = [0, 300]}) -> tensor<40x48xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<40x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<40x48xf32>) -> tensor<40x48xf32>
  %out = linalg.generic {indexing_maps = [#bag_middle, #out_middle], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices : tensor<40x5xi64>) outs(%init : tensor<40x48xf32>) {
  ^bb0(%idx: i64, %acc: f32):
    %r = arith.index_cast %idx : i64 to index
    %c = linalg.index 2 : index
    %v = tensor.extract %table[%r, %c] : tensor<300x48xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<40x48xf32>
  return %out : tensor<40x48xf32>
}

#bag_inner = affine_map<(d0, d1, d2) -> (d0, d2)>
#out_inner = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @bag_innermost_weighted(%table: tensor<300x64xf32>, %indices: tensor<36x7xi32> {ke.range = [0, 300]}, %weights: tensor<36x7xf32>) -> tensor<36x64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<36x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<36x64xf32>) -> tensor<36x64xf32>
  %out = linalg.generic {indexing_maps = [#bag_inner, #bag_inner, #out_inner], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%indices, %weights : tensor<36x7xi32>, tensor<36x7xf32>) outs(%init : tensor<36x64xf32>) {
  ^bb0(%idx: i32, %w: f32, %acc: f32):
    %r = arith.index_cast %idx : i32 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<300x64xf32>
    %p = arith.mulf %v, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<36x64xf32>
  return %out : tensor<36x64xf32>
}
