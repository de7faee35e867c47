// RUN: ke-opt %s -split-input-file --ke-lower-nvgpu -mlir-print-ir-after=ke-write-reshaped-results-in-place -o /dev/null 2>&1 | FileCheck %s

// A keepdim sum on the GPU: the reduction's [2, 64] result, returned as
// [2, 1, 64], is computed in the caller's buffer viewed as [2, 64]
// (ke-write-reshaped-results-in-place): no temporary, no copy kernel.
// CHECK-LABEL: IR Dump After
// CHECK:         func.func @keepdim_sum(%{{.*}}: memref<2x32x64xf32>, %[[OUT:.*]]: memref<2x1x64xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         %[[VIEW:.*]] = memref.collapse_shape %[[OUT]]
// CHECK:         linalg.generic {{.*}} outs(%[[VIEW]] : memref<2x64xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @keepdim_sum(%x: tensor<2x32x64xf32>) -> tensor<2x1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x1x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x1x64xf32>) -> tensor<2x1x64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<2x32x64xf32>) outs(%z : tensor<2x1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x1x64xf32>
  return %s : tensor<2x1x64xf32>
}

// -----

// torch.matmul of a 4-D tensor by a matrix: the batch of one is a matmul
// (ke-rank-reduce-contractions in the front-end cleanup), which the
// reshapes then fuse into, writing the caller's buffer.
// CHECK-LABEL: IR Dump After
// CHECK:         func.func @tensor_by_matrix(%{{.*}}: memref<2x4x4x32xf32>, %{{.*}}: memref<32x16xf32>, %[[OUT:.*]]: memref<2x4x4x16xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} {{.*}} outs(%[[OUT]] : memref<2x4x4x16xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @tensor_by_matrix(%a: tensor<2x4x4x32xf32>, %b: tensor<32x16xf32>) -> tensor<2x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %a2 = tensor.collapse_shape %a [[0, 1, 2], [3]] : tensor<2x4x4x32xf32> into tensor<32x32xf32>
  %a3 = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [1, 32, 32] : tensor<32x32xf32> into tensor<1x32x32xf32>
  %b3 = tensor.expand_shape %b [[0, 1], [2]] output_shape [1, 32, 16] : tensor<32x16xf32> into tensor<1x32x16xf32>
  %e = tensor.empty() : tensor<1x32x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x16xf32>) -> tensor<1x32x16xf32>
  %m = linalg.batch_matmul ins(%a3, %b3 : tensor<1x32x32xf32>, tensor<1x32x16xf32>) outs(%z : tensor<1x32x16xf32>) -> tensor<1x32x16xf32>
  %m2 = tensor.collapse_shape %m [[0, 1], [2]] : tensor<1x32x16xf32> into tensor<32x16xf32>
  %r = tensor.expand_shape %m2 [[0, 1, 2], [3]] output_shape [2, 4, 4, 16] : tensor<32x16xf32> into tensor<2x4x4x16xf32>
  return %r : tensor<2x4x4x16xf32>
}

// -----

// The GPU runs the CPU's front-end cleanup (ke-fuse-elementwise-ops): a
// cast read once per element by two reductions is copied into each, so the
// f64 tensor is never allocated (upstream's fusion kept it as an extra
// result, written out).
// CHECK-LABEL: IR Dump After
// CHECK:         func.func @cast_for_two_reductions
// CHECK-NOT:     memref<4x1024xf64>
// CHECK:         return
func.func @cast_for_two_reductions(%x: tensor<4x1024xf32>) -> (tensor<4xf64>, tensor<4xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x1024xf64>
  %wide = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x1024xf32>) outs(%e : tensor<4x1024xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<4x1024xf64>
  %re = tensor.empty() : tensor<4xf64>
  %init = linalg.fill ins(%zero : f64) outs(%re : tensor<4xf64>) -> tensor<4xf64>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%wide : tensor<4x1024xf64>) outs(%init : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %a, %o : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%wide : tensor<4x1024xf64>) outs(%init : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %m = arith.maximumf %a, %o : f64
    linalg.yield %m : f64
  } -> tensor<4xf64>
  return %sum, %max : tensor<4xf64>, tensor<4xf64>
}
