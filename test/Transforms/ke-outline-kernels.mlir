// RUN: ke-opt %s -ke-outline-kernels | FileCheck %s
// RUN: ke-opt %s -ke-outline-kernels=target=riscv | FileCheck %s --check-prefix=RISCV
// RUN: not ke-opt %s -ke-outline-kernels=target=tpu 2>&1 | FileCheck %s --check-prefix=BADTARGET

// CHECK-LABEL: ke.kernel @add target("cpu") {
// CHECK-NEXT:    func.func @add(%{{.*}}: tensor<8xi32> {ke.range = [0, 4]}, %{{.*}}: tensor<8xi32>) -> tensor<8xi32> attributes {ke.atol = 1.000000e-03 : f64, ke.kernel}
// CHECK-NOT:     ke.candidate
// CHECK:       }
// CHECK:       func.func @helper
// CHECK-NOT:   ke.kernel @helper
// RISCV:       ke.kernel @add target("riscv")
// BADTARGET:   error: ke-outline-kernels: unknown target 'tpu'; expected one of cpu, nvgpu, amdgpu, riscv
func.func @add(%a: tensor<8xi32> {ke.range = [0, 4]}, %b: tensor<8xi32>) -> tensor<8xi32> attributes {ke.kernel, ke.atol = 1.0e-3 : f64} {
  %0 = arith.addi %a, %b : tensor<8xi32>
  return %0 : tensor<8xi32>
}
func.func @helper(%a: tensor<8xi32>) -> tensor<8xi32> {
  return %a : tensor<8xi32>
}
