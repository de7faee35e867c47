// RUN: ke-opt %s --split-input-file --ke-fold-pads-into-consumers-for-gpu | FileCheck %s

// A 1-D max pool as folding unit dimensions leaves it: the pad before the
// [N, C, 1, W] view of the named pool. The pool reads its input itself,
// clamped into bounds, and takes -inf outside it.
// CHECK-DAG: #[[COLUMN_MAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 + d5 - 1)>
// CHECK-LABEL: func.func @max_pool_1d
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x16xf32>)
// CHECK-NOT: tensor.pad
// CHECK: %[[VIEW:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3]] output_shape [2, 4, 1, 16]
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<1x3xf32>)
// CHECK: %[[COLUMN:.*]] = affine.apply #[[COLUMN_MAP]](
// CHECK: %[[ABOVE:.*]] = arith.cmpi sge, %[[COLUMN]], %c0
// CHECK: %[[BELOW:.*]] = arith.cmpi sle, %[[COLUMN]], %c15
// CHECK: %[[INSIDE:.*]] = arith.andi %[[ABOVE]], %[[BELOW]]
// CHECK: %[[CLAMPED:.*]] = arith.minsi
// CHECK: %[[ELEMENT:.*]] = tensor.extract %[[VIEW]][%{{.*}}, %{{.*}}, %{{.*}}, %[[CLAMPED]]]
// CHECK: %[[READ:.*]] = arith.select %[[INSIDE]], %[[ELEMENT]], %{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %[[READ]] : f32
func.func @max_pool_1d(%x: tensor<2x4x16xf32>) -> tensor<2x4x1x16xf32> {
  %neg_inf = arith.constant 0xFF800000 : f32
  %padded = tensor.pad %x low[0, 0, 1] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %neg_inf : f32
  } : tensor<2x4x16xf32> to tensor<2x4x18xf32>
  %view = tensor.expand_shape %padded [[0], [1, 2], [3]] output_shape [2, 4, 1, 18] : tensor<2x4x18xf32> into tensor<2x4x1x18xf32>
  %e = tensor.empty() : tensor<2x4x1x16xf32>
  %init = linalg.fill ins(%neg_inf : f32) outs(%e : tensor<2x4x1x16xf32>) -> tensor<2x4x1x16xf32>
  %window = tensor.empty() : tensor<1x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%view, %window : tensor<2x4x1x18xf32>, tensor<1x3xf32>) outs(%init : tensor<2x4x1x16xf32>) -> tensor<2x4x1x16xf32>
  return %r : tensor<2x4x1x16xf32>
}

// -----

// A convolution keeps its pad: its weights are read, and its schedule
// copies tiles of both operands.
// CHECK-LABEL: func.func @convolution
// CHECK: tensor.pad
// CHECK: linalg.conv_2d_nchw_fchw
func.func @convolution(%x: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw ins(%padded, %w : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%init : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}
