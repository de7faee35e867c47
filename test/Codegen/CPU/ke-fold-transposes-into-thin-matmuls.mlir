// RUN: ke-opt %s -split-input-file --ke-fold-transposes-into-thin-matmuls | FileCheck %s
// RUN: ke-opt %s -split-input-file '--ke-fold-transposes-into-thin-matmuls=most-rows=0' | FileCheck %s --check-prefix=NONE

// A Linear layer at batch 1 as torch-mlir writes it: the weight copied
// through a transposing generic, then a plain matmul. The matmul reads the
// weight itself as B[n][k]; the copy is left dead.
// CHECK-LABEL: func.func @linear_batch_1
// CHECK:         %[[Y:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%arg0, %arg1 : tensor<1x64xf32>, tensor<32x64xf32>) outs(%{{.*}} : tensor<1x32xf32>)
// CHECK:         return %[[Y]]
// NONE-LABEL:  func.func @linear_batch_1
// NONE:          linalg.matmul ins(%arg0, %{{.*}} : tensor<1x64xf32>, tensor<64x32xf32>)
#t = affine_map<(d0, d1) -> (d1, d0)>
#i = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear_batch_1(%x: tensor<1x64xf32>, %w: tensor<32x64xf32>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.generic {indexing_maps = [#t, #i], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x32xf32>
  %o = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %t : tensor<1x64xf32>, tensor<64x32xf32>) outs(%f : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %y : tensor<1x32xf32>
}

// -----

// linalg.transpose with 8 rows (the most folded by default): folded too.
// CHECK-LABEL: func.func @transpose_8_rows
// CHECK:         linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%arg0, %arg1 : tensor<8x64xf32>, tensor<32x64xf32>)
func.func @transpose_8_rows(%x: tensor<8x64xf32>, %w: tensor<32x64xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %t : tensor<8x64xf32>, tensor<64x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Left alone: 16 rows (the transpose is the packing the schedule would
// do), a B that is no transpose, and a copy that is not a plain transpose.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins
#t = affine_map<(d0, d1) -> (d1, d0)>
#i = affine_map<(d0, d1) -> (d0, d1)>
func.func @left_alone(%x: tensor<16x64xf32>, %v: tensor<1x64xf32>, %w: tensor<32x64xf32>, %b: tensor<64x32xf32>) -> (tensor<16x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%x, %t : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o1 = tensor.empty() : tensor<1x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%o1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %z = linalg.matmul ins(%v, %b : tensor<1x64xf32>, tensor<64x32xf32>) outs(%f1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %n = linalg.generic {indexing_maps = [#t, #i], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    linalg.yield %neg : f32
  } -> tensor<64x32xf32>
  %u = linalg.matmul ins(%v, %n : tensor<1x64xf32>, tensor<64x32xf32>) outs(%f1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %y, %z, %u : tensor<16x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>
}
