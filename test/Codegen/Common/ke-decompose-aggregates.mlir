// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-decompose-aggregates))' | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     linalg.softmax
// CHECK:         linalg.generic
// CHECK:           arith.maxnumf
// CHECK:         math.exp
// CHECK:         arith.divf
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
