// RUN: ke-opt %s -split-input-file -ke-select-best -verify-diagnostics | FileCheck %s

// The fastest correct candidate wins, whatever its position; faster but
// incorrect or failed candidates are ignored.
// CHECK-LABEL: func.func @k(%{{.*}}: tensor<8xi32> {ke.range = [0, 4]}) -> tensor<8xi32>
// CHECK-SAME:    ke.atol = 1.000000e-03 : f64, ke.kernel, ke.selected = "fast", ke.strategy = "vectorize 8"
// CHECK-NEXT:    arith.constant dense<3>
// CHECK-NOT:   ke.kernel @k
// CHECK-NOT:   ke.candidate
ke.kernel @k target("cpu") {
  func.func @k(%x: tensor<8xi32> {ke.range = [0, 4]}) -> tensor<8xi32> attributes {ke.kernel, ke.atol = 1.0e-3 : f64} {
    %c = arith.constant dense<1> : tensor<8xi32>
    %0 = arith.addi %x, %c : tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  ke.candidate @slow by "library" status correct metrics {time_ns = 900.0 : f64} {
    func.func @payload(%x: tensor<8xi32>) -> tensor<8xi32> {
      %c = arith.constant dense<2> : tensor<8xi32>
      %0 = arith.addi %x, %c : tensor<8xi32>
      return %0 : tensor<8xi32>
    }
  }
  ke.candidate @wrong from @slow by "library" status incorrect metrics {time_ns = 10.0 : f64} {
    func.func @payload(%x: tensor<8xi32>) -> tensor<8xi32> {
      return %x : tensor<8xi32>
    }
  }
  ke.candidate @fast from @slow by "library" status correct strategy "vectorize 8" metrics {time_ns = 300.0 : f64} {
    func.func @payload(%x: tensor<8xi32>) -> tensor<8xi32> {
      %c = arith.constant dense<3> : tensor<8xi32>
      %0 = arith.addi %x, %c : tensor<8xi32>
      return %0 : tensor<8xi32>
    }
  }
  ke.candidate @crashed by "library" status failed metrics {time_ns = 1.0 : f64} {
    func.func @payload(%x: tensor<8xi32>) -> tensor<8xi32> {
      return %x : tensor<8xi32>
    }
  }
}

// -----

// No correct candidate: the reference stays, and a remark says so.
// CHECK-LABEL: func.func @r(
// CHECK-SAME:    attributes {ke.kernel}
// CHECK-NEXT:    arith.constant dense<1>
// expected-remark @+1 {{no correct, timed candidate; keeping the reference of '@r'}}
ke.kernel @r target("cpu") {
  func.func @r(%x: tensor<8xi32>) -> tensor<8xi32> {
    %c = arith.constant dense<1> : tensor<8xi32>
    %0 = arith.addi %x, %c : tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  ke.candidate @bad by "library" status incorrect metrics {time_ns = 1.0 : f64} {
    func.func @payload(%x: tensor<8xi32>) -> tensor<8xi32> {
      return %x : tensor<8xi32>
    }
  }
}

// -----

// A kernel with no candidates at all is just unwrapped.
// CHECK-LABEL: func.func @plain(
// CHECK-SAME:    attributes {ke.kernel}
ke.kernel @plain target("cpu") {
  func.func @plain(%x: tensor<8xi32>) -> tensor<8xi32> {
    return %x : tensor<8xi32>
  }
}
