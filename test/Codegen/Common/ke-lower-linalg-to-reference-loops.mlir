// RUN: ke-opt %s --split-input-file --ke-lower-linalg-to-reference-loops --canonicalize | FileCheck %s

// A matmul: its parallel dimensions (i, j) become one scf.parallel, its
// reduction a sequential scf.for inside, so each element's sum keeps its order.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT: scf.for %[[K:.*]] =
// CHECK: memref.load %{{.*}}[%[[I]], %[[K]]]
// CHECK: memref.load %{{.*}}[%[[K]], %[[J]]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>)
  return
}

// -----

// A column sum (the reduction comes first): sequential loops only.
// CHECK-LABEL: func.func @column_sum
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.parallel
#rows = affine_map<(d0, d1) -> (d0, d1)>
#column = affine_map<(d0, d1) -> (d1)>
func.func @column_sum(%x: memref<8x16xf32>, %out: memref<16xf32>) {
  linalg.generic {indexing_maps = [#rows, #column], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<8x16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A "parallel" dimension the output does not name: its iterations would
// write the same element concurrently, so the loops stay sequential.
// CHECK-LABEL: func.func @unnamed_parallel_dimension
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
#all = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_map<(d0, d1) -> (d0)>
func.func @unnamed_parallel_dimension(%x: memref<4x8xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [#all, #first], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Already inside a thread's loop (a candidate's scf.forall): no nested
// parallel loop; an elementwise op outside one gets a single scf.parallel.
// CHECK-LABEL: func.func @nested_and_elementwise
// CHECK: scf.forall
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: memref.store
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) =
// CHECK-NOT: scf.for
// CHECK: arith.negf
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @nested_and_elementwise(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) in (4) {
    %row = memref.subview %x[%i, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%row : memref<8xf32, strided<[1], offset: ?>>)
  }
  linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  }
  return
}
