// RUN: ke-opt %s --ke-splat-constants-to-fills | FileCheck %s

// The zeros a cumulative sum concatenates become a fill; a scalar constant
// and a non-splat tensor constant stay.
// CHECK-LABEL: func.func @shift
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[EMPTY:.*]] = tensor.empty() : tensor<4x1xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4x1xf32>)
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: tensor.concat dim(1) %[[FILL]]
// CHECK-NOT: dense<0.000000e+00>
func.func @shift(%x: tensor<4x7xf32>) -> (tensor<4x8xf32>, tensor<2xf32>, f32) {
  %zeros = arith.constant dense<0.0> : tensor<4x1xf32>
  %table = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %one = arith.constant 1.0 : f32
  %r = tensor.concat dim(1) %zeros, %x : (tensor<4x1xf32>, tensor<4x7xf32>) -> tensor<4x8xf32>
  return %r, %table, %one : tensor<4x8xf32>, tensor<2xf32>, f32
}
