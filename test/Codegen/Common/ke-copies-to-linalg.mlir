// RUN: ke-opt %s --split-input-file --ke-copies-to-linalg | FileCheck %s
// RUN: ke-opt %s --split-input-file --ke-copies-to-linalg=strided-only=true | FileCheck %s --check-prefix=STRIDED

// A copy into a strided view (what bufferization writes for an insert into
// a padded buffer) becomes a linalg.copy of the same operands.
// CHECK-LABEL: func.func @strided
// CHECK-SAME: (%[[SRC:.*]]: memref<4x8xf32>, %[[DST:.*]]: memref<6x10xf32>)
// CHECK: %[[VIEW:.*]] = memref.subview %[[DST]]
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[SRC]] : memref<4x8xf32>) outs(%[[VIEW]] : memref<4x8xf32, strided<[10, 1], offset: 11>>)
func.func @strided(%src: memref<4x8xf32>, %dst: memref<6x10xf32>) {
  %view = memref.subview %dst[1, 1] [4, 8] [1, 1]
      : memref<6x10xf32> to memref<4x8xf32, strided<[10, 1], offset: 11>>
  memref.copy %src, %view
      : memref<4x8xf32> to memref<4x8xf32, strided<[10, 1], offset: 11>>
  return
}

// -----

// A whole-buffer copy too; other ops are left alone.
// CHECK-LABEL: func.func @whole
// CHECK: linalg.copy ins(%{{.*}} : memref<16xf32>) outs(%{{.*}} : memref<16xf32>)
// CHECK: memref.load
func.func @whole(%src: memref<16xf32>, %dst: memref<16xf32>, %i: index) -> f32 {
  memref.copy %src, %dst : memref<16xf32> to memref<16xf32>
  %v = memref.load %dst[%i] : memref<16xf32>
  return %v : f32
}

// With strided-only (the CPU's), the copy into the strided view becomes a
// linalg.copy (memrefCopy would walk it element by element) and the
// contiguous whole-buffer copy stays a memref.copy (a memcpy).
// STRIDED-LABEL: func.func @strided
// STRIDED:         linalg.copy
// STRIDED-LABEL: func.func @whole
// STRIDED:         memref.copy
// STRIDED-NOT:     linalg.copy
