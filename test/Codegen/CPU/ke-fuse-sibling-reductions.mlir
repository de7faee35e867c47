// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-fuse-sibling-reductions))' | FileCheck %s

// A group norm's two means (f32, and f64 for the variance), with the first
// one's division between them: one generic reads the input once for both;
// the second's fill moves above it, the division reads result 0.
// CHECK-LABEL: func.func @two_means
// CHECK:         %[[F32:.*]] = linalg.fill {{.*}} -> tensor<3x8xf32>
// CHECK:         %[[F64:.*]] = linalg.fill {{.*}} -> tensor<3x8xf64>
// CHECK:         %[[SUMS:.*]]:2 = linalg.generic {{.*}} ins(%arg0 : tensor<3x8x64xf32>) outs(%[[F32]], %[[F64]] : tensor<3x8xf32>, tensor<3x8xf64>)
// CHECK:         ^bb0(%[[IN:.*]]: f32, %[[A:.*]]: f32, %[[B:.*]]: f64):
// CHECK:           %[[S32:.*]] = arith.addf %[[IN]], %[[A]] : f32
// CHECK:           %[[EXT:.*]] = arith.extf %[[IN]]
// CHECK:           %[[S64:.*]] = arith.addf %[[EXT]], %[[B]] : f64
// CHECK:           linalg.yield %[[S32]], %[[S64]]
// CHECK:         linalg.generic {{.*}} ins(%[[SUMS]]#0 : tensor<3x8xf32>)
// CHECK:         return %{{.*}}, %[[SUMS]]#1
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_means(%x: tensor<3x8x64xf32>) -> (tensor<3x8xf32>, tensor<3x8xf64>) {
  %zero = arith.constant 0.0 : f32
  %zero64 = arith.constant 0.0 : f64
  %n = arith.constant 64.0 : f32
  %e = tensor.empty() : tensor<3x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8xf32>) -> tensor<3x8xf32>
  %sum = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x8x64xf32>) outs(%f : tensor<3x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<3x8xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<3x8xf32>) outs(%e : tensor<3x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<3x8xf32>
  %e64 = tensor.empty() : tensor<3x8xf64>
  %f64 = linalg.fill ins(%zero64 : f64) outs(%e64 : tensor<3x8xf64>) -> tensor<3x8xf64>
  %sum64 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x8x64xf32>) outs(%f64 : tensor<3x8xf64>) {
  ^bb0(%in: f32, %out: f64):
    %w = arith.extf %in : f32 to f64
    %s = arith.addf %w, %out : f64
    linalg.yield %s : f64
  } -> tensor<3x8xf64>
  return %mean, %sum64 : tensor<3x8xf32>, tensor<3x8xf64>
}

// -----

// Left apart: a variance that reads the mean (it depends on the first
// reduction), a sum over other loops of the same input, and a sum of
// another input.
// CHECK-LABEL: func.func @not_siblings
// CHECK-COUNT-4: linalg.generic {{.*}} outs(%{{[^,]*}} : tensor<{{[^,]*}}>)
// CHECK-NOT:     linalg.generic
#in = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @not_siblings(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>, %init: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %sum = linalg.generic {indexing_maps = [#in, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %var = linalg.generic {indexing_maps = [#in, #rows, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x8xf32>, tensor<8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %q = arith.mulf %d, %d : f32
    %s = arith.addf %q, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %columns = linalg.generic {indexing_maps = [#t, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %other = linalg.generic {indexing_maps = [#in, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<8x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum, %var, %columns, %other : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Left apart: a row max and the row's "every element is -inf" mask (an i1
// and-reduction, as torch-mlir's attention has). The CPU schedule never
// vectorizes an op on i1 tensors, so fused, the max would run scalar.
// CHECK-LABEL: func.func @boolean_sibling
// CHECK-COUNT-2: linalg.generic {{.*}} outs(%{{[^,]*}} : tensor<{{[^,]*}}>)
// CHECK-NOT:     linalg.generic
#mask_in = affine_map<(d0, d1) -> (d0, d1)>
#mask_rows = affine_map<(d0, d1) -> (d0)>
func.func @boolean_sibling(%x: tensor<8x128xf32>, %init: tensor<8xf32>, %all: tensor<8xi1>) -> (tensor<8xf32>, tensor<8xi1>) {
  %ninf = arith.constant 0xFF800000 : f32
  %max = linalg.generic {indexing_maps = [#mask_in, #mask_rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %masked = linalg.generic {indexing_maps = [#mask_in, #mask_rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%all : tensor<8xi1>) {
  ^bb0(%in: f32, %out: i1):
    %e = arith.cmpf oeq, %in, %ninf : f32
    %a = arith.andi %e, %out : i1
    linalg.yield %a : i1
  } -> tensor<8xi1>
  return %max, %masked : tensor<8xf32>, tensor<8xi1>
}
