// RUN: ke-opt %s --split-input-file --ke-fold-known-block-dims | FileCheck %s

// A kernel with a known block size reads it as constants; one without keeps
// its gpu.block_dim.
// CHECK-LABEL: gpu.func @known
// CHECK-NOT: gpu.block_dim
// CHECK-DAG: %[[X:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[Y:.*]] = arith.constant 2 : index
// CHECK: arith.muli %[[X]], %[[Y]]
// CHECK-LABEL: gpu.func @unknown
// CHECK: gpu.block_dim x
gpu.module @kernels {
  gpu.func @known(%out: memref<1xindex>) kernel attributes {known_block_size = array<i32: 256, 2, 1>} {
    %x = gpu.block_dim x
    %y = gpu.block_dim y
    %n = arith.muli %x, %y : index
    %c0 = arith.constant 0 : index
    memref.store %n, %out[%c0] : memref<1xindex>
    gpu.return
  }
  gpu.func @unknown(%out: memref<1xindex>) kernel {
    %x = gpu.block_dim x
    %c0 = arith.constant 0 : index
    memref.store %x, %out[%c0] : memref<1xindex>
    gpu.return
  }
}

// -----

// After convert-gpu-to-rocdl: the kernel is an llvm.func that keeps the
// size as gpu.known_block_size, and the reads are ROCDL ops (which would
// call __ockl_get_local_size).
// CHECK-LABEL: llvm.func @lowered
// CHECK-NOT: rocdl.workgroup.dim
// CHECK: %[[Z:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: llvm.mul %{{.*}}, %[[Z]]
gpu.module @lowered_kernels {
  llvm.func @lowered() -> i32 attributes {gpu.kernel, gpu.known_block_size = array<i32: 64, 1, 4>} {
    %x = rocdl.workgroup.dim.x : i32
    %z = rocdl.workgroup.dim.z : i32
    %n = llvm.mul %x, %z : i32
    llvm.return %n : i32
  }
}
