// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=8}))' | FileCheck %s
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=0}))' 2>&1 | FileCheck %s --check-prefix=BADWIDTH

// BADWIDTH: ke-tile-and-vectorize: vector-width must be positive, found 0

// Matmul: the output's and B's innermost loop (j) is vectorized.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               vector.transfer_read {{.*}} : tensor<1x8xf32>, vector<1x8xf32>
// CHECK:               vector.contract
// CHECK-NOT:     linalg.matmul
func.func @matmul(%a: tensor<4x16xf32>, %b: tensor<16x32xf32>, %c: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x32xf32>) outs(%c : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// Row reduction: most bytes are contiguous along the reduced loop.
// CHECK-LABEL: func.func @row_sum
// CHECK:         vector.transfer_read {{.*}} vector<1x8xf32>
// CHECK:         vector.multi_reduction <add>
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<4x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Trip counts that the width does not divide are left scalar (still correct).
// CHECK-LABEL: func.func @odd
// CHECK-NOT:     vector.
// CHECK:         linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @odd(%x: tensor<7xf32>, %init: tensor<7xf32>) -> tensor<7xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<7xf32>) outs(%init : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<7xf32>
  return %r : tensor<7xf32>
}

// -----

// An im2col-like gather (a mod and a floordiv in the input's map): tiling
// would slice the input at the map's values at the tile's bounds, which are
// not its extremes, so the op is left untiled (plain loops, still correct).
// CHECK-LABEL: func.func @im2col_gather
// CHECK-NOT:     scf.for
// CHECK-NOT:     vector.
// CHECK:         linalg.generic
#gather = affine_map<(d0, d1) -> (d0 floordiv 3, d1 + d0 mod 3)>
#plain = affine_map<(d0, d1) -> (d0, d1)>
func.func @im2col_gather(%x: tensor<4x18xf32>, %init: tensor<12x16xf32>) -> tensor<12x16xf32> {
  %r = linalg.generic {indexing_maps = [#gather, #plain], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x18xf32>) outs(%init : tensor<12x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<12x16xf32>
  return %r : tensor<12x16xf32>
}

// -----

// A channels-last convolution: a register tile of 16 pixels by 32 channels
// (4 vectors of 8), one outer-product FMA per pixel, the accumulator tile
// read before the reduction loops (kh, kw, c) and written after them.
// CHECK-LABEL: func.func @conv_nhwc
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<1x4x16x64xf32>, vector<1x16x32xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[ACC]]) -> (tensor<1x4x16x64xf32>, vector<1x16x32xf32>)
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-COUNT-16:      vector.fma {{.*}} : vector<32xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<1x16x32xf32>, tensor<1x4x16x64xf32>
// CHECK-NOT:     linalg.conv
func.func @conv_nhwc(%x: tensor<1x6x18x8xf32>, %w: tensor<3x3x8x64xf32>, %init: tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x18x8xf32>, tensor<3x3x8x64xf32>) outs(%init : tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32>
  return %r : tensor<1x4x16x64xf32>
}

// -----

// A channels-last 3-D convolution: the same pixels-by-channels tile with od
// and kd of 1 as well, computed as the 1-D convolution along w it then is.
// CHECK-LABEL: func.func @conv_ndhwc
// CHECK:         scf.for {{.*}} -> (tensor<1x2x4x8x16xf32>, vector<1x8x16xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     linalg.conv
func.func @conv_ndhwc(%x: tensor<1x4x6x10x4xf32>, %w: tensor<3x3x3x4x16xf32>, %init: tensor<1x2x4x8x16xf32>) -> tensor<1x2x4x8x16xf32> {
  %r = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x6x10x4xf32>, tensor<3x3x3x4x16xf32>) outs(%init : tensor<1x2x4x8x16xf32>) -> tensor<1x2x4x8x16xf32>
  return %r : tensor<1x2x4x8x16xf32>
}

// -----

// A channels-last depthwise convolution: 16 pixels by 32 channels, one FMA
// on the whole tile per filter tap, the accumulator kept across kh and kw.
// CHECK-LABEL: func.func @depthwise_nhwc
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<1x4x16x64xf32>, vector<1x16x32xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[ACC]])
// CHECK:           scf.for
// CHECK:             vector.fma {{.*}} : vector<1x16x32xf32>
// CHECK-NOT:     linalg.depthwise
func.func @depthwise_nhwc(%x: tensor<1x6x18x64xf32>, %w: tensor<3x3x64xf32>, %init: tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x18x64xf32>, tensor<3x3x64xf32>) outs(%init : tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32>
  return %r : tensor<1x4x16x64xf32>
}
