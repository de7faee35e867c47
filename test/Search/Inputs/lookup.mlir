// out[i] = table[ids[i]] * 2: the kernel the fault-injection test searches.
func.func @lookup(%table: tensor<256xf32>, %ids: tensor<1024xi32> {ke.range = [0, 256]}) -> tensor<1024xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<1024xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<1024xi32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%id: i32, %o: f32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<256xf32>
    %d = arith.mulf %v, %two : f32
    linalg.yield %d : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
