// RUN: ke-opt %s --split-input-file --ke-lower-linalg-to-reference-loops --canonicalize | FileCheck %s

// A matmul: its rows become an scf.parallel; inside, the reduction, then
// the columns, innermost: each element's sum keeps its order, and
// consecutive columns are consecutive elements of B and C.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK-NEXT: scf.for %[[K:.*]] =
// CHECK-NEXT: scf.for %[[J:.*]] =
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

// B transposed ([N][K]) is read along K: the columns stay outside the
// reduction, both parallel.
// CHECK-LABEL: func.func @matmul_transposed_b
// CHECK: scf.parallel (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) =
// CHECK-NEXT: scf.for %[[K:.*]] =
// CHECK: memref.load %{{.*}}[%[[J]], %[[K]]]
func.func @matmul_transposed_b(%a: memref<8x4xf32>, %b: memref<16x4xf32>, %c: memref<8x16xf32>) {
  linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
    ins(%a, %b : memref<8x4xf32>, memref<16x4xf32>) outs(%c : memref<8x16xf32>)
  return
}

// -----

// A batched matmul: batches and rows parallel, every one of their
// induction variables still indexing the loads and stores.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: scf.parallel (%[[B:[a-z0-9_]+]], %[[I:[a-z0-9_]+]]) =
// CHECK-NEXT: scf.for %[[K:[a-z0-9_]+]] =
// CHECK-NEXT: scf.for %[[J:[a-z0-9_]+]] =
// CHECK: memref.load %{{.*}}[%[[B]], %[[I]], %[[K]]]
// CHECK: memref.load %{{.*}}[%[[B]], %[[K]], %[[J]]]
// CHECK: memref.store %{{.*}}[%[[B]], %[[I]], %[[J]]]
func.func @batch_matmul(%a: memref<2x8x4xf32>, %b: memref<2x4x16xf32>, %c: memref<2x8x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x8x4xf32>, memref<2x4x16xf32>) outs(%c : memref<2x8x16xf32>)
  return
}

// -----

// A row sum has one parallel loop, left to the threads: unchanged.
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK-NEXT: scf.for %[[K:.*]] =
// CHECK-NOT: scf.for
#row = affine_map<(d0, d1) -> (d0, d1)>
#rowOut = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: memref<8x16xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [#row, #rowOut], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x16xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
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

// -----

// Wider than a block (64) in the columns and along K: blocks of columns,
// then blocks of K, both sequential, around the rows on threads, so that
// every row reuses one block of B from the cache. Each element still adds
// its terms in the order of k (the blocks of K in order, outside): the
// same bits.
// CHECK-LABEL: func.func @matmul_in_blocks
// CHECK: scf.for %[[JB:[a-z0-9_]+]] = %c0 to %c200 step %c64
// CHECK-NEXT: scf.for %[[KB:[a-z0-9_]+]] = %c0 to %c96 step %c64
// CHECK: %[[B:.*]] = memref.subview %{{.*}}[%[[KB]], %[[JB]]]
// CHECK: scf.parallel (%[[I:[a-z0-9_]+]]) = (%c0) to (%c128)
// CHECK-NEXT: scf.for %[[K:[a-z0-9_]+]] = %c0 to
// CHECK-NEXT: scf.for %[[J:[a-z0-9_]+]] = %c0 to
// CHECK: memref.load %[[B]][%[[K]], %[[J]]]
func.func @matmul_in_blocks(%a: memref<128x96xf32>, %b: memref<96x200xf32>, %c: memref<128x200xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf32>, memref<96x200xf32>) outs(%c : memref<128x200xf32>)
  return
}
