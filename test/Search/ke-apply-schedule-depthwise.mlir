// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[] r=[]"}))' 2>&1 | FileCheck %s

// A channels-first depthwise convolution is outside the library's space;
// with an empty entry it gets the default schedule (vectors along its
// output width), not plain loops.
// CHECK-NOT: warning
// CHECK-LABEL: func.func @depthwise_nchw
// CHECK:         arith.mulf {{.*}} : vector<1x1x2x32xf32>
// CHECK-NOT:     linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise_nchw(%x: tensor<1x16x16x34xf32>, %w: tensor<16x3x3xf32>) -> tensor<1x16x14x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x14x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x14x32xf32>) -> tensor<1x16x14x32xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw ins(%x, %w : tensor<1x16x16x34xf32>, tensor<16x3x3xf32>) outs(%init : tensor<1x16x14x32xf32>) -> tensor<1x16x14x32xf32>
  return %r : tensor<1x16x14x32xf32>
}
