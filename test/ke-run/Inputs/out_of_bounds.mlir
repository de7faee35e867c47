// Gathers far outside its table: the kernel crashes when run.
func.func @wild_gather(%table: tensor<16xf32>, %ids: tensor<64xi64> {ke.range = [1000000000000, 1000000000001]}) -> tensor<64xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<64xi64>) outs(%e : tensor<64xf32>) {
  ^bb0(%id: i64, %out: f32):
    %i = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%i] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
