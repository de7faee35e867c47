// RMSNorm as torch-mlir writes x ** 2: math.fpowi with an i64 exponent.
// Vectorized, the exponent becomes a vector that LLVM's powi cannot take.
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @rms_fpowi(%x: tensor<64x256xf32>) -> tensor<64x256xf32> attributes {ke.kernel} {
  %two = arith.constant 2 : i64
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %sq = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.fpowi %a, %two : f32, i64
    linalg.yield %p : f32
  } -> tensor<64x256xf32>
  %e1 = tensor.empty() : tensor<64x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x1xf32>) -> tensor<64x1xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<64x256xf32>) outs(%init : tensor<64x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x1xf32>
  %r = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x256xf32>, tensor<64x1xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    %y = arith.mulf %a, %rs : f32
    linalg.yield %y : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}
