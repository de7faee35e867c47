// RUN: ke-opt %s -split-input-file --ke-fold-transposes-into-pools-for-gpu --canonicalize -mlir-print-local-scope | FileCheck %s

// A 3-D average pool as torch-mlir writes it on NCDHW: a transpose to
// NDHWC, the channels-last pool, a transpose back. The pool reads the
// NCDHW input and writes the NCDHW output itself, its loops in the
// output's order (W innermost, the window after), and no transpose is
// left.
// CHECK-LABEL: func.func @avg_pool_3d
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8x4x4x4xf32>)
// CHECK:         %[[POOL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%arg0, %{{.*}} : tensor<2x8x8x8x8xf32>, tensor<2x2x2xf32>) outs(%[[FILL]] : tensor<2x8x4x4x4xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {{.*}} ins(%[[POOL]] : tensor<2x8x4x4x4xf32>)
func.func @avg_pool_3d(%x: tensor<2x8x8x8x8xf32>) -> tensor<2x8x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 8.0 : f32
  %window = tensor.empty() : tensor<2x2x2xf32>
  %e0 = tensor.empty() : tensor<2x8x8x8x8xf32>
  %cl = linalg.transpose ins(%x : tensor<2x8x8x8x8xf32>) outs(%e0 : tensor<2x8x8x8x8xf32>) permutation = [0, 2, 3, 4, 1]
  %e1 = tensor.empty() : tensor<2x4x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4x4x8xf32>) -> tensor<2x4x4x4x8xf32>
  %pool = linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<2> : vector<3xi64>}
      ins(%cl, %window : tensor<2x8x8x8x8xf32>, tensor<2x2x2xf32>) outs(%f : tensor<2x4x4x4x8xf32>) -> tensor<2x4x4x4x8xf32>
  %e2 = tensor.empty() : tensor<2x8x4x4x4xf32>
  %back = linalg.transpose ins(%pool : tensor<2x4x4x4x8xf32>) outs(%e2 : tensor<2x8x4x4x4xf32>) permutation = [0, 4, 1, 2, 3]
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%back : tensor<2x8x4x4x4xf32>) outs(%e2 : tensor<2x8x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %count : f32
    linalg.yield %d : f32
  } -> tensor<2x8x4x4x4xf32>
  return %mean : tensor<2x8x4x4x4xf32>
}

// -----

// Left as they are: a pool whose result is also returned keeps its
// transpose back (only the input's folds: the loops in the output's
// channels-last order), and a convolution (a
// contraction: its staged copies pick their own layout) keeps the
// transpose of its input.
// CHECK-LABEL: func.func @left_alone
// CHECK:         %[[CL:.*]] = linalg.transpose ins(%arg0
// CHECK:         %[[POOL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 + d4, d2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>]
// CHECK:         %[[BACK:.*]] = linalg.transpose ins(%[[POOL]]
// CHECK:         linalg.conv_2d_nhwc_hwcf ins(%[[CL]]
func.func @left_alone(%x: tensor<1x4x6x6xf32>, %w: tensor<3x3x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %e0 = tensor.empty() : tensor<1x6x6x4xf32>
  %cl = linalg.transpose ins(%x : tensor<1x4x6x6xf32>) outs(%e0 : tensor<1x6x6x4xf32>) permutation = [0, 2, 3, 1]
  %e1 = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%cl, %window : tensor<1x6x6x4xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e2 = tensor.empty() : tensor<1x4x4x4xf32>
  %back = linalg.transpose ins(%pool : tensor<1x4x4x4xf32>) outs(%e2 : tensor<1x4x4x4xf32>) permutation = [0, 3, 1, 2]
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf ins(%cl, %w : tensor<1x6x6x4xf32>, tensor<3x3x4x4xf32>) outs(%f2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %back, %pool, %conv : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}
