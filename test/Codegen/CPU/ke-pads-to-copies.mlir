// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-pads-to-copies))' | FileCheck %s

// A pad with a constant value: a fill of the padded shape, a linalg.copy of
// the source into its interior, inserted back.
// CHECK-LABEL: func.func @pad_rows
// CHECK:         %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x8x136xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%[[EMPTY]] : tensor<2x8x136xf32>)
// CHECK:         %[[INTERIOR:.*]] = tensor.extract_slice %[[FILL]][0, 1, 4] [2, 6, 128] [1, 1, 1]
// CHECK:         %[[COPY:.*]] = linalg.copy ins(%arg0 : tensor<2x6x128xf32>) outs(%[[INTERIOR]] : tensor<2x6x128xf32>)
// CHECK:         %[[PADDED:.*]] = tensor.insert_slice %[[COPY]] into %[[FILL]][0, 1, 4] [2, 6, 128] [1, 1, 1]
// CHECK-NOT:     tensor.pad
// CHECK:         return %[[PADDED]]
func.func @pad_rows(%x: tensor<2x6x128xf32>) -> tensor<2x8x136xf32> {
  %neg = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 4] high[0, 1, 4] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %neg : f32
  } : tensor<2x6x128xf32> to tensor<2x8x136xf32>
  return %p : tensor<2x8x136xf32>
}

// -----

// A padding value computed from the indices, and dynamic shapes, stay pads.
// CHECK-LABEL: func.func @not_constant
// CHECK:         tensor.pad
// CHECK:         tensor.pad
// CHECK-NOT:     linalg.copy
func.func @not_constant(%x: tensor<8xf32>, %y: tensor<?xf32>) -> (tensor<10xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    tensor.yield %f : f32
  } : tensor<8xf32> to tensor<10xf32>
  %q = tensor.pad %y low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<?xf32> to tensor<?xf32>
  return %p, %q : tensor<10xf32>, tensor<?xf32>
}
