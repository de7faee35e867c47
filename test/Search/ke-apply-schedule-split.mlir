// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[4,0] s=[0,32] v"}))' | FileCheck %s --check-prefix=SPLIT
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[4,0] s=[0,32] v"}))' > %t.split.mlir
// RUN: ke-run %t.split.mlir --reference %s --naive --seeds 2 --json --check-only | FileCheck %s --check-prefix=CORRECT
// RUN: ke-run %t.split.mlir --seeds 1 --check-only 2>&1 | FileCheck %s --check-prefix=SELF
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[] r=[1,16] v"}))' | FileCheck %s --check-prefix=HORIZONTAL
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[4,0] s=[4,0] v"}))' 2>&1 | FileCheck %s --check-prefix=PARALLEL

// Split 32 ways, each row's sum is 32 partial sums carried in vector
// registers through the reduction loop (elementwise vector adds) and
// reduced across lanes once, after the loop.
// SPLIT-LABEL: func.func @row_sum
// SPLIT:         scf.for {{.*}} step %c4
// SPLIT:           %[[PARTIAL:.*]] = scf.for {{.*}} step %c32 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x32xf32>)
// SPLIT:             arith.addf {{.*}} : vector<4x32xf32>
// SPLIT-NOT:         vector.multi_reduction
// SPLIT:             scf.yield
// SPLIT:           vector.multi_reduction <add>, %[[PARTIAL]], {{.*}} [1] : vector<4x32xf32> to vector<4xf32>

// Without the split, every vector of the row ends in a horizontal reduction
// inside the loop.
// HORIZONTAL-LABEL: func.func @row_sum
// HORIZONTAL:         scf.for
// HORIZONTAL:           scf.for
// HORIZONTAL:             vector.multi_reduction

// The split reassociates the sum; the result is still checked against the
// reference (within its tolerance).
// CORRECT: "correct":true

// Without --reference, a scheduled function would be checked against
// itself: ke-run says so.
// SELF: ke-run: warning: '@row_sum' is vectorized and is its own reference; pass --reference with the original to check it

// PARALLEL: op #1: s=[...] splits reduction loops only (loop 0 is parallel)
func.func @row_sum(%x: tensor<64x1024xf32>) -> tensor<64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<64xf32>
}
