// RUN: ke-opt %s --ke-hoist-allocations-to-entry | FileCheck %s
// RUN: ke-opt %S/../../../bench/kernels/softmax.mlir --ke-lower-nvgpu | FileCheck %s --check-prefix=ONESYNC

// Static allocations move, in order, before the first op; the dynamic one
// (it needs %n) and the nested one stay.
// CHECK-LABEL: func.func @temporaries
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    linalg.fill ins(%{{.*}}) outs(%[[A]]
// CHECK:         memref.alloc(%arg1) : memref<?xf32>
// CHECK:         scf.if
// CHECK-NEXT:      memref.alloc() : memref<4xf32>
func.func @temporaries(%x: f32, %n: index, %c: i1) {
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<8xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<8xf32>)
  %d = memref.alloc(%n) : memref<?xf32>
  scf.if %c {
    %e = memref.alloc() : memref<4xf32>
    memref.dealloc %e : memref<4xf32>
  }
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %d : memref<?xf32>
  return
}

// Softmax's three temporaries no longer split its launches: one stream
// synchronization per call.
// ONESYNC-LABEL: llvm.func @softmax(
// ONESYNC-COUNT-1: llvm.call @mgpuStreamSynchronize
// ONESYNC-NOT:     llvm.call @mgpuStreamSynchronize
// ONESYNC:       llvm.return
