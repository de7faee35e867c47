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

// -----

// GELU divides by the constant sqrt(2): the division becomes a product
// with 1/sqrt(2) rounded once to f32.
// CHECK-LABEL: func.func @gelu_scale
// CHECK:         linalg.generic
// CHECK-NOT:       arith.divf
// CHECK:           %[[INV:.*]] = arith.constant 0.707106769 : f32
// CHECK-NEXT:      arith.mulf %{{.*}}, %[[INV]] : f32
#id1 = affine_map<(d0) -> (d0)>
func.func @gelu_scale(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %sqrt2 = arith.constant 1.41421354 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %sqrt2 : f32
    linalg.yield %q : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// A splat divisor too, in f64 (a mean's count); a zero or a divisor whose
// reciprocal is not a normal number keeps its division.
// CHECK-LABEL: func.func @constant_divisors
// CHECK-DAG:     %[[NINTH:.*]] = arith.constant dense<0.1111111111111111> : vector<4xf64>
// CHECK:         %[[MEAN:.*]] = arith.mulf %arg0, %[[NINTH]] : vector<4xf64>
// CHECK:         arith.divf %arg1, %{{.*}} : f32
// CHECK:         arith.divf %arg1, %{{.*}} : f32
// CHECK:         return %[[MEAN]]
func.func @constant_divisors(%v: vector<4xf64>, %s: f32) -> (vector<4xf64>, f32, f32) {
  %nine = arith.constant dense<9.0> : vector<4xf64>
  %zero = arith.constant 0.0 : f32
  %huge = arith.constant 1.0e38 : f32
  %mean = arith.divf %v, %nine : vector<4xf64>
  %a = arith.divf %s, %zero : f32
  %b = arith.divf %s, %huge : f32
  return %mean, %a, %b : vector<4xf64>, f32, f32
}
