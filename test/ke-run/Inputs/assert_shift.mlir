// A reference that aborts on its own inputs: its i32 input is shifted before
// it is used as an index, so no range can be inferred, and the default
// inputs fail its cf.assert.
func.func @assert_shift(%t: tensor<64xf32>, %ids: tensor<16xi32>) -> tensor<16xf32> attributes {ke.kernel} {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : i32
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<16xi32>) outs(%e : tensor<16xf32>) {
  ^bb0(%id: i32, %o: f32):
    %s = arith.addi %id, %c1 : i32
    %i = arith.index_cast %s : i32 to index
    %ok = arith.cmpi ult, %i, %c64 : index
    cf.assert %ok, "index out of range"
    %v = tensor.extract %t[%i] : tensor<64xf32>
    linalg.yield %v : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
