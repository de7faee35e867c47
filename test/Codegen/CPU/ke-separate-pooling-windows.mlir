// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-separate-pooling-windows))' | FileCheck %s

// A 3 x 2 sum pool, strides 2 x 3: the rows' stage takes three slices of
// the input (rows stepped by 2, every column the columns' stage reads),
// the columns' stage two slices of that (columns stepped by 3), folded
// into the output the fill started: from the fill's value, into an empty
// tensor.
// CHECK-LABEL: func.func @sum_pool
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.0
// CHECK-DAG:     %[[R0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 5, 17] [1, 1, 2, 1]
// CHECK-DAG:     %[[R1:.*]] = tensor.extract_slice %arg0[0, 0, 1, 0] [1, 4, 5, 17] [1, 1, 2, 1]
// CHECK-DAG:     %[[R2:.*]] = tensor.extract_slice %arg0[0, 0, 2, 0] [1, 4, 5, 17] [1, 1, 2, 1]
// CHECK:         %[[ROWS:.*]] = linalg.generic {{.*}} ins(%[[R0]], %[[R1]], %[[R2]] : {{.*}}) outs(%{{.*}} : tensor<1x4x5x17xf32>)
// CHECK:         ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[AB:.*]] = arith.addf %[[A]], %[[B]]
// CHECK:           %[[ABC:.*]] = arith.addf %[[AB]], %[[C]]
// CHECK:           linalg.yield %[[ABC]]
// CHECK-DAG:     %[[C0:.*]] = tensor.extract_slice %[[ROWS]][0, 0, 0, 0] [1, 4, 5, 6] [1, 1, 1, 3]
// CHECK-DAG:     %[[C1:.*]] = tensor.extract_slice %[[ROWS]][0, 0, 0, 1] [1, 4, 5, 6] [1, 1, 1, 3]
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x5x6xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[C0]], %[[C1]] : {{.*}}) outs(%[[EMPTY]] : tensor<1x4x5x6xf32>)
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[S0:.*]] = arith.addf %[[ZERO]], %[[X]]
// CHECK:           %[[S1:.*]] = arith.addf %[[S0]], %[[Y]]
// CHECK:           linalg.yield %[[S1]]
// CHECK-NOT:     linalg.pooling
func.func @sum_pool(%x: tensor<1x4x11x17xf32>) -> tensor<1x4x5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x5x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  %w = tensor.empty() : tensor<3x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x11x17xf32>, tensor<3x2xf32>) outs(%f : tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  return %p : tensor<1x4x5x6xf32>
}

// -----

// A 1-D max pool (a window of one row, dilation 3): only the columns'
// stage, its slices stepping 3 apart, rows taken with the row stride;
// an output that is no fill is read and folded into.
// CHECK-LABEL: func.func @dilated_max_pool_1d
// CHECK-DAG:     tensor.extract_slice %arg0[0, 0, 0, 0] [2, 8, 1, 20] [1, 1, 1, 1]
// CHECK-DAG:     tensor.extract_slice %arg0[0, 0, 0, 3] [2, 8, 1, 20] [1, 1, 1, 1]
// CHECK-DAG:     tensor.extract_slice %arg0[0, 0, 0, 6] [2, 8, 1, 20] [1, 1, 1, 1]
// CHECK:         linalg.generic {{.*}} outs(%arg1 : tensor<2x8x1x20xf32>)
// CHECK:         ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK:           %[[M0:.*]] = arith.maximumf %[[OUT]], %[[A]]
// CHECK:           %[[M1:.*]] = arith.maximumf %[[M0]], %[[B]]
// CHECK:           %[[M2:.*]] = arith.maximumf %[[M1]], %[[C]]
// CHECK:           linalg.yield %[[M2]]
// CHECK-NOT:     linalg.pooling
func.func @dilated_max_pool_1d(%x: tensor<2x8x1x26xf32>, %init: tensor<2x8x1x20xf32>) -> tensor<2x8x1x20xf32> {
  %w = tensor.empty() : tensor<1x3xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<[1, 3]> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x8x1x26xf32>, tensor<1x3xf32>) outs(%init : tensor<2x8x1x20xf32>) -> tensor<2x8x1x20xf32>
  return %p : tensor<2x8x1x20xf32>
}

// -----

// Windows of more than 16 columns stay pooling ops.
// CHECK-LABEL: func.func @wide_window
// CHECK:         linalg.pooling_nhwc_max
func.func @wide_window(%x: tensor<1x2x40x4xf32>, %init: tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32> {
  %w = tensor.empty() : tensor<2x40xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x40x4xf32>, tensor<2x40xf32>) outs(%init : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  return %p : tensor<1x1x1x4xf32>
}

// -----

// An empty output (valid IR) stays a pooling op: the rows' slices would
// have a negative width.
// CHECK-LABEL: func.func @empty_output
// CHECK:         linalg.pooling_nhwc_max
func.func @empty_output(%x: tensor<1x4x0x3xf32>, %init: tensor<1x3x0x3xf32>) -> tensor<1x3x0x3xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 3]> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x0x3xf32>, tensor<2x2xf32>) outs(%init : tensor<1x3x0x3xf32>) -> tensor<1x3x0x3xf32>
  return %p : tensor<1x3x0x3xf32>
}

// -----

