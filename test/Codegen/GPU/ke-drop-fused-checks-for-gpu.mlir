// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-drop-fused-checks-for-gpu))' | FileCheck %s
// Once GPU-lowered, no loop may read device memory on the host:
// RUN: sed '\|^// An output-less|,$d' %s | ke-opt --ke-lower-nvgpu | FileCheck %s --check-prefix=LOWERED

// What elementwise fusion leaves of a gather's index checks (torch-mlir's
// CrossEntropyLoss): the asserting producer, fused into its consumer, stays
// behind with no outputs. It is erased; the consumer keeps its checks.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @gather_checked
func.func @gather_checked(%labels: tensor<64xi64>, %table: tensor<64x32xf32>) -> tensor<64xf32> attributes {ke.kernel} {
  %c32 = arith.constant 32 : index
  %c0_i64 = arith.constant 0 : i64
  // CHECK-NOT: ins(%{{.*}} : tensor<64xi64>) {
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} ins(%labels : tensor<64xi64>) {
  ^bb0(%in: i64):
    %i = arith.index_cast %in : i64 to index
    %lt = arith.cmpi slt, %i, %c32 : index
    cf.assert %lt, "index must be smaller than dim size"
    linalg.yield
  }
  %e = tensor.empty() : tensor<64xf32>
  // CHECK: linalg.generic
  // CHECK: cf.assert
  // CHECK: tensor.extract
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%labels : tensor<64xi64>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: i64, %out: f32):
    %row = linalg.index 0 : index
    %i = arith.index_cast %in : i64 to index
    %lt = arith.cmpi slt, %i, %c32 : index
    cf.assert %lt, "index must be smaller than dim size"
    %v = tensor.extract %table[%row, %i] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// An output-less op with another side effect is not a check: kept.
// CHECK-LABEL: func.func @prints
// CHECK: linalg.generic
// CHECK: vector.print
func.func @prints(%x: tensor<8xf32>) {
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) {
  ^bb0(%in: f32):
    vector.print %in : f32
    linalg.yield
  }
  return
}

// LOWERED-LABEL: llvm.func @gather_checked(
// LOWERED-NOT: llvm.load
// LOWERED: gpu.launch_func
// LOWERED-NOT: llvm.load
// LOWERED: llvm.return
