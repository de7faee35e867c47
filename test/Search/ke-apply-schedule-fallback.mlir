// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[8] v; c=[] r=[8] v; c=[] r=[1,16] v; c=[] r=[1,16] v"}))' 2>&1 | FileCheck %s --check-prefix=FALLBACK

// A schedule that does not apply to one op still applies to the others: the
// max-and-argmax reduction (both results used) does not vectorize, so it
// falls back to the default schedule with a warning, and the elementwise op
// after it is still tiled and vectorized as the schedule says.
// FALLBACK: warning: ke-apply-schedule: op #2 (linalg.generic) on the default schedule: Attempted to vectorize, but failed
// FALLBACK-LABEL: func.func @max_and_argmax
// FALLBACK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// FALLBACK-SAME:      tensor<1x8xf32>
// FALLBACK:         vector.transfer_write {{.*}} : vector<1x16xf32>, tensor<8x64xf32>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @max_and_argmax(%x: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xi64>, tensor<8x64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %ei = tensor.empty() : tensor<8xi64>
  %i0 = linalg.fill ins(%zero : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%m0, %i0 : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %mx = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %s = arith.select %gt, %ci, %i : i64
    linalg.yield %mx, %s : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
  %e2 = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %in, %in : f32
    linalg.yield %a : f32
  } -> tensor<8x64xf32>
  return %r#0, %r#1, %y : tensor<8xf32>, tensor<8xi64>, tensor<8x64xf32>
}
