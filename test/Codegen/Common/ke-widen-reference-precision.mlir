// The last case fails (on purpose), so both runs exit non-zero.
// RUN: not ke-opt %s --split-input-file --ke-widen-reference-precision 2>/dev/null | FileCheck %s
// RUN: not ke-opt %s --split-input-file --ke-widen-reference-precision 2>&1 >/dev/null | FileCheck %s --check-prefix=INVALID

// f32 arguments are extended once on entry and results truncated once on
// return; the body (constants, tensors, region arguments) computes in f64;
// f16 stays f16, and its extension to f32 now extends to f64.
// CHECK-LABEL: func.func @scaled_row_sum
// CHECK-SAME: (%[[X:.*]]: tensor<4x2048xf32>, %[[H:.*]]: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>)
// CHECK-DAG: %[[WIDE:.*]] = arith.extf %[[X]] : tensor<4x2048xf32> to tensor<4x2048xf64>
// CHECK-DAG: arith.constant 0.000000e+00 : f64
// CHECK-DAG: arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf64>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[WIDE]] : tensor<4x2048xf64>)
// CHECK: ^bb0(%{{.*}}: f64, %{{.*}}: f64):
// CHECK: arith.addf %{{.*}} : f64
// CHECK: arith.extf %{{.*}} : f16 to f64
// CHECK-NOT: arith.extf %{{.*}} : f64 to f64
// CHECK: %[[NARROW:.*]] = arith.truncf %{{.*}} : tensor<4xf64> to tensor<4xf32>
// CHECK: return %[[NARROW]], %{{.*}} : tensor<4xf32>, tensor<4xf16>
func.func @scaled_row_sum(%x: tensor<4x2048xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x2048xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %scaled = arith.mulf %sum, %scale : tensor<4xf32>
  %eh = tensor.empty() : tensor<4xf16>
  %half = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%h, %scaled : tensor<4xf16>, tensor<4xf32>) outs(%eh : tensor<4xf16>) {
  ^bb0(%a: f16, %b: f32, %out: f16):
    %w = arith.extf %a : f16 to f32
    %p = arith.mulf %w, %b : f32
    %n = arith.truncf %p : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4xf16>
  return %scaled, %half : tensor<4xf32>, tensor<4xf16>
}

// -----

// A kernel whose meaning depends on f32's bits is not widened.
// INVALID: :[[# @LINE + 5]]:10: error: 'arith.bitcast' op operand type 'f64' and result type 'i32' are cast incompatible
func.func @bits(%x: tensor<8xf32>) -> tensor<8xi32> {
  %e = tensor.empty() : tensor<8xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xi32>) {
  ^bb0(%a: f32, %out: i32):
    %b = arith.bitcast %a : f32 to i32
    linalg.yield %b : i32
  } -> tensor<8xi32>
  return %r : tensor<8xi32>
}
