// RUN: ke-opt %s --ke-lower-nvgpu -mlir-print-ir-after=ke-hoist-allocations-to-entry -o /dev/null 2>&1 | FileCheck %s

// A transposed convolution with a bias on the GPU: its four phases read
// one zero-padded copy of the input (ke-decompose-transposed-convolutions
// pads once, by the most any phase needs; ke-pads-to-generics-for-gpu
// writes it in one pass) and each writes its strided
// slice of the caller's buffer in place (eliminate-empty-tensors before
// bufferization, then cse folding the copy of a view onto itself): one
// temporary, no copy of a phase's result. The bias broadcasts stay here;
// ke-stage-contractions-for-gpu starts the accumulators from the bias.
// CHECK-LABEL: IR Dump After
// CHECK:         func.func @transposed_conv_bias(%{{.*}}, %{{.*}}, %{{.*}}, %[[OUT:.*]]: memref<2x3x8x8xf32>)
// CHECK:         %[[PADDED:.*]] = memref.alloc() {{.*}} : memref<2x2x5x5xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%[[PADDED]] : memref<2x2x5x5xf32>)
// CHECK:           memref.load %arg0
// CHECK-NOT:     memref.copy
// CHECK:         %[[PHASE:.*]] = memref.subview %[[OUT]][0, 0, 0, 0] [2, 3, 4, 4] [1, 1, 2, 2]
// CHECK:         linalg.broadcast ins(%arg2 : memref<3xf32>) outs(%[[PHASE]]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} outs(%[[PHASE]]
// CHECK-COUNT-3: linalg.conv_2d_nchw_fchw {{.*}} outs(%subview
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @transposed_conv_bias(%x: tensor<2x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>) -> tensor<2x3x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x10x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x10x10xf32>) -> tensor<2x2x10x10xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 1, 1] [2, 2, 4, 4] [1, 1, 2, 2] : tensor<2x2x4x4xf32> into tensor<2x2x10x10xf32>
  %oe = tensor.empty() : tensor<2x3x8x8xf32>
  %o = linalg.broadcast ins(%b : tensor<3xf32>) outs(%oe : tensor<2x3x8x8xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%spread, %w : tensor<2x2x10x10xf32>, tensor<3x2x3x3xf32>) outs(%o : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  return %r : tensor<2x3x8x8xf32>
}
