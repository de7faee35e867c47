// RUN: ke-opt %s --ke-lower-cpu | FileCheck %s

// A batched matmul with a unit batch (as torch-mlir writes a 4-D x 2-D
// matmul) vectorizes to n-D transfers. They are unrolled into 1-D ones:
// lowered through buffers instead, each needs a stack temporary inside the
// loop nest, and 8192 x 384 / 8 iterations of them overflowed the stack.
// CHECK-LABEL: llvm.func @unit_batch_matmul
// CHECK-NOT:     llvm.alloca
// CHECK:         llvm.return
func.func @unit_batch_matmul(%a: tensor<1x64x32xf32>, %b: tensor<1x32x48xf32>) -> tensor<1x64x48xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x48xf32>) -> tensor<1x64x48xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x64x32xf32>, tensor<1x32x48xf32>) outs(%init : tensor<1x64x48xf32>) -> tensor<1x64x48xf32>
  return %r : tensor<1x64x48xf32>
}
