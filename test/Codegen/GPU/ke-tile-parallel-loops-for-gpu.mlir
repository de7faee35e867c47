// RUN: ke-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ke-tile-parallel-loops-for-gpu,canonicalize))' | FileCheck %s
// RUN: ke-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ke-tile-parallel-loops-for-gpu{block-tile=4,64},canonicalize))' | FileCheck %s --check-prefix=OPTION
// RUN: ke-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ke-tile-parallel-loops-for-gpu))' | FileCheck %s --check-prefix=MINBLOCKS
// RUN: ke-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ke-tile-parallel-loops-for-gpu{min-blocks=8}))' | FileCheck %s --check-prefix=FEWSMS

// Canonicalization folds the block loop into the grid loop: the steps of
// the outer dimensions are the block sizes.
// A 1-D loop of 2048: 32 threads, so that 64 blocks keep the SMs busy.
// CHECK-LABEL: func.func @rows
// CHECK:         scf.parallel ({{.*}}) = (%c0, %c0) to (%c2048, %c32) step (%c32, %c1)
// OPTION-LABEL: func.func @rows
// OPTION:         scf.parallel ({{.*}}) = (%c0, %c0) to (%c2048, %c256) step (%c256, %c1)
func.func @rows(%m: memref<2048xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c2048) step (%c1) {
    memref.store %z, %m[%i] : memref<2048xf32>
  }
  return
}

// -----

// A large 2-D loop: 256 threads, a warp along x (the innermost loop).
// CHECK-LABEL: func.func @plane
// CHECK:         scf.parallel ({{.*}}) to (%c1024, %c1024, %c8, %c32) step (%c8, %c32, %c1, %c1)
// OPTION-LABEL: func.func @plane
// OPTION:         to (%c1024, %c1024, %c4, %c64) step (%c4, %c64, %c1, %c1)
func.func @plane(%m: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1024, %c1024) step (%c1, %c1) {
    memref.store %z, %m[%i, %j] : memref<1024x1024xf32>
  }
  return
}

// -----

// The function's ke.gpu_block_tile wins over both, right-aligned on the
// loop's dimensions.
// CHECK-LABEL: func.func @knob
// CHECK:         to (%c8, %c64, %c256, %c2, %c128) step (%c1, %c2, %c128, %c1, %c1)
// OPTION-LABEL: func.func @knob
// OPTION:         to (%c8, %c64, %c256, %c2, %c128) step (%c1, %c2, %c128, %c1, %c1)
func.func @knob(%m: memref<8x64x256xf32>) attributes {ke.gpu_block_tile = array<i64: 2, 128>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%b, %i, %j) = (%c0, %c0, %c0) to (%c8, %c64, %c256) step (%c1, %c1, %c1) {
    memref.store %z, %m[%b, %i, %j] : memref<8x64x256xf32>
  }
  return
}

// -----

// Blocks grow past a warp only while the loop still gives `min-blocks`
// blocks (twice the GPU's SMs): 65536 iterations stop at 128 threads (512
// blocks) for the H100's 264, and reach 256 threads for a GPU of 4 SMs.
// MINBLOCKS-LABEL: func.func @min_blocks
// MINBLOCKS: %[[BLOCK:.*]] = arith.constant 128 : index
// MINBLOCKS: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
// MINBLOCKS-NEXT: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}})
// FEWSMS-LABEL: func.func @min_blocks
// FEWSMS: arith.constant 256 : index
// FEWSMS-NOT: arith.constant 128 : index
func.func @min_blocks(%a: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %a[%i] : memref<65536xf32>
    scf.reduce
  }
  return
}

// -----

// A 5-D loop: its outer three dimensions become one (64 x 16 x 14 =
// 14336), so all of it maps to the grid's and the block's three
// dimensions (8 x 30 threads; canonicalize folds the one block along the
// innermost 30); the collapsed index is split back into the three inside.
// CHECK-LABEL: func.func @five_dims
// CHECK:         scf.parallel (%[[A:.*]], %{{.*}}, %{{.*}}, %{{.*}}) = {{.*}} to (%c14336, %c30, %c8, %c30) step (%c1, %c8, %c1, %c1)
// CHECK:           %[[K:.*]] = arith.remsi %[[A]], %c14
// CHECK:           %[[IJ:.*]] = arith.divsi %[[A]], %c14
// CHECK:           %[[J:.*]] = arith.remsi %[[IJ]], %c16
// CHECK:           %[[I:.*]] = arith.divsi %[[IJ]], %c16
// CHECK:           memref.store %{{.*}}, %arg0[%[[I]], %[[J]], %[[K]], %{{.*}}, %{{.*}}]
func.func @five_dims(%m: memref<64x16x14x30x30xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c14 = arith.constant 14 : index
  %c16 = arith.constant 16 : index
  %c30 = arith.constant 30 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%a, %b, %c, %d, %e) = (%c0, %c0, %c0, %c0, %c0) to (%c64, %c16, %c14, %c30, %c30) step (%c1, %c1, %c1, %c1, %c1) {
    memref.store %z, %m[%a, %b, %c, %d, %e] : memref<64x16x14x30x30xf32>
  }
  return
}

// -----

// The loop's dimensions follow an op's iterators, the output's layout may
// not: the dimension that indexes the stored buffer's innermost dimension
// moves last, so threadIdx.x runs along it (coalesced stores).
// CHECK-LABEL: func.func @transposed_store
// CHECK:         scf.parallel (%[[J:.*]], %[[I:.*]], %{{.*}}, %[[X:.*]]) = {{.*}} to (%c64, %c1024, %c4, %c32) step (%c4, %c32, %c1, %c1)
// CHECK:           %[[COL:.*]] = arith.addi %[[X]], %[[I]]
// CHECK:           memref.store %{{.*}}, %arg0[%{{.*}}, %[[COL]]]
func.func @transposed_store(%m: memref<64x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1024, %c64) step (%c1, %c1) {
    memref.store %z, %m[%j, %i] : memref<64x1024xf32>
  }
  return
}

// -----

// A unit loop between others (a 1-D max pool as NCHW with H = 1, its
// outer loops collapsed): no threads along it; the 8 it would have had
// (256 / 32) go to the next loop outward.
// CHECK-LABEL: func.func @unit_middle
// CHECK:         scf.parallel ({{.*}}) = {{.*}} to (%c384, %c8179, %c8, %c32) step (%c8, %c32, %c1, %c1)
func.func @unit_middle(%m: memref<384x1x8179xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c384 = arith.constant 384 : index
  %c8179 = arith.constant 8179 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%a, %b, %c) = (%c0, %c0, %c0) to (%c384, %c1, %c8179) step (%c1, %c1, %c1) {
    memref.store %z, %m[%a, %b, %c] : memref<384x1x8179xf32>
  }
  return
}
