// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu{blocks=64 min-chunk=4096}))' | FileCheck %s --check-prefix=FEWER
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu{blocks=1}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: ke-split-reductions-for-gpu: blocks must be at least 2 and min-chunk positive (got 1 and 1024)

// A sum of squares over a whole 4x64x1024 tensor: its three reduction
// loops collapse into one of 262144, split into 256 chunks of 1024 (one
// thread block each), whose partial sums one more reduction adds up. With
// 64 blocks of at least 4096, 64 chunks.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<4x64x1024xf32> into tensor<262144xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [256, 1024]
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           arith.mulf
// CHECK:         } -> tensor<256xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK:         } -> tensor<f32>
// FEWER-LABEL: func.func @sum_of_squares
// FEWER:         tensor.expand_shape %{{.*}} output_shape [64, 4096]
#all = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#scalar = affine_map<(d0, d1, d2) -> ()>
func.func @sum_of_squares(%x: tensor<4x64x1024xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#all, #scalar], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : tensor<4x64x1024xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Per-channel statistics over H and W (an instance norm's): the two
// reduction loops collapse (a block per output then reduces 4096 elements);
// 256 outputs are enough blocks, so no split.
// CHECK-LABEL: func.func @channel_sums
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<4x64x64x64xf32> into tensor<4x64x4096xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:     tensor.expand_shape {{.*}} output_shape [4, 64, {{[0-9]+}}, {{[0-9]+}}]
// CHECK:         return
#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#nc = affine_map<(n, c, h, w) -> (n, c)>
func.func @channel_sums(%x: tensor<4x64x64x64xf32>, %init: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = linalg.generic {indexing_maps = [#nchw, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<4x64x64x64xf32>) outs(%init : tensor<4x64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// A reduction along an outer loop (a column sum) is not the row path's:
// left alone.
// CHECK-LABEL: func.func @column_sum
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iterator_types = ["reduction", "parallel"]
#rows = affine_map<(d0, d1) -> (d0, d1)>
#column = affine_map<(d0, d1) -> (d1)>
func.func @column_sum(%x: tensor<65536x4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#rows, #column], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<65536x4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
