// RUN: ke-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ke-write-reshaped-results-in-place))' | FileCheck %s

// A result computed as [2, 4, 8] and returned as [8, 8]: the temporary
// becomes the out-parameter viewed as [2, 4, 8]; copy and deallocation go.
// CHECK-LABEL: func.func @collapsed_result
// CHECK-SAME:    (%[[IN:.*]]: memref<8x8xf32>, %[[OUT:.*]]: memref<8x8xf32>)
// CHECK:         %[[VIEW:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0, 1], [2]] output_shape [2, 4, 8] : memref<8x8xf32> into memref<2x4x8xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.copy ins(%{{.*}} : memref<2x4x8xf32>) outs(%[[VIEW]] : memref<2x4x8xf32>)
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @collapsed_result(%in: memref<8x8xf32>, %out: memref<8x8xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<2x4x8xf32>
  %v = memref.expand_shape %in [[0, 1], [2]] output_shape [2, 4, 8] : memref<8x8xf32> into memref<2x4x8xf32>
  linalg.copy ins(%v : memref<2x4x8xf32>) outs(%t : memref<2x4x8xf32>)
  %r = memref.collapse_shape %t [[0, 1], [2]] : memref<2x4x8xf32> into memref<8x8xf32>
  memref.copy %r, %out : memref<8x8xf32> to memref<8x8xf32>
  memref.dealloc %t : memref<2x4x8xf32>
  return
}

// -----

