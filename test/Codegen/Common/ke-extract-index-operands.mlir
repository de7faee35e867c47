// RUN: ke-opt %s -split-input-file --ke-extract-index-operands | FileCheck %s

// The row indices (indexed by the outer loop, only cast to index) are read
// in the body at linalg.index 0; the operand and its map are gone.
#row = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gather
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(
// CHECK:           %[[R:.*]] = linalg.index 0 : index
// CHECK:           %[[IDX:.*]] = tensor.extract %arg1[%[[R]]] : tensor<64xi32>
// CHECK:           arith.index_cast %[[IDX]] : i32 to index
// CHECK:           tensor.extract %arg0[
func.func @gather(%table: tensor<100x32xf32>, %indices: tensor<64xi32>) -> tensor<64x32xf32> {
  %empty = tensor.empty() : tensor<64x32xf32>
  %out = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%indices : tensor<64xi32>) outs(%empty : tensor<64x32xf32>) {
  ^bb0(%idx: i32, %o: f32):
    %r = arith.index_cast %idx : i32 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<100x32xf32>
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  return %out : tensor<64x32xf32>
}

// -----

// Left alone: an operand used as data (a broadcast bias), and indices that
// vary along the innermost loop (an id remap: a real gather).
#row = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#one = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.generic {{.*}} ins(%arg0, %arg1 :
// CHECK:         linalg.generic {{.*}} ins(%arg2 :
func.func @left_alone(%x: tensor<8x16xf32>, %bias: tensor<8xf32>, %ids: tensor<16xi32>, %table: tensor<100xi32>) -> (tensor<8x16xf32>, tensor<16xi32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<16xi32>
  %remapped = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
      ins(%ids : tensor<16xi32>) outs(%e2 : tensor<16xi32>) {
  ^bb0(%id: i32, %o: i32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<100xi32>
    linalg.yield %v : i32
  } -> tensor<16xi32>
  return %biased, %remapped : tensor<8x16xf32>, tensor<16xi32>
}

// -----

// An embedding bag whose indices are the only operand indexing the bag
// loop (d1): they are read in the body at linalg.index 0 and 1, and the
// operand stays (without it that loop would have no bound), its argument
// unused.
#bag = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @embedding_bag
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<4x3xi64>)
// CHECK-NEXT:    ^bb0(%[[UNUSED:.*]]: i64, %{{.*}}: f32):
// CHECK-NOT:       %[[UNUSED]]
// CHECK:           %[[B:.*]] = linalg.index 0 : index
// CHECK:           %[[I:.*]] = linalg.index 1 : index
// CHECK:           %[[IDX:.*]] = tensor.extract %arg1[%[[B]], %[[I]]] : tensor<4x3xi64>
// CHECK:           arith.index_cast %[[IDX]] : i64 to index
// CHECK-NOT:       %[[UNUSED]]
// CHECK:           linalg.yield
func.func @embedding_bag(%table: tensor<10x8xf32>, %indices: tensor<4x3xi64>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [#bag, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices : tensor<4x3xi64>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%idx: i64, %acc: f32):
    %r = arith.index_cast %idx : i64 to index
    %c = linalg.index 2 : index
    %v = tensor.extract %table[%r, %c] : tensor<10x8xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}

// -----

// The bag loop innermost (d2): the indices vary along it, but the table's
// rows are read along d1 (the last index of the extract), so d1 can carry
// the vector and the indices are read in the body. A second operand
// indexing d2 (per-sample weights, used as data) bounds it: the indices
// are dropped.
#idx = affine_map<(d0, d1, d2) -> (d0, d2)>
#res = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @bag_innermost
// CHECK:         linalg.generic {{.*}} ins(%arg2 : tensor<4x3xf32>)
// CHECK:           linalg.index 2 : index
// CHECK:           tensor.extract %arg1[
func.func @bag_innermost(%table: tensor<10x8xf32>, %indices: tensor<4x3xi32>, %weights: tensor<4x3xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [#idx, #idx, #res], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%indices, %weights : tensor<4x3xi32>, tensor<4x3xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%i: i32, %w: f32, %acc: f32):
    %r = arith.index_cast %i : i32 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<10x8xf32>
    %p = arith.mulf %v, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}

// -----

// Left alone: indices along the innermost loop that the table is not read
// along (its last index is a constant): the lanes read different rows.
#idx = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @column_gather
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<4x8xi32>)
// CHECK-NOT:     linalg.index
func.func @column_gather(%table: tensor<10x8xf32>, %indices: tensor<4x8xi32>) -> tensor<4x8xf32> {
  %c3 = arith.constant 3 : index
  %empty = tensor.empty() : tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [#idx, #idx], iterator_types = ["parallel", "parallel"]}
      ins(%indices : tensor<4x8xi32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%i: i32, %o: f32):
    %r = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%r, %c3] : tensor<10x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}
