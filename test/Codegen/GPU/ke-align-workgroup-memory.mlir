// RUN: ke-opt %s --split-input-file --ke-align-workgroup-memory | FileCheck %s
// RUN: ke-opt %s --split-input-file --ke-align-workgroup-memory=alignment=64 | FileCheck %s --check-prefix=WIDE
// RUN: not ke-opt %s --split-input-file --ke-align-workgroup-memory=alignment=12 2>&1 | FileCheck %s --check-prefix=BAD

// Every workgroup buffer gets 16 bytes; one already aligned further keeps
// its alignment; private buffers are left alone.
// CHECK-LABEL: gpu.func @slices
// CHECK-SAME: workgroup(%{{.*}} : memref<2x64x20xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<16x68xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// CHECK-SAME: private(%{{.*}} : memref<4xf32, #gpu.address_space<private>>)
// CHECK-NOT: llvm.align
// WIDE-LABEL: gpu.func @slices
// WIDE-SAME: {llvm.align = 64 : i64}
// WIDE-SAME: {llvm.align = 128 : i64}
// BAD: ke-align-workgroup-memory: alignment must be a power of two (got 12)
gpu.module @kernels {
  gpu.func @slices()
      workgroup(%a : memref<2x64x20xf32, #gpu.address_space<workgroup>>,
                %b : memref<16x68xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
      private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}
