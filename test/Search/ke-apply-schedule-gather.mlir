// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,8] v"}))' 2>&1 | FileCheck %s --check-prefix=TILED
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]"}))' 2>&1 | FileCheck %s --check-prefix=PLAIN

// An op whose input map has a mod and a floordiv (an im2col gather) takes
// no tiles: tiling would read the wrong slices. The schedule says so instead
// of producing a wrong candidate; an empty entry applies.
// TILED: error: ke-apply-schedule: op #0: its indexing maps use mod or floordiv, which tiling cannot slice
// PLAIN-NOT: error
// PLAIN: linalg.generic
#gather = affine_map<(d0, d1) -> (d0 floordiv 3, d1 + d0 mod 3)>
#plain = affine_map<(d0, d1) -> (d0, d1)>
func.func @im2col_gather(%x: tensor<4x18xf32>) -> tensor<12x16xf32> {
  %init = tensor.empty() : tensor<12x16xf32>
  %r = linalg.generic {indexing_maps = [#gather, #plain], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x18xf32>) outs(%init : tensor<12x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<12x16xf32>
  return %r : tensor<12x16xf32>
}
