// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-hoist-parallel-loops-for-gpu))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-hoist-parallel-loops-for-gpu,convert-linalg-to-parallel-loops))' | FileCheck %s --check-prefix=LOOPS

// An argmax over the middle dimension (two results, the reduction loop's
// index read in the body): the parallel loops go first, the maps and
// linalg.index follow the loops.
// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @argmax_middle
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           linalg.index 2 : index
// CHECK:           arith.maximumf
// Both parallel loops are the one scf.parallel, the reduction inside it.
// LOOPS-LABEL: func.func @argmax_middle
// LOOPS:         scf.parallel (%[[I:.*]], %[[K:.*]]) = (%c0, %c0) to (%c2, %c2047)
// LOOPS-NEXT:      scf.for %[[J:.*]] = %c0 to %c1024
// LOOPS:             memref.load %arg0[%[[I]], %[[J]], %[[K]]]
func.func @argmax_middle(%x: memref<2x1024x2047xf32>, %max: memref<2x2047xf32>, %arg: memref<2x2047xi64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<2x1024x2047xf32>) outs(%max, %arg : memref<2x2047xf32>, memref<2x2047xi64>) {
  ^bb0(%in: f32, %m: f32, %a: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %new = arith.maximumf %in, %m : f32
    %greater = arith.cmpf ogt, %in, %m : f32
    %index = arith.select %greater, %ji, %a : i64
    linalg.yield %new, %index : f32, i64
  }
  return
}

// -----

// A named column reduction is generalized, then interchanged.
// CHECK-LABEL: func.func @column_max
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maximumf
// CHECK-NOT:     linalg.reduce
func.func @column_max(%x: memref<64x128xf32>, %col: memref<128xf32>) {
  linalg.reduce ins(%x : memref<64x128xf32>) outs(%col : memref<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Parallel loops already first (a row sum, a matmul, an elementwise op):
// left as they are, named ops too.
// CHECK-LABEL: func.func @already_first
// CHECK:         linalg.reduce
// CHECK:         linalg.matmul
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
func.func @already_first(%x: memref<64x128xf32>, %row: memref<64xf32>,
                         %a: memref<8x16xf32>, %b: memref<16x4xf32>, %c: memref<8x4xf32>) {
  linalg.reduce ins(%x : memref<64x128xf32>) outs(%row : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x4xf32>) outs(%c : memref<8x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x128xf32>) outs(%x : memref<64x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  return
}
