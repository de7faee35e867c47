// Row sum of an i64 8x32 tensor -> 8 (inputs in [-8, 8), so no overflow).
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @small_i64_sum(%x: tensor<8x32xi64> {ke.range = [-8, 8]}) -> tensor<8xi64> attributes {ke.kernel} {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<8xi64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<8xi64>) -> tensor<8xi64>
    %sum = linalg.generic {indexing_maps = [#map_id, #map_row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<8x32xi64>) outs(%init : tensor<8xi64>) {
    ^bb0(%in: i64, %acc: i64):
      %s = arith.addi %in, %acc : i64
      linalg.yield %s : i64
    } -> tensor<8xi64>
    return %sum : tensor<8xi64>
  }
}