// The other direction: computed as [64], returned as [8, 8].
// CHECK-LABEL: func.func @expanded_result
// CHECK-SAME:    (%[[IN:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<8x8xf32>)
// CHECK:         %[[VIEW:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1]] : memref<8x8xf32> into memref<64xf32>
// CHECK:         linalg.copy ins(%[[IN]] : memref<64xf32>) outs(%[[VIEW]] : memref<64xf32>)
// CHECK-NOT:     memref.copy
func.func @expanded_result(%in: memref<64xf32>, %out: memref<8x8xf32>) {
  %t = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  %r = memref.expand_shape %t [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  memref.copy %r, %out : memref<8x8xf32> to memref<8x8xf32>
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// Left alone: the temporary is written after the copy (that write must not
// reach the caller), directly or through a view made before it, and an
// out-parameter something else also writes.
// CHECK-LABEL: func.func @written_after_copy
// CHECK:         memref.alloc
// CHECK:         memref.copy
// CHECK-LABEL: func.func @written_through_view_after_copy
// CHECK:         memref.alloc
// CHECK:         memref.copy
// CHECK-LABEL: func.func @out_also_written
// CHECK:         memref.alloc
// CHECK:         memref.copy
func.func @written_after_copy(%in: memref<64xf32>, %out: memref<8x8xf32>, %other: memref<64xf32>) {
  %t = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  %r = memref.expand_shape %t [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  memref.copy %r, %out : memref<8x8xf32> to memref<8x8xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  linalg.copy ins(%t : memref<64xf32>) outs(%other : memref<64xf32>)
  memref.dealloc %t : memref<64xf32>
  return
}
func.func @written_through_view_after_copy(%in: memref<64xf32>, %out: memref<8x8xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<64xf32>
  %s = memref.subview %t[0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1]>>
  linalg.copy ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  %r = memref.expand_shape %t [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  memref.copy %r, %out : memref<8x8xf32> to memref<8x8xf32>
  memref.store %x, %s[%c0] : memref<8xf32, strided<[1]>>
  memref.dealloc %t : memref<64xf32>
  return
}
func.func @out_also_written(%in: memref<64xf32>, %out: memref<8x8xf32>, %x: f32) {
  %t = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  %r = memref.expand_shape %t [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  memref.copy %r, %out : memref<8x8xf32> to memref<8x8xf32>
  %c0 = arith.constant 0 : index
  memref.store %x, %out[%c0, %c0] : memref<8x8xf32>
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// A chain of reshapes ([1, 16, 8] -> [16, 8] -> [2, 8, 1, 8] -> [2, 8, 8],
// a batch of one's matmul returned as a 3-D tensor): the temporary becomes
// the out-parameter flattened and expanded to its shape.
// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME:    (%[[IN:.*]]: memref<1x16x8xf32>, %[[OUT:.*]]: memref<2x8x8xf32>)
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2]] : memref<2x8x8xf32> into memref<128xf32>
// CHECK:         %[[VIEW:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [1, 16, 8] : memref<128xf32> into memref<1x16x8xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.copy ins(%[[IN]] : memref<1x16x8xf32>) outs(%[[VIEW]] : memref<1x16x8xf32>)
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @reshape_chain(%in: memref<1x16x8xf32>, %out: memref<2x8x8xf32>) {
  %t = memref.alloc() : memref<1x16x8xf32>
  linalg.copy ins(%in : memref<1x16x8xf32>) outs(%t : memref<1x16x8xf32>)
  %a = memref.collapse_shape %t [[0, 1], [2]] : memref<1x16x8xf32> into memref<16x8xf32>
  %b = memref.expand_shape %a [[0, 1, 2], [3]] output_shape [2, 8, 1, 8] : memref<16x8xf32> into memref<2x8x1x8xf32>
  %c = memref.collapse_shape %b [[0], [1, 2], [3]] : memref<2x8x1x8xf32> into memref<2x8x8xf32>
  memref.copy %c, %out : memref<2x8x8xf32> to memref<2x8x8xf32>
  memref.dealloc %t : memref<1x16x8xf32>
  return
}

// -----

// Left alone: a reshape of the chain with another use (its reader would
// see the caller's buffer change under it).
// CHECK-LABEL: func.func @chain_with_other_use
// CHECK:         memref.alloc
// CHECK:         memref.copy
func.func @chain_with_other_use(%in: memref<1x16x8xf32>, %out: memref<2x8x8xf32>, %other: memref<16x8xf32>) {
  %t = memref.alloc() : memref<1x16x8xf32>
  linalg.copy ins(%in : memref<1x16x8xf32>) outs(%t : memref<1x16x8xf32>)
  %a = memref.collapse_shape %t [[0, 1], [2]] : memref<1x16x8xf32> into memref<16x8xf32>
  %b = memref.expand_shape %a [[0, 1, 2], [3]] output_shape [2, 8, 1, 8] : memref<16x8xf32> into memref<2x8x1x8xf32>
  %c = memref.collapse_shape %b [[0], [1, 2], [3]] : memref<2x8x1x8xf32> into memref<2x8x8xf32>
  memref.copy %c, %out : memref<2x8x8xf32> to memref<2x8x8xf32>
  linalg.copy ins(%a : memref<16x8xf32>) outs(%other : memref<16x8xf32>)
  memref.dealloc %t : memref<1x16x8xf32>
  return
}

// -----

// Written through per-tile subviews inside a loop nest that ends before
// the copy (the schedule's tiles): the views end with the loop, so the
// temporary still becomes the out-parameter's view.
// CHECK-LABEL: func.func @written_by_tiles
// CHECK-SAME:    (%[[IN:.*]]: memref<2x4x8xf32>, %[[OUT:.*]]: memref<8x8xf32>)
// CHECK:         %[[VIEW:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0, 1], [2]] output_shape [2, 4, 8]
// CHECK-NOT:     memref.alloc
// CHECK:         scf.forall
// CHECK:           memref.subview %[[VIEW]]
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @written_by_tiles(%in: memref<2x4x8xf32>, %out: memref<8x8xf32>) {
  %t = memref.alloc() : memref<2x4x8xf32>
  scf.forall (%i) in (2) {
    %src = memref.subview %in[%i, 0, 0] [1, 4, 8] [1, 1, 1] : memref<2x4x8xf32> to memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>
    %dst = memref.subview %t[%i, 0, 0] [1, 4, 8] [1, 1, 1] : memref<2x4x8xf32> to memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>
    linalg.copy ins(%src : memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>) outs(%dst : memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>)
  }
  %r = memref.collapse_shape %t [[0, 1], [2]] : memref<2x4x8xf32> into memref<8x8xf32>
  memref.copy %r, %out : memref<8x8xf32> to memref<8x8xf32>
  memref.dealloc %t : memref<2x4x8xf32>
  return
}

// -----

// Left alone: a loop that returns a view of the temporary (the view
// outlives the loop and could be written after the copy).
// CHECK-LABEL: func.func @view_escapes_loop
// CHECK:         memref.alloc
// CHECK:         memref.copy
func.func @view_escapes_loop(%in: memref<64xf32>, %out: memref<8x8xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  %v = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %in) -> (memref<64xf32>) {
    %s = memref.cast %t : memref<64xf32> to memref<64xf32>
    scf.yield %s : memref<64xf32>
  }
  %r = memref.expand_shape %t [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  memref.copy %r, %out : memref<8x8xf32> to memref<8x8xf32>
  memref.store %x, %v[%c0] : memref<64xf32>
  memref.dealloc %t : memref<64xf32>
  return
}
