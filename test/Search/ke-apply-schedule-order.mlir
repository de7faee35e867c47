// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[32,64,16] r=[4,16,1] i=[2,1,0] v u=4"}))' | FileCheck %s
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[32,64,16] r=[4,16,1] i=[2,1,0] v u=4"}))' > %t.mlir
// RUN: ke-run %t.mlir --reference %s --naive --json --check-only | FileCheck %s --check-prefix=CORRECT
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[32,64,16] r=[4,16,1] i=[2,1] v"}))' 2>&1 | FileCheck %s --check-prefix=PERM
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[] r=[] u=2"}))' 2>&1 | FileCheck %s --check-prefix=UNROLL

// i=[2,1,0]: the cache loops run k (step 16) outermost, then j (64), then
// i (32). u=4: the innermost register loop (k, step 1, 16 iterations) is
// unrolled 4 times: four FMA groups per iteration, step 4.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for {{.*}} to %c32 step %c16
// CHECK:           scf.for {{.*}} to %c128 step %c64
// CHECK:             scf.for {{.*}} to %c64 step %c32
// CHECK:               scf.for {{.*}} to %c32 step %c4
// CHECK:                 scf.for {{.*}} to %c64 step %c16
// CHECK:                   scf.for {{.*}} to %c16 step %c4 {{.*}} -> (vector<4x16xf32>)
// CHECK-COUNT-16:            vector.fma
// CHECK:                     scf.yield {{.*}} : vector<4x16xf32>
// CORRECT: "correct":true
// PERM: op #1: i=[...] must order all 3 loops
// UNROLL: op #1: u=2 needs a register tile loop
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x128xf32>) -> tensor<64x128xf32> attributes {ke.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
