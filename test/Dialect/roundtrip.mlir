// RUN: ke-opt %s | FileCheck %s
// RUN: ke-opt %s | ke-opt | FileCheck %s
// RUN: ke-opt -mlir-print-op-generic %s | ke-opt | FileCheck %s

// CHECK-LABEL: ke.kernel @scale target("cpu") {
// CHECK:         func.func @scale(%{{.*}}: tensor<64xf32>) -> tensor<64xf32>
// CHECK:         ke.candidate @c0 by "library" status correct strategy "vectorize 8" metrics {gflops = 1.500000e+00 : f64, time_ns = 8.120000e+02 : f64} {
// CHECK:           func.func @payload(
// CHECK:         ke.candidate @c1 from @c0 by "llm:test-model" status unevaluated {
// CHECK:         ke.candidate @c2 from @c0 by "library" status failed strategy "tile 4" {
ke.kernel @scale target("cpu") {
  func.func @scale(%x: tensor<64xf32>) -> tensor<64xf32> {
    %0 = arith.addf %x, %x : tensor<64xf32>
    return %0 : tensor<64xf32>
  }
  ke.candidate @c0 by "library" status correct strategy "vectorize 8"
      metrics {time_ns = 812.0 : f64, gflops = 1.5 : f64} {
    func.func @payload(%x: tensor<64xf32>) -> tensor<64xf32> {
      %0 = arith.addf %x, %x : tensor<64xf32>
      return %0 : tensor<64xf32>
    }
  }
  ke.candidate @c1 from @c0 by "llm:test-model" status unevaluated {
    func.func @payload(%x: tensor<64xf32>) -> tensor<64xf32> {
      %c = arith.constant dense<2.0> : tensor<64xf32>
      %0 = arith.mulf %x, %c : tensor<64xf32>
      return %0 : tensor<64xf32>
    }
  }
  ke.candidate @c2 from @c0 by "library" status failed strategy "tile 4" {
    func.func @payload(%x: tensor<64xf32>) -> tensor<64xf32> {
      return %x : tensor<64xf32>
    }
  }
}

// The discardable ke.* attributes on plain functions.
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    {ke.range = [0, 100]}
// CHECK-SAME:    attributes {ke.atol = 1.000000e-03 : f64, ke.kernel}
func.func @gather(%table: tensor<100xf32>, %ids: tensor<8xi32> {ke.range = [0, 100]})
    -> tensor<8xf32> attributes {ke.kernel, ke.atol = 1.0e-3 : f64} {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%ids : tensor<8xi32>) outs(%e : tensor<8xf32>) {
  ^bb0(%id: i32, %out: f32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<100xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
