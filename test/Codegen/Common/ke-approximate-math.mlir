// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-approximate-math))' | FileCheck %s

// CHECK-LABEL: func.func @exp_tanh
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.tanh
// CHECK:         arith.mulf {{.*}} : vector<8xf32>
// CHECK:         return
func.func @exp_tanh(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.exp %x : vector<8xf32>
  %t = math.tanh %e : vector<8xf32>
  return %t : vector<8xf32>
}
