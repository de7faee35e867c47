// Single-head attention with bf16 Q,K,V 256x64: softmax(Q * K^T / 8) * V ->
// 256x64 f32. Both products extend their bf16 inputs to f32 (products and
// sums in f32); the scores and the softmax are f32; the probabilities are
// rounded to bf16 before the second product, as a bf16 attention does.
#map_q = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_k = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_s = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @attention_bf16(%Q: tensor<256x64xbf16>, %K: tensor<256x64xbf16>, %V: tensor<256x64xbf16>) -> tensor<256x64xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %neg_inf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.125 : f32
    // S = Q * K^T.
    %s_empty = tensor.empty() : tensor<256x256xf32>
    %s_init = linalg.fill ins(%zero : f32) outs(%s_empty : tensor<256x256xf32>) -> tensor<256x256xf32>
    %S = linalg.generic {indexing_maps = [#map_q, #map_k, #map_s],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%Q, %K : tensor<256x64xbf16>, tensor<256x64xbf16>) outs(%s_init : tensor<256x256xf32>) {
    ^bb0(%qb: bf16, %kb: bf16, %acc: f32):
      %q = arith.extf %qb : bf16 to f32
      %k = arith.extf %kb : bf16 to f32
      %p = arith.mulf %q, %k : f32
      %a = arith.addf %acc, %p : f32
      linalg.yield %a : f32
    } -> tensor<256x256xf32>
    // Scale by 1/sqrt(64).
    %sc_empty = tensor.empty() : tensor<256x256xf32>
    %Ss = linalg.generic {indexing_maps = [#map_id, #map_id],
                          iterator_types = ["parallel", "parallel"]}
        ins(%S : tensor<256x256xf32>) outs(%sc_empty : tensor<256x256xf32>) {
    ^bb0(%in: f32, %o: f32):
      %v = arith.mulf %in, %scale : f32
      linalg.yield %v : f32
    } -> tensor<256x256xf32>
    // Row max.
    %max_empty = tensor.empty() : tensor<256xf32>
    %max_init = linalg.fill ins(%neg_inf : f32) outs(%max_empty : tensor<256xf32>) -> tensor<256xf32>
    %max = linalg.generic {indexing_maps = [#map_id, #map_row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%Ss : tensor<256x256xf32>) outs(%max_init : tensor<256xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<256xf32>
    // exp(s - max).
    %exp_empty = tensor.empty() : tensor<256x256xf32>
    %E = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%Ss, %max : tensor<256x256xf32>, tensor<256xf32>) outs(%exp_empty : tensor<256x256xf32>) {
    ^bb0(%in: f32, %m: f32, %o: f32):
      %d = arith.subf %in, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    } -> tensor<256x256xf32>
    // Row sum.
    %sum_empty = tensor.empty() : tensor<256xf32>
    %sum_init = linalg.fill ins(%zero : f32) outs(%sum_empty : tensor<256xf32>) -> tensor<256xf32>
    %sum = linalg.generic {indexing_maps = [#map_id, #map_row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%E : tensor<256x256xf32>) outs(%sum_init : tensor<256xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    } -> tensor<256xf32>
    // P = E / sum, rounded to bf16.
    %p_empty = tensor.empty() : tensor<256x256xbf16>
    %P = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%E, %sum : tensor<256x256xf32>, tensor<256xf32>) outs(%p_empty : tensor<256x256xbf16>) {
    ^bb0(%e: f32, %s: f32, %o: bf16):
      %q = arith.divf %e, %s : f32
      %qb = arith.truncf %q : f32 to bf16
      linalg.yield %qb : bf16
    } -> tensor<256x256xbf16>
    // O = P * V.
    %o_empty = tensor.empty() : tensor<256x64xf32>
    %o_init = linalg.fill ins(%zero : f32) outs(%o_empty : tensor<256x64xf32>) -> tensor<256x64xf32>
    %O = linalg.matmul ins(%P, %V : tensor<256x256xbf16>, tensor<256x64xbf16>)
                       outs(%o_init : tensor<256x64xf32>) -> tensor<256x64xf32>
    return %O : tensor<256x64xf32>
  }
}
