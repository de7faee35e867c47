// RUN: ke-opt %s --ke-lower-cpu="out-params threads" -mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s

// A transposed convolution's phase (odd outputs, stride 2): eliminate-empty-
// tensors turns the tensor the phase is computed into into its strided
// slice of the output, so the transpose back from channels-last writes the
// out-parameter's strided view in place, instead of a temporary that a copy
// then scatters into it.
// CHECK-LABEL: IR Dump After
// CHECK:         vector.transfer_write {{.*}} memref<1x8x8xf32, strided<[520, 65, 2], offset: ?>>
// CHECK-NOT:     memref.copy {{.*}} to memref<2x8x32xf32, strided<[520, 65, 2]
func.func @phases(%x: tensor<2x4x32xf32>, %w: tensor<8x4x3xf32>) -> tensor<2x8x65xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x69xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x69xf32>) -> tensor<2x4x69xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 3] [2, 4, 32] [1, 1, 2] : tensor<2x4x32xf32> into tensor<2x4x69xf32>
  %oe = tensor.empty() : tensor<2x8x65xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x8x65xf32>) -> tensor<2x8x65xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
      ins(%spread, %w : tensor<2x4x69xf32>, tensor<8x4x3xf32>) outs(%o : tensor<2x8x65xf32>) -> tensor<2x8x65xf32>
  return %r : tensor<2x8x65xf32>
}
