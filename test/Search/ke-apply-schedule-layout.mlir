// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[16,32,0] r=[4,32,1] v t1=[1,0]"}))' | FileCheck %s
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[16,32,0] r=[4,32,1] v t1=[1,0]"}))' > %t.mlir
// RUN: ke-run %t.mlir --reference %s --naive --json --check-only | FileCheck %s --check-prefix=CORRECT
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[16,32,0] r=[4,32,1] v"}))' | FileCheck %s --check-prefix=STRIDED
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="fuse=4; c=[] r=[]; c=[] r=[] t1=[1,0]"}))' 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[] r=[] t1=[0,1]"}))' 2>&1 | FileCheck %s --check-prefix=IDENTITY
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[] r=[] t2=[1,0]"}))' 2>&1 | FileCheck %s --check-prefix=OPERAND

// Q x K^T with K read as [j, k]: a vector along j reads K across rows.
// t1=[1,0] reads K through a transposed copy (one pass over K, reused by
// every row of Q), so the register block loads K^T rows contiguously. The
// relaid op is a plain matmul, named again so it becomes FMAs.
// CHECK-LABEL: func.func @scores
// CHECK:         %[[KT:.*]] = linalg.transpose ins(%{{.*}} : tensor<64x32xf32>) outs(%{{.*}} : tensor<32x64xf32>) permutation = [1, 0]
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[KT]]{{.*}} : tensor<32x64xf32>, vector<1x32xf32>
// CHECK-COUNT-4:   vector.fma {{.*}} : vector<32xf32>
// CORRECT: "correct":true
// CORRECT-NOT: "correct":false

// Without the copy, the same tile reads a column of K (32 rows apart).
// STRIDED-LABEL: func.func @scores
// STRIDED-NOT:     linalg.transpose
// STRIDED:         vector.transfer_read %arg1{{.*}} : tensor<64x32xf32>, vector<32x1xf32>

// Both functions fail; either may report first (functions run in parallel).
// FUSE: op #1: no t1=[...] with fuse (the fused loop would copy the input on every iteration)
// IDENTITY: op #1: t1=[...] must reorder all 2 dimensions of the input
// OPERAND: op #1: t2=[...]: linalg.{{generic|matmul}} has 2 inputs

#map_q = affine_map<(i, j, k) -> (i, k)>
#map_k = affine_map<(i, j, k) -> (j, k)>
#map_s = affine_map<(i, j, k) -> (i, j)>
func.func @scores(%q: tensor<64x32xf32>, %k: tensor<64x32xf32>) -> tensor<64x64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#map_q, #map_k, #map_s],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<64x32xf32>, tensor<64x32xf32>) outs(%init : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// A named op is generalized to take the copy (and named again when it is
// a plain matmul): B read as [j, k] through its transposed copy.
// CHECK-LABEL: func.func @named_matmul
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<32x64xf32>) outs(%{{.*}} : tensor<64x32xf32>) permutation = [1, 0]
// CHECK-NOT:     linalg.matmul
func.func @named_matmul(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
