// An embedding bag written with the index tensor as the generic's only input
// and the table read by tensor.extract: the bag loop (d1) is bounded only by
// the indices. Preparing it for the search used to drop that operand and
// leave a generic whose loops had no bounds, which ended the search.
#bag = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag(%table: tensor<100x64xf32>, %indices: tensor<32x8xi64> {ke.range = [0, 100]}) -> tensor<32x64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x64xf32>) -> tensor<32x64xf32>
  %out = linalg.generic {indexing_maps = [#bag, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices : tensor<32x8xi64>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%idx: i64, %acc: f32):
    %r = arith.index_cast %idx : i64 to index
    %c = linalg.index 2 : index
    %v = tensor.extract %table[%r, %c] : tensor<100x64xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  return %out : tensor<32x64xf32>
}
