// RUN: ke-opt %s --split-input-file --ke-infinity-tests-from-extrema | FileCheck %s

// torch-mlir's attention, fused: whether a row is all -inf (compared in
// f64) is read from the row's max, which the softmax computes anyway.
// CHECK-LABEL: func.func @all_negative_infinity
// CHECK-DAG: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK-NOT: arith.andi
// CHECK: %[[ALL:.*]] = linalg.generic
// CHECK-SAME: ins(%[[MAX]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xi1>)
// CHECK-NEXT: ^bb0(%[[M:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[EQUAL:.*]] = arith.cmpf oeq, %[[M]], %{{.*}} : f32
// CHECK-NEXT: linalg.yield %[[EQUAL]] : i1
// CHECK-NOT: arith.andi
// CHECK: return %[[MAX]], %[[ALL]]
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @all_negative_infinity(%s: tensor<4x16xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %neg_inf64 = arith.constant 0xFFF0000000000000 : f64
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%neg_inf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x16xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %eb = tensor.empty() : tensor<4xi1>
  %all_init = linalg.fill ins(%true : i1) outs(%eb : tensor<4xi1>) -> tensor<4xi1>
  %all = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x16xf32>) outs(%all_init : tensor<4xi1>) {
  ^bb0(%x: f32, %acc: i1):
    %w = arith.extf %x : f32 to f64
    %is = arith.cmpf oeq, %w, %neg_inf64 : f64
    %and = arith.andi %is, %acc : i1
    linalg.yield %and : i1
  } -> tensor<4xi1>
  return %max, %all : tensor<4xf32>, tensor<4xi1>
}

// -----

// Without a max to reuse, +inf from a new min reduction.
// CHECK-LABEL: func.func @all_positive_infinity
// CHECK: %[[MIN:.*]] = linalg.generic
// CHECK: arith.minimumf
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[MIN]] : tensor<4xf32>)
// CHECK: arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.andi
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @all_positive_infinity(%s: tensor<4x16xf32>) -> tensor<4xi1> {
  %inf = arith.constant 0x7F800000 : f32
  %true = arith.constant true
  %eb = tensor.empty() : tensor<4xi1>
  %all_init = linalg.fill ins(%true : i1) outs(%eb : tensor<4xi1>) -> tensor<4xi1>
  %all = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x16xf32>) outs(%all_init : tensor<4xi1>) {
  ^bb0(%x: f32, %acc: i1):
    %is = arith.cmpf oeq, %inf, %x : f32
    %and = arith.andi %acc, %is : i1
    linalg.yield %and : i1
  } -> tensor<4xi1>
  return %all : tensor<4xi1>
}

// -----

// Left alone: "any element is -inf" (an or), and a test of a finite value.
// CHECK-LABEL: func.func @not_all_infinite
// CHECK: arith.ori
// CHECK: arith.andi
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @not_all_infinite(%s: tensor<4x16xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %true = arith.constant true
  %false = arith.constant false
  %eb = tensor.empty() : tensor<4xi1>
  %any_init = linalg.fill ins(%false : i1) outs(%eb : tensor<4xi1>) -> tensor<4xi1>
  %any = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x16xf32>) outs(%any_init : tensor<4xi1>) {
  ^bb0(%x: f32, %acc: i1):
    %is = arith.cmpf oeq, %x, %neg_inf : f32
    %or = arith.ori %is, %acc : i1
    linalg.yield %or : i1
  } -> tensor<4xi1>
  %all_init = linalg.fill ins(%true : i1) outs(%eb : tensor<4xi1>) -> tensor<4xi1>
  %all = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x16xf32>) outs(%all_init : tensor<4xi1>) {
  ^bb0(%x: f32, %acc: i1):
    %is = arith.cmpf oeq, %x, %one : f32
    %and = arith.andi %is, %acc : i1
    linalg.yield %and : i1
  } -> tensor<4xi1>
  return %any, %all : tensor<4xi1>, tensor<4xi1>
}
