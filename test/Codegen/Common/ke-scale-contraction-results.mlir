// RUN: ke-opt %s --split-input-file --ke-scale-contraction-results | FileCheck %s

// torch-mlir's attention: Q and K^T each scaled by a truncated f64
// constant. Q's scale disappears, K's transposition stays as a copy, and
// the product is scaled once by the product of the two factors.
// CHECK-LABEL: func.func @scaled_operands
// CHECK-SAME: (%[[Q:.*]]: tensor<8x4xf32>, %[[K:.*]]: tensor<6x4xf32>)
// CHECK: %[[KT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[K]] : tensor<6x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[X]] : f32
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[PRODUCT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[Q]], %[[KT]] : tensor<8x4xf32>, tensor<4x6xf32>)
// CHECK: %[[RESULT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[PRODUCT]] : tensor<8x6xf32>)
// CHECK-NEXT: ^bb0(%[[P:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[P]], %[[SCALE]] : f32
// CHECK-NEXT: linalg.yield %[[SCALED]] : f32
// CHECK: return %[[RESULT]]
#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @scaled_operands(%q: tensor<8x4xf32>, %k: tensor<6x4xf32>) -> tensor<8x6xf32> {
  %zero = arith.constant 0.0 : f32
  %s = arith.constant 0.5 : f64
  %eq = tensor.empty() : tensor<8x4xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<8x4xf32>) outs(%eq : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %f = arith.truncf %s : f64 to f32
    %m = arith.mulf %x, %f : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %ek = tensor.empty() : tensor<4x6xf32>
  %ks = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%k : tensor<6x4xf32>) outs(%ek : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %f = arith.truncf %s : f64 to f32
    %m = arith.mulf %f, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%qs, %ks : tensor<8x4xf32>, tensor<4x6xf32>) outs(%fill : tensor<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// Left alone: a product that starts from a bias (scaling the result would
// scale the bias), and a scaled operand with another reader.
// CHECK-LABEL: func.func @bias_start
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<4x6xf32>) outs(%{{.*}} : tensor<8x6xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(i, j) -> (i, j)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @bias_start(%q: tensor<8x4xf32>, %k: tensor<4x6xf32>, %bias: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %f = arith.constant 0.5 : f32
  %eq = tensor.empty() : tensor<8x4xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<8x4xf32>) outs(%eq : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %f : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%qs, %k : tensor<8x4xf32>, tensor<4x6xf32>) outs(%bias : tensor<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// CHECK-LABEL: func.func @shared_operand
// CHECK: %[[SCALED:.*]] = linalg.generic
// CHECK: %[[PRODUCT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[SCALED]], %{{.*}} : tensor<8x4xf32>, tensor<4x6xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[PRODUCT]], %[[SCALED]]
#id = affine_map<(i, j) -> (i, j)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @shared_operand(%q: tensor<8x4xf32>, %k: tensor<4x6xf32>) -> (tensor<8x6xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %f = arith.constant 0.5 : f32
  %eq = tensor.empty() : tensor<8x4xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<8x4xf32>) outs(%eq : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %f : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%qs, %k : tensor<8x4xf32>, tensor<4x6xf32>) outs(%fill : tensor<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<8x6xf32>
  return %r, %qs : tensor<8x6xf32>, tensor<8x4xf32>
}
