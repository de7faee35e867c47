// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-lower-transposes-to-avx))' | FileCheck %s

// An 8 x 8 block between unit dimensions (a transposing read of a
// convolution's NCHW input): viewed as 2-D, then AVX's unpacks, shuffles,
// blends (inline assembly) and 128-bit lane permutes.
// CHECK-LABEL: func.func @block_between_unit_dims
// CHECK:         vector.extract %arg0[0, 7, 0] : vector<8xf32> from vector<1x8x1x8xf32>
// CHECK:         vector.shuffle {{.*}} [0, 8, 1, 9, 4, 12, 5, 13]
// CHECK:         vector.shuffle {{.*}} [2, 3, 8, 9, 6, 7, 12, 13]
// CHECK:         llvm.inline_asm {{.*}}"vblendps $0, $1, $2, 0xcc"
// CHECK:         vector.shuffle {{.*}} [0, 1, 2, 3, 8, 9, 10, 11]
// CHECK-NOT:     vector.transpose
// CHECK:         vector.shape_cast {{.*}} : vector<8x8xf32> to vector<1x1x8x8xf32>
func.func @block_between_unit_dims(%v: vector<1x8x1x8xf32>) -> vector<1x1x8x8xf32> {
  %t = vector.transpose %v, [0, 2, 3, 1] : vector<1x8x1x8xf32> to vector<1x1x8x8xf32>
  return %t : vector<1x1x8x8xf32>
}

// -----

// 4 x 8 too.
// CHECK-LABEL: func.func @four_by_eight
// CHECK:         vector.shuffle
// CHECK-NOT:     vector.transpose
// CHECK:         vector.shape_cast {{.*}} : vector<4x8xf32> to vector<1x8x4xf32>
func.func @four_by_eight(%v: vector<1x4x8xf32>) -> vector<1x8x4xf32> {
  %t = vector.transpose %v, [0, 2, 1] : vector<1x4x8xf32> to vector<1x8x4xf32>
  return %t : vector<1x8x4xf32>
}

// -----

// f64 blocks have no AVX sequence here: viewed as 2-D, still a transpose
// for convert-vector-to-llvm.
// CHECK-LABEL: func.func @f64_left_to_llvm
// CHECK:         %[[MATRIX:.*]] = vector.shape_cast %arg0 : vector<1x8x8xf64> to vector<8x8xf64>
// CHECK:         vector.transpose %[[MATRIX]], [1, 0] : vector<8x8xf64> to vector<8x8xf64>
// CHECK-NOT:     llvm.inline_asm
func.func @f64_left_to_llvm(%v: vector<1x8x8xf64>) -> vector<1x8x8xf64> {
  %t = vector.transpose %v, [0, 2, 1] : vector<1x8x8xf64> to vector<1x8x8xf64>
  return %t : vector<1x8x8xf64>
}

// -----

// Three dimensions longer than one, and two long ones kept in order (only
// unit dimensions move): neither is a 2-D transpose.
// CHECK-LABEL: func.func @left_alone
// CHECK:         vector.transpose %arg0, [2, 1, 0] : vector<2x8x8xf32> to vector<8x8x2xf32>
// CHECK:         vector.transpose %arg1, [1, 0, 2] : vector<8x1x8xf32> to vector<1x8x8xf32>
// CHECK-NOT:     vector.shuffle
func.func @left_alone(%a: vector<2x8x8xf32>, %b: vector<8x1x8xf32>) -> (vector<8x8x2xf32>, vector<1x8x8xf32>) {
  %t = vector.transpose %a, [2, 1, 0] : vector<2x8x8xf32> to vector<8x8x2xf32>
  %u = vector.transpose %b, [1, 0, 2] : vector<8x1x8xf32> to vector<1x8x8xf32>
  return %t, %u : vector<8x8x2xf32>, vector<1x8x8xf32>
}
