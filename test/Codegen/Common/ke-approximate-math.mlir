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

// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-approximate-math{ops=exp,erf}))' | FileCheck %s --check-prefix=SOME

// Only the ops named: exp and erf are approximated, tanh and log stay.
// SOME-LABEL: func.func @exp_tanh
// SOME-NOT:     math.exp
// SOME:         math.tanh
// SOME-LABEL: func.func @erf_log
// SOME-NOT:     math.erf
// SOME:         math.log {{.*}} : vector<8xf32>
// SOME-NOT:     math.erf
func.func @erf_log(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.erf %x : vector<8xf32>
  %l = math.log %e : vector<8xf32>
  return %l : vector<8xf32>
}
