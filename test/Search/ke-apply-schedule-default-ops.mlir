// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[]; c=[] r=[]; c=[] r=[]; c=[] r=[]; c=[] r=[]"}))' 2>&1 | FileCheck %s

// A 3-D convolution (channels-last in the payload) is outside the library's
// space; with an empty entry it gets the default schedule, not plain loops:
// it is vectorized as the 1-D convolution its tiles are.
// CHECK-NOT: warning
// CHECK-LABEL: func.func @conv3d
// CHECK:         vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     linalg.conv_3d
func.func @conv3d(%x: tensor<1x4x6x6x10xf32>, %w: tensor<16x4x3x3x3xf32>) -> tensor<1x16x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4x8xf32>) -> tensor<1x16x4x4x8xf32>
  %r = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x6x6x10xf32>, tensor<16x4x3x3x3xf32>) outs(%init : tensor<1x16x4x4x8xf32>) -> tensor<1x16x4x4x8xf32>
  return %r : tensor<1x16x4x4x8xf32>
}
