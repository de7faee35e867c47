// Per-channel sums over the batch and the pixels (a batch norm's statistics):
// 2 x 65536 terms a channel, the batch and pixel loops on either side of it.
#in = affine_map<(n, c, p) -> (n, c, p)>
#out = affine_map<(n, c, p) -> (c)>
func.func @channel_sums(%x: tensor<2x4x65536xf32>) -> tensor<4xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#in, #out],
                         iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<2x4x65536xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}