// torch-mlir's 3-D max pool is a generic (window 3 x 3 x 3, strides 2,
// dilation 3): one stage per window dimension, outermost first, each
// slicing the previous stage's result; the last starts from the fill's
// -inf.
// CHECK-LABEL: func.func @generic_max_pool_3d
// CHECK-DAG:     %[[NEG:.*]] = arith.constant 0xFF800000
// CHECK-DAG:     %[[D0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0, 0] [1, 2, 2, 9, 11] [1, 1, 2, 1, 1]
// CHECK-DAG:     %[[D1:.*]] = tensor.extract_slice %arg0[0, 0, 3, 0, 0] [1, 2, 2, 9, 11] [1, 1, 2, 1, 1]
// CHECK-DAG:     %[[D2:.*]] = tensor.extract_slice %arg0[0, 0, 6, 0, 0] [1, 2, 2, 9, 11] [1, 1, 2, 1, 1]
// CHECK:         %[[DEPTH:.*]] = linalg.generic {{.*}} ins(%[[D0]], %[[D1]], %[[D2]] : {{.*}}) outs(%{{.*}} : tensor<1x2x2x9x11xf32>)
// CHECK-DAG:     %[[H0:.*]] = tensor.extract_slice %[[DEPTH]][0, 0, 0, 0, 0] [1, 2, 2, 2, 11] [1, 1, 1, 2, 1]
// CHECK-DAG:     %[[H2:.*]] = tensor.extract_slice %[[DEPTH]][0, 0, 0, 6, 0] [1, 2, 2, 2, 11] [1, 1, 1, 2, 1]
// CHECK:         %[[ROWS:.*]] = linalg.generic {{.*}} ins(%[[H0]], %{{.*}}, %[[H2]] : {{.*}}) outs(%{{.*}} : tensor<1x2x2x2x11xf32>)
// CHECK-DAG:     %[[W0:.*]] = tensor.extract_slice %[[ROWS]][0, 0, 0, 0, 0] [1, 2, 2, 2, 3] [1, 1, 1, 1, 2]
// CHECK-DAG:     %[[W2:.*]] = tensor.extract_slice %[[ROWS]][0, 0, 0, 0, 6] [1, 2, 2, 2, 3] [1, 1, 1, 1, 2]
// CHECK:         linalg.generic {{.*}} ins(%[[W0]], %{{.*}}, %[[W2]] : {{.*}}) outs(%{{.*}} : tensor<1x2x2x2x3xf32>)
// CHECK:         ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[M0:.*]] = arith.maximumf %[[A]], %[[NEG]]
// CHECK:           %[[M1:.*]] = arith.maximumf %[[B]], %[[M0]]
// CHECK:           %[[M2:.*]] = arith.maximumf %[[C]], %[[M1]]
// CHECK:           linalg.yield %[[M2]]
// CHECK-NOT:     linalg.generic
func.func @generic_max_pool_3d(%x: tensor<1x2x10x10x12xf32>) -> tensor<1x2x2x2x3xf32> {
  %neg = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x2x2x3xf32>
  %f = linalg.fill ins(%neg : f32) outs(%e : tensor<1x2x2x2x3xf32>) -> tensor<1x2x2x2x3xf32>
  %w = tensor.empty() : tensor<3x3x3xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5 * 3, d3 * 2 + d6 * 3, d4 * 2 + d7 * 3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x2x10x10x12xf32>, tensor<3x3x3xf32>) outs(%f : tensor<1x2x2x2x3xf32>) {
  ^bb0(%in: f32, %win: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x2x3xf32>
  return %p : tensor<1x2x2x2x3xf32>
}

// -----

// A named 3-D sum pool, channels last: stages along depth, rows, columns.
// CHECK-LABEL: func.func @sum_pool_ndhwc
// CHECK:         tensor.extract_slice %arg0[0, 1, 0, 0, 0] [1, 2, 4, 4, 8] [1, 2, 1, 1, 1]
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4x4x8xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 1, 0, 0] [1, 2, 2, 4, 8] [1, 1, 2, 1, 1]
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x2x4x8xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 1, 0] [1, 2, 2, 2, 8] [1, 1, 1, 2, 1]
// CHECK:         linalg.generic {{.*}} outs(%arg1 : tensor<1x2x2x2x8xf32>)
// CHECK-NOT:     linalg.pooling
func.func @sum_pool_ndhwc(%x: tensor<1x4x4x4x8xf32>, %init: tensor<1x2x2x2x8xf32>) -> tensor<1x2x2x2x8xf32> {
  %w = tensor.empty() : tensor<2x2x2xf32>
  %p = linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<2> : vector<3xi64>}
      ins(%x, %w : tensor<1x4x4x4x8xf32>, tensor<2x2x2xf32>) outs(%init : tensor<1x2x2x2x8xf32>) -> tensor<1x2x2x2x8xf32>
  return %p : tensor<1x2x2x2x8xf32>
}

// -----

// Not pools, left alone: a combiner whose order matters (subtraction), a
// window operand whose values are read (a convolution with a shared
// filter), two window loops in one dimension.
// CHECK-LABEL: func.func @not_pools
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     tensor.extract_slice
#in = affine_map<(d0, d1, d2) -> (d0 * 2 + d1 + d2)>
#win = affine_map<(d0, d1, d2) -> (d1, d2)>
#in1 = affine_map<(d0, d1) -> (d0 * 2 + d1)>
#win1 = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
#out2 = affine_map<(d0, d1, d2) -> (d0)>
func.func @not_pools(%x: tensor<16xf32>, %w: tensor<3xf32>, %w2: tensor<3x3xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %sub = linalg.generic {indexing_maps = [#in1, #win1, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<16xf32>, tensor<3xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %win: f32, %out: f32):
    %s = arith.subf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %conv = linalg.generic {indexing_maps = [#in1, #win1, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<16xf32>, tensor<3xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %win: f32, %out: f32):
    %p = arith.mulf %in, %win : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %two = linalg.generic {indexing_maps = [#in, #win, #out2], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %w2 : tensor<16xf32>, tensor<3x3xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %win: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %sub, %conv, %two : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
