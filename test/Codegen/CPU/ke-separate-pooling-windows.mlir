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
