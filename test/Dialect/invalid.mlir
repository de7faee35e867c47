// RUN: ke-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // expected-error @+1 {{payload function type '(tensor<8xf32>) -> tensor<8xf32>' differs from the reference's '(tensor<4xf32>) -> tensor<4xf32>'}}
  ke.candidate @c0 by "library" status unevaluated {
    func.func @payload(%x: tensor<8xf32>) -> tensor<8xf32> {
      return %x : tensor<8xf32>
    }
  }
}

// -----

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // expected-error @+1 {{names parent @missing which is not a candidate of '@k'}}
  ke.candidate @c0 from @missing by "library" status unevaluated {
    func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  }
}

// -----

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // A parent must be a candidate, not the reference function.
  // expected-error @+1 {{names parent @k which is not a candidate of '@k'}}
  ke.candidate @c0 from @k by "library" status unevaluated {
    func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  }
}

// -----

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // expected-error @+1 {{parent chain forms a cycle: @a -> @b -> @a}}
  ke.candidate @a from @b by "library" status unevaluated {
    func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  }
  ke.candidate @b from @a by "library" status unevaluated {
    func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  }
}

// -----

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // expected-error @+1 {{parent chain forms a cycle: @self -> @self}}
  ke.candidate @self from @self by "library" status unevaluated {
    func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  }
}

// -----

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // expected-note @+1 {{see existing symbol definition here}}
  ke.candidate @c0 by "library" status unevaluated {
    func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  }
  // expected-error @+1 {{redefinition of symbol named 'c0'}}
  ke.candidate @c0 by "library" status unevaluated {
    func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  }
}

// -----

// expected-error @+1 {{has unknown target 'tpu'; expected one of cpu, nvgpu, amdgpu, riscv}}
ke.kernel @k target("tpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{expects exactly one reference func.func in its body, found 0}}
ke.kernel @k target("cpu") {
}

// -----

// expected-error @+1 {{expects exactly one reference func.func in its body, found 2}}
ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @k2(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // expected-error @+1 {{is not allowed in a ke.kernel: expected the reference func.func and ke.candidate ops only}}
  "test.other"() : () -> ()
}

// -----

ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  // expected-error @+1 {{expects exactly one payload func.func in its body, found 0 op(s) of which 0 func.func}}
  ke.candidate @c0 by "library" status unevaluated {
  }
}

// -----

// expected-error @+1 {{'ke.candidate' op expects parent op 'ke.kernel'}}
ke.candidate @orphan by "library" status unevaluated {
  func.func @payload(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{expects 'ke.kernel' to be a unit attribute on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.kernel = 1 : i32} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{has unknown ke attribute 'ke.kernal'}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.kernal} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.atol' to be a non-negative float, found -1.000000e+00 : f64}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.kernel, ke.atol = -1.0 : f64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.range' on argument #0 to be a non-empty half-open range lo < hi, found [5, 5]}}
func.func @f(%x: tensor<4xi32> {ke.range = [5, 5]}) -> tensor<4xi32> attributes {ke.kernel} {
  return %x : tensor<4xi32>
}

// -----

// expected-error @+1 {{expects 'ke.range' on argument #0 to be [lo, hi] with two integers, found [1]}}
func.func @f(%x: tensor<4xi32> {ke.range = [1]}) -> tensor<4xi32> attributes {ke.kernel} {
  return %x : tensor<4xi32>
}

// -----

// expected-error @+1 {{expects 'ke.range' only on integer arguments, but argument #0 has type 'tensor<4xf32>'}}
func.func @f(%x: tensor<4xf32> {ke.range = [0, 4]}) -> tensor<4xf32> attributes {ke.kernel} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{has unknown ke argument attribute 'ke.rnage' on argument #0; known: ke.range}}
func.func @f(%x: tensor<4xi32> {ke.rnage = [0, 4]}) -> tensor<4xi32> attributes {ke.kernel} {
  return %x : tensor<4xi32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_block_tile' to be a non-empty array<i64> of positive sizes on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_block_tile = array<i64: 16, 0>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_block_tile' to be a non-empty array<i64> of positive sizes on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_block_tile = [16, 16]} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_thread_tile' to be a non-empty array<i64> of positive sizes on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_thread_tile = array<i64>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_reduction_threads' to be 0 or a power of two from 32 to 1024 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_reduction_threads = 48 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_shared_tile' to be 0 or a multiple of 16 from 16 to 128 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_shared_tile = 24 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_warps' to be 2, 4, 8 or 16 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_warps = 6 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_k_splits' to be a power of two from 1 to 64 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_k_splits = 3 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_shared_tile' to be 0 or a multiple of 16 from 16 to 128 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_shared_tile = 256 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_vector_width' to be 1, 2 or 4 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_vector_width = 8 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.work' to be {flops = F, bytes = B} with non-negative integers on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.work = {flops = 4 : i64}} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.work' to be {flops = F, bytes = B} with non-negative integers on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.work = {flops = -1 : i64, bytes = 32 : i64}} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_tensor_core_tile' to be 0, 32, 64 or 128 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_tensor_core_tile = 16 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{expects 'ke.gpu_warpgroup_tile' to be 0, 128 or 256 on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.gpu_warpgroup_tile = 64 : i64} {
  return %x : tensor<4xf32>
}

// -----

// Precision names what the author allows; bf16 is a type, not a permission.
// expected-error @+1 {{expects 'ke.precision' to be "ieee" or "tf32" on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ke.precision = "bf16"} {
  return %x : tensor<4xf32>
}
