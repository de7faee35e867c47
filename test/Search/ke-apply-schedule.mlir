// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[32,64,0] r=[4,16,1] v"}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[32,64,0] r=[4,16,1] v" print-script=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SCRIPT
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[48,0,0] r=[] v"}))' 2>&1 | FileCheck %s --check-prefix=NODIVIDE
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v"}))' 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; x=[1]"}))' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[] r=[] v"}))' 2>&1 | FileCheck %s --check-prefix=HUGE

// The matmul is tiled for the cache (32x64) and registers (4x16), its
// accumulator is carried in registers across the reduction loop (hoisted
// out of it), and the contraction becomes FMAs.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for {{.*}} step %c32
// CHECK:           scf.for {{.*}} step %c64
// CHECK:             scf.for {{.*}} step %c4
// CHECK:               scf.for {{.*}} step %c16
// CHECK:                 %[[ACC:.*]] = vector.transfer_read {{.*}} vector<4x16xf32>
// Only the accumulator is carried: no tensor threaded through the k loop
// (which bufferization would copy).
// CHECK:                 scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<4x16xf32>)
// CHECK:                   vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     linalg.matmul

// SCRIPT: transform.named_sequence @__transform_main
// SCRIPT: transform.structured.tile_using_for %op1 tile_sizes [32,64,0]
// SCRIPT: transform.structured.tile_using_for %cache1 tile_sizes [4,16,1]
// SCRIPT: transform.structured.vectorize %tile1 {create_named_contraction, vectorize_nd_extract}

// NODIVIDE: ke-apply-schedule: op #1: cache tile 48 does not divide loop 0 of 64 iterations
// COUNT: ke-apply-schedule: the schedule has 1 entries for 2 linalg ops
// SYNTAX: ke-apply-schedule: unknown schedule field 'x=[1]'
// HUGE: ke-apply-schedule: op #1: a register tile of 262144 elements is too large to vectorize
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x128xf32>) -> tensor<64x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

