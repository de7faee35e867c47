// RUN: ke-opt %s --split-input-file --ke-wrap-host-loops-for-gpu | FileCheck %s

// A reduction to a scalar, lowered to sequential loops, and the fill of its
// accumulator each move into a parallel loop of one iteration; the parallel
// loop that reads the result stays as it is.
// CHECK-LABEL: func.func @norm
// CHECK: %[[ACC:.*]] = memref.alloc
// CHECK: scf.parallel (%{{.*}}) = (%[[Z:.*]]) to (%[[O:.*]]) step (%[[O]])
// CHECK-NEXT: memref.store %{{.*}}, %[[ACC]][]
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
// CHECK-NEXT: scf.for
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT: memref.load %arg0
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @norm(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<f32>
  memref.store %zero, %acc[] : memref<f32>
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %in[%i] : memref<64xf32>
    %s = memref.load %acc[] : memref<f32>
    %t = arith.addf %x, %s : f32
    memref.store %t, %acc[] : memref<f32>
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %x = memref.load %in[%i] : memref<64xf32>
    %s = memref.load %acc[] : memref<f32>
    %y = arith.divf %x, %s : f32
    memref.store %y, %out[%i] : memref<64xf32>
    scf.reduce
  }
  memref.dealloc %acc : memref<f32>
  return
}

// -----

// A 0-d op (a mean's division) lowered to a load, arithmetic and a store at
// the top of the function: all three move into the one-iteration loop.
// CHECK-LABEL: func.func @mean
// CHECK: scf.parallel
// CHECK-NEXT: memref.load %arg0[]
// CHECK-NEXT: arith.divf
// CHECK-NEXT: memref.store
// CHECK: return
func.func @mean(%sum: memref<f32>, %out: memref<f32>) {
  %n = arith.constant 1024.0 : f32
  %s = memref.load %sum[] : memref<f32>
  %m = arith.divf %s, %n : f32
  memref.store %m, %out[] : memref<f32>
  return
}

// -----

// A 0-d output's fill through a view that a later loop also uses: the view
// stays (the kernel takes it as an argument), the store moves. It stayed on
// the host before, a store into device memory.
// CHECK-LABEL: func.func @fill_through_view
// CHECK: %[[VIEW:.*]] = memref.collapse_shape
// CHECK: scf.parallel
// CHECK-NEXT: memref.store %{{.*}}, %[[VIEW]][]
// CHECK: return
func.func @fill_through_view(%out: memref<1x1xf32>, %x: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %view = memref.collapse_shape %out [] : memref<1x1xf32> into memref<f32>
  memref.store %zero, %view[] : memref<f32>
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%j] : memref<8xf32>
      %s = memref.load %view[] : memref<f32>
      %t = arith.addf %a, %s : f32
      memref.store %t, %view[] : memref<f32>
    }
    scf.reduce
  }
  return
}
