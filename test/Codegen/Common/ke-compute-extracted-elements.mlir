// RUN: ke-opt %s -split-input-file --ke-compute-extracted-elements | FileCheck %s

// A cross entropy's pick: the log-softmax is only read at one element per
// row (its target), inside the loss's reduction. That element is computed
// there; the 64 x 128 tensor is not.
// CHECK-LABEL: func.func @picked_log_softmax
// CHECK-NOT:     linalg.generic {{.*}}"parallel", "parallel"
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK:           %[[ROW:.*]] = linalg.index 0
// CHECK:           %[[COL:.*]] = arith.index_cast
// CHECK-DAG:       %[[X:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[COL]]] : tensor<64x128xf32>
// CHECK-DAG:       %[[M:.*]] = tensor.extract %{{.*}}[%[[ROW]]] : tensor<64xf32>
// CHECK:           %[[D:.*]] = arith.subf %[[X]], %[[M]]
// CHECK:           arith.negf %[[D]]
#rows2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#all = affine_map<(d0) -> (d0)>
#none = affine_map<(d0) -> ()>
func.func @picked_log_softmax(%x: tensor<64x128xf32>, %m: tensor<64xf32>, %t: tensor<64xi64>) -> tensor<f32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %ls = linalg.generic {indexing_maps = [#rows2, #row, #rows2], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<64x128xf32>, tensor<64xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<64x128xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %s = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction"]} ins(%t : tensor<64xi64>) outs(%s : tensor<f32>) {
  ^bb0(%target: i64, %acc: f32):
    %i = linalg.index 0 : index
    %j = arith.index_cast %target : i64 to index
    %v = tensor.extract %ls[%i, %j] : tensor<64x128xf32>
    %n = arith.negf %v : f32
    %r = arith.addf %n, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// The element's loop indices go through the inverse of the result's map
// (here a transpose: element [i, j] is iteration (j, i)), and linalg.index
// becomes them.
// CHECK-LABEL: func.func @transposed_result
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[E:.*]] = tensor.extract %[[X]][%[[J]], %[[I]]]
// CHECK:         %[[C:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK:         %[[F:.*]] = arith.sitofp %[[C]]
// CHECK:         %[[R:.*]] = arith.addf %[[E]], %[[F]]
// CHECK:         return %[[R]]
func.func @transposed_result(%x: tensor<8x4xf32>, %i: index, %j: index) -> f32 {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %k = linalg.index 0 : index
    %c = arith.index_cast %k : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %v = tensor.extract %y[%i, %j] : tensor<4x8xf32>
  return %v : f32
}

// -----

// Left alone: another op reads the whole result (it is computed anyway),
// and extractions running more often than the producer has elements (a
// 16 x 64 loop reading a 32-element result).
// CHECK-LABEL: func.func @also_read_whole
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}}"parallel"
// CHECK:         tensor.extract %[[Y]][
// CHECK-NOT:     math.exp
// CHECK-LABEL: func.func @extracted_too_often
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:           tensor.extract %{{.*}} : tensor<32xf32>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @also_read_whole(%x: tensor<32xf32>, %i: index) -> (tensor<32xf32>, f32) {
  %e = tensor.empty() : tensor<32xf32>
  %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %v = tensor.extract %y[%i] : tensor<32xf32>
  return %y, %v : tensor<32xf32>, f32
}
func.func @extracted_too_often(%x: tensor<32xf32>, %idx: tensor<16x64xindex>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<16x64xindex>) outs(%e2 : tensor<16x64xf32>) {
  ^bb0(%k: index, %o: f32):
    %v = tensor.extract %y[%k] : tensor<32xf32>
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %g : tensor<16x64xf32>
}

// -----

// A flip reads every element once: computing them in its gather saves
// nothing, and the producer stays where passes can match it.
// CHECK-LABEL: func.func @flipped
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK:           tensor.extract %{{.*}} : tensor<32xf32>
#flip_id = affine_map<(d0) -> (d0)>
func.func @flipped(%x: tensor<32xf32>) -> tensor<32xf32> {
  %c31 = arith.constant 31 : index
  %e = tensor.empty() : tensor<32xf32>
  %y = linalg.generic {indexing_maps = [#flip_id, #flip_id], iterator_types = ["parallel"]} ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %f = linalg.generic {indexing_maps = [#flip_id], iterator_types = ["parallel"]} outs(%e : tensor<32xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = arith.subi %c31, %i : index
    %v = tensor.extract %y[%j] : tensor<32xf32>
    linalg.yield %v : f32
  } -> tensor<32xf32>
  return %f : tensor<32xf32>
}
