// RUN: ke-opt %s --ke-lower-nvgpu -mlir-print-ir-after=ke-stage-contractions-for-gpu -o /dev/null 2>&1 | FileCheck %s

// x^T @ W^T as torch-mlir writes it (both operands transposed into
// temporaries, then a matmul): the staged copies read A as [k][m] and B as
// [n][k] in place, so the product is the one launch, with no transpose
// kernels before it.
// (The front-end clean-up makes each transpose a copying generic, which
// would be a buffer and a launch of its own here.)
// CHECK-LABEL: IR Dump After
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.launch
// CHECK:           nvgpu.device_async_copy
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.generic
func.func @transposed_both(%a: tensor<512x256xf32>, %b: tensor<128x512xf32>) -> tensor<256x128xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<256x512xf32>
  %at = linalg.transpose ins(%a : tensor<512x256xf32>) outs(%ea : tensor<256x512xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<512x128xf32>
  %bt = linalg.transpose ins(%b : tensor<128x512xf32>) outs(%eb : tensor<512x128xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<256x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%o : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%at, %bt : tensor<256x512xf32>, tensor<512x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
