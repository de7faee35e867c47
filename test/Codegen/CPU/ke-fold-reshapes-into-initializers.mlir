// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-fold-reshapes-into-initializers))' | FileCheck %s

// A bias broadcast read through an expand_shape (unit-dimension folding
// dropped its batch, not the convolution's): broadcast in the expanded
// shape into an empty tensor of that shape, so the schedule can compute it
// in the convolution's tiles.
// CHECK-LABEL: func.func @bias_through_expand_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x16x16x64xf32>
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<64xf32>) outs(%[[EMPTY]] : tensor<1x16x16x64xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[BIAS]] : tensor<1x16x16x64xf32>)
func.func @bias_through_expand_shape(%x: tensor<1x18x18x32xf32>, %w: tensor<3x3x32x64xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %e = tensor.empty() : tensor<16x16x64xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<64xf32>) outs(%e : tensor<16x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x16x64xf32>
  %init = tensor.expand_shape %bias [[0, 1], [2], [3]] output_shape [1, 16, 16, 64] : tensor<16x16x64xf32> into tensor<1x16x16x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x18x18x32xf32>, tensor<3x3x32x64xf32>) outs(%init : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %r : tensor<1x16x16x64xf32>
}

// -----

// A generic that computes (here an exponential) keeps its loops.
// CHECK-LABEL: func.func @computation_left_alone
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x64xf32>)
// CHECK:         tensor.expand_shape %[[EXP]]
func.func @computation_left_alone(%x: tensor<16x64xf32>) -> tensor<1x16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  %ex = tensor.expand_shape %r [[0, 1], [2]] output_shape [1, 16, 64] : tensor<16x64xf32> into tensor<1x16x64xf32>
  return %ex : tensor<1x16x64xf32>
}

// -----

// A reshaped empty tensor is an empty tensor of the reshaped shape.
// CHECK-LABEL: func.func @reshaped_empty
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x16x64xf32>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.fill {{.*}} outs(%[[EMPTY]] : tensor<1x16x64xf32>)
func.func @reshaped_empty(%v: f32) -> tensor<1x16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %ex = tensor.expand_shape %e [[0, 1], [2]] output_shape [1, 16, 64] : tensor<16x64xf32> into tensor<1x16x64xf32>
  %f = linalg.fill ins(%v : f32) outs(%ex : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %f : tensor<1x16x64xf32>
}

// -----

// A transposing copy read through the expand_shape of a group norm's
// [N, G, C/G, H, W] view is data movement too, but not an initializer:
// expanded, it ran 2x slower. Left alone.
// CHECK-LABEL: func.func @copy_read_as_input
// CHECK:         %[[COPY:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8x4x4xf32>)
// CHECK:         tensor.expand_shape %[[COPY]]
func.func @copy_read_as_input(%x: tensor<2x4x4x8xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x4x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x4x8xf32>) outs(%e : tensor<2x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x4x4xf32>
  %g = tensor.expand_shape %t [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 4, 4] : tensor<2x8x4x4xf32> into tensor<2x2x4x4x4xf32>
  %se = tensor.empty() : tensor<2x2xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g : tensor<2x2x4x4x4xf32>) outs(%s0 : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}
