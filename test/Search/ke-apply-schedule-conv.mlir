// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,1,4] v; c=[] r=[1,1,1,8] v; c=[] r=[1,1,1,8] v; c=[0,0,0,0,0,0,2] r=[1,1,8,16,1,1,1] v; c=[] r=[1,1,8] v"}))' | FileCheck %s
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,1,4] v; c=[] r=[1,1,1,8] v; c=[] r=[1,1,1,8] v; c=[] r=[1,2,8,16,1,1,1] v; c=[] r=[1,1,8] v"}))' 2>&1 | FileCheck %s --check-prefix=WINDOW
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,1,4] v; c=[] r=[1,1,1,8] v; c=[] r=[1,1,1,8] v; c=[] r=[1,1,8,16,1,1,1] v u=2; c=[] r=[1,1,8] v"}))' 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=8}))' | FileCheck %s --check-prefix=DEFAULT

// A convolution as PyTorch front ends write it (NCHW input, FCHW filter)
// reaches the library's schedules channels-last (NHWC between transposes,
// see ke-convolutions-to-channels-last), where it is vectorized through its
// 1-D decomposition once its oh and kh register tiles are 1. The default
// schedule also vectorizes the NCHW form itself.
// CHECK-LABEL: func.func @conv_nchw
// CHECK:         vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// WINDOW: ke-apply-schedule: op #3: a vectorized linalg.conv_2d_nhwc_hwcf needs register tiles of 1 on oh (loop 1) and kh (loop 4)
// Unrolling the convolution's innermost register loop (c) applies too: the
// unroll names the tiling's loops, not the decomposed tile's.
// UNROLL-NOT: warning
// UNROLL-LABEL: func.func @conv_nchw
// UNROLL-COUNT-16: vector.fma {{.*}} : vector<16xf32>
// DEFAULT-LABEL: func.func @conv_nchw
// DEFAULT:         vector.contract
// DEFAULT-NOT:     linalg.conv_2d_nchw_fchw
func.func @conv_nchw(%x: tensor<1x4x10x18xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x16x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x16xf32>) -> tensor<1x16x8x16xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x10x18xf32>, tensor<16x4x3x3xf32>) outs(%init : tensor<1x16x8x16xf32>) -> tensor<1x16x8x16xf32>
  return %r : tensor<1x16x8x16xf32>
}
