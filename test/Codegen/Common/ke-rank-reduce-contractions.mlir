// RUN: ke-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ke-rank-reduce-contractions))' | FileCheck %s
// RUN: ke-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ke-rank-reduce-contractions,linalg-generalize-named-ops))' | FileCheck %s --check-prefix=GENERIC

// torch.matmul of a 4-D tensor by a matrix: a batch_matmul of one batch
// becomes a matmul between reshapes.
// CHECK-LABEL: func.func @batch_of_one
// CHECK-SAME:    (%[[A:.*]]: tensor<1x64x32xf32>, %[[B:.*]]: tensor<1x32x16xf32>, %[[C:.*]]: tensor<1x64x16xf32>)
// CHECK-DAG:     %[[A2:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2]] : tensor<1x64x32xf32> into tensor<64x32xf32>
// CHECK-DAG:     %[[B2:.*]] = tensor.collapse_shape %[[B]] {{\[\[}}0, 1], [2]] : tensor<1x32x16xf32> into tensor<32x16xf32>
// CHECK-DAG:     %[[C2:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0, 1], [2]] : tensor<1x64x16xf32> into tensor<64x16xf32>
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[A2]], %[[B2]] : tensor<64x32xf32>, tensor<32x16xf32>) outs(%[[C2]] : tensor<64x16xf32>)
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2]] output_shape [1, 64, 16]
// CHECK:         return %[[R]]
func.func @batch_of_one(%a: tensor<1x64x32xf32>, %b: tensor<1x32x16xf32>, %c: tensor<1x64x16xf32>) -> tensor<1x64x16xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x64x32xf32>, tensor<1x32x16xf32>) outs(%c : tensor<1x64x16xf32>) -> tensor<1x64x16xf32>
  return %r : tensor<1x64x16xf32>
}

// -----

// Left alone: several batches, a transposed operand (user-defined maps), a
// one-row matmul (a vecmat would be slower on the CPU), and buffers.
// CHECK-LABEL: func.func @two_batches
// CHECK:         linalg.batch_matmul
// CHECK-LABEL: func.func @transposed
// CHECK:         linalg.batch_matmul
// CHECK-LABEL: func.func @one_row
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.vecmat
// CHECK-LABEL: func.func @on_buffers
// CHECK:         linalg.batch_matmul
func.func @two_batches(%a: tensor<2x64x32xf32>, %b: tensor<2x32x16xf32>, %c: tensor<2x64x16xf32>) -> tensor<2x64x16xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x64x32xf32>, tensor<2x32x16xf32>) outs(%c : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  return %r : tensor<2x64x16xf32>
}
func.func @transposed(%a: tensor<1x32x64xf32>, %b: tensor<1x32x16xf32>, %c: tensor<1x64x16xf32>) -> tensor<1x64x16xf32> {
  %r = linalg.batch_matmul
         indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>,
                          affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>,
                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
         ins(%a, %b : tensor<1x32x64xf32>, tensor<1x32x16xf32>) outs(%c : tensor<1x64x16xf32>) -> tensor<1x64x16xf32>
  return %r : tensor<1x64x16xf32>
}
func.func @one_row(%a: tensor<1x32xf32>, %b: tensor<32x16xf32>, %c: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x32xf32>, tensor<32x16xf32>) outs(%c : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}
func.func @on_buffers(%a: memref<1x64x32xf32>, %b: memref<1x32x16xf32>, %c: memref<1x64x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x64x32xf32>, memref<1x32x16xf32>) outs(%c : memref<1x64x16xf32>)
  return
}

// -----

// An unsigned batch of one (i8 by i8 into i32) keeps its cast: the matmul's
// body zero-extends.
// CHECK-LABEL: func.func @unsigned_batch_of_one
// CHECK:         linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
// CHECK-NOT:     linalg.batch_matmul
// GENERIC-LABEL: func.func @unsigned_batch_of_one
// GENERIC:         linalg.generic
// GENERIC:           arith.extui
// GENERIC-NOT:       arith.extsi
func.func @unsigned_batch_of_one(%a: tensor<1x8x4xi8>, %b: tensor<1x4x2xi8>, %c: tensor<1x8x2xi32>) -> tensor<1x8x2xi32> {
  %r = linalg.batch_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<1x8x4xi8>, tensor<1x4x2xi8>) outs(%c : tensor<1x8x2xi32>) -> tensor<1x8x2xi32>
  return %r : tensor<1x8x2xi32>
}
