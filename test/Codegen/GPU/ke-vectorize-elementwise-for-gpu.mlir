// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-vectorize-elementwise-for-gpu))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-vectorize-elementwise-for-gpu{width=1}))' | FileCheck %s --check-prefix=SCALAR
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-vectorize-elementwise-for-gpu{width=3}))' 2>&1 | FileCheck %s --check-prefix=BAD

// x * y + x over 8x64: a parallel loop over 8 x 16 groups of four, each
// input read with one 16-byte-aligned vector load, the body once per
// lane, one aligned vector store.
// CHECK-LABEL: func.func @fma_like
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%c8, %c16)
// CHECK:           %[[COL:.*]] = arith.muli %[[J]], %c4
// CHECK:           %[[X:.*]] = vector.load %arg0[%[[I]], %[[COL]]] {alignment = 16 : i64} : memref<8x64xf32>, vector<4xf32>
// CHECK:           vector.load %arg1[%[[I]], %[[COL]]] {alignment = 16 : i64}
// CHECK-COUNT-4:   arith.mulf
// CHECK:           %[[R:.*]] = vector.from_elements
// CHECK:           vector.store %[[R]], %arg2[%[[I]], %[[COL]]] {alignment = 16 : i64} : memref<8x64xf32>, vector<4xf32>
// CHECK-NOT:     linalg.generic
// SCALAR-LABEL: func.func @fma_like
// SCALAR:         linalg.generic
// BAD: ke-vectorize-elementwise-for-gpu: width must be 1, 2 or 4 (got 3)
#id = affine_map<(i, j) -> (i, j)>
func.func @fma_like(%x: memref<8x64xf32>, %y: memref<8x64xf32>, %z: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<8x64xf32>, memref<8x64xf32>) outs(%z : memref<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: a row that is no multiple of 4, a broadcast input, a view
// (its offset need not be aligned), a reduction, f64, a body reading the
// output's old value, a fill.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     vector.load
// CHECK-COUNT-6: linalg.generic
// CHECK:         linalg.fill
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @left_alone(%a: memref<8x6xf32>, %b: memref<8x64xf32>, %r: memref<8xf32>,
                      %d: memref<8x64xf64>, %c: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x6xf32>) outs(%a : memref<8x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<8xf32>) outs(%b : memref<8x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  %view = memref.subview %b[0, 0] [8, 32] [1, 1] : memref<8x64xf32> to memref<8x32xf32, strided<[64, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%view : memref<8x32xf32, strided<[64, 1]>>) outs(%view : memref<8x32xf32, strided<[64, 1]>>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : memref<8x64xf32>) outs(%r : memref<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : memref<8x64xf64>) outs(%d : memref<8x64xf64>) {
  ^bb0(%v: f64, %o: f64):
    linalg.yield %v : f64
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<8x64xf32>) outs(%c : memref<8x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x64xf32>)
  return
}
