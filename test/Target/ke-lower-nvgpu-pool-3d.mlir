// RUN: ke-opt %s --ke-lower-nvgpu -mlir-print-ir-after=ke-fold-pads-into-consumers-for-gpu -o /dev/null 2>&1 | FileCheck %s

// torch-mlir's padded 3-D average pool on NCDHW (a pad, a transpose to
// NDHWC, the pool, a transpose back, the division): the window reads the
// unpadded NCDHW input (extracting in its body, the padding selected
// outside it) and writes the NCDHW output, so neither transpose nor the
// pad is left for a launch of its own.
// (The front-end clean-up makes a transpose a copying generic: two ops
// are left, the window and the division.)
// CHECK-LABEL: IR Dump After
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK:           tensor.extract %arg0[
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK:           arith.divf
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor.pad
func.func @avg_pool_3d(%x: tensor<2x8x8x8x8xf32>) -> tensor<2x8x4x4x4xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 27.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1, 1] high[0, 0, 1, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8x8xf32> to tensor<2x8x10x10x10xf32>
  %window = tensor.empty() : tensor<3x3x3xf32>
  %e0 = tensor.empty() : tensor<2x10x10x10x8xf32>
  %cl = linalg.transpose ins(%padded : tensor<2x8x10x10x10xf32>) outs(%e0 : tensor<2x10x10x10x8xf32>) permutation = [0, 2, 3, 4, 1]
  %e1 = tensor.empty() : tensor<2x4x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4x4x8xf32>) -> tensor<2x4x4x4x8xf32>
  %pool = linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<2> : vector<3xi64>}
      ins(%cl, %window : tensor<2x10x10x10x8xf32>, tensor<3x3x3xf32>) outs(%f : tensor<2x4x4x4x8xf32>) -> tensor<2x4x4x4x8xf32>
  %e2 = tensor.empty() : tensor<2x8x4x4x4xf32>
  %back = linalg.transpose ins(%pool : tensor<2x4x4x4x8xf32>) outs(%e2 : tensor<2x8x4x4x4xf32>) permutation = [0, 4, 1, 2, 3]
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%back : tensor<2x8x4x4x4xf32>) outs(%e2 : tensor<2x8x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %count : f32
    linalg.yield %m : f32
  } -> tensor<2x8x4x4x4xf32>
  return %mean : tensor<2x8x4x4x4xf32>
}
