// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-fuse-elementwise-ops))' | FileCheck %s

// Elementwise into elementwise, each element read once: fused.
// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %v = arith.addf %in, %in2 : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// A normalization (a division) read by a matmul-like consumer along (i, k)
// while the consumer also loops over j: fused, it would divide once per j.
// It stays a producer, and the consumer stays a plain contraction.
// CHECK-LABEL: func.func @no_recompute
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           arith.divf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:       arith.divf
// CHECK:           arith.mulf
// CHECK:           arith.addf
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#ik = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>
func.func @no_recompute(%p: tensor<8x16xf32>, %s: tensor<8xf32>, %v: tensor<16x32xf32>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %s : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n, %v : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// A scaling (one multiplication) costs next to nothing to redo: fused even
// though the consumer loops over j.
// CHECK-LABEL: func.func @cheap_recompute
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#ik = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>
func.func @cheap_recompute(%p: tensor<8x16xf32>, %v: tensor<16x32xf32>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.mulf %a, %c : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n, %v : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// A producer with two users is never fused (it would be computed twice).
// CHECK-LABEL: func.func @two_users
// CHECK-COUNT-3: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_users(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %b, %c : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A group norm's view of a Linear's output as groups x channels: folding the
// expand_shape into the matmul would split its columns (2048 into 512 x 4),
// so it stays after the matmul (through the bias add only).
// CHECK-LABEL: func.func @expand_columns_of_matmul
// CHECK:         linalg.matmul {{.*}} -> tensor<16x2048xf32>
// CHECK:         tensor.expand_shape {{.*}} output_shape [16, 512, 4]
func.func @expand_columns_of_matmul(%a: tensor<16x64xf32>, %b: tensor<64x2048xf32>, %bias: tensor<2048xf32>) -> tensor<16x512x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x2048xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x2048xf32>) outs(%c : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<16x2048xf32>, tensor<2048xf32>) outs(%e : tensor<16x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x2048xf32>
  %v = tensor.expand_shape %r [[0], [1, 2]] output_shape [16, 512, 4] : tensor<16x2048xf32> into tensor<16x512x4xf32>
  return %v : tensor<16x512x4xf32>
}

// -----

// Splitting a matmul's rows (an einsum's batches) is harmless: the
// expand_shape folds into it as before (its operands are expanded instead).
// CHECK-LABEL: func.func @expand_rows_of_matmul
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        outs(%{{.*}} : tensor<4x4x2048xf32>)
// CHECK-NOT:     tensor.expand_shape
func.func @expand_rows_of_matmul(%a: tensor<16x64xf32>, %b: tensor<64x2048xf32>) -> tensor<4x4x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x2048xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x64xf32>, tensor<64x2048xf32>) outs(%c : tensor<16x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x2048xf32>
  %v = tensor.expand_shape %m [[0, 1], [2]] output_shape [4, 4, 2048] : tensor<16x2048xf32> into tensor<4x4x2048xf32>
  return %v : tensor<4x4x2048xf32>
}
