// Tile-and-fuse: the last op is tiled by rows and every producer is fused
// into its loop, so the whole chain runs on 8 rows at a time; the fused
// kernel is still correct.
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="fuse=8; c=[] r=[8] v; c=[] r=[1,16] v; c=[] r=[1,16] v; c=[] r=[8] v; c=[] r=[1,16] v; c=[] r=[1,16] v"}))' -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ke-run %t.mlir --reference %s --naive --check-only --json | FileCheck %s --check-prefix=CORRECT
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="fuse=8; c=[] r=[8] v; c=[] r=[1,16] v; c=[] r=[1,16] v; c=[] r=[8] v; c=[] r=[1,16] v; c=[64,0] r=[1,16] v"}))' 2>&1 | FileCheck %s --check-prefix=NOCACHE
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="fuse=3; c=[] r=[8] v; c=[] r=[1,16] v; c=[] r=[1,16] v; c=[] r=[8] v; c=[] r=[1,16] v; c=[] r=[1,16] v"}))' 2>&1 | FileCheck %s --check-prefix=NODIVIDE

// CHECK-LABEL: func.func @softmax
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK-COUNT-1:   math.exp
// CHECK:           arith.divf
// CHECK:           scf.yield
// CHECK-NOT:     math.exp
// CORRECT: "correct":true
// NOCACHE: op #5: no cache tiles with fuse
// NODIVIDE: fuse=3 needs a last op whose first loop is parallel and divided by 3
func.func @softmax(%x: tensor<64x128xf32>) -> tensor<64x128xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
