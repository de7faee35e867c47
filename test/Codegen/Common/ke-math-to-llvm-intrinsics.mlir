// RUN: ke-opt %s --ke-math-to-llvm-intrinsics | FileCheck %s

// Math the GPU has instructions for becomes LLVM intrinsic calls (no
// __ocml_* library calls on AMD); rsqrt a division; tanh (no instruction:
// ke-approximate-math's job) stays.
// CHECK-LABEL: func.func @math
// CHECK: llvm.call_intrinsic "llvm.floor.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.exp.f32"
// CHECK: llvm.call_intrinsic "llvm.fma.f32"(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK: %[[ROOT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: arith.divf %[[ONE]], %[[ROOT]] : f32
// CHECK: llvm.call_intrinsic "llvm.sqrt.f64"(%{{.*}}) : (f64) -> f64
// CHECK: llvm.call_intrinsic "llvm.fabs.v4f32"(%{{.*}}) : (vector<4xf32>) -> vector<4xf32>
// CHECK: %[[VROOT:.*]] = llvm.call_intrinsic "llvm.sqrt.v4f32"
// CHECK: arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK: math.tanh
// CHECK-NOT: math.floor
func.func @math(%x: f32, %d: f64, %v: vector<4xf32>) -> (f32, f32, f32, f32, f64, vector<4xf32>, vector<4xf32>, f32) {
  %0 = math.floor %x : f32
  %1 = math.exp %x : f32
  %2 = math.fma %x, %x, %x : f32
  %3 = math.rsqrt %x : f32
  %4 = math.sqrt %d : f64
  %5 = math.absf %v : vector<4xf32>
  %6 = math.rsqrt %v : vector<4xf32>
  %7 = math.tanh %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f64, vector<4xf32>, vector<4xf32>, f32
}
