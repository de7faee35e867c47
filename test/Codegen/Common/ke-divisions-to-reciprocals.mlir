// RUN: ke-opt %s -split-input-file --ke-divisions-to-reciprocals | FileCheck %s
// RUN: not ke-opt %s -split-input-file --ke-divisions-to-reciprocals="min-reuse=1" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: ke-divisions-to-reciprocals: min-reuse must be at least 2, got 1

// A softmax's last step: each row sum divides the 256 elements of its row.
// The 64 sums are inverted once and the row multiplied by the inverse.
// CHECK-LABEL: func.func @normalize
// CHECK:         %[[INV:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<64xf32>) outs(%{{.*}} : tensor<64xf32>)
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           arith.divf %[[ONE]], %{{.*}} : f32
// CHECK:         linalg.generic {{.*}} ins(%arg0, %[[INV]] : tensor<64x256xf32>, tensor<64xf32>)
// CHECK-NOT:       arith.divf
// CHECK:           arith.mulf
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @normalize(%x: tensor<64x256xf32>, %s: tensor<64xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x256xf32>, tensor<64xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// -----

// Left alone: a divisor per element (no reuse), a divisor also added, a
// divisor shared by only 4 elements (under min-reuse), a shared value that
// is the numerator.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     arith.mulf
// CHECK-COUNT-4: arith.divf
// CHECK-NOT:     arith.mulf
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @kept(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>, %s: tensor<64xf32>,
                %n: tensor<64x4xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>, tensor<64x4xf32>, tensor<64x256xf32>) {
  %e = tensor.empty() : tensor<64x256xf32>
  %e4 = tensor.empty() : tensor<64x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.divf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  %b = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x256xf32>, tensor<64xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.divf %p, %q : f32
    %t = arith.addf %d, %q : f32
    linalg.yield %t : f32
  } -> tensor<64x256xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n, %s : tensor<64x4xf32>, tensor<64xf32>) outs(%e4 : tensor<64x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.divf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<64x4xf32>
  %f = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x256xf32>, tensor<64xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.divf %q, %p : f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  return %a, %b, %c, %f : tensor<64x256xf32>, tensor<64x256xf32>, tensor<64x4xf32>, tensor<64x256xf32>
}
