// RUN: ke-opt %s --ke-lower-nvgpu -mlir-print-ir-after=ke-distribute-reductions-for-gpu -o /dev/null 2>&1 | FileCheck %s

// A Linear layer at batch 1 as torch-mlir writes it (the weight transposed,
// then a matmul of one row): the transpose is read through and the product
// is a row reduction, a block of 512 threads per output striding along the
// weight's row and combining through gpu.all_reduce. No staged GEMM tile,
// no transpose kernel.
// CHECK-LABEL: IR Dump After
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.matmul
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1024{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c512{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:           scf.for {{.*}} to %c2048{{.*}} step %c512
// CHECK:           gpu.all_reduce add
func.func @linear_at_batch_1(%x: tensor<1x2048xf32>, %w: tensor<1024x2048xf32>) -> tensor<1x1024xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x1024xf32>
  %wt = linalg.transpose ins(%w : tensor<1024x2048xf32>) outs(%e : tensor<2048x1024xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<1x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%o : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %r = linalg.matmul ins(%x, %wt : tensor<1x2048xf32>, tensor<2048x1024xf32>) outs(%c : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %r : tensor<1x1024xf32>
}
