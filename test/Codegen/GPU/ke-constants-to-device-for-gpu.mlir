// RUN: ke-opt %s --ke-constants-to-device-for-gpu | FileCheck %s

// A constant table read by a GPU loop: copied into a device buffer at the
// entry, which the loop reads instead of the host global.
// CHECK: memref.global "private" constant @table
// CHECK-LABEL: func.func @scaled_by_table
// CHECK:       %[[HOST:.*]] = memref.get_global @table : memref<4xf32>
// CHECK-NEXT:  %[[DEVICE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:  gpu.memcpy %[[DEVICE]], %[[HOST]] : memref<4xf32>, memref<4xf32>
// CHECK:       scf.parallel
// CHECK:         memref.load %[[DEVICE]]
// CHECK-NOT:   memref.get_global
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @scaled_by_table(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.get_global @table : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %a = memref.load %x[%i] : memref<4xf32>
    %b = memref.load %t[%i] : memref<4xf32>
    %p = arith.mulf %a, %b : f32
    memref.store %p, %out[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
