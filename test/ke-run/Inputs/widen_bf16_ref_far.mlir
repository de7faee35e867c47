// widen_bf16 off by 0.1: beyond bf16's tolerance too.
func.func @widen_bf16(%x: tensor<256xbf16>) -> tensor<256xf32> {
  %empty = tensor.empty() : tensor<256xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<256xbf16>) outs(%empty : tensor<256xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %one = arith.constant 1.1 : f32
    %wide = arith.extf %in : bf16 to f32
    %sum = arith.addf %wide, %one : f32
    linalg.yield %sum : f32
  } -> tensor<256xf32>
  return %0 : tensor<256xf32>
}
