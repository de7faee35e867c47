// RUN: ke-opt %s -split-input-file -ke-outline-kernels -verify-diagnostics
// RUN: ke-opt %s -split-input-file -ke-rewrite -verify-diagnostics

// expected-error @+1 {{kernel '@k' is referenced elsewhere in the module and cannot be outlined into a ke.kernel}}
func.func @k(%a: tensor<8xf32>) -> tensor<8xf32> attributes {ke.kernel} {
  return %a : tensor<8xf32>
}
func.func @caller(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @k(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{kernel '@decl' has no body to optimize}}
func.func private @decl(%a: tensor<8xf32>) -> tensor<8xf32> attributes {ke.kernel}
