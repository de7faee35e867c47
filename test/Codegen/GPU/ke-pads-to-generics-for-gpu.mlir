// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-pads-to-generics-for-gpu))' | FileCheck %s

// A convolution's padded input: one generic over the padded shape reads
// the source where the index, less the low padding, lies inside it
// (clamped on the padded sides only: rows are not padded) and takes the
// padding value elsewhere.
// CHECK-LABEL: func.func @padded_input
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     tensor.pad
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<4x11xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<4x11xf32>)
// CHECK:           %[[ROW:.*]] = linalg.index 0
// CHECK:           %[[COLUMN:.*]] = linalg.index 1
// CHECK:           %[[SHIFTED:.*]] = arith.subi %[[COLUMN]], %c1
// CHECK:           %[[AFTER_START:.*]] = arith.cmpi sge, %[[SHIFTED]], %c0
// CHECK:           %[[FROM_START:.*]] = arith.maxsi %[[SHIFTED]], %c0
// CHECK:           %[[BEFORE_END:.*]] = arith.cmpi sle, %[[SHIFTED]], %c7
// CHECK:           %[[INSIDE:.*]] = arith.andi %[[AFTER_START]], %[[BEFORE_END]]
// CHECK:           %[[CLAMPED:.*]] = arith.minsi %[[FROM_START]], %c7
// CHECK:           %[[ELEMENT:.*]] = tensor.extract %arg0[%[[ROW]], %[[CLAMPED]]] : tensor<4x8xf32>
// CHECK:           %[[VALUE:.*]] = arith.select %[[INSIDE]], %[[ELEMENT]], %[[ZERO]]
// CHECK:           linalg.yield %[[VALUE]]
func.func @padded_input(%x: tensor<4x8xf32>) -> tensor<4x11xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<4x11xf32>
  return %p : tensor<4x11xf32>
}

// -----

// Left alone: a dynamic low padding, a padding value computed per element.
// CHECK-LABEL: func.func @not_rewritten
// CHECK-COUNT-2: tensor.pad
// CHECK-NOT:     linalg.generic
func.func @not_rewritten(%x: tensor<4x8xf32>, %n: index) -> (tensor<4x?xf32>, tensor<4x9xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, %n] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<4x?xf32>
  %q = tensor.pad %x low[0, 1] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %c = arith.index_cast %j : index to i32
    %f = arith.sitofp %c : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x8xf32> to tensor<4x9xf32>
  return %p, %q : tensor<4x?xf32>, tensor<4x9xf32>
}

// -----

// A front end's padding written as an insert into a filled tensor (a
// transposed convolution with stride 1) is that pad: one generic too. An
// insert with strides (a spread input) is not.
// CHECK-LABEL: func.func @insert_into_fill
// CHECK-NOT:     linalg.fill
// CHECK:         %[[PADDED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x10xf32>)
// CHECK:           arith.subi %{{.*}}, %c2
// CHECK:           tensor.extract %arg0
// CHECK:         %[[SPREAD:.*]] = linalg.fill
// CHECK:         tensor.insert_slice %arg0 into %[[SPREAD]][0, 1] [2, 4] [1, 2]
// CHECK:         return %[[PADDED]]
func.func @insert_into_fill(%x: tensor<2x4xf32>) -> (tensor<2x10xf32>, tensor<2x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x10xf32>) -> tensor<2x10xf32>
  %p = tensor.insert_slice %x into %z[0, 2] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<2x10xf32>) -> tensor<2x10xf32>
  %s = tensor.insert_slice %x into %z2[0, 1] [2, 4] [1, 2] : tensor<2x4xf32> into tensor<2x10xf32>
  return %p, %s : tensor<2x10xf32>, tensor<2x10xf32>
}
